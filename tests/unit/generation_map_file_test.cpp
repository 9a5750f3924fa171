#include "system/generation_map_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "system/file_set.h"

namespace flashmark {
namespace {

class GenerationMapFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/flashmark-genmap.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  TargetDirectory Directory() {
    auto directory = TargetDirectory::Open(dir_);
    EXPECT_TRUE(directory.ok());
    return std::move(*directory);
  }
  void WriteMap(const std::string& bytes) {
    std::ofstream(dir_ + "/" + kGenerationMapName, std::ios::binary) << bytes;
  }
  std::string dir_;
};

TEST_F(GenerationMapFileTest, NoMapIsNotAnError) {
  auto read = ReadGenerationMap(Directory());
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_FALSE(read->has_value());
}

TEST_F(GenerationMapFileTest, WhatIsWrittenReadsBack) {
  GenerationMap map(4096, {3 * 4096, 2 * 4096 + 512});
  uint32_t before[2];
  ASSERT_TRUE(map.Claim(0, 4096, 8192, before));
  map.Finish(0, 4096, 8192, true);
  ASSERT_TRUE(map.Claim(1, 0, 4096, before));
  map.Finish(1, 0, 4096, false);  // uncertain
  ASSERT_TRUE(
      WriteGenerationMap(Directory(), map, {"flashmark.0", "flashmark.1"}, 77)
          .ok());
  auto read = ReadGenerationMap(Directory());
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(read->has_value());
  const StoredGenerationMap& stored = **read;
  EXPECT_EQ(stored.file_names,
            (std::vector<std::string>{"flashmark.0", "flashmark.1"}));
  EXPECT_EQ(stored.seed, 77u);
  EXPECT_EQ(stored.map->block_bytes(), 4096u);
  EXPECT_EQ(stored.map->file_size(1), 2 * 4096u + 512);
  EXPECT_EQ(stored.map->Export(), map.Export());
}

TEST_F(GenerationMapFileTest, MalformedMapsAreRefusedNamingThePath) {
  for (const std::string& bytes :
       {std::string("not json\n"), std::string("no newline"),
        std::string(
            R"({"tool":"flashmark","kind":"generation-map","version":2})"
            "\n"),
        std::string(
            R"({"tool":"flashmark","kind":"generation-map","version":1,)"
            R"("block_bytes":4096,"files":[{"name":"../x","size":4096}]})"
            "\n1234"),
        std::string(
            R"({"tool":"flashmark","kind":"generation-map","version":1,)"
            R"("block_bytes":4096,"files":[{"name":"f","size":8192}]})"
            "\n1234")}) {
    WriteMap(bytes);
    auto read = ReadGenerationMap(Directory());
    ASSERT_FALSE(read.ok()) << bytes;
    EXPECT_NE(read.error().message.find(kGenerationMapName), std::string::npos);
  }
}

// Finding 5 of issue 11: the map used to be written by path to
// flashmark.verify.tmp.PID with O_CREAT | O_TRUNC, so a link planted there
// made flashmark overwrite the file it pointed to.
TEST_F(GenerationMapFileTest, LinksPlantedAtItsNamesRedirectNothing) {
  const std::string outside = dir_ + "/outside";
  std::ofstream(outside) << "outside";
  std::filesystem::create_directory(dir_ + "/set");
  const std::string set = dir_ + "/set/";
  std::filesystem::create_symlink(
      outside, set + kGenerationMapName + ".tmp." + std::to_string(getpid()));
  std::filesystem::create_symlink(outside, set + kGenerationMapName);
  auto directory = TargetDirectory::Open(dir_ + "/set");
  ASSERT_TRUE(directory.ok());
  auto planted = ReadGenerationMap(*directory);
  EXPECT_FALSE(planted.ok()) << "a link at the map's name is not read through";
  GenerationMap map(4096, {4096});
  ASSERT_TRUE(WriteGenerationMap(*directory, map, {"flashmark.0"}, 1).ok());
  std::ifstream in(outside);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "outside");
  EXPECT_FALSE(std::filesystem::is_symlink(set + kGenerationMapName));
  auto read = ReadGenerationMap(*directory);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_TRUE(read->has_value());
  EXPECT_TRUE(RemoveGenerationMap(*directory));
  EXPECT_FALSE(RemoveGenerationMap(*directory));
}

}  // namespace
}  // namespace flashmark
