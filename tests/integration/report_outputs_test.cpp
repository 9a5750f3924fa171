// `flashmark report` writes every output it was asked for, or none (issue
// 15): --html, --md (with its SVGs) and --csv are checked first, written
// to temporaries and renamed into place only once all of them are there;
// --md, like --csv, may name a directory that does not exist yet.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

namespace fs = std::filesystem;

std::string NullRunDatabase(const TempDir& dir) {
  const std::string db = dir.File("runs.db");
  const Invocation made =
      RunFlashmark({"run", "--engine", "null", "--time", "1s", "--interval",
                    "100ms", "-q", "--db", db});
  EXPECT_EQ(made.exit_code, 0) << made.err;
  return db;
}

TEST(ReportOutputs, AllAreWrittenIntoNewDirectoriesToo) {
  TempDir dir;
  const std::string db = NullRunDatabase(dir);
  const Invocation report =
      RunFlashmark({"report", "1", "--db", db, "--html", dir.File("A.html"),
                    "--md", dir.File("A_md/A.md"), "--csv", dir.File("A_csv")});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(fs::is_regular_file(dir.File("A.html")));
  EXPECT_TRUE(fs::is_regular_file(dir.File("A_md/A.md")));
  EXPECT_TRUE(fs::is_regular_file(dir.File("A_md/A-timeseries.svg")));
  EXPECT_TRUE(fs::is_regular_file(dir.File("A_csv/runs.csv")));
  EXPECT_NE(report.out.find("wrote " + dir.File("A_md/A.md")),
            std::string::npos);
}

TEST(ReportOutputs, OneThatCannotBeWrittenLeavesNoneOfThem) {
  TempDir dir;
  const std::string db = NullRunDatabase(dir);
  std::ofstream(dir.File("A.html")) << "the earlier report";
  // The CSV directory holds a directory where runs.csv would go: that
  // output cannot be written, and is only found when writing.
  fs::create_directories(dir.File("A_csv/runs.csv"));
  const Invocation report =
      RunFlashmark({"report", "1", "--db", db, "--html", dir.File("A.html"),
                    "--md", dir.File("A_md/A.md"), "--csv", dir.File("A_csv")});
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_NE(report.err.find("runs.csv: it is not a regular file"),
            std::string::npos)
      << report.err;
  EXPECT_EQ(ReadFile(dir.File("A.html")), "the earlier report");
  EXPECT_FALSE(fs::exists(dir.File("A_md"))) << "the new --md directory stays";
  EXPECT_FALSE(fs::exists(dir.File("A_csv/timeseries-run1.csv")));
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos)
        << entry.path() << " was left behind";
  }
  EXPECT_EQ(report.out.find("wrote"), std::string::npos) << report.out;
}

TEST(ReportOutputs, AMarkdownDirectoryNeedsAnExistingParent) {
  TempDir dir;
  const std::string db = NullRunDatabase(dir);
  const Invocation report =
      RunFlashmark({"report", "1", "--db", db, "--html", dir.File("A.html"),
                    "--md", dir.File("no/such/A.md")});
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_NE(report.err.find("--md"), std::string::npos) << report.err;
  EXPECT_FALSE(fs::exists(dir.File("A.html")));
  EXPECT_FALSE(fs::exists(dir.File("no")));
}

}  // namespace
}  // namespace flashmark::testing
