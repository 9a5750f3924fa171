#include "cluster/rank_collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <thread>

#include "analysis/run_summary.h"
#include "cluster/cluster_start.h"
#include "cluster/rank_wire.h"
#include "common/clock.h"
#include "common/units.h"

namespace flashmark {
namespace {

// How long rank 0 waits for the headers, which every rank sends at the
// same common start: beyond this a rank counts as lost.
constexpr uint64_t kHeaderWaitNs = 30'000'000'000;
// How long rank 0, interrupted, waits for a silent rank at the end.
constexpr uint64_t kInterruptedWaitNs = 300'000'000;

double MiBs(const IntervalSample& sample) {
  return sample.ReadMiBs() + sample.WriteMiBs();
}

}  // namespace

RankCollector::RankCollector(MpiSession& session,
                             std::vector<std::string> hosts, ClusterSinks sinks,
                             std::ostream* live,
                             std::chrono::nanoseconds lost_after,
                             const int64_t& start_on_rank0_clock_ns,
                             GroupStopRule stops)
    : session_(session),
      hosts_(std::move(hosts)),
      sinks_(std::move(sinks)),
      live_(live),
      lost_after_ns_(static_cast<uint64_t>(lost_after.count())),
      own_start_(start_on_rank0_clock_ns),
      stops_(stops),
      ranks_(static_cast<size_t>(session.size())),
      aligner_(ranks_.size()) {}

void RankCollector::OnStart(const RunResult& run) {
  Rank& own = ranks_[0];
  own.header = run;
  own.started = true;
  own.start_on_rank0_clock_ns = own_start_;
  own.observers = sinks_.rank_observers(0, run);
  for (RunObserver* observer : own.observers) observer->OnStart(run);
  const uint64_t begin = NowNs();
  for (Rank& rank : ranks_) rank.last_heard_ns = begin;
  for (;;) {
    Pump();
    const bool all = std::all_of(ranks_.begin(), ranks_.end(),
                                 [](const Rank& r) { return r.started; });
    if (all || NowNs() - begin > kHeaderWaitNs) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  aggregate_ = run;
  aggregate_.spec.threads = 0;
  aggregate_.environment.targets.clear();
  std::set<std::string> hosts;
  int64_t first = INT64_MAX, last = INT64_MIN;
  int started = 0;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    Rank& rank = ranks_[r];
    if (!rank.started) {
      rank.lost = true;
      continue;
    }
    ++started;
    hosts.insert(hosts_[r]);
    aggregate_.spec.threads += rank.header.spec.threads;
    aggregate_.environment.targets.insert(
        aggregate_.environment.targets.end(),
        rank.header.environment.targets.begin(),
        rank.header.environment.targets.end());
    aggregate_.start_unix_ns =
        std::min(aggregate_.start_unix_ns, rank.header.start_unix_ns);
    first = std::min(first, rank.start_on_rank0_clock_ns);
    last = std::max(last, rank.start_on_rank0_clock_ns);
  }
  std::string host_list;
  for (const std::string& host : hosts) {
    host_list += (host_list.empty() ? "" : ", ") + host;
  }
  aggregate_.environment.host = host_list;
  aggregate_.command_line =
      fmt::format("mpirun -np {} {}", ranks_.size(), run.command_line);
  aggregate_.environment.cluster =
      fmt::format("{} ranks on {} host{} ({}); start skew {:.3f} ms",
                  ranks_.size(), hosts.size(), hosts.size() == 1 ? "" : "s",
                  host_list, (last - first) / 1e6);
  if (started < session_.size()) {
    aggregate_.environment.cluster +=
        fmt::format("; {} rank{} never started", session_.size() - started,
                    session_.size() - started == 1 ? "" : "s");
  }
  aggregate_observers_ = sinks_.aggregate_observers(aggregate_);
  for (RunObserver* observer : aggregate_observers_)
    observer->OnStart(aggregate_);
}

void RankCollector::Pump() {
  while (auto message = session_.Poll()) Handle(message->source, message->text);
}

void RankCollector::Handle(int source, const std::string& text) {
  if (source <= 0 || source >= static_cast<int>(ranks_.size())) return;
  Rank& rank = ranks_[source];
  if (rank.lost || rank.ended) return;  // too late: it was given up on
  rank.last_heard_ns = NowNs();
  auto message = ParseRankMessage(text);
  if (!message.ok()) return;  // cannot happen between equal versions
  switch (message->kind) {
    case RankMessageKind::kHeader:
      rank.header = std::move(message->run);
      rank.start_on_rank0_clock_ns = message->start_on_rank0_clock_ns;
      rank.started = true;
      rank.observers = sinks_.rank_observers(source, rank.header);
      for (RunObserver* observer : rank.observers)
        observer->OnStart(rank.header);
      break;
    case RankMessageKind::kInterval:
      if (!rank.started) return;
      rank.intervals.push_back(message->sample);
      for (RunObserver* observer : rank.observers) {
        observer->OnInterval(rank.header, message->sample);
      }
      break;
    case RankMessageKind::kEnd: {
      if (!rank.started) return;
      rank.end = std::move(message->run);
      rank.mpi_ns = message->mpi_ns;
      rank.ended = true;
      const RunResult finished = FinishedRank(rank);
      for (RunObserver* observer : rank.observers) observer->OnEnd(finished);
      if (stops_.first_end) StopEveryRank();
      break;
    }
    case RankMessageKind::kStop:
      break;  // rank 0 sends those, never receives one
  }
}

void RankCollector::StopEveryRank() {
  if (stops_.stop == nullptr || stop_sent_) return;
  stop_sent_ = true;
  stops_.stop->Trip();
  for (size_t r = 1; r < ranks_.size(); ++r) {
    if (!ranks_[r].ended && !ranks_[r].lost) {
      session_.Send(static_cast<int>(r), StopMessage());
    }
  }
}

RunResult RankCollector::FinishedRank(const Rank& rank) const {
  RunResult run = rank.header;
  run.intervals = rank.intervals;
  if (rank.ended) {
    ApplyEnd(run, rank.end);
  } else {  // lost: what arrived, interrupted
    RunResult end;
    end.status = RunStatus::kInterrupted;
    end.summary.elapsed_seconds =
        run.intervals.empty() ? 0 : run.intervals.back().end_ns / 1e9;
    end.end_unix_ns = run.start_unix_ns +
                      static_cast<int64_t>(end.summary.elapsed_seconds * 1e9);
    ApplyEnd(run, end);
  }
  return run;
}

void RankCollector::NoteLost(uint64_t silence_ns, bool at_end) {
  const uint64_t now = NowNs();
  for (size_t r = 1; r < ranks_.size(); ++r) {
    Rank& rank = ranks_[r];
    if (rank.lost || rank.ended || now - rank.last_heard_ns < silence_ns) {
      continue;
    }
    rank.lost = true;
    if (live_ != nullptr) {
      *live_ << fmt::format(
          "  {}: nothing heard for {}{}; counted as lost\n",
          RankName(static_cast<int>(r), hosts_[r]),
          FormatDuration(std::chrono::nanoseconds(now - rank.last_heard_ns)),
          at_end ? " after rank 0 ended" : "");
    }
    if (rank.started) {
      const RunResult finished = FinishedRank(rank);
      for (RunObserver* observer : rank.observers) observer->OnEnd(finished);
    }
  }
}

void RankCollector::OnInterval(const RunResult& /*run*/,
                               const IntervalSample& sample) {
  Rank& own = ranks_[0];
  own.intervals.push_back(sample);
  own.last_heard_ns = NowNs();
  for (RunObserver* observer : own.observers) {
    observer->OnInterval(own.header, sample);
  }
  Pump();
  NoteLost(lost_after_ns_, false);
  EmitAggregate();
}

std::vector<const std::vector<IntervalSample>*> RankCollector::RankIntervals()
    const {
  std::vector<const std::vector<IntervalSample>*> parts;
  for (const Rank& rank : ranks_) parts.push_back(&rank.intervals);
  return parts;
}

void RankCollector::EmitAggregate() {
  for (;;) {
    for (const Rank& rank : ranks_) {
      if (rank.lost) return;
    }
    auto lined = aligner_.Next(RankIntervals());
    if (!lined) return;
    aggregate_.intervals.push_back(lined->total);
    for (RunObserver* observer : aggregate_observers_) {
      observer->OnInterval(aggregate_, lined->total);
    }
    PrintSpread(lined->parts);
    if (stops_.aggregate != nullptr &&
        stops_.aggregate->ShouldStop(lined->total)) {
      StopEveryRank();
    }
  }
}

void RankCollector::PrintSpread(const std::vector<IntervalSample>& parts) {
  if (live_ == nullptr || parts.size() < 2) return;
  size_t slow = 0, fast = 0;
  for (size_t r = 1; r < parts.size(); ++r) {
    if (MiBs(parts[r]) < MiBs(parts[slow])) slow = r;
    if (MiBs(parts[r]) > MiBs(parts[fast])) fast = r;
  }
  *live_ << fmt::format(
      "          slowest {} {:.1f} MiB/s {} IOPS, fastest {} {:.1f} MiB/s {} "
      "IOPS\n",
      RankName(static_cast<int>(slow), hosts_[slow]), MiBs(parts[slow]),
      FormatCount(parts[slow].Iops()),
      RankName(static_cast<int>(fast), hosts_[fast]), MiBs(parts[fast]),
      FormatCount(parts[fast].Iops()));
}

void RankCollector::OnEnd(const RunResult& run) {
  Rank& own = ranks_[0];
  own.mpi_ns = session_.busy_ns();  // the run's, not the wait for the ends
  own.intervals = run.intervals;
  own.end = run;
  own.ended = true;
  for (RunObserver* observer : own.observers) observer->OnEnd(run);
  StopEveryRank();
  // An interrupt reached every rank at once (mpirun passes SIGINT and
  // SIGTERM on, and ends the job with SIGTERM when a rank died, SIGKILL a
  // second later): the live ones end within moments, and what they sent
  // must be stored before that second is over.
  const uint64_t silence = run.status == RunStatus::kInterrupted
                               ? std::min(lost_after_ns_, kInterruptedWaitNs)
                               : lost_after_ns_;
  for (;;) {
    Pump();
    NoteLost(silence, true);
    const bool done =
        std::all_of(ranks_.begin(), ranks_.end(),
                    [](const Rank& r) { return r.ended || r.lost; });
    if (done) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EmitAggregate();
  FinishAggregate(run);
}

void RankCollector::FinishAggregate(const RunResult& own) {
  // What any rank measured beyond the common intervals: the partial tail.
  const std::optional<IntervalSample> tail = aligner_.Tail(RankIntervals());
  if (tail || aggregate_.intervals.empty()) {
    IntervalSample last;
    last.index = static_cast<uint32_t>(aggregate_.intervals.size());
    last.partial = true;
    aggregate_.intervals.push_back(tail.value_or(last));
    for (RunObserver* observer : aggregate_observers_) {
      observer->OnInterval(aggregate_, aggregate_.intervals.back());
    }
  }

  double elapsed = 0, cpu_user = 0, cpu_system = 0;
  double first_end = 1e300, last_end = 0;
  RunStatus status = own.status;
  std::optional<RunError> error;
  std::string lost;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    const Rank& rank = ranks_[r];
    const std::string name = RankName(static_cast<int>(r), hosts_[r]);
    if (rank.lost) {
      lost += (lost.empty() ? "" : ", ") + name;
      if (status == RunStatus::kOk) status = RunStatus::kInterrupted;
      continue;
    }
    const RunResult& end = rank.end;
    elapsed = std::max(elapsed, end.summary.elapsed_seconds);
    first_end = std::min(first_end, end.summary.elapsed_seconds);
    last_end = std::max(last_end, end.summary.elapsed_seconds);
    cpu_user += end.summary.cpu_user_seconds;
    cpu_system += end.summary.cpu_system_seconds;
    aggregate_.end_unix_ns = std::max(aggregate_.end_unix_ns, end.end_unix_ns);
    if (end.status == RunStatus::kFailed) {
      status = RunStatus::kFailed;
      if (!error && end.error) {
        error = *end.error;
        error->message = name + ": " + error->message;
      }
    } else if (end.status == RunStatus::kInterrupted &&
               status == RunStatus::kOk) {
      status = RunStatus::kInterrupted;
    }
  }
  if (last_end > 0) {
    aggregate_.environment.cluster +=
        fmt::format("; first rank finished at {:.3f} s, last at {:.3f} s",
                    first_end, last_end);
  }
  if (!lost.empty()) aggregate_.environment.cluster += "; lost: " + lost;
  // What following the run through MPI cost each output thread.
  // (per interval a rank sampled: a stalled rank's sample counts once)
  const auto per_interval = [](const Rank& rank) {
    return rank.intervals.empty() ? 0 : rank.mpi_ns / rank.intervals.size();
  };
  if (ranks_.size() > 1 && !ranks_[0].intervals.empty()) {
    uint64_t others = 0;
    for (size_t r = 1; r < ranks_.size(); ++r) {
      others = std::max(others, per_interval(ranks_[r]));
    }
    aggregate_.environment.cluster += fmt::format(
        "; MPI per interval: rank 0 {}, the others at most {}",
        FormatDuration(std::chrono::nanoseconds(per_interval(ranks_[0]))),
        FormatDuration(std::chrono::nanoseconds(others)));
  }
  aggregate_.environment.engine_setup = own.environment.engine_setup;
  aggregate_.summary = SummarizeRun(aggregate_.intervals, elapsed);
  aggregate_.summary.cpu_user_seconds = cpu_user;
  aggregate_.summary.cpu_system_seconds = cpu_system;
  aggregate_.status = status;
  aggregate_.error = error;
  for (RunObserver* observer : aggregate_observers_)
    observer->OnEnd(aggregate_);
}

}  // namespace flashmark
