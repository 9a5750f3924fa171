// ProfileCycle: the IOs one worker thread issues under an application
// profile (model/app_profile.h), in order: the profile's steps, each its
// `count` IOs, those with `every` k only in every k-th cycle, again and
// again. Each step draws offsets from its own generator over its region's
// segments (random or sequential with wrap-around), aligned to the step's
// IO size. Next() says, with each IO, whether it begins the commit and
// whether a sync follows it. Deterministic for a seed; one per worker
// thread; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/app_profile.h"
#include "workload/offset_generator.h"

namespace flashmark {

struct ProfileIo {
  bool write = false;
  Location where;
  uint32_t length = 0;
  uint32_t step = 0;           // index into the profile's steps
  bool commit_begins = false;  // the commit's first write
  bool sync_after = false;     // the step's last IO: sync next
  bool commit_ends = false;    // with sync_after: that sync ends the commit
  FsyncMode sync = FsyncMode::kFsync;
};

class ProfileCycle {
 public:
  // `regions`: this worker's segments of each of the profile's regions;
  // every segment of a step's region holds at least one of its IOs.
  ProfileCycle(const AppProfile& profile,
               std::vector<std::vector<Segment>> regions, uint64_t seed);
  ProfileIo Next();

 private:
  void Advance();  // to the next step that runs in this cycle

  const AppProfile& profile_;
  std::vector<std::unique_ptr<OffsetGenerator>> generators_;  // per step
  uint64_t cycle_ = 0;
  uint32_t step_ = 0;
  uint32_t done_ = 0;  // IOs of the current step issued
};

}  // namespace flashmark
