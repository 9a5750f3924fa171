#include "document/json_format.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "common/cpu_list.h"
#include "common/json_text.h"
#include "config/app_profiles.h"
#include "config/workload_parse.h"
#include "document/health_format.h"
#include "document/replay_format.h"
#include "document/telemetry_format.h"
#include "document/tool_report_format.h"
#include "model/histogram_buckets.h"

namespace flashmark {

using nlohmann::json;

namespace {

const char* TraceLatencyName(JobSpec::TraceLatency trace) {
  switch (trace) {
    case JobSpec::TraceLatency::kOn:
      return "on";
    case JobSpec::TraceLatency::kOff:
      return "off";
    case JobSpec::TraceLatency::kAuto:
      break;
  }
  return "auto";
}

}  // namespace

// {"warmup": "30m", ...}: the fields set, as written; {} when none is.
json AnalysisSettingsJson(const AnalysisSettings& settings) {
  json out = json::object();
  auto put = [&out](const char* key, const std::optional<std::string>& v) {
    if (v) out[key] = *v;
  };
  put("warmup", settings.warmup);
  put("metric", settings.metric);
  put("round", settings.round);
  put("min_segment", settings.min_segment);
  put("gate", settings.gate);
  return out;
}

AnalysisSettings AnalysisSettingsFromJson(const json& value) {
  AnalysisSettings settings;
  if (!value.is_object()) return settings;
  auto get = [&value](const char* key, std::optional<std::string>& slot) {
    const auto found = value.find(key);
    if (found != value.end() && found->is_string()) slot = *found;
  };
  get("warmup", settings.warmup);
  get("metric", settings.metric);
  get("round", settings.round);
  get("min_segment", settings.min_segment);
  get("gate", settings.gate);
  return settings;
}

json ToJson(const JobSpec& spec) {
  json block_sizes = json::array();
  for (const auto& entry : spec.block_sizes) {
    block_sizes.push_back({{"bytes", entry.bytes}, {"weight", entry.weight}});
  }
  json out = {
      {"mode", ModeName(spec.mode)},
      {"read_fraction", spec.mode == IoMode::kRndRw
                            ? spec.read_fraction
                            : (IsRead(spec.mode) ? 1.0 : 0.0)},
      {"block_sizes", block_sizes},
      {"bs", BlockSizesText(spec.block_sizes)},
      {"threads", spec.threads},
      {"iodepth", spec.iodepth},
      {"direct", spec.direct},
      {"engine", spec.engine},
      {"fixed_buffers", spec.tuning.fixed_buffers},
      {"sqpoll", spec.tuning.sqpoll},
      {"sqpoll_cpu", spec.tuning.sqpoll_cpu},
      {"hipri", spec.tuning.hipri},
      {"iodepth_batch_submit", spec.tuning.batch_submit},
      {"iodepth_batch_complete_min", spec.tuning.batch_complete_min},
      {"iodepth_batch_complete_max", spec.tuning.batch_complete_max},
      {"cpus_allowed", CpuListText(spec.cpus_allowed)},
      {"cpus_allowed_policy", spec.cpus_split ? "split" : "shared"},
      {"fsync_every", spec.fsync_every},
      {"fsync_mode",
       spec.fsync_mode == FsyncMode::kFsync ? "fsync" : "fdatasync"},
      {"fsync_end", spec.fsync_end},
      {"time_seconds", spec.time.count() / 1e9},
      {"io_limit", spec.io_limit},
      {"bytes_limit", spec.bytes_limit},
      {"rate_iops", spec.rate.iops},
      {"rate_bytes_per_second", spec.rate.bytes_per_second},
      {"thinktime_iotime_seconds", spec.think_io_time.count() / 1e9},
      {"thinktime_seconds", spec.think_time.count() / 1e9},
      {"detect_throttle", spec.detect_throttle},
      {"distribution", DistributionText(spec.distribution)},
      {"seed", spec.seed},
      {"data", DataPatternSpec(spec.data)},
      {"shared_buffer", spec.shared_buffer},
      {"buffer_memory", spec.huge_page_buffers ? "thp" : "malloc"},
      {"trace_latency", TraceLatencyName(spec.trace_latency)},
      {"trace_sample", spec.trace_sample},
      {"seed_given", spec.seed_given},
      {"size_given", spec.size_given},
      {"allow_destroy", spec.allow_destroy},
      {"targets", spec.targets},
      {"file_num", spec.file_num},
      {"size_bytes", spec.size.bytes},
      {"keep_files", spec.keep_files},
      {"interval_seconds", spec.interval.count() / 1e9},
      {"continue_on_error", spec.continue_on_error},
      {"verify", spec.verify},
      {"until_steady", spec.until_steady},
      {"steady_round_seconds", spec.steady_round.count() / 1e9},
      {"min_time_seconds", spec.min_time.count() / 1e9},
      {"analysis", AnalysisSettingsJson(spec.analysis)},
  };
  // --profile: its name (read back from config/app_profiles; "": none) and
  // its mix as this version ran it, for people.
  out["profile"] = spec.profile.name;
  if (!spec.profile.empty()) {
    out["profile_mix"] = ProfileMixText(spec.profile);
  }
  return out;
}

json ToJson(const Environment& environment) {
  json targets = json::array();
  for (const auto& target : environment.targets) {
    targets.push_back(
        {{"path", target.path},
         {"kind", target.kind},
         {"bytes", target.bytes},
         {"file_count", target.file_count},
         {"filesystem", target.filesystem},
         {"mount_point", target.mount_point},
         {"mount_options", target.mount_options},
         {"device", target.device},
         {"device_name", target.device_name},
         {"model", target.model},
         {"serial", target.serial},
         {"firmware", target.firmware},
         {"capacity_bytes", target.capacity_bytes},
         {"rotational", target.rotational},
         {"scheduler", target.scheduler},
         {"queue_depth", target.queue_depth},
         {"transport", target.transport},
         {"logical_sector_size", target.logical_sector_size},
         {"physical_sector_size", target.physical_sector_size},
         {"write_cache", target.write_cache},
         {"io_poll", target.io_poll ? json(*target.io_poll) : json()},
         {"discard_granularity", target.discard_granularity},
         {"numa_node", target.numa_node}});
    if (target.health) targets.back()["health"] = HealthJson(*target.health);
    if (target.health_end) {
      targets.back()["health_end"] = HealthJson(*target.health_end);
    }
  }
  json out = {{"host", environment.host},
              {"kernel", environment.kernel},
              {"cpu_model", environment.cpu_model},
              {"cpu_count", environment.cpu_count},
              {"memory_bytes", environment.memory_bytes},
              {"cpu_governor", environment.cpu_governor},
              {"engine_setup", environment.engine_setup},
              {"targets", targets},
              {"warnings", environment.warnings}};
  if (!environment.cluster.empty()) out["cluster"] = environment.cluster;
  return out;
}

json ToJson(const LatencyHistogram& histogram) {
  const auto& buckets = histogram.buckets();
  json::array_t indexes;
  json::array_t counts;
  indexes.reserve(buckets.size());
  counts.reserve(buckets.size());
  for (const auto& bucket : buckets) {
    indexes.emplace_back(bucket.index);
    counts.emplace_back(bucket.count);
  }
  json out = json::object();
  out["i"] = std::move(indexes);
  out["c"] = std::move(counts);
  return out;
}

LatencyHistogram HistogramFromJson(const json& value) {
  std::vector<LatencyHistogram::Bucket> buckets;
  const auto& indexes = value.at("i");
  const auto& counts = value.at("c");
  for (size_t k = 0; k < indexes.size() && k < counts.size(); ++k) {
    buckets.push_back({indexes[k].get<uint32_t>(), counts[k].get<uint64_t>()});
  }
  return LatencyHistogram::FromBuckets(std::move(buckets));
}

json ToJson(const SplitByLatency& split) {
  json::array_t bands;
  bands.reserve(split.bands().size());
  for (const SplitByLatency::Band& band : split.bands()) {
    bands.push_back(
        json::array({band.index, band.ios, band.part_ns[0], band.part_ns[1],
                     band.part_ns[2], band.part_ns[3]}));
  }
  return bands;
}

Result<SplitByLatency> SplitByLatencyFromJson(const json& value) {
  std::vector<SplitByLatency::Band> bands;
  for (const json& row : value) {
    if (!row.is_array() || row.size() != 6) {
      return RuntimeError(fmt::format(
          "a latency split's band is {}, not [band, IOs, flashmark ns, queue "
          "ns, device ns, completion ns]",
          JsonText(row)));
    }
    SplitByLatency::Band& band = bands.emplace_back();
    band.index = row[0].get<uint32_t>();
    band.ios = row[1].get<uint64_t>();
    for (size_t k = 0; k < 4; ++k) band.part_ns[k] = row[2 + k].get<uint64_t>();
  }
  return SplitByLatency::FromBands(std::move(bands));
}

json HistogramLayoutJson() {
  return {{"kind", "log-linear"},
          {"unit", "ns"},
          {"sub_bucket_bits", buckets::kSubBits},
          {"max_exponent", buckets::kMaxExponent},
          {"bucket_count", buckets::kCount},
          {"max_relative_error", buckets::kMaxRelativeError}};
}

json ToJson(const IntervalSample& sample) {
  json out = {
      {"index", sample.index},
      {"start", sample.start_ns / 1e9},
      {"end", sample.end_ns / 1e9},
      {"read", {{"ios", sample.read.ios}, {"bytes", sample.read.bytes}}},
      {"write", {{"ios", sample.write.ios}, {"bytes", sample.write.bytes}}},
      {"fsyncs", sample.fsyncs},
      {"errors", sample.errors},
      {"latency",
       {{"read", ToJson(sample.read_latency)},
        {"write", ToJson(sample.write_latency)}}}};
  if (!sample.schedule_latency.empty()) {
    out["latency"]["schedule"] = ToJson(sample.schedule_latency);
  }
  if (!sample.commit_latency.empty()) {
    out["latency"]["commit"] = ToJson(sample.commit_latency);
  }
  if (const LatencySplit& split = sample.latency_split; !split.empty()) {
    out["latency"]["split"] = {{"flashmark", ToJson(split.flashmark)},
                               {"queue", ToJson(split.queue)},
                               {"device", ToJson(split.device)},
                               {"completion", ToJson(split.completion)},
                               {"untraced", split.untraced}};
    if (!split.by_latency.empty()) {
      out["latency"]["split"]["by_latency"] = ToJson(split.by_latency);
    }
  }
  if (sample.verify.checked || sample.verify.bad()) {
    out["verify"] = ToJson(sample.verify);
  }
  if (sample.partial) out["partial"] = true;
  if (sample.spans != 1) out["spans"] = sample.spans;  // merged by a stall
  if (!sample.telemetry.empty()) out["telemetry"] = ToJson(sample.telemetry);
  return out;
}

json ToJson(const SeriesSummary& s) {
  return {{"count", s.count}, {"median", s.median}, {"p25", s.p25},
          {"p75", s.p75},     {"p5", s.p5},         {"p95", s.p95},
          {"min", s.min},     {"max", s.max},       {"mean", s.mean}};
}

namespace {

json ToJson(const LatencySummary& s) {
  return {{"count", s.count},    {"mean_ns", s.mean}, {"min_ns", s.min},
          {"max_ns", s.max},     {"p50_ns", s.p50},   {"p90_ns", s.p90},
          {"p95_ns", s.p95},     {"p99_ns", s.p99},   {"p99.9_ns", s.p999},
          {"p99.99_ns", s.p9999}};
}

}  // namespace

json ToJson(const RunSummary& summary) {
  json out = {
      {"elapsed_seconds", summary.elapsed_seconds},
      {"read", {{"ios", summary.read.ios}, {"bytes", summary.read.bytes}}},
      {"write", {{"ios", summary.write.ios}, {"bytes", summary.write.bytes}}},
      {"fsyncs", summary.fsyncs},
      {"errors", summary.errors},
      {"intervals_used", summary.intervals_used},
      {"read_mibs", ToJson(summary.read_mibs)},
      {"write_mibs", ToJson(summary.write_mibs)},
      {"iops", ToJson(summary.iops)},
      {"latency", ToJson(summary.latency)},
      {"read_latency", ToJson(summary.read_latency)},
      {"write_latency", ToJson(summary.write_latency)},
      {"cpu_user_seconds", summary.cpu_user_seconds},
      {"cpu_system_seconds", summary.cpu_system_seconds}};
  if (summary.schedule_latency.count != 0) {
    out["schedule_latency"] = ToJson(summary.schedule_latency);
  }
  if (summary.commit_latency.count != 0) {
    out["commit_latency"] = ToJson(summary.commit_latency);
  }
  if (const LatencySplitSummary& split = summary.latency_split;
      split.traced() != 0 || split.untraced != 0) {
    out["latency_split"] = {{"flashmark", ToJson(split.flashmark)},
                            {"queue", ToJson(split.queue)},
                            {"device", ToJson(split.device)},
                            {"completion", ToJson(split.completion)},
                            {"untraced", split.untraced}};
    for (const auto& [name, parts] :
         {std::pair{"at_p50", &split.at_p50}, {"at_p99", &split.at_p99}}) {
      if (std::isnan((*parts)[0])) continue;
      json& at = out["latency_split"][name];
      for (size_t k = 0; k < 4; ++k) at[kSplitPartNames[k]] = (*parts)[k];
    }
  }
  if (summary.verify.checked || summary.verify.bad()) {
    out["verify"] = ToJson(summary.verify);
  }
  return out;
}

json ToJson(const VerifyCounts& counts) {
  return {{"checked", counts.checked}, {"bad", counts.bad()},
          {"torn", counts.torn},       {"misdirected", counts.misdirected},
          {"lost", counts.lost},       {"newer", counts.newer}};
}

json ToJson(const VerifyMismatch& m) {
  json out = {{"kind", VerifyFaultName(m.fault)},
              {"found_by", m.read_back ? "read-back" : "run"},
              {"path", m.path},
              {"offset", m.offset},
              {"length", m.length},
              {"expected_generation", m.expected_generation}};
  if (m.header_valid) {
    out["found"] = {{"generation", m.found_generation},
                    {"path", m.found_path},
                    {"offset", m.found_offset},
                    {"seed", m.found_seed}};
  }
  if (m.beyond_end) out["file_size"] = m.file_size;
  return out;
}

json ToJson(const VerifyOutcome& outcome) {
  json mismatches = json::array();
  for (const auto& m : outcome.mismatches) mismatches.push_back(ToJson(m));
  json out = {{"block_bytes", outcome.block_bytes},
              {"mismatches", mismatches},
              {"mismatches_not_listed", outcome.mismatches_not_listed}};
  if (outcome.read_back_ran) {
    out["read_back"] = ToJson(outcome.read_back);
    out["read_back"]["complete"] = outcome.read_back_complete;
    out["read_back"]["bytes"] = outcome.read_back_bytes;
    out["read_back"]["seconds"] = outcome.read_back_seconds;
  }
  if (!outcome.read_back_note.empty()) {
    out["read_back_note"] = outcome.read_back_note;
  }
  return out;
}

json ToJson(const RunError& error) {
  return {{"message", error.message},
          {"path", error.path},
          {"offset", error.offset},
          {"errno", error.error_number}};
}

json RunHeaderJson(const RunResult& run) {
  return {{"schema", kRunSchemaName},
          {"schema_version", kRunSchemaVersion},
          {"tool", "flashmark"},
          {"tool_version", run.tool_version},
          {"git_revision", run.git_revision},
          {"command_line", run.command_line},
          {"config", ToJson(run.spec)},
          {"environment", ToJson(run.environment)},
          {"start_unix_ns", run.start_unix_ns},
          {"histogram_layout", HistogramLayoutJson()}};
}

json ToJson(const RunResult& run, bool with_intervals) {
  json doc = RunHeaderJson(run);
  json intervals = json::array();
  for (size_t i = 0; with_intervals && i < run.intervals.size(); ++i) {
    intervals.push_back(ToJson(run.intervals[i]));
  }
  doc["intervals"] = intervals;
  doc["status"] = RunStatusName(run.status);
  doc["end_unix_ns"] = run.end_unix_ns;
  if (run.error) doc["error"] = ToJson(*run.error);
  doc["summary"] = ToJson(run.summary);
  if (!run.imported.empty()) doc["imported"] = ToJson(run.imported);
  if (run.verify.enabled) doc["verify"] = ToJson(run.verify);
  if (run.replay) doc["replay"] = ToJson(*run.replay);
  return doc;
}

Result<JobSpec> JobSpecFromJson(const json& config) {
  try {
    JobSpec spec;
    auto mode = ParseMode(config.at("mode").get<std::string>());
    if (!mode.ok()) return mode.error();
    spec.mode = *mode;
    spec.read_fraction = config.value("read_fraction", 0.6);
    if (spec.mode != IoMode::kRndRw) spec.read_fraction = 0.6;
    spec.block_sizes.clear();
    for (const auto& entry : config.at("block_sizes")) {
      spec.block_sizes.push_back({entry.at("bytes").get<uint32_t>(),
                                  entry.at("weight").get<uint32_t>()});
    }
    if (const auto profile = config.find("profile");
        profile != config.end() && profile->is_string() &&
        !profile->get<std::string>().empty()) {
      auto found = FindAppProfile(profile->get<std::string>());
      if (!found.ok()) return found.error();
      spec.profile = std::move(found).value();
    }
    spec.threads = config.at("threads");
    spec.iodepth = config.at("iodepth");
    spec.direct = config.at("direct");
    spec.engine = config.at("engine");
    spec.tuning.fixed_buffers = config.value("fixed_buffers", false);
    spec.tuning.sqpoll = config.value("sqpoll", false);
    spec.tuning.sqpoll_cpu = config.value("sqpoll_cpu", -1);
    spec.tuning.hipri = config.value("hipri", false);
    // Runs stored before the option submitted all that was ready at once.
    spec.tuning.batch_submit = config.value("iodepth_batch_submit", 0);
    spec.tuning.batch_complete_min =
        config.value("iodepth_batch_complete_min", 1);
    spec.tuning.batch_complete_max =
        config.value("iodepth_batch_complete_max", 0);
    if (auto cpus = ParseCpuList(config.value("cpus_allowed", "")); cpus.ok()) {
      spec.cpus_allowed = *cpus;
    }
    spec.cpus_split = config.value("cpus_allowed_policy", "") == "split";
    spec.fsync_every = config.value("fsync_every", uint64_t{0});
    spec.fsync_mode = config.value("fsync_mode", "fsync") == "fdatasync"
                          ? FsyncMode::kFdatasync
                          : FsyncMode::kFsync;
    spec.fsync_end = config.value("fsync_end", false);
    spec.time = std::chrono::nanoseconds(
        static_cast<int64_t>(config.value("time_seconds", 0.0) * 1e9));
    spec.io_limit = config.value("io_limit", uint64_t{0});
    spec.bytes_limit = config.value("bytes_limit", uint64_t{0});
    spec.rate.iops = config.value("rate_iops", 0.0);
    spec.rate.bytes_per_second = config.value("rate_bytes_per_second", 0.0);
    spec.think_io_time = std::chrono::nanoseconds(static_cast<int64_t>(
        config.value("thinktime_iotime_seconds", 0.0) * 1e9));
    spec.think_time = std::chrono::nanoseconds(
        static_cast<int64_t>(config.value("thinktime_seconds", 0.0) * 1e9));
    spec.detect_throttle = config.value("detect_throttle", false);
    auto distribution =
        ParseDistribution(config.value("distribution", "uniform"));
    if (distribution.ok()) spec.distribution = *distribution;
    spec.seed = config.value("seed", uint64_t{0});
    spec.seed_given = config.value("seed_given", false);
    auto data = ParseDataPattern(config.value("data", "random"));
    if (data.ok()) spec.data = *data;
    spec.shared_buffer = config.value("shared_buffer", false);
    // Stored before --mem: ordinary pages.
    spec.huge_page_buffers = config.value("buffer_memory", "malloc") == "thp";
    const std::string trace = config.value("trace_latency", "auto");
    spec.trace_latency = trace == "on"    ? JobSpec::TraceLatency::kOn
                         : trace == "off" ? JobSpec::TraceLatency::kOff
                                          : JobSpec::TraceLatency::kAuto;
    // Stored before --trace-sample: every IO traced.
    spec.trace_sample = config.value("trace_sample", 1u);
    if (!std::has_single_bit(spec.trace_sample)) {
      return RuntimeError(fmt::format(
          "stored run config is malformed: trace_sample {} is not a power "
          "of two",
          spec.trace_sample));
    }
    spec.targets = config.value("targets", std::vector<std::string>{});
    spec.file_num = config.value("file_num", 128);
    spec.size.bytes = config.value("size_bytes", uint64_t{0});
    spec.size_given = config.value("size_given", true);
    spec.keep_files = config.value("keep_files", false);
    spec.allow_destroy =
        config.value("allow_destroy", std::vector<std::string>{});
    spec.interval = std::chrono::nanoseconds(
        static_cast<int64_t>(config.value("interval_seconds", 1.0) * 1e9));
    spec.continue_on_error = config.value("continue_on_error", false);
    spec.verify = config.value("verify", false);
    spec.until_steady = config.value("until_steady", false);
    spec.steady_round = std::chrono::nanoseconds(
        static_cast<int64_t>(config.value("steady_round_seconds", 60.0) * 1e9));
    spec.min_time = std::chrono::nanoseconds(
        static_cast<int64_t>(config.value("min_time_seconds", 0.0) * 1e9));
    spec.analysis = AnalysisSettingsFromJson(config.value("analysis", json()));
    return spec;
  } catch (const json::exception& e) {
    return RuntimeError(std::string("stored run config is malformed: ") +
                        e.what());
  }
}

Environment EnvironmentFromJson(const json& value) {
  Environment environment;
  environment.host = value.value("host", "");
  environment.kernel = value.value("kernel", "");
  environment.cpu_model = value.value("cpu_model", "");
  environment.cpu_count = value.value("cpu_count", 0);
  environment.memory_bytes = value.value("memory_bytes", uint64_t{0});
  environment.cpu_governor = value.value("cpu_governor", "");
  environment.engine_setup = value.value("engine_setup", "");
  environment.cluster = value.value("cluster", "");
  environment.warnings = value.value("warnings", std::vector<std::string>{});
  for (const auto& target : value.value("targets", json::array())) {
    TargetInfo info;
    info.path = target.value("path", "");
    info.kind = target.value("kind", "");
    info.bytes = target.value("bytes", uint64_t{0});
    info.file_count = target.value("file_count", 0);
    info.filesystem = target.value("filesystem", "");
    info.mount_point = target.value("mount_point", "");
    info.mount_options = target.value("mount_options", "");
    info.device = target.value("device", "");
    info.device_name = target.value("device_name", "");
    info.model = target.value("model", "");
    info.serial = target.value("serial", "");
    info.firmware = target.value("firmware", "");
    info.capacity_bytes = target.value("capacity_bytes", uint64_t{0});
    info.rotational = target.value("rotational", false);
    info.scheduler = target.value("scheduler", "");
    info.queue_depth = target.value("queue_depth", 0);
    info.transport = target.value("transport", "");
    info.logical_sector_size = target.value("logical_sector_size", 0u);
    info.physical_sector_size = target.value("physical_sector_size", 0u);
    info.write_cache = target.value("write_cache", "");
    if (target.contains("io_poll") && target["io_poll"].is_boolean()) {
      info.io_poll = target["io_poll"].get<bool>();
    }
    info.discard_granularity = target.value("discard_granularity", uint64_t{0});
    info.numa_node = target.value("numa_node", -1);
    if (target.contains("health"))
      info.health = HealthFromJson(target["health"]);
    if (target.contains("health_end"))
      info.health_end = HealthFromJson(target["health_end"]);
    environment.targets.push_back(info);
  }
  return environment;
}

namespace {

// value[key] as a number; 0 when missing or not a number (NaN is stored
// as null).
double NumberAt(const json& value, const char* key) {
  const auto found = value.find(key);
  return found != value.end() && found->is_number() ? found->get<double>() : 0;
}

}  // namespace

SeriesSummary SeriesSummaryFromJson(const json& value) {
  SeriesSummary s;
  if (!value.is_object()) return s;
  s.count = static_cast<size_t>(NumberAt(value, "count"));
  s.median = NumberAt(value, "median");
  s.p25 = NumberAt(value, "p25");
  s.p75 = NumberAt(value, "p75");
  s.p5 = NumberAt(value, "p5");
  s.p95 = NumberAt(value, "p95");
  s.min = NumberAt(value, "min");
  s.max = NumberAt(value, "max");
  s.mean = NumberAt(value, "mean");
  return s;
}

LatencySplitSummary LatencySplitSummaryFromJson(const json& value) {
  LatencySplitSummary split;
  if (!value.is_object()) return split;
  split.flashmark = LatencySummaryFromJson(value.value("flashmark", json()));
  split.queue = LatencySummaryFromJson(value.value("queue", json()));
  split.device = LatencySummaryFromJson(value.value("device", json()));
  split.completion = LatencySummaryFromJson(value.value("completion", json()));
  for (const auto& [name, parts] :
       {std::pair{"at_p50", &split.at_p50}, {"at_p99", &split.at_p99}}) {
    const json at = value.value(name, json());
    if (!at.is_object()) continue;
    for (size_t k = 0; k < 4; ++k) {
      (*parts)[k] = at.value(kSplitPartNames[k], std::nan(""));
    }
  }
  split.untraced = value.value("untraced", uint64_t{0});
  return split;
}

LatencySummary LatencySummaryFromJson(const json& value) {
  LatencySummary s;
  if (!value.is_object()) return s;
  s.count = value.value("count", uint64_t{0});
  s.mean = NumberAt(value, "mean_ns");
  s.min = NumberAt(value, "min_ns");
  s.max = NumberAt(value, "max_ns");
  s.p50 = NumberAt(value, "p50_ns");
  s.p90 = NumberAt(value, "p90_ns");
  s.p95 = NumberAt(value, "p95_ns");
  s.p99 = NumberAt(value, "p99_ns");
  s.p999 = NumberAt(value, "p99.9_ns");
  s.p9999 = NumberAt(value, "p99.99_ns");
  return s;
}

RunError RunErrorFromJson(const json& value) {
  return RunError{value.value("message", ""), value.value("path", ""),
                  value.value("offset", uint64_t{0}), value.value("errno", 0)};
}

}  // namespace flashmark
