// ProbeEngine: the engine is set up once, without files, before any target
// is laid out; a refused queue depth is a usage error with the engine's
// hint. Real io_uring and libaio where the kernel offers them.
#include <gtest/gtest.h>

#include "engine/engine_registry.h"

namespace flashmark {
namespace {

TEST(ProbeEngine, EveryEngineSetsUpAtDepthOne) {
  for (const EngineInfo& engine : Engines()) {
    Status probed = ProbeEngine(engine, 1);
    if (!probed.ok() &&
        (engine.name == "io_uring" || engine.name == "libaio")) {
      continue;  // the kernel or a container may not offer it
    }
    EXPECT_TRUE(probed.ok()) << engine.name << ": " << probed.error().message;
  }
}

TEST(ProbeEngine, SynchronousEnginesIgnoreTheDepth) {
  EXPECT_TRUE(ProbeEngine(*FindEngine("psync"), 65536).ok());
  EXPECT_TRUE(ProbeEngine(*FindEngine("null"), 65536).ok());
}

TEST(ProbeEngine, AnIoUringRingBeyondTheKernelsLimitIsAUsageError) {
  const EngineInfo& engine = *FindEngine("io_uring");
  if (!ProbeEngine(engine, 1).ok())
    GTEST_SKIP() << "io_uring is unavailable here";
  Status probed = ProbeEngine(engine, 65536);  // the kernel takes up to 32768
  ASSERT_FALSE(probed.ok());
  EXPECT_EQ(probed.error().exit_code, kUsageExit);
  EXPECT_NE(probed.error().message.find("depth 65536"), std::string::npos)
      << probed.error().message;
  EXPECT_NE(probed.error().hint.find("--iodepth"), std::string::npos);
}

}  // namespace
}  // namespace flashmark
