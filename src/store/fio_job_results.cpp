#include "store/fio_job_results.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/json_text.h"
#include "store/fio_logs.h"

namespace flashmark {

using nlohmann::json;

std::string JsonChild(const std::string& path, std::string_view key) {
  std::string escaped;
  for (char c : key)
    escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return path + "/" + escaped;
}

Result<const json*> FioMember(const ImportFile& file, const json& parent,
                              const std::string& path, const char* key,
                              json::value_t type) {
  const std::string at = JsonChild(path, key);
  if (!parent.is_object() || !parent.contains(key)) {
    return JsonPathError(file, at, "missing", kFioJsonHint);
  }
  const json& value = parent[key];
  const bool fits = type == json::value_t::number_float ? value.is_number()
                                                        : value.type() == type;
  if (!fits) {
    static const std::map<json::value_t, const char*> kNames = {
        {json::value_t::object, "an object"},
        {json::value_t::array, "an array"},
        {json::value_t::string, "a string"},
        {json::value_t::number_float, "a number"}};
    return JsonPathError(
        file, at, fmt::format("{} is not {}", JsonText(value), kNames.at(type)),
        kFioJsonHint);
  }
  return &value;
}

Result<double> FioNumber(const ImportFile& file, const json& parent,
                         const std::string& path, const char* key) {
  auto value = FioMember(file, parent, path, key, json::value_t::number_float);
  if (!value.ok()) return value.error();
  return (*value)->get<double>();
}

// One direction ("read", "write", "trim"): totals, JSON+ buckets, figures.
Result<FioSide> ReadFioSide(const ImportFile& file, const json& job,
                            const std::string& job_path, const char* name,
                            ToolReport& report) {
  FioSide side;
  auto object = FioMember(file, job, job_path, name, json::value_t::object);
  if (!object.ok()) return object.error();
  const json& d = **object;
  const std::string path = JsonChild(job_path, name);
  double bytes = 0, ios = 0;
  for (auto [key, into] : {std::pair{"io_bytes", &bytes},
                           {"total_ios", &ios},
                           {"runtime", &side.runtime_ms}}) {
    auto value = FioNumber(file, d, path, key);
    if (!value.ok()) return value.error();
    if (!Bounded(*value)) {
      return JsonPathError(file, JsonChild(path, key),
                           fmt::format("{} is not a count", *value),
                           kFioJsonHint);
    }
    *into = *value;
  }
  side.totals = {static_cast<uint64_t>(ios), static_cast<uint64_t>(bytes)};
  auto clat = FioMember(file, d, path, "clat_ns", json::value_t::object);
  if (!clat.ok()) return clat.error();
  if (ios == 0) return side;
  auto figure = [&](const std::string& what, double value, const char* unit) {
    report.figures.push_back({std::string(name) + " " + what, value, unit});
  };
  for (auto [key, unit] : {std::pair{"iops", "IOPS"}, {"bw", "KiB/s"}}) {
    auto value = FioNumber(file, d, path, key);
    if (!value.ok()) return value.error();
    figure(key == std::string("iops") ? "IOPS" : "bw", *value, unit);
  }
  figure("io_bytes", bytes, "B");
  figure("total_ios", ios, "");
  figure("runtime", side.runtime_ms, "ms");
  const std::string clat_path = JsonChild(path, "clat_ns");
  for (const char* key : {"mean", "min", "max", "stddev"}) {
    auto value = FioNumber(file, **clat, clat_path, key);
    if (!value.ok()) return value.error();
    figure(std::string("clat ") + key, *value, "ns");
  }
  const json percentiles = (*clat)->value("percentile", json::object());
  std::vector<std::pair<double, double>>
      ordered;  // (percent, ns): "5" before "10"
  for (const auto& [key, value] : percentiles.items()) {
    const auto percent = ParseNumber(key);
    if (!percent || !value.is_number()) {
      return JsonPathError(file,
                           JsonChild(JsonChild(clat_path, "percentile"), key),
                           "is not a percentile (percent: ns)", kFioJsonHint);
    }
    ordered.emplace_back(*percent, value.get<double>());
  }
  std::sort(ordered.begin(), ordered.end());
  for (const auto& [percent, ns] : ordered) {
    figure(fmt::format("clat p{:g}", percent), ns, "ns");
  }
  for (const char* other : {"lat_ns", "slat_ns"}) {
    const json* latency = d.contains(other) ? &d[other] : nullptr;
    if (latency && latency->is_object() && latency->contains("mean") &&
        (*latency)["mean"].is_number()) {
      figure(
          std::string(other).substr(0, std::string(other).size() - 3) + " mean",
          (*latency)["mean"].get<double>(), "ns");
    }
  }
  if ((*clat)->contains("bins")) {
    auto bins =
        FioMember(file, **clat, clat_path, "bins", json::value_t::object);
    if (!bins.ok()) return bins.error();
    side.bins.assign(kFioBins, 0);
    for (const auto& [key, count] : (*bins)->items()) {
      const auto value = Bounded(ParseNumber(key));
      if (!value || !count.is_number_unsigned()) {
        return JsonPathError(file, JsonChild(JsonChild(clat_path, "bins"), key),
                             "is not a latency bucket (ns: count)",
                             kFioJsonHint);
      }
      const uint64_t ns = static_cast<uint64_t>(*value);
      side.histogram.Add(ns, count.get<uint64_t>());
      const int64_t index = FioBinIndex(ns);
      if (index < 0 || side.bins.empty()) {
        side.bins.clear();  // not fio's own bins: no exact remainder
      } else {
        side.bins[index] += count.get<uint64_t>();
      }
    }
  }
  return side;
}

void AddFioSteadyState(const json& job, ToolReport& report) {
  const json& ss = job.value("steadystate", json());
  if (!ss.is_object()) return;
  auto number = [](const json& v) {
    return v.is_number()   ? v.get<double>()
           : v.is_string() ? std::strtod(v.get<std::string>().c_str(), nullptr)
                           : 0.0;
  };
  const json& name = ss.value("ss", json());
  const std::string criterion = name.is_string() ? name.get<std::string>() : "";
  report.notes.push_back(
      fmt::format("fio steady state {} over {:g} s: {}", criterion,
                  number(ss.value("duration", json(0))),
                  number(ss.value("attained", json(0))) != 0 ? "attained"
                                                             : "not attained"));
  for (const char* key :
       {"attained", "criterion", "max_deviation", "slope", "duration"}) {
    if (ss.contains(key)) {
      report.figures.push_back({fmt::format("steadystate {}", key),
                                number(ss[key]),
                                key == std::string("criterion")  ? "%"
                                : key == std::string("duration") ? "s"
                                                                 : ""});
    }
  }
  const json& data = ss.value("data", json::object());
  for (const char* key : {"iops_mean", "bw_mean"}) {
    if (data.is_object() && data.contains(key)) {
      report.figures.push_back(
          {fmt::format("steadystate {}", key), number(data[key]),
           key == std::string("bw_mean") ? "B/s" : "IOPS"});
    }
  }
}

}  // namespace flashmark
