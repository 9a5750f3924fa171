#include "report/live_server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include <charconv>
#include <cstring>

#include "common/json_text.h"
#include "report/html_report.h"

namespace flashmark {
namespace {

// Equal texts in a time that does not depend on where they differ.
bool SameToken(const std::string& given, const std::string& token) {
  unsigned char differ = given.size() == token.size() ? 0 : 1;
  for (size_t k = 0; k < given.size(); ++k) {
    differ |= static_cast<unsigned char>(given[k]) ^
              static_cast<unsigned char>(token[k % token.size()]);
  }
  return differ == 0;
}

bool Authorised(const httplib::Request& request, const std::string& token) {
  if (token.empty()) return true;
  if (request.has_param("token") &&
      SameToken(request.get_param_value("token"), token)) {
    return true;
  }
  const std::string header = request.get_header_value("Authorization");
  return header.rfind("Bearer ", 0) == 0 && SameToken(header.substr(7), token);
}

std::optional<int> Port(std::string_view text) {
  int port = -1;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), port);
  if (error != std::errc() || end != text.data() + text.size() || port < 0 ||
      port > 65535) {
    return std::nullopt;
  }
  return port;
}

}  // namespace

bool ListenAddress::loopback() const {
  if (host == "localhost" || host == "::1") return true;
  in_addr v4{};
  return inet_pton(AF_INET, host.c_str(), &v4) == 1 &&
         (ntohl(v4.s_addr) >> 24) == 127;
}

std::string ListenAddress::Url(int bound_port) const {
  const bool v6 = host.find(':') != std::string::npos;
  return fmt::format("http://{}{}{}:{}/", v6 ? "[" : "", host, v6 ? "]" : "",
                     bound_port);
}

Result<ListenAddress> ParseListenAddress(const std::string& text,
                                         const std::string& option) {
  const auto bad = [&text, &option]() -> Error {
    return UsageError(
        fmt::format("{}: \"{}\" is not an address to listen on", option, text),
        fmt::format("give PORT, HOST:PORT or [IPv6]:PORT, e.g. {} 8080 or {} "
                    "127.0.0.1:8080 (port 0: any free port)",
                    option, option));
  };
  ListenAddress address;
  if (text.empty()) return address;
  std::string host;
  std::string port;
  if (text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string::npos) return bad();
    host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') return bad();
      port = text.substr(close + 2);
    }
  } else if (const size_t colon = text.rfind(':'); colon != std::string::npos) {
    if (text.find(':') != colon) return bad();  // bare IPv6: needs brackets
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  } else if (Port(text)) {
    port = text;
  } else {
    host = text;
  }
  // An IP literal or a host name, nothing else (a path given after
  // --serve, meant as a target, is not an address).
  in6_addr any{};
  const bool literal = inet_pton(AF_INET, host.c_str(), &any) == 1 ||
                       inet_pton(AF_INET6, host.c_str(), &any) == 1;
  const bool name = !host.empty() && host.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyz"
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789.-") == std::string::npos;
  if (!host.empty() && !literal && !name) {
    Error error = bad();
    error.hint += "; a target goes before --serve, or write --serve=ADDR:PORT";
    return error;
  }
  if (!host.empty()) address.host = host;
  if (!port.empty()) {
    const auto number = Port(port);
    if (!number) return bad();
    address.port = *number;
  } else if (text.back() == ':') {
    return bad();
  }
  return address;
}

LiveServer::LiveServer(LiveServerOptions options, LiveSource& source)
    : options_(std::move(options)),
      source_(source),
      server_(std::make_unique<httplib::Server>()) {}

LiveServer::~LiveServer() { Stop(); }

std::string LiveServer::url() const {
  std::string url = options_.address.Url(port_);
  if (!options_.token.empty()) url += "?token=" + options_.token;
  return url;
}

void LiveServer::Stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

Result<std::unique_ptr<LiveServer>> LiveServer::Start(LiveServerOptions options,
                                                      LiveSource& source) {
  if (!options.address.loopback() && options.token.empty()) {
    return UsageError(
        fmt::format("{} {}: a live view on a non-loopback address needs "
                    "--serve-token",
                    options.option, options.address.host),
        "anyone who reaches the address would see the run: give --serve-token "
        "SECRET, or serve on 127.0.0.1 and tunnel (ssh -L)");
  }
  std::unique_ptr<LiveServer> live(new LiveServer(std::move(options), source));
  httplib::Server& server = *live->server_;
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would
  // let two servers share a port and split the requests between them.
  server.set_socket_options([](int socket) {
    const int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  LiveServer* self = live.get();
  const auto guarded = [self](auto handler) {
    return [self, handler](const httplib::Request& request,
                           httplib::Response& response) {
      if (!Authorised(request, self->options_.token)) {
        response.status = 401;
        response.set_content(
            "a token is needed: ?token=... or Authorization: "
            "Bearer ...\n",
            "text/plain; charset=utf-8");
        return;
      }
      response.set_header("Cache-Control", "no-store");
      handler(response);
    };
  };
  const auto data = [self]() -> Result<nlohmann::json> {
    auto snapshot = self->source_.Snapshot();
    if (!snapshot.ok()) return snapshot.error();
    return LiveReportData(**snapshot, self->options_.title,
                          self->options_.poll_seconds);
  };
  server.Get("/", guarded([data](httplib::Response& response) {
               auto doc = data();
               if (!doc.ok()) {
                 response.status = 500;
                 response.set_content(doc.error().message + "\n",
                                      "text/plain; charset=utf-8");
                 return;
               }
               response.set_content(RenderHtmlReport(*doc, true),
                                    "text/html; charset=utf-8");
             }));
  server.Get("/data.json", guarded([data](httplib::Response& response) {
               auto doc = data();
               if (!doc.ok()) {
                 response.status = 500;
                 response.set_content(
                     JsonText({{"error", doc.error().message}}),
                     "application/json");
                 return;
               }
               response.set_content(JsonText(*doc), "application/json");
             }));
  server.Get("/metrics", guarded([self](httplib::Response& response) {
               auto snapshot = self->source_.Snapshot();
               if (!snapshot.ok()) {
                 response.status = 500;
                 response.set_content(snapshot.error().message + "\n",
                                      "text/plain; charset=utf-8");
                 return;
               }
               response.set_content(
                   LiveMetrics(**snapshot),
                   "application/openmetrics-text; version=1.0.0; "
                   "charset=utf-8");
             }));
  const ListenAddress& address = live->options_.address;
  if (address.port == 0) {
    live->port_ = server.bind_to_any_port(address.host);
  } else if (server.bind_to_port(address.host, address.port)) {
    live->port_ = address.port;
  } else {
    live->port_ = -1;
  }
  if (live->port_ <= 0) {
    return UsageError(
        fmt::format("{}: cannot listen on {}:{} ({})", live->options_.option,
                    address.host, address.port, std::strerror(errno)),
        fmt::format("choose another port ({} 0 takes any free one), or stop "
                    "what listens there",
                    live->options_.option));
  }
  live->thread_ = std::thread([&server, self] {
    server.listen_after_bind();
    self->listen_returned_ = true;
  });
  // Requests queue in the socket's backlog from the bind on; but a stop
  // before the thread runs its loop would be lost (httplib stops only a
  // running server), so Start returns once it runs (or gave up).
  while (!server.is_running() && !live->listen_returned_) {
    std::this_thread::yield();
  }
  return live;
}

}  // namespace flashmark
