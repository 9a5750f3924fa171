#include "store/fio_job_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/shell_quote.h"
#include "common/units.h"
#include "config/workload_parse.h"
#include "store/import_common.h"

namespace flashmark {
namespace {

bool IsTrue(const std::string& value) {
  return value.empty() || value == "1" || value == "true" || value == "on" ||
         value == "yes";
}

// A whole-number option within [1, limit]; `fallback` when absent or not
// a number (fio would have refused it).
int Whole(const FioOptions& options, const char* name, int fallback,
          int limit) {
  const auto value = Bounded(ParseNumber(FioOption(options, {name})), limit);
  return value && *value >= 1 ? static_cast<int>(*value) : fallback;
}

// "4k", "4k,16k" (read,write), "4k-16k" (a range): the first size.
uint64_t FirstSize(const std::string& text, uint64_t fallback) {
  const std::string first = text.substr(0, text.find_first_of(",-:"));
  auto size = ParseSize(first);
  return size.ok() && *size > 0 ? *size : fallback;
}

}  // namespace

std::string FioOption(const FioOptions& options,
                      std::initializer_list<const char*> names,
                      const std::string& fallback) {
  const std::string* found = nullptr;
  for (const auto& [name, value] : options) {
    for (const char* wanted : names) {
      if (name == wanted) found = &value;
    }
  }
  return found ? *found : fallback;
}

int FioNumjobs(const FioOptions& options) {
  return Whole(options, "numjobs", 1, 65536);
}

Result<JobSpec> FioJobSpec(const FioOptions& options, int threads,
                           std::vector<std::string>& notes) {
  JobSpec spec;
  std::string rw = FioOption(options, {"rw", "readwrite"}, "read");
  rw = rw.substr(0, rw.find(':'));  // "randread:8" (a sequential skip)
  if (rw == "rw" || rw == "readwrite") {
    spec.mode = IoMode::kRndRw;
    notes.push_back(
        fmt::format("fio rw={} is a sequential mix; flashmark "
                    "calls it rndrw (random)",
                    rw));
  } else {
    auto mode = ParseMode(rw);
    if (!mode.ok()) {
      return UsageError(fmt::format("fio rw={} has no flashmark mode", rw),
                        "flashmark models reads and writes (read, write, "
                        "randread, randwrite, randrw, rw); trim jobs are not "
                        "imported");
    }
    spec.mode = *mode;
  }
  if (spec.mode == IoMode::kRndRw) {
    const std::string read = FioOption(options, {"rwmixread"});
    const std::string write = FioOption(options, {"rwmixwrite"});
    double percent = 50;
    if (!read.empty())
      percent = std::strtod(read.c_str(), nullptr);
    else if (!write.empty())
      percent = 100 - std::strtod(write.c_str(), nullptr);
    spec.read_fraction = std::clamp(percent, 0.0, 100.0) / 100;
  }
  const std::string bs = FioOption(options, {"bs", "blocksize"}, "4k");
  spec.block_sizes = {{static_cast<uint32_t>(FirstSize(bs, 4096)), 100}};
  if (bs.find_first_of(",-:") != std::string::npos ||
      !FioOption(options, {"bssplit", "bsrange"}).empty()) {
    notes.push_back(
        fmt::format("fio used several block sizes (bs={}); the "
                    "workload names the first",
                    bs));
  }
  spec.threads = threads;
  spec.engine = FioOption(options, {"ioengine"}, "psync");
  spec.iodepth = Whole(options, "iodepth", 1, 1 << 20);
  spec.direct = IsTrue(FioOption(options, {"direct"}, "0")) ||
                FioOption(options, {"buffered"}, "1") == "0";
  // fio's layout: with filename= every job does its IO on the named
  // file(s) (':' between names); else each job makes its own nrfiles files
  // (jobname.job.file) of size/nrfiles (or filesize) each. flashmark's
  // threads share one file set: its total is every job's files.
  const int files_per_job = Whole(options, "nrfiles", 1, 1 << 30);
  const std::string size = FioOption(options, {"size"});
  const std::string file_size = FioOption(options, {"filesize"});
  // (50% and other shares of a device: unknown bytes)
  // (a product past 16 EiB: unknown too)
  const auto times = [](uint64_t bytes, int count) -> uint64_t {
    return bytes <= UINT64_MAX / static_cast<uint64_t>(count) ? bytes * count
                                                              : 0;
  };
  uint64_t job_bytes = FirstSize(size, 0);
  if (job_bytes == 0 && !file_size.empty()) {
    job_bytes = times(FirstSize(file_size, 0), files_per_job);
  }
  const std::string filename = FioOption(options, {"filename"});
  if (!filename.empty()) {
    spec.file_num =
        static_cast<int>(std::count(filename.begin(), filename.end(), ':') + 1);
    spec.size.bytes = job_bytes;
  } else {
    spec.file_num = static_cast<int>(std::min<int64_t>(
        int64_t{files_per_job} * std::max(threads, 1), int64_t{1} << 30));
    spec.size.bytes = times(job_bytes, std::max(threads, 1));
    if (threads > 1) {
      notes.push_back(fmt::format(
          "fio gave each of its {} jobs its own {} file{} ({} each); "
          "flashmark's threads share all {} files ({})",
          threads, files_per_job, files_per_job == 1 ? "" : "s",
          job_bytes > 0 ? FormatBytes(job_bytes) : "size unknown",
          spec.file_num,
          job_bytes > 0 ? FormatBytes(spec.size.bytes) : "size unknown"));
    }
  }
  spec.size_given = spec.size.bytes > 0;
  if (auto time =
          ParseDuration(FioOption(options, {"runtime", "timeout"}, "0"));
      time.ok()) {
    spec.time = *time;
  }
  const std::string fsync = FioOption(options, {"fsync"});
  const std::string fdatasync = FioOption(options, {"fdatasync"});
  if (!fdatasync.empty()) {
    spec.fsync_every = std::strtoull(fdatasync.c_str(), nullptr, 10);
    spec.fsync_mode = FsyncMode::kFdatasync;
  } else if (!fsync.empty()) {
    spec.fsync_every = std::strtoull(fsync.c_str(), nullptr, 10);
  }
  spec.fsync_end = IsTrue(FioOption(options, {"end_fsync"}, "0"));
  if (auto rate = ParseRate(FioOption(options, {"rate_iops"})); rate.ok()) {
    spec.rate.iops = rate->iops;
  }
  if (auto distribution =
          ParseDistribution(FioOption(options, {"random_distribution"}));
      distribution.ok()) {
    spec.distribution = *distribution;
  }
  for (const char* where : {"filename", "directory"}) {
    const std::string target = FioOption(options, {where});
    if (!target.empty()) {
      spec.targets = {target};
      break;
    }
  }
  return spec;
}

std::string FioCommandLine(const FioOptions& options, bool json_plus) {
  std::vector<std::string> args = {"fio"};
  for (const auto& [name, value] : options) {
    args.push_back(value.empty() ? "--" + name : "--" + name + "=" + value);
  }
  args.push_back(json_plus ? "--output-format=json+" : "--output-format=json");
  return ShellJoin(args);
}

}  // namespace flashmark
