#include "report/report_csv.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "common/atomic_file.h"
#include "common/json_text.h"
#include "report/text_escape.h"

namespace flashmark {
namespace {

using nlohmann::json;

// A CSV field: numbers as they are, text as a safe quoted cell (CsvCell).
std::string Field(const json& value) {
  if (value.is_null()) return "";
  if (value.is_number()) return JsonText(value);
  if (value.is_boolean()) return value.get<bool>() ? "1" : "0";
  return CsvCell(value.is_string() ? value.get<std::string>()
                                   : JsonText(value));
}

// A header cell: a plain name (a tag key such as "threads") as it is,
// anything else as a safe quoted cell.
std::string HeaderCell(const std::string& name) {
  const std::string word =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
  const bool plain = !name.empty() && word.find(name[0]) != std::string::npos &&
                     name.find_first_not_of(word + ".-") == std::string::npos;
  return plain ? name : CsvCell(name);
}

std::string Columns(const json& arrays, const std::vector<std::string>& names) {
  std::ostringstream out;
  for (size_t c = 0; c < names.size(); ++c) out << (c ? "," : "") << names[c];
  out << "\n";
  const size_t rows = arrays.at(names.front()).size();
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < names.size(); ++c) {
      out << (c ? "," : "") << Field(arrays.at(names[c]).at(r));
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace

std::vector<PendingFile> ReportCsvFiles(const json& data,
                                        const std::string& directory) {
  std::vector<PendingFile> files;
  std::ostringstream runs;
  runs << "id,name,status,metric,unit,median,ci_low,ci_high,p25,p75,p5,p95,min,"
          "max,mean,cv_percent,intervals,iops_median,lat_p50_ms,lat_p95_ms,"
          "lat_p99_ms,lat_p999_ms,lat_max_ms,steady_reached,warmup_end_s\n";
  for (const auto& run : data.at("runs")) {
    const json& s = run.at("summary");
    const json& l = s.at("latency_ms");
    runs << fmt::format("{},{},{},{},{}", Field(run["id"]), Field(run["name"]),
                        Field(run["status"]), Field(s["metric"]),
                        Field(s["unit"]));
    for (const char* key :
         {"median", "ci_low", "ci_high", "p25", "p75", "p5", "p95", "min",
          "max", "mean", "cv_percent", "intervals", "iops_median"}) {
      runs << "," << Field(s[key]);
    }
    for (const char* key : {"p50", "p95", "p99", "p99.9", "max"})
      runs << "," << Field(l[key]);
    runs << "," << Field(run["steady_state"]["reached"]) << ","
         << Field(run["steady_state"]["warmup_end"]) << "\n";
    const std::string id = JsonText(run.at("id"));
    files.push_back({directory + "/timeseries-run" + id + ".csv",
                     Columns(run.at("series"),
                             {"t", "value", "iops", "p95_ms", "p99_ms"})});
    files.push_back({directory + "/latency-cdf-run" + id + ".csv",
                     Columns(run.at("latency_cdf"), {"ms", "fraction"})});
  }
  files.push_back({directory + "/runs.csv", runs.str()});
  if (data.contains("groups") && !data["groups"].is_null()) {
    std::ostringstream groups;
    groups
        << HeaderCell(data["groups"]["by"].get<std::string>())
        << ",value,runs,q1,median,q3,lower_whisker,upper_whisker,outliers,p25,"
           "p75,p95_ms,p99_ms\n";
    for (const auto& item : data["groups"]["items"]) {
      const json& box = item["box"];
      groups << fmt::format(
          "{},{},{},{},{},{},{},{},{},{},{},{},{}\n", Field(item["name"]),
          Field(item["value"]), item["runs"].size(), Field(box["q1"]),
          Field(box["median"]), Field(box["q3"]), Field(box["lower_whisker"]),
          Field(box["upper_whisker"]), box["outliers"].size(),
          Field(item["p25"]), Field(item["p75"]), Field(item["p95_ms"]),
          Field(item["p99_ms"]));
    }
    files.push_back({directory + "/groups.csv", groups.str()});
  }
  if (data.contains("comparison") && !data["comparison"].is_null()) {
    std::ostringstream comparison;
    comparison
        << "name,median,low,high,ratio,ratio_low,ratio_high,price_per_gb,"
           "price_per_mibs,price_per_kiops,currency\n";
    for (const auto& item : data["comparison"]["items"]) {
      comparison << Field(item["name"]);
      for (const char* key :
           {"median", "low", "high", "ratio", "ratio_low", "ratio_high",
            "price_per_gb", "price_per_mibs", "price_per_kiops", "currency"}) {
        comparison << "," << Field(item[key]);
      }
      comparison << "\n";
    }
    files.push_back({directory + "/comparison.csv", comparison.str()});
  }
  if (data.contains("cluster") && !data["cluster"].is_null()) {
    const json& c = data["cluster"];
    std::ostringstream ranks;
    ranks << "rank,host,run,status,median,p25,p75,iops_median,p99_ms,ios,"
             "bytes,share_percent,intervals\n";
    json items = c["items"];
    items.push_back(c["aggregate"]);
    for (const auto& item : items) {
      ranks << (item["rank"].is_null() ? "all" : Field(item["rank"]));
      for (const char* key :
           {"host", "id", "status", "median", "p25", "p75", "iops_median",
            "p99_ms", "ios", "bytes", "share_percent", "intervals"}) {
        ranks << "," << Field(item[key]);
      }
      ranks << "\n";
    }
    files.push_back({directory + "/cluster-ranks.csv", ranks.str()});
    // The heatmap as a table: one row per column of time, one column per
    // rank (empty where the rank had no interval).
    const json& h = c["heatmap"];
    std::ostringstream heatmap;
    heatmap << "start_s,end_s";
    for (const auto& row : h["rows"]) heatmap << "," << Field(row);
    heatmap << "\n";
    std::vector<std::vector<json>> grid(h["start"].size(),
                                        std::vector<json>(h["rows"].size()));
    for (const auto& cell : h["cells"]) {
      grid.at(cell[0].get<size_t>()).at(cell[1].get<size_t>()) = cell[2];
    }
    for (size_t t = 0; t < grid.size(); ++t) {
      heatmap << Field(h["start"][t]) << "," << Field(h["end"][t]);
      for (const json& value : grid[t]) heatmap << "," << Field(value);
      heatmap << "\n";
    }
    files.push_back({directory + "/cluster-heatmap.csv", heatmap.str()});
  }
  return files;
}

}  // namespace flashmark
