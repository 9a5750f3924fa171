// One sweep cell across MPI ranks (a campaign with a [cluster] table): the
// cell's workload runs as a run across ranks in a child process,
//   LAUNCHER PROGRAM run TARGET... OPTIONS --mpi --db DATABASE --label L
// (hosts = [...]: `mpirun -np N --host a,b,...`, with --allow-run-as-root
// as root), whose rank 0 stores every rank's run and the aggregate
// (campaign/cluster_run.h). Once it has ended, every run of that group
// gets the cell's sweep tags (campaign=, cell=, its parameters, repeat=)
// and the aggregate is the cell's run. The child's output is this
// process's (its live lines show as they come). Blocking; main thread.
#pragma once

#include <ostream>
#include <string>

#include "campaign/measured_run.h"
#include "common/result.h"
#include "config/campaign_spec.h"
#include "config/run_options.h"
#include "store/run_store.h"

namespace flashmark {

// The launcher's argv (before PROGRAM): the campaign's `launcher`, or
// mpirun for its `hosts`.
std::vector<std::string> CellLauncher(const CampaignSpec& campaign,
                                      bool as_root);

// `options`: the cell's run options; `labels`: its label and tags (the
// sweep's included). Errors: the launcher could not start, or it ended
// without storing an aggregate (its own messages say why, above). An
// aggregate that was stored comes back as the run, whatever its status.
Result<MeasuredRun> RunCellAcrossRanks(const CampaignSpec& campaign,
                                       const RunOptions& options,
                                       const RunLabels& labels,
                                       const std::string& database,
                                       std::ostream& out);

}  // namespace flashmark
