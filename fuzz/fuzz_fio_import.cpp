// Fuzzes the fio JSON / JSON+ importer (ParseFioJson, without logs): any
// text either imports or is refused with an error; accepted runs have
// intervals that end after they start.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "store/fio_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flashmark::ImportFile file;
  file.name = "fuzz.json";
  file.text.assign(reinterpret_cast<const char*>(data), size);
  file.modified_unix_ns = 1'700'000'000'000'000'000;
  auto runs = flashmark::ParseFioJson(file);
  if (!runs.ok()) return 0;
  for (const auto& stored : *runs) {
    for (const auto& sample : stored.run.intervals) {
      if (sample.end_ns < sample.start_ns) std::abort();
    }
  }
  return 0;
}
