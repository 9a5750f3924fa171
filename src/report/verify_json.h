// The "flashmark.verify" document (`flashmark verify --json FILE`): the
// target checked and the outcome of the read-back. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/verify_result.h"

namespace flashmark {

nlohmann::json VerifyJson(const std::string& target,
                          const VerifyOutcome& outcome);

}  // namespace flashmark
