#include "store/fio_import.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "config/campaign_hash.h"
#include "store/fio_job_options.h"

namespace flashmark {
namespace {

using nlohmann::json;

constexpr const char* kHint =
    "import fio's complete JSON output (fio 3.x: --output-format=json or "
    "json+ --output=FILE)";

std::string Child(const std::string& path, std::string_view key) {
  std::string escaped;
  for (char c : key) escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return path + "/" + escaped;
}

// A member of `parent` with the given type, or an error naming its path.
Result<const json*> Member(const ImportFile& file, const json& parent,
                           const std::string& path, const char* key,
                           json::value_t type) {
  const std::string at = Child(path, key);
  if (!parent.is_object() || !parent.contains(key)) {
    return JsonPathError(file, at, "missing", kHint);
  }
  const json& value = parent[key];
  const bool fits = type == json::value_t::number_float ? value.is_number()
                                                        : value.type() == type;
  if (!fits) {
    static const std::map<json::value_t, const char*> kNames = {
        {json::value_t::object, "an object"}, {json::value_t::array, "an array"},
        {json::value_t::string, "a string"}, {json::value_t::number_float, "a number"}};
    return JsonPathError(file, at, fmt::format("{} is not {}", value.dump(),
                                               kNames.at(type)), kHint);
  }
  return &value;
}

Result<double> Number(const ImportFile& file, const json& parent,
                      const std::string& path, const char* key) {
  auto value = Member(file, parent, path, key, json::value_t::number_float);
  if (!value.ok()) return value.error();
  return (*value)->get<double>();
}

// The JSON document; text before its first line that opens with "{" is
// skipped (fio's notes when stdout was redirected).
Result<json> ParseDocument(const ImportFile& file) {
  size_t start = 0;
  while (start < file.text.size() && file.text[start] != '{') {
    const size_t next = file.text.find('\n', start);
    if (next == std::string::npos) {
      start = file.text.size();
      break;
    }
    start = next + 1;
  }
  const auto line_of = [&file](size_t offset) {
    offset = std::min(offset, file.text.size());
    return 1 + static_cast<size_t>(std::count(file.text.begin(),
                                              file.text.begin() + offset, '\n'));
  };
  if (start >= file.text.size()) {
    return LineError(file, line_of(file.text.size()), "no JSON document (fio's "
                     "JSON output starts with a line \"{\")", kHint);
  }
  try {
    return json::parse(file.text.begin() + start, file.text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const auto reason = what.find("syntax error");
    if (reason != std::string::npos) what = what.substr(reason);
    // e.byte counts from 1 and may point past the end (end of input).
    const size_t at = std::min(start + (e.byte > 0 ? e.byte - 1 : 0),
                               file.text.size() - 1);
    return LineError(file, line_of(at), "not valid JSON (" + what + ")" +
                     (at + 1 >= file.text.size() ? "; the file is truncated" : ""),
                     kHint);
  }
}

struct Side {
  DirectionTotals totals;
  double runtime_ms = 0;
  LatencyHistogram histogram;      // JSON+ buckets
  std::vector<uint64_t> bins;      // the same, per fio bin; empty: none
};

// One direction ("read", "write", "trim"): totals, JSON+ buckets, figures.
Result<Side> ReadSide(const ImportFile& file, const json& job,
                      const std::string& job_path, const char* name,
                      ToolReport& report) {
  Side side;
  auto object = Member(file, job, job_path, name, json::value_t::object);
  if (!object.ok()) return object.error();
  const json& d = **object;
  const std::string path = Child(job_path, name);
  double bytes = 0, ios = 0;
  for (auto [key, into] : {std::pair{"io_bytes", &bytes}, {"total_ios", &ios},
                           {"runtime", &side.runtime_ms}}) {
    auto value = Number(file, d, path, key);
    if (!value.ok()) return value.error();
    if (*value < 0) return JsonPathError(file, Child(path, key), "is negative", kHint);
    *into = *value;
  }
  side.totals = {static_cast<uint64_t>(ios), static_cast<uint64_t>(bytes)};
  auto clat = Member(file, d, path, "clat_ns", json::value_t::object);
  if (!clat.ok()) return clat.error();
  if (ios == 0) return side;
  auto figure = [&](const std::string& what, double value, const char* unit) {
    report.figures.push_back({std::string(name) + " " + what, value, unit});
  };
  for (auto [key, unit] : {std::pair{"iops", "IOPS"}, {"bw", "KiB/s"}}) {
    auto value = Number(file, d, path, key);
    if (!value.ok()) return value.error();
    figure(key == std::string("iops") ? "IOPS" : "bw", *value, unit);
  }
  figure("io_bytes", bytes, "B");
  figure("total_ios", ios, "");
  figure("runtime", side.runtime_ms, "ms");
  const std::string clat_path = Child(path, "clat_ns");
  for (const char* key : {"mean", "min", "max", "stddev"}) {
    auto value = Number(file, **clat, clat_path, key);
    if (!value.ok()) return value.error();
    figure(std::string("clat ") + key, *value, "ns");
  }
  const json percentiles = (*clat)->value("percentile", json::object());
  std::vector<std::pair<double, double>> ordered;  // (percent, ns): "5" before "10"
  for (const auto& [key, value] : percentiles.items()) {
    const auto percent = ParseNumber(key);
    if (!percent || !value.is_number()) {
      return JsonPathError(file, Child(Child(clat_path, "percentile"), key),
                           "is not a percentile (percent: ns)", kHint);
    }
    ordered.emplace_back(*percent, value.get<double>());
  }
  std::sort(ordered.begin(), ordered.end());
  for (const auto& [percent, ns] : ordered) {
    figure(fmt::format("clat p{:g}", percent), ns, "ns");
  }
  for (const char* other : {"lat_ns", "slat_ns"}) {
    if (d.contains(other) && d[other].is_object() && d[other].contains("mean")) {
      figure(std::string(other).substr(0, std::string(other).size() - 3) + " mean",
             d[other].value("mean", 0.0), "ns");
    }
  }
  if ((*clat)->contains("bins")) {
    auto bins = Member(file, **clat, clat_path, "bins", json::value_t::object);
    if (!bins.ok()) return bins.error();
    side.bins.assign(kFioBins, 0);
    for (const auto& [key, count] : (*bins)->items()) {
      const auto value = ParseNumber(key);
      if (!value || !count.is_number_unsigned()) {
        return JsonPathError(file, Child(Child(clat_path, "bins"), key),
                             "is not a latency bucket (ns: count)", kHint);
      }
      const uint64_t ns = static_cast<uint64_t>(*value);
      side.histogram.Add(ns, count.get<uint64_t>());
      const int64_t index = FioBinIndex(ns);
      if (index < 0 || side.bins.empty()) {
        side.bins.clear();  // not fio's own bins: no exact remainder
      } else {
        side.bins[index] += count.get<uint64_t>();
      }
    }
  }
  return side;
}

void AddSteadyState(const json& job, ToolReport& report) {
  const json& ss = job.value("steadystate", json());
  if (!ss.is_object()) return;
  auto number = [](const json& v) {
    return v.is_number() ? v.get<double>()
                         : v.is_string() ? std::strtod(v.get<std::string>().c_str(), nullptr)
                                         : 0.0;
  };
  const std::string criterion = ss.value("ss", "");
  report.notes.push_back(fmt::format(
      "fio steady state {} over {:g} s: {}", criterion, number(ss.value("duration", json(0))),
      number(ss.value("attained", json(0))) != 0 ? "attained" : "not attained"));
  for (const char* key : {"attained", "criterion", "max_deviation", "slope", "duration"}) {
    if (ss.contains(key)) {
      report.figures.push_back({fmt::format("steadystate {}", key), number(ss[key]),
                                key == std::string("criterion") ? "%"
                                : key == std::string("duration") ? "s" : ""});
    }
  }
  const json& data = ss.value("data", json::object());
  for (const char* key : {"iops_mean", "bw_mean"}) {
    if (data.is_object() && data.contains(key)) {
      report.figures.push_back({fmt::format("steadystate {}", key), number(data[key]),
                                key == std::string("bw_mean") ? "B/s" : "IOPS"});
    }
  }
}

}  // namespace

Result<std::vector<StoredRun>> ParseFioJson(const ImportFile& file,
                                            const FioLogReader& logs) {
  auto parsed = ParseDocument(file);
  if (!parsed.ok()) return parsed.error();
  const json& doc = *parsed;
  auto version = Member(file, doc, "", "fio version", json::value_t::string);
  if (!version.ok()) {
    return JsonPathError(file, "/fio version", "missing: not fio JSON output", kHint);
  }
  const std::string tool_version = (*version)->get<std::string>();
  if (tool_version.rfind("fio-3.", 0) != 0) {
    return JsonPathError(file, "/fio version", fmt::format(
        "\"{}\" is not a version this importer reads (fio-3.x; fio 2 wrote "
        "latencies in microseconds under other names)", tool_version),
        "rerun with fio 3.x, or convert the output");
  }
  auto jobs = Member(file, doc, "", "jobs", json::value_t::array);
  if (!jobs.ok()) return jobs.error();
  if ((*jobs)->empty()) return JsonPathError(file, "/jobs", "holds no job", kHint);
  FioOptions global;
  const json global_options = doc.value("global options", json::object());
  for (const auto& [name, value] : global_options.items()) {
    global.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  const std::string hash = Sha256Hex(file.text);
  std::map<std::string, int> name_count;
  for (const json& job : **jobs) name_count[job.value("jobname", "")]++;

  std::vector<StoredRun> runs;
  int next_thread = 1;
  for (size_t i = 0; i < (*jobs)->size(); ++i) {
    const json& job = (**jobs)[i];
    const std::string path = fmt::format("/jobs/{}", i);
    auto name = Member(file, job, path, "jobname", json::value_t::string);
    if (!name.ok()) return name.error();
    const std::string jobname = (*name)->get<std::string>();
    FioOptions options = global;
    // fio's JSON lists options alphabetically: "name" first keeps the
    // command line fio's shape (global options, then --name=JOB ...).
    const json job_options = job.value("job options", json::object());
    for (const bool name_pass : {true, false}) {
      for (const auto& [key, value] : job_options.items()) {
        if ((key == "name") != name_pass) continue;
        options.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
      }
    }
    // numjobs threads in one entry: fio reported them as a group.
    const int numjobs = std::max(1, std::atoi(FioOption(options, {"numjobs"}, "1").c_str()));
    const bool grouped = numjobs > 1 && name_count[jobname] == 1;
    const int first = next_thread, threads = grouped ? numjobs : 1;
    next_thread += threads;

    StoredRun stored;
    RunResult& run = stored.run;
    ToolReport& report = run.imported;
    report = {"fio", tool_version, file.name, jobname, options, {}, {}, {}};
    auto spec = FioJobSpec(options, threads, report.notes);
    if (!spec.ok()) {
      return JsonPathError(file, Child(path, "job options"), spec.error().message,
                           spec.error().hint);
    }
    run.spec = *spec;
    Side sides[3];
    const char* names[3] = {"read", "write", "trim"};
    bool json_plus = false;
    for (int d = 0; d < 3; ++d) {
      if (d == 2 && !job.contains("trim")) continue;
      auto side = ReadSide(file, job, path, names[d], report);
      if (!side.ok()) return side.error();
      sides[d] = std::move(*side);
      json_plus |= !sides[d].histogram.empty();
    }
    if (sides[2].totals.ios) {
      report.notes.push_back("trims are kept as fio's figures only: flashmark "
                             "models reads and writes");
    }
    // fio's bandwidth and IOPS are totals over the direction's runtime.
    double runtime_ms = std::max(sides[0].runtime_ms, sides[1].runtime_ms);
    if (runtime_ms <= 0) runtime_ms = job.value("job_runtime", 0.0) / threads;
    const uint64_t runtime_ns = static_cast<uint64_t>(std::llround(runtime_ms * 1e6));
    IntervalSample rest;
    if (logs) {
      auto read = logs(first, threads, (*jobs)->size() == 1);
      if (!read.ok()) return read.error();
      const double avg = std::strtod(FioOption(options, {"log_avg_msec"}, "0").c_str(), nullptr);
      if (avg <= 0 || FioOption(options, {"log_max_value"}, "0") == "1") {
        return JsonPathError(file, Child(path, "job options"),
                             "the logs were not averaged (log_avg_msec) or hold "
                             "maxima (log_max_value): they are not interval series",
                             "rerun fio with --log_avg_msec=1000");
      }
      auto left = ApplyFioLogs(*read, {avg, run.spec.block_sizes[0].bytes}, run);
      if (!left.ok()) return left.error();
      run.spec.interval = std::chrono::nanoseconds(std::llround(avg * 1e6));
      rest = std::move(left->late);
      LatencyHistogram* into[2] = {&rest.read_latency, &rest.write_latency};
      const std::vector<uint64_t>* covered[2] = {&left->read_bins, &left->write_bins};
      for (int d = 0; d < 2; ++d) {
        if (sides[d].bins.empty() || covered[d]->empty()) continue;
        *into[d] = {};
        for (size_t b = 0; b < kFioBins; ++b) {
          if (sides[d].bins[b] > (*covered[d])[b]) {
            into[d]->Add(FioBinValue(b), sides[d].bins[b] - (*covered[d])[b]);
          }
        }
      }
      if (json_plus && read->clat_hist.empty()) {
        report.notes.push_back("JSON+ buckets cover the whole run, not intervals: "
                               "without clat_hist logs they stay fio's percentiles");
      }
    } else {
      run.spec.interval = std::chrono::nanoseconds(runtime_ns);
      rest.read_latency = std::move(sides[0].histogram);
      rest.write_latency = std::move(sides[1].histogram);
      report.notes.push_back("no logs: one interval over fio's runtime");
    }
    AddSteadyState(job, report);
    for (const char* key : {"usr_cpu", "sys_cpu"}) {
      if (job.contains(key) && job[key].is_number()) {
        report.figures.push_back({key, job[key].get<double>(), "%"});
      }
    }
    FinishImportedRun(run, {sides[0].totals, sides[1].totals, 0}, runtime_ns,
                      std::move(rest));

    const int error = job.value("error", 0);
    run.status = error == 0 ? RunStatus::kOk : RunStatus::kFailed;
    if (error != 0) {
      run.error = RunError{fmt::format("fio job {} ended with error {}", jobname, error),
                           "", 0, error};
    }
    run.command_line = FioCommandLine(options, json_plus);
    run.tool_version = tool_version;
    run.end_unix_ns = doc.contains("timestamp_ms") && doc["timestamp_ms"].is_number()
                          ? doc["timestamp_ms"].get<int64_t>() * 1000000
                          : file.modified_unix_ns;
    run.start_unix_ns = run.end_unix_ns - static_cast<int64_t>(runtime_ns);
    TargetInfo target;
    target.path = run.spec.targets.empty() ? "" : run.spec.targets[0];
    target.kind = "fio target";
    target.bytes = run.spec.size.bytes;
    target.file_count = run.spec.file_num;
    const json& disks = doc.value("disk_util", json::array());
    if (disks.is_array() && !disks.empty() && disks[0].is_object()) {
      target.device = disks[0].value("name", "");
    }
    run.environment.targets.push_back(target);
    stored.labels.label = name_count[jobname] > 1 ? fmt::format("{}.{}", jobname, first)
                                                  : jobname;
    stored.labels.source = "fio";
    stored.labels.source_hash = hash;
    runs.push_back(std::move(stored));
  }
  return runs;
}

}  // namespace flashmark
