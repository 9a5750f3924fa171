#include "runner/io_verifier.h"

#include "workload/block_header.h"

namespace flashmark {

IoVerifier::IoVerifier(const IoVerifierSetup& setup,
                       std::span<const IoFile> files, WorkerMeasures& measures,
                       int depth, uint32_t max_io_bytes)
    : setup_(setup),
      files_(files),
      measures_(measures),
      block_bytes_(setup.map->block_bytes()),
      per_slot_(max_io_bytes / block_bytes_),
      states_(per_slot_ * depth),
      now_(per_slot_) {}

bool IoVerifier::BeginWrite(IoUnit& unit) {
  uint32_t* states = StatesOf(unit);
  if (!setup_.map->Claim(unit.file, unit.offset, unit.length, states)) {
    return false;
  }
  auto* bytes = static_cast<std::byte*>(unit.buffer);
  const uint32_t blocks = unit.length / block_bytes_;
  for (uint32_t i = 0; i < blocks; ++i) {
    const uint64_t at = static_cast<uint64_t>(i) * block_bytes_;
    StampBlock(std::span(bytes + at, block_bytes_),
               BlockStamp{unit.offset + at, unit.file,
                          GenerationMap::Next(states[i]), setup_.seed});
  }
  return true;
}

void IoVerifier::AbandonWrite(const IoUnit& unit) {
  setup_.map->Abandon(unit.file, unit.offset, unit.length, StatesOf(unit));
}

void IoVerifier::EndWrite(const IoUnit& unit, bool written) {
  setup_.map->Finish(unit.file, unit.offset, unit.length, written);
}

void IoVerifier::BeginRead(const IoUnit& unit) {
  if (!setup_.check_reads) return;
  setup_.map->Snapshot(unit.file, unit.offset, unit.length, StatesOf(unit));
}

void IoVerifier::EndRead(const IoUnit& unit, bool complete) {
  if (!setup_.check_reads || !complete) return;
  uint32_t* states = StatesOf(unit);
  setup_.map->Snapshot(unit.file, unit.offset, unit.length, now_.data());
  const uint32_t blocks = unit.length / block_bytes_;
  for (uint32_t i = 0; i < blocks; ++i) {
    // Written (or being written) while the read was in flight: the bytes
    // read may be old, new or a mix of both, so they prove nothing.
    if (now_[i] != states[i]) states[i] = 0;
  }
  const AuditContext context{files_, setup_.log, false};
  const VerifyCounts counts =
      AuditBlocks(context, block_bytes_, static_cast<std::byte*>(unit.buffer),
                  unit.file, unit.offset, unit.length, unit.length, states);
  measures_.verify_checked.Add(counts.checked);
  if (counts.bad() == 0) return;
  measures_.verify_torn.Add(counts.torn);
  measures_.verify_misdirected.Add(counts.misdirected);
  measures_.verify_lost.Add(counts.lost);
  measures_.verify_newer.Add(counts.newer);
}

}  // namespace flashmark
