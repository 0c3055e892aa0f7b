// Datatype constructors and queries; the cases of the seed slides first.
#include <doctest/doctest.h>

#include "model/mpi/error.hpp"
#include "model/mpi/memory.hpp"
#include "model/mpi/type_constructors.hpp"

using namespace mpisim::mpi;

namespace {
TypeRef T(const char* name) { return predefined_type(name); }
std::vector<Segment> segs(const TypeRef& t) {
  t->commit();
  return t->segments();
}
}  // namespace

TEST_CASE("seed: the type map (REAL,4),(REAL,12),(REAL,0) has size 12 and sends A(2), A(4), A(1)") {
  auto t = type_struct({1, 1, 1}, {4, 12, 0}, {T("MPI_FLOAT"), T("MPI_FLOAT"), T("MPI_FLOAT")});
  CHECK(t->size() == 12);
  CHECK(t->lb() == 0);
  CHECK(t->ub() == 16);
  CHECK(segs(t) == std::vector<Segment>{{4, 4}, {12, 4}, {0, 4}});  // type-map order, not address order
}

TEST_CASE("seed: alignment padding (DOUBLE,0),(BYTE,12),(INT,8): lb 0, ub 16, extent 16, epsilon 3") {
  auto t = type_struct({1, 1, 1}, {0, 12, 8}, {T("MPI_DOUBLE"), T("MPI_BYTE"), T("MPI_INT")});
  CHECK(t->size() == 13);
  CHECK(t->lb() == 0);
  CHECK(t->true_ub() == 13);
  CHECK(t->ub() == 16);
  CHECK(t->extent() == 16);
  CHECK(t->alignment() == 8);
}

TEST_CASE("seed: MPI_LB markers: (REAL,4),(LB,12),(REAL,0),(LB,-4) has lower bound -4") {
  auto lb = Datatype::make_marker(true);
  auto t = type_struct({1, 1, 1, 1}, {4, 12, 0, -4}, {T("MPI_FLOAT"), lb, T("MPI_FLOAT"), lb});
  CHECK(t->lb() == -4);
  CHECK(t->lb_marker());
  CHECK(t->size() == 8);
  CHECK(t->true_lb() == 0);
  auto ub = Datatype::make_marker(false);
  auto u = type_struct({1, 1}, {0, 32}, {T("MPI_INT"), ub});
  CHECK(u->ub() == 32);
  CHECK(u->extent() == 32);
  // Markers are sticky: a contiguous of u keeps them, one extent apart.
  auto c = type_contiguous(2, u);
  CHECK(c->ub() == 64);
  CHECK(c->extent() == 64);
}

TEST_CASE("contiguous and vector: a column, a row and a sub-matrix of a 100x100 REAL array") {
  auto f = T("MPI_FLOAT");
  auto col = type_contiguous(100, f);
  CHECK(col->extent() == 400);
  CHECK(segs(col) == std::vector<Segment>{{0, 400}});
  auto row = type_vector(100, 1, 100, f);
  CHECK(row->size() == 400);
  CHECK(row->extent() == (99 * 100 + 1) * 4);
  CHECK(segs(row).size() == 100);
  auto sub = type_vector(98, 98, 100, f);
  CHECK(sub->size() == 98 * 98 * 4);
  CHECK(segs(sub).size() == 98);
  CHECK(segs(sub)[1].offset == 400);
  auto h = type_hvector(3, 2, 20, T("MPI_INT"));
  CHECK(segs(h) == std::vector<Segment>{{0, 8}, {20, 8}, {40, 8}});
  CHECK(h->extent() == 48);
}

TEST_CASE("indexed, hindexed and their block forms") {
  auto i = T("MPI_INT");
  auto t = type_indexed({2, 1}, {3, 0}, i);
  CHECK(segs(t) == std::vector<Segment>{{12, 8}, {0, 4}});
  CHECK(t->lb() == 0);
  CHECK(t->ub() == 20);
  auto h = type_hindexed({1, 1}, {-8, 8}, i);
  CHECK(h->lb() == -8);
  CHECK(h->extent() == 20);
  auto ib = type_indexed_block(2, {0, 4}, i);
  CHECK(segs(ib) == std::vector<Segment>{{0, 8}, {16, 8}});
  auto hb = type_hindexed_block(1, {0, 4, 8}, i);
  CHECK(segs(hb) == std::vector<Segment>{{0, 12}});  // adjacent runs merge
}

TEST_CASE("subarray: C and Fortran order keep the full array's extent") {
  auto i = T("MPI_INT");
  auto c = type_subarray({4, 5}, {2, 3}, {1, 2}, Order::c, i);
  CHECK(c->size() == 24);
  CHECK(c->lb() == 0);
  CHECK(c->extent() == 80);
  CHECK(segs(c) == std::vector<Segment>{{28, 12}, {48, 12}});
  auto f = type_subarray({4, 5}, {2, 3}, {1, 2}, Order::fortran, i);
  // Fortran: element (r, c) at (c*4 + r); rows 1..2 of columns 2..4.
  CHECK(segs(f) == std::vector<Segment>{{36, 8}, {52, 8}, {68, 8}});
  CHECK_THROWS_AS(type_subarray({4}, {5}, {0}, Order::c, i), MpiError);
}

TEST_CASE("resized and dup") {
  auto i = T("MPI_INT");
  auto r = type_resized(i, -4, 20);
  CHECK(r->lb() == -4);
  CHECK(r->extent() == 20);
  CHECK(r->size() == 4);
  auto v = type_contiguous(3, r);
  CHECK(segs(v) == std::vector<Segment>{{0, 4}, {20, 4}, {40, 4}});
  CHECK(v->lb() == -4);
  CHECK(v->ub() == 56);
  auto d = type_dup(v);
  CHECK(d->extent() == v->extent());
  CHECK(segs(d) == segs(v));
  CHECK(d->combiner() == Combiner::dup);
}

TEST_CASE("signatures follow the type map, zero block lengths give an empty map") {
  auto s = type_struct({2, 1}, {0, 8}, {T("MPI_INT"), T("MPI_DOUBLE")});
  s->commit();
  REQUIRE(s->signature().size() == 2);
  CHECK(s->signature()[0].count == 2);
  CHECK(s->basic_count() == 3);
  auto z = type_vector(3, 0, 2, T("MPI_INT"));
  CHECK(z->size() == 0);
  CHECK(z->extent() == 0);
  CHECK(match_signatures(*type_contiguous(2, T("MPI_INT")), 2, *T("MPI_INT"), 4).kind == MatchResult::match);
  CHECK(match_signatures(*s, 1, *T("MPI_INT"), 3).kind == MatchResult::mismatch);
}

TEST_CASE("constructor arguments are checked") {
  CHECK_THROWS_AS(type_contiguous(-1, T("MPI_INT")), MpiError);
  CHECK_THROWS_AS(type_indexed({1, 2}, {0}, T("MPI_INT")), MpiError);
  CHECK_THROWS_AS(type_vector(2, 1, 1, Datatype::make_marker(true)), MpiError);
}

TEST_CASE("the pair types of MAXLOC/MINLOC have this ABI's struct layouts") {
  auto di = predefined_type("MPI_DOUBLE_INT");
  REQUIRE(di);
  CHECK(di->size() == 12);
  CHECK(di->extent() == 16);
  CHECK(di->predefined());
  CHECK(di->committed());
  CHECK(predefined_type("MPI_2INT")->extent() == 8);
  CHECK(predefined_type("MPI_FLOAT_INT")->extent() == 8);
  CHECK(predefined_type("MPI_SHORT_INT")->extent() == 8);
  CHECK(predefined_type("MPI_LONG_INT")->extent() == 16);
  CHECK(predefined_type("MPI_LONG_DOUBLE_INT")->extent() == 32);
  CHECK(predefined_type("MPI_LONG_DOUBLE_INT")->size() == 20);
}

TEST_CASE("darray: block and cyclic distributions on a process grid") {
  auto i = predefined_type("MPI_INT");
  // 8 elements, 2 processes, BLOCK: rank 1 owns 4..7.
  auto b = type_darray(2, 1, {8}, {Distribution::block}, {kDefaultDistributionArg}, {2}, Order::c, i);
  CHECK(b->size() == 16);
  CHECK(b->extent() == 32);
  b->commit();
  CHECK(b->segments() == std::vector<Segment>{{16, 16}});
  // CYCLIC(2) over 2 processes: rank 0 owns 0,1,4,5.
  auto c = type_darray(2, 0, {8}, {Distribution::cyclic}, {2}, {2}, Order::c, i);
  c->commit();
  CHECK(c->segments() == std::vector<Segment>{{0, 8}, {16, 8}});
  // 2-D 4x4, grid 2x2, BLOCK x BLOCK, rank 3 = coordinates (1, 1): rows 2-3, columns 2-3.
  auto g = type_darray(4, 3, {4, 4}, {Distribution::block, Distribution::block},
                       {kDefaultDistributionArg, kDefaultDistributionArg}, {2, 2}, Order::c, i);
  g->commit();
  CHECK(g->segments() == std::vector<Segment>{{40, 8}, {56, 8}});
  CHECK_THROWS_AS(type_darray(3, 0, {8}, {Distribution::block}, {kDefaultDistributionArg}, {2}, Order::c, i), MpiError);
}

TEST_CASE("sizes, extents and displacements past 2^62 are errors, never wrapped numbers") {
  const TypeRef i = predefined_type("MPI_INT");
  const TypeRef a = type_contiguous(std::int64_t{1} << 40, i, "a");
  CHECK(a->size() == std::int64_t{1} << 42);
  // 2^80 ints: the size would wrap (to 0, for 2^200) without the check.
  CHECK_THROWS_AS(type_contiguous(std::int64_t{1} << 40, a, "b"), MpiError);
  CHECK_THROWS_AS(type_hvector(3, 1, std::int64_t{1} << 62, i, "c"), MpiError);
  CHECK_THROWS_AS(type_vector(2, 1, std::int64_t{1} << 61, predefined_type("MPI_DOUBLE"), "d"), MpiError);
  // A count whose data no process could hold.
  CHECK_THROWS_AS(data_bytes(std::int64_t{1} << 62, *predefined_type("MPI_DOUBLE"), "count"), MpiError);
  CHECK(data_bytes(1000, *predefined_type("MPI_DOUBLE"), "count") == 8000);
  // A constructor that would describe 10^12 blocks stops the run cleanly.
  CHECK_THROWS_AS(type_vector(1000000000000, 1, 2, i, "e"), LimitError);
}
