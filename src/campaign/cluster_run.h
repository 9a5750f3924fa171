// `flashmark run ... --mpi`: one rank of a run across MPI ranks (mpirun,
// srun). Every rank runs the same workload on its own targets, where
// "{host}" and "{rank}" in a TARGET (and in --json) become the rank's host
// and number, so ranks on one host need not share a file set. Then:
// - the ranks compare their options (a hash of the job spec, with the
//   flashmark version): any difference, or a rank whose options do not
//   parse, stops every rank, naming it;
// - each rank judges its targets as `flashmark run` does (the safety
//   rules, sizes, alignment; TargetSet::Judge); a refusal on one rank
//   stops all before any lays out a file set; then each lays out and
//   opens its own, and a failure there stops all before any run starts
//   (cluster/cluster_start.h);
// - all start at one instant (their clocks measured against rank 0's) and
//   their intervals end at the same deadlines;
// - every rank but 0 sends its run to rank 0 as it goes (never from an IO
//   thread); rank 0 stores, in its database, one run per rank (tags
//   host=, rank=, group=) and the aggregate (rank=all, same group),
//   interval by interval, and prints the aggregate's lines with the
//   slowest and fastest rank (cluster/rank_collector.h).
// With --stonewall every rank stops, at its next interval boundary, once
// rank 0 has heard that one rank finished (its --io-limit or --bytes);
// with --until-steady once the aggregate is steady (rank 0 judges it).
// Given --seed S, rank r draws its offsets from S + r. Only rank 0 prints
// and stores; with --json each rank keeps its own run document as it goes.
// Blocking; main thread.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "campaign/measured_run.h"
#include "cluster/mpi_session.h"
#include "common/result.h"
#include "config/run_options.h"

namespace flashmark {

struct ClusterRunSettings {
  RunOptions options;
  std::string command_line;
  std::string database;  // rank 0's; empty: not stored
  // Rank 0's live lines (plain lines: a progress bar would sit between an
  // interval and its ranks' line).
  std::ostream* console = nullptr;
};

struct ClusterOutcome {
  // MPI stays up until the caller has printed and drops this: mpirun ends
  // the whole job as soon as one rank exits with an error, and every rank
  // leaves MPI (MPI_Finalize) together, so rank 0 gets to say why first.
  std::unique_ptr<MpiSession> session;
  int rank = 0;
  // What stopped the run before it measured (on every rank the same,
  // naming the rank that refused); then `run` is empty.
  std::optional<Error> error;
  // Rank 0: the aggregate (run_id: its stored id, 0 when not stored);
  // other ranks: their own run.
  MeasuredRun run;
};

ClusterOutcome RunOnCluster(const ClusterRunSettings& settings);

// `flashmark run --hosts a,b,c ...`: the mpirun command that runs the same
// run as one rank per host named (a host named twice runs two): `mpirun
// -np N --host a,b,c PROGRAM run TARGET... OPTIONS --mpi`, every option
// of `options` but --hosts spelled out. `as_root`: OpenMPI refuses root
// unless told, so --allow-run-as-root is added (where the user has not
// set OMPI_ALLOW_RUN_AS_ROOT and its _CONFIRM).
std::vector<std::string> MpirunCommand(const RunOptions& options,
                                       const std::vector<std::string>& hosts,
                                       const std::string& program,
                                       bool as_root);

// `run TARGET... OPTIONS --mpi`: what follows PROGRAM in MpirunCommand.
std::vector<std::string> RankRunArguments(const RunOptions& options);

// `mpirun [--allow-run-as-root] -np N --host a,b,c`: MpirunCommand's start.
std::vector<std::string> MpirunLauncher(const std::vector<std::string>& hosts,
                                        bool as_root);

// "{host}" and "{rank}" in `pattern` replaced.
std::string ForRank(const std::string& pattern, int rank,
                    const std::string& host);

}  // namespace flashmark
