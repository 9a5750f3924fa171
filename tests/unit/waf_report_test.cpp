// A fill sweep's report shows write amplification against fill where the
// runs' SMART gave one (synthetic SMART-derived figures on stored runs),
// and nothing of the kind where no run has media writes.
#include <gtest/gtest.h>

#include "report/markdown_report.h"
#include "report/report_data.h"

namespace flashmark {
namespace {

using nlohmann::json;

constexpr uint64_t kFillGiB = uint64_t{1} << 30;

// A 60 s rndwr run tagged size=`size`; with `media_gib` the disk's SMART
// said the flash was written that much while the host wrote 10 GiB.
ReportRun FillRun(int64_t id, const std::string& size,
                  std::optional<uint64_t> media_gib) {
  ReportRun run;
  run.stored.id = id;
  run.stored.labels.tags = {{"size", size}};
  run.stored.run.spec.mode = IoMode::kRndWr;
  for (uint32_t t = 0; t < 60; ++t) {
    IntervalSample sample;
    sample.index = t;
    sample.start_ns = t * 1'000'000'000ull;
    sample.end_ns = (t + 1) * 1'000'000'000ull;
    sample.write.ios = 1000 + id;
    sample.write.bytes = sample.write.ios * 4096;
    run.stored.run.intervals.push_back(sample);
  }
  run.stored.run.summary.write.ios = 1;
  TargetInfo target;
  target.path = "/dev/sdb";
  target.device_name = "sdb";
  DeviceHealth start;
  start.source = "smartctl";
  start.bytes_written = 100 * kFillGiB;
  DeviceHealth end = start;
  end.bytes_written = 110 * kFillGiB;
  if (media_gib) {
    start.media_bytes_written = 500 * kFillGiB;
    start.media_counter = "ATA 249 NAND_Writes_1GiB";
    end.media_bytes_written = (500 + *media_gib) * kFillGiB;
  }
  target.health = start;
  target.health_end = end;
  run.stored.run.environment.targets.push_back(target);
  AnalysisOptions options;
  options.metric = Metric::kWriteMibs;
  options.warmup = WarmupMode::kNone;
  run.analysis = AnalyzeRun(run.stored.run, options);
  return run;
}

std::vector<std::string> Charts(const json& data) {
  return data["charts"].get<std::vector<std::string>>();
}

TEST(WafReport, FillSweepHasWriteAmplificationAgainstFill) {
  ReportInput input;
  input.by = "size";
  input.runs.push_back(FillRun(3, "130G", 26));
  input.runs.push_back(FillRun(1, "50G", 12));
  input.runs.push_back(FillRun(2, "90G", std::nullopt));
  input.runs.push_back(FillRun(4, "50G", 14));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto charts = Charts(*data);
  EXPECT_NE(std::find(charts.begin(), charts.end(), "waf_vs_param"),
            charts.end());
  const json& items = (*data)["groups"]["items"];
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0]["name"], "50G");
  EXPECT_DOUBLE_EQ(items[0]["write_amplification"].get<double>(), 1.3);
  EXPECT_EQ(items[0]["write_amplification_runs"], 2);
  EXPECT_TRUE(items[1]["write_amplification"].is_null());  // 90G: none
  EXPECT_DOUBLE_EQ(items[2]["write_amplification"].get<double>(), 2.6);
  // Each run's own figure and the note of the one without media writes.
  const json& runs = (*data)["runs"];
  bool noted = false;
  for (const json& run : runs) {
    for (const json& note : run["telemetry"]["write_amplification"]["notes"]) {
      noted |= note.get<std::string>().find(
                   "the device reports no media writes: no WAF") !=
               std::string::npos;
    }
  }
  EXPECT_TRUE(noted);
  std::string md, svg;
  for (const PendingFile& file : MarkdownReportFiles(*data, "/tmp/r/r.md")) {
    if (file.path.ends_with(".md")) md = file.text;
    if (file.path.ends_with("-waf.svg")) svg = file.text;
  }
  EXPECT_NE(md.find("| 50G | 1.30 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 90G | - (no media writes) | 0 |"), std::string::npos);
  EXPECT_NE(svg.find("Write amplification vs size"), std::string::npos);
}

TEST(WafReport, NoMediaWritesNoWafChart) {
  ReportInput input;
  input.by = "size";
  input.runs.push_back(FillRun(1, "50G", std::nullopt));
  input.runs.push_back(FillRun(2, "90G", std::nullopt));
  auto data = BuildReportData(input);
  ASSERT_TRUE(data.ok()) << data.error().message;
  const auto charts = Charts(*data);
  EXPECT_EQ(std::find(charts.begin(), charts.end(), "waf_vs_param"),
            charts.end());
  EXPECT_EQ(std::find(charts.begin(), charts.end(), "write_amplification"),
            charts.end());
  std::string md;
  for (const PendingFile& file : MarkdownReportFiles(*data, "/tmp/r/r.md")) {
    if (file.path.ends_with(".md")) md = file.text;
  }
  EXPECT_EQ(md.find("write amplification"), std::string::npos);
}

}  // namespace
}  // namespace flashmark
