#include "campaign/cluster_run.h"

#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include "cluster/cluster_start.h"
#include "cluster/group_stop.h"
#include "cluster/mpi_session.h"
#include "cluster/rank_collector.h"
#include "cluster/rank_sender.h"
#include "common/clock.h"
#include "common/json_text.h"
#include "common/version.h"
#include "config/campaign_keys.h"
#include "config/tag_options.h"
#include "document/json_format.h"
#include "document/rank_identity.h"
#include "report/console_reporter.h"
#include "report/json_run_writer.h"
#include "runner/steady_state_watch.h"
#include "store/store_file.h"
#include "store/store_observer.h"

namespace flashmark {
namespace {

// What every rank must share: the flashmark version and the job spec as
// the options give it, before "{host}" and "{rank}" are filled in. A
// rank whose options do not parse sends its error instead.
std::string Fingerprint(const RunOptions& options) {
  auto built = BuildJobSpec(options);
  if (!built.ok()) {
    const Error& e = built.error();
    return fmt::format("E\t{}\t{}\t{}", e.exit_code, e.message, e.hint);
  }
  const std::string spec = JsonText(ToJson(built->spec));
  return fmt::format("F\t{}\t{:016x}", kToolVersion,
                     std::hash<std::string>{}(spec));
}

// Every rank's fingerprint compared with rank 0's; on every rank the same
// answer.
Status CompareFingerprints(const std::vector<std::string>& all,
                           const std::vector<std::string>& hosts, int me) {
  for (size_t r = 0; r < all.size(); ++r) {
    if (all[r].rfind("E\t", 0) != 0) continue;
    const std::string name = RankName(static_cast<int>(r), hosts[r]);
    const size_t a = all[r].find('\t', 2), b = all[r].find('\t', a + 1);
    Error error{all[r].substr(a + 1, b - a - 1), all[r].substr(b + 1),
                std::atoi(all[r].substr(2, a - 2).c_str())};
    if (static_cast<int>(r) != me) error.message = name + ": " + error.message;
    return error;
  }
  const auto version = [](const std::string& f) {
    return f.substr(2, f.find('\t', 2) - 2);
  };
  for (size_t r = 1; r < all.size(); ++r) {
    if (all[r] == all[0]) continue;
    const std::string name = RankName(static_cast<int>(r), hosts[r]);
    return UsageError(
        version(all[r]) == version(all[0])
            ? fmt::format("{} runs other options than rank 0", name)
            : fmt::format("{} runs flashmark {}, rank 0 runs {}", name,
                          version(all[r]), version(all[0])),
        "every rank must run the same flashmark with the same options; "
        "targets may differ only through {host} and {rank}");
  }
  return OkStatus();
}

// Rank 0's records of the other ranks and of the aggregate, opened in the
// output thread once the run has started (so a refused start creates
// nothing).
class ClusterRecords {
 public:
  ClusterRecords(std::string database, RunLabels labels,
                 std::vector<std::string> hosts, const JobSpec& spec,
                 std::ostream& console, bool quiet)
      : database_(std::move(database)),
        labels_(std::move(labels)),
        hosts_(std::move(hosts)),
        reporter_(console, {false, quiet}),
        steady_(spec, console) {}

  ClusterSinks Sinks() {
    return {.rank_observers =
                [this](int rank, const RunResult&) {
                  std::vector<RunObserver*> observers;
                  if (RunStore* store = Store()) {
                    ranks_.push_back(std::make_unique<StoreObserver>(
                        *store, RankLabels(labels_, rank, hosts_[rank]),
                        std::cerr));
                    observers.push_back(ranks_.back().get());
                  }
                  return observers;
                },
            .aggregate_observers =
                [this](const RunResult&) {
                  std::vector<RunObserver*> observers{&reporter_, &steady_};
                  if (RunStore* store = Store()) {
                    RunLabels labels = labels_;
                    labels.tags.emplace_back(kRankTag, kAllRanks);
                    aggregate_.emplace(*store, std::move(labels), std::cerr);
                    observers.push_back(&*aggregate_);
                  }
                  return observers;
                }};
  }

  static RunLabels RankLabels(const RunLabels& labels, int rank,
                              const std::string& host) {
    RunLabels mine = labels;
    if (!mine.label.empty()) mine.label += fmt::format(" [rank {}]", rank);
    mine.tags.emplace_back(kHostTag, host);
    mine.tags.emplace_back(kRankTag, std::to_string(rank));
    return mine;
  }

  int64_t aggregate_id() const {
    return aggregate_ && !aggregate_->failed() ? aggregate_->run_id() : 0;
  }
  bool failed() const {
    if (aggregate_ && aggregate_->failed()) return true;
    for (const auto& rank : ranks_) {
      if (rank->failed()) return true;
    }
    return false;
  }

 private:
  RunStore* Store() {
    if (database_.empty()) return nullptr;
    if (!store_) {
      auto opened = RunStore::Open(database_);
      if (!opened.ok()) {
        std::cerr << "error: the other ranks' runs are not stored: "
                  << opened.error().message << "\n";
        database_.clear();
        return nullptr;
      }
      store_.emplace(std::move(*opened));
    }
    return &*store_;
  }

  std::string database_;
  RunLabels labels_;
  std::vector<std::string> hosts_;
  ConsoleReporter reporter_;
  SteadyStateWatch steady_;  // of the aggregate
  std::optional<RunStore> store_;
  std::vector<std::unique_ptr<StoreObserver>> ranks_;
  std::optional<StoreObserver> aggregate_;
};

}  // namespace

std::vector<std::string> MpirunLauncher(const std::vector<std::string>& hosts,
                                        bool as_root) {
  std::string host_list;
  for (const std::string& host : hosts) {
    host_list += (host_list.empty() ? "" : ",") + host;
  }
  std::vector<std::string> argv = {"mpirun"};
  if (as_root) argv.emplace_back("--allow-run-as-root");
  argv.insert(argv.end(),
              {"-np", std::to_string(hosts.size()), "--host", host_list});
  return argv;
}

std::vector<std::string> MpirunCommand(const RunOptions& options,
                                       const std::vector<std::string>& hosts,
                                       const std::string& program,
                                       bool as_root) {
  std::vector<std::string> argv = MpirunLauncher(hosts, as_root);
  argv.push_back(program);
  for (std::string& arg : RankRunArguments(options)) {
    argv.push_back(std::move(arg));
  }
  return argv;
}

std::vector<std::string> RankRunArguments(const RunOptions& o) {
  std::vector<std::string> argv = {"run"};
  argv.insert(argv.end(), o.targets.begin(), o.targets.end());
  for (std::string& arg : WorkloadArguments(o)) argv.push_back(std::move(arg));
  for (const std::string& device : o.allow_destroy) {
    argv.insert(argv.end(), {"--allow-destroy", device});
  }
  if (o.verify) argv.emplace_back("--verify");
  if (o.stonewall) argv.emplace_back("--stonewall");
  if (o.quiet) argv.emplace_back("-q");
  if (o.json) argv.insert(argv.end(), {"--json", *o.json});
  if (o.db) argv.insert(argv.end(), {"--db", *o.db});
  if (o.no_db) argv.emplace_back("--no-db");
  if (!o.label.empty()) argv.insert(argv.end(), {"--label", o.label});
  if (o.price) argv.insert(argv.end(), {"--price", *o.price});
  for (const std::string& tag : o.tags) argv.insert(argv.end(), {"--tag", tag});
  argv.emplace_back("--mpi");
  return argv;
}

std::string ForRank(const std::string& pattern, int rank,
                    const std::string& host) {
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    if (pattern.compare(i, 6, "{host}") == 0) {
      out += host;
      i += 6;
    } else if (pattern.compare(i, 6, "{rank}") == 0) {
      out += std::to_string(rank);
      i += 6;
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

namespace {

// The run on this rank, once MPI is up; errors before any IO come back as
// Error, the same on every rank.
Result<MeasuredRun> RunRank(MpiSession& session, const ClusterRunSettings& s) {
  const int rank = session.rank();
  const std::vector<std::string> hosts = session.AllGather(session.host());
  if (Status same = CompareFingerprints(
          session.AllGather(Fingerprint(s.options)), hosts, rank);
      !same.ok()) {
    return same.error();
  }
  // Each rank's run says which it was (rank 0's group), for an import of
  // its own document.
  const RankIdentity identity{
      rank, session.size(), session.host(),
      session.AllGather(fmt::format("{:x}", UnixNowNs()))[0]};
  RunOptions options = s.options;
  for (std::string& target : options.targets) {
    target = ForRank(target, rank, session.host());
  }
  if (options.json) options.json = ForRank(*options.json, rank, session.host());
  ClusterStart start(session, hosts);
  // Every rank that stops before its run starts says so in the agreement,
  // so that no rank waits there for it.
  const auto refuse = [&start](const Error& error) -> Error {
    return start.Agree(error).error();  // the first refusal, by rank
  };
  bool ready = false;  // the last meeting passed: the run started
  auto built = BuildJobSpec(options);
  if (!built.ok()) return refuse(built.error());
  JobSpec spec = built->spec;
  if (spec.seed_given) spec.seed += static_cast<uint64_t>(rank);
  if (rank == 0 && !s.database.empty()) {
    if (Status usable = CheckStoreBeforeWriting(s.database); !usable.ok()) {
      return refuse(usable.error());
    }
  }
  std::ostream null_stream(nullptr);
  std::ostream& console = rank == 0 && s.console ? *s.console : null_stream;
  MeasuredRunSettings settings;
  settings.command_line = s.command_line;
  settings.console = &console;
  settings.report_to_console = false;
  // Two meetings: every target judged, then every file set laid out.
  settings.targets_judged = [&start] { return start.Agree(OkStatus()); };
  settings.before_start = [&start, &ready]() -> Result<int64_t> {
    if (Status agreed = start.Agree(OkStatus()); !agreed.ok()) {
      return agreed.error();
    }
    ready = true;
    start.WaitForCommonStart();
    return start.common_start_ns();
  };
  std::unique_ptr<JsonRunWriter> json_writer;
  if (!spec.json_path.empty()) {
    json_writer =
        std::make_unique<JsonRunWriter>(spec.json_path, null_stream, std::cerr);
    if (auto checked = json_writer->Check(); !checked.ok()) {
      return refuse(checked.error());
    }
    settings.observers.push_back(json_writer.get());
  }
  settings.cluster = RankIdentityText(identity);
  // Rank 0 stores every rank's run, its own included, once all started.
  RunLabels labels{options.label, built->tags, "flashmark", ""};
  labels.tags.emplace_back(kGroupTag, identity.group);
  // --stonewall and --until-steady: rank 0 decides, every rank stops.
  GroupStop group_stop;
  const bool together = options.stonewall || spec.until_steady;
  if (together) settings.stop_conditions.push_back(&group_stop);
  settings.until_steady_here = false;
  SteadyStateStop aggregate_steady(spec);
  std::optional<ClusterRecords> records;
  std::optional<RankCollector> collector;
  std::optional<RankSender> sender;
  if (rank == 0) {
    records.emplace(s.database, labels, hosts, spec, console, options.quiet);
    const auto lost_after = std::max(
        std::chrono::nanoseconds(std::chrono::seconds(10)), 5 * spec.interval);
    collector.emplace(
        session, hosts, records->Sinks(), options.quiet ? nullptr : &console,
        lost_after, start.start_on_rank0_clock_ns(),
        GroupStopRule{together ? &group_stop : nullptr, options.stonewall,
                      spec.until_steady ? &aggregate_steady : nullptr});
    settings.observers.push_back(&*collector);
  } else {
    sender.emplace(session, start.start_on_rank0_clock_ns(),
                   together ? &group_stop : nullptr);
    settings.observers.push_back(&*sender);
  }

  auto result = PerformRun(spec, settings);
  if (!result.ok()) {
    return ready ? result.error() : refuse(result.error());
  }
  if (rank == 0) {
    result->result = collector->aggregate();
    result->run_id = records->aggregate_id();
    result->store_failed = records->failed();
  }
  return result;
}

}  // namespace

ClusterOutcome RunOnCluster(const ClusterRunSettings& s) {
  ClusterOutcome outcome;
  auto started = MpiSession::Start();
  if (!started.ok()) {
    outcome.error = started.error();
    return outcome;
  }
  outcome.session = std::move(*started);
  outcome.rank = outcome.session->rank();
  auto run = RunRank(*outcome.session, s);
  if (run.ok()) {
    outcome.run = std::move(*run);
  } else {
    outcome.error = run.error();
  }
  return outcome;
}

}  // namespace flashmark
