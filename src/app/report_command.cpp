#include "app/report_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "app/analysis_options.h"
#include "app/print_error.h"
#include "app/store_access.h"
#include "campaign/campaign_runs.h"
#include "campaign/pts_report.h"
#include "common/atomic_file.h"
#include "common/local_time.h"
#include "common/units.h"
#include "config/tag_options.h"
#include "report/analysis_report.h"
#include "report/cluster_report_data.h"
#include "report/console_reporter.h"
#include "report/headline_text.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/report_csv.h"
#include "report/report_data.h"
#include "report/stored_run_stream.h"
#include "report/text_escape.h"
#include "system/interrupt_watch.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

void PrintKeyFigures(const nlohmann::json& data, const ReportInput& input,
                     std::ostream& out) {
  // Values with their unit; latencies (in ms in the data) in the unit that
  // suits each (ns, us, ms, s), others with 3-4 significant digits.
  const auto one = [](const nlohmann::json& v, const std::string& unit) {
    return unit == "ms" ? FormatLatency(v.get<double>() * 1e6)
                        : SignificantText(v.get<double>()) + " " + unit;
  };
  const auto range = [&one](const nlohmann::json& a, const nlohmann::json& b,
                            const std::string& unit) {
    return unit == "ms" ? one(a, unit) + ".." + one(b, unit)
                        : SignificantText(a.get<double>()) + ".." +
                              SignificantText(b.get<double>()) + " " + unit;
  };
  for (size_t r = 0; r < input.runs.size(); ++r) {
    const auto& run = data["runs"][r];
    const auto& s = run["summary"];
    const RunAnalysis& a = input.runs[r].analysis;
    const std::string unit = s["unit"].get<std::string>();
    out << fmt::format(
        "{}  {}\n  {} median {} (95 % CI {}), p25..p75 {}, IOPS {:.0f}, p99 "
        "{}; warm-up {:g} s ({})\n",
        TerminalText(run["name"].get<std::string>()),
        run["workload"].get<std::string>(), s["metric"].get<std::string>(),
        one(s["median"], unit), range(s["ci_low"], s["ci_high"], unit),
        range(s["p25"], s["p75"], unit), s["iops_median"].get<double>(),
        s["latency_ms"]["p99"].is_number() ? one(s["latency_ms"]["p99"], "ms")
                                           : std::string("-"),
        a.warmup_end_seconds, a.warmup_source);
    out << "  " << Sparkline(a.values, 60) << "\n";
    for (const auto& change : run["headline"]["changes"]) {
      out << "  " << change.get<std::string>() << "\n";
    }
    out << "  rule: " << run["headline"]["rule"].get<std::string>() << "\n";
  }
  if (!data["groups"].is_null()) {
    const auto& groups = data["groups"];
    const std::string unit = groups["unit"].get<std::string>();
    out << fmt::format("by {}:\n",
                       TerminalText(groups["by"].get<std::string>()));
    size_t width = 0;
    for (const auto& item : groups["items"]) {
      width =
          std::max(width, TerminalText(item["name"].get<std::string>()).size());
    }
    for (const auto& item : groups["items"]) {
      const auto& box = item["box"];
      out << fmt::format(
          "  {:<{}}  median {}  box {}  whiskers {}  {} outlier{}\n",
          TerminalText(item["name"].get<std::string>()), width,
          one(box["median"], unit), range(box["q1"], box["q3"], unit),
          range(box["lower_whisker"], box["upper_whisker"], unit),
          box["outliers"].size(), box["outliers"].size() == 1 ? "" : "s");
    }
    out << "  rule: " << groups["rule"].get<std::string>() << "\n";
  }
  if (!data["cluster"].is_null()) {
    const auto& c = data["cluster"];
    const std::string unit = c["unit"].get<std::string>();
    out << "cluster: " << TerminalText(c["summary"].get<std::string>()) << "\n";
    size_t width = 0;
    for (const auto& item : c["items"]) {
      width =
          std::max(width, TerminalText(item["name"].get<std::string>()).size());
    }
    for (const auto& item : c["items"]) {
      out << fmt::format(
          "  {:<{}}  run {}  median {}, IOPS {:.0f}, p99 {}, {:.1f} % of the "
          "bytes, {}\n",
          TerminalText(item["name"].get<std::string>()), width,
          item["id"].get<int64_t>(), one(item["median"], unit),
          item["iops_median"].get<double>(),
          item["p99_ms"].is_number() ? one(item["p99_ms"], "ms")
                                     : std::string("-"),
          item["share_percent"].is_number()
              ? item["share_percent"].get<double>()
              : 0.0,
          item["status"].get<std::string>());
    }
  }
  for (const auto& note : data["notes"]) {
    out << "note: " << TerminalText(note.get<std::string>()) << "\n";
  }
  if (!data["comparison"].is_null()) {
    const auto& c = data["comparison"];
    for (const auto& item : c["items"]) {
      if (item["name"] == c["baseline"]) continue;
      out << fmt::format(
          "  {} ran {:.2f} x ({:.2f}..{:.2f}) the {} of {}\n",
          TerminalText(item["name"].get<std::string>()),
          item["ratio"].get<double>(), item["ratio_low"].get<double>(),
          item["ratio_high"].get<double>(), c["metric"].get<std::string>(),
          TerminalText(c["baseline"].get<std::string>()));
    }
    for (const auto& item : c["items"]) {
      std::vector<std::string> costs;
      for (const auto& [key, per] :
           {std::pair{"price_per_gb", "per GB"},
            std::pair{"price_per_mibs", "per MiB/s"},
            std::pair{"price_per_kiops", "per kIOPS"}}) {
        if (item.contains(key) && item[key].is_number()) {
          costs.push_back(
              CostText(item[key].get<double>(), item.value("currency", "")) +
              " " + per);
        }
      }
      if (!costs.empty()) {
        out << fmt::format("  {} costs {}\n",
                           TerminalText(item["name"].get<std::string>()),
                           fmt::join(costs, ", "));
      }
    }
  }
  out << "(write the charts with --html FILE, the tables with --md FILE, the "
         "data with --csv DIR)\n";
}

// --md FILE: FILE as any document output, or, when its directory does not
// exist yet, that directory as a new one (like --csv's) and FILE in it.
struct MarkdownOutput {
  OutputPath file;
  std::string new_directory;  // to create; "" when it exists
};

Result<MarkdownOutput> CheckMarkdownOutput(const std::string& path) {
  const std::filesystem::path target(path);
  const std::filesystem::path parent = target.parent_path();
  std::error_code error;
  if (parent.empty() || std::filesystem::exists(parent, error)) {
    auto file = CheckOutputPath("--md", path, OutputKind::kDocument);
    if (!file.ok()) return file.error();
    return MarkdownOutput{std::move(*file), ""};
  }
  auto directory = CheckOutputDirectory("--md", parent.string());
  if (!directory.ok()) return directory.error();
  OutputPath file;
  file.option = "--md";
  file.path = path;
  file.real = directory->real + "/" + target.filename().string();
  return MarkdownOutput{std::move(file), directory->real};
}

// The runs of the ranks of cluster run `id`, in rank order, when `id` is
// its aggregate (tag rank=all); none for any other run.
Result<std::vector<int64_t>> ClusterRanksOf(RunStore& store, int64_t id) {
  RunFilter aggregates;
  aggregates.tags = {{kRankTag, kAllRanks}};
  auto listed = store.ListRuns(aggregates);
  if (!listed.ok()) return listed.error();
  const auto aggregate =
      std::find_if(listed->begin(), listed->end(),
                   [id](const StoredRun& run) { return run.id == id; });
  const std::string* group = aggregate == listed->end()
                                 ? nullptr
                                 : FindTag(aggregate->labels.tags, kGroupTag);
  if (group == nullptr) return std::vector<int64_t>();
  RunFilter members;
  members.tags = {{kGroupTag, *group}};
  auto runs = store.ListRuns(members);
  if (!runs.ok()) return runs.error();
  std::vector<std::pair<size_t, int64_t>> ordered;  // rank, run id
  for (const StoredRun& run : *runs) {
    if (const auto rank = ClusterRank(run)) ordered.emplace_back(*rank, run.id);
  }
  std::sort(ordered.begin(), ordered.end());
  std::vector<int64_t> ids;
  for (const auto& [rank, run_id] : ordered) ids.push_back(run_id);
  return ids;
}

}  // namespace

CLI::App* AddReportCommand(CLI::App& app, ReportOptions& o) {
  CLI::App* command = app.add_subcommand(
      "report",
      "Charts and tables of runs: a self-contained HTML page, Markdown, CSV");
  AddDatabaseOption(command, o.db);
  command->add_option("RUN", o.runs, "run ids");
  auto text = [command](const char* name, std::optional<std::string>& slot,
                        const char* help) {
    command->add_option_function<std::string>(
        name, [&slot](const std::string& value) { slot = value; }, help);
  };
  text("--campaign", o.campaign,
       "the runs of this sweep's cells (`flashmark sweep`)");
  command
      ->add_option("--where", o.where,
                   "with --campaign: only cells with this parameter value, "
                   "e.g. mode=rndwr (repeat)")
      ->allow_extra_args(false);  // one value each time: RUN stays a RUN
  text("--by", o.by,
       "group runs by this tag or run parameter (threads, size, engine, "
       "tool, device...)");
  command->add_option("--x-axis", o.x_axis,
                      "the parameter axis of grouped charts: auto (log2 when "
                      "the values are powers of two), linear or log2 [auto]");
  text("--pts", o.pts,
       "the SNIA PTS report page of this `flashmark pts` campaign (with "
       "--html)");
  text("--html", o.html, "write the HTML report to FILE");
  text("--md", o.md, "write Markdown tables to FILE and SVG charts beside it");
  text("--csv", o.csv, "write the data behind every chart to DIR");
  AddAnalysisOptions(command, o.warmup, o.metric, o.round, o.min_segment,
                     o.gate);
  text("--title", o.title, "the report's title");
  return command;
}

namespace {

int ExecutePtsReport(const ReportOptions& o) {
  if (!o.runs.empty() || o.campaign || o.md || o.csv || !o.html) {
    return PrintError(UsageError(
        "--pts draws one PTS test's report page: it takes --html FILE and "
        "no RUN ids, --campaign, --md or --csv",
        "e.g. `flashmark report --pts 3 --html iops.html` (`flashmark list "
        "--campaigns` shows the ids)"));
  }
  auto id = ParseRunId(*o.pts);
  if (!id.ok()) return PrintError(id.error());
  auto checked = CheckOutputPath("--html", *o.html, OutputKind::kDocument);
  if (!checked.ok()) return PrintError(checked.error());
  auto store = OpenStoreToRead(o.db);  // an existing store, never created
  if (!store.ok()) return PrintError(store.error());
  auto page = RenderPtsReport(store->path(), *id);
  if (!page.ok()) return PrintError(page.error());
  if (Status written = WriteFileAtomically(checked->real, *page);
      !written.ok()) {
    return PrintError(written.error());
  }
  std::cout << "wrote " << *o.html << "\n";
  return 0;
}

}  // namespace

int ExecuteReport(const ReportOptions& o) {
  if (o.pts) return ExecutePtsReport(o);
  if (o.runs.empty() == !o.campaign) {
    return PrintError(
        UsageError(o.campaign ? "give either RUN ids or --campaign, not both"
                              : "report needs RUN ids or --campaign ID",
                   "e.g. `flashmark report 3 4 --html r.html` or `flashmark "
                   "report --campaign 1 "
                   "--html sweep.html`"));
  }
  if (o.x_axis != "auto" && o.x_axis != "linear" && o.x_axis != "log2") {
    return PrintError(UsageError(
        fmt::format("--x-axis \"{}\" is not an axis", TerminalText(o.x_axis)),
        "use auto, linear or log2"));
  }
  if (!o.where.empty() && !o.campaign) {
    return PrintError(
        UsageError("--where selects campaign cells: it needs --campaign"));
  }
  if (o.html && !HtmlReportAvailable()) {
    return PrintError(RuntimeError(
        "this flashmark was built without the HTML report's charting library "
        "(web/node_modules was missing when it was configured)",
        "run scripts/setup.sh (or: npm ci --prefix web), then rebuild; --md "
        "and --csv work without it"));
  }
  std::vector<int64_t> ids;
  for (const auto& text : o.runs) {
    auto id = ParseRunId(text);
    if (!id.ok()) return PrintError(id.error());
    ids.push_back(*id);
  }
  // Every output is judged before anything is read or written; the
  // directories to make (--csv's, and --md's when it is new) are made
  // only when everything is written (all or none).
  std::vector<OutputPath> outputs;
  std::vector<std::string> directories;
  if (o.html) {
    auto checked = CheckOutputPath("--html", *o.html, OutputKind::kDocument);
    if (!checked.ok()) return PrintError(checked.error());
    outputs.push_back(std::move(*checked));
  }
  if (o.md) {
    auto checked = CheckMarkdownOutput(*o.md);
    if (!checked.ok()) return PrintError(checked.error());
    if (!checked->new_directory.empty()) {
      directories.push_back(checked->new_directory);
    }
    outputs.push_back(std::move(checked->file));
  }
  if (o.csv) {
    auto checked = CheckOutputDirectory("--csv", *o.csv);
    if (!checked.ok()) return PrintError(checked.error());
    outputs.push_back(std::move(*checked));
  }
  if (Status distinct = CheckDistinctOutputs(outputs); !distinct.ok()) {
    return PrintError(distinct.error());
  }
  const auto written_path = [&outputs](const std::string& option) {
    for (const auto& output : outputs) {
      if (output.option == option) return output.real;
    }
    return std::string();
  };
  // SIGINT/SIGTERM end a long report with 130 before any file is written.
  const InterruptWatch watch;
  const auto fail = [&watch](const Error& error) {
    return PrintError(watch.interrupted() ? InterruptedError() : error);
  };
  auto store = OpenStoreToRead(o.db);
  if (!store.ok()) return PrintError(store.error());
  store->StopWhen(watch.flag());
  ReportInput input;
  input.by = o.by;
  input.x_axis = o.x_axis == "log2"     ? ReportInput::Axis::kLog2
                 : o.x_axis == "linear" ? ReportInput::Axis::kLinear
                                        : ReportInput::Axis::kAuto;
  input.generated = UtcNowText();
  std::optional<CampaignRuns> campaign;
  if (o.campaign) {
    auto selected =
        SelectCampaignRuns(store->path(), *o.campaign, o.where, o.by);
    if (!selected.ok()) return PrintError(selected.error());
    campaign = std::move(*selected);
    ids = campaign->run_ids;
    input.by = campaign->by;
    if (!campaign->note.empty())
      std::cout << "note: " << campaign->note << "\n";
  } else if (ids.size() == 1) {
    // A cluster run's aggregate alone: the group page, its ranks with it.
    auto ranks = ClusterRanksOf(*store, ids.front());
    if (!ranks.ok()) return fail(ranks.error());
    if (!ranks->empty()) {
      std::cout << fmt::format(
          "note: run {} is the aggregate of {} ranks: their runs {} are "
          "reported with it\n",
          ids.front(), ranks->size(), fmt::join(*ranks, " "));
    }
    ids.insert(ids.end(), ranks->begin(), ranks->end());
  }
  std::vector<std::string> overrides;  // of the runs' [analysis] choices
  for (int64_t id : ids) {
    auto stored = store->LoadRun(id, false);
    if (!stored.ok()) return fail(stored.error());
    if (campaign && campaign->by == kCellParameters) {
      stored->labels.tags.emplace_back(kCellParameters,
                                       campaign->cell_names.at(id));
    }
    auto options = BuildAnalysisOptions(stored->run, o.warmup,
                                        o.metric   ? o.metric
                                        : campaign ? campaign->metric
                                                   : std::nullopt,
                                        o.round, o.min_segment, o.gate);
    if (!options.ok()) return PrintError(options.error());
    AddAnalysisOverrideNotes(stored->run, o.warmup, o.metric, o.round,
                             o.min_segment, o.gate, overrides);
    options->heatmap_columns = kReportHeatmapColumns;
    options->cancel = CancelToken(watch.flag());
    auto analysis =
        AnalyzeRun(stored->run, *options, [&](const HistogramVisitor& v) {
          return store->ScanHistograms(id, v);
        });
    if (!analysis.ok()) return fail(analysis.error());
    auto split = SplitsAtMedian(*store, *stored);
    if (!split.ok()) return fail(split.error());
    input.runs.push_back(
        {std::move(*stored), std::move(*analysis), std::move(*split)});
  }
  input.title = o.title.value_or(
      campaign ? fmt::format("flashmark: sweep {}", campaign->title)
      : ids.size() == 1
          ? fmt::format("flashmark: {}", RunName(input.runs[0].stored))
      : o.runs.size() == 1 ? fmt::format("flashmark: run {} across {} ranks",
                                         ids[0], ids.size() - 1)
                           : fmt::format("flashmark: {} runs", ids.size()));
  auto data = BuildReportData(input);
  if (!data.ok()) return fail(data.error());
  if (watch.interrupted()) return PrintError(InterruptedError());

  PrintOverrideNotes(overrides, std::cout);
  if (!o.html && !o.md && !o.csv) {
    PrintKeyFigures(*data, input, std::cout);
    return 0;
  }
  std::vector<PendingFile> files;
  if (o.html)
    files.push_back({written_path("--html"), RenderHtmlReport(*data)});
  if (o.md) {
    for (PendingFile& file : MarkdownReportFiles(*data, written_path("--md"))) {
      files.push_back(std::move(file));
    }
  }
  if (o.csv) {
    directories.push_back(written_path("--csv"));
    for (PendingFile& file : ReportCsvFiles(*data, written_path("--csv"))) {
      files.push_back(std::move(file));
    }
  }
  if (Status written = WriteFilesAtomically(files, directories);
      !written.ok()) {
    return PrintError(written.error());
  }
  if (o.html) std::cout << "wrote " << *o.html << "\n";
  if (o.md) std::cout << "wrote " << *o.md << " and its SVG charts\n";
  if (o.csv) std::cout << "wrote the chart data to " << *o.csv << "/\n";
  return 0;
}

}  // namespace flashmark
