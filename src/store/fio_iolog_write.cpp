#include "store/fio_iolog_write.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace flashmark {
namespace {

int64_t IologTimeNs(const TracedIo& io) {
  return io.queue_ns >= 0 ? io.queue_ns : io.issue_ns;
}

const char* IologAction(TraceOp op) {
  switch (op) {
    case TraceOp::kRead:
      return "read";
    case TraceOp::kWrite:
      return "write";
    case TraceOp::kFlush:
      return "sync";
    case TraceOp::kDiscard:
      return "trim";
  }
  return "sync";
}

}  // namespace

std::string FioIologV3Text(const BlockIoTrace& trace) {
  std::vector<std::string> files;
  for (const TraceDevice& device : trace.devices) {
    files.push_back(device.name.starts_with("/") ? device.name
                                                 : "/dev/" + device.name);
  }
  std::vector<size_t> order(trace.ios.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::ranges::stable_sort(order, [&trace](size_t a, size_t b) {
    return IologTimeNs(trace.ios[a]) < IologTimeNs(trace.ios[b]);
  });
  std::string text = "fio version 3 iolog\n";
  for (const std::string& file : files) text += fmt::format("0 {} add\n", file);
  for (const std::string& file : files) {
    text += fmt::format("0 {} open\n", file);
  }
  int64_t last_us = 0;
  for (const size_t k : order) {
    const TracedIo& io = trace.ios[k];
    if (io.device >= files.size()) continue;
    last_us = std::max<int64_t>(0, IologTimeNs(io) / 1000);
    if (io.op == TraceOp::kFlush) {
      text += fmt::format("{} {} sync 0 0\n", last_us, files[io.device]);
    } else {
      text += fmt::format("{} {} {} {} {}\n", last_us, files[io.device],
                          IologAction(io.op), io.offset, io.length);
    }
  }
  for (const std::string& file : files) {
    text += fmt::format("{} {} close\n", last_us, file);
  }
  return text;
}

}  // namespace flashmark
