// store_file: a results database is judged before SQLite opens it; reading
// commands open it read-only. Real SQLite files in a temporary directory.
#include "store/store_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "store/run_store.h"
#include "store/schema.h"

namespace flashmark {
namespace {

class StoreFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = "/tmp/flashmark-store-file-test.XXXXXX";
    dir_ = mkdtemp(pattern.data());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // A database with `runs` runs of 50 intervals each.
  void MakeStore(const std::string& path, int runs) {
    auto store = RunStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.error().message;
    RunResult run;
    run.spec.engine = "null";
    run.command_line = "flashmark run --engine null";
    for (int r = 0; r < runs; ++r) {
      auto id = store->BeginRun(run, RunLabels{"r", {}, "flashmark", ""});
      ASSERT_TRUE(id.ok());
      for (uint32_t i = 0; i < 50; ++i) {
        IntervalSample sample;
        sample.index = i;
        sample.start_ns = i * 1'000'000'000ull;
        sample.end_ns = sample.start_ns + 1'000'000'000ull;
        for (int b = 0; b < 50; ++b)
          sample.read_latency.Add(1000 + 97 * b * (i + 1));
        ASSERT_TRUE(store->AppendInterval(*id, sample).ok());
      }
      run.status = RunStatus::kOk;
      ASSERT_TRUE(store->FinishRun(*id, run).ok());
    }
  }
  std::string dir_;
};

TEST_F(StoreFileTest, AcceptsAMissingAnEmptyAndAFlashmarkDatabase) {
  EXPECT_TRUE(CheckStoreFile(File("missing.db"), true).ok());
  std::ofstream(File("empty.db"));
  EXPECT_TRUE(CheckStoreFile(File("empty.db"), true).ok());
  MakeStore(File("runs.db"), 1);
  Status checked = CheckStoreFile(File("runs.db"), true);
  EXPECT_TRUE(checked.ok()) << checked.error().message;
}

TEST_F(StoreFileTest, RefusesWhatIsNotAFlashmarkDatabaseWithoutTouchingIt) {
  std::ofstream(File("notes.txt")) << "{\"not\": \"a database\"}\n";
  {
    auto foreign = Database::Open(File("other.db"), true);
    ASSERT_TRUE(foreign->Execute("CREATE TABLE contacts (name TEXT)").ok());
  }
  {
    auto newer = Database::Open(File("newer.db"), true);
    ASSERT_TRUE(
        newer
            ->Execute("CREATE TABLE runs (id INTEGER); PRAGMA user_version = " +
                      std::to_string(kSchemaVersion + 1))
            .ok());
  }
  const std::pair<std::string, std::string> cases[] = {
      {File("notes.txt"), "no SQLite header"},
      {File("other.db"), "not flashmark's (schema v0, tables: contacts)"},
      {File("newer.db"),
       "schema v" + std::to_string(kSchemaVersion + 1) + ", newer"},
  };
  for (const auto& [path, expected] : cases) {
    const std::string before = Read(path);
    for (bool deep : {false, true}) {
      Status checked = CheckStoreFile(path, deep);
      ASSERT_FALSE(checked.ok()) << path;
      EXPECT_EQ(checked.error().exit_code, kUsageExit);
      EXPECT_NE(checked.error().message.find(expected), std::string::npos)
          << checked.error().message;
    }
    auto opened = RunStore::Open(path);
    ASSERT_FALSE(opened.ok()) << path;
    EXPECT_EQ(opened.error().exit_code, kUsageExit) << opened.error().message;
    EXPECT_EQ(Read(path), before) << path << " unchanged";
    EXPECT_FALSE(std::filesystem::exists(path + "-wal")) << path;
  }
}

TEST_F(StoreFileTest, TheDeepCheckFindsADamagedDatabase) {
  MakeStore(File("runs.db"), 20);
  ASSERT_FALSE(std::filesystem::exists(File("runs.db-wal")))
      << "checkpointed on close";
  const auto size = std::filesystem::file_size(File("runs.db"));
  ASSERT_GT(size, 16u * 4096);
  {
    std::fstream file(File("runs.db"),
                      std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(size / 2 / 4096 * 4096));
    const std::string garbage(4096, '\x5a');
    file.write(garbage.data(), garbage.size());
  }
  Status checked = CheckStoreBeforeWriting(File("runs.db"));
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().exit_code, kUsageExit);
  EXPECT_NE(checked.error().message.find("runs.db"), std::string::npos);
}

// A sweep checks its database while its campaign store has it open. The
// check must not open and close the file itself: that drops the POSIX
// locks of this process's connections, and another process, finding no
// reader, may then checkpoint and remove the -wal file under the writer
// (seen as "disk I/O error" and "database disk image is malformed" in a PTS
// sweep that a reader polled).
TEST_F(StoreFileTest, CheckingADatabaseThisProcessHasOpenKeepsItsLocks) {
  const std::string path = File("runs.db");
  auto store = RunStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.error().message;
  RunResult run;
  run.spec.engine = "null";
  auto id = store->BeginRun(run, RunLabels{"open", {}, "flashmark", ""});
  ASSERT_TRUE(id.ok());
  // Whether another process sees this one's SHARED lock on the database
  // (SQLite's shared byte range, 510 bytes from 1 GiB + 2).
  const auto shared_lock_seen = [&path] {
    const pid_t child = fork();
    if (child == 0) {
      const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      struct flock lock = {};
      lock.l_type = F_WRLCK;
      lock.l_whence = SEEK_SET;
      lock.l_start = 0x40000002;
      lock.l_len = 510;
      const bool held =
          fd >= 0 && fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
      _exit(held ? 0 : 1);
    }
    int status = -1;
    return child > 0 && waitpid(child, &status, 0) == child &&
           WIFEXITED(status) && WEXITSTATUS(status) == 0;
  };
  ASSERT_TRUE(shared_lock_seen()) << "a WAL connection holds SHARED";
  Status checked = CheckStoreBeforeWriting(path);
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_TRUE(shared_lock_seen()) << "the check dropped the store's lock";
  IntervalSample sample;
  sample.end_ns = 1'000'000'000;
  sample.read_latency.Add(1000);
  Status appended = store->AppendInterval(*id, sample);
  EXPECT_TRUE(appended.ok()) << appended.error().message;
}

TEST_F(StoreFileTest, ReadingOpensReadOnlyAndNeverCreates) {
  auto missing = RunStore::OpenForReading(File("missing.db"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no database at"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(File("missing.db")));
  std::ofstream(File("empty.db"));
  EXPECT_FALSE(RunStore::OpenForReading(File("empty.db")).ok());
  EXPECT_EQ(std::filesystem::file_size(File("empty.db")), 0u);

  MakeStore(File("runs.db"), 1);
  auto store = RunStore::OpenForReading(File("runs.db"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto runs = store->ListRuns({});
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->size(), 1u);
  EXPECT_FALSE(store->DeleteRun(1).ok()) << "a reading store cannot write";
  EXPECT_FALSE(store->BeginRun(RunResult(), {}).ok());
}

TEST_F(StoreFileTest, ReadingMigratesAnOlderSchemaFirst) {
  {
    auto raw = Database::Open(File("v1.db"), true);
    std::ifstream fixture(FLASHMARK_FIXTURES "/schema_v1.sql");
    ASSERT_TRUE(fixture) << "fixture missing";
    std::stringstream sql;
    sql << fixture.rdbuf();
    ASSERT_TRUE(raw->Execute(sql.str()).ok());
  }
  auto store = RunStore::OpenForReading(File("v1.db"));
  ASSERT_TRUE(store.ok()) << store.error().message;
  auto run = store->LoadRun(1);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->labels.label, "from-v1");
}

}  // namespace
}  // namespace flashmark
