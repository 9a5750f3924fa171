// Campaign files as a whole: the shipped examples, matrix expansion,
// repeats and order, and bad files rejected with their position.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "campaign/cluster_cell.h"
#include "config/campaign_env.h"
#include "config/campaign_hash.h"
#include "config/campaign_keys.h"
#include "config/campaign_range.h"
#include "config/campaign_spec.h"
#include "config/run_options.h"
#include "test_support.h"

namespace flashmark {
namespace {

using test_support::FixedEnvironment;

const std::string kFixtures = FLASHMARK_FIXTURES "/campaigns/";
const std::string kExamples = FLASHMARK_FIXTURES "/../../examples/";

CampaignSpec Load(const std::string& path,
                  const EnvironmentLookup& environment = FixedEnvironment()) {
  auto campaign = LoadCampaign(path, environment);
  EXPECT_TRUE(campaign.ok())
      << campaign.error().message << " (" << campaign.error().hint << ")";
  return campaign.ok() ? *campaign : CampaignSpec{};
}

std::vector<CampaignCell> Expand(const CampaignSpec& campaign) {
  auto cells = ExpandCampaign(campaign);
  EXPECT_TRUE(cells.ok()) << cells.error().message << " (" << cells.error().hint
                          << ")";
  return cells.ok() ? *cells : std::vector<CampaignCell>{};
}

// A campaign file written for one test.
std::string WriteCampaign(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

using Strings = std::vector<std::string>;
using Pairs = std::vector<std::pair<std::string, std::string>>;

// -------------------------------------------------------------- examples

TEST(CampaignExamplesTest, FillSweep) {
  const CampaignSpec campaign = Load(kExamples + "fill-sweep.toml");
  EXPECT_EQ(campaign.name, "fill-sweep");
  EXPECT_EQ(campaign.targets, Strings{"/mnt/card"});
  EXPECT_EQ(campaign.devices, Strings{"/dev/fioa"});
  ASSERT_EQ(campaign.reset.size(), 3u);
  EXPECT_EQ(campaign.reset[0].kind, ResetKind::kDiscard);
  EXPECT_EQ(campaign.reset[1].kind, ResetKind::kMkfs);
  EXPECT_EQ(campaign.reset[1].filesystem, "xfs");
  EXPECT_EQ(campaign.reset[1].options, Strings{"-f"});
  EXPECT_EQ(campaign.reset[2].kind, ResetKind::kMount);
  EXPECT_EQ(campaign.reset[2].mount_point, "/mnt/card");
  EXPECT_EQ(campaign.reset[2].options, Strings{"noatime"});
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 16u);  // 50G..650G step 40G
  EXPECT_EQ(cells[0].parameters, (Pairs{{"size", "50G"}}));
  EXPECT_EQ(cells[1].parameters, (Pairs{{"size", "90G"}}));
  EXPECT_EQ(cells[15].parameters, (Pairs{{"size", "650G"}}));
  EXPECT_EQ(cells[1].options.size, "90G");
  EXPECT_EQ(cells[1].options.threads, "8");
  EXPECT_EQ(cells[1].options.iodepth, "4");
  EXPECT_EQ(cells[1].options.file_num, "64");
  EXPECT_EQ(cells[1].options.time, "1h");
  EXPECT_TRUE(cells[1].options.direct);
  EXPECT_EQ(cells[1].options.targets, Strings{"/mnt/card"});
  EXPECT_EQ(ResetDevices(campaign, cells[3], campaign.reset[0]),
            Strings{"/dev/fioa"});
  auto built = BuildJobSpec(cells[15].options);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(built->spec.size.bytes, 650ull << 30);
  EXPECT_EQ(built->spec.engine, "libaio");
}

TEST(CampaignExamplesTest, FillSweepFollowsTheEnvironment) {
  const CampaignSpec campaign =
      Load(kExamples + "fill-sweep.toml",
           FixedEnvironment({{"FLASHMARK_MOUNT", "/mnt/x"},
                             {"FLASHMARK_DEVICE", "/dev/loop7"}}));
  EXPECT_EQ(campaign.targets, Strings{"/mnt/x"});
  EXPECT_EQ(campaign.devices, Strings{"/dev/loop7"});
  EXPECT_EQ(campaign.reset[2].mount_point, "/mnt/x");
}

TEST(CampaignExamplesTest, ThreadsSync) {
  const auto cells = Expand(Load(kExamples + "threads-sync.toml"));
  ASSERT_EQ(cells.size(), 10u);  // 2 modes x 5 thread counts
  EXPECT_EQ(cells[0].parameters, (Pairs{{"mode", "rndwr"}, {"threads", "1"}}));
  EXPECT_EQ(cells[4].parameters, (Pairs{{"mode", "rndwr"}, {"threads", "16"}}));
  EXPECT_EQ(cells[5].parameters, (Pairs{{"mode", "rndrd"}, {"threads", "1"}}));
  EXPECT_EQ(cells[9].options.engine, "psync");
  EXPECT_EQ(cells[9].options.interval, "1s");
}

TEST(CampaignExamplesTest, SingleVsRaid0) {
  const CampaignSpec campaign = Load(kExamples + "single-vs-raid0.toml");
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 8u);  // 2 targets x 2 modes x 2 IO styles
  EXPECT_EQ(cells[0].options.targets, Strings{"/dev/fioa"});
  // The device axis gives each cell its target, name and price (tags).
  EXPECT_EQ(cells[0].parameters, (Pairs{{"target", "/dev/fioa"},
                                        {"device", "single"},
                                        {"price", "600"},
                                        {"mode", "rndrd"},
                                        {"engine", "psync"}}));
  EXPECT_EQ(cells[1].parameters, (Pairs{{"target", "/dev/fioa"},
                                        {"device", "single"},
                                        {"price", "600"},
                                        {"mode", "rndrd"},
                                        {"engine", "libaio"},
                                        {"iodepth", "32"}}));
  EXPECT_EQ(cells[7].parameters[1],
            (std::pair<std::string, std::string>{"device", "raid0"}));
  EXPECT_EQ(cells[1].options.iodepth, "32");
  EXPECT_FALSE(cells[0].options.iodepth.has_value());
  EXPECT_EQ(cells[7].options.targets, Strings{"/dev/md0"});
  // The array is created only before the RAID-0 cells.
  ASSERT_EQ(campaign.reset.size(), 4u);
  const ResetStep& create = campaign.reset[3];
  EXPECT_EQ(create.argv.front(), "mdadm");
  for (const CampaignCell& cell : cells) {
    EXPECT_EQ(ResetStepApplies(create, cell), cell.index >= 4) << cell.index;
    EXPECT_TRUE(ResetStepApplies(campaign.reset[0], cell));
  }
  EXPECT_EQ(ResetDevices(campaign, cells[0], campaign.reset[1]),
            Strings{"/dev/fioa"});
  EXPECT_EQ(ResetDevices(campaign, cells[5], campaign.reset[2]),
            Strings{"/dev/fiob"});
}

TEST(CampaignExamplesTest, SniaIops) {
  const CampaignSpec campaign = Load(kExamples + "snia-iops.toml");
  EXPECT_EQ(campaign.repeats, 25);
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 1400u);  // 7 mixes x 8 block sizes x 25 rounds
  EXPECT_EQ(cells[0].parameters, (Pairs{{"read-pct", "100"}, {"bs", "1024k"}}));
  EXPECT_EQ(cells[7].parameters, (Pairs{{"read-pct", "100"}, {"bs", "512"}}));
  EXPECT_EQ(cells[55].parameters, (Pairs{{"read-pct", "0"}, {"bs", "512"}}));
  EXPECT_EQ(cells[56].repeat, 1);
  EXPECT_EQ(cells[56].parameters, cells[0].parameters);
  EXPECT_EQ(cells[1399].repeat, 24);
  // The enterprise profile's write cache off, the purge, the WIPC.
  ASSERT_EQ(campaign.reset.size(), 3u);
  EXPECT_EQ(campaign.reset[0].kind, ResetKind::kWriteCache);
  EXPECT_FALSE(campaign.reset[0].write_cache_on);
  EXPECT_EQ(campaign.reset[1].kind, ResetKind::kSecureErase);
  EXPECT_EQ(campaign.reset[2].kind, ResetKind::kPrecondition);
  EXPECT_EQ(campaign.reset[2].precondition, "snia");
  for (const ResetStep& step : campaign.reset) {
    EXPECT_TRUE(ResetStepApplies(step, cells[0]));
    EXPECT_FALSE(ResetStepApplies(step, cells[1]));
    EXPECT_FALSE(ResetStepApplies(step, cells[56]));
  }
}

TEST(CampaignExamplesTest, Quick) {
  const CampaignSpec campaign = Load(kExamples + "quick.toml");
  EXPECT_EQ(campaign.targets, Strings{"/tmp/flashmark-quick"});
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 6u);  // 2 modes x 3 thread counts
  EXPECT_EQ(cells[2].parameters, (Pairs{{"mode", "rndwr"}, {"threads", "4"}}));
  EXPECT_EQ(cells[3].parameters, (Pairs{{"mode", "rndrd"}, {"threads", "1"}}));
  // No destructive step.
  for (const ResetStep& step : campaign.reset) {
    EXPECT_TRUE(step.kind == ResetKind::kExec || step.kind == ResetKind::kIdle);
  }
  const CampaignSpec moved =
      Load(kExamples + "quick.toml",
           FixedEnvironment({{"FLASHMARK_SWEEP_DIR", "/tmp/q"}}));
  EXPECT_EQ(moved.targets, Strings{"/tmp/q"});
  EXPECT_EQ(moved.reset[0].argv, (Strings{"/bin/mkdir", "-p", "/tmp/q"}));
  EXPECT_EQ(Expand(moved)[5].options.targets, Strings{"/tmp/q"});
  // The hash is of the bytes, not of what the environment made of them.
  EXPECT_EQ(moved.file_hash, campaign.file_hash);
}

TEST(CampaignExamplesTest, EveryExampleLoadsAndExpands) {
  for (const char* name : {"fill-sweep", "threads-sync", "single-vs-raid0",
                           "snia-iops", "quick"}) {
    SCOPED_TRACE(name);
    const std::string path = kExamples + name + ".toml";
    const CampaignSpec campaign = Load(path);
    EXPECT_EQ(campaign.name, name);
    EXPECT_FALSE(campaign.description.empty());
    EXPECT_FALSE(Expand(campaign).empty());
    std::ifstream in(path);
    std::stringstream bytes;
    bytes << in.rdbuf();
    EXPECT_EQ(campaign.file_hash, Sha256Hex(bytes.str()));
    EXPECT_EQ(bytes.str().rfind("# ", 0), 0u) << "documented at its top";
  }
}

// ----------------------------------------------- product, repeats, order

// 2 thread counts x 3 block sizes, twice.
std::string SmallMatrix(const std::string& campaign_keys = "") {
  return "[campaign]\nrepeats = 2\n" + campaign_keys + R"(
[workload]
engine = "null"
size = "1M"
time = "1s"
[matrix]
numjobs = [1, 2]
bs = "4k..16k x2"
)";
}

TEST(CampaignExpandTest, ProductInFileOrderTimesRepeats) {
  const auto cells = Expand(Load(WriteCampaign("product.toml", SmallMatrix())));
  ASSERT_EQ(cells.size(), 12u);  // 2 x 3 x 2 repeats
  const std::vector<Pairs> expected = {
      {{"threads", "1"}, {"bs", "4k"}},  {{"threads", "1"}, {"bs", "8k"}},
      {{"threads", "1"}, {"bs", "16k"}}, {{"threads", "2"}, {"bs", "4k"}},
      {{"threads", "2"}, {"bs", "8k"}},  {{"threads", "2"}, {"bs", "16k"}}};
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i].index, static_cast<int>(i));
    EXPECT_EQ(cells[i].repeat, static_cast<int>(i / 6));
    EXPECT_EQ(cells[i].parameters, expected[i % 6]) << i;
  }
  EXPECT_EQ(cells[4].options.threads, "2");
  EXPECT_EQ(cells[4].options.bs, "8k");
  EXPECT_EQ(cells[4].options.size, "1M");
  EXPECT_EQ(CellParametersText(cells[4]), "threads=2 bs=8k");
}

TEST(CampaignExpandTest, AxesFollowTheFileNotTheAlphabet) {
  const auto cells = Expand(Load(WriteCampaign("order.toml", R"(
[workload]
engine = "null"
[matrix]
threads = [1, 2]
bs = ["4k", "8k"]
)")));
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[1].parameters, (Pairs{{"threads", "1"}, {"bs", "8k"}}));
  EXPECT_EQ(cells[2].parameters, (Pairs{{"threads", "2"}, {"bs", "4k"}}));
}

TEST(CampaignExpandTest, NoMatrixIsOneCellPerRepeat) {
  const auto cells = Expand(Load(WriteCampaign("single.toml", R"(
[campaign]
repeats = 3
[workload]
engine = "null"
)")));
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_TRUE(cells[2].parameters.empty());
  EXPECT_EQ(cells[2].repeat, 2);
}

std::vector<std::pair<int, Pairs>> Plan(
    const std::vector<CampaignCell>& cells) {
  std::vector<std::pair<int, Pairs>> plan;
  for (const CampaignCell& cell : cells) {
    plan.emplace_back(cell.repeat, cell.parameters);
  }
  return plan;
}

TEST(CampaignExpandTest, ShuffleIsDeterministicAndAPermutation) {
  auto shuffled = [](int seed) {
    return Expand(Load(WriteCampaign(
        "shuffled.toml", SmallMatrix("order = \"shuffled\"\nseed = " +
                                     std::to_string(seed) + "\n"))));
  };
  const auto as_written =
      Plan(Expand(Load(WriteCampaign("plain.toml", SmallMatrix()))));
  const auto first = Plan(shuffled(42));
  EXPECT_EQ(first, Plan(shuffled(42)));
  EXPECT_NE(first, as_written);
  EXPECT_NE(first, Plan(shuffled(7)));
  auto sorted = [](std::vector<std::pair<int, Pairs>> plan) {
    std::sort(plan.begin(), plan.end());
    return plan;
  };
  EXPECT_EQ(sorted(first), sorted(as_written));
  const auto cells = shuffled(42);
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i].index, static_cast<int>(i));
  }
}

TEST(CampaignExpandTest, TargetAxisReplacesTheTargets) {
  const CampaignSpec campaign = Load(WriteCampaign("targets.toml", R"(
[workload]
mode = "rndrd"
[targets]
paths = ["/mnt/default"]
[matrix]
target = [["/dev/a"], ["/dev/a", "/dev/b"], "/dev/c"]
)"));
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].options.targets, Strings{"/dev/a"});
  EXPECT_EQ(cells[1].options.targets, (Strings{"/dev/a", "/dev/b"}));
  EXPECT_EQ(cells[1].parameters, (Pairs{{"target", "/dev/a /dev/b"}}));
  EXPECT_EQ(cells[2].options.targets, Strings{"/dev/c"});
  // Without [targets] devices, device steps act on the cell's targets.
  EXPECT_EQ(ResetDevices(campaign, cells[1], ResetStep{}),
            (Strings{"/dev/a", "/dev/b"}));
}

TEST(CampaignExpandTest, FlagsAndValuesOfEveryKind) {
  const auto cells = Expand(Load(WriteCampaign("kinds.toml", R"(
[workload]
engine = "null"
mode = "rndrw"
rw-ratio = 1.5
rate = "200MiB/s"
distribution = "zipf:1.2"
data = "compressible:50"
until-steady = true
max-time = "2h"
steady-round = "30s"
[matrix]
direct = [true, false]
)")));
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].parameters, (Pairs{{"direct", "true"}}));
  EXPECT_TRUE(cells[0].options.direct);
  EXPECT_FALSE(cells[1].options.direct);
  EXPECT_EQ(cells[1].options.rw_ratio, "1.5");
  EXPECT_TRUE(cells[1].options.until_steady);
  auto built = BuildJobSpec(cells[1].options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_DOUBLE_EQ(built->spec.read_fraction, 0.6);
  EXPECT_EQ(built->spec.time, std::chrono::hours(2));
}

TEST(CampaignExpandTest, GroupedAxisSetsOptionsTogether) {
  const CampaignSpec campaign = Load(WriteCampaign("grouped.toml", R"(
[workload]
engine = "null"
[matrix]
threads = [1, 2]
io = [{ engine = "null" }, { ioengine = "null", iodepth = 8 }]
[[reset]]
step = "idle"
seconds = 1
when = { iodepth = "8", threads = [2] }
)"));
  ASSERT_EQ(campaign.matrix.size(), 2u);
  EXPECT_EQ(campaign.matrix[1].name, "io");
  EXPECT_EQ(campaign.matrix[1].values,
            (Strings{"engine=null", "engine=null iodepth=8"}));
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[3].parameters,
            (Pairs{{"threads", "2"}, {"engine", "null"}, {"iodepth", "8"}}));
  EXPECT_EQ(cells[3].options.iodepth, "8");
  for (const CampaignCell& cell : cells) {
    EXPECT_EQ(ResetStepApplies(campaign.reset[0], cell), cell.index == 3);
  }
}

TEST(CampaignBadFileTest, MisplacedKeysSayWhereTheyBelong) {
  struct Case {
    const char* text;
    const char* message;
    const char* hint;
  };
  for (const Case& bad : {
           Case{"mode = \"rndwr\"\n", "unknown key \"mode\" at the top level",
                "mode belongs in [workload]"},
           Case{"[workload]\nname = \"x\"\n", "unknown key \"name\"",
                "name belongs in [campaign]"},
           Case{"[workload]\npaths = [\"/x\"]\n", "unknown key \"paths\"",
                "paths belongs in [targets]"},
           Case{"[workload]\ndb = \"x.db\"\n", "unknown key \"db\"",
                "pass --db"},
           Case{"campaign = 3\n", "campaign: expected a [campaign] table", ""},
           Case{"[matrix]\nthreads = 4\n",
                "matrix axis threads: expected a list or a range",
                "[workload]"},
           Case{"[matrix]\nengine = [{threads = 1}]\n",
                "needs a name of its own", ""},
           Case{"[matrix]\nthreads = []\n", "has no values", ""},
           Case{"[campaign]\nseed = 4\n", "seed: applies to order",
                "[workload]"},
           Case{"[[reset]]\nstep = \"mount\"\nmount-point = \"rel\"\n",
                "not an absolute path", ""},
           Case{"[[reset]]\nstep = \"idle\"\n", "idle: how long", ""},
           Case{"[[reset]]\nstep = \"exec\"\nargv = []\n", "argv is empty", ""},
           Case{"[[reset]]\nstep = \"mkfs\"\nfilesystem = \"../x\"\n",
                "is not a filesystem type", ""},
           Case{"[[reset]]\nstep = \"discard\"\nfilesystem = \"xfs\"\n",
                "unknown key \"filesystem\" in [[reset]] step discard", ""},
           Case{"[[reset]]\nstep = \"idle\"\nseconds = 1\nwhen = { threads = 1 "
                "}\n",
                "not a matrix parameter", "no [matrix]"},
           Case{"[targets]\ndevices = [\"/dev/a\", \"/dev/b\"]\n[[reset]]\n"
                "step = \"mount\"\nmount-point = \"/mnt\"\n",
                "mount: which device?", "device ="},
           Case{"[analysis]\nwarm-up = \"30m\"\n",
                "unknown key \"warm-up\" in [analysis]", "warmup"},
           Case{"[analysis]\nwarmup = \"soon\"\n",
                "[analysis] warmup:", "warmup = \"1800s\""},
           Case{"[analysis]\nmetric = \"p99\"\n", "\"p99\" is a latency metric",
                "iops"},
           Case{"[analysis]\nmetric = \"kiops\"\n", "[analysis] metric:", ""},
           Case{"[workload]\ninterval = \"10s\"\n[analysis]\nround = \"5s\"\n",
                "[analysis] round: \"5s\" is not a duration of at least one "
                "interval (10 s)",
                "round = \"60s\""},
           Case{"[analysis]\ngate = \"much\"\n", "[analysis] gate:", ""},
       }) {
    SCOPED_TRACE(bad.text);
    const std::string path = WriteCampaign("misplaced.toml", bad.text);
    auto campaign = LoadCampaign(path, FixedEnvironment());
    ASSERT_FALSE(campaign.ok());
    EXPECT_EQ(campaign.error().message.rfind(path + ":", 0), 0u)
        << campaign.error().message;
    EXPECT_NE(campaign.error().message.find(bad.message), std::string::npos)
        << campaign.error().message;
    EXPECT_NE(campaign.error().hint.find(bad.hint), std::string::npos)
        << campaign.error().hint;
  }
}

// [analysis]: every cell's run carries the campaign's choice, as written.
TEST(CampaignAnalysisTest, EveryCellCarriesTheCampaignsAnalysis) {
  const std::string text = R"(
[workload]
engine = "null"
[matrix]
threads = [1, 2]
[analysis]
warmup = "30m"
metric = "iops"
round = "120s"
min-segment = "5m"
gate = "3%"
)";
  const CampaignSpec campaign = Load(WriteCampaign("analysis.toml", text));
  EXPECT_EQ(campaign.text, text);  // kept whole, for the store
  const auto cells = Expand(campaign);
  ASSERT_EQ(cells.size(), 2u);
  for (const CampaignCell& cell : cells) {
    auto built = BuildJobSpec(cell.options);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const AnalysisSettings& a = built->spec.analysis;
    EXPECT_EQ(a.warmup, "30m");
    EXPECT_EQ(a.metric, "iops");
    EXPECT_EQ(a.round, "120s");
    EXPECT_EQ(a.min_segment, "5m");
    EXPECT_EQ(a.gate, "3%");
  }
  // Without the table, nothing is chosen.
  const auto plain = Expand(
      Load(WriteCampaign("plain.toml", "[workload]\nengine = \"null\"\n")));
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_TRUE(BuildJobSpec(plain[0].options)->spec.analysis.empty());
}

TEST(CampaignExpandTest, PreconditionWorkload) {
  const CampaignSpec campaign = Load(WriteCampaign("precondition.toml", R"(
[workload]
engine = "null"
[[reset]]
step = "precondition"
[reset.workload]
mode = "rndwr"
bs = "4k"
max-time = "3h"
[[reset]]
step = "idle"
time = "1m30s"
[[reset]]
step = "idle"
seconds = 0.5
)"));
  ASSERT_EQ(campaign.reset.size(), 3u);
  const ResetStep& step = campaign.reset[0];
  EXPECT_EQ(step.precondition, "workload");
  EXPECT_TRUE(step.precondition_workload.until_steady);
  EXPECT_EQ(step.precondition_workload.max_time, "3h");
  EXPECT_EQ(step.precondition_workload.bs, "4k");
  EXPECT_EQ(campaign.reset[1].idle, std::chrono::seconds(90));
  EXPECT_EQ(campaign.reset[2].idle, std::chrono::milliseconds(500));
}

// ------------------------------------------------------------ bad files

struct BadCampaign {
  const char* file;
  const char* where;    // "LINE:COLUMN" after the file name
  const char* message;  // a fragment of the message
  const char* hint;     // a fragment of the hint ("" = any)
};

// Rejected by LoadCampaign, before anything is touched.
const BadCampaign kBadLoads[] = {
    {"unknown_key.toml", "7:1", "unknown key \"iodepht\" in [workload]",
     "did you mean iodepth?"},
    {"wrong_type.toml", "4:11", "threads: \"many\" is not a whole number",
     "try --threads 8"},
    {"flag_type.toml", "4:10", "direct: expected true or false, got a string",
     "direct = true"},
    {"zero_threads.toml", "6:18", "threads: 0 is not a positive number", ""},
    {"empty_range.toml", "6:8", "it is empty: 5G is more than 1G", "A..B"},
    {"zero_step.toml", "6:8", "the step is 0", ""},
    {"huge_range.toml", "6:8", "more than 10000 values", ""},
    {"unknown_step.toml", "6:8", "unknown reset step \"discrad\"",
     "did you mean discard?"},
    {"syntax_error.toml", "3:", "", "TOML"},
    {"exec_without_argv.toml", "9:1", "exec without argv", "argv = ["},
    {"mkfs_without_filesystem.toml", "5:1", "mkfs without a filesystem",
     "filesystem = \"xfs\""},
    {"write_cache_bad_state.toml", "7:9",
     "write-cache: state must be \"on\" or \"off\", not \"disabled\"",
     "state = \"off\""},
    {"unknown_axis.toml", "6:1", "unknown matrix axis \"threds\"",
     "did you mean threads?"},
    {"misplaced_key.toml", "4:1", "unknown key \"allow-destroy\"",
     "pass --allow-destroy"},
    {"unset_variable.toml", "3:9", "$FLASHMARK_TEST_UNSET_DIR is not set",
     ":-default}"},
    {"bad_order.toml", "2:9", "unknown order \"shufled\"",
     "did you mean shuffled?"},
    {"two_axes.toml", "7:1", "threads is set by two matrix axes", ""},
    {"when_no_match.toml", "11:20", "when: threads = \"3\" matches no cell",
     "1, 2, 4"},
    {"zero_repeats.toml", "2:11", "repeats: 0 is not between 1 and 1000", ""},
};

TEST(CampaignBadFileTest, RejectedAtLoadWithPosition) {
  for (const BadCampaign& bad : kBadLoads) {
    SCOPED_TRACE(bad.file);
    const std::string path = kFixtures + bad.file;
    auto campaign = LoadCampaign(path, FixedEnvironment());
    ASSERT_FALSE(campaign.ok());
    const Error& error = campaign.error();
    EXPECT_EQ(error.exit_code, kUsageExit);
    EXPECT_EQ(error.message.rfind(path + ":" + bad.where, 0), 0u)
        << error.message;
    EXPECT_NE(error.message.find(bad.message), std::string::npos)
        << error.message;
    EXPECT_NE(error.hint.find(bad.hint), std::string::npos) << error.hint;
  }
}

TEST(CampaignBadFileTest, SyntaxErrorNamesLineAndColumn) {
  const std::string path = kFixtures + "syntax_error.toml";
  auto campaign = LoadCampaign(path, FixedEnvironment());
  ASSERT_FALSE(campaign.ok());
  // "FILE:3:COLUMN: <toml++'s description>"
  const std::string& message = campaign.error().message;
  ASSERT_EQ(message.rfind(path + ":3:", 0), 0u) << message;
  const std::string rest = message.substr(path.size() + 3);
  EXPECT_GT(std::stoi(rest), 0) << message;
  EXPECT_NE(rest.find(": "), std::string::npos) << message;
}

// Every value is fine; the cells are not. Rejected by ExpandCampaign,
// naming the cell.
TEST(CampaignBadFileTest, RejectedAtExpansionNamingTheCell) {
  struct BadCell {
    const char* file;
    const char* message;
  };
  for (const BadCell& bad : {
           BadCell{"time_and_until_steady.toml",
                   ": cell 1 of 2 (time=1m): --time and --until-steady both "
                   "given"},
           BadCell{"no_target.toml", ": cell 1 of 2 (threads=1): no target"},
       }) {
    SCOPED_TRACE(bad.file);
    const std::string path = kFixtures + bad.file;
    auto campaign = LoadCampaign(path, FixedEnvironment());
    ASSERT_TRUE(campaign.ok()) << campaign.error().message;
    auto cells = ExpandCampaign(*campaign);
    ASSERT_FALSE(cells.ok());
    EXPECT_EQ(cells.error().message.rfind(path + bad.message, 0), 0u)
        << cells.error().message;
  }
}

TEST(CampaignBadFileTest, MissingFile) {
  auto campaign = LoadCampaign(kFixtures + "no-such-campaign.toml");
  ASSERT_FALSE(campaign.ok());
  EXPECT_NE(campaign.error().message.find("cannot read campaign file"),
            std::string::npos);
}

TEST(CampaignMatrixTest, GroupedAxisGivesTargetsTagsAndPrices) {
  const auto cells = Expand(Load(WriteCampaign("grouped-targets.toml", R"(
[workload]
engine = "psync"
[matrix]
card = [
  { target = ["/dev/a", "/dev/b"], tag = { device = "duo", slot = 3 }, price = "899.5", threads = 4 },
  { target = "/dev/c", tag = { device = "one" } }]
)")));
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].options.targets, (Strings{"/dev/a", "/dev/b"}));
  EXPECT_EQ(cells[0].options.threads, "4");
  EXPECT_EQ(cells[0].parameters, (Pairs{{"target", "/dev/a /dev/b"},
                                        {"threads", "4"},
                                        {"device", "duo"},
                                        {"slot", "3"},
                                        {"price", "899.5"}}));
  EXPECT_EQ(cells[1].options.targets, Strings{"/dev/c"});
  EXPECT_EQ(cells[1].parameters,
            (Pairs{{"target", "/dev/c"}, {"device", "one"}}));
}

TEST(CampaignMatrixTest, GroupedTargetsTagsAndPricesAreChecked) {
  const std::pair<std::string, std::string> bad[] = {
      {"card = [{ target = \"/dev/a\", price = \"cheap\" }]", "is not a price"},
      {"card = [{ target = \"/dev/a\", price = -1 }]", "is not a price"},
      {"card = [{ target = \"/dev/a\", tag = { cell = \"9\" } }]",
       "filed by the sweep itself"},
      {"card = [{ target = \"/dev/a\", tag = \"x\" }]", "tag must be a table"},
      {"card = [{ target = [] }]", "an empty target set"},
      {"target = [[\"/dev/b\"]]\ncard = [{ target = \"/dev/a\" }]",
       "target is set by two matrix axes"},
      {"card = [{ targt = \"/dev/a\" }]", "did you mean target?"}};
  for (const auto& [matrix, message] : bad) {
    const std::string path = WriteCampaign(
        "grouped-bad.toml",
        "[workload]\nengine = \"psync\"\n[matrix]\n" + matrix + "\n");
    auto campaign = LoadCampaign(path, FixedEnvironment());
    ASSERT_FALSE(campaign.ok()) << matrix;
    EXPECT_NE(
        (campaign.error().message + " " + campaign.error().hint).find(message),
        std::string::npos)
        << matrix << ": " << campaign.error().message << " ("
        << campaign.error().hint << ")";
    EXPECT_EQ(campaign.error().exit_code, 2);
  }
}

// [cluster]: every cell runs across MPI ranks, through mpirun for `hosts`
// or any launcher; what cannot work across hosts is refused at load.
TEST(CampaignClusterTest, HostsOrALauncherRunEveryCellAcrossRanks) {
  const auto load = [](const std::string& cluster) {
    return LoadCampaignText(
        "[workload]\nengine = \"null\"\ntime = \"1s\"\n" + cluster, "c.toml",
        FixedEnvironment());
  };
  auto hosts = load("[cluster]\nhosts = [\"a\", \"b\"]\n");
  ASSERT_TRUE(hosts.ok()) << hosts.error().message;
  EXPECT_EQ(CellLauncher(*hosts, false),
            (std::vector<std::string>{"mpirun", "-np", "2", "--host", "a,b"}));
  EXPECT_EQ(CellLauncher(*hosts, true).at(1), "--allow-run-as-root");
  auto text = load("[cluster]\nlauncher = \"srun  -N 4\"\n");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(CellLauncher(*text, false),
            (std::vector<std::string>{"srun", "-N", "4"}));
  auto list = load("[cluster]\nlauncher = [\"mpirun\", \"-np\", \"2\"]\n");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(list->launcher.size(), 3u);
  auto idle = load(
      "[cluster]\nhosts = [\"a\"]\n[[reset]]\nstep = \"idle\"\nseconds = 1\n");
  EXPECT_TRUE(idle.ok()) << idle.error().message;
  EXPECT_TRUE(load("").ok() && load("")->launcher.empty());

  const std::pair<std::string, std::string> bad[] = {
      {"[cluster]\nhosts = [\"a\"]\nlauncher = \"mpirun\"\n",
       "give hosts or launcher, not both"},
      {"[cluster]\nhosts = [\"a,b\"]\n", "\"a,b\" is not a host name"},
      {"[cluster]\nlauncher = \"  \"\n", "launcher: no program to run"},
      {"[cluster]\nport = 1\n", "unknown key \"port\""},
      {"[targets]\npaths = [\"/dev/loop9\"]\n[cluster]\nhosts = [\"a\"]\n"
       "[[reset]]\nstep = \"discard\"\n",
       "discard: a campaign across hosts ([cluster]) takes only idle reset "
       "steps"}};
  for (const auto& [file, message] : bad) {
    auto campaign = load(file);
    ASSERT_FALSE(campaign.ok()) << file;
    EXPECT_EQ(campaign.error().exit_code, kUsageExit);
    EXPECT_NE(campaign.error().message.find(message), std::string::npos)
        << campaign.error().message;
    EXPECT_EQ(campaign.error().message.rfind("c.toml:", 0), 0u)
        << campaign.error().message;
  }
}

}  // namespace
}  // namespace flashmark
