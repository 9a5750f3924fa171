#include "report/html_report.h"

#include "common/json_text.h"
#include "report/report_assets.h"

namespace flashmark {
namespace {

void ReplaceOnce(std::string& text, std::string_view marker,
                 const std::string& replacement) {
  const auto at = text.find(marker);
  if (at != std::string::npos) text.replace(at, marker.size(), replacement);
}

// Inline script text may not contain "</script": inside JavaScript strings
// and regular expressions "<\/script" means the same.
std::string InlineScript(std::string_view script) {
  std::string text(script);
  for (size_t at = 0; (at = text.find("</script", at)) != std::string::npos;) {
    text.replace(at, 2, "<\\/");
  }
  return "<script>" + text + "</script>";
}

}  // namespace

std::string ScriptSafeJson(const nlohmann::json& data) {
  const std::string raw = JsonText(data);
  std::string safe;
  safe.reserve(raw.size() + raw.size() / 16);
  for (char c : raw) {
    switch (c) {
      case '<':
        safe += "\\u003c";
        break;
      case '>':
        safe += "\\u003e";
        break;
      case '&':
        safe += "\\u0026";
        break;
      default:
        safe += c;
    }
  }
  return safe;
}

bool HtmlReportAvailable() { return !EchartsScript().empty(); }

std::string RenderHtmlReport(const nlohmann::json& data, bool live) {
  std::string page(ReportTemplate());
  if (live) ReplaceOnce(page, "connect-src 'none'", "connect-src 'self'");
  ReplaceOnce(page, "<!--FLASHMARK_ECHARTS-->", InlineScript(EchartsScript()));
  ReplaceOnce(page, "<!--FLASHMARK_DATA-->",
              "<script type=\"application/json\" id=\"report-data\">" +
                  ScriptSafeJson(data) + "</script>");
  ReplaceOnce(page, "<!--FLASHMARK_APP-->", InlineScript(ReportScript()));
  return page;
}

}  // namespace flashmark
