// Nonblocking collectives through a scenario: their timing against the blocking
// forms, the two progress rules, and MPI_Test on them.
#include <doctest/doctest.h>

#include <string>

#include "tests/support.hpp"

using namespace mpisim;

namespace {

std::string program(const std::string& steps, const std::string& progress = "") {
  return R"({"mpisim": 1, "ranks": 8, )" + (progress.empty() ? "" : R"("progress": ")" + progress + "\", ") +
         R"("program": [
    {"buffer": "b", "type": "MPI_DOUBLE", "count": 65536, "init": 1},
    {"buffer": "s", "type": "MPI_DOUBLE", "count": 65536})" + steps + "]}";
}

const std::string kIallreduce =
    R"(, {"call": "MPI_Iallreduce", "sendbuf": "b", "recvbuf": "s", "count": 65536, "datatype": "MPI_DOUBLE",
          "op": "MPI_SUM", "comm": "MPI_COMM_WORLD", "request": "r", "algorithm": "recursive_doubling"})";
const std::string kWait = R"(, {"call": "MPI_Wait", "request": "r"})";

runner::Result run(const std::string& text) {
  runner::Result r = test::run_text(text, 8);
  INFO(test::first_code(r));
  CHECK(r.outcome == runner::Outcome::clean);
  return r;
}

}  // namespace

TEST_CASE("a nonblocking collective waited for at once costs what the blocking call costs") {
  auto blocking = run(program(R"(, {"call": "MPI_Allreduce", "sendbuf": "b", "recvbuf": "s", "count": 65536,
    "datatype": "MPI_DOUBLE", "op": "MPI_SUM", "comm": "MPI_COMM_WORLD", "algorithm": "recursive_doubling"})"));
  auto nonblocking = run(program(kIallreduce + kWait));
  CHECK(nonblocking.makespan_ps == blocking.makespan_ps);
  CHECK(nonblocking.finish_ps == blocking.finish_ps);
}

TEST_CASE("async progress hides the collective behind a longer computation, in-mpi progress does not") {
  const std::string compute = R"(, {"compute": {"ms": 10}})";
  auto alone = run(program(kIallreduce + kWait));
  const std::int64_t t = alone.makespan_ps, d = 10'000'000'000;
  REQUIRE(t < d);
  auto async = run(program(kIallreduce + compute + kWait));
  CHECK(async.makespan_ps == d);  // the allreduce ended during the computation
  auto in_mpi = run(program(kIallreduce + compute + kWait, "in-mpi"));
  // Only the first round (posted inside MPI_Iallreduce) moved during the
  // computation; the rest runs in MPI_Wait.
  CHECK(in_mpi.makespan_ps > d);
  CHECK(in_mpi.makespan_ps < d + t);
  // Without a computation the two rules agree.
  CHECK(run(program(kIallreduce + kWait, "in-mpi")).makespan_ps == t);
}

TEST_CASE("MPI_Test on a nonblocking collective is false until its algorithm is done, then true once") {
  auto r = run(program(kIallreduce + R"(, {"call": "MPI_Test", "request": "r", "flag": "early"},
    {"compute": {"ms": 10}}, {"call": "MPI_Test", "request": "r", "flag": "late"},
    {"expect": "early == 0 && late == 1"})"));
  CHECK(r.trace.diagnostics().empty());
}
