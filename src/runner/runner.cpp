#include "runner/runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "analysis/run_summary.h"
#include "runner/clock.h"
#include "runner/sampler.h"
#include "runner/work_plan.h"
#include "system/signals.h"

namespace flashmark {
namespace {

// How often the sampler looks whether all workers finished early.
constexpr uint64_t kPollNs = 50'000'000;

double Seconds(const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

}  // namespace

Result<RunResult> ExecuteRun(RunResult run, std::span<const IoFile> files,
                             std::span<RunObserver* const> observers) {
  JobSpec& spec = run.spec;
  if (!spec.seed_given) spec.seed = std::random_device{}() * 0x100000001ull;
  auto plans = PlanWorkers(spec, files, spec.seed);
  if (!plans.ok()) return plans.error();

  RunControl control;
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<const WorkerMeasures*> measures;
  for (WorkerPlan& plan : plans.value()) {
    workers.push_back(
        std::make_unique<Worker>(spec, std::move(plan), files, control));
    if (Status prepared = workers.back()->Prepare(); !prepared.ok()) {
      return prepared.error();
    }
    measures.push_back(&workers.back()->measures());
  }
  Sampler sampler(std::move(measures));

  rusage usage_before;
  getrusage(RUSAGE_SELF, &usage_before);
  run.start_unix_ns = UnixNowNs();
  const uint64_t start = NowNs();
  std::vector<std::thread> threads;
  for (auto& worker : workers) {
    threads.emplace_back([&worker, start] { worker->Run(start); });
  }
  for (RunObserver* observer : observers) observer->OnStart(run);

  const uint64_t interval = spec.interval.count();
  const uint64_t time_limit = spec.time.count();
  const int worker_count = static_cast<int>(workers.size());
  bool interrupted = false;
  uint64_t last_end = 0;
  for (uint32_t k = 1;; ++k) {
    const uint64_t deadline = start + k * interval;
    bool finished = false;
    for (uint64_t now = NowNs(); now < deadline; now = NowNs()) {
      if (control.workers_finished() == worker_count || control.stopping()) {
        finished = true;
        break;
      }
      if (WaitForInterrupt(std::min(deadline - now, kPollNs)) != 0) {
        interrupted = true;
        control.RequestStop();
        break;
      }
    }
    if (finished || interrupted) break;
    IntervalSample sample = sampler.Take(k - 1, last_end, k * interval);
    last_end = sample.end_ns;
    run.intervals.push_back(std::move(sample));
    bool observer_done = false;
    for (RunObserver* observer : observers) {
      observer->OnInterval(run, run.intervals.back());
      observer_done |= observer->WantsStop();
    }
    if (observer_done || (time_limit != 0 && k * interval >= time_limit)) {
      control.RequestStop();
      break;
    }
  }
  for (auto& thread : threads) thread.join();
  const uint64_t end = NowNs();
  run.end_unix_ns = UnixNowNs();

  // The drain after the last boundary (or the stretch before an early
  // stop) is kept as a partial interval: it counts in the totals, not in
  // the per-interval series.
  IntervalSample tail = sampler.Take(static_cast<uint32_t>(run.intervals.size()),
                                     last_end, end - start);
  tail.partial = true;
  const bool tail_did_something =
      tail.read.ios || tail.write.ios || tail.fsyncs || tail.errors;
  if (tail_did_something || run.intervals.empty()) {
    run.intervals.push_back(std::move(tail));
    for (RunObserver* observer : observers) {
      observer->OnInterval(run, run.intervals.back());
    }
  }

  rusage usage_after;
  getrusage(RUSAGE_SELF, &usage_after);
  run.error = control.error();
  run.status = run.error        ? RunStatus::kFailed
               : interrupted ? RunStatus::kInterrupted
                             : RunStatus::kOk;
  run.summary = SummarizeRun(run.intervals, (end - start) / 1e9);
  run.summary.cpu_user_seconds =
      Seconds(usage_after.ru_utime) - Seconds(usage_before.ru_utime);
  run.summary.cpu_system_seconds =
      Seconds(usage_after.ru_stime) - Seconds(usage_before.ru_stime);
  for (RunObserver* observer : observers) observer->OnEnd(run);
  return run;
}

}  // namespace flashmark
