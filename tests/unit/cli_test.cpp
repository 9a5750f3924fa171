// The command line as one object (app/cli), and what is made from it: the
// examples of --help and the manual, the manual pages, the completion
// scripts and --version.
#include "app/cli.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/metric.h"
#include "app/cli_tree.h"
#include "app/command_examples.h"
#include "app/first_steps.h"
#include "app/manual_pages.h"
#include "app/shell_completion.h"
#include "app/version_info.h"
#include "cluster/mpi_session.h"
#include "common/version.h"
#include "config/campaign_keys.h"
#include "engine/engine_registry.h"

namespace flashmark {
namespace {

std::vector<std::string> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  for (std::string word; in >> word;) {
    if (word == ">" || word == "|" || word == "&&") break;  // the shell's
    words.push_back(word);
  }
  return words;
}

int ParseWords(Cli& cli, std::vector<std::string> words) {
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  return cli.Parse(static_cast<int>(argv.size()), argv.data());
}

// The deepest subcommand the last parse chose, as a path.
std::string ParsedPath(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return CommandPath(*at);
}

TEST(CommandExamples, EveryExampleParsesAsTheCommandItIsListedUnder) {
  const Cli reference;
  int checked = 0;
  for (const CLI::App* command : ManualPageCommands(reference.app())) {
    const std::string path = CommandPath(*command);
    if (path != "import") {
      EXPECT_FALSE(CommandExamples(path).empty())
          << "`flashmark " << path << "` has no example";
    }
    for (const CommandExample& example : CommandExamples(path)) {
      const std::vector<std::string> words = SplitWords(example.command);
      if (words.empty() || words.front() != "flashmark") continue;
      Cli cli;
      EXPECT_EQ(ParseWords(cli, words), -1) << example.command;
      if (!path.empty()) {
        EXPECT_EQ(ParsedPath(cli.app()), path) << example.command;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 25);
}

TEST(CommandExamples, EndEachCommandsHelp) {
  const Cli cli;
  const CLI::App* run = cli.app().get_subcommand("run");
  EXPECT_EQ(run->get_footer(), ExamplesFooter(CommandExamples("run")));
  EXPECT_NE(run->get_footer().find("Examples:\n  "), std::string::npos);
  EXPECT_NE(run->get_footer().find("\n    flashmark run --engine null"),
            std::string::npos);
}

TEST(Cli, VersionAndUsageErrorsEndTheParse) {
  {
    Cli cli;
    testing::internal::CaptureStdout();
    EXPECT_EQ(ParseWords(cli, {"flashmark", "--version"}), 0);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out, VersionText());
  }
  {
    Cli cli;
    testing::internal::CaptureStdout();
    EXPECT_EQ(ParseWords(cli, {"flashmark", "--version", "--json"}), 0);
    const auto json =
        nlohmann::json::parse(testing::internal::GetCapturedStdout());
    EXPECT_EQ(json, VersionJson());
  }
  {
    // Nothing asked: the start page (app/first_steps.h), not an error.
    Cli cli;
    testing::internal::CaptureStdout();
    EXPECT_EQ(ParseWords(cli, {"flashmark"}), 0);
    EXPECT_EQ(testing::internal::GetCapturedStdout(), StartPageText());
  }
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"flashmark", "--json"},
           {"flashmark", "--json", "list"},
           {"flashmark", "run", "--no-such-option"}}) {
    Cli cli;
    testing::internal::CaptureStderr();
    EXPECT_EQ(ParseWords(cli, words), 2) << words.back();
    EXPECT_NE(testing::internal::GetCapturedStderr().find("error: "),
              std::string::npos);
  }
  Cli list;
  EXPECT_EQ(ParseWords(list, {"flashmark", "list", "--json"}), -1)
      << "a subcommand's own --json is not the top's";
}

TEST(VersionInfo, NamesTheBuildTheEnginesAndTheFeatures) {
  const std::string text = VersionText();
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      std::string("flashmark ") + kToolVersion + " (git " + kGitRevision + ")");
  EXPECT_NE(text.find(std::string("build: ") + kBuildType), std::string::npos);
  EXPECT_NE(text.find(kCompiler), std::string::npos);
  EXPECT_NE(
      text.find("engines: sync psync libaio io_uring io_uring_cmd mmap null\n"),
      std::string::npos);
  EXPECT_NE(text.find("io_uring yes (liburing "), std::string::npos);
  EXPECT_NE(
      text.find(MpiAvailable() ? "mpi yes (run --mpi, --hosts)" : "mpi no"),
      std::string::npos);
  EXPECT_NE(text.find("live_server yes (run --serve, serve)"),
            std::string::npos);
  const nlohmann::json json = VersionJson();
  EXPECT_EQ(json["schema"], "flashmark.version");
  EXPECT_EQ(json["version"], kToolVersion);
  EXPECT_EQ(json["git_revision"], kGitRevision);
  EXPECT_EQ(json["engines"].size(), Engines().size());
  EXPECT_EQ(json["features"]["io_uring"], true);
  EXPECT_EQ(json["features"]["mpi"], MpiAvailable());
  EXPECT_EQ(json["features"]["live_server"], true);
}

TEST(ManualPages, OneForEveryVisibleCommandAndNoneForTheHiddenOne) {
  const Cli cli;
  std::vector<std::string> names;
  for (const CLI::App* command : ManualPageCommands(cli.app())) {
    names.push_back(ManualPageName(*command));
  }
  EXPECT_EQ(names.front(), "flashmark");
  for (const std::string name :
       {"flashmark-run", "flashmark-report", "flashmark-import",
        "flashmark-import-sysbench", "flashmark-import-fio",
        "flashmark-import-flashmark", "flashmark-completion",
        "flashmark-delete", "flashmark-pts", "flashmark-capture",
        "flashmark-replay", "flashmark-history"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  EXPECT_EQ(std::find(names.begin(), names.end(), "flashmark-manpages"),
            names.end());
  EXPECT_EQ(names.size(), 26u);
}

TEST(ManualPages, RunPageIsRoffWithEveryOptionAndTheExamples) {
  const Cli cli;
  const std::string page = ManualPage(*cli.app().get_subcommand("run"));
  EXPECT_EQ(page.find(".\\\" Generated by `flashmark manpages`"), 0u);
  EXPECT_NE(page.find(std::string(".TH FLASHMARK\\-RUN 1 ") + kGitDate +
                      " \"flashmark " + kToolVersion + "\""),
            std::string::npos);
  EXPECT_NE(page.find(".SH NAME\nflashmark\\-run \\- Run one workload"),
            std::string::npos);
  EXPECT_NE(page.find(".SH SYNOPSIS\n\\fBflashmark run\\fR [\\fIOPTIONS\\fR] "
                      "[\\fITARGET\\fR...]\n"),
            std::string::npos);
  // Names and aliases, each \- (an ASCII hyphen-minus when rendered); a
  // value's placeholder; flags without one.
  EXPECT_NE(
      page.find(".TP\n\\fB\\-\\-mode\\fR, \\fB\\-\\-rw\\fR \\fIMODE\\fR\n"),
      std::string::npos);
  EXPECT_NE(page.find(".TP\n\\fB\\-\\-direct\\fR\n"), std::string::npos);
  EXPECT_NE(page.find("\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR\n"),
            std::string::npos);
  for (const CampaignOption& option : CampaignOptions()) {
    std::string escaped;
    for (const char c : std::string(option.name)) {
      escaped += c == '-' ? std::string("\\-") : std::string(1, c);
    }
    EXPECT_NE(page.find("\\fB\\-\\-" + escaped + "\\fR"), std::string::npos)
        << option.name;
  }
  EXPECT_EQ(page.find("(repeat) (may be repeated)"), std::string::npos);
  EXPECT_NE(page.find(".SH EXAMPLES\n"), std::string::npos);
  EXPECT_NE(page.find("flashmark run \\-\\-engine null \\-\\-iodepth 32"),
            std::string::npos);
  EXPECT_NE(page.find(".SH ENVIRONMENT\n.TP\n\\fBFLASHMARK_DB\\fR"),
            std::string::npos);
  EXPECT_NE(page.find(".SH EXIT STATUS\n"), std::string::npos);
  // No line of text starts with a control character by accident.
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || (line[0] != '.' && line[0] != '\'')) continue;
    const std::string macro = line.substr(0, line.find(' '));
    EXPECT_TRUE(macro == ".TH" || macro == ".SH" || macro == ".TP" ||
                macro == ".PP" || macro == ".RS" || macro == ".RE" ||
                macro == ".nf" || macro == ".fi" || macro == ".br" ||
                macro == ".nh" || macro == ".ad" || macro == ".\\\"")
        << line;
  }
}

TEST(ManualPages, TopPageListsTheCommandsAndTheFiles) {
  const Cli cli;
  const std::string page = ManualPage(cli.app());
  EXPECT_NE(page.find(".SH NAME\nflashmark \\- storage benchmarks"),
            std::string::npos);
  EXPECT_NE(page.find(".SH COMMANDS\n"), std::string::npos);
  EXPECT_NE(page.find("see \\fBflashmark\\-sweep\\fR(1)"), std::string::npos);
  EXPECT_NE(page.find("\\fB/usr/share/flashmark/examples/\\fR"),
            std::string::npos);
  EXPECT_EQ(page.find("\\fBmanpages\\fR"), std::string::npos);
}

// Every option (or positional argument) of any command called `name`.
std::vector<const CLI::Option*> FindAnywhere(const CLI::App& app,
                                             const std::string& name) {
  std::vector<const CLI::Option*> found;
  for (const CLI::App* command : ManualPageCommands(app)) {
    for (const CLI::Option* option : command->get_options()) {
      if (option->get_positional() ? option->get_name() == name
                                   : option->check_name(name)) {
        found.push_back(option);
      }
    }
  }
  return found;
}

TEST(ShellCompletion, EveryEntryNamesAnOptionOrArgumentOfTheCli) {
  const Cli cli;
  for (const ValueCompletion& completion : ValueCompletions()) {
    const auto options = FindAnywhere(cli.app(), std::string(completion.name));
    EXPECT_TRUE(std::any_of(options.begin(), options.end(),
                            [](const CLI::Option* option) {
                              return !option->get_type_name().empty();
                            }))
        << completion.name << " is no option or argument that takes a value";
    EXPECT_FALSE(completion.words.empty()) << completion.name;
  }
}

TEST(ShellCompletion, FixedValuesAreTheOnesTheParsersTake) {
  int checked = 0;
  for (const ValueCompletion& completion : ValueCompletions()) {
    if (completion.words.front().starts_with("@")) continue;
    const std::string name(completion.name.substr(2));
    for (const std::string& word : completion.words) {
      // "zipf:" and "compressible:" complete the start of a value.
      const std::string value = word.ends_with(':') ? word + "0.5" : word;
      const std::string whole =
          word == "compressible:" ? "compressible:50" : value;
      if (const CampaignOption* option = FindCampaignOption(name)) {
        EXPECT_TRUE(CheckCampaignOptionValue(*option, whole).ok())
            << completion.name << " " << whole;
      } else if (name == "metric") {
        EXPECT_TRUE(ParseMetric(word).ok()) << word;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
  std::vector<std::string> engines;
  for (const EngineInfo& engine : Engines()) engines.emplace_back(engine.name);
  for (const ValueCompletion& completion : ValueCompletions()) {
    if (completion.name == "--engine") {
      EXPECT_EQ(completion.words, engines);
    }
    if (completion.name == "--metric") {
      EXPECT_EQ(completion.words, MetricNames());
    }
  }
}

TEST(ShellCompletion, BashScriptKnowsEveryCommandOptionAndValue) {
  const Cli cli;
  const std::string script = BashCompletion(cli.app());
  EXPECT_NE(script.find("complete -F _flashmark flashmark\n"),
            std::string::npos);
  EXPECT_NE(script.find(
                "\"\") echo 'run analyze compare history report sweep pts "
                "import capture replay verify cleanup devices list show export "
                "delete tag serve completion' ;;"),
            std::string::npos);
  EXPECT_NE(script.find("\"import\") echo 'sysbench fio flashmark fio-iolog "
                        "blktrace' ;;"),
            std::string::npos);
  EXPECT_NE(script.find("\"run --engine\") echo 'sync psync libaio io_uring "
                        "io_uring_cmd mmap null' ;;"),
            std::string::npos);
  EXPECT_NE(script.find("\"show\") echo '@runs' ;;"), std::string::npos);
  EXPECT_NE(script.find("\"report --campaign\") echo '@campaigns' ;;"),
            std::string::npos);
  EXPECT_EQ(script.find("manpages"), std::string::npos);
  for (const CampaignOption& option : CampaignOptions()) {
    EXPECT_NE(script.find(" --" + std::string(option.name) + " "),
              std::string::npos)
        << option.name;
  }
}

TEST(ShellCompletion, ZshScriptHasAFunctionPerCommand) {
  const Cli cli;
  const std::string script = ZshCompletion(cli.app());
  EXPECT_EQ(script.find("#compdef flashmark\n"), 0u);
  for (const std::string function :
       {"_flashmark() {", "_flashmark_run() {", "_flashmark_import_fio() {",
        "_flashmark_completion() {"}) {
    EXPECT_NE(script.find(function), std::string::npos) << function;
  }
  EXPECT_NE(
      script.find(
          "'(--engine --ioengine)--engine=[sync psync libaio "
          "io_uring io_uring_cmd mmap null \\[psync\\]]:engine:(sync psync "
          "libaio io_uring io_uring_cmd mmap null)'"),
      std::string::npos);
  EXPECT_NE(script.find("'*--tag=["), std::string::npos);
  EXPECT_NE(script.find("':run:__flashmark_runs'"), std::string::npos);
  EXPECT_NE(script.find("compressible\\:"), std::string::npos);
}

TEST(ShellCompletion, UnknownShellIsAUsageError) {
  const Cli cli;
  const auto script = CompletionScript(cli.app(), "fish");
  ASSERT_FALSE(script.ok());
  EXPECT_EQ(script.error().exit_code, 2);
  EXPECT_NE(script.error().message.find("\"fish\""), std::string::npos);
  EXPECT_EQ(script.error().hint, "use bash or zsh");
}

}  // namespace
}  // namespace flashmark
