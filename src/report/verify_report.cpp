#include "report/verify_report.h"

#include <fmt/format.h>

#include <vector>

#include "common/units.h"

namespace flashmark {

std::string VerifyCountsText(const VerifyCounts& counts) {
  if (counts.bad() == 0) return "none bad";
  std::string kinds;
  auto add = [&kinds](uint64_t count, const char* name) {
    if (count == 0) return;
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", count, name);
  };
  add(counts.torn, "torn");
  add(counts.misdirected, "misdirected");
  add(counts.lost, "lost");
  add(counts.newer, "newer");
  return fmt::format("{} bad ({})", counts.bad(), kinds);
}

std::string DescribeMismatch(const VerifyMismatch& m) {
  std::string what;
  switch (m.fault) {
    case VerifyFault::kTorn:
      what = fmt::format(
          "contents do not match the header's checksum (generation {} was "
          "written)",
          m.expected_generation);
      break;
    case VerifyFault::kMisdirected:
      what = fmt::format(
          "holds the block written for {} offset {} "
          "(generation {})",
          m.found_path, m.found_offset, m.found_generation);
      break;
    case VerifyFault::kLost:
      if (m.beyond_end) {
        what = fmt::format(
            "past the end of the file ({} bytes); generation "
            "{} was written",
            m.file_size, m.expected_generation);
      } else if (m.header_valid) {
        what = fmt::format(
            "holds generation {}, but generation {} was "
            "written",
            m.found_generation, m.expected_generation);
      } else {
        what = fmt::format("no block header (generation {} was written)",
                           m.expected_generation);
      }
      break;
    case VerifyFault::kNewer:
      what = fmt::format(
          "holds generation {}, newer than the {} recorded "
          "(the generation map is older than the data)",
          m.found_generation, m.expected_generation);
      break;
  }
  return fmt::format("{:<12} {} offset {} ({}): {}", VerifyFaultName(m.fault),
                     m.path.empty() ? "(no file)" : m.path, m.offset,
                     FormatBytes(m.length), what);
}

namespace {

// Lost blocks past the end of one truncated file, back to back from
// mismatches[first]: how many (at least 1).
size_t TruncatedRun(const std::vector<VerifyMismatch>& mismatches,
                    size_t first) {
  const VerifyMismatch& head = mismatches[first];
  size_t count = 1;
  while (head.beyond_end && first + count < mismatches.size()) {
    const VerifyMismatch& next = mismatches[first + count];
    if (!next.beyond_end || next.path != head.path ||
        next.offset != head.offset + count * head.length) {
      break;
    }
    ++count;
  }
  return count;
}

}  // namespace

void PrintVerifyOutcome(const std::optional<VerifyCounts>& during_run,
                        const VerifyOutcome& outcome, std::ostream& out,
                        size_t max_listed) {
  out << fmt::format(
      "  verify {} blocks, each with a checksummed header "
      "(XXH3-64)\n",
      FormatBytes(outcome.block_bytes));
  if (during_run && during_run->checked + during_run->bad() > 0) {
    out << fmt::format("         reads during the run: {} blocks checked, {}\n",
                       FormatCount(static_cast<double>(during_run->checked)),
                       VerifyCountsText(*during_run));
  }
  if (outcome.read_back_ran) {
    const VerifyCounts& back = outcome.read_back;
    out << fmt::format(
        "         read back{}: {} blocks ({}) in {:.1f} s, {}{}\n",
        during_run ? " after the run" : "", back.checked,
        FormatBytes(outcome.read_back_bytes), outcome.read_back_seconds,
        VerifyCountsText(back),
        outcome.read_back_complete
            ? ""
            : fmt::format(" — incomplete: {}", outcome.read_back_note));
  } else if (!outcome.read_back_note.empty()) {
    out << fmt::format("         read back: {}\n", outcome.read_back_note);
  }
  const auto& mismatches = outcome.mismatches;
  size_t lines = 0;
  size_t at = 0;
  for (; at < mismatches.size() && lines < max_listed; ++lines) {
    const size_t run = TruncatedRun(mismatches, at);
    if (run == 1) {
      out << "    " << DescribeMismatch(mismatches[at]) << "\n";
    } else {
      const VerifyMismatch& head = mismatches[at];
      out << fmt::format(
          "    {:<12} {} offsets {}..{} ({} blocks of {}): past the end of "
          "the file ({} bytes)\n",
          VerifyFaultName(head.fault), head.path, head.offset,
          head.offset + (run - 1) * head.length, run, FormatBytes(head.length),
          head.file_size);
    }
    at += run;
  }
  const uint64_t more = mismatches.size() - at + outcome.mismatches_not_listed;
  if (more != 0) {
    out << fmt::format("    ... and {} more bad block read{} not listed here\n",
                       more, more == 1 ? "" : "s");
  }
}

}  // namespace flashmark
