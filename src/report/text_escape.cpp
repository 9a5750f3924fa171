#include "report/text_escape.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/utf8.h"

namespace flashmark {

std::string CsvCell(std::string_view text) {
  std::string out = "\"";
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) !=
                           std::string_view::npos) {
    out += '\'';
  }
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string MarkdownInline(std::string_view text) {
  constexpr std::string_view kMarkup = "\\`*_[]|!#";
  std::string out;
  for (char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (kMarkup.find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else if ((c >= 0 && c < 0x20) || c == 0x7f) {
      out += "\xef\xbf\xbd";  // U+FFFD
    } else {
      out += c;
    }
  }
  return out;
}

std::string MarkdownFence(std::string_view text, std::string_view info) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string out = fence + std::string(info) + "\n" + std::string(text);
  if (!text.empty() && text.back() != '\n') out += '\n';
  return out + fence + "\n";
}

std::string TerminalText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0 || c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    if (length == 2 && c == 0xc2 &&
        static_cast<unsigned char>(text[i + 1]) < 0xa0) {  // C1 control
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));
      i += 2;
      continue;
    }
    out.append(text, i, length);
    i += length;
  }
  return out;
}

std::string OpenMetricsLabelValue(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
      continue;
    }
    const char c = text[i];
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace flashmark
