#include "report/replay_text.h"

#include <fmt/format.h>

#include "common/units.h"

namespace flashmark {
namespace {

std::string ReplayOpsLine(const ReplayOpCount& ops) {
  return fmt::format(
      "{} reads ({}), {} writes ({}), {} flushes, {} discards ({})", ops.reads,
      FormatBytes(ops.read_bytes), ops.writes, FormatBytes(ops.write_bytes),
      ops.flushes, ops.discards, FormatBytes(ops.discard_bytes));
}

}  // namespace

std::string ReplayHeadlineNote(const ReplayOutcome& replay) {
  return replay.fidelity.timed && !replay.fidelity.kept_timing ? kReplayLateText
                                                               : "";
}

std::string ReplayOutcomeText(const ReplayOutcome& replay) {
  const ReplayFidelity& f = replay.fidelity;
  std::string text = fmt::format(
      "replay of trace {} ({}), timing {}, map {}, up to {} IOs in flight\n",
      replay.trace_id, replay.trace_source, replay.timing, replay.map,
      replay.depth);
  text += "  trace    " + ReplayOpsLine(replay.trace_ops) + "\n";
  text += "  replayed " + ReplayOpsLine(replay.issued) + "\n";
  if (f.timed) {
    text += fmt::format(
        "  issue error p50 {:.1f}  p99 {:.1f}  max {:.1f} us  (late above "
        "{:.1f} us at p99)\n",
        f.error_p50_ns / 1e3, f.error_p99_ns / 1e3, f.error_max_ns / 1e3,
        f.late_threshold_ns / 1e3);
  } else {
    text += "  issue error: none intended (as fast as possible)\n";
  }
  text += fmt::format("  between submissions p50 {:.1f}  p99 {:.1f} us\n",
                      f.interarrival_p50_ns / 1e3, f.interarrival_p99_ns / 1e3);
  text += fmt::format("  reordered {} of {} IOs\n", f.reordered, f.ios);
  text += fmt::format("  queue depth achieved mean {:.2f} max {}",
                      f.achieved_depth_mean, f.achieved_depth_max);
  if (f.recorded_depth_mean) {
    text += fmt::format(", recorded mean {:.2f} max {}\n",
                        *f.recorded_depth_mean, f.recorded_depth_max);
  } else {
    text += ", recorded unknown (the trace has no completion times)\n";
  }
  for (const std::string& note : replay.notes) text += "  note: " + note + "\n";
  if (const std::string late = ReplayHeadlineNote(replay); !late.empty()) {
    text += "  " + late + "\n";
  }
  return text;
}

}  // namespace flashmark
