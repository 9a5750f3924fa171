#include "model/run_result.h"

namespace flashmark {

std::string RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kRunning:
      return "running";
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kInterrupted:
      return "interrupted";
  }
  return "unknown";
}

}  // namespace flashmark
