// RankSender: on every rank but 0, the RunObserver that sends the run to
// rank 0 as it goes (cluster/rank_wire.h): the header at OnStart, each
// interval at OnInterval, the end at OnEnd, which then waits until all was
// delivered. Sending never blocks (MpiSession::Send); it runs on the run's
// output thread, so the sampler and the IO threads never wait on MPI.
// With --stonewall or --until-steady it also takes rank 0's stop message,
// at each interval, and trips the run's GroupStop.
#pragma once

#include <cstdint>

#include "cluster/group_stop.h"
#include "cluster/mpi_session.h"
#include "model/run_observer.h"

namespace flashmark {

class RankSender : public RunObserver {
 public:
  // `start_on_rank0_clock_ns`: the instant this rank started, on rank 0's
  // clock (ClusterStart::start_on_rank0_clock_ns()), read at OnStart.
  // `group_stop`: null when rank 0 never stops the ranks together.
  RankSender(MpiSession& session, const int64_t& start_on_rank0_clock_ns,
             GroupStop* group_stop)
      : session_(session),
        start_(start_on_rank0_clock_ns),
        group_stop_(group_stop) {}

  void OnStart(const RunResult& run) override;
  void OnInterval(const RunResult& run, const IntervalSample& sample) override;
  void OnEnd(const RunResult& run) override;

 private:
  MpiSession& session_;
  const int64_t& start_;
  GroupStop* group_stop_;
};

}  // namespace flashmark
