#include "engine/io_engine.h"

#include <fmt/format.h>

namespace flashmark {

Status CheckTuning(std::string_view engine, uint32_t capabilities,
                   const EngineTuning& tuning) {
  struct Need {
    bool wanted;
    uint32_t capability;
    const char* option;
  };
  const Need needs[] = {
      {tuning.fixed_buffers, kCapFixedBuffers, "--fixedbufs"},
      {tuning.sqpoll, kCapSqPoll, "--sqpoll"},
      {tuning.sqpoll_cpu >= 0, kCapSqPoll, "--sqpoll-cpu"},
      {tuning.hipri, kCapPolledIo, "--hipri"},
  };
  for (const Need& need : needs) {
    if (need.wanted && (capabilities & need.capability) == 0) {
      return UsageError(fmt::format("{}: the {} engine has no such mode",
                                    need.option, engine),
                        fmt::format("{} needs --engine io_uring", need.option));
    }
  }
  return OkStatus();
}

}  // namespace flashmark
