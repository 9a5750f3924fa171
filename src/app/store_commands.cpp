#include "app/store_commands.h"

#include "app/store_access.h"

namespace flashmark {

StoreCommands AddStoreCommands(CLI::App& app, StoreCommandOptions& o) {
  StoreCommands commands;
  auto text = [](CLI::App* command, const char* name,
                 std::optional<std::string>& slot, const char* help) {
    command->add_option_function<std::string>(
        name, [&slot](const std::string& value) { slot = value; }, help);
  };

  commands.list = app.add_subcommand("list", "List the stored runs");
  AddDatabaseOption(commands.list, o.db);
  commands.list
      ->add_option("--tag", o.tags, "only runs tagged key=value (repeat)")
      ->allow_extra_args(false);  // one value each time
  text(commands.list, "--label", o.label, "only runs with this label");
  text(commands.list, "--status", o.status,
       "ok, failed, interrupted or running");
  text(commands.list, "--since", o.since,
       "started on or after YYYY-MM-DD[THH:MM]");
  text(commands.list, "--until", o.until, "started before YYYY-MM-DD[THH:MM]");
  CLI::Option* json =
      commands.list->add_flag("--json", o.json, "machine-readable output");
  commands.list
      ->add_flag("--ids", o.ids,
                 "only the ids, one per line (for scripts and shell "
                 "completion)")
      ->excludes(json);
  CLI::Option* campaigns = commands.list->add_flag(
      "--campaigns", o.campaigns,
      "list the sweeps (campaigns) and their cells' status instead");
  commands.list
      ->add_flag("--traces", o.traces,
                 "list the block IO traces (imported or captured) instead")
      ->excludes(campaigns);

  commands.show = app.add_subcommand(
      "show", "Config, environment and summary of a run, and how to repeat it");
  AddDatabaseOption(commands.show, o.db);
  CLI::Option* show_run =
      commands.show->add_option("RUN", o.runs, "run id")->expected(1);
  CLI::Option* show_json =
      commands.show->add_flag("--json", o.json, "the whole run as JSON");
  commands.show
      ->add_option_function<std::string>(
          "--campaign", [&o](const std::string& value) { o.campaign = value; },
          "instead of a run: the campaign file of sweep ID as it ran, to "
          "save and sweep again (`flashmark list --campaigns` lists them)")
      ->excludes(show_run)
      ->excludes(show_json);
  commands.show
      ->add_option_function<std::string>(
          "--trace", [&o](const std::string& value) { o.trace = value; },
          "instead of a run: the summary of block IO trace ID (`flashmark "
          "list --traces` lists them)")
      ->excludes(show_run);

  commands.exporter =
      app.add_subcommand("export", "Export a run's intervals and summary");
  AddDatabaseOption(commands.exporter, o.db);
  commands.exporter->add_option("RUN", o.runs, "run id")
      ->required()
      ->expected(1);
  commands.exporter->add_option("--format", o.format,
                                "csv, json, hdr (HdrHistogram interval log) or "
                                "clat_hist (fio histogram log) [csv]");
  text(commands.exporter, "-o,--output", o.output, "file to write [stdout]");

  commands.remover = app.add_subcommand("delete", "Delete runs from the store");
  AddDatabaseOption(commands.remover, o.db);
  commands.remover->add_option("RUN", o.runs, "run ids")->required();

  commands.tagger = app.add_subcommand(
      "tag", "Set or remove tags of stored runs: RUN... KEY=VALUE...");
  AddDatabaseOption(commands.tagger, o.db);
  commands.tagger
      ->add_option("RUN", o.runs,
                   "run ids, then the KEY=VALUE tags to set (a key's old "
                   "value is replaced)")
      ->required();
  commands.tagger
      ->add_option("--remove", o.remove_tags, "remove this tag key (repeat)")
      ->allow_extra_args(false);  // one value each time: RUN stays a RUN
  return commands;
}

}  // namespace flashmark
