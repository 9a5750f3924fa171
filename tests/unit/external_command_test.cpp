#include "system/external_command.h"

#include <gtest/gtest.h>

namespace flashmark {
namespace {

TEST(ExternalCommand, CapturesOutputAndExitStatus) {
  auto result = RunExternal({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->exit_status, 3);
  EXPECT_FALSE(result->succeeded());
  EXPECT_NE(result->output.find("out\n"), std::string::npos);
  EXPECT_NE(result->output.find("err\n"), std::string::npos);
  EXPECT_EQ(result->Outcome(), "exit status 3");
  EXPECT_EQ(ToJson(*result)["exit_status"], 3);
}

TEST(ExternalCommand, ArgumentsAreNotInterpretedByAShell) {
  auto result = RunExternal({"echo", "$HOME; rm -rf /", "*"});
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->succeeded());
  EXPECT_EQ(result->output, "$HOME; rm -rf / *\n");
  EXPECT_EQ(result->LastOutputLine(), "$HOME; rm -rf / *");
}

TEST(ExternalCommand, MissingProgramIsAnErrorNamingIt) {
  auto result = RunExternal({"flashmark-no-such-program", "x"});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("flashmark-no-such-program: not found"),
            std::string::npos);
  EXPECT_FALSE(ProgramAvailable("flashmark-no-such-program"));
  EXPECT_TRUE(ProgramAvailable("sh"));
}

TEST(ExternalCommand, TimeoutKillsTheProgram) {
  auto result = RunExternal({"sleep", "30"}, std::chrono::milliseconds(200));
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->timed_out);
  EXPECT_EQ(result->signal, 9);
  EXPECT_LT(result->elapsed, std::chrono::seconds(10));
}

TEST(ExternalCommand, KeepsOnlyTheFirstBytesOfHugeOutput) {
  auto result = RunExternal({"head", "-c", "1000000", "/dev/zero"});
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->succeeded());
  EXPECT_EQ(result->output.size(), kMaxCapturedOutput);
}

}  // namespace
}  // namespace flashmark
