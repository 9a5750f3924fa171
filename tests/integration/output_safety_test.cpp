// Outputs and databases (issue 11): --json, --html, --md, --csv, export -o
// and --db of every command accept only regular files (or new names) and
// are judged before anything is opened for writing; bad input destroys no
// earlier result; the JSON of a run is always a whole document; reading
// commands open the database read-only; imports read regular files only.
// The real binary on files, fifos, loop devices and tmpfs mounts of its own.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary_runner.h"
#include "engine/engine_registry.h"
#include "store/sqlite.h"
#include "system_fixtures.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

const std::string kSysbenchFixture =
    std::string(FLASHMARK_SOURCE_DIR) +
    "/tests/fixtures/import/sysbench-rndwr-async.txt";

// A database with one null-engine run of 100 intervals.
void MakeDatabase(const std::string& path) {
  const Invocation made =
      RunFlashmark({"run", "--engine", "null", "--time", "1s", "--interval",
                    "10ms", "-q", "--db", path});
  ASSERT_EQ(made.exit_code, 0) << made.err;
}

bool IsFifo(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

size_t Entries(const std::string& directory) {
  return static_cast<size_t>(
      std::distance(std::filesystem::directory_iterator(directory),
                    std::filesystem::directory_iterator()));
}

// Runs flashmark, expecting a refusal with exit status 2 that says each
// of `said`.
void ExpectRefused(const std::vector<std::string>& args,
                   const std::vector<std::string>& said) {
  std::string line;
  for (const auto& arg : args) line += arg + " ";
  const Invocation result = RunFlashmark(args, 10);
  EXPECT_EQ(result.exit_code, 2) << line << "\n" << result.err;
  EXPECT_NE(result.err.find("error: "), std::string::npos) << line << "\n"
                                                           << result.err;
  for (const std::string& text : said) {
    EXPECT_NE(result.err.find(text), std::string::npos) << line << "\n"
                                                        << result.err;
  }
  EXPECT_EQ(result.out.find("[ "), std::string::npos)
      << line << ": no interval ran";
}

void ExpectRefused(const std::vector<std::string>& args,
                   const std::string& named) {
  ExpectRefused(args, std::vector<std::string>{named});
}

TEST(Outputs, FifosAndDevNullAreRefusedByEveryCommandThatWrites) {
  TempDir dir;
  const std::string fifo = dir.File("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string db = dir.File("runs.db");
  MakeDatabase(db);
  WriteText(
      dir.File("c.toml"),
      "[campaign]\nname = \"t\"\n[workload]\nengine = \"null\"\nsize = \"1G\"\n"
      "bs = \"4k\"\ntime = \"1s\"\n[matrix]\nthreads = [1]\n");
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--engine", "null", "--time", "1s", "--json", fifo},
      {"run", "--engine", "null", "--time", "1s", "--db", fifo},
      {"list", "--db", fifo},
      {"show", "1", "--db", fifo},
      {"delete", "1", "--db", fifo},
      {"report", "1", "--db", db, "--html", fifo},
      {"report", "1", "--db", db, "--md", fifo},
      {"report", "1", "--db", db, "--csv", fifo},
      {"export", "1", "--db", db, "-o", fifo},
      {"import", "sysbench", kSysbenchFixture, "--db", fifo},
      {"sweep", dir.File("c.toml"), "--db", fifo},
      {"verify", dir.path(), "--json", fifo},
  };
  for (const auto& command : commands) {
    ExpectRefused(command, fifo);
    EXPECT_TRUE(IsFifo(fifo)) << command[0];
  }
  ExpectRefused(
      {"run", "--engine", "null", "--time", "1s", "--json", "/dev/null"},
      "--json /dev/null: it is under /dev");
  EXPECT_FALSE(std::filesystem::exists(fifo + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(fifo + "-shm"));
  EXPECT_FALSE(std::filesystem::exists(dir.File("fifo.tmp")));
}

// A loop device of this test, and a node for it inside the test's
// directory (so nothing a refused command might create lands in /dev).
class BlockDeviceOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    FLASHMARK_REQUIRE_ROOT();
    loop_ = std::make_unique<LoopDevice>(dir_.File("backing"), 8 << 20);
    ASSERT_TRUE(loop_->ok());
    struct stat st;
    ASSERT_EQ(stat(loop_->device().c_str(), &st), 0);
    node_ = dir_.File("disk");
    ASSERT_EQ(mknod(node_.c_str(), S_IFBLK | 0600, st.st_rdev), 0);
    const int fd = open(loop_->device().c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    pattern_.assign(4096, '\xa5');
    ASSERT_EQ(pwrite(fd, pattern_.data(), pattern_.size(), 0), 4096);
    ASSERT_EQ(fsync(fd), 0);
    close(fd);
  }
  std::string FirstBytes() const {
    std::string bytes(4096, '\0');
    const int fd = open(loop_->device().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || pread(fd, bytes.data(), bytes.size(), 0) != 4096)
      bytes.clear();
    if (fd >= 0) close(fd);
    return bytes;
  }
  TempDir dir_;
  std::unique_ptr<LoopDevice> loop_;
  std::string node_;
  std::string pattern_;
};

TEST_F(BlockDeviceOutputs, AreNeverWrittenNorReplaced) {
  const std::string db = dir_.File("runs.db");
  MakeDatabase(db);
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--engine", "null", "--time", "1s", "--json", node_},
      {"run", "--engine", "null", "--time", "1s", "--db", node_},
      {"list", "--db", node_},
      {"report", "1", "--db", db, "--html", node_},
      {"export", "1", "--db", db, "-o", node_},
      {"import", "sysbench", kSysbenchFixture, "--db", node_},
  };
  for (const auto& command : commands) {
    ExpectRefused(command, node_ + ": it is a block device");
  }
  // A symlink to the node is judged by the node it leads to.
  const std::string link = dir_.File("link-to-disk");
  std::filesystem::create_symlink(node_, link);
  for (auto command : commands) {
    std::replace(command.begin(), command.end(), node_, link);
    ExpectRefused(command, {link, "a block device"});
  }
  ExpectRefused(
      {"run", "--engine", "null", "--time", "1s", "--json", loop_->device()},
      loop_->device() + ": it is under /dev");
  EXPECT_EQ(FirstBytes(), pattern_) << "the device's first bytes are unchanged";
  struct stat st;
  ASSERT_EQ(lstat(node_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISBLK(st.st_mode)) << "the node was not replaced";
  EXPECT_FALSE(std::filesystem::exists(node_ + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(node_ + "-shm"));
  EXPECT_FALSE(std::filesystem::exists(loop_->device() + "-wal"));
}

// A character device node outside /dev (here one for /dev/null, so that
// even a wrong acceptance harms nothing), directly or through a symlink,
// is refused as --db, --json and a report; the node stays a node and no
// -wal or -shm appears beside it.
TEST(Outputs, CharacterDevicesAreRefusedWhereverTheyAre) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string node = dir.File("null");
  ASSERT_EQ(mknod(node.c_str(), S_IFCHR | 0600, makedev(1, 3)), 0);
  const std::string link = dir.File("link-to-null");
  std::filesystem::create_symlink(node, link);
  const std::string db = dir.File("runs.db");
  MakeDatabase(db);
  for (const std::string& path : {node, link}) {
    const std::vector<std::vector<std::string>> commands = {
        {"run", "--engine", "null", "--time", "1s", "--json", path},
        {"run", "--engine", "null", "--time", "1s", "--db", path},
        {"list", "--db", path},
        {"report", "1", "--db", db, "--html", path},
        {"export", "1", "--db", db, "-o", path},
    };
    for (const auto& command : commands) {
      ExpectRefused(command, {path, "a character device"});
    }
  }
  struct stat st;
  ASSERT_EQ(lstat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the node was not replaced";
  EXPECT_FALSE(std::filesystem::exists(node + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(node + "-shm"));
  EXPECT_FALSE(std::filesystem::exists(link + "-wal"));
}

// Finding 3: a file target is never the database, the --json output, nor
// (a file in) a system directory.
TEST(Outputs, AFileTargetIsNeverTheDatabaseNorTheJsonOutput) {
  TempDir dir;
  const std::string db = dir.File("d2.db");
  MakeDatabase(db);
  const std::string before = ReadFile(db);
  ExpectRefused({"run", db, "--mode", "rndwr", "--time", "1s", "--db", db},
                "refusing to write " + db + ": it is the database");
  EXPECT_EQ(ReadFile(db), before);

  const std::string data = dir.File("data.json");
  WriteText(data, std::string(64 << 10, 'x'));
  ExpectRefused(
      {"run", data, "--mode", "rndwr", "--time", "1s", "--json", data},
      "it is the --json output");
  EXPECT_EQ(ReadFile(data), std::string(64 << 10, 'x'));
}

// Finding 7: bad input leaves earlier results as they were.
TEST(Outputs, BadInputKeepsEarlierResults) {
  TempDir dir;
  const std::string keep = dir.File("keep.json");
  WriteText(keep, "{\"earlier\": true}\n");
  ExpectRefused({"run", "/nonexistent", "--json", keep}, "/nonexistent");
  EXPECT_EQ(ReadFile(keep), "{\"earlier\": true}\n");

  const std::string victim = dir.File("victim.db");
  MakeDatabase(victim);
  const std::string before = ReadFile(victim);
  ExpectRefused({"run", "--engine", "null", "--time", "1s", "--json", victim},
                "SQLite database");
  ExpectRefused({"run", "--engine", "null", "--time", "1s", "--json", victim,
                 "--db", victim},
                victim);
  EXPECT_EQ(ReadFile(victim), before);

  ExpectRefused({"run", "--engine", "null", "--time", "1s", "--json",
                 dir.File("same"), "--db", dir.File("same")},
                "are the same file");
  ExpectRefused({"report", "1", "--db", victim, "--html", dir.File("same"),
                 "--md", dir.File("same")},
                "are the same file");
  EXPECT_FALSE(std::filesystem::exists(dir.File("same")));
  ExpectRefused({"export", "1", "--db", victim, "-o", victim},
                "SQLite database");
  ExpectRefused({"report", "1", "--db", victim, "--html", victim},
                "SQLite database");
  EXPECT_EQ(ReadFile(victim), before);
}

// A reader polling the --json file while the run writes it every 10 ms
// finds a whole document every time (or none yet), never a part.
TEST(Outputs, APollingReaderAlwaysFindsAWholeJsonDocument) {
  TempDir dir;
  const std::string out = dir.File("run.json");
  const int pid =
      StartFlashmark({"run", "--engine", "null", "--time", "2s", "--interval",
                      "10ms", "-q", "--json", out, "--db", dir.File("runs.db")},
                     dir.File("stdout"), dir.File("stderr"));
  int reads = 0, parsed = 0;
  size_t most_intervals = 0;
  std::vector<std::string> failures;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    std::ifstream in(out);
    if (!in) continue;  // not written yet
    ++reads;
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    try {
      const json doc = json::parse(text);
      ++parsed;
      most_intervals = std::max(most_intervals, doc["intervals"].size());
    } catch (const json::exception& e) {
      if (failures.size() < 3)
        failures.push_back(std::to_string(text.size()) + " bytes: " + e.what());
    }
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << ReadFile(dir.File("stderr"));
  EXPECT_EQ(parsed, reads) << "unparsable reads, e.g. "
                           << (failures.empty() ? "" : failures[0]);
  EXPECT_GT(reads, 20) << "polled all along (fewer under the sanitizers, "
                          "whose parse of a growing document is slow)";
  // A loaded machine may merge 10 ms intervals (a stall is one interval
  // that says so): the document's growth and its end are what count.
  EXPECT_GT(most_intervals, 10u) << "the document grew during the run";
  const json final_doc = json::parse(ReadFile(out));
  EXPECT_EQ(final_doc["status"], "ok");
  ASSERT_FALSE(final_doc["intervals"].empty());
  EXPECT_GE(final_doc["intervals"].back()["end"].get<double>(), 1.9)
      << "the final document holds the whole run";
}

// The --json file's filesystem fills during the run: the file keeps its last
// whole document, the run says the JSON is incomplete and exits 1, and the
// database holds every interval.
TEST(Outputs, AFullFilesystemUnderTheJsonFailsTheRunAndKeepsAWholeDocument) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("small");
  std::filesystem::create_directory(mount_point);
  // Up to 300 intervals of about 300 bytes each (fewer when a loaded
  // machine merges some): the final document (over 32 KB from about 110
  // intervals on) cannot fit, a running one of more than 16 KB cannot be
  // replaced (the old one and its successor must fit together).
  TmpfsMount tmpfs(mount_point, "32k");
  ASSERT_TRUE(tmpfs.ok());
  const std::string out = mount_point + "/run.json";
  const std::string db = dir.File("runs.db");
  const Invocation result =
      RunFlashmark({"run", "--engine", "null", "--time", "3s", "--interval",
                    "10ms", "-q", "--json", out, "--db", db});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("--json " + out + " is incomplete"),
            std::string::npos)
      << result.err;
  const json kept = json::parse(ReadFile(out));  // whole, though not final
  EXPECT_EQ(kept["status"], "running");
  EXPECT_GT(kept["intervals"].size(), 0u);
  EXPECT_EQ(Entries(mount_point), 1u) << "no temporary left behind";
  const Invocation stored =
      RunFlashmark({"export", "1", "--db", db, "--format", "json"});
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  const json doc = json::parse(stored.out);
  EXPECT_EQ(doc["status"], "ok");
  ASSERT_FALSE(doc["intervals"].empty());
  EXPECT_GE(doc["intervals"].back()["end"].get<double>(), 2.9)
      << "the database holds every interval of the run";
  EXPECT_GT(doc["intervals"].size(), kept["intervals"].size());
}

// The results kept when the store fails (no --json) go to a new file: a
// symlink planted under the predictable name is not followed.
TEST(Outputs, KeptResultsNeverFollowAPlantedSymlink) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string work = dir.File("work");
  std::filesystem::create_directory(work);
  const std::string victim = dir.File("victim");
  WriteText(victim, "precious");
  const time_t now = time(nullptr);
  for (time_t t = now - 2; t <= now + 20; ++t) {
    std::filesystem::create_symlink(
        victim, work + "/flashmark-run-" + std::to_string(t) + ".json");
  }
  const std::string mount_point = dir.File("tiny");
  std::filesystem::create_directory(mount_point);
  TmpfsMount tmpfs(mount_point, "160k");
  ASSERT_TRUE(tmpfs.ok());
  struct Cwd {
    std::filesystem::path before = std::filesystem::current_path();
    ~Cwd() { std::filesystem::current_path(before); }
  } restore;
  std::filesystem::current_path(work);
  const Invocation result =
      RunFlashmark({"run", "--engine", "null", "--time", "2s", "--interval",
                    "10ms", "-q", "--db=" + mount_point + "/runs.db"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(ReadFile(victim), "precious");
  const std::string said = "results kept in ";
  const size_t at = result.err.find(said);
  ASSERT_NE(at, std::string::npos) << result.err;
  const std::string path = result.err.substr(
      at + said.size(), result.err.find('\n', at) - at - said.size());
  EXPECT_FALSE(std::filesystem::is_symlink(path)) << path;
  const json doc = json::parse(ReadFile(path));
  EXPECT_EQ(doc["status"], "ok");
}

// Finding 9: everything that can be checked before touching the disk is;
// each bad input exits 2 and leaves the target directory empty.
TEST(Outputs, BadDatabaseOrEngineIsRefusedBeforeTheFileSetIsLaidOut) {
  TempDir dir;
  const std::string target = dir.File("target");
  std::filesystem::create_directory(target);
  const std::vector<std::string> workload = {
      "run",        target, "--mode", "rndwr", "--size", "8M",
      "--file-num", "2",    "--time", "1s",    "-q"};
  ASSERT_EQ(mkfifo(dir.File("fifo").c_str(), 0600), 0);
  WriteText(dir.File("notes.txt"), "these are notes, not a database\n");
  {
    auto other = Database::Open(dir.File("other.db"), true);
    ASSERT_TRUE(other.ok());
    ASSERT_TRUE(other->Execute("CREATE TABLE contacts (name TEXT)").ok());
  }
  const std::string damaged = dir.File("damaged.db");
  MakeDatabase(damaged);
  const auto size = std::filesystem::file_size(damaged);
  ASSERT_GT(size, 8u * 4096);
  {
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(size / 2 / 4096 * 4096));
    const std::string garbage(4096, '\x5a');
    file.write(garbage.data(), garbage.size());
  }
  std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--db", dir.File("fifo")}, "it is a fifo"},
      {{"--db", dir.File("no-dir/runs.db")}, "does not exist"},
      {{"--db", dir.File("notes.txt")}, "not a database"},
      {{"--db", dir.File("other.db")}, "not flashmark's"},
      {{"--db", damaged}, "damaged.db"},
  };
  if (ProbeEngine(*FindEngine("io_uring"), 1).ok()) {
    cases.push_back({{"--engine", "io_uring", "--iodepth", "65536", "--db",
                      dir.File("runs.db")},
                     "depth 65536"});
  }
  for (const auto& [extra, expected] : cases) {
    std::vector<std::string> args = workload;
    args.insert(args.end(), extra.begin(), extra.end());
    const std::string before = std::filesystem::is_regular_file(extra[1])
                                   ? ReadFile(extra[1])
                                   : std::string();
    const Invocation result = RunFlashmark(args, 20);
    EXPECT_EQ(result.exit_code, 2) << expected << "\n" << result.err;
    EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
    EXPECT_EQ(result.out.find("laying out"), std::string::npos) << result.out;
    EXPECT_EQ(Entries(target), 0u) << expected;
    if (!before.empty()) {
      EXPECT_EQ(ReadFile(extra[1]), before) << extra[1];
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs.db")));

  // A refused target creates no database.
  WriteText(dir.File("tiny"), "too small for a 16k block");
  const Invocation refused = RunFlashmark(
      {"run", dir.File("tiny"), "--mode", "rndwr", "--db", dir.File("new.db")});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("new.db")));
}

// Finding 20: reading commands open the database read-only, so a database
// on a read-only mount can be listed, shown, exported, analysed and
// reported, and they create no -wal or -shm file there.
TEST(Outputs, ReadingCommandsWorkOnAReadOnlyMount) {
  FLASHMARK_REQUIRE_ROOT();
  TempDir dir;
  const std::string mount_point = dir.File("ro");
  std::filesystem::create_directory(mount_point);
  TmpfsMount tmpfs(mount_point, "4M");
  ASSERT_TRUE(tmpfs.ok());
  const std::string db = mount_point + "/runs.db";
  MakeDatabase(db);
  ASSERT_EQ(Entries(mount_point), 1u) << "the writer removed its -wal and -shm";
  ASSERT_EQ(RunTool({"mount", "-o", "remount,ro", mount_point}), 0);
  const std::vector<std::vector<std::string>> commands = {
      {"list", "--db", db},        {"show", "1", "--db", db},
      {"export", "1", "--db", db}, {"analyze", "1", "--db", db},
      {"report", "1", "--db", db}, {"list", "--campaigns", "--db", db},
  };
  for (const auto& command : commands) {
    const Invocation result = RunFlashmark(command);
    EXPECT_EQ(result.exit_code, 0) << command[0] << "\n" << result.err;
  }
  EXPECT_EQ(Entries(mount_point), 1u) << "no -wal or -shm created";
  const Invocation writing = RunFlashmark({"delete", "1", "--db", db});
  EXPECT_EQ(writing.exit_code, 2) << writing.err;
  EXPECT_NE(writing.err.find("read-only"), std::string::npos) << writing.err;
}

// Finding 16: imports read regular files only, at once.
TEST(Outputs, ImportsReadRegularFilesOnly) {
  TempDir dir;
  ASSERT_EQ(mkfifo(dir.File("fifo").c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), dir.File("fifo")}) {
    const auto start = std::chrono::steady_clock::now();
    const Invocation result =
        RunFlashmark({"import", "fio", path, "--db", dir.File("runs.db")}, 5);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3))
        << path;
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("regular files only, of at most 1"),
              std::string::npos)
        << result.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("runs.db")))
      << "bad input creates no database";
}

}  // namespace
}  // namespace flashmark::testing
