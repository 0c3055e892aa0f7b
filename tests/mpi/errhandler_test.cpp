// Error codes, classes and handlers (MPI-4.1 §9.2–9.4): the library's rules, and
// what a scenario's calls do under MPI_ERRORS_RETURN.
#include <doctest/doctest.h>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"
#include "tests/support.hpp"

using namespace mpisim;

namespace {

// The diagnostics of a run, one line each: severity, code, message.
std::vector<std::string> diagnostics(const std::string& steps, std::int64_t ranks) {
  auto r = test::run_text(R"({"mpisim": 1, "program": [)" + steps + "]}", ranks);
  std::vector<std::string> out;
  for (const auto& d : r.trace.diagnostics()) out.push_back(d.severity + " " + d.code + ": " + d.message);
  return out;
}

}  // namespace

TEST_CASE("error codes are MPI-4.1 Table 9.1's classes, with MPICH's values") {
  CHECK(std::string(mpi::error_code_name(0)) == "MPI_SUCCESS");
  CHECK(std::string(mpi::error_code_name(14)) == "MPI_ERR_TRUNCATE");
  CHECK(std::string(mpi::error_code_name(77)) == "MPI_ERR_VALUE_TOO_LARGE");
  CHECK(mpi::error_code_name(54) == nullptr);  // MPICH leaves it unused
  CHECK(mpi::error_code_name(-1) == nullptr);
  CHECK(mpi::error_class_of(6, "errorcode") == 6);
  CHECK_THROWS_AS(mpi::error_class_of(1000, "errorcode"), mpi::MpiError);
  CHECK(mpi::error_string(14, "errorcode") == "MPI_ERR_TRUNCATE: message truncated on receive");
  // Every class the library raises has a name.
  for (int c : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 48})
    CHECK(std::string(mpi::error_class_name(static_cast<mpi::ErrorClass>(c))) == mpi::error_code_name(c));
}

TEST_CASE("only the predefined error handlers may be set") {
  CHECK_NOTHROW(mpi::check_errhandler(mpi::ERRORS_RETURN, "errhandler"));
  CHECK_NOTHROW(mpi::check_errhandler(mpi::ERRORS_ABORT, "errhandler"));
  try {
    mpi::check_errhandler(mpi::ERRHANDLER_NULL, "errhandler");
    FAIL("MPI_ERRHANDLER_NULL was accepted");
  } catch (const mpi::MpiError& e) {
    CHECK(e.error_class() == mpi::ErrorClass::arg);
    CHECK(std::string(e.what()) == "errhandler = MPI_ERRHANDLER_NULL is not an error handler");
  }
  CHECK_THROWS_AS(mpi::check_errhandler(42, "errhandler"), mpi::MpiError);
}

TEST_CASE("under MPI_ERRORS_ARE_FATAL an erroneous call stops the run") {
  auto d = diagnostics(R"j(
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Send", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 9, "tag": 0, "comm": "MPI_COMM_WORLD", "return": "rc"},
    {"expect": "0 == 1"})j",
                       2);
  REQUIRE(d.size() == 1);
  CHECK(d[0].rfind("error MPI_ERR_RANK: dest = 9 is not a rank", 0) == 0);
}

TEST_CASE("under MPI_ERRORS_RETURN the call does nothing and returns its class, the run goes on") {
  auto d = diagnostics(R"j(
    {"call": "MPI_Comm_set_errhandler", "comm": "MPI_COMM_WORLD", "errhandler": "MPI_ERRORS_RETURN"},
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Send", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 9, "tag": 0, "comm": "MPI_COMM_WORLD", "return": "rc"},
    {"expect": "rc == MPI_ERR_RANK"},
    {"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD", "return": "ok"},
    {"expect": "ok == MPI_SUCCESS"})j",
                       2);
  REQUIRE(d.size() == 2);  // a warning at each rank, and nothing else
  CHECK(d[0].rfind("warning MPI_ERR_RANK: returned to the program (MPI_ERRORS_RETURN): dest = 9", 0) == 0);
}

TEST_CASE("the handler is the one of the communicator the call is about") {
  // MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL while MPI_COMM_SELF returns.
  auto d = diagnostics(R"j(
    {"call": "MPI_Comm_set_errhandler", "comm": "MPI_COMM_SELF", "errhandler": "MPI_ERRORS_RETURN"},
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Send", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 1, "tag": 0, "comm": "MPI_COMM_SELF", "return": "rc"},
    {"expect": "rc == MPI_ERR_RANK"},
    {"call": "MPI_Send", "buf": "b", "count": 1, "datatype": "MPI_INT", "dest": 9, "tag": 0, "comm": "MPI_COMM_WORLD"})j",
                       1);
  REQUIRE(d.size() == 2);
  CHECK(d[0].rfind("warning MPI_ERR_RANK", 0) == 0);
  CHECK(d[1].rfind("error MPI_ERR_RANK: dest = 9", 0) == 0);
}

TEST_CASE("a completion's error goes to its request's communicator's handler") {
  auto d = diagnostics(R"j(
    {"call": "MPI_Comm_dup", "comm": "MPI_COMM_WORLD", "newcomm": "c"},
    {"call": "MPI_Comm_set_errhandler", "comm": "c", "errhandler": "MPI_ERRORS_RETURN"},
    {"buffer": "b", "type": "MPI_INT", "count": 4, "init": "rank"},
    {"call": "MPI_Isend", "where": "rank == 0", "buf": "b", "count": 4, "datatype": "MPI_INT", "dest": 1, "tag": 0, "comm": "c", "request": "r"},
    {"call": "MPI_Irecv", "where": "rank == 1", "buf": "b", "count": 1, "datatype": "MPI_INT", "source": 0, "tag": 0, "comm": "c", "request": "r"},
    {"call": "MPI_Wait", "request": "r", "return": "rc"},
    {"expect": "rc == (rank == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS)"},
    {"call": "MPI_Wait", "request": "r", "return": "again"},
    {"expect": "again == MPI_SUCCESS"})j",
                       2);
  REQUIRE(d.size() == 1);
  CHECK(d[0].rfind("warning MPI_ERR_TRUNCATE", 0) == 0);
}

TEST_CASE("new communicators inherit the handler, MPI_Errhandler_free nulls the handle") {
  CHECK(diagnostics(R"j(
    {"call": "MPI_Comm_set_errhandler", "comm": "MPI_COMM_WORLD", "errhandler": "MPI_ERRORS_RETURN"},
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "rank % 2", "key": 0, "newcomm": "c"},
    {"call": "MPI_Cart_create", "comm_old": "c", "ndims": 1, "dims": ["size / 2"], "periods": [0], "reorder": 0, "comm_cart": "g"},
    {"call": "MPI_Comm_get_errhandler", "comm": "g", "errhandler": "h"},
    {"expect": "h == MPI_ERRORS_RETURN"},
    {"call": "MPI_Comm_get_errhandler", "comm": "MPI_COMM_SELF", "errhandler": "s"},
    {"expect": "s == MPI_ERRORS_ARE_FATAL"},
    {"call": "MPI_Errhandler_free", "errhandler": "h"},
    {"expect": "h == MPI_ERRHANDLER_NULL"})j",
                    4)
            .empty());
}

TEST_CASE("errors that bind the other members stay fatal under MPI_ERRORS_RETURN") {
  auto d = diagnostics(R"j(
    {"call": "MPI_Comm_set_errhandler", "comm": "MPI_COMM_WORLD", "errhandler": "MPI_ERRORS_RETURN"},
    {"buffer": "x", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Bcast", "buffer": "x", "count": "rank + 1", "datatype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD"})j",
                       2);
  REQUIRE(d.size() == 1);
  CHECK(d[0].rfind("error MPI_ERR_TYPE", 0) == 0);
}

TEST_CASE("MPI_Error_class and MPI_Error_string") {
  CHECK(diagnostics(R"j(
    {"buffer": "t", "type": "MPI_CHAR", "count": "MPI_MAX_ERROR_STRING"},
    {"call": "MPI_Error_class", "errorcode": "MPI_ERR_COMM", "errorclass": "c"},
    {"call": "MPI_Error_string", "errorcode": "MPI_ERR_COMM", "string": "t", "resultlen": "n"},
    {"expect": "c == MPI_ERR_COMM && n == 34 && t[0] == 77 && t[n] == 0"})j",
                    1)
            .empty());
  auto d = diagnostics(R"j({"call": "MPI_Error_class", "errorcode": -3, "errorclass": "c"})j", 1);
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "error MPI_ERR_ARG: errorcode = -3 is no error code of MPI (/program/0)");
}

TEST_CASE("handles read as values: equal to themselves, null once freed or completed") {
  CHECK(diagnostics(R"j(
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "rank == 2 ? MPI_UNDEFINED : 0", "key": 0, "newcomm": "c"},
    {"expect": "(c == MPI_COMM_NULL) == (rank == 2)"},
    {"call": "MPI_Comm_rank", "comm": "c", "rank": "r", "where": "c != MPI_COMM_NULL"},
    {"call": "MPI_Comm_dup", "comm": "MPI_COMM_WORLD", "newcomm": "d"},
    {"expect": "d == d && d != MPI_COMM_WORLD && d != c"},
    {"call": "MPI_Op_create", "user_fn": "absolute_max", "commute": 1, "op": "o"},
    {"expect": "o != MPI_OP_NULL"},
    {"call": "MPI_Op_free", "op": "o"},
    {"expect": "o == MPI_OP_NULL"},
    {"call": "MPI_Send_init", "buf": "MPI_BOTTOM", "count": 0, "datatype": "MPI_INT", "dest": "MPI_PROC_NULL", "tag": 0, "comm": "d", "request": "p"},
    {"expect": "p != MPI_REQUEST_NULL", "message": "an inactive persistent request is not null"},
    {"call": "MPI_Request_free", "request": "p"},
    {"expect": "p == MPI_REQUEST_NULL"},
    {"call": "MPI_Comm_group", "comm": "d", "group": "g"},
    {"expect": "g == [j for j in 0..size] && g != MPI_GROUP_NULL"},
    {"call": "MPI_Group_free", "group": "g"},
    {"expect": "g == MPI_GROUP_NULL"})j",
                    3)
            .empty());
}
