#include "store/import_common.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>

#include "analysis/run_summary.h"
#include "common/units.h"
#include "config/workload_parse.h"
#include "system/output_path.h"

namespace flashmark {

Result<ImportFile> ReadImportFile(const std::string& path) {
  // O_NONBLOCK: opening a fifo must not wait for a writer.
  const int fd =
      open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    return UsageError(
        fmt::format("{}: cannot read the file: {}", path, std::strerror(errno)),
        "name an existing fio or sysbench output file");
  }
  std::unique_ptr<int, void (*)(int*)> guard(new int(fd), [](int* owned) {
    close(*owned);
    delete owned;
  });
  struct stat st;
  if (fstat(fd, &st) != 0) {
    return UsageError(fmt::format("{}: cannot read the file: {}", path,
                                  std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return UsageError(
        fmt::format("{}: it is {}; import reads regular files only, of at "
                    "most {}",
                    path, FileTypeName(st.st_mode),
                    FormatBytes(kMaxImportFileBytes)),
        "name a saved fio or sysbench output file");
  }
  const auto too_large = [&path] {
    return UsageError(
        fmt::format("{}: larger than {}, the most an import reads", path,
                    FormatBytes(kMaxImportFileBytes)),
        "import the tool's output file itself (fio JSON, sysbench text), not "
        "something else");
  };
  if (static_cast<uint64_t>(st.st_size) > kMaxImportFileBytes)
    return too_large();
  std::string text;
  text.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  for (;;) {  // the file may have grown since fstat: read to its end
    if (done == text.size()) {
      if (text.size() > kMaxImportFileBytes) return too_large();
      text.resize(std::min<uint64_t>(kMaxImportFileBytes + 1,
                                     std::max<size_t>(text.size() * 2, 4096)));
    }
    const ssize_t n = read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return UsageError(fmt::format("{}: cannot read the file: {}", path,
                                    std::strerror(errno)));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  if (done > kMaxImportFileBytes) return too_large();
  text.resize(done);
  return ImportFile{path, std::move(text),
                    static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 +
                        st.st_mtim.tv_nsec};
}

Error LineError(const ImportFile& file, size_t line, const std::string& message,
                const std::string& hint) {
  return UsageError(fmt::format("{}:{}: {}", file.name, line, message), hint);
}

Error JsonPathError(const ImportFile& file, const std::string& path,
                    const std::string& message, const std::string& hint) {
  return UsageError(
      fmt::format("{}: JSON path {}: {}", file.name, path, message), hint);
}

std::string_view TrimSpaces(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::optional<double> ParseNumber(std::string_view text) {
  return ParseFiniteNumber(TrimSpaces(text));  // also a CR (Windows lines)
}

std::optional<double> Bounded(std::optional<double> value, double limit) {
  if (!value || *value < 0 || *value > limit) return std::nullopt;
  return value;
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    begin = end + 1;
  }
  return lines;
}

void FinishImportedRun(RunResult& run, const ImportTotals& totals,
                       uint64_t end_ns, IntervalSample remainder_histograms) {
  ImportTotals covered;
  for (const auto& sample : run.intervals) {
    covered.read.ios += sample.read.ios;
    covered.read.bytes += sample.read.bytes;
    covered.write.ios += sample.write.ios;
    covered.write.bytes += sample.write.bytes;
    covered.fsyncs += sample.fsyncs;
  }
  auto left = [](uint64_t total, uint64_t done) {
    return total > done ? total - done : 0;
  };
  IntervalSample rest = std::move(remainder_histograms);
  rest.index = static_cast<uint32_t>(run.intervals.size());
  rest.start_ns = run.intervals.empty() ? 0 : run.intervals.back().end_ns;
  rest.end_ns = end_ns;
  rest.partial = !run.intervals.empty();
  rest.read = {left(totals.read.ios, covered.read.ios),
               left(totals.read.bytes, covered.read.bytes)};
  rest.write = {left(totals.write.ios, covered.write.ios),
                left(totals.write.bytes, covered.write.bytes)};
  rest.fsyncs = left(totals.fsyncs, covered.fsyncs);
  const bool anything =
      rest.read.ios || rest.read.bytes || rest.write.ios || rest.write.bytes ||
      rest.fsyncs || !rest.read_latency.empty() || !rest.write_latency.empty();
  if (end_ns > rest.start_ns && (anything || run.intervals.empty())) {
    run.intervals.push_back(std::move(rest));
  }
  for (auto& series : run.imported.series) {
    series.values.resize(run.intervals.size(), std::nan(""));
  }
  const uint64_t last_end =
      run.intervals.empty() ? 0 : run.intervals.back().end_ns;
  run.summary = SummarizeRun(run.intervals, std::max(end_ns, last_end) / 1e9);
}

std::vector<std::string_view> SplitBlanks(std::string_view line) {
  std::vector<std::string_view> words;
  size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    const size_t start = at;
    while (at < line.size() && line[at] != ' ' && line[at] != '\t') ++at;
    if (at > start) words.push_back(line.substr(start, at - start));
  }
  return words;
}

}  // namespace flashmark
