#include "app/manual_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "app/cli_tree.h"
#include "app/command_examples.h"
#include "common/atomic_file.h"
#include "common/version.h"

namespace flashmark {
namespace {

// Text as roff prints it: a backslash is \e, every '-' is \- (an ASCII
// hyphen-minus that survives copy and paste), a line never starts with a
// control character ('.' or '\'').
std::string Roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string Bold(std::string_view text) { return "\\fB" + Roff(text) + "\\fR"; }
std::string Italic(std::string_view text) {
  return "\\fI" + Roff(text) + "\\fR";
}

std::string OptionHeading(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : OptionNames(option)) {
    names.push_back(Bold(name));
  }
  std::string heading = fmt::format("{}", fmt::join(names, ", "));
  if (TakesValue(option)) heading += " " + Italic(ValueName(option, true));
  return heading;
}

std::string Synopsis(const CLI::App& command) {
  std::string line = Bold(CommandWords(command));
  const auto subs = VisibleSubcommands(command);
  if (!subs.empty()) {
    std::vector<std::string> names;
    for (const CLI::App* sub : subs) names.push_back(Bold(sub->get_name()));
    return line + " " + fmt::format("{}", fmt::join(names, " | ")) + " [" +
           Italic("OPTIONS") + "] ...\n";
  }
  line += " [" + Italic("OPTIONS") + "]";
  for (const CLI::Option* positional : Positionals(command)) {
    std::string word = Italic(positional->get_name());
    if (Repeatable(*positional)) word += "...";
    line += positional->get_required() ? " " + word : " [" + word + "]";
  }
  return line + "\n";
}

void Section(std::string& page, std::string_view title) {
  page += fmt::format(".SH {}\n", title);
}

void Description(std::string& page, const CLI::App& command) {
  Section(page, "DESCRIPTION");
  if (command.get_parent() != nullptr) {
    page += Roff(command.get_description()) + ".\n";
    return;
  }
  page += Roff(
      "flashmark runs a storage workload against files, a file set or a "
      "block device and records every interval of it (throughput, IOPS, a "
      "latency histogram), keeps each run in a SQLite database, finds the "
      "warm-up, the regimes and SNIA steady state, compares devices with "
      "confidence intervals, sweeps parameters with a fresh device per "
      "cell, and writes reports (a self-contained HTML page, Markdown, "
      "CSV) that someone else can reproduce. It imports fio and sysbench "
      "results into the same store.\n");
  page += ".PP\n";
  page += Roff(
      "It never writes a block device it was not told it may destroy "
      "(--allow-destroy), and commands meant as reads (list, show, export, "
      "analyze, compare, history, report, verify) never change stored data.\n");
}

void Commands(std::string& page, const CLI::App& command) {
  const auto subs = VisibleSubcommands(command);
  if (subs.empty()) return;
  Section(page, "COMMANDS");
  for (const CLI::App* sub : subs) {
    page += ".TP\n" + Bold(sub->get_name()) + "\n";
    page += Roff(sub->get_description()) + "; see " +
            Bold(ManualPageName(*sub)) + "(1).\n";
  }
}

void Arguments(std::string& page, const CLI::App& command) {
  const auto positionals = Positionals(command);
  if (positionals.empty()) return;
  Section(page, "ARGUMENTS");
  for (const CLI::Option* positional : positionals) {
    page += ".TP\n" + Italic(positional->get_name()) + "\n";
    page += Roff(positional->get_description()) + "\n";
  }
}

void Options(std::string& page, const CLI::App& command) {
  Section(page, "OPTIONS");
  for (const CLI::Option* option : NamedOptions(command)) {
    page += ".TP\n" + OptionHeading(*option) + "\n";
    std::string help = option->get_description();
    if (Repeatable(*option) && help.find("repeat") == std::string::npos) {
      help += " (may be repeated)";
    }
    page += Roff(help) + "\n";
  }
}

void Examples(std::string& page, const CLI::App& command) {
  const auto examples = CommandExamples(CommandPath(command));
  if (examples.empty()) return;
  Section(page, "EXAMPLES");
  for (const CommandExample& example : examples) {
    page += ".PP\n" + Roff(example.what) + "\n";
    page += ".PP\n.RS 4\n.nf\n" + Roff(example.command) + "\n.fi\n.RE\n";
  }
}

void EnvironmentSection(std::string& page, const CLI::App& command) {
  if (command.get_parent() != nullptr &&
      command.get_option_no_throw("--db") == nullptr) {
    return;
  }
  Section(page, "ENVIRONMENT");
  page += ".TP\n" + Bold("FLASHMARK_DB") + "\n";
  page += Roff(
      "The results database when --db is not given (else ./flashmark.db).\n");
}

void Files(std::string& page, const CLI::App& command) {
  if (command.get_parent() != nullptr) return;
  Section(page, "FILES");
  page += ".TP\n" + Bold("./flashmark.db") + "\n" +
          Roff("The default results database (SQLite).") + "\n";
  page += ".TP\n" + Bold("/usr/share/flashmark/examples/") + "\n" +
          Roff(
              "The example campaigns (fill-size sweep, thread sweep, one "
              "device against two in RAID-0, SNIA IOPS, a quick one), each "
              "explained at its top; under /usr/local/share after `make "
              "install`.") +
          "\n";
}

void ExitStatus(std::string& page) {
  Section(page, "EXIT STATUS");
  const std::pair<std::string_view, std::string_view> statuses[] = {
      {"0", "success"},
      {"1",
       "the work failed (an IO error, a cell of a sweep, bad blocks found by "
       "verify); the message names what and where"},
      {"2",
       "bad input (an option value, a file, a target flashmark refuses to "
       "write): nothing was written or changed"},
      {"130", "interrupted by SIGINT or SIGTERM (results so far are kept)"}};
  for (const auto& [status, meaning] : statuses) {
    page += ".TP\n" + Bold(status) + "\n" + Roff(meaning) + "\n";
  }
}

void SeeAlso(std::string& page, const CLI::App& command, const CLI::App& top) {
  Section(page, "SEE ALSO");
  std::vector<std::string> pages;
  if (&command != &top) pages.push_back(Bold("flashmark") + "(1)");
  for (const CLI::App* other : ManualPageCommands(top)) {
    if (other != &top && other != &command) {
      pages.push_back(Bold(ManualPageName(*other)) + "(1)");
    }
  }
  pages.push_back(Bold("fio") + "(1)");
  pages.push_back(Bold("sysbench") + "(1)");
  page += fmt::format("{}\n", fmt::join(pages, ", "));
}

const CLI::App& Top(const CLI::App& command) {
  const CLI::App* at = &command;
  while (at->get_parent() != nullptr) at = at->get_parent();
  return *at;
}

void AddCommands(const CLI::App& command,
                 std::vector<const CLI::App*>& commands) {
  commands.push_back(&command);
  for (const CLI::App* sub : VisibleSubcommands(command)) {
    AddCommands(*sub, commands);
  }
}

}  // namespace

std::string ManualPageName(const CLI::App& command) {
  std::string name = CommandWords(command);
  std::replace(name.begin(), name.end(), ' ', '-');
  return name;
}

std::vector<const CLI::App*> ManualPageCommands(const CLI::App& top) {
  std::vector<const CLI::App*> commands;
  AddCommands(top, commands);
  return commands;
}

std::string ManualPage(const CLI::App& command) {
  std::string name = ManualPageName(command);
  std::string title = name;
  std::transform(
      title.begin(), title.end(), title.begin(),
      [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::string page = fmt::format(
      ".\\\" Generated by `flashmark manpages` from its command line: do not "
      "edit.\n.TH {} 1 {} \"flashmark {}\" \"flashmark manual\"\n"
      // No hyphenation (option names stay whole), ragged right.
      ".nh\n.ad l\n",
      Roff(title), kGitDate, kToolVersion);
  Section(page, "NAME");
  std::string summary = command.get_description();
  if (summary.starts_with("flashmark: ")) summary.erase(0, 11);
  page += Roff(name) + " \\- " + Roff(summary) + "\n";
  Section(page, "SYNOPSIS");
  if (command.get_parent() == nullptr) {
    page += Bold("flashmark") + " " + Italic("COMMAND") + " [" +
            Italic("OPTIONS") + "] [" + Italic("ARGUMENTS") + "]\n.br\n";
    page += Bold("flashmark") + " " + Bold("--version") + " [" +
            Bold("--json") + "]\n";
  } else {
    page += Synopsis(command);
  }
  Description(page, command);
  Commands(page, command);
  Arguments(page, command);
  Options(page, command);
  Examples(page, command);
  EnvironmentSection(page, command);
  Files(page, command);
  ExitStatus(page);
  SeeAlso(page, command, Top(command));
  return page;
}

Status WriteManualPages(const CLI::App& top, const std::string& directory) {
  for (const CLI::App* command : ManualPageCommands(top)) {
    const std::string path =
        fmt::format("{}/{}.1", directory, ManualPageName(*command));
    if (Status written = WriteFileAtomically(path, ManualPage(*command));
        !written.ok()) {
      return written;
    }
  }
  return OkStatus();
}

}  // namespace flashmark
