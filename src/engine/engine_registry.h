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
// "sync, psync, libaio, io_uring, io_uring_cmd, mmap, null"
std::string EngineNames();

// Whether `engine` can be set up here for `depth` IOs in flight with
// `tuning`, asked the way a worker asks it: one instance is created and
// prepared with no files and no buffers (an io_uring ring of that depth
// and its SQPOLL/IOPOLL flags, a libaio context; nothing for synchronous
// engines, which run at depth 1), then dropped, or handed to `kept` when
// given (releasing an AIO context waits out an RCU grace period, ~35 ms
// here: a caller may rather drop it on another thread). A refusal is a
// usage error carrying the engine's message and hint ("use a smaller
// --iodepth"). Call it before laying out targets. Thread-safe.
Status ProbeEngine(const EngineInfo& engine, int depth,
                   const EngineTuning& tuning = {},
                   std::unique_ptr<IoEngine>* kept = nullptr);

}  // namespace flashmark
