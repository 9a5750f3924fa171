// OutputPath: judges, once and before anything is opened for writing, a
// path that flashmark is about to write: a --json, --html, --md or export
// output, a verify report, the --csv directory, or a results database.
//
// An output file is an existing regular file, or a name that does not exist
// yet in an existing directory where files can be created. Symlinks are
// resolved first: the file they lead to is judged, and `real` names it (the
// writers write there). Refused, as usage errors (exit status 2) naming the
// option and the value, with a hint:
//   - block and character devices, fifos, sockets, directories;
//   - a symlink that leads nowhere;
//   - anything under /dev (but /dev/shm), /proc or /sys;
//   - a missing directory, or one where no file can be created (read-only
//     filesystem, no permission; asked with access(2));
//   - for documents (not databases): an existing SQLite database, which the
//     document would replace.
// CheckDistinctOutputs refuses two outputs of one command that are the same
// file (same device and inode; for new names, the same resolved path).
//
// Reads the filesystem (lstat, stat, realpath, access, and the first bytes
// of an existing document output); creates nothing.
// Thread-safe.
#pragma once

#include <sys/types.h>

#include <span>
#include <string>

#include "common/result.h"

namespace flashmark {

enum class OutputKind {
  kDocument,  // replaced whole (written beside and renamed)
  kDatabase,  // a SQLite file, written in place with its -wal and -shm
};

struct OutputPath {
  std::string option;  // "--json", "--db", for messages
  std::string path;    // as given
  std::string real;  // symlinks resolved; for a new name, in its real directory
  bool exists = false;
  dev_t device = 0;  // when it exists
  ino_t inode = 0;

  bool SameFile(const OutputPath& other) const;
};

Result<OutputPath> CheckOutputPath(const std::string& option,
                                   const std::string& path, OutputKind kind);

// An output directory (report --csv DIR): an existing directory, or a new
// name in an existing writable directory; the same places are refused.
Result<OutputPath> CheckOutputDirectory(const std::string& option,
                                        const std::string& path);

// Refuses when two outputs are the same file, naming both options.
Status CheckDistinctOutputs(std::span<const OutputPath> outputs);

// "a block device", "a fifo", "a directory", ... for a stat mode.
std::string FileTypeName(mode_t mode);

// The tree of /dev (but /dev/shm), /proc and /sys that `real_path` lies in,
// or "" when it lies in none of them.
std::string KernelFilesystemTree(const std::string& real_path);

// Whether the regular file at `path` starts with SQLite's file header.
bool HasSqliteHeader(const std::string& path);

}  // namespace flashmark
