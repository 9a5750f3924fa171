// `flashmark verify DIR`: reads back every block of a file set that a
// --verify run (with --keep-files) wrote, checks each against the
// generation map left in DIR/flashmark.verify, and reports torn,
// misdirected and lost blocks with their exact file and offset. Exit 0 when
// every block is good, 1 when any is bad (or a read fails), 2 on usage
// errors (no map there). --json FILE keeps the outcome as a document
// ("schema": "flashmark.verify") with every listed bad block.
//
// The map handling of `flashmark run` is in campaign/run_generations.h.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace flashmark {

struct VerifyOptions {
  std::string target;
  bool direct = false;
  int show = 20;
  std::string json_path;  // "" = none
};

CLI::App* AddVerifyCommand(CLI::App& app, VerifyOptions& options);
int ExecuteVerify(const VerifyOptions& options);

}  // namespace flashmark
