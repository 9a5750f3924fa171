#include "runner/sampling_loop.h"

#include <algorithm>
#include <limits>

namespace flashmark {
namespace {

// How often the loop looks whether all workers finished early.
constexpr uint64_t kPollNs = 50'000'000;
// Wake-up delays a busy machine's scheduler may cause: never a stall.
constexpr uint64_t kJitterNs = 100'000'000;

}  // namespace

uint64_t StallThresholdNs(uint64_t interval_ns) {
  return std::max(interval_ns / 4, std::min(interval_ns, kJitterNs));
}

SamplingLoop::SamplingLoop(const SamplingSettings& settings, Sampler& sampler,
                           RunClock& clock, RunControl& control,
                           std::span<StopCondition* const> stop_conditions,
                           RunTelemetry* telemetry, LatencyTracer* tracer)
    : settings_(settings),
      sampler_(sampler),
      clock_(clock),
      control_(control),
      stop_conditions_(stop_conditions),
      telemetry_(telemetry),
      tracer_(tracer) {}

SamplingLoop::Wake SamplingLoop::WaitUntil(uint64_t deadline_ns) {
  for (uint64_t now = clock_.Now(); now < deadline_ns; now = clock_.Now()) {
    if (control_.workers_finished() == settings_.worker_count ||
        control_.stopping()) {
      return Wake::kEnded;
    }
    if (clock_.WaitForInterrupt(std::min(deadline_ns - now, kPollNs)) != 0) {
      return Wake::kInterrupted;
    }
  }
  return Wake::kDeadline;
}

IntervalSample SamplingLoop::Take(uint64_t now_ns) {
  const uint64_t since_start = now_ns - settings_.start_ns;
  IntervalSample sample =
      sampler_.Take(next_index_++, last_end_ns_, since_start);
  if (telemetry_ != nullptr) sample.telemetry = telemetry_->Sample();
  if (tracer_ != nullptr) sample.latency_split = tracer_->Take();
  const uint64_t boundary = since_start / settings_.interval_ns;
  sample.spans = static_cast<uint32_t>(
      std::max<uint64_t>(1, boundary - std::min(boundary, last_boundary_)));
  last_end_ns_ = since_start;
  last_boundary_ = std::max(last_boundary_, boundary);
  return sample;
}

bool SamplingLoop::Run(const std::function<void(IntervalSample)>& deliver) {
  const uint64_t interval = settings_.interval_ns;
  const uint64_t start = settings_.start_ns;
  const uint64_t last_deadline =
      settings_.time_limit_ns == 0
          ? std::numeric_limits<uint64_t>::max() / interval - 1
          : (settings_.time_limit_ns + interval - 1) / interval;
  const uint64_t stall = StallThresholdNs(interval);
  // The run ends at its time limit, even inside an interval: a --time that
  // is not a whole number of intervals ends with a shorter, partial one.
  const auto deadline = [&](uint64_t target) {
    const uint64_t at = start + target * interval;
    return settings_.time_limit_ns != 0 && target >= last_deadline
               ? std::min(at, start + settings_.time_limit_ns)
               : at;
  };
  for (;;) {
    uint64_t target = last_boundary_ + 1;
    for (bool extended = false;;) {
      switch (WaitUntil(deadline(target))) {
        case Wake::kDeadline:
          break;
        case Wake::kEnded:
          return false;
        case Wake::kInterrupted:
          control_.RequestStop();
          return true;
      }
      const uint64_t late = clock_.Now() - deadline(target);
      if (extended || late <= stall || target >= last_deadline) break;
      // A stall: end this sample at the next deadline after now instead.
      const uint64_t crossed = (clock_.Now() - start) / interval;
      target = std::min(crossed + 1, last_deadline);
      extended = true;
      if (deadline(target) <= clock_.Now()) break;
    }
    IntervalSample sample = Take(clock_.Now());
    bool done = target >= last_deadline;
    // A last interval cut short by the time limit.
    sample.partial = done && deadline(target) < start + target * interval;
    for (StopCondition* condition : stop_conditions_) {
      if (condition->ShouldStop(sample)) {
        stopped_by_condition_ = true;
        done = true;
      }
    }
    deliver(std::move(sample));
    if (done) {
      control_.RequestStop();
      return false;
    }
  }
}

IntervalSample SamplingLoop::TakeTail() {
  IntervalSample tail = Take(clock_.Now());
  tail.partial = true;
  return tail;
}

}  // namespace flashmark
