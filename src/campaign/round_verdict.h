// The SNIA rounds of a campaign with [campaign.steady-state]
// (config/campaign_spec.h): the tracked cell's value in each round, read
// from its stored run, and the verdict on the last `window` rounds. The
// sweep asks after every round whether the rest may be skipped; reports
// and `flashmark pts` show the same verdict. Reads the store; main thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/steady_state.h"
#include "common/result.h"
#include "config/campaign_spec.h"
#include "model/run_result.h"
#include "store/campaign_store.h"
#include "store/run_store.h"

namespace flashmark {

struct RoundVerdict {
  // One per round whose tracked cell has finished (ok or failed), in order;
  // nullopt where it failed.
  std::vector<std::optional<double>> values;
  std::vector<int> cells;  // the tracked cell's plan index, per round
  // The last `window` rounds evaluated, once there are that many with
  // values; steady() tells whether the rounds may stop.
  std::optional<SniaWindow> last_window;
  bool steady() const { return last_window && last_window->steady(); }
};

// The tracked figure of one run: IOPS or MiB/s over the whole run (reads
// and writes together), or its mean latency in µs.
double RoundMetricValue(RoundMetric metric, const RunResult& run);

// "IOPS", "MiB/s", "mean latency (µs)".
std::string RoundMetricLabel(RoundMetric metric);

// The verdict over the rounds stored so far.
Result<RoundVerdict> EvaluateRounds(const CampaignSpec& campaign,
                                    const std::vector<CampaignCell>& cells,
                                    const std::vector<StoredCell>& stored,
                                    RunStore& runs);

// "steady in rounds 3-7: average 41.2k IOPS, excursion 4.1 % (20 %
// allowed), slope 2.0 % (10 %)", or "not steady in rounds ..." .
std::string RoundVerdictText(const RoundSteadyState& steady,
                             const RoundVerdict& verdict);

}  // namespace flashmark
