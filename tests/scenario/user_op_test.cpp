// User operations written as expressions (MPI_Op_create's user_fn): the order of
// operands, and the functions that cannot be applied.
#include <doctest/doctest.h>

#include "tests/support.hpp"

using namespace mpisim;

namespace {

std::string first_diagnostic(const std::string& steps, std::int64_t ranks) {
  auto r = test::run_text(R"({"mpisim": 1, "program": [)" + steps + "]}", ranks);
  if (r.trace.diagnostics().empty()) return "";
  const auto& d = r.trace.diagnostics().front();
  return d.code + ": " + d.message;
}

}  // namespace

TEST_CASE("a non-commutative expression op combines the ranks in order") {
  // "keep the left one": the reduction of a non-commutative op gives rank 0's value,
  // the scan each rank rank 0's too; the commutative flag is what the op says.
  CHECK(first_diagnostic(R"j(
    {"call": "MPI_Op_create", "user_fn": "invec", "commute": 0, "op": "left"},
    {"buffer": "x", "type": "MPI_INT", "count": 2, "init": "10 * rank + i"},
    {"buffer": "y", "type": "MPI_INT", "count": 2},
    {"call": "MPI_Allreduce", "sendbuf": "x", "recvbuf": "y", "count": 2, "datatype": "MPI_INT", "op": "left", "comm": "MPI_COMM_WORLD"},
    {"expect": {"y": "[0, 1]"}},
    {"call": "MPI_Op_create", "user_fn": "inoutvec", "commute": 0, "op": "right"},
    {"call": "MPI_Scan", "sendbuf": "x", "recvbuf": "y", "count": 2, "datatype": "MPI_INT", "op": "right", "comm": "MPI_COMM_WORLD"},
    {"expect": {"y": "x"}},
    {"call": "MPI_Op_create", "user_fn": "[min(invec[j], inoutvec[j]) * width + len for j in 0..len * width]", "commute": 1, "op": "odd"},
    {"call": "MPI_Reduce_local", "inbuf": "x", "inoutbuf": "y", "count": 2, "datatype": "MPI_INT", "op": "odd"},
    {"expect": {"y": "[10 * rank + 2, 10 * rank + 3]"}})j",
                         5) == "");
}

TEST_CASE("an expression op reads reals from floating-point types") {
  CHECK(first_diagnostic(R"j(
    {"call": "MPI_Op_create", "user_fn": "[invec[j] * inoutvec[j] + 0.5 for j in 0..len * width]", "commute": 1, "op": "o"},
    {"buffer": "x", "type": "MPI_DOUBLE", "count": 2, "init": "1.5 + i"},
    {"buffer": "y", "type": "MPI_DOUBLE", "count": 2, "init": 2},
    {"call": "MPI_Reduce_local", "inbuf": "x", "inoutbuf": "y", "count": 2, "datatype": "MPI_DOUBLE", "op": "o"},
    {"expect": {"y": "[3.5, 5.5]"}})j",
                         1) == "");
}

TEST_CASE("an expression op on complex numbers, or giving a value its type cannot hold, is MPI_ERR_OP") {
  CHECK(first_diagnostic(R"j(
    {"call": "MPI_Op_create", "user_fn": "inoutvec", "commute": 1, "op": "o"},
    {"buffer": "x", "type": "MPI_C_DOUBLE_COMPLEX", "count": 1},
    {"buffer": "y", "type": "MPI_C_DOUBLE_COMPLEX", "count": 1},
    {"call": "MPI_Reduce_local", "inbuf": "x", "inoutbuf": "y", "count": 1, "datatype": "MPI_C_DOUBLE_COMPLEX", "op": "o"})j",
                         1) == "MPI_ERR_OP: the user function of o (\"inoutvec\") reads integers and reals, and "
                               "MPI_C_DOUBLE_COMPLEX holds the complex MPI_C_DOUBLE_COMPLEX (/program/3)");
  CHECK(first_diagnostic(R"j(
    {"call": "MPI_Op_create", "user_fn": "[0.5 for j in 0..len]", "commute": 1, "op": "o"},
    {"buffer": "x", "type": "MPI_INT", "count": 1},
    {"buffer": "y", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Reduce_local", "inbuf": "x", "inoutbuf": "y", "count": 1, "datatype": "MPI_INT", "op": "o"})j",
                         1) == "MPI_ERR_OP: the user function of o (\"[0.5 for j in 0..len]\") gave the real 0.5 for "
                               "element 0, of the integer type MPI_INT (/program/3)");
  CHECK(first_diagnostic(R"j(
    {"call": "MPI_Op_create", "user_fn": "[300 for j in 0..len]", "commute": 1, "op": "o"},
    {"buffer": "x", "type": "MPI_SIGNED_CHAR", "count": 1},
    {"buffer": "y", "type": "MPI_SIGNED_CHAR", "count": 1},
    {"call": "MPI_Reduce_local", "inbuf": "x", "inoutbuf": "y", "count": 1, "datatype": "MPI_SIGNED_CHAR", "op": "o"})j",
                         1) == "MPI_ERR_OP: the user function of o (\"[300 for j in 0..len]\") gave 300 for element 0, "
                               "which MPI_SIGNED_CHAR cannot hold (/program/3)");
  CHECK(first_diagnostic(R"j(
    {"call": "MPI_Op_create", "user_fn": "[rank for j in 0..len]", "commute": 1, "op": "o"},
    {"buffer": "x", "type": "MPI_INT", "count": 1},
    {"buffer": "y", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Reduce_local", "inbuf": "x", "inoutbuf": "y", "count": 1, "datatype": "MPI_INT", "op": "o"})j",
                         1)
            .rfind("MPI_ERR_OP: the user function of o (\"[rank for j in 0..len]\") failed: ", 0) == 0);
}

TEST_CASE("MPI_OP_NULL may be written as an op argument: the call is MPI_ERR_OP") {
  CHECK(first_diagnostic(R"j(
    {"buffer": "x", "type": "MPI_INT", "count": 1},
    {"buffer": "y", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Allreduce", "sendbuf": "x", "recvbuf": "y", "count": 1, "datatype": "MPI_INT", "op": "MPI_OP_NULL",
     "comm": "MPI_COMM_WORLD"})j",
                         2) == "MPI_ERR_OP: MPI_OP_NULL is not an operation (/program/2)");
}
