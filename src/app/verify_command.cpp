#include "app/verify_command.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "app/print_error.h"
#include "common/atomic_file.h"
#include "common/json_text.h"
#include "common/units.h"
#include "report/verify_json.h"
#include "report/verify_report.h"
#include "runner/verify_pass.h"
#include "system/file_set.h"
#include "system/generation_map_file.h"
#include "system/output_path.h"

namespace flashmark {
namespace {

// Closes the descriptors it holds.
struct OpenFiles {
  std::vector<IoFile> files;
  ~OpenFiles() {
    for (const IoFile& file : files) {
      if (file.fd >= 0) close(file.fd);
    }
  }
};

}  // namespace

CLI::App* AddVerifyCommand(CLI::App& app, VerifyOptions& o) {
  CLI::App* verify = app.add_subcommand(
      "verify",
      "Read back a file set written with --verify --keep-files and check "
      "every block");
  verify->add_option("DIR", o.target, "the file set's directory")->required();
  verify->add_flag("--direct", o.direct,
                   "read with O_DIRECT: what the device holds, not the page "
                   "cache");
  verify->add_option("--show", o.show, "bad blocks listed in detail [20]");
  verify->add_option("--json", o.json_path,
                     "write the outcome, every listed bad block included, as "
                     "JSON to FILE");
  return verify;
}

int ExecuteVerify(const VerifyOptions& o) {
  std::string json_path;  // symlinks resolved
  if (!o.json_path.empty()) {
    auto checked =
        CheckOutputPath("--json", o.json_path, OutputKind::kDocument);
    if (!checked.ok()) return PrintError(checked.error());
    json_path = checked->real;
  }
  auto directory = TargetDirectory::OpenForReading(o.target);
  if (!directory.ok()) return PrintError(directory.error());
  auto stored = ReadGenerationMap(*directory);
  if (!stored.ok()) return PrintError(stored.error());
  if (!stored->has_value()) {
    return PrintError(UsageError(
        fmt::format("no generation map ({}) in {}: nothing was written there "
                    "with --verify, or the files were not kept",
                    kGenerationMapName, o.target),
        fmt::format("write with `flashmark run {} --mode rndwr --verify "
                    "--keep-files` first",
                    o.target)));
  }
  StoredGenerationMap& generations = **stored;
  const GenerationMap& map = *generations.map;
  OpenFiles open_files;
  for (uint32_t i = 0; i < map.file_count(); ++i) {
    const std::string path = directory->PathOf(generations.file_names[i]);
    int fd =
        openat(directory->fd(), generations.file_names[i].c_str(),
               O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (o.direct ? O_DIRECT : 0));
    if (fd < 0 && errno == ENOENT) {
      // A removed file reads as empty: every block written there is lost.
      std::cerr << fmt::format("warning: {} is missing\n", path);
      fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0) {
      return PrintError(RuntimeError(
          fmt::format("cannot open {}: {}", path, std::strerror(errno)),
          o.direct ? "try without --direct" : ""));
    }
    open_files.files.push_back(IoFile{fd, map.file_size(i), path});
  }
  std::cout << fmt::format(
      "verifying {}: {} files, {} blocks of {} written with --verify\n",
      o.target, map.file_count(), map.CheckableCount(),
      FormatBytes(map.block_bytes()));
  VerifyOutcome outcome;
  outcome.enabled = true;
  outcome.block_bytes = map.block_bytes();
  MismatchLog log(std::max(o.show, 0) + MismatchLog::kDefaultCapacity);
  const Status passed = RunVerifyPass(open_files.files, map, log, outcome);
  log.MoveInto(outcome);
  PrintVerifyOutcome(std::nullopt, outcome, std::cout,
                     static_cast<size_t>(std::max(o.show, 0)));
  if (!o.json_path.empty()) {
    if (Status written = WriteFileAtomically(
            json_path, JsonText(VerifyJson(o.target, outcome), 2) + "\n");
        !written.ok()) {
      return PrintError(written.error());
    }
  }
  if (!passed.ok()) return PrintError(passed.error());
  if (!outcome.read_back_complete) return kInterruptedExit;
  const uint64_t bad = outcome.read_back.bad();
  if (bad != 0) {
    std::cerr << fmt::format("error: {} bad block{} in {}\n", bad,
                             bad == 1 ? "" : "s", o.target);
    return kRuntimeExit;
  }
  return 0;
}

}  // namespace flashmark
