#include "model/verify_result.h"

namespace flashmark {

std::string VerifyFaultName(VerifyFault fault) {
  switch (fault) {
    case VerifyFault::kTorn:
      return "torn";
    case VerifyFault::kMisdirected:
      return "misdirected";
    case VerifyFault::kLost:
      return "lost";
    case VerifyFault::kNewer:
      return "newer";
  }
  return "unknown";
}

}  // namespace flashmark
