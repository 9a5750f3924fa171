// `flashmark verify DIR`: reads back every block of a file set that a
// --verify run (with --keep-files) wrote, checks each against the
// generation map left in DIR/flashmark.verify, and reports torn,
// misdirected and lost blocks with their exact file and offset. Exit 0 when
// every block is good, 1 when any is bad (or a read fails), 2 on usage
// errors (no map there). --json FILE keeps the outcome as a document
// ("schema": "flashmark.verify") with every listed bad block.
//
// Also the map handling of `flashmark run`: a --verify run on one file set
// continues the generations that set's map records, and saves them again
// when the files are kept; a writing run without --verify removes the maps
// of its file sets, since its unstamped writes make them stale.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/job_spec.h"
#include "metrics/run_result.h"
#include "system/target_set.h"
#include "workload/generation_map.h"

namespace flashmark {

struct VerifyOptions {
  std::string target;
  bool direct = false;
  int show = 20;
  std::string json_path;  // "" = none
};

CLI::App* AddVerifyCommand(CLI::App& app, VerifyOptions& options);
int ExecuteVerify(const VerifyOptions& options);

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
void SaveRunGenerations(const RunGenerations& generations,
                        const RunResult& run, std::ostream& warnings);

}  // namespace flashmark
