#include "app/version_info.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "cluster/mpi_session.h"
#include "common/version.h"
#include "engine/engine_registry.h"

namespace flashmark {
namespace {

struct Feature {
  std::string_view name;
  bool built_in;
  std::string_view detail;  // "liburing 2.3"; "" when none
};

// What this binary can do that another build may not.
std::vector<Feature> Features() {
  static const std::string liburing =
      fmt::format("liburing {}", kLiburingVersion);
  return {{"io_uring", true, liburing},
          {"libaio", true, ""},
          {"mpi", MpiAvailable(), "run --mpi, --hosts"},
          {"live_server", true, "run --serve, serve"}};
}

std::vector<std::string> EngineList() {
  std::vector<std::string> names;
  for (const EngineInfo& engine : Engines()) {
    names.emplace_back(engine.name);
  }
  return names;
}

}  // namespace

std::string VersionLine() {
  return fmt::format("flashmark {} (git {})", kToolVersion, kGitRevision);
}

std::string VersionText() {
  std::string text = VersionLine() + "\n";
  text += fmt::format("build: {}, {}, C++20{}\n", kBuildType, kCompiler,
                      std::string_view(kSanitizers).empty()
                          ? ""
                          : fmt::format(", sanitizers {}", kSanitizers));
  text += fmt::format("engines: {}\n", fmt::join(EngineList(), " "));
  std::vector<std::string> features;
  for (const Feature& f : Features()) {
    features.push_back(fmt::format(
        "{} {}{}", f.name, f.built_in ? "yes" : "no",
        f.detail.empty() || !f.built_in ? "" : fmt::format(" ({})", f.detail)));
  }
  text += fmt::format("features: {}\n", fmt::join(features, ", "));
  return text;
}

nlohmann::json VersionJson() {
  nlohmann::json features = nlohmann::json::object();
  for (const Feature& f : Features()) features[f.name] = f.built_in;
  return {{"schema", "flashmark.version"},
          {"schema_version", 1},
          {"version", kToolVersion},
          {"git_revision", kGitRevision},
          {"git_date", kGitDate},
          {"build_type", kBuildType},
          {"compiler", kCompiler},
          {"sanitizers", kSanitizers},
          {"liburing_version", kLiburingVersion},
          {"engines", EngineList()},
          {"features", features}};
}

}  // namespace flashmark
