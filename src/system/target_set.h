// TargetSet: every file or device a run does IO on, opened and checked.
//
// A TARGET is a directory (a file set is laid out there), an existing
// regular file, or a block device. Writes to a block device need its exact
// path in --allow-destroy and are refused while it or a partition of it is
// mounted or held (md, dm); the device is opened with O_EXCL so the kernel
// refuses too. With --direct, the block sizes are checked against the
// target's direct-IO alignment before any IO. The null engine gets one
// pseudo-file (fd -1) spanning --size.
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

namespace flashmark {

class TargetSet {
 public:
  // Lays out file sets and opens everything; progress goes to `log`.
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
                   std::ostream& log);
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

// Why writing `device` (a block device path) is refused, or OK.
Status CheckBlockDeviceWritable(const std::string& device,
                                const std::vector<std::string>& allow_destroy);

}  // namespace flashmark
