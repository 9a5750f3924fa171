// MpiSession: this process as one rank of an MPI job (`mpirun -np N
// flashmark run ... --mpi`), over MPI_COMM_WORLD: its rank, the job's size,
// its host, and the few operations a cluster run needs. Everything is
// text (JSON documents from cluster/rank_wire.h), so no MPI datatype leaks
// out of this file.
//
// Threads: MPI is initialised with MPI_THREAD_SERIALIZED: any thread may
// call, one at a time. A cluster run calls from its main thread before the
// run starts and after it ends, and from the run's output thread (the
// RunObservers) while it goes; never from an IO thread.
//
// Collectives (AllGather, Barrier, ClockOffsets) must be called by every
// rank in the same order. Send never blocks (MPI_Isend; the text is kept
// until it is delivered); Poll never blocks either. The destructor waits
// for what was sent, then finalises MPI.
//
// Built without MPI (no libopenmpi-dev at configure time): Start() returns
// an error that says how to get it; nothing else can be reached.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace flashmark {

// Whether this build has MPI (FLASHMARK_HAVE_MPI).
bool MpiAvailable();

// The environment of a process that mpirun (or srun) started, before MPI
// is initialised: OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK.
bool StartedByMpiLauncher();
// This process's rank as the launcher's environment gives it
// (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK); 0 when none does.
int RankFromLauncher();

struct MpiMessage {
  int source = 0;
  std::string text;
};

class MpiSession {
 public:
  // Initialises MPI once per process. Errors: a build without MPI, or a
  // process that no launcher started (hint: the mpirun command).
  static Result<std::unique_ptr<MpiSession>> Start();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string& host() const { return host_; }

  // Every rank's `text`, by rank, on every rank.
  std::vector<std::string> AllGather(const std::string& text);
  void Barrier();
  // Rank 0: each rank's CLOCK_REALTIME minus rank 0's, in ns (rank 0's is
  // 0), each from the ping-pong with the shortest round trip of `rounds`,
  // and that round trip. Others: empty. Collective.
  struct ClockOffset {
    int64_t offset_ns = 0;
    int64_t round_trip_ns = 0;
  };
  std::vector<ClockOffset> ClockOffsets(int rounds);
  // Rank 0 gives each rank one number (`values[r]` to rank r; ignored
  // elsewhere); returns this rank's. Collective.
  int64_t Scatter(const std::vector<int64_t>& values);

  // Point to point, on one tag of its own: messages from one rank arrive
  // in the order it sent them, whole (sent in small pieces: see the .cpp).
  void Send(int destination, const std::string& text);
  // The next message that has arrived from any rank, if one has.
  std::optional<MpiMessage> Poll();
  // Waits until everything this rank sent was delivered.
  void Flush();

  // CPU time spent in Send and Poll so far (ns, the calling thread's): what
  // MPI costs the thread that follows the run (Flush, which waits for the
  // receiver, is not in it).
  uint64_t busy_ns() const { return busy_ns_; }

  // Ends the whole job (MPI_Abort) with `code`: what a rank does when it
  // cannot go on and the others would wait for it forever.
  [[noreturn]] void Abort(int code);

 private:
  MpiSession() = default;
  struct Pending;
  void ReapSent();

  int rank_ = 0;
  int size_ = 1;
  std::string host_;
  std::list<std::unique_ptr<Pending>> sent_;
  std::map<int, std::string> arriving_;  // by source: the pieces so far
  uint64_t busy_ns_ = 0;
};

}  // namespace flashmark
