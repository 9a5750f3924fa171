// Writes a whole file or nothing: the text goes to PATH.tmp.PID beside
// it, is flushed, and is renamed over PATH; on any failure the temporary
// is removed and PATH is untouched. Errors name the path (usage errors:
// the path is the user's).
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace flashmark {

Status WriteFileAtomically(const std::string& path, std::string_view text);

}  // namespace flashmark
