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

namespace flashmark {

bool ParseTraceRwbs(std::string_view text, uint32_t sectors, TraceRwbs& out) {
  const auto is_op = [](char c) {
    return c == 'R' || c == 'W' || c == 'D' || c == 'E' || c == 'N' || c == 'F';
  };
  size_t k = 0;
  bool preflush = false;
  if (text.size() > 1 && text[0] == 'F' && is_op(text[1])) {
    preflush = true;
    k = 1;
  }
  if (k >= text.size()) return false;
  out = TraceRwbs{};
  switch (text[k]) {
    case 'R':
      out.op = TraceOp::kRead;
      break;
    case 'W':
      out.op = preflush && sectors == 0 ? TraceOp::kFlush : TraceOp::kWrite;
      break;
    case 'D':
    case 'E':
      out.op = TraceOp::kDiscard;
      break;
    case 'F':  // REQ_OP_FLUSH (the kernel's own flush request: "FF")
      out.op = TraceOp::kFlush;
      break;
    case 'N':
      out.op = TraceOp::kFlush;
      out.is_io = preflush;
      break;
    default:
      return false;
  }
  const bool discard = out.op == TraceOp::kDiscard;
  for (++k; k < text.size(); ++k) {
    switch (text[k]) {
      case 'F':
        out.fua = true;
        break;
      case 'S':
        out.sync = true;
        break;
      case 'E':  // "DE": a secure erase
        if (!discard) return false;
        break;
      case 'A':
      case 'M':
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace flashmark
