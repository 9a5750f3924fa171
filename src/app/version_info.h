// `flashmark --version [--json]`: the version, git revision, build type,
// compiler, the IO engines and the features compiled in, as text (one
// "key: value" line each, after the "flashmark X (git R)" line) or as a
// "flashmark.version" JSON document for scripts. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace flashmark {

// "flashmark 0.1.0 (git 50e591b0a1b2)"
std::string VersionLine();
std::string VersionText();
nlohmann::json VersionJson();

}  // namespace flashmark
