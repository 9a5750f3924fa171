// Each engine tuning mode in a real run on a real file: the run succeeds,
// counts exactly the IOs it was asked for (summary, intervals and the
// limit agree), and records what the engine set up. --cpus-allowed is
// checked on the running process's worker threads (/proc/PID/task).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

constexpr uint64_t kIos = 4000;

struct Mode {
  std::string name;
  std::vector<std::string> options;
  std::string setup_text;  // must appear in environment.engine_setup
};

// The test's name in ctest's list, not the object's bytes.
void PrintTo(const Mode& mode, std::ostream* out) { *out << mode.name; }

class EngineModes : public ::testing::TestWithParam<Mode> {};

TEST_P(EngineModes, RunsAndCountsEveryIo) {
  TempDir dir;
  const std::string out = dir.File("run.json");
  std::vector<std::string> args = {
      "run",        dir.path(),  "--size", "8M",         "--file-num",
      "2",          "--bs",      "4k",     "--mode",     "rndrw",
      "--direct",   "--threads", "2",      "--io-limit", std::to_string(kIos),
      "--interval", "100ms",     "--json", out,          "-q",
      "--no-db"};
  args.insert(args.end(), GetParam().options.begin(), GetParam().options.end());
  const Invocation result = RunFlashmark(args, 120);
  if (result.exit_code != 0 &&
      result.err.find("refuses O_DIRECT") != std::string::npos) {
    GTEST_SKIP() << result.err;
  }
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(ReadFile(out));
  const json& summary = doc["summary"];
  const uint64_t ios = summary["read"]["ios"].get<uint64_t>() +
                       summary["write"]["ios"].get<uint64_t>();
  EXPECT_EQ(ios, kIos);
  uint64_t in_intervals = 0;
  for (const json& interval : doc["intervals"]) {
    in_intervals += interval["read"]["ios"].get<uint64_t>() +
                    interval["write"]["ios"].get<uint64_t>();
  }
  EXPECT_EQ(in_intervals, kIos);
  EXPECT_EQ(summary["errors"].get<uint64_t>(), 0u);
  const std::string setup =
      doc["environment"]["engine_setup"].get<std::string>();
  EXPECT_NE(setup.find(GetParam().setup_text), std::string::npos) << setup;
}

INSTANTIATE_TEST_SUITE_P(
    AllModes, EngineModes,
    ::testing::Values(
        Mode{"io_uring",
             {"--engine", "io_uring", "--iodepth", "16"},
             "registered files"},
        Mode{"fixedbufs",
             {"--engine", "io_uring", "--iodepth", "16", "--fixedbufs"},
             "registered buffers"},
        Mode{"sqpoll",
             {"--engine", "io_uring", "--iodepth", "16", "--sqpoll"},
             "SQPOLL"},
        Mode{"sqpoll_cpu",
             {"--engine", "io_uring", "--iodepth", "16", "--sqpoll",
              "--sqpoll-cpu", "0", "--fixedbufs"},
             "SQ_AFF(CPU 0)"},
        Mode{"batch_submit_all",
             {"--engine", "io_uring", "--iodepth", "16",
              "--iodepth-batch-submit", "0"},
             "io_uring"},
        Mode{"batch_complete_poll",
             {"--engine", "io_uring", "--iodepth", "16",
              "--iodepth-batch-complete-min", "0",
              "--iodepth-batch-complete-max", "4"},
             "io_uring"},
        Mode{"libaio_batches",
             {"--engine", "libaio", "--iodepth", "16", "--iodepth-batch-submit",
              "4", "--iodepth-batch-complete-min", "8"},
             ""},
        Mode{"cpus_split",
             {"--engine", "io_uring", "--iodepth", "4", "--cpus-allowed", "0",
              "--cpus-allowed-policy", "split"},
             "io_uring"}),
    [](const auto& param_info) { return param_info.param.name; });

// The Cpus_allowed_list of each thread named fm-worker-* of `pid`.
std::vector<std::string> WorkerCpuLists(int pid) {
  std::vector<std::string> lists;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator(tasks, ec)) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind("fm-worker-", 0) != 0) continue;
    std::ifstream status(task.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Cpus_allowed_list:", 0) == 0) {
        lists.push_back(line.substr(line.find_first_not_of(" \t", 18)));
      }
    }
  }
  return lists;
}

TEST(CpuPinning, CpusAllowedPinsEveryWorkerThread) {
  TempDir dir;
  const int pid =
      StartFlashmark({"run", "--engine", "null", "--threads", "2", "--time",
                      "20s", "--cpus-allowed", "0", "-q", "--no-db"},
                     dir.File("out"), dir.File("err"));
  ASSERT_GT(pid, 0);
  std::vector<std::string> lists;
  WaitFor(
      [&] {
        lists = WorkerCpuLists(pid);
        return lists.size() == 2;
      },
      10);
  kill(pid, SIGINT);
  WaitFlashmark(pid);
  ASSERT_EQ(lists.size(), 2u) << ReadFile(dir.File("err"));
  for (const std::string& list : lists) EXPECT_EQ(list, "0");
}

// --hipri where the device has no poll queues (as here): refused before
// anything is laid out, naming the sysfs setting.
TEST(PolledIo, AFileSetOnADeviceThatCannotPollIsNeverLaidOut) {
  TempDir dir;
  const Invocation result = RunFlashmark(
      {"run", dir.path(), "--engine", "io_uring", "--direct", "--hipri",
       "--mode", "rndwr", "--size", "8M", "--time", "1s", "--no-db"});
  if (result.exit_code == 0) GTEST_SKIP() << "this device polls";
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--hipri: " + dir.path()), std::string::npos)
      << result.err;
  EXPECT_TRUE(result.err.find("queue/io_poll is not 1") != std::string::npos ||
              result.err.find("no block device") != std::string::npos)
      << result.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "nothing laid out";
}

// NVMe passthrough where there is no NVMe generic device: a clear usage
// error for every other kind of target, before any IO.
TEST(NvmePassthrough, AnythingButAnNvmeGenericDeviceIsRefused) {
  TempDir dir;
  Invocation result = RunFlashmark({"run", dir.path(), "--engine",
                                    "io_uring_cmd", "--time", "1s", "--no-db"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("needs an NVMe generic character device, not a "
                            "directory"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("ls /dev/ng*"), std::string::npos) << result.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "nothing laid out";
  // /dev/null is a character device, but no NVMe one (read only here).
  result = RunFlashmark({"run", "/dev/null", "--engine", "io_uring_cmd",
                         "--mode", "rndrd", "--time", "1s", "--no-db"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("no NVMe generic one"), std::string::npos)
      << result.err;
  // And other engines say which engine a character device needs.
  result = RunFlashmark(
      {"run", "/dev/null", "--mode", "rndrd", "--time", "1s", "--no-db"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("is a character device"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("--engine io_uring_cmd"), std::string::npos)
      << result.err;
}

TEST(NvmePassthrough, AMissingGenericDeviceSaysSo) {
  if (std::filesystem::exists("/dev/ng0n1")) {
    GTEST_SKIP() << "/dev/ng0n1 exists here";
  }
  const Invocation result =
      RunFlashmark({"run", "/dev/ng0n1", "--engine", "io_uring_cmd", "--mode",
                    "rndrd", "--time", "1s", "--no-db"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("/dev/ng0n1"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("No such file"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace flashmark::testing
