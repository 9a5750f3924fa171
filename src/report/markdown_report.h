// `flashmark report --md FILE`: the report's tables as Markdown (for a blog
// post or a README) and its charts as SVG files beside it, named
// FILE-stem-<chart>.svg and linked from the Markdown. Texts are escaped
// (MarkdownInline) and the reproduce command is fenced (MarkdownFence), so
// labels cannot inject Markdown or HTML. Pure: the files (the SVGs, then
// FILE itself) are returned for the caller to write all or none
// (WriteFilesAtomically). Reads the report data (report_data.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/atomic_file.h"

namespace flashmark {

std::vector<PendingFile> MarkdownReportFiles(const nlohmann::json& data,
                                             const std::string& path);

}  // namespace flashmark
