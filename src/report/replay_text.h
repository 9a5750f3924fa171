// The text form of a replay's outcome (model/replay_outcome.h), as
// `flashmark replay`, `show` and `analyze` print it: the trace and how it
// was replayed, IOs by operation against the trace's, and the fidelity
// (issue-time error p50/p99/max, reordered IOs, achieved against recorded
// queue depth), with kReplayLateText as its own line when the timing was
// not kept. Times printed in us. Pure; thread-safe.
#pragma once

#include <string>

#include "model/replay_outcome.h"

namespace flashmark {

std::string ReplayOutcomeText(const ReplayOutcome& replay);
// kReplayLateText when the timing was not kept, else "".
std::string ReplayHeadlineNote(const ReplayOutcome& replay);

}  // namespace flashmark
