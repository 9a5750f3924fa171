#include "store/blkparse_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace flashmark {
namespace {

template <typename T>
bool ReadWhole(std::string_view text, T& value) {
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() &&
         !text.empty();
}

// "MAJOR,MINOR"
bool IsDeviceWord(std::string_view word) {
  const size_t comma = word.find(',');
  if (comma == std::string_view::npos) return false;
  unsigned major = 0, minor = 0;
  return ReadWhole(word.substr(0, comma), major) &&
         ReadWhole(word.substr(comma + 1), minor);
}

// "12.000345678" seconds as ns.
bool ReadSeconds(std::string_view text, int64_t& ns) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos || text.size() - dot - 1 != 9) return false;
  int64_t seconds = 0, fraction = 0;
  if (!ReadWhole(text.substr(0, dot), seconds) ||
      !ReadWhole(text.substr(dot + 1), fraction) || seconds > 9'000'000'000)
    return false;
  ns = seconds * 1'000'000'000 + fraction;
  return true;
}

struct PendingQueue {
  int64_t time_ns = 0;
  uint32_t pid = 0;
};

}  // namespace

Result<BlockIoTrace> ParseBlkparseText(const ImportFile& file) {
  BlockIoTrace trace;
  trace.source = "blktrace";
  trace.origin = file.name;
  std::map<std::string, uint16_t, std::less<>> devices;
  // Bios queued, by (device, sector): the first one a request starting
  // there is issued for.
  std::map<std::pair<uint16_t, uint64_t>, std::deque<PendingQueue>> queued;
  // Requests issued and not completed, by (device, sector, sectors).
  std::map<std::tuple<uint16_t, uint64_t, uint32_t>, std::deque<size_t>>
      in_flight;
  std::vector<bool> dropped;  // requeued IOs, issued again later
  size_t events = 0, other_requests = 0, requeued = 0;
  int64_t last_ns = 0;
  const std::vector<std::string_view> lines = SplitLines(file.text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string_view> w = SplitBlanks(lines[i]);
    if (w.empty() || !IsDeviceWord(w[0])) continue;  // summary, headings
    const auto bad = [&](const std::string& what) {
      return LineError(file, i + 1,
                       fmt::format("not a blkparse event line: {}", what),
                       "flashmark reads blkparse's default text format "
                       "(no -f/-F format of your own)");
    };
    if (w.size() < 6) return bad("too few fields");
    int64_t time_ns = 0;
    uint32_t pid = 0;
    if (!ReadSeconds(w[3], time_ns))
      return bad("its time is not SECONDS.NNNNNNNNN");
    if (!ReadWhole(w[4], pid)) return bad("its process id is not a number");
    ++events;
    last_ns = std::max(last_ns, time_ns);
    const std::string_view action = w[5];
    if (action != "Q" && action != "D" && action != "C" && action != "R")
      continue;
    // ACTION RWBS SECTOR + SECTORS [COMMAND or ERROR]; a request without
    // data has no sectors: "D FN [COMMAND]", its completion "C FN 0 [0]".
    const bool has_sectors = w.size() >= 11 && w[8] == "+";
    uint64_t sector = 0;
    uint32_t sectors = 0;
    if (has_sectors && (!ReadWhole(w[7], sector) || !ReadWhole(w[9], sectors)))
      return bad("its sector and size are not numbers");
    TraceRwbs rwbs;
    if (!ParseTraceRwbs(w[6], sectors, rwbs)) {
      if (!has_sectors) {  // a SCSI passthrough, a notify: not an IO
        if (action == "D") ++other_requests;
        continue;
      }
      return bad(fmt::format("unknown RWBS \"{}\"", w[6].substr(0, 10)));
    }
    if (!has_sectors && (rwbs.op != TraceOp::kFlush || !rwbs.is_io)) {
      if (action == "D") ++other_requests;
      continue;
    }
    if (sector > (UINT64_MAX >> 9) || sectors > (UINT32_MAX >> 9))
      return bad("its sector or size is out of range");
    const std::string_view device_name = w[0];
    auto known = devices.find(device_name);
    if (known == devices.end()) {
      if (devices.size() >= 65535) return bad("more than 65,535 devices");
      known = devices
                  .emplace(std::string(device_name),
                           static_cast<uint16_t>(devices.size()))
                  .first;
      trace.devices.push_back({std::string(device_name), 0});
    }
    const uint16_t device = known->second;
    if (action == "Q") {
      queued[{device, sector}].push_back({time_ns, pid});
      // The command is the rest of the line in brackets (it may hold
      // blanks: "[DOM Worker]").
      const std::string_view line = lines[i];
      const std::string_view last = has_sectors ? w[9] : w[6];
      const size_t after =
          static_cast<size_t>(last.data() - line.data()) + last.size();
      const size_t open = line.find('[', after);
      const size_t close = line.rfind(']');
      if (open != std::string_view::npos && close != std::string_view::npos &&
          close > open && pid != 0) {
        const std::string_view name = line.substr(open + 1, close - open - 1);
        // blkparse's name for a process it was not told of.
        if (name != "(null)") trace.processes[pid] = std::string(name);
      }
      continue;
    }
    if (action == "D") {
      if (!rwbs.is_io) {
        ++other_requests;
        continue;
      }
      TracedIo io;
      io.issue_ns = time_ns;
      io.offset = sector << 9;
      io.length = sectors << 9;
      io.op = rwbs.op;
      io.sync = rwbs.sync;
      io.fua = rwbs.fua;
      io.device = device;
      io.pid = pid;
      auto q = queued.find({device, sector});
      if (q != queued.end() && !q->second.empty()) {
        io.queue_ns = q->second.front().time_ns;
        io.pid = q->second.front().pid;
        q->second.pop_front();
      }
      in_flight[{device, sector, sectors}].push_back(trace.ios.size());
      trace.ios.push_back(io);
      dropped.push_back(false);
      continue;
    }
    auto f = in_flight.find({device, sector, sectors});
    if (f == in_flight.end() || f->second.empty()) continue;  // before start
    const size_t index = f->second.front();
    f->second.pop_front();
    if (action == "C") {
      trace.ios[index].complete_ns = time_ns;
    } else {  // R: back to the queue; issued again by a later D
      dropped[index] = true;
      ++requeued;
      queued[{device, sector}].push_front(
          {trace.ios[index].queue_ns, trace.ios[index].pid});
    }
  }
  if (events == 0) {
    return UsageError(
        fmt::format("{}: no blkparse event lines (\"8,0 1 1 0.000000000 "
                    "1234 Q W 2048 + 8 [app]\")",
                    file.name),
        "give blkparse's text output: blkparse -i DEV.blktrace. -o FILE");
  }
  if (trace.ios.empty()) {
    return UsageError(fmt::format("{}: {} block events, but no request issued "
                                  "to a device (no D event)",
                                  file.name, events),
                      "trace the device while the application does IO");
  }
  size_t kept = 0, not_completed = 0;
  for (size_t i = 0; i < trace.ios.size(); ++i) {
    if (dropped[i]) continue;
    if (trace.ios[i].complete_ns < 0) ++not_completed;
    trace.ios[kept++] = trace.ios[i];
  }
  trace.ios.resize(kept);
  std::stable_sort(trace.ios.begin(), trace.ios.end(),
                   [](const TracedIo& a, const TracedIo& b) {
                     return a.issue_ns < b.issue_ns;
                   });
  size_t merged = 0;
  for (const auto& [key, pending] : queued) merged += pending.size();
  if (merged > 0) {
    trace.notes.push_back(fmt::format(
        "{} queued bios were merged into other requests or never issued",
        merged));
  }
  if (not_completed > 0) {
    trace.notes.push_back(fmt::format(
        "{} requests had not completed when the trace ended", not_completed));
  }
  if (other_requests > 0) {
    trace.notes.push_back(fmt::format(
        "{} requests without data to replay (passthrough, no operation) left "
        "out",
        other_requests));
  }
  if (requeued > 0) {
    trace.notes.push_back(
        fmt::format("{} requests were requeued and issued again", requeued));
  }
  trace.duration_ns = last_ns;
  trace.start_unix_ns = file.modified_unix_ns - last_ns;
  return trace;
}

}  // namespace flashmark
