// Builds the comparison unit (compare.h) of a run or of a group of runs:
// the one place that turns analysed runs and their tags into the series
// and the price and capacity a comparison needs. Used by `compare` and by
// the report. Pure; thread-safe; borrows its inputs for the call only.
//
// A unit's series are the headline window (RunAnalysis::headline: the
// final regime after its warm-up, the window of the run's one figure) of
// each member run in order: the analysed metric in its display unit
// (MetricInfo::unit), IOPS, and the p99 of every interval with a histogram.
// Only like is compared with like: every run of every unit must measure
// the same kind of IO (reads only, writes only, or both: DefaultMetric)
// and be analysed on the same metric.
// The price is the "price" tag (ParsePrice: a number >= 0 with its currency
// if given), the capacity the "capacity" tag (ParseCapacity: 960G and 2.4TB
// decimal as vendors write them, 894GiB binary), else the block devices the run
// measured (not summed over the members: they are repeats on one device);
// the last member that has one gives the unit's.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.h"
#include "analysis/run_analysis.h"
#include "common/result.h"
#include "model/run_result.h"

namespace flashmark {

struct ComparisonMember {
  int64_t id = 0;  // run id, for messages
  const RunResult* run = nullptr;
  const RunAnalysis* analysis = nullptr;  // of `run`
  const std::vector<std::pair<std::string, std::string>>* tags = nullptr;
};

// UsageError (exit 2) naming the run and the value when a member has no
// interval left after its warm-up, a price tag that is not a number >= 0,
// or a capacity tag that is not a size; CheckLikeWithLike's error when
// its members differ.
Result<ComparisonUnit> BuildComparisonUnit(
    std::string name, const std::vector<ComparisonMember>& members);

// OkStatus when every member (of every unit to be compared) measures the
// same kind of IO with the same metric; else a UsageError naming the first
// two runs that differ and what each measures.
Status CheckLikeWithLike(const std::vector<ComparisonMember>& members);

// The "price" tag's value as a price (ParsePrice).
Result<Price> ParsePriceTag(int64_t run_id, const std::string& text);

}  // namespace flashmark
