// Which bytes two arguments share: hulls first, then the exact byte runs.
#include <doctest/doctest.h>

#include <vector>

#include "model/mpi/overlap.hpp"
#include "model/mpi/type_constructors.hpp"

using namespace mpisim::mpi;

namespace {
TypeRef committed(TypeRef t) {
  t->commit();
  return t;
}
}  // namespace

TEST_CASE("two columns of one matrix interleave without sharing a byte, the same column twice does") {
  // Column j of a 4x4 int matrix: 4 ints, stride 4 ints, from byte 4j.
  auto column = committed(type_vector(4, 1, 4, predefined_type("MPI_INT")));
  const Region c0{1000, 1, column.get()}, c1{1004, 1, column.get()};
  CHECK_FALSE(find_overlap({&c0, 1}, {&c1, 1}));
  auto o = find_overlap({&c1, 1}, {&c1, 1});
  REQUIRE(o);
  CHECK(o->first == 1004);
  CHECK(o->bytes == 4);
}

TEST_CASE("the overlap found is the shared range, with the blocks it belongs to") {
  auto i = predefined_type("MPI_INT");
  const std::vector<Region> recv{{0, 2, i.get(), 0}, {8, 2, i.get(), 1}, {16, 2, i.get(), 2}};
  const Region send{12, 3, i.get()};  // bytes 12..23: the end of block 1 and all of block 2
  auto o = find_overlap(recv, {&send, 1});
  REQUIRE(o);
  CHECK(o->first == 12);
  CHECK(o->bytes == 4);
  CHECK(o->block_a == 1);
  CHECK(o->block_b == -1);
  const Region apart{24, 3, i.get()};
  CHECK_FALSE(find_overlap(recv, {&apart, 1}));
}

TEST_CASE("blocks of one side: shared bytes between two blocks, in any order, none when they only touch") {
  auto i = predefined_type("MPI_INT");
  const std::vector<Region> touching{{16, 2, i.get(), 0}, {8, 2, i.get(), 1}, {0, 2, i.get(), 2}};
  CHECK_FALSE(find_self_overlap(touching));
  const std::vector<Region> shared{{0, 2, i.get(), 0}, {8, 2, i.get(), 1}, {4, 2, i.get(), 2}};
  auto o = find_self_overlap(shared);
  REQUIRE(o);
  CHECK(o->first == 4);
  CHECK(o->bytes == 4);
  CHECK(((o->block_a == 0 && o->block_b == 2) || (o->block_a == 2 && o->block_b == 0)));
  // A long block of block 0 hides nothing: block 2 inside block 1, both after block 0's runs.
  const std::vector<Region> nested{{0, 10, i.get(), 0}, {100, 10, i.get(), 1}, {104, 1, i.get(), 2}};
  auto n = find_self_overlap(nested);
  REQUIRE(n);
  CHECK(n->first == 104);
}

TEST_CASE("blocks of no data take no part, a resized type whose blocks overlap is caught") {
  auto i = predefined_type("MPI_INT");
  const std::vector<Region> empty{{0, 0, i.get(), 0}, {0, 0, i.get(), 1}, {0, 1, i.get(), 2}};
  CHECK_FALSE(find_self_overlap(empty));
  // Two ints with an extent of one int: element k+1 starts inside element k.
  auto squeezed = committed(Datatype::make_resized("squeezed", committed(type_contiguous(2, i)), 0, 4));
  const Region r{0, 2, squeezed.get(), 0}, s{100, 1, i.get()};
  CHECK_FALSE(find_overlap({&r, 1}, {&s, 1}));
  const std::vector<Region> blocks{{0, 1, squeezed.get(), 0}, {4, 1, squeezed.get(), 1}};
  auto o = find_self_overlap(blocks);
  REQUIRE(o);
  CHECK(o->first == 4);
  CHECK(o->bytes == 4);
}
