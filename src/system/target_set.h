// TargetSet: every file or device a run does IO on, opened and checked.
//
// A TARGET is a directory (a file set is laid out there), an existing
// regular file, or a block device. A block device is opened once (with
// O_EXCL when written, so the kernel refuses a mounted or held device
// too), and a write is judged on the device opened, by its number, with
// the rules of system/device_safety.h (named in --allow-destroy; never
// while it, a partition of it or anything underneath it is mounted or
// held; never the device holding /, the program, the database or the
// --json output, nor a loop backed by one of those files): a link
// flipped between the check and the open cannot redirect the write. With
// --direct, the block sizes are checked against the target's direct-IO
// alignment before any IO. The null engine gets one pseudo-file (fd -1)
// spanning --size. The io_uring_cmd engine takes NVMe generic character
// devices (/dev/ngXnY) only: a write is judged by the rules of its
// namespace's block device (/dev/nvmeXnY; --allow-destroy may name either
// node), and that block device is held open with O_EXCL for the run, so
// the kernel refuses to mount it meanwhile, as for a block device TARGET.
//
// A directory is opened once (system/target_directory.h) and everything of
// its file set goes through that descriptor until the set is released:
// laying out, opening each file (checked to be the file laid out), the
// generation map, and the cleanup, so re-pointing a symlink mid-run
// changes nothing.
//
// An existing regular file that is written is judged by its path, then
// opened once and judged again on the file opened: it must lie (links
// resolved) in no system directory (ProtectedSystemDirectory of
// system/target_directory.h) and be none of the protected files (the
// database, the --json output, the program:
// SafetyContext::protected_files).
//
// Ownership: owns the descriptors, closes them on destruction, and removes
// the file sets of a run that wrote, or that it laid out itself, unless
// --keep-files (a read run leaves a set it found as it was); a kept set
// that a write run has now written in full is recorded as such in its
// manifest, for later read runs (system/file_set.h). Move-only; not
// thread-safe (the runner borrows files() while it runs).
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/io_engine.h"
#include "model/environment.h"
#include "model/job_spec.h"
#include "system/device_safety.h"
#include "system/file_set.h"
#include "system/target_directory.h"

namespace flashmark {

class TargetSet {
 public:
  // Lays out file sets and opens everything; progress goes to `log`.
  // `safety` names what must never be written (CaptureSafetyContext with
  // the run's database); the --json output is added to it here.
  static Result<TargetSet> Open(const JobSpec& spec,
                                const SafetyContext& safety, std::ostream& log);
  // The same, protecting /, the program and the --json output only.
  static Result<TargetSet> Open(const JobSpec& spec, std::ostream& log);
  // Every check Open makes before it lays out a file set, with no IO:
  // each target is opened and judged (the safety rules, the direct-IO
  // alignment, a file set's size), a directory's file set is neither laid
  // out nor reused, and everything is closed again. Open judges again.
  // (A cluster run's ranks all judge theirs before any lays one out.)
  static Status Judge(const JobSpec& spec, const SafetyContext& safety);

  TargetSet(TargetSet&& other) noexcept;
  TargetSet& operator=(TargetSet&&) = delete;
  ~TargetSet();

  std::span<const IoFile> files() const { return files_; }
  const std::vector<TargetInfo>& info() const { return info_; }
  // The file-set size resolved in bytes (a "50%" --size becomes bytes).
  uint64_t resolved_size() const { return resolved_size_; }
  // The directories of the file sets, in target order, opened once: their
  // manifest and generation map are read and written through these.
  std::vector<const TargetDirectory*> file_set_directories() const;

 private:
  TargetSet() = default;
  static Result<TargetSet> Build(const JobSpec& spec,
                                 const SafetyContext& safety, std::ostream& log,
                                 bool judge_only);
  Status AddTarget(const JobSpec& spec, const std::string& path,
                   const SafetyContext& safety, std::ostream& log);
  Status AddDirectory(const JobSpec& spec, const std::string& path,
                      std::ostream& log);
  Status AddBlockDevice(const JobSpec& spec, const std::string& path,
                        const SafetyContext& safety);
  // An NVMe generic character device (--engine io_uring_cmd): opened, then
  // a write is judged as one to its namespace's block device would be.
  Status AddNvmeGeneric(const JobSpec& spec, const std::string& path,
                        const SafetyContext& safety);
  // An existing regular file: judged, opened once, judged again on the
  // file opened.
  Status AddRegularFile(const JobSpec& spec, const std::string& path,
                        const SafetyContext& safety);
  // Takes ownership of `fd` (closed on error too).
  Status AddOpenFile(const JobSpec& spec, const std::string& path, int fd,
                     bool block_device, bool in_file_set);
  Status CheckDirectAlignment(const JobSpec& spec, const IoFile& file,
                              bool block_device);

  // A file set this run uses: its directory, where its files start in
  // files_, and what to do when it is released.
  struct FileSetTarget {
    TargetDirectory directory;
    size_t first_file = 0;
    size_t file_count = 0;  // opened so far
    bool laid_out = false;  // by this run (false: found and reused)
    bool complete = false;  // every block holds data
  };
  void ReleaseFileSets();

  std::vector<IoFile> files_;
  std::vector<TargetInfo> info_;
  std::vector<FileSetTarget> file_sets_;
  // Block devices held with O_EXCL for the run (an NVMe namespace written
  // through its character device), closed by the destructor.
  std::vector<int> held_;
  uint64_t resolved_size_ = 0;
  bool keep_files_ = false;
  bool writes_ = false;
  bool judge_only_ = false;  // Judge(): no file set is laid out
  DataPattern data_;
};

}  // namespace flashmark
