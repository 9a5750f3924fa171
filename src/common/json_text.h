// JSON as text, whatever bytes its strings hold. nlohmann::json keeps a
// string's bytes as given (a label, a tag, a path from the command line or
// the file system may be any bytes but NUL), and its dump() throws on
// invalid UTF-8: every JSON the program writes goes through these.
//
// JsonText: for output (stdout, --json files, reports): each invalid UTF-8
// sequence becomes U+FFFD, so the text is valid UTF-8 and valid JSON.
//
// JsonTextKeepingBytes / ParseJsonKeepingBytes: for what is stored and read
// back (the result store's JSON columns): the text is valid JSON too (the
// strings as JsonText writes them), and an object document whose strings
// were not all valid UTF-8 also holds "invalid_utf8_bytes": {JSON pointer
// of such a string: its exact bytes in hex}. Parsing puts the exact bytes
// back and removes that member, so a path named "x\xffy" reads back as it
// was written. Object keys are written as JsonText writes them (lossy).
// Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace flashmark {

// indent < 0: one line; otherwise nlohmann's pretty print with that indent.
std::string JsonText(const nlohmann::json& doc, int indent = -1);

std::string JsonTextKeepingBytes(const nlohmann::json& doc);

// A discarded value (is_discarded()) when `text` is not JSON.
nlohmann::json ParseJsonKeepingBytes(std::string_view text);

// `text` with each invalid UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

}  // namespace flashmark
