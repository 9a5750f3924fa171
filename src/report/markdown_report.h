// `flashmark report --md FILE`: the report's tables as Markdown (for a blog
// post or a README) and its charts as SVG files beside it, named
// FILE-stem-<chart>.svg and linked from the Markdown. Texts are escaped
// (MarkdownInline) and the reproduce command is fenced (MarkdownFence), so
// labels cannot inject Markdown or HTML. Every file is written
// whole or not at all. Reads the report data (report_data.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"

namespace flashmark {

Status WriteMarkdownReport(const nlohmann::json& data, const std::string& path);

}  // namespace flashmark
