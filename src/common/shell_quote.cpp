#include "common/shell_quote.h"

#include <fmt/format.h>

#include "common/utf8.h"

namespace flashmark {
namespace {

bool IsControl(unsigned char byte) { return byte < 0x20 || byte == 0x7f; }

// Control characters and bytes that are not UTF-8 would be invisible, or
// act on a terminal, inside '...'.
bool NeedsEscapes(const std::string& arg) {
  for (char c : arg) {
    if (IsControl(static_cast<unsigned char>(c))) return true;
  }
  return !IsValidUtf8(arg);
}

// $'...' (POSIX.1-2024, bash, zsh, ksh): \xNN for control characters and
// stray bytes, \\ and \' for themselves, UTF-8 characters as they are.
std::string DollarQuote(const std::string& arg) {
  std::string quoted = "$'";
  for (size_t i = 0; i < arg.size();) {
    const auto byte = static_cast<unsigned char>(arg[i]);
    const size_t length = Utf8SequenceLength(arg, i);
    if (length == 0 || IsControl(byte)) {
      quoted += fmt::format("\\x{:02x}", byte);
      ++i;
      continue;
    }
    if (byte == '\\' || byte == '\'') quoted += '\\';
    quoted.append(arg, i, length);
    i += length;
  }
  return quoted + "'";
}

}  // namespace

std::string ShellQuote(const std::string& arg) {
  const bool plain =
      !arg.empty() && arg.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789-_./=:,%+@") == std::string::npos;
  if (plain) return arg;
  if (NeedsEscapes(arg)) return DollarQuote(arg);
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string ShellJoin(const std::vector<std::string>& args) {
  std::string line;
  for (size_t i = 0; i < args.size(); ++i) {
    line += (i ? " " : "") + ShellQuote(args[i]);
  }
  return line;
}

}  // namespace flashmark
