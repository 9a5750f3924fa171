// fio's job options as the JSON output states them ("global options" and
// each job's "job options": name -> text, as given in the job file or on
// the command line; defaults are not written) turned into a flashmark
// JobSpec, so that imported runs list, group and compare like native ones
// by mode, block size, threads, iodepth, engine, O_DIRECT, size and time.
// Options flashmark has no field for stay in the run's ToolReport.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "model/job_spec.h"

namespace flashmark {

// In file order: global options first, then the job's (which win).
using FioOptions = std::vector<std::pair<std::string, std::string>>;

// The last value of `name` (or of any alias given), else `fallback`.
std::string FioOption(const FioOptions& options,
                      std::initializer_list<const char*> names,
                      const std::string& fallback = "");

// numjobs: 1 .. 65536 (1 when absent).
int FioNumjobs(const FioOptions& options);

// `threads`: the fio job threads the run stands for (numjobs for a
// group_reporting group, else 1). fio defaults apply where an option is
// absent (rw=read, bs=4k, ioengine=psync, iodepth=1). Modes flashmark does
// not model (trim) are usage errors without the file name; `notes` gets a
// line for each mapping that loses something (rw=readwrite -> rndrw).
Result<JobSpec> FioJobSpec(const FioOptions& options, int threads,
                           std::vector<std::string>& notes);

// "fio --name=randrw --rw=randrw ... --output-format=json+": the options
// as fio command-line arguments, quoted for a POSIX shell.
std::string FioCommandLine(const FioOptions& options, bool json_plus);

}  // namespace flashmark
