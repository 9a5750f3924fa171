// Block IO traces that never have to be whole in memory (issue 40): the
// store's writer and reader chunk by chunk, one transaction per trace
// (a failed import stores nothing), the importers handing IOs on as they
// read them (blkparse in issue order with bounded waiting), the streaming
// summary against the exact figures, the replay's read-ahead, and the
// incremental SHA-256 of an imported file.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "analysis/trace_summary.h"
#include "config/campaign_hash.h"
#include "runner/trace_prefetcher.h"
#include "store/blkparse_import.h"
#include "store/import_lines.h"
#include "store/trace_file_import.h"
#include "store/trace_store.h"

namespace flashmark {
namespace {

class TraceStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "flashmark-stream-XXXXXX";
    directory_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string path() const { return directory_ + "/runs.db"; }
  std::string File(const std::string& name) const {
    return directory_ + "/" + name;
  }
  int64_t Count(const std::string& table) {
    auto db = Database::Open(path(), false);
    EXPECT_TRUE(db.ok());
    auto select = db->Prepare("SELECT COUNT(*) FROM " + table);
    EXPECT_TRUE(select.ok());
    auto row = select->Step();
    EXPECT_TRUE(row.ok() && *row);
    return select->Int(0);
  }
  std::string directory_;
};

std::vector<TracedIo> SomeIos(size_t count) {
  std::vector<TracedIo> ios;
  for (uint32_t i = 0; i < count; ++i) {
    ios.push_back({static_cast<int64_t>(i) * 1000,
                   i % 3 == 0 ? -1 : static_cast<int64_t>(i) * 1000 - 5,
                   static_cast<int64_t>(i) * 1000 + 70 + i % 13,
                   uint64_t{i} * 4096, 512 + i % 9 * 512, i % 17,
                   static_cast<uint16_t>(i % 2), static_cast<TraceOp>(i % 4),
                   i % 7 == 0, i % 11 == 0});
  }
  return ios;
}

bool SameIo(const TracedIo& a, const TracedIo& b) {
  return a.issue_ns == b.issue_ns && a.queue_ns == b.queue_ns &&
         a.complete_ns == b.complete_ns && a.offset == b.offset &&
         a.length == b.length && a.pid == b.pid && a.device == b.device &&
         a.op == b.op && a.sync == b.sync && a.fua == b.fua;
}

TEST_F(TraceStreamTest, WrittenIoByIoReadBackChunkByChunk) {
  const std::vector<TracedIo> ios = SomeIos(200'000);
  BlockIoTrace header;
  header.source = "capture";
  header.origin = "/dev/loop7";
  header.duration_ns = 300'000'000;
  header.devices = {{"loop7", 1 << 30}, {"loop8", 0}};
  header.processes = {{3, "fio"}};
  header.notes = {"a note"};
  auto store = TraceStore::Open(path());
  ASSERT_TRUE(store.ok()) << store.error().message;
  for (const size_t chunk : {size_t{7'000}, kTracedIosPerChunk}) {
    auto writer = store->BeginTrace(chunk);
    ASSERT_TRUE(writer.ok()) << writer.error().message;
    for (const TracedIo& io : ios) ASSERT_TRUE(writer->Append(io).ok());
    auto id = writer->Finish(header, "h" + std::to_string(chunk));
    ASSERT_TRUE(id.ok()) << id.error().message;
    auto reader = TraceReader::Open(path(), *id);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    EXPECT_EQ(reader->stored().ios, ios.size());
    EXPECT_EQ(reader->header().devices.size(), 2u);
    EXPECT_EQ(reader->header().processes.at(3), "fio");
    EXPECT_EQ(reader->header().notes, header.notes);
    EXPECT_TRUE(reader->header().ios.empty());
    for (int pass = 0; pass < 2; ++pass) {  // and again after Rewind
      size_t next = 0, chunks = 0;
      std::vector<TracedIo> got;
      for (;;) {
        ASSERT_TRUE(reader->Next(got).ok());
        if (got.empty()) break;
        ++chunks;
        EXPECT_LE(got.size(), chunk);
        for (const TracedIo& io : got) {
          ASSERT_TRUE(SameIo(io, ios[next])) << "IO " << next;
          ++next;
        }
      }
      EXPECT_EQ(next, ios.size());
      EXPECT_EQ(chunks, (ios.size() + chunk - 1) / chunk);
      ASSERT_TRUE(reader->Rewind().ok());
    }
  }
  EXPECT_EQ(Count("trace_chunks"), 29 + 4);
}

TEST_F(TraceStreamTest, AnImportThatFailsMidwayStoresNothing) {
  // 150,000 IOs (three chunks written), then a line that is not an IO.
  {
    std::ofstream out(File("t.iolog"));
    out << "fio version 2 iolog\nf add\n";
    for (int i = 0; i < 150'000; ++i) out << "f read " << i * 4096 << " 4096\n";
    out << "f jump 0 1\n";
  }
  auto store = TraceStore::Open(path());
  ASSERT_TRUE(store.ok());
  {
    auto writer = store->BeginTrace(50'000);
    ASSERT_TRUE(writer.ok());
    auto imported =
        StreamTraceFile(File("t.iolog"), TraceFileFormat::kFioIolog, *writer);
    ASSERT_FALSE(imported.ok());
    EXPECT_NE(imported.error().message.find("t.iolog:150003: unknown action"),
              std::string::npos)
        << imported.error().message;
    EXPECT_EQ(writer->ios(), 150'000u);
  }  // dropped unfinished: rolled back
  EXPECT_EQ(Count("traces"), 0);
  EXPECT_EQ(Count("trace_chunks"), 0);
  // An IO out of issue order, or on a device the header lacks, fails too.
  {
    auto writer = store->BeginTrace();
    ASSERT_TRUE(writer->Append({5, -1, -1, 0, 512, 0, 0}).ok());
    EXPECT_FALSE(writer->Append({4, -1, -1, 0, 512, 0, 0}).ok());
    EXPECT_FALSE(writer->Finish(BlockIoTrace{}).ok());
  }
  {
    auto writer = store->BeginTrace();
    ASSERT_TRUE(writer->Append({5, -1, -1, 0, 512, 0, 3}).ok());
    BlockIoTrace one;
    one.devices = {{"d", 0}};
    EXPECT_FALSE(writer->Finish(one).ok());
  }
  EXPECT_EQ(Count("traces"), 0);
  EXPECT_EQ(Count("trace_chunks"), 0);
}

// The queue depth as the whole-trace summary computed it: every +1/-1
// step sorted (completions first at a tie), the area between steps.
std::pair<double, uint32_t> ExactDepth(const std::vector<TracedIo>& ios,
                                       int64_t duration) {
  std::vector<std::pair<int64_t, int>> steps;
  for (const TracedIo& io : ios) {
    steps.emplace_back(io.issue_ns, +1);
    steps.emplace_back(std::max(io.complete_ns, io.issue_ns), -1);
  }
  std::sort(steps.begin(), steps.end());
  const int64_t end = std::max(duration, steps.back().first);
  double total = 0;
  int depth = 0;
  uint32_t highest = 0;
  int64_t at = 0;
  for (const auto& [time, change] : steps) {
    total += static_cast<double>(depth) * static_cast<double>(time - at);
    at = time;
    depth += change;
    highest = std::max<uint32_t>(highest, std::max(depth, 0));
  }
  return {total / static_cast<double>(end), highest};
}

TEST(TraceStreamSummary, WithinTheHistogramsPrecisionOfTheExactFigures) {
  std::mt19937_64 random(40);
  std::lognormal_distribution<double> gap(9, 2);       // ~8 us, wide
  std::lognormal_distribution<double> service(11, 1);  // ~60 us
  std::uniform_int_distribution<int> small(0, 900);
  BlockIoTrace trace;
  trace.devices = {{"d", 0}};
  int64_t now = 0;
  std::vector<double> gaps, queue, device;
  for (int i = 0; i < 100'000; ++i) {
    const auto g = static_cast<int64_t>(gap(random));
    if (i > 0) gaps.push_back(static_cast<double>(g));
    now += g;
    TracedIo io;
    io.issue_ns = now;
    io.queue_ns = now - small(random);  // below 1,024 ns: exact
    io.complete_ns = now + static_cast<int64_t>(service(random));
    io.length = 4096;
    queue.push_back(static_cast<double>(io.issue_ns - io.queue_ns));
    device.push_back(static_cast<double>(io.complete_ns - io.issue_ns));
    trace.ios.push_back(io);
  }
  trace.duration_ns = now + 1'000'000;
  const TraceSummary s = SummarizeTrace(trace);
  const auto close = [](const TraceTimes& got, const TraceTimes& exact,
                        double relative) {
    EXPECT_EQ(got.count, exact.count);
    EXPECT_DOUBLE_EQ(got.max, exact.max);
    EXPECT_NEAR(got.mean, exact.mean, 1e-9 * exact.mean);
    EXPECT_NEAR(got.p50, exact.p50, relative * exact.p50);
    EXPECT_NEAR(got.p90, exact.p90, relative * exact.p90);
    EXPECT_NEAR(got.p99, exact.p99, relative * exact.p99);
  };
  close(s.interarrival_ns, SummarizeTraceTimes(gaps), 0.001);
  ASSERT_TRUE(s.device_ns && s.queue_ns);
  close(*s.device_ns, SummarizeTraceTimes(device), 0.001);
  close(*s.queue_ns, SummarizeTraceTimes(queue), 0);  // exact below 1 us
  const auto [mean_depth, max_depth] = ExactDepth(trace.ios, trace.duration_ns);
  ASSERT_TRUE(s.mean_queue_depth);
  EXPECT_NEAR(*s.mean_queue_depth, mean_depth, 1e-9 * mean_depth);
  EXPECT_EQ(s.max_queue_depth, max_depth);
  EXPECT_GT(max_depth, 3u);
}

// Collects what a reader hands on, noting when.
class RecordingSink : public TraceIoSink {
 public:
  Status Append(const TracedIo& io) override {
    ios.push_back(io);
    return OkStatus();
  }
  std::vector<TracedIo> ios;
};

TEST(BlkparseStream, IosLeaveInIssueOrderOnceResolvedAndWaitingIsBounded) {
  ImportFile file;
  file.name = "b.txt";
  RecordingSink sink;
  BlkparseReader reader(file, sink, /*max_waiting=*/3);
  const char* lines[] = {
      "8,0 0 1 0.000001000 5 D R 100 + 8 [a]",  // completes last
      "8,0 0 2 0.000002000 5 D R 200 + 8 [a]",
      "8,0 0 3 0.000003000 5 C R 200 + 8 [0]",
      "8,0 0 4 0.000004000 5 D W 300 + 8 [a]",
      "8,0 0 5 0.000005000 5 C W 300 + 8 [0]",
  };
  size_t number = 0;
  for (const char* line : lines) ASSERT_TRUE(reader.Line(line, ++number).ok());
  EXPECT_TRUE(sink.ios.empty()) << "the oldest request holds the others";
  ASSERT_TRUE(reader.Line("8,0 0 6 0.000009000 0 C R 100 + 8 [0]", 6).ok());
  ASSERT_EQ(sink.ios.size(), 3u) << "all three leave once it completes";
  EXPECT_EQ(sink.ios[0].offset, 100u * 512);
  EXPECT_EQ(sink.ios[0].complete_ns, 9'000);
  EXPECT_EQ(sink.ios[1].complete_ns, 3'000);
  EXPECT_EQ(sink.ios[2].complete_ns, 5'000);
  // One that never completes holds at most 3 requests back, then is
  // stored without its completion; its late C is ignored.
  ASSERT_TRUE(reader.Line("8,0 0 7 0.000010000 5 D R 900 + 8 [a]", 7).ok());
  for (int i = 0; i < 3; ++i) {
    const std::string at = std::to_string(11 + i);
    ASSERT_TRUE(reader
                    .Line("8,0 0 8 0.0000" + at + "000 5 D R " +
                              std::to_string(1000 + 8 * i) + " + 8 [a]",
                          8 + i)
                    .ok());
  }
  ASSERT_EQ(sink.ios.size(), 4u);
  EXPECT_EQ(sink.ios[3].offset, 900u * 512);
  EXPECT_EQ(sink.ios[3].complete_ns, -1);
  ASSERT_TRUE(reader.Line("8,0 0 9 0.000020000 0 C R 900 + 8 [0]", 11).ok());
  EXPECT_FALSE(reader.Line("8,0 0 9 0.000000500 5 D R 5 + 8 [a]", 12).ok())
      << "a D before the one above is refused";
  ASSERT_TRUE(reader.End().ok());
  ASSERT_EQ(sink.ios.size(), 7u);
  for (size_t i = 1; i < sink.ios.size(); ++i)
    EXPECT_LE(sink.ios[i - 1].issue_ns, sink.ios[i].issue_ns);
  const std::vector<std::string> notes = reader.header().notes;
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "1 requests were stored without their completion: more "
                      "than 3 later requests were issued before it"),
            notes.end());
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "3 requests had not completed when the trace ended"),
            notes.end());
}

class FailingSource : public TraceIoSource {
 public:
  Status Next(std::vector<TracedIo>& ios) override {
    if (calls_++ < 3) {
      ios = SomeIos(10);
      return OkStatus();
    }
    return RuntimeError("the disk went away");
  }

 private:
  int calls_ = 0;
};

TEST(TracePrefetcher, HandsOutEveryIoInOrderThenTheSourcesError) {
  const std::vector<TracedIo> ios = SomeIos(200'000);
  TraceVectorSource source(ios, 1'000);
  {
    TracePrefetcher ahead(source);
    size_t next = 0;
    for (const TracedIo* io = ahead.Next(); io != nullptr; io = ahead.Next())
      ASSERT_TRUE(SameIo(*io, ios[next++])) << next;
    EXPECT_EQ(next, ios.size());
    EXPECT_FALSE(ahead.error());
  }
  FailingSource failing;
  TracePrefetcher ahead(failing);
  size_t got = 0;
  while (ahead.Next() != nullptr) ++got;
  EXPECT_EQ(got, 30u);
  ASSERT_TRUE(ahead.error());
  EXPECT_EQ(ahead.error()->message, "the disk went away");
  TracePrefetcher dropped_early(source);  // destroyed without reading
}

TEST_F(TraceStreamTest, LinesAndHashOfAFileReadInPieces) {
  std::string text = "first\r\n" + std::string(3 << 20, 'x') + "\n\nlast";
  { std::ofstream(File("f.txt")) << text; }
  auto lines = ImportLineReader::Open(File("f.txt"));
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  std::vector<std::string> got;
  std::string_view line;
  for (;;) {
    auto next = lines->Next(line);
    ASSERT_TRUE(next.ok());
    if (!*next) break;
    got.emplace_back(line);
  }
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], "first");
  EXPECT_EQ(got[1].size(), size_t{3} << 20);
  EXPECT_EQ(got[2], "");
  EXPECT_EQ(got[3], "last");
  EXPECT_EQ(lines->HashHex(), Sha256Hex(text));
  Sha256 pieces;
  for (size_t at = 0, step = 1; at < text.size();
       at += step, step = step * 3 + 1)
    pieces.Update(std::string_view(text).substr(at, step));
  EXPECT_EQ(pieces.Hex(), Sha256Hex(text));
  EXPECT_EQ(Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_FALSE(ImportLineReader::Open(directory_).ok()) << "a directory";
}

}  // namespace
}  // namespace flashmark
