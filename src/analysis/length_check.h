// LengthCheck: whether a series is long enough for one analysis method,
// and the sentence that says so, naming what the method needs and what the
// series has: "SNIA steady state needs at least 5 rounds of 60 s = 300 s;
// this run has 10 s". Every method of analysis/ that needs a minimum length
// (SNIA, MSER-5, fio's rolling criteria, regimes) carries one in its
// result, so that a short run is told why a method said nothing instead of
// reading "window of 0 rounds" or "never holds".
// Units: seconds. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace flashmark {

struct LengthCheck {
  bool enough = true;
  double needed_seconds = 0;
  double have_seconds = 0;
  std::string need;  // what the method needs (always set)
  std::string text;  // "<need>; <holder> has <have>"; empty when enough
};

// need: what the method needs, e.g. "SNIA steady state needs at least 5
// rounds of 60 s = 300 s"; holder: whose length have_seconds is ("this
// run", "the final regime"). Enough when have_seconds >= needed_seconds
// (within a microsecond); otherwise text is "<need>; <holder> has <have>".
LengthCheck CheckLength(std::string need, double needed_seconds,
                        double have_seconds,
                        std::string_view holder = "this run");

// "300 s", "1.5 s", "86400 s": seconds with up to 6 significant digits.
std::string FormatSeconds(double seconds);

}  // namespace flashmark
