// RankCollector: rank 0's RunObserver of a cluster run. It follows rank
// 0's own run and receives every other rank's (cluster/rank_wire.h), and:
// - passes each rank's run on (its own included), event by event as it
//   arrives, to that rank's observers (its store row);
// - builds the aggregate run: interval k is the merge of every rank's
//   interval k (bytes and IOs summed, histograms merged: cluster-wide
//   percentiles come from the merged histogram, never from averaging),
//   made as soon as every rank has measured it, and passed to the
//   aggregate's observers (the console, its store row). The aggregate's
//   full intervals cover the time every rank was running; what any rank
//   measured after that (a rank that ran longer, the drains) is its
//   partial tail, so the totals still count every IO;
// - after each aggregate interval, prints the slowest and fastest rank's
//   throughput on `live` (null: quiet).
//
// With --stonewall the first rank to end, with --until-steady a steady
// aggregate (GroupStopRule), makes every rank stop: rank 0 trips its own
// GroupStop and sends the others their stop message (cluster/
// rank_sender.h).
//
// A rank heard from for `lost_after` less than the others (killed, its host
// gone) is counted as lost: the aggregate then ends, interrupted, naming
// it in Environment::cluster, and that rank's run is ended as interrupted
// with what arrived.
//
// Threads: the run's output thread (all RunObserver calls, and the MPI
// calls it makes through `session`). OnStart waits for every rank's
// header; OnEnd for every rank's end (or loss); OnInterval never waits.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cluster/group_stop.h"
#include "cluster/mpi_session.h"
#include "model/interval_aligner.h"
#include "model/run_observer.h"

namespace flashmark {

struct ClusterSinks {
  // Called once per rank as its run starts (rank 0's at OnStart, the
  // others' as their headers arrive): the observers that record that
  // rank's run, in order. Not owned; must outlive the run.
  std::function<std::vector<RunObserver*>(int rank, const RunResult& header)>
      rank_observers;
  // Called once with the aggregate's header: its observers, in order.
  std::function<std::vector<RunObserver*>(const RunResult& header)>
      aggregate_observers;
};

class RankCollector : public RunObserver {
 public:
  // `hosts`: every rank's host, by rank. `start_on_rank0_clock_ns`: rank
  // 0's own start instant (ClusterStart), read at OnStart.
  RankCollector(MpiSession& session, std::vector<std::string> hosts,
                ClusterSinks sinks, std::ostream* live,
                std::chrono::nanoseconds lost_after,
                const int64_t& start_on_rank0_clock_ns, GroupStopRule stops);

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

  // After OnEnd: the aggregate run, complete.
  const RunResult& aggregate() const { return aggregate_; }

 private:
  struct Rank {
    RunResult header;  // as it started, no intervals
    std::vector<IntervalSample> intervals;
    RunResult end;        // the end message's fields
    uint64_t mpi_ns = 0;  // its output thread's time in MPI
    std::vector<RunObserver*> observers;
    int64_t start_on_rank0_clock_ns = 0;
    uint64_t last_heard_ns = 0;  // NowNs()
    bool started = false, ended = false, lost = false;
  };

  void Pump();
  void StopEveryRank();  // once
  void Handle(int source, const std::string& text);
  // Ranks silent for `silence_ns` become lost.
  void NoteLost(uint64_t silence_ns, bool at_end);
  void EmitAggregate();
  void PrintSpread(const std::vector<IntervalSample>& parts);
  std::vector<const std::vector<IntervalSample>*> RankIntervals() const;
  RunResult FinishedRank(const Rank& rank) const;
  void FinishAggregate(const RunResult& own);

  MpiSession& session_;
  std::vector<std::string> hosts_;
  ClusterSinks sinks_;
  std::ostream* live_;
  uint64_t lost_after_ns_;
  const int64_t& own_start_;
  GroupStopRule stops_;
  bool stop_sent_ = false;
  std::vector<Rank> ranks_;
  IntervalAligner aligner_;
  RunResult aggregate_;  // the header, then the intervals
  std::vector<RunObserver*> aggregate_observers_;
};

}  // namespace flashmark
