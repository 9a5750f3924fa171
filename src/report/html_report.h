// The self-contained HTML report: web/report.html with ECharts, the report
// data (JSON, with <, > and & escaped so it can never end its script
// element) and web/report.js inlined, all embedded at build time. Needs
// no network to view. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace flashmark {

// False in a build configured without web/node_modules (no ECharts
// embedded): the page could not draw its charts, so none is written.
bool HtmlReportAvailable();

// The page loads nothing (its Content-Security-Policy says connect-src
// 'none'); a live page (`live`) may fetch from the server it came from
// (connect-src 'self'), and nothing else.
std::string RenderHtmlReport(const nlohmann::json& data, bool live = false);

// JSON text safe inside <script type="application/json">.
std::string ScriptSafeJson(const nlohmann::json& data);

}  // namespace flashmark
