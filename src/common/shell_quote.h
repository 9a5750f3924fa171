// Quoting for command lines shown to users, so that what flashmark prints
// can be pasted into a POSIX shell and runs the same. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

namespace flashmark {

// `arg` as a shell word: unchanged when it is plain, else single-quoted.
std::string ShellQuote(const std::string& arg);
std::string ShellJoin(const std::vector<std::string>& args);

}  // namespace flashmark
