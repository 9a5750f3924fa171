// --trace-latency on real loop devices (root, with tracefs): every IO's
// latency cut at the block tracepoints into flashmark, queue, device and
// completion; the counts are the run's IOs, the parts' means add up to the
// latency's, the p50 and p99 in their parts add up to them, and the split
// is stored, shown and exported. Sampled (the default, --trace-sample),
// the IOs traced are exactly those in 1 window of the disk in N.
// Without permission it is a note, never a failure.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "binary_runner.h"
#include "system/target_sectors.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in, nullptr, /*allow_exceptions=*/false);
}

// A CSV line's fields, empty ones included.
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  for (const char c : line) {
    if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// A run's JSON and the notes it printed.
struct Traced {
  json run;
  std::string err;
};

// The run traced (else the test is skipped with the note it printed:
// a container without tracefs). The rate is capped so that the tracer's
// thread keeps up on a loaded machine (a sanitizer build, make test).
Traced TracedRun(const std::vector<std::string>& args, const TempDir& dir) {
  std::vector<std::string> all = args;
  all.insert(all.end(),
             {"--rate", "20000", "--json", dir.File("run.json"), "-q"});
  const Invocation run = RunFlashmark(all, 120);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const json out = ReadJson(dir.File("run.json"));
  EXPECT_FALSE(out.is_discarded()) << run.err;
  return {out, run.err};
}

#define SKIP_WITHOUT_SPLIT(run)                                             \
  if (!(run).is_discarded() && !(run)["summary"].contains("latency_split")) \
  GTEST_SKIP() << "this machine does not let flashmark trace (no tracefs)"

// Counts and the parts' means in a traced run's summary; `err` is what
// the run printed.
void ExpectWholeSplit(const json& run, const std::string& err) {
  const json& summary = run["summary"];
  const json& split = summary["latency_split"];
  const uint64_t ios = summary["read"]["ios"].get<uint64_t>() +
                       summary["write"]["ios"].get<uint64_t>();
  const uint64_t traced = split["device"]["count"].get<uint64_t>();
  const uint64_t untraced = split["untraced"].get<uint64_t>();
  EXPECT_GT(ios, 100u);
  EXPECT_EQ(traced + untraced, ios) << "every IO is traced or counted not";
  if (err.find("fell behind") == std::string::npos) {
    EXPECT_LE(untraced, ios / 100) << "at most 1 % not found in the trace";
  } else {
    EXPECT_GT(untraced, 0u) << "it fell behind but lost nothing: " << err;
  }
  for (const char* part : {"flashmark", "queue", "completion"}) {
    EXPECT_EQ(split[part]["count"].get<uint64_t>(), traced) << part;
  }
  // Each IO's parts add up to its latency, so their means add up to the
  // mean latency (up to the histograms' bucket error).
  double means = 0;
  for (const char* part : {"flashmark", "queue", "device", "completion"}) {
    means += split[part]["mean_ns"].get<double>();
  }
  EXPECT_NEAR(means / summary["latency"]["mean_ns"].get<double>(), 1.0, 0.02);
  // The p50 in its parts (the mean parts of the IOs at the p50) adds up to
  // the measured p50 within 5 % (issue 41; each part's own p50 need not:
  // 0.68 of it on a loaded machine), the p99 likewise within 10 % (the
  // untraced IOs, up to 1 %, move a p99 more).
  for (const auto& [at, quantile, within] :
       {std::tuple{"at_p50", "p50_ns", 0.05}, {"at_p99", "p99_ns", 0.10}}) {
    ASSERT_TRUE(split.contains(at)) << split.dump();
    double sum = 0;
    for (const char* part : {"flashmark", "queue", "device", "completion"}) {
      EXPECT_GE(split[at][part].get<double>(), 0) << at << " " << part;
      sum += split[at][part].get<double>();
    }
    EXPECT_NEAR(sum / summary["latency"][quantile].get<double>(), 1.0, within)
        << at << ": " << split[at].dump();
  }
  // The intervals hold the same IOs, in the histograms and in the bands.
  uint64_t in_intervals = 0, in_bands = 0;
  for (const json& interval : run["intervals"]) {
    if (!interval["latency"].contains("split")) continue;
    const json& interval_split = interval["latency"]["split"];
    for (const json& count : interval_split["device"]["c"]) {
      in_intervals += count.get<uint64_t>();
    }
    for (const json& band : interval_split.value("by_latency", json::array())) {
      in_bands += band[1].get<uint64_t>();
    }
  }
  EXPECT_EQ(in_intervals, traced);
  EXPECT_EQ(in_bands, traced);
}

TEST(LatencyTrace, ALoopDeviceRunCutsEveryIoAndIsStoredAndShown) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 256 << 20);
  ASSERT_TRUE(loop.ok());
  // Auto: a block device with --direct is traced; here every IO.
  const auto [run, err] =
      TracedRun({"run", loop.device(), "--direct", "--engine", "io_uring",
                 "--iodepth", "4", "--bs", "4k", "--time", "2s",
                 "--trace-sample", "1", "--db", dir.File("runs.db")},
                dir);
  SKIP_WITHOUT_SPLIT(run);
  ExpectWholeSplit(run, err);
  const Invocation shown =
      RunFlashmark({"show", "1", "--db", dir.File("runs.db")});
  EXPECT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("the mean parts of the IOs at the p50"),
            std::string::npos)
      << shown.out;
  EXPECT_EQ(shown.out.find(" by sector"), std::string::npos) << shown.out;
  const Invocation exported =
      RunFlashmark({"show", "1", "--json", "--db", dir.File("runs.db")});
  const json stored = json::parse(exported.out, nullptr, false);
  ASSERT_FALSE(stored.is_discarded()) << exported.err;
  EXPECT_EQ(stored["summary"]["latency_split"]["device"]["count"],
            run["summary"]["latency_split"]["device"]["count"]);
  ExpectWholeSplit(stored, err);
  // The CSV export has each full interval's p50 in its parts, which add
  // up to it (the bands are 3.2 % wide; 5 % leaves room for the untraced
  // IOs).
  const Invocation csv =
      RunFlashmark({"export", "1", "--db", dir.File("runs.db")});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string header;
  std::getline(lines, header);
  const std::vector<std::string> columns = SplitCsv(header);
  const auto column = [&columns](const std::string& name) {
    return std::find(columns.begin(), columns.end(), name) - columns.begin();
  };
  const size_t device = column("split_device_p50_ns");
  const size_t untraced = column("untraced");
  ASSERT_LT(untraced, columns.size()) << header;
  int full_rows = 0;
  for (std::string line; std::getline(lines, line) && !line.starts_with("#");) {
    const std::vector<std::string> row = SplitCsv(line);
    ASSERT_EQ(row.size(), columns.size()) << line;
    if (row[column("partial")] == "1") continue;
    ++full_rows;
    EXPECT_GT(std::stod(row[device]), 0) << line;
    double parts = 0;
    for (const char* part : {"flashmark", "queue", "device", "completion"}) {
      parts += std::stod(row[column(fmt::format("split_{}_p50_ns", part))]);
    }
    EXPECT_NEAR(parts / std::stod(row[column("lat_p50_ns")]), 1.0, 0.05)
        << line;
    EXPECT_FALSE(row[untraced].empty()) << line;
  }
  EXPECT_EQ(full_rows, 2);
}

// A sequential pass over the whole device at queue depth 1: every window
// of the disk is read once, so the sample follows exactly 1 IO in N.
TEST(LatencyTrace, ASampledRunTracesOneWindowInNOfTheDisk) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  const auto pass = [&](const std::vector<std::string>& sample) {
    // (Under a second at the capped rate: intervals of 200 ms to report.)
    std::vector<std::string> args = {
        "run",   loop.device(), "--direct", "--mode", "seqrd",
        "--bs",  "4k",          "--size",   "64M",    "--io-limit",
        "16384", "--interval",  "200ms",    "--db",   dir.File("runs.db")};
    args.insert(args.end(), sample.begin(), sample.end());
    return TracedRun(args, dir);
  };
  const auto [run, err] = pass({});  // the default: 1 in 16
  SKIP_WITHOUT_SPLIT(run);
  EXPECT_EQ(run["config"]["trace_sample"], 16);
  const json& summary = run["summary"];
  ASSERT_EQ(summary["read"]["ios"], 16384) << err;
  const json& split = summary["latency_split"];
  const uint64_t traced = split["device"]["count"].get<uint64_t>();
  EXPECT_EQ(traced + split["untraced"].get<uint64_t>(), 16384u / 16)
      << split.dump();
  EXPECT_GE(traced, 16384u / 16 * 99 / 100) << split.dump();
  // The parts of the sampled IOs at their p50 add up to the run's p50 (a
  // sample of 1024 IOs: within 10 %).
  double sum = 0;
  for (const char* part : {"flashmark", "queue", "device", "completion"}) {
    sum += split["at_p50"][part].get<double>();
  }
  EXPECT_NEAR(sum / summary["latency"]["p50_ns"].get<double>(), 1.0, 0.10)
      << split.dump();
  const Invocation shown =
      RunFlashmark({"show", "1", "--db", dir.File("runs.db")});
  EXPECT_NE(
      shown.out.find(fmt::format("{} IOs traced, 1 in 16 by sector", traced)),
      std::string::npos)
      << shown.out;
  // A sample's figures are its own (the sum of its parts), not the run's.
  EXPECT_NE(shown.out.find("split  traced p50 "), std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("(the mean parts of the traced IOs at their p50; "),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("         traced p99 "), std::string::npos)
      << shown.out;
  EXPECT_EQ(shown.out.find("--trace-sample"), std::string::npos) << shown.out;
  // The report's configuration says which IOs its split stands for.
  const Invocation report =
      RunFlashmark({"report", "1", "--db", dir.File("runs.db"), "--html",
                    dir.File("r.html")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(ReadFile(dir.File("r.html"))
                .find("auto (block devices with direct IO): 1 IO in 16, by "
                      "sector"),
            std::string::npos);

  const json quarter = pass({"--trace-sample", "4"}).run["summary"];
  const json& quarter_split = quarter["latency_split"];
  EXPECT_EQ(quarter_split["device"]["count"].get<uint64_t>() +
                quarter_split["untraced"].get<uint64_t>(),
            16384u / 4)
      << quarter_split.dump();
  const Invocation shown_quarter =
      RunFlashmark({"show", "2", "--db", dir.File("runs.db")});
  EXPECT_NE(shown_quarter.out.find("1 in 4 by sector"), std::string::npos)
      << shown_quarter.out;
  EXPECT_NE(shown_quarter.out.find(" --trace-sample 4"), std::string::npos)
      << shown_quarter.out;
}

TEST(LatencyTrace, OffLeavesTheSplitOut) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("disk.img"), 64 << 20);
  ASSERT_TRUE(loop.ok());
  const json run = TracedRun({"run", loop.device(), "--direct", "--time", "1s",
                              "--trace-latency", "off", "--no-db"},
                             dir)
                       .run;
  ASSERT_FALSE(run.is_discarded());
  EXPECT_FALSE(run["summary"].contains("latency_split"));
  EXPECT_EQ(run["config"]["trace_latency"], "off");
}

// Files on ext4 on a loop device: found through their extents.
class OnAFileSystem : public ::testing::Test {
 protected:
  void SetUp() override {
    FLASHMARK_REQUIRE_ROOT();
    loop_.emplace(dir_.File("disk.img"), 256 << 20);
    ASSERT_TRUE(loop_->ok());
    ASSERT_EQ(RunTool({"mkfs.ext4", "-q", "-F", loop_->device()}), 0);
    mount_point_ = dir_.File("mnt");
    std::filesystem::create_directory(mount_point_);
    mount_.emplace(loop_->device(), mount_point_);
    ASSERT_TRUE(mount_->ok());
  }
  TempDir dir_;
  std::optional<LoopDevice> loop_;
  std::optional<DeviceMount> mount_;
  std::string mount_point_;
};

TEST_F(OnAFileSystem, AFileSetRunIsTracedThroughItsExtents) {
  std::filesystem::create_directory(mount_point_ + "/fs");
  const auto [run, err] = TracedRun(
      {"run", mount_point_ + "/fs", "--direct", "--size", "64M", "--file-num",
       "4", "--engine", "libaio", "--iodepth", "8", "--time", "2s",
       "--trace-latency", "on", "--trace-sample", "1", "--no-db"},
      dir_);
  SKIP_WITHOUT_SPLIT(run);
  ExpectWholeSplit(run, err);
}

// A file on a 256 MiB disk: with windows of 4 KiB and 1 in 65536
// followed (the first 4 KiB of every 256 MiB of the disk, where ext4 keeps
// its boot block), none of the file's IOs is.
TEST_F(OnAFileSystem, ASampleThatFollowsNoIoSaysSo) {
  std::filesystem::create_directory(mount_point_ + "/fs");
  const auto [run, err] =
      TracedRun({"run", mount_point_ + "/fs", "--direct", "--bs", "4k",
                 "--size", "4M", "--file-num", "1", "--time", "1s",
                 "--trace-latency", "on", "--trace-sample", "65536", "--no-db"},
                dir_);
  ASSERT_FALSE(run.is_discarded());
  if (err.find("note: --trace-latency: ") != std::string::npos) {
    GTEST_SKIP() << "this machine does not let flashmark trace: " << err;
  }
  EXPECT_FALSE(run["summary"].contains("latency_split")) << run["summary"];
  EXPECT_NE(err.find("note: --trace-sample 65536: none of the run's "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("lay where the sample looks (the first 4 KiB of every "
                     "256 MiB of the disk); --trace-sample 1 traces every IO"),
            std::string::npos)
      << err;
}

TEST_F(OnAFileSystem, TheSectorsFoundForAFileHoldItsBytes) {
  const std::string path = mount_point_ + "/data";
  std::vector<char> bytes(8 << 20);
  std::mt19937_64 random(42);
  for (char& byte : bytes) byte = static_cast<char>(random());
  {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(fsync(fd), 0);  // the extents are allocated
  const std::vector<IoFile> files = {{fd, bytes.size(), path}};
  auto sectors = TargetSectors::Map(files);
  ASSERT_TRUE(sectors.ok()) << sectors.error().message;
  struct stat device {};
  ASSERT_EQ(stat(loop_->device().c_str(), &device), 0);
  ASSERT_EQ(sectors->devices().size(), 1u);
  EXPECT_EQ(sectors->devices()[0],
            (major(device.st_rdev) << 20) | minor(device.st_rdev));
  const int raw = open(loop_->device().c_str(), O_RDONLY);
  ASSERT_GE(raw, 0);
  for (const uint64_t offset :
       {0ull, 4096ull, 1ull << 20, (8ull << 20) - 4096}) {
    const auto place = sectors->Find(0, offset, 4096);
    ASSERT_TRUE(place) << offset;
    EXPECT_EQ(place->sectors, 8u);
    std::vector<char> on_disk(4096);
    ASSERT_EQ(pread(raw, on_disk.data(), 4096,
                    static_cast<off_t>(place->sector * 512)),
              4096);
    EXPECT_EQ(0, std::memcmp(on_disk.data(), bytes.data() + offset, 4096))
        << "offset " << offset << " is not at sector " << place->sector;
  }
  EXPECT_FALSE(sectors->Find(0, bytes.size(), 4096)) << "past the end";
  close(raw);
  close(fd);
}

TEST(LatencyTrace, WithoutPermissionItIsANoteAndTheRunGoesOn) {
  TempDir dir;
  std::filesystem::create_directory(dir.path() + "/fs");
  for (const std::string& path : {dir.path(), dir.path() + "/fs"}) {
    std::filesystem::permissions(path, std::filesystem::perms::all);
  }
  std::vector<std::string> args = {
      "run", dir.path() + "/fs", "--direct", "--size",
      "16M", "--file-num",       "2",        "--time",
      "1s",  "--trace-latency",  "on",       "--no-db",
      "-q"};
  Invocation run;
  if (geteuid() == 0) {  // as nobody, who may not trace
    args.insert(args.begin(), {"setpriv", "--reuid=65534", "--regid=65534",
                               "--clear-groups", FLASHMARK_BINARY});
    run = RunProgram(args, 60);
  } else {
    run = RunFlashmark(args, 60);
  }
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("note: --trace-latency: "), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("the run goes on without the latency split"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.out.find("  split  "), std::string::npos) << run.out;
}

TEST(LatencyTrace, AnUnknownSettingIsAUsageError) {
  const Invocation run =
      RunFlashmark({"run", "--engine", "null", "--trace-latency", "maybe"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--trace-latency: \"maybe\" is not on, off or auto"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace flashmark::testing
