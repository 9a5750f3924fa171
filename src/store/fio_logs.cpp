#include "store/fio_logs.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace flashmark {
namespace {

constexpr const char* kLogHint =
    "name the prefix given to write_bw_log / write_iops_log, and import logs "
    "written by fio 3.x with log_avg_msec";

// One averaged log's lines at one time: value per direction (read, write,
// trim); NaN where the time has no line for the direction.
struct Window {
  double time_ms = 0;
  double value[3] = {NAN, NAN, NAN};
};

// Splits "a, b, c" into numbers; false when a field is not one.
bool Fields(std::string_view line, std::vector<double>& out) {
  out.clear();
  while (true) {
    const auto comma = line.find(',');
    auto number = ParseNumber(line.substr(0, comma));
    if (!number) return false;
    out.push_back(*number);
    if (comma == std::string_view::npos) return true;
    line.remove_prefix(comma + 1);
  }
}

// An averaged log as windows in file order. A second line for the same
// time and direction (fio's final flush) opens a new window.
Result<std::vector<Window>> ReadWindows(const ImportFile& file) {
  std::vector<Window> windows;
  std::vector<double> fields;
  size_t number = 0;
  for (std::string_view line : SplitLines(file.text)) {
    ++number;
    if (TrimSpaces(line).empty()) continue;
    if (!Fields(line, fields) || fields.size() < 4 || fields.size() > 6 ||
        !Bounded(fields[0], 1e12) || !Bounded(fields[1], 1e15) ||
        fields[2] < 0 || fields[2] > 2 || fields[2] != std::floor(fields[2])) {
      return LineError(file, number,
                       "not a fio log line (time, value, "
                       "direction, block size, offset)",
                       kLogHint);
    }
    const int direction = static_cast<int>(fields[2]);
    if (windows.empty() || windows.back().time_ms != fields[0] ||
        !std::isnan(windows.back().value[direction])) {
      if (!windows.empty() && fields[0] < windows.back().time_ms) {
        return LineError(file, number,
                         fmt::format("time {:g} ms goes back (after {:g} ms)",
                                     fields[0], windows.back().time_ms),
                         kLogHint);
      }
      windows.push_back({fields[0], {NAN, NAN, NAN}});
    }
    windows.back().value[direction] = fields[1];
  }
  return windows;
}

double Or0(double v) { return std::isnan(v) ? 0 : v; }

// Adds one mean-latency kind ("clat", "lat") as read/write series.
Status AddLatencySeries(const std::vector<ImportFile>& files, const char* kind,
                        double tolerance_ms, RunResult& run) {
  if (files.empty()) return OkStatus();
  const size_t n = run.intervals.size();
  std::vector<double> sum[2] = {std::vector<double>(n, 0),
                                std::vector<double>(n, 0)};
  std::vector<int> seen[2] = {std::vector<int>(n, 0), std::vector<int>(n, 0)};
  for (const ImportFile& file : files) {
    auto windows = ReadWindows(file);
    if (!windows.ok()) return windows.error();
    size_t next = 0;
    for (size_t k = 0; k < n; ++k) {
      const double end = run.intervals[k].end_ns / 1e6;
      while (next < windows->size() &&
             (*windows)[next].time_ms < end - tolerance_ms)
        ++next;
      if (next == windows->size() ||
          (*windows)[next].time_ms > end + tolerance_ms)
        continue;
      for (int d = 0; d < 2; ++d) {
        if (std::isnan((*windows)[next].value[d])) continue;
        sum[d][k] += (*windows)[next].value[d];
        ++seen[d][k];
      }
      ++next;
    }
  }
  for (int d = 0; d < 2; ++d) {
    ToolSeries series{
        fmt::format("{} {} mean", d == 0 ? "read" : "write", kind), "ns", {}};
    bool any = false;
    for (size_t k = 0; k < n; ++k) {
      series.values.push_back(seen[d][k] ? sum[d][k] / seen[d][k] : NAN);
      any |= seen[d][k] > 0;
    }
    if (any) run.imported.series.push_back(std::move(series));
  }
  return OkStatus();
}

// Streams the histogram logs into the intervals' histograms.
Status AddHistograms(const std::vector<ImportFile>& files, double tolerance_ms,
                     RunResult& run, FioLogRest& rest) {
  bool exact = true;
  std::vector<uint64_t> bins[2] = {std::vector<uint64_t>(kFioBins, 0),
                                   std::vector<uint64_t>(kFioBins, 0)};
  std::vector<double> fields;
  for (const ImportFile& file : files) {
    size_t number = 0, k = 0;
    for (std::string_view line : SplitLines(file.text)) {
      ++number;
      if (TrimSpaces(line).empty()) continue;
      const bool parsed = Fields(line, fields);
      const size_t count = parsed && fields.size() > 3 ? fields.size() - 3 : 0;
      size_t stride = 1;
      while (stride <= 64 && count * stride < kFioBins) stride *= 2;
      if (!parsed || count * stride != kFioBins || fields[1] < 0 ||
          fields[1] > 2) {
        return LineError(
            file, number,
            fmt::format(
                "not a fio histogram log line (time, direction, block size and "
                "{} bins, or 1856 / 2^log_hist_coarseness)",
                kFioBins),
            kLogHint);
      }
      exact &= stride == 1;
      const int direction = static_cast<int>(fields[1]);
      if (direction == 2) continue;  // trim: no latency of ours
      while (k < run.intervals.size() &&
             run.intervals[k].end_ns / 1e6 + tolerance_ms < fields[0]) {
        ++k;
      }
      IntervalSample& into =
          k < run.intervals.size() ? run.intervals[k] : rest.late;
      LatencyHistogram& histogram =
          direction == 0 ? into.read_latency : into.write_latency;
      for (size_t j = 0; j < count; ++j) {
        const double c = fields[3 + j];
        if (!Bounded(c)) {
          return LineError(file, number,
                           fmt::format("bin {}: {} is not a count", j, c),
                           kLogHint);
        }
        if (c == 0) continue;
        const uint64_t value =
            (FioBinValue(j * stride) + FioBinValue(j * stride + stride - 1)) /
            2;
        histogram.Add(value, static_cast<uint64_t>(c));
        if (k < run.intervals.size())
          bins[direction][j * stride] += static_cast<uint64_t>(c);
      }
    }
  }
  if (exact && !files.empty()) {
    rest.read_bins = std::move(bins[0]);
    rest.write_bins = std::move(bins[1]);
  }
  return OkStatus();
}

}  // namespace

uint64_t FioBinValue(size_t index) {
  constexpr unsigned kBits = 6, kValue = 1u << kBits;  // FIO_IO_U_PLAT_BITS/VAL
  if (index < (kValue << 1)) return index;
  const unsigned error_bits = static_cast<unsigned>(index >> kBits) - 1;
  const uint64_t base = uint64_t{1} << (error_bits + kBits);
  const uint64_t k = index % kValue;
  return base + static_cast<uint64_t>((k + 0.5) * (uint64_t{1} << error_bits));
}

int64_t FioBinIndex(uint64_t value_ns) {
  static const auto* const kIndex = [] {
    auto* index = new std::unordered_map<uint64_t, int64_t>;
    for (size_t i = 0; i < kFioBins; ++i)
      (*index)[FioBinValue(i)] = static_cast<int64_t>(i);
    return index;
  }();
  const auto found = kIndex->find(value_ns);
  return found == kIndex->end() ? -1 : found->second;
}

Result<FioRunLogs> ReadFioLogs(const std::string& prefix, int first, int count,
                               bool whole_file) {
  FioRunLogs logs;
  struct Kind {
    const char* suffix;
    std::vector<ImportFile>* into;
  };
  const Kind kinds[] = {{"bw", &logs.bw},
                        {"iops", &logs.iops},
                        {"clat", &logs.clat},
                        {"lat", &logs.lat},
                        {"clat_hist", &logs.clat_hist}};
  for (const Kind& kind : kinds) {
    std::vector<std::string> paths;
    for (int n = first; n < first + count; ++n) {
      paths.push_back(fmt::format("{}_{}.{}.log", prefix, kind.suffix, n));
    }
    struct stat st;
    if (whole_file && stat(paths.front().c_str(), &st) != 0) {
      paths = {fmt::format("{}_{}.log", prefix, kind.suffix)};
    }
    for (const std::string& path : paths) {
      if (stat(path.c_str(), &st) != 0) continue;
      auto file = ReadImportFile(path);
      if (!file.ok()) return file.error();
      kind.into->push_back(std::move(*file));
    }
  }
  if (logs.bw.empty() && logs.iops.empty()) {
    return UsageError(
        fmt::format("--logs {}: no {}_bw.{}.log or {}_iops.{}.log for this job",
                    prefix, prefix, first, prefix, first),
        "name the prefix given to fio's write_bw_log / write_iops_log "
        "(with its directory)");
  }
  return logs;
}

Result<FioLogRest> ApplyFioLogs(const FioRunLogs& logs,
                                const FioLogShape& shape, RunResult& run) {
  const bool by_bw = !logs.bw.empty();
  const std::vector<ImportFile>& primary = by_bw ? logs.bw : logs.iops;
  std::vector<std::vector<Window>> threads, secondary;
  for (const ImportFile& file : primary) {
    auto windows = ReadWindows(file);
    if (!windows.ok()) return windows.error();
    threads.push_back(std::move(*windows));
  }
  if (by_bw && logs.iops.size() == logs.bw.size()) {
    for (const ImportFile& file : logs.iops) {
      auto windows = ReadWindows(file);
      if (!windows.ok()) return windows.error();
      secondary.push_back(std::move(*windows));
    }
  }
  // Intervals while every thread has a line and times increase (a final
  // flush at a repeated time is left to the remainder).
  size_t intervals = threads.front().size();
  for (const auto& thread : threads) {
    size_t increasing = thread.empty() ? 0 : 1;
    while (increasing < thread.size() &&
           thread[increasing].time_ms > thread[increasing - 1].time_ms) {
      ++increasing;
    }
    intervals = std::min(intervals, increasing);
  }
  const double tolerance = shape.interval_msec / 2;
  run.intervals.clear();
  double previous =
      std::max(0.0, threads.front().empty()
                        ? 0.0
                        : threads.front()[0].time_ms - shape.interval_msec);
  for (size_t k = 0; k < intervals; ++k) {
    const double end = threads.front()[k].time_ms;
    if (end <= previous) break;  // a first line at time 0
    const double seconds = (end - previous) / 1000;
    IntervalSample sample;
    sample.index = static_cast<uint32_t>(k);
    sample.start_ns = static_cast<uint64_t>(std::llround(previous * 1e6));
    sample.end_ns = static_cast<uint64_t>(std::llround(end * 1e6));
    DirectionTotals* sides[2] = {&sample.read, &sample.write};
    for (int d = 0; d < 2; ++d) {
      double primary_sum = 0, secondary_sum = 0;
      bool have_secondary = !secondary.empty();
      for (size_t t = 0; t < threads.size(); ++t) {
        primary_sum += Or0(threads[t][k].value[d]);
        if (have_secondary && k < secondary[t].size() &&
            std::fabs(secondary[t][k].time_ms - threads[t][k].time_ms) <=
                tolerance) {
          secondary_sum += Or0(secondary[t][k].value[d]);
        } else {
          have_secondary = false;
        }
      }
      if (by_bw) {
        sides[d]->bytes =
            static_cast<uint64_t>(std::llround(primary_sum * 1024 * seconds));
        sides[d]->ios = static_cast<uint64_t>(std::llround(
            have_secondary
                ? secondary_sum * seconds
                : static_cast<double>(sides[d]->bytes) / shape.block_size));
      } else {
        sides[d]->ios =
            static_cast<uint64_t>(std::llround(primary_sum * seconds));
        sides[d]->bytes = sides[d]->ios * shape.block_size;
      }
    }
    run.intervals.push_back(std::move(sample));
    previous = end;
  }
  if (Status added = AddLatencySeries(logs.clat, "clat", tolerance, run);
      !added.ok()) {
    return added.error();
  }
  if (Status added = AddLatencySeries(logs.lat, "lat", tolerance, run);
      !added.ok()) {
    return added.error();
  }
  FioLogRest rest;
  if (Status added = AddHistograms(logs.clat_hist, tolerance, run, rest);
      !added.ok()) {
    return added.error();
  }
  return rest;
}

}  // namespace flashmark
