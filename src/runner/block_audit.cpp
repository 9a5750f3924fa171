#include "runner/block_audit.h"

#include "workload/block_header.h"

namespace flashmark {
namespace {

const std::string& PathOf(std::span<const IoFile> files, uint32_t file) {
  static const std::string kUnknown = "(unknown file)";
  return file < files.size() ? files[file].path : kUnknown;
}

}  // namespace

void MismatchLog::Add(VerifyMismatch mismatch) {
  std::lock_guard lock(mutex_);
  for (const VerifyMismatch& listed : listed_) {
    if (listed.offset == mismatch.offset && listed.fault == mismatch.fault &&
        listed.read_back == mismatch.read_back &&
        listed.path == mismatch.path) {
      return;  // the same bad block read again
    }
  }
  if (listed_.size() < capacity_) {
    listed_.push_back(std::move(mismatch));
  } else {
    ++not_listed_;
  }
}

void MismatchLog::MoveInto(VerifyOutcome& outcome) {
  std::lock_guard lock(mutex_);
  for (auto& mismatch : listed_)
    outcome.mismatches.push_back(std::move(mismatch));
  outcome.mismatches_not_listed += not_listed_;
  listed_.clear();
  not_listed_ = 0;
}

VerifyCounts AuditBlocks(const AuditContext& context, uint32_t block_bytes,
                         const std::byte* data, uint32_t file, uint64_t offset,
                         uint64_t length, uint64_t readable,
                         const uint32_t* states) {
  VerifyCounts counts;
  const uint64_t blocks = length / block_bytes;
  for (uint64_t i = 0; i < blocks; ++i) {
    const uint32_t state = states[i];
    if (!GenerationMap::Checkable(state)) continue;
    ++counts.checked;
    const uint64_t at = i * block_bytes;
    const uint32_t expected = GenerationMap::Generation(state);
    VerifyMismatch mismatch;
    if (at + block_bytes > readable) {
      mismatch.fault = VerifyFault::kLost;
      mismatch.beyond_end = true;
      mismatch.file_size = offset + readable;
    } else {
      const BlockCheck check = CheckBlock(std::span(data + at, block_bytes),
                                          file, offset + at, expected);
      switch (check.state) {
        case BlockState::kGood:
          continue;
        case BlockState::kNoHeader:
          mismatch.fault = VerifyFault::kLost;
          break;
        case BlockState::kBadChecksum:
          mismatch.fault = VerifyFault::kTorn;
          break;
        case BlockState::kWrongPlace:
          mismatch.fault = VerifyFault::kMisdirected;
          break;
        case BlockState::kStale:
          mismatch.fault = VerifyFault::kLost;
          break;
        case BlockState::kNewer:
          mismatch.fault = VerifyFault::kNewer;
          break;
      }
      if (check.state != BlockState::kNoHeader &&
          check.state != BlockState::kBadChecksum) {
        mismatch.header_valid = true;
        mismatch.found_generation = check.found.generation;
        mismatch.found_path = PathOf(context.files, check.found.file);
        mismatch.found_offset = check.found.offset;
        mismatch.found_seed = check.found.seed;
      }
    }
    counts.Count(mismatch.fault);
    if (context.log == nullptr) continue;
    mismatch.read_back = context.read_back;
    mismatch.path = PathOf(context.files, file);
    mismatch.offset = offset + at;
    mismatch.length = block_bytes;
    mismatch.expected_generation = expected;
    context.log->Add(std::move(mismatch));
  }
  return counts;
}

}  // namespace flashmark
