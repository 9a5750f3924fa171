// The explicit table of IO engines (no static registration). Stateless.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "engine/io_engine.h"

namespace flashmark {

struct EngineInfo {
  std::string_view name;
  std::string_view summary;  // one line for --help and errors
  uint32_t capabilities;
  std::unique_ptr<IoEngine> (*create)();
};

std::span<const EngineInfo> Engines();
// nullptr when unknown.
const EngineInfo* FindEngine(std::string_view name);
// "sync, psync, libaio, io_uring, mmap, null"
std::string EngineNames();

}  // namespace flashmark
