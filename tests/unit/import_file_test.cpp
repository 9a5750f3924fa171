// ReadImportFile: imports read regular files only, up to a stated limit,
// and never wait on a fifo or read a device without end.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "store/import_common.h"

namespace flashmark {
namespace {

class ImportFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-import-file-test.XXXXXX";
    dir_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  std::string dir_;
};

TEST_F(ImportFileTest, ReadsARegularFileWhole) {
  std::ofstream(File("out.txt")) << "line 1\nline 2\n";
  auto file = ReadImportFile(File("out.txt"));
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(file->text, "line 1\nline 2\n");
  EXPECT_GT(file->modified_unix_ns, 0);
}

TEST_F(ImportFileTest, RefusesDevicesFifosAndDirectoriesAtOnce) {
  ASSERT_EQ(mkfifo(File("fifo").c_str(), 0600), 0);
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/zero", "a character device"},
      {File("fifo"), "a fifo"},
      {dir_, "a directory"},
  };
  for (const auto& [path, kind] : cases) {
    const auto start = std::chrono::steady_clock::now();
    auto file = ReadImportFile(path);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1))
        << path;
    ASSERT_FALSE(file.ok()) << path;
    EXPECT_EQ(file.error().exit_code, kUsageExit);
    EXPECT_NE(file.error().message.find(kind), std::string::npos)
        << file.error().message;
    EXPECT_NE(file.error().message.find("regular files only"),
              std::string::npos);
  }
}

TEST_F(ImportFileTest, RefusesAFileLargerThanTheLimitSayingSo) {
  // Sparse: nothing is written, and nothing should be read.
  const int fd = open(File("huge.json").c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kMaxImportFileBytes + 1)), 0);
  close(fd);
  const auto start = std::chrono::steady_clock::now();
  auto file = ReadImportFile(File("huge.json"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().exit_code, kUsageExit);
  EXPECT_NE(file.error().message.find("larger than 1 GiB"), std::string::npos)
      << file.error().message;
}

}  // namespace
}  // namespace flashmark
