#include "app/trace_commands.h"

#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <set>

#include "analysis/trace_summary.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "common/json_text.h"
#include "common/local_time.h"
#include "common/units.h"
#include "config/campaign_hash.h"
#include "report/text_escape.h"
#include "report/trace_text.h"
#include "store/blkparse_import.h"
#include "store/blktrace_binary.h"
#include "store/fio_iolog_import.h"
#include "store/store_file.h"
#include "store/trace_store.h"

namespace flashmark {

int ExecuteImportTraces(TraceFormat format,
                        const std::vector<std::string>& files,
                        const std::optional<std::string>& db, bool again) {
  // The database is judged first (read only), and every file is read and
  // parsed before it is opened: bad input creates no database.
  const std::string database = db.value_or(DefaultDatabasePath());
  if (Status usable = CheckStoreBeforeWriting(database); !usable.ok())
    return PrintError(usable.error());
  int status = 0;
  struct Parsed {
    std::string path, hash;
    BlockIoTrace trace;
  };
  std::vector<Parsed> parsed;
  std::set<std::string> binary_runs;  // blktrace's per-CPU files, read once
  for (const std::string& path : files) {
    const std::vector<std::string> cpu_files = format == TraceFormat::kBlkparse
                                                   ? BlktraceCpuFiles(path)
                                                   : std::vector<std::string>{};
    if (!cpu_files.empty()) {
      if (!binary_runs.insert(cpu_files.front()).second) continue;
      std::vector<ImportFile> inputs;
      std::string bytes;
      for (const std::string& cpu_file : cpu_files) {
        auto file = ReadImportFile(cpu_file);
        if (!file.ok()) {
          status = std::max(status, PrintError(file.error()));
          inputs.clear();
          break;
        }
        bytes += file->text;
        inputs.push_back(std::move(*file));
      }
      if (inputs.empty()) continue;
      auto trace = ParseBlktraceBinary(inputs);
      if (!trace.ok()) {
        status = std::max(status, PrintError(trace.error()));
        continue;
      }
      parsed.push_back({path, Sha256Hex(bytes), std::move(*trace)});
      continue;
    }
    auto file = ReadImportFile(path);
    if (!file.ok()) {
      status = std::max(status, PrintError(file.error()));
      continue;
    }
    auto trace = format == TraceFormat::kFioIolog ? ParseFioIolog(*file)
                 : LooksLikeBlktraceBinary(file->text)  // blkparse -d's dump
                     ? ParseBlktraceBinary({*file})
                     : ParseBlkparseText(*file);
    if (!trace.ok()) {
      status = std::max(status, PrintError(trace.error()));
      continue;
    }
    parsed.push_back({path, Sha256Hex(file->text), std::move(*trace)});
  }
  if (parsed.empty()) return status;
  auto store = TraceStore::Open(database);
  if (!store.ok()) return PrintError(store.error());
  for (const Parsed& p : parsed) {
    if (!again) {
      auto before = store->FindByHash(p.hash);
      if (!before.ok()) return PrintError(before.error());
      if (*before) {
        status = std::max(status,
                          PrintError(UsageError(
                              fmt::format("{} was imported before, as trace {}",
                                          TerminalText(p.path), **before),
                              "--again imports it once more")));
        continue;
      }
    }
    auto id = store->Save(p.trace, p.hash);
    if (!id.ok()) {
      status = std::max(status, PrintError(id.error()));
      continue;
    }
    std::cout << fmt::format("trace {}: ", *id)
              << TraceSummaryText(p.trace, SummarizeTrace(p.trace));
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
  auto trace = store->Load(*id);
  if (!trace.ok()) return PrintError(trace.error());
  const TraceSummary summary = SummarizeTrace(*trace);
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
