// Fuzzes the sysbench fileio importer (ParseSysbenchOutput): any text
// either imports or is refused with an error; an accepted run's intervals
// end after they start.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "store/sysbench_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  flashmark::ImportFile file;
  file.name = "fuzz.txt";
  file.text.assign(reinterpret_cast<const char*>(data), size);
  file.modified_unix_ns = 1'700'000'000'000'000'000;
  auto run = flashmark::ParseSysbenchOutput(file);
  if (!run.ok()) return 0;
  for (const auto& sample : run->run.intervals) {
    if (sample.end_ns < sample.start_ns) std::abort();
  }
  return 0;
}
