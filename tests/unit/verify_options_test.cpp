// --verify as an option: validation, the command that repeats a run, and
// the stored config.
#include <gtest/gtest.h>

#include "config/run_options.h"
#include "document/json_format.h"

namespace flashmark {
namespace {

TEST(VerifyOptions, TheNullEngineHasNothingToCheckOnReads) {
  RunOptions options;
  options.engine = "null";
  options.mode = "rndrd";
  options.verify = true;
  auto built = BuildJobSpec(options);
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.error().exit_code, kUsageExit);
  EXPECT_NE(built.error().message.find("--verify"), std::string::npos);
  options.mode = "rndwr";  // stamping writes is what it measures there
  EXPECT_TRUE(BuildJobSpec(options).ok());
}

TEST(VerifyOptions, RepeatedAndStoredWithTheRun) {
  RunOptions options;
  options.mode = "rndwr";
  options.verify = true;
  options.targets = {"/mnt/ssd"};
  auto built = BuildJobSpec(options);
  ASSERT_TRUE(built.ok()) << built.error().message;
  EXPECT_TRUE(built->spec.verify);
  EXPECT_NE(ReproduceCommand(built->spec).find(" --verify"), std::string::npos);
  auto back = JobSpecFromJson(ToJson(built->spec));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->verify);
  auto old = ToJson(built->spec);
  old.erase("verify");  // configs stored before --verify existed
  EXPECT_FALSE(JobSpecFromJson(old)->verify);
}

}  // namespace
}  // namespace flashmark
