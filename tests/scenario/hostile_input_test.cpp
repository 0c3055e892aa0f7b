// Inputs that once crashed or exhausted mpisim: each is refused with one clear
// message (an InputError, exit status 2), never a crash.
#include <doctest/doctest.h>

#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <string>

#include "model/net/network_file.hpp"
#include "model/program/program.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using namespace mpisim;

using test::has;
using test::parse_error;

TEST_CASE("JSON nested 100,000 deep is refused before it is read, in scenarios and network files") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string e = parse_error(R"({"mpisim": 1, "program": )" + deep + "}");
  INFO(e);
  CHECK(has(e, "nested more than 128 deep"));
  CHECK(has(e, "line 1, column"));
  try {
    net::parse_network(deep, "n.json");
    FAIL("a deep network file was accepted");
  } catch (const sim::InputError& x) {
    CHECK(has(x.what(), "nested more than 128 deep"));
  }
}

TEST_CASE("a key given twice in one object is an error naming the key and the object") {
  std::string e = parse_error(R"({"mpisim": 1, "ranks": 2, "program": [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD", "comm": "x"}], "ranks": 3})");
  INFO(e);
  CHECK(has(e, "the key \"comm\" appears twice in the object at \"/program/0\""));
  // Strings that look like keys, escapes and keys in different objects are fine.
  CHECK(parse_error(R"({"mpisim": 1, "name": "a \"b\": c", "program": [{"let": {"x": 1}}, {"let": {"x": 2}}]})") ==
        "no error");
}

TEST_CASE("an expression of 60,000 terms is refused, not a stack overflow") {
  std::string sum = "1";
  for (int i = 0; i < 60000; ++i) sum += " + 1";
  std::string e = parse_error(R"({"mpisim": 1, "program": [{"let": {"x": ")" + sum + R"("}}]})");
  INFO(e.substr(0, 200));
  CHECK(has(e, "expression too long or nested too deeply"));
  // A long but reasonable one is fine.
  std::string ok = "1";
  for (int i = 0; i < 500; ++i) ok += " + 1";
  CHECK(parse_error(R"({"mpisim": 1, "program": [{"let": {"x": ")" + ok + R"("}}]})") == "no error");
}

TEST_CASE("only regular files of a bounded size are read as scenarios or networks") {
  for (const char* path : {"/dev/zero", "/tmp"}) {
    INFO(path);
    try {
      scenario::load_scenario(path);
      FAIL("accepted");
    } catch (const sim::InputError& e) {
      CHECK(has(e.what(), "must be a regular file"));
    }
    try {
      net::load_network_file(path);
      FAIL("accepted");
    } catch (const sim::InputError& e) {
      CHECK(has(e.what(), "must be a regular file"));
    }
  }
  // A FIFO is refused at once, not opened (an open would wait for a writer).
  const std::string fifo = (std::filesystem::temp_directory_path() / ("mpisim-fifo-" + std::to_string(::getpid()))).string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(program::is_program_file(fifo));
  try {
    scenario::load_scenario(fifo);
    FAIL("accepted");
  } catch (const sim::InputError& e) {
    CHECK(has(e.what(), "must be a regular file"));
  }
  std::filesystem::remove(fifo);
  try {
    scenario::load_scenario("/no/such/file.json");
    FAIL("accepted");
  } catch (const sim::InputError& e) {
    CHECK(has(e.what(), "cannot open the scenario file"));
  }
}

TEST_CASE("a bandwidth of 10^-9 B/s is not a makespan of 0: time saturates and the run stops at 2^62 ps") {
  const std::string sc = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_INT", "count": 4},
    {"call": "MPI_Bcast", "buffer": "b", "count": 4, "datatype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(sc, 4, R"({"mpisim-network": 1, "model": "hockney", "alpha": "1us", "bandwidth": "0.000000001B/s"})");
  CHECK(test::first_code(r) == "LIMIT_SIM_TIME");
  CHECK(r.outcome == runner::Outcome::erroneous);
  // A computation longer than virtual time can hold is refused when the scenario is read.
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"compute": {"ms": 9000000000000}}]})"), "duration too long"));
}

TEST_CASE("a look-alike character in a name is shown escaped, with its code point") {
  // U+041E CYRILLIC CAPITAL LETTER O in MPI_COMM_WORLD; U+0445 CYRILLIC SMALL LETTER HA as a buffer name.
  std::string e = parse_error(R"({"mpisim": 1, "program": [{"buffer": "x", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Bcast", "buffer": "x", "count": 1, "datatype": "MPI_INT", "root": 0, "comm": "MPI_C)"
                              "\xD0\x9E" R"(MM_WORLD"}]})");
  CHECK(has(e, R"(got "MPI_C\u041EMM_WORLD" (U+041E is not an ASCII character))"));
  e = parse_error(R"({"mpisim": 1, "program": [{"buffer": "x", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Bcast", "buffer": ")" "\xD1\x85" R"(", "count": 1, "datatype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD"}]})");
  CHECK(has(e, R"(got "\u0445")"));
  e = parse_error(R"({"mpisim": 1, "program": [{"buffer": "x", "type": "MPI_INT", "count": "4 * s)" "\xD1\x96" R"(ze"}]})");
  CHECK(has(e, R"(unexpected "\u0456" (U+0456 is not an ASCII character))"));
  CHECK(has(e, R"("4 * s\u0456ze")"));
  e = parse_error(R"({"mpisim": 1, "program": [{"let": {"n)" "\xFF" R"(": 1}}]})");
  CHECK(has(e, R"(ill-formed UTF-8 byte; last read: '"n\xFF')"));
  try {
    net::parse_network(R"({"mpisim-network": 1, "model": "h)" "\xD0\xBE" R"(ckney", "alpha": "1us", "bandwidth": "1GB/s"})",
                       "n.json");
    FAIL("accepted");
  } catch (const sim::InputError& x) {
    CHECK(has(x.what(), R"(unknown model "h\u043Eckney")"));
  }
  // The micro sign is a unit, not a look-alike: 1.5 µs.
  auto n = net::parse_network(R"({"mpisim-network": 1, "model": "hockney", "alpha": "1.5)" "\xC2\xB5" R"(s", "bandwidth": "1GB/s"})",
                              "n.json");
  bool alpha = false;
  for (const auto& [k, v] : n.model->parameters()) alpha |= k == "alpha" && v == "1.500 us";
  CHECK(alpha);
}

TEST_CASE("a number beyond a double's range is named with its place: file, JSON pointer, line and column") {
  std::string e = parse_error("{\"mpisim\": 1,\n \"program\": [{\"buffer\": \"x\", \"type\": \"MPI_INT\", \"count\": 1e400}]}");
  CHECK(has(e, "s.json"));
  CHECK(has(e, "not valid JSON at line 2, column 58: the number 1e400 at /program/0/count is beyond"));
  try {
    net::parse_network(R"({"mpisim-network": 1, "model": "hockney", "alpha": "1us", "bandwidth": "1GB/s", "eager_limit": -1e999})",
                       "n.json");
    FAIL("accepted");
  } catch (const sim::InputError& x) {
    CHECK(has(x.what(), "the number -1e999 at /eager_limit"));
  }
  // Large numbers a double holds are not refused here (the field's own check decides).
  CHECK_FALSE(has(parse_error(R"({"mpisim": 1, "ranks": 1e300, "program": []})"), "beyond the range"));
  // An integer past 2^63 - 1 is not wrapped; one past 2^64 (a double to the JSON
  // reader) is not an integer argument.
  const std::string bcast = R"({"mpisim": 1, "program": [{"buffer": "x", "type": "MPI_INT", "count": 4},
    {"call": "MPI_Bcast", "buffer": "x", "datatype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD", "count": )";
  CHECK(has(parse_error(bcast + "18446744073709551615}]}"),
            "/program/1/count: the integer 18446744073709551615 is beyond 2^63 - 1"));
  CHECK(has(parse_error(bcast + "18446744073709551616}]}"),
            "/program/1/count: expected an integer (an MPI int or count) or an expression, got the real number"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"buffer": "x", "type": "MPI_INT", "count": 9223372036854775808}]})"),
            "/program/0/count: the integer 9223372036854775808 is beyond 2^63 - 1"));
}

TEST_CASE("a runaway loop ends at the default event limit, 10^8 + 10^4 per rank, with LIMIT_EVENTS") {
  CHECK(runner::default_max_events(2) == 100'020'000);
  // Ten nested repeats of 1,000 barriers: 10^30 steps; the limit ends it (a small one here, to be quick).
  std::string p = R"({"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"})";
  for (int i = 0; i < 10; ++i) p = R"({"repeat": 1000, "program": [)" + p + "]}";
  scenario::Scenario sc = scenario::parse_scenario(R"({"mpisim": 1, "program": [)" + p + "]}", "s.json");
  net::Network n = net::default_network();
  runner::Config cfg;
  cfg.ranks = 2;
  cfg.max_events = 50000;
  auto r = scenario::run_scenario(sc, n, cfg);
  CHECK(test::first_code(r) == "LIMIT_EVENTS");
  CHECK(has(r.trace.diagnostics().front().message, "the limit of 50000 events and interpreted steps"));
  CHECK(has(r.trace.diagnostics().front().message, "by default 10^8 + 10^4 per rank"));
}

TEST_CASE("--max-memory bounds the ranks' state and the provenance too: 2^24 ranks are refused before they start") {
  net::Network n = net::default_network();
  scenario::Scenario barrier =
      scenario::parse_scenario(R"({"mpisim": 1, "program": [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]})", "b.json");
  runner::Config cfg;
  cfg.ranks = std::int64_t{1} << 24;
  cfg.payload = mpi::PayloadMode::sizes;
  cfg.max_memory = std::int64_t{8} << 30;
  auto r = scenario::run_scenario(barrier, n, cfg);
  REQUIRE(test::first_code(r) == "LIMIT_MEMORY");
  CHECK(has(r.trace.diagnostics().front().message, "16777216 ranks need about 20.31 GiB"));
  CHECK(has(r.trace.diagnostics().front().message, "the run was not started"));
  CHECK(r.outcome == runner::Outcome::erroneous);
  // A full trace keeps 4 bytes of provenance per byte of a buffer: 1 MiB of data costs 5 MiB.
  scenario::Scenario one = scenario::parse_scenario(
      R"({"mpisim": 1, "program": [{"buffer": "b", "type": "MPI_BYTE", "count": 1048576}]})", "m.json");
  cfg.ranks = 1;
  cfg.payload = mpi::PayloadMode::data;
  cfg.max_memory = 3 << 20;
  cfg.trace_level = sim::TraceLevel::full;
  r = scenario::run_scenario(one, n, cfg);
  REQUIRE(test::first_code(r) == "LIMIT_MEMORY");
  CHECK(has(r.trace.diagnostics().front().message, "needs 5242880 bytes (with the provenance"));
  cfg.trace_level = sim::TraceLevel::summary;
  CHECK(test::first_code(scenario::run_scenario(one, n, cfg)) == "");
  // Messages not yet received count too: a flood of sends nobody receives stops
  // at the budget, not at the machine's memory.
  scenario::Scenario flood = scenario::parse_scenario(R"({"mpisim": 1, "program": [
    {"buffer": "x", "type": "MPI_INT", "count": 1},
    {"repeat": 10000000, "program": [{"call": "MPI_Send", "ranks": "rank == 0", "buf": "x", "count": 1, "datatype": "MPI_INT",
                                       "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"}]},
    {"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]})", "f.json");
  cfg.ranks = 2;
  cfg.max_memory = 16 << 20;
  r = scenario::run_scenario(flood, n, cfg);
  REQUIRE(test::first_code(r) == "LIMIT_MEMORY");
  CHECK(has(r.trace.diagnostics().front().message, "a message of 4 bytes from rank 0 to rank 1 needs"));
  CHECK(has(r.trace.diagnostics().front().message, "messages not yet received), over --max-memory 16777216"));
}
