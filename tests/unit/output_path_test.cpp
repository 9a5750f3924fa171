// OutputPath: what flashmark may write as an output or a database, judged
// on real files, fifos and device nodes in a temporary directory.
#include "system/output_path.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace flashmark {
namespace {

class OutputPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-output-test.XXXXXX";
    dir_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(File(name)) << text;
  }
  std::string dir_;
};

std::string Message(const Result<OutputPath>& result) {
  return result.ok() ? "" : result.error().message;
}

TEST_F(OutputPathTest, AcceptsAnExistingRegularFileAndANewName) {
  Write("old.json", "{}");
  auto existing =
      CheckOutputPath("--json", File("old.json"), OutputKind::kDocument);
  ASSERT_TRUE(existing.ok()) << existing.error().message;
  EXPECT_TRUE(existing->exists);
  EXPECT_EQ(existing->real, File("old.json"));
  auto fresh =
      CheckOutputPath("--json", File("new.json"), OutputKind::kDocument);
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  EXPECT_FALSE(fresh->exists);
  EXPECT_EQ(fresh->real, File("new.json"));
  EXPECT_FALSE(std::filesystem::exists(File("new.json")))
      << "judging creates nothing";
}

TEST_F(OutputPathTest, ResolvesSymlinksToTheFileTheyLeadTo) {
  Write("target.json", "{}");
  std::filesystem::create_symlink(File("target.json"), File("link.json"));
  auto judged =
      CheckOutputPath("--json", File("link.json"), OutputKind::kDocument);
  ASSERT_TRUE(judged.ok()) << judged.error().message;
  EXPECT_EQ(judged->real, File("target.json"));
  std::filesystem::create_symlink(File("missing.json"), File("dangling.json"));
  auto dangling =
      CheckOutputPath("--json", File("dangling.json"), OutputKind::kDocument);
  ASSERT_FALSE(dangling.ok());
  EXPECT_NE(Message(dangling).find("symlink to a missing file"),
            std::string::npos);
}

TEST_F(OutputPathTest, RefusesSpecialFilesWithExitStatus2) {
  ASSERT_EQ(mkfifo(File("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(File("dir"));
  std::filesystem::create_symlink("/dev/null", File("to-null"));
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/null", "/dev"},
      {File("to-null"), "resolves to /dev/null"},
      {File("fifo"), "a fifo"},
      {File("dir"), "a directory"},
      {File("dir") + "/", "a directory"},
      {"/proc/self/status", "/proc"},
      {"/sys/kernel/new-file", "/sys"},
      {File("no-such-dir/out.json"), "does not exist"},
  };
  for (const auto& [path, expected] : cases) {
    for (OutputKind kind : {OutputKind::kDocument, OutputKind::kDatabase}) {
      auto judged = CheckOutputPath("--x", path, kind);
      ASSERT_FALSE(judged.ok()) << path;
      EXPECT_EQ(judged.error().exit_code, kUsageExit) << path;
      EXPECT_NE(Message(judged).find("--x " + path), std::string::npos)
          << Message(judged);
      EXPECT_NE(Message(judged).find(expected), std::string::npos)
          << path << ": " << Message(judged);
      EXPECT_FALSE(judged.error().hint.empty());
    }
  }
  struct stat st;
  ASSERT_EQ(stat(File("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(OutputPathTest, RefusesADeviceNodeOutsideDev) {
  if (geteuid() != 0) GTEST_SKIP() << "mknod of a device needs root";
  ASSERT_EQ(mknod(File("null").c_str(), S_IFCHR | 0600, makedev(1, 3)), 0);
  auto judged = CheckOutputPath("--db", File("null"), OutputKind::kDatabase);
  ASSERT_FALSE(judged.ok());
  EXPECT_NE(Message(judged).find("a character device"), std::string::npos)
      << Message(judged);
}

TEST_F(OutputPathTest, DevShmIsAnOrdinaryPlace) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  const std::string name =
      "/dev/shm/flashmark-output-test-" + std::to_string(getpid());
  auto judged = CheckOutputPath("--json", name, OutputKind::kDocument);
  EXPECT_TRUE(judged.ok()) << Message(judged);
}

TEST_F(OutputPathTest, ADocumentNeverReplacesASqliteDatabase) {
  Write("runs.db", std::string("SQLite format 3\0rest", 20));
  auto document =
      CheckOutputPath("--json", File("runs.db"), OutputKind::kDocument);
  ASSERT_FALSE(document.ok());
  EXPECT_NE(Message(document).find("SQLite database"), std::string::npos);
  EXPECT_TRUE(
      CheckOutputPath("--db", File("runs.db"), OutputKind::kDatabase).ok());
}

TEST_F(OutputPathTest, OutputsOfOneCommandMustBeDistinctFiles) {
  Write("a", "x");
  std::filesystem::create_hard_link(File("a"), File("b"));
  std::filesystem::create_symlink(File("a"), File("c"));
  const auto judge = [](const std::string& option, const std::string& path) {
    auto judged = CheckOutputPath(option, path, OutputKind::kDatabase);
    EXPECT_TRUE(judged.ok()) << Message(judged);
    return *judged;
  };
  for (const std::string& other : {File("b"), File("c")}) {
    const OutputPath pair[] = {judge("--json", File("a")),
                               judge("--db", other)};
    Status distinct = CheckDistinctOutputs(pair);
    ASSERT_FALSE(distinct.ok()) << other;
    EXPECT_EQ(distinct.error().exit_code, kUsageExit);
    EXPECT_NE(distinct.error().message.find("are the same file"),
              std::string::npos);
  }
  // New names: the same once resolved ("./x" and "x" in the same place).
  const OutputPath fresh[] = {judge("--json", File("new")),
                              judge("--db", dir_ + "/./new")};
  EXPECT_FALSE(CheckDistinctOutputs(fresh).ok());
  const OutputPath different[] = {judge("--json", File("a")),
                                  judge("--db", File("new"))};
  EXPECT_TRUE(CheckDistinctOutputs(different).ok());
}

TEST_F(OutputPathTest, OutputDirectoriesAreDirectoriesOrNewNames) {
  Write("file", "x");
  EXPECT_TRUE(CheckOutputDirectory("--csv", dir_).ok());
  EXPECT_TRUE(CheckOutputDirectory("--csv", File("new-dir")).ok());
  EXPECT_FALSE(CheckOutputDirectory("--csv", File("file")).ok());
  EXPECT_FALSE(CheckOutputDirectory("--csv", "/dev").ok());
  EXPECT_FALSE(CheckOutputDirectory("--csv", "/proc/self").ok());
}

}  // namespace
}  // namespace flashmark
