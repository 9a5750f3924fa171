#include "app/compare_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "analysis/compare.h"
#include "analysis/comparison_unit.h"
#include "analysis/run_analysis.h"
#include "analysis/telemetry_summary.h"
#include "app/analysis_options.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "common/json_text.h"
#include "common/units.h"
#include "report/compare_json.h"
#include "report/console_reporter.h"
#include "report/group_key.h"
#include "report/headline_text.h"
#include "report/telemetry_text.h"
#include "report/text_escape.h"
#include "system/interrupt_watch.h"

namespace flashmark {
namespace {

std::string ModePhrase(IoMode mode) {
  switch (mode) {
    case IoMode::kRndRd:
      return "random-read";
    case IoMode::kRndWr:
      return "random-write";
    case IoMode::kRndRw:
      return "mixed random";
    case IoMode::kSeqRd:
      return "sequential-read";
    case IoMode::kSeqWr:
      return "sequential-write";
    case IoMode::kSeqRewr:
      return "sequential-rewrite";
  }
  return "";
}

std::string Figure(double value, const std::string& unit) {
  if (unit == "ns") return FormatLatency(value);
  if (unit == "IOPS") return FormatCount(value);
  return fmt::format("{:.1f}", value);
}

}  // namespace

CLI::App* AddCompareCommand(CLI::App& app, CompareOptions& o) {
  CLI::App* command = app.add_subcommand(
      "compare",
      "Runs or tag groups against the first, with confidence intervals");
  AddDatabaseOption(command, o.db);
  command->add_option("RUN", o.runs, "run ids; the first is the baseline")
      ->required();
  command->add_option_function<std::string>(
      "--by", [&o](const std::string& v) { o.by = v; },
      "group runs by this tag (e.g. device); the first run's group is the "
      "baseline");
  command->add_option_function<std::string>(
      "--warmup", [&o](const std::string& v) { o.warmup = v; },
      "skip this long (1800s), none, or find it: auto [auto]");
  command
      ->add_option("--price", o.prices,
                   "NAME=AMOUNT: what the device of a run or group costs (any "
                   "currency; NAME as shown, or a run id), over its price tag "
                   "(repeat)")
      ->allow_extra_args(false);  // one value each time: RUN stays a RUN
  command->add_flag("--json", o.json, "machine-readable output");
  return command;
}

int ExecuteCompare(const CompareOptions& o) {
  std::vector<int64_t> ids;
  for (const auto& text : o.runs) {
    auto id = ParseRunId(text);
    if (!id.ok()) return PrintError(id.error());
    ids.push_back(*id);
  }
  if (ids.size() < 2 && !o.by) {
    return PrintError(
        UsageError("compare needs at least two runs",
                   "e.g. `flashmark compare 3 4`, or group with --by device"));
  }
  // --price NAME=AMOUNT, checked before anything is read.
  std::vector<std::pair<std::string, Price>> prices;
  for (const std::string& text : o.prices) {
    const size_t equals = text.rfind('=');
    const std::optional<Price> amount =
        equals == std::string::npos ? std::nullopt
                                    : ParsePrice(text.substr(equals + 1));
    if (equals == 0 || !amount) {
      return PrintError(UsageError(
          fmt::format("--price \"{}\" is not NAME=AMOUNT", TerminalText(text)),
          "e.g. --price ssd-a=350 (a group or label as shown) or --price "
          "3=\"USD 350\" (run 3); AMOUNT a number >= 0, with its currency "
          "if you like"));
    }
    prices.emplace_back(text.substr(0, equals), *amount);
  }
  // SIGINT/SIGTERM end a long comparison with 130 (reads and computing stop).
  const InterruptWatch watch;
  const auto fail = [&watch](const Error& error) {
    return PrintError(watch.interrupted() ? InterruptedError() : error);
  };
  auto store = OpenStoreToRead(o.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());

  struct Loaded {
    int64_t id;
    StoredRun stored;
    RunAnalysis analysis;
    std::string name;  // of its unit, before the tool is added
  };
  std::vector<Loaded> loaded;
  std::vector<std::string> overrides;  // of the runs' [analysis] choices
  std::vector<std::string> names;      // of the units, in first-seen order
  std::vector<std::vector<size_t>>
      member_runs;                            // indexes into `loaded`, per unit
  std::vector<std::vector<int64_t>> members;  // run ids, per unit
  std::string phrase;
  for (int64_t id : ids) {
    auto stored = store->LoadRun(id, false);
    if (!stored.ok()) return fail(stored.error());
    std::string name = stored->labels.label.empty() ? fmt::format("run {}", id)
                                                    : stored->labels.label;
    if (o.by) {
      auto value = GroupValue(*stored, *o.by);
      if (!value) {
        return PrintError(UsageError(
            fmt::format("run {} has no tag \"{}\", and no run parameter is "
                        "called so",
                        id, *o.by),
            fmt::format("tag runs with `flashmark tag {} {}=VALUE`, or group "
                        "by a parameter: {}",
                        id, *o.by, GroupParameterNames())));
      }
      name = *value;
    }
    auto options =
        BuildAnalysisOptions(stored->run, o.warmup, std::nullopt, std::nullopt,
                             std::nullopt, std::nullopt);
    if (!options.ok()) return PrintError(options.error());
    // Throughput first whatever the campaign's [analysis] metric: compare
    // shows it, the IOPS and the p99 side by side.
    options->metric = DefaultMetric(stored->run);
    AddAnalysisOverrideNotes(stored->run, o.warmup, std::nullopt, std::nullopt,
                             std::nullopt, std::nullopt, overrides);
    options->cancel = CancelToken(watch.flag());
    auto analysis =
        AnalyzeRun(stored->run, *options, [&](const HistogramVisitor& v) {
          return store->ScanHistograms(id, v);
        });
    if (!analysis.ok()) return fail(analysis.error());
    const auto found = std::find(names.begin(), names.end(), name);
    const size_t u = found - names.begin();
    if (found == names.end()) {
      names.push_back(name);
      member_runs.emplace_back();
      members.emplace_back();
    }
    member_runs[u].push_back(loaded.size());
    members[u].push_back(id);
    if (phrase.empty()) phrase = ModePhrase(stored->run.spec.mode);
    loaded.push_back({id, std::move(*stored), std::move(*analysis), name});
  }
  // Runs of different tools are never pooled: each tool gets its own unit.
  std::vector<const StoredRun*> all;
  for (const Loaded& run : loaded) all.push_back(&run.stored);
  if (SeveralTools(all)) {
    names.clear();
    member_runs.clear();
    members.clear();
    for (size_t r = 0; r < loaded.size(); ++r) {
      const std::string name =
          GroupName(loaded[r].name, loaded[r].stored, true);
      auto found = std::find(names.begin(), names.end(), name);
      if (found == names.end()) {
        names.push_back(name);
        member_runs.emplace_back();
        members.emplace_back();
        found = names.end() - 1;
      }
      member_runs[found - names.begin()].push_back(r);
      members[found - names.begin()].push_back(loaded[r].id);
    }
  }
  // Like with like, across the units as within each.
  std::vector<ComparisonMember> everyone;
  for (const Loaded& run : loaded) {
    everyone.push_back(
        {run.id, &run.stored.run, &run.analysis, &run.stored.labels.tags});
  }
  if (Status like = CheckLikeWithLike(everyone); !like.ok())
    return PrintError(like.error());
  for (size_t u = 0; u < names.size() && o.by; ++u) {
    std::vector<const StoredRun*> group;
    for (const size_t r : member_runs[u]) group.push_back(&loaded[r].stored);
    if (Status one = CheckOneWorkload(group, *o.by, names[u]); !one.ok()) {
      return PrintError(one.error());
    }
  }
  std::vector<ComparisonUnit> units;
  for (size_t u = 0; u < names.size(); ++u) {
    std::vector<ComparisonMember> unit_members;
    for (size_t r : member_runs[u]) {
      const Loaded& run = loaded[r];
      unit_members.push_back(
          {run.id, &run.stored.run, &run.analysis, &run.stored.labels.tags});
    }
    auto unit = BuildComparisonUnit(names[u], unit_members);
    if (!unit.ok()) return PrintError(unit.error());
    units.push_back(std::move(*unit));
  }
  if (units.size() < 2) {
    return PrintError(
        UsageError("all runs fall in one group; nothing to compare",
                   "give runs with different --by values"));
  }
  for (const auto& price : prices) {
    const std::string& name = price.first;
    const Price& amount = price.second;
    bool found = false;
    for (size_t u = 0; u < units.size(); ++u) {
      const bool by_id =
          std::find_if(members[u].begin(), members[u].end(), [&](int64_t id) {
            return std::to_string(id) == name;
          }) != members[u].end();
      if (units[u].name == name || by_id) {
        units[u].price = amount;
        found = true;
      }
    }
    if (!found) {
      return PrintError(UsageError(
          fmt::format("--price {}=...: no run or group \"{}\" in this "
                      "comparison",
                      TerminalText(name), TerminalText(name)),
          "name a group as compare shows it, a run's label, or a run id"));
    }
  }
  BootstrapOptions bootstrap;
  bootstrap.cancel = CancelToken(watch.flag());
  Comparison comparison = CompareUnits(
      units, bootstrap, DescribeMetric(loaded.front().analysis.metric));
  if (watch.interrupted()) return PrintError(InterruptedError());

  // What the devices and the CPU did, per group, beside the figures.
  std::vector<std::vector<TelemetrySummary>> telemetry(names.size());
  for (size_t u = 0; u < names.size(); ++u) {
    for (size_t r : member_runs[u]) {
      telemetry[u].push_back(SummarizeTelemetry(loaded[r].stored.run));
    }
  }
  std::vector<TelemetryComparisonRow> telemetry_rows =
      CompareTelemetry(names, telemetry);

  if (o.json) {
    nlohmann::json doc = CompareJson(comparison, units, members);
    doc["telemetry"] = TelemetryComparisonJson(telemetry_rows);
    doc["overrides"] = overrides;
    std::cout << JsonText(doc, 1) << "\n";
    return 0;
  }

  // Names are labels and tag values: shown, never obeyed, by a terminal.
  for (std::string& name : comparison.names) name = TerminalText(name);
  const std::string& baseline = comparison.names.front();
  const MetricInfo info = DescribeMetric(loaded.front().analysis.metric);
  std::cout << fmt::format(
      "baseline {}; medians of per-interval values over each "
      "run's headline window, 95 % block-bootstrap intervals\n",
      baseline);
  std::cout << "  "
            << HeadlineRuleNote(loaded.front().analysis.warmup_mode,
                                loaded.front().analysis.warmup_end_seconds)
            << "\n";
  PrintOverrideNotes(overrides, std::cout);
  for (const Loaded& run : loaded) {
    for (const ChangePoint& change : run.analysis.headline.regimes.changes) {
      std::cout << fmt::format(
          "  run {}: {}; its figure is the final regime's\n", run.id,
          FormatHeadlineChange(ScaledChange(change, info), info.title,
                               info.unit));
    }
  }
  std::cout << fmt::format("  {:<16} {:>5}  {:<28} {:<26} {:<26}\n", "", "runs",
                           info.title + " " + info.unit, "IOPS", "p99 latency");
  for (size_t u = 0; u < units.size(); ++u) {
    std::string cells[3];
    for (int m = 0; m < 3; ++m) {
      const auto& metric = comparison.metrics[m];
      if (m == 2 && units[u].p99_ns.empty()) {
        cells[m] = "- (no histograms)";
        continue;
      }
      cells[m] = fmt::format("{} ({}..{})",
                             Figure(metric.medians[u].estimate, metric.unit),
                             Figure(metric.medians[u].low, metric.unit),
                             Figure(metric.medians[u].high, metric.unit));
    }
    std::cout << fmt::format("  {:<16} {:>5}  {:<28} {:<26} {:<26}\n",
                             comparison.names[u], members[u].size(), cells[0],
                             cells[1], cells[2]);
  }
  for (size_t u = 1; u < units.size(); ++u) {
    for (const auto& metric : comparison.metrics) {
      if (metric.unit == "ns" &&
          (units[u].p99_ns.empty() || units[0].p99_ns.empty())) {
        continue;  // a run without latency histograms (an import)
      }
      const ConfidenceInterval& r = metric.ratios[u];
      const std::string what =
          metric.metric == "throughput"
              ? phrase + " throughput" +
                    (info.name == "mibs" ? " (reads + writes)" : "")
              : metric.metric;
      // One verdict, by one rule (the ratio's CI), stated once.
      std::cout << fmt::format(
          "  {} {} {:.2f} x ({:.2f}..{:.2f}) the {} of {}{}\n",
          comparison.names[u], metric.higher_is_better ? "ran" : "had",
          r.estimate, r.low, r.high, what, baseline,
          metric.within_noise[u]
              ? ": no clear difference (the ratio's 95 % CI includes 1)"
              : "");
    }
  }
  for (auto& row : telemetry_rows) row.name = TerminalText(row.name);
  PrintTelemetryComparison(telemetry_rows, std::cout);
  bool priced = false;
  for (const auto& cost : comparison.costs) priced |= cost.per_mibs.has_value();
  if (priced) {
    std::cout << fmt::format("  {:<16} {:>10} {:>12} {:>10}\n", "cost (price)",
                             "per GB", "per MiB/s", "per kIOPS");
    for (size_t u = 0; u < units.size(); ++u) {
      const CostFigures& cost = comparison.costs[u];
      auto cell = [&cost](const std::optional<double>& v) {
        return v ? CostText(*v, cost.currency) : std::string("-");
      };
      std::cout << fmt::format("  {:<16} {:>10} {:>12} {:>10}\n",
                               comparison.names[u], cell(cost.per_gb),
                               cell(cost.per_mibs), cell(cost.per_kiops));
    }
    bool missing_capacity = false;
    for (const auto& cost : comparison.costs) missing_capacity |= !cost.per_gb;
    std::cout << "  (per GB: per 10^9 bytes of capacity; capacity tags in "
                 "G and T are decimal as vendors write them, GiB and TiB "
                 "binary)\n";
    if (missing_capacity) {
      std::cout << "  (per GB needs the capacity: tag runs with "
                   "--tag capacity=960G, or run on the block device)\n";
    }
  }
  return 0;
}

}  // namespace flashmark
