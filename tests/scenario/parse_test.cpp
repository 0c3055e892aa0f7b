#include <doctest/doctest.h>

#include "model/scenario/scenario.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using namespace mpisim;

using test::has;
using test::parse_error;

TEST_CASE("a well-formed scenario parses into typed steps") {
  auto sc = scenario::parse_scenario(R"({"mpisim": 1, "ranks": 2, "program": [
    {"let": {"x": "rank * 2"}},
    {"buffer": "b", "type": "MPI_INT", "count": 4, "init": "i"},
    {"call": "MPI_Send", "buf": "b+1", "count": 2, "datatype": "MPI_INT", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD", "ranks": "rank == 1"},
    {"compute": {"ns": 2500}},
    {"repeat": 3, "as": "k", "program": [{"show": "b"}]},
    {"expect": {"x": 0}, "ranks": "rank == 0"}]})",
                                     "s.json");
  REQUIRE(sc.program.size() == 6);
  CHECK(sc.program[0].kind == scenario::Step::let);
  CHECK(sc.program[2].spec->id == scenario::CallId::send);
  CHECK(sc.program[2].ranks.has_value());
  CHECK(sc.program[3].compute_ps == 2'500'000);
  CHECK(sc.program[4].body->size() == 1);
  CHECK(*sc.ranks == 2);
}

TEST_CASE("MPMD: per-rank programs with a default") {
  auto sc = scenario::parse_scenario(R"({"mpisim": 1, "program": {"0": [{"compute": {"ns": 1}}], "*": []}})", "s.json");
  CHECK(sc.mpmd);
  CHECK(sc.program_for(0).size() == 1);
  CHECK(sc.program_for(5).empty());
}

TEST_CASE("malformed scenarios are refused with the JSON path and what was expected") {
  CHECK(has(parse_error("{\"mpisim\": 1,\n \"program\": [,]}"), "not valid JSON at line 2"));
  CHECK(has(parse_error("{\"ranks\": 1E400}"), "not valid JSON"));  // found by fuzzing
  std::string deep = R"({"mpisim": 1, "program": )";
  for (int i = 0; i < 100; ++i) deep += R"([{"repeat": 1, "program": )";
  deep += "[]";
  for (int i = 0; i < 100; ++i) deep += "}]";
  CHECK(has(parse_error(deep + "}"), "nested more than 128 deep"));
  CHECK(has(parse_error(R"({"program": []})"), "s.json: /mpisim: expected \"mpisim\": 1"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [], "colour": 3})"), "/colour: unknown field"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"call": "MPI_Sned"}]})"), "/program/0/call: unknown or unsupported MPI call \"MPI_Sned\""));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"call": "MPI_Barrier"}]})"), "/program/0/comm: missing"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD", "root": 0}]})"),
            "/program/0/root: unknown parameter of MPI_Barrier"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"let": {"x": "1 +"}}]})"), "/program/0/let/x: in the expression \"1 +\" at column 4"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"buffer": "b", "type": "MPI_FLOT", "count": 1}]})"), "/program/0/type"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"compute": {"hours": 1}}]})"), "/program/0/compute/hours: unknown unit"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": [{"let": {}, "show": "x"}]})"), "exactly one of"));
  CHECK(has(parse_error(R"({"mpisim": 1, "ranks": 0, "program": []})"), "/ranks: expected a positive integer"));
  CHECK(has(parse_error(R"({"mpisim": 1, "program": {"x": []}})"), "/program/x: expected a rank number"));
}
