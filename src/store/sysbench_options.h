// The option header of `sysbench fileio ... run` output (sysbench 1.0.x):
// recognising its lines ("Number of threads: 8", "4 files, 16MiB each",
// "Block size 16KiB", "Using asynchronous I/O mode", "Doing random write
// test", ...) and turning them into a flashmark JobSpec and the sysbench
// command line that repeats the run. sysbench does not print every option
// (--file-async-backlog, --time): what is assumed is said in `notes`.
// Pure functions; thread-safe.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "config/job_spec.h"

namespace flashmark {

// sysbench option name ("threads", "file-block-size") -> value as printed.
using SysbenchHeader = std::map<std::string, std::string>;

// Adds the option a header line states; false for any other line.
bool ParseSysbenchHeaderLine(std::string_view line, SysbenchHeader& header);

struct SysbenchJob {
  JobSpec spec;
  std::string command_line;
  std::vector<std::string> notes;
};

// `report_interval`: the run has interval lines; `total_seconds`: its
// "total time". A missing or garbled header (not fileio output) is a usage
// error whose message names what is missing (callers add file and line).
Result<SysbenchJob> SysbenchJobSpec(const SysbenchHeader& header,
                                    bool report_interval, double total_seconds);

}  // namespace flashmark
