#include "config/pts_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/json_text.h"
#include "common/units.h"

namespace flashmark {
namespace {

using std::chrono::nanoseconds;
using std::chrono::seconds;

constexpr std::array<PtsTest, 8> kTests{
    PtsTest::kIops, PtsTest::kThroughput, PtsTest::kLatency, PtsTest::kWsat,
    PtsTest::kHir,  PtsTest::kXsr,        PtsTest::kEcw,     PtsTest::kDirth};

constexpr int kMaxRounds = 25;
constexpr int kWindowRounds = 5;
constexpr uint64_t kMiB = 1ull << 20;

// The composite block-size mix and hot zones of the ECW test.
constexpr std::string_view kEcwBlockSizes =
    "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3";
constexpr std::string_view kEcwZones = "zoned:50/5:30/15:20/80";
// The demand levels of ECW (total outstanding IOs) and DIRTH (TC and QD).
constexpr std::array<int, 7> kDemand{32, 16, 8, 6, 4, 2, 1};
// HIR: the wait states between bursts, and the bursts per state.
constexpr std::array<int, 5> kHirWaits{5, 10, 15, 25, 50};
constexpr int kHirBursts = 360;
constexpr int kHirBurstSeconds = 5;
constexpr int kHirBaselineSeconds = 1800;

std::string Quote(std::string_view text) {
  return JsonText(nlohmann::json(std::string(text)));
}

using std::chrono::milliseconds;

// A full-scale duration times the scale, in whole milliseconds, at least
// `least` (100 ms: a cell still holds a few intervals).
nanoseconds Scaled(nanoseconds full, double scale,
                   nanoseconds least = milliseconds(100)) {
  const double ms = std::chrono::duration<double, std::milli>(full).count();
  return std::max<nanoseconds>(least, milliseconds(std::llround(ms * scale)));
}

std::string DurationText(nanoseconds duration) {
  const auto ms = std::chrono::duration_cast<milliseconds>(duration).count();
  return ms % 1000 == 0 ? fmt::format("{}s", ms / 1000)
                        : fmt::format("{}ms", ms);
}

// Bytes times the scale, whole MiB, at least 1 MiB.
uint64_t ScaledBytes(double bytes, double scale) {
  return std::max<uint64_t>(
             1, static_cast<uint64_t>(std::llround(bytes * scale / kMiB))) *
         kMiB;
}

struct Profile {
  int threads = 4;
  int iodepth = 32;
  std::string range;  // size = "100%"
};

Profile ProfileOf(const PtsSettings& s) {
  Profile p = s.profile == PtsProfile::kEnterprise ? Profile{4, 32, "100%"}
                                                   : Profile{2, 16, "75%"};
  if (s.threads) p.threads = *s.threads;
  if (s.iodepth) p.iodepth = *s.iodepth;
  return p;
}

// A workload-dependent preconditioning until steady stops at 25 rounds of
// 30 minutes, scaled, and has room for two windows of its rounds.
nanoseconds PreconditionLimit(const PtsSettings& s) {
  const nanoseconds round = Scaled(seconds(60), s.scale, seconds(1));
  return std::max<nanoseconds>(
      round * kWindowRounds * 2,
      Scaled(std::chrono::minutes(30) * kMaxRounds, s.scale, seconds(1)));
}

int MaxRounds(const PtsSettings& s) {
  return s.max_rounds.value_or(kMaxRounds);
}

// TC/QD fixed by the specification for the test, unless overridden.
std::pair<int, int> Fixed(const PtsSettings& s, int threads, int iodepth) {
  return {s.threads.value_or(threads), s.iodepth.value_or(iodepth)};
}

// The text every segment starts with, up to and with [campaign]'s keys.
class CampaignText {
 public:
  CampaignText(const PtsSettings& s, const std::string& name,
               const std::string& description, int rounds)
      : settings_(s) {
    text_ = fmt::format(
        "# {}: built in by `flashmark pts` (config/pts_plan.h). Edit it\n"
        "# and run it with `flashmark sweep FILE --allow-destroy {}`.\n"
        "# SNIA PTS v2.0.2, {} profile{}.\n\n"
        "[campaign]\nname = {}\ndescription = {}\nrepeats = {}\n",
        name, s.device, PtsProfileName(s.profile),
        s.scale < 1
            ? fmt::format(", scaled by {} (not a compliant run)", s.scale)
            : "",
        Quote(name), Quote(description), rounds);
  }

  void SteadyState(std::string_view where, std::string_view metric) {
    text_ += fmt::format(
        "\n[campaign.steady-state]\nwhere = {{ {} }}\nmetric = {}\n"
        "window = {}\nmax-excursion = 20\nslope-excursion = 10\n",
        where, Quote(metric), kWindowRounds);
  }

  // [workload] with the keys every test shares, then `keys`.
  void Workload(const std::string& keys, const std::string& range) {
    text_ += fmt::format(
        "\n[workload]\nengine = {}\ndirect = true\ndata = \"random\"\n"
        "size = {}\n{}",
        Quote(settings_.engine), Quote(range), keys);
    text_ +=
        fmt::format("\n[targets]\npaths = [{}]\n", Quote(settings_.device));
  }

  void Matrix(const std::string& axes) { text_ += "\n[matrix]\n" + axes; }

  // The profile's write cache (enterprise off, client on, where the
  // device allows it), then the purge.
  void Purge() {
    const bool enterprise = settings_.profile == PtsProfile::kEnterprise;
    text_ += fmt::format(
        "\n[[reset]]\nstep = \"write-cache\"  # {}: the device's write "
        "cache {}\nstate = \"{}\"\nonce = true\n",
        PtsProfileName(settings_.profile), enterprise ? "off" : "on",
        enterprise ? "off" : "on");
    text_ += "\n[[reset]]\nstep = \"secure-erase\"  # purge\nonce = true\n";
  }

  // Workload-independent preconditioning: sequential 128 KiB writes of
  // twice the capacity, over the whole device.
  void Wipc() {
    text_ += fmt::format(
        "\n[[reset]]\nstep = \"precondition\"  # WIPC: 2x capacity of "
        "sequential 128 KiB writes\nonce = true\n"
        "workload = {{ mode = \"seqwr\", bs = \"128k\", threads = 1, "
        "iodepth = 32, engine = {}, direct = true, size = \"100%\", "
        "bytes = \"{}\" }}\n",
        Quote(settings_.engine), WipcBytes());
  }

  // A precondition step running `options` (the workload's keys), before
  // the first cell (`once`) or the cells `when` names.
  void Precondition(std::string_view comment, const std::string& options,
                    std::string_view when) {
    text_ += fmt::format(
        "\n[[reset]]\nstep = \"precondition\"  # {}\n{}\n"
        "workload = {{ {}, engine = {}, direct = true }}\n",
        comment,
        when.empty() ? "once = true" : fmt::format("when = {{ {} }}", when),
        options, Quote(settings_.engine));
  }

  uint64_t WipcBytes() const {
    return ScaledBytes(2.0 * static_cast<double>(settings_.capacity),
                       settings_.scale);
  }

  const std::string& text() const { return text_; }

 private:
  const PtsSettings& settings_;
  std::string text_;
};

nanoseconds CellDuration(const PtsSettings& s) {
  return Scaled(seconds(60), s.scale);
}

// The time of a one-minute cell and its sampling interval: 1 s, or a fifth
// of a scaled cell shorter than 5 s (at least 10 ms).
std::string CellTime(const PtsSettings& s) {
  const nanoseconds cell = CellDuration(s);
  const nanoseconds interval = std::clamp<nanoseconds>(
      std::chrono::duration_cast<milliseconds>(cell / 5), milliseconds(10),
      seconds(1));
  return fmt::format("time = \"{}\"\ninterval = \"{}\"\n", DurationText(cell),
                     DurationText(interval));
}

// The per-interval length of a long test: one minute at full scale, as the
// specification logs it; scaled, at least 100 ms.
std::string LongInterval(const PtsSettings& s) {
  return DurationText(Scaled(seconds(60), s.scale));
}

std::string WipcWords(const CampaignText& text) {
  return fmt::format("WIPC (sequential 128 KiB writes, {} in all)",
                     FormatBytes(text.WipcBytes()));
}

PtsSegment Rounds(std::string name, const CampaignText& text, int cells,
                  const PtsSettings& s, std::string preparation) {
  PtsSegment segment;
  segment.name = std::move(name);
  segment.toml = text.text();
  segment.cells_per_round = cells;
  segment.round_time = CellDuration(s) * cells;
  segment.min_rounds = kWindowRounds;
  segment.max_rounds = MaxRounds(s);
  segment.preparation = std::move(preparation);
  return segment;
}

PtsSegment Iops(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  CampaignText text(s, "pts-iops",
                    "SNIA PTS IOPS: 7 R/W mixes x 8 block sizes a round",
                    MaxRounds(s));
  text.SteadyState("read-pct = 0, bs = \"4k\"", "iops");
  text.Workload(fmt::format("mode = \"rndrw\"\nthreads = {}\niodepth = {}\n"
                            "{}",
                            p.threads, p.iodepth, CellTime(s)),
                p.range);
  text.Matrix(
      "read-pct = [100, 95, 65, 50, 35, 5, 0]\n"
      "bs = [\"1024k\", \"128k\", \"64k\", \"32k\", \"16k\", \"8k\", \"4k\", "
      "\"512\"]\n");
  text.Purge();
  text.Wipc();
  return Rounds("pts-iops", text, 56, s, "purge; " + WipcWords(text));
}

std::vector<PtsSegment> Throughput(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  const auto [threads, iodepth] = Fixed(s, 1, 32);
  std::vector<std::string> sizes{"128k", "1024k"};
  if (s.profile == PtsProfile::kClient) sizes = {"1024k"};
  std::vector<PtsSegment> segments;
  for (const std::string& bs : sizes) {
    const std::string name = "pts-throughput-" + bs;
    CampaignText text(
        s, name,
        fmt::format("SNIA PTS Throughput, {}: sequential 100 % read and "
                    "100 % write a round",
                    bs),
        MaxRounds(s));
    text.SteadyState("mode = \"seqwr\"", "mibs");
    text.Workload(fmt::format("bs = \"{}\"\nthreads = {}\niodepth = {}\n"
                              "{}",
                              bs, threads, iodepth, CellTime(s)),
                  p.range);
    text.Matrix("mode = [\"seqrd\", \"seqwr\"]\n");
    text.Purge();
    text.Wipc();
    segments.push_back(Rounds(name, text, 2, s, "purge; " + WipcWords(text)));
  }
  return segments;
}

PtsSegment Latency(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  const auto [threads, iodepth] = Fixed(s, 1, 1);
  CampaignText text(s, "pts-latency",
                    "SNIA PTS Latency: 3 R/W mixes x 3 block sizes a round",
                    MaxRounds(s));
  text.SteadyState("read-pct = 0, bs = \"4k\"", "latency");
  text.Workload(fmt::format("mode = \"rndrw\"\nthreads = {}\niodepth = {}\n"
                            "{}",
                            threads, iodepth, CellTime(s)),
                p.range);
  text.Matrix("read-pct = [100, 65, 0]\nbs = [\"8k\", \"4k\", \"512\"]\n");
  text.Purge();
  text.Wipc();
  return Rounds("pts-latency", text, 9, s, "purge; " + WipcWords(text));
}

PtsSegment Wsat(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  const uint64_t bytes =
      ScaledBytes(4.0 * static_cast<double>(PtsActiveRange(s)), s.scale);
  const nanoseconds limit = Scaled(std::chrono::hours(24), s.scale);
  CampaignText text(s, "pts-wsat",
                    "SNIA PTS WSAT: random 4 KiB writes from fresh out of "
                    "box to 4x the active range",
                    1);
  text.Workload(fmt::format("mode = \"rndwr\"\nbs = \"4k\"\nthreads = {}\n"
                            "iodepth = {}\nbytes = \"{}\"\ntime = \"{}\"\n"
                            "interval = \"{}\"\n",
                            p.threads, p.iodepth, bytes, DurationText(limit),
                            LongInterval(s)),
                p.range);
  text.Purge();
  PtsSegment segment;
  segment.name = "pts-wsat";
  segment.toml = text.text();
  segment.cells_per_round = 1;
  segment.round_time = limit;
  segment.preparation = fmt::format(
      "purge; then one run until {} are written (4x the active range) or "
      "{} pass",
      FormatBytes(bytes), FormatDuration(limit));
  return segment;
}

PtsSegment Hir(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  // Scaled: fewer bursts, and shorter bursts and waits (at least 1 s).
  const int bursts =
      std::max(1, static_cast<int>(std::lround(kHirBursts * s.scale)));
  const double time_scale = std::max(s.scale, 0.2);
  const nanoseconds burst = Scaled(seconds(kHirBurstSeconds), time_scale);
  const nanoseconds baseline = Scaled(seconds(kHirBaselineSeconds), s.scale);
  CampaignText text(s, "pts-hir",
                    "SNIA PTS HIR: bursts of random 4 KiB writes with wait "
                    "states of 5, 10, 15, 25 and 50 s",
                    1);
  text.Workload(fmt::format("mode = \"rndwr\"\nbs = \"4k\"\nthreads = {}\n"
                            "iodepth = {}\ninterval = \"1s\"\n",
                            p.threads, p.iodepth),
                p.range);
  std::string groups;
  nanoseconds total{0};
  for (int wait_seconds : kHirWaits) {
    const nanoseconds wait = Scaled(seconds(wait_seconds), time_scale);
    const nanoseconds segment_time = (burst + wait) * bursts;
    total += segment_time + baseline;
    groups += fmt::format(
        "  {{ thinktime-iotime = \"{}\", thinktime = \"{}\", time = \"{}\", "
        "tag = {{ hir = \"wait {}s\" }} }},\n",
        DurationText(burst), DurationText(wait), DurationText(segment_time),
        wait_seconds);
    groups += fmt::format(
        "  {{ time = \"{}\", tag = {{ hir = \"baseline after {}s\" }} }},\n",
        DurationText(baseline), wait_seconds);
  }
  text.Matrix("segment = [\n" + groups + "]\n");
  text.Purge();
  const nanoseconds round = Scaled(seconds(60), s.scale, seconds(1));
  text.Precondition(
      "random 4 KiB writes until steady",
      fmt::format("mode = \"rndwr\", bs = \"4k\", threads = {}, iodepth = {}, "
                  "size = {}, steady-round = \"{}\", max-time = \"{}\"",
                  p.threads, p.iodepth, Quote(p.range), DurationText(round),
                  DurationText(PreconditionLimit(s))),
      "");
  PtsSegment segment;
  segment.name = "pts-hir";
  segment.toml = text.text();
  segment.cells_per_round = static_cast<int>(kHirWaits.size()) * 2;
  segment.round_time = total;
  segment.preparation = fmt::format(
      "purge; random 4 KiB writes until steady (at most {}); then per wait "
      "state {} burst{} of {}",
      FormatDuration(PreconditionLimit(s)), bursts, bursts == 1 ? "" : "s",
      FormatDuration(burst));
  return segment;
}

PtsSegment Xsr(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  const auto [threads, iodepth] = Fixed(s, 1, 32);
  const nanoseconds sequential = Scaled(std::chrono::hours(8), s.scale);
  const nanoseconds random = Scaled(std::chrono::hours(6), s.scale);
  CampaignText text(s, "pts-xsr",
                    "SNIA PTS Cross Stimulus Recovery: sequential 1024 KiB, "
                    "random 8 KiB, sequential 1024 KiB writes",
                    1);
  text.Workload(fmt::format("threads = {}\niodepth = {}\ninterval = \"{}\"\n",
                            threads, iodepth, LongInterval(s)),
                p.range);
  text.Matrix(
      fmt::format("segment = [\n"
                  "  {{ mode = \"seqwr\", bs = \"1024k\", time = \"{0}\", "
                  "tag = {{ xsr = \"1 sequential\" }} }},\n"
                  "  {{ mode = \"rndwr\", bs = \"8k\", time = \"{1}\", "
                  "tag = {{ xsr = \"2 random\" }} }},\n"
                  "  {{ mode = \"seqwr\", bs = \"1024k\", time = \"{0}\", "
                  "tag = {{ xsr = \"3 sequential\" }} }},\n"
                  "]\n",
                  DurationText(sequential), DurationText(random)));
  text.Purge();
  PtsSegment segment;
  segment.name = "pts-xsr";
  segment.toml = text.text();
  segment.cells_per_round = 3;
  segment.round_time = sequential * 2 + random;
  segment.preparation = "purge (no WIPC)";
  return segment;
}

PtsSegment Ecw(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  CampaignText text(s, "pts-ecw",
                    "SNIA PTS Enterprise Composite Workload: total "
                    "outstanding IOs 32 down to 1 a round",
                    MaxRounds(s));
  text.SteadyState("iodepth = 32", "iops");
  text.Workload(
      fmt::format("mode = \"rndrw\"\nread-pct = 40\nbs = {}\n"
                  "distribution = {}\nthreads = 1\n{}",
                  Quote(kEcwBlockSizes), Quote(kEcwZones), CellTime(s)),
      p.range);
  text.Matrix(fmt::format("iodepth = [{}]\n", fmt::join(kDemand, ", ")));
  text.Purge();
  text.Wipc();
  const nanoseconds round = Scaled(seconds(60), s.scale, seconds(1));
  text.Precondition(
      "the composite mix at 0/100 until steady",
      fmt::format("mode = \"rndwr\", bs = {}, distribution = {}, threads = 1, "
                  "iodepth = 32, size = {}, steady-round = \"{}\", "
                  "max-time = \"{}\"",
                  Quote(kEcwBlockSizes), Quote(kEcwZones), Quote(p.range),
                  DurationText(round), DurationText(PreconditionLimit(s))),
      "");
  return Rounds(
      "pts-ecw", text, static_cast<int>(kDemand.size()), s,
      "purge; " + WipcWords(text) + "; the mix at 0/100 until steady");
}

PtsSegment Dirth(const PtsSettings& s) {
  const Profile p = ProfileOf(s);
  CampaignText text(s, "pts-dirth",
                    "SNIA PTS DIRTH: random 8 KiB 65/35 at TC x QD 32..1 a "
                    "round",
                    MaxRounds(s));
  text.SteadyState("threads = 32, iodepth = 32", "iops");
  text.Workload(fmt::format("mode = \"rndrw\"\nread-pct = 65\nbs = \"8k\"\n"
                            "{}",
                            CellTime(s)),
                p.range);
  text.Matrix(fmt::format("threads = [{0}]\niodepth = [{0}]\n",
                          fmt::join(kDemand, ", ")));
  text.Purge();
  text.Wipc();
  const nanoseconds round = Scaled(seconds(60), s.scale, seconds(1));
  const std::string prewrite = fmt::format(
      "mode = \"rndwr\", bs = \"8k\", threads = 32, iodepth = 32, "
      "size = {}",
      Quote(p.range));
  text.Precondition(
      "random 8 KiB writes at TC32/QD32 until steady",
      fmt::format("{}, steady-round = \"{}\", max-time = \"{}\"", prewrite,
                  DurationText(round), DurationText(PreconditionLimit(s))),
      "");
  text.Precondition(
      "each round's pre-write",
      fmt::format("{}, time = \"{}\"", prewrite,
                  DurationText(Scaled(std::chrono::minutes(5), s.scale))),
      "threads = 32, iodepth = 32");
  PtsSegment segment = Rounds(
      "pts-dirth", text, 49, s,
      "purge; " + WipcWords(text) + "; random 8 KiB writes until steady");
  segment.round_time += Scaled(std::chrono::minutes(5), s.scale);
  return segment;
}

}  // namespace

std::span<const PtsTest> AllPtsTests() { return kTests; }

std::string_view PtsTestName(PtsTest test) {
  switch (test) {
    case PtsTest::kIops:
      return "iops";
    case PtsTest::kThroughput:
      return "throughput";
    case PtsTest::kLatency:
      return "latency";
    case PtsTest::kWsat:
      return "wsat";
    case PtsTest::kHir:
      return "hir";
    case PtsTest::kXsr:
      return "xsr";
    case PtsTest::kEcw:
      return "ecw";
    case PtsTest::kDirth:
      return "dirth";
  }
  return "?";
}

std::string_view PtsTestTitle(PtsTest test) {
  switch (test) {
    case PtsTest::kIops:
      return "IOPS";
    case PtsTest::kThroughput:
      return "Throughput";
    case PtsTest::kLatency:
      return "Latency";
    case PtsTest::kWsat:
      return "Write Saturation (WSAT)";
    case PtsTest::kHir:
      return "Host Idle Recovery (HIR)";
    case PtsTest::kXsr:
      return "Cross Stimulus Recovery (XSR)";
    case PtsTest::kEcw:
      return "Enterprise Composite Workload (ECW)";
    case PtsTest::kDirth:
      return "Demand Intensity / Response Time Histogram (DIRTH)";
  }
  return "?";
}

std::string_view PtsProfileName(PtsProfile profile) {
  return profile == PtsProfile::kEnterprise ? "enterprise" : "client";
}

Result<std::vector<PtsTest>> ParsePtsTests(std::string_view name) {
  if (name == "all") return std::vector<PtsTest>(kTests.begin(), kTests.end());
  for (PtsTest test : kTests) {
    if (PtsTestName(test) == name) return std::vector<PtsTest>{test};
  }
  std::vector<std::string_view> names;
  for (PtsTest test : kTests) names.push_back(PtsTestName(test));
  return UsageError(fmt::format("unknown PTS test \"{}\"", name),
                    fmt::format("one of {}, or all", fmt::join(names, ", ")));
}

Result<PtsProfile> ParsePtsProfile(std::string_view name) {
  if (name == "enterprise") return PtsProfile::kEnterprise;
  if (name == "client") return PtsProfile::kClient;
  return UsageError(fmt::format("--profile: unknown profile \"{}\"", name),
                    "one of enterprise (write cache off, active range "
                    "100 %), client (cache on, 75 %)");
}

std::optional<PtsTest> PtsTestOfSegment(std::string_view segment) {
  if (!segment.starts_with("pts-")) return std::nullopt;
  segment.remove_prefix(4);
  for (PtsTest test : kTests) {
    const std::string_view name = PtsTestName(test);
    if (segment == name ||
        (segment.starts_with(name) && segment.substr(name.size(), 1) == "-")) {
      return test;
    }
  }
  return std::nullopt;
}

uint64_t PtsActiveRange(const PtsSettings& settings) {
  return settings.profile == PtsProfile::kEnterprise
             ? settings.capacity
             : settings.capacity / 4 * 3;
}

Result<std::vector<PtsSegment>> PlanPts(const PtsSettings& s) {
  if (!(s.scale > 0 && s.scale <= 1)) {
    return UsageError(
        fmt::format("--scale: {} is not above 0 and at most 1", s.scale),
        "--scale 0.01 makes every duration and write amount 1 % of the "
        "specification's");
  }
  for (const auto& [value, option] :
       {std::pair{s.threads, "--threads"}, std::pair{s.iodepth, "--iodepth"}}) {
    if (!value) continue;
    if (*value < 1 || *value > 1024) {
      return UsageError(
          fmt::format("{}: {} is not between 1 and 1024", option, *value),
          "leave it out for the specification's");
    }
    if (s.test == PtsTest::kEcw || s.test == PtsTest::kDirth) {
      return UsageError(fmt::format("{} does not apply to the {} test", option,
                                    PtsTestName(s.test)),
                        "ecw and dirth sweep the outstanding IOs themselves");
    }
  }
  if (s.max_rounds &&
      (*s.max_rounds < kWindowRounds || *s.max_rounds > kMaxRounds)) {
    return UsageError(
        fmt::format("--max-rounds: {} is not between {} and {}", *s.max_rounds,
                    kWindowRounds, kMaxRounds),
        "the steady-state window needs 5 rounds; the specification runs at "
        "most 25");
  }
  if (PtsActiveRange(s) < kPtsMinActiveRange) {
    return UsageError(
        fmt::format("{} is too small for the PTS: its active range is {}, "
                    "the tests need at least {}",
                    s.device, FormatBytes(PtsActiveRange(s)),
                    FormatBytes(kPtsMinActiveRange)),
        "use a larger device (a loop device of 1 GiB does)");
  }
  switch (s.test) {
    case PtsTest::kIops:
      return std::vector<PtsSegment>{Iops(s)};
    case PtsTest::kThroughput:
      return Throughput(s);
    case PtsTest::kLatency:
      return std::vector<PtsSegment>{Latency(s)};
    case PtsTest::kWsat:
      return std::vector<PtsSegment>{Wsat(s)};
    case PtsTest::kHir:
      return std::vector<PtsSegment>{Hir(s)};
    case PtsTest::kXsr:
      return std::vector<PtsSegment>{Xsr(s)};
    case PtsTest::kEcw:
      return std::vector<PtsSegment>{Ecw(s)};
    case PtsTest::kDirth:
      return std::vector<PtsSegment>{Dirth(s)};
  }
  return UsageError("unknown PTS test");
}

}  // namespace flashmark
