// blktrace's binary records (store/blktrace_binary.h) decoded as blkparse
// reads them: every event of the kernel's own binary files of a loop
// device (tests/fixtures/trace/loop1.blktrace.N) has the device, CPU,
// sequence, time, process, action, RWBS and sectors that blkparse 1.2.0
// printed for it (loop1-blkparse.txt); the other byte order reads alike;
// truncated and foreign files are refused at their byte.
#include "store/blktrace_binary.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "store/blkparse_import.h"

namespace flashmark {
namespace {

ImportFile BinaryFixture(const std::string& name) {
  auto file =
      ReadImportFile(std::string(FLASHMARK_FIXTURES) + "/trace/" + name);
  EXPECT_TRUE(file.ok()) << file.error().message;
  return file.ok() ? *file : ImportFile{};
}

std::vector<ImportFile> Loop1Files() {
  return {BinaryFixture("loop1.blktrace.0"), BinaryFixture("loop1.blktrace.1")};
}

// One event line of blkparse's text: the words it printed.
struct PrintedEvent {
  std::string device, action, rwbs;
  int64_t time_ns = 0;
  uint32_t pid = 0;
  std::optional<uint64_t> sector;
  std::optional<uint32_t> sectors;
};

std::map<std::pair<uint32_t, uint32_t>, PrintedEvent> PrintedEvents() {
  const ImportFile text = BinaryFixture("loop1-blkparse.txt");
  std::map<std::pair<uint32_t, uint32_t>, PrintedEvent> printed;
  for (std::string_view line : SplitLines(text.text)) {
    const std::vector<std::string_view> w = SplitBlanks(line);
    if (w.size() < 7 || w[0].find(',') == std::string_view::npos) continue;
    PrintedEvent e;
    e.device = std::string(w[0]);
    const uint32_t cpu = static_cast<uint32_t>(std::stoul(std::string(w[1])));
    const uint32_t sequence =
        static_cast<uint32_t>(std::stoul(std::string(w[2])));
    const std::string time(w[3]);
    const size_t dot = time.find('.');
    e.time_ns = std::stoll(time.substr(0, dot)) * 1'000'000'000 +
                std::stoll(time.substr(dot + 1));
    e.pid = static_cast<uint32_t>(std::stoul(std::string(w[4])));
    e.action = std::string(w[5]);
    e.rwbs = std::string(w[6]);
    if (w.size() >= 10 && w[8] == "+") {
      e.sector = std::stoull(std::string(w[7]));
      e.sectors = static_cast<uint32_t>(std::stoul(std::string(w[9])));
    }
    printed[{cpu, sequence}] = e;
  }
  return printed;
}

TEST(BlktraceBinary, EveryEventIsWhatBlkparsePrintedForIt) {
  auto decoded = DecodeBlktraceBinary(Loop1Files());
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  const auto printed = PrintedEvents();
  ASSERT_EQ(printed.size(), 640u);
  ASSERT_EQ(decoded->events.size(), printed.size());
  const int64_t genesis = decoded->events.front().time_ns;
  int64_t previous = genesis;
  std::map<std::string, int> actions;
  for (const BlktraceEvent& event : decoded->events) {
    EXPECT_GE(event.time_ns, previous);  // merged by time across CPUs
    previous = event.time_ns;
    const auto found = printed.find({event.cpu, event.sequence});
    ASSERT_NE(found, printed.end()) << event.cpu << " " << event.sequence;
    const PrintedEvent& p = found->second;
    const std::string where =
        fmt::format("cpu {} sequence {}", event.cpu, event.sequence);
    EXPECT_EQ(BlktraceDeviceName(event.device), p.device) << where;
    EXPECT_EQ(event.time_ns - genesis, p.time_ns) << where;
    EXPECT_EQ(event.pid, p.pid) << where;
    EXPECT_EQ(event.action, p.action) << where;
    EXPECT_EQ(event.rwbs, p.rwbs) << where;
    if (p.sector) {
      EXPECT_EQ(event.sector, *p.sector) << where;
      EXPECT_EQ(event.sectors, *p.sectors) << where;
    }
    ++actions[event.action];
  }
  // The workload's kinds of events are all there: queued, merged, issued,
  // completed, plugs.
  EXPECT_EQ(actions["D"], 103);
  EXPECT_EQ(actions["C"], 104);
  EXPECT_EQ(actions["M"], 11);
  EXPECT_EQ(actions["Q"], 114);
}

// The binary files and blkparse's text of them are one trace, IO by IO:
// 103 requests (reads, writes, a flush, a discard) with their queue and
// completion times and processes; the real flush ("Q FWS", "D FN", "C FN
// 0 [0]", no sectors) is an IO of both.
TEST(BlktraceBinary, TheFilesAndBlkparsesTextOfThemAreOneTrace) {
  auto binary = ParseBlktraceBinary(Loop1Files());
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  auto text = ParseBlkparseText(BinaryFixture("loop1-blkparse.txt"));
  ASSERT_TRUE(text.ok()) << text.error().message;
  ASSERT_EQ(binary->ios.size(), 103u);
  ASSERT_EQ(text->ios.size(), binary->ios.size());
  int flushes = 0, discards = 0, completed = 0;
  for (size_t i = 0; i < binary->ios.size(); ++i) {
    const TracedIo& a = binary->ios[i];
    const TracedIo& b = text->ios[i];
    EXPECT_EQ(std::tie(a.issue_ns, a.queue_ns, a.complete_ns, a.offset,
                       a.length, a.pid, a.op, a.sync, a.fua),
              std::tie(b.issue_ns, b.queue_ns, b.complete_ns, b.offset,
                       b.length, b.pid, b.op, b.sync, b.fua))
        << i;
    flushes += a.op == TraceOp::kFlush;
    discards += a.op == TraceOp::kDiscard;
    completed += a.complete_ns >= a.issue_ns;
  }
  EXPECT_EQ(flushes, 1);
  EXPECT_EQ(discards, 1);
  EXPECT_EQ(completed, 103);
  EXPECT_EQ(binary->devices[0].name, "7,1");
  EXPECT_EQ(binary->notes, text->notes);
  // blkparse's "(null)": no name was recorded, none is invented.
  EXPECT_TRUE(text->processes.empty());
}

TEST(BlktraceBinary, TheOtherByteOrderReadsAlike) {
  std::vector<ImportFile> files = Loop1Files();
  // Reverse each field of each record: what a big-endian machine wrote.
  for (ImportFile& file : files) {
    std::string& b = file.text;
    size_t at = 0;
    while (at < b.size()) {
      uint16_t pdu = 0;
      std::memcpy(&pdu, b.data() + at + 46, 2);
      const std::pair<size_t, size_t> fields[] = {
          {0, 4},  {4, 4},  {8, 8},  {16, 8}, {24, 4}, {28, 4},
          {32, 4}, {36, 4}, {40, 4}, {44, 2}, {46, 2}};
      for (const auto& [offset, size] : fields) {
        std::reverse(b.begin() + static_cast<long>(at + offset),
                     b.begin() + static_cast<long>(at + offset + size));
      }
      at += 48 + pdu;
    }
  }
  auto swapped = DecodeBlktraceBinary(files);
  auto native = DecodeBlktraceBinary(Loop1Files());
  ASSERT_TRUE(swapped.ok()) << swapped.error().message;
  ASSERT_TRUE(native.ok());
  ASSERT_EQ(swapped->events.size(), native->events.size());
  for (size_t i = 0; i < native->events.size(); ++i) {
    const BlktraceEvent& a = native->events[i];
    const BlktraceEvent& b = swapped->events[i];
    EXPECT_EQ(std::tie(a.time_ns, a.device, a.cpu, a.sequence, a.pid, a.action,
                       a.rwbs, a.sector, a.sectors),
              std::tie(b.time_ns, b.device, b.cpu, b.sequence, b.pid, b.action,
                       b.rwbs, b.sector, b.sectors))
        << i;
  }
}

TEST(BlktraceBinary, BadFilesAreRefusedAtTheirByte) {
  ImportFile cut = BinaryFixture("loop1.blktrace.1");
  cut.text.resize(cut.text.size() - 20);
  auto truncated = DecodeBlktraceBinary({cut});
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos)
      << truncated.error().message;
  EXPECT_NE(truncated.error().message.find("loop1.blktrace.1: byte 5128"),
            std::string::npos)
      << truncated.error().message;

  ImportFile text = BinaryFixture("loop1-blkparse.txt");
  EXPECT_FALSE(LooksLikeBlktraceBinary(text.text));
  EXPECT_FALSE(DecodeBlktraceBinary({text}).ok());

  ImportFile other_version = BinaryFixture("loop1.blktrace.1");
  other_version.text[48] = 0x06;  // the second record's version
  auto refused = DecodeBlktraceBinary({other_version});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("byte 48: record version 6"),
            std::string::npos)
      << refused.error().message;

  // CPU 1's records in the file of CPU 0.
  ImportFile misnamed = BinaryFixture("loop1.blktrace.1");
  misnamed.name = "dir/loop1.blktrace.0";
  auto wrong_cpu = DecodeBlktraceBinary({misnamed});
  ASSERT_FALSE(wrong_cpu.ok());
  EXPECT_NE(wrong_cpu.error().message.find("CPU 1 in the file of CPU 0"),
            std::string::npos)
      << wrong_cpu.error().message;
}

}  // namespace
}  // namespace flashmark
