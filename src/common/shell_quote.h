// Quoting for command lines shown to users, so that what flashmark prints
// can be pasted into a POSIX shell and runs the same. Pure; thread-safe.
// A word holding control characters (a newline, ESC) or bytes that are not
// UTF-8 is written $'...' with \xNN escapes (POSIX.1-2024, bash, zsh,
// ksh): exact, visible, and valid UTF-8 wherever the line is shown.
#pragma once

#include <string>
#include <vector>

namespace flashmark {

// `arg` as a shell word: unchanged when it is plain, else single-quoted
// (dollar-single-quoted when it needs escapes, above).
std::string ShellQuote(const std::string& arg);
std::string ShellJoin(const std::vector<std::string>& args);

}  // namespace flashmark
