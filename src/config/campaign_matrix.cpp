// [matrix]: option axes (lists and ranges), the target axis, grouped axes.
#include <fmt/format.h>

#include <map>

#include "common/shell_quote.h"
#include "common/units.h"
#include "config/campaign_toml.h"
#include "config/tag_options.h"

namespace flashmark::campaign {
namespace {

// Which axis sets each option, to refuse two axes over one option.
using Owners = std::map<std::string, std::string>;

Status Claim(const Context& context, const toml::source_region& where,
             Owners& owners, std::string_view option, std::string_view axis) {
  auto [it, fresh] = owners.emplace(option, axis);
  if (fresh) return OkStatus();
  return ErrorAt(context, where,
                 fmt::format("{} is set by two matrix axes ({} and {})", option,
                             it->second, axis),
                 "give each option one axis; a grouped axis sets several "
                 "options together");
}

// One value or range of a plain axis, checked, appended to `values`.
Status AddValues(const Context& context, const toml::node& node,
                 const CampaignOption& option,
                 std::vector<std::string>& values) {
  const auto* text = node.as_string();
  if (text == nullptr || !IsRangeText(text->get()) || option.flag != nullptr) {
    auto value = OptionValue(context, node, option);
    if (!value.ok()) return value.error();
    values.push_back(*value);
    return OkStatus();
  }
  auto range = ExpandRangeAs(text->get(), option.range);
  if (!range.ok()) {
    return ErrorAt(context, node.source(),
                   fmt::format("{}: {}", option.name, range.error().message),
                   range.error().hint);
  }
  for (const std::string& value : *range) {
    if (Status ok = CheckCampaignOptionValue(option, value); !ok.ok()) {
      return ErrorAt(context, node.source(),
                     fmt::format("{} (a value of \"{}\")", ok.error().message,
                                 text->get()),
                     ok.error().hint);
    }
  }
  values.insert(values.end(), range->begin(), range->end());
  return OkStatus();
}

Result<MatrixAxis> OptionAxis(const Context& context, const toml::node& node,
                              const CampaignOption& option) {
  MatrixAxis axis;
  axis.name = option.name;
  if (const auto* list = node.as_array()) {
    for (const toml::node& element : *list) {
      if (Status ok = AddValues(context, element, option, axis.values);
          !ok.ok()) {
        return ok.error();
      }
    }
  } else if (node.is_string() && IsRangeText(node.as_string()->get())) {
    if (Status ok = AddValues(context, node, option, axis.values); !ok.ok()) {
      return ok.error();
    }
  } else {
    return ErrorAt(context, node.source(),
                   fmt::format("matrix axis {}: expected a list or a range, "
                               "got {}",
                               option.name, TypeName(node)),
                   fmt::format("write {0} = [...] or {0} = \"A..B step S\"; "
                               "a single value goes in [workload]",
                               option.name));
  }
  return axis;
}

Result<MatrixAxis> TargetAxis(const Context& context, const toml::node& node) {
  MatrixAxis axis;
  axis.name = "target";
  const auto* list = node.as_array();
  if (list == nullptr) {
    return ErrorAt(context, node.source(),
                   fmt::format("matrix axis target: expected a list of target "
                               "sets, got {}",
                               TypeName(node)),
                   "write target = [[\"/dev/fioa\"], [\"/dev/fioa\", "
                   "\"/dev/fiob\"]]");
  }
  for (const toml::node& element : *list) {
    auto set = StringList(context, element, "target", true);
    if (!set.ok()) return set.error();
    if (set->empty()) {
      return ErrorAt(context, element.source(), "target: an empty target set");
    }
    for (std::string& path : *set) {
      auto expanded = ExpandAt(context, element, "target", path);
      if (!expanded.ok()) return expanded.error();
      path = *expanded;
    }
    axis.values.push_back(ShellJoin(*set));
    axis.target_sets.push_back(std::move(*set));
  }
  return axis;
}

// The tags of a grouped value: `tag = {key = "value", ...}` (strings or
// numbers), never the ones a sweep files itself.
Status AddGroupTags(const Context& context, const toml::node& node,
                    const std::string& section,
                    std::vector<std::pair<std::string, std::string>>& tags) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    return ErrorAt(
        context, node.source(),
        fmt::format("{}: tag must be a table, got {}", section, TypeName(node)),
        "write tag = { device = \"raid0\" }");
  }
  for (const auto& [key, value] : InFileOrder(*table)) {
    const std::string name(key->str());
    if (name.empty() || IsSweepTag(name)) {
      return ErrorAt(context, key->source(),
                     fmt::format("{}: tag \"{}\" is filed by the sweep itself",
                                 section, name),
                     "choose another key, e.g. device");
    }
    auto text = ScalarText(context, *value, "tag " + name);
    if (!text.ok()) return text.error();
    tags.emplace_back(name, *text);
  }
  return OkStatus();
}

Result<MatrixAxis> GroupedAxis(const Context& context, std::string_view name,
                               const toml::array& list, Owners& owners) {
  MatrixAxis axis;
  axis.name = name;
  const std::string section = fmt::format("[matrix] {}", name);
  std::vector<std::string_view> names = CampaignOptionNames();
  names.insert(names.end(), {"target", "tag", "price"});
  for (const toml::node& element : list) {
    const toml::table& table = *element.as_table();
    if (Status ok = CheckKeys(context, table, section, names); !ok.ok()) {
      return ok.error();
    }
    if (table.empty()) {
      return ErrorAt(context, element.source(),
                     fmt::format("{}: an empty table sets nothing", section));
    }
    std::vector<std::pair<std::string, std::string>> group, tags;
    std::vector<std::string> targets;
    std::string shown;
    const auto show = [&shown](const std::string& key,
                               const std::string& value) {
      shown += fmt::format("{}{}={}", shown.empty() ? "" : " ", key, value);
    };
    for (const auto& [key, node] : InFileOrder(table)) {
      if (key->str() == "target") {
        auto set = StringList(context, *node, "target", true);
        if (!set.ok()) return set.error();
        if (set->empty()) {
          return ErrorAt(context, node->source(),
                         fmt::format("{}: an empty target set", section));
        }
        for (std::string& path : *set) {
          auto expanded = ExpandAt(context, *node, "target", path);
          if (!expanded.ok()) return expanded.error();
          path = *expanded;
        }
        targets = std::move(*set);
        show("target", ShellJoin(targets));
        continue;
      }
      if (key->str() == "tag") {
        const size_t first = tags.size();
        if (Status ok = AddGroupTags(context, *node, section, tags); !ok.ok()) {
          return ok.error();
        }
        for (size_t t = first; t < tags.size(); ++t) {
          show(tags[t].first, tags[t].second);
        }
        continue;
      }
      if (key->str() == "price") {
        auto text = ScalarText(context, *node, "price");
        if (!text.ok()) return text.error();
        if (!ParsePrice(*text)) {
          return ErrorAt(context, node->source(),
                         fmt::format("{}: price \"{}\" is not a price (a "
                                     "number >= 0, with its currency if you "
                                     "like)",
                                     section, *text),
                         "price = \"USD 1200\": what the cell's device costs");
        }
        tags.emplace_back("price", *text);
        show("price", *text);
        continue;
      }
      const CampaignOption* option = FindCampaignOption(key->str());
      auto value = OptionValue(context, *node, *option);
      if (!value.ok()) return value.error();
      for (const auto& [other, unused] : group) {
        if (other == option->name) {
          return ErrorAt(
              context, key->source(),
              fmt::format("{} given twice in {}", option->name, section));
        }
      }
      show(std::string(option->name), *value);
      group.emplace_back(option->name, *value);
    }
    axis.values.push_back(shown);
    axis.groups.push_back(std::move(group));
    axis.group_targets.push_back(std::move(targets));
    axis.group_tags.push_back(std::move(tags));
  }
  for (const auto& group : axis.groups) {
    for (const auto& [option, unused] : group) {
      auto it = owners.find(option);
      if (it != owners.end() && it->second != name) {
        return Claim(context, list.source(), owners, option, name).error();
      }
      owners.emplace(option, name);
    }
  }
  for (const auto& targets : axis.group_targets) {
    if (targets.empty()) continue;
    auto it = owners.find("target");
    if (it != owners.end() && it->second != name) {
      return Claim(context, list.source(), owners, "target", name).error();
    }
    owners.emplace("target", name);
  }
  return axis;
}

bool AllTables(const toml::array& list) {
  for (const toml::node& element : list) {
    if (!element.is_table()) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<MatrixAxis>> ReadMatrix(const Context& context,
                                           const toml::table& matrix) {
  std::vector<MatrixAxis> axes;
  Owners owners;
  for (const auto& [key, node] : InFileOrder(matrix)) {
    const std::string name(key->str());
    const CampaignOption* option = FindCampaignOption(name);
    const auto* list = node->as_array();
    const bool grouped = list != nullptr && !list->empty() && AllTables(*list);
    Result<MatrixAxis> axis = MatrixAxis{};
    if (name == "target") {
      if (Status ok = Claim(context, key->source(), owners, "target", name);
          !ok.ok()) {
        return ok.error();
      }
      axis = TargetAxis(context, *node);
    } else if (option != nullptr && !grouped) {
      if (Status ok = Claim(context, key->source(), owners,
                            std::string(option->name), name);
          !ok.ok()) {
        return ok.error();
      }
      axis = OptionAxis(context, *node, *option);
    } else if (grouped && option == nullptr) {
      axis = GroupedAxis(context, name, *list, owners);
    } else if (grouped) {
      return ErrorAt(context, key->source(),
                     fmt::format("matrix axis {}: a list of tables is a "
                                 "grouped axis and needs a name of its own",
                                 name),
                     "e.g. io = [{engine = \"psync\"}, {engine = \"libaio\", "
                     "iodepth = 32}]");
    } else {
      std::vector<std::string_view> known = CampaignOptionNames();
      known.push_back("target");
      std::string hint = std::string(MisplacedKeyHint(name));
      if (hint.empty()) hint = SuggestKey(name, known);
      return ErrorAt(
          context, key->source(),
          fmt::format("unknown matrix axis \"{}\": not a run option", name),
          hint);
    }
    if (!axis.ok()) return axis.error();
    if (axis->values.empty()) {
      return ErrorAt(context, node->source(),
                     fmt::format("matrix axis {} has no values", name),
                     "give at least one value, or remove the axis");
    }
    axes.push_back(std::move(*axis));
  }
  return axes;
}

}  // namespace flashmark::campaign
