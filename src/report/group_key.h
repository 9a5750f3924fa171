// What a run is grouped under for `--by NAME` (report, compare): its tag
// NAME when it has one, else the run parameter NAME (threads, iodepth, bs,
// size, mode, engine, target, tool, direct, file-num, profile; aliases numjobs,
// block-size, rw, ioengine, source), else nothing. Sizes read in binary
// units ("512 MiB"). Runs of different tools (flashmark, fio, sysbench) are
// never pooled into one group: GroupName adds the tool when the grouped
// runs come from more than one. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/result.h"
#include "store/run_store.h"

namespace flashmark {

std::optional<std::string> GroupValue(const StoredRun& run,
                                      std::string_view by);
// "threads, iodepth, bs, ...", for hints.
std::string GroupParameterNames();

// The first workload parameter (threads, iodepth, bs, size, mode, engine,
// direct, file-num; not the target, the tool or `by`) in which a run of
// `group` differs from the first, with both values; none when they agree.
struct WorkloadDifference {
  int64_t first_run = 0, other_run = 0;
  std::string parameter, first_value, other_value;
};
std::optional<WorkloadDifference> FindWorkloadDifference(
    std::span<const StoredRun* const> group, std::string_view by);

// Like with like: the runs of one group (`name`, grouped by `by`) must
// be repeats of one workload, equal in every workload parameter (threads,
// iodepth, bs, size, mode, engine, direct, file-num; not the target, whose
// path a repeat may change) but `by`. Else a UsageError naming two runs,
// the parameter and both values, with a hint (--where, --by).
Status CheckOneWorkload(std::span<const StoredRun* const> group,
                        std::string_view by, const std::string& name);

// The tool that measured the run: "flashmark", "fio" or "sysbench".
const std::string& RunTool(const StoredRun& run);
// Whether the runs come from more than one tool.
bool SeveralTools(std::span<const StoredRun* const> runs);
// "8", or "8 (sysbench)" when the groups mix tools.
std::string GroupName(const std::string& value, const StoredRun& run,
                      bool several_tools);

}  // namespace flashmark
