// CampaignSpec: a sweep of many runs loaded from a TOML campaign file
// (`flashmark sweep CAMPAIGN.toml`): a base workload, a matrix of
// parameter values, repeats and order, and the reset steps that give each
// cell a fresh device. ExpandCampaign() turns it into the ordered list of
// cells, each a complete RunOptions (so a cell is validated exactly like
// `flashmark run`). Plain data; thread-safe to copy.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "config/run_options.h"

namespace flashmark {

enum class ResetKind { kDiscard, kSecureErase, kMkfs, kMount, kPrecondition, kIdle, kExec };

struct ResetStep {
  ResetKind kind = ResetKind::kIdle;
  std::string filesystem;            // mkfs: "xfs", "ext4"
  std::vector<std::string> options;  // mkfs options / mount options (one string each)
  std::string mount_point;           // mount
  std::chrono::nanoseconds idle{0};  // idle
  std::vector<std::string> argv;     // exec: run without a shell
  // precondition: "snia" (sequential 128 KiB writes of 2x the capacity) or
  // a workload given as run options until steady state (max_time bound).
  std::string precondition = "snia";
  RunOptions precondition_workload;
};

struct MatrixAxis {
  std::string name;                 // a run option: "size", "threads", "mode", "target"...
  std::vector<std::string> values;  // as option text, expanded from lists or ranges
};

enum class CellOrder { kAsWritten, kShuffled };

struct CampaignSpec {
  std::string path;           // the campaign file
  std::string file_hash;      // hex SHA-256 (or similar) of its bytes, for --resume
  std::string name;           // [campaign] name, default the file stem
  std::string description;
  RunOptions base;            // [workload]: every `run` option
  std::vector<std::string> targets;  // [targets] list; one cell may use several
  std::vector<MatrixAxis> matrix;    // [matrix]
  int repeats = 1;
  CellOrder order = CellOrder::kAsWritten;
  uint64_t order_seed = 0;
  bool until_steady = false;         // per-cell time: until-steady with max
  std::optional<std::string> max_time;
  std::vector<ResetStep> reset;      // [[reset]] steps, in order, before each cell
};

struct CampaignCell {
  int index = 0;                     // 0-based position in the plan
  int repeat = 0;
  std::vector<std::pair<std::string, std::string>> parameters;  // axis = value
  RunOptions options;                // base + parameters, ready for BuildJobSpec
};

// Parses and validates a campaign file. Errors carry "FILE:LINE:COLUMN:"
// for TOML syntax and for bad values, suggest the closest known key for
// unknown ones ("did you mean iodepth?"), and reject impossible values
// (0 threads, empty ranges, a size larger than a device) before anything
// is touched. Usage errors (exit 2).
Result<CampaignSpec> LoadCampaign(const std::string& path);

// The ordered cells (matrix product x repeats, in file order or shuffled
// with the seed). Each cell's options are checked with BuildJobSpec.
Result<std::vector<CampaignCell>> ExpandCampaign(const CampaignSpec& campaign);

// "50G..650G step 40G" -> 50G, 90G, ... 650G (sizes, counts, durations).
Result<std::vector<std::string>> ExpandRange(const std::string& text);

}  // namespace flashmark
