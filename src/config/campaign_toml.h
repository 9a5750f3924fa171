// The campaign loader's pieces over toml++'s tree (campaign_spec.cpp holds
// the [campaign], [workload] and [targets] sections; campaign_matrix.cpp
// and campaign_reset.cpp the rest). Every error starts with the
// "FILE:LINE:COLUMN:" of the node it is about. Internal to src/config.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "config/campaign_env.h"
#include "config/campaign_keys.h"
#include "config/campaign_spec.h"
#include "config/toml_include.h"

namespace flashmark::campaign {

// What every reader needs: the file name for positions, the environment.
struct Context {
  std::string path;
  EnvironmentLookup environment;
};

// The keys of each fixed section.
inline constexpr std::array<std::string_view, 7> kTopLevelKeys{
    "campaign", "workload", "targets", "matrix",
    "reset",    "cluster",  "analysis"};
inline constexpr std::array<std::string_view, 6> kCampaignKeys{
    "name", "description", "repeats", "order", "seed", "steady-state"};
inline constexpr std::array<std::string_view, 2> kTargetsKeys{"paths",
                                                              "devices"};
inline constexpr std::array<std::string_view, 2> kClusterKeys{"hosts",
                                                              "launcher"};
inline constexpr std::array<std::string_view, 5> kAnalysisKeys{
    "warmup", "metric", "round", "min-segment", "gate"};

// "FILE:LINE:COLUMN".
std::string Where(const Context& context, const toml::source_region& where);
Error ErrorAt(const Context& context, const toml::source_region& where,
              std::string message, std::string hint = {});

// "a string", "an integer", "a table"...
std::string_view TypeName(const toml::node& node);

// The first key of `table` that is not in `known`, as an error naming
// `section` ("[workload]", or a phrase: "at the top level"). The hint says
// where a misplaced key belongs (a sweep option, a key of another section),
// else suggests the closest known key, else lists them.
Status CheckKeys(const Context& context, const toml::table& table,
                 std::string_view section,
                 std::span<const std::string_view> known);

// Keys of `table` in the order they were written (toml++ sorts them).
std::vector<std::pair<const toml::key*, const toml::node*>> InFileOrder(
    const toml::table& table);

// A value's text: strings as they are, numbers as written in decimal.
// Booleans, arrays, tables and dates are refused, naming `what`.
Result<std::string> ScalarText(const Context& context, const toml::node& node,
                               std::string_view what);
Result<std::string> StringValue(const Context& context, const toml::node& node,
                                std::string_view what);
// A string, or a list of strings when `single_ok` is false only as a list.
Result<std::vector<std::string>> StringList(const Context& context,
                                            const toml::node& node,
                                            std::string_view what,
                                            bool single_ok);
// `text` with $VAR expanded; errors at the node. Empty results refused.
Result<std::string> ExpandAt(const Context& context, const toml::node& node,
                             std::string_view what, const std::string& text);

// A run option's value from the file: text for valued options, true/false
// for flags, checked on its own (CheckCampaignOptionValue).
Result<std::string> OptionValue(const Context& context, const toml::node& node,
                                const CampaignOption& option);

// Every key of `table` set as a run option in `options`; `section` names
// it in errors. Aliases and canonical names may not both be given.
Status ReadOptions(const Context& context, const toml::table& table,
                   std::string_view section, RunOptions& options);

// [matrix]: the axes in file order.
Result<std::vector<MatrixAxis>> ReadMatrix(const Context& context,
                                           const toml::table& matrix);

// A table of matrix parameters and their values (a reset step's `when`,
// the steady state's `where`), each checked against the `matrix`;
// `what` names the key in errors.
Result<CellFilter> ReadCellFilter(const Context& context,
                                  const toml::node& node,
                                  const std::vector<MatrixAxis>& matrix,
                                  std::string_view what);

// [campaign.steady-state] (`node`), read once the matrix is known.
Result<RoundSteadyState> ReadRoundSteadyState(
    const Context& context, const toml::node& node,
    const std::vector<MatrixAxis>& matrix);

// [[reset]]: the steps in order.
// `when` filters are checked against the `matrix` values.
Result<std::vector<ResetStep>> ReadResetSteps(
    const Context& context, const toml::node& reset,
    const std::vector<MatrixAxis>& matrix);

}  // namespace flashmark::campaign
