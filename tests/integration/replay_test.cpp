// `flashmark replay TRACE TARGET...` (issue 40): a trace imported from an
// fio iolog written here is replayed onto a temporary file and recorded as
// a run: the IOs, bytes and op mix are the trace's, the written blocks are
// where --map puts them, --timing original keeps the trace's inter-arrival
// times (a slow trace, 500 IOPS, so that it holds on a loaded machine),
// afap is far faster; a loop device is written only when named in
// --allow-destroy; bad input is exit 2 with nothing stored or written.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "binary_runner.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

struct ReplayIologLine {
  int64_t micros = 0;
  std::string action;  // read, write, sync, trim
  uint64_t offset = 0;
  uint32_t length = 0;
};

std::string ReplayIologText(const std::vector<ReplayIologLine>& lines) {
  std::string text = "fio version 3 iolog\n0 f add\n0 f open\n";
  int64_t last = 0;
  for (const ReplayIologLine& line : lines) {
    text += std::to_string(line.micros) + " f " + line.action + " " +
            std::to_string(line.offset) + " " + std::to_string(line.length) +
            "\n";
    last = line.micros;
  }
  return text + std::to_string(last + 1) + " f close\n";
}

void MakeReplayTarget(const std::string& path, off_t bytes) {
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, bytes), 0);
  close(fd);
}

// Which 4 KiB blocks of the file hold anything but zeros.
std::set<uint64_t> ReplayWrittenBlocks(const std::string& path) {
  const std::string data = ReadFile(path);
  std::set<uint64_t> blocks;
  for (size_t at = 0; at + 4096 <= data.size(); at += 4096) {
    // (within the block only: a search to the end of a mostly zero 16 MiB
    // file per block took minutes under ASan)
    const std::string_view block(data.data() + at, 4096);
    if (block.find_first_not_of('\0') != std::string_view::npos)
      blocks.insert(at / 4096);
  }
  return blocks;
}

// Imports `lines` as trace 1 of `db`.
void ImportReplayTrace(TempDir& dir, const std::string& db,
                       const std::vector<ReplayIologLine>& lines) {
  const std::string path = dir.File("trace.iolog");
  WriteText(path, ReplayIologText(lines));
  const Invocation imported = RunFlashmark({"import", "fio-iolog", path, db});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
}

json ReplayedRunJson(const std::string& db, int id) {
  const Invocation shown =
      RunFlashmark({"show", std::to_string(id), "--json", db});
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  return json::parse(shown.out);
}

TEST(Replay, IosBytesAndOpMixAreTheTracesAndStoredAsARun) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  // 120 writes, 60 reads, 2 syncs, 2 trims, 1 ms apart.
  std::vector<ReplayIologLine> lines;
  int64_t t = 0;
  for (int i = 0; i < 180; ++i) {
    const bool read = i % 3 == 2;
    lines.push_back({t += 1000, read ? "read" : "write",
                     static_cast<uint64_t>(i) * 8192, read ? 8192u : 4096u});
    if (i == 60 || i == 120) lines.push_back({t += 1000, "sync", 0, 0});
    if (i == 90 || i == 150) {
      lines.push_back({t += 1000, "trim", 4096u * 1000, 65536});
    }
  }
  ImportReplayTrace(dir, db, lines);
  const std::string target = dir.File("target");
  MakeReplayTarget(target, 4 << 20);
  const Invocation replay =
      RunFlashmark({"replay", "1", target, "--timing", "afap", db});
  ASSERT_EQ(replay.exit_code, 0) << replay.err << replay.out;
  EXPECT_NE(replay.out.find("replay of trace 1 (fio-iolog), timing afap"),
            std::string::npos)
      << replay.out;
  const json run = ReplayedRunJson(db, 1);
  const json& r = run["replay"];
  EXPECT_EQ(r["trace_id"], 1);
  EXPECT_EQ(r["issued"], r["trace_ops"]);
  EXPECT_EQ(r["issued"]["writes"], 120);
  EXPECT_EQ(r["issued"]["reads"], 60);
  EXPECT_EQ(r["issued"]["flushes"], 2);
  EXPECT_EQ(r["issued"]["discards"], 2);
  EXPECT_EQ(r["issued"]["write_bytes"], 120 * 4096);
  EXPECT_EQ(r["issued"]["read_bytes"], 60 * 8192);
  EXPECT_EQ(r["issued"]["discard_bytes"], 2 * 65536);
  EXPECT_EQ(r["fidelity"]["ios"], 184);
  EXPECT_EQ(r["fidelity"]["timed"], false);
  // The run's own counters are the same IOs (recorded by the sampler).
  EXPECT_EQ(run["summary"]["write"]["ios"], 120);
  EXPECT_EQ(run["summary"]["read"]["ios"], 60);
  EXPECT_EQ(run["summary"]["write"]["bytes"], 120 * 4096);
  EXPECT_EQ(run["summary"]["fsyncs"], 2);
  EXPECT_EQ(run["status"], "ok");
  // show and analyze print the fidelity; list has the run.
  const Invocation shown = RunFlashmark({"show", "1", db});
  EXPECT_NE(shown.out.find("replayed 60 reads"), std::string::npos)
      << shown.out;
  // It is repeated by its own command, not by a `flashmark run`.
  const size_t reproduce = shown.out.find("reproduce with\n  ");
  ASSERT_NE(reproduce, std::string::npos) << shown.out;
  const std::string replay_command =
      std::string(FLASHMARK_BINARY) + " replay 1 " + target + " --timing afap";
  EXPECT_EQ(shown.out.find(replay_command, reproduce),
            reproduce + std::string("reproduce with\n  ").size())
      << shown.out;
  EXPECT_EQ(shown.out.find("flashmark run"), std::string::npos) << shown.out;
  // A replay shorter than an interval has no headline to analyse, but
  // analyze still prints its fidelity.
  const Invocation analyzed = RunFlashmark({"analyze", "1", db});
  EXPECT_NE(analyzed.out.find("replayed 60 reads"), std::string::npos)
      << analyzed.out << analyzed.err;
  EXPECT_EQ(json::parse(RunFlashmark({"list", "--json", db}).out).size(), 1u);
}

TEST(Replay, OffsetsLandWhereTheMapPutsThem) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  // Every third 4 KiB block of 4 MiB, written once, onto a 1 MiB file.
  std::vector<ReplayIologLine> lines;
  std::set<uint64_t> modulo, linear, none;
  const uint64_t trace_blocks = 1024, target_blocks = 256;
  for (uint64_t block = 0; block < trace_blocks; block += 3) {
    lines.push_back(
        {static_cast<int64_t>(block) * 10, "write", block * 4096, 4096});
    modulo.insert(block % target_blocks);
    // linear: offset x (T - 4 KiB) / (S - 4 KiB), rounded down to 4 KiB.
    linear.insert(block * 4096 * (target_blocks - 1) * 4096 /
                  ((trace_blocks - 1) * 4096) / 4096);
  }
  ImportReplayTrace(dir, db, lines);
  for (const auto& [map, expected] :
       {std::pair<std::string, std::set<uint64_t>>{"modulo", modulo},
        {"linear", linear}}) {
    const std::string target = dir.File("target-" + map);
    MakeReplayTarget(target, 1 << 20);
    const Invocation replay = RunFlashmark(
        {"replay", "1", target, "--timing", "afap", "--map", map, db});
    ASSERT_EQ(replay.exit_code, 0) << map << replay.err;
    EXPECT_EQ(ReplayWrittenBlocks(target), expected) << map;
  }
  // Without --map the 4 MiB trace is refused on 1 MiB, naming both sizes;
  // nothing is written or stored.
  const std::string small = dir.File("small");
  MakeReplayTarget(small, 1 << 20);
  const Invocation refused = RunFlashmark({"replay", "1", small, db});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("4194304 bytes"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("1048576 bytes"), std::string::npos)
      << refused.err;
  EXPECT_TRUE(ReplayWrittenBlocks(small).empty());
  EXPECT_EQ(json::parse(RunFlashmark({"list", "--json", db}).out).size(), 2u);
}

// A directory TARGET: a file set of --file-num files spanning the traced
// device is laid out there (kept for the next replay) and replayed onto;
// where each IO lands in it is workload/trace_placement's (unit tests).
TEST(Replay, ADirectoryIsAFileSetSpanningTheTracedDevice) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  std::vector<ReplayIologLine> lines;
  for (uint64_t block = 0; block < 1024; block += 7) {
    lines.push_back({static_cast<int64_t>(block) * 10,
                     block % 2 ? "read" : "write", block * 4096, 4096});
  }
  ImportReplayTrace(dir, db, lines);
  const std::string set = dir.File("set");
  std::filesystem::create_directory(set);
  const Invocation replay =
      RunFlashmark({"replay", "1", set, "--timing", "afap", "--file-num", "4",
                    "-q", "--json", "-", db});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const json run = json::parse(replay.out);
  const json& target = run["environment"]["targets"][0];
  EXPECT_EQ(target["kind"], "file set");
  EXPECT_EQ(target["file_count"], 4);
  EXPECT_GE(target["bytes"].get<uint64_t>(), uint64_t{4} << 20);
  const json& issued = run["replay"]["issued"];
  EXPECT_EQ(issued["reads"].get<int>() + issued["writes"].get<int>(),
            static_cast<int>(lines.size()));
  EXPECT_EQ(DirectoryEntries(set), 4u + 1u) << "4 files and the manifest";
  const Invocation none =
      RunFlashmark({"replay", "1", set, "--file-num", "0", db});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--file-num: 0"), std::string::npos) << none.err;
}

TEST(Replay, OriginalTimingKeepsTheInterArrivalTimesAndAfapIsFaster) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  // 500 IOPS on average: 1.6 ms apart, every tenth 5.6 ms; 400 IOs.
  std::vector<ReplayIologLine> lines;
  int64_t t = 0;
  for (int i = 0; i < 400; ++i) {
    t += i % 10 == 9 ? 5600 : 1600;
    lines.push_back({t, "write", static_cast<uint64_t>(i % 256) * 4096, 4096});
  }
  ImportReplayTrace(dir, db, lines);
  const json trace =
      json::parse(RunFlashmark({"show", "--trace", "1", "--json", db}).out);
  const double trace_p50 = trace["interarrival_ns"]["p50"];
  const double trace_p99 = trace["interarrival_ns"]["p99"];
  const std::string target = dir.File("target");
  MakeReplayTarget(target, 1 << 20);
  // --buffered: the replay's own timing is under test, not the latency of
  // this machine's disk under the tests beside it (O_DIRECT writes to a
  // file on it failed the p99 under a neighbour's heavy IO). The trace's
  // p99 is its 5.6 ms gaps, 40 of the 400: four IOs a neighbour delays by
  // 0.3 ms on these 2 shared cores (a build beside make test) move it by
  // more than 5 %. Up to three replays are made; one must hold both.
  std::string misses;
  bool held = false;
  int replays = 0;
  json original;
  while (!held && replays < 3) {
    ASSERT_EQ(
        RunFlashmark({"replay", "1", target, "-q", "--buffered", db}).exit_code,
        0);
    original = ReplayedRunJson(db, ++replays)["replay"]["fidelity"];
    const json& gaps = original["interarrival_ns"];
    held =
        std::abs(gaps["p50"].get<double>() - trace_p50) <= 0.05 * trace_p50 &&
        std::abs(gaps["p99"].get<double>() - trace_p99) <= 0.05 * trace_p99;
    misses += "replay " + std::to_string(replays) + ": p50 " +
              gaps["p50"].dump() + " ns, p99 " + gaps["p99"].dump() + " ns; ";
  }
  EXPECT_TRUE(held) << misses << "trace: p50 " << trace_p50 << " ns, p99 "
                    << trace_p99 << " ns";
  EXPECT_EQ(original["timed"], true);
  // The series per interval (1 s: one or two for 0.8 s) covers every IO,
  // and its largest error is the replay's.
  const json& series = original["series"];
  EXPECT_EQ(series["interval_ns"], 1'000'000'000);
  ASSERT_GE(series["ios"].size(), 1u);
  ASSERT_EQ(series["error_p99_ns"].size(), series["ios"].size());
  uint64_t series_ios = 0;
  double series_max = -1e18;
  for (size_t k = 0; k < series["ios"].size(); ++k) {
    series_ios += series["ios"][k].get<uint64_t>();
    if (series["ios"][k].get<uint64_t>() > 0) {
      series_max =
          std::max(series_max, series["error_max_ns"][k].get<double>());
    }
  }
  EXPECT_EQ(series_ios, original["ios"].get<uint64_t>());
  EXPECT_NEAR(series_max, original["issue_error_ns"]["max"].get<double>(), 0.5);
  ASSERT_EQ(RunFlashmark({"replay", "1", target, "-q", "--buffered", "--timing",
                          "afap", db})
                .exit_code,
            0);
  const json original_run = ReplayedRunJson(db, replays);
  const json afap_run = ReplayedRunJson(db, replays + 1);
  const double original_s = original_run["summary"]["elapsed_seconds"];
  const double afap_s = afap_run["summary"]["elapsed_seconds"];
  EXPECT_GT(original_s, 0.8);  // the trace lasts 0.8 s
  EXPECT_LT(afap_s * 5, original_s);
  ASSERT_EQ(RunFlashmark({"replay", "1", target, "-q", "--buffered", "--timing",
                          "scaled:4", db})
                .exit_code,
            0);
  const json scaled = ReplayedRunJson(db, replays + 2)["replay"]["fidelity"];
  EXPECT_NEAR(scaled["interarrival_ns"]["p50"].get<double>(), trace_p50 / 4,
              0.1 * trace_p50 / 4);
}

TEST(Replay, BadInputIsExitTwoWithNothingStoredOrWritten) {
  TempDir dir;
  const std::string path = dir.File("runs.db");
  const std::string db = "--db=" + path;
  ImportReplayTrace(dir, db,
                    {{1000, "write", 0, 4096}, {2000, "write", 8192, 4096}});
  const std::string target = dir.File("target");
  MakeReplayTarget(target, 1 << 20);
  const std::vector<std::vector<std::string>> bad = {
      {"replay", "7", target, db},               // unknown trace
      {"replay", "x", target, db},               // not an id
      {"replay", "1", db},                       // no target
      {"replay", "1", dir.File("missing"), db},  // missing target
      {"replay", "1", target, target, db},       // 2 targets, 1 device
      {"replay", "1", target, "--timing", "scaled:0", db},  // bad timing
      {"replay", "1", target, "--timing", "fast", db},
      {"replay", "1", target, "--map", "stretch", db},  // bad map
  };
  for (const auto& args : bad) {
    const Invocation refused = RunFlashmark(args);
    EXPECT_EQ(refused.exit_code, 2) << args[1] << " " << refused.err;
    EXPECT_NE(refused.err.find("error: "), std::string::npos) << refused.err;
  }
  EXPECT_TRUE(ReplayWrittenBlocks(target).empty());
  EXPECT_EQ(json::parse(RunFlashmark({"list", "--json", db}).out).size(), 0u);
  // A trace replayed from a database that does not exist: exit 2, none made.
  const std::string other = dir.File("none.db");
  EXPECT_EQ(RunFlashmark({"replay", "1", target, "--db=" + other}).exit_code,
            2);
  EXPECT_NE(access(other.c_str(), F_OK), 0);
}

TEST(Replay, ALoopDeviceIsWrittenOnlyWhenNamedAndNotMounted) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  std::vector<ReplayIologLine> lines;
  for (int i = 0; i < 64; ++i) {
    lines.push_back({i * 100, "write", static_cast<uint64_t>(i) * 4096, 4096});
  }
  lines.push_back({6450, "sync", 0, 0});  // the writes are done first
  lines.push_back({6500, "trim", 0, 4096});
  ImportReplayTrace(dir, db, lines);
  LoopDevice loop(dir.File("backing"), 16 << 20);
  ASSERT_TRUE(loop.ok());
  const Invocation unnamed =
      RunFlashmark({"replay", "1", loop.device(), "--timing", "afap", db});
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.err.find("--allow-destroy"), std::string::npos)
      << unnamed.err;
  EXPECT_TRUE(ReplayWrittenBlocks(dir.File("backing")).empty());
  const Invocation named =
      RunFlashmark({"replay", "1", loop.device(), "--timing", "afap",
                    "--allow-destroy", loop.device(), db});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const json r = ReplayedRunJson(db, 1)["replay"];
  EXPECT_EQ(r["issued"]["writes"], 64);
  EXPECT_EQ(r["issued"]["discards"], 1);
  // Blocks 1..63 written; block 0 discarded after its write (a loop
  // device punches the hole in its file).
  std::set<uint64_t> expected;
  for (uint64_t b = 1; b < 64; ++b) expected.insert(b);
  EXPECT_EQ(ReplayWrittenBlocks(dir.File("backing")), expected);
  // Mounted: refused whatever --allow-destroy says.
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop.device()}), 0);
  const std::string mount_point = dir.File("mnt");
  ASSERT_EQ(mkdir(mount_point.c_str(), 0755), 0);
  DeviceMount mounted(loop.device(), mount_point);
  ASSERT_TRUE(mounted.ok());
  const Invocation refused =
      RunFlashmark({"replay", "1", loop.device(), "--timing", "afap",
                    "--allow-destroy", loop.device(), db});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("in use"), std::string::npos) << refused.err;
  EXPECT_EQ(json::parse(RunFlashmark({"list", "--json", db}).out).size(), 1u);
}

}  // namespace
}  // namespace flashmark::testing
