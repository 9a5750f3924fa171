#include "app/shell_completion.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/metric.h"
#include "app/cli_tree.h"
#include "config/workload_parse.h"
#include "engine/engine_registry.h"

namespace flashmark {
namespace {

std::vector<std::string> Words(std::initializer_list<std::string_view> words) {
  return {words.begin(), words.end()};
}

template <typename Names>
std::vector<std::string> AsStrings(const Names& names) {
  return {names.begin(), names.end()};
}

std::vector<std::string> EngineWords() {
  std::vector<std::string> names;
  for (const EngineInfo& engine : Engines()) names.emplace_back(engine.name);
  return names;
}

// Each command, its visible options and positionals, below `top`.
struct CommandShape {
  std::string path;  // "", "run", "import fio"
  const CLI::App* app;
};

void CollectCommands(const CLI::App& command, const std::string& path,
                     std::vector<CommandShape>& out) {
  out.push_back({path, &command});
  for (const CLI::App* sub : VisibleSubcommands(command)) {
    CollectCommands(
        *sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(),
        out);
  }
}

std::vector<CommandShape> Commands(const CLI::App& top) {
  std::vector<CommandShape> commands;
  CollectCommands(top, "", commands);
  return commands;
}

// What a value of `option` (or of a positional, by its name) completes
// to; empty for free text.
std::vector<std::string> CompletionOf(const CLI::Option& option) {
  const std::vector<ValueCompletion> completions = ValueCompletions();
  for (const std::string& name :
       option.get_positional() ? std::vector<std::string>{option.get_name()}
                               : OptionNames(option)) {
    for (const ValueCompletion& completion : completions) {
      if (completion.name == name) return completion.words;
    }
  }
  return {};
}

std::string Joined(const std::vector<std::string>& words) {
  return fmt::format("{}", fmt::join(words, " "));
}

// Inside '...' in shell code (bash or zsh): ' closes the quote.
std::string SingleQuotedBody(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out;
}

std::string BashQuoted(std::string_view text) {
  return "'" + SingleQuotedBody(text) + "'";
}

// --- bash ---------------------------------------------------------------

// `case "$1" in` with one branch per non-empty value.
std::string BashCase(
    std::string_view function, std::string_view comment,
    const std::vector<std::pair<std::string, std::string>>& branches) {
  std::string text =
      fmt::format("# {}\n{}() {{\n  case \"$1\" in\n", comment, function);
  for (const auto& [pattern, words] : branches) {
    text += fmt::format("    {}) echo {} ;;\n", pattern, BashQuoted(words));
  }
  return text + "  esac\n}\n\n";
}

constexpr std::string_view kBashDriver = R"BASH(_flashmark_complete_as() {
  local kind="$1"
  case "$kind" in
    @file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    @dir)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    @device)
      mapfile -t COMPREPLY < <(compgen -W "$(lsblk -pnlo NAME 2>/dev/null)" -- "$cur") ;;
    @runs)
      mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" list --ids ${db:+--db="$db"} 2>/dev/null)" -- "$cur") ;;
    @campaigns)
      mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" list --campaigns --ids ${db:+--db="$db"} 2>/dev/null)" -- "$cur") ;;
    "") COMPREPLY=() ;;
    *)
      mapfile -t COMPREPLY < <(compgen -W "$kind" -- "$cur") ;;
  esac
}

_flashmark() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path="" db="" pending="" word i
  # The words before the cursor: the command path, --db, and whether the
  # last option still waits for its value ("--db=x" is split at "=").
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if [[ "$word" == "=" ]]; then
      continue
    fi
    if [[ -n "$pending" ]]; then
      [[ "$pending" == --db ]] && db="$word"
      pending=""
      continue
    fi
    case "$word" in
      --db=*)
        db="${word#--db=}"
        continue ;;
      --*=*)
        continue ;;
      -*)
        if _flashmark_takes_value "$path" "$word"; then pending="$word"; fi
        continue ;;
    esac
    if [[ " $(_flashmark_subcommands "$path") " == *" $word "* ]]; then
      path="${path:+$path }$word"
    fi
  done
  if [[ "$cur" == "=" ]]; then
    cur=""
  fi
  if [[ -n "$pending" ]]; then
    _flashmark_complete_as "$(_flashmark_values "$path $pending")"
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    _flashmark_complete_as "$(_flashmark_options "$path")"
    return 0
  fi
  local subcommands
  subcommands="$(_flashmark_subcommands "$path")"
  if [[ -n "$subcommands" ]]; then
    _flashmark_complete_as "$subcommands"
  else
    _flashmark_complete_as "$(_flashmark_positional "$path")"
  fi
  return 0
}

complete -F _flashmark flashmark
)BASH";

// --- zsh ----------------------------------------------------------------

// An _arguments description ([...]) or a _describe entry: brackets and
// colons escaped.
std::string ZshEscaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c;
  }
  return SingleQuotedBody(out);
}

std::string ZshFunctionName(const std::string& path) {
  std::string name = "_flashmark";
  if (!path.empty()) name += '_';
  for (const char c : path) name += (c == ' ' || c == '-') ? '_' : c;
  return name;
}

std::string ZshAction(const std::vector<std::string>& words) {
  if (words.empty()) return " ";
  const std::string& kind = words.front();
  if (kind == "@file") return "_files";
  if (kind == "@dir") return "_files -/";
  if (kind == "@device") return "__flashmark_devices";
  if (kind == "@runs") return "__flashmark_runs";
  if (kind == "@campaigns") return "__flashmark_campaigns";
  std::vector<std::string> escaped;
  for (const std::string& word : words) escaped.push_back(ZshEscaped(word));
  return "(" + Joined(escaped) + ")";
}

std::string ZshOptionSpecs(const CLI::Option& option) {
  const std::vector<std::string> names = OptionNames(option);
  const bool repeatable = Repeatable(option);
  std::string exclusion = repeatable ? "*" : "(" + Joined(names) + ")";
  std::string specs;
  for (const std::string& name : names) {
    std::string spec = exclusion + name;
    if (TakesValue(option)) spec += name.size() > 2 ? "=" : "+";
    spec += "[" + ZshEscaped(option.get_description()) + "]";
    if (TakesValue(option)) {
      spec += ":" + ValueName(option, false) + ":" +
              ZshAction(CompletionOf(option));
    }
    specs += " \\\n    '" + spec + "'";
  }
  return specs;
}

std::string ZshCommandFunction(const CommandShape& command) {
  std::string text = ZshFunctionName(command.path) + "() {\n";
  if (command.path.empty()) text += "  __flashmark_program=${words[1]}\n";
  const auto subs = VisibleSubcommands(*command.app);
  std::string options;
  for (const CLI::Option* option : NamedOptions(*command.app)) {
    options += ZshOptionSpecs(*option);
  }
  if (!subs.empty()) {
    text += "  local curcontext=\"$curcontext\" state line\n";
    text += "  typeset -A opt_args\n";
    text += "  _arguments -C -s" + options +
            " \\\n    '1:command:->command' \\\n    '*::argument:->argument'\n";
    text += "  case $state in\n    command)\n      local -a commands\n";
    text += "      commands=(";
    for (const CLI::App* sub : subs) {
      text += "\n        '" + ZshEscaped(sub->get_name()) + ":" +
              SingleQuotedBody(sub->get_description()) + "'";
    }
    text += ")\n      _describe -t commands 'flashmark command' commands ;;\n";
    text += "    argument)\n      case $line[1] in\n";
    for (const CLI::App* sub : subs) {
      const std::string sub_path = command.path.empty()
                                       ? sub->get_name()
                                       : command.path + " " + sub->get_name();
      text += fmt::format("        {}) {} ;;\n", sub->get_name(),
                          ZshFunctionName(sub_path));
    }
    text += "      esac ;;\n  esac\n}\n\n";
    return text;
  }
  std::string positionals;
  for (const CLI::Option* positional : Positionals(*command.app)) {
    const bool many = Repeatable(*positional);
    const std::string message = ValueName(*positional, false);
    positionals += " \\\n    '" + std::string(many ? "*" : "") + ":" + message +
                   ":" + ZshAction(CompletionOf(*positional)) + "'";
  }
  text += "  _arguments -s -S" + options + positionals + "\n}\n\n";
  return text;
}

constexpr std::string_view kZshHelpers =
    R"ZSH(# The program as typed (its path may differ), for the run ids.
__flashmark_program=flashmark

__flashmark_runs() {
  local -a flashmark_ids
  local db=${opt_args[--db]}
  flashmark_ids=(${(f)"$($__flashmark_program list --ids ${db:+--db=$db} 2>/dev/null)"})
  _wanted runs expl 'run id' compadd -a flashmark_ids
}

__flashmark_campaigns() {
  local -a flashmark_ids
  local db=${opt_args[--db]}
  flashmark_ids=(${(f)"$($__flashmark_program list --campaigns --ids ${db:+--db=$db} 2>/dev/null)"})
  _wanted campaigns expl 'campaign id' compadd -a flashmark_ids
}

__flashmark_devices() {
  local -a flashmark_devices
  flashmark_devices=(${(f)"$(lsblk -pnlo NAME 2>/dev/null)"})
  _wanted devices expl 'block device' compadd -a flashmark_devices
}

)ZSH";

}  // namespace

std::vector<ValueCompletion> ValueCompletions() {
  const std::vector<std::string> file = {"@file"};
  const std::vector<std::string> dir = {"@dir"};
  return {
      // flashmark run (config/campaign_keys) and the campaign keys.
      {"--mode", AsStrings(ModeNames())},
      {"--engine", EngineWords()},
      {"--fsync-mode", Words({"fsync", "fdatasync"})},
      {"--distribution", Words({"uniform", "zipf:", "pareto:", "normal:"})},
      {"--data", Words({"random", "zero", "compressible:"})},
      {"--allow-destroy", {"@device"}},
      // The analysis options (app/analysis_options).
      {"--metric", MetricNames()},
      {"--warmup", Words({"auto", "none"})},
      {"--x-axis", Words({"auto", "linear", "log2"})},
      // Store commands.
      {"--format", Words({"csv", "json", "hdr", "clat_hist"})},
      {"--status", Words({"ok", "failed", "interrupted", "running"})},
      {"--campaign", {"@campaigns"}},
      // Files and directories.
      {"--db", file},
      {"--json", file},
      {"--html", file},
      {"--md", file},
      {"--output", file},
      {"--logs", file},
      {"--csv", dir},
      // Positional arguments, by name.
      {"TARGET", file},
      {"FILE", file},
      {"CAMPAIGN", file},
      {"DIR", dir},
      {"RUN", {"@runs"}},
      {"SHELL", Words({"bash", "zsh"})},
  };
}

std::string BashCompletion(const CLI::App& top) {
  const std::vector<CommandShape> commands = Commands(top);
  std::vector<std::pair<std::string, std::string>> subcommands, options,
      positional, takes_value, values;
  for (const CommandShape& command : commands) {
    const std::string pattern = "\"" + command.path + "\"";
    std::vector<std::string> names;
    for (const CLI::App* sub : VisibleSubcommands(*command.app)) {
      names.push_back(sub->get_name());
    }
    if (!names.empty()) subcommands.emplace_back(pattern, Joined(names));
    std::vector<std::string> option_words, valued;
    for (const CLI::Option* option : NamedOptions(*command.app)) {
      for (const std::string& name : OptionNames(*option)) {
        option_words.push_back(name);
        if (!TakesValue(*option)) continue;
        valued.push_back(name);
        const std::vector<std::string> completion = CompletionOf(*option);
        if (!completion.empty()) {
          values.emplace_back(
              "\"" + (command.path.empty() ? "" : command.path + " ") + name +
                  "\"",
              Joined(completion));
        }
      }
    }
    options.emplace_back(pattern, Joined(option_words));
    if (!valued.empty()) takes_value.emplace_back(pattern, Joined(valued));
    for (const CLI::Option* option : Positionals(*command.app)) {
      const std::vector<std::string> completion = CompletionOf(*option);
      if (!completion.empty()) {
        positional.emplace_back(pattern, Joined(completion));
        break;
      }
    }
  }
  std::string script =
      "# bash completion for flashmark: generated by `flashmark completion "
      "bash` from\n# flashmark's own command line; do not edit. Installed "
      "as\n# /usr/share/bash-completion/completions/flashmark, or: source "
      "<(flashmark completion bash)\n\n";
  script += BashCase("_flashmark_subcommands",
                     "The subcommands of a command path.", subcommands);
  script +=
      BashCase("_flashmark_options", "The options of a command path.", options);
  script +=
      BashCase("_flashmark_positional",
               "What the arguments of a command path complete to.", positional);
  script += BashCase("_flashmark_values",
                     "What the value of \"PATH OPTION\" completes to.", values);
  // A function that answers by its status.
  std::string valued_case =
      "# Whether option $2 of command path $1 takes a value.\n"
      "_flashmark_takes_value() {\n  local valued\n  case \"$1\" in\n";
  for (const auto& [pattern, words] : takes_value) {
    valued_case +=
        fmt::format("    {}) valued={} ;;\n", pattern, BashQuoted(words));
  }
  valued_case +=
      "    *) return 1 ;;\n  esac\n  [[ \" $valued \" == *\" $2 \"* ]]\n}\n\n";
  script += valued_case;
  script += kBashDriver;
  return script;
}

std::string ZshCompletion(const CLI::App& top) {
  std::string script =
      "#compdef flashmark\n# zsh completion for flashmark: generated by "
      "`flashmark completion zsh` from\n# flashmark's own command line; do "
      "not edit. Installed as\n# /usr/share/zsh/vendor-completions/"
      "_flashmark (any directory on $fpath will do).\n\n";
  script += kZshHelpers;
  for (const CommandShape& command : Commands(top)) {
    script += ZshCommandFunction(command);
  }
  script += "_flashmark \"$@\"\n";
  return script;
}

Result<std::string> CompletionScript(const CLI::App& top,
                                     std::string_view shell) {
  if (shell == "bash") return BashCompletion(top);
  if (shell == "zsh") return ZshCompletion(top);
  return UsageError(fmt::format("completion: \"{}\" is not a shell flashmark "
                                "completes for",
                                shell),
                    "use bash or zsh");
}

}  // namespace flashmark
