// User text (labels, tags, paths, command lines, what an imported file or
// the system reported) made safe for each kind of output, so that it reads
// as the text it is and never as markup, a formula or a terminal command.
// One function per output; pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace flashmark {

// A CSV cell (RFC 4180): always quoted, quotes doubled. Text starting with
// = + - @ TAB or CR (which spreadsheets run as a formula) gets a ' in front
// (OWASP's advice), so "=HYPERLINK(...)" stays text. For text only: numbers
// are written as numbers, not through this.
std::string CsvCell(std::string_view text);

// Text inside a Markdown line (a table cell, a heading, a list item): the
// characters that start Markdown or HTML (\ ` * _ [ ] < > & | ! #) are
// escaped (a backslash, or an entity for < > &), line breaks become
// spaces and other control characters U+FFFD, so no link, image, code
// span, HTML or table column can start inside it.
std::string MarkdownInline(std::string_view text);

// A fenced code block holding `text` verbatim: the fence is one backtick
// longer than the longest run of backticks in the text (at least three),
// so nothing in the text can close it. Ends with a newline.
std::string MarkdownFence(std::string_view text, std::string_view info = "");

// Text for a terminal: control characters (C0, DEL, C1), ESC included, and
// bytes that are not UTF-8 are shown as \xNN (C1 as \u0080..\u009f), so
// no escape sequence reaches the terminal and a label cannot fake a line.
std::string TerminalText(std::string_view text);

// An OpenMetrics (Prometheus) label value, to go between its quotes:
// backslash, quote and line feed escaped; bytes that are not UTF-8 become
// U+FFFD, so the exposition stays valid UTF-8.
std::string OpenMetricsLabelValue(std::string_view text);

}  // namespace flashmark
