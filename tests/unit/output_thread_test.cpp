// OutputThread: observers run on their own thread, in order, and a blocked
// observer never blocks the sampler's hand-over; nothing is lost at the end.
#include "runner/output_thread.h"

#include <gtest/gtest.h>

#include <future>
#include <string>
#include <thread>
#include <vector>

namespace flashmark {
namespace {

// Blocks in its first OnInterval until released (a store locked by
// another process), and records what it saw.
class BlockedObserver : public RunObserver {
 public:
  explicit BlockedObserver(std::shared_future<void> release)
      : release_(std::move(release)) {}
  void OnStart(const RunResult& run) override {
    calls.push_back("start " + run.command_line);
    thread = std::this_thread::get_id();
  }
  void OnInterval(const RunResult& run, const IntervalSample& sample) override {
    release_.wait();
    calls.push_back("interval " + std::to_string(sample.index));
    EXPECT_EQ(run.command_line, "flashmark run");
    EXPECT_EQ(std::this_thread::get_id(), thread);
  }
  void OnEnd(const RunResult& run) override {
    calls.push_back("end " + std::to_string(run.intervals.size()));
    EXPECT_EQ(std::this_thread::get_id(), thread);
  }
  std::vector<std::string> calls;
  std::thread::id thread;

 private:
  std::shared_future<void> release_;
};

TEST(OutputThread, ABlockedObserverDelaysOutputNeverTheSampler) {
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  BlockedObserver first(released), second(released);
  RunResult run;
  run.command_line = "flashmark run";
  std::vector<RunObserver*> observers = {&first, &second};
  OutputThread output(observers, run);
  constexpr uint32_t kIntervals = 1000;
  for (uint32_t i = 0; i < kIntervals; ++i) {
    IntervalSample sample;
    sample.index = i;
    run.intervals.push_back(sample);
    output.Post(std::move(sample));  // returns although observers block
  }
  release.set_value();
  output.Finish(run);  // drains everything, then OnEnd
  for (const BlockedObserver* observer : {&first, &second}) {
    ASSERT_EQ(observer->calls.size(), kIntervals + 2);
    EXPECT_EQ(observer->calls.front(), "start flashmark run");
    for (uint32_t i = 0; i < kIntervals; ++i) {
      EXPECT_EQ(observer->calls[i + 1], "interval " + std::to_string(i));
    }
    EXPECT_EQ(observer->calls.back(), "end 1000");
    EXPECT_NE(observer->thread, std::this_thread::get_id());
  }
}

}  // namespace
}  // namespace flashmark
