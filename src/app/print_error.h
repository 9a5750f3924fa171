// Prints an Error once, at the top, as "error: <message> (<hint>)" on
// stderr, and returns its exit status.
#pragma once

#include <iostream>

#include "common/result.h"

namespace flashmark {

inline int PrintError(const Error& error) {
  std::cerr << "error: " << error.message;
  if (!error.hint.empty()) std::cerr << " (" << error.hint << ")";
  std::cerr << "\n";
  return error.exit_code;
}

}  // namespace flashmark
