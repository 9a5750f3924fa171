#include "model/block_io_trace.h"

namespace flashmark {

const char* TraceOpName(TraceOp op) {
  switch (op) {
    case TraceOp::kRead:
      return "read";
    case TraceOp::kWrite:
      return "write";
    case TraceOp::kFlush:
      return "flush";
    case TraceOp::kDiscard:
      return "discard";
  }
  return "";
}

}  // namespace flashmark
