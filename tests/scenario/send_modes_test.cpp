// The send modes (MPI-4.1 §3.4, §3.6): synchronous, buffered and ready sends,
// the attached buffer, and --send-mode sync.
#include <doctest/doctest.h>

#include <string>

#include "tests/support.hpp"

using namespace mpisim;
using test::has;

namespace {
const sim::Diagnostic& first(const runner::Result& r) { return r.trace.diagnostics().front(); }
std::string program(const std::string& steps) { return R"({"mpisim": 1, "program": [)" + steps + "]}"; }

runner::Result run_sync(const std::string& text, std::int64_t ranks) {
  scenario::Scenario sc = scenario::parse_scenario(text, "s.json");
  net::Network n = net::default_network();
  runner::Config cfg;
  cfg.ranks = ranks;
  cfg.synchronous_sends = true;
  return scenario::run_scenario(sc, n, cfg);
}
}  // namespace

TEST_CASE("MPI_Ssend of 8 bytes returns only when the receive matches, MPI_Send returns at once") {
  const std::string steps = R"({"buffer": "v", "type": "MPI_INT", "count": 2, "init": 5},
    {"call": "SEND", "ranks": "rank == 0", "buf": "v", "count": 2, "datatype": "MPI_INT", "dest": 1, "tag": 0,
     "comm": "MPI_COMM_WORLD"},
    {"compute": {"us": 50}, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "v", "count": 2, "datatype": "MPI_INT", "source": 0, "tag": 0,
     "comm": "MPI_COMM_WORLD"})";
  auto replace = [&](const char* call) {
    std::string t = steps;
    t.replace(t.find("SEND"), 4, call);
    return program(t);
  };
  auto ssend = test::run_text(replace("MPI_Ssend"), 2);
  auto send = test::run_text(replace("MPI_Send"), 2);
  REQUIRE(test::first_code(ssend) == "");
  REQUIRE(test::first_code(send) == "");
  CHECK(send.finish_ps[0] < 10'000'000);
  CHECK(ssend.finish_ps[0] >= 50'000'000);  // matched when rank 1 posts its receive, after 50 us
}

TEST_CASE("MPI_Bsend copies into the attached buffer: the program may change its data at once, not the pool") {
  auto r = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 4, "init": "rank == 0 ? i + 1 : 0"},
    {"buffer": "w", "type": "MPI_INT", "count": 4, "init": 9},
    {"buffer": "pool", "type": "MPI_BYTE", "count": 512},
    {"call": "MPI_Buffer_attach", "ranks": "rank == 0", "buffer": "pool", "size": 512},
    {"call": "MPI_Bsend", "ranks": "rank == 0", "buf": "v", "count": 4, "datatype": "MPI_INT", "dest": 1, "tag": 0,
     "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Sendrecv_replace", "ranks": "rank == 0", "buf": "v", "count": 4, "datatype": "MPI_INT", "dest": 0,
     "sendtag": 5, "source": 0, "recvtag": 5, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Reduce_local", "ranks": "rank == 0", "inbuf": "w", "inoutbuf": "v", "count": 4, "datatype": "MPI_INT",
     "op": "MPI_SUM"},
    {"compute": {"us": 20}, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "v", "count": 4, "datatype": "MPI_INT", "source": 0, "tag": 0,
     "comm": "MPI_COMM_WORLD"},
    {"expect": {"v": "[i + 1 for i in 0..4]"}, "ranks": "rank == 1", "message": "the data as it was at the Bsend"})"),
                          2);
  CHECK(test::first_code(r) == "");
  // Touching the attached buffer before detaching it is an error; after, it is the program's again.
  auto touch = test::run_text(program(R"({"buffer": "pool", "type": "MPI_BYTE", "count": 256},
    {"call": "MPI_Buffer_attach", "buffer": "pool", "size": 256},
    {"expect": "pool[0] == 0"})"), 1);
  REQUIRE(test::first_code(touch) == "MPI_ERR_BUFFER");
  CHECK(has(first(touch).message, "the pending MPI_Buffer_attach"));
  auto detached = test::run_text(program(R"({"buffer": "pool", "type": "MPI_BYTE", "count": 256},
    {"call": "MPI_Buffer_attach", "buffer": "pool", "size": 256},
    {"call": "MPI_Buffer_detach", "buffer_addr": "at", "size": "n"},
    {"expect": "pool[0] == 0 && n == 256"},
    {"call": "MPI_Buffer_detach", "size": "none"},
    {"expect": "none == 0"})"), 1);
  CHECK(test::first_code(detached) == "");
}

TEST_CASE("buffered sends: no attached buffer, one too small, a second attach are errors") {
  auto none = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Bsend", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"})"),
                             1);
  REQUIRE(test::first_code(none) == "MPI_ERR_BUFFER");
  CHECK(has(first(none).message, "no buffer is attached"));
  auto twice = test::run_text(program(R"({"buffer": "a", "type": "MPI_BYTE", "count": 256},
    {"buffer": "b", "type": "MPI_BYTE", "count": 256},
    {"call": "MPI_Buffer_attach", "buffer": "a", "size": 256},
    {"call": "MPI_Buffer_attach", "buffer": "b", "size": 256})"), 1);
  REQUIRE(test::first_code(twice) == "MPI_ERR_BUFFER");
  CHECK(has(first(twice).rule, "only one buffer"));
  auto past = test::run_text(program(R"({"buffer": "a", "type": "MPI_BYTE", "count": 64},
    {"call": "MPI_Buffer_attach", "buffer": "a", "size": 65})"), 1);
  CHECK(test::first_code(past) == "MPI_ERR_BUFFER");
  auto huge = test::run_text(program(R"({"buffer": "a", "type": "MPI_BYTE", "count": 64},
    {"call": "MPI_Buffer_attach", "buffer": "a", "size": 9223372036854775807})"), 1);
  CHECK(test::first_code(huge) == "MPI_ERR_COUNT");
}

TEST_CASE("MPI_Rsend and MPI_Irsend: legal once the receive is posted, an error before") {
  auto ok = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 1, "init": "rank + 3"},
    {"call": "MPI_Irecv", "ranks": "rank == 1", "buf": "v", "count": 1, "datatype": "MPI_INT", "source": 0,
     "tag": "MPI_ANY_TAG", "comm": "MPI_COMM_WORLD", "request": "q"},
    {"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Irsend", "ranks": "rank == 0", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 7,
     "comm": "MPI_COMM_WORLD", "request": "s"},
    {"call": "MPI_Wait", "ranks": "rank == 0", "request": "s"},
    {"call": "MPI_Wait", "ranks": "rank == 1", "request": "q"},
    {"expect": "v[0] == 3"})"), 2);
  CHECK(test::first_code(ok) == "");
  auto early = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Rsend", "ranks": "rank == 0", "buf": "v", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 7,
     "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "v", "count": 1, "datatype": "MPI_INT", "source": 0, "tag": 7,
     "comm": "MPI_COMM_WORLD"})"), 2);
  REQUIRE(test::first_code(early) == "MPI_ERR_OTHER");
  CHECK(first(early).process == 0);
  CHECK(has(first(early).rule, "§3.4"));
}

TEST_CASE("--send-mode sync: the unsafe exchange deadlocks and says why, a safe one still runs") {
  const char* unsafe = R"({"buffer": "o", "type": "MPI_INT", "count": 2}, {"buffer": "i", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Send", "buf": "o", "count": 2, "datatype": "MPI_INT", "dest": "1 - rank", "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "buf": "i", "count": 2, "datatype": "MPI_INT", "source": "1 - rank", "tag": 0, "comm": "MPI_COMM_WORLD"})";
  CHECK(test::first_code(test::run_text(program(unsafe), 2)) == "");
  auto r = run_sync(program(unsafe), 2);
  REQUIRE(test::first_code(r) == "DEADLOCK");
  CHECK(has(first(r).message, "standard sends were run synchronously"));
  CHECK(has(first(r).detail.front(), "8-byte message (tag 0, synchronous)"));
  auto safe = run_sync(program(R"({"buffer": "o", "type": "MPI_INT", "count": 2, "init": "rank"},
    {"buffer": "i", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Sendrecv", "sendbuf": "o", "sendcount": 2, "sendtype": "MPI_INT", "dest": "1 - rank", "sendtag": 0,
     "recvbuf": "i", "recvcount": 2, "recvtype": "MPI_INT", "source": "1 - rank", "recvtag": 0, "comm": "MPI_COMM_WORLD"},
    {"expect": {"i": "[1 - rank, 1 - rank]"}})"), 2);
  CHECK(test::first_code(safe) == "");
}

TEST_CASE("the environment's queries: MPI_Wtick, MPI_Get_version, MPI_Initialized, MPI_Finalized") {
  auto r = test::run_text(program(R"({"call": "MPI_Wtick", "result": "tick"},
    {"call": "MPI_Get_version", "version": "v", "subversion": "sv"},
    {"call": "MPI_Initialized", "flag": "init"},
    {"call": "MPI_Finalized", "flag": "fin"},
    {"expect": "tick == 1 && v == 4 && sv == 1 && init == 1 && fin == 0"})"), 2);
  CHECK(test::first_code(r) == "");
}

TEST_CASE("MPI_Request_get_status reports completion without freeing the request") {
  auto r = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 2, "init": "rank"},
    {"buffer": "w", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Irecv", "buf": "w", "count": 2, "datatype": "MPI_INT", "source": "1 - rank", "tag": 3,
     "comm": "MPI_COMM_WORLD", "request": "q"},
    {"call": "MPI_Request_get_status", "request": "q", "flag": "before"},
    {"call": "MPI_Send", "buf": "v", "count": 2, "datatype": "MPI_INT", "dest": "1 - rank", "tag": 3, "comm": "MPI_COMM_WORLD"},
    {"compute": {"us": 100}},
    {"call": "MPI_Request_get_status", "request": "q", "flag": "after", "status": "st"},
    {"call": "MPI_Request_get_status", "request": "q", "flag": "again"},
    {"call": "MPI_Wait", "request": "q"},
    {"expect": "before == 0 && after == 1 && again == 1 && st.MPI_SOURCE == 1 - rank && st.MPI_TAG == 3"},
    {"expect": {"w": "[1 - rank, 1 - rank]"}})"), 2);
  CHECK(test::first_code(r) == "");
}

TEST_CASE("MPI_Isendrecv and MPI_Isendrecv_replace have one request for both, and the get_status forms free none") {
  auto r = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 2, "init": "rank * 10 + i"},
    {"buffer": "w", "type": "MPI_INT", "count": 2},
    {"buffer": "u", "type": "MPI_INT", "count": 2, "init": "rank * 10 + i"},
    {"call": "MPI_Isendrecv", "sendbuf": "v", "sendcount": 2, "sendtype": "MPI_INT", "dest": "(rank + 1) % size",
     "sendtag": 1, "recvbuf": "w", "recvcount": 2, "recvtype": "MPI_INT", "source": "(rank + size - 1) % size",
     "recvtag": 1, "comm": "MPI_COMM_WORLD", "request": "q"},
    {"call": "MPI_Isendrecv_replace", "buf": "u", "count": 2, "datatype": "MPI_INT", "dest": "(rank + size - 1) % size",
     "sendtag": 2, "source": "(rank + 1) % size", "recvtag": 2, "comm": "MPI_COMM_WORLD", "request": "p"},
    {"call": "MPI_Request_get_status_all", "array_of_requests": ["q", "p"], "flag": "before"},
    {"compute": {"us": 100}},
    {"call": "MPI_Request_get_status_all", "array_of_requests": ["q", "p"], "flag": "after", "array_of_statuses": "sts"},
    {"call": "MPI_Request_get_status_any", "array_of_requests": ["q", "p"], "index": "i", "flag": "anyflag"},
    {"call": "MPI_Request_get_status_some", "array_of_requests": ["q", "p"], "outcount": "n", "array_of_indices": "idx"},
    {"call": "MPI_Wait", "request": "q", "status": "st"},
    {"call": "MPI_Wait", "request": "p"},
    {"expect": "before == 0 && after == 1 && anyflag == 1 && n == 2 && st.MPI_SOURCE == (rank + size - 1) % size"},
    {"expect": "sts.MPI_SOURCE[1] == (rank + 1) % size && sts.MPI_TAG[1] == 2"},
    {"expect": {"w": "[((rank + size - 1) % size) * 10 + i for i in 0..2]",
                "u": "[((rank + 1) % size) * 10 + i for i in 0..2]"}})"), 3);
  CHECK(test::first_code(r) == "");
  // The buffers are the operation's until it completes (MPI-4.1 §3.10).
  auto held = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Isendrecv_replace", "buf": "v", "count": 2, "datatype": "MPI_INT", "dest": 0, "sendtag": 2,
     "source": 0, "recvtag": 3, "comm": "MPI_COMM_WORLD", "request": "p"},
    {"call": "MPI_Send", "buf": "v", "count": 2, "datatype": "MPI_INT", "dest": 0, "tag": 3, "comm": "MPI_COMM_WORLD"})"), 1);
  CHECK(test::first_code(held) == "MPI_ERR_BUFFER");
}

TEST_CASE("MPI_Comm_idup binds the name once the request completes, and MPI_Type_match_size") {
  auto r = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 1, "init": "rank + 1"},
    {"buffer": "w", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Comm_idup", "comm": "MPI_COMM_WORLD", "newcomm": "d", "request": "q"},
    {"call": "MPI_Allreduce", "sendbuf": "v", "recvbuf": "w", "count": 1, "datatype": "MPI_INT", "op": "MPI_SUM",
     "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Wait", "request": "q"},
    {"call": "MPI_Allreduce", "sendbuf": "v", "recvbuf": "w", "count": 1, "datatype": "MPI_INT", "op": "MPI_MAX",
     "comm": "d"},
    {"call": "MPI_Comm_compare", "comm1": "d", "comm2": "MPI_COMM_WORLD", "result": "cmp"},
    {"call": "MPI_Type_match_size", "typeclass": "MPI_TYPECLASS_INTEGER", "size": 8, "datatype": "t"},
    {"call": "MPI_Type_size", "datatype": "t", "size": "ts"},
    {"expect": "cmp == MPI_CONGRUENT && ts == 8"},
    {"expect": {"w": "[size]"}},
    {"call": "MPI_Comm_free", "comm": "d"})"), 3);
  CHECK(test::first_code(r) == "");
  auto none = test::run_text(program(R"({"call": "MPI_Type_match_size", "typeclass": "MPI_TYPECLASS_REAL", "size": 2,
    "datatype": "t"})"), 1);
  CHECK(test::first_code(none) == "MPI_ERR_ARG");
}

TEST_CASE("address arithmetic and the _x forms of the datatype queries") {
  auto r = test::run_text(program(R"({"buffer": "v", "type": "MPI_DOUBLE", "count": 4},
    {"call": "MPI_Get_address", "location": "v", "address": "a0"},
    {"call": "MPI_Get_address", "location": "v+3", "address": "a3"},
    {"call": "MPI_Aint_diff", "addr1": "a3", "addr2": "a0", "result": "d"},
    {"call": "MPI_Aint_add", "base": "a0", "disp": 24, "result": "back"},
    {"call": "MPI_Type_size_x", "datatype": "MPI_DOUBLE", "size": "sz"},
    {"call": "MPI_Type_get_extent_x", "datatype": "MPI_DOUBLE", "lb": "lb", "extent": "ext"},
    {"expect": "d == 24 && back == a3 && sz == 8 && lb == 0 && ext == 8"})"), 1);
  CHECK(test::first_code(r) == "");
  auto over = test::run_text(program(R"({"call": "MPI_Aint_add", "base": 9223372036854775807, "disp": 1, "result": "x"})"), 1);
  CHECK(test::first_code(over) == "MPI_ERR_ARG");
}

TEST_CASE("MPI_Comm_split_type with MPI_COMM_TYPE_SHARED groups the ranks of one node") {
  const std::string steps = program(R"({"call": "MPI_Comm_split_type", "comm": "MPI_COMM_WORLD",
     "split_type": "MPI_COMM_TYPE_SHARED", "key": "rank", "newcomm": "node"},
    {"call": "MPI_Comm_size", "comm": "node", "size": "n"},
    {"call": "MPI_Comm_rank", "comm": "node", "rank": "r"},
    {"expect": "n == NODE && r == rank % NODE"})");
  auto with = [&](const char* per_node) {
    std::string t = steps;
    for (std::size_t at; (at = t.find("NODE")) != std::string::npos;) t.replace(at, 4, per_node);
    return t;
  };
  // Hockney: every rank on its own node.
  CHECK(test::first_code(test::run_text(with("1"), 4)) == "");
  // A crossbar with three ranks on each node.
  auto r = test::run_text(with("3"), 6, R"({"mpisim-network": 1, "model": "topology", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "bandwidth": "1GB/s"}, "placement": {"kind": "block", "ranks_per_node": 3}})");
  CHECK(test::first_code(r) == "");
  auto bad = test::run_text(program(R"({"call": "MPI_Comm_split_type", "comm": "MPI_COMM_WORLD", "split_type": 7,
     "key": 0, "newcomm": "x"})"), 2);
  CHECK(test::first_code(bad) == "MPI_ERR_ARG");
}
