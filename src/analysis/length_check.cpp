#include "analysis/length_check.h"

#include <fmt/format.h>

#include <utility>

namespace flashmark {

LengthCheck CheckLength(std::string need, double needed_seconds,
                        double have_seconds, std::string_view holder) {
  LengthCheck check;
  check.needed_seconds = needed_seconds;
  check.have_seconds = have_seconds;
  check.enough = have_seconds + 1e-6 >= needed_seconds;
  check.need = std::move(need);
  if (!check.enough) {
    check.text = fmt::format("{}; {} has {}", check.need, holder,
                             FormatSeconds(have_seconds));
  }
  return check;
}

std::string FormatSeconds(double seconds) {
  return fmt::format("{:g} s", seconds);
}

}  // namespace flashmark
