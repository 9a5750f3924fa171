// TargetSet: every file or device a run does IO on, opened and checked.
//
// A TARGET is a directory (a file set is laid out there), an existing
// regular file, or a block device. Writes to a block device follow the
// rules of system/device_safety.h (named in --allow-destroy; never while
// it or a partition of it is mounted or held by md/dm/LVM; never the
// device holding /, the program, the database or the --json output); the
// device is then opened with O_EXCL so the kernel refuses too. With --direct, the block sizes are checked against the
// target's direct-IO alignment before any IO. The null engine gets one
// pseudo-file (fd -1) spanning --size.
// A regular file is written only when it lies (symlinks resolved) in no
// system directory (ProtectedSystemDirectory of system/file_set.h) and is
// none of the protected files (the database, the --json output, the
// program: SafetyContext::protected_files).
//
// Ownership: owns the descriptors, closes them on destruction, and removes
// the file sets it laid out unless --keep-files. Move-only; not
// thread-safe (the runner borrows files() while it runs).
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/job_spec.h"
#include "engine/io_engine.h"
#include "metrics/environment.h"
#include "system/device_safety.h"

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

  TargetSet(TargetSet&& other) noexcept;
  TargetSet& operator=(TargetSet&&) = delete;
  ~TargetSet();

  std::span<const IoFile> files() const { return files_; }
  const std::vector<TargetInfo>& info() const { return info_; }
  // The file-set size resolved in bytes (a "50%" --size becomes bytes).
  uint64_t resolved_size() const { return resolved_size_; }

 private:
  TargetSet() = default;
  Status AddTarget(const JobSpec& spec, const std::string& path,
                   const SafetyContext& safety, std::ostream& log);
  Status AddDirectory(const JobSpec& spec, const std::string& path,
                      std::ostream& log);
  Status AddFile(const JobSpec& spec, const std::string& path, int flags,
                 bool block_device, bool in_file_set);
  Status CheckDirectAlignment(const JobSpec& spec, const IoFile& file,
                              bool block_device);

  std::vector<IoFile> files_;
  std::vector<TargetInfo> info_;
  std::vector<std::string> created_sets_;  // directories to clean up
  uint64_t resolved_size_ = 0;
  bool keep_files_ = false;
};

}  // namespace flashmark
