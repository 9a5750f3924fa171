#include "app/history_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <utility>

#include "analysis/run_analysis.h"
#include "app/analysis_options.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "common/atomic_file.h"
#include "common/json_text.h"
#include "common/local_time.h"
#include "common/units.h"
#include "model/io_pattern.h"
#include "report/group_key.h"
#include "report/headline_text.h"
#include "report/run_history.h"
#include "report/text_escape.h"
#include "system/interrupt_watch.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

// --by, read: KEY=VALUE pairs select runs, bare KEYs split them.
struct HistorySelection {
  std::vector<std::pair<std::string, std::string>> equal;
  std::vector<std::string> split;
};

Result<HistorySelection> ParseHistoryBy(const std::vector<std::string>& items) {
  HistorySelection selection;
  for (const std::string& item : items) {
    size_t start = 0;
    while (start <= item.size()) {
      const size_t comma = std::min(item.find(',', start), item.size());
      const std::string part = item.substr(start, comma - start);
      start = comma + 1;
      const size_t equals = part.find('=');
      if (part.empty() || equals == 0 ||
          (equals != std::string::npos && equals + 1 == part.size())) {
        return UsageError(
            fmt::format("--by \"{}\": \"{}\" is neither KEY=VALUE nor KEY",
                        TerminalText(item), TerminalText(part)),
            "e.g. --by device=nvme-a,mode=rndwr (those runs) or --by device "
            "(a history per device)");
      }
      if (equals == std::string::npos) {
        selection.split.push_back(part);
      } else {
        selection.equal.emplace_back(part.substr(0, equals),
                                     part.substr(equals + 1));
      }
    }
  }
  return selection;
}

std::string HistorySelectionName(const HistorySelection& selection) {
  std::string name;
  for (const auto& [key, value] : selection.equal)
    name += (name.empty() ? "" : " ") + key + "=" + value;
  return name;
}

std::string RunLabelText(const StoredRun& stored) {
  std::string text = stored.labels.label;
  for (const auto& [key, value] : stored.labels.tags)
    text += (text.empty() ? "" : " ") + key + "=" + value;
  return text;
}

std::string HistoryWorkloadText(const JobSpec& spec) {
  return fmt::format("{} {} {} QD{}x{}", ModeName(spec.mode),
                     BlockSizesText(spec.block_sizes), spec.engine,
                     spec.iodepth, spec.threads);
}

}  // namespace

CLI::App* AddHistoryCommand(CLI::App& app, HistoryCommandOptions& o) {
  CLI::App* command = app.add_subcommand(
      "history",
      "Each run's headline over time, with the changes across runs "
      "(regressions named with the run where they start)");
  AddDatabaseOption(command, o.db);
  command
      ->add_option("--by", o.by,
                   "KEY=VALUE[,KEY=VALUE]: the runs whose tag (or run "
                   "parameter) KEY is VALUE; KEY alone: one history per "
                   "value (repeat)")
      ->allow_extra_args(false);
  auto text = [command](const char* name, std::optional<std::string>& slot,
                        const char* help) {
    command->add_option_function<std::string>(
        name, [&slot](const std::string& value) { slot = value; }, help);
  };
  text("--warmup", o.warmup,
       "skip this long (1800s), none, or find it: auto [each run's own]");
  text("--metric", o.metric, "write_mibs read_mibs mibs iops [the runs' own]");
  text("--fail-on-regression", o.fail_on_regression,
       "PERCENT: exit 1 when the newest run is a regression larger than this "
       "(5%)");
  command->add_flag("--json", o.json, "machine-readable output");
  text("--html", o.html, "write the history page (chart and tables) to FILE");
  text("--title", o.title, "the page's title [flashmark history]");
  return command;
}

int ExecuteHistory(const HistoryCommandOptions& o) {
  auto selection = ParseHistoryBy(o.by);
  if (!selection.ok()) return PrintError(selection.error());
  std::optional<double> threshold;
  if (o.fail_on_regression) {
    std::string text = *o.fail_on_regression;
    if (!text.empty() && text.back() != '%') text += '%';
    auto percent = ParsePercent(text);
    if (!percent.ok()) {
      return PrintError(UsageError(
          fmt::format("--fail-on-regression \"{}\" is not a percentage in "
                      "(0, 100]",
                      TerminalText(*o.fail_on_regression)),
          "e.g. --fail-on-regression 5% (exit 1 when the newest run is more "
          "than 5 % worse than its level)"));
    }
    threshold = *percent;
  }
  std::optional<OutputPath> html;
  if (o.html) {
    auto checked = CheckOutputPath("--html", *o.html, OutputKind::kDocument);
    if (!checked.ok()) return PrintError(checked.error());
    html = std::move(*checked);
  }
  const InterruptWatch watch;
  const auto fail = [&watch](const Error& error) {
    return PrintError(watch.interrupted() ? InterruptedError() : error);
  };
  auto store = OpenStoreToRead(o.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  RunFilter filter;
  filter.status = RunStatus::kOk;
  auto listed = store->ListRuns(filter);
  if (!listed.ok()) return fail(listed.error());

  // Select, then group by the bare keys; each key must name something.
  std::map<std::string, bool> key_seen;
  std::map<std::string, std::vector<const StoredRun*>> groups;
  for (const StoredRun& stored : *listed) {
    bool selected = true;
    for (const auto& [key, value] : selection->equal) {
      const auto own = GroupValue(stored, key);
      key_seen[key] = key_seen[key] || own.has_value();
      selected = selected && own && *own == value;
    }
    std::string name = HistorySelectionName(*selection);
    for (const std::string& key : selection->split) {
      const auto own = GroupValue(stored, key);
      key_seen[key] = key_seen[key] || own.has_value();
      if (!own) selected = false;
      if (own) name += (name.empty() ? "" : " ") + key + "=" + *own;
    }
    if (selected) groups[name.empty() ? "all runs" : name].push_back(&stored);
  }
  for (const auto& [key, seen] : key_seen) {
    if (seen) continue;
    return PrintError(UsageError(
        fmt::format("--by: no finished run has a tag \"{}\", and no run "
                    "parameter is called so",
                    TerminalText(key)),
        fmt::format("tag runs with `flashmark tag RUN {}=VALUE`, or use a "
                    "parameter: {}",
                    TerminalText(key), GroupParameterNames())));
  }
  if (groups.empty()) {
    return PrintError(UsageError(
        o.by.empty()
            ? fmt::format("no finished run in {}", store->path())
            : fmt::format("no finished run matches --by {}",
                          TerminalText(HistorySelectionName(*selection))),
        "see `flashmark list` for the runs, their tags and parameters"));
  }

  std::vector<RunHistory> histories;
  std::vector<std::string> notes, override_notes;
  for (auto& [name, members] : groups) {
    std::stable_sort(members.begin(), members.end(),
                     [](const StoredRun* a, const StoredRun* b) {
                       return a->run.start_unix_ns < b->run.start_unix_ns;
                     });
    if (auto d = FindWorkloadDifference(members, ""); d) {
      return PrintError(UsageError(
          fmt::format("runs {} and {} of the history \"{}\" differ in {} "
                      "({}, {}): a history follows one workload",
                      d->first_run, d->other_run, TerminalText(name),
                      d->parameter, d->first_value, d->other_value),
          fmt::format("narrow it with --by {}={}, or make one history per "
                      "value with --by {}",
                      d->parameter, d->first_value, d->parameter)));
    }
    if (SeveralTools(members)) {
      return PrintError(UsageError(
          fmt::format("the history \"{}\" mixes runs of several tools "
                      "(flashmark, fio, sysbench): their figures are not one "
                      "series",
                      TerminalText(name)),
          "one history per tool: --by tool"));
    }
    RunHistory history;
    history.name = name;
    history.workload = HistoryWorkloadText(members.front()->run.spec);
    history.fail_threshold = threshold;
    std::optional<Metric> metric;
    int64_t metric_run = 0;
    std::optional<AnalysisOptions> given;  // when --warmup says the rule
    std::vector<const RunResult*> judged;
    for (const StoredRun* member : members) {
      auto stored = store->LoadRun(member->id, false);
      if (!stored.ok()) return fail(stored.error());
      auto options =
          BuildAnalysisOptions(stored->run, o.warmup, o.metric, std::nullopt,
                               std::nullopt, std::nullopt);
      if (!options.ok()) return PrintError(options.error());
      const MetricInfo info = DescribeMetric(options->metric);
      if (info.unit != "MiB/s" && info.unit != "IOPS") {
        return PrintError(UsageError(
            fmt::format("--metric {}: a history follows each run's headline, "
                        "a throughput or IOPS figure",
                        *o.metric),
            "use --metric write_mibs, read_mibs, mibs or iops"));
      }
      if (metric && *metric != options->metric) {
        return PrintError(UsageError(
            fmt::format("the runs of \"{}\" are headlined by different "
                        "metrics ({} for run {}, {} for run {})",
                        TerminalText(name), DescribeMetric(*metric).name,
                        metric_run, info.name, member->id),
            "pick one: --metric iops (or write_mibs, read_mibs, mibs)"));
      }
      metric = options->metric;
      metric_run = member->id;
      AddAnalysisOverrideNotes(stored->run, o.warmup, o.metric, std::nullopt,
                               std::nullopt, std::nullopt, override_notes);
      if (o.warmup) given = *options;
      options->cancel = CancelToken(watch.flag());
      auto headline = RunHeadline(stored->run, *options);
      if (!headline.ok()) {
        if (IsInterruption(headline.error())) return fail(headline.error());
        notes.push_back(fmt::format("run {} has no headline ({}): left out",
                                    member->id, headline.error().message));
        continue;
      }
      history.runs.push_back({member->id, member->run.start_unix_ns,
                              RunLabelText(*member),
                              headline->figure.median / info.scale});
      judged.push_back(&member->run);
    }
    if (history.runs.empty()) continue;
    history.metric = DescribeMetric(*metric);
    history.rule = given
                       ? HeadlineRuleNote(given->warmup, given->warmup_seconds)
                       : HeadlineRuleNote(judged);
    JudgeHistory(history);
    histories.push_back(std::move(history));
  }
  if (histories.empty()) {
    return PrintError(UsageError("no selected run has a headline figure",
                                 "a run needs a full interval after its "
                                 "warm-up; see `flashmark list`"));
  }

  bool fails = false;
  for (const RunHistory& h : histories) fails = fails || h.fails;
  if (html) {
    const std::string page =
        HistoryPage(histories, o.title.value_or("flashmark history"),
                    "Generated " + UtcNowText());
    if (Status written = WriteFileAtomically(html->real, page); !written.ok())
      return PrintError(written.error());
  }
  if (o.json) {
    std::cout << JsonText(HistoryJson(histories), 1) << "\n";
    return fails ? 1 : 0;
  }
  for (const std::string& note : notes) std::cout << "note: " << note << "\n";
  PrintOverrideNotes(override_notes, std::cout);
  for (size_t i = 0; i < histories.size(); ++i)
    std::cout << (i > 0 ? "\n" : "") << HistoryText(histories[i]);
  if (html) std::cout << "wrote " << *o.html << "\n";
  return fails ? 1 : 0;
}

}  // namespace flashmark
