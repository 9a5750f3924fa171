#include "app/first_steps.h"

#include "common/version.h"

namespace flashmark {

std::string StartPageText() {
  return std::string("flashmark ") + kToolVersion +
         " - a storage benchmark for flash devices: it runs a workload, "
         "records every\nsecond and reports the median with its spread and "
         "latency percentiles.\n"
         "\n"
         "Start here:\n"
         "  flashmark run --engine null --time 5s     try it: no device "
         "touched\n"
         "  flashmark run /mnt/ssd --time 1m          16 KiB random reads on "
         "a file set in\n"
         "                                            /mnt/ssd (laid out, "
         "then removed)\n"
         "  flashmark devices                         what is attached, and "
         "what is safe to write\n"
         "Then:\n"
         "  flashmark list                            the runs stored in "
         "./flashmark.db\n"
         "  flashmark analyze 1                       run 1's headline: "
         "warm-up, steady state, regimes\n"
         "  flashmark report 1 2 --html report.html   charts and tables of "
         "runs 1 and 2\n"
         "  flashmark compare 1 2                     run 2 against run 1, "
         "with a confidence interval\n"
         "  flashmark sweep examples/quick.toml       a 1-minute campaign: "
         "2 modes x 3 thread\n"
         "                                            counts, one stored run "
         "a cell\n"
         "\n"
         "Every command: flashmark --help; one command's options: flashmark "
         "COMMAND --help\n"
         "(and man flashmark-COMMAND once installed).\n";
}

std::string RunTargetExamplesText() {
  return "name what to measure, for example:\n"
         "  flashmark run /mnt/ssd --time 1m              a file set in a "
         "directory (laid out, then\n"
         "                                                removed; --size 50% "
         "fills half the space)\n"
         "  flashmark run /mnt/ssd/data.bin --mode rndwr  an existing file\n"
         "  flashmark run /dev/nvme0n1 --direct           reads straight from "
         "a block device\n"
         "  flashmark run --engine null --time 5s         no device at all: "
         "the engine and runner alone\n"
         "  flashmark devices                             which devices are "
         "attached, and which are safe to write\n";
}

}  // namespace flashmark
