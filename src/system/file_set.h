// FileSet: the files flashmark lays out in a target directory, like
// sysbench fileio's `prepare`: flashmark.0 .. flashmark.N-1 of equal size,
// filled with the job's data pattern (or left sparse for seqwr, which
// writes them itself), listed in flashmark.manifest.
//
// Safety: only files named in a manifest flashmark wrote are reused or
// removed (and only when they are regular files); files are created with
// O_EXCL | O_NOFOLLOW relative to the directory descriptor and removed
// with unlinkat, never following links. A directory that is, or resolves
// through a symlink into, a system directory (/etc, /usr, /boot, ...: see
// ProtectedSystemDirectory) is refused before anything is created.
// A matching complete set (same count, size, pattern) is reused as is.
// Not thread-safe; used before and after a run.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/job_spec.h"

namespace flashmark {

struct FileSetPlan {
  std::string directory;
  int file_count = 0;
  uint64_t file_size = 0;  // bytes, a multiple of the largest block size
  DataPattern data;
  bool filled = true;  // false: sparse files for a sequential write
};

struct FileSetState {
  std::vector<std::string> paths;  // absolute-or-as-given paths of the files
  bool reused = false;
};

inline constexpr const char* kManifestName = "flashmark.manifest";
// What --verify last wrote where (system/generation_map_file.h). It
// describes the set's contents, so it goes whenever the files are laid out
// anew or removed.
inline constexpr const char* kGenerationMapName = "flashmark.verify";

// Lays out (or reuses) the set; progress and timing go to `log`. On error
// or interruption, files it created are removed again. A SIGINT/SIGTERM
// taken during the layout (system/signals.h) is an InterruptedError
// (exit 130, IsInterruption()), not a failure.
Result<FileSetState> LayOutFileSet(const FileSetPlan& plan, std::ostream& log);

// Removes the files a manifest in `directory` lists, then the manifest.
Status RemoveFileSet(const std::string& directory);

// The system directory that `real_path` (already resolved, no links) is
// or lies in ("/etc" for "/etc/x"; "/" only for "/" itself), or "" when
// flashmark may lay out files there. /dev/shm is allowed.
std::string ProtectedSystemDirectory(const std::string& real_path);

}  // namespace flashmark
