// The HTML report's assets, embedded in the binary at build time so that
// `flashmark report --html` needs nothing at run time and the page it writes
// needs nothing to be viewed (no network, no files beside it).
//
// Generated from web/ by web/embed_assets.cmake into
// <build>/generated/report/report_assets.cpp (see the end of CMakeLists.txt):
//   ReportTemplate()  web/report.html: the page, with its CSS, and three
//                     placeholder lines, each alone on its line:
//                       <!--FLASHMARK_ECHARTS-->  <script> + EchartsScript() +
//                       </script>
//                       <!--FLASHMARK_DATA-->     <script
//                       type="application/json"
//                                                 id="report-data"> + report
//                                                 JSON with < > & written as
//                                                 \u003c \u003e \u0026
//                                                 + </script>
//                       <!--FLASHMARK_APP-->      <script> + ReportScript() +
//                       </script>
//   ReportScript()    web/report.js: reads the JSON (schema "flashmark.report",
//                     version 1) and draws the charts and tables.
//   EchartsScript()   Apache ECharts (echarts.min.js from web/node_modules,
//   pinned
//                     by web/package-lock.json); Apache License 2.0.
//   EchartsVersion()  its version, e.g. "6.1.0".
// Neither script contains "</script" or "<!--": each can be inlined as is
// (tests/browser/render-sample.mjs performs the same substitution in Node).
// The views point into static storage: valid for the whole program, UTF-8,
// thread-safe.
#pragma once

#include <string_view>

namespace flashmark {

std::string_view ReportTemplate();
std::string_view ReportScript();
std::string_view EchartsScript();
std::string_view EchartsVersion();

}  // namespace flashmark
