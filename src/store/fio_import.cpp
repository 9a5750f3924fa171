#include "store/fio_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "common/json_text.h"
#include "config/campaign_hash.h"
#include "store/fio_job_options.h"
#include "store/fio_job_results.h"

namespace flashmark {
namespace {

using nlohmann::json;

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
    return 1 + static_cast<size_t>(std::count(
                   file.text.begin(), file.text.begin() + offset, '\n'));
  };
  if (start >= file.text.size()) {
    return LineError(file, line_of(file.text.size()),
                     "no JSON document (fio's "
                     "JSON output starts with a line \"{\")",
                     kFioJsonHint);
  }
  try {
    return json::parse(file.text.begin() + start, file.text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const auto reason = what.find("syntax error");
    if (reason != std::string::npos) what = what.substr(reason);
    // e.byte counts from 1 and may point past the end (end of input).
    const size_t at =
        std::min(start + (e.byte > 0 ? e.byte - 1 : 0), file.text.size() - 1);
    return LineError(
        file, line_of(at),
        "not valid JSON (" + what + ")" +
            (at + 1 >= file.text.size() ? "; the file is truncated" : ""),
        kFioJsonHint);
  } catch (const json::out_of_range& e) {
    // A number beyond double's range ("1e999"): nlohmann names the number
    // but not where it is; the line is that of its first occurrence.
    std::string what = e.what();
    const auto reason = what.find("number overflow");
    if (reason != std::string::npos) what = what.substr(reason);
    const auto quote = what.find('\'');
    const std::string number =
        quote == std::string::npos
            ? ""
            : what.substr(quote + 1, what.rfind('\'') - quote - 1);
    const size_t at =
        number.empty() ? std::string::npos : file.text.find(number, start);
    return LineError(file, line_of(at == std::string::npos ? start : at),
                     "not valid JSON (" + what + ")", kFioJsonHint);
  }
}

// ParseFioJson without the net for values of unexpected types.
Result<std::vector<StoredRun>> ImportJobs(const ImportFile& file,
                                          const FioLogReader& logs) {
  auto parsed = ParseDocument(file);
  if (!parsed.ok()) return parsed.error();
  const json& doc = *parsed;
  auto version = FioMember(file, doc, "", "fio version", json::value_t::string);
  if (!version.ok()) {
    return JsonPathError(file, "/fio version", "missing: not fio JSON output",
                         kFioJsonHint);
  }
  const std::string tool_version = (*version)->get<std::string>();
  if (tool_version.rfind("fio-3.", 0) != 0) {
    return JsonPathError(
        file, "/fio version",
        fmt::format(
            "\"{}\" is not a version this importer reads (fio-3.x; fio 2 wrote "
            "latencies in microseconds under other names)",
            tool_version),
        "rerun with fio 3.x, or convert the output");
  }
  auto jobs = FioMember(file, doc, "", "jobs", json::value_t::array);
  if (!jobs.ok()) return jobs.error();
  if ((*jobs)->empty())
    return JsonPathError(file, "/jobs", "holds no job", kFioJsonHint);
  FioOptions global;
  const json global_options = doc.value("global options", json::object());
  for (const auto& [name, value] : global_options.items()) {
    global.emplace_back(
        name, value.is_string() ? value.get<std::string>() : JsonText(value));
  }
  const std::string hash = Sha256Hex(file.text);
  std::map<std::string, int> name_count;
  for (const json& job : **jobs) {
    const json* name =
        job.is_object() && job.contains("jobname") ? &job["jobname"] : nullptr;
    name_count[name && name->is_string() ? name->get<std::string>() : ""]++;
  }

  // The same for every job: when fio wrote the file, the disk it saw.
  const int64_t end_unix_ns =
      doc.contains("timestamp_ms") && doc["timestamp_ms"].is_number() &&
              Bounded(doc["timestamp_ms"].get<double>(), 9e12)
          ? static_cast<int64_t>(doc["timestamp_ms"].get<double>()) * 1000000
          : file.modified_unix_ns;
  std::string device;
  const json disks = doc.value("disk_util", json::array());
  if (disks.is_array() && !disks.empty() && disks[0].is_object()) {
    const json disk_name = disks[0].value("name", json());
    if (disk_name.is_string()) device = disk_name.get<std::string>();
  }

  std::vector<StoredRun> runs;
  int next_thread = 1;
  for (size_t i = 0; i < (*jobs)->size(); ++i) {
    const json& job = (**jobs)[i];
    const std::string path = fmt::format("/jobs/{}", i);
    auto name = FioMember(file, job, path, "jobname", json::value_t::string);
    if (!name.ok()) return name.error();
    const std::string jobname = (*name)->get<std::string>();
    FioOptions options = global;
    // fio's JSON lists options alphabetically: "name" first keeps the
    // command line fio's shape (global options, then --name=JOB ...).
    const json job_options = job.value("job options", json::object());
    for (const bool name_pass : {true, false}) {
      for (const auto& [key, value] : job_options.items()) {
        if ((key == "name") != name_pass) continue;
        options.emplace_back(key, value.is_string() ? value.get<std::string>()
                                                    : JsonText(value));
      }
    }
    // numjobs threads in one entry: fio reported them as a group.
    const int numjobs = FioNumjobs(options);
    const bool grouped = numjobs > 1 && name_count[jobname] == 1;
    const int first = next_thread, threads = grouped ? numjobs : 1;
    next_thread += threads;

    StoredRun stored;
    RunResult& run = stored.run;
    ToolReport& report = run.imported;
    report = {"fio", tool_version, file.name, jobname, options, {}, {}, {}};
    auto spec = FioJobSpec(options, threads, report.notes);
    if (!spec.ok()) {
      return JsonPathError(file, JsonChild(path, "job options"),
                           spec.error().message, spec.error().hint);
    }
    run.spec = *spec;
    FioSide sides[3];
    const char* names[3] = {"read", "write", "trim"};
    bool json_plus = false;
    for (int d = 0; d < 3; ++d) {
      if (d == 2 && !job.contains("trim")) continue;
      auto side = ReadFioSide(file, job, path, names[d], report);
      if (!side.ok()) return side.error();
      sides[d] = std::move(*side);
      json_plus |= !sides[d].histogram.empty();
    }
    if (sides[2].totals.ios) {
      report.notes.push_back(
          "trims are kept as fio's figures only: flashmark "
          "models reads and writes");
    }
    // fio's bandwidth and IOPS are totals over the direction's runtime.
    double runtime_ms = std::max(sides[0].runtime_ms, sides[1].runtime_ms);
    if (runtime_ms <= 0 && job.contains("job_runtime") &&
        job["job_runtime"].is_number()) {
      runtime_ms = job["job_runtime"].get<double>() / threads;
    }
    runtime_ms = std::clamp(runtime_ms, 0.0, 1e12);  // (31 years)
    const uint64_t runtime_ns =
        static_cast<uint64_t>(std::llround(runtime_ms * 1e6));
    IntervalSample rest;
    if (logs) {
      auto read = logs(first, threads, (*jobs)->size() == 1);
      if (!read.ok()) return read.error();
      const double avg = std::strtod(
          FioOption(options, {"log_avg_msec"}, "0").c_str(), nullptr);
      if (avg <= 0 || FioOption(options, {"log_max_value"}, "0") == "1") {
        return JsonPathError(
            file, JsonChild(path, "job options"),
            "the logs were not averaged (log_avg_msec) or hold "
            "maxima (log_max_value): they are not interval series",
            "rerun fio with --log_avg_msec=1000");
      }
      auto left =
          ApplyFioLogs(*read, {avg, run.spec.block_sizes[0].bytes}, run);
      if (!left.ok()) return left.error();
      run.spec.interval = std::chrono::nanoseconds(std::llround(avg * 1e6));
      rest = std::move(left->late);
      LatencyHistogram* into[2] = {&rest.read_latency, &rest.write_latency};
      const std::vector<uint64_t>* covered[2] = {&left->read_bins,
                                                 &left->write_bins};
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
        report.notes.push_back(
            "JSON+ buckets cover the whole run, not intervals: "
            "without clat_hist logs they stay fio's percentiles");
      }
    } else {
      run.spec.interval = std::chrono::nanoseconds(runtime_ns);
      rest.read_latency = std::move(sides[0].histogram);
      rest.write_latency = std::move(sides[1].histogram);
      report.notes.push_back("no logs: one interval over fio's runtime");
    }
    AddFioSteadyState(job, report);
    for (const char* key : {"usr_cpu", "sys_cpu"}) {
      if (job.contains(key) && job[key].is_number()) {
        report.figures.push_back({key, job[key].get<double>(), "%"});
      }
    }
    FinishImportedRun(run, {sides[0].totals, sides[1].totals, 0}, runtime_ns,
                      std::move(rest));
    // fio's usr_cpu and sys_cpu are percent of one CPU over the runtime.
    const auto cpu_seconds = [&](const char* key) {
      return job.contains(key) && job[key].is_number()
                 ? job[key].get<double>() / 100 * (runtime_ns / 1e9)
                 : 0.0;
    };
    run.summary.cpu_user_seconds = cpu_seconds("usr_cpu");
    run.summary.cpu_system_seconds = cpu_seconds("sys_cpu");

    const int error = job.contains("error") && job["error"].is_number_integer()
                          ? job["error"].get<int>()
                          : 0;
    run.status = error == 0 ? RunStatus::kOk : RunStatus::kFailed;
    if (error != 0) {
      run.error = RunError{
          fmt::format("fio job {} ended with error {}", jobname, error), "", 0,
          error};
    }
    run.command_line = FioCommandLine(options, json_plus);
    run.tool_version = tool_version;
    run.end_unix_ns = end_unix_ns;
    run.start_unix_ns = run.end_unix_ns - static_cast<int64_t>(runtime_ns);
    TargetInfo target;
    target.path = run.spec.targets.empty() ? "" : run.spec.targets[0];
    target.kind = "fio target";
    target.bytes = run.spec.size.bytes;
    target.file_count = run.spec.file_num;
    target.device = device;
    run.environment.targets.push_back(target);
    stored.labels.label = name_count[jobname] > 1
                              ? fmt::format("{}.{}", jobname, first)
                              : jobname;
    stored.labels.source = "fio";
    stored.labels.source_hash = hash;
    runs.push_back(std::move(stored));
  }
  return runs;
}

}  // namespace

Result<std::vector<StoredRun>> ParseFioJson(const ImportFile& file,
                                            const FioLogReader& logs) {
  try {
    return ImportJobs(file, logs);
  } catch (const json::exception& e) {  // a value of a type fio never writes
    return JsonPathError(file, "/", std::string("unexpected JSON: ") + e.what(),
                         kFioJsonHint);
  }
}

}  // namespace flashmark
