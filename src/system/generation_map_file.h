// The generation map of a file set on disk: DIR/flashmark.verify, written
// after a --verify run that keeps its files, read by the next --verify run
// on the same set and by `flashmark verify DIR`. It lets a later pass tell
// the last data written from a lost write.
//
// Format: one line of JSON (tool, kind "generation-map", version 1,
// block_bytes, the files by name with their sizes and block counts, the
// seed of the last run), then every block's state as a little-endian
// uint32 (GenerationMap's encoding: generation, uncertain bit), file after
// file. File names are plain names inside DIR; a map naming anything else
// is refused.
//
// Everything goes through the set's TargetDirectory (never a path): the
// map is read with O_NOFOLLOW (a link or non-regular file there is an
// error, never followed) and written atomically with
// TargetDirectory::WriteFileAtomically (a new temporary created with
// O_EXCL | O_NOFOLLOW, renamed over the map), so a link planted at the map's
// or the temporary's name redirects nothing.
// Not thread-safe; used before and after a run.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "system/target_directory.h"
#include "workload/generation_map.h"

namespace flashmark {

struct StoredGenerationMap {
  std::vector<std::string> file_names;  // plain names inside the directory
  std::unique_ptr<GenerationMap> map;
  uint64_t seed = 0;  // of the run that wrote it last
};

// The map in `directory`, or nullopt when there is none. Errors: unreadable
// or malformed (naming the path).
Result<std::optional<StoredGenerationMap>> ReadGenerationMap(
    const TargetDirectory& directory);

// Writes `map` for the files named `file_names` (in map order).
Status WriteGenerationMap(const TargetDirectory& directory,
                          const GenerationMap& map,
                          const std::vector<std::string>& file_names,
                          uint64_t seed);

// Removes the map; returns whether there was one.
bool RemoveGenerationMap(const TargetDirectory& directory);

}  // namespace flashmark
