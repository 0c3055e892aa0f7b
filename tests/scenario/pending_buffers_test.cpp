// The buffers of pending operations (MPI-4.1 §3.7.2, §6.12): a send's may be read
// but not modified, a receive's not touched, until a wait or test completes the
// request.
#include <doctest/doctest.h>

#include <string>

#include "tests/support.hpp"

using namespace mpisim;
using test::has;

namespace {
const sim::Diagnostic& first(const runner::Result& r) { return r.trace.diagnostics().front(); }
std::string program(const std::string& steps) { return R"({"mpisim": 1, "program": [)" + steps + "]}"; }
const char* kExchange = R"({"buffer": "x", "type": "MPI_INT", "count": 4, "init": "rank"},
    {"buffer": "y", "type": "MPI_INT", "count": 4},
    {"call": "MPI_Irecv", "buf": "y", "count": 4, "datatype": "MPI_INT", "source": "1 - rank", "tag": 0,
     "comm": "MPI_COMM_WORLD", "request": "r"},
    {"call": "MPI_Isend", "buf": "x", "count": 4, "datatype": "MPI_INT", "dest": "1 - rank", "tag": 0,
     "comm": "MPI_COMM_WORLD", "request": "s"},)";
}  // namespace

TEST_CASE("a pending send's buffer may be sent again, after the waits every buffer is free") {
  auto r = test::run_text(program(std::string(kExchange) + R"(
    {"call": "MPI_Send", "buf": "x", "count": 4, "datatype": "MPI_INT", "dest": "1 - rank", "tag": 1,
     "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Waitall", "count": 2, "array_of_requests": ["r", "s"]},
    {"call": "MPI_Recv", "buf": "y", "count": 4, "datatype": "MPI_INT", "source": "1 - rank", "tag": 1,
     "comm": "MPI_COMM_WORLD"},
    {"expect": {"y": "[1 - rank for i in 0..4]"}})"), 2);
  CHECK(test::first_code(r) == "");
}

TEST_CASE("reading a pending receive's buffer in an expression is an error, show may look") {
  auto r = test::run_text(program(std::string(kExchange) + R"(
    {"show": ["y"]},
    {"expect": "y[0] == 1 - rank"},
    {"call": "MPI_Waitall", "count": 2, "array_of_requests": ["r", "s"]})"), 2);
  REQUIRE(test::first_code(r) == "MPI_ERR_BUFFER");
  CHECK(first(r).argument == "");
  CHECK(has(first(r).message, "the step would read bytes 0..15 of buffer 'y'"));
  CHECK(has(first(r).message, "the pending MPI_Irecv from rank 1, tag 0"));
  CHECK(has(first(r).rule, "§3.7.2"));
}

TEST_CASE("MPI_Pack from a pending receive's buffer and MPI_Reduce_local into a pending send's are errors") {
  auto pack = test::run_text(program(std::string(kExchange) + R"(
    {"buffer": "p", "type": "MPI_PACKED", "count": 64},
    {"let": {"pos": 0}},
    {"call": "MPI_Pack", "inbuf": "y+1", "incount": 1, "datatype": "MPI_INT", "outbuf": "p", "outsize": 64,
     "position": "pos", "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Waitall", "count": 2, "array_of_requests": ["r", "s"]})"), 2);
  REQUIRE(test::first_code(pack) == "MPI_ERR_BUFFER");
  CHECK(first(pack).argument == "inbuf");
  CHECK(has(first(pack).message, "bytes 4..7 of buffer 'y'"));
  auto red = test::run_text(program(std::string(kExchange) + R"(
    {"buffer": "z", "type": "MPI_INT", "count": 4, "init": 1},
    {"call": "MPI_Reduce_local", "inbuf": "z", "inoutbuf": "x", "count": 4, "datatype": "MPI_INT", "op": "MPI_SUM"},
    {"call": "MPI_Waitall", "count": 2, "array_of_requests": ["r", "s"]})"), 2);
  REQUIRE(test::first_code(red) == "MPI_ERR_BUFFER");
  CHECK(first(red).argument == "inoutbuf");
  CHECK(has(first(red).message, "the pending MPI_Isend to rank 1, tag 0 sends from (buf)"));
}

TEST_CASE("a pending nonblocking collective holds its buffers, in both payload modes, until its wait") {
  const std::string steps = R"({"buffer": "v", "type": "MPI_INT", "count": 2, "init": "rank"},
    {"buffer": "out", "type": "MPI_INT", "count": 8},
    {"call": "MPI_Iallgather", "sendbuf": "v", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "out",
     "recvcount": 2, "recvtype": "MPI_INT", "comm": "MPI_COMM_WORLD", "request": "r"},
    {"call": "MPI_Send", "where": "rank == 1", "buf": "out+4", "count": 1, "datatype": "MPI_INT", "dest": 0, "tag": 0,
     "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Wait", "request": "r"})";
  for (auto mode : {mpi::PayloadMode::data, mpi::PayloadMode::sizes}) {
    auto r = test::run_text(program(steps), 4, "", mode);
    REQUIRE(test::first_code(r) == "MPI_ERR_BUFFER");
    CHECK(first(r).process == 1);
    CHECK(has(first(r).message, "the pending MPI_Iallgather receives into (recvbuf's block for process 2)"));
    CHECK(has(first(r).rule, "§6.12"));
  }
  // Sending from the collective's send buffer only reads it; after the wait, out is free.
  auto ok = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 2, "init": "rank"},
    {"buffer": "out", "type": "MPI_INT", "count": 8},
    {"buffer": "w", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Iallgather", "sendbuf": "v", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "out",
     "recvcount": 2, "recvtype": "MPI_INT", "comm": "MPI_COMM_WORLD", "request": "r"},
    {"call": "MPI_Sendrecv", "sendbuf": "v", "sendcount": 2, "sendtype": "MPI_INT", "dest": "(rank + 1) % size",
     "sendtag": 0, "recvbuf": "w", "recvcount": 2, "recvtype": "MPI_INT", "source": "(rank + size - 1) % size",
     "recvtag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Wait", "request": "r"},
    {"call": "MPI_Bcast", "buffer": "out", "count": 8, "datatype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD"},
    {"expect": {"out": "[i / 2 for i in 0..8]"}})"), 4);
  CHECK(test::first_code(ok) == "");
}
