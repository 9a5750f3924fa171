// Prints an Error once, at the top, as "error: <message> (<hint>)" on
// stderr, and returns its exit status. An interruption is no error: its
// message ("interrupted during layout of ...") is printed as it is.
#pragma once

#include <iostream>

#include "common/result.h"

namespace flashmark {

inline int PrintError(const Error& error) {
  if (!IsInterruption(error)) std::cerr << "error: ";
  std::cerr << error.message;
  if (!error.hint.empty()) std::cerr << " (" << error.hint << ")";
  std::cerr << "\n";
  return error.exit_code;
}

}  // namespace flashmark
