#include "cluster/mpi_session.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <cstdlib>

#include "common/clock.h"
#include "common/host_identity.h"

#if FLASHMARK_HAVE_MPI
#include <mpi.h>
#endif

namespace flashmark {

bool StartedByMpiLauncher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

int RankFromLauncher() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

#if FLASHMARK_HAVE_MPI

namespace {
constexpr int kMessageTag = 17;

// This thread's CPU time (ns): what a call cost it, not the time it was
// preempted meanwhile.
uint64_t ThreadCpuNs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// Adds this thread's CPU time from here to the end of the scope to `total`.
class BusyTimer {
 public:
  explicit BusyTimer(uint64_t& total) : total_(total), start_(ThreadCpuNs()) {}
  ~BusyTimer() { total_ += ThreadCpuNs() - start_; }
  BusyTimer(const BusyTimer&) = delete;
  BusyTimer& operator=(const BusyTimer&) = delete;

 private:
  uint64_t& total_;
  uint64_t start_;
};

// Messages travel in pieces this small: under every transport's eager
// limit (OpenMPI's shared memory: 4 KiB), a piece is copied whole into
// the receiver's queue when sent. A larger message would be read out of
// the sender's memory while it arrives, which fails fatally in the
// receiver when the sender has died (kill -9 of one rank).
constexpr size_t kPieceBytes = 3000;
constexpr char kMorePieces = '+';
constexpr char kLastPiece = '.';
}  // namespace

struct MpiSession::Pending {
  std::string text;
  MPI_Request request = MPI_REQUEST_NULL;
};

bool MpiAvailable() { return true; }

Result<std::unique_ptr<MpiSession>> MpiSession::Start() {
  if (!StartedByMpiLauncher()) {
    return UsageError(
        "--mpi: this process was not started by mpirun (or srun)",
        "run `mpirun -np N flashmark run ... --mpi`, or `flashmark run "
        "--hosts a,b ...`, which runs mpirun for you");
  }
  // A rank that dies must not take rank 0 with it: errors come back as
  // values (MPI_ERRORS_RETURN, below).
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) !=
      MPI_SUCCESS) {
    return RuntimeError("--mpi: MPI_Init_thread failed");
  }
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    return RuntimeError(
        "--mpi: this MPI library does not allow calls from more than one "
        "thread (MPI_THREAD_SERIALIZED)");
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::unique_ptr<MpiSession> session(new MpiSession());
  MPI_Comm_rank(MPI_COMM_WORLD, &session->rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &session->size_);
  session->host_ = HostName();
  return session;
}

MpiSession::~MpiSession() {
  Flush();
  MPI_Finalize();
}

std::vector<std::string> MpiSession::AllGather(const std::string& text) {
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(size_);
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT,
                MPI_COMM_WORLD);
  std::vector<int> offsets(size_, 0);
  int total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::string all(total, '\0');
  MPI_Allgatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(),
                 offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> texts;
  for (int r = 0; r < size_; ++r)
    texts.push_back(all.substr(offsets[r], lengths[r]));
  return texts;
}

void MpiSession::Barrier() { MPI_Barrier(MPI_COMM_WORLD); }

std::vector<MpiSession::ClockOffset> MpiSession::ClockOffsets(int rounds) {
  constexpr int kPingTag = kMessageTag + 1;
  std::vector<ClockOffset> offsets;
  if (rank_ == 0) offsets.resize(size_);
  for (int peer = 1; peer < size_; ++peer) {
    if (rank_ == 0) {
      ClockOffset best{0, INT64_MAX};
      for (int round = 0; round < rounds; ++round) {
        int64_t sent = UnixNowNs();
        int64_t theirs = 0;
        MPI_Send(&sent, 1, MPI_INT64_T, peer, kPingTag, MPI_COMM_WORLD);
        MPI_Recv(&theirs, 1, MPI_INT64_T, peer, kPingTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        const int64_t back = UnixNowNs();
        if (back - sent < best.round_trip_ns) {
          // Their clock was read about halfway through the round trip.
          best = {theirs - (sent + (back - sent) / 2), back - sent};
        }
      }
      offsets[peer] = best;
    } else if (rank_ == peer) {
      for (int round = 0; round < rounds; ++round) {
        int64_t ping = 0;
        MPI_Recv(&ping, 1, MPI_INT64_T, 0, kPingTag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        const int64_t now = UnixNowNs();
        MPI_Send(&now, 1, MPI_INT64_T, 0, kPingTag, MPI_COMM_WORLD);
      }
    }
  }
  return offsets;
}

int64_t MpiSession::Scatter(const std::vector<int64_t>& values) {
  std::vector<int64_t> all(size_, 0);
  if (rank_ == 0) {
    for (int r = 0; r < size_ && r < static_cast<int>(values.size()); ++r) {
      all[r] = values[r];
    }
  }
  int64_t mine = 0;
  MPI_Scatter(all.data(), 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, 0,
              MPI_COMM_WORLD);
  return mine;
}

void MpiSession::Send(int destination, const std::string& text) {
  const BusyTimer timer(busy_ns_);
  ReapSent();
  size_t at = 0;
  do {
    const size_t length = std::min(kPieceBytes, text.size() - at);
    auto pending = std::make_unique<Pending>();
    pending->text.reserve(length + 1);
    pending->text += at + length < text.size() ? kMorePieces : kLastPiece;
    pending->text.append(text, at, length);
    at += length;
    MPI_Isend(pending->text.data(), static_cast<int>(pending->text.size()),
              MPI_CHAR, destination, kMessageTag, MPI_COMM_WORLD,
              &pending->request);
    sent_.push_back(std::move(pending));
  } while (at < text.size());
}

std::optional<MpiMessage> MpiSession::Poll() {
  const BusyTimer timer(busy_ns_);
  ReapSent();
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kMessageTag, MPI_COMM_WORLD, &arrived, &status);
    if (arrived == 0) return std::nullopt;
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    std::string piece(static_cast<size_t>(length), '\0');
    const int source = status.MPI_SOURCE;
    if (MPI_Recv(piece.data(), length, MPI_CHAR, source, kMessageTag,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
        piece.empty()) {
      continue;
    }
    std::string& message = arriving_[source];
    message.append(piece, 1);
    if (piece[0] == kLastPiece) {
      MpiMessage whole{source, std::move(message)};
      arriving_.erase(source);
      return whole;
    }
  }
}

void MpiSession::ReapSent() {
  for (auto it = sent_.begin(); it != sent_.end();) {
    int done = 0;
    MPI_Test(&(*it)->request, &done, MPI_STATUS_IGNORE);
    it = done != 0 ? sent_.erase(it) : std::next(it);
  }
}

void MpiSession::Flush() {
  for (auto& pending : sent_) MPI_Wait(&pending->request, MPI_STATUS_IGNORE);
  sent_.clear();
}

void MpiSession::Abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; this says so to the compiler
}

#else  // built without MPI

struct MpiSession::Pending {};

bool MpiAvailable() { return false; }

Result<std::unique_ptr<MpiSession>> MpiSession::Start() {
  return UsageError(
      "--mpi: this flashmark was built without MPI",
      "install OpenMPI (apt-get install openmpi-bin libopenmpi-dev; "
      "scripts/setup.sh does) and build again");
}

// No session can exist without MPI: Start() never makes one.
MpiSession::~MpiSession() = default;
std::vector<std::string> MpiSession::AllGather(const std::string& text) {
  return {text};
}
void MpiSession::Barrier() {}
std::vector<MpiSession::ClockOffset> MpiSession::ClockOffsets(int) {
  return {ClockOffset{}};
}
int64_t MpiSession::Scatter(const std::vector<int64_t>& values) {
  return values.empty() ? 0 : values[0];
}
void MpiSession::Send(int, const std::string&) {}
std::optional<MpiMessage> MpiSession::Poll() { return std::nullopt; }
void MpiSession::ReapSent() {}
void MpiSession::Flush() {}
void MpiSession::Abort(int code) { std::_Exit(code); }

#endif

}  // namespace flashmark
