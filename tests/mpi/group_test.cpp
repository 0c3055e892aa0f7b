#include <doctest/doctest.h>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/group.hpp"

using namespace mpisim::mpi;
using V = std::vector<std::int64_t>;

namespace {
std::string error_of(auto&& f) {
  try {
    f();
  } catch (const MpiError& e) {
    return error_class_name(e.error_class());
  }
  return "none";
}
}  // namespace

TEST_CASE("union keeps group1's members, then group2's others in group2's order") {
  auto a = Group::of({5, 1, 3});
  auto b = Group::of({2, 3, 7, 1});
  CHECK(Group::set_union(*a, *b)->members() == V{5, 1, 3, 2, 7});
  CHECK(Group::set_union(*b, *a)->members() == V{2, 3, 7, 1, 5});
}

TEST_CASE("intersection and difference keep group1's order") {
  auto a = Group::of({5, 1, 3, 8});
  auto b = Group::of({3, 8, 5});
  CHECK(Group::intersection(*a, *b)->members() == V{5, 3, 8});
  CHECK(Group::difference(*a, *b)->members() == V{1});
  CHECK(Group::difference(*b, *a)->size() == 0);
}

TEST_CASE("incl orders by ranks, excl keeps the group's order") {
  auto w = Group::range(0, 8);
  CHECK(w->incl({6, 0, 3})->members() == V{6, 0, 3});
  CHECK(w->excl({6, 0, 3})->members() == V{1, 2, 4, 5, 7});
  CHECK(w->incl({})->size() == 0);
  CHECK(w->excl({})->members() == w->members());
}

TEST_CASE("range_incl and range_excl expand triplets, negative strides included") {
  auto w = Group::range(0, 10);
  CHECK(w->range_incl({{0, 6, 2}, {9, 7, -1}})->members() == V{0, 2, 4, 6, 9, 8, 7});
  CHECK(w->range_incl({{7, 1, -3}})->members() == V{7, 4, 1});
  CHECK(w->range_excl({{0, 6, 2}, {9, 7, -1}})->members() == V{1, 3, 5});
  // Interleaved triplets whose spans overlap but whose ranks are distinct.
  CHECK(w->range_incl({{0, 8, 2}, {1, 9, 2}})->members() == V{0, 2, 4, 6, 8, 1, 3, 5, 7, 9});
  // On a group that is not one run, through the general path.
  auto g = Group::of({9, 4, 7, 1, 0});
  CHECK(g->range_incl({{4, 0, -2}})->members() == V{0, 7, 9});
}

TEST_CASE("a triplet's computed ranks are checked, not its last: (0, 5, 6) on 5 processes is rank 0") {
  auto w = Group::range(0, 5);
  CHECK(w->range_incl({{0, 5, 6}})->members() == V{0});
  CHECK(w->range_incl({{4, -1, -2}})->members() == V{4, 2, 0});
  CHECK(w->range_excl({{1, 6, 3}})->members() == V{0, 2, 3});
  CHECK_THROWS_AS(w->range_incl({{0, 5, 1}}), MpiError);  // computes rank 5
  // Values far outside the int range neither overflow nor pass.
  CHECK_THROWS_AS(w->range_incl({{0, INT64_MAX, INT64_MAX / 2}}), MpiError);
  CHECK_THROWS_AS(w->range_incl({{INT64_MIN, INT64_MAX, 1}}), MpiError);
}

TEST_CASE("range groups of a million ranks take a handful of runs") {
  auto w = Group::range(0, 1 << 20);
  auto evens = w->range_incl({{0, (1 << 20) - 1, 2}});
  CHECK(evens->size() == 1 << 19);
  CHECK(evens->runs().size() == 1);
  CHECK(evens->rank_of(4096) == 2048);
  CHECK(evens->rank_of(4097) == UNDEFINED);
  CHECK(evens->world(100) == 200);
  auto odds = w->range_excl({{0, (1 << 20) - 1, 2}});
  CHECK(odds->runs().size() == 1);
  CHECK(odds->world(0) == 1);
}

TEST_CASE("rank and translate_ranks: MPI_UNDEFINED where absent, MPI_PROC_NULL kept") {
  auto w = Group::range(0, 6);
  auto g = w->incl({4, 2});
  CHECK(g->rank_of(2) == 1);
  CHECK(g->rank_of(3) == UNDEFINED);
  CHECK(Group::translate(*w, {0, 2, 4, PROC_NULL}, *g) == V{UNDEFINED, 1, 0, PROC_NULL});
  CHECK(Group::translate(*g, {0, 1}, *w) == V{4, 2});
}

TEST_CASE("compare: IDENT for same order, SIMILAR for same members, else UNEQUAL") {
  auto a = Group::of({1, 2, 3});
  CHECK(Group::compare(*a, *Group::of({1, 2, 3})) == Comparison::ident);
  CHECK(Group::compare(*a, *Group::of({3, 1, 2})) == Comparison::similar);
  CHECK(Group::compare(*a, *Group::of({1, 2, 4})) == Comparison::unequal);
  CHECK(Group::compare(*a, *Group::of({1, 2})) == Comparison::unequal);
  CHECK(Group::compare(*Group::empty(), *Group::of({})) == Comparison::ident);
}

TEST_CASE("erroneous arguments are diagnosed") {
  auto w = Group::range(0, 4);
  CHECK(error_of([&] { w->incl({0, 4}); }) == "MPI_ERR_RANK");
  CHECK(error_of([&] { w->incl({1, 1}); }) == "MPI_ERR_RANK");
  CHECK(error_of([&] { w->excl({-1}); }) == "MPI_ERR_RANK");
  CHECK(error_of([&] { w->range_incl({{0, 3, 0}}); }) == "MPI_ERR_ARG");
  CHECK(error_of([&] { w->range_incl({{0, 4, 1}}); }) == "MPI_ERR_RANK");
  CHECK(error_of([&] { w->range_incl({{0, 2, 1}, {2, 3, 1}}); }) == "MPI_ERR_RANK");
  CHECK(error_of([&] { w->range_excl({{3, 0, 0}}); }) == "MPI_ERR_ARG");
  CHECK(error_of([&] { Group::translate(*w, {4}, *w); }) == "MPI_ERR_RANK");
}
