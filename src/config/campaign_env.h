// Environment variables in campaign files, so one file serves several
// machines and tests can point a campaign at a temporary directory:
// "$VAR", "${VAR}" and "${VAR:-default}" (the default, taken literally,
// when VAR is unset or empty); "$$" is a literal "$". Expanded in target
// paths, devices, mount points and exec arguments only. Pure given the
// lookup; thread-safe when the lookup is.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace flashmark {

using EnvironmentLookup =
    std::function<std::optional<std::string>(const std::string& name)>;

// The process environment (getenv).
EnvironmentLookup ProcessEnvironment();

// `text` with its variables replaced. Errors (an unset variable without a
// default, an unclosed "${", a "$" before no name) name the variable or the
// text; callers prefix the position.
Result<std::string> ExpandEnvironment(std::string_view text,
                                      const EnvironmentLookup& lookup);

}  // namespace flashmark
