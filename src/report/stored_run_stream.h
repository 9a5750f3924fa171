// A stored run's exports written one interval at a time: the intervals'
// counters come from the run as loaded without histograms
// (RunStore::LoadRun(id, false)), and each interval's histograms are read
// from the store as it is written (RunStore::VisitHistograms), so a run of
// a day of 1 s intervals takes the memory of its counters, not the
// gigabytes its histograms would. The text is the same, byte for byte, as
// the whole run's in memory would give.
//
// The text goes to `write` in order; the first error it or the store
// returns (a full disk, a corrupt histogram naming "run N interval K",
// an interruption: RunStore::StopWhen) ends the stream and is returned.
// Intervals stored after the load (a run still measuring) are left out.
// One thread; the store is the caller's.
#pragma once

#include <array>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "store/run_store.h"

namespace flashmark {

using TextSink = std::function<Status(std::string_view)>;

// `doc`: the run's document without intervals ("intervals": [], as
// ToJson(RunResult, false) writes it), plus whatever members the caller
// adds. Written as JsonText(doc, 1) with every interval in "intervals",
// and a newline.
Status StreamRunJson(RunStore& store, const StoredRun& stored,
                     const nlohmann::json& doc, const TextSink& write);

// The two histogram logs of report/histogram_logs.h.
Status StreamHdrHistogramLog(RunStore& store, const StoredRun& stored,
                             const TextSink& write);
Status StreamFioHistogramLog(RunStore& store, const StoredRun& stored,
                             const TextSink& write);

// --trace-latency: each interval's p50 in its four parts (ns: flashmark,
// queue, device, completion; model/latency_split.h's SplitAtMedianNs;
// report_data.h's ReportRun::split_p50_ns), by position in the loaded
// intervals; empty for a run that was not traced.
Result<std::vector<std::array<double, 4>>> SplitsAtMedian(
    RunStore& store, const StoredRun& stored);

}  // namespace flashmark
