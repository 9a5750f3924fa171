// Known-truth acceptance grid of the steady-figure analysis (issue 13):
// warm-up, regimes and the headline on generated series whose truth is
// known, with the pass rate of every threshold, and the time a day of 1 s
// samples takes. The unit tests (tests/unit/headline_test.cpp,
// change_points_test.cpp) run a representative part of this grid; this
// program runs all of it.
//   cmake --build build --target analysis_truth && build/analysis_truth
//   build/analysis_truth regimes|warmup|findings|timing   (one part)
// Deterministic: every series is seeded (tests/unit/synthetic_series.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "analysis/change_points.h"
#include "analysis/fio_steady_state.h"
#include "analysis/headline.h"
#include "analysis/mser.h"
#include "analysis/steady_state.h"
#include "synthetic_series.h"

namespace flashmark {
namespace {

using synthetic::Noise;
using synthetic::NoisySeries;
using synthetic::RelativeDecaySeries;

struct Worst {
  std::string what;
  int pass = 1 << 30;
  int total = 1;
  void Note(const std::string& cell, int p, int t) {
    if (static_cast<double>(p) / t < static_cast<double>(pass) / total) {
      what = cell;
      pass = p;
      total = t;
    }
  }
};

std::string NoiseName(const Noise& noise) {
  std::string name = noise.phi > 0
                         ? "AR(1) phi " + std::to_string(noise.phi).substr(0, 3)
                         : std::string("iid");
  name += " " +
          std::to_string(static_cast<int>(std::round(noise.relative * 100))) +
          " %";
  if (noise.spike_rate > 0) name += " +1 % stalls";
  return name;
}

std::vector<Noise> NoiseGrid(std::vector<double> levels) {
  std::vector<Noise> grid;
  for (double phi : {0.0, 0.5, 0.8}) {
    for (double level : levels) {
      for (double spikes : {0.0, 0.01}) {
        grid.push_back(Noise{level, phi, spikes, 0.3});
      }
    }
  }
  return grid;
}

// Where the least-squares single change lies (the oracle that knows there
// is exactly one): the physical limit of locating a step under this noise.
size_t OracleChange(const std::vector<double>& v) {
  std::vector<double> prefix(v.size() + 1, 0.0);
  for (size_t i = 0; i < v.size(); ++i) prefix[i + 1] = prefix[i] + v[i];
  double best = -1;
  size_t at = 0;
  const double n = static_cast<double>(v.size());
  for (size_t t = 1; t < v.size(); ++t) {
    const double l = static_cast<double>(t), r = n - l;
    const double d = prefix[t] / l - (prefix[v.size()] - prefix[t]) / r;
    const double gain = l * r / n * d * d;
    if (gain > best) {
      best = gain;
      at = t;
    }
  }
  return at;
}

void Regimes() {
  std::printf("== Regimes (DetectChangePoints, default options)\n");
  std::printf("-- flat series: no change reported (pass: >= 98 of 100)\n");
  Worst flat;
  for (size_t n : {600, 3600, 7200}) {
    for (const Noise& noise : NoiseGrid({0.03, 0.06, 0.09, 0.12})) {
      int pass = 0;
      for (uint64_t seed = 1; seed <= 100; ++seed) {
        const auto v = NoisySeries(
            n, [](size_t) { return 300.0; }, noise, seed);
        pass += DetectChangePoints({v, 1.0, 0.0}).changes.empty();
      }
      const std::string cell =
          "n=" + std::to_string(n) + " " + NoiseName(noise);
      std::printf("  %-36s %3d/100\n", cell.c_str(), pass);
      flat.Note(cell, pass, 100);
    }
  }
  std::printf("  worst: %s %d/%d\n", flat.what.c_str(), flat.pass, flat.total);

  const auto step_grid = [](const char* title, double drop,
                            std::vector<double> levels) {
    std::printf(
        "-- %s: exactly one change, within 30 s (pass: >= 98 of 100); "
        "oracle = least squares knowing there is one change\n",
        title);
    Worst worst;
    for (size_t n : {600, 3600, 7200}) {
      const size_t at = n * 3 / 5;
      for (const Noise& noise : NoiseGrid(levels)) {
        int pass = 0, oracle = 0;
        for (uint64_t seed = 1; seed <= 100; ++seed) {
          const auto v = NoisySeries(
              n, [&](size_t i) { return i < at ? 300.0 : 300.0 * (1 - drop); },
              noise, seed);
          const ChangePointResult r = DetectChangePoints({v, 1.0, 0.0});
          pass += r.changes.size() == 1 &&
                  std::abs(static_cast<double>(r.changes[0].index) -
                           static_cast<double>(at)) <= 30;
          oracle += std::abs(static_cast<double>(OracleChange(v)) -
                             static_cast<double>(at)) <= 30;
        }
        const std::string cell =
            "n=" + std::to_string(n) + " " + NoiseName(noise);
        std::printf("  %-36s %3d/100  (oracle %3d/100)\n", cell.c_str(), pass,
                    oracle);
        worst.Note(cell, pass, 100);
      }
    }
    std::printf("  worst: %s %d/%d\n", worst.what.c_str(), worst.pass,
                worst.total);
  };
  step_grid("10 % step at 0.6 n", 0.10, {0.03, 0.06, 0.09, 0.12});
  step_grid("5 % step at 0.6 n, 2 % noise", 0.05, {0.02});
}

// The warm-up grid: (plateau + A exp(-t / tau)) (1 + noise), plateau 217,
// A = 263 (the FusionIO trace) or 108.5 (half the plateau).
void Warmup() {
  std::printf("== Warm-up (FindHeadline, --warmup auto)\n");
  std::printf(
      "-- median within 1 %% of the plateau (pass: >= 95 %% of 50 "
      "seeds) and warm-up end after t* = tau ln(A / (noise x "
      "plateau)), where the remaining excess falls below the noise; "
      "run length max(3600 s, 8 tau)\n");
  const double plateau = 217;
  HeadlineOptions fast;
  fast.bootstrap.resamples = 0;  // the CI is not judged here
  int all = 0, all_median = 0, all_after = 0;
  Worst worst_median, worst_after;
  for (double phi : {0.0, 0.5}) {
    for (double amplitude : {263.0, 108.5}) {
      for (double tau : {60.0, 120.0, 300.0, 600.0, 900.0}) {
        for (double noise_level : {0.03, 0.05, 0.07, 0.10}) {
          const size_t n = static_cast<size_t>(std::max(3600.0, 8 * tau));
          const double t_star =
              tau * std::log(amplitude / (noise_level * plateau));
          int median_ok = 0, after = 0;
          double worst_error = 0, earliest = 1e18;
          for (uint64_t seed = 1; seed <= 50; ++seed) {
            const auto v = RelativeDecaySeries(n, amplitude, tau, plateau,
                                               Noise{noise_level, phi}, seed);
            auto h = FindHeadline({v, 1.0, 0.0}, fast);
            if (!h.ok()) continue;
            const double error = std::abs(h->figure.median / plateau - 1);
            worst_error = std::max(worst_error, error);
            median_ok += error <= 0.01;
            after += h->warmup_end_seconds >= t_star;
            earliest = std::min(earliest, h->warmup_end_seconds);
          }
          const std::string cell =
              (phi > 0 ? "AR(0.5) " : "iid ") + std::string("A=") +
              std::to_string(static_cast<int>(amplitude)) +
              " tau=" + std::to_string(static_cast<int>(tau)) + " noise " +
              std::to_string(static_cast<int>(noise_level * 100)) + " %";
          std::printf(
              "  %-28s n=%5zu t*=%5.0f s  median within 1 %%: %2d/50 "
              "(worst %.2f %%)  end >= t*: %2d/50 (earliest %.0f s)\n",
              cell.c_str(), n, t_star, median_ok, 100 * worst_error, after,
              earliest);
          worst_median.Note(cell, median_ok, 50);
          worst_after.Note(cell, after, 50);
          all += 50;
          all_median += median_ok;
          all_after += after;
        }
      }
    }
  }
  std::printf("  overall: median within 1 %% %d/%d, end >= t* %d/%d\n",
              all_median, all, all_after, all);
  std::printf("  worst cell (median): %s %d/%d; (end): %s %d/%d\n",
              worst_median.what.c_str(), worst_median.pass, worst_median.total,
              worst_after.what.c_str(), worst_after.pass, worst_after.total);

  std::printf(
      "-- flat series (no warm-up): how much the automatic warm-up "
      "cuts (100 seeds, 3600 s)\n");
  for (const Noise& noise : NoiseGrid({0.03, 0.12})) {
    std::vector<double> cuts;
    for (uint64_t seed = 1; seed <= 100; ++seed) {
      const auto v = NoisySeries(
          3600, [](size_t) { return 300.0; }, noise, seed);
      auto h = FindHeadline({v, 1.0, 0.0}, fast);
      if (h.ok()) cuts.push_back(h->warmup_end_seconds);
    }
    std::sort(cuts.begin(), cuts.end());
    int none = 0;
    for (double c : cuts) none += c == 0;
    std::printf(
        "  %-28s nothing cut %3d/100, median cut %4.0f s, 95th "
        "percentile %4.0f s, max %4.0f s\n",
        NoiseName(noise).c_str(), none, cuts[cuts.size() / 2],
        cuts[cuts.size() * 95 / 100], cuts.back());
  }
}

void PrintHeadline(const char* title, const std::vector<double>& v) {
  auto h = FindHeadline({v, 1.0, 0.0});
  if (!h.ok()) {
    std::printf("  %s: error: %s\n", title, h.error().message.c_str());
    return;
  }
  std::printf(
      "  %s\n    figure: median %.1f (95 %% CI %.1f..%.1f), whole run "
      "%.1f\n    rule: %s\n    %s\n    %s\n",
      title, h->figure.median, h->figure.median_ci.low,
      h->figure.median_ci.high, h->whole_run.median, h->rule.c_str(),
      h->warmup_reason.c_str(), h->verdict_text.c_str());
  for (const ChangePoint& c : h->regimes.changes) {
    std::printf("    %s (z %.1f)\n",
                FormatHeadlineChange(c, "throughput", "MiB/s").c_str(), c.z);
  }
}

void Findings() {
  std::printf("== The issue's traces\n");
  std::printf(
      "-- finding 1: FusionIO-like decay 480 -> 217 MiB/s, tau 300 s, "
      "7 %% noise, 3600 s (t* = %.0f s)\n",
      300 * std::log(263 / (0.07 * 217)));
  for (uint64_t seed : {1, 2, 3}) {
    const auto v = RelativeDecaySeries(3600, 263, 300, 217, Noise{0.07}, seed);
    PrintHeadline(("seed " + std::to_string(seed)).c_str(), v);
  }
  std::printf(
      "-- findings 2 and 3: 380 (3 %% noise) -> 300 +- 35 MiB/s at "
      "4000 s, 7200 s; exactly one change within 30 s, figure within "
      "1 %% of 300 (pass: >= 98 of 100)\n");
  for (double phi : {0.0, 0.5, 0.8}) {
    for (double first_noise : {0.01, 0.03}) {
      int pass = 0, figure = 0;
      for (uint64_t seed = 1; seed <= 100; ++seed) {
        auto v = NoisySeries(
            4000, [](size_t) { return 380.0; }, Noise{first_noise, phi}, seed);
        const auto b = NoisySeries(
            3200, [](size_t) { return 300.0; }, Noise{35.0 / 300, phi},
            seed + 1000);
        v.insert(v.end(), b.begin(), b.end());
        auto h = FindHeadline({v, 1.0, 0.0});
        if (!h.ok()) continue;
        pass += h->regimes.changes.size() == 1 &&
                std::abs(h->regimes.changes[0].time_seconds - 4000) <= 30;
        figure += std::abs(h->figure.median / 300 - 1) <= 0.01;
        if (seed == 1 && phi == 0 && first_noise == 0.03) {
          PrintHeadline("seed 1, iid", v);
        }
      }
      std::printf(
          "  phi %.1f, first regime noise %2.0f %%: one change %3d/100, "
          "figure within 1 %% %3d/100\n",
          phi, first_noise * 100, pass, figure);
    }
  }
  std::printf("-- finding 6: a 10 s run\n");
  const auto short_run = NoisySeries(
      10, [](size_t) { return 300.0; }, Noise{0.05}, 1);
  const IntervalSeries s{short_run, 1.0, 0.0};
  std::printf("  %s\n  %s\n  %s\n  %s\n",
              FindSniaSteadyState(s).length.text.c_str(),
              FindMserTruncation(s).length.text.c_str(),
              FindFioSteadyState(s).length.text.c_str(),
              DetectChangePoints(s).length.text.c_str());
  PrintHeadline("headline", short_run);
}

template <typename F>
double MinSeconds(F f) {
  double best = 1e9;
  for (int i = 0; i < 3; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

void Timing() {
  std::printf("== Timing: a day of 1 s samples (86,400), best of 3\n");
  // Decay into a plateau, a 20 % cliff at two thirds, 7 % AR(1) noise.
  const auto v = NoisySeries(
      86400,
      [](size_t i) {
        const double level =
            300 + 200 * std::exp(-static_cast<double>(i) / 1800);
        return i > 57600 ? 0.8 * level : level;
      },
      Noise{0.07, 0.5, 0.001, 0.3}, 42);
  const IntervalSeries s{v, 1.0, 0.0};
  std::printf("  DetectChangePoints   %7.1f ms\n",
              1e3 * MinSeconds([&] { (void)DetectChangePoints(s); }));
  std::printf("  FindMserTruncation   %7.1f ms\n",
              1e3 * MinSeconds([&] { (void)FindMserTruncation(s); }));
  std::printf("  FindSniaSteadyState  %7.1f ms\n",
              1e3 * MinSeconds([&] { (void)FindSniaSteadyState(s); }));
  std::printf("  FindFioSteadyState   %7.1f ms\n",
              1e3 * MinSeconds([&] { (void)FindFioSteadyState(s); }));
  std::printf("  FindHeadline (auto)  %7.1f ms\n",
              1e3 * MinSeconds([&] { (void)FindHeadline(s); }));
  PrintHeadline("the day's headline", v);
}

}  // namespace
}  // namespace flashmark

int main(int argc, char** argv) {
  using namespace flashmark;
  const std::string part = argc > 1 ? argv[1] : "all";
  const std::vector<std::pair<std::string, std::function<void()>>> parts = {
      {"regimes", Regimes},
      {"warmup", Warmup},
      {"findings", Findings},
      {"timing", Timing}};
  bool ran = false;
  for (const auto& [name, run] : parts) {
    if (part == "all" || part == name) {
      run();
      ran = true;
    }
  }
  if (!ran) {
    std::fprintf(stderr, "usage: %s [all|regimes|warmup|findings|timing]\n",
                 argv[0]);
    return 2;
  }
  return 0;
}
