#include "analysis/throttle_finder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/l1_split.h"
#include "analysis/quantiles.h"

namespace flashmark {
namespace {

constexpr size_t kMinFirstPhase = 6;
constexpr double kFullBucket = 0.9;
// A single step is a drop when its medians differ by this many standard
// errors (iid; high, so that dependent noise does not pass).
constexpr double kStepZ = 8;

double Seconds(uint64_t ns) { return static_cast<double>(ns) / 1e9; }

double Iops(const ThrottleInterval& interval) {
  const double length = interval.end_seconds - interval.start_seconds;
  return length > 0 ? interval.ios / length : 0;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::ranges::sort(values);
  return QuantileOfSorted(values, 0.5);
}

// The intervals whose midpoint lies in each load phase, in order.
std::vector<std::vector<ThrottleInterval>> ByPhase(
    std::span<const ThrottleInterval> intervals,
    const ThrottleSchedule& schedule) {
  std::vector<std::vector<ThrottleInterval>> phases(schedule.load.size());
  for (const ThrottleInterval& interval : intervals) {
    const double middle = (interval.start_seconds + interval.end_seconds) / 2;
    for (size_t k = 0; k < schedule.load.size(); ++k) {
      if (middle >= Seconds(schedule.load[k].start_ns) &&
          middle < Seconds(schedule.load[k].end_ns)) {
        phases[k].push_back(interval);
        break;
      }
    }
  }
  return phases;
}

// IOs above `baseline` in intervals [0, end).
double IosAbove(std::span<const ThrottleInterval> intervals, double baseline) {
  double sum = 0;
  for (const ThrottleInterval& interval : intervals) {
    sum += interval.ios -
           baseline * (interval.end_seconds - interval.start_seconds);
  }
  return sum;
}

void FindRefill(const std::vector<std::vector<ThrottleInterval>>& phases,
                const ThrottleSchedule& schedule, ThrottleFinding& f) {
  const double span = f.burst_iops - f.baseline_iops;
  double gap_refill = 0, gap_squared = 0;
  for (size_t k = 1; k < phases.size(); ++k) {
    ThrottleProbe probe;
    probe.gap_seconds = Seconds(schedule.load[k].gap_before_ns);
    const auto& phase = phases[k];
    if (phase.empty() || probe.gap_seconds <= 0) continue;
    probe.refilled_ios = IosAbove(phase, f.baseline_iops);
    const size_t tail = std::max<size_t>(1, phase.size() / 4);
    std::vector<double> last;
    for (size_t i = phase.size() - tail; i < phase.size(); ++i) {
      last.push_back(Iops(phase[i]));
    }
    probe.spent = Median(last) <= f.baseline_iops + span / 4;
    probe.full = probe.refilled_ios >= kFullBucket * f.bucket_ios;
    probe.used = probe.spent && !probe.full;
    if (probe.used) {
      gap_refill += probe.refilled_ios * probe.gap_seconds;
      gap_squared += probe.gap_seconds * probe.gap_seconds;
    }
    f.probes.push_back(probe);
  }
  if (gap_squared > 0) {
    f.refill_found = true;
    f.refill_per_second = std::max(0.0, gap_refill / gap_squared);
  } else if (f.probes.empty()) {
    f.refill_note = "no idle gap was measured";
  } else {
    // Each probe was still bursting at its end, or refilled a whole bucket:
    // the shortest gap bounds the refill from below.
    const ThrottleProbe& shortest = f.probes.front();
    f.refill_note = fmt::format(
        "the shortest idle gap ({} s) refilled {}: refills at least {} "
        "IOPS-s per s",
        FormatSignificant(shortest.gap_seconds),
        shortest.full ? "the whole bucket"
                      : "more than the load after it spent",
        FormatSignificant(shortest.refilled_ios / shortest.gap_seconds));
  }
}

double RobustSigma(std::span<const double> values, double median) {
  std::vector<double> deviation;
  for (double v : values) deviation.push_back(std::abs(v - median));
  return 1.4826 * Median(std::move(deviation));
}

struct Step {
  bool found = false;
  bool from_regimes = false;
  double burst = 0, baseline = 0;         // medians
  size_t burst_first = 0, burst_end = 0;  // the burst's intervals
  size_t baseline_index = 0;              // first interval of the baseline
};

// Step 1 of the header: the regimes' drop, else the best single L1 step
// when it is a drop of kThrottleDrop and kStepZ robust standard errors.
Step FindStep(std::span<const double> values, const ChangePointResult& regimes,
              size_t min_segment) {
  Step step;
  const auto& segments = regimes.segments;
  if (segments.size() >= 2) {
    const auto highest = std::ranges::max_element(
        segments.begin(), segments.end() - 1, {}, &Regime::median);
    step.burst = highest->median;
    step.burst_first = highest->first_index;
    step.burst_end = highest->last_index + 1;
    step.baseline = segments.back().median;
    step.baseline_index = segments.back().first_index;
    step.from_regimes = true;
    step.found = step.baseline < (1 - kThrottleDrop) * step.burst;
    return step;
  }
  const size_t at = BestL1Split(values, min_segment);
  if (at == 0) return step;
  const auto left = values.first(at);
  const auto right = values.subspan(at);
  step.burst = Median({left.begin(), left.end()});
  step.baseline = Median({right.begin(), right.end()});
  step.baseline_index = at;
  step.burst_end = at;
  const double sigma_left = RobustSigma(left, step.burst);
  const double sigma_right = RobustSigma(right, step.baseline);
  const double error =
      std::sqrt(sigma_left * sigma_left / static_cast<double>(left.size()) +
                sigma_right * sigma_right / static_cast<double>(right.size()));
  const double drop = step.burst - step.baseline;
  step.found = step.baseline < (1 - kThrottleDrop) * step.burst &&
               (error == 0 || drop / error >= kStepZ);
  return step;
}

// IOs per second over intervals [first, end) (IOs over time, not a
// median: see the header), leaving out the interval at an end that
// borders another regime (or the run's start) where that leaves two.
double RateOf(std::span<const ThrottleInterval> intervals, size_t first,
              size_t end) {
  if (end - first >= 3 && end < intervals.size()) --end;
  if (end - first >= 3) ++first;
  double ios = 0, seconds = 0;
  for (size_t i = first; i < end; ++i) {
    ios += intervals[i].ios;
    seconds += intervals[i].end_seconds - intervals[i].start_seconds;
  }
  return seconds > 0 ? ios / seconds : 0;
}

}  // namespace

Result<ThrottleFinding> FindThrottle(
    std::span<const ThrottleInterval> intervals,
    const ThrottleSchedule& schedule, const CancelToken& cancel) {
  if (schedule.load.empty()) {
    return UsageError("the throttle probe has no load phase",
                      "run it with --detect-throttle and a longer --time");
  }
  const auto phases = ByPhase(intervals, schedule);
  const auto& first = phases.front();
  ThrottleFinding f;
  f.first_phase_intervals = first.size();
  if (first.size() < kMinFirstPhase) {
    return UsageError(
        fmt::format("the throttle probe's first load phase holds {} "
                    "interval{}; finding a burst needs {}",
                    first.size(), first.size() == 1 ? "" : "s", kMinFirstPhase),
        "the run ended early: run it for its whole --time");
  }
  std::vector<double> values, bounds;
  for (const ThrottleInterval& interval : first) {
    values.push_back(Iops(interval));
    bounds.push_back(interval.start_seconds);
  }
  bounds.push_back(first.back().end_seconds);
  ChangePointOptions options;
  options.min_segment_intervals = std::clamp<size_t>(first.size() / 24, 3, 60);
  options.scale_min_segment = false;
  options.cancel = cancel;
  const double nominal =
      (bounds.back() - bounds.front()) / static_cast<double>(values.size());
  f.regimes = DetectChangePoints(
      IntervalSeries(values, nominal, bounds.front(), bounds), options);
  if (cancel.cancelled()) return InterruptedError();

  std::vector<double> loaded;
  for (const auto& phase : phases) {
    for (const ThrottleInterval& interval : phase) {
      loaded.push_back(Iops(interval));
    }
  }
  f.steady_iops = Median(loaded);
  const Step step = FindStep(values, f.regimes, options.min_segment_intervals);
  if (!step.found) return f;
  const double burst = RateOf(first, step.burst_first, step.burst_end);
  const double baseline = RateOf(first, step.baseline_index, first.size());
  if (!(baseline < (1 - kThrottleDrop) * burst)) return f;
  f.throttled = true;
  f.burst_iops = burst;
  f.baseline_iops = baseline;
  f.step_from_regimes = step.from_regimes;
  const size_t end = std::min(first.size(), step.baseline_index + 2);
  f.bucket_ios = std::max(0.0, IosAbove(std::span(first).first(end), baseline));
  f.burst_seconds = f.bucket_ios / (burst - baseline);
  FindRefill(phases, schedule, f);
  return f;
}

Result<ThrottleFinding> FindRunThrottle(const RunResult& run,
                                        const CancelToken& cancel) {
  if (!run.spec.detect_throttle) {
    return UsageError("the run was not a throttle probe",
                      "run it with --detect-throttle");
  }
  std::vector<ThrottleInterval> intervals;
  for (const IntervalSample& sample : run.intervals) {
    if (sample.partial) continue;
    intervals.push_back(
        {static_cast<double>(sample.start_ns) / 1e9,
         static_cast<double>(sample.end_ns) / 1e9,
         static_cast<double>(sample.read.ios + sample.write.ios)});
  }
  return FindThrottle(intervals,
                      MakeThrottleSchedule(run.spec.time, run.spec.interval),
                      cancel);
}

std::string ThrottleSentence(const ThrottleFinding& f) {
  if (!f.throttled) {
    return fmt::format("no throttling seen: {} IOPS throughout",
                       FormatSignificant(f.steady_iops));
  }
  std::string text = fmt::format(
      "burst {} IOPS for {} s, then baseline {} IOPS",
      FormatSignificant(f.burst_iops), FormatSignificant(f.burst_seconds),
      FormatSignificant(f.baseline_iops));
  if (f.refill_found) {
    return text + fmt::format("; refills {} IOPS-s per s",
                              FormatSignificant(f.refill_per_second));
  }
  return text + "; refill not found (" + f.refill_note + ")";
}

}  // namespace flashmark
