// `flashmark import sysbench FILE...`, `flashmark import fio FILE.json
// [--logs PREFIX]` and `flashmark import flashmark FILE.json...` (run
// documents kept outside the store); `flashmark import fio-iolog|blktrace
// FILE...` block IO traces (app/trace_commands.h). Results into the same
// store, where they
// list, analyse, compare and report like flashmark's own runs. Each file
// is one transaction (all its runs or none); a file imported before (same
// SHA-256) is refused unless --again. Bad files are usage errors naming
// the file and line (or JSON path); the other files are still imported,
// and the exit status is 2 when any file was refused.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flashmark {

struct ImportOptions {
  std::optional<std::string> db;
  std::vector<std::string> files;
  std::optional<std::string> logs;  // fio: the write_*_log prefix
  std::string label;
  std::vector<std::string> tags;     // "key=value"
  std::optional<std::string> price;  // --price: the tag price=
  bool again = false;
};

struct ImportCommands {
  CLI::App* sysbench = nullptr;
  CLI::App* fio = nullptr;
  CLI::App* flashmark = nullptr;
  CLI::App* fio_iolog = nullptr;  // traces (app/trace_commands.h)
  CLI::App* blktrace = nullptr;
};

ImportCommands AddImportCommand(CLI::App& app, ImportOptions& options);
int ExecuteImport(const ImportCommands& commands, const ImportOptions& options);

}  // namespace flashmark
