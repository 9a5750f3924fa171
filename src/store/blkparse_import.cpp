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

}  // namespace

Status BlkparseReader::Line(std::string_view line, size_t number) {
  const std::vector<std::string_view> w = SplitBlanks(line);
  if (w.empty() || !IsDeviceWord(w[0])) return OkStatus();  // headings
  const auto bad = [&](const std::string& what) {
    return LineError(file_, number,
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
  ++events_;
  last_ns_ = std::max(last_ns_, time_ns);
  const std::string_view action = w[5];
  if (action != "Q" && action != "D" && action != "C" && action != "R")
    return OkStatus();
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
      if (action == "D") ++other_requests_;
      return OkStatus();
    }
    return bad(fmt::format("unknown RWBS \"{}\"", w[6].substr(0, 10)));
  }
  if (!has_sectors && (rwbs.op != TraceOp::kFlush || !rwbs.is_io)) {
    if (action == "D") ++other_requests_;
    return OkStatus();
  }
  if (sector > (UINT64_MAX >> 9) || sectors > (UINT32_MAX >> 9))
    return bad("its sector or size is out of range");
  const std::string_view device_name = w[0];
  auto known = devices_.find(device_name);
  if (known == devices_.end()) {
    if (devices_.size() >= 65535) return bad("more than 65,535 devices");
    known = devices_
                .emplace(std::string(device_name),
                         static_cast<uint16_t>(devices_.size()))
                .first;
    header_.devices.push_back({std::string(device_name), 0});
  }
  const uint16_t device = known->second;
  if (action == "Q") {
    queued_.emplace(QueueKey{device, sector}, Queued{time_ns, pid});
    if (queued_.size() > max_queued_) PruneQueued();
    // The command is the rest of the line in brackets (it may hold
    // blanks: "[DOM Worker]").
    const std::string_view last = has_sectors ? w[9] : w[6];
    const size_t after =
        static_cast<size_t>(last.data() - line.data()) + last.size();
    const size_t open = line.find('[', after);
    const size_t close = line.rfind(']');
    if (open != std::string_view::npos && close != std::string_view::npos &&
        close > open && pid != 0) {
      const std::string_view name = line.substr(open + 1, close - open - 1);
      // blkparse's name for a process it was not told of.
      if (name != "(null)") header_.processes[pid] = std::string(name);
    }
    return OkStatus();
  }
  if (action == "D") {
    if (!rwbs.is_io) {
      ++other_requests_;
      return OkStatus();
    }
    if (time_ns < last_issue_ns_) {
      return LineError(
          file_, number,
          fmt::format("a request issued at {:.9f} s, before the one issued "
                      "above ({:.9f} s)",
                      static_cast<double>(time_ns) / 1e9,
                      static_cast<double>(last_issue_ns_) / 1e9),
          "blkparse prints its events in time order: import its output "
          "unedited, one file per trace");
    }
    last_issue_ns_ = time_ns;
    TracedIo io;
    io.issue_ns = time_ns;
    io.offset = sector << 9;
    io.length = sectors << 9;
    io.op = rwbs.op;
    io.sync = rwbs.sync;
    io.fua = rwbs.fua;
    io.device = device;
    io.pid = pid;
    const auto q = queued_.find(QueueKey{device, sector});
    if (q != queued_.end()) {
      io.queue_ns = q->second.time_ns;
      io.pid = q->second.pid;
      queued_.erase(q);
    }
    in_flight_.emplace(FlightKey{device, sector, sectors},
                       first_waiting_ + waiting_.size());
    waiting_.push_back({io, false, false});
    while (waiting_.size() > max_waiting_) {
      if (Status emitted = EmitFront(); !emitted.ok()) return emitted;
    }
    return OkStatus();
  }
  const auto f = in_flight_.find(FlightKey{device, sector, sectors});
  if (f == in_flight_.end()) return OkStatus();  // issued before the start
  Waiting& request = waiting_[f->second - first_waiting_];
  in_flight_.erase(f);
  request.resolved = true;
  if (action == "C") {
    request.io.complete_ns = time_ns;
  } else {  // R: back to the queue; issued again by a later D
    request.dropped = true;
    ++requeued_;
    const QueueKey key{device, sector};
    queued_.emplace_hint(queued_.lower_bound(key), key,
                         Queued{request.io.queue_ns, request.io.pid});
  }
  return EmitResolved();
}

// Stores the oldest request, resolved or not (then without its completion
// time, and forgotten by in_flight_).
Status BlkparseReader::EmitFront() {
  Waiting front = waiting_.front();
  if (!front.resolved) {
    const auto [from, to] = in_flight_.equal_range(
        FlightKey{front.io.device, front.io.offset >> 9, front.io.length >> 9});
    for (auto it = from; it != to; ++it) {
      if (it->second == first_waiting_) {
        in_flight_.erase(it);
        break;
      }
    }
    ++gave_up_;
  }
  waiting_.pop_front();
  ++first_waiting_;
  if (front.dropped) return OkStatus();
  if (front.io.complete_ns < 0) ++not_completed_;
  ++stored_;
  return sink_.Append(front.io);
}

Status BlkparseReader::EmitResolved() {
  while (!waiting_.empty() && waiting_.front().resolved) {
    if (Status emitted = EmitFront(); !emitted.ok()) return emitted;
  }
  return OkStatus();
}

// The older half of the bios waiting for a request, by queue time, are
// taken as merged into other requests.
void BlkparseReader::PruneQueued() {
  std::vector<int64_t> times;
  times.reserve(queued_.size());
  for (const auto& [key, bio] : queued_) times.push_back(bio.time_ns);
  const auto middle =
      times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
  std::nth_element(times.begin(), middle, times.end());
  const int64_t cut = *middle;
  for (auto it = queued_.begin(); it != queued_.end();) {
    if (it->second.time_ns < cut) {
      it = queued_.erase(it);
      ++merged_;
    } else {
      ++it;
    }
  }
}

Status BlkparseReader::End() {
  if (events_ == 0) {
    return UsageError(
        fmt::format("{}: no blkparse event lines (\"8,0 1 1 0.000000000 "
                    "1234 Q W 2048 + 8 [app]\")",
                    file_.name),
        "give blkparse's text output: blkparse -i DEV.blktrace. -o FILE");
  }
  const size_t gave_up = gave_up_;
  while (!waiting_.empty()) {
    if (Status emitted = EmitFront(); !emitted.ok()) return emitted;
  }
  if (stored_ == 0) {
    return UsageError(fmt::format("{}: {} block events, but no request issued "
                                  "to a device (no D event)",
                                  file_.name, events_),
                      "trace the device while the application does IO");
  }
  BlockIoTrace& trace = header_;
  trace.source = "blktrace";
  trace.origin = file_.name;
  const size_t merged = merged_ + queued_.size();
  if (merged > 0) {
    trace.notes.push_back(fmt::format(
        "{} queued bios were merged into other requests or never issued",
        merged));
  }
  if (gave_up > 0) {
    trace.notes.push_back(fmt::format(
        "{} requests were stored without their completion: more than {} "
        "later requests were issued before it",
        gave_up, max_waiting_));
  }
  if (not_completed_ > gave_up) {
    trace.notes.push_back(
        fmt::format("{} requests had not completed when the trace ended",
                    not_completed_ - gave_up));
  }
  if (other_requests_ > 0) {
    trace.notes.push_back(fmt::format(
        "{} requests without data to replay (passthrough, no operation) left "
        "out",
        other_requests_));
  }
  if (requeued_ > 0) {
    trace.notes.push_back(
        fmt::format("{} requests were requeued and issued again", requeued_));
  }
  trace.duration_ns = last_ns_;
  trace.start_unix_ns = file_.modified_unix_ns - last_ns_;
  return OkStatus();
}

Result<BlockIoTrace> ParseBlkparseText(const ImportFile& file) {
  std::vector<TracedIo> ios;
  TraceVectorSink sink(ios);
  BlkparseReader reader(file, sink);
  const std::vector<std::string_view> lines = SplitLines(file.text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (Status read = reader.Line(lines[i], i + 1); !read.ok())
      return read.error();
  }
  if (Status ended = reader.End(); !ended.ok()) return ended.error();
  BlockIoTrace trace = reader.header();
  trace.ios = std::move(ios);
  return trace;
}

}  // namespace flashmark
