// ConsoleReporter: the terminal view of a run (model: sysbench's
// --report-interval lines and hyperfine's manners). A header naming the
// workload and the targets, one line per interval, and a summary that
// opens with the run's headline (headline_text.h: the median of the final
// regime after its warm-up, the rule every command uses) above the
// whole-run figures. When `terminal`
// is true a progress bar with ETA is kept under the last line (redrawn in
// place); otherwise output is plain lines. --quiet drops interval lines.
// Writes only to the injected stream; runs on the run's output thread
// (RunObserver). A sample that spans several intervals (the process was
// stopped) says so on its line.
#pragma once

#include <ostream>

#include "analysis/cancel.h"
#include "model/run_observer.h"

namespace flashmark {

struct ConsoleOptions {
  bool terminal = false;
  bool quiet = false;
};

class ConsoleReporter : public RunObserver {
 public:
  ConsoleReporter(std::ostream& out, ConsoleOptions options);

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

 private:
  void DrawProgress(const RunResult& run, const IntervalSample& sample);
  void ClearProgress();

  std::ostream& out_;
  ConsoleOptions options_;
  bool progress_shown_ = false;
  uint64_t bytes_done_ = 0;
  uint64_t ios_done_ = 0;
};

// The summary block: the headline, whole-run series figures, latency
// percentiles, totals, status. `cancel` ends the headline's computation
// (headline_text.h).
void PrintSummary(const RunResult& run, std::ostream& out,
                  const CancelToken& cancel = {});

// "0.31 ms", "812 us", "95 ns": a latency in a unit that suits it.
std::string FormatLatency(double ns);
// The workload line: "rndwr 16KiB  psync QD1 x 8 threads  O_DIRECT ...".
std::string DescribeWorkload(const JobSpec& spec);

}  // namespace flashmark
