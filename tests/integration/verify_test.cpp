// Integration tests of --verify and `flashmark verify`: a file set is
// written with block headers, then damaged behind flashmark's back (a
// flipped byte, two blocks swapped, a block put back from an earlier pass,
// a truncated file) and each kind of damage must be reported at its exact
// file and offset.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

constexpr uint64_t kBlock = 4096;

std::string ReadBlock(const std::string& path, uint64_t index) {
  std::ifstream in(path, std::ios::binary);
  std::string block(kBlock, '\0');
  in.seekg(static_cast<std::streamoff>(index * kBlock));
  in.read(block.data(), kBlock);
  return block;
}

void WriteBlock(const std::string& path, uint64_t index,
                const std::string& block) {
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  out.seekp(static_cast<std::streamoff>(index * kBlock));
  out.write(block.data(), static_cast<std::streamsize>(block.size()));
}

// The options that lay out (or reuse) the same 2 x 512 KiB file set.
std::vector<std::string> WriteArgs(const std::string& set, const char* mode) {
  return {"run",        set, "--mode", mode, "--size",   "1M",
          "--file-num", "2", "--bs",   "4k", "--verify", "--keep-files",
          "--no-db",    "-q"};
}

using Finding =
    std::tuple<std::string, std::string, uint64_t>;  // kind, path, offset

std::set<Finding> Findings(const json& verify) {
  std::set<Finding> found;
  for (const json& m : verify.at("mismatches")) {
    found.emplace(m.at("kind").get<std::string>(),
                  m.at("path").get<std::string>(),
                  m.at("offset").get<uint64_t>());
  }
  return found;
}

TEST(Verify, EachKindOfDamageIsReportedAtItsOffset) {
  TempDir dir;
  const std::string set = dir.File("set");
  std::filesystem::create_directory(set);
  const std::string file0 = set + "/flashmark.0";
  const std::string file1 = set + "/flashmark.1";

  // Pass 1 writes generation 1 everywhere; pass 2 generation 2.
  auto pass = WriteArgs(set, "seqwr");
  pass.insert(pass.end(), {"--bytes", "1M"});
  Invocation first = RunFlashmark(pass);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("read back after the run: 256 blocks"),
            std::string::npos)
      << first.out;
  const std::string generation_one = ReadBlock(file0, 10);
  Invocation second = RunFlashmark(pass);
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
  ASSERT_TRUE(std::filesystem::exists(set + "/flashmark.verify"));
  Invocation clean = RunFlashmark({"verify", set});
  ASSERT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find("none bad"), std::string::npos) << clean.out;

  // Behind flashmark's back:
  std::string torn = ReadBlock(file0, 3);  // a flipped byte in block 3
  torn[1000] ^= 0x5a;
  WriteBlock(file0, 3, torn);
  const std::string five = ReadBlock(file0, 5);  // blocks 5 and 6 swapped
  WriteBlock(file0, 5, ReadBlock(file0, 6));
  WriteBlock(file0, 6, five);
  WriteBlock(file0, 10, generation_one);  // a lost write: pass 1's block
  ASSERT_EQ(truncate(file1.c_str(), 100 * kBlock + 100), 0);  // 28 blocks gone

  const std::string report = dir.File("verify.json");
  Invocation checked = RunFlashmark({"verify", set, "--json", report});
  EXPECT_EQ(checked.exit_code, 1) << checked.out << checked.err;
  const json doc = json::parse(ReadFile(report));
  EXPECT_EQ(doc.at("schema"), "flashmark.verify");
  const json& verify = doc.at("verify");
  const json& back = verify.at("read_back");
  EXPECT_EQ(back.at("torn"), 1);
  EXPECT_EQ(back.at("misdirected"), 2);
  EXPECT_EQ(back.at("lost"), 1 + 28);
  EXPECT_EQ(back.at("newer"), 0);
  std::set<Finding> expected = {
      {"torn", file0, 3 * kBlock},
      {"misdirected", file0, 5 * kBlock},
      {"misdirected", file0, 6 * kBlock},
      {"lost", file0, 10 * kBlock},
  };
  for (uint64_t block = 100; block < 128; ++block) {
    expected.emplace("lost", file1, block * kBlock);
  }
  EXPECT_EQ(Findings(verify), expected);
  for (const json& m : verify.at("mismatches")) {
    const uint64_t offset = m.at("offset");
    if (m.at("kind") == "misdirected") {  // each holds the other's block
      EXPECT_EQ(m.at("found").at("offset"),
                offset == 5 * kBlock ? 6 * kBlock : 5 * kBlock);
    }
    if (m.at("kind") == "lost" && m.at("path") == file0) {
      EXPECT_EQ(m.at("found").at("generation"), 1);
      EXPECT_EQ(m.at("expected_generation"), 2);
    }
    if (m.at("kind") == "lost" && m.at("path") == file1) {
      EXPECT_EQ(m.at("file_size"), 100 * kBlock + 100);
    }
  }
  // The console names kind, file and offset, and sums up.
  EXPECT_NE(checked.out.find("torn         " + file0 + " offset 12288"),
            std::string::npos)
      << checked.out;
  EXPECT_NE(checked.out.find("lost         " + file1 +
                             " offsets 409600..520192 "
                             "(28 blocks"),
            std::string::npos)
      << checked.out;
  EXPECT_NE(checked.out.find("32 bad (1 torn, 2 misdirected, 29 lost)"),
            std::string::npos)
      << checked.out;
  EXPECT_NE(checked.err.find("error: 32 bad blocks"), std::string::npos)
      << checked.err;
}

TEST(Verify, ReadsDuringARunAreCheckedAndCountedPerInterval) {
  TempDir dir;
  const std::string set = dir.File("set");
  std::filesystem::create_directory(set);
  // seqrewr lays the set out filled, as the read run wants it (a seqwr
  // that does not cover the whole set leaves it sparse, and the read run
  // would refuse it).
  auto write = WriteArgs(set, "seqrewr");
  write.insert(write.end(), {"--bytes", "1M"});
  ASSERT_EQ(RunFlashmark(write).exit_code, 0);
  std::string block = ReadBlock(set + "/flashmark.1", 7);
  block[2000] ^= 0x01;
  WriteBlock(set + "/flashmark.1", 7, block);

  auto read = WriteArgs(set, "rndrd");
  const std::string out = dir.File("run.json");
  read.insert(read.end(),
              {"--time", "1s", "--interval", "200ms", "--json", out});
  Invocation run = RunFlashmark(read);
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.err.find("data verification failed"), std::string::npos)
      << run.err;
  const json doc = json::parse(ReadFile(out));
  EXPECT_EQ(doc.at("status"), "failed");
  uint64_t checked = 0, torn = 0;
  for (const json& interval : doc.at("intervals")) {
    if (!interval.contains("verify")) continue;
    checked += interval.at("verify").at("checked").get<uint64_t>();
    torn += interval.at("verify").at("torn").get<uint64_t>();
  }
  EXPECT_GT(checked, 256u);  // every block read several times in 1 s
  EXPECT_GT(torn, 0u);
  EXPECT_EQ(doc.at("summary").at("verify").at("torn"), torn);
  const std::set<Finding> expected = {
      {"torn", set + "/flashmark.1", 7 * kBlock}};
  EXPECT_EQ(Findings(doc.at("verify")), expected);
}

// Writers and readers racing on few blocks (4 threads x QD 8 on 64 blocks)
// must not raise a false alarm: overlapping writes wait, and a block
// written while a read was in flight is not judged.
TEST(Verify, ConcurrentMixedIoOnASmallSetFindsNothingBad) {
  TempDir dir;
  for (const char* engine : {"psync", "libaio"}) {
    SCOPED_TRACE(engine);
    Invocation run = RunFlashmark(
        {"run",         dir.path(),  "--mode",     "rndrw",     "--engine",
         engine,        "--iodepth", "8",          "--threads", "4",
         "--size",      "256k",      "--file-num", "1",         "--bs",
         "4k/50:8k/50", "--time",    "1s",         "--verify",  "--no-db",
         "-q"});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("read back after the run: "), std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("none bad"), std::string::npos) << run.out;
  }
}

TEST(Verify, NullEngineStampsWritesAndRefusesReads) {
  Invocation write =
      RunFlashmark({"run", "--engine", "null", "--mode", "rndwr", "--time",
                    "1s", "--verify", "--no-db", "-q"});
  EXPECT_EQ(write.exit_code, 0) << write.err;
  EXPECT_NE(write.out.find("the null engine keeps no data to read back"),
            std::string::npos)
      << write.out;
  Invocation read = RunFlashmark({"run", "--engine", "null", "--mode", "rndrd",
                                  "--time", "1s", "--verify", "--no-db"});
  EXPECT_EQ(read.exit_code, 2);
  EXPECT_NE(read.err.find("--verify"), std::string::npos) << read.err;
}

TEST(Verify, VerifyWithoutAMapIsAUsageError) {
  TempDir dir;
  Invocation result = RunFlashmark({"verify", dir.path()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no generation map"), std::string::npos)
      << result.err;
}

TEST(Verify, LayingOutTheSetAnewDropsItsMap) {
  TempDir dir;
  auto write = WriteArgs(dir.path(), "seqwr");
  write.insert(write.end(), {"--bytes", "1M"});
  ASSERT_EQ(RunFlashmark(write).exit_code, 0);
  ASSERT_TRUE(std::filesystem::exists(dir.File("flashmark.verify")));
  Invocation other = RunFlashmark(
      {"run", dir.path(), "--mode", "rndwr", "--size", "2M", "--file-num", "2",
       "--io-limit", "10", "--keep-files", "--no-db", "-q"});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("flashmark.verify")));
}

// Finding 18 of issue 11: a seqwr --verify --keep-files that wrote the
// whole set, one block corrupted behind flashmark's back, then a seqrd
// --verify of the same shape: the read run reads the set as it is, reports
// the bad block (exit 1), and leaves the set and its map in place.
TEST(Verify, AReadRunChecksAWrittenSetAsItIs) {
  TempDir dir;
  const std::string set = dir.File("set");
  std::filesystem::create_directory(set);
  auto write = WriteArgs(set, "seqwr");
  write.insert(write.end(), {"--bytes", "1M"});
  Invocation written = RunFlashmark(write);
  ASSERT_EQ(written.exit_code, 0) << written.out << written.err;
  EXPECT_NE(written.out.find("read back after the run: 256 blocks"),
            std::string::npos)
      << written.out;
  const std::string map = ReadFile(set + "/flashmark.verify");
  ASSERT_FALSE(map.empty());

  const std::string file1 = set + "/flashmark.1";
  struct stat before;
  ASSERT_EQ(stat(file1.c_str(), &before), 0);
  const int fd = open(file1.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  const std::string garbage(kBlock, 'g');
  ASSERT_EQ(pwrite(fd, garbage.data(), garbage.size(), 9 * kBlock),
            static_cast<ssize_t>(kBlock));
  close(fd);

  Invocation read =
      RunFlashmark({"run", set, "--mode", "seqrd", "--size", "1M", "--file-num",
                    "2", "--bs", "4k", "--verify", "--bytes", "1M", "--no-db"});
  EXPECT_EQ(read.exit_code, 1) << read.out << read.err;
  EXPECT_EQ(read.out.find("laying out"), std::string::npos) << read.out;
  EXPECT_NE(read.out.find("reusing file set in " + set), std::string::npos)
      << read.out;
  EXPECT_NE(read.out.find("lost         " + file1 + " offset 36864"),
            std::string::npos)
      << read.out;
  EXPECT_NE(read.err.find("data verification failed"), std::string::npos)
      << read.err;
  EXPECT_EQ(read.err.find("checks nothing"), std::string::npos) << read.err;
  EXPECT_EQ(ReadFile(set + "/flashmark.verify"), map) << "the map survives";
  struct stat after;
  ASSERT_EQ(stat(file1.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the set was not laid out anew";
  EXPECT_EQ(ReadBlock(file1, 9), garbage);
  // `flashmark verify` still finds the same block.
  Invocation checked = RunFlashmark({"verify", set});
  EXPECT_EQ(checked.exit_code, 1) << checked.out;
}

// A read run never lays out over a set that does not fit: it says what is
// there and how to allow a new layout; `flashmark cleanup` allows it.
TEST(Verify, AReadRunRefusesASetOfAnotherShapeUntilItIsCleanedUp) {
  TempDir dir;
  const std::string set = dir.File("set");
  std::filesystem::create_directory(set);
  auto write = WriteArgs(set, "seqwr");
  write.insert(write.end(), {"--bytes", "256k"});  // a quarter: sparse
  ASSERT_EQ(RunFlashmark(write).exit_code, 0);
  const std::string map = ReadFile(set + "/flashmark.verify");
  const std::vector<std::string> read = {"run",    set,  "--mode",     "rndrd",
                                         "--size", "2M", "--file-num", "2",
                                         "--time", "1s", "--no-db",    "-q"};
  Invocation refused = RunFlashmark(read);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("error: refusing to lay out a file set in " + set +
                             " for a read run: it holds a file set of 2 files "
                             "x 512 KiB (sparse: laid out for a sequential "
                             "write and not written in full) and a generation "
                             "map (flashmark.verify)"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("flashmark cleanup " + set), std::string::npos);
  EXPECT_EQ(ReadFile(set + "/flashmark.verify"), map);

  Invocation cleanup = RunFlashmark({"cleanup", set});
  EXPECT_EQ(cleanup.exit_code, 0) << cleanup.err;
  EXPECT_NE(cleanup.out.find("removed 2 files (1 MiB), the generation map, "
                             "the manifest from " +
                             set),
            std::string::npos)
      << cleanup.out;
  EXPECT_TRUE(std::filesystem::is_empty(set));
  Invocation laid_out = RunFlashmark(read);
  EXPECT_EQ(laid_out.exit_code, 0) << laid_out.err;
  EXPECT_TRUE(std::filesystem::is_empty(set))
      << "a set the read run laid out itself goes afterwards";
  EXPECT_EQ(RunFlashmark({"cleanup", set}).exit_code, 2);
}

TEST(Verify, WritingWithoutVerifyDropsTheStaleMap) {
  TempDir dir;
  auto write = WriteArgs(dir.path(), "seqrewr");
  write.insert(write.end(), {"--bytes", "1M"});
  ASSERT_EQ(RunFlashmark(write).exit_code, 0);
  ASSERT_TRUE(std::filesystem::exists(dir.File("flashmark.verify")));
  Invocation plain = RunFlashmark(
      {"run", dir.path(), "--mode", "rndwr", "--size", "1M", "--file-num", "2",
       "--bs", "4k", "--io-limit", "10", "--keep-files", "--no-db", "-q"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("flashmark.verify")));
  EXPECT_NE(plain.err.find("writes without --verify make it stale"),
            std::string::npos)
      << plain.err;
}

}  // namespace
}  // namespace flashmark::testing
