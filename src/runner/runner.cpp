#include "runner/runner.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <system_error>
#include <thread>
#include <vector>

#include "analysis/run_summary.h"
#include "common/clock.h"
#include "common/cycle_clock.h"
#include "engine/engine_registry.h"
#include "runner/block_audit.h"
#include "runner/output_thread.h"
#include "runner/sampler.h"
#include "runner/sampler_priority.h"
#include "runner/sampling_loop.h"
#include "runner/verify_pass.h"
#include "runner/work_plan.h"

namespace flashmark {
namespace {

// Past --time the sampler stops the workers; where it cannot get a CPU in
// time (thousands of busy workers on a few cores) they stop by themselves
// this much later (the sampler's own wake-up jitter allowance).
constexpr int64_t kWorkerStopGraceNs = 100'000'000;

double Seconds(const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

// What the first worker's engine set up (every worker's is alike), what
// timed each IO, and which pages held the buffers.
std::string SetupText(const Worker& worker, const CycleClock& io_clock) {
  std::string text = worker.EngineSetupText();
  if (!text.empty()) text += "; ";
  text += io_clock.uses_tsc() ? "IO timed by the TSC"
                              : "IO timed by CLOCK_MONOTONIC";
  if (std::string buffers = worker.BufferText(); !buffers.empty()) {
    text += "; " + buffers;
  }
  return text;
}

// After a --verify run: the read-back (for a run that wrote), the logged
// mismatches, and the error that fails the run when a block was bad.
void FinishVerify(RunResult& run, std::span<const IoFile> files,
                  const GenerationMap& map, MismatchLog& log, bool diskless,
                  bool interrupted) {
  VerifyOutcome& outcome = run.verify;
  outcome.enabled = true;
  outcome.block_bytes = map.block_bytes();
  std::optional<Error> failed;
  if (!Writes(run.spec.mode)) {
    // A read run checked what it read; there is nothing new to read back.
  } else if (diskless) {
    outcome.read_back_note = "the null engine keeps no data to read back";
  } else if (interrupted) {
    outcome.read_back_note = "skipped: the run was interrupted";
  } else if (Status passed = RunVerifyPass(files, map, log, outcome);
             !passed.ok()) {
    failed = passed.error();
  }
  log.MoveInto(outcome);
  const uint64_t bad = run.summary.verify.bad() + outcome.read_back.bad();
  if (run.error) return;
  if (failed) {
    run.error = RunError{failed->message, "", 0, 0};
  } else if (bad != 0 && !outcome.mismatches.empty()) {
    const VerifyMismatch& first = outcome.mismatches.front();
    run.error = RunError{
        fmt::format(
            "data verification failed: {} block read{} bad (first: "
            "{} block at {} offset {})",
            bad, bad == 1 ? " was" : "s were", VerifyFaultName(first.fault),
            first.path.empty() ? "(no file)" : first.path, first.offset),
        first.path, first.offset, 0};
  }
}

}  // namespace

std::unique_ptr<GenerationMap> NewGenerationMap(const JobSpec& spec,
                                                std::span<const IoFile> files) {
  std::vector<uint64_t> sizes;
  for (const IoFile& file : files) sizes.push_back(file.size);
  return std::make_unique<GenerationMap>(BlockAlignment(spec.block_sizes),
                                         std::move(sizes));
}

bool FitsGenerationMap(const GenerationMap& map, const JobSpec& spec,
                       std::span<const IoFile> files) {
  if (map.block_bytes() != BlockAlignment(spec.block_sizes) ||
      map.file_count() != files.size()) {
    return false;
  }
  for (uint32_t i = 0; i < files.size(); ++i) {
    if (map.file_size(i) != files[i].size) return false;
  }
  return true;
}

Result<RunResult> ExecuteRun(RunResult run, std::span<const IoFile> files,
                             const RunHooks& hooks) {
  JobSpec& spec = run.spec;
  if (!spec.seed_given) spec.seed = std::random_device{}() * 0x100000001ull;
  auto plans = PlanWorkers(spec, files, spec.seed);
  if (!plans.ok()) return plans.error();

  const EngineInfo* engine = FindEngine(spec.engine);
  const bool diskless =
      engine != nullptr && (engine->capabilities & kCapDiskless) != 0;
  GenerationMap* generations = hooks.generations;
  std::unique_ptr<GenerationMap> own_map;
  if (spec.verify && generations == nullptr) {
    own_map = NewGenerationMap(spec, files);
    generations = own_map.get();
  }
  if (spec.verify && !FitsGenerationMap(*generations, spec, files)) {
    return RuntimeError("verify: the generation map does not fit the targets");
  }
  MismatchLog mismatches;

  const uint64_t setup_start = NowNs();
  RunControl control;
  const CycleClock io_clock = CycleClock::Calibrate();
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<const WorkerMeasures*> measures;
  for (WorkerPlan& plan : plans.value()) {
    workers.push_back(std::make_unique<Worker>(spec, std::move(plan), files,
                                               control, io_clock));
    if (spec.verify) {
      workers.back()->EnableVerify(IoVerifierSetup{.map = generations,
                                                   .log = &mismatches,
                                                   .seed = spec.seed,
                                                   .check_reads = !diskless});
    }
    if (Status prepared = workers.back()->Prepare(); !prepared.ok()) {
      return prepared.error();
    }
    measures.push_back(&workers.back()->measures());
  }
  if (!workers.empty()) {
    run.environment.engine_setup = SetupText(*workers.front(), io_clock);
  }
  std::vector<std::unique_ptr<IoLog>> io_logs;
  if (hooks.latency_tracer != nullptr) {
    std::vector<IoLog*> logs;
    for (auto& worker : workers) {
      logs.push_back(io_logs
                         .emplace_back(std::make_unique<IoLog>(
                             IoLogCapacity(workers.size())))
                         .get());
      worker->SetIoLog(logs.back());
    }
    hooks.latency_tracer->Begin(logs, io_clock);
  }
  Sampler sampler(std::move(measures));
  SystemRunClock system_clock;
  RunClock& clock = hooks.clock != nullptr ? *hooks.clock : system_clock;

  int64_t start_at = 0;
  if (hooks.before_start) {
    auto ready = hooks.before_start();
    if (!ready.ok()) return ready.error();
    start_at = *ready;
  }
  // The workers are made first and wait for the start (RunControl).
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  try {
    for (auto& worker : workers) {
      threads.emplace_back([&worker] { worker->Run(); });
    }
  } catch (const std::system_error& error) {
    control.RequestStop();
    control.Start({.start_ns = NowNs()});
    for (auto& thread : threads) thread.join();
    return RuntimeError(
        fmt::format("could not start worker thread {} of {}: {}",
                    threads.size() + 1, workers.size(), error.what()),
        "use fewer --threads (the kernel or ulimit -u allows no more now)");
  }
  run.overhead.setup = (NowNs() - setup_start) / 1e9;
  rusage usage_before;
  getrusage(RUSAGE_SELF, &usage_before);
  if (hooks.telemetry != nullptr) hooks.telemetry->Sample();  // the baseline
  run.start_unix_ns = UnixNowNs();
  uint64_t worker_start = NowNs();
  uint64_t start = clock.Now();
  if (start_at != 0 && start_at <= run.start_unix_ns) {
    const auto late = static_cast<uint64_t>(run.start_unix_ns - start_at);
    run.start_unix_ns = start_at;
    worker_start -= late;
    start -= late;
  }
  OutputThread output(hooks.observers, run);
  // Room for every interval up front: a vector that doubles moves the run
  // so far onto fresh pages in the sampler's thread (at 4096 intervals of
  // 1 ms, several ms of page faults: intervals missed). Reserved, not
  // touched; beyond the cap it grows as before.
  constexpr int64_t kReservedIntervals = int64_t{1} << 21;
  if (spec.time.count() > 0 && spec.interval.count() > 0) {
    run.intervals.reserve(static_cast<size_t>(std::min(
        spec.time.count() / spec.interval.count() + 2, kReservedIntervals)));
  }

  SamplingLoop loop(
      {.start_ns = start,
       .interval_ns = static_cast<uint64_t>(spec.interval.count()),
       .time_limit_ns = static_cast<uint64_t>(spec.time.count()),
       .worker_count = static_cast<int>(workers.size())},
      sampler, clock, control, hooks.stop_conditions, hooks.telemetry,
      hooks.latency_tracer);
  // Ahead of the workers before they are let go: once they run, a thread
  // at their priority waits its turn behind every one of them (seconds
  // behind 4096 on 2 cores). The output thread, made above, keeps theirs.
  // Where it cannot be, the workers step back (WorkerNice).
  std::optional<SamplerPriority> ahead_of_workers(std::in_place);
  control.Start(
      {.start_ns = worker_start,
       .stop_ns = spec.time.count() == 0
                      ? 0
                      : worker_start + spec.time.count() + kWorkerStopGraceNs,
       .worker_nice =
           WorkerNice(ahead_of_workers->real_time(), workers.size())});
  const bool interrupted = loop.Run([&](IntervalSample sample) {
    run.intervals.push_back(sample);
    output.Post(std::move(sample));
  });
  // The drain after the last boundary (or the stretch before an early
  // stop) is kept as a partial interval: it counts in the totals, not in
  // the per-interval series. It ends with the last worker's IO, before
  // the threads end (thousands of thread exits take seconds).
  control.WaitForWorkers(static_cast<int>(workers.size()));
  if (hooks.latency_tracer != nullptr) hooks.latency_tracer->End();
  IntervalSample tail = loop.TakeTail();
  ahead_of_workers.reset();
  const uint64_t teardown_start = NowNs();
  for (auto& thread : threads) thread.join();
  run.end_unix_ns = UnixNowNs();
  // What the first submission added (a registered ring descriptor).
  if (!workers.empty()) {
    run.environment.engine_setup = SetupText(*workers.front(), io_clock);
  }
  workers.clear();  // their IO buffers, before the results are written
  run.overhead.teardown = (NowNs() - teardown_start) / 1e9;
  const uint64_t elapsed_ns = tail.end_ns;
  if (!tail.RecordedNothing() || run.intervals.empty()) {
    run.intervals.push_back(tail);
    output.Post(std::move(tail));
  }

  rusage usage_after;
  getrusage(RUSAGE_SELF, &usage_after);
  run.error = control.error();
  run.summary = SummarizeRun(run.intervals, elapsed_ns / 1e9);
  if (spec.verify) {
    FinishVerify(run, files, *generations, mismatches, diskless, interrupted);
  }
  run.status = run.error     ? RunStatus::kFailed
               : interrupted ? RunStatus::kInterrupted
                             : RunStatus::kOk;
  run.summary.cpu_user_seconds =
      Seconds(usage_after.ru_utime) - Seconds(usage_before.ru_utime);
  run.summary.cpu_system_seconds =
      Seconds(usage_after.ru_stime) - Seconds(usage_before.ru_stime);
  if (hooks.telemetry != nullptr) hooks.telemetry->Finish(run.environment);
  output.Finish(run);
  return run;
}

}  // namespace flashmark
