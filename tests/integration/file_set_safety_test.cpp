// File sets and symlinks: a target directory that leads into a system
// directory is refused before anything is created; a link to an ordinary
// directory is followed once; links inside the directory, even when a
// manifest names them, are never followed nor removed.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

namespace fs = std::filesystem;

Invocation WriteFileSet(const std::string& directory) {
  return RunFlashmark({"run", directory, "--mode", "rndwr", "--size", "1M",
                       "--file-num", "2", "--bs", "4k", "--time", "1s", "-q",
                       "--no-db"});
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
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
  WriteText(target + "/flashmark.manifest",
            R"json({"tool": "flashmark", "complete": true, "filled": true,
                "file_size": 524288, "data": "random (refreshed per write)",
                "files": ["flashmark.0", "flashmark.1", "../precious"]})json");
  const Invocation result = WriteFileSet(target);
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("refusing to overwrite " + target +
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

}  // namespace
}  // namespace flashmark::testing
