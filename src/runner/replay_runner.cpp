#include "runner/replay_runner.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <optional>
#include <system_error>
#include <thread>

#include "analysis/run_summary.h"
#include "common/clock.h"
#include "common/cycle_clock.h"
#include "runner/output_thread.h"
#include "runner/sampler.h"
#include "runner/sampler_priority.h"
#include "runner/sampling_loop.h"

namespace flashmark {
namespace {

double ReplayCpuSeconds(const timeval& tv) {
  return tv.tv_sec + tv.tv_usec / 1e6;
}

}  // namespace

Result<RunResult> ExecuteReplay(RunResult run, const ReplayPlan& plan,
                                std::span<const IoFile> files,
                                const RunHooks& hooks) {
  const uint64_t setup_start = NowNs();
  RunControl control;
  const CycleClock io_clock = CycleClock::Calibrate();
  ReplayWorker worker(run.spec, plan, files, control, io_clock);
  if (Status prepared = worker.Prepare(); !prepared.ok()) {
    return prepared.error();
  }
  run.environment.engine_setup = worker.EngineSetupText();
  if (!run.replay) run.replay.emplace();
  run.replay->depth = static_cast<uint32_t>(worker.depth());
  Sampler sampler({&worker.measures()});
  SystemRunClock system_clock;
  RunClock& clock = hooks.clock != nullptr ? *hooks.clock : system_clock;
  std::optional<std::thread> thread;
  try {
    thread.emplace([&worker] { worker.Run(); });
  } catch (const std::system_error& error) {
    return RuntimeError(
        fmt::format("could not start the replay thread: {}", error.what()));
  }
  run.overhead.setup = (NowNs() - setup_start) / 1e9;
  rusage usage_before;
  getrusage(RUSAGE_SELF, &usage_before);
  if (hooks.telemetry != nullptr) hooks.telemetry->Sample();
  run.start_unix_ns = UnixNowNs();
  const uint64_t worker_start = NowNs();
  const uint64_t start = clock.Now();
  OutputThread output(hooks.observers, run);
  SamplingLoop loop(
      {.start_ns = start,
       .interval_ns = static_cast<uint64_t>(run.spec.interval.count()),
       .time_limit_ns = 0,
       .worker_count = 1},
      sampler, clock, control, hooks.stop_conditions, hooks.telemetry, nullptr);
  std::optional<SamplerPriority> ahead_of_worker(std::in_place);
  control.Start({.start_ns = worker_start, .stop_ns = 0, .worker_nice = 0});
  const bool interrupted = loop.Run([&](IntervalSample sample) {
    run.intervals.push_back(sample);
    output.Post(std::move(sample));
  });
  control.WaitForWorkers(1);
  IntervalSample tail = loop.TakeTail();
  ahead_of_worker.reset();
  thread->join();
  run.end_unix_ns = UnixNowNs();
  run.environment.engine_setup = worker.EngineSetupText();
  const uint64_t elapsed_ns = tail.end_ns;
  if (!tail.RecordedNothing() || run.intervals.empty()) {
    run.intervals.push_back(tail);
    output.Post(std::move(tail));
  }
  rusage usage_after;
  getrusage(RUSAGE_SELF, &usage_after);
  run.error = control.error();
  run.summary = SummarizeRun(run.intervals, elapsed_ns / 1e9);
  run.status = run.error     ? RunStatus::kFailed
               : interrupted ? RunStatus::kInterrupted
                             : RunStatus::kOk;
  run.summary.cpu_user_seconds = ReplayCpuSeconds(usage_after.ru_utime) -
                                 ReplayCpuSeconds(usage_before.ru_utime);
  run.summary.cpu_system_seconds = ReplayCpuSeconds(usage_after.ru_stime) -
                                   ReplayCpuSeconds(usage_before.ru_stime);
  run.replay->issued = worker.issued();
  run.replay->fidelity = worker.fidelity();
  if (hooks.telemetry != nullptr) hooks.telemetry->Finish(run.environment);
  output.Finish(run);
  return run;
}

}  // namespace flashmark
