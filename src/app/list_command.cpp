#include <fmt/format.h>

#include <ctime>
#include <iostream>

#include "analysis/cancel.h"
#include "analysis/run_analysis.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "app/store_commands.h"
#include "app/trace_commands.h"
#include "common/json_text.h"
#include "common/local_time.h"
#include "common/units.h"
#include "config/tag_options.h"
#include "report/console_reporter.h"
#include "report/headline_text.h"
#include "report/list_json.h"
#include "report/text_escape.h"
#include "system/interrupt_watch.h"

namespace flashmark {
namespace {

// "2026-11-30" or "2026-11-30T14:05" (local time) as unix nanoseconds.
Result<int64_t> ParseDate(const std::string& option, const std::string& text) {
  std::tm local{};
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M", &local);
  if (end == nullptr || *end != '\0') {
    local = {};
    end = strptime(text.c_str(), "%Y-%m-%d", &local);
  }
  if (end == nullptr || *end != '\0') {
    return UsageError(fmt::format("{}: \"{}\" is not a date", option, text),
                      fmt::format("try {} 2026-11-30 or {} 2026-11-30T14:00",
                                  option, option));
  }
  local.tm_isdst = -1;
  return static_cast<int64_t>(std::mktime(&local)) * 1000000000;
}

// Each run's headline by the defaults every command uses (none for a run
// without a full interval); its intervals' counters are read for it.
Result<std::vector<std::optional<Headline>>> Headlines(
    RunStore& store, const std::vector<StoredRun>& runs,
    const CancelToken& cancel) {
  std::vector<std::optional<Headline>> headlines;
  for (const StoredRun& listed : runs) {
    auto stored = store.LoadRun(listed.id, false);
    if (!stored.ok()) return stored.error();
    auto headline = DefaultHeadline(stored->run, cancel);
    if (!headline.ok() && IsInterruption(headline.error()))
      return headline.error();
    headlines.push_back(headline.ok()
                            ? std::optional<Headline>(std::move(*headline))
                            : std::nullopt);
  }
  return headlines;
}

}  // namespace

int ExecuteList(const StoreCommandOptions& options) {
  if (options.campaigns) return ExecuteListCampaigns(options);
  if (options.traces) return ExecuteListTraces(options);
  RunFilter filter;
  auto tags = ParseTagOptions(options.tags);
  if (!tags.ok()) return PrintError(tags.error());
  filter.tags = std::move(*tags);
  filter.label = options.label;
  if (options.status) {
    const std::string& s = *options.status;
    if (s == "ok")
      filter.status = RunStatus::kOk;
    else if (s == "failed")
      filter.status = RunStatus::kFailed;
    else if (s == "interrupted")
      filter.status = RunStatus::kInterrupted;
    else if (s == "running")
      filter.status = RunStatus::kRunning;
    else {
      return PrintError(
          UsageError(fmt::format("--status: \"{}\" is not a run status", s),
                     "use ok, failed, interrupted or running"));
    }
  }
  if (options.since) {
    auto since = ParseDate("--since", *options.since);
    if (!since.ok()) return PrintError(since.error());
    filter.since_unix_ns = *since;
  }
  if (options.until) {
    auto until = ParseDate("--until", *options.until);
    if (!until.ok()) return PrintError(until.error());
    filter.until_unix_ns = *until;
  }
  // SIGINT/SIGTERM end a long read with 130.
  const InterruptWatch watch;
  auto store = OpenStoreToRead(options.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  auto runs = store->ListRuns(filter);
  if (!runs.ok()) {
    return PrintError(watch.interrupted() ? InterruptedError() : runs.error());
  }
  if (options.ids) {
    for (const StoredRun& stored : *runs) std::cout << stored.id << "\n";
    return 0;
  }

  auto headlines = Headlines(*store, *runs, CancelToken(watch.flag()));
  if (!headlines.ok()) {
    return PrintError(watch.interrupted() ? InterruptedError()
                                          : headlines.error());
  }
  if (options.json) {
    std::cout << JsonText(ListJson(*runs, *headlines), 1) << "\n";
    return 0;
  }
  if (runs->empty()) {
    std::cout << "no runs match in " << store->path() << "\n";
    return 0;
  }
  std::cout << fmt::format(
      "{:>4}  {:<16}  {:<11}  {:<9}  {:<34}  {:>8}  {:<30}  {}\n", "ID",
      "STARTED", "STATUS", "SOURCE", "WORKLOAD", "TIME", "HEADLINE MEDIAN",
      "LABEL / TAGS");
  for (size_t i = 0; i < runs->size(); ++i) {
    const StoredRun& stored = (*runs)[i];
    const std::optional<Headline>& headline = (*headlines)[i];
    const RunResult& run = stored.run;
    const JobSpec& spec = run.spec;
    const std::string workload = fmt::format(
        "{} {} QD{}x{}",
        spec.profile.empty()
            ? ModeName(spec.mode) + " " + BlockSizesText(spec.block_sizes)
            : "profile " + spec.profile.name,
        spec.engine, spec.iodepth, spec.threads);
    std::string labels = stored.labels.label;
    for (const auto& [key, value] : stored.labels.tags) {
      labels += (labels.empty() ? "" : " ") + key + "=" + value;
    }
    labels = TerminalText(labels);  // shown, never obeyed, by a terminal
    // A run that ended before its first interval has no time to show.
    const std::string time =
        run.summary.elapsed_seconds > 0
            ? FormatDuration(std::chrono::nanoseconds(
                  static_cast<int64_t>(run.summary.elapsed_seconds * 1e9)))
            : "-";
    std::cout << fmt::format(
        "{:>4}  {:<16}  {:<11}  {:<9}  {:<34}  {:>8}  {:<30}  {}\n", stored.id,
        LocalTimeText(run.start_unix_ns, "%Y-%m-%d %H:%M"),
        RunStatusName(run.status), TerminalText(stored.labels.source), workload,
        time,
        headline ? HeadlineCell(*headline, DescribeMetric(HeadlineMetric(run)))
                 : "-",
        labels);
  }
  std::vector<const RunResult*> listed;
  for (const StoredRun& stored : *runs) listed.push_back(&stored.run);
  std::cout << HeadlineRuleNote(listed) << "\n";
  return 0;
}

}  // namespace flashmark
