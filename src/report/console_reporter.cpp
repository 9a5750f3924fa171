#include "report/console_reporter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/run_summary.h"
#include "analysis/telemetry_summary.h"
#include "common/units.h"
#include "common/version.h"
#include "report/headline_text.h"
#include "report/profile_figures.h"
#include "report/telemetry_text.h"
#include "report/verify_report.h"

namespace flashmark {
namespace {

std::string Mibs(double value) { return fmt::format("{:.1f}", value); }

// Latencies of one line share one unit, chosen from the largest.
struct LatencyScale {
  double divisor;
  const char* unit;
};
LatencyScale ScaleFor(double ns) {
  if (ns >= 1e6) return {1e6, "ms"};
  if (ns >= 1e3) return {1e3, "us"};
  return {1, "ns"};
}
std::string Scaled(double ns, LatencyScale scale) {
  const double value = ns / scale.divisor;
  return value >= 100  ? fmt::format("{:.0f}", value)
         : value >= 10 ? fmt::format("{:.1f}", value)
                       : fmt::format("{:.2f}", value);
}

std::string SeriesLine(const char* name, const SeriesSummary& s,
                       const char* unit) {
  return fmt::format(
      "  {:<6} median {} {}  (p25 {}, p75 {}; p5..p95 {}..{}; min {}, max "
      "{})  mean {}\n",
      name, Mibs(s.median), unit, Mibs(s.p25), Mibs(s.p75), Mibs(s.p5),
      Mibs(s.p95), Mibs(s.min), Mibs(s.max), Mibs(s.mean));
}

std::string LatencyLine(const char* name, const LatencySummary& s) {
  const LatencyScale scale = ScaleFor(s.p50);
  return fmt::format(
      "  {:<8} p50 {}  p90 {}  p95 {}  p99 {}  p99.9 {}  p99.99 {}  max {} "
      "{}\n",
      name, Scaled(s.p50, scale), Scaled(s.p90, scale), Scaled(s.p95, scale),
      Scaled(s.p99, scale), Scaled(s.p999, scale), Scaled(s.p9999, scale),
      Scaled(s.max, scale), scale.unit);
}

// --trace-latency: the latency's p50 and p99 in their parts: the mean
// parts of the IOs at each (they add up to it); for a run stored before
// those were kept, each part's own p50 and p99. `one_in`: the IOs traced
// were 1 in so many (--trace-sample); then the figures are theirs.
std::string LatencySplitLines(const LatencySummary& latency,
                              const LatencySplitSummary& split,
                              uint32_t one_in) {
  if (split.traced() == 0 && split.untraced == 0) return "";
  if (split.traced() == 0) {
    return fmt::format(
        "  split  none of {} IOs was found in the block trace (the page "
        "cache served them, or the trace lost its events)\n",
        split.untraced);
  }
  const LatencyScale scale = ScaleFor(latency.p50);
  const auto parts = [&](const std::array<double, 4>& ns) {
    return fmt::format("flashmark {} + queue {} + device {} + completion {}",
                       Scaled(ns[0], scale), Scaled(ns[1], scale),
                       Scaled(ns[2], scale), Scaled(ns[3], scale));
  };
  const auto of_parts = [&](auto quantile) {
    return parts({quantile(split.flashmark), quantile(split.queue),
                  quantile(split.device), quantile(split.completion)});
  };
  std::string traced = fmt::format("{} IOs traced", split.traced());
  if (one_in > 1) traced += fmt::format(", 1 in {} by sector", one_in);
  if (split.untraced != 0) {
    traced += fmt::format(", {} not found in it", split.untraced);
  }
  if (std::isnan(split.at_p50[0])) {
    return fmt::format(
        "  split  latency p50 {} {} = {} (each part's p50; {})\n"
        "         p99: {} {}\n",
        Scaled(latency.p50, scale), scale.unit,
        of_parts([](const LatencySummary& s) { return s.p50; }), traced,
        of_parts([](const LatencySummary& s) { return s.p99; }), scale.unit);
  }
  // Sampled: the traced IOs' own p50 and p99 (the sum of their parts),
  // which a sample's tail may put away from the run's.
  const bool sampled = one_in > 1;
  const auto figure = [&](double run_ns, const std::array<double, 4>& ns) {
    return Scaled(sampled ? ns[0] + ns[1] + ns[2] + ns[3] : run_ns, scale);
  };
  const char* label = sampled ? "traced" : "latency";
  return fmt::format(
      "  split  {} p50 {} {} = {} (the mean parts of the {} at {} p50; {})\n"
      "         {} p99 {} {} = {}\n",
      label, figure(latency.p50, split.at_p50), scale.unit, parts(split.at_p50),
      sampled ? "traced IOs" : "IOs", sampled ? "their" : "the", traced, label,
      figure(latency.p99, split.at_p99), scale.unit, parts(split.at_p99));
}

}  // namespace

std::string FormatLatency(double ns) {
  const LatencyScale scale = ScaleFor(ns);
  return Scaled(ns, scale) + " " + scale.unit;
}

std::string DescribeWorkload(const JobSpec& spec) {
  std::string text = fmt::format("{} {}", ModeName(spec.mode),
                                 BlockSizesText(spec.block_sizes));
  if (!spec.profile.empty()) {
    text = fmt::format("profile {} ({})", spec.profile.name,
                       ProfileMixText(spec.profile));
  } else if (spec.mode == IoMode::kRndRw) {
    text += fmt::format(" ({:.0f} % reads)", spec.read_fraction * 100);
  }
  text += fmt::format("  {} QD{} x {} thread{}", spec.engine, spec.iodepth,
                      spec.threads, spec.threads == 1 ? "" : "s");
  if (spec.direct) text += "  O_DIRECT";
  if (spec.distribution.kind != DistributionKind::kUniform) {
    text += "  " + DistributionText(spec.distribution);
  }
  if (spec.fsync_every) {
    text += fmt::format(
        "  {} every {} writes",
        spec.fsync_mode == FsyncMode::kFsync ? "fsync" : "fdatasync",
        spec.fsync_every);
  }
  if (spec.rate.iops > 0) text += fmt::format("  rate {} IOPS", spec.rate.iops);
  if (spec.rate.bytes_per_second > 0) {
    text += fmt::format("  rate {}/s", FormatBytes(spec.rate.bytes_per_second));
  }
  if (spec.think_time.count() > 0) {
    text += fmt::format("  bursts of {}, {} apart",
                        FormatDuration(spec.think_io_time),
                        FormatDuration(spec.think_time));
  }
  if (Writes(spec.mode)) {
    text += "  data: " + WriteDataText(spec.data, spec.shared_buffer);
  }
  return text;
}

ConsoleReporter::ConsoleReporter(std::ostream& out, ConsoleOptions options)
    : out_(out), options_(options) {}

void ConsoleReporter::OnStart(const RunResult& run) {
  const JobSpec& spec = run.spec;
  std::string limit;
  if (spec.until_steady) {
    limit = "  until steady (at most " + FormatDuration(spec.time) + ")";
  } else if (spec.time.count()) {
    limit = "  for " + FormatDuration(spec.time);
  }
  if (spec.io_limit) limit += fmt::format("  {} IOs", spec.io_limit);
  if (spec.bytes_limit) limit += "  " + FormatBytes(spec.bytes_limit);
  out_ << fmt::format("flashmark {}  {}{}  seed {}\n", kToolVersion,
                      DescribeWorkload(spec), limit, spec.seed);
  const auto& targets = run.environment.targets;
  for (size_t t = 0; t < targets.size(); ++t) {
    const TargetInfo& target = targets[t];
    if (target.kind == "none") {
      // A cluster aggregate holds one per rank: said once, with the count.
      size_t same = 1;
      while (t + same < targets.size() && targets[t + same].kind == "none" &&
             targets[t + same].bytes == target.bytes) {
        ++same;
      }
      out_ << fmt::format(
          "target: none (null engine, offsets over {}){}\n",
          FormatBytes(target.bytes),
          same > 1 ? fmt::format(", on each of {} ranks", same) : "");
      t += same - 1;
      continue;
    }
    std::string what =
        target.kind == "file set"
            ? fmt::format("{} files / {}", target.file_count,
                          FormatBytes(target.bytes))
            : fmt::format("{} {}", target.kind, FormatBytes(target.bytes));
    std::string where;
    if (!target.filesystem.empty()) {
      where = fmt::format(": {} on {}, mount {}", target.filesystem,
                          target.device, target.mount_options);
    }
    out_ << fmt::format("target {} ({}){}\n", target.path, what, where);
  }
  out_.flush();
}

void ConsoleReporter::ClearProgress() {
  if (progress_shown_) out_ << "\r\033[K";
  progress_shown_ = false;
}

void ConsoleReporter::DrawProgress(const RunResult& run,
                                   const IntervalSample& sample) {
  const JobSpec& spec = run.spec;
  double fraction = -1;
  if (spec.time.count()) {
    fraction = sample.end_ns / static_cast<double>(spec.time.count());
  } else if (spec.io_limit) {
    fraction = ios_done_ / static_cast<double>(spec.io_limit);
  } else if (spec.bytes_limit) {
    fraction = bytes_done_ / static_cast<double>(spec.bytes_limit);
  }
  if (fraction < 0) return;
  fraction = std::clamp(fraction, 0.0, 1.0);
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  const double elapsed = sample.end_ns / 1e9;
  const double eta = fraction > 0 ? elapsed / fraction - elapsed : 0;
  out_ << fmt::format("[{}{}] {:3.0f} %  ETA {}", std::string(filled, '#'),
                      std::string(kWidth - filled, '.'), fraction * 100,
                      eta < 0.5
                          ? std::string("0 s")
                          : FormatDuration(std::chrono::seconds(
                                static_cast<int64_t>(std::llround(eta)))));
  progress_shown_ = true;
  out_.flush();
}

void ConsoleReporter::OnInterval(const RunResult& run,
                                 const IntervalSample& sample) {
  bytes_done_ += sample.read.bytes + sample.write.bytes;
  ios_done_ += sample.read.ios + sample.write.ios;
  if (options_.quiet) return;
  // A sliver after the last boundary (the drain) is data, not news.
  if (sample.partial && sample.seconds() * 2e9 < run.spec.interval.count()) {
    return;
  }
  ClearProgress();
  LatencyHistogram both = sample.read_latency;
  both.Merge(sample.write_latency);
  // Whole seconds, or milliseconds where intervals are shorter than one
  // (fifty 20 ms lines all said "[    0s]").
  std::string line = run.spec.interval < std::chrono::seconds(1)
                         ? fmt::format("[{:>8.3f}s]", sample.end_ns / 1e9)
                         : fmt::format("[{:>5.0f}s]", sample.end_ns / 1e9);
  if (sample.read.ios || !Writes(run.spec.mode)) {
    line += fmt::format(" read {} MiB/s", Mibs(sample.ReadMiBs()));
  }
  if (sample.write.ios || Writes(run.spec.mode)) {
    line += fmt::format(" write {} MiB/s", Mibs(sample.WriteMiBs()));
  }
  line += fmt::format("  {} IOPS", FormatCount(sample.Iops()));
  if (!both.empty()) {
    const LatencyScale scale = ScaleFor(both.Quantile(0.99));
    line += fmt::format("  lat p50 {} p95 {} p99 {} {}",
                        Scaled(both.Quantile(0.5), scale),
                        Scaled(both.Quantile(0.95), scale),
                        Scaled(both.Quantile(0.99), scale), scale.unit);
  }
  if (!sample.schedule_latency.empty()) {
    line += fmt::format("  (from intended start p99 {})",
                        FormatLatency(sample.schedule_latency.Quantile(0.99)));
  }
  if (!sample.commit_latency.empty()) {
    const LatencyHistogram& commits = sample.commit_latency;
    line +=
        fmt::format("  commit p99 {} p99.9 {} ({} commits)",
                    FormatLatency(commits.Quantile(0.99)),
                    FormatLatency(commits.Quantile(0.999)), commits.count());
  }
  if (sample.fsyncs) line += fmt::format("  fsyncs {}", sample.fsyncs);
  if (sample.errors) line += fmt::format("  errors {}", sample.errors);
  if (sample.verify.bad()) {
    line += "  verify " + VerifyCountsText(sample.verify);
  }
  if (sample.spans > 1) {
    line += fmt::format(
        "  ({} intervals in one {:.1f}-s sample: the sampler "
        "could not run; was the process stopped?)",
        sample.spans, sample.seconds());
  }
  if (sample.partial) line += "  (partial)";
  out_ << line << "\n";
  if (options_.terminal) DrawProgress(run, sample);
  out_.flush();
}

void ConsoleReporter::OnEnd(const RunResult& run) {
  ClearProgress();
  PrintSummary(run, out_);
  out_.flush();
}

namespace {

// What happened outside the measured time, when any of it took a second.
void PrintOverhead(const RunResult& run, std::ostream& out) {
  const RunResult::Overhead& o = run.overhead;
  if (std::max({o.layout, o.setup, o.teardown}) < 1) return;
  out << fmt::format(
      "  outside the measured time: laying out the targets {:.1f} s, "
      "making {} worker{} {:.1f} s, ending them {:.1f} s\n",
      o.layout, run.spec.threads, run.spec.threads == 1 ? "" : "s", o.setup,
      o.teardown);
}

}  // namespace

void PrintSummary(const RunResult& run, std::ostream& out_,
                  const CancelToken& cancel) {
  const RunSummary& s = run.summary;
  const std::string elapsed = FormatDuration(
      std::chrono::nanoseconds(static_cast<int64_t>(s.elapsed_seconds * 1e9)));
  const bool any_full = std::ranges::any_of(
      run.intervals, [](const IntervalSample& i) { return !i.partial; });
  if (any_full || run.intervals.empty()) {
    out_ << fmt::format("summary over {} interval{} of {} ({} in all)\n",
                        s.intervals_used, s.intervals_used == 1 ? "" : "s",
                        FormatDuration(run.spec.interval), elapsed);
  } else {
    out_ << fmt::format("summary of {}, less than one interval of {}\n",
                        elapsed, FormatDuration(run.spec.interval));
  }
  PrintRunHeadline(run, "  ", out_, cancel);
  out_ << "  whole run, every interval:\n";
  if (s.read.ios) out_ << SeriesLine("read", s.read_mibs, "MiB/s");
  if (s.write.ios) out_ << SeriesLine("write", s.write_mibs, "MiB/s");
  out_ << fmt::format(
      "  {:<6} median {}  (p25 {}, p75 {}; p5..p95 {}..{}; min {}, max {})\n",
      "IOPS", FormatCount(s.iops.median), FormatCount(s.iops.p25),
      FormatCount(s.iops.p75), FormatCount(s.iops.p5), FormatCount(s.iops.p95),
      FormatCount(s.iops.min), FormatCount(s.iops.max));
  if (s.latency.count) {
    if (s.read.ios && s.write.ios) {
      out_ << LatencyLine("read lat", s.read_latency);
      out_ << LatencyLine("write lat", s.write_latency);
    } else {
      out_ << LatencyLine("latency", s.latency);
    }
  }
  if (s.commit_latency.count) {
    out_ << LatencyLine("commit lat", s.commit_latency);
    out_ << ProfileFiguresLine(run);
  }
  out_ << LatencySplitLines(s.latency, s.latency_split, run.spec.trace_sample);
  if (s.schedule_latency.count) {
    out_ << LatencyLine("from intended start (coordinated omission)",
                        s.schedule_latency);
  }
  if (s.write.ios)
    out_ << "  data   " << WriteDataText(run.spec.data, run.spec.shared_buffer)
         << "\n";
  // sysbench prints no CPU figures: an import of it has none to show.
  const bool cpu_unknown = run.imported.tool == "sysbench";
  out_ << fmt::format(
      "  total  {} read, {} written, {} IOs, {} fsyncs, {} errors;  {}\n",
      FormatBytes(s.read.bytes), FormatBytes(s.write.bytes),
      FormatCount(static_cast<double>(s.read.ios + s.write.ios)), s.fsyncs,
      s.errors,
      cpu_unknown ? std::string("CPU not reported by sysbench")
                  : fmt::format("CPU user {:.2f} s, system {:.2f} s",
                                s.cpu_user_seconds, s.cpu_system_seconds));
  PrintTelemetry(SummarizeTelemetry(run), out_);
  PrintOverhead(run, out_);
  if (run.verify.enabled) PrintVerifyOutcome(s.verify, run.verify, out_);
  if (run.status != RunStatus::kOk) {
    out_ << fmt::format("  status {}{}\n", RunStatusName(run.status),
                        run.error ? ": " + run.error->message : "");
  }
}

}  // namespace flashmark
