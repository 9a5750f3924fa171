#include "campaign/targets_at_once.h"

#include <fmt/format.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "analysis/run_summary.h"
#include "common/signals.h"
#include "common/version.h"
#include "config/campaign_keys.h"
#include "model/interval_aligner.h"
#include "report/console_reporter.h"
#include "system/background_process.h"
#include "system/external_command.h"

namespace flashmark {
namespace {

using Clock = std::chrono::steady_clock;

// The last "error: ..." line a part printed, for the cell's error.
std::string ErrorLine(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string line, error;
  while (std::getline(in, line)) {
    if (line.rfind("error: ", 0) == 0) error = line.substr(7);
  }
  return error;
}

// The newest run of the cell measuring `target`, or 0.
int64_t FindPartRun(RunStore& store, const Tags& cell_tags,
                    const std::string& target) {
  RunFilter filter;
  filter.tags = cell_tags;
  filter.tags.emplace_back(kPartTag, target);
  auto runs = store.ListRuns(filter);
  return runs.ok() && !runs->empty() ? runs->back().id : 0;
}

// The parts' intervals, for an IntervalAligner.
std::vector<const std::vector<IntervalSample>*> PartIntervals(
    const std::vector<StoredRun>& parts) {
  std::vector<const std::vector<IntervalSample>*> intervals;
  for (const StoredRun& part : parts) intervals.push_back(&part.run.intervals);
  return intervals;
}

// One line per interval that every part has measured: the sum, then each
// target's share.
void PrintSummedLine(const IntervalAligner::Lined& lined,
                     const std::vector<std::string>& targets,
                     std::ostream& out) {
  const IntervalSample& total = lined.total;
  std::string shares;
  for (size_t p = 0; p < lined.parts.size(); ++p) {
    const IntervalSample& part = lined.parts[p];
    shares += fmt::format("{}{} {:.1f}", p ? ", " : "", targets[p],
                          part.ReadMiBs() + part.WriteMiBs());
  }
  out << fmt::format(
      "[{:>6}] all targets: read {:.1f} MiB/s  write {:.1f} MiB/s  {} IOPS  "
      "({} MiB/s)\n",
      FormatDuration(std::chrono::nanoseconds(total.end_ns)), total.ReadMiBs(),
      total.WriteMiBs(), FormatCount(total.Iops()), shares);
}

Result<RunResult> Aggregate(const JobSpec& spec,
                            const std::vector<StoredRun>& parts,
                            const std::string& command_line) {
  RunResult total;
  total.spec = spec;
  total.spec.threads = spec.threads * static_cast<int>(parts.size());
  total.spec.seed = parts[0].run.spec.seed;
  total.command_line = command_line;
  total.tool_version = kToolVersion;
  total.git_revision = kGitRevision;
  total.environment = parts[0].run.environment;
  total.environment.targets.clear();
  total.start_unix_ns = parts[0].run.start_unix_ns;
  double elapsed = 0;
  for (const auto& part : parts) {
    const RunResult& run = part.run;
    total.environment.targets.insert(total.environment.targets.end(),
                                     run.environment.targets.begin(),
                                     run.environment.targets.end());
    total.start_unix_ns = std::min(total.start_unix_ns, run.start_unix_ns);
    total.end_unix_ns = std::max(total.end_unix_ns, run.end_unix_ns);
    elapsed = std::max(elapsed, run.summary.elapsed_seconds);
    total.summary.cpu_user_seconds += run.summary.cpu_user_seconds;
    total.summary.cpu_system_seconds += run.summary.cpu_system_seconds;
    if (run.status == RunStatus::kFailed && !total.error)
      total.error = run.error;
  }
  // Lined up interval by interval, then what any part measured beyond the
  // common intervals as the partial tail, so the totals count every IO.
  IntervalAligner aligner(parts.size());
  while (auto lined = aligner.Next(PartIntervals(parts))) {
    total.intervals.push_back(std::move(lined->total));
  }
  if (auto tail = aligner.Tail(PartIntervals(parts))) {
    total.intervals.push_back(std::move(*tail));
  }
  const double cpu_user = total.summary.cpu_user_seconds;
  const double cpu_system = total.summary.cpu_system_seconds;
  total.summary = SummarizeRun(total.intervals, elapsed);
  total.summary.cpu_user_seconds = cpu_user;
  total.summary.cpu_system_seconds = cpu_system;
  total.status = RunStatus::kOk;
  for (const auto& part : parts) {
    if (part.run.status == RunStatus::kFailed)
      total.status = RunStatus::kFailed;
    if (part.run.status == RunStatus::kInterrupted &&
        total.status == RunStatus::kOk) {
      total.status = RunStatus::kInterrupted;
    }
  }
  return total;
}

}  // namespace

Result<MeasuredRun> RunTargetsAtOnce(const TargetsAtOnceSettings& s,
                                     std::ostream& console) {
  auto built = BuildJobSpec(s.options);
  if (!built.ok()) return built.error();
  auto store = RunStore::Open(s.database);
  if (!store.ok()) return store.error();
  char log_directory[] = "/tmp/flashmark-parts-XXXXXX";
  if (mkdtemp(log_directory) == nullptr) {
    return RuntimeError(
        "cannot create a directory for the target runs' output in /tmp");
  }
  struct RemoveAtExit {
    std::string path;
    ~RemoveAtExit() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } remove_logs{log_directory};

  const std::vector<std::string>& targets = s.options.targets;
  console << fmt::format("{}  on {} targets at once, {} thread{} each\n",
                         DescribeWorkload(built->spec), targets.size(),
                         built->spec.threads,
                         built->spec.threads == 1 ? "" : "s");
  std::vector<BackgroundProcess> parts;
  std::vector<std::string> logs;
  const std::string own_path = ProgramPath();
  const std::string program = own_path.empty() ? "flashmark" : own_path;
  for (const std::string& target : targets) {
    std::vector<std::string> argv = {program, "run", target};
    for (auto& arg : WorkloadArguments(s.options))
      argv.push_back(std::move(arg));
    for (const auto& device : s.options.allow_destroy) {
      argv.insert(argv.end(), {"--allow-destroy", device});
    }
    argv.insert(argv.end(), {"--db", s.database, "-q", "--label",
                             fmt::format("{} [{}]", s.labels.label, target)});
    for (const auto& [key, value] : s.labels.tags) {
      argv.insert(argv.end(), {"--tag", key + "=" + value});
    }
    argv.insert(argv.end(), {"--tag", std::string(kPartTag) + "=" + target});
    logs.push_back(
        fmt::format("{}/part-{}.log", log_directory, parts.size() + 1));
    auto started = BackgroundProcess::Start(argv, logs.back());
    if (!started.ok()) return started.error();
    parts.push_back(std::move(*started));
  }

  // Follow the parts: pass interrupts on, print the summed intervals.
  std::vector<int64_t> ids(parts.size(), 0);
  IntervalAligner printed(parts.size());
  auto next_poll = Clock::now();
  for (bool all_ended = false; !all_ended;) {
    if (WaitForInterrupt(200'000'000) != 0) {
      for (const auto& part : parts) part.Signal(SIGINT);
    }
    all_ended = true;
    for (auto& part : parts) all_ended = part.Poll() && all_ended;
    if (s.options.quiet || (Clock::now() < next_poll && !all_ended)) continue;
    next_poll = Clock::now() + std::chrono::seconds(1);
    std::vector<StoredRun> loaded;
    for (size_t p = 0; p < parts.size(); ++p) {
      if (ids[p] == 0) ids[p] = FindPartRun(*store, s.labels.tags, targets[p]);
      auto run =
          ids[p] ? store->LoadRun(ids[p], false) : Result<StoredRun>(Error{});
      if (!run.ok()) break;
      loaded.push_back(std::move(*run));
    }
    if (loaded.size() != parts.size()) continue;
    while (auto lined = printed.Next(PartIntervals(loaded))) {
      PrintSummedLine(*lined, targets, console);
    }
  }

  std::vector<StoredRun> finished;
  for (size_t p = 0; p < parts.size(); ++p) {
    if (ids[p] == 0) ids[p] = FindPartRun(*store, s.labels.tags, targets[p]);
    if (ids[p] == 0 && parts[p].exit_code() == kInterruptedExit) {
      return InterruptedError(fmt::format(
          "target {}: interrupted before its run began (during layout)",
          targets[p]));
    }
    if (ids[p] == 0) {
      const std::string said = ErrorLine(logs[p]);
      return RuntimeError(fmt::format(
          "target {}: {}", targets[p],
          said.empty() ? fmt::format("the run exited with status {}",
                                     parts[p].exit_code())
                       : said));
    }
    auto run = store->LoadRun(ids[p], true);
    if (!run.ok()) return run.error();
    console << fmt::format(
        "  target {}: run {}, {}, median read {:.1f} write {:.1f} MiB/s\n",
        targets[p], ids[p], RunStatusName(run->run.status),
        run->run.summary.read_mibs.median, run->run.summary.write_mibs.median);
    finished.push_back(std::move(*run));
  }
  // What ran: one `flashmark run` per target at once, each exactly as it
  // ran (its own seed), which is what repeats the aggregate.
  std::string commands =
      fmt::format("# {}: one run per target, at once\n", s.command_line);
  for (const StoredRun& part : finished) {
    commands +=
        ReproduceCommand(part.run.spec, part.labels.label, part.labels.tags) +
        " &\n";
  }
  commands += "wait";
  auto total = Aggregate(built->spec, finished, commands);
  if (!total.ok()) return total.error();
  PrintSummary(*total, console);
  StoredRun aggregate{0, s.labels, std::move(*total)};
  aggregate.labels.tags.emplace_back(kPartTag, "all");
  auto aggregate_id = store->InsertRuns(std::span(&aggregate, 1), true);
  if (!aggregate_id.ok()) return aggregate_id.error();
  return MeasuredRun{std::move(aggregate.run), aggregate_id->front(), false};
}

}  // namespace flashmark
