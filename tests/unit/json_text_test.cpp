// JSON text whatever bytes its strings hold (issue 11, finding 15): dump()
// threw nlohmann's type_error 316 on invalid UTF-8 and aborted the
// program; the store keeps exact bytes.
#include "common/json_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flashmark {
namespace {

using nlohmann::json;

const std::string kBad = "x\xffy";  // a lone byte that is not UTF-8
const std::string kCut = "\xc3";    // a sequence cut short
const std::string kReplacement = "\xef\xbf\xbd";  // U+FFFD

TEST(JsonText, InvalidUtf8BecomesReplacementCharacters) {
  const json doc = {{"label", kCut}, {"tags", {{"k", "v" + kBad}}}, {"n", 3}};
  EXPECT_THROW((void)doc.dump(), json::type_error);  // what used to abort
  const std::string text = JsonText(doc);
  const json back = json::parse(text);  // valid JSON, valid UTF-8
  EXPECT_EQ(back["label"], kReplacement);
  EXPECT_EQ(back["tags"]["k"], "vx" + kReplacement + "y");
  EXPECT_EQ(back["n"], 3);
  EXPECT_EQ(JsonText(json::array({1, "a"}), 1), json::array({1, "a"}).dump(1));
  EXPECT_EQ(ValidUtf8("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(ValidUtf8(kBad), "x" + kReplacement + "y");
}

TEST(JsonText, KeepingBytesRoundTripsExactStrings) {
  const json doc = {{"targets", {"/tmp/" + kBad, "/mnt/ok"}},
                    {"nested", {{"path", kCut}, {"fine", "caf\xc3\xa9"}}},
                    {"number", 1.5}};
  const std::string text = JsonTextKeepingBytes(doc);
  // Valid JSON for any reader, with replacement characters...
  const json plain = json::parse(text);
  EXPECT_EQ(plain["targets"][0], "/tmp/x" + kReplacement + "y");
  EXPECT_TRUE(plain.contains("invalid_utf8_bytes"));
  // ...and the exact bytes for ours.
  EXPECT_EQ(ParseJsonKeepingBytes(text), doc);
  // A document with nothing to keep is plain JSON.
  const json clean = {{"a", "b"}};
  EXPECT_EQ(JsonTextKeepingBytes(clean), clean.dump());
  EXPECT_EQ(ParseJsonKeepingBytes(clean.dump()), clean);
  EXPECT_TRUE(ParseJsonKeepingBytes("{not json").is_discarded());
  // A garbled side table is ignored, never thrown.
  const json odd = ParseJsonKeepingBytes(
      R"({"a": "x", "invalid_utf8_bytes": {"/b/0": "ff", "nope": "zz", "/a": "7"}})");
  EXPECT_EQ(odd, json({{"a", "x"}}));
}

// Every JSON the program writes goes through json_text.h: no other dump().
TEST(JsonText, NoOtherDumpInTheSources) {
  const std::filesystem::path src =
      std::filesystem::path(FLASHMARK_FIXTURES) / ".." / ".." / "src";
  ASSERT_TRUE(std::filesystem::is_directory(src)) << src;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (name.rfind("json_text.", 0) == 0) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      EXPECT_EQ(line.find(".dump("), std::string::npos)
          << entry.path().string() << ":" << number << ": " << line
          << "\n(use JsonText or JsonTextKeepingBytes, common/json_text.h)";
    }
  }
}

}  // namespace
}  // namespace flashmark
