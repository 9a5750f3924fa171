// Block IO traces (issue 40): fio's iolog (v2, v3) and blkparse's text read
// into one trace shape, exactly; bad files refused at their line; the
// store keeps a trace whole; the summary's figures on traces whose truth
// is known.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "analysis/trace_summary.h"
#include "report/trace_text.h"
#include "store/blkparse_import.h"
#include "store/fio_iolog_import.h"
#include "store/trace_store.h"

namespace flashmark {
namespace {

ImportFile TraceFixture(const std::string& name) {
  auto file =
      ReadImportFile(std::string(FLASHMARK_FIXTURES) + "/trace/" + name);
  EXPECT_TRUE(file.ok()) << file.error().message;
  return file.ok() ? *file : ImportFile{};
}

ImportFile TextFile(std::string text) {
  ImportFile file;
  file.name = "t.log";
  file.text = std::move(text);
  file.modified_unix_ns = 2'000'000'000'000'000'000;
  return file;
}

TEST(FioIolog, Version3IsReadIoByIoWithItsTimes) {
  auto trace = ParseFioIolog(TraceFixture("fio-3.33-randwrite-100iops.iolog"));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  EXPECT_EQ(trace->source, "fio-iolog");
  ASSERT_EQ(trace->devices.size(), 1u);
  EXPECT_EQ(trace->devices[0].name, "f");
  ASSERT_EQ(trace->ios.size(), 100u);
  const TracedIo& first = trace->ios.front();
  EXPECT_EQ(first.issue_ns, 159'000);  // "159 f write 249856 4096"
  EXPECT_EQ(first.offset, 249'856u);
  EXPECT_EQ(first.length, 4096u);
  EXPECT_EQ(first.op, TraceOp::kWrite);
  EXPECT_EQ(first.complete_ns, -1);
  EXPECT_EQ(trace->ios.back().issue_ns, 990'124'000);
  EXPECT_EQ(trace->duration_ns, 1'000'121'000);  // "1000121 f close"
  EXPECT_TRUE(trace->notes.empty());
  const TraceSummary summary = SummarizeTrace(*trace);
  EXPECT_NEAR(summary.iops, 100 / 1.000121, 1e-9);
  EXPECT_EQ(summary.bytes, 409'600u);
  EXPECT_FALSE(summary.mean_queue_depth) << "an iolog has no completions";
  EXPECT_NEAR(summary.interarrival_ns.p50, 10'000'000, 50'000);
}

TEST(FioIolog, Version2HasNoTimesButItsWaits) {
  auto v2 = ParseFioIolog(TraceFixture("fio-v2-from-3.33.iolog"));
  auto v3 = ParseFioIolog(TraceFixture("fio-3.33-randwrite-100iops.iolog"));
  ASSERT_TRUE(v2.ok() && v3.ok());
  ASSERT_EQ(v2->ios.size(), v3->ios.size());
  for (size_t i = 0; i < v2->ios.size(); ++i) {
    EXPECT_EQ(v2->ios[i].offset, v3->ios[i].offset);
    EXPECT_EQ(v2->ios[i].issue_ns, 0);
  }
  ASSERT_EQ(v2->notes.size(), 1u);
  EXPECT_NE(v2->notes[0].find("holds no times"), std::string::npos);

  auto waits = ParseFioIolog(TextFile(
      "fio version 2 iolog\nd add\nd open\nd read 0 4096\nd wait 1500 0\n"
      "d sync 0 0\nd trim 8192 65536\nd close\n"));
  ASSERT_TRUE(waits.ok()) << waits.error().message;
  ASSERT_EQ(waits->ios.size(), 3u);
  EXPECT_EQ(waits->ios[1].issue_ns, 1'500'000);
  EXPECT_EQ(waits->ios[1].op, TraceOp::kFlush);
  EXPECT_EQ(waits->ios[1].length, 0u);
  EXPECT_EQ(waits->ios[2].op, TraceOp::kDiscard);
  EXPECT_EQ(waits->ios[2].length, 65'536u);
}

TEST(FioIolog, BadFilesAreRefusedAtTheirLine) {
  struct Case {
    std::string text, says;
  };
  const Case cases[] = {
      {"fio version 4 iolog\n", "t.log:1: not an fio iolog"},
      {"{\"jobs\": []}\n", "t.log:1: not an fio iolog"},
      {"fio version 3 iolog\n0 f add\n5 f erase 0 4096\n",
       "t.log:3: unknown action \"erase\""},
      {"fio version 3 iolog\n0 g write 0 4096\n",
       "t.log:2: an IO on \"g\", which no \"add\" line named before"},
      {"fio version 3 iolog\n9 f add\n5 f write 0 4096\n",
       "t.log:3: time 5 us is before"},
      {"fio version 3 iolog\n0 f add\n1 f write x 4096\n",
       "t.log:3: \"x 4096\" is not an offset and a length"},
      {"fio version 3 iolog\n0 f add\n1 f write 0 99999999999\n",
       "is not an offset and a length"},
      {"fio version 3 iolog\n0 f add\n1 f close\n", "holds no IO"},
      {"fio version 2 iolog\nf add extra\n", "t.log:2: \"add\" takes no"},
      {"", "t.log:1: not an fio iolog"},
  };
  for (const Case& c : cases) {
    auto trace = ParseFioIolog(TextFile(c.text));
    ASSERT_FALSE(trace.ok()) << c.text;
    EXPECT_EQ(trace.error().exit_code, kUsageExit);
    EXPECT_NE(trace.error().message.find(c.says), std::string::npos)
        << trace.error().message;
  }
}

TEST(Blkparse, RequestsAreIosWithTheirQueueIssueAndCompletionTimes) {
  auto trace = ParseBlkparseText(TraceFixture("blkparse-merge-flush.txt"));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  EXPECT_EQ(trace->source, "blktrace");
  ASSERT_EQ(trace->devices.size(), 1u);
  EXPECT_EQ(trace->devices[0].name, "7,0");
  ASSERT_EQ(trace->ios.size(), 3u);
  const TracedIo& write = trace->ios[0];
  EXPECT_EQ(write.op, TraceOp::kWrite);
  EXPECT_EQ(write.offset, 2048u * 512);
  EXPECT_EQ(write.length, 4096u);
  EXPECT_EQ(write.queue_ns, 0);
  EXPECT_EQ(write.issue_ns, 2'000);
  EXPECT_EQ(write.complete_ns, 100'000);
  EXPECT_EQ(write.pid, 4242u);
  const TracedIo& read = trace->ios[1];
  EXPECT_EQ(read.op, TraceOp::kRead);
  EXPECT_TRUE(read.sync);
  EXPECT_EQ(read.length, 16'384u);
  EXPECT_EQ(read.complete_ns, 400'000);
  EXPECT_EQ(trace->processes.at(4243), "reader one");
  const TracedIo& flush = trace->ios[2];
  EXPECT_EQ(flush.op, TraceOp::kFlush);
  EXPECT_EQ(flush.length, 0u);
  EXPECT_EQ(flush.queue_ns, 1'000'000);
  EXPECT_EQ(flush.complete_ns, 1'300'000);
  ASSERT_EQ(trace->notes.size(), 1u);
  EXPECT_EQ(trace->notes[0],
            "1 queued bios were merged into other requests or never issued");
  const TraceSummary summary = SummarizeTrace(*trace);
  ASSERT_TRUE(summary.device_ns);
  EXPECT_DOUBLE_EQ(summary.device_ns->max, 290'000);  // the flush
  EXPECT_EQ(summary.max_queue_depth, 1u);
}

TEST(Blkparse, ARequeuedRequestIsOneIo) {
  auto trace = ParseBlkparseText(
      TextFile("  8,16   0  1  0.000000000  77  Q   R 100 + 8 [app]\n"
               "  8,16   0  2  0.000001000  77  D   R 100 + 8 [app]\n"
               "  8,16   0  3  0.000002000  77  R   R 100 + 8 [0]\n"
               "  8,16   0  4  0.000010000  77  D   R 100 + 8 [app]\n"
               "  8,16   0  5  0.000030000   0  C   R 100 + 8 [0]\n"));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_EQ(trace->ios.size(), 1u);
  EXPECT_EQ(trace->ios[0].queue_ns, 0);
  EXPECT_EQ(trace->ios[0].issue_ns, 10'000);
  EXPECT_EQ(trace->ios[0].complete_ns, 30'000);
  EXPECT_EQ(trace->notes, std::vector<std::string>{
                              "1 requests were requeued and issued again"});
}

TEST(Blkparse, BadFilesAreRefused) {
  const std::pair<std::string, std::string> cases[] = {
      {"  8,0  0  1  0.0001  9  Q  W 8 + 8 [a]\n",
       "t.log:1: not a blkparse event line: its time"},
      {"  8,0  0  1  0.000100000  x  Q  W 8 + 8 [a]\n",
       "t.log:1: not a blkparse event line: its process id"},
      {"  8,0  0  1  0.000100000  9  D  WQ 8 + 8 [a]\n", "unknown RWBS \"WQ\""},
      {"  8,0  0  1  0.000100000  9  D  W 8 + y [a]\n",
       "its sector and size are not numbers"},
      {"fio version 3 iolog\n0 f add\n", "no blkparse event lines"},
      {"  8,0  0  1  0.000100000  9  Q  W 8 + 8 [a]\n",
       "no request issued to a device"},
  };
  for (const auto& [text, says] : cases) {
    auto trace = ParseBlkparseText(TextFile(text));
    ASSERT_FALSE(trace.ok()) << text;
    EXPECT_EQ(trace.error().exit_code, kUsageExit);
    EXPECT_NE(trace.error().message.find(says), std::string::npos)
        << trace.error().message;
  }
}

TEST(TraceSummary, QueueDepthAndSequentialityAreExact) {
  BlockIoTrace trace;
  trace.devices = {{"d", 0}};
  trace.duration_ns = 4'000'000'000;
  const int64_t s = 1'000'000'000;
  // Reads at 0, 4096, 8192 (two follow on), a write elsewhere.
  trace.ios = {
      {0, -1, 2 * s, 0, 4096, 1, 0, TraceOp::kRead, false, false},
      {s, -1, 3 * s, 4096, 4096, 1, 0, TraceOp::kRead, false, false},
      {s + 1, -1, s + 2, 1 << 20, 8192, 2, 0, TraceOp::kWrite, false, false},
      {3 * s, -1, 3 * s, 8192, 4096, 1, 0, TraceOp::kRead, false, false},
  };
  const TraceSummary summary = SummarizeTrace(trace);
  EXPECT_EQ(summary.ios, 4u);
  EXPECT_DOUBLE_EQ(summary.iops, 1.0);
  EXPECT_DOUBLE_EQ(summary.sequential_share, 2.0 / 4);
  ASSERT_TRUE(summary.mean_queue_depth);
  // Depth 1 over [0,1), 2 over [1,2) (the write adds 1 ns), 1 over [2,3).
  EXPECT_NEAR(*summary.mean_queue_depth, (1 + 2 + 1 + 1e-9) / 4.0, 1e-9);
  EXPECT_EQ(summary.max_queue_depth, 3u);
  ASSERT_EQ(summary.queue_depth_per_second.size(), 5u);
  EXPECT_NEAR(summary.queue_depth_per_second[1], 2, 1e-8);
  EXPECT_NEAR(summary.queue_depth_per_second[3], 0, 1e-12);
  ASSERT_EQ(summary.sizes.size(), 2u);
  EXPECT_EQ(summary.sizes[0].bytes, 4096u);
  EXPECT_EQ(summary.sizes[0].ios, 3u);
  EXPECT_EQ(summary.processes[0].pid, 1u);
  EXPECT_EQ(summary.processes[0].ios, 3u);
}

// A trace without IO (a capture while nothing was issued) says so, and
// prints no empty mix or zero shares.
TEST(TraceSummary, ATraceWithoutIoSaysSo) {
  BlockIoTrace trace;
  trace.source = "capture";
  trace.origin = "/dev/loop3";
  trace.devices = {{"loop3", 0}};
  trace.duration_ns = 2'000'000'000;
  trace.notes = {"a note"};
  const std::string text = TraceSummaryText(trace, SummarizeTrace(trace));
  EXPECT_NE(text.find("0 IOs over 2.000 s\n  no IO: nothing was issued to "
                      "the device while it was traced\n  note: a note\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("ops"), std::string::npos) << text;
  EXPECT_EQ(text.find("sequential"), std::string::npos) << text;
}

class TraceStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "flashmark-trace-XXXXXX";
    directory_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string path() const { return directory_ + "/runs.db"; }
  std::string directory_;
};

TEST_F(TraceStoreTest, ATraceOfManyChunksReadsBackWhole) {
  BlockIoTrace trace;
  trace.source = "capture";
  trace.origin = "/dev/loop7";
  trace.start_unix_ns = 1'800'000'000'000'000'000;
  trace.duration_ns = 5'000'000'000;
  trace.devices = {{"loop7", 1 << 30}, {"loop8", 0}};
  trace.processes = {{42, "mysqld"}, {7, "x\xff"}};
  trace.notes = {"a note"};
  trace.complete = false;
  for (uint32_t i = 0; i < 140'000; ++i) {
    trace.ios.push_back({static_cast<int64_t>(i) * 1000,
                         i % 3 == 0 ? -1 : static_cast<int64_t>(i) * 1000 - 5,
                         static_cast<int64_t>(i) * 1000 + 70,
                         uint64_t{i} * 4096 + (uint64_t{1} << 40), i % 9 * 512,
                         i % 5 == 0 ? 4'000'000u : 42u,
                         static_cast<uint16_t>(i % 2),
                         static_cast<TraceOp>(i % 4), i % 7 == 0, i % 11 == 0});
  }
  auto store = TraceStore::Open(path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto id = store->Save(trace, "abc");
  ASSERT_TRUE(id.ok()) << id.error().message;
  auto loaded = store->Load(*id);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->source, "capture");
  EXPECT_EQ(loaded->origin, "/dev/loop7");
  EXPECT_EQ(loaded->start_unix_ns, trace.start_unix_ns);
  EXPECT_EQ(loaded->duration_ns, trace.duration_ns);
  EXPECT_FALSE(loaded->complete);
  EXPECT_EQ(loaded->notes, trace.notes);
  EXPECT_EQ(loaded->processes, trace.processes);
  ASSERT_EQ(loaded->devices.size(), 2u);
  EXPECT_EQ(loaded->devices[0].bytes, uint64_t{1} << 30);
  ASSERT_EQ(loaded->ios.size(), trace.ios.size());
  for (size_t i = 0; i < trace.ios.size(); ++i) {
    const TracedIo& a = trace.ios[i];
    const TracedIo& b = loaded->ios[i];
    ASSERT_TRUE(a.issue_ns == b.issue_ns && a.queue_ns == b.queue_ns &&
                a.complete_ns == b.complete_ns && a.offset == b.offset &&
                a.length == b.length && a.pid == b.pid &&
                a.device == b.device && a.op == b.op && a.sync == b.sync &&
                a.fua == b.fua)
        << "IO " << i;
  }
  auto found = store->FindByHash("abc");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, *id);
  auto listed = store->List();
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].ios, 140'000u);
  auto missing = store->Load(*id + 1);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().exit_code, kUsageExit);
}

TEST(TracePacking, AChunkOfTheWrongSizeIsRefused) {
  EXPECT_FALSE(UnpackTracedIos(std::vector<uint8_t>(45)).ok());
  std::vector<uint8_t> unknown_op(44, 0);
  unknown_op[42] = 9;
  EXPECT_FALSE(UnpackTracedIos(unknown_op).ok());
}

}  // namespace
}  // namespace flashmark
