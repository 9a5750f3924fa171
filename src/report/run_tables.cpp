#include "report/run_tables.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "common/units.h"
#include "config/run_options.h"
#include "report/console_reporter.h"
#include "report/telemetry_text.h"

namespace flashmark {
namespace {

using nlohmann::json;

json Pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json out = json::array();
  for (const auto& [key, value] : pairs) out.push_back({key, value});
  return out;
}

// What the size means for these targets: a file set's files and total,
// or the offset range on files and block devices (no file set there).
std::pair<std::string, std::string> TargetSizeRow(const RunResult& run) {
  const JobSpec& s = run.spec;
  bool file_set = run.environment.targets.empty();  // an import: as given
  for (const auto& target : run.environment.targets) {
    if (target.kind == "file set") file_set = true;
  }
  if (file_set) {
    return {"file set",
            fmt::format("{} files, {}", s.file_num, FormatBytes(s.size.bytes))};
  }
  std::string ranges;
  for (const auto& target : run.environment.targets) {
    ranges += (ranges.empty() ? "" : ", ") + FormatBytes(target.bytes);
  }
  return {"offset range", ranges};
}

// --trace-latency and --trace-sample, for people.
std::string TraceLatencyText(const JobSpec& spec) {
  using Trace = JobSpec::TraceLatency;
  if (spec.trace_latency == Trace::kOff) return "off";
  const std::string which =
      spec.trace_sample == 1
          ? "every IO"
          : fmt::format("1 IO in {}, by sector", spec.trace_sample);
  return spec.trace_latency == Trace::kOn
             ? "on: " + which
             : "auto (block devices with direct IO): " + which;
}

}  // namespace

json ConfigTable(const StoredRun& stored) {
  const JobSpec& s = stored.run.spec;
  std::string targets;
  for (const auto& t : s.targets) targets += (targets.empty() ? "" : " ") + t;
  return Pairs(
      {{"mode", s.profile.empty() ? ModeName(s.mode)
                                  : "profile " + s.profile.name + ": " +
                                        ProfileMixText(s.profile)},
       {"block size", BlockSizesText(s.block_sizes)},
       {"engine", s.engine},
       {"threads", std::to_string(s.threads)},
       {"iodepth", std::to_string(s.iodepth)},
       {"direct IO", s.direct ? "yes (O_DIRECT)" : "no"},
       {"targets", targets.empty() ? "-" : targets},
       TargetSizeRow(stored.run),
       {"data", WriteDataText(s.data, s.shared_buffer)},
       {"distribution", DistributionText(s.distribution)},
       {"fsync", s.fsync_every ? fmt::format("every {} writes", s.fsync_every)
                               : "never"},
       {"duration", FormatDuration(s.time)},
       {"interval", FormatDuration(s.interval)},
       {"latency split", TraceLatencyText(s)},
       {"seed", std::to_string(s.seed)}});
}

json EnvironmentTable(const StoredRun& stored) {
  const Environment& e = stored.run.environment;
  std::vector<std::pair<std::string, std::string>> rows = {
      {"host", e.host},
      {"kernel", e.kernel},
      {"CPU", fmt::format("{} x {}", e.cpu_count, e.cpu_model)},
      {"memory", FormatBytes(e.memory_bytes)},
      {"CPU governor", e.cpu_governor.empty()     ? "-"
                       : e.cpu_governor == "none" ? "none (no cpufreq)"
                                                  : e.cpu_governor},
      {"tool", fmt::format("flashmark {} ({})", stored.run.tool_version,
                           stored.run.git_revision)}};
  for (const auto& t : e.targets) {
    std::string where = t.kind;
    if (!t.filesystem.empty()) {
      where += fmt::format(": {} on {}, mount {}", t.filesystem, t.device,
                           t.mount_options);
    }
    rows.emplace_back("target " + (t.path.empty() ? "-" : t.path), where);
    if (!t.device_name.empty()) {
      rows.emplace_back(
          "disk " + t.device_name,
          fmt::format("model {}, serial {}, firmware {}, {}, {}, scheduler {}, "
                      "nr_requests {}",
                      t.model.empty() ? "-" : t.model,
                      t.serial.empty() ? "-" : t.serial,
                      t.firmware.empty() ? "-" : t.firmware,
                      FormatBytes(t.capacity_bytes),
                      t.rotational ? "rotational" : "non-rotational",
                      t.scheduler, t.queue_depth));
      rows.emplace_back("queue " + t.device_name,
                        fmt::format("write cache {}, poll queues {}",
                                    t.write_cache.empty() ? "-" : t.write_cache,
                                    !t.io_poll   ? "-"
                                    : *t.io_poll ? "yes"
                                                 : "no"));
    }
  }
  if (!e.engine_setup.empty()) rows.emplace_back("engine", e.engine_setup);
  if (!e.cluster.empty()) rows.emplace_back("cluster", e.cluster);
  for (const std::string& warning : e.warnings) {
    rows.emplace_back("warning", warning);
  }
  return Pairs(rows);
}

}  // namespace flashmark
