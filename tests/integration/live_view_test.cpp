// The live view from outside, over real HTTP (cpp-httplib's client):
// `flashmark serve --db` serves stored runs (the newest by default, read
// again per request: a run recorded after the server started shows up),
// its page, data and metrics; a token is enforced; bad addresses, a taken
// port and a non-loopback address without a token are refused with exit 2
// before anything runs; the token is never recorded.
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "binary_runner.h"

namespace flashmark::testing {
namespace {

using nlohmann::json;

// The port a started `flashmark serve` printed, once it printed it.
int ServedPort(const std::string& out_path) {
  int port = 0;
  WaitFor(
      [&] {
        const std::string out = ReadFile(out_path);
        const std::string marker = "http://127.0.0.1:";
        const size_t at = out.find(marker);
        const size_t slash = out.find('/', at + marker.size());
        if (at == std::string::npos || slash == std::string::npos) return false;
        port = std::stoi(
            out.substr(at + marker.size(), slash - at - marker.size()));
        return true;
      },
      20);
  return port;
}

void MakeRun(const std::string& db, const std::string& label) {
  const Invocation run =
      RunFlashmark({"run", "--engine", "null", "--rate", "1000", "--time", "1s",
                    "--interval", "250ms", "-q", "--label", label, "--db", db});
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

TEST(LiveView, ServeFollowsTheStoreAndAsksForItsToken) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  MakeRun(db, "first");
  const int pid = StartFlashmark({"serve", "--db", db, "--listen",
                                  "127.0.0.1:0", "--serve-token", "t0ken"},
                                 dir.File("out"), dir.File("err"));
  const int port = ServedPort(dir.File("out"));
  ASSERT_GT(port, 0) << ReadFile(dir.File("err"));
  httplib::Client client("127.0.0.1", port);
  auto refused = client.Get("/data.json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);

  const httplib::Headers bearer = {{"Authorization", "Bearer t0ken"}};
  auto data = client.Get("/data.json", bearer);
  ASSERT_TRUE(data);
  ASSERT_EQ(data->status, 200) << data->body;
  json doc = json::parse(data->body);
  ASSERT_EQ(doc["runs"].size(), 1u);
  EXPECT_EQ(doc["runs"][0]["label"], "first");
  EXPECT_FALSE(doc["live"]["runs"][0]["running"].get<bool>());
  EXPECT_FALSE(doc["runs"][0]["latency_heatmap"].is_null());

  // A run recorded now is the newest: the next request shows it.
  MakeRun(db, "second");
  data = client.Get("/data.json?token=t0ken");
  ASSERT_TRUE(data);
  doc = json::parse(data->body);
  EXPECT_EQ(doc["runs"][0]["label"], "second");

  auto page = client.Get("/?token=t0ken");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("connect-src 'self'"), std::string::npos);
  EXPECT_NE(page->body.find("\"live\""), std::string::npos);
  auto metrics = client.Get("/metrics", bearer);
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->get_header_value("Content-Type")
                .rfind("application/openmetrics-text; version=1.0.0", 0),
            0u);
  EXPECT_NE(
      metrics->body.find("flashmark_running{run=\"2\",label=\"second\"} 0\n"),
      std::string::npos)
      << metrics->body;
  EXPECT_EQ(metrics->body.substr(metrics->body.size() - 6), "# EOF\n");
  auto missing = client.Get("/nothing", bearer);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);

  kill(pid, SIGTERM);
  EXPECT_EQ(WaitFlashmark(pid), 0);
}

// serve follows a run another process is recording, reading each interval
// once as it comes (issue 41: a week-long run read whole at every request
// took 8 s and 8 GB), and ends with the figures every command prints.
TEST(LiveView, ServeFollowsARunBeingRecorded) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const int run = StartFlashmark(
      {"run", "--engine", "null", "--rate", "1000", "--time", "4s",
       "--interval", "100ms", "-q", "--label", "followed", "--db", db},
      dir.File("run.out"), dir.File("run.err"));
  ASSERT_TRUE(WaitFor([&] { return std::filesystem::exists(db); }, 20));
  const int pid =
      StartFlashmark({"serve", "--db", db, "--listen", "127.0.0.1:0"},
                     dir.File("out"), dir.File("err"));
  const int port = ServedPort(dir.File("out"));
  ASSERT_GT(port, 0) << ReadFile(dir.File("err"));
  httplib::Client client("127.0.0.1", port);
  const auto metric = [&client](const std::string& name) -> double {
    auto metrics = client.Get("/metrics");
    if (!metrics || metrics->status != 200) return -1;
    const std::string key = name + "{run=\"1\"";
    const size_t at = metrics->body.find(key);
    if (at == std::string::npos) return -1;
    return std::stod(metrics->body.substr(metrics->body.find(' ', at)));
  };
  // Seen running, part of the way through.
  double seen = 0;
  EXPECT_TRUE(WaitFor(
      [&] {
        seen = metric("flashmark_intervals_total");
        return metric("flashmark_running") == 1 && seen >= 5;
      },
      20));
  EXPECT_LT(seen, 40);
  EXPECT_EQ(WaitFlashmark(run), 0) << ReadFile(dir.File("run.err"));
  // Then finished, with every interval stored (read once each).
  EXPECT_TRUE(WaitFor([&] { return metric("flashmark_running") == 0; }, 20));
  const Invocation exported =
      RunFlashmark({"export", "1", "--db", db, "--format", "json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const size_t stored = json::parse(exported.out)["intervals"].size();
  EXPECT_GE(stored, 40u);
  EXPECT_EQ(metric("flashmark_intervals_total"), static_cast<double>(stored));
  auto data = client.Get("/data.json");
  ASSERT_TRUE(data);
  const json doc = json::parse(data->body);
  const Invocation analyzed =
      RunFlashmark({"analyze", "1", "--db", db, "--json"});
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
  EXPECT_EQ(doc["runs"][0]["headline"]["median"],
            json::parse(analyzed.out)["headline"]["median"]);
  kill(pid, SIGTERM);
  EXPECT_EQ(WaitFlashmark(pid), 0);
}

TEST(LiveView, BadAddressesAreRefusedBeforeAnything) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const auto refused = [&](std::vector<std::string> args,
                           const std::string& words) {
    const Invocation run = RunFlashmark(args);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find(words), std::string::npos) << run.err;
  };
  const std::vector<std::string> run = {"run", "--engine", "null", "--time",
                                        "1s",  "--db",     db};
  auto with = [&run](std::vector<std::string> extra) {
    std::vector<std::string> args = run;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  refused(with({"--serve", "0.0.0.0:0"}),
          "a live view on a non-loopback address needs --serve-token");
  refused(with({"--serve", "127.0.0.1:99999"}),
          "\"127.0.0.1:99999\" is not an address to listen on");
  refused(with({"--serve", "/mnt/x"}), "is not an address to listen on");
  refused(with({"--serve-token", "x"}), "--serve-token needs --serve");
  // A port something listens on already.
  httplib::Server holder;
  const int taken = holder.bind_to_any_port("127.0.0.1");
  ASSERT_GT(taken, 0);
  refused(with({"--serve", "127.0.0.1:" + std::to_string(taken)}),
          "cannot listen on 127.0.0.1:" + std::to_string(taken));
  EXPECT_FALSE(std::filesystem::exists(db)) << "nothing ran, nothing stored";
  refused({"serve", "--db", db}, "");  // no store to serve from
  refused({"serve", "--db", db, "--listen", "[::1"},
          "--listen: \"[::1\" is not an address to listen on");
}

TEST(LiveView, TheTokenIsNeverRecorded) {
  TempDir dir;
  const std::string db = dir.File("runs.db");
  const Invocation run = RunFlashmark(
      {"run", "--engine", "null", "--time", "1s", "--interval", "250ms", "-q",
       "--db", db, "--serve", "0", "--serve-token", "hunter2"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("live view: http://127.0.0.1:"), std::string::npos);
  const Invocation shown = RunFlashmark({"show", "1", "--db", db, "--json"});
  EXPECT_EQ(shown.out.find("hunter2"), std::string::npos);
  EXPECT_NE(shown.out.find("--serve-token REDACTED"), std::string::npos)
      << shown.out.substr(0, 400);
}

}  // namespace
}  // namespace flashmark::testing
