// `flashmark import fio-iolog|blktrace`, `list --traces`, `show --trace`
// (issue 40): a trace file becomes a stored trace once (again only with
// --again), its summary reads back, and bad input is exit 2 with nothing
// stored.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

std::string TraceFixture(const std::string& name) {
  return std::string(FLASHMARK_SOURCE_DIR) + "/tests/fixtures/trace/" + name;
}

TEST(TraceImport, AFileBecomesOneStoredTraceWithItsSummary) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  const std::string iolog = TraceFixture("fio-3.33-randwrite-100iops.iolog");
  const Invocation first = RunFlashmark({"import", "fio-iolog", iolog, db});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("trace 1: fio-iolog of"), std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("write 100 (100.0 %, 400 KiB)"), std::string::npos)
      << first.out;
  const Invocation again = RunFlashmark({"import", "fio-iolog", iolog, db});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("was imported before, as trace 1"),
            std::string::npos)
      << again.err;
  ASSERT_EQ(
      RunFlashmark({"import", "fio-iolog", iolog, db, "--again"}).exit_code, 0);
  const Invocation blk = RunFlashmark(
      {"import", "blktrace", TraceFixture("blkparse-merge-flush.txt"), db});
  ASSERT_EQ(blk.exit_code, 0) << blk.err;

  const json list =
      json::parse(RunFlashmark({"list", "--traces", "--json", db}).out);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[2]["source"], "blktrace");
  EXPECT_EQ(list[2]["ios"], 3);
  const Invocation table = RunFlashmark({"list", "--traces", db});
  EXPECT_NE(table.out.find("fio-iolog"), std::string::npos) << table.out;

  const json shown =
      json::parse(RunFlashmark({"show", "--trace", "3", "--json", db}).out);
  EXPECT_EQ(shown["id"], 3);
  EXPECT_EQ(shown["ops"]["flush"]["ios"], 1);
  EXPECT_EQ(shown["device_ns"]["max"], 290000.0);
  EXPECT_EQ(shown["processes"][0]["name"], "dbwriter");
  const Invocation text = RunFlashmark({"show", "--trace", "1", db});
  EXPECT_NE(text.out.find("queue depth     not known"), std::string::npos)
      << text.out;
  // Runs are untouched by traces: none stored.
  EXPECT_EQ(json::parse(RunFlashmark({"list", "--json", db}).out).size(), 0u);
}

// blktrace's binary files: named by one of them, or by their stem as
// blkparse -i takes it, one trace of all CPUs, once.
TEST(TraceImport, BlktracesPerCpuFilesAreOneTrace) {
  TempDir dir;
  const std::string db = "--db=" + dir.File("runs.db");
  for (const char* cpu : {"0", "1"}) {
    const std::string name = std::string("loop1.blktrace.") + cpu;
    WriteText(dir.File(name), ReadFile(TraceFixture(name)));
  }
  const Invocation one =
      RunFlashmark({"import", "blktrace", dir.File("loop1.blktrace.1"),
                    dir.File("loop1.blktrace.0"), db});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("103 IOs"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("trace 2"), std::string::npos) << one.out;
  const Invocation stem =
      RunFlashmark({"import", "blktrace", dir.File("loop1"), db});
  EXPECT_EQ(stem.exit_code, 2);
  EXPECT_NE(stem.err.find("was imported before, as trace 1"), std::string::npos)
      << stem.err;
  const json shown =
      json::parse(RunFlashmark({"show", "--trace", "1", "--json", db}).out);
  EXPECT_EQ(shown["ios"], 103);
  EXPECT_EQ(shown["ops"]["flush"]["ios"], 1);
  EXPECT_EQ(shown["ops"]["discard"]["ios"], 1);
  EXPECT_EQ(shown["max_queue_depth"], 8);
  // A truncated file: exit 2, nothing stored.
  const std::string cut = dir.File("cut/loop1.blktrace.0");
  std::filesystem::create_directory(dir.File("cut"));
  const std::string bytes = ReadFile(TraceFixture("loop1.blktrace.0"));
  WriteText(cut, bytes.substr(0, bytes.size() - 7));
  const Invocation truncated = RunFlashmark({"import", "blktrace", cut, db});
  EXPECT_EQ(truncated.exit_code, 2);
  EXPECT_NE(truncated.err.find("truncated"), std::string::npos)
      << truncated.err;
  EXPECT_EQ(
      json::parse(RunFlashmark({"list", "--traces", "--json", db}).out).size(),
      1u);
}

TEST(TraceImport, BadInputIsRefusedWithNothingStored) {
  TempDir dir;
  const std::string path = dir.File("runs.db");
  const std::string db = "--db=" + path;
  WriteText(dir.File("bad.iolog"),
            "fio version 3 iolog\n0 f add\n1 f jump 0 1\n");
  const Invocation bad =
      RunFlashmark({"import", "fio-iolog", dir.File("bad.iolog"), db});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad.iolog:3: unknown action \"jump\""),
            std::string::npos)
      << bad.err;
  EXPECT_NE(access(path.c_str(), F_OK), 0)
      << "a refused import made a database";
  const Invocation other = RunFlashmark(
      {"import", "blktrace", TraceFixture("fio-v2-from-3.33.iolog"), db});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("no blkparse event lines"), std::string::npos)
      << other.err;
  ASSERT_EQ(RunFlashmark({"import", "blktrace",
                          TraceFixture("blkparse-merge-flush.txt"), db})
                .exit_code,
            0);
  for (const std::string id : {"9", "abc", "0"}) {
    const Invocation show = RunFlashmark({"show", "--trace", id, db});
    EXPECT_EQ(show.exit_code, 2) << id;
    EXPECT_FALSE(show.err.empty());
  }
}

}  // namespace
}  // namespace flashmark::testing
