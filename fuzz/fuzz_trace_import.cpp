// Fuzzes the block IO trace importers (ParseFioIolog, ParseBlkparseText,
// ParseBlktraceBinary on the same bytes as a binary file):
// any text either imports or is refused with an error; an accepted trace
// has IOs in issue order, each on a device it names, completed (when at
// all) no earlier than issued, and its packed form reads back the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "store/blkparse_import.h"
#include "store/blktrace_binary.h"
#include "store/fio_iolog_import.h"
#include "store/trace_store.h"

namespace {

void Check(const flashmark::BlockIoTrace& trace) {
  int64_t last = INT64_MIN;
  for (const auto& io : trace.ios) {
    if (io.issue_ns < last) std::abort();
    last = io.issue_ns;
    if (io.device >= trace.devices.size()) std::abort();
    if (io.complete_ns >= 0 && io.complete_ns < io.issue_ns) std::abort();
  }
  const auto packed =
      flashmark::PackTracedIos(trace.ios.data(), trace.ios.size());
  auto back = flashmark::UnpackTracedIos(packed);
  if (!back.ok() || back->size() != trace.ios.size()) std::abort();
  for (size_t i = 0; i < back->size(); ++i) {
    const auto& a = trace.ios[i];
    const auto& b = (*back)[i];
    if (a.issue_ns != b.issue_ns || a.offset != b.offset ||
        a.length != b.length || a.op != b.op || a.device != b.device)
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flashmark::ImportFile file;
  file.name = "fuzz.txt";
  file.text.assign(reinterpret_cast<const char*>(data), size);
  file.modified_unix_ns = 1'700'000'000'000'000'000;
  if (auto trace = flashmark::ParseFioIolog(file); trace.ok()) Check(*trace);
  if (auto trace = flashmark::ParseBlkparseText(file); trace.ok())
    Check(*trace);
  if (auto trace = flashmark::ParseBlktraceBinary({file}); trace.ok())
    Check(*trace);
  return 0;
}
