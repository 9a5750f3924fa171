// Shell quoting of the command lines flashmark stores and shows: what it
// prints, pasted into a shell, gives back the very same words (checked
// with bash), and a word with control characters or bytes that are not
// UTF-8 is written visibly as $'...' (issue 11, findings 15 and 19).
#include "common/shell_quote.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace flashmark {
namespace {

// What bash makes of `quoted` as one word (printf %s), read back whole.
// (popen's sh gets the bash command single-quoted: `quoted` itself is
// printable UTF-8 whatever the word was.)
std::string ThroughBash(const std::string& quoted) {
  FILE* pipe =
      popen(("bash -c " + ShellQuote("printf %s " + quoted)).c_str(), "r");
  if (pipe == nullptr) return "<popen failed>";
  std::string out;
  char buffer[256];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    out.append(buffer, n);
  pclose(pipe);
  return out;
}

TEST(ShellQuote, PlainSingleAndDollarQuoted) {
  EXPECT_EQ(ShellQuote("/mnt/ssd"), "/mnt/ssd");
  EXPECT_EQ(ShellQuote("a b"), "'a b'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote("caf\xc3\xa9"), "'caf\xc3\xa9'");
  EXPECT_EQ(ShellQuote("x\xffy"), "$'x\\xffy'");
  EXPECT_EQ(ShellQuote("a\nb\x1b[31m"), "$'a\\x0ab\\x1b[31m'");
  EXPECT_EQ(ShellQuote("it's\\\t"), "$'it\\'s\\\\\\x09'");
  EXPECT_EQ(ShellJoin({"run", "x y", "\xc3"}), "run 'x y' $'\\xc3'");
}

TEST(ShellQuote, BashReadsBackTheExactBytes) {
  if (system("command -v bash >/dev/null 2>&1") != 0) GTEST_SKIP() << "no bash";
  const std::vector<std::string> words = {"plain",
                                          "a b",
                                          "it's",
                                          "caf\xc3\xa9 \xe2\x82\xac",
                                          "x\xffy\xc3",
                                          "line\nbreak\x1b[2J\x07",
                                          "back\\slash 'q' \"d\" $HOME `id`"};
  for (const std::string& word : words) {
    EXPECT_EQ(ThroughBash(ShellQuote(word)), word) << ShellQuote(word);
  }
}

}  // namespace
}  // namespace flashmark
