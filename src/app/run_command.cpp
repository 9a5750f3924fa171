#include "app/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

#include "app/first_steps.h"
#include "app/print_error.h"
#include "app/serve_command.h"
#include "campaign/cluster_run.h"
#include "campaign/measured_run.h"
#include "cluster/mpi_session.h"
#include "common/atomic_file.h"
#include "common/json_text.h"
#include "common/shell_quote.h"
#include "common/signals.h"
#include "config/campaign_keys.h"
#include "document/json_format.h"
#include "engine/engine_registry.h"
#include "report/json_run_writer.h"
#include "report/live_recorder.h"
#include "report/live_server.h"
#include "store/run_store.h"
#include "system/external_command.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

void Text(CLI::App* command, const std::string& name,
          std::optional<std::string>& slot, const std::string& help) {
  command->add_option_function<std::string>(
      name, [&slot](const std::string& value) { slot = value; }, help);
}

// When the store failed and the results are in no complete --json file,
// they still must not be lost: write them in the working directory, or in
// /tmp, as a new file (O_EXCL | O_NOFOLLOW: never through a planted link,
// never over an existing file; a taken name gets a number).
void KeepResultsAsJson(const RunResult& run, std::ostream& errors) {
  const std::string text = JsonText(ToJson(run)) + "\n";
  const int64_t seconds = run.start_unix_ns / 1000000000;
  for (const std::string& directory : {std::string("."), std::string("/tmp")}) {
    for (int attempt = 0; attempt < 10; ++attempt) {
      const std::string path =
          attempt == 0
              ? fmt::format("{}/flashmark-run-{}.json", directory, seconds)
              : fmt::format("{}/flashmark-run-{}-{}.json", directory, seconds,
                            attempt);
      if (WriteNewFile(path, text)) {
        errors << "results kept in " << path << "\n";
        return;
      }
      if (errno != EEXIST) break;  // this directory does not take it
    }
  }
  errors << "error: could not keep the results anywhere; they are lost\n";
}

}  // namespace

CLI::App* AddRunCommand(CLI::App& app, RunOptions& o) {
  CLI::App* run = app.add_subcommand(
      "run", "Run one workload against TARGETs, printing every interval");
  run->add_option("TARGET", o.targets,
                  "directory (a file set is laid out there), file, or block "
                  "device; none with --engine null. Several make one run: "
                  "its --threads workers each spread their IOs over all of "
                  "them (a sweep cell with several targets runs each in its "
                  "own process instead)");
  // The workload options, from the one table that describes them.
  for (const CampaignOption& option : CampaignOptions()) {
    std::string names = "--" + std::string(option.name);
    if (!option.alias.empty()) names += ",--" + std::string(option.alias);
    const std::string help(option.help);
    if (option.text != nullptr) {
      Text(run, names, o.*option.text, help);
    } else {
      run->add_flag(names, o.*option.flag, help);
    }
  }
  // Repeating options take one value each time (allow_extra_args(false)):
  // `--tag k=v /mnt/ssd` leaves /mnt/ssd a TARGET.
  run->add_option("--allow-destroy", o.allow_destroy,
                  "block device whose contents may be destroyed (repeat)")
      ->allow_extra_args(false);
  run->add_flag("--verify", o.verify,
                "stamp every written block with a checksummed header, check "
                "every block read, read all written back at the end");
  run->add_flag("-q,--quiet", o.quiet, "no per-interval lines");
  Text(run, "--json", o.json, "write the run as JSON to FILE (- for stdout)");
  Text(run, "--db", o.db, "results database [$FLASHMARK_DB or ./flashmark.db]");
  run->add_flag("--no-db", o.no_db, "do not store the run");
  run->add_option("--label", o.label, "a name for the run in the store");
  Text(run, "--price", o.price,
       "what the device costs (any currency): compare and report give the "
       "cost per GB, per MiB/s and per kIOPS");
  run->add_option("--tag", o.tags, "key=value filed with the run (repeat)")
      ->allow_extra_args(false);
  run->add_option_function<std::string>(
         "--serve", [&o](const std::string& value) { o.serve = value; },
         "serve the live report page and /metrics while the run goes on, on "
         "ADDR:PORT [127.0.0.1, any free port; the URL is printed]")
      ->expected(0, 1)
      ->default_str("");
  Text(run, "--serve-token", o.serve_token,
       "secret every live-view request must carry (?token=, or "
       "Authorization: Bearer); needed off loopback");
  run->add_option("--hosts", o.hosts,
                  "run across these hosts, one rank each (a,b,c; a host named "
                  "twice runs two): runs `mpirun -np N --host a,b,c flashmark "
                  "run ... --mpi` for you and prints it")
      ->delimiter(',')
      ->allow_extra_args(false);
  run->add_flag("--stonewall", o.stonewall,
                "with --mpi and --io-limit or --bytes: every rank stops when "
                "the first one has done its share (IOR's -D)");
  run->add_flag("--mpi", o.mpi,
                "one rank of a run across MPI ranks (mpirun -np N flashmark "
                "run ... --mpi): {host} and {rank} in TARGET and --json name "
                "each rank's own; rank 0 stores every rank's run and their "
                "aggregate");
  return run;
}

namespace {

// --hosts: becomes mpirun, which starts the ranks (this process is gone).
int LaunchOnHosts(const RunOptions& options) {
  if (options.mpi) {
    return PrintError(UsageError(
        "--hosts starts mpirun, which gives each rank --mpi",
        "leave out --mpi, or --hosts when mpirun already runs flashmark"));
  }
  if (!MpiAvailable()) {
    return PrintError(MpiSession::Start().error());  // says how to get MPI
  }
  const bool as_root =
      geteuid() == 0 && std::getenv("OMPI_ALLOW_RUN_AS_ROOT") == nullptr;
  const std::string own = ProgramPath();
  const std::vector<std::string> argv = MpirunCommand(
      options, options.hosts, own.empty() ? "flashmark" : own, as_root);
  std::cerr << "running: " << ShellJoin(argv) << "\n";
  if (as_root) {
    std::cerr << "  (as root: OpenMPI needs --allow-run-as-root, or "
                 "OMPI_ALLOW_RUN_AS_ROOT=1 and "
                 "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)\n";
  }
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  DefaultSignalsForChild();  // mpirun takes Ctrl-C itself
  execvp(args[0], args.data());
  const int error = errno;
  return PrintError(RuntimeError(
      fmt::format("--hosts: cannot run mpirun: {}", std::strerror(error)),
      "install OpenMPI (apt-get install openmpi-bin; scripts/setup.sh does)"));
}

int ExecuteClusterRun(const RunOptions& options,
                      const std::string& command_line) {
  if (options.serve) {
    return PrintError(UsageError(
        "--serve does not work with --mpi yet",
        "after the run, `flashmark serve --db FILE` shows the stored runs"));
  }
  if (options.stonewall && !options.io_limit && !options.bytes) {
    return PrintError(UsageError(
        "--stonewall needs --io-limit or --bytes",
        "with a --time alone every rank stops at the same instant anyway"));
  }
  ClusterRunSettings settings;
  settings.options = options;
  settings.command_line = command_line;
  if (!options.no_db) {
    settings.database = options.db.value_or(DefaultDatabasePath());
  }
  const bool json_on_stdout = options.json && *options.json == "-";
  std::ostream& console = json_on_stdout ? std::cerr : std::cout;
  settings.console = &console;
  ClusterOutcome outcome = RunOnCluster(settings);
  if (outcome.error) {
    // Every rank has the same error: rank 0's words are enough. Without a
    // session (no launcher, no MPI) each process says it.
    const int code = outcome.error->exit_code;
    if (outcome.session == nullptr || outcome.rank == 0) {
      PrintError(*outcome.error);
    }
    return code;
  }
  const MeasuredRun& measured = outcome.run;
  if (outcome.rank == 0 && measured.run_id != 0) {
    console << fmt::format(
        "  aggregate run {} stored in {} with one run per rank (tag "
        "rank=N) — `flashmark report {} --html group.html` draws them\n",
        measured.run_id, settings.database, measured.run_id);
  }
  if (outcome.rank == 0 && measured.store_failed) {
    KeepResultsAsJson(measured.result, std::cerr);
  }
  switch (measured.result.status) {
    case RunStatus::kOk:
      return 0;
    case RunStatus::kInterrupted:
      return kInterruptedExit;
    default:
      if (outcome.rank == 0 && measured.result.error) {
        std::cerr << "error: " << measured.result.error->message << "\n";
      }
      return kRuntimeExit;
  }
}

}  // namespace

int ExecuteRunCommand(const RunOptions& options,
                      const std::string& command_line) {
  if (!options.hosts.empty()) return LaunchOnHosts(options);
  if (options.stonewall && !options.mpi) {
    return PrintError(
        UsageError("--stonewall goes with a run across ranks",
                   "add --mpi under mpirun, or run with --hosts a,b,..."));
  }
  if (options.mpi) return ExecuteClusterRun(options, command_line);
  auto built = BuildJobSpec(options);
  if (!built.ok()) return PrintError(built.error());
  const JobSpec& spec = built->spec;
  if (const EngineInfo* engine = FindEngine(spec.engine);
      spec.targets.empty() && engine != nullptr &&
      (engine->capabilities & kCapDiskless) == 0) {
    const int status = PrintError(UsageError("no TARGET given", ""));
    std::cerr << RunTargetExamplesText();
    return status;
  }
  for (const auto& warning : built->warnings) {
    std::cerr << "warning: " << warning << "\n";
  }
  // With the JSON document on stdout, the human view moves to stderr.
  std::ostream& console = spec.json_path == "-" ? std::cerr : std::cout;
  const bool terminal =
      isatty(spec.json_path == "-" ? STDERR_FILENO : STDOUT_FILENO) != 0;

  MeasuredRunSettings settings;
  settings.command_line = command_line;
  settings.labels = RunLabels{options.label, built->tags, "flashmark", ""};
  if (!options.no_db)
    settings.database = options.db.value_or(DefaultDatabasePath());
  settings.hint_no_db = true;
  settings.console = &console;
  settings.terminal = terminal;
  // Every output is judged before anything is created (or truncated).
  std::vector<OutputPath> outputs;
  std::unique_ptr<JsonRunWriter> json;
  if (!spec.json_path.empty()) {
    json =
        std::make_unique<JsonRunWriter>(spec.json_path, std::cout, std::cerr);
    auto checked = json->Check();
    if (!checked.ok()) return PrintError(checked.error());
    if (spec.json_path != "-") outputs.push_back(std::move(*checked));
    settings.observers.push_back(json.get());
  }
  if (!settings.database.empty()) {
    auto checked =
        CheckOutputPath("--db", settings.database, OutputKind::kDatabase);
    if (!checked.ok()) return PrintError(checked.error());
    outputs.push_back(std::move(*checked));
  }
  if (Status distinct = CheckDistinctOutputs(outputs); !distinct.ok()) {
    return PrintError(distinct.error());
  }

  // --serve: listening before anything is laid out, so a taken port or a
  // refused address costs nothing.
  std::unique_ptr<LiveRecorder> live;
  std::unique_ptr<LiveServer> server;
  if (options.serve_token && !options.serve) {
    return PrintError(
        UsageError("--serve-token needs --serve", "add --serve [ADDR:PORT]"));
  }
  if (options.serve) {
    const double poll = std::clamp(spec.interval.count() / 1e9, 0.25, 5.0);
    auto server_options = BuildLiveServerOptions(
        "--serve", *options.serve, options.serve_token.value_or(""), poll);
    if (!server_options.ok()) return PrintError(server_options.error());
    live = std::make_unique<LiveRecorder>(settings.labels, AnalyzeForLiveView);
    auto started = LiveServer::Start(*server_options, *live);
    if (!started.ok()) return PrintError(started.error());
    server = std::move(*started);
    console << "live view: " << server->url()
            << "  (metrics: " << server_options->address.Url(server->port())
            << "metrics)" << std::endl;
    settings.observers.push_back(live.get());
    settings.on_run_id = [recorder = live.get()](int64_t id) {
      recorder->SetRunId(id);
    };
  }

  auto result = PerformRun(spec, settings);
  if (!result.ok()) {
    Error error = result.error();
    // Interrupted before measuring (during the layout): nothing is kept.
    if (IsInterruption(error)) error.message += "; no run stored";
    return PrintError(error);
  }
  if (result->run_id != 0) {
    console << fmt::format(
        "  run {} stored in {} — `flashmark analyze {}` explains the "
        "headline (warm-up, steady state, regimes)\n",
        result->run_id, settings.database, result->run_id);
  }
  const bool json_complete = json == nullptr || json->complete();
  if (result->store_failed && (spec.json_path.empty() || !json_complete)) {
    KeepResultsAsJson(result->result, std::cerr);
  }
  const RunResult& run = result->result;
  switch (run.status) {
    case RunStatus::kOk:
      return json_complete ? 0 : kRuntimeExit;
    case RunStatus::kInterrupted:
      return kInterruptedExit;
    default:
      std::cerr << "error: " << run.error->message << "\n";
      return kRuntimeExit;
  }
}

}  // namespace flashmark
