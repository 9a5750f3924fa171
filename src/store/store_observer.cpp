#include "store/store_observer.h"

#include <fmt/format.h>

namespace flashmark {

StoreObserver::StoreObserver(RunStore& store, RunLabels labels,
                             std::ostream& errors)
    : store_(store), labels_(std::move(labels)), errors_(errors) {}

void StoreObserver::Fail(const Error& error) {
  if (failed_) return;
  failed_ = true;
  errors_ << fmt::format(
      "warning: storing the run failed: {}{}; the run goes on and its "
      "results are kept in JSON\n",
      error.message, error.hint.empty() ? "" : " (" + error.hint + ")");
}

void StoreObserver::OnStart(const RunResult& run) {
  auto id = store_.BeginRun(run, labels_);
  if (!id.ok()) return Fail(id.error());
  run_id_ = *id;
  if (on_run_id_) on_run_id_(run_id_);
}

void StoreObserver::OnInterval(const RunResult&, const IntervalSample& sample) {
  if (failed_) return;
  if (Status stored = store_.AppendInterval(run_id_, sample); !stored.ok()) {
    Fail(stored.error());
  }
}

void StoreObserver::OnEnd(const RunResult& run) {
  if (failed_) return;
  if (Status stored = store_.FinishRun(run_id_, run); !stored.ok()) {
    Fail(stored.error());
  }
}

}  // namespace flashmark
