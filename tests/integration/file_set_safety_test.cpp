// File sets and symlinks: a target directory that leads into a system
// directory is refused before anything is created; a link to an ordinary
// directory is followed once, when the run opens it, and re-pointing it
// later changes nothing; links inside the directory, even when a manifest
// names them, are never followed nor removed; only files a manifest
// identifies (name, inode, size) are reused or removed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

namespace fs = std::filesystem;

Invocation WriteFileSet(const std::string& directory) {
  return RunFlashmark({"run", directory, "--mode", "rndwr", "--size", "1M",
                       "--file-num", "2", "--bs", "4k", "--time", "1s", "-q",
                       "--no-db"});
}

TEST(FileSetSafety, SymlinkIntoASystemDirectoryIsRefused) {
  TempDir dir;
  for (const std::string system : {"/etc", "/usr/share", "/"}) {
    SCOPED_TRACE(system);
    const std::string link = dir.File("link");
    fs::remove(link);
    fs::create_directory_symlink(system, link);
    const Invocation result = WriteFileSet(link);
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("refusing to lay out or remove files in " + link +
                              ": it is a symlink to " + system),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("inside the system directory"),
              std::string::npos);
    EXPECT_FALSE(fs::exists(fs::path(system) / "flashmark.manifest"));
    EXPECT_FALSE(fs::exists(fs::path(system) / "flashmark.0"));
  }
  // A link in the middle of the path counts the same.
  fs::remove(dir.File("link"));
  fs::create_directory_symlink("/usr", dir.File("link"));
  const Invocation nested = WriteFileSet(dir.File("link") + "/share");
  EXPECT_EQ(nested.exit_code, 2);
  EXPECT_NE(nested.err.find("it resolves to /usr/share, inside the system "
                            "directory /usr"),
            std::string::npos)
      << nested.err;
}

TEST(FileSetSafety, SymlinkToAnOrdinaryDirectoryIsUsed) {
  TempDir dir;
  fs::create_directory(dir.File("real"));
  fs::create_directory_symlink(dir.File("real"), dir.File("link"));
  const Invocation result = WriteFileSet(dir.File("link"));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::is_empty(dir.File("real")))
      << "the set is removed afterwards";
  EXPECT_TRUE(fs::is_symlink(dir.File("link")));
}

TEST(FileSetSafety, LinksInsideTheSetAreNeverFollowedNorRemoved) {
  TempDir dir;
  const std::string target = dir.File("set");
  fs::create_directory(target);
  const std::string victim = dir.File("precious");
  WriteText(victim, "keep me");
  // A manifest naming a link to someone's file, and a path outside.
  fs::create_symlink(victim, target + "/flashmark.0");
  struct stat st;
  ASSERT_EQ(lstat((target + "/flashmark.0").c_str(), &st), 0);
  WriteText(target + "/flashmark.manifest",
            R"json({"tool": "flashmark", "kind": "file-set", "version": 2,
                "complete": true, "contents": "filled", "file_size": 524288,
                "data": "random (refreshed per write)", "files": [
                {"name": "flashmark.0", "inode": )json" +
                std::to_string(st.st_ino) + R"json(, "size": 7},
                {"name": "../precious", "inode": 1, "size": 7}]})json");
  const Invocation result = WriteFileSet(target);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("refusing to use " + target +
                            "/flashmark.0: flashmark did not create it (it is "
                            "not a regular file)"),
            std::string::npos)
      << result.err;
  std::ifstream in(victim);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "keep me");
  EXPECT_TRUE(fs::is_symlink(target + "/flashmark.0"));
}

// Finding 4 of issue 11: TARGET is a symlink re-pointed mid-run to a
// directory holding another kept set. The run stays in the directory it
// opened, cleanup included: the other set is intact and the first
// directory keeps nothing of this run.
TEST(FileSetSafety, RepointingTheTargetLinkMidRunChangesNothing) {
  TempDir dir;
  const std::string a = dir.File("a"), b = dir.File("b"),
                    link = dir.File("link");
  fs::create_directory(a);
  fs::create_directory(b);
  const std::vector<std::string> shape = {"--size", "1M", "--file-num", "2",
                                          "--bs",   "4k", "--no-db"};
  std::vector<std::string> keep = {"run",        b,    "--mode",       "rndwr",
                                   "--io-limit", "10", "--keep-files", "-q"};
  keep.insert(keep.end(), shape.begin(), shape.end());
  ASSERT_EQ(RunFlashmark(keep).exit_code, 0);
  const std::string b_manifest = ReadFile(b + "/flashmark.manifest");
  ASSERT_FALSE(b_manifest.empty());

  fs::create_directory_symlink(a, link);
  std::vector<std::string> run = {"run",    link, "--mode",     "rndwr",
                                  "--time", "2s", "--interval", "100ms"};
  run.insert(run.end(), shape.begin(), shape.end());
  const int pid = StartFlashmark(run, dir.File("out"), dir.File("err"));
  // Wait (with a deadline) for the first interval: the set is laid out
  // and open, the run under way.
  bool running = false;
  for (int waited_ms = 0; waited_ms < 20000 && !running; waited_ms += 10) {
    running = ReadFile(dir.File("out")).find("[ ") != std::string::npos;
    if (!running) usleep(10'000);
  }
  ASSERT_TRUE(running) << ReadFile(dir.File("err"));
  const std::string swap = dir.File("swap");
  fs::create_directory_symlink(b, swap);
  fs::rename(swap, link);  // atomically re-pointed
  EXPECT_EQ(WaitFlashmark(pid), 0) << ReadFile(dir.File("err"));

  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(fs::file_size(b + "/flashmark." + std::to_string(i)),
              512u * 1024);
    EXPECT_FALSE(fs::exists(a + "/flashmark." + std::to_string(i)));
  }
  EXPECT_EQ(ReadFile(b + "/flashmark.manifest"), b_manifest);
  EXPECT_TRUE(fs::is_empty(a)) << "nothing of this run is left in a";
}

// Finding 5 of issue 11: a kept set whose file was replaced by a hard link
// to an outside file is never written; the run refuses and says why.
TEST(FileSetSafety, AHardLinkToAnOutsideFileIsNeverWritten) {
  TempDir dir;
  const std::string set = dir.File("set");
  fs::create_directory(set);
  std::vector<std::string> args = {
      "run",          set,       "--mode", "rndwr", "--size",     "1M",
      "--file-num",   "2",       "--bs",   "4k",    "--io-limit", "100",
      "--keep-files", "--no-db", "-q"};
  ASSERT_EQ(RunFlashmark(args).exit_code, 0);
  const std::string outside = dir.File("outside");
  const std::string content(512 * 1024, 'o');
  WriteText(outside, content);
  fs::remove(set + "/flashmark.0");
  fs::create_hard_link(outside, set + "/flashmark.0");
  const Invocation result = RunFlashmark(args);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("refusing to use " + set +
                            "/flashmark.0: flashmark did not create it (it is "
                            "another file than the one flashmark laid out"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(ReadFile(outside), content);
}

// Finding 5 of issue 11: a manifest edited to list an unrelated file never
// makes flashmark remove it, neither when a run lays the set out anew and
// cleans up, nor on `flashmark cleanup`.
TEST(FileSetSafety, AFileAddedToTheManifestSurvivesCleanup) {
  TempDir dir;
  const std::string set = dir.File("set");
  fs::create_directory(set);
  std::vector<std::string> args = {
      "run", set,    "--mode", "rndwr",      "--size", "1M",      "--file-num",
      "2",   "--bs", "4k",     "--io-limit", "10",     "--no-db", "-q"};
  args.push_back("--keep-files");
  ASSERT_EQ(RunFlashmark(args).exit_code, 0);
  const std::string victim = set + "/victim.txt";
  WriteText(victim, "victim");
  // Listed as the existing entries are (a name, or a name with the
  // identity of flashmark.0).
  nlohmann::json manifest =
      nlohmann::json::parse(ReadFile(set + "/flashmark.manifest"));
  nlohmann::json entry = manifest["files"][0];
  if (entry.is_string()) {
    entry = "victim.txt";
  } else {
    entry["name"] = "victim.txt";
  }
  manifest["files"].push_back(entry);
  WriteText(set + "/flashmark.manifest", manifest.dump());
  args.pop_back();  // no --keep-files: the run removes its set afterwards
  const Invocation run = RunFlashmark(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(ReadFile(victim), "victim");
  EXPECT_FALSE(fs::exists(set + "/flashmark.0"));

  args.push_back("--keep-files");
  ASSERT_EQ(RunFlashmark(args).exit_code, 0);
  manifest = nlohmann::json::parse(ReadFile(set + "/flashmark.manifest"));
  manifest["files"].push_back(entry);
  WriteText(set + "/flashmark.manifest", manifest.dump());
  const Invocation cleanup = RunFlashmark({"cleanup", set});
  EXPECT_EQ(cleanup.exit_code, 0) << cleanup.err;
  EXPECT_NE(
      cleanup.out.find("removed 2 files (1 MiB), the manifest from " + set),
      std::string::npos)
      << cleanup.out;
  EXPECT_EQ(ReadFile(victim), "victim");
  EXPECT_EQ(fs::directory_iterator(set)->path().filename(), "victim.txt");
}

// Finding 5 of issue 11: links planted at the generation map's temporary
// name (flashmark.verify.tmp.PID) and at the map itself, mid-run, redirect
// nothing: the outside file is unchanged, the map a file of its own.
TEST(FileSetSafety, LinksPlantedAtTheGenerationMapRedirectNothing) {
  TempDir dir;
  const std::string set = dir.File("set");
  fs::create_directory(set);
  const std::string outside = dir.File("outside");
  WriteText(outside, "outside");
  const int pid = StartFlashmark(
      {"run", set, "--mode", "rndwr", "--size", "1M", "--file-num", "2", "--bs",
       "4k", "--time", "3s", "--verify", "--keep-files", "--no-db"},
      dir.File("out"), dir.File("err"));
  fs::create_symlink(outside,
                     set + "/flashmark.verify.tmp." + std::to_string(pid));
  // The map is saved when the run ends: plant the link once the first
  // interval is out, 2 s before that (with a 1 s run the map was sometimes
  // there before the link).
  bool laid_out = false;
  for (int waited_ms = 0; waited_ms < 20000 && !laid_out; waited_ms += 10) {
    laid_out = fs::exists(set + "/flashmark.manifest") &&
               ReadFile(dir.File("out")).find("[ ") != std::string::npos;
    if (!laid_out) usleep(10'000);
  }
  ASSERT_TRUE(laid_out) << ReadFile(dir.File("err"));
  fs::create_symlink(outside, set + "/flashmark.verify");
  EXPECT_EQ(WaitFlashmark(pid), 0) << ReadFile(dir.File("err"));
  EXPECT_EQ(ReadFile(outside), "outside");
  EXPECT_FALSE(fs::is_symlink(set + "/flashmark.verify"));
  EXPECT_EQ(RunFlashmark({"verify", set}).exit_code, 0);
}

}  // namespace
}  // namespace flashmark::testing
