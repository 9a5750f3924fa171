#include "app/cli_tree.h"

#include <cctype>

namespace flashmark {

std::vector<const CLI::App*> VisibleSubcommands(const CLI::App& command) {
  return command.get_subcommands(
      [](const CLI::App* sub) { return !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> NamedOptions(const CLI::App& command) {
  return command.get_options([](const CLI::Option* option) {
    return !option->get_positional() && !option->get_group().empty();
  });
}

std::vector<const CLI::Option*> Positionals(const CLI::App& command) {
  return command.get_options(
      [](const CLI::Option* option) { return option->get_positional(); });
}

std::vector<std::string> OptionNames(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_snames()) {
    names.push_back("-" + name);
  }
  for (const std::string& name : option.get_lnames()) {
    names.push_back("--" + name);
  }
  return names;
}

bool TakesValue(const CLI::Option& option) {
  return !option.get_type_name().empty();
}

std::string ValueName(const CLI::Option& option, bool capitals) {
  std::string name = option.get_lnames().empty() ? option.get_name()
                                                 : option.get_lnames().front();
  for (char& c : name) {
    c = static_cast<char>(capitals
                              ? std::toupper(static_cast<unsigned char>(c))
                              : std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

bool Repeatable(const CLI::Option& option) {
  return option.get_expected_max() == CLI::detail::expected_max_vector_size;
}

std::string CommandWords(const CLI::App& command) {
  std::string words;
  for (const CLI::App* at = &command; at != nullptr; at = at->get_parent()) {
    words = words.empty() ? at->get_name() : at->get_name() + " " + words;
  }
  return words;
}

std::string CommandPath(const CLI::App& command) {
  const std::string words = CommandWords(command);
  const size_t space = words.find(' ');
  return space == std::string::npos ? "" : words.substr(space + 1);
}

}  // namespace flashmark
