#include "app/command_examples.h"

#include <array>
#include <string>

namespace flashmark {
namespace {

struct PathExamples {
  std::string_view path;
  std::span<const CommandExample> examples;
};

constexpr std::array<CommandExample, 3> kTop{{
    {"Ten seconds of 16 KiB random reads on a file set in /mnt/ssd, stored "
     "in ./flashmark.db:",
     "flashmark run /mnt/ssd"},
    {"A self-contained HTML report of run 1 (`flashmark list` shows the "
     "stored runs):",
     "flashmark report 1 --html r.html"},
    {"A campaign of runs, a fresh device per cell (every cell listed first):",
     "flashmark sweep examples/quick.toml --dry-run"},
}};

constexpr std::array<CommandExample, 8> kRun{{
    {"One hour of 16 KiB random writes, 8 threads, libaio, O_DIRECT, 64 "
     "files totalling half the filesystem, JSON kept for later:",
     "flashmark run /mnt/ssd --mode rndwr --engine libaio --iodepth 4 "
     "--direct --threads 8 --file-num 64 --size 50% --time 1h --json "
     "ssd.json"},
    {"Random reads straight from a block device (reading needs no "
     "permission):",
     "flashmark run /dev/nvme0n1 --mode randread --engine io_uring --iodepth "
     "32 --direct"},
    {"Writing a block device destroys it: name the exact device to allow it:",
     "flashmark run /dev/nvme0n1 --mode rndwr --direct "
     "--allow-destroy=/dev/nvme0n1"},
    {"Random writes until SNIA steady state holds, at least an hour and at "
     "most four:",
     "flashmark run /mnt/ssd --mode rndwr --until-steady --min-time 1h "
     "--max-time 4h"},
    {"A cloud volume's burst bucket: the burst rate, how long it lasts, "
     "the baseline after it and the refill rate (idle gaps of growing "
     "length):",
     "flashmark run /dev/nvme1n1 --mode rndrd --engine libaio --iodepth 32 "
     "--direct --time 2h --detect-throttle"},
    {"The engine and runner without any device (diskless):",
     "flashmark run --engine null --iodepth 32 --time 5s"},
    {"An hour of random writes watched live in a browser (the URL is "
     "printed) and by Prometheus at /metrics:",
     "flashmark run /mnt/ssd --mode rndwr --direct --time 1h --serve "
     "127.0.0.1:8080"},
    {"MySQL InnoDB's IO (page reads, redo log commits with fsync, "
     "doublewrite then in-place page writes); the headline is the commit "
     "latency's p99:",
     "flashmark run /mnt/ssd --profile innodb --direct --time 10m"},
}};

constexpr std::array<CommandExample, 2> kAnalyze{{
    {"The headline (the final regime's median and 95 % CI), the regimes, "
     "the warm-up and SNIA steady state of run 7:",
     "flashmark analyze 7"},
    {"The p99 latency after a fixed half-hour warm-up, as JSON:",
     "flashmark analyze 7 --warmup 1800s --metric p99 --json"},
}};

constexpr std::array<CommandExample, 1> kCompare{{
    {"Runs 3 to 6 grouped by their device tag, each against the first, with "
     "confidence intervals:",
     "flashmark compare 3 4 5 6 --by device"},
}};

constexpr std::array<CommandExample, 2> kHistory{{
    {"Run after run of one workload on one device, with the change points "
     "across runs (a firmware update's regression named with its run):",
     "flashmark history --by device=nvme-a,mode=rndwr"},
    {"In CI: one history per device, as JSON, exit 1 when a device's newest "
     "run is more than 5 % worse than its level:",
     "flashmark history --by device --fail-on-regression 5% --json"},
}};

constexpr std::array<CommandExample, 4> kReport{{
    {"One self-contained HTML page of run 7 (no network needed to view it):",
     "flashmark report 7 --html r.html"},
    {"A thread sweep as HTML, Markdown with SVG charts, and the data behind "
     "every chart as CSV:",
     "flashmark report 1 2 3 4 5 --by threads --html sweep.html --md "
     "sweep.md --csv sweep-data/"},
    {"Key figures of two devices in the terminal:",
     "flashmark report 3 4 --by device"},
    {"Box plots and medians per cell of campaign 1:",
     "flashmark report --campaign 1 --html sweep.html"},
}};

constexpr std::array<CommandExample, 3> kSweep{{
    {"Every cell of a campaign, its reset steps and the total time, without "
     "running anything:",
     "flashmark sweep examples/quick.toml --dry-run"},
    {"A fill-size sweep that recreates the filesystem on the device before "
     "each cell:",
     "flashmark sweep examples/fill-sweep.toml --allow-destroy /dev/nvme1n1"},
    {"Resume it after a crash (stored cells are not run again):",
     "flashmark sweep examples/fill-sweep.toml --allow-destroy /dev/nvme1n1 "
     "--resume"},
}};

constexpr std::array<CommandExample, 4> kPts{{
    {"The IOPS test's segments, a round's cells and how long it takes at "
     "best and at worst:",
     "flashmark pts iops /dev/nvme1n1 --dry-run"},
    {"Every test of the specification, one after the other (days):",
     "flashmark pts all /dev/nvme1n1 --allow-destroy /dev/nvme1n1"},
    {"A quick check of the method on a loop device, every duration at 1 %:",
     "flashmark pts iops /dev/loop3 --allow-destroy /dev/loop3 --scale 0.01"},
    {"Continue after a crash (finished rounds are not run again):",
     "flashmark pts all /dev/nvme1n1 --allow-destroy /dev/nvme1n1 --resume"},
}};

constexpr std::array<CommandExample, 1> kImportSysbench{{
    {"Two sysbench fileio outputs, tagged with the device they ran on:",
     "flashmark import sysbench rndwr-8t.txt rndrd-8t.txt --tag "
     "device=ssd-a"},
}};

constexpr std::array<CommandExample, 1> kImportFio{{
    {"A fio JSON output with its per-interval logs, one run per job:",
     "flashmark import fio randrw.json --logs logs/randrw --label card-a"},
}};

constexpr std::array<CommandExample, 1> kImportFioIolog{{
    {"An fio iolog (fio --write_iolog) as a block IO trace:",
     "flashmark import fio-iolog randwrite.iolog"},
}};

constexpr std::array<CommandExample, 1> kImportBlktrace{{
    {"blkparse's text output as a block IO trace:",
     "flashmark import blktrace sdb.blkparse.txt"},
}};

constexpr std::array<CommandExample, 2> kCapture{{
    {"Capture every block IO of /dev/sdb for a minute, stored and summarised:",
     "flashmark capture /dev/sdb --time 60s"},
    {"Capture what process 4242 (a database) does until Ctrl-C or its exit, "
     "also as an fio iolog for fio --read_iolog:",
     "flashmark capture --pid 4242 -o db.iolog"},
}};

constexpr std::array<CommandExample, 1> kImportFlashmark{{
    {"The document a cluster rank kept of its own run, into its group:",
     "flashmark import flashmark run-2.json"},
}};

constexpr std::array<CommandExample, 4> kReplay{{
    {"Trace 1 (`flashmark list --traces`) onto a file, each IO at its "
     "recorded time, with its fidelity:",
     "flashmark replay 1 /mnt/ssd/replay.img"},
    {"As fast as possible at the recorded queue depth, onto a block device "
     "smaller than the traced one:",
     "flashmark replay 1 /dev/nvme1n1 --timing afap --map modulo "
     "--allow-destroy /dev/nvme1n1"},
    {"Twice as fast as recorded, two traced devices onto two files:",
     "flashmark replay 2 a.img b.img --timing scaled:2"},
    {"Onto a file set of 64 files in a directory:",
     "flashmark replay 1 /mnt/ssd/dir --file-num 64"},
}};

constexpr std::array<CommandExample, 2> kVerify{{
    {"Read back a file set written with --verify --keep-files and check "
     "every block:",
     "flashmark verify /mnt/ssd"},
    {"The same with O_DIRECT, the findings as JSON:",
     "flashmark verify /mnt/ssd --direct --json check.json"},
}};

constexpr std::array<CommandExample, 1> kCleanup{{
    {"Remove a kept file set, its generation map and manifest:",
     "flashmark cleanup /mnt/ssd"},
}};

constexpr std::array<CommandExample, 2> kDevices{{
    {"Every block device, what is on it and whether flashmark would write "
     "it:",
     "flashmark devices"},
    {"The same for scripts:", "flashmark devices --json"},
}};

constexpr std::array<CommandExample, 2> kList{{
    {"The runs tagged device=ssd-a that ended well, since November:",
     "flashmark list --tag device=ssd-a --status ok --since 2026-11-01"},
    {"The campaigns and their cells' status:", "flashmark list --campaigns"},
}};

constexpr std::array<CommandExample, 1> kShow{{
    {"Config, environment and summary of run 7, and the command that "
     "repeats it:",
     "flashmark show 7"},
}};

constexpr std::array<CommandExample, 3> kExport{{
    {"Every interval of run 7 as CSV:", "flashmark export 7 --format csv"},
    {"The whole run as JSON, written to a file:",
     "flashmark export 7 --format json -o run7.json"},
    {"Its latency histograms per interval as an HdrHistogram log:",
     "flashmark export 7 --format hdr -o run7.hlog"},
}};

constexpr std::array<CommandExample, 2> kServe{{
    {"The live report page and /metrics of the newest run in ./runs.db, "
     "also while another process records it:",
     "flashmark serve --db runs.db"},
    {"Runs 3 and 4 on port 8080 of every interface, a token required:",
     "flashmark serve 3 4 --db runs.db --listen 0.0.0.0:8080 --serve-token "
     "SECRET"},
}};

constexpr std::array<CommandExample, 1> kDelete{{
    {"Delete run 7 from the store:", "flashmark delete 7"},
}};

constexpr std::array<CommandExample, 2> kTag{{
    {"File runs 3 and 4 under a device name and a price, for compare and "
     "report --by:",
     "flashmark tag 3 4 device=ssd-a price=350"},
    {"Remove the note tag of run 7:", "flashmark tag 7 --remove note"},
}};

constexpr std::array<CommandExample, 2> kCompletion{{
    {"Complete flashmark's commands and options in this bash session:",
     "source <(flashmark completion bash)"},
    {"Install the zsh completion for this user (a directory on $fpath):",
     "flashmark completion zsh > ~/.zfunc/_flashmark"},
}};

constexpr std::array<PathExamples, 26> kExamples{{
    {"", kTop},
    {"run", kRun},
    {"analyze", kAnalyze},
    {"compare", kCompare},
    {"history", kHistory},
    {"report", kReport},
    {"sweep", kSweep},
    {"pts", kPts},
    {"import sysbench", kImportSysbench},
    {"import fio", kImportFio},
    {"import flashmark", kImportFlashmark},
    {"import fio-iolog", kImportFioIolog},
    {"import blktrace", kImportBlktrace},
    {"capture", kCapture},
    {"replay", kReplay},
    {"verify", kVerify},
    {"cleanup", kCleanup},
    {"devices", kDevices},
    {"list", kList},
    {"show", kShow},
    {"export", kExport},
    {"delete", kDelete},
    {"tag", kTag},
    {"serve", kServe},
    {"completion", kCompletion},
    {"import", {}},
}};

}  // namespace

std::span<const CommandExample> CommandExamples(std::string_view path) {
  for (const PathExamples& entry : kExamples) {
    if (entry.path == path) return entry.examples;
  }
  return {};
}

std::string ExamplesFooter(std::span<const CommandExample> examples) {
  if (examples.empty()) return "";
  std::string footer = "Examples:";
  for (const CommandExample& example : examples) {
    footer += "\n  ";
    footer += example.what;
    footer += "\n    ";
    footer += example.command;
  }
  return footer;
}

}  // namespace flashmark
