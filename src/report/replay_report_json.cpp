#include "report/replay_report_json.h"

#include <algorithm>

#include "document/replay_format.h"
#include "report/replay_text.h"

namespace flashmark {

nlohmann::json ReplayReportJson(const RunResult& run) {
  if (!run.replay) return nullptr;
  const ReplayOutcome& replay = *run.replay;
  const ReplayFidelity& f = replay.fidelity;
  nlohmann::json t = nlohmann::json::array();
  const double step = static_cast<double>(f.series_interval_ns) / 1e9;
  const double end = run.summary.elapsed_seconds;
  for (size_t k = 0; k < f.series.size(); ++k) {
    const double at = static_cast<double>(k + 1) * step;
    t.push_back(end > 0 && k + 1 == f.series.size() ? std::min(at, end) : at);
  }
  nlohmann::json out = ToJson(replay);
  out["t"] = t;
  out["headline_note"] = ReplayHeadlineNote(replay);
  return out;
}

}  // namespace flashmark
