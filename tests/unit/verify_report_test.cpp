#include "report/verify_report.h"

#include <gtest/gtest.h>

#include <sstream>

namespace flashmark {
namespace {

VerifyMismatch Mismatch(VerifyFault fault, uint64_t offset) {
  VerifyMismatch m;
  m.fault = fault;
  m.path = "/mnt/x/flashmark.3";
  m.offset = offset;
  m.length = 4096;
  m.expected_generation = 4;
  return m;
}

TEST(VerifyReport, CountsNameEachKind) {
  EXPECT_EQ(VerifyCountsText(VerifyCounts{10, 0, 0, 0, 0}), "none bad");
  EXPECT_EQ(VerifyCountsText(VerifyCounts{10, 1, 2, 3, 0}),
            "6 bad (1 torn, 2 misdirected, 3 lost)");
}

TEST(VerifyReport, EachMismatchNamesKindFileOffsetAndWhatWasFound) {
  EXPECT_EQ(DescribeMismatch(Mismatch(VerifyFault::kTorn, 8192)),
            "torn         /mnt/x/flashmark.3 offset 8192 (4 KiB): contents do "
            "not match the header's checksum (generation 4 was written)");
  VerifyMismatch misdirected = Mismatch(VerifyFault::kMisdirected, 8192);
  misdirected.header_valid = true;
  misdirected.found_path = "/mnt/x/flashmark.1";
  misdirected.found_offset = 0;
  misdirected.found_generation = 2;
  EXPECT_EQ(DescribeMismatch(misdirected),
            "misdirected  /mnt/x/flashmark.3 offset 8192 (4 KiB): holds the "
            "block written for /mnt/x/flashmark.1 offset 0 (generation 2)");
  VerifyMismatch stale = Mismatch(VerifyFault::kLost, 0);
  stale.header_valid = true;
  stale.found_generation = 3;
  EXPECT_NE(DescribeMismatch(stale).find("holds generation 3, but generation "
                                         "4 was written"),
            std::string::npos);
  EXPECT_NE(
      DescribeMismatch(Mismatch(VerifyFault::kLost, 0)).find("no block header"),
      std::string::npos);
}

TEST(VerifyReport, TruncatedBlocksShareOneLineAndTheRestIsCounted) {
  VerifyOutcome outcome;
  outcome.enabled = true;
  outcome.block_bytes = 4096;
  outcome.read_back_ran = true;
  outcome.read_back_complete = true;
  outcome.read_back = VerifyCounts{100, 1, 0, 3, 0};
  outcome.mismatches.push_back(Mismatch(VerifyFault::kTorn, 0));
  for (uint64_t block = 10; block < 13; ++block) {
    VerifyMismatch lost = Mismatch(VerifyFault::kLost, block * 4096);
    lost.beyond_end = true;
    lost.file_size = 40960 + 7;
    outcome.mismatches.push_back(lost);
  }
  outcome.mismatches_not_listed = 5;
  std::ostringstream out;
  PrintVerifyOutcome(std::nullopt, outcome, out, 20);
  const std::string text = out.str();
  EXPECT_NE(text.find("read back: 100 blocks"), std::string::npos) << text;
  EXPECT_NE(text.find("4 bad (1 torn, 3 lost)"), std::string::npos) << text;
  EXPECT_NE(
      text.find("lost         /mnt/x/flashmark.3 offsets 40960..49152 (3 "
                "blocks of 4 KiB): past the end of the file (40967 bytes)"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("... and 5 more"), std::string::npos) << text;

  std::ostringstream first_only;
  PrintVerifyOutcome(std::nullopt, outcome, first_only, 1);
  EXPECT_NE(first_only.str().find("... and 8 more"), std::string::npos)
      << first_only.str();
}

}  // namespace
}  // namespace flashmark
