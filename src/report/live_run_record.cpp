#include "report/live_run_record.h"

#include <algorithm>

#include "model/interval_merge.h"

namespace flashmark {

LiveRunRecord::LiveRunRecord(size_t max_blocks)
    : max_blocks_(std::max<size_t>(2, max_blocks)) {}

void LiveRunRecord::Add(const IntervalSample& sample) {
  ++intervals_;
  if (!sample.partial) last_full_ = sample;
  const bool joins = !blocks_.empty() && !sample.partial &&
                     !blocks_.back().partial &&
                     counts_.back() < block_intervals_;
  if (joins) {
    AppendInterval(blocks_.back(), sample);
    ++counts_.back();
  } else {
    blocks_.push_back(sample);
    counts_.push_back(1);
  }
  if (blocks_.size() > max_blocks_) Coarsen();
}

void LiveRunRecord::Coarsen() {
  block_intervals_ *= 2;
  ++generation_;
  size_t kept = 0;  // blocks_[0, kept) are the merged ones
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (kept > 0 && !blocks_[i].partial && !blocks_[kept - 1].partial &&
        counts_[kept - 1] + counts_[i] <= block_intervals_) {
      AppendInterval(blocks_[kept - 1], blocks_[i]);
      counts_[kept - 1] += counts_[i];
      continue;
    }
    if (kept != i) {
      blocks_[kept] = std::move(blocks_[i]);
      counts_[kept] = counts_[i];
    }
    ++kept;
  }
  blocks_.resize(kept);
  counts_.resize(kept);
}

RunResult LiveRunRecord::View(const RunResult& header) const {
  RunResult run = RunHeader(header);
  run.intervals = blocks_;
  run.spec.interval *= static_cast<int64_t>(block_intervals_);
  return run;
}

void LiveRunRecord::CopyBlocks(std::vector<IntervalSample>& copy,
                               uint64_t& generation) const {
  if (generation != generation_ || copy.size() > blocks_.size()) copy.clear();
  generation = generation_;
  // Only the last block copied can have grown since.
  const size_t from = copy.empty() ? 0 : copy.size() - 1;
  copy.resize(from);
  copy.insert(copy.end(), blocks_.begin() + static_cast<ptrdiff_t>(from),
              blocks_.end());
}

RunResult RunHeader(const RunResult& run) {
  RunResult header;
  header.spec = run.spec;
  header.command_line = run.command_line;
  header.environment = run.environment;
  header.start_unix_ns = run.start_unix_ns;
  header.end_unix_ns = run.end_unix_ns;
  header.summary = run.summary;
  header.status = run.status;
  header.error = run.error;
  header.verify = run.verify;
  header.tool_version = run.tool_version;
  header.git_revision = run.git_revision;
  header.imported = run.imported;
  header.overhead = run.overhead;
  return header;
}

}  // namespace flashmark
