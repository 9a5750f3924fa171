// JsonRunWriter on real files: the file is a complete JSON document at
// every moment (replaced whole), nothing exists before the run starts,
// rewriting is throttled to the stated bandwidth, and a write that fails
// keeps the previous document and marks the JSON incomplete.
#include "report/json_run_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace flashmark {
namespace {

using nlohmann::json;

class JsonRunWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-json-writer-test.XXXXXX";
    dir_ = mkdtemp(pattern.data());
    run_.spec.engine = "null";
    run_.tool_version = "test";
    run_.start_unix_ns = 1'700'000'000'000'000'000;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  static json Parse(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());  // throws on anything but a whole document
  }
  // One interval of `interval_ns`, with a latency histogram of `buckets`
  // distinct values (the document grows with it).
  const IntervalSample& AddInterval(uint64_t interval_ns, int buckets) {
    IntervalSample sample;
    sample.index = static_cast<uint32_t>(run_.intervals.size());
    sample.start_ns = sample.index * interval_ns;
    sample.end_ns = sample.start_ns + interval_ns;
    sample.read = {1000, 4096000};
    for (int b = 0; b < buckets; ++b) sample.read_latency.Add(1000 + 37 * b);
    run_.intervals.push_back(sample);
    return run_.intervals.back();
  }
  std::string dir_;
  RunResult run_;
};

TEST_F(JsonRunWriterTest,
       CreatesNothingBeforeTheRunAndAWholeDocumentAfterEachInterval) {
  std::ostringstream out, errors;
  JsonRunWriter writer(File("run.json"), out, errors);
  ASSERT_TRUE(writer.Check().ok());
  EXPECT_FALSE(std::filesystem::exists(File("run.json")));
  writer.OnStart(run_);
  json doc = Parse(File("run.json"));
  EXPECT_EQ(doc["status"], "running");
  EXPECT_TRUE(doc["intervals"].empty());
  for (int i = 0; i < 5; ++i) {
    writer.OnInterval(run_, AddInterval(1'000'000'000, 20));
    doc = Parse(File("run.json"));
    EXPECT_EQ(doc["intervals"].size(), run_.intervals.size())
        << "small: every interval";
    EXPECT_EQ(doc["status"], "running");
  }
  run_.status = RunStatus::kOk;
  writer.OnEnd(run_);
  EXPECT_TRUE(writer.complete());
  doc = Parse(File("run.json"));
  EXPECT_EQ(doc["status"], "ok");
  EXPECT_TRUE(doc.contains("summary"));
  EXPECT_EQ(errors.str(), "");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_),
                          std::filesystem::directory_iterator()),
            1)
      << "no temporary left behind";
}

TEST_F(JsonRunWriterTest, RewritingStaysWithinTheStatedBandwidth) {
  std::ostringstream out, errors;
  JsonRunWriter writer(File("run.json"), out, errors);
  ASSERT_TRUE(writer.Check().ok());
  writer.OnStart(run_);
  const uint64_t interval_ns = 10'000'000;  // 10 ms, 1000 intervals: 10 s
  for (int i = 0; i < 1000; ++i)
    writer.OnInterval(run_, AddInterval(interval_ns, 200));
  const json doc = Parse(File("run.json"));
  const double seconds = 1000 * interval_ns / 1e9;
  // At most the budget over the run, plus the one rewrite that may start
  // just before the budget is used up (the whole document).
  const uint64_t document = std::filesystem::file_size(File("run.json"));
  EXPECT_LE(writer.bytes_written(),
            kRefreshBytesPerSecond * seconds + 2 * document)
      << writer.rewrites() << " rewrites of a document of " << document
      << " bytes";
  EXPECT_GT(document, kRefreshBytesPerSecond / 100) << "the case throttles";
  EXPECT_LT(writer.rewrites(), 1000);
  EXPECT_GT(writer.rewrites(), 10) << "still refreshed as the run goes";
  // The file lags the run by at most one rewrite's share of the budget.
  const double lag_seconds =
      (1000.0 - doc["intervals"].size()) * interval_ns / 1e9;
  EXPECT_LE(lag_seconds, 1.0 * document / kRefreshBytesPerSecond + 0.01);
}

TEST_F(JsonRunWriterTest,
       AFailedWriteKeepsThePreviousDocumentAndMarksItIncomplete) {
  std::ostringstream out, errors;
  JsonRunWriter writer(File("run.json"), out, errors);
  ASSERT_TRUE(writer.Check().ok());
  writer.OnStart(run_);
  writer.OnInterval(run_, AddInterval(1'000'000'000, 5));
  // Every temporary name taken: no new document can be created.
  const std::string base =
      File("run.json") + ".tmp." + std::to_string(getpid());
  std::ofstream(base) << "taken";
  for (int i = 1; i < 100; ++i)
    std::ofstream(base + "." + std::to_string(i)) << "taken";
  writer.OnInterval(run_, AddInterval(1'000'000'000, 5));
  writer.OnInterval(run_, AddInterval(1'000'000'000, 5));
  run_.status = RunStatus::kOk;
  writer.OnEnd(run_);
  EXPECT_FALSE(writer.complete());
  const json doc = Parse(File("run.json"));
  EXPECT_EQ(doc["status"], "running");
  EXPECT_EQ(doc["intervals"].size(), 1u);
  const std::string said = errors.str();
  EXPECT_NE(said.find("warning: --json"), std::string::npos) << said;
  EXPECT_EQ(said.find("warning:", said.find("warning:") + 1), std::string::npos)
      << "warned once: " << said;
  EXPECT_NE(said.find("is incomplete"), std::string::npos) << said;
  EXPECT_NE(said.find("first 1 of 3 intervals"), std::string::npos) << said;
}

TEST_F(JsonRunWriterTest, WritesThroughASymlinkToTheFileItLeadsTo) {
  std::ofstream(File("target.json")) << "{}";
  std::filesystem::create_symlink(File("target.json"), File("link.json"));
  std::ostringstream out, errors;
  JsonRunWriter writer(File("link.json"), out, errors);
  ASSERT_TRUE(writer.Check().ok());
  writer.OnStart(run_);
  run_.status = RunStatus::kOk;
  writer.OnEnd(run_);
  EXPECT_TRUE(std::filesystem::is_symlink(File("link.json")));
  EXPECT_EQ(Parse(File("target.json"))["status"], "ok");
}

TEST_F(JsonRunWriterTest, CheckRefusesAFifoAndADatabase) {
  ASSERT_EQ(mkfifo(File("fifo").c_str(), 0600), 0);
  std::ofstream(File("runs.db")) << std::string("SQLite format 3\0....", 20);
  std::ostringstream out, errors;
  for (const std::string& path : {File("fifo"), File("runs.db")}) {
    JsonRunWriter writer(path, out, errors);
    auto checked = writer.Check();
    ASSERT_FALSE(checked.ok()) << path;
    EXPECT_EQ(checked.error().exit_code, kUsageExit);
  }
}

}  // namespace
}  // namespace flashmark
