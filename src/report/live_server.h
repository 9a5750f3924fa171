// LiveServer: the live view over HTTP (cpp-httplib, Debian's
// libcpp-httplib): GET / the report page, which polls GET /data.json (the
// report data of a fresh snapshot, with its "live" member) every
// poll_seconds and redraws; GET /metrics the snapshot in OpenMetrics text
// for Prometheus. Everything else is 404. With a token, every request must
// carry it (?token=T, or "Authorization: Bearer T"): 401 otherwise; a
// non-loopback address is refused without one (the caller checks, see
// ListenAddress). Threading: the server answers on its own threads,
// calling the LiveSource from them; Start returns once it listens, Stop
// (and the destructor) returns once it no longer does.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "common/result.h"
#include "report/live_view.h"

namespace httplib {
class Server;
}

namespace flashmark {

struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port (the server says which)
  bool loopback() const;
  std::string Url(int bound_port) const;  // "http://127.0.0.1:8080/"
};
// "PORT", ":PORT", "HOST:PORT", "[V6]:PORT" or "HOST" (port 0); a usage
// error naming the option (`option`: "--serve", "--listen") and the text
// otherwise.
Result<ListenAddress> ParseListenAddress(const std::string& text,
                                         const std::string& option);

struct LiveServerOptions {
  ListenAddress address;
  std::string option = "--serve";  // the address's option, for errors
  std::string token;               // empty: none asked
  std::string title = "flashmark live";
  double poll_seconds = 1;
};

class LiveServer {
 public:
  // Listening, or an error saying why not (address in use, not local...).
  static Result<std::unique_ptr<LiveServer>> Start(LiveServerOptions options,
                                                   LiveSource& source);
  ~LiveServer();
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;

  int port() const { return port_; }
  std::string url() const;  // with ?token= when there is one
  void Stop();

 private:
  LiveServer(LiveServerOptions options, LiveSource& source);
  LiveServerOptions options_;
  LiveSource& source_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::atomic<bool> listen_returned_{false};
  int port_ = 0;
};

}  // namespace flashmark
