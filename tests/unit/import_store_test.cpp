// RunStore's import side: whole runs stored in one transaction with their
// intervals, tags and tool report; a source file stored twice is refused
// unless `again`, and a refused insert leaves nothing behind.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "store/run_store.h"
#include "store/sysbench_import.h"

namespace flashmark {
namespace {

class ImportDatabase {
 public:
  ImportDatabase() {
    std::string pattern = "/tmp/flashmark-import-test.XXXXXX";
    directory_ = mkdtemp(pattern.data());
  }
  ~ImportDatabase() { std::filesystem::remove_all(directory_); }
  std::string path() const { return directory_ + "/runs.db"; }

 private:
  std::string directory_;
};

StoredRun ImportedSysbenchRun() {
  const std::string name = "sysbench-rndwr-async.txt";
  std::ifstream in(std::string(FLASHMARK_FIXTURES) + "/import/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  auto stored =
      ParseSysbenchOutput({name, text.str(), 1'700'000'000'000'000'000});
  EXPECT_TRUE(stored.ok());
  stored->labels.tags = {{"device", "vda"}};
  return std::move(stored).value();
}

TEST(ImportStore, WholeRunsGoInAndComeBackWithTheirToolReport) {
  ImportDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  const StoredRun run = ImportedSysbenchRun();
  auto ids = store->InsertRuns(std::vector<StoredRun>{run}, false);
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  ASSERT_EQ(ids->size(), 1u);

  auto loaded = store->LoadRun(ids->front());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->labels.source, "sysbench");
  EXPECT_EQ(loaded->labels.source_hash, run.labels.source_hash);
  EXPECT_EQ(loaded->labels.label, "sysbench-rndwr-async");
  EXPECT_EQ(loaded->labels.tags, run.labels.tags);
  EXPECT_EQ(loaded->run.status, RunStatus::kOk);
  EXPECT_EQ(loaded->run.tool_version, "sysbench 1.0.20");
  EXPECT_EQ(loaded->run.start_unix_ns, run.run.start_unix_ns);
  EXPECT_EQ(loaded->run.command_line, run.run.command_line);
  ASSERT_EQ(loaded->run.intervals.size(), run.run.intervals.size());
  for (size_t i = 0; i < run.run.intervals.size(); ++i) {
    EXPECT_EQ(loaded->run.intervals[i].write.bytes,
              run.run.intervals[i].write.bytes);
    EXPECT_EQ(loaded->run.intervals[i].partial, run.run.intervals[i].partial);
  }
  EXPECT_EQ(loaded->run.summary.write.ios, run.run.summary.write.ios);
  EXPECT_DOUBLE_EQ(loaded->run.summary.elapsed_seconds, 5.0014);
  const ToolReport& report = loaded->run.imported;
  EXPECT_EQ(report.tool, "sysbench");
  EXPECT_EQ(report.version, "1.0.20");
  EXPECT_EQ(report.figures.size(), run.run.imported.figures.size());
  ASSERT_EQ(report.series.size(), 1u);
  EXPECT_DOUBLE_EQ(report.series[0].values[0], 0.087);
  EXPECT_TRUE(std::isnan(report.series[0].values.back()));
  EXPECT_EQ(report.notes, run.run.imported.notes);
  // The spec round-trips like a native run's.
  EXPECT_EQ(loaded->run.spec.engine, "libaio");
  EXPECT_TRUE(loaded->run.spec.direct);

  auto listed = store->ListRuns({});
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_NEAR((*listed)[0].run.summary.write_mibs.median, 227.81, 1e-6);
}

TEST(ImportStore, TheSameSourceTwiceIsRefusedUnlessAgain) {
  ImportDatabase db;
  auto store = RunStore::Open(db.path());
  ASSERT_TRUE(store.ok());
  StoredRun first = ImportedSysbenchRun();
  StoredRun other = first;
  other.labels.source_hash = std::string(64, 'a');
  ASSERT_TRUE(store->InsertRuns(std::vector<StoredRun>{first}, false).ok());
  // A batch with a new file and a known one: refused whole.
  auto twice = store->InsertRuns(std::vector<StoredRun>{other, first}, false);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().exit_code, kUsageExit);
  EXPECT_NE(twice.error().message.find(
                "was imported before (the same SHA-256): run 1"),
            std::string::npos)
      << twice.error().message;
  EXPECT_NE(twice.error().hint.find("--again"), std::string::npos);
  EXPECT_EQ(store->ListRuns({})->size(), 1u);
  auto sources = store->RunsFromSource(first.labels.source_hash);
  ASSERT_TRUE(sources.ok());
  EXPECT_EQ(*sources, std::vector<int64_t>{1});

  auto again = store->InsertRuns(std::vector<StoredRun>{other, first}, true);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(*store->RunsFromSource(first.labels.source_hash),
            (std::vector<int64_t>{1, 3}));
}

}  // namespace
}  // namespace flashmark
