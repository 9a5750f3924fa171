#include "config/campaign_env.h"

#include <fmt/format.h>

#include <cstdlib>

namespace flashmark {
namespace {

bool IsNameStart(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }

}  // namespace

EnvironmentLookup ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

Result<std::string> ExpandEnvironment(std::string_view text,
                                      const EnvironmentLookup& lookup) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '$') {
      out += text[i++];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '$') {
      out += '$';
      i += 2;
      continue;
    }
    std::string name;
    std::optional<std::string> fallback;
    if (i + 1 < text.size() && text[i + 1] == '{') {
      const size_t close = text.find('}', i + 2);
      if (close == std::string_view::npos) {
        return UsageError(fmt::format("\"{}\": \"${{\" is never closed", text),
                          "write ${NAME} or ${NAME:-default}");
      }
      std::string_view inside = text.substr(i + 2, close - i - 2);
      const size_t dash = inside.find(":-");
      if (dash != std::string_view::npos) {
        fallback = std::string(inside.substr(dash + 2));
        inside = inside.substr(0, dash);
      }
      name = inside;
      i = close + 1;
    } else {
      size_t end = i + 1;
      while (end < text.size() && IsNameChar(text[end])) ++end;
      name = text.substr(i + 1, end - i - 1);
      i = end;
    }
    if (name.empty() || !IsNameStart(name[0])) {
      return UsageError(
          fmt::format("\"{}\": \"$\" is not followed by a variable name", text),
          "write $$ for a literal $, or $NAME, ${NAME}, ${NAME:-default}");
    }
    for (char c : name) {
      if (!IsNameChar(c)) {
        return UsageError(
            fmt::format("\"{}\": \"{}\" is not a variable name", text, name),
            "names are letters, digits and _; a default follows \":-\"");
      }
    }
    std::optional<std::string> value = lookup(name);
    if (value && value->empty()) value.reset();
    if (!value && !fallback) {
      return UsageError(
          fmt::format("${} is not set (in \"{}\")", name, text),
          fmt::format("set {} or write ${{{}:-default}}", name, name));
    }
    out += value ? *value : *fallback;
  }
  return out;
}

}  // namespace flashmark
