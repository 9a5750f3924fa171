// `flashmark pts` on loop devices the test creates (root only; skipped
// elsewhere): the dry run and export touch nothing, bad input exits 2
// before any step (unknown test or profile, not a block device, not named
// in --allow-destroy, mounted, too small), scaled tests run and store
// their series (IOPS reaching or not reaching steady state, WSAT, HIR,
// XSR), and kill -9 then --resume repeats no finished cell.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "store/campaign_store.h"
#include "store/run_store.h"
#include "stored_cells.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

#define REQUIRE_ROOT()                                               \
  if (!IsRoot()) {                                                   \
    GTEST_SKIP() << "needs root (loop devices); CI runs it as root"; \
  }

// A marker in the device's first block, to tell whether anything wrote it.
const std::string kMarker = "flashmark-pts-test-marker";
void WriteMarker(const std::string& device) {
  std::fstream(device, std::ios::in | std::ios::out | std::ios::binary)
      .write(kMarker.data(), static_cast<std::streamsize>(kMarker.size()));
  sync();
}
bool HasMarker(const std::string& device) {
  std::string head(kMarker.size(), '\0');
  std::ifstream(device, std::ios::binary)
      .read(head.data(), static_cast<std::streamsize>(head.size()));
  return head == kMarker;
}

json Runs(const std::string& db, const std::string& tag) {
  const Invocation list =
      RunFlashmark({"list", "--db", db, "--tag", tag, "--json"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  return list.exit_code == 0 ? json::parse(list.out) : json::array();
}

// `flashmark report --pts ID --html`, read back; checks what every page
// has: the header block, no script, and `figures` SVG charts each drawing
// a line or points.
std::string ReportPage(const std::string& db, int64_t campaign,
                       const TempDir& dir, size_t figures) {
  const std::string path =
      dir.File("pts-" + std::to_string(campaign) + ".html");
  const Invocation report =
      RunFlashmark({"report", "--pts", std::to_string(campaign), "--db", db,
                    "--html", path});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  const std::string html = ReadFile(path);
  EXPECT_NE(html.find("Solid State Storage Performance Test Specification "
                      "v2.0.2"),
            std::string::npos);
  EXPECT_NE(html.find("<th>field</th><th>value</th>"), std::string::npos);
  EXPECT_NE(html.find("not a compliant run"), std::string::npos);
  EXPECT_NE(html.find("not verified: the device is not called fresh out of "
                      "box"),
            std::string::npos)
      << "a loop device has no secure erase";
  // Nor a write cache of its own: the enterprise profile asked for it off.
  EXPECT_NE(html.find("write back; the write cache was left as it was: a "
                      "loop device has no write cache of its own to set"),
            std::string::npos);
  EXPECT_NE(html.find("enterprise (write cache off where the device allows "
                      "it"),
            std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  size_t charts = 0;
  for (size_t at = 0;
       (at = html.find("<figure class=\"chart\"", at)) != std::string::npos;
       ++at) {
    const size_t end = html.find("</figure>", at);
    const std::string figure = html.substr(at, end - at);
    EXPECT_TRUE(figure.find("<polyline") != std::string::npos ||
                figure.find("<circle") != std::string::npos)
        << "an empty chart: " << figure.substr(0, 300);
    ++charts;
  }
  EXPECT_EQ(charts, figures) << html.substr(0, 2000);
  return html;
}

json Export(const std::string& db, int64_t run) {
  const Invocation exported = RunFlashmark(
      {"export", std::to_string(run), "--db", db, "--format", "json"});
  EXPECT_EQ(exported.exit_code, 0) << exported.err;
  return exported.exit_code == 0 ? json::parse(exported.out) : json();
}

TEST(Pts, BadInputExits2ListingWhatIsValid) {
  TempDir dir;
  const Invocation unknown = RunFlashmark({"pts", "iopss", "/dev/null"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown PTS test \"iopss\" (one of iops, "
                             "throughput, latency, wsat, hir, xsr, ecw, "
                             "dirth, or all)"),
            std::string::npos)
      << unknown.err;
  const Invocation profile =
      RunFlashmark({"pts", "iops", "/dev/null", "--profile", "server"});
  EXPECT_EQ(profile.exit_code, 2);
  EXPECT_NE(profile.err.find("unknown profile \"server\""), std::string::npos);
  std::ofstream(dir.File("file")) << "x";
  const Invocation file = RunFlashmark({"pts", "iops", dir.File("file")});
  EXPECT_EQ(file.exit_code, 2);
  EXPECT_NE(file.err.find("is not a block device"), std::string::npos)
      << file.err;
}

TEST(Pts, DryRunAndExportTouchNothing) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 1ull << 30);
  ASSERT_TRUE(loop.ok());
  WriteMarker(loop.device());
  const Invocation dry = RunFlashmark(
      {"pts", "iops", loop.device(), "--dry-run", "--db", dir.File("p.db")});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("a round: 56 cells"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("56  read-pct=0 bs=512  (1 min)"), std::string::npos);
  EXPECT_NE(dry.out.find("5 to 25: 4.7 h to 23.3 h"), std::string::npos);
  EXPECT_NE(dry.out.find("secure-erase " + loop.device()), std::string::npos);
  EXPECT_NE(dry.out.find("write-cache off " + loop.device() +
                         " (where the device allows)"),
            std::string::npos)
      << dry.out;
  EXPECT_NE(dry.out.find("not named in --allow-destroy"), std::string::npos);
  const Invocation all =
      RunFlashmark({"pts", "all", loop.device(), "--dry-run"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  for (const char* segment : {"pts-iops", "pts-throughput-128k",
                              "pts-throughput-1024k", "pts-latency", "pts-wsat",
                              "pts-hir", "pts-xsr", "pts-ecw", "pts-dirth"}) {
    EXPECT_NE(all.out.find(std::string("segment ") + segment + ":"),
              std::string::npos)
        << segment;
  }
  const Invocation exported = RunFlashmark(
      {"pts", "throughput", loop.device(), "--export", dir.File("toml")});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  // What is exported is a campaign `sweep` plans the same way.
  const Invocation swept = RunFlashmark(
      {"sweep", dir.File("toml/pts-throughput-128k.toml"), "--dry-run"});
  ASSERT_EQ(swept.exit_code, 0) << swept.err;
  EXPECT_NE(swept.out.find("50 cells"), std::string::npos) << swept.out;
  EXPECT_TRUE(HasMarker(loop.device()));
  EXPECT_FALSE(std::ifstream(dir.File("p.db")).good());
}

TEST(Pts, RefusedDevicesStopBeforeAnyStep) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 256ull << 20);
  ASSERT_TRUE(loop.ok());
  WriteMarker(loop.device());
  const Invocation unnamed =
      RunFlashmark({"pts", "latency", loop.device(), "--scale", "0.002", "--db",
                    dir.File("p.db")});
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.err.find("not named in --allow-destroy"), std::string::npos)
      << unnamed.err;
  EXPECT_TRUE(HasMarker(loop.device()));

  LoopDevice small(dir.File("s.img"), 32ull << 20);
  ASSERT_TRUE(small.ok());
  const Invocation tiny =
      RunFlashmark({"pts", "iops", small.device(), "--allow-destroy",
                    small.device(), "--db", dir.File("p.db")});
  EXPECT_EQ(tiny.exit_code, 2);
  EXPECT_NE(tiny.err.find("too small for the PTS"), std::string::npos)
      << tiny.err;

  LoopDevice mounted(dir.File("m.img"), 256ull << 20);
  ASSERT_TRUE(mounted.ok());
  ASSERT_EQ(RunTool({"mkfs.ext4", "-q", mounted.device()}), 0);
  ::mkdir(dir.File("mnt").c_str(), 0755);
  DeviceMount mount(mounted.device(), dir.File("mnt"));
  ASSERT_TRUE(mount.ok());
  const Invocation busy = RunFlashmark(
      {"pts", "latency", mounted.device(), "--allow-destroy", mounted.device(),
       "--scale", "0.002", "--db", dir.File("p.db")});
  EXPECT_EQ(busy.exit_code, 2);
  EXPECT_NE(busy.err.find("refusing to write " + mounted.device()),
            std::string::npos)
      << busy.err;
  EXPECT_EQ(busy.out.find("secure-erase"), std::string::npos) << busy.out;
  EXPECT_FALSE(std::ifstream(dir.File("p.db")).good())
      << "no campaign was created";
}

TEST(Pts, ScaledIopsReachesOrReportsNotReachingSteadyState) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 256ull << 20);
  ASSERT_TRUE(loop.ok());
  const std::string db = dir.File("p.db");
  const Invocation run = RunFlashmark(
      {"pts", "iops", loop.device(), "--allow-destroy", loop.device(),
       "--scale", "0.002", "--max-rounds", "5", "--db", db, "-q"},
      600);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out.substr(0, 4000);
  EXPECT_NE(run.out.find("scaled by 0.002: a quick check, not a compliant "
                         "run"),
            std::string::npos);
  const bool steady = run.out.find("rounds: steady in rounds 1-5: average") !=
                      std::string::npos;
  const bool not_steady =
      run.out.find("rounds: not steady in rounds 1-5: average") !=
      std::string::npos;
  EXPECT_TRUE(steady || not_steady) << run.out.substr(run.out.size() - 3000);
  EXPECT_NE(run.out.find("IOPS, excursion"), std::string::npos);
  EXPECT_NE(run.out.find("reset: write-cache off " + loop.device()),
            std::string::npos);
  EXPECT_NE(run.out.find("write cache: write back"), std::string::npos);
  const auto cells = StoredCells(db, 1);
  ASSERT_EQ(cells.size(), 280u);
  for (const StoredCell& cell : cells) {
    EXPECT_EQ(cell.status, CellStatus::kOk) << "cell " << cell.index + 1;
  }
  // Each cell is a run tagged with its parameters.
  EXPECT_EQ(Runs(db, "bs=4k").size(), 35u);
  EXPECT_EQ(Runs(db, "read-pct=0").size(), 40u);
  // The report page: convergence and the measurement plot, the window's
  // figures, the table and the heat table of 7 mixes x 8 block sizes.
  const std::string html = ReportPage(db, 1, dir, 2);
  EXPECT_NE(html.find(steady ? "reached in rounds 1-5"
                             : "not reached in "
                               "rounds 1-5"),
            std::string::npos);
  EXPECT_NE(html.find("<table class=\"window\">"), std::string::npos);
  EXPECT_NE(html.find("read-pct \\ bs"), std::string::npos);
  EXPECT_NE(html.find("IOPS surface: block size x R/W mix"), std::string::npos);
  EXPECT_NE(html.find("<th>512</th>"), std::string::npos);
  EXPECT_NE(html.find("TC / QD</td><td>4 / 32"), std::string::npos);
  // Not a PTS campaign, or none at all: refused.
  const Invocation other = RunFlashmark(
      {"report", "--pts", "9", "--db", db, "--html", dir.File("x.html")});
  EXPECT_EQ(other.exit_code, 2);
  const Invocation no_html = RunFlashmark({"report", "--pts", "1", "--db", db});
  EXPECT_EQ(no_html.exit_code, 2);
  EXPECT_NE(no_html.err.find("it takes --html FILE"), std::string::npos);
}

// Each of WSAT, XSR and HIR on a sparse 4 GiB loop device of its own (only
// what a test writes takes space), one test each: together they take more
// than a test's time limit on a loaded 2-core machine.
TEST(Pts, WsatStoresIopsAgainstTheDataWritten) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 4ull << 30);
  ASSERT_TRUE(loop.ok());
  const std::string db = dir.File("p.db");
  const Invocation wsat =
      RunFlashmark({"pts", "wsat", loop.device(), "--allow-destroy",
                    loop.device(), "--scale", "0.01", "--db", db, "-q"},
                   600);
  ASSERT_EQ(wsat.exit_code, 0) << wsat.err << wsat.out;
  const json wsat_runs = Runs(db, "campaign=1");
  ASSERT_EQ(wsat_runs.size(), 1u);
  const json wsat_run = Export(db, wsat_runs[0]["id"]);
  // 4x the 4 GiB range at 1 %: 164 MiB of random 4 KiB writes.
  EXPECT_EQ(wsat_run["summary"]["write"]["bytes"].get<uint64_t>(),
            164ull << 20);
  EXPECT_GE(wsat_run["intervals"].size(), 1u);
  // IOPS against time and against the data written.
  const std::string wsat_page = ReportPage(db, 1, dir, 2);
  EXPECT_NE(wsat_page.find("IOPS against the data written"), std::string::npos);
}

TEST(Pts, XsrStoresItsSeries) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 4ull << 30);
  ASSERT_TRUE(loop.ok());
  const std::string db = dir.File("p.db");
  const Invocation xsr =
      RunFlashmark({"pts", "xsr", loop.device(), "--allow-destroy",
                    loop.device(), "--scale", "0.0001", "--db", db, "-q"},
                   600);
  ASSERT_EQ(xsr.exit_code, 0) << xsr.err << xsr.out;
  const json xsr_runs = Runs(db, "campaign=1");
  ASSERT_EQ(xsr_runs.size(), 3u);
  for (const auto& summary : xsr_runs) {
    const json run = Export(db, summary["id"]);
    EXPECT_GE(run["intervals"].size(), 2u);
    EXPECT_GT(run["summary"]["write"]["ios"].get<uint64_t>(), 0u);
  }
  EXPECT_EQ(Runs(db, "xsr=2 random").size(), 1u);
  const std::string xsr_page = ReportPage(db, 1, dir, 1);
  EXPECT_NE(xsr_page.find("MiB/s over time"), std::string::npos);
  EXPECT_NE(xsr_page.find("xsr=3 sequential"), std::string::npos);
}

TEST(Pts, HirStoresItsBurstsAndWaits) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 4ull << 30);
  ASSERT_TRUE(loop.ok());
  const std::string db = dir.File("p.db");
  // Scaled to 1 s bursts, waits of 1 to 10 s, 1 s baselines and at most
  // 27 s of preconditioning: about a minute in all.
  const Invocation hir =
      RunFlashmark({"pts", "hir", loop.device(), "--allow-destroy",
                    loop.device(), "--scale", "0.0006", "--db", db, "-q"},
                   600);
  ASSERT_EQ(hir.exit_code, 0) << hir.err << hir.out;
  const json hir_runs = Runs(db, "campaign=1");
  ASSERT_EQ(hir_runs.size(), 10u);
  // A burst cell: IO for 1 s, then none for the wait, in its intervals.
  const json burst = Runs(db, "hir=wait 50s");
  ASSERT_EQ(burst.size(), 1u);
  const json bursts = Export(db, burst[0]["id"]);
  std::vector<uint64_t> ios;
  for (const auto& interval : bursts["intervals"]) {
    ios.push_back(interval["write"]["ios"]);
  }
  ASSERT_GE(ios.size(), 10u);
  EXPECT_GT(ios[0], 100u);
  for (size_t i = 2; i < 10; ++i) {
    EXPECT_LT(ios[i], ios[0] / 10 + 1) << "interval " << i << " waits";
  }
  const std::string hir_page = ReportPage(db, 1, dir, 1);
  EXPECT_NE(hir_page.find("hir=baseline after 50s"), std::string::npos);
}

TEST(Pts, KilledThenResumedRepeatsNoFinishedCell) {
  REQUIRE_ROOT();
  TempDir dir;
  LoopDevice loop(dir.File("d.img"), 256ull << 20);
  ASSERT_TRUE(loop.ok());
  const std::string db = dir.File("p.db");
  const std::vector<std::string> args{"pts",
                                      "latency",
                                      loop.device(),
                                      "--allow-destroy",
                                      loop.device(),
                                      "--scale",
                                      "0.002",
                                      "--max-rounds",
                                      "5",
                                      "--db",
                                      db,
                                      "-q"};
  const int pid = StartFlashmark(args, dir.File("out"), dir.File("err"));
  ASSERT_GT(pid, 0);
  const auto finished = [&] {
    if (!std::ifstream(db).good()) return 0;
    auto store = CampaignStore::OpenForReading(db);
    if (!store.ok()) return 0;
    auto cells = store->Cells(1);
    int done = 0;
    if (cells.ok()) {
      for (const StoredCell& cell : *cells) done += cell.finished();
    }
    return done;
  };
  ASSERT_TRUE(WaitFor([&] { return finished() >= 12; }, 120))
      << ReadFile(dir.File("out")) << ReadFile(dir.File("err"));
  ::kill(pid, SIGKILL);
  WaitFlashmark(pid);
  const auto before = StoredCells(db, 1);
  ASSERT_EQ(before.size(), 45u);
  std::vector<int64_t> runs_before;
  for (const StoredCell& cell : before) {
    if (cell.finished()) runs_before.push_back(cell.run_id.value_or(-1));
  }
  ASSERT_LT(runs_before.size(), 45u)
      << "killed before the end\n"
      << ReadFile(dir.File("out")) << ReadFile(dir.File("err"));

  std::vector<std::string> resume = args;
  resume.push_back("--resume");
  const Invocation resumed = RunFlashmark(resume, 300);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err << resumed.out;
  EXPECT_NE(
      resumed.out.find(std::to_string(runs_before.size()) + " finished before"),
      std::string::npos)
      << resumed.out.substr(0, 2000);
  const auto after = StoredCells(db, 1);
  ASSERT_EQ(after.size(), 45u);
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_TRUE(after[i].finished()) << "cell " << i + 1;
    if (i < runs_before.size()) {
      EXPECT_EQ(after[i].attempts, 1) << "cell " << i + 1 << " ran again";
      EXPECT_EQ(after[i].run_id.value_or(-2), runs_before[i]);
    }
  }
  // Once finished, --resume leaves it.
  const Invocation again = RunFlashmark(resume, 60);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("pts-latency: finished before (campaign 1)"),
            std::string::npos)
      << again.out;
  // Mean, max and 99.999 % response times per cell.
  const std::string page = ReportPage(db, 1, dir, 2);
  EXPECT_NE(page.find("<th>99.999 %</th>"), std::string::npos);
  EXPECT_NE(page.find("read-pct=0 bs=4k"), std::string::npos);
}

}  // namespace
}  // namespace flashmark::testing
