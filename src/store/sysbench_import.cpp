#include "store/sysbench_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "config/campaign_hash.h"
#include "store/sysbench_options.h"

namespace flashmark {
namespace {

struct IntervalLine {
  size_t line = 0;
  double end_seconds = 0, read_mibs = 0, write_mibs = 0, fsyncs = 0;
  double latency_ms = 0;
};

// Everything the output says, as sysbench said it.
struct SysbenchOutput {
  std::string version;
  SysbenchHeader header;  // "threads" -> "8", ...
  unsigned percentile = 95;
  std::vector<IntervalLine> intervals;
  std::map<std::string, std::string>
      summary;  // "General statistics/total time"
  std::map<std::string, size_t> summary_lines;  // where each was printed
  bool histogram = false;
  size_t lines = 0;
};

// "[ 12s ] reads: 0.00 MiB/s writes: 207.27 MiB/s fsyncs: 533.13/s
// latency (ms,95%): 0.036"
std::optional<IntervalLine> ParseIntervalLine(std::string_view text,
                                              unsigned& percentile) {
  const std::string line(text);
  IntervalLine parsed;
  int consumed = -1;
  const int fields = std::sscanf(
      line.c_str(),
      "[ %lfs ] reads: %lf MiB/s writes: %lf MiB/s fsyncs: %lf/s latency "
      "(ms,%u%%): %lf%n",
      &parsed.end_seconds, &parsed.read_mibs, &parsed.write_mibs,
      &parsed.fsyncs, &percentile, &parsed.latency_ms, &consumed);
  if (fields != 6 || consumed != static_cast<int>(line.size()))
    return std::nullopt;
  for (double v : {parsed.end_seconds, parsed.read_mibs, parsed.write_mibs,
                   parsed.fsyncs, parsed.latency_ms}) {
    if (!Bounded(v, 1e9)) return std::nullopt;  // NaN too
  }
  return parsed;
}

// Lines sysbench prints that carry nothing to import.
bool Ignorable(std::string_view line) {
  for (std::string_view prefix :
       {"Running the test with following options:",
        "Initializing random number generator", "Random number generator seed",
        "Initializing worker threads", "Threads started!",
        "WARNING:", "Using checksums validation.", "Merging requests up to"}) {
    if (line.starts_with(prefix)) return true;
  }
  return false;
}

Result<SysbenchOutput> Scan(const ImportFile& file) {
  SysbenchOutput out;
  const auto lines = SplitLines(file.text);
  std::string section;
  bool in_histogram = false;
  size_t number = 0;
  for (std::string_view raw : lines) {
    ++number;
    const std::string_view line = TrimSpaces(raw);
    if (line.empty()) {
      in_histogram = false;
      continue;
    }
    if (out.version.empty()) {
      if (line.starts_with("WARNING:")) continue;  // option warnings come first
      if (!line.starts_with("sysbench ")) {
        return LineError(file, number,
                         "not sysbench output (it does not start "
                         "with the \"sysbench 1.0.x\" banner)",
                         kSysbenchImportHint);
      }
      const std::string_view rest = line.substr(9);
      out.version = std::string(rest.substr(0, rest.find(' ')));
      if (!out.version.starts_with("1.0.")) {
        return LineError(
            file, number,
            fmt::format(
                "sysbench {} is not a version this importer reads: its output "
                "format is known for 1.0.x only",
                out.version),
            "run sysbench 1.0 (Debian 12 ships 1.0.20), or convert the output");
      }
      continue;
    }
    if (line.starts_with("FATAL:")) {
      return LineError(file, number, fmt::format("sysbench failed: {}", line),
                       "only completed runs are imported");
    }
    if (line.find("Checkpoint report") != std::string_view::npos) {
      return LineError(file, number, "checkpoint reports are not imported",
                       "rerun without --report-checkpoints");
    }
    if (line.front() == '[') {
      auto parsed = ParseIntervalLine(line, out.percentile);
      if (!parsed) {
        return LineError(
            file, number,
            fmt::format("not a complete fileio interval line: \"{}\"", line),
            kSysbenchImportHint);
      }
      parsed->line = number;
      out.intervals.push_back(*parsed);
      continue;
    }
    if (line.starts_with("Latency histogram")) {
      out.histogram = in_histogram = true;
      continue;
    }
    if (in_histogram) continue;  // the --histogram block (not imported)
    if (line == "File operations:" || line == "Throughput:" ||
        line == "General statistics:" || line == "Latency (ms):" ||
        line == "Threads fairness:") {
      section = std::string(line.substr(0, line.size() - 1));
      continue;
    }
    if (Ignorable(line)) continue;
    if (section.empty() && ParseSysbenchHeaderLine(line, number, out.header))
      continue;
    const auto colon = line.find(':');
    if (!section.empty() && colon != std::string_view::npos) {
      std::string key(TrimSpaces(line.substr(0, colon)));
      const std::string_view value = TrimSpaces(line.substr(colon + 1));
      if (key.ends_with("th percentile")) {
        out.percentile = static_cast<unsigned>(
            ParseNumber(std::string_view(key).substr(0, key.size() - 13))
                .value_or(95));
        key = "percentile";
      }
      out.summary[section + "/" + key] = std::string(value);
      out.summary_lines[section + "/" + key] = number;
      continue;
    }
    return LineError(file, number, fmt::format("unexpected line \"{}\"", line),
                     kSysbenchImportHint);
  }
  out.lines = number;
  if (out.version.empty()) {
    return LineError(file, 1, "the file is empty", kSysbenchImportHint);
  }
  return out;
}

// The summary value at `key` as a number ("5.0016s" when `unit` is "s").
Result<double> SummaryNumber(const ImportFile& file, const SysbenchOutput& out,
                             const std::string& key,
                             std::string_view unit = "") {
  const auto found = out.summary.find(key);
  if (found == out.summary.end()) {
    return LineError(file, out.lines,
                     fmt::format("the output ends without sysbench's \"{}\" "
                                 "summary line (truncated?)",
                                 key.substr(key.find('/') + 1)),
                     kSysbenchImportHint);
  }
  std::string_view text = found->second;
  if (!unit.empty() && text.ends_with(unit)) text.remove_suffix(unit.size());
  const auto value = Bounded(ParseNumber(text), 1e12);
  if (!value) {
    return LineError(file, out.summary_lines.at(key),
                     fmt::format("summary \"{}\": \"{}\" is not a number", key,
                                 found->second),
                     kSysbenchImportHint);
  }
  return *value;
}

}  // namespace

Result<StoredRun> ParseSysbenchOutput(const ImportFile& file) {
  auto scanned = Scan(file);
  if (!scanned.ok()) return scanned.error();
  const SysbenchOutput& out = *scanned;
  auto total = SummaryNumber(file, out, "General statistics/total time", "s");
  if (!total.ok()) return total.error();
  if (*total <= 0) {  // (the run's one interval would have no length)
    return LineError(
        file, out.summary_lines.at("General statistics/total time"),
        fmt::format("total time \"{}\" is not a positive duration",
                    out.summary.at("General statistics/total time")),
        kSysbenchImportHint);
  }
  StoredRun stored;
  RunResult& run = stored.run;
  ToolReport& report = run.imported;
  report.tool = "sysbench";
  report.version = out.version;
  report.file = file.name;
  auto job = SysbenchJobSpec(file, out.header, !out.intervals.empty(), *total);
  if (!job.ok()) return job.error();
  run.spec = job->spec;
  run.command_line = job->command_line;
  for (const auto& [key, option] : out.header)
    report.options.emplace_back(key, option.value);
  report.notes = job->notes;
  const double bs = run.spec.block_sizes[0].bytes;

  // The tool's figures, as printed, in the order printed.
  struct Figure {
    const char* key;
    const char* name;
    const char* unit;
  };
  static constexpr Figure kFigures[] = {
      {"File operations/reads/s", "reads/s", "IOPS"},
      {"File operations/writes/s", "writes/s", "IOPS"},
      {"File operations/fsyncs/s", "fsyncs/s", "IOPS"},
      {"Throughput/read, MiB/s", "read", "MiB/s"},
      {"Throughput/written, MiB/s", "written", "MiB/s"},
      {"General statistics/total time", "total time", "s"},
      {"General statistics/total number of events", "events", ""},
      {"Latency (ms)/min", "latency min", "ms"},
      {"Latency (ms)/avg", "latency avg", "ms"},
      {"Latency (ms)/max", "latency max", "ms"},
      {"Latency (ms)/percentile", "latency p95", "ms"},
      {"Latency (ms)/sum", "latency sum", "ms"}};
  std::map<std::string, double> value;
  for (const Figure& f : kFigures) {
    const bool required = std::string_view(f.key).starts_with("File") ||
                          std::string_view(f.key).starts_with("Throughput");
    if (!required && !out.summary.count(f.key)) continue;
    auto number =
        SummaryNumber(file, out, f.key, f.unit == std::string("s") ? "s" : "");
    if (!number.ok()) return number.error();
    value[f.key] = *number;
    std::string name = f.name;
    if (name == "latency p95")
      name = fmt::format("latency p{}", out.percentile);
    report.figures.push_back({name, *number, f.unit});
  }
  for (const char* key : {"Threads fairness/events (avg/stddev)",
                          "Threads fairness/execution time (avg/stddev)"}) {
    const auto found = out.summary.find(key);
    if (found == out.summary.end()) continue;
    const std::string& text = found->second;
    const auto slash = text.find('/');
    const auto avg = ParseNumber(std::string_view(text).substr(0, slash));
    const auto sd = slash == std::string::npos
                        ? std::nullopt
                        : ParseNumber(std::string_view(text).substr(slash + 1));
    if (!avg || !sd) {
      return LineError(
          file, out.summary_lines.at(key),
          fmt::format("summary \"{}\": \"{}\" is not avg/stddev", key, text),
          kSysbenchImportHint);
    }
    const bool events =
        std::string_view(key).find("events") != std::string_view::npos;
    const char* unit = events ? "" : "s";
    report.figures.push_back(
        {events ? "events per thread avg" : "execution time per thread avg",
         *avg, unit});
    report.figures.push_back({events ? "events per thread stddev"
                                     : "execution time per thread stddev",
                              *sd, unit});
  }

  // Interval lines: bytes from MiB/s, IOs from bytes and the block size.
  ToolSeries latency{fmt::format("latency p{}", out.percentile), "ms", {}};
  double previous = 0;
  for (const IntervalLine& line : out.intervals) {
    if (line.end_seconds <= previous) {
      return LineError(
          file, line.line,
          fmt::format("interval time {:g} s does not follow {:g} s",
                      line.end_seconds, previous),
          kSysbenchImportHint);
    }
    IntervalSample sample;
    sample.index = static_cast<uint32_t>(run.intervals.size());
    sample.start_ns = static_cast<uint64_t>(std::llround(previous * 1e9));
    sample.end_ns = static_cast<uint64_t>(std::llround(line.end_seconds * 1e9));
    const double seconds = line.end_seconds - previous;
    sample.read.bytes =
        static_cast<uint64_t>(std::llround(line.read_mibs * 1048576 * seconds));
    sample.write.bytes = static_cast<uint64_t>(
        std::llround(line.write_mibs * 1048576 * seconds));
    sample.read.ios =
        static_cast<uint64_t>(std::llround(sample.read.bytes / bs));
    sample.write.ios =
        static_cast<uint64_t>(std::llround(sample.write.bytes / bs));
    sample.fsyncs = static_cast<uint64_t>(std::llround(line.fsyncs * seconds));
    run.intervals.push_back(std::move(sample));
    latency.values.push_back(line.latency_ms);
    previous = line.end_seconds;
  }
  if (!out.intervals.empty()) {
    report.series.push_back(std::move(latency));
    report.notes.push_back(
        "IOs per interval derived from sysbench's MiB/s and the "
        "block size; no latency histograms (sysbench prints one "
        "percentile per interval, kept as a series)");
  } else {
    report.notes.push_back(
        "no --report-interval lines: one interval over the "
        "whole run, from the summary");
  }
  if (out.histogram) {
    report.notes.push_back(
        "the --histogram block is not imported (it mixes "
        "reads, writes and fsyncs)");
  }
  report.notes.push_back(
      "sysbench prints no clock time: the run ends when the "
      "file was last modified");
  ImportTotals totals;
  auto count = [&](const char* key) {
    return static_cast<uint64_t>(std::llround(value[key] * *total));
  };
  totals.read.ios = count("File operations/reads/s");
  totals.write.ios = count("File operations/writes/s");
  totals.read.bytes = totals.read.ios * static_cast<uint64_t>(bs);
  totals.write.bytes = totals.write.ios * static_cast<uint64_t>(bs);
  totals.fsyncs = count("File operations/fsyncs/s");
  const uint64_t end_ns = static_cast<uint64_t>(std::llround(*total * 1e9));
  FinishImportedRun(run, totals, end_ns);

  run.status = RunStatus::kOk;
  run.tool_version = "sysbench " + out.version;
  run.end_unix_ns = file.modified_unix_ns;
  run.start_unix_ns = file.modified_unix_ns - static_cast<int64_t>(end_ns);
  stored.labels.label = std::filesystem::path(file.name).stem().string();
  stored.labels.source = "sysbench";
  stored.labels.source_hash = Sha256Hex(file.text);
  return stored;
}

}  // namespace flashmark
