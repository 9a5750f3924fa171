// The cluster part of a report: when the reported runs hold the aggregate
// of a run across MPI ranks (tag rank=all, campaign/cluster_run.h) and
// runs of its ranks (same group= tag), a table per rank (its headline
// figures, IOs, bytes and share of the aggregate), a rank x time heatmap
// of the headline metric, and which run is the aggregate: its latency
// distribution, from the ranks' merged histograms, is the cluster-wide
// one. Pure; the runs arrive loaded and analysed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/report_data.h"

namespace flashmark {

// The N of a rank's run (tags group= and rank=N); nothing for an
// aggregate (rank=all) or a run of no group.
std::optional<size_t> ClusterRank(const StoredRun& stored);

// "all ranks" for a group's aggregate, "rank 2 on vm" for one rank's run;
// nothing for a run of no group.
std::optional<std::string> ClusterRunName(const StoredRun& stored);

// Null unless `runs` holds an aggregate and at least one of its ranks (the
// first aggregate, when there are several). Heatmap columns average
// consecutive intervals so that there are at most `max_columns`.
nlohmann::json ClusterReportJson(const std::vector<ReportRun>& runs,
                                 size_t max_columns);

}  // namespace flashmark
