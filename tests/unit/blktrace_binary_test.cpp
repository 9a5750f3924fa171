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
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "config/campaign_hash.h"
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

// Every event of a stream, in its order.
Result<std::vector<BlktraceEvent>> EventsOf(BlktraceEventStream& stream) {
  std::vector<BlktraceEvent> events;
  BlktraceEvent event;
  for (;;) {
    auto next = stream.Next(event);
    if (!next.ok()) return next.error();
    if (!*next) return events;
    events.push_back(event);
  }
}

Result<std::vector<BlktraceEvent>> AllEvents(
    const std::vector<ImportFile>& files) {
  BlktraceEventStream stream = BlktraceEventStream::OfMemory(files);
  return EventsOf(stream);
}

auto Fields(const BlktraceEvent& e) {
  return std::tie(e.time_ns, e.device, e.cpu, e.sequence, e.pid, e.action,
                  e.rwbs, e.sector, e.sectors, e.error);
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
  auto decoded = AllEvents(Loop1Files());
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  const auto printed = PrintedEvents();
  ASSERT_EQ(printed.size(), 640u);
  ASSERT_EQ((*decoded).size(), printed.size());
  const int64_t genesis = (*decoded).front().time_ns;
  int64_t previous = genesis;
  std::map<std::string, int> actions;
  for (const BlktraceEvent& event : (*decoded)) {
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
  auto swapped = AllEvents(files);
  auto native = AllEvents(Loop1Files());
  ASSERT_TRUE(swapped.ok()) << swapped.error().message;
  ASSERT_TRUE(native.ok());
  ASSERT_EQ((*swapped).size(), (*native).size());
  for (size_t i = 0; i < (*native).size(); ++i) {
    EXPECT_EQ(Fields((*native)[i]), Fields((*swapped)[i])) << i;
  }
}

TEST(BlktraceBinary, BadFilesAreRefusedAtTheirByte) {
  ImportFile cut = BinaryFixture("loop1.blktrace.1");
  cut.text.resize(cut.text.size() - 20);
  auto truncated = AllEvents({cut});
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos)
      << truncated.error().message;
  EXPECT_NE(truncated.error().message.find("loop1.blktrace.1: byte 5128"),
            std::string::npos)
      << truncated.error().message;

  ImportFile text = BinaryFixture("loop1-blkparse.txt");
  EXPECT_FALSE(LooksLikeBlktraceBinary(text.text));
  EXPECT_FALSE(AllEvents({text}).ok());

  ImportFile other_version = BinaryFixture("loop1.blktrace.1");
  other_version.text[48] = 0x06;  // the second record's version
  auto refused = AllEvents({other_version});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("byte 48: record version 6"),
            std::string::npos)
      << refused.error().message;

  // CPU 1's records in the file of CPU 0.
  ImportFile misnamed = BinaryFixture("loop1.blktrace.1");
  misnamed.name = "dir/loop1.blktrace.0";
  auto wrong_cpu = AllEvents({misnamed});
  ASSERT_FALSE(wrong_cpu.ok());
  EXPECT_NE(wrong_cpu.error().message.find("CPU 1 in the file of CPU 0"),
            std::string::npos)
      << wrong_cpu.error().message;
}

// One record as blktrace writes it (this machine's byte order): an event,
// or with `payload` a process's notify record.
std::string Record(uint32_t sequence, uint64_t time_ns, uint32_t action,
                   uint64_t sector, uint32_t bytes, uint32_t pid, uint32_t cpu,
                   const std::string& payload = "") {
  std::string r(48, '\0');
  const auto put = [&r](size_t at, auto value) {
    std::memcpy(r.data() + at, &value, sizeof value);
  };
  put(0, uint32_t{0x65617407});
  put(4, sequence);
  put(8, time_ns);
  put(16, sector);
  put(24, bytes);
  put(28, action);
  put(32, pid);
  put(36, uint32_t{(7u << 20) | 1u});
  put(40, cpu);
  put(44, uint16_t{0});
  put(46, static_cast<uint16_t>(payload.size()));
  return r + payload;
}

// Files of any length stream through their buffers, merged by time: two
// CPUs' files of 30,000 events each (2.8 MiB, records across every 256 KiB
// buffer's end: a notify record of an odd length every 7 events) read from
// disk give the events held in memory give, in time order, whichever file
// is named first; their digest is each file's, then of both.
TEST(BlktraceBinary, LongFilesStreamInTimeOrderFromDiskAsFromMemory) {
  constexpr uint32_t kQueue = 1u | (1u << (16 + 1));  // Q, a write
  constexpr uint32_t kNotify = 1u << (16 + 10);
  std::vector<ImportFile> files(2);
  for (uint32_t cpu = 0; cpu < 2; ++cpu) {
    files[cpu].name =
        fmt::format("{}/stream.blktrace.{}", testing::TempDir(), cpu);
    for (uint32_t i = 0; i < 30000; ++i) {
      if (i % 7 == 0) {
        files[cpu].text += Record(0, 0, kNotify, 0, 0, 100 + i, cpu,
                                  fmt::format("app-{}-{}", cpu, i));
      }
      // CPU 1's events fall between CPU 0's.
      files[cpu].text += Record(i + 1, 1000 * uint64_t{i} + 500 * cpu, kQueue,
                                8 * uint64_t{i}, 4096, 100 + i, cpu);
    }
    std::ofstream(files[cpu].name, std::ios::binary) << files[cpu].text;
  }
  auto in_memory = AllEvents(files);
  ASSERT_TRUE(in_memory.ok()) << in_memory.error().message;
  ASSERT_EQ(in_memory->size(), 60000u);
  for (size_t i = 0; i < in_memory->size(); ++i) {
    const BlktraceEvent& e = (*in_memory)[i];
    ASSERT_EQ(e.time_ns, static_cast<int64_t>(500 * i)) << i;
    ASSERT_EQ(e.cpu, i % 2) << i;
    ASSERT_EQ(e.action, "Q");
    ASSERT_EQ(e.rwbs, "W");
  }
  for (const auto& order : {std::vector<size_t>{0, 1}, {1, 0}}) {
    const std::vector<std::string> paths = {files[order[0]].name,
                                            files[order[1]].name};
    auto stream = BlktraceEventStream::Open(paths);
    ASSERT_TRUE(stream.ok()) << stream.error().message;
    auto from_disk = EventsOf(*stream);
    ASSERT_TRUE(from_disk.ok()) << from_disk.error().message;
    ASSERT_EQ(from_disk->size(), in_memory->size());
    for (size_t i = 0; i < in_memory->size(); ++i) {
      ASSERT_EQ(Fields((*from_disk)[i]), Fields((*in_memory)[i])) << i;
    }
    EXPECT_EQ(stream->processes().at(100 + 29995), "app-1-29995");
    EXPECT_EQ(stream->HashHex(),
              Sha256Hex(Sha256Hex(files[order[0]].text) + "\n" +
                        Sha256Hex(files[order[1]].text) + "\n"));
  }
  auto one = BlktraceEventStream::Open({files[1].name});
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(EventsOf(*one).ok());
  EXPECT_EQ(one->HashHex(), Sha256Hex(files[1].text));

  // Cut inside a record far beyond the first buffer: refused at its byte,
  // after the events before it.
  const size_t cut_at = files[0].text.size() - 100;
  std::ofstream(files[0].name, std::ios::binary | std::ios::trunc)
      << files[0].text.substr(0, cut_at);
  auto cut = BlktraceEventStream::Open({files[0].name});
  ASSERT_TRUE(cut.ok());
  auto refused = EventsOf(*cut);
  ASSERT_FALSE(refused.ok());
  // (the file ends in 4 events of 48 bytes: the cut is in the third last)
  const size_t record_start = files[0].text.size() - 3 * 48;
  EXPECT_NE(
      refused.error().message.find(fmt::format(
          "stream.blktrace.0: byte {}: a record cut short", record_start)),
      std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace flashmark
