// The library's typed entry for the collectives, with no scenario: arguments
// given as C++ values (coll::ArgSource), checked by coll::read_arguments, and a
// whole call run by coll::run_one_call in each form.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "model/coll/arguments.hpp"
#include "model/coll/one_call.hpp"
#include "model/net/hockney.hpp"
#include "sim/engine.hpp"

using namespace mpisim;
using coll::Collective;
using coll::Param;

namespace {

// Arguments as plain values; an absent one is not given.
struct Given final : coll::ArgSource {
  std::map<Param, std::int64_t> ints;
  std::map<Param, mpi::Address> buffers;
  std::map<Param, mpi::TypeRef> types;
  std::vector<Param> asked;  // in the order the library asked
  bool given(Param p) const override { return ints.count(p) || buffers.count(p) || types.count(p); }
  std::int64_t integer(Param p) override { return asked.push_back(p), ints.at(p); }
  mpi::Address buffer(Param p) override { return asked.push_back(p), buffers.at(p); }
  mpi::TypeRef datatype(Param p) override { return asked.push_back(p), types.at(p); }
  std::vector<std::int64_t> integers(Param, std::size_t) override { return {}; }
  std::vector<mpi::TypeRef> datatypes(Param, std::size_t) override { return {}; }
  mpi::OpRef op() override { return mpi::predefined_op("MPI_SUM"); }
};

struct World {
  sim::Engine engine;
  net::Hockney model{net::HockneyParams{1e6, 100, 0, 0, 1 << 16}};
  sim::Trace trace{sim::TraceLevel::summary};
  mpi::World world{engine, model, trace, 4, mpi::PayloadMode::data};
};

const std::string kName = "b";

std::string error_of(coll::Collective kind, mpi::Rank& rank, const mpi::Communicator& comm, Given& g) {
  try {
    coll::read_arguments(rank, kind, coll::Form::blocking, comm, g);
  } catch (const mpi::MpiError& e) {
    return std::string(mpi::error_class_name(e.error_class())) + " " + e.argument() + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("read_arguments asks only for what is significant at the process, and checks it") {
  World w;
  const auto t = mpi::predefined_type("MPI_INT");
  mpi::Rank& r1 = w.world.rank(1);
  Given g;
  g.ints[Param::root] = 0;
  g.buffers[Param::recvbuf] = r1.memory().allocate(&kName, t, 2, mpi::PayloadMode::data);
  g.ints[Param::recvcount] = 2;
  g.types[Param::recvtype] = t;
  // Not the root of a scatter: its send arguments are not significant, never asked for.
  coll::CollArgs a = coll::read_arguments(r1, Collective::scatter, coll::Form::blocking, w.world.comm_world(), g);
  CHECK(a.me == 1);
  CHECK(a.recvcount == 2);
  CHECK(std::find(g.asked.begin(), g.asked.end(), Param::sendbuf) == g.asked.end());
  // At the root they are, and their absence is diagnosed.
  mpi::Rank& r0 = w.world.rank(0);
  Given root = g;
  root.buffers[Param::recvbuf] = r0.memory().allocate(&kName, t, 2, mpi::PayloadMode::data);
  CHECK(error_of(Collective::scatter, r0, w.world.comm_world(), root) ==
        "MPI_ERR_ARG sendbuf: parameter sendbuf is missing at the root");
}

TEST_CASE("read_arguments diagnoses a root outside the group, MPI_IN_PLACE where not allowed, a short buffer") {
  World w;
  const auto t = mpi::predefined_type("MPI_INT");
  mpi::Rank& r = w.world.rank(2);
  Given g;
  g.buffers[Param::buffer] = r.memory().allocate(&kName, t, 2, mpi::PayloadMode::data);
  g.ints[Param::count] = 2;
  g.types[Param::datatype] = t;
  g.ints[Param::root] = 4;
  CHECK(error_of(Collective::bcast, r, w.world.comm_world(), g).rfind("MPI_ERR_ROOT root: root = 4 is not a rank", 0) == 0);
  g.ints[Param::root] = 0;
  g.ints[Param::count] = 3;  // one element past the buffer
  CHECK(error_of(Collective::bcast, r, w.world.comm_world(), g).rfind("MPI_ERR_BUFFER buffer:", 0) == 0);
  g.buffers[Param::buffer] = coll::kInPlace;
  CHECK(error_of(Collective::bcast, r, w.world.comm_world(), g) ==
        "MPI_ERR_BUFFER buffer: MPI_IN_PLACE as buffer is not allowed here");
}

TEST_CASE("one call in each form costs the same: the nonblocking form waited for at once, as the blocking one") {
  net::Hockney model{net::HockneyParams{2e6, 800, 250, 100, 65536}};
  for (Collective kind : {Collective::bcast, Collective::allreduce, Collective::alltoallw, Collective::scan}) {
    coll::OneCall call;
    call.kind = kind;
    call.ranks = 7;
    call.count = 100;
    call.type = mpi::predefined_type("MPI_DOUBLE");
    call.op = mpi::predefined_op("MPI_SUM");
    call.payload = mpi::PayloadMode::data;
    for (const auto& alg : coll::algorithms()) {
      if (alg.collective != kind || alg.restrictions.intercomm || alg.restrictions.power_of_two_only ||
          alg.restrictions.two_only)
        continue;
      call.algorithm = &alg;
      call.form = coll::Form::blocking;
      coll::OneCallResult blocking = coll::run_one_call(call, model);
      call.form = coll::Form::nonblocking;
      coll::OneCallResult nonblocking = coll::run_one_call(call, model);
      INFO(coll::collective_name(kind), " ", alg.name, ": ", blocking.failure, nonblocking.failure);
      CHECK(blocking.clean);
      CHECK(nonblocking.clean);
      CHECK(blocking.makespan_ps > 0);
      CHECK(nonblocking.makespan_ps == blocking.makespan_ps);
    }
  }
}
