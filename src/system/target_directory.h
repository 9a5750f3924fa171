// TargetDirectory: the directory of a file set, opened once and used
// through its descriptor for the whole run. Every file in it is created,
// opened, inspected and removed relative to that descriptor (openat,
// fstatat, unlinkat, renameat), never following a link at the file's own
// name, so renaming the directory or re-pointing a symlink on the way to it
// after Open() changes nothing: the run, and its cleanup, stay in the
// directory that was opened.
//
// Open() follows links in the path once, at open time, then checks the
// directory actually opened (its /proc/self/fd link) against
// ProtectedSystemDirectory, so no swap between a check and the open can
// lead it into /etc or /usr. OpenForReading() skips that check (`flashmark
// verify` only reads).
//
// Ownership: owns the descriptor (closed on destruction); move-only.
// Not thread-safe: used before and after a run.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace flashmark {

class TargetDirectory {
 public:
  // Usage error (exit 2) for a system directory or a path that is no
  // directory; runtime error when the directory cannot be opened.
  static Result<TargetDirectory> Open(const std::string& path);
  static Result<TargetDirectory> OpenForReading(const std::string& path);

  TargetDirectory(TargetDirectory&& other) noexcept;
  TargetDirectory& operator=(TargetDirectory&& other) noexcept;
  TargetDirectory(const TargetDirectory&) = delete;
  TargetDirectory& operator=(const TargetDirectory&) = delete;
  ~TargetDirectory();

  int fd() const { return fd_; }
  // The path as the user gave it, for messages only: the files are reached
  // through fd(), never through this path.
  const std::string& path() const { return path_; }
  // Where the opened directory is (links resolved), as the kernel reports it.
  const std::string& real_path() const { return real_path_; }
  // path() + "/" + name, for messages and IoFile::path.
  std::string PathOf(const std::string& name) const;

  // Writes `name` whole or not at all: `text` goes to a new temporary file
  // created beside it with O_EXCL | O_NOFOLLOW (a name already taken, even
  // by a link, is never opened: another temporary name is tried), is
  // synced and renamed over `name`, which is replaced whatever it was (a
  // link there is replaced, never followed). Runtime errors name the path.
  Status WriteFileAtomically(const std::string& name,
                             std::string_view text) const;
  // The contents of the regular file `name`, or nullopt when there is
  // none. A link or anything not a regular file there is an error (it is
  // never followed), as is a read failure.
  Result<std::optional<std::string>> ReadFile(const std::string& name) const;

 private:
  TargetDirectory(int fd, std::string path, std::string real_path)
      : fd_(fd), path_(std::move(path)), real_path_(std::move(real_path)) {}
  static Result<TargetDirectory> OpenChecked(const std::string& path,
                                             bool check_system);

  int fd_ = -1;
  std::string path_;
  std::string real_path_;
};

// The system directory that `real_path` (already resolved, no links) is
// or lies in ("/etc" for "/etc/x"; "/" only for "/" itself), or "" when
// flashmark may lay out files there. /dev/shm is allowed.
std::string ProtectedSystemDirectory(const std::string& real_path);

}  // namespace flashmark
