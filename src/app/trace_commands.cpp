#include "app/trace_commands.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <iostream>
#include <set>

#include "analysis/trace_summary.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "common/json_text.h"
#include "common/local_time.h"
#include "common/units.h"
#include "report/text_escape.h"
#include "report/trace_text.h"
#include "store/blktrace_binary.h"
#include "store/store_file.h"
#include "store/trace_file_import.h"
#include "store/trace_store.h"

namespace flashmark {

namespace {

// blktrace's binary files of `path` (its per-CPU files, or itself when it
// is blkparse -d's dump); empty for a text file.
std::vector<std::string> BinaryTraceFiles(const std::string& path) {
  std::vector<std::string> files = BlktraceCpuFiles(path);
  if (!files.empty()) return files;
  std::ifstream in(path, std::ios::binary);
  std::string start(64, '\0');
  in.read(start.data(), static_cast<std::streamsize>(start.size()));
  start.resize(static_cast<size_t>(in.gcount()));
  if (LooksLikeBlktraceBinary(start)) files.push_back(path);
  return files;
}

// Pass one of an import: checks the file and hashes it, keeping nothing.
class CheckOnlySink : public TraceIoSink {
 public:
  Status Append(const TracedIo&) override { return OkStatus(); }
};

// Pass two: each IO to the store and to the summary printed after it.
class StoreAndSummarize : public TraceIoSink {
 public:
  explicit StoreAndSummarize(TraceWriter& writer) : writer_(writer) {}
  Status Append(const TracedIo& io) override {
    summarizer.Add(io);
    return writer_.Append(io);
  }
  TraceSummarizer summarizer;

 private:
  TraceWriter& writer_;
};

}  // namespace

int ExecuteImportTraces(TraceFormat format,
                        const std::vector<std::string>& files,
                        const std::optional<std::string>& db, bool again) {
  // The database is judged first (read only), and every file is read and
  // checked before it is opened: bad input creates no database. Each file
  // is then read again, IO by IO into the store (one transaction per
  // trace): no trace is ever whole in memory.
  const std::string database = db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(database); !usable.ok())
    return PrintError(usable.error());
  const TraceFileFormat file_format = format == TraceFormat::kFioIolog
                                          ? TraceFileFormat::kFioIolog
                                          : TraceFileFormat::kBlkparse;
  // A path's trace, IO by IO into `sink`.
  const auto stream = [&](const std::string& path,
                          const std::vector<std::string>& binary,
                          TraceIoSink& sink) {
    return binary.empty() ? StreamTraceFile(path, file_format, sink)
                          : StreamBlktraceRun(binary, sink);
  };
  int status = 0;
  struct Checked {
    std::string path, hash;
    std::vector<std::string> binary;  // blktrace's binary files of `path`
  };
  std::vector<Checked> checked;
  std::set<std::string> binary_runs;  // blktrace's per-CPU files, read once
  for (const std::string& path : files) {
    std::vector<std::string> binary = format == TraceFormat::kBlkparse
                                          ? BinaryTraceFiles(path)
                                          : std::vector<std::string>{};
    if (!binary.empty() && !binary_runs.insert(binary.front()).second) continue;
    CheckOnlySink nothing;
    auto file = stream(path, binary, nothing);
    if (!file.ok()) {
      status = std::max(status, PrintError(file.error()));
      continue;
    }
    checked.push_back({path, file->sha256, std::move(binary)});
  }
  if (checked.empty()) return status;
  auto store = TraceStore::Open(database);
  if (!store.ok()) return PrintError(store.error());
  for (const Checked& c : checked) {
    if (!again) {
      auto before = store->FindByHash(c.hash);
      if (!before.ok()) return PrintError(before.error());
      if (*before) {
        status = std::max(status,
                          PrintError(UsageError(
                              fmt::format("{} was imported before, as trace {}",
                                          TerminalText(c.path), **before),
                              "--again imports it once more")));
        continue;
      }
    }
    auto writer = store->BeginTrace();
    if (!writer.ok()) return PrintError(writer.error());
    StoreAndSummarize sink(*writer);
    auto file = stream(c.path, c.binary, sink);
    if (file.ok() && file->sha256 != c.hash) {
      file = UsageError(
          fmt::format("{} changed while it was imported", TerminalText(c.path)),
          "import a file nothing writes to any more");
    }
    if (!file.ok()) {  // the writer rolls back: nothing of it stored
      status = std::max(status, PrintError(file.error()));
      continue;
    }
    auto id = writer->Finish(file->header, c.hash);
    if (!id.ok()) {
      status = std::max(status, PrintError(id.error()));
      continue;
    }
    std::cout << fmt::format("trace {}: ", *id)
              << TraceSummaryText(file->header,
                                  sink.summarizer.Finish(file->header));
  }
  if (status == 0) {
    std::cout << fmt::format(
        "stored in {} — `flashmark list --traces` lists the traces, "
        "`flashmark show --trace ID` summarises one\n",
        database);
  }
  return status;
}

int ExecuteListTraces(const StoreCommandOptions& options) {
  auto runs = OpenStoreToRead(options.db);
  if (!runs.ok()) return PrintError(runs.error());
  auto store = TraceStore::OpenForReading(runs->path());
  if (!store.ok()) return PrintError(store.error());
  auto traces = store->List();
  if (!traces.ok()) return PrintError(traces.error());
  if (options.ids) {
    for (const auto& trace : *traces) std::cout << trace.id << "\n";
    return 0;
  }
  if (options.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& t : *traces) {
      list.push_back({{"id", t.id},
                      {"source", t.source},
                      {"origin", t.origin},
                      {"start_unix_ns", t.start_unix_ns},
                      {"duration_ns", t.duration_ns},
                      {"ios", t.ios},
                      {"bytes", t.bytes},
                      {"complete", t.complete}});
    }
    std::cout << JsonText(list, 1) << "\n";
    return 0;
  }
  if (traces->empty()) {
    std::cout << "no traces in " << runs->path()
              << " (`flashmark import fio-iolog|blktrace FILE` adds one)\n";
    return 0;
  }
  std::cout << fmt::format("{:>4}  {:<16}  {:<10}  {:>10}  {:>10}  {:>9}  {}\n",
                           "ID", "STARTED", "SOURCE", "IOS", "BYTES", "TIME",
                           "ORIGIN");
  for (const auto& t : *traces) {
    std::cout << fmt::format(
        "{:>4}  {:<16}  {:<10}  {:>10}  {:>10}  {:>9}  {}{}\n", t.id,
        LocalTimeText(t.start_unix_ns, "%Y-%m-%d %H:%M"), t.source, t.ios,
        FormatBytes(t.bytes),
        FormatDuration(std::chrono::nanoseconds(t.duration_ns)),
        TerminalText(t.origin), t.complete ? "" : " (incomplete)");
  }
  return 0;
}

int ExecuteShowTrace(const StoreCommandOptions& options) {
  int64_t id_value = 0;
  const std::string& text = *options.trace;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), id_value);
  if (error != std::errc() || end != text.data() + text.size() ||
      id_value <= 0) {
    return PrintError(UsageError(
        fmt::format("--trace \"{}\" is not a trace id", TerminalText(text)),
        "`flashmark list --traces` lists them"));
  }
  const int64_t* id = &id_value;
  auto runs = OpenStoreToRead(options.db);
  if (!runs.ok()) return PrintError(runs.error());
  auto store = TraceStore::OpenForReading(runs->path());
  if (!store.ok()) return PrintError(store.error());
  // Chunk by chunk: the trace is never whole in memory.
  auto reader = store->Read(*id);
  if (!reader.ok()) return PrintError(reader.error());
  TraceSummarizer summarizer;
  std::vector<TracedIo> chunk;
  for (;;) {
    if (Status read = reader->Next(chunk); !read.ok())
      return PrintError(read.error());
    if (chunk.empty()) break;
    for (const TracedIo& io : chunk) summarizer.Add(io);
  }
  const BlockIoTrace* trace = &reader->header();
  const TraceSummary summary = summarizer.Finish(*trace);
  if (options.json) {
    nlohmann::json doc = TraceSummaryJson(*trace, summary);
    doc["id"] = *id;
    std::cout << JsonText(doc, 1) << "\n";
    return 0;
  }
  std::cout << fmt::format("trace {}: ", *id)
            << TraceSummaryText(*trace, summary);
  return 0;
}

}  // namespace flashmark
