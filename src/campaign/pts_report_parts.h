// The pieces the pages of a PTS report share (campaign/pts_report.h):
// one stored cell with its run and place in the rounds, and the HTML of
// tables and charts. Internal to the report; pure.
#pragma once

#include <string>
#include <vector>

#include "campaign/round_verdict.h"
#include "config/campaign_spec.h"
#include "model/run_result.h"
#include "report/svg_chart.h"
#include "store/campaign_store.h"

namespace flashmark::pts_report {

struct Cell {
  const StoredCell* stored = nullptr;
  const CampaignCell* plan = nullptr;  // its parameters, as a plan's cell
  const RunResult* run = nullptr;      // ok cells only
  int round = 0;
  int position = 0;  // in its round
};

// A cell with a run in the rounds of the verdict's last window.
bool InWindow(const Cell& cell, const RoundVerdict& verdict);

std::string Escape(const std::string& text);
// An HTML table, every text escaped.
std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class = "");
// A chart in its <figure> with the given id.
std::string ChartBlock(const XyChart& chart, const std::string& id);

// A matrix parameter's value in the cell ("" when it has none).
std::string Parameter(const StoredCell& cell, const std::string& name);
// "read-pct=65 bs=4k"; "-" for a cell without parameters.
std::string ParametersText(const Cell& cell);
// 12.3k from 1000 on, else 4 significant digits.
std::string Number(double value);

// DIRTH (campaign/pts_report_dirth.cpp): demand intensity, CPU use and
// the response-time histograms at the maximum, middle and minimum IOPS,
// over the window's rounds; "" without a window.
std::string DirthSections(const std::vector<Cell>& cells, int per_round,
                          const RoundVerdict& verdict);

}  // namespace flashmark::pts_report
