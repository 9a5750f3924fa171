// FileSet: the files flashmark lays out in a target directory, like
// sysbench fileio's `prepare`: flashmark.0 .. flashmark.N-1 of equal size,
// filled with the job's data pattern (or left sparse for seqwr, which
// writes them itself), listed in flashmark.manifest.
//
// Everything goes through one TargetDirectory (opened once; see
// system/target_directory.h): files are created with O_EXCL | O_NOFOLLOW,
// inspected with fstatat(AT_SYMLINK_NOFOLLOW) and removed with unlinkat,
// never following links.
//
// The manifest (system/file_set_manifest.h, version 2) records whether the
// layout finished, the shape, each file's inode and size, the data pattern,
// and the contents: "filled" (laid out filled), "sparse" (laid out for a
// sequential write) or "written" (a write run has since written every
// block: no file has a hole).
//
// Which files are flashmark's: a name flashmark.N listed in a version-2
// manifest whose file, looked at without following links, is a regular
// file on the directory's filesystem with the recorded inode and size (any
// size up to it while the layout is unfinished). Only those are reused or
// removed. Anything else at a name the set needs (a link, a file of
// another inode, a file in no manifest) is refused, exit 2, and left
// alone; so is a set file with more than one link (writing it would change
// what its other names show). A manifest of another version (the older
// flashmark recorded names only) or one flashmark cannot read makes its
// files nobody's: they are neither reused nor removed, and laying out
// there is refused with a hint.
//
// Reuse. A run that writes reuses a set of the same shape and data
// pattern (with complete contents when it reads before writing) and lays
// it out anew otherwise. A run that only reads never overwrites or removes
// a set or a generation map: it reuses a set of its shape whose contents
// are complete, or that holds a generation map, as it is; any other set
// (another shape, sparse contents, an unfinished layout) stops it with a
// usage error saying what is there and what it needs, and `flashmark
// cleanup DIR` (RemoveFileSet) is how the user allows a new layout. Into a
// directory without a set, a read run lays one out (that destroys nothing).
//
// Not thread-safe; used before and after a run.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/job_spec.h"
#include "system/file_set_manifest.h"
#include "system/target_directory.h"

namespace flashmark {

struct FileSetPlan {
  int file_count = 0;
  uint64_t file_size = 0;  // bytes, a multiple of the largest block size
  DataPattern data;
  bool filled = true;  // false: sparse files for a sequential write
  bool writes = true;  // false: a read run, which never lays out over a set
};

struct FileSetFile {
  std::string name;  // flashmark.N, a plain name inside the directory
  uint64_t inode = 0;
};

struct FileSetState {
  std::vector<FileSetFile> files;  // in order
  bool reused = false;    // found in place; false: laid out by this call
  bool complete = false;  // every block holds data (no hole)
};

// What --verify last wrote where (system/generation_map_file.h). It
// describes the set's contents, so it goes whenever the files are laid out
// anew or removed.
inline constexpr const char* kGenerationMapName = "flashmark.verify";

// Lays out (or reuses) the set; progress and timing go to `log`. On error
// or interruption, files it created are removed again. A SIGINT/SIGTERM
// taken during the layout (common/signals.h) is an InterruptedError
// (exit 130, IsInterruption()), not a failure.
Result<FileSetState> LayOutFileSet(const TargetDirectory& directory,
                                   const FileSetPlan& plan, std::ostream& log);

// Checks that `fd`, opened from `file.name` in `directory`, is that file
// of the set: a regular file on the directory's filesystem with
// `file.inode` and a single link. Usage error naming the path otherwise.
Status CheckFileSetFile(const TargetDirectory& directory,
                        const FileSetFile& file, int fd);

// After a run wrote a set whose contents were not complete: when every one
// of its files (open as `fds`, in order) now holds data in every block,
// records the contents as "written" with `data`, so that read runs reuse
// the set as it is. Returns whether it did.
Result<bool> RecordWrittenContents(const TargetDirectory& directory,
                                   std::span<const int> fds,
                                   const DataPattern& data);

struct FileSetRemoval {
  int files = 0;                  // removed
  uint64_t bytes = 0;             // their size
  bool map = false;               // the generation map was removed
  bool manifest = false;          // the manifest was removed
  std::vector<std::string> left;  // listed, there, but not flashmark's
};

// Removes the files of the set in `directory` that are flashmark's (see
// above), then its generation map and its manifest; the manifest stays
// while a file it lists is left. Usage error when there is no manifest or
// one of another version (nothing is removed then).
Result<FileSetRemoval> RemoveFileSet(const TargetDirectory& directory);

}  // namespace flashmark
