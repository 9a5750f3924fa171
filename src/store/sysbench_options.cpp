#include "store/sysbench_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "common/shell_quote.h"
#include "common/units.h"
#include "store/import_common.h"

namespace flashmark {
namespace {

Result<IoMode> TestMode(const std::string& name) {
  static const std::map<std::string, IoMode> kModes = {
      {"random write", IoMode::kRndWr},
      {"random read", IoMode::kRndRd},
      {"random r/w", IoMode::kRndRw},
      {"sequential write (creation)", IoMode::kSeqWr},
      {"sequential rewrite", IoMode::kSeqRewr},
      {"sequential read", IoMode::kSeqRd}};
  const auto found = kModes.find(name);
  if (found == kModes.end()) {
    return UsageError(
        fmt::format("test mode \"{}\" has no flashmark mode", name));
  }
  return found->second;
}

}  // namespace

bool ParseSysbenchHeaderLine(std::string_view line, size_t number,
                             SysbenchHeader& h) {
  auto after = [&line](std::string_view prefix) {
    return std::string(TrimSpaces(line.substr(prefix.size())));
  };
  if (line.starts_with("Number of threads:")) {
    h["threads"] = {after("Number of threads:"), number};
  } else if (line.starts_with("Report intermediate results every ") &&
             line.ends_with(" second(s)")) {
    h["report-interval"] = {std::string(line.substr(34, line.size() - 34 - 10)),
                            number};
  } else if (line.starts_with("Extra file open flags:")) {
    h["file-extra-flags"] = {after("Extra file open flags:"), number};
  } else if (line.find(" files, ") != std::string_view::npos &&
             line.ends_with("B each")) {
    h["file-num"] = {std::string(line.substr(0, line.find(' '))), number};
  } else if (line.ends_with("B total file size")) {
    h["file-total-size"] = {std::string(line.substr(0, line.size() - 16)),
                            number};
  } else if (line.starts_with("Block size ")) {
    h["file-block-size"] = {after("Block size "), number};
  } else if (line.starts_with("Number of IO requests:")) {
    h["events"] = {after("Number of IO requests:"), number};
  } else if (line.starts_with(
                 "Read/Write ratio for combined random IO test:")) {
    h["file-rw-ratio"] = {
        after("Read/Write ratio for combined random IO test:"), number};
  } else if (line.starts_with(
                 "Periodic FSYNC enabled, calling fsync() each ") &&
             line.ends_with(" requests.")) {
    h["file-fsync-freq"] = {std::string(line.substr(45, line.size() - 45 - 10)),
                            number};
  } else if (line == "Calling fsync() at the end of test, Enabled.") {
    h["file-fsync-end"] = {"on", number};
  } else if (line == "Calling fsync() after each write operation.") {
    h["file-fsync-all"] = {"on", number};
  } else if (line.starts_with("Using ") && line.ends_with(" I/O mode")) {
    h["file-io-mode"] = {std::string(line.substr(6, line.size() - 6 - 9)),
                         number};
  } else if (line.starts_with("Doing ") && line.ends_with(" test")) {
    h["file-test-mode"] = {std::string(line.substr(6, line.size() - 6 - 5)),
                           number};
  } else {
    return false;
  }
  return true;
}

Result<SysbenchJob> SysbenchJobSpec(const ImportFile& file,
                                    const SysbenchHeader& header,
                                    bool report_interval,
                                    double total_seconds) {
  size_t header_end = 1;
  for (const auto& [key, option] : header)
    header_end = std::max(header_end, option.line);
  for (const char* key :
       {"threads", "file-num", "file-total-size", "file-block-size",
        "file-io-mode", "file-test-mode"}) {
    if (!header.count(key)) {
      return LineError(file, header_end,
                       fmt::format("the option header (ending here) has no "
                                   "{} line: not `sysbench fileio` output "
                                   "(only fileio is imported)",
                                   key),
                       kSysbenchImportHint);
    }
  }
  // The value of `key` as printed; the error for a garbled one names its line.
  std::map<std::string, std::string> h;
  for (const auto& [key, option] : header) h[key] = option.value;
  const auto garbled = [&](const std::string& key, const std::string& what) {
    return LineError(file, header.at(key).line,
                     fmt::format("the option header is garbled: {} \"{}\" {}",
                                 key, h.at(key), what),
                     kSysbenchImportHint);
  };
  SysbenchJob job;
  JobSpec& spec = job.spec;
  auto mode = TestMode(h.at("file-test-mode"));
  const auto threads = Bounded(ParseNumber(h.at("threads")), 1e6);
  const auto file_num = Bounded(ParseNumber(h.at("file-num")), 1e9);
  const auto size = ParseSize(h.at("file-total-size"));
  const auto bs = ParseSize(h.at("file-block-size"));
  if (!mode.ok()) return garbled("file-test-mode", "has no flashmark mode");
  if (!threads || *threads < 1) {
    return garbled("threads", "is not a thread count");
  }
  if (!file_num) return garbled("file-num", "is not a file count");
  if (!size.ok()) return garbled("file-total-size", "is not a size");
  if (!bs.ok() || *bs == 0 || *bs > (64u << 20)) {
    return garbled("file-block-size", "is not a block size (1 B..64 MiB)");
  }
  // sysbench prints the line only for a positive --report-interval (whole
  // seconds); anything else would make intervals of no length.
  std::optional<double> report_seconds;
  if (h.count("report-interval")) {
    report_seconds = Bounded(ParseNumber(h.at("report-interval")), 1e6);
    if (!report_seconds || *report_seconds <= 0) {
      return LineError(
          file, header.at("report-interval").line,
          fmt::format("report interval \"{}\" is not a positive number of "
                      "seconds",
                      h.at("report-interval")),
          kSysbenchImportHint);
    }
  }
  spec.mode = *mode;
  spec.threads = static_cast<int>(*threads);
  spec.file_num = static_cast<int>(*file_num);
  spec.size.bytes = *size;
  spec.size_given = true;
  spec.block_sizes = {{static_cast<uint32_t>(*bs), 100}};
  // sysbench fills one buffer per thread once and writes it again and
  // again: flashmark's --shared-buffer.
  spec.shared_buffer = true;
  const std::string io_mode = h.at("file-io-mode");
  std::string io_option = "sync";
  if (io_mode == "asynchronous") {
    spec.engine = "libaio";
    spec.iodepth = 128;
    io_option = "async";
    job.notes.push_back(
        "sysbench does not print --file-async-backlog: "
        "iodepth is its default, 128");
  } else if (io_mode.find("mmaped") != std::string::npos) {
    spec.engine = "mmap";
    io_option = "mmap";
  }
  const std::string flags =
      h.count("file-extra-flags") ? h.at("file-extra-flags") : "";
  spec.direct = flags.find("directio") != std::string::npos;
  if (h.count("file-rw-ratio") && spec.mode == IoMode::kRndRw) {
    const double ratio =
        Bounded(ParseNumber(h.at("file-rw-ratio")), 1e9).value_or(1.5);
    spec.read_fraction = ratio / (1 + ratio);
  }
  if (h.count("file-fsync-freq") && Writes(spec.mode)) {
    spec.fsync_every = static_cast<uint64_t>(
        Bounded(ParseNumber(h.at("file-fsync-freq"))).value_or(0));
  }
  spec.fsync_end = h.count("file-fsync-end") > 0 && Writes(spec.mode);
  // --time is not printed: the whole seconds of the total time.
  spec.time = std::chrono::seconds(std::llround(total_seconds));
  spec.interval = std::chrono::nanoseconds(std::llround(
      (report_interval && report_seconds ? *report_seconds : total_seconds) *
      1e9));

  std::vector<std::string> args = {
      "sysbench",
      "fileio",
      "--threads=" + h.at("threads"),
      "--file-num=" + h.at("file-num"),
      "--file-total-size=" + h.at("file-total-size"),
      "--file-block-size=" + std::to_string(*bs),
      "--file-test-mode=" + ModeName(spec.mode),
      "--file-io-mode=" + io_option};
  if (spec.direct) args.push_back("--file-extra-flags=direct");
  if (!h.count("file-fsync-freq")) args.push_back("--file-fsync-freq=0");
  if (!h.count("file-fsync-end")) args.push_back("--file-fsync-end=off");
  if (h.count("file-fsync-all")) args.push_back("--file-fsync-all=on");
  if (h.count("file-rw-ratio") && spec.mode == IoMode::kRndRw) {
    args.push_back("--file-rw-ratio=" + h.at("file-rw-ratio"));
  }
  args.push_back(fmt::format("--time={}", std::llround(total_seconds)));
  if (h.count("report-interval"))
    args.push_back("--report-interval=" + h.at("report-interval"));
  args.push_back("run");
  job.command_line = ShellJoin(args);
  if (spec.fsync_every) {
    job.notes.push_back(
        "sysbench's --file-fsync-freq counts requests of all "
        "threads together");
  }
  return job;
}

}  // namespace flashmark
