// Writes a synthetic long run into a flashmark database, for the analysis
// benchmark: N intervals (default 86,400 = 24 h at 1 s) of a random-write
// workload whose throughput decays from a warm-up into a plateau and drops
// 20 % at two thirds of the run (a GC cliff), each interval with a latency
// histogram of ~20k IOs. Usage: synthetic_run DB [INTERVALS]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/random.h"
#include "store/run_store.h"
#include "synthetic_interval.h"

int main(int argc, char** argv) {
  using namespace flashmark;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DB [INTERVALS]\n", argv[0]);
    return 2;
  }
  const uint32_t count = argc > 2 ? std::atoi(argv[2]) : 86400;
  auto store = RunStore::Open(argv[1]);
  if (!store.ok()) {
    std::fprintf(stderr, "error: %s\n", store.error().message.c_str());
    return 1;
  }
  RunResult run;
  run.spec.mode = IoMode::kRndWr;
  run.spec.time = std::chrono::seconds(count);
  run.spec.targets = {"/synthetic"};
  run.command_line = "synthetic_run";
  run.tool_version = "bench";
  RunLabels labels;
  labels.label = "synthetic";
  labels.tags = {{"kind", "synthetic"}};
  auto id = store->BeginRun(run, labels);
  if (!id.ok()) return 1;
  Random random(42);
  for (uint32_t i = 0; i < count; ++i) {
    const IntervalSample sample = SyntheticInterval(i, count, random);
    if (!store->AppendInterval(*id, sample).ok()) return 1;
  }
  run.status = RunStatus::kOk;
  (void)store->FinishRun(*id, run);
  std::printf("run %lld: %u intervals in %s\n", static_cast<long long>(*id),
              count, argv[1]);
  return 0;
}
