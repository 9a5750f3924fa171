// AppProfile: a database's IO, built in (`--profile innodb`), as a cycle
// of steps each worker thread repeats: so many page reads, a commit (log
// append(s), then the sync that makes them durable), and every so many
// cycles the background writes (doublewrite then in place, a flush, a
// checkpoint) with their syncs. The figures of each built-in profile and
// where they come from are in config/app_profiles.cpp. A thread runs its
// cycle on the run's targets split into the profile's regions (a file
// each in a file set of that many files, or shares of one file or device);
// a log region is cut into one slice per thread (each appends to its own),
// the others are shared. Plain values; pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/io_pattern.h"

namespace flashmark {

struct ProfileRegion {
  std::string name;         // "redo log"
  uint32_t percent = 0;     // share of a single target (the shares add to 100)
  bool per_thread = false;  // cut into one slice per thread
};

struct ProfileStep {
  std::string name;  // "page read"
  bool write = false;
  uint32_t region = 0;  // index into AppProfile::regions
  AccessPattern pattern = AccessPattern::kRandom;  // sequential: appends
  uint32_t bytes = 0;                              // per IO
  uint32_t count = 1;                              // IOs per cycle it runs in
  uint32_t every = 1;  // runs in every `every`-th cycle of a thread
  // After the step's IOs: wait for them, then sync what they wrote.
  bool sync_after = false;
  FsyncMode sync = FsyncMode::kFsync;
  // The step is the commit: its writes and that sync, timed from the first
  // write's submission to the sync's return (IntervalSample's
  // commit_latency). One commit step per profile.
  bool commit = false;
};

struct AppProfile {
  std::string name;     // "innodb"; "" = no profile (the run's --mode)
  std::string summary;  // one line for people
  std::vector<ProfileRegion> regions;
  std::vector<ProfileStep> steps;
  int threads = 4;  // worker threads unless --threads says otherwise
  bool empty() const { return name.empty(); }
};

// What one commit brings on average (a cycle holds one commit): IOs,
// bytes and syncs by kind, counting a step that runs every k-th cycle as
// 1/k of its IOs.
struct ProfileRates {
  double reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;
  double syncs = 0;         // every sync, the commit's included
  double commit_syncs = 0;  // the commit's own: 1 for each profile
};
ProfileRates PerCommit(const AppProfile& profile);
// The largest IO of the profile (the size of its IO buffers).
uint32_t ProfileMaxBytes(const AppProfile& profile);
// "16 KiB page read x4, redo append 8 KiB + fsync (commit), ..." for people.
std::string ProfileMixText(const AppProfile& profile);

}  // namespace flashmark
