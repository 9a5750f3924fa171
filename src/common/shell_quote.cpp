#include "common/shell_quote.h"

namespace flashmark {

std::string ShellQuote(const std::string& arg) {
  const bool plain =
      !arg.empty() &&
      arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "0123456789-_./=:,%+@") == std::string::npos;
  if (plain) return arg;
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
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
