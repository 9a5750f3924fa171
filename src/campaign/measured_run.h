// One measured run, the way `flashmark run` does it and each campaign cell
// does it: open (lay out, check) the targets, capture the environment,
// run with the console reporter, the steady-state watch, the store
// recorder and any extra observers (all on the run's output thread, see
// runner/runner.h), stop at steady state with --until-steady, and say
// where the run was stored.
//
// Output: the live lines and messages go to `console`; store errors to
// std::cerr. Blocking; must run on the main thread (interrupt signals are
// taken by the runner, see common/signals.h).
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/run_options.h"
#include "model/run_observer.h"
#include "model/run_result.h"
#include "model/stop_condition.h"
#include "store/run_store.h"

namespace flashmark {

struct MeasuredRunSettings {
  std::string command_line;
  RunLabels labels;
  // The database to record the run in, opened once the targets are
  // (so a refused target creates nothing); empty: not stored.
  std::string database;
  bool hint_no_db = false;  // a store that cannot open suggests --no-db
  // The caller checked the database already (CheckStoreBeforeWriting, e.g.
  // once per sweep): its quick_check reads the whole file.
  bool database_checked = false;
  std::ostream* console = nullptr;
  bool terminal = false;                // progress bar under the live lines
  std::vector<RunObserver*> observers;  // after the built-in ones
  // false: no console reporter and no steady-state watch (a cluster rank:
  // rank 0 prints the aggregate instead).
  bool report_to_console = true;
  // false: --until-steady is judged elsewhere (a cluster rank: rank 0
  // judges the aggregate and stops every rank through stop_conditions).
  bool until_steady_here = true;
  // Asked after --until-steady's (a cluster run's GroupStop); not owned.
  std::vector<StopCondition*> stop_conditions;
  // Environment::cluster of the run (a cluster rank's identity).
  std::string cluster;
  // Called once every target is judged (TargetSet::Judge) and before any
  // file set is laid out; an error stops the run there (a cluster run's
  // first meeting: no rank lays out while another's target is refused).
  std::function<Status()> targets_judged;
  // RunHooks::before_start (runner/runner.h): a cluster run's meeting.
  std::function<Result<int64_t>()> before_start;
  // The stored run's id, as soon as its row exists (the output thread).
  std::function<void(int64_t)> on_run_id;
};

struct MeasuredRun {
  RunResult result;
  int64_t run_id = 0;         // 0 when not stored
  bool store_failed = false;  // the store broke during the run
};

// Errors are the ones before any IO, in this order: what needs no disk
// (the database, checked read-only; the engine probed at its queue depth),
// then the targets; the database is created or opened only after that, so
// bad input is refused before anything is created. An InterruptedError
// (IsInterruption(): exit 130) means SIGINT/SIGTERM stopped the file set's
// layout: nothing was stored, the files are removed. What goes wrong during
// the run is in result.status and result.error.
Result<MeasuredRun> PerformRun(const JobSpec& spec,
                               const MeasuredRunSettings& settings);

}  // namespace flashmark
