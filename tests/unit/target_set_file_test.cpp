// TargetSet with a regular file as the target of a writing run: never a
// file in a system directory (directly or through a symlink), never the
// database, the --json output or the program. Opening a TargetSet writes
// nothing, so even a wrongly accepted target here stays untouched.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "system/target_set.h"

namespace flashmark {
namespace {

class TargetSetFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-target-file-test.XXXXXX";
    dir_ = mkdtemp(pattern.data());
    spec_.mode = IoMode::kRndWr;
    spec_.size_given = false;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  void MakeFile(const std::string& name) const {
    std::ofstream(File(name)) << std::string(64 << 10, 'x');
  }
  Result<TargetSet> Open(const std::string& target,
                         const SafetyContext& safety) {
    spec_.targets = {target};
    return TargetSet::Open(spec_, safety, log_);
  }
  std::string dir_;
  JobSpec spec_;
  std::ostringstream log_;
};

TEST_F(TargetSetFileTest, AnOrdinaryFileIsAccepted) {
  MakeFile("data");
  auto opened = Open(File("data"), CaptureSafetyContext(File("runs.db")));
  EXPECT_TRUE(opened.ok()) << opened.error().message;
}

TEST_F(TargetSetFileTest, RefusesAFileInASystemDirectoryEvenThroughASymlink) {
  std::string system_file;
  for (const char* candidate :
       {"/usr/share/common-licenses/GPL-3", "/etc/ld.so.cache"}) {
    std::error_code error;
    if (std::filesystem::file_size(candidate, error) >= (16u << 10)) {
      system_file = candidate;
      break;
    }
  }
  if (system_file.empty()) GTEST_SKIP() << "no system file of 16 KiB or more";
  std::filesystem::create_symlink(system_file, File("innocent"));
  for (const std::string& target : {system_file, File("innocent")}) {
    auto opened = Open(target, CaptureSafetyContext(""));
    ASSERT_FALSE(opened.ok()) << target;
    EXPECT_EQ(opened.error().exit_code, kUsageExit);
    EXPECT_NE(opened.error().message.find("inside the system directory"),
              std::string::npos)
        << opened.error().message;
  }
  // Reading it is fine: reads never destroy.
  spec_.mode = IoMode::kRndRd;
  EXPECT_TRUE(Open(File("innocent"), CaptureSafetyContext("")).ok());
}

TEST_F(TargetSetFileTest, RefusesTheDatabaseAndTheJsonOutput) {
  MakeFile("runs.db");
  std::filesystem::create_hard_link(File("runs.db"), File("other-name"));
  auto database =
      Open(File("other-name"), CaptureSafetyContext(File("runs.db")));
  ASSERT_FALSE(database.ok());
  EXPECT_EQ(database.error().exit_code, kUsageExit);
  EXPECT_NE(
      database.error().message.find("it is the database " + File("runs.db")),
      std::string::npos)
      << database.error().message;

  MakeFile("run.json");
  spec_.json_path = File("run.json");
  auto json = Open(File("run.json"), CaptureSafetyContext(File("runs.db")));
  ASSERT_FALSE(json.ok());
  EXPECT_NE(json.error().message.find("the --json output"), std::string::npos)
      << json.error().message;
}

TEST_F(TargetSetFileTest, RefusesTheProgramItself) {
  const std::string program = std::filesystem::read_symlink("/proc/self/exe");
  auto opened = Open(program, CaptureSafetyContext(""));
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().message.find("it is the program"), std::string::npos)
      << opened.error().message;
}

}  // namespace
}  // namespace flashmark
