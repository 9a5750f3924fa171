#include "campaign/measured_run.h"

#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "campaign/measurement_warnings.h"
#include "campaign/run_generations.h"
#include "campaign/run_limits.h"
#include "common/clock.h"
#include "common/version.h"
#include "engine/engine_registry.h"
#include "engine/polled_io_check.h"
#include "report/console_reporter.h"
#include "runner/runner.h"
#include "runner/sampler_priority.h"
#include "runner/steady_state_watch.h"
#include "store/store_file.h"
#include "store/store_observer.h"
#include "system/block_latency_tracer.h"
#include "system/environment_capture.h"
#include "system/host_limits.h"
#include "system/host_telemetry.h"
#include "system/target_set.h"

namespace flashmark {

Result<MeasuredRun> PerformRun(const JobSpec& spec,
                               const MeasuredRunSettings& settings) {
  std::ostream& console = settings.console ? *settings.console : std::cout;
  const auto with_no_db_hint = [&settings](Error error) {
    if (settings.hint_no_db) {
      error.hint +=
          error.hint.empty() ? "or run with --no-db" : "; or run with --no-db";
    }
    return error;
  };
  // What can be checked before touching the disk is checked first: the
  // database (read only: it is created once the targets are accepted) and
  // the engine at the requested queue depth.
  if (!settings.database.empty() && !settings.database_checked) {
    if (Status usable = CheckStoreBeforeWriting(settings.database);
        !usable.ok()) {
      return with_no_db_hint(usable.error());
    }
  }
  // The probe is released beside the run, on a thread of its own (an AIO
  // context takes ~35 ms to release: a sweep of short cells paid it in
  // every cell); joined when this function returns.
  std::unique_ptr<IoEngine> probe;
  if (const EngineInfo* engine = FindEngine(spec.engine)) {
    if (Status probed = ProbeEngine(*engine, spec.iodepth, spec.tuning, &probe);
        !probed.ok()) {
      return probed.error();
    }
  }
  const std::jthread release_probe(
      [engine = std::move(probe)]() mutable { engine.reset(); });
  // What this machine cannot hold (buffers, threads) is refused now.
  if (Status fits = CheckRunFitsHost(spec, ReadHostLimits()); !fits.ok()) {
    return fits.error();
  }
  // Polling is judged on the targets' devices before a file set is laid
  // out on one that cannot poll.
  if (spec.tuning.hipri) {
    if (Status polls = CheckPolledPaths(spec.targets); !polls.ok()) {
      return polls.error();
    }
  }
  const SafetyContext safety = CaptureSafetyContext(settings.database);
  if (settings.targets_judged) {
    if (Status judged = TargetSet::Judge(spec, safety); !judged.ok()) {
      return judged.error();
    }
    if (Status agreed = settings.targets_judged(); !agreed.ok()) {
      return agreed.error();
    }
  }
  const uint64_t layout_start = NowNs();
  auto targets = TargetSet::Open(spec, safety, console);
  if (!targets.ok()) return targets.error();
  const double layout_seconds = (NowNs() - layout_start) / 1e9;

  RunResult run;
  run.spec = spec;
  run.command_line = settings.command_line;
  run.tool_version = kToolVersion;
  run.git_revision = kGitRevision;
  run.environment = CaptureHostEnvironment();
  run.environment.targets = targets->info();
  run.environment.cluster = settings.cluster;
  run.overhead.layout = layout_seconds;
  if (spec.size.share > 0) run.spec.size = {targets->resolved_size(), 0};
  run.environment.warnings = MeasurementWarnings(run.spec, run.environment);
  if (auto stepping_back =
          WorkerNiceWarning(static_cast<size_t>(spec.threads))) {
    run.environment.warnings.push_back(std::move(*stepping_back));
  }
  for (const std::string& warning : run.environment.warnings) {
    std::cerr << "warning: " << warning << "\n";  // as the option warnings
  }

  std::vector<RunObserver*> observers;
  ConsoleReporter reporter(console, {settings.terminal, spec.quiet});
  SteadyStateWatch steady(spec, console);
  if (settings.report_to_console) {
    observers.push_back(&reporter);
    observers.push_back(&steady);
  }
  std::vector<StopCondition*> stop_conditions;
  SteadyStateStop until_steady(spec);
  if (spec.until_steady && settings.until_steady_here) {
    stop_conditions.push_back(&until_steady);
  }
  stop_conditions.insert(stop_conditions.end(),
                         settings.stop_conditions.begin(),
                         settings.stop_conditions.end());
  std::optional<RunStore> store;
  std::optional<StoreObserver> recorder;
  if (!settings.database.empty()) {
    auto opened = RunStore::Open(settings.database);
    if (!opened.ok()) return with_no_db_hint(opened.error());
    store.emplace(std::move(*opened));
    recorder.emplace(*store, settings.labels, std::cerr);
    if (settings.on_run_id) recorder->OnRunId(settings.on_run_id);
    observers.push_back(&*recorder);
  }
  observers.insert(observers.end(), settings.observers.begin(),
                   settings.observers.end());

  // --verify: the file set's generation map, continued and saved again.
  auto generations = PrepareRunGenerations(spec, *targets, std::cerr);
  if (!generations.ok()) return generations.error();
  // The devices under the targets, the CPU and health at the end.
  HostTelemetry telemetry(run.environment);
  std::string trace_note;
  std::unique_ptr<BlockLatencyTracer> tracer =
      LatencyTracerFor(run.spec, targets->files(), trace_note);
  if (!trace_note.empty()) std::cerr << "note: " << trace_note << "\n";
  RunHooks hooks{
      .observers = observers,
      .stop_conditions = stop_conditions,
      .generations = *generations ? (*generations)->map.get() : nullptr,
      .clock = nullptr,
      .telemetry = &telemetry,
      .latency_tracer = tracer.get(),
      .before_start = settings.before_start};
  auto result = ExecuteRun(std::move(run), targets->files(), hooks);
  if (!result.ok()) return result.error();
  if (tracer) {
    const std::string lacks = tracer->EndNote();
    if (!lacks.empty()) std::cerr << "note: " << lacks << "\n";
  }
  if (*generations) SaveRunGenerations(**generations, *result, std::cerr);
  MeasuredRun measured{std::move(*result), 0, false};
  if (recorder) {
    measured.store_failed = recorder->failed();
    if (!recorder->failed()) measured.run_id = recorder->run_id();
  }
  return measured;
}

}  // namespace flashmark
