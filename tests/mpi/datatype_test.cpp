#include <doctest/doctest.h>

#include <cstring>

#include "model/mpi/datatype.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/memory.hpp"

using namespace mpisim::mpi;

TEST_CASE("predefined types have this ABI's sizes and trivial bounds") {
  auto i = predefined_type("MPI_INT");
  REQUIRE(i);
  CHECK(i->size() == 4);
  CHECK(i->extent() == 4);
  CHECK(i->lb() == 0);
  CHECK(i->dense());
  CHECK(predefined_type("MPI_DOUBLE")->size() == 8);
  CHECK(predefined_type("MPI_LONG_DOUBLE")->size() == 16);
  CHECK(predefined_type("MPI_C_BOOL")->size() == 1);
  CHECK_FALSE(predefined_type("MPI_FOO"));
}

TEST_CASE("type matching: equal basic types match, a longer send truncates, others mismatch") {
  auto i = predefined_type("MPI_INT");
  auto d = predefined_type("MPI_DOUBLE");
  auto b = predefined_type("MPI_BYTE");
  auto p = predefined_type("MPI_PACKED");
  CHECK(match_signatures(*i, 3, *i, 5).kind == MatchResult::match);
  CHECK(match_signatures(*i, 5, *i, 3).kind == MatchResult::truncated);
  auto m = match_signatures(*d, 1, *i, 2);
  CHECK(m.kind == MatchResult::mismatch);
  CHECK(m.element == 0);
  CHECK(match_signatures(*b, 4, *i, 1).kind == MatchResult::mismatch);  // MPI_BYTE matches only MPI_BYTE
  CHECK(match_signatures(*p, 8, *d, 1).kind == MatchResult::match);     // MPI_PACKED matches bytes
  CHECK(match_signatures(*i, 0, *d, 0).kind == MatchResult::match);
}

TEST_CASE("memory: allocations are bounds-checked and separated by guard gaps") {
  Memory mem;
  std::string a_name = "a", b_name = "b";
  auto i = predefined_type("MPI_INT");
  Address a = mem.allocate(&a_name, i, 4, PayloadMode::data);
  Address b = mem.allocate(&b_name, i, 4, PayloadMode::data);
  CHECK(a >= Memory::kFirstAddress);
  CHECK(b >= a + 16 + Memory::kGuard);
  CHECK(mem.find(a, 16) != nullptr);
  CHECK(mem.find(a + 4, 16) == nullptr);
  CHECK_NOTHROW(check_access(TypedBuffer{&mem, a, 4, i.get()}, 16, "buf"));
  CHECK_THROWS_AS(check_access(TypedBuffer{&mem, a, 5, i.get()}, 20, "buf"), MpiError);
  CHECK_THROWS_AS(check_access(TypedBuffer{&mem, 0, 1, i.get()}, 4, "buf"), MpiError);
}

TEST_CASE("copy_typed moves the bytes of a contiguous buffer") {
  Memory mem;
  std::string a_name = "a", b_name = "b";
  auto i = predefined_type("MPI_INT");
  Address a = mem.allocate(&a_name, i, 4, PayloadMode::data);
  Address b = mem.allocate(&b_name, i, 4, PayloadMode::data);
  int src[4] = {1, 2, 3, 4};
  std::memcpy(mem.find(a, 16)->data.get(), src, 16);
  copy_typed(TypedBuffer{&mem, a, 4, i.get()}, TypedBuffer{&mem, b, 4, i.get()}, 12);
  int dst[4];
  std::memcpy(dst, mem.find(b, 16)->data.get(), 16);
  CHECK(dst[0] == 1);
  CHECK(dst[2] == 3);
  CHECK(dst[3] == 0);  // only 12 bytes moved
}
