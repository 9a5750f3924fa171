#include "report/reproduce_text.h"

#include "config/run_options.h"
#include "config/tag_options.h"

namespace flashmark {

std::string ReproduceText(const StoredRun& stored) {
  const RunResult& run = stored.run;
  // (a replay is repeated by its own command: the same trace, the same
  // targets, the same timing)
  if (run.replay) return run.command_line;
  for (const auto& [key, value] : stored.labels.tags) {
    // (the aggregate's command_line is rank 0's under mpirun)
    if (key == kRankTag && value == kAllRanks &&
        run.command_line.rfind("mpirun ", 0) == 0) {
      return run.command_line;
    }
    // (an aggregate stored before its command_line held the per-target
    // commands has the sweep's one-line command: rebuilt from its spec)
    if (key == kPartTag && value == "all" &&
        run.command_line.find('\n') != std::string::npos) {
      return run.command_line;
    }
  }
  return ReproduceCommand(run.spec, stored.labels.label, stored.labels.tags,
                          run.imported.empty() ? ReproduceStyle::kExact
                                               : ReproduceStyle::kImported);
}

}  // namespace flashmark
