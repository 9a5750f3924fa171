// FileSet: which files are flashmark's (name, inode and size in a
// version-2 manifest), what a read run may reuse, and that nothing else is
// ever reused, overwritten or removed.
#include "system/file_set.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace flashmark {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr uint64_t kSetFileSize = 64 * 1024;

class FileSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/flashmark-fileset.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    set_ = root_ + "/set";
    fs::create_directory(set_);
  }
  void TearDown() override { fs::remove_all(root_); }

  TargetDirectory Directory() {
    auto directory = TargetDirectory::Open(set_);
    EXPECT_TRUE(directory.ok());
    return std::move(*directory);
  }
  static FileSetPlan Plan(bool writes, bool filled = true,
                          uint64_t file_size = kSetFileSize) {
    return FileSetPlan{2, file_size, DataPattern{}, filled, writes};
  }
  Result<FileSetState> LayOut(const FileSetPlan& plan) {
    std::ostringstream log;
    auto state = LayOutFileSet(Directory(), plan, log);
    log_ = log.str();
    return state;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  static uint64_t Inode(const std::string& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0 ? st.st_ino : 0;
  }
  std::string File(int i) const {
    return set_ + "/flashmark." + std::to_string(i);
  }

  std::string root_;
  std::string set_;
  std::string log_;
};

TEST_F(FileSetTest, ManifestRecordsEachFilesInodeAndSize) {
  auto state = LayOut(Plan(true));
  ASSERT_TRUE(state.ok()) << state.error().message;
  const json manifest = json::parse(Read(set_ + "/flashmark.manifest"));
  EXPECT_EQ(manifest.at("version"), 2);
  EXPECT_EQ(manifest.at("contents"), "filled");
  ASSERT_EQ(manifest.at("files").size(), 2u);
  EXPECT_EQ(manifest["files"][1].at("name"), "flashmark.1");
  EXPECT_EQ(manifest["files"][1].at("inode"), Inode(File(1)));
  EXPECT_EQ(manifest["files"][1].at("size"), kSetFileSize);
  EXPECT_TRUE(state->complete);
}

TEST_F(FileSetTest, AReadRunNeverLaysOutOverAnExistingSet) {
  ASSERT_TRUE(LayOut(Plan(true)).ok());
  const uint64_t inode = Inode(File(0));
  auto reused = LayOut(Plan(false));
  ASSERT_TRUE(reused.ok()) << reused.error().message;
  EXPECT_TRUE(reused->reused);
  EXPECT_NE(log_.find("a read run leaves it as it is"), std::string::npos)
      << log_;

  auto other = LayOut(Plan(false, true, 2 * kSetFileSize));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().exit_code, 2);
  EXPECT_NE(other.error().message.find(
                "holds a file set of 2 files x 64 KiB (filled with"),
            std::string::npos)
      << other.error().message;
  EXPECT_NE(
      other.error().message.find("a read run never overwrites or removes"),
      std::string::npos);
  EXPECT_NE(other.error().hint.find("flashmark cleanup " + set_),
            std::string::npos)
      << other.error().hint;
  EXPECT_NE(other.error().hint.find("--file-num 2 --size 128k"),
            std::string::npos)
      << other.error().hint;
  EXPECT_EQ(Inode(File(0)), inode) << "the set is untouched";
  EXPECT_EQ(fs::file_size(File(0)), kSetFileSize);
}

TEST_F(FileSetTest, AReadRunReusesASparseSetOnlyOnceItIsWrittenInFull) {
  ASSERT_TRUE(LayOut(Plan(true, false)).ok());  // seqwr's sparse layout
  auto refused = LayOut(Plan(false));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().exit_code, 2);
  EXPECT_NE(refused.error().message.find("sparse"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().hint.find("--mode seqwr --bytes 128k"),
            std::string::npos)
      << refused.error().hint;

  TargetDirectory directory = Directory();
  std::vector<int> fds;
  for (int i = 0; i < 2; ++i) {
    fds.push_back(openat(directory.fd(),
                         ("flashmark." + std::to_string(i)).c_str(), O_RDWR));
    ASSERT_GE(fds.back(), 0);
  }
  const std::string block(kSetFileSize / 2, 'x');
  ASSERT_EQ(pwrite(fds[0], block.data(), block.size(), 0),
            static_cast<ssize_t>(block.size()));
  auto half = RecordWrittenContents(directory, fds, DataPattern{});
  ASSERT_TRUE(half.ok());
  EXPECT_FALSE(*half) << "half of one file is still a hole";
  EXPECT_FALSE(LayOut(Plan(false)).ok());

  for (int fd : fds) {
    for (uint64_t offset = 0; offset < kSetFileSize; offset += block.size()) {
      ASSERT_EQ(pwrite(fd, block.data(), block.size(), offset),
                static_cast<ssize_t>(block.size()));
    }
  }
  auto full = RecordWrittenContents(directory, fds, DataPattern{});
  for (int fd : fds) close(fd);
  ASSERT_TRUE(full.ok());
  EXPECT_TRUE(*full);
  EXPECT_EQ(json::parse(Read(set_ + "/flashmark.manifest")).at("contents"),
            "written");
  auto reused = LayOut(Plan(false));
  ASSERT_TRUE(reused.ok()) << reused.error().message;
  EXPECT_TRUE(reused->reused);
  EXPECT_TRUE(reused->complete);
}

TEST_F(FileSetTest, AReadRunReadsASparseSetWithAGenerationMapAsItIs) {
  ASSERT_TRUE(LayOut(Plan(true, false)).ok());
  std::ofstream(set_ + "/flashmark.verify") << "map";
  auto reused = LayOut(Plan(false));
  ASSERT_TRUE(reused.ok()) << reused.error().message;
  EXPECT_FALSE(reused->complete);
  EXPECT_NE(log_.find("reads of its holes measure no device"),
            std::string::npos)
      << log_;
  EXPECT_EQ(Read(set_ + "/flashmark.verify"), "map");
  // Another shape: refused, and the map stays.
  auto other = LayOut(Plan(false, true, 2 * kSetFileSize));
  ASSERT_FALSE(other.ok());
  EXPECT_NE(
      other.error().message.find("and a generation map (flashmark.verify)"),
      std::string::npos)
      << other.error().message;
  EXPECT_EQ(Read(set_ + "/flashmark.verify"), "map");
}

TEST_F(FileSetTest, AnOlderManifestsFilesAreNeitherReusedNorRemoved) {
  // What flashmark wrote before manifests recorded file identities.
  std::ofstream(set_ + "/flashmark.manifest")
      << R"json({"tool": "flashmark", "complete": true, "filled": true,
             "file_size": 65536, "data": "random (refreshed per write)",
             "files": ["flashmark.0", "flashmark.1"]})json";
  for (int i = 0; i < 2; ++i)
    std::ofstream(File(i)) << std::string(kSetFileSize, 'o');
  for (bool writes : {true, false}) {
    auto refused = LayOut(Plan(writes));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().exit_code, 2);
    EXPECT_NE(refused.error().message.find(
                  "comes from an older flashmark, which recorded no file "
                  "identities, so flashmark neither reuses nor removes"),
              std::string::npos)
        << refused.error().message;
    EXPECT_NE(refused.error().hint.find("rm " + set_ + "/flashmark.*"),
              std::string::npos);
  }
  auto removed = RemoveFileSet(Directory());
  EXPECT_FALSE(removed.ok());
  EXPECT_EQ(Read(File(0)), std::string(kSetFileSize, 'o'));
  EXPECT_TRUE(fs::exists(File(1)));
  EXPECT_TRUE(fs::exists(set_ + "/flashmark.manifest"));
}

TEST_F(FileSetTest, OnlyFilesTheManifestIdentifiesAreRemoved) {
  ASSERT_TRUE(LayOut(Plan(true)).ok());
  const std::string victim = set_ + "/victim.txt";
  std::ofstream(victim) << "victim";
  const std::string other = set_ + "/flashmark.5";  // a name like flashmark's
  std::ofstream(other) << "someone's";
  json manifest = json::parse(Read(set_ + "/flashmark.manifest"));
  manifest["files"].push_back(
      {{"name", "victim.txt"}, {"inode", Inode(victim)}, {"size", 6}});
  manifest["files"].push_back(
      {{"name", "flashmark.5"}, {"inode", Inode(File(0))}, {"size", 9}});
  manifest["files"].push_back(
      {{"name", "../outside"}, {"inode", 1}, {"size", 1}});
  std::ofstream(set_ + "/flashmark.manifest") << manifest.dump();

  auto removed = RemoveFileSet(Directory());
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  EXPECT_EQ(removed->files, 2);
  EXPECT_EQ(Read(victim), "victim");
  EXPECT_EQ(Read(other), "someone's");
  ASSERT_EQ(removed->left.size(), 1u);
  EXPECT_NE(removed->left[0].find("flashmark.5 (it is another file than the "
                                  "one flashmark laid out"),
            std::string::npos)
      << removed->left[0];
  EXPECT_FALSE(removed->manifest) << "it stays while a listed file is left";
  EXPECT_FALSE(fs::exists(File(0)));
}

TEST_F(FileSetTest, ASetFileReplacedOrLinkedOutsideIsRefused) {
  ASSERT_TRUE(LayOut(Plan(true)).ok());
  const std::string outside = root_ + "/outside";
  std::ofstream(outside) << std::string(kSetFileSize, 'o');
  // flashmark.0 replaced by a hard link to the outside file.
  fs::remove(File(0));
  fs::create_hard_link(outside, File(0));
  for (bool writes : {true, false}) {
    auto refused = LayOut(Plan(writes));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().exit_code, 2);
    EXPECT_NE(refused.error().message.find(
                  "it is another file than the one flashmark laid out"),
              std::string::npos)
        << refused.error().message;
  }
  auto removed = RemoveFileSet(Directory());
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(removed->left.size(), 1u);
  EXPECT_EQ(Read(outside), std::string(kSetFileSize, 'o'));
  EXPECT_TRUE(fs::exists(File(0)));
}

TEST_F(FileSetTest, ASetFileWithASecondNameIsRefused) {
  ASSERT_TRUE(LayOut(Plan(true)).ok());
  const std::string before = Read(File(1));
  fs::create_hard_link(File(1), root_ + "/second-name");
  auto refused = LayOut(Plan(true));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().exit_code, 2);
  EXPECT_NE(refused.error().message.find("flashmark.1: it has 2 links"),
            std::string::npos)
      << refused.error().message;
  EXPECT_EQ(Read(root_ + "/second-name"), before);
}

TEST_F(FileSetTest, AnOpenedFileMustBeTheOneLaidOut) {
  auto state = LayOut(Plan(true));
  ASSERT_TRUE(state.ok());
  TargetDirectory directory = Directory();
  const int same = openat(directory.fd(), "flashmark.0", O_RDONLY);
  EXPECT_TRUE(CheckFileSetFile(directory, state->files[0], same).ok());
  close(same);
  const int other = openat(directory.fd(), "flashmark.1", O_RDONLY);
  const Status mismatch = CheckFileSetFile(directory, state->files[0], other);
  close(other);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.error().message.find("not the file flashmark laid out"),
            std::string::npos);
}

TEST_F(FileSetTest, LinksPlantedAtTheManifestsTemporaryNamesRedirectNothing) {
  const std::string outside = root_ + "/outside";
  std::ofstream(outside) << "outside";
  fs::create_hard_link(outside, set_ + "/flashmark.manifest.tmp");
  fs::create_symlink(
      outside, set_ + "/flashmark.manifest.tmp." + std::to_string(getpid()));
  ASSERT_TRUE(LayOut(Plan(true)).ok());
  EXPECT_EQ(Read(outside), "outside");
  EXPECT_TRUE(json::parse(Read(set_ + "/flashmark.manifest")).at("complete"));
}

}  // namespace
}  // namespace flashmark
