#include "report/throttle_text.h"

#include <fmt/format.h>

#include <string>

namespace flashmark {
namespace {

std::string ProbeText(const ThrottleProbe& probe) {
  return fmt::format("idle {} s -> {} IOs above the baseline{}",
                     FormatSignificant(probe.gap_seconds),
                     FormatSignificant(probe.refilled_ios),
                     probe.full ? " (a full bucket)"
                     : !probe.spent
                         ? " (not spent: the load ended above the baseline)"
                         : "");
}

}  // namespace

void PrintRunThrottle(const RunResult& run, std::string_view indent,
                      std::ostream& out, const CancelToken& cancel) {
  if (!run.spec.detect_throttle) return;
  auto found = FindRunThrottle(run, cancel);
  if (!found.ok()) {
    if (!IsInterruption(found.error())) {
      out << indent << "throttle: none found: " << found.error().message
          << "\n";
    }
    return;
  }
  const ThrottleFinding& f = *found;
  out << indent << "throttle: " << ThrottleSentence(f) << "\n";
  if (!f.throttled) {
    out << fmt::format(
        "{}  the first load phase ({} intervals) held {}: a burst that "
        "lasts longer needs a longer --time\n",
        indent, f.first_phase_intervals,
        f.regimes.segments.size() <= 1
            ? std::string("one regime")
            : fmt::format("{} regimes, none more than {:g} % below an "
                          "earlier one",
                          f.regimes.segments.size(), kThrottleDrop * 100));
    return;
  }
  out << fmt::format(
      "{}  bucket: {} IOs above the baseline, spent after {} s of burst\n",
      indent, FormatSignificant(f.bucket_ios),
      FormatSignificant(f.burst_seconds));
  for (const ThrottleProbe& probe : f.probes) {
    out << indent << "  refill probe: " << ProbeText(probe) << "\n";
  }
}

nlohmann::json ThrottleJson(const ThrottleFinding& f) {
  nlohmann::json probes = nlohmann::json::array();
  for (const ThrottleProbe& probe : f.probes) {
    probes.push_back({{"gap_seconds", probe.gap_seconds},
                      {"refilled_ios", probe.refilled_ios},
                      {"spent", probe.spent},
                      {"full", probe.full},
                      {"used", probe.used}});
  }
  const auto or_null = [&](bool known, double value) {
    return known ? nlohmann::json(value) : nlohmann::json();
  };
  return {{"text", ThrottleSentence(f)},
          {"throttled", f.throttled},
          {"steady_iops", f.steady_iops},
          {"burst_iops", or_null(f.throttled, f.burst_iops)},
          {"burst_seconds", or_null(f.throttled, f.burst_seconds)},
          {"baseline_iops", or_null(f.throttled, f.baseline_iops)},
          {"bucket_ios", or_null(f.throttled, f.bucket_ios)},
          {"refill_per_second", or_null(f.refill_found, f.refill_per_second)},
          {"refill_note", f.refill_note},
          {"probes", probes}};
}

nlohmann::json RunThrottleJson(const RunResult& run,
                               const CancelToken& cancel) {
  if (!run.spec.detect_throttle) return nullptr;
  auto found = FindRunThrottle(run, cancel);
  if (!found.ok()) return {{"error", found.error().message}};
  return ThrottleJson(*found);
}

}  // namespace flashmark
