// The built-in profiles. Each figure is either a database default, cited
// from its documentation, or a modelling choice, said to be one; the
// README's "Application profiles" section repeats them.
//
// innodb (MySQL 8.0/8.4 InnoDB, defaults):
// - page reads: 16 KiB (innodb_page_size default 16384, MySQL Reference
//   Manual, "InnoDB Startup Options and System Variables"), random over
//   the tablespace; 4 per commit (a buffer-pool miss rate: our choice).
// - commit: one redo log append of 8 KiB (innodb_log_write_ahead_size
//   default 8192) then fsync: innodb_flush_log_at_trx_commit default 1,
//   "logs are written and flushed to disk at each transaction commit";
//   innodb_flush_method default fsync on Unix. One append per commit
//   group (group commit merges concurrent commits; each thread here is one
//   group).
// - page flushes: "InnoDB writes pages flushed from the buffer pool [to the
//   doublewrite buffer] before writing the pages to their proper positions
//   in the data files ... in a large sequential chunk, with a single
//   fsync()" (MySQL Reference Manual, "Doublewrite Buffer"): every 8
//   commits, 8 dirty pages (our choice: one page per commit) go as one
//   128 KiB sequential write to the doublewrite file, fsync, then 8 random
//   16 KiB writes in place, fsync.
// - regions: redo log 10 %, doublewrite 5 %, tablespace 85 % of one target
//   (a file set: three files).
//
// rocksdb (RocksDB, defaults; WriteOptions::sync = true):
// - commit: one WAL append of 4 KiB (a small write batch: our choice),
//   then a sync: "When WriteOptions.sync = true, the WAL file is fsync'ed
//   before returning to the user" (RocksDB wiki, "WAL Performance"); the
//   call is fdatasync (Options::use_fsync default false).
// - point reads: 4 per commit (our choice), 4 KiB (BlockBasedTableOptions
//   block_size default 4 KiB), random over the SST files.
// - flush: the WAL's bytes come back as a memtable flush: every 256
//   commits (1 MiB of WAL), 1 MiB written sequentially to an SST file,
//   fdatasync (writable_file_max_buffer_size default 1 MiB: the write
//   size).
// - compaction: with that flush, 4 MiB read and 4 MiB written
//   sequentially in 1 MiB IOs, then fdatasync (a write amplification of 5
//   for the level below L0: our choice).
// - regions: WAL 10 %, SST files 90 % (a file set: two files).
//
// postgres-wal (PostgreSQL 16, defaults):
// - commit: one WAL append of 8 KiB (XLOG_BLCKSZ 8192, a small
//   transaction's records fit one WAL page) then fdatasync:
//   synchronous_commit on, wal_sync_method "fdatasync is the default on
//   Linux" (PostgreSQL documentation, "Write Ahead Log" settings).
// - page reads: 8 KiB (BLCKSZ 8192), random over the data files; 4 per
//   commit (our choice).
// - checkpoint: every 16 commits, 16 dirty 8 KiB pages written in place
//   at random, then fsync (a checkpoint writes the dirty buffers, then
//   fsyncs the files; one page per commit: our choice).
// - regions: WAL 10 %, data 90 % (a file set: two files).
#include "config/app_profiles.h"

#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "config/campaign_keys.h"

namespace flashmark {
namespace {

constexpr uint32_t kProfileKiB = 1024;
constexpr uint32_t kProfileMiB = 1024 * 1024;

AppProfile InnodbProfile() {
  AppProfile p;
  p.name = "innodb";
  p.summary =
      "MySQL InnoDB: 16 KiB page reads, redo log appends with fsync per "
      "commit, doublewrite then in-place page writes";
  p.regions = {{"redo log", 10, true},
               {"doublewrite", 5, true},
               {"tablespace", 85, false}};
  p.steps = {
      {"page read", false, 2, AccessPattern::kRandom, 16 * kProfileKiB, 4, 1,
       false, FsyncMode::kFsync, false},
      {"redo append", true, 0, AccessPattern::kSequential, 8 * kProfileKiB, 1,
       1, true, FsyncMode::kFsync, true},
      {"doublewrite", true, 1, AccessPattern::kSequential, 128 * kProfileKiB, 1,
       8, true, FsyncMode::kFsync, false},
      {"page write", true, 2, AccessPattern::kRandom, 16 * kProfileKiB, 8, 8,
       true, FsyncMode::kFsync, false},
  };
  return p;
}

AppProfile RocksdbProfile() {
  AppProfile p;
  p.name = "rocksdb";
  p.summary =
      "RocksDB: WAL appends with fdatasync per write, 4 KiB point reads, "
      "memtable flushes and compactions in 1 MiB sequential IO";
  p.regions = {{"WAL", 10, true}, {"SST files", 90, true}};
  p.steps = {
      {"point read", false, 1, AccessPattern::kRandom, 4 * kProfileKiB, 4, 1,
       false, FsyncMode::kFdatasync, false},
      {"WAL append", true, 0, AccessPattern::kSequential, 4 * kProfileKiB, 1, 1,
       true, FsyncMode::kFdatasync, true},
      {"flush", true, 1, AccessPattern::kSequential, kProfileMiB, 1, 256, true,
       FsyncMode::kFdatasync, false},
      {"compaction read", false, 1, AccessPattern::kSequential, kProfileMiB, 4,
       256, false, FsyncMode::kFdatasync, false},
      {"compaction write", true, 1, AccessPattern::kSequential, kProfileMiB, 4,
       256, true, FsyncMode::kFdatasync, false},
  };
  return p;
}

AppProfile PostgresWalProfile() {
  AppProfile p;
  p.name = "postgres-wal";
  p.summary =
      "PostgreSQL: 8 KiB WAL appends with fdatasync per commit, 8 KiB data "
      "page reads, checkpoint writes with fsync";
  p.regions = {{"WAL", 10, true}, {"data", 90, false}};
  p.steps = {
      {"page read", false, 1, AccessPattern::kRandom, 8 * kProfileKiB, 4, 1,
       false, FsyncMode::kFsync, false},
      {"WAL append", true, 0, AccessPattern::kSequential, 8 * kProfileKiB, 1, 1,
       true, FsyncMode::kFdatasync, true},
      {"checkpoint write", true, 1, AccessPattern::kRandom, 8 * kProfileKiB, 16,
       16, true, FsyncMode::kFsync, false},
  };
  return p;
}

}  // namespace

std::span<const AppProfile> BuiltInProfiles() {
  static const std::vector<AppProfile> kProfiles = {
      InnodbProfile(), RocksdbProfile(), PostgresWalProfile()};
  return kProfiles;
}

std::string ProfileNames() {
  std::string names;
  for (const AppProfile& profile : BuiltInProfiles()) {
    names += (names.empty() ? "" : ", ") + profile.name;
  }
  return names;
}

Result<AppProfile> FindAppProfile(std::string_view name) {
  std::vector<std::string_view> known;
  for (const AppProfile& profile : BuiltInProfiles()) {
    if (profile.name == name) return profile;
    known.push_back(profile.name);
  }
  // The closest name: one the given name begins (or that begins it), else
  // the fewest edits away.
  std::string_view closest = known.front();
  size_t best = SIZE_MAX;
  for (std::string_view candidate : known) {
    const bool prefix = !name.empty() && (candidate.starts_with(name) ||
                                          name.starts_with(candidate));
    const size_t distance = prefix ? 0 : EditDistance(name, candidate);
    if (distance < best) {
      best = distance;
      closest = candidate;
    }
  }
  return UsageError(fmt::format("--profile: unknown profile \"{}\" (known: {})",
                                name, ProfileNames()),
                    fmt::format("did you mean --profile {}?", closest));
}

}  // namespace flashmark
