#include "workload/profile_cycle.h"

namespace flashmark {

ProfileCycle::ProfileCycle(const AppProfile& profile,
                           std::vector<std::vector<Segment>> regions,
                           uint64_t seed)
    : profile_(profile) {
  for (size_t i = 0; i < profile.steps.size(); ++i) {
    const ProfileStep& step = profile.steps[i];
    generators_.push_back(MakeOffsetGenerator(
        step.pattern, Distribution{}, regions.at(step.region), step.bytes,
        step.bytes, seed ^ ((i + 1) * 0x9e3779b97f4a7c15ull)));
  }
  step_ = 0;
  if (!profile_.steps.empty() && profile_.steps[0].every > 1) Advance();
}

void ProfileCycle::Advance() {
  const auto steps = static_cast<uint32_t>(profile_.steps.size());
  for (;;) {
    done_ = 0;
    if (++step_ >= steps) {
      step_ = 0;
      ++cycle_;
    }
    const uint32_t every = profile_.steps[step_].every;
    // A step of every k runs in cycles k-1, 2k-1, ...: after k commits.
    if (every <= 1 || (cycle_ + 1) % every == 0) return;
  }
}

ProfileIo ProfileCycle::Next() {
  const ProfileStep& step = profile_.steps[step_];
  ProfileIo io;
  io.write = step.write;
  io.length = step.bytes;
  io.step = step_;
  io.where = generators_[step_]->Next(step.bytes);
  io.commit_begins = step.commit && done_ == 0;
  ++done_;
  if (done_ >= step.count) {
    io.sync_after = step.sync_after;
    io.commit_ends = step.commit && step.sync_after;
    io.sync = step.sync;
    Advance();
  }
  return io;
}

}  // namespace flashmark
