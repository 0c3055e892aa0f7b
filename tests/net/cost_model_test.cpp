// Closed forms of the cost models, checked through whole runs (scenario -> runtime
// -> model). Each case states the system and the expected time in its comment.
#include <doctest/doctest.h>

#include "model/net/units.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using namespace mpisim;

namespace {

// L = 5 us, o = 1.5 us, g = 2 us, G = 0.4 ns/B, O = 0, S = 64 KiB.
const char* kLogGP = R"({"mpisim-network": 1, "model": "loggops", "L": "5us", "o": "1.5us", "g": "2us",
                         "G": "0.4ns", "O": "0ns", "S": "64KiB"})";
constexpr std::int64_t L = 5'000'000, o = 1'500'000, g = 2'000'000, G = 400;

// α = 2 us, β = 0.8 ns/B, unlimited eager.
const char* kHockney = R"({"mpisim-network": 1, "model": "hockney", "alpha": "2us", "beta": "0.8ns"})";
constexpr std::int64_t alpha = 2'000'000, beta = 800;

std::string one_message(std::int64_t bytes) {
  std::string n = std::to_string(bytes);
  return R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": )" + n + R"(},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": )" + n + R"(, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": )" + n + R"(, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
}

}  // namespace

TEST_CASE("LogGOPS: one message of s bytes costs 2o + L + (s-1)G") {
  for (std::int64_t s : {1, 8, 1000, 65536}) {
    auto r = test::run_text(one_message(s), 2, kLogGP);
    REQUIRE(r.outcome == runner::Outcome::clean);
    CHECK(r.finish_ps[1] == 2 * o + L + (s - 1) * G);
    // The sender's CPU is busy for o (O = 0).
    CHECK(r.finish_ps[0] == o);
  }
}

TEST_CASE("LogGOPS: an empty message costs 2o + L (no wrap-around of s-1)") {
  auto r = test::run_text(one_message(0), 2, kLogGP);
  CHECK(r.finish_ps[1] == 2 * o + L);
}

TEST_CASE("LogGOPS: a ping-pong round trip is 2(2o + L + (s-1)G)") {
  const char* pp = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 100},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 100, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 100, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Send", "ranks": "rank == 1", "buf": "b", "count": 100, "datatype": "MPI_BYTE", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 0", "buf": "b", "count": 100, "datatype": "MPI_BYTE", "source": 1, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(pp, 2, kLogGP);
  CHECK(r.finish_ps[0] == 2 * (2 * o + L + 99 * G));
}

TEST_CASE("LogGOPS: back-to-back sends start every max(o + (s-1)O, g + (s-1)G)") {
  // Rank 0 posts three nonblocking sends of 10000 B at once, to ranks 1, 2, 3.
  const char* b2b = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 10000},
    {"repeat": 3, "as": "k", "ranks": "rank == 0", "program": [
      {"call": "MPI_Isend", "buf": "b", "count": 10000, "datatype": "MPI_BYTE", "dest": "k + 1", "tag": 0, "comm": "MPI_COMM_WORLD", "request": "r"},
      {"call": "MPI_Wait", "request": "r"}]},
    {"call": "MPI_Recv", "ranks": "rank != 0", "buf": "b", "count": 10000, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(b2b, 4, kLogGP);
  REQUIRE(r.outcome == runner::Outcome::clean);
  const std::int64_t gap = std::max(o, g + 9999 * G);
  const auto& m = r.trace.messages();
  REQUIRE(m.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(m[i].sent.ps == static_cast<std::int64_t>(i) * gap);
  CHECK(r.finish_ps[3] == 2 * gap + 2 * o + L + 9999 * G);
}

TEST_CASE("LogGOPS: a linear gather of p-1 messages is serialized at the receiver, at a few events each") {
  // Ranks 1..p-1 send s bytes to rank 0 at t = 0; all arrive at o + L. Rank 0
  // absorbs one every max(o + (s-1)max(O,G), g + (s-1)G); the last completes
  // o + (s-1)G after it starts.
  const char* gather = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 4096},
    {"call": "MPI_Send", "ranks": "rank != 0", "buf": "b", "count": 4096, "datatype": "MPI_BYTE", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"repeat": "size - 1", "ranks": "rank == 0", "program": [
      {"call": "MPI_Recv", "buf": "b", "count": 4096, "datatype": "MPI_BYTE", "source": "MPI_ANY_SOURCE", "tag": 0, "comm": "MPI_COMM_WORLD"}]}]})";
  const std::int64_t s = 4096;
  for (std::int64_t p : {6, 2000}) {
    auto r = test::run_text(gather, p, kLogGP);
    REQUIRE(r.outcome == runner::Outcome::clean);
    const std::int64_t step = std::max(o + (s - 1) * G, g + (s - 1) * G);
    CHECK(r.finish_ps[0] == o + L + (p - 2) * step + o + (s - 1) * G);
    // Only the first of the waiting arrivals waits in the event queue: a few
    // events per message, not one per message and absorption (p²/2).
    CHECK(r.events < static_cast<std::uint64_t>(12 * p));
  }
}

TEST_CASE("LogGOPS: a rendezvous send completes when the receiver matches it") {
  // 1 MiB > S. Rank 1 computes for 100 us before posting its receive; rank 0's
  // blocking send returns then, not when its data left.
  const char* rdv = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1048576},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Wtime", "result": "t", "ranks": "rank == 0"},
    {"compute": {"us": 100}, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"expect": "t == 100000000", "ranks": "rank == 0"}]})";
  auto r = test::run_text(rdv, 2, kLogGP);
  CHECK(r.outcome == runner::Outcome::clean);
  // The message arrived during the computation and was absorbed after it.
  CHECK(r.finish_ps[1] == 100'000'000 + o + (1048576 - 1) * G);
}

TEST_CASE("LogGOPS: an arriving message waits for a computing CPU") {
  const char* calc = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"compute": {"us": 20}, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(calc, 2, kLogGP);
  CHECK(r.finish_ps[1] == 20'000'000 + o);
}

TEST_CASE("LogGOPS: a send a completed receive frees goes before an arrival sent after the match") {
  // g = 1 us here (< o: the receive NIC is free when the CPU is). s = 20001 B, so
  // (s-1)G = 8 us > L. Rank 0 sends to rank 1 at 0; it arrives at
  // o + L = 6.5 us and rank 1's receive is done at t = 2o + L + (s-1)G = 16 us.
  // Rank 2 computes o + (s-1)G = 9.5 us, after rank 1 matched, then sends to rank
  // 1: that arrives at 16 us too. LogGOPSim numbers the send the receive frees
  // when the receive matches, before that arrival: rank 1 sends at 16 us (CPU to
  // 17.5), absorbs rank 2's message from 17.5 to 27 us; its message reaches rank 2
  // at 16 + o + L = 22.5 us, absorbed by 32 us. Served the other way round, rank
  // 1's send would leave at 25.5 us and rank 2 finish at 41.5 us.
  const char* tie = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 20001},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 20001, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 20001, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Send", "ranks": "rank == 1", "buf": "b", "count": 20001, "datatype": "MPI_BYTE", "dest": 2, "tag": 1, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 20001, "datatype": "MPI_BYTE", "source": 2, "tag": 2, "comm": "MPI_COMM_WORLD"},
    {"compute": {"ns": 9500}, "ranks": "rank == 2"},
    {"call": "MPI_Send", "ranks": "rank == 2", "buf": "b", "count": 20001, "datatype": "MPI_BYTE", "dest": 1, "tag": 2, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 2", "buf": "b", "count": 20001, "datatype": "MPI_BYTE", "source": 1, "tag": 1, "comm": "MPI_COMM_WORLD"}]})";
  const std::int64_t sG = 20000 * G;
  REQUIRE(o + sG > L);
  const char* net = R"({"mpisim-network": 1, "model": "loggops", "L": "5us", "o": "1.5us", "g": "1us",
                         "G": "0.4ns", "O": "0ns", "S": "64KiB"})";
  auto r = test::run_text(tie, 3, net);
  REQUIRE(r.outcome == runner::Outcome::clean);
  const std::int64_t done = 2 * o + L + sG;  // rank 1's first receive
  CHECK(r.finish_ps[1] == done + o + o + sG);
  CHECK(r.finish_ps[2] == done + o + L + o + sG);
}

TEST_CASE("Hockney: one message costs alpha + n beta, a rank's sends leave one after another") {
  for (std::int64_t n : {0, 1, 4096, 1 << 20}) {
    auto r = test::run_text(one_message(n), 2, kHockney);
    CHECK(r.finish_ps[1] == alpha + n * beta);
  }
  const char* two = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1000},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "b", "count": 1000, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "x"},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "b", "count": 1000, "datatype": "MPI_BYTE", "dest": 2, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "y"},
    {"call": "MPI_Waitall", "ranks": "rank == 0", "array_of_requests": ["x", "y"]},
    {"call": "MPI_Recv", "ranks": "rank != 0", "buf": "b", "count": 1000, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(two, 3, kHockney);
  CHECK(r.finish_ps[1] == alpha + 1000 * beta);
  CHECK(r.finish_ps[2] == alpha + 2 * 1000 * beta);
}

TEST_CASE("a dissemination barrier costs ceil(lg p) rounds") {
  const char* barrier = R"({"mpisim": 1, "program": [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]})";
  for (std::int64_t p : {2, 5, 8, 16}) {
    auto r = test::run_text(barrier, p, kHockney);
    std::int64_t rounds = 0;
    while ((1 << rounds) < p) ++rounds;
    CHECK(r.makespan_ps == rounds * alpha);
    auto lg = test::run_text(barrier, p, kLogGP);
    CHECK(lg.makespan_ps == rounds * (2 * o + L));
  }
}

TEST_CASE("network files: every error names the field and what was expected") {
  auto err = [](const std::string& text) {
    try {
      net::parse_network(text, "n.json");
    } catch (const sim::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(err(R"({"mpisim-network": 1, "model": "warp"})").find("/model: unknown model \"warp\"") != std::string::npos);
  CHECK(err(R"({"mpisim-network": 1, "model": "hockney", "alpha": "2 parsecs", "beta": "1ns"})").find("/alpha") !=
        std::string::npos);
  CHECK(err(R"({"mpisim-network": 1, "model": "hockney", "alpha": "1us", "bandwidth": "0 GB/s"})")
            .find("/bandwidth: expected a positive bandwidth") != std::string::npos);
  CHECK(err(R"({"mpisim-network": 1, "model": "loggp", "L": "1us", "o": "1us", "g": "1us"})").find("/G: missing") !=
        std::string::npos);
  CHECK(err("{ nope").find("not valid JSON") != std::string::npos);
  // Found by fuzzing: a number nlohmann-json cannot hold threw past the parse-error handler.
  CHECK(err("2220000000000000E0200000000000E020").find("not valid JSON") != std::string::npos);
  CHECK(err(R"({"model": "hockney"})").find("/mpisim-network") != std::string::npos);
}

TEST_CASE("units parse with their suffixes") {
  CHECK(*net::parse_time_ps("1.5us") == doctest::Approx(1.5e6));
  CHECK(*net::parse_time_ps("800 ps") == doctest::Approx(800));
  CHECK_FALSE(net::parse_time_ps("5 furlongs"));
  CHECK(*net::parse_bytes("64KiB") == 65536);
  CHECK(*net::parse_bytes("1MB") == 1000000);
  CHECK_FALSE(net::parse_bytes("1.5B"));
  CHECK(*net::parse_bandwidth_ps_per_byte("10 Gbit/s") == doctest::Approx(800));
}
