// The engine tuning options (--fixedbufs, --sqpoll, --sqpoll-cpu, --hipri,
// the --iodepth-batch-* sizes, --cpus-allowed[-policy]) and the buffer
// policy (--shared-buffer) as options:
// validation and its errors, the command that repeats a run, the stored
// config; and the CPU lists they are written in.
#include <gtest/gtest.h>

#include <string>

#include "common/cpu_list.h"
#include "config/campaign_keys.h"
#include "config/run_options.h"
#include "document/json_format.h"

namespace flashmark {
namespace {

RunOptions Uring() {
  RunOptions options;
  options.engine = "io_uring";
  options.iodepth = "32";
  options.direct = true;
  options.targets = {"/mnt/ssd"};
  return options;
}

// The usage error BuildJobSpec gives, as "message | hint".
std::string ErrorOf(const RunOptions& options) {
  auto built = BuildJobSpec(options);
  if (built.ok()) return "(accepted)";
  EXPECT_EQ(built.error().exit_code, kUsageExit) << built.error().message;
  return built.error().message + " | " + built.error().hint;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(EngineTuningOptions, DefaultsAreFiosDefaults) {
  auto built = BuildJobSpec(Uring());
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_EQ(built->spec.tuning, EngineTuning{});
  EXPECT_EQ(built->spec.tuning.batch_complete_min, 1);
  EXPECT_EQ(built->spec.tuning.batch_submit, 1);  // fio: each IO at once
  EXPECT_TRUE(built->spec.cpus_allowed.empty());
  const std::string command = ReproduceCommand(built->spec);
  EXPECT_FALSE(Has(command, "--fixedbufs")) << command;
  EXPECT_FALSE(Has(command, "--iodepth-batch")) << command;
  EXPECT_FALSE(Has(command, "--cpus-allowed")) << command;
}

TEST(EngineTuningOptions, ASharedBufferIsRepeatedAndStored) {
  RunOptions options = Uring();
  EXPECT_FALSE(BuildJobSpec(options)->spec.shared_buffer);
  options.shared_buffer = true;
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_TRUE(built->spec.shared_buffer);
  EXPECT_TRUE(Has(ReproduceCommand(built->spec), " --shared-buffer"));
  auto config = ToJson(built->spec);
  EXPECT_TRUE(JobSpecFromJson(config)->shared_buffer);
  config.erase("shared_buffer");  // stored before the option: one per IO
  EXPECT_FALSE(JobSpecFromJson(config)->shared_buffer);
  options.verify = true;
  EXPECT_TRUE(Has(ErrorOf(options), "--shared-buffer: --verify"));
}

TEST(EngineTuningOptions, BufferMemoryIsRepeatedStoredAndChecked) {
  RunOptions options = Uring();
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_TRUE(built->spec.huge_page_buffers);  // --mem thp by default
  EXPECT_FALSE(Has(ReproduceCommand(built->spec), "--mem"));
  options.mem = "malloc";
  built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_FALSE(built->spec.huge_page_buffers);
  EXPECT_TRUE(Has(ReproduceCommand(built->spec), " --mem malloc"));
  auto config = ToJson(built->spec);
  EXPECT_EQ(config["buffer_memory"], "malloc");
  EXPECT_FALSE(JobSpecFromJson(config)->huge_page_buffers);
  config["buffer_memory"] = "thp";
  EXPECT_TRUE(JobSpecFromJson(config)->huge_page_buffers);
  config.erase("buffer_memory");  // stored before the option: 4 KiB pages
  EXPECT_FALSE(JobSpecFromJson(config)->huge_page_buffers);
  options.mem = "mmaphuge";
  const std::string error = ErrorOf(options);
  EXPECT_TRUE(Has(error, "--mem: \"mmaphuge\" is not a kind")) << error;
  EXPECT_TRUE(Has(error, "use thp (transparent huge pages")) << error;
}

TEST(EngineTuningOptions, EveryOptionIsRepeatedAndStored) {
  RunOptions options = Uring();
  options.fixedbufs = options.sqpoll = true;
  options.sqpoll_cpu = "0";
  options.batch_submit = "8";
  options.batch_complete_min = "0";
  options.batch_complete_max = "16";
  options.cpus_allowed = "0";
  options.cpus_policy = "split";
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  const JobSpec& spec = built->spec;
  EXPECT_TRUE(spec.tuning.fixed_buffers);
  EXPECT_TRUE(spec.tuning.sqpoll);
  EXPECT_EQ(spec.tuning.sqpoll_cpu, 0);
  EXPECT_EQ(spec.tuning.batch_submit, 8);
  EXPECT_EQ(spec.tuning.batch_complete_min, 0);
  EXPECT_EQ(spec.tuning.batch_complete_max, 16);
  EXPECT_EQ(spec.cpus_allowed, std::vector<int>{0});
  EXPECT_TRUE(spec.cpus_split);
  const std::string command = ReproduceCommand(spec);
  for (const char* part :
       {" --fixedbufs", " --sqpoll", " --sqpoll-cpu 0",
        " --iodepth-batch-submit 8", " --iodepth-batch-complete-min 0",
        " --iodepth-batch-complete-max 16", " --cpus-allowed 0",
        " --cpus-allowed-policy split"}) {
    EXPECT_TRUE(Has(command, part)) << part << " in " << command;
  }
  auto back = JobSpecFromJson(ToJson(spec));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->tuning, spec.tuning);
  EXPECT_EQ(back->cpus_allowed, spec.cpus_allowed);
  EXPECT_TRUE(back->cpus_split);
  // Configs stored before these options existed read as the defaults.
  auto old = ToJson(spec);
  for (const char* key :
       {"fixed_buffers", "sqpoll", "sqpoll_cpu", "hipri",
        "iodepth_batch_submit", "iodepth_batch_complete_min",
        "iodepth_batch_complete_max", "cpus_allowed", "cpus_allowed_policy"}) {
    ASSERT_TRUE(old.contains(key)) << key;
    old.erase(key);
  }
  auto older = JobSpecFromJson(old);
  ASSERT_TRUE(older.ok());
  // They submitted all that was ready at once, and repeat as such.
  EngineTuning before;
  before.batch_submit = 0;
  EXPECT_EQ(older->tuning, before);
  EXPECT_TRUE(Has(ReproduceCommand(*older), " --iodepth-batch-submit 0"));
  EXPECT_TRUE(older->cpus_allowed.empty());
}

TEST(EngineTuningOptions, IoUringModesOnOtherEnginesAreRefused) {
  for (const char* engine : {"psync", "libaio", "mmap", "null"}) {
    RunOptions options = Uring();
    options.engine = engine;
    options.direct = false;
    options.fixedbufs = true;
    std::string error = ErrorOf(options);
    EXPECT_TRUE(Has(error, "--fixedbufs") && Has(error, engine) &&
                Has(error, "--engine io_uring"))
        << error;
    options.fixedbufs = false;
    options.sqpoll = true;
    error = ErrorOf(options);
    EXPECT_TRUE(Has(error, "--sqpoll") && Has(error, "io_uring")) << error;
    options.sqpoll = false;
    options.hipri = true;
    EXPECT_TRUE(Has(ErrorOf(options), "--hipri")) << ErrorOf(options);
  }
}

TEST(EngineTuningOptions, HipriNeedsDirectIo) {
  RunOptions options = Uring();
  options.hipri = true;
  EXPECT_TRUE(BuildJobSpec(options).ok());
  options.direct = false;
  const std::string error = ErrorOf(options);
  EXPECT_TRUE(Has(error, "--hipri needs --direct") &&
              Has(error, "add --direct"))
      << error;
}

TEST(EngineTuningOptions, SqpollCpuNeedsSqpollAndAnAllowedCpu) {
  RunOptions options = Uring();
  options.sqpoll_cpu = "0";
  EXPECT_TRUE(Has(ErrorOf(options), "add --sqpoll")) << ErrorOf(options);
  options.sqpoll = true;
  EXPECT_TRUE(BuildJobSpec(options).ok());
  options.sqpoll_cpu = "1023";
  const std::vector<int> allowed = AllowedCpus();
  if (std::find(allowed.begin(), allowed.end(), 1023) == allowed.end()) {
    const std::string error = ErrorOf(options);
    EXPECT_TRUE(Has(error, "CPU 1023 is not one this process may run on") &&
                Has(error, CpuListText(allowed)))
        << error;
  }
  options.sqpoll_cpu = "one";
  EXPECT_TRUE(Has(ErrorOf(options), "\"one\" is not a whole number"))
      << ErrorOf(options);
}

TEST(EngineTuningOptions, BatchSizesAreBoundedByTheDepth) {
  RunOptions options = Uring();
  options.batch_submit = "64";
  std::string error = ErrorOf(options);
  EXPECT_TRUE(
      Has(error, "--iodepth-batch-submit: 64 is more than --iodepth 32"))
      << error;
  options.batch_submit = "32";
  EXPECT_TRUE(BuildJobSpec(options).ok());
  options.batch_complete_min = "8";
  options.batch_complete_max = "4";
  error = ErrorOf(options);
  EXPECT_TRUE(Has(error,
                  "--iodepth-batch-complete-max 4 is less than "
                  "--iodepth-batch-complete-min 8"))
      << error;
  options.batch_complete_max = "-1";
  EXPECT_TRUE(Has(ErrorOf(options), "--iodepth-batch-complete-max"))
      << ErrorOf(options);
}

TEST(EngineTuningOptions, BatchSizesOnASynchronousEngineOnlyWarn) {
  RunOptions options;
  options.engine = "psync";
  options.batch_submit = "4";
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  ASSERT_EQ(built->warnings.size(), 1u);
  EXPECT_TRUE(Has(built->warnings[0], "no effect")) << built->warnings[0];
  EXPECT_EQ(built->spec.tuning.batch_submit, 1);  // (untouched default)
}

TEST(EngineTuningOptions, CpusAllowedErrors) {
  RunOptions options = Uring();
  options.cpus_policy = "split";
  EXPECT_TRUE(Has(ErrorOf(options), "applies to --cpus-allowed only"))
      << ErrorOf(options);
  options.cpus_allowed = "2-1";
  EXPECT_TRUE(Has(ErrorOf(options), "--cpus-allowed: range \"2-1\""))
      << ErrorOf(options);
  options.cpus_allowed = "0";
  options.cpus_policy = "spread";
  EXPECT_TRUE(Has(ErrorOf(options), "\"spread\" is not shared or split"))
      << ErrorOf(options);
  options.cpus_policy.reset();
  options.cpus_allowed = "0-4095";
  EXPECT_TRUE(Has(ErrorOf(options), "\"0-4095\" is not a CPU number"))
      << ErrorOf(options);
  const std::vector<int> allowed = AllowedCpus();
  if (allowed.back() < 1023) {
    options.cpus_allowed = "0-1023";
    EXPECT_TRUE(Has(ErrorOf(options), "is not one this process may run on"))
        << ErrorOf(options);
  }
}

TEST(EngineTuningOptions, RegisteredBuffersAreBoundedByTheKernelsLimit) {
  RunOptions options = Uring();
  options.fixedbufs = true;
  options.iodepth = "16384";
  EXPECT_TRUE(BuildJobSpec(options).ok());
  options.iodepth = "16385";
  const std::string error = ErrorOf(options);
  EXPECT_TRUE(Has(error, "--fixedbufs: --iodepth 16385") &&
              Has(error, "more than the kernel's 16384"))
      << error;
}

TEST(EngineTuningOptions, NvmeCommandsHaveNoFsyncAndNoReadBack) {
  RunOptions options;
  options.engine = "io_uring_cmd";
  options.iodepth = "32";
  options.mode = "rndwr";
  options.targets = {"/dev/ng0n1"};
  EXPECT_TRUE(BuildJobSpec(options).ok());
  options.fsync_end = true;
  EXPECT_TRUE(Has(ErrorOf(options), "fsync options: the io_uring_cmd engine"))
      << ErrorOf(options);
  options.fsync_end = false;
  options.verify = true;
  EXPECT_TRUE(Has(ErrorOf(options), "--verify: the io_uring_cmd engine"))
      << ErrorOf(options);
}

TEST(EngineTuningOptions, CampaignKeysAreFiosNames) {
  for (const char* key :
       {"fixedbufs", "sqthread_poll", "sqthread_poll_cpu", "hipri",
        "iodepth_batch_submit", "iodepth_batch_complete_min",
        "iodepth_batch_complete_max", "cpus_allowed", "cpus_allowed_policy"}) {
    EXPECT_NE(FindCampaignOption(key), nullptr) << key;
  }
  const CampaignOption* batch = FindCampaignOption("iodepth-batch-submit");
  ASSERT_NE(batch, nullptr);
  EXPECT_FALSE(CheckCampaignOptionValue(*batch, "x").ok());
}

TEST(CpuList, ParsesRangesAndSingles) {
  auto cpus = ParseCpuList("0-3,8,10-11,2");
  ASSERT_TRUE(cpus.ok());
  EXPECT_EQ(*cpus, (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(CpuListText(*cpus), "0-3,8,10-11");
  EXPECT_EQ(CpuListText({5}), "5");
  EXPECT_EQ(CpuListText({}), "");
  for (const char* bad :
       {"", ",", "1,", "a", "1-", "-1", "3-1", "1--2", "0x1", "99999"}) {
    EXPECT_FALSE(ParseCpuList(bad).ok()) << bad;
  }
}

TEST(CpuList, TheAllowedCpusIncludeOneWeRunOn) {
  const std::vector<int> allowed = AllowedCpus();
  ASSERT_FALSE(allowed.empty());
  EXPECT_TRUE(std::is_sorted(allowed.begin(), allowed.end()));
}

}  // namespace
}  // namespace flashmark
