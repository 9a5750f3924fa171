// ReproduceCommand (declared in config/run_options.h): a run's spec back
// as the `flashmark run` command line that repeats it.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "common/cpu_list.h"
#include "common/shell_quote.h"
#include "config/run_options.h"
#include "model/io_pattern.h"

namespace flashmark {

namespace {

// A size as an option value that parses back to exactly the same bytes.
std::string ExactSize(uint64_t bytes) {
  constexpr const char* kUnits[] = {"", "k", "M", "G", "T"};
  int unit = 0;
  while (unit < 4 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + kUnits[unit];
}

std::string ExactDuration(std::chrono::nanoseconds duration) {
  const int64_t ns = duration.count();
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  return std::to_string(ns) + "ns";
}

}  // namespace

std::string ReproduceCommand(
    const JobSpec& spec, const std::string& label,
    const std::vector<std::pair<std::string, std::string>>& tags,
    ReproduceStyle style) {
  const bool imported = style == ReproduceStyle::kImported;
  std::vector<std::string> args = {"flashmark", "run"};
  args.insert(args.end(), spec.targets.begin(), spec.targets.end());
  if (imported && spec.targets.empty()) args.push_back("TARGET");
  auto add = [&args](std::string option, std::string value) {
    args.push_back(std::move(option));
    args.push_back(std::move(value));
  };
  const bool profiled = !spec.profile.empty();
  if (profiled) {
    add("--profile", spec.profile.name);
  } else {
    add("--mode", ModeName(spec.mode));
    if (spec.mode == IoMode::kRndRw) {
      add("--read-pct", fmt::format("{:g}", spec.read_fraction * 100));
    }
    add("--bs", BlockSizesText(spec.block_sizes));
  }
  add("--engine", spec.engine);
  add("--threads", std::to_string(spec.threads));
  if (spec.iodepth != 1) add("--iodepth", std::to_string(spec.iodepth));
  if (spec.direct) args.push_back("--direct");
  const EngineTuning& tuning = spec.tuning;
  if (tuning.fixed_buffers) args.push_back("--fixedbufs");
  if (tuning.sqpoll) args.push_back("--sqpoll");
  if (tuning.sqpoll_cpu >= 0) {
    add("--sqpoll-cpu", std::to_string(tuning.sqpoll_cpu));
  }
  if (tuning.hipri) args.push_back("--hipri");
  if (tuning.batch_submit != 1) {
    add("--iodepth-batch-submit", std::to_string(tuning.batch_submit));
  }
  if (tuning.batch_complete_min != 1) {
    add("--iodepth-batch-complete-min",
        std::to_string(tuning.batch_complete_min));
  }
  if (tuning.batch_complete_max != 0) {
    add("--iodepth-batch-complete-max",
        std::to_string(tuning.batch_complete_max));
  }
  if (!spec.cpus_allowed.empty()) {
    add("--cpus-allowed", CpuListText(spec.cpus_allowed));
    if (spec.cpus_split) add("--cpus-allowed-policy", "split");
  }
  if (spec.fsync_every && !profiled) {
    add("--fsync-every", std::to_string(spec.fsync_every));
    add("--fsync-mode",
        spec.fsync_mode == FsyncMode::kFsync ? "fsync" : "fdatasync");
  }
  if (spec.fsync_end) args.push_back("--fsync-end");
  if (spec.until_steady) {
    args.push_back("--until-steady");
    add("--max-time", ExactDuration(spec.time));
    if (spec.steady_round != std::chrono::seconds(60)) {
      add("--steady-round", ExactDuration(spec.steady_round));
    }
    if (spec.min_time.count() > 0)
      add("--min-time", ExactDuration(spec.min_time));
  } else if (spec.time.count()) {
    add("--time", ExactDuration(spec.time));
  }
  if (spec.io_limit) add("--io-limit", std::to_string(spec.io_limit));
  if (spec.bytes_limit) add("--bytes", ExactSize(spec.bytes_limit));
  if (spec.rate.iops > 0) add("--rate", fmt::format("{:g}", spec.rate.iops));
  if (spec.rate.bytes_per_second > 0) {
    add("--rate",
        ExactSize(static_cast<uint64_t>(spec.rate.bytes_per_second)) + "/s");
  }
  if (spec.think_time.count() > 0) {
    add("--thinktime-iotime", ExactDuration(spec.think_io_time));
    add("--thinktime", ExactDuration(spec.think_time));
  }
  if (spec.detect_throttle) args.push_back("--detect-throttle");
  if (spec.distribution.kind != DistributionKind::kUniform) {
    add("--distribution", DistributionText(spec.distribution));
  }
  if (!imported) add("--seed", std::to_string(spec.seed));
  add("--data", DataPatternSpec(spec.data));
  if (spec.shared_buffer) args.push_back("--shared-buffer");
  if (!spec.huge_page_buffers) add("--mem", "malloc");
  if (spec.trace_latency != JobSpec::TraceLatency::kAuto) {
    add("--trace-latency",
        spec.trace_latency == JobSpec::TraceLatency::kOn ? "on" : "off");
  }
  if (spec.trace_sample != JobSpec{}.trace_sample) {
    add("--trace-sample", std::to_string(spec.trace_sample));
  }
  if ((!spec.targets.empty() || imported) && !profiled) {
    add("--file-num", std::to_string(spec.file_num));
  }
  if (spec.size_given || spec.targets.empty()) {
    add("--size", ExactSize(spec.size.bytes));
  }
  // An import's single interval spans its runtime: no --interval then.
  const bool tool_interval = spec.interval < spec.time &&
                             spec.interval % std::chrono::milliseconds(1) ==
                                 std::chrono::nanoseconds(0);
  if (spec.interval != std::chrono::seconds(1) &&
      (!imported || tool_interval)) {
    add("--interval", ExactDuration(spec.interval));
  }
  if (spec.continue_on_error) args.push_back("--continue-on-error");
  if (spec.verify) args.push_back("--verify");
  for (const auto& device : spec.allow_destroy) {
    args.push_back("--allow-destroy=" + device);
  }
  if (!label.empty()) add("--label", label);
  for (const auto& [key, value] : tags) add("--tag", key + "=" + value);
  return ShellJoin(args);
}

}  // namespace flashmark
