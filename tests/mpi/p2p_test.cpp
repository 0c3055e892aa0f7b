// Point-to-point semantics, through scenarios: matching order, wildcards,
// MPI_PROC_NULL, statuses, errors.
#include <doctest/doctest.h>

#include "sim/frame_pool.hpp"
#include "tests/support.hpp"

using namespace mpisim;

TEST_CASE("messages from one sender are received in the order sent (non-overtaking)") {
  // A large message then a small one with the same tag: the first receive gets the large one.
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "big", "type": "MPI_INT", "count": 1000, "init": 1},
    {"buffer": "small", "type": "MPI_INT", "count": 1000, "init": 2},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "big", "count": 1000, "datatype": "MPI_INT", "dest": 1, "tag": 5, "comm": "MPI_COMM_WORLD", "request": "a"},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "small", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 5, "comm": "MPI_COMM_WORLD", "request": "b"},
    {"call": "MPI_Waitall", "ranks": "rank == 0", "array_of_requests": ["a", "b"]},
    {"buffer": "r1", "type": "MPI_INT", "count": 1000, "ranks": "rank == 1"},
    {"buffer": "r2", "type": "MPI_INT", "count": 1000, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "r1", "count": 1000, "datatype": "MPI_INT", "source": 0, "tag": 5, "comm": "MPI_COMM_WORLD", "status": "s1"},
    {"call": "MPI_Get_count", "ranks": "rank == 1", "status": "s1", "datatype": "MPI_INT", "count": "n1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "r2", "count": 1000, "datatype": "MPI_INT", "source": 0, "tag": 5, "comm": "MPI_COMM_WORLD", "status": "s2"},
    {"call": "MPI_Get_count", "ranks": "rank == 1", "status": "s2", "datatype": "MPI_INT", "count": "n2"},
    {"expect": "n1 == 1000 && n2 == 1 && r1[999] == 1 && r2[0] == 2", "ranks": "rank == 1"}]})";
  auto r = test::run_text(s, 2);
  CHECK(test::first_code(r) == "");
}

TEST_CASE("receives match in the order they were posted, tags select") {
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "x", "type": "MPI_INT", "count": 1, "init": "10 + rank"},
    {"buffer": "y", "type": "MPI_INT", "count": 2, "init": -1},
    {"call": "MPI_Irecv", "ranks": "rank == 1", "buf": "y", "count": 1, "datatype": "MPI_INT", "source": 0, "tag": 2, "comm": "MPI_COMM_WORLD", "request": "a"},
    {"call": "MPI_Irecv", "ranks": "rank == 1", "buf": "y+1", "count": 1, "datatype": "MPI_INT", "source": "MPI_ANY_SOURCE", "tag": "MPI_ANY_TAG", "comm": "MPI_COMM_WORLD", "request": "b"},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "x", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 1, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "x", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 2, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Waitany", "ranks": "rank == 1", "array_of_requests": ["a", "b"], "index": "first", "status": "st"},
    {"call": "MPI_Wait", "ranks": "rank == 1", "request": "a"},
    {"expect": "first == 1 && st.MPI_TAG == 1 && y[0] == 10 && y[1] == 10", "ranks": "rank == 1"}]})";
  auto r = test::run_text(s, 2);
  CHECK(test::first_code(r) == "");
}

TEST_CASE("MPI_PROC_NULL: sends and receives complete at once with an empty status") {
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "x", "type": "MPI_INT", "count": 4, "init": 7},
    {"call": "MPI_Send", "buf": "x", "count": 4, "datatype": "MPI_INT", "dest": "MPI_PROC_NULL", "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "buf": "x", "count": 4, "datatype": "MPI_INT", "source": "MPI_PROC_NULL", "tag": 0, "comm": "MPI_COMM_WORLD", "status": "st"},
    {"call": "MPI_Get_count", "status": "st", "datatype": "MPI_INT", "count": "n"},
    {"expect": "st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0 && x[3] == 7"}]})";
  auto r = test::run_text(s, 1);
  CHECK(test::first_code(r) == "");
  CHECK(r.trace.message_count() == 0);
}

TEST_CASE("MPI_Get_count is MPI_UNDEFINED when the bytes are not whole elements") {
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 6},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 6, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 6, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD", "status": "st"},
    {"call": "MPI_Get_count", "ranks": "rank == 1", "status": "st", "datatype": "MPI_INT", "count": "n"},
    {"expect": "n == MPI_UNDEFINED", "ranks": "rank == 1"}]})";
  CHECK(test::first_code(test::run_text(s, 2)) == "");
}

TEST_CASE("Sendrecv_replace sends the old contents and keeps the received ones") {
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "v", "type": "MPI_INT", "count": 3, "init": "100*rank + i"},
    {"call": "MPI_Sendrecv_replace", "buf": "v", "count": 3, "datatype": "MPI_INT", "dest": "(rank+1)%size", "sendtag": 0,
     "source": "(rank+size-1)%size", "recvtag": 0, "comm": "MPI_COMM_WORLD"},
    {"expect": {"v": "[100*((rank+size-1)%size) + j for j in 0..3]"}}]})";
  CHECK(test::first_code(test::run_text(s, 3)) == "");
}

TEST_CASE("MPI_Test reports completion only once the request is complete in virtual time") {
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "v", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Irecv", "ranks": "rank == 1", "buf": "v", "count": 1, "datatype": "MPI_INT", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "r"},
    {"call": "MPI_Test", "ranks": "rank == 1", "request": "r", "flag": "early"},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"compute": {"us": 50}, "ranks": "rank == 1"},
    {"call": "MPI_Test", "ranks": "rank == 1", "request": "r", "flag": "late"},
    {"expect": "early == 0 && late == 1", "ranks": "rank == 1"}]})";
  CHECK(test::first_code(test::run_text(s, 2)) == "");
}

TEST_CASE("erroneous calls are diagnosed with their MPI error class") {
  auto code = [](const std::string& step) {
    std::string s = R"({"mpisim": 1, "program": [{"buffer": "v", "type": "MPI_INT", "count": 2},)" + step + "]}";
    return test::first_code(test::run_text(s, 2));
  };
  CHECK(code(R"({"call": "MPI_Send", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": 2, "tag": 0, "comm": "MPI_COMM_WORLD"})") == "MPI_ERR_RANK");
  CHECK(code(R"({"call": "MPI_Send", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": 0, "tag": -1, "comm": "MPI_COMM_WORLD"})") == "MPI_ERR_TAG");
  CHECK(code(R"({"call": "MPI_Send", "buf": "v", "count": -1, "datatype": "MPI_INT", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"})") == "MPI_ERR_COUNT");
  CHECK(code(R"({"call": "MPI_Send", "buf": "v+1", "count": 2, "datatype": "MPI_INT", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"})") == "MPI_ERR_BUFFER");
  CHECK(code(R"({"call": "MPI_Send", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": "MPI_ANY_SOURCE", "tag": 0, "comm": "MPI_COMM_WORLD"})") == "MPI_ERR_RANK");
  CHECK(code(R"({"call": "MPI_Wait", "request": "nope"})") == "MPI_ERR_REQUEST");
  CHECK(code(R"({"call": "MPI_Recv", "buf": "v", "count": 1, "datatype": "MPI_INT", "source": "rank", "tag": 0, "comm": "MPI_COMM_SELF"})") == "MPI_ERR_RANK");
}

TEST_CASE("MPI_COMM_SELF: a rank can send to itself") {
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "a", "type": "MPI_INT", "count": 1, "init": "rank + 1"},
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Sendrecv", "sendbuf": "a", "sendcount": 1, "sendtype": "MPI_INT", "dest": 0, "sendtag": 0,
     "recvbuf": "b", "recvcount": 1, "recvtype": "MPI_INT", "source": 0, "recvtag": 0, "comm": "MPI_COMM_SELF"},
    {"expect": "b[0] == rank + 1"}]})";
  CHECK(test::first_code(test::run_text(s, 3)) == "");
}

TEST_CASE("sizes mode moves no data but checks the same rules") {
  auto r = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "a", "type": "MPI_INT", "count": 10},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "a", "count": 10, "datatype": "MPI_INT", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "a", "count": 5, "datatype": "MPI_INT", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})",
                          2, "", mpi::PayloadMode::sizes);
  CHECK(test::first_code(r) == "MPI_ERR_TRUNCATE");
}

TEST_CASE("a rank's waiting sends leave in the order posted, one event each") {
  // Linear bcast: the root posts p - 1 sends at once and its port serves them one
  // after another (nβ each). Each waits outside the event queue until the one
  // before it is served, so the run takes a few events per message, not p²/2.
  const int p = 2000;
  auto r = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "x", "type": "MPI_DOUBLE", "count": 1},
    {"call": "MPI_Bcast", "buffer": "x", "count": 1, "datatype": "MPI_DOUBLE", "root": 0, "comm": "MPI_COMM_WORLD", "algorithm": "linear"}]})",
                          p, "", mpi::PayloadMode::sizes);
  REQUIRE(test::first_code(r) == "");
  CHECK(r.events < 6u * p);
  // The default network: α = 2 µs, β = 800 ps/B; 8 bytes hold the port 6.4 ns.
  // Rank v's message starts when the v - 1 before it are through: (v - 1)·nβ.
  for (int v : {1, 2, 1000, p - 1}) CHECK(r.finish_ps[static_cast<std::size_t>(v)] == (v - 1) * 6400 + 2'000'000 + 6400);
}

TEST_CASE("a waiting send whose port is free again at once leaves at that instant") {
  // Rank 0's 4000-byte send holds its port 3.2 µs; the two empty sends posted
  // behind it wait, then both leave at 3.2 µs (an empty message holds no port).
  auto r = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "v", "type": "MPI_INT", "count": 1000},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "v", "count": 1000, "datatype": "MPI_INT", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "a"},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "v", "count": 0, "datatype": "MPI_INT", "dest": 2, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "b"},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "v", "count": 0, "datatype": "MPI_INT", "dest": 3, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "c"},
    {"call": "MPI_Waitall", "ranks": "rank == 0", "array_of_requests": ["a", "b", "c"]},
    {"call": "MPI_Recv", "ranks": "rank > 0", "buf": "v", "count": 1000, "datatype": "MPI_INT", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})",
                          4);
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[0] == 3'200'000);
  for (std::size_t v : {1u, 2u, 3u}) CHECK(r.finish_ps[v] == 5'200'000);
}

TEST_CASE("a rank whose wait an arrival completes goes on in that arrival's event") {
  // A ping-pong of 50 round trips: each message is served at once when posted,
  // and its arrival resumes the receiver, which sends the next one. One event per
  // message (and one start per rank); the times are those of separate events.
  auto r = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"repeat": 50, "program": [
      {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
      {"call": "MPI_Recv", "buf": "b", "count": 1, "datatype": "MPI_INT", "source": "1 - rank", "tag": 0, "comm": "MPI_COMM_WORLD"},
      {"call": "MPI_Send", "ranks": "rank == 1", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]}]})",
                          2);
  REQUIRE(test::first_code(r) == "");
  CHECK(r.trace.message_count() == 100u);
  CHECK(r.events == 102u);
  // α + nβ = 2 µs + 4 · 800 ps per message.
  CHECK(r.finish_ps[0] == 100 * 2'003'200);
  CHECK(r.finish_ps[1] == 99 * 2'003'200);
}

TEST_CASE("a run that deadlocks lasts until it stopped, the blocked ranks have no finish time") {
  // Rank 0 sends with tag 4 and ends; rank 1 waits for tag 5 forever. The run
  // stops once the message has arrived (α + 4β), with rank 1 blocked.
  auto r = test::run_text(R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 4, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1, "datatype": "MPI_INT", "source": 0, "tag": 5, "comm": "MPI_COMM_WORLD"}]})",
                          3);
  REQUIRE(test::first_code(r) == "DEADLOCK");
  CHECK(r.finish_ps[0] == 0);
  CHECK(!r.finish_ps[1].has_value());
  CHECK(r.finish_ps[2] == 0);
  CHECK(r.makespan_ps == 2'003'200);
}

TEST_CASE("from 16,384 ranks each rank's blocks live in its slot, and none is left behind") {
  // Large enough for the ranks' arenas (docs/architecture.md, "Rank slots"): a
  // binomial bcast runs clean with the same times as on the pools, and a run that
  // deadlocks with every rank's receive posted leaves no frame or request behind.
  const int p = 16384;
  const auto before = sim::frame_pool::live_frames();
  {
    auto r = test::run_text(R"({"mpisim": 1, "program": [
      {"buffer": "x", "type": "MPI_DOUBLE", "count": 1},
      {"call": "MPI_Bcast", "buffer": "x", "count": 1, "datatype": "MPI_DOUBLE", "root": 0, "comm": "MPI_COMM_WORLD", "algorithm": "binomial"}]})",
                            p, "", mpi::PayloadMode::sizes);
    REQUIRE(test::first_code(r) == "");
    // The closed form: lg p rounds of α + nβ (2 µs + 8 · 800 ps).
    CHECK(r.makespan_ps == 14 * 2'006'400);
  }
  CHECK(sim::frame_pool::live_frames() == before);
  {
    auto r = test::run_text(R"({"mpisim": 1, "program": [
      {"buffer": "x", "type": "MPI_INT", "count": 1},
      {"call": "MPI_Recv", "buf": "x", "count": 1, "datatype": "MPI_INT", "source": "(rank + 1) % size", "tag": 0, "comm": "MPI_COMM_WORLD"}]})",
                            p, "", mpi::PayloadMode::sizes);
    CHECK(test::first_code(r) == "DEADLOCK");
  }
  CHECK(sim::frame_pool::live_frames() == before);
}
