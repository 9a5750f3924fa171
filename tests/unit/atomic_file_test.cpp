// WriteFileAtomically and WriteNewFile on real files: a temporary is never
// written through a planted symlink, device nodes and fifos are refused.
#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flashmark {
namespace {

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-atomic-test.XXXXXX";
    dir_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::string dir_;
};

TEST_F(AtomicFileTest, ReplacesTheFileWholeAndLeavesNoTemporary) {
  std::ofstream(File("out")) << "old";
  ASSERT_TRUE(WriteFileAtomically(File("out"), "new text").ok());
  EXPECT_EQ(Read(File("out")), "new text");
  const std::string_view pieces[] = {"a", "bc", std::string_view("d")};
  ASSERT_TRUE(WriteFileAtomically(File("out"), pieces, false).ok());
  EXPECT_EQ(Read(File("out")), "abcd");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_),
                          std::filesystem::directory_iterator()),
            1);
}

TEST_F(AtomicFileTest, AStreamedFileAppearsWholeOnCommitAndNeverInPart) {
  std::ofstream(File("out")) << "old";
  const std::string big(300 << 10, 'x');  // past the buffer: written at once
  {
    auto file = StreamedFile::Create(File("out"));
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(file->Append("head ").ok());
    ASSERT_TRUE(file->Append(big).ok());
    EXPECT_EQ(Read(File("out")), "old") << "nothing shows before Commit";
    // Destroyed without Commit: the temporary goes, the old file stays.
  }
  EXPECT_EQ(Read(File("out")), "old");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_),
                          std::filesystem::directory_iterator()),
            1);
  auto file = StreamedFile::Create(File("out"));
  ASSERT_TRUE(file.ok());
  const std::string_view pieces[] = {"a", "b", big, "c"};
  for (const std::string_view piece : pieces) {
    ASSERT_TRUE(file->Append(piece).ok());
  }
  ASSERT_TRUE(file->Commit(false).ok());
  EXPECT_EQ(Read(File("out")), "ab" + big + "c");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_),
                          std::filesystem::directory_iterator()),
            1);
  EXPECT_FALSE(file->Append("late").ok()) << "a committed file takes no more";
}

TEST_F(AtomicFileTest, APlantedSymlinkAtTheTemporaryNameIsNotFollowed) {
  std::ofstream(File("victim")) << "precious";
  const std::string temp = File("out") + ".tmp." + std::to_string(getpid());
  std::filesystem::create_symlink(File("victim"), temp);
  ASSERT_TRUE(WriteFileAtomically(File("out"), "results").ok());
  EXPECT_EQ(Read(File("victim")), "precious");
  EXPECT_EQ(Read(File("out")), "results");
  EXPECT_TRUE(std::filesystem::is_symlink(temp)) << "someone else's link stays";
}

TEST_F(AtomicFileTest, RefusesToReplaceAFifoOrADirectory) {
  ASSERT_EQ(mkfifo(File("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(File("dir"));
  for (const std::string& path : {File("fifo"), File("dir")}) {
    Status written = WriteFileAtomically(path, "x");
    ASSERT_FALSE(written.ok()) << path;
    EXPECT_NE(written.error().message.find("not a regular file"),
              std::string::npos);
    auto streamed = StreamedFile::Create(path);
    ASSERT_FALSE(streamed.ok()) << path;
    EXPECT_EQ(streamed.error().exit_code, kUsageExit);
  }
  struct stat st;
  ASSERT_EQ(stat(File("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(AtomicFileTest, WriteNewFileNeverFollowsALinkNorReplacesAFile) {
  std::ofstream(File("victim")) << "precious";
  std::filesystem::create_symlink(File("victim"), File("link"));
  EXPECT_FALSE(WriteNewFile(File("link"), "x"));
  EXPECT_EQ(errno, EEXIST);
  EXPECT_FALSE(WriteNewFile(File("victim"), "x"));
  EXPECT_EQ(Read(File("victim")), "precious");
  EXPECT_TRUE(WriteNewFile(File("fresh"), "kept"));
  EXPECT_EQ(Read(File("fresh")), "kept");
}

}  // namespace
}  // namespace flashmark
