#include "campaign/run_generations.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/units.h"
#include "runner/runner.h"
#include "system/file_set.h"
#include "system/generation_map_file.h"

namespace flashmark {
namespace {

std::string BaseName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

}  // namespace

Result<std::optional<RunGenerations>> PrepareRunGenerations(
    const JobSpec& spec, const TargetSet& targets, std::ostream& warnings) {
  if (!spec.verify) {
    if (Writes(spec.mode)) {
      for (const TargetDirectory* directory : targets.file_set_directories()) {
        if (RemoveGenerationMap(*directory)) {
          warnings << fmt::format(
              "note: removed {}: writes without --verify make it stale\n",
              directory->PathOf(kGenerationMapName));
        }
      }
    }
    return std::optional<RunGenerations>();
  }
  RunGenerations generations;
  // A new, empty map: the set has none that fits (built only then; it
  // takes 4 bytes per block).
  const auto start_anew = [&] {
    generations.map = NewGenerationMap(spec, targets.files());
    return std::optional(std::move(generations));
  };
  const bool one_file_set = spec.targets.size() == 1 &&
                            targets.info().size() == 1 &&
                            targets.file_set_directories().size() == 1;
  if (!one_file_set) {
    if (!Writes(spec.mode) && !targets.files().empty() &&
        targets.files().front().fd >= 0) {
      warnings << "warning: --verify checks reads against what a file set's "
                  "generation map records; a file or device target has none, "
                  "so this read run checks nothing (write with --verify in "
                  "the same run, or use a directory target)\n";
    }
    return start_anew();
  }
  generations.directory = targets.file_set_directories().front();
  for (const IoFile& file : targets.files()) {
    generations.file_names.push_back(BaseName(file.path));
  }
  auto stored = ReadGenerationMap(*generations.directory);
  if (!stored.ok()) return stored.error();
  if (!stored->has_value()) {
    if (!Writes(spec.mode)) {
      warnings << fmt::format(
          "warning: no generation map in {}: nothing was written there with "
          "--verify --keep-files, so this read run checks nothing\n",
          generations.directory->path());
    }
    return start_anew();
  }
  StoredGenerationMap& found = **stored;
  if (found.file_names != generations.file_names ||
      !FitsGenerationMap(*found.map, spec, targets.files())) {
    warnings << fmt::format(
        "warning: the generation map in {} is for {} blocks of another file "
        "set layout; starting a new one (blocks written before are not "
        "checked)\n",
        generations.directory->path(), FormatBytes(found.map->block_bytes()));
    return start_anew();
  }
  generations.map = std::move(found.map);
  return std::optional(std::move(generations));
}

void SaveRunGenerations(const RunGenerations& generations, const RunResult& run,
                        std::ostream& warnings) {
  if (generations.directory == nullptr || !run.spec.keep_files ||
      !Writes(run.spec.mode)) {
    return;
  }
  if (Status saved =
          WriteGenerationMap(*generations.directory, *generations.map,
                             generations.file_names, run.spec.seed);
      !saved.ok()) {
    warnings << "warning: " << saved.error().message
             << "; `flashmark verify` cannot check this file set later\n";
  }
}

}  // namespace flashmark
