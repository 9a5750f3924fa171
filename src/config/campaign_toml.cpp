#include "config/campaign_toml.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace flashmark::campaign {

std::string Where(const Context& context, const toml::source_region& where) {
  return fmt::format("{}:{}:{}", context.path, where.begin.line,
                     where.begin.column);
}

Error ErrorAt(const Context& context, const toml::source_region& where,
              std::string message, std::string hint) {
  return UsageError(fmt::format("{}: {}", Where(context, where), message),
                    std::move(hint));
}

std::string_view TypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "true or false";
    case toml::node_type::array:
      return "a list";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time:
      return "a date or time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

std::vector<std::pair<const toml::key*, const toml::node*>> InFileOrder(
    const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> keys;
  for (const auto& [key, node] : table) keys.emplace_back(&key, &node);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    const toml::source_position& x = a.first->source().begin;
    const toml::source_position& y = b.first->source().begin;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  return keys;
}

namespace {

bool Contains(std::span<const std::string_view> keys, std::string_view name) {
  return std::find(keys.begin(), keys.end(), name) != keys.end();
}

// Where a key that is known elsewhere belongs, or "".
std::string Elsewhere(std::string_view name, std::string_view section) {
  if (std::string_view hint = MisplacedKeyHint(name); !hint.empty()) {
    return std::string(hint);
  }
  auto belongs = [&](std::string_view other) {
    return fmt::format("{} belongs in {}", name, other);
  };
  if (section != "[workload]" && FindCampaignOption(name) != nullptr) {
    return belongs("[workload] (or a [matrix] axis)");
  }
  if (section != "[campaign]" && Contains(kCampaignKeys, name)) {
    return belongs("[campaign]");
  }
  if (section != "[targets]" && Contains(kTargetsKeys, name)) {
    return belongs("[targets]");
  }
  return {};
}

}  // namespace

Status CheckKeys(const Context& context, const toml::table& table,
                 std::string_view section,
                 std::span<const std::string_view> known) {
  for (const auto& [key, node] : InFileOrder(table)) {
    const std::string_view name = key->str();
    if (Contains(known, name)) continue;
    std::string hint = Elsewhere(name, section);
    if (hint.empty()) hint = SuggestKey(name, known);
    const std::string place = section.starts_with("[")
                                  ? fmt::format("in {}", section)
                                  : std::string(section);
    return ErrorAt(context, key->source(),
                   fmt::format("unknown key \"{}\" {}", name, place), hint);
  }
  return OkStatus();
}

Result<std::string> ScalarText(const Context& context, const toml::node& node,
                               std::string_view what) {
  if (const auto* text = node.as_string()) return text->get();
  if (const auto* integer = node.as_integer()) {
    return std::to_string(integer->get());
  }
  if (const auto* number = node.as_floating_point()) {
    return fmt::format("{}", number->get());
  }
  return ErrorAt(context, node.source(),
                 fmt::format("{}: expected a number or a string, got {}", what,
                             TypeName(node)));
}

Result<std::string> StringValue(const Context& context, const toml::node& node,
                                std::string_view what) {
  if (const auto* text = node.as_string()) return text->get();
  return ErrorAt(
      context, node.source(),
      fmt::format("{}: expected a string, got {}", what, TypeName(node)));
}

Result<std::vector<std::string>> StringList(const Context& context,
                                            const toml::node& node,
                                            std::string_view what,
                                            bool single_ok) {
  if (single_ok && node.is_string()) {
    return std::vector<std::string>{node.as_string()->get()};
  }
  const auto* list = node.as_array();
  if (list == nullptr) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: expected a list of strings, got {}", what,
                               TypeName(node)),
                   fmt::format("write {} = [\"...\"]", what));
  }
  std::vector<std::string> strings;
  for (const toml::node& element : *list) {
    auto text = StringValue(context, element, what);
    if (!text.ok()) return text.error();
    strings.push_back(*text);
  }
  return strings;
}

Result<std::string> ExpandAt(const Context& context, const toml::node& node,
                             std::string_view what, const std::string& text) {
  auto expanded = ExpandEnvironment(text, context.environment);
  if (!expanded.ok()) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: {}", what, expanded.error().message),
                   expanded.error().hint);
  }
  if (expanded->empty()) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: \"{}\" is empty", what, text));
  }
  return *expanded;
}

Result<std::string> OptionValue(const Context& context, const toml::node& node,
                                const CampaignOption& option) {
  std::string text;
  if (option.flag != nullptr) {
    const auto* flag = node.as_boolean();
    if (flag == nullptr) {
      return ErrorAt(context, node.source(),
                     fmt::format("{}: expected true or false, got {}",
                                 option.name, TypeName(node)),
                     fmt::format("write {} = true", option.name));
    }
    text = flag->get() ? "true" : "false";
  } else {
    auto scalar = ScalarText(context, node, option.name);
    if (!scalar.ok()) return scalar.error();
    text = *scalar;
  }
  if (Status ok = CheckCampaignOptionValue(option, text); !ok.ok()) {
    return ErrorAt(context, node.source(), ok.error().message, ok.error().hint);
  }
  return text;
}

Status ReadOptions(const Context& context, const toml::table& table,
                   std::string_view section, RunOptions& options) {
  const std::vector<std::string_view> names = CampaignOptionNames();
  if (Status ok = CheckKeys(context, table, section, names); !ok.ok()) {
    return ok;
  }
  std::map<std::string_view, std::string_view>
      given;  // canonical -> as written
  for (const auto& [key, node] : InFileOrder(table)) {
    const CampaignOption* option = FindCampaignOption(key->str());
    auto [it, fresh] = given.emplace(option->name, key->str());
    if (!fresh) {
      return ErrorAt(context, key->source(),
                     fmt::format("{} given twice in {} (as {} and {})",
                                 option->name, section, it->second, key->str()),
                     "keep one of them");
    }
    auto value = OptionValue(context, *node, *option);
    if (!value.ok()) return value.error();
    ApplyCampaignOption(*option, *value, options);
  }
  return OkStatus();
}

}  // namespace flashmark::campaign
