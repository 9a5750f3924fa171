// ClusterStart: how the ranks of a cluster run begin together.
//
// 1. Agree, at each step that comes before IO (the targets judged by the
//    safety rules; then the file sets laid out and the engines set up):
//    each rank says it is ready or why it cannot go on. One refusal stops
//    every rank, each with the same error, naming the rank and host that
//    refused; at the first step, before any rank laid out a file set.
// 2. WaitForCommonStart: each rank's CLOCK_REALTIME is measured against
//    rank 0's (ping-pong through MPI, the shortest of several round
//    trips; 0 for a rank that runs on rank 0's kernel, one boot id: the
//    same clock); rank 0 picks an instant at least 100 ms ahead and each rank
//    sleeps until that instant on its own clock. The run's interval
//    deadlines (start + k x interval) are then aligned across ranks.
//
// Every rank calls Agree equally often, until one returns an error (then
// Agree returns that error again without asking the others), and
// WaitForCommonStart after the last, which returned ok; both are
// collective. Main thread (or the thread
// that runs the run, before its workers start).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cluster/mpi_session.h"
#include "common/result.h"

namespace flashmark {

class ClusterStart {
 public:
  // `hosts`: every rank's host, by rank (for the messages).
  ClusterStart(MpiSession& session, std::vector<std::string> hosts)
      : session_(session), hosts_(std::move(hosts)) {}

  Status Agree(const Status& mine);
  void WaitForCommonStart();

  // The instant this rank came back from the wait, on rank 0's clock
  // (unix ns); 0 before. Their spread over the ranks is the start skew.
  const int64_t& start_on_rank0_clock_ns() const { return start_; }
  // The common start instant on this rank's own clock (unix ns).
  int64_t common_start_ns() const { return common_start_; }

 private:
  MpiSession& session_;
  std::vector<std::string> hosts_;
  std::optional<Error> failure_;
  int64_t start_ = 0;
  int64_t common_start_ = 0;
};

// "rank 2 on vm": how messages name a rank.
std::string RankName(int rank, const std::string& host);

}  // namespace flashmark
