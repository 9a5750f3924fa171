// `flashmark cleanup DIR` (sysbench fileio's `cleanup`): removes the file
// set flashmark laid out in DIR, its generation map and its manifest;
// only files the manifest records (name, inode, size: system/file_set.h)
// go, through the directory opened once. It is how a user allows a read
// run to lay out a new set where one exists. Exit 0 when the set is gone,
// 1 when a listed file was left because it is not flashmark's (the
// manifest then stays), 2 when DIR holds no set flashmark can remove.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace flashmark {

struct CleanupOptions {
  std::string directory;
};

CLI::App* AddCleanupCommand(CLI::App& app, CleanupOptions& options);
int ExecuteCleanup(const CleanupOptions& options);

}  // namespace flashmark
