#include "engine/engine_registry.h"

#include <algorithm>
#include <string>

#include "engine/io_uring_engine.h"
#include "engine/libaio_engine.h"
#include "engine/mmap_engine.h"
#include "engine/null_engine.h"
#include "engine/sync_engine.h"

namespace flashmark {
namespace {

template <typename Engine>
std::unique_ptr<IoEngine> Make() {
  return std::make_unique<Engine>();
}

std::unique_ptr<IoEngine> MakeSeekSync() {
  return std::make_unique<SyncEngine>(SyncEngine::Kind::kSeek);
}

std::unique_ptr<IoEngine> MakePositionalSync() {
  return std::make_unique<SyncEngine>(SyncEngine::Kind::kPositional);
}

std::unique_ptr<IoEngine> MakeNvmeCommands() {
  return std::make_unique<IoUringEngine>(IoUringEngine::Kind::kNvmeCommands);
}

// The order is the order of EngineNames() and of --help.
constexpr EngineInfo kEngines[] = {
    {"sync", "lseek() + read()/write(), one IO at a time",
     SyncEngine::kCapabilities, &MakeSeekSync},
    {"psync", "pread()/pwrite(), one IO at a time (sysbench's default)",
     SyncEngine::kCapabilities, &MakePositionalSync},
    {"libaio", "Linux native AIO (io_submit); asynchronous with O_DIRECT",
     LibaioEngine::kCapabilities, &Make<LibaioEngine>},
    {"io_uring", "io_uring with registered files, batched submit and reap",
     IoUringEngine::kCapabilities, &Make<IoUringEngine>},
    {"io_uring_cmd",
     "NVMe passthrough: io_uring NVMe commands to /dev/ngXnY, no block "
     "layer",
     IoUringEngine::kCommandCapabilities, &MakeNvmeCommands},
    {"mmap", "memcpy to and from a shared mapping; no O_DIRECT",
     MmapEngine::kCapabilities, &Make<MmapEngine>},
    {"null", "diskless: completes every IO at once, touches no file",
     NullEngine::kCapabilities, &Make<NullEngine>},
};

}  // namespace

std::span<const EngineInfo> Engines() { return kEngines; }

const EngineInfo* FindEngine(std::string_view name) {
  for (const EngineInfo& info : kEngines) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string EngineNames() {
  std::string names;
  for (const EngineInfo& info : kEngines) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

Status ProbeEngine(const EngineInfo& engine, int depth,
                   const EngineTuning& tuning,
                   std::unique_ptr<IoEngine>* kept) {
  std::unique_ptr<IoEngine> probe = engine.create();
  const int used = (probe->capabilities() & kCapAsync) ? std::max(1, depth) : 1;
  EngineSetup setup;
  setup.depth = used;
  setup.tuning = tuning;
  Status prepared = probe->Prep(setup);
  if (prepared.ok()) {
    if (kept != nullptr) *kept = std::move(probe);
    return prepared;
  }
  Error error = prepared.error();
  error.exit_code = kUsageExit;
  return error;
}

}  // namespace flashmark
