#include "report/verify_json.h"

#include "document/json_format.h"

namespace flashmark {

nlohmann::json VerifyJson(const std::string& target,
                          const VerifyOutcome& outcome) {
  return {{"schema", "flashmark.verify"},
          {"schema_version", 1},
          {"target", target},
          {"verify", ToJson(outcome)}};
}

}  // namespace flashmark
