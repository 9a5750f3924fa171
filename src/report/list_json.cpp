#include "report/list_json.h"

#include "analysis/run_analysis.h"
#include "report/console_reporter.h"
#include "report/headline_text.h"

namespace flashmark {

nlohmann::json ListJson(const std::vector<StoredRun>& runs,
                        const std::vector<std::optional<Headline>>& headlines) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    const StoredRun& stored = runs[i];
    const RunResult& run = stored.run;
    const std::optional<Headline>& headline = headlines.at(i);
    nlohmann::json tag_object = nlohmann::json::object();
    for (const auto& [key, value] : stored.labels.tags) tag_object[key] = value;
    list.push_back(
        {{"id", stored.id},
         {"label", stored.labels.label},
         {"status", RunStatusName(run.status)},
         {"source", stored.labels.source},
         {"start_unix_ns", run.start_unix_ns},
         {"end_unix_ns", run.end_unix_ns},
         {"workload", DescribeWorkload(run.spec)},
         {"command_line", run.command_line},
         {"headline",
          headline
              ? HeadlineJson(*headline, DescribeMetric(HeadlineMetric(run)))
              : nlohmann::json()},
         {"read_mibs_median", run.summary.read_mibs.median},
         {"write_mibs_median", run.summary.write_mibs.median},
         {"iops_median", run.summary.iops.median},
         {"latency_p99_ns", run.summary.latency.p99},
         {"tags", tag_object}});
  }
  return list;
}

}  // namespace flashmark
