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
#include "model/job_spec.h"
#include "store/import_common.h"

namespace flashmark {

// The hint of every error about a file that is not sysbench's output.
inline constexpr const char* kSysbenchImportHint =
    "import the complete, unedited output of `sysbench fileio ... run` "
    "(sysbench 1.0.x)";

// One option as printed, and the line of the file that printed it.
struct SysbenchOption {
  std::string value;
  size_t line = 0;  // from 1
};
// sysbench option name ("threads", "file-block-size") -> value as printed.
using SysbenchHeader = std::map<std::string, SysbenchOption>;

// Adds the option a header line (line `number` of the file) states; false
// for any other line.
bool ParseSysbenchHeaderLine(std::string_view line, size_t number,
                             SysbenchHeader& header);

struct SysbenchJob {
  JobSpec spec;
  std::string command_line;
  std::vector<std::string> notes;
};

// `report_interval`: the run has interval lines; `total_seconds`: its
// "total time" (> 0). A missing or garbled header (not fileio output) is a
// usage error "FILE:LINE: ..." naming the offending option's line (for a
// missing option, the header's last line); so is a report interval that is
// not a positive number of seconds.
Result<SysbenchJob> SysbenchJobSpec(const ImportFile& file,
                                    const SysbenchHeader& header,
                                    bool report_interval, double total_seconds);

}  // namespace flashmark
