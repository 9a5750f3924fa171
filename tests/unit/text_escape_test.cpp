// User text made safe per output (issue 11, finding 19): a label holding
// ``` escaped the Markdown reproduce block, "=HYPERLINK(...)" was a live
// CSV formula, and list/show printed raw terminal escape sequences.
#include "report/text_escape.h"

#include <gtest/gtest.h>

#include <string>

namespace flashmark {
namespace {

TEST(TextEscape, CsvCellDefusesFormulasAndQuotes) {
  EXPECT_EQ(CsvCell("plain"), "\"plain\"");
  EXPECT_EQ(CsvCell("say \"hi\", then go"), "\"say \"\"hi\"\", then go\"");
  EXPECT_EQ(CsvCell("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  for (const char* lead : {"+", "-", "@", "\t", "\r"}) {
    EXPECT_EQ(CsvCell(std::string(lead) + "1").substr(0, 2), "\"'") << lead;
  }
  EXPECT_EQ(CsvCell("a\nb"), "\"a\nb\"");  // RFC 4180: inside quotes
  EXPECT_EQ(CsvCell(""), "\"\"");
}

TEST(TextEscape, MarkdownInlineStartsNoMarkup) {
  EXPECT_EQ(MarkdownInline("ssd-a 4k"), "ssd-a 4k");
  EXPECT_EQ(MarkdownInline("![x](http://evil/i.png)"),
            "\\!\\[x\\](http://evil/i.png)");
  EXPECT_EQ(MarkdownInline("a|b <b>&"), "a\\|b &lt;b&gt;&amp;");
  EXPECT_EQ(MarkdownInline("```\n# Owned"), "\\`\\`\\` \\# Owned");
  EXPECT_EQ(MarkdownInline("*_\\"), "\\*\\_\\\\");
  EXPECT_EQ(MarkdownInline("a\x1b[31mb"), "a\xef\xbf\xbd\\[31mb");
}

TEST(TextEscape, MarkdownFenceOutrunsEveryBacktickRun) {
  EXPECT_EQ(MarkdownFence("flashmark run x", "sh"),
            "```sh\nflashmark run x\n```\n");
  const std::string evil = "a ```\n# Injected\n![i](http://evil/) ````` b";
  const std::string fenced = MarkdownFence(evil, "sh");
  EXPECT_EQ(fenced, "``````sh\n" + evil + "\n``````\n");
}

TEST(TextEscape, TerminalTextShowsControlsVisibly) {
  EXPECT_EQ(TerminalText("ssd a"), "ssd a");
  EXPECT_EQ(TerminalText("caf\xc3\xa9 \xe2\x82\xac"),
            "caf\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(TerminalText("\x1b[2J\x1b]0;x\x07"), "\\x1b[2J\\x1b]0;x\\x07");
  EXPECT_EQ(TerminalText("a\nb\rc\td\x7f"), "a\\x0ab\\x0dc\\x09d\\x7f");
  EXPECT_EQ(TerminalText("\xc2\x9b"
                         "31m"),
            "\\u009b31m");                                     // C1 CSI
  EXPECT_EQ(TerminalText("x\xffy\xc3"), "x\\xffy\\xc3");       // not UTF-8
  EXPECT_EQ(TerminalText("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

TEST(TextEscape, OpenMetricsLabelValueEscapesQuotesAndKeepsUtf8Valid) {
  EXPECT_EQ(OpenMetricsLabelValue("plain"), "plain");
  EXPECT_EQ(OpenMetricsLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(OpenMetricsLabelValue("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(OpenMetricsLabelValue("x\xffy"), "x\xef\xbf\xbdy");
}

}  // namespace
}  // namespace flashmark
