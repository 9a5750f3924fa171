#include "app/cleanup_command.h"

#include <fmt/format.h>

#include <iostream>

#include "app/print_error.h"
#include "common/units.h"
#include "system/file_set.h"
#include "system/target_directory.h"

namespace flashmark {

CLI::App* AddCleanupCommand(CLI::App& app, CleanupOptions& o) {
  CLI::App* cleanup = app.add_subcommand(
      "cleanup",
      "Remove the file set flashmark laid out in DIR (its files, generation "
      "map and manifest; nothing else)");
  cleanup->add_option("DIR", o.directory, "the file set's directory")
      ->required();
  return cleanup;
}

int ExecuteCleanup(const CleanupOptions& o) {
  auto directory = TargetDirectory::Open(o.directory);
  if (!directory.ok()) return PrintError(directory.error());
  auto removed = RemoveFileSet(*directory);
  if (!removed.ok()) return PrintError(removed.error());
  std::cout << fmt::format(
      "removed {} file{} ({}){}{} from {}\n", removed->files,
      removed->files == 1 ? "" : "s", FormatBytes(removed->bytes),
      removed->map ? ", the generation map" : "",
      removed->manifest ? ", the manifest" : "", o.directory);
  if (removed->left.empty()) return 0;
  for (const std::string& left : removed->left) {
    std::cerr << fmt::format("warning: left {}\n", left);
  }
  return PrintError(RuntimeError(
      fmt::format("{} file{} listed in {} {} not flashmark's; it and the "
                  "manifest stay",
                  removed->left.size(), removed->left.size() == 1 ? "" : "s",
                  directory->PathOf(kManifestName),
                  removed->left.size() == 1 ? "is" : "are"),
      "remove them yourself if they may go"));
}

}  // namespace flashmark
