#include "runner/steady_state_watch.h"

#include <fmt/format.h>

#include "analysis/run_analysis.h"
#include "common/units.h"

namespace flashmark {
namespace {

// Both halves build and feed their monitors alike.
SteadyStateMonitor RunMonitor(const JobSpec& spec) {
  return SteadyStateMonitor(spec.interval.count() / 1e9,
                            SniaOptions{spec.steady_round.count() / 1e9});
}
double Throughput(const IntervalSample& sample) {
  return sample.ReadMiBs() + sample.WriteMiBs();
}

}  // namespace

SteadyStateStop::SteadyStateStop(const JobSpec& spec)
    : monitor_(RunMonitor(spec)),
      min_seconds_(spec.min_time.count() / 1e9),
      interval_seconds_(spec.interval.count() / 1e9) {
  AnalysisOptions options = DefaultAnalysisOptions(spec, Metric::kMibs);
  options.bootstrap.resamples = 100;  // the verdict needs no tight CI
  headline_options_ = ToHeadlineOptions(options);
}

bool SteadyStateStop::ShouldStop(const IntervalSample& sample) {
  if (sample.partial) return false;
  monitor_.Add(Throughput(sample));
  if (min_seconds_ <= 0) return monitor_.steady_window().has_value();
  values_.push_back(Throughput(sample));
  starts_.push_back(sample.start_ns / 1e9);
  last_end_ = sample.end_ns / 1e9;
  // Steady now (the last rounds form a steady window: a departure from
  // an earlier one is a kLeft state), and by the headline's rule.
  if (last_end_ < min_seconds_ || monitor_.rounds() == rounds_judged_ ||
      !monitor_.steady()) {
    return false;
  }
  rounds_judged_ = monitor_.rounds();
  return HeadlineSteady(monitor_.steady_window()->start_seconds);
}

bool SteadyStateStop::HeadlineSteady(double window_start_seconds) const {
  std::vector<double> bounds = starts_;  // IntervalSeries: starts, last end
  bounds.push_back(last_end_);
  auto headline = FindHeadline({values_, interval_seconds_, 0.0, bounds},
                               headline_options_);
  return headline.ok() && headline->verdict == SteadyVerdict::kSteady &&
         window_start_seconds + 1e-9 >= headline->start_seconds;
}

SteadyStateWatch::SteadyStateWatch(const JobSpec& spec, std::ostream& out)
    : out_(out),
      monitor_(RunMonitor(spec)),
      until_steady_(spec.until_steady),
      min_time_(spec.min_time) {}

void SteadyStateWatch::OnInterval(const RunResult&,
                                  const IntervalSample& sample) {
  if (sample.partial) return;
  const auto state = monitor_.Add(Throughput(sample));
  if (!reached_ && monitor_.steady_window()) {
    reached_ = true;
    const SniaWindow& w = *monitor_.steady_window();
    out_ << fmt::format(
        "steady state reached at {:g} s (SNIA PTS, rounds {}..{} of {:g} s: "
        "average {:.1f} MiB/s, data excursion {:.1f} % <= {:g} %, slope "
        "excursion {:.1f} % <= {:g} %){}\n",
        w.end_seconds, w.first_round, w.last_round, monitor_.round_seconds(),
        w.average, w.data_excursion_percent, w.allowed_data_excursion_percent,
        w.slope_excursion_percent, w.allowed_slope_excursion_percent,
        !until_steady_ ? ""
        : min_time_.count() > 0
            ? fmt::format(
                  " — going on: with --min-time {} the run stops once its "
                  "headline (the final regime) is steady after that",
                  FormatDuration(min_time_))
            : " — stopping (--until-steady)");
  }
  if (state == SteadyStateMonitor::State::kLeft &&
      monitor_.departures() > departures_reported_) {
    departures_reported_ = monitor_.departures();
    const SniaWindow& w = *monitor_.steady_window();
    out_ << fmt::format(
        "warning: throughput left the steady regime at {:g} s: a {:g}-s "
        "round fell outside {:.1f} MiB/s +- {:g} % (a cache or garbage "
        "collection cliff?)\n",
        monitor_.left_at_seconds().value_or(sample.end_ns / 1e9),
        monitor_.round_seconds(), w.average, w.allowed_data_excursion_percent);
  }
}

void SteadyStateWatch::OnEnd(const RunResult& run) {
  if (until_steady_ && !reached_ && run.status == RunStatus::kOk) {
    out_ << fmt::format(
        "steady state not reached in {} rounds of {:g} s (SNIA PTS: data "
        "excursion <= 20 %, slope excursion <= 10 % over 5 rounds)\n",
        monitor_.rounds(), monitor_.round_seconds());
  }
}

}  // namespace flashmark
