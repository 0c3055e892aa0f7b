#include <doctest/doctest.h>

#include "model/scenario/scenario.hpp"
#include "tests/support.hpp"

using namespace mpisim;

namespace {
// The run's expects all hold, on 1 to 6 ranks.
void check_clean(const std::string& text) {
  for (std::int64_t p = 1; p <= 6; ++p) {
    CAPTURE(p);
    CHECK(test::run_text(text, p).outcome == runner::Outcome::clean);
  }
}
}  // namespace

TEST_CASE("expressions in loop bodies that read only rank, size and constants get a per-rank memo slot") {
  auto sc = scenario::parse_scenario(R"J({"mpisim": 1, "program": [
    {"let": {"top": "(rank + 1) % size"}},
    {"repeat": 2, "as": "k", "program": [
      {"let": {"a": "(rank + 1) % size", "b": "rank + k", "c": 7, "d": "size - MPI_ANY_SOURCE"}},
      {"repeat": "size", "program": [{"let": {"e": "rank * 2"}}]}]}]})J",
                                     "s.json");
  CHECK(sc.program[0].lets[0].second.memo_slot() == -1);  // top level: evaluated once anyway
  const scenario::Step& loop = sc.program[1];
  CHECK(loop.times->memo_slot() == -1);
  const auto& lets = (*loop.body)[0].lets;
  REQUIRE(lets.size() == 4);
  CHECK(lets[0].second.memo_slot() >= 0);
  CHECK(lets[1].second.memo_slot() == -1);  // reads the loop variable
  CHECK(lets[2].second.memo_slot() == -1);  // a constant
  CHECK(lets[3].second.memo_slot() >= 0);
  const scenario::Step& inner = (*loop.body)[1];
  CHECK(inner.times->memo_slot() >= 0);
  CHECK((*inner.body)[0].lets[0].second.memo_slot() >= 0);
  CHECK(sc.memo_slots == 4);
}

TEST_CASE("memoized expressions give each rank its own value, every time") {
  // Ring shifts repeated: the neighbours and constant arguments are memoized (more
  // of them than the memo keeps), the accumulated values and the loop variable's
  // expressions are not.
  check_clean(R"J({"mpisim": 1, "program": [
    {"buffer": "s", "type": "MPI_INT", "count": 1, "init": "rank"},
    {"buffer": "r", "type": "MPI_INT", "count": 1, "init": -1},
    {"let": {"sum": 0, "turns": 0}},
    {"repeat": 3, "as": "k", "program": [
      {"call": "MPI_Sendrecv", "sendbuf": "s", "sendcount": 1, "sendtype": "MPI_INT", "dest": "(rank + 1) % size",
       "sendtag": "k", "recvbuf": "r", "recvcount": 1, "recvtype": "MPI_INT", "source": "(rank + size - 1) % size",
       "recvtag": "k", "comm": "MPI_COMM_WORLD"},
      {"expect": {"r": "[(rank + size - 1) % size]"}},
      {"call": "MPI_Sendrecv", "sendbuf": "s", "sendcount": "size / size", "sendtype": "MPI_INT",
       "dest": "(rank + 2) % size", "sendtag": "size - size", "recvbuf": "r", "recvcount": "1 + 0 * rank",
       "recvtype": "MPI_INT", "source": "(rank + 2 * size - 2) % size", "recvtag": "rank - rank",
       "comm": "MPI_COMM_WORLD"},
      {"expect": {"r": "[(rank + 2 * size - 2) % size]"}},
      {"let": {"sum": "sum + (rank + k) % size", "turns": "turns + 1"}}]},
    {"expect": "turns == 3"},
    {"expect": "sum == (rank % size) + ((rank + 1) % size) + ((rank + 2) % size)"}]})J");
}

TEST_CASE("buffer init: the fills give what element-by-element evaluation gives, errors included") {
  // Affine (a fill), a form of the scalar path, and one that needs the general
  // evaluator (an array), on integer, floating and byte types.
  const std::string sc = R"({"mpisim": 1, "program": [
    {"let": {"k": 7, "xs": [5, 6, 7]}},
    {"buffer": "a", "type": "MPI_INT", "count": 5, "init": "rank * 1000 - 3 * i + k"},
    {"buffer": "b", "type": "MPI_SHORT", "count": 4, "init": "i % k + rank"},
    {"buffer": "c", "type": "MPI_DOUBLE", "count": 3, "init": "xs[i] + i"},
    {"buffer": "d", "type": "MPI_BYTE", "count": 3, "init": "250 + 2 * i"},
    {"buffer": "e", "type": "MPI_INT", "count": 4, "init": "(rank + 5) % 3"},
    {"expect": {"a": "[rank * 1000 - 3 * j + 7 for j in 0..5]", "b": "[j % 7 + rank for j in 0..4]",
                "c": "[xs[j] + j for j in 0..3]", "d": "[250, 252, 254]",
                "e": "[(rank + 5) % 3 for j in 0..4]"}}]})";
  auto r = test::run_text(sc, 3);
  CHECK(r.outcome == runner::Outcome::clean);
  // Affine fills of real types: in doubles while every value is exact there, one
  // rounding into MPI_FLOAT (2^24 + 1 rounds to even), and element by element
  // from 2^53 on, where the same rounding applies.
  auto reals = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "d", "type": "MPI_DOUBLE", "count": 6, "init": "rank * 3 - 7 + i * 2"},
    {"buffer": "f", "type": "MPI_FLOAT", "count": 4, "init": "16777217 + i"},
    {"buffer": "g", "type": "MPI_DOUBLE", "count": 3, "init": "9007199254740993 + i"},
    {"buffer": "h", "type": "MPI_FLOAT", "count": 3, "init": "-5 * i"},
    {"expect": {"d": "[rank * 3 - 7 + 2 * j for j in 0..6]", "f": "[16777216, 16777218, 16777220, 16777220]",
                "g": "[9007199254740992, 9007199254740994, 9007199254740996]", "h": "[0, -5, -10]"}}]})", 2);
  CHECK(reals.outcome == runner::Outcome::clean);
  // An overflow past the first element is reported for that element's init, as before.
  auto bad = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "a", "type": "MPI_LONG", "count": 4, "init": "4611686018427387904 * i"}]})", 1);
  REQUIRE(test::first_code(bad) == "SCENARIO_ERROR");
  CHECK(test::has(bad.trace.diagnostics().front().message, "integer overflow"));
}
