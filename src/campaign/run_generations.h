// The generation map of a --verify run, as `flashmark run` and the sweep
// keep it: a --verify run on one file set continues the generations that
// set's map records, and saves them again when the files are kept; a
// writing run without --verify removes the maps of its file sets, since
// its unstamped writes make them stale. `flashmark verify DIR` reads the
// map back (app/verify_command.h). Not thread-safe; one run at a time.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/job_spec.h"
#include "model/run_result.h"
#include "system/target_set.h"
#include "workload/generation_map.h"

namespace flashmark {

// The generation map of a --verify run. `directory` is set when the run's
// only target is a file set, whose map is then loaded (when it fits the
// files as opened; otherwise a new one starts, with a warning) and saved,
// through the directory as the TargetSet opened it (borrowed: the
// TargetSet must outlive this).
struct RunGenerations {
  std::unique_ptr<GenerationMap> map;
  const TargetDirectory* directory = nullptr;
  std::vector<std::string> file_names;
};

// Before a run: the map for a --verify run, or nullopt without --verify
// (after dropping stale maps, see above).
Result<std::optional<RunGenerations>> PrepareRunGenerations(
    const JobSpec& spec, const TargetSet& targets, std::ostream& warnings);
// Saves the map after the run when the file set stays (--keep-files) and
// the run wrote; problems are warnings.
void SaveRunGenerations(const RunGenerations& generations, const RunResult& run,
                        std::ostream& warnings);

}  // namespace flashmark
