// ExecuteRun with an injected RunClock (RunHooks::clock): real workers on
// the null engine, real output thread and observers, but the sampler's
// time is a test clock whose waits return at once, so a 30 s run takes
// milliseconds and its interval boundaries are exact. No sleeps.
#include "runner/runner.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "model/io_log.h"
#include "model/latency_tracer.h"
#include "test_support.h"

namespace flashmark {
namespace {

using test_support::kMs;
using test_support::kSecond;

// Time moves only when the sampler waits; an interrupt can be scheduled.
class InstantClock : public RunClock {
 public:
  uint64_t Now() override { return now_; }
  int WaitForInterrupt(uint64_t ns) override {
    now_ += ns;
    if (interrupt_at_ && now_ >= *interrupt_at_) {
      now_ = *interrupt_at_;
      interrupt_at_.reset();
      return SIGHUP;
    }
    return 0;
  }
  void InterruptAt(uint64_t at) { interrupt_at_ = at; }

 private:
  uint64_t now_ = 5 * kSecond;  // any origin: the loop uses differences
  std::optional<uint64_t> interrupt_at_;
};

// Records what the output thread hands on (called from that thread).
class Recorder : public RunObserver {
 public:
  void OnStart(const RunResult&) override { ++starts; }
  void OnInterval(const RunResult&, const IntervalSample& sample) override {
    samples.push_back(sample);
  }
  void OnEnd(const RunResult& run) override {
    ++ends;
    end_status = run.status;
  }
  int starts = 0, ends = 0;
  std::vector<IntervalSample> samples;
  RunStatus end_status = RunStatus::kRunning;
};

class StopAfter : public StopCondition {
 public:
  explicit StopAfter(size_t count) : count_(count) {}
  bool ShouldStop(const IntervalSample&) override { return ++seen_ >= count_; }

 private:
  size_t count_;
  size_t seen_ = 0;
};

RunResult NullRun(std::chrono::seconds time) {
  RunResult run;
  run.spec.engine = "null";
  run.spec.mode = IoMode::kRndRd;
  run.spec.block_sizes = {{4096, 100}};
  run.spec.threads = 2;
  run.spec.iodepth = 1;
  run.spec.size.bytes = 1 << 20;
  run.spec.time = time;
  run.spec.interval = std::chrono::seconds(1);
  run.spec.seed = 7;
  run.spec.seed_given = true;
  return run;
}

struct Outcome {
  RunResult run;
  Recorder recorder;
  double wall_seconds = 0;
};

void Execute(RunResult spec_run, RunClock& clock,
             std::vector<StopCondition*> conditions, Outcome& out,
             RunTelemetry* telemetry = nullptr) {
  const std::vector<IoFile> files = {{-1, 1 << 20, ""}};
  std::vector<RunObserver*> observers = {&out.recorder};
  RunHooks hooks;
  hooks.observers = observers;
  hooks.stop_conditions = conditions;
  hooks.clock = &clock;
  hooks.telemetry = telemetry;
  const auto begin = std::chrono::steady_clock::now();
  auto run = ExecuteRun(std::move(spec_run), files, hooks);
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  ASSERT_TRUE(run.ok()) << run.error().message;
  out.run = std::move(*run);
}

size_t FullIntervals(const RunResult& run) {
  size_t full = 0;
  for (const auto& sample : run.intervals) full += sample.partial ? 0 : 1;
  return full;
}

TEST(Runner, TheInjectedClockSetsTheIntervalsExactlyAndNothingSleeps) {
  InstantClock clock;
  Outcome out;
  Execute(NullRun(std::chrono::seconds(30)), clock, {}, out);
  EXPECT_EQ(out.run.status, RunStatus::kOk);
  ASSERT_EQ(FullIntervals(out.run), 30u);
  for (uint32_t i = 0; i < 30; ++i) {
    const IntervalSample& sample = out.run.intervals[i];
    EXPECT_EQ(sample.index, i);
    EXPECT_EQ(sample.start_ns, i * kSecond);
    EXPECT_EQ(sample.end_ns, (i + 1) * kSecond);
    EXPECT_EQ(sample.spans, 1u);
    EXPECT_FALSE(sample.partial);
  }
  // The drain after the last boundary, if the workers did any, is partial.
  EXPECT_LE(out.run.intervals.size(), 31u);
  EXPECT_NEAR(out.run.summary.elapsed_seconds, 30.0, 1e-9);
  EXPECT_LT(out.wall_seconds, 10.0) << "30 s of run time, none of it waited";
  // Every interval reached the observers, in order, between start and end.
  EXPECT_EQ(out.recorder.starts, 1);
  EXPECT_EQ(out.recorder.ends, 1);
  EXPECT_EQ(out.recorder.end_status, RunStatus::kOk);
  ASSERT_EQ(out.recorder.samples.size(), out.run.intervals.size());
  for (size_t i = 0; i < out.run.intervals.size(); ++i) {
    EXPECT_EQ(out.recorder.samples[i].index, out.run.intervals[i].index);
    EXPECT_EQ(out.recorder.samples[i].read.ios, out.run.intervals[i].read.ios);
  }
  uint64_t ios = 0;
  for (const auto& sample : out.run.intervals) ios += sample.read.ios;
  EXPECT_EQ(out.run.summary.read.ios, ios)
      << "the totals count every interval and the tail";
}

TEST(Runner, AnInterruptFromTheClockEndsTheRunAsInterruptedWithAPartialTail) {
  InstantClock clock;
  clock.InterruptAt(5 * kSecond + 3'500 * kMs);  // 3.5 s into the run
  Outcome out;
  Execute(NullRun(std::chrono::seconds(30)), clock, {}, out);
  EXPECT_EQ(out.run.status, RunStatus::kInterrupted);
  EXPECT_EQ(out.recorder.end_status, RunStatus::kInterrupted);
  ASSERT_EQ(FullIntervals(out.run), 3u);
  // The stretch to the interrupt is kept when the workers did IO in it
  // (they run in real time, so that is up to them), and it ends the run.
  ASSERT_LE(out.run.intervals.size(), 4u);
  if (out.run.intervals.size() == 4) {
    const IntervalSample& tail = out.run.intervals.back();
    EXPECT_TRUE(tail.partial);
    EXPECT_EQ(tail.start_ns, 3 * kSecond);
    EXPECT_EQ(tail.end_ns, 3'500 * kMs);
  }
  EXPECT_NEAR(out.run.summary.elapsed_seconds, 3.5, 1e-9);
}

// The sampler never gets a CPU: its clock stands still (each wait is a
// real 10 ms nap), as a sampler behind thousands of busy workers on a few
// cores. After 20 s it reports an interrupt, so a run whose workers never
// stop by themselves fails the test instead of hanging it.
class StalledClock : public RunClock {
 public:
  uint64_t Now() override { return 5 * kSecond; }
  int WaitForInterrupt(uint64_t /*ns*/) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return std::chrono::steady_clock::now() - begin_ > std::chrono::seconds(20)
               ? SIGINT
               : 0;
  }

 private:
  std::chrono::steady_clock::time_point begin_ =
      std::chrono::steady_clock::now();
};

TEST(Runner, SynchronousWorkersStopAtTheirTimeWhenTheSamplerCannot) {
  StalledClock clock;
  Outcome out;
  // Depth 1: the null engine completes each IO in Queue(), as psync does.
  Execute(NullRun(std::chrono::seconds(1)), clock, {}, out);
  EXPECT_EQ(out.run.status, RunStatus::kOk) << "interrupted: they never ended";
  EXPECT_LT(out.wall_seconds, 10);
  EXPECT_GT(out.run.summary.read.ios, 0u);
}

TEST(Runner, AStopConditionEndsTheRunAtItsBoundaryAsOk) {
  InstantClock clock;
  StopAfter four(4);
  Outcome out;
  Execute(NullRun(std::chrono::seconds(30)), clock, {&four}, out);
  EXPECT_EQ(out.run.status, RunStatus::kOk);
  EXPECT_EQ(FullIntervals(out.run), 4u) << "the deciding interval is kept";
  EXPECT_EQ(out.run.intervals[3].end_ns, 4 * kSecond);
}

// Numbers each reading, so the samples show which reading they got; the
// end adds a warning the observers must see.
class CountingTelemetry : public RunTelemetry {
 public:
  IntervalTelemetry Sample() override {
    IntervalTelemetry t;
    t.temperature_celsius = static_cast<double>(readings++);
    return t;
  }
  void Finish(Environment& environment) override {
    ++finishes;
    environment.warnings.push_back("finished");
  }
  int readings = 0, finishes = 0;
};

class EndWarnings : public Recorder {
 public:
  void OnEnd(const RunResult& run) override {
    Recorder::OnEnd(run);
    warnings = run.environment.warnings;
  }
  std::vector<std::string> warnings;
};

TEST(Runner, TelemetryIsReadOnceBeforeTheStartThenWithEverySample) {
  InstantClock clock;
  CountingTelemetry telemetry;
  Outcome out;
  Execute(NullRun(std::chrono::seconds(5)), clock, {}, out, &telemetry);
  ASSERT_GE(out.run.intervals.size(), 5u);
  // Reading 0 is the baseline; interval k got reading k + 1, the tail too.
  EXPECT_EQ(telemetry.readings, 1 + 6);  // 5 intervals and the tail's
  for (size_t k = 0; k < out.run.intervals.size(); ++k) {
    EXPECT_EQ(out.run.intervals[k].telemetry.temperature_celsius,
              static_cast<double>(k + 1));
  }
  EXPECT_EQ(telemetry.finishes, 1);
  ASSERT_EQ(out.run.environment.warnings.size(), 1u);
  EXPECT_EQ(out.run.environment.warnings[0], "finished");
}

TEST(Runner, TelemetryFinishesBeforeTheObserversSeeTheEnd) {
  InstantClock clock;
  CountingTelemetry telemetry;
  const std::vector<IoFile> files = {{-1, 1 << 20, ""}};
  EndWarnings recorder;
  std::vector<RunObserver*> observers = {&recorder};
  RunHooks hooks;
  hooks.observers = observers;
  hooks.clock = &clock;
  hooks.telemetry = &telemetry;
  auto run = ExecuteRun(NullRun(std::chrono::seconds(2)), files, hooks);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(recorder.warnings, std::vector<std::string>{"finished"});
}

// Hands the logged IOs over only at the run's end, each untraced (as a
// join whose last IOs wait for their block events). The first Take()
// waits until an IO was logged, so the run has done IO by then.
class HeldBackTracer : public LatencyTracer {
 public:
  void Begin(std::span<IoLog* const> logs, const CycleClock&) override {
    logs_.assign(logs.begin(), logs.end());
  }
  LatencySplit Take() override {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!ended_ && held_ == 0 &&
           std::chrono::steady_clock::now() < give_up) {
      DrainLogs();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!ended_) return {};
    DrainLogs();
    LatencySplit split;
    split.untraced = std::exchange(held_, 0);
    return split;
  }
  void End() override { ended_ = true; }

 private:
  void DrainLogs() {
    for (IoLog* log : logs_) held_ += log->Drain([](const LoggedIo&) {});
  }
  std::vector<IoLog*> logs_;
  uint64_t held_ = 0;
  bool ended_ = false;
};

TEST(Runner, ATailWithOnlyTheSplitOfEarlierIosIsKept) {
  // One IO a second: the first at the start, the next long after the
  // instant clock's 3 s have passed, so the tail does no IO of its own.
  RunResult spec_run = NullRun(std::chrono::seconds(3));
  spec_run.spec.threads = 1;
  spec_run.spec.rate.iops = 1;
  InstantClock clock;
  HeldBackTracer tracer;
  const std::vector<IoFile> files = {{-1, 1 << 20, ""}};
  RunHooks hooks;
  hooks.clock = &clock;
  hooks.latency_tracer = &tracer;
  auto run = ExecuteRun(std::move(spec_run), files, hooks);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_FALSE(run->intervals.empty());
  const IntervalSample& tail = run->intervals.back();
  EXPECT_TRUE(tail.partial);
  EXPECT_EQ(tail.read.ios, 0u) << "the tail did no IO";
  EXPECT_GE(run->summary.read.ios, 1u);
  EXPECT_EQ(run->summary.latency_split.untraced, run->summary.read.ios)
      << "every IO is in the split, the tail's share too";
}

}  // namespace
}  // namespace flashmark
