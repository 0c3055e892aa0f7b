// Golden tests: every shipped scenario, run through the command line twice.
// The two traces must be identical byte for byte, and the printed output (exit
// status, stdout, stderr) and the trace must equal the files in tests/golden/.
// MPISIM_UPDATE_GOLDEN=1 rewrites those files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/app.hpp"
#include "sim/frame_pool.hpp"
#include "tests/support.hpp"

using mpisim::test::slurp;

namespace fs = std::filesystem;

namespace {

struct Output {
  int code;
  std::string out, err, trace;
};

Output run(const std::string& scenario, const fs::path& trace_file) {
  std::ostringstream out, err;
  fs::remove(trace_file);
  std::string t = trace_file.string();
  // Verification on: every collective's result is compared with the standard's definition.
  const char* argv[] = {"mpisim", "run", scenario.c_str(), "--out", t.c_str(), "--verify"};
  int code = mpisim::cli::run_cli(6, argv, out, err);
  // The trace's file name differs between runs; the printed text names it generically.
  std::string printed = out.str();
  auto pos = printed.find("trace written to ");
  if (pos != std::string::npos) printed = printed.substr(0, pos) + "trace written to TRACE\n";
  return {code, printed, err.str(), fs::exists(trace_file) ? slurp(trace_file) : std::string()};
}

std::vector<std::string> scenarios() {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator("scenarios"))
    if (e.is_regular_file() && e.path().extension() == ".json" && e.path().parent_path().filename() != "networks")
      files.push_back(e.path().generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every shipped scenario gives the golden output and the same trace twice") {
  fs::current_path(MPISIM_SOURCE_DIR);
  bool update = std::getenv("MPISIM_UPDATE_GOLDEN") != nullptr;
  fs::path tmp = fs::temp_directory_path() / ("mpisim-golden-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  auto files = scenarios();
  CHECK(files.size() >= 10);
  for (const auto& f : files) {
    CAPTURE(f);
    const auto frames = mpisim::sim::frame_pool::live_frames();
    Output a = run(f, tmp / "a.json");
    // Every coroutine frame is destroyed, whether the run ended cleanly, in a
    // deadlock, on an MPI error or at a limit.
    CHECK(mpisim::sim::frame_pool::live_frames() == frames);
    Output b = run(f, tmp / "b.json");
    CHECK(a.trace == b.trace);
    CHECK(a.out == b.out);
    std::string stem = f.substr(std::string("scenarios/").size());
    std::replace(stem.begin(), stem.end(), '/', '_');
    fs::path golden_txt = fs::path("tests/golden") / (stem.substr(0, stem.size() - 5) + ".txt");
    fs::path golden_trace = fs::path("tests/golden") / (stem.substr(0, stem.size() - 5) + ".trace.json");
    std::string printed = "exit " + std::to_string(a.code) + "\n--- stdout\n" + a.out + "--- stderr\n" + a.err;
    if (update) {
      std::ofstream(golden_txt, std::ios::binary) << printed;
      if (!a.trace.empty()) std::ofstream(golden_trace, std::ios::binary) << a.trace;
      continue;
    }
    REQUIRE_MESSAGE(fs::exists(golden_txt), "missing golden file " << golden_txt << " (MPISIM_UPDATE_GOLDEN=1)");
    CHECK(printed == slurp(golden_txt));
    if (!a.trace.empty()) CHECK(a.trace == slurp(golden_trace));
  }
  fs::remove_all(tmp);
}

TEST_CASE("exit status: 0 clean, 2 for a wrong scenario or program, help is complete") {
  fs::current_path(MPISIM_SOURCE_DIR);
  auto code = [](std::vector<const char*> args, std::string* out_text = nullptr) {
    std::ostringstream out, err;
    args.insert(args.begin(), "mpisim");
    int c = mpisim::cli::run_cli(static_cast<int>(args.size()), args.data(), out, err);
    if (out_text) *out_text = out.str() + err.str();
    return c;
  };
  std::string text;
  CHECK(code({"--help"}, &text) == 0);
  CHECK(text.find("run") != std::string::npos);
  CHECK(code({"run", "--help"}, &text) == 0);
  CHECK(text.find("--payload") != std::string::npos);
  CHECK(text.find("--trace") != std::string::npos);
  CHECK(code({"check", "scenarios/seed/scatter.json"}) == 0);
  CHECK(code({"check", "scenarios/errors/deadlock.json"}) == 2);
  CHECK(code({"check", "scenarios/errors/malformed-json.json"}) == 2);
  CHECK(code({"run", "no/such/file.json"}, &text) == 2);
  CHECK(text.find("cannot open") != std::string::npos);
  CHECK(code({"run", "scenarios/seed/scatter.json", "--payload", "bogus"}) == 2);
  CHECK(code({"run", "scenarios/seed/scatter.json", "--algorithm", "MPI_Scatter=nope"}, &text) == 2);
  CHECK(code({"run", "scenarios/seed/scatter.json", "--network", "scenarios/errors/deadlock.json"}, &text) == 2);
  CHECK(text.find("mpisim-network") != std::string::npos);
  CHECK(code({"--list-algorithms"}, &text) == 0);
  CHECK(text.find("dissemination") != std::string::npos);
  CHECK(code({"run", "scenarios/ring.json", "--ranks", "64", "--payload", "sizes", "--trace", "summary", "-q"}) == 0);
}

TEST_CASE("mpisim explain gives the standard's definition with this run's values and the buffers changed") {
  fs::current_path(MPISIM_SOURCE_DIR);
  std::ostringstream out, err;
  const char* argv[] = {"mpisim", "explain", "scenarios/seed/scatter.json"};
  CHECK(mpisim::cli::run_cli(3, argv, out, err) == 0);
  std::string text = out.str();
  CHECK(text.find("as if the root (rank 0) executed n sends MPI_Send(sendbuf + i·100·extent(MPI_INT), 100, MPI_INT") !=
        std::string::npos);
  CHECK(text.find("rank 1  rbuf: -1 (64 times) ... (100 elements)  ->  100..163") != std::string::npos);
  CHECK(text.find("algorithm binomial") != std::string::npos);
}

TEST_CASE("mpisim explain defines every call, with what its output parameters got") {
  fs::current_path(MPISIM_SOURCE_DIR);
  std::ostringstream out, err;
  const char* argv[] = {"mpisim", "explain", "scenarios/datatypes/typemap.json"};
  CHECK(mpisim::cli::run_cli(3, argv, out, err) == 0);
  std::string text = out.str();
  CHECK(text.find("ranks 0..1 got mytype = size 12, extent 16, lb 0, true extent 16") != std::string::npos);
  CHECK(text.find("MPI-4.1 §5.1.5: sz = 12 = the number of bytes of data in one element of mytype") != std::string::npos);
  std::ostringstream out2, err2;
  const char* argv2[] = {"mpisim", "explain", "scenarios/collectives/nonblocking.json"};
  CHECK(mpisim::cli::run_cli(3, argv2, out2, err2) == 0);
  text = out2.str();
  CHECK(text.find("MPI-4.1 §6.12: start MPI_Allreduce and return rs at once") != std::string::npos);
  CHECK(text.find("MPI_Allreduce (MPI-4.1 §6.9.6): as MPI_Reduce followed by MPI_Bcast") != std::string::npos);
}

TEST_CASE("mpisim explain prints the scenario's and each call's note") {
  fs::current_path(MPISIM_SOURCE_DIR);
  std::ostringstream out, err;
  const char* argv[] = {"mpisim", "explain", "scenarios/p2p/send-modes.json"};
  CHECK(mpisim::cli::run_cli(3, argv, out, err) == 0);
  std::string text = out.str();
  CHECK(text.find("note: Each section is one send mode") != std::string::npos);
  CHECK(text.find("MPI_Ssend(buf=v, count=4, datatype=MPI_INT, dest=1, tag=1, comm=MPI_COMM_WORLD)\n  note: synchronous: "
                  "returns once") != std::string::npos);
  // A note is a string, on any step.
  CHECK(mpisim::test::has(mpisim::test::parse_error(R"({"mpisim": 1, "program": [{"compute": {"ns": 1}, "note": 5}]})"),
                          "/program/0/note: expected a string"));
  CHECK(mpisim::test::parse_error(R"({"mpisim": 1, "note": "n", "program": [{"let": {"a": 1}, "note": "x"},
    {"buffer": "b", "type": "MPI_INT", "count": 1, "note": "y"}, {"show": "b", "note": "z"},
    {"repeat": 1, "program": [], "note": "w"}, {"expect": "a == 1", "note": "v"}]})") == "no error");
}

TEST_CASE("--chrome-trace and --html write what Perfetto and a browser open") {
  fs::current_path(MPISIM_SOURCE_DIR);
  fs::path dir = fs::temp_directory_path() / ("mpisim-outputs-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string chrome = (dir / "c.json").string(), html = (dir / "p.html").string();
  std::ostringstream out, err;
  const char* argv[] = {"mpisim", "run", "scenarios/seed/scatter.json", "--chrome-trace", chrome.c_str(),
                        "--html", html.c_str(), "-q"};
  CHECK(mpisim::cli::run_cli(8, argv, out, err) == 0);
  auto ct = nlohmann::json::parse(slurp(chrome));
  int complete = 0, flows = 0;
  for (const auto& e : ct["traceEvents"]) {
    complete += e["ph"] == "X";
    flows += e["ph"] == "s" || e["ph"] == "f";
  }
  CHECK(complete == 8);  // MPI_Comm_size and MPI_Scatter at 4 ranks
  CHECK(flows == 6);     // 3 messages, a start and a finish each
  std::string page = slurp(html);
  CHECK(page.find("\"schema\":\"mpisim-trace/1\"") != std::string::npos);
  CHECK(page.find("<script src=") == std::string::npos);
  // Nothing is fetched: no external scripts, styles or images (the SVG namespace URI is only a name).
  for (const char* fetch : {"src=\"http", "href=\"http", "url(http", "@import"}) CHECK(page.find(fetch) == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("every shipped scenario runs and meets its expectations at any rank count, or refuses it with its reason") {
  // errors/ aside (those are erroneous on purpose). A scenario that declares
  // "ranks_fixed" or "requires" may refuse a count, with exit 2 and its reason;
  // every other count must run clean.
  fs::current_path(MPISIM_SOURCE_DIR);
  int runs = 0;
  for (const auto& f : scenarios()) {
    if (f.rfind("scenarios/errors/", 0) == 0) continue;
    const nlohmann::json j = nlohmann::json::parse(slurp(f));
    const bool declares = j.contains("ranks_fixed") || j.contains("requires");
    for (const char* n : {"1", "2", "3", "4", "5", "7", "8", "16", "64"}) {
      CAPTURE(f);
      CAPTURE(n);
      std::ostringstream out, err;
      const char* argv[] = {"mpisim", "run", f.c_str(), "--ranks", n, "-q"};
      const int code = mpisim::cli::run_cli(6, argv, out, err);
      const bool refused = code == 2 && err.str().find("--ranks") != std::string::npos;
      CHECK_MESSAGE((code == 0 || (declares && refused)), err.str());
      if (refused) {
        const std::string reason = j.contains("ranks_fixed") ? j["ranks_fixed"].get<std::string>()
                                                             : j["requires"]["reason"].get<std::string>();
        CHECK(err.str().find(reason) != std::string::npos);
      }
      ++runs;
    }
  }
  MESSAGE(runs, " runs");
}

TEST_CASE("a followed buffer is recorded after each message whose data lands in it") {
  // A linear gather into a followed buffer: the root's records show it filling
  // block by block, one record per message, then nothing new after the call.
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "x", "type": "MPI_INT", "count": 2, "init": "rank * 10 + i"},
    {"buffer": "all", "type": "MPI_INT", "count": 8, "init": "-1"},
    {"show": ["all"], "ranks": "rank == 0", "follow": true},
    {"call": "MPI_Gather", "sendbuf": "x", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "all", "recvcount": 2,
     "recvtype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD", "algorithm": "linear"}]})";
  auto r = mpisim::test::run_text(s, 4);
  std::vector<std::string> seen;
  for (const auto& snap : r.trace.snapshots()) {
    if (snap.process != 0 || !snap.replay) continue;
    auto j = nlohmann::json::parse(snap.json);
    std::string values;
    for (const auto& v : j["values"]) values += v.dump() + " ";
    seen.push_back(j["follow"].get<std::string>() + ": " + values);
  }
  CHECK(seen == std::vector<std::string>{
                    "declared: -1 -1 -1 -1 -1 -1 -1 -1 ",
                    "the message from rank 1 in MPI_Gather: 0 1 10 11 -1 -1 -1 -1 ",
                    "the message from rank 2 in MPI_Gather: 0 1 10 11 20 21 -1 -1 ",
                    "the message from rank 3 in MPI_Gather: 0 1 10 11 20 21 30 31 ",
                });
}
