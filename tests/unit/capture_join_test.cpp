// `flashmark capture`'s parts on known events (issue 40): the block
// layer's RWBS read into operations, queued/issued/completed events joined
// into IOs (split and merged bios, events drained out of order, a process
// filter, a partition's range), and the trace written as fio's iolog v3
// read back by the importer as the same IOs.
#include "system/capture_join.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "model/block_io_trace.h"
#include "store/fio_iolog_import.h"
#include "store/fio_iolog_write.h"

namespace flashmark {
namespace {

TEST(TraceRwbs, ReadsTheKernelsOperationsAndFlags) {
  struct Case {
    const char* text;
    uint32_t sectors;
    TraceOp op;
    bool is_io, sync, fua;
  };
  const Case cases[] = {
      {"R", 8, TraceOp::kRead, true, false, false},
      {"RA", 8, TraceOp::kRead, true, false, false},
      {"WS", 8, TraceOp::kWrite, true, true, false},
      {"WFS", 8, TraceOp::kWrite, true, true, true},
      {"FWS", 0, TraceOp::kFlush, true, true, false},
      {"FWFS", 8, TraceOp::kWrite, true, true, true},
      {"FF", 0, TraceOp::kFlush, true, false, false},
      {"F", 0, TraceOp::kFlush, true, false, false},
      {"FN", 0, TraceOp::kFlush, true, false, false},
      {"N", 0, TraceOp::kFlush, false, false, false},
      {"D", 2048, TraceOp::kDiscard, true, false, false},
      {"DE", 2048, TraceOp::kDiscard, true, false, false},
      {"WM", 8, TraceOp::kWrite, true, false, false},
  };
  for (const Case& c : cases) {
    TraceRwbs rwbs;
    ASSERT_TRUE(ParseTraceRwbs(c.text, c.sectors, rwbs)) << c.text;
    EXPECT_EQ(rwbs.op, c.op) << c.text;
    EXPECT_EQ(rwbs.is_io, c.is_io) << c.text;
    EXPECT_EQ(rwbs.sync, c.sync) << c.text;
    EXPECT_EQ(rwbs.fua, c.fua) << c.text;
  }
  for (const char* bad : {"", "X", "WX", "RE", "W S", "FX"}) {
    TraceRwbs rwbs;
    EXPECT_FALSE(ParseTraceRwbs(bad, 8, rwbs)) << bad;
  }
}

constexpr uint32_t kDisk = (7u << 20) | 3;  // loop3

BlockEvent Event(BlockEvent::Kind kind, uint64_t us, uint64_t sector,
                 uint32_t sectors, const char* rwbs, uint32_t pid,
                 const char* comm = "app", uint32_t dev = kDisk) {
  BlockEvent e;
  e.kind = kind;
  e.dev = dev;
  e.sector = sector;
  e.sectors = sectors;
  e.ticks = us * 1000;  // CycleClock(): ticks are ns
  e.pid = pid;
  std::strncpy(e.rwbs, rwbs, sizeof(e.rwbs) - 1);
  std::strncpy(e.comm, comm, sizeof(e.comm) - 1);
  return e;
}
constexpr auto kQ = BlockEvent::Kind::kQueue;
constexpr auto kD = BlockEvent::Kind::kIssue;
constexpr auto kC = BlockEvent::Kind::kComplete;

std::vector<CaptureDevice> Loop3() { return {{"loop3", kDisk, 0, 0, 1 << 30}}; }

TEST(CaptureJoin, JoinsQueueIssueAndCompleteIntoIos) {
  CaptureJoin join(CycleClock(), 1000, Loop3(), false);
  join.Add(Event(kQ, 10, 2048, 8, "WS", 42, "writer"));
  join.Add(Event(kD, 12, 2048, 8, "WS", 42));
  join.Add(Event(kQ, 13, 0, 16, "R", 43, "reader"));
  join.Add(Event(kD, 15, 0, 16, "R", 7, "kworker/0:1"));
  join.Add(Event(kC, 20, 2048, 8, "WS", 0, ""));
  join.Add(Event(kC, 30, 0, 16, "R", 0, ""));
  join.Add(Event(kQ, 40, 0, 0, "FWS", 42, "writer"));
  join.Add(Event(kD, 41, 0, 0, "FF", 42));
  join.Add(Event(kC, 45, 0, 0, "FF", 0, ""));
  // Another disk's IO is not this capture's.
  join.Add(Event(kQ, 50, 8, 8, "W", 42, "writer", (8u << 20) | 0));
  join.Add(Event(kD, 51, 8, 8, "W", 42, "writer", (8u << 20) | 0));
  BlockIoTrace trace;
  join.Finish(trace);
  ASSERT_EQ(trace.ios.size(), 3u);
  const TracedIo& w = trace.ios[0];
  EXPECT_EQ(w.op, TraceOp::kWrite);
  EXPECT_TRUE(w.sync);
  EXPECT_EQ(w.offset, 2048u * 512);
  EXPECT_EQ(w.length, 4096u);
  EXPECT_EQ(w.queue_ns, 10'000 - 1000);
  EXPECT_EQ(w.issue_ns, 12'000 - 1000);
  EXPECT_EQ(w.complete_ns, 20'000 - 1000);
  EXPECT_EQ(w.pid, 42u);
  const TracedIo& r = trace.ios[1];
  EXPECT_EQ(r.op, TraceOp::kRead);
  EXPECT_EQ(r.pid, 43u) << "the process that queued it, not the kworker";
  EXPECT_EQ(r.length, 8192u);
  EXPECT_EQ(r.complete_ns, 30'000 - 1000);
  const TracedIo& f = trace.ios[2];
  EXPECT_EQ(f.op, TraceOp::kFlush);
  EXPECT_EQ(f.length, 0u);
  EXPECT_EQ(f.complete_ns, 45'000 - 1000);
  EXPECT_EQ(trace.processes.at(42), "writer");
  EXPECT_EQ(trace.processes.at(43), "reader");
  ASSERT_EQ(trace.devices.size(), 1u);
  EXPECT_EQ(trace.devices[0].name, "loop3");
  EXPECT_TRUE(trace.notes.empty()) << trace.notes[0];
}

// What this kernel's tracepoints say of a flush: issued at sector 0,
// completed at sector (sector_t)-1 (block_rq_complete takes blk_rq_pos(),
// block_rq_issue blk_rq_trace_sector()). Seen capturing SQLite on ext4
// on a loop device: 402 of 412 flushes were left "not completed" and the
// rest took the completions of later flushes (3.6 s "in the device").
TEST(CaptureJoin, AFlushCompletesAtTheKernelsNoSectorOnItsDisksDevice) {
  for (const uint64_t first : {uint64_t{0}, uint64_t{2048}}) {
    SCOPED_TRACE(first == 0 ? "the whole disk" : "a partition");
    const std::vector<CaptureDevice> devices = {
        {"loop3p1", kDisk, first, first == 0 ? uint64_t{0} : uint64_t{4096},
         4096u * 512}};
    CaptureJoin join(CycleClock(), 0, devices, false);
    constexpr uint64_t kNoSector = ~uint64_t{0};
    join.Add(Event(kQ, 10, 0, 0, "FWS", 42, "writer"));
    join.Add(Event(kD, 11, 0, 0, "FF", 42));
    join.Add(Event(kD, 20, 0, 0, "FF", 43));
    join.Add(Event(kD, 25, 3000, 8, "W", 43));
    join.Add(Event(kC, 30, kNoSector, 0, "FF", 0, ""));
    join.Add(Event(kC, 40, kNoSector, 0, "FF", 0, ""));
    join.Add(Event(kC, 50, 3000, 8, "W", 0, ""));
    BlockIoTrace trace;
    join.Finish(trace);
    ASSERT_EQ(trace.ios.size(), 3u);
    EXPECT_EQ(trace.ios[0].op, TraceOp::kFlush);
    EXPECT_EQ(trace.ios[0].offset, 0u);
    EXPECT_EQ(trace.ios[0].queue_ns, 10'000);
    EXPECT_EQ(trace.ios[0].complete_ns, 30'000) << "the oldest flush first";
    EXPECT_EQ(trace.ios[1].op, TraceOp::kFlush);
    EXPECT_EQ(trace.ios[1].complete_ns, 40'000);
    EXPECT_EQ(trace.ios[2].offset, (3000u - first) * 512);
    EXPECT_EQ(trace.ios[2].complete_ns, 50'000);
    EXPECT_TRUE(trace.notes.empty()) << trace.notes[0];
  }
}

TEST(CaptureJoin, EventsDrainedOutOfOrderAreJoinedInTimeOrder) {
  CaptureJoin join(CycleClock(), 0, Loop3(), false);
  // CPU 1's events come first, then CPU 0's older ones.
  join.Add(Event(kD, 12, 100, 8, "W", 5));
  join.Add(Event(kC, 30, 100, 8, "W", 0));
  join.Add(Event(kQ, 10, 100, 8, "W", 5));
  join.Join();  // within the hold-back: nothing joined yet
  EXPECT_EQ(join.ios(), 0u);
  join.Add(Event(kQ, 100'000, 200, 8, "W", 5));  // 100 ms later
  join.Join();
  EXPECT_EQ(join.ios(), 1u);
  BlockIoTrace trace;
  join.Finish(trace);
  ASSERT_EQ(trace.ios.size(), 1u);
  EXPECT_EQ(trace.ios[0].queue_ns, 10'000);
  EXPECT_EQ(trace.ios[0].complete_ns, 30'000);
  ASSERT_EQ(trace.notes.size(), 1u);
  EXPECT_NE(trace.notes[0].find("1 queued bios were never issued"),
            std::string::npos)
      << trace.notes[0];
}

TEST(CaptureJoin, SplitBiosAreOneQueueAndMergedBiosOneRequest) {
  CaptureJoin join(CycleClock(), 0, Loop3(), false);
  // A 1 MiB bio split into two 512 KiB requests.
  join.Add(Event(kQ, 10, 0, 2048, "W", 9));
  join.Add(Event(kD, 11, 0, 1024, "W", 9));
  join.Add(Event(kD, 12, 1024, 1024, "W", 9));
  // Three 4 KiB bios merged into one 12 KiB request.
  join.Add(Event(kQ, 20, 4096, 8, "W", 9));
  join.Add(Event(kQ, 21, 4104, 8, "W", 9));
  join.Add(Event(kQ, 22, 4112, 8, "W", 9));
  join.Add(Event(kD, 25, 4096, 24, "W", 9));
  BlockIoTrace trace;
  join.Finish(trace);
  ASSERT_EQ(trace.ios.size(), 3u);
  EXPECT_EQ(trace.ios[0].queue_ns, 10'000);
  EXPECT_EQ(trace.ios[1].queue_ns, 10'000);
  EXPECT_EQ(trace.ios[1].offset, 1024u * 512);
  EXPECT_EQ(trace.ios[1].pid, 9u);
  EXPECT_EQ(trace.ios[2].length, 24u * 512);
  EXPECT_EQ(trace.ios[2].queue_ns, 20'000);
  bool merged = false, not_completed = false;
  for (const std::string& note : trace.notes) {
    merged = merged || note.starts_with("2 queued bios were merged");
    not_completed = not_completed || note.starts_with("3 requests had not");
  }
  EXPECT_TRUE(merged && not_completed);
}

TEST(CaptureJoin, KeepsOnlyTheAllowedProcessesIo) {
  CaptureJoin join(CycleClock(), 0, Loop3(), true);
  join.AllowPid(100);
  join.AllowPid(101);  // a thread of it
  join.Add(Event(kQ, 10, 0, 8, "W", 100, "db"));
  join.Add(Event(kD, 11, 0, 8, "W", 100));
  join.Add(Event(kQ, 12, 8, 8, "W", 200, "other"));
  join.Add(Event(kD, 13, 8, 8, "W", 100));  // issued by 100, queued by 200
  join.Add(Event(kQ, 14, 64, 8, "R", 101, "db-io"));
  join.Add(Event(kD, 15, 64, 8, "R", 7, "kworker"));
  join.Add(Event(kC, 16, 8, 8, "W", 0));
  BlockIoTrace trace;
  join.Finish(trace);
  ASSERT_EQ(trace.ios.size(), 2u);
  EXPECT_EQ(trace.ios[0].pid, 100u);
  EXPECT_EQ(trace.ios[1].pid, 101u);
  EXPECT_EQ(trace.ios[1].op, TraceOp::kRead);
  EXPECT_EQ(trace.processes.size(), 2u);
  EXPECT_FALSE(trace.processes.contains(200));
}

TEST(CaptureJoin, APartitionIsItsRangeOfTheDisk) {
  // loop3p1 from sector 2048, 4096 sectors long.
  CaptureJoin join(CycleClock(), 0, {{"loop3p1", kDisk, 2048, 4096, 2 << 20}},
                   false);
  join.Add(Event(kQ, 10, 2048 + 16, 8, "W", 1));
  join.Add(Event(kD, 11, 2048 + 16, 8, "W", 1));
  join.Add(Event(kQ, 12, 8, 8, "W", 1));  // before it
  join.Add(Event(kD, 13, 8, 8, "W", 1));
  join.Add(Event(kQ, 14, 2048 + 4096, 8, "W", 1));  // after it
  join.Add(Event(kD, 15, 2048 + 4096, 8, "W", 1));
  BlockIoTrace trace;
  join.Finish(trace);
  ASSERT_EQ(trace.ios.size(), 1u);
  EXPECT_EQ(trace.ios[0].offset, 16u * 512);
}

TEST(CaptureJoin, RequestsOfNoOperationAreLeftOutAndCounted) {
  CaptureJoin join(CycleClock(), 0, Loop3(), false);
  join.Add(Event(kD, 11, 0, 0, "N", 1));
  BlockIoTrace trace;
  join.Finish(trace);
  EXPECT_TRUE(trace.ios.empty());
  ASSERT_EQ(trace.notes.size(), 1u);
  EXPECT_NE(trace.notes[0].find("no operation"), std::string::npos);
}

TEST(FioIologWrite, Version3ReadsBackAsTheSameIos) {
  BlockIoTrace trace;
  trace.devices = {{"loop3", 1 << 30}, {"loop4p1", 1 << 20}};
  const auto io = [](int64_t queue, int64_t issue, uint64_t offset,
                     uint32_t length, TraceOp op, uint16_t device) {
    TracedIo t;
    t.queue_ns = queue;
    t.issue_ns = issue;
    t.offset = offset;
    t.length = length;
    t.op = op;
    t.device = device;
    return t;
  };
  // By issue time; the log orders by queue time (the second was queued
  // first).
  trace.ios = {io(5'000, 9'000, 4096, 4096, TraceOp::kWrite, 0),
               io(3'000, 9'500, 0, 8192, TraceOp::kRead, 1),
               io(-1, 12'000, 0, 0, TraceOp::kFlush, 0),
               io(20'000, 21'000, 1 << 20, 1 << 20, TraceOp::kDiscard, 0)};
  const std::string text = FioIologV3Text(trace);
  EXPECT_TRUE(text.starts_with("fio version 3 iolog\n0 /dev/loop3 add\n"))
      << text;
  EXPECT_NE(text.find("\n3 /dev/loop4p1 read 0 8192\n5 /dev/loop3 write "
                      "4096 4096\n12 /dev/loop3 sync 0 0\n20 /dev/loop3 trim "
                      "1048576 1048576\n"),
            std::string::npos)
      << text;
  auto back = ParseFioIolog({"t.iolog", text, 0});
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->devices.size(), 2u);
  EXPECT_EQ(back->devices[0].name, "/dev/loop3");
  ASSERT_EQ(back->ios.size(), 4u);
  EXPECT_EQ(back->ios[0].op, TraceOp::kRead);
  EXPECT_EQ(back->ios[0].device, 1);
  EXPECT_EQ(back->ios[0].length, 8192u);
  EXPECT_EQ(back->ios[0].issue_ns, 3'000);
  EXPECT_EQ(back->ios[1].op, TraceOp::kWrite);
  EXPECT_EQ(back->ios[1].offset, 4096u);
  EXPECT_EQ(back->ios[2].op, TraceOp::kFlush);
  EXPECT_EQ(back->ios[3].op, TraceOp::kDiscard);
  EXPECT_EQ(back->ios[3].length, 1u << 20);
}

}  // namespace
}  // namespace flashmark
