// ToolReport: what another benchmark (fio, sysbench) printed itself about a
// run imported from its output, kept beside the figures flashmark derives
// from the intervals and never mixed into them: the tool's options as it
// named them, its whole-run figures as it rounded them, per-interval series
// the interval model has no field for (sysbench's p95 latency, fio's mean
// latency logs) and notes on how the import mapped the output (what was
// derived, assumed or left out). Data only; empty for flashmark's own runs.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace flashmark {

struct ToolFigure {
  std::string name;  // "read clat p99", "latency 95th percentile"
  double value = 0;
  std::string unit;  // "ns", "ms", "MiB/s", "IOPS", "" for plain counts
};

struct ToolSeries {
  std::string name;  // "latency 95th percentile"
  std::string unit;
  // One value per interval of the run (RunResult::intervals); NaN where
  // the tool gave none.
  std::vector<double> values;
};

struct ToolReport {
  std::string tool;     // "fio" or "sysbench"; empty: not imported
  std::string version;  // as the tool printed it: "fio-3.33", "1.0.20"
  std::string file;     // the imported file as it was named
  std::string job;      // fio: the job (or group) name
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<ToolFigure> figures;
  std::vector<ToolSeries> series;
  std::vector<std::string> notes;

  bool empty() const { return tool.empty(); }
};

}  // namespace flashmark
