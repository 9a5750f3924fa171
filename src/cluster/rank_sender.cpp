#include "cluster/rank_sender.h"

#include "cluster/rank_wire.h"

namespace flashmark {

void RankSender::OnStart(const RunResult& run) {
  session_.Send(0, HeaderMessage(run, start_));
}

void RankSender::OnInterval(const RunResult& /*run*/,
                            const IntervalSample& sample) {
  session_.Send(0, IntervalMessage(sample));
  if (group_stop_ == nullptr) return;
  while (auto message = session_.Poll()) {
    auto parsed = ParseRankMessage(message->text);
    if (parsed.ok() && parsed->kind == RankMessageKind::kStop) {
      group_stop_->Trip();
    }
  }
}

void RankSender::OnEnd(const RunResult& run) {
  session_.Send(0, EndMessage(run, session_.busy_ns()));
  session_.Flush();
}

}  // namespace flashmark
