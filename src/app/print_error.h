// Prints an Error once, at the top, as "error: <message> (<hint>)" on
// stderr, and returns its exit status. Messages quote what the user gave
// (paths, labels, values): control characters in them are shown as
// escapes (TerminalText), line by line.
#pragma once

#include <iostream>
#include <string>
#include <string_view>

#include "common/result.h"
#include "report/text_escape.h"

namespace flashmark {

// `text` through TerminalText, its line breaks kept.
inline std::string TerminalLines(std::string_view text) {
  std::string out;
  for (size_t begin = 0;;) {
    const size_t end = text.find('\n', begin);
    out += TerminalText(text.substr(begin, end - begin));
    if (end == std::string_view::npos) return out;
    out += '\n';
    begin = end + 1;
  }
}

inline int PrintError(const Error& error) {
  std::cerr << "error: " << TerminalLines(error.message);
  if (!error.hint.empty())
    std::cerr << " (" << TerminalLines(error.hint) << ")";
  std::cerr << "\n";
  return error.exit_code;
}

}  // namespace flashmark
