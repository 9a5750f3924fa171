#include "common/json_text.h"

#include <fmt/format.h>

namespace flashmark {
namespace {

using nlohmann::json;

constexpr const char* kBytesKey = "invalid_utf8_bytes";

std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// The bytes of an even-length lowercase or uppercase hex text; false for
// anything else.
bool Unhex(const std::string& hex, std::string& bytes) {
  if (hex.size() % 2 != 0) return false;
  bytes.clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    int value = 0;
    for (size_t k = i; k < i + 2; ++k) {
      const char c = hex[k];
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) return false;
      value = value * 16 + digit;
    }
    bytes += static_cast<char>(value);
  }
  return true;
}

// A copy of `node` with every key and string valid UTF-8; the exact bytes
// of each string that was not go to `bytes` under its JSON pointer.
json Clean(const json& node, const json::json_pointer& at, json& bytes) {
  if (node.is_string()) {
    const std::string& text = node.get_ref<const std::string&>();
    std::string valid = ValidUtf8(text);
    if (valid != text) bytes[at.to_string()] = Hex(text);
    return valid;
  }
  if (node.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : node.items()) {
      const std::string valid_key = ValidUtf8(key);
      out[valid_key] = Clean(value, at / valid_key, bytes);
    }
    return out;
  }
  if (node.is_array()) {
    json out = json::array();
    for (size_t i = 0; i < node.size(); ++i) {
      out.push_back(Clean(node[i], at / i, bytes));
    }
    return out;
  }
  return node;
}

}  // namespace

std::string JsonText(const json& doc, int indent) {
  return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string ValidUtf8(std::string_view text) {
  // nlohmann's own UTF-8 check: the string dumped with replacement, read
  // back (its parser accepts what its dump writes).
  const std::string dumped = JsonText(json(std::string(text)));
  if (dumped.size() == text.size() + 2 &&
      dumped.compare(1, text.size(), text) == 0) {
    return std::string(text);  // nothing escaped or replaced
  }
  return json::parse(dumped).get<std::string>();
}

std::string JsonTextKeepingBytes(const json& doc) {
  if (!doc.is_object()) return JsonText(doc);
  json bytes = json::object();
  json clean = Clean(doc, json::json_pointer(), bytes);
  if (!bytes.empty()) clean[kBytesKey] = std::move(bytes);
  return JsonText(clean);
}

json ParseJsonKeepingBytes(std::string_view text) {
  json doc = json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains(kBytesKey)) return doc;
  const json bytes = std::move(doc[kBytesKey]);
  doc.erase(kBytesKey);
  if (!bytes.is_object()) return doc;
  for (const auto& [pointer, hex] : bytes.items()) {
    std::string exact;
    if (!hex.is_string() || !Unhex(hex.get<std::string>(), exact)) continue;
    try {
      const json::json_pointer at(pointer);
      if (doc.contains(at) && doc[at].is_string()) doc[at] = std::move(exact);
    } catch (const json::exception&) {
      // not a pointer into this document: that string keeps its U+FFFD
    }
  }
  return doc;
}

}  // namespace flashmark
