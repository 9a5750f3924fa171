// The manifest of a file set, DIR/flashmark.manifest, and which files it
// makes flashmark's (system/file_set.h decides what to do with them).
//
// Format (version 2): one JSON object: tool "flashmark", kind "file-set",
// version 2, complete (the layout finished), contents ("filled", "sparse"
// or "written"), file_size (bytes), data (DataPatternText of what the
// files hold) and files: [{name, inode, size}], in set order. Entries
// whose name is not flashmark.N are dropped when read: they are never
// anyone's to touch. A manifest of another version (the older one listed
// names only), not JSON, not flashmark's, or a link is "foreign".
//
// A listed file is flashmark's when, looked at without following links,
// it is a regular file on the directory's filesystem with the recorded
// inode and size (any size up to it while the layout is unfinished).
//
// Everything goes through a TargetDirectory; writes are atomic
// (TargetDirectory::WriteFileAtomically). Not thread-safe.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "system/target_directory.h"

namespace flashmark {

inline constexpr const char* kManifestName = "flashmark.manifest";

// What the set's files hold: laid out filled, laid out sparse, or written
// in full since.
inline constexpr const char* kContentsFilled = "filled";
inline constexpr const char* kContentsSparse = "sparse";
inline constexpr const char* kContentsWritten = "written";

struct ManifestFile {
  std::string name;  // flashmark.N
  uint64_t inode = 0;
  uint64_t size = 0;  // bytes
};

enum class ManifestKind { kNone, kCurrent, kForeign };

struct Manifest {
  ManifestKind kind = ManifestKind::kNone;
  std::string foreign_reason;  // kForeign: why flashmark cannot take it
  bool complete = false;       // the layout finished
  std::string contents;        // kContents*
  uint64_t file_size = 0;
  std::string data;  // DataPatternText of what the files hold
  std::vector<ManifestFile> files;
};

// "flashmark.3" for 3; whether a name is one of those.
std::string SetFileName(int index);
bool IsSetFileName(const std::string& name);

// The manifest in `directory`; kNone when there is none. Never fails: what
// cannot be read is kForeign with the reason.
Manifest ReadManifest(const TargetDirectory& directory);
Status WriteManifest(const TargetDirectory& directory,
                     const Manifest& manifest);

// The entry for `name`, or nullptr.
const ManifestFile* FindListed(const Manifest& manifest,
                               const std::string& name);

// What is at `name` in the directory, looked at without following links,
// and whether it is the file `listed` (nullptr: listed nowhere) records.
struct Inspection {
  bool present = false;
  bool ours = false;
  std::string why;  // present and not ours: the reason, for messages
  struct stat st {};
};
Inspection InspectSetFile(const TargetDirectory& directory,
                          const std::string& name, const ManifestFile* listed,
                          bool layout_complete);

// The filesystem (st_dev) the directory lies on; 0 when unknown.
dev_t DeviceOf(const TargetDirectory& directory);

}  // namespace flashmark
