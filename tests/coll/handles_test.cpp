// A rank's handle table (coll::Handles), with no front-end: made objects get
// handles, freed ones name nothing, slots are reused, persistent requests stay.
#include <doctest/doctest.h>

#include <string>

#include "model/coll/handles.hpp"
#include "model/mpi/constants.hpp"
#include "model/mpi/type_constructors.hpp"
#include "model/net/hockney.hpp"
#include "sim/engine.hpp"

using namespace mpisim;
namespace h = coll::handle;

namespace {

// The error class and message a call throws, or "" when it does not.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const mpi::MpiError& e) {
    return std::string(mpi::error_code_name(static_cast<int>(e.error_class()))) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("handles: communicators, freed and made up ones refused with the rule") {
  sim::Engine engine;
  net::Hockney model{net::HockneyParams{1e6, 100, 0, 0, 1 << 16}};
  sim::Trace trace{sim::TraceLevel::summary};
  mpi::World world{engine, model, trace, 2, mpi::PayloadMode::sizes};
  coll::Handles t;
  CHECK(&t.comm(h::kCommWorld, world, "comm") == &world.comm_world());
  CHECK(&t.comm(h::kCommSelf, world, "comm") == &world.comm_self());
  CHECK(t.add_comm(nullptr) == h::kCommNull);
  const int c = t.add_comm(&world.comm_world());
  CHECK((c & ~h::kIndex) == h::kComm);
  CHECK(&t.comm(c, world, "comm") == &world.comm_world());
  t.set_errhandler(c, 0x54000001);
  CHECK(t.errhandler(c) == 0x54000001);
  CHECK(t.errhandler(h::kCommWorld) == h::kErrorsAreFatal);
  t.free_comm(c);
  CHECK(error_of([&] { t.comm(c, world, "comm"); }).find("MPI_ERR_COMM") == 0);
  CHECK(error_of([&] { t.comm(c, world, "comm"); }).find("was freed") != std::string::npos);
  CHECK(error_of([&] { t.comm(h::kCommNull, world, "comm"); }).find("MPI_COMM_NULL is not a communicator") !=
        std::string::npos);
  CHECK(error_of([&] { t.comm(h::kComm | 7, world, "comm"); }).find("not a communicator handle") != std::string::npos);
}

TEST_CASE("handles: datatypes reuse freed slots and forget their names, groups and ops") {
  coll::Handles t;
  mpi::TypeRef v = mpi::type_contiguous(4, mpi::predefined_type("MPI_INT"));
  const int a = t.add_type(v);
  const int b = t.add_type(mpi::type_contiguous(2, mpi::predefined_type("MPI_INT")));
  CHECK(a != b);
  CHECK(t.type(a, "datatype") == v);
  CHECK(t.handle_of(*v) == a);
  CHECK(t.type(0x4c000405, "datatype") == nullptr);  // a predefined type's handle: the binding's
  t.set_name(a, "four ints");
  REQUIRE(t.name(a) != nullptr);
  CHECK(*t.name(a) == "four ints");
  t.free_type(a);
  CHECK(error_of([&] { t.type(a, "datatype"); }).find("MPI_ERR_TYPE") == 0);
  CHECK(t.name(a) == nullptr);
  CHECK(t.add_type(v) == a);  // the freed slot again
  CHECK(t.name(a) == nullptr);

  const int g = t.add_group(mpi::Group::empty());
  CHECK(t.group(g, "group") == mpi::Group::empty());
  t.free_group(g);
  CHECK(error_of([&] { t.group(g, "group"); }).find("MPI_ERR_GROUP") == 0);
  CHECK(error_of([&] { t.group(h::kGroupNull, "group"); }).find("MPI_GROUP_NULL") != std::string::npos);

  const int o = t.add_op(mpi::predefined_op("MPI_SUM"));
  CHECK(t.op(o) == mpi::predefined_op("MPI_SUM"));
  t.free_op(o);
  CHECK(error_of([&] { t.op(o); }).find("MPI_ERR_OP") == 0);
}

TEST_CASE("handles: requests complete to MPI_REQUEST_NULL, persistent ones stay inactive") {
  coll::Handles t;
  auto* fake = reinterpret_cast<mpi::Request*>(std::uintptr_t{0x1000});  // never dereferenced
  int about = 0;
  int r = t.add_request(fake, h::kCommWorld);
  CHECK(t.request(r, "request", &about) == fake);
  CHECK(about == h::kCommWorld);  // the call that made it was about MPI_COMM_WORLD
  t.request(r, "request", nullptr) = nullptr;  // its operation completed
  const int done = r;
  t.completed(r);
  CHECK(r == h::kRequestNull);
  CHECK(error_of([&] { t.request(done, "request", nullptr); }).find("MPI_ERR_REQUEST") == 0);

  int p = t.add_persistent(std::make_unique<coll::Persistent>(), h::kCommSelf);
  CHECK(t.persistent(p));
  CHECK(t.request(p, "request", nullptr) == nullptr);  // inactive
  const int slot = p;
  t.completed(p);
  CHECK(p == slot);  // stays
  CHECK(t.add_request(fake, 0) != p);  // its slot is taken while it lives
  t.free_persistent(p);
  CHECK_FALSE(t.persistent(p));
  CHECK(error_of([&] { t.request(p, "request", nullptr); }).find("MPI_ERR_REQUEST") == 0);
}
