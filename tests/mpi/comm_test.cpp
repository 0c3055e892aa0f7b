// Communicator constructors, through scenarios (each expectation is the standard's rule).
#include <doctest/doctest.h>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/local_calls.hpp"
#include "tests/support.hpp"

using namespace mpisim;

namespace {
std::string run_steps(const std::string& steps, std::int64_t ranks, mpi::PayloadMode mode = mpi::PayloadMode::data) {
  auto r = test::run_text(R"({"mpisim": 1, "program": [)" + steps + "]}", ranks, "", mode);
  if (r.trace.diagnostics().empty()) return "";
  const auto& d = r.trace.diagnostics().front();
  return d.code + ": " + d.message;
}
}  // namespace

TEST_CASE("MPI_Comm_split: equal keys keep the old order, MPI_UNDEFINED gets MPI_COMM_NULL") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "rank == 5 ? MPI_UNDEFINED : rank % 2", "key": 7, "newcomm": "c"},
    {"call": "MPI_Comm_rank", "comm": "c", "rank": "r", "where": "rank != 5"},
    {"call": "MPI_Comm_size", "comm": "c", "size": "n", "where": "rank != 5"},
    {"expect": "r == rank / 2 && n == (rank % 2 == 0 ? 3 : 2)", "where": "rank != 5"},
    {"call": "MPI_Comm_test_inter", "comm": "c", "flag": "f", "where": "rank == 5"})j",
                  6) == "MPI_ERR_COMM: communicator 'c' is MPI_COMM_NULL on rank 5 (this rank is not a member, or the "
                        "communicator was freed) (/program/4)");
}

TEST_CASE("MPI_Comm_split works in sizes mode: arguments travel outside the messages") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "rank / 3", "key": "-rank", "newcomm": "c"},
    {"call": "MPI_Comm_rank", "comm": "c", "rank": "r"},
    {"expect": "r == 2 - rank % 3"})j",
                  9, mpi::PayloadMode::sizes) == "");
}

TEST_CASE("MPI_Comm_create with disjoint groups makes one communicator per group") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_group", "comm": "MPI_COMM_WORLD", "group": "w"},
    {"call": "MPI_Group_incl", "group": "w", "ranks": "rank < 2 ? [1, 0] : [2, 3]", "newgroup": "g"},
    {"call": "MPI_Comm_create", "comm": "MPI_COMM_WORLD", "group": "g", "newcomm": "c"},
    {"call": "MPI_Comm_rank", "comm": "c", "rank": "r"},
    {"expect": "r == (rank < 2 ? 1 - rank : rank - 2)"},
    {"call": "MPI_Comm_group", "comm": "c", "group": "cg"},
    {"expect": {"cg": "rank < 2 ? [1, 0] : [2, 3]"}})j",
                  4) == "");
}

TEST_CASE("MPI_Comm_create_group is collective over the group only") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_group", "comm": "MPI_COMM_WORLD", "group": "w"},
    {"call": "MPI_Group_incl", "group": "w", "ranks": [3, 1], "newgroup": "g"},
    {"call": "MPI_Comm_create_group", "comm": "MPI_COMM_WORLD", "group": "g", "tag": 5, "newcomm": "c", "where": "rank == 1 || rank == 3"},
    {"call": "MPI_Comm_rank", "comm": "c", "rank": "r", "where": "rank == 1 || rank == 3"},
    {"expect": "r == (rank == 3 ? 0 : 1)", "where": "rank == 1 || rank == 3"},
    {"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"})j",
                  5) == "");
}

TEST_CASE("MPI_Comm_compare: IDENT, CONGRUENT, SIMILAR, UNEQUAL") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_dup", "comm": "MPI_COMM_WORLD", "newcomm": "d"},
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": 0, "key": "-rank", "newcomm": "rev"},
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "rank % 2", "key": 0, "newcomm": "half"},
    {"call": "MPI_Comm_compare", "comm1": "MPI_COMM_WORLD", "comm2": "MPI_COMM_WORLD", "result": "a"},
    {"call": "MPI_Comm_compare", "comm1": "MPI_COMM_WORLD", "comm2": "d", "result": "b"},
    {"call": "MPI_Comm_compare", "comm1": "MPI_COMM_WORLD", "comm2": "rev", "result": "c"},
    {"call": "MPI_Comm_compare", "comm1": "MPI_COMM_WORLD", "comm2": "half", "result": "e"},
    {"expect": "a == MPI_IDENT && b == MPI_CONGRUENT && c == MPI_SIMILAR && e == MPI_UNEQUAL"})j",
                  4) == "");
}

TEST_CASE("MPI_Intercomm_merge with the same high on both sides puts the lower world ranks first") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "rank % 2", "key": 0, "newcomm": "local"},
    {"call": "MPI_Intercomm_create", "local_comm": "local", "local_leader": 0, "peer_comm": "MPI_COMM_WORLD",
     "remote_leader": "rank % 2 == 0 ? 1 : 0", "tag": 3, "newintercomm": "ic"},
    {"call": "MPI_Intercomm_merge", "intercomm": "ic", "high": 1, "newintracomm": "m"},
    {"call": "MPI_Comm_rank", "comm": "m", "rank": "r"},
    {"expect": "r == (rank % 2 == 0 ? rank / 2 : 3 + rank / 2)"})j",
                  6) == "");
}

TEST_CASE("a communicator made from MPI_COMM_SELF holds only the caller") {
  CHECK(run_steps(R"j(
    {"call": "MPI_Comm_dup", "comm": "MPI_COMM_SELF", "newcomm": "me"},
    {"call": "MPI_Comm_size", "comm": "me", "size": "n"},
    {"call": "MPI_Comm_group", "comm": "me", "group": "g"},
    {"expect": {"n": 1, "g": "[rank]"}})j",
                  3) == "");
}

TEST_CASE("constructors are diagnosed when members disagree") {
  CHECK(run_steps(R"j({"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": -4, "key": 0, "newcomm": "c"})j", 2)
            .rfind("MPI_ERR_ARG", 0) == 0);
  CHECK(run_steps(R"j({"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": 0, "key": 0, "newcomm": "c"},
                     {"call": "MPI_Intercomm_create", "local_comm": "c", "local_leader": "rank", "peer_comm": "MPI_COMM_WORLD",
                      "remote_leader": 0, "tag": 1, "newintercomm": "x"})j",
                  2)
            .rfind("MPI_ERR_ARG", 0) == 0);
}

TEST_CASE("MPI_Comm_split_type: the resources a split type names, MPI_COMM_NULL for one the machine lacks") {
  mpi::Info node, core, cache, world, self;
  node.set("mpi_hw_resource_type", "mpi_shared_memory");
  core.set("mpi_hw_resource_type", "core");
  cache.set("mpi_hw_resource_type", "l3cache");
  world.set("mpi_pset_name", "mpi://WORLD");
  self.set("mpi_pset_name", "mpi://SELF");
  const auto color = [](int type, mpi::Info* info, bool spans = true, int size = 4) {
    return mpi::split_type_color(type, info, 7, spans, size, 2).color;
  };
  CHECK(color(mpi::COMM_TYPE_SHARED, nullptr) == 7);
  CHECK(color(mpi::UNDEFINED, &node) == mpi::UNDEFINED);
  CHECK(color(mpi::COMM_TYPE_HW_GUIDED, &node) == 7);
  CHECK(color(mpi::COMM_TYPE_HW_GUIDED, &core) == 2);
  CHECK(color(mpi::COMM_TYPE_HW_GUIDED, &cache) == mpi::UNDEFINED);
  CHECK(color(mpi::COMM_TYPE_HW_GUIDED, nullptr) == mpi::UNDEFINED);
  CHECK(color(mpi::COMM_TYPE_HW_GUIDED, &world) == mpi::UNDEFINED);  // a process set is not a hardware resource
  CHECK(color(mpi::COMM_TYPE_RESOURCE_GUIDED, &world) == 0);
  CHECK(color(mpi::COMM_TYPE_RESOURCE_GUIDED, &self) == 2);
  CHECK(color(mpi::COMM_TYPE_RESOURCE_GUIDED, &node) == 7);
  CHECK(mpi::split_type_color(mpi::COMM_TYPE_HW_UNGUIDED, nullptr, 7, true, 4, 2).resource == "mpi_shared_memory");
  CHECK(mpi::split_type_color(mpi::COMM_TYPE_HW_UNGUIDED, nullptr, 7, false, 4, 2).resource == "core");
  CHECK(color(mpi::COMM_TYPE_HW_UNGUIDED, nullptr, false, 1) == mpi::UNDEFINED);
  // The unguided split tells which resource it split by, in the info given.
  mpi::Info told;
  mpi::split_type_color(mpi::COMM_TYPE_HW_UNGUIDED, &told, 7, false, 4, 2);
  CHECK(told.get("mpi_hw_resource_type") == std::optional<std::string>("core"));
  CHECK_THROWS_AS(color(99, nullptr), mpi::MpiError);
}
