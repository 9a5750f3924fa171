#include "system/generation_map_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

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
  void WriteMap(const std::string& bytes) {
    std::ofstream(dir_ + "/" + kGenerationMapName, std::ios::binary) << bytes;
  }
  std::string dir_;
};

TEST_F(GenerationMapFileTest, NoMapIsNotAnError) {
  auto read = ReadGenerationMap(dir_);
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
  ASSERT_TRUE(WriteGenerationMap(dir_, map, {"flashmark.0", "flashmark.1"}, 77).ok());
  auto read = ReadGenerationMap(dir_);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(read->has_value());
  const StoredGenerationMap& stored = **read;
  EXPECT_EQ(stored.file_names, (std::vector<std::string>{"flashmark.0", "flashmark.1"}));
  EXPECT_EQ(stored.seed, 77u);
  EXPECT_EQ(stored.map->block_bytes(), 4096u);
  EXPECT_EQ(stored.map->file_size(1), 2 * 4096u + 512);
  EXPECT_EQ(stored.map->Export(), map.Export());
}

TEST_F(GenerationMapFileTest, MalformedMapsAreRefusedNamingThePath) {
  for (const std::string& bytes :
       {std::string("not json\n"), std::string("no newline"),
        std::string(R"({"tool":"flashmark","kind":"generation-map","version":2})" "\n"),
        std::string(R"({"tool":"flashmark","kind":"generation-map","version":1,)"
                    R"("block_bytes":4096,"files":[{"name":"../x","size":4096}]})" "\n1234"),
        std::string(R"({"tool":"flashmark","kind":"generation-map","version":1,)"
                    R"("block_bytes":4096,"files":[{"name":"f","size":8192}]})" "\n1234")}) {
    WriteMap(bytes);
    auto read = ReadGenerationMap(dir_);
    ASSERT_FALSE(read.ok()) << bytes;
    EXPECT_NE(read.error().message.find(kGenerationMapName), std::string::npos);
  }
}

}  // namespace
}  // namespace flashmark
