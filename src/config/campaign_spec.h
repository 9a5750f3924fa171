// CampaignSpec: a sweep of many runs loaded from a TOML campaign file
// (`flashmark sweep CAMPAIGN.toml`): a base workload, a matrix of
// parameter values, repeats and order, and the reset steps that give each
// cell a fresh device. ExpandCampaign() turns it into the ordered list of
// cells, each a complete RunOptions (so a cell is validated exactly like
// `flashmark run`). Plain data; thread-safe to copy.
//
// The file (examples/quick.toml documents it for users):
//   [campaign]  name (default: the file stem), description, repeats (1),
//               order = "as-written" | "shuffled", seed (shuffled only)
//   [workload]  run options by long name without dashes, aliases too
//               (campaign_keys.h); flags true/false, the rest numbers or
//               strings; each value checked alone at load time
//   [targets]   paths = [...] (the cell's TARGETs), devices = [...] (what
//               device reset steps act on; default the cell's targets)
//   [matrix]    axes in file order: option = [list] | "A..B step S" |
//               "A..B xF" (campaign_range.h); target = [[set], ...];
//               label = [{options}, ...] (a grouped axis)
//   [cluster]   every cell across MPI ranks (campaign/cluster_cell.h):
//               hosts = ["a", "b"] (one rank per host named, through
//               mpirun) or launcher = "mpirun -np 4 ..." | [argv] (any
//               launcher, e.g. "srun -N 4"; a string is split at spaces);
//               the reset steps then may only be idle
//   [[reset]]   step = discard | secure-erase | mkfs | mount | precondition
//               | idle | exec | write-cache, with their keys (ResetStep),
//               and on any
//               step once = true and when = { parameter = value(s) }
// Unknown keys anywhere are errors. Checks that need the machine (a size
// larger than the device, a missing mkfs, the --allow-destroy list) are
// the sweep's, when it opens the targets, not the loader's.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "config/campaign_env.h"
#include "config/run_options.h"

namespace flashmark {

enum class ResetKind {
  kDiscard,
  kSecureErase,
  kMkfs,
  kMount,
  kPrecondition,
  kIdle,
  kExec,
  kWriteCache
};

// "discard", "secure-erase", "mkfs", "mount", "precondition", "idle", "exec",
// "write-cache".
std::string_view ResetKindName(ResetKind kind);

// Cells by their parameters: {parameter, any of these values} pairs, each
// of which a cell must match (values as in CampaignCell::parameters).
using CellFilter =
    std::vector<std::pair<std::string, std::vector<std::string>>>;

struct ResetStep {
  ResetKind kind = ResetKind::kIdle;
  // discard, secure-erase, mkfs, mount, precondition, write-cache: the
  // block device the
  // step acts on; "" = the campaign's [targets] devices, else the cell's
  // targets (see ResetDevices()).
  std::string device;
  std::string filesystem;  // mkfs: "xfs", "ext4" (runs mkfs.<filesystem>)
  // mkfs: arguments before the device ("-f"); mount: one option each
  // ("noatime", "nobarrier"), to be joined with commas for mount -o.
  std::vector<std::string> options;
  std::string mount_point;           // mount: absolute
  std::chrono::nanoseconds idle{0};  // idle
  std::vector<std::string> argv;     // exec: run without a shell
  bool write_cache_on = false;       // write-cache: state = "on" | "off"
  // precondition: "snia" (sequential 128 KiB writes of 2x the capacity) or
  // "workload": precondition_workload (run options, without targets: the
  // cell's) until steady state, bounded by its max-time; it is
  // until-steady unless it gives time, bytes or io-limit itself.
  std::string precondition = "snia";
  RunOptions precondition_workload;
  // Which cells the step runs before (ResetStepApplies()): with `once`,
  // only the plan's first cell (index 0); with `when`, only cells whose
  // parameters match every entry, each {parameter, any of these values}
  // (values as in CampaignCell::parameters). Both empty: every cell.
  bool once = false;
  CellFilter when;
};

// [campaign.steady-state]: the repeats are the SNIA PTS rounds, and they
// stop early. After each round, the tracked cell (the one cell of a round
// that `where` matches) has one value: its run's IOPS (reads and writes
// together, over the whole run), MiB/s, or mean latency (µs). Once the
// last `window` rounds' values are steady by the SNIA criterion
// (analysis/steady_state.h: max excursion `data_excursion`, slope
// excursion `slope_excursion` of the window average), the rounds left are
// skipped; `repeats` is then the most rounds. A round whose tracked cell
// failed has no value, and no window containing it is steady.
enum class RoundMetric { kIops, kMibs, kLatency };
std::string_view RoundMetricName(RoundMetric metric);  // "iops", ...

struct RoundSteadyState {
  CellFilter where;
  RoundMetric metric = RoundMetric::kIops;
  int window = 5;
  double data_excursion = 0.20;
  double slope_excursion = 0.10;
};

// An axis is one of three kinds:
//  - a run option ("size", "threads", "mode"...; canonical name even when
//    the file used an alias): values are that option's text, expanded
//    from lists and ranges; groups and target_sets are empty;
//  - "target": each value is a target set (target_sets[i]) that replaces
//    the campaign's targets; values[i] is it as ShellJoin() text;
//  - a grouped axis, any other name, whose values were tables of options
//    set together (`io = [{engine = "psync"}, {engine = "libaio",
//    iodepth = 32}]`): groups[i] holds {option, text} pairs and values[i]
//    shows them ("engine=libaio iodepth=32"). A table may also give the
//    cell's targets (`target = "/dev/md0"` or a list: group_targets[i]),
//    tags (`tag = {device = "raid0"}`) and a price (`price = 1200`, the
//    tag price=): group_tags[i], filed with the cell's runs like its
//    parameters, so one device per value carries its name and price.
struct MatrixAxis {
  std::string name;
  std::vector<std::string> values;
  std::vector<std::vector<std::pair<std::string, std::string>>> groups;
  std::vector<std::vector<std::string>> target_sets;
  std::vector<std::vector<std::string>> group_targets;  // grouped; may be {}
  std::vector<std::vector<std::pair<std::string, std::string>>> group_tags;
};

enum class CellOrder { kAsWritten, kShuffled };

struct CampaignSpec {
  std::string path;       // the campaign file
  std::string file_hash;  // hex SHA-256 of its bytes, for --resume
  std::string text;       // its bytes, kept with the campaign in the store
  std::string name;       // [campaign] name, default the file stem
  std::string description;
  RunOptions base;  // [workload]: every `run` option
  std::vector<std::string>
      targets;  // [targets] paths; one cell may use several
  std::vector<std::string>
      devices;                     // [targets] devices: what reset steps act on
  std::vector<MatrixAxis> matrix;  // [matrix]
  int repeats = 1;
  CellOrder order = CellOrder::kAsWritten;
  uint64_t order_seed = 0;
  bool until_steady = false;  // per-cell time: until-steady with max
  std::optional<std::string> max_time;
  std::vector<ResetStep> reset;  // [[reset]] steps, in order, before each cell
  // [cluster]: each cell runs across MPI ranks; both empty: on this host.
  std::vector<std::string> hosts;     // one rank each, through mpirun
  std::vector<std::string> launcher;  // argv before `flashmark run ...`
  std::optional<RoundSteadyState> round_steady_state;
};

struct CampaignCell {
  int index = 0;   // 0-based position in the plan
  int repeat = 0;  // 0-based
  // option = value text, in axis order: one pair per plain axis, ("target",
  // ShellJoin(set)) for the target axis, every pair of a grouped axis' value.
  std::vector<std::pair<std::string, std::string>> parameters;
  RunOptions options;  // base + parameters, ready for BuildJobSpec
};

// Parses and validates a campaign file. Errors carry "FILE:LINE:COLUMN:"
// for TOML syntax and for bad values, suggest the closest known key for
// unknown ones ("did you mean iodepth?"), and reject impossible values
// (0 threads, empty ranges, an exec without argv) before anything is
// touched. Reads only the file and the environment. Usage errors (exit 2).
// "$VAR", "${VAR}" and "${VAR:-default}" in target paths, devices, mount
// points and exec arguments are expanded from `environment` (the process
// environment by default) at load time.
Result<CampaignSpec> LoadCampaign(const std::string& path);
Result<CampaignSpec> LoadCampaign(const std::string& path,
                                  const EnvironmentLookup& environment);
// A campaign from its text (a built-in one, `flashmark pts`): `path` names
// it in errors and as CampaignSpec::path; the hash is of `text`.
Result<CampaignSpec> LoadCampaignText(const std::string& text,
                                      const std::string& path,
                                      const EnvironmentLookup& environment);

// The ordered cells: the matrix product with the first axis outermost and
// the last fastest, the whole product once per repeat (repeat outermost);
// "shuffled" permutes all of them with the seed (Fisher-Yates over
// flashmark::Random, so the plan is the same on every build and machine,
// as --resume needs). Each cell's options are the base with its values
// applied and are checked with BuildJobSpec; a cell without targets needs
// a diskless engine. Errors name the cell and its parameters. At most
// kMaxCampaignCells cells.
inline constexpr size_t kMaxCampaignCells = 100000;
Result<std::vector<CampaignCell>> ExpandCampaign(const CampaignSpec& campaign);

// "size=90G threads=8" (the parameters as one line).
std::string CellParametersText(const CampaignCell& cell);

// The block devices a device step (discard, secure-erase, mkfs, mount,
// precondition, write-cache) acts on in `cell`: its own device, else the
// campaign's [targets] devices, else the cell's targets.
std::vector<std::string> ResetDevices(const CampaignSpec& campaign,
                                      const CampaignCell& cell,
                                      const ResetStep& step);

// Whether `step` runs before `cell` (its `once` and `when`). A `once` step
// runs before the first cell: cell 1 of the plan, or `first_cell` when
// given (the first cell a resumed sweep runs).
bool ResetStepApplies(const ResetStep& step, const CampaignCell& cell);
bool ResetStepApplies(const ResetStep& step, const CampaignCell& cell,
                      bool first_cell);

// Whether `cell` matches every entry of `filter` (an empty one: any cell).
bool CellMatches(const CellFilter& filter, const CampaignCell& cell);

// "50G..650G step 40G" -> 50G, 90G, ... 650G (sizes, counts, durations;
// "1..16 x2" geometric); see campaign_range.h for the rules.
Result<std::vector<std::string>> ExpandRange(const std::string& text);

}  // namespace flashmark
