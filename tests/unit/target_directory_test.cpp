// TargetDirectory: opened once, everything relative to its descriptor;
// links planted at the names it writes redirect nothing.
#include "system/target_directory.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flashmark {
namespace {

namespace fs = std::filesystem;

class TargetDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/flashmark-targetdir.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    fs::create_directory(root_ + "/a");
    fs::create_directory(root_ + "/b");
    std::ofstream(root_ + "/outside") << "outside";
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::string root_;
};

TEST_F(TargetDirectoryTest,
       LinksAtTheTemporaryAndFinalNamesAreReplacedNotFollowed) {
  auto directory = TargetDirectory::Open(root_ + "/a");
  ASSERT_TRUE(directory.ok()) << directory.error().message;
  const std::string a = root_ + "/a/";
  fs::create_symlink(root_ + "/outside",
                     a + fmt::format("map.tmp.{}", getpid()));
  fs::create_hard_link(root_ + "/outside",
                       a + fmt::format("map.tmp.{}.1", getpid()));
  fs::create_symlink(root_ + "/outside", a + "map");
  ASSERT_TRUE(directory->WriteFileAtomically("map", "new text").ok());
  EXPECT_EQ(Read(root_ + "/outside"), "outside");
  EXPECT_FALSE(fs::is_symlink(a + "map"));
  EXPECT_EQ(Read(a + "map"), "new text");
  // The planted names are left as they were, and no temporary remains.
  EXPECT_TRUE(fs::is_symlink(a + fmt::format("map.tmp.{}", getpid())));
  EXPECT_FALSE(fs::exists(a + fmt::format("map.tmp.{}.2", getpid())));
}

TEST_F(TargetDirectoryTest, ALinkIsNeverReadThrough) {
  auto directory = TargetDirectory::Open(root_ + "/a");
  ASSERT_TRUE(directory.ok());
  fs::create_symlink(root_ + "/outside", root_ + "/a/map");
  auto read = directory->ReadFile("map");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("is a symbolic link"), std::string::npos)
      << read.error().message;
  auto none = directory->ReadFile("absent");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(TargetDirectoryTest, RepointingTheLinkAfterOpenChangesNothing) {
  const std::string link = root_ + "/link";
  fs::create_directory_symlink(root_ + "/a", link);
  auto directory = TargetDirectory::Open(link);
  ASSERT_TRUE(directory.ok());
  EXPECT_EQ(directory->real_path(), root_ + "/a");
  fs::remove(link);
  fs::create_directory_symlink(root_ + "/b", link);
  ASSERT_TRUE(directory->WriteFileAtomically("x", "1").ok());
  EXPECT_TRUE(fs::exists(root_ + "/a/x"));
  EXPECT_FALSE(fs::exists(root_ + "/b/x"));
  EXPECT_EQ(directory->PathOf("x"), link + "/x")
      << "messages keep the path given";
}

TEST_F(TargetDirectoryTest, SystemDirectoriesAreRefusedForWritingOnly) {
  const std::string link = root_ + "/etc-link";
  fs::create_directory_symlink("/etc", link);
  auto refused = TargetDirectory::Open(link);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().exit_code, 2);
  EXPECT_NE(refused.error().message.find("it is a symlink to /etc, inside the "
                                         "system directory /etc"),
            std::string::npos)
      << refused.error().message;
  EXPECT_TRUE(TargetDirectory::OpenForReading(link).ok());
}

}  // namespace
}  // namespace flashmark
