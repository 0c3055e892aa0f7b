// Arguments that overlap (MPI-4.1 §2.3) in collectives, MPI_Sendrecv and the local
// calls: one MPI_ERR_BUFFER naming the buffer and the shared bytes; MPI_IN_PLACE
// and layouts that interleave without sharing a byte are clean.
#include <doctest/doctest.h>

#include <string>

#include "tests/support.hpp"

using namespace mpisim;
using test::has;

namespace {
const sim::Diagnostic& first(const runner::Result& r) { return r.trace.diagnostics().front(); }
std::string program(const std::string& steps) { return R"({"mpisim": 1, "program": [)" + steps + "]}"; }
}  // namespace

TEST_CASE("MPI_Allreduce with the same buffer twice is an error, with MPI_IN_PLACE it is not") {
  auto r = test::run_text(program(R"({"buffer": "b", "type": "MPI_INT", "count": 4, "init": "rank"},
    {"call": "MPI_Allreduce", "sendbuf": "b", "recvbuf": "b", "count": 4, "datatype": "MPI_INT", "op": "MPI_SUM",
     "comm": "MPI_COMM_WORLD"})"), 3);
  REQUIRE(test::first_code(r) == "MPI_ERR_BUFFER");
  CHECK(first(r).argument == "recvbuf");
  CHECK(has(first(r).message, "bytes 0..15 of buffer 'b'"));
  CHECK(has(first(r).rule, "MPI-4.1 §2.3"));
  CHECK(has(first(r).rule, "MPI_IN_PLACE"));
  auto ok = test::run_text(program(R"({"buffer": "b", "type": "MPI_INT", "count": 4, "init": "rank"},
    {"call": "MPI_Allreduce", "sendbuf": "MPI_IN_PLACE", "recvbuf": "b", "count": 4, "datatype": "MPI_INT",
     "op": "MPI_SUM", "comm": "MPI_COMM_WORLD"},
    {"expect": {"b": "[3, 3, 3, 3]"}})"), 3);
  CHECK(test::first_code(ok) == "");
}

TEST_CASE("MPI_Reduce: only the root's recvbuf is significant, so only the root's overlap counts") {
  auto r = test::run_text(program(R"({"buffer": "b", "type": "MPI_INT", "count": 4, "init": 1},
    {"call": "MPI_Reduce", "sendbuf": "b", "recvbuf": "b+1", "count": 2, "datatype": "MPI_INT", "op": "MPI_SUM",
     "root": 2, "comm": "MPI_COMM_WORLD"})"), 3);
  REQUIRE(test::first_code(r) == "MPI_ERR_BUFFER");
  CHECK(first(r).process == 2);
  CHECK(has(first(r).message, "bytes 4..7 of buffer 'b'"));
}

TEST_CASE("MPI_Scatter: the root's recvbuf inside its own block of sendbuf needs MPI_IN_PLACE") {
  auto r = test::run_text(program(R"({"buffer": "s", "type": "MPI_INT", "count": 6, "init": "i"},
    {"buffer": "x", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Scatter", "where": "rank == 0", "sendbuf": "s", "sendcount": 2, "sendtype": "MPI_INT",
     "recvbuf": "s+2", "recvcount": 2, "recvtype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Scatter", "where": "rank != 0", "recvbuf": "x", "recvcount": 2, "recvtype": "MPI_INT", "root": 0,
     "comm": "MPI_COMM_WORLD"})"),
                          3);
  REQUIRE(test::first_code(r) == "MPI_ERR_BUFFER");
  CHECK(first(r).process == 0);
  CHECK(has(first(r).message, "sendbuf's block for process 1"));
}

TEST_CASE("MPI_Alltoall between interleaved columns of one matrix shares no byte and runs") {
  // Each rank sends column 0 of a size x 2 int matrix and receives into column 1.
  auto r = test::run_text(program(R"({"buffer": "m", "type": "MPI_INT", "count": "2*size", "init": "i % 2 == 0 ? rank : -1"},
    {"call": "MPI_Type_vector", "count": 1, "blocklength": 1, "stride": 2, "oldtype": "MPI_INT", "newtype": "cell"},
    {"call": "MPI_Type_create_resized", "oldtype": "cell", "lb": 0, "extent": 8, "newtype": "row"},
    {"call": "MPI_Type_commit", "datatype": "row"},
    {"call": "MPI_Alltoall", "sendbuf": "m", "sendcount": 1, "sendtype": "row", "recvbuf": "m+1", "recvcount": 1,
     "recvtype": "row", "comm": "MPI_COMM_WORLD"},
    {"expect": {"m": "[i % 2 == 0 ? rank : i / 2 for i in 0..2*size]"}})"), 4);
  CHECK(test::first_code(r) == "");
}

TEST_CASE("MPI_Pack into the bytes it reads, MPI_Sendrecv and MPI_Reduce_local with overlapping buffers") {
  auto pack = test::run_text(program(R"({"buffer": "b", "type": "MPI_BYTE", "count": 16},
    {"let": {"pos": 0}},
    {"call": "MPI_Pack", "inbuf": "b", "incount": 8, "datatype": "MPI_BYTE", "outbuf": "b+4", "outsize": 12,
     "position": "pos", "comm": "MPI_COMM_WORLD"})"), 1);
  REQUIRE(test::first_code(pack) == "MPI_ERR_BUFFER");
  CHECK(first(pack).argument == "outbuf");
  CHECK(has(first(pack).message, "bytes 4..7 of buffer 'b'"));
  auto sr = test::run_text(program(R"({"buffer": "b", "type": "MPI_INT", "count": 4},
    {"call": "MPI_Sendrecv", "sendbuf": "b", "sendcount": 2, "sendtype": "MPI_INT", "dest": 0, "sendtag": 0,
     "recvbuf": "b+1", "recvcount": 2, "recvtype": "MPI_INT", "source": 0, "recvtag": 0, "comm": "MPI_COMM_WORLD"})"),
                           1);
  REQUIRE(test::first_code(sr) == "MPI_ERR_BUFFER");
  CHECK(has(first(sr).rule, "§3.10"));
  auto apart = test::run_text(program(R"({"buffer": "b", "type": "MPI_INT", "count": 4, "init": "i"},
    {"call": "MPI_Sendrecv", "sendbuf": "b", "sendcount": 2, "sendtype": "MPI_INT", "dest": 0, "sendtag": 0,
     "recvbuf": "b+2", "recvcount": 2, "recvtype": "MPI_INT", "source": 0, "recvtag": 0, "comm": "MPI_COMM_WORLD"},
    {"expect": {"b": "[0, 1, 0, 1]"}})"), 1);
  CHECK(test::first_code(apart) == "");
  auto red = test::run_text(program(R"({"buffer": "v", "type": "MPI_INT", "count": 4, "init": "i"},
    {"call": "MPI_Reduce_local", "inbuf": "v", "inoutbuf": "v+1", "count": 2, "datatype": "MPI_INT", "op": "MPI_SUM"})"),
                            1);
  REQUIRE(test::first_code(red) == "MPI_ERR_BUFFER");
  CHECK(first(red).argument == "inoutbuf");
}
