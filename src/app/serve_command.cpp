#include "app/serve_command.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "app/analysis_options.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "report/live_recorder.h"
#include "system/interrupt_watch.h"

namespace flashmark {
namespace {

// Stored runs, followed as they grow: each run's header is read at every
// snapshot, its intervals once each (the new ones since the last), into a
// LiveRecorder per run, which keeps them in bounded memory and analyses
// only when something changed: a week-long run costs what it costs
// `run --serve`. Snapshot may be called from several server threads.
class StoreLiveSource final : public LiveSource {
 public:
  StoreLiveSource(std::optional<std::string> db, std::vector<int64_t> ids)
      : db_(std::move(db)), ids_(std::move(ids)) {}

  Result<std::shared_ptr<const LiveSnapshot>> Snapshot() override {
    std::lock_guard lock(mutex_);
    auto store = OpenStoreToRead(db_);
    if (!store.ok()) return store.error();
    std::vector<int64_t> ids = ids_;
    if (ids.empty()) {
      auto newest = store->NewestRunId();
      if (!newest.ok()) return newest.error();
      if (!*newest) {
        return std::make_shared<const LiveSnapshot>(
            LiveSnapshot{{}, {}, "the store has no run yet"});
      }
      ids.push_back(**newest);
    }
    LiveSnapshot snapshot;
    for (int64_t id : ids) {
      auto followed = Follow(*store, id);
      if (!followed.ok()) return followed.error();
      const LiveSnapshot& one = **followed;
      if (one.runs.empty()) {
        snapshot.waiting = fmt::format("run {}: {}", id, one.waiting);
        continue;
      }
      snapshot.runs.push_back(one.runs.front());
      snapshot.states.push_back(one.states.front());
    }
    return std::make_shared<const LiveSnapshot>(std::move(snapshot));
  }

 private:
  struct Followed {
    std::unique_ptr<LiveRecorder> recorder;
    size_t intervals = 0;  // read so far
    bool ended = false;
  };

  // Brings run `id`'s recorder up to date with the store; its snapshot.
  Result<std::shared_ptr<const LiveSnapshot>> Follow(RunStore& store,
                                                     int64_t id) {
    auto header = store.LoadRunHeader(id);
    if (!header.ok()) return header.error();
    Followed& run = followed_[id];
    if (!run.recorder) {
      run.recorder =
          std::make_unique<LiveRecorder>(header->labels, AnalyzeForLiveView);
      run.recorder->SetRunId(id);
      run.recorder->OnStart(header->run);
    }
    if (!run.ended) {
      Status read = store.VisitIntervalsFrom(
          id, run.intervals, [&](const IntervalSample& sample) {
            run.recorder->OnInterval(header->run, sample);
            ++run.intervals;
            return OkStatus();
          });
      if (!read.ok()) return read.error();
      if (header->run.status != RunStatus::kRunning) {
        run.recorder->OnEnd(header->run);  // its status and summary
        run.ended = true;
      }
    }
    return run.recorder->Snapshot();
  }

  std::optional<std::string> db_;
  std::vector<int64_t> ids_;
  std::mutex mutex_;
  std::map<int64_t, Followed> followed_;
};

}  // namespace

Result<RunAnalysis> AnalyzeForLiveView(const RunResult& run) {
  auto options = BuildAnalysisOptions(run, std::nullopt, std::nullopt,
                                      std::nullopt, std::nullopt, std::nullopt);
  if (!options.ok()) return options.error();
  options->heatmap_columns = kReportHeatmapColumns;
  return AnalyzeRun(run, *options, InMemoryHistograms(run));
}

Result<LiveServerOptions> BuildLiveServerOptions(const std::string& option,
                                                 const std::string& address,
                                                 const std::string& token,
                                                 double poll_seconds) {
  auto parsed = ParseListenAddress(address, option);
  if (!parsed.ok()) return parsed.error();
  LiveServerOptions options;
  options.address = *parsed;
  options.option = option;
  options.token = token;
  options.poll_seconds = poll_seconds;
  return options;
}

CLI::App* AddServeCommand(CLI::App& app, ServeOptions& o) {
  CLI::App* serve = app.add_subcommand(
      "serve",
      "Serve the live report page and /metrics for stored runs (the newest "
      "by default, also while another process records it)");
  serve->add_option("RUN", o.runs, "run ids (default: the newest run)");
  serve->add_option("--db", o.db,
                    "results database [$FLASHMARK_DB or ./flashmark.db]");
  serve->add_option("--listen", o.listen,
                    "ADDR:PORT to listen on [127.0.0.1, any free port]");
  serve->add_option("--serve-token", o.token,
                    "secret every request must carry (?token=, or "
                    "Authorization: Bearer); needed off loopback");
  return serve;
}

int ExecuteServe(const ServeOptions& o) {
  std::vector<int64_t> ids;
  for (const std::string& text : o.runs) {
    auto id = ParseRunId(text);
    if (!id.ok()) return PrintError(id.error());
    ids.push_back(*id);
  }
  auto options = BuildLiveServerOptions("--listen", o.listen, o.token, 1);
  if (!options.ok()) return PrintError(options.error());
  // The store must be there to serve from (it is read again per request).
  if (auto store = OpenStoreToRead(o.db); !store.ok()) {
    return PrintError(store.error());
  }
  const InterruptWatch watch;
  StoreLiveSource source(o.db, ids);
  auto server = LiveServer::Start(*options, source);
  if (!server.ok()) return PrintError(server.error());
  std::cout << fmt::format("live view: {}  (metrics: {}metrics; Ctrl-C stops)",
                           (*server)->url(),
                           options->address.Url((*server)->port()))
            << std::endl;
  while (!watch.interrupted()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  (*server)->Stop();
  return 0;
}

}  // namespace flashmark
