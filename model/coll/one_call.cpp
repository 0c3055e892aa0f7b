#include "model/coll/one_call.hpp"

#include <stdexcept>

#include <exception>
#include <map>
#include <vector>

#include "model/coll/arguments.hpp"
#include "model/coll/coordinator.hpp"
#include "sim/engine.hpp"

namespace mpisim::coll {

namespace {

const std::string kSend = "s", kRecv = "r";

// The arguments of one rank: plain values, every one given.
class Values final : public ArgSource {
 public:
  bool given(Param p) const override {
    return integers_.count(p) || buffers_.count(p) || types_.count(p) || arrays_.count(p) || lists_.count(p);
  }
  std::int64_t integer(Param p) override { return integers_.at(p); }
  Address buffer(Param p) override { return buffers_.at(p); }
  TypeRef datatype(Param p) override { return types_.at(p); }
  std::vector<std::int64_t> integers(Param p, std::size_t) override { return arrays_.at(p); }
  std::vector<TypeRef> datatypes(Param p, std::size_t) override { return lists_.at(p); }
  mpi::OpRef op() override { return op_; }

  std::map<Param, std::int64_t> integers_;
  std::map<Param, Address> buffers_;
  std::map<Param, TypeRef> types_;
  std::map<Param, std::vector<std::int64_t>> arrays_;
  std::map<Param, std::vector<TypeRef>> lists_;
  mpi::OpRef op_;
};

// What `rank` passes to the call: buffers of the sizes the call reads and writes.
Values arguments(const OneCall& c, Rank& rank) {
  Values v;
  const std::int64_t p = c.ranks, n = c.count;
  auto buffer = [&](Param param, const std::string& name, std::int64_t elements) {
    v.buffers_[param] = rank.memory().allocate(&name, c.type, elements, c.payload);
  };
  const std::vector<std::int64_t> counts(static_cast<std::size_t>(p), n);
  std::vector<std::int64_t> displs(static_cast<std::size_t>(p));
  for (std::int64_t j = 0; j < p; ++j) displs[static_cast<std::size_t>(j)] = j * n;
  v.op_ = c.op;
  v.integers_[Param::root] = 0;
  switch (c.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      buffer(Param::buffer, kSend, n);
      v.integers_[Param::count] = n;
      v.types_[Param::datatype] = c.type;
      break;
    case Collective::gather:
    case Collective::scatter:
    case Collective::allgather:
    case Collective::alltoall:
    case Collective::gatherv:
    case Collective::allgatherv:
    case Collective::scatterv:
    case Collective::alltoallv:
    case Collective::alltoallw: {
      const bool scatters = c.kind == Collective::scatter || c.kind == Collective::scatterv;
      const bool gathers = c.kind == Collective::gather || c.kind == Collective::gatherv ||
                           c.kind == Collective::allgather || c.kind == Collective::allgatherv;
      const bool all = !scatters && !gathers;
      buffer(Param::sendbuf, kSend, scatters || all ? n * p : n);
      buffer(Param::recvbuf, kRecv, gathers || all ? n * p : n);
      v.integers_[Param::sendcount] = v.integers_[Param::recvcount] = n;
      v.types_[Param::sendtype] = v.types_[Param::recvtype] = c.type;
      v.arrays_[Param::sendcounts] = v.arrays_[Param::recvcounts] = counts;
      v.arrays_[Param::displs] = v.arrays_[Param::sdispls] = v.arrays_[Param::rdispls] = displs;
      if (c.kind == Collective::alltoallw) {
        v.lists_[Param::sendtypes] = v.lists_[Param::recvtypes] = std::vector<TypeRef>(static_cast<std::size_t>(p), c.type);
        // Displacements in bytes.
        for (auto& d : v.arrays_[Param::sdispls]) d *= c.type->extent();
        v.arrays_[Param::rdispls] = v.arrays_[Param::sdispls];
      }
      break;
    }
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::scan:
    case Collective::exscan:
      buffer(Param::sendbuf, kSend, n);
      buffer(Param::recvbuf, kRecv, n);
      v.integers_[Param::count] = n;
      v.types_[Param::datatype] = c.type;
      break;
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter:
      buffer(Param::sendbuf, kSend, n * p);
      buffer(Param::recvbuf, kRecv, n);
      v.integers_[Param::recvcount] = n;
      v.arrays_[Param::recvcounts] = counts;
      v.types_[Param::datatype] = c.type;
      break;
    case Collective::neighbor_allgather:
    case Collective::neighbor_allgatherv:
    case Collective::neighbor_alltoall:
    case Collective::neighbor_alltoallv:
    case Collective::neighbor_alltoallw:
      throw std::logic_error("a neighbourhood collective needs a process topology; MPI_COMM_WORLD has none");
  }
  return v;
}

Task<void> blocking(Coordinator& coord, Rank& rank, CollArgs args, const Algorithm& alg) {
  co_await coord.run(rank, std::move(args), alg);
}

Task<void> nonblocking(Coordinator& coord, Rank& rank, CollArgs args, const Algorithm& alg) {
  co_await rank.wait(coord.start(rank, std::move(args), alg));
}

}  // namespace

OneCallResult run_one_call(const OneCall& c, net::CostModel& model) {
  OneCallResult out;
  sim::Engine engine;
  sim::Trace trace(sim::TraceLevel::summary);
  const auto n = static_cast<std::uint32_t>(c.ranks);
  mpi::World world(engine, model, trace, n, c.payload);
  Coordinator coord(world, false);
  engine.reserve_processes(n);
  try {
    for (std::uint32_t r = 0; r < n; ++r) {
      world.enter(r);
      Rank& rank = world.rank(r);
      Values v = arguments(c, rank);
      CollArgs a = read_arguments(rank, c.kind, c.form, world.comm_world(), v);
      a.segment_bytes = c.segment_bytes;
      a.instance = 0;
      engine.spawn(c.form == Form::blocking ? blocking(coord, rank, std::move(a), *c.algorithm)
                                            : nonblocking(coord, rank, std::move(a), *c.algorithm));
    }
    engine.run();
  } catch (const mpi::MpiError& e) {
    out.failure = e.what();
  } catch (const std::exception& e) {
    out.failure = e.what();
    out.internal_error = true;
  }
  if (const auto& f = engine.failure()) {
    try {
      std::rethrow_exception(f->error);
    } catch (const mpi::MpiError& e) {
      out.failure = "rank " + std::to_string(f->process) + ": " + e.what();
    } catch (const std::exception& e) {
      out.failure = "rank " + std::to_string(f->process) + ": " + e.what();
      out.internal_error = true;
    }
  } else if (out.failure.empty() && engine.unfinished_count() > 0) {
    out.failure = std::to_string(engine.unfinished_count()) + " ranks never finished";
    out.internal_error = true;
  }
  out.clean = out.failure.empty();
  for (std::uint32_t r = 0; r < n; ++r) out.makespan_ps = std::max(out.makespan_ps, world.finish_time(r).ps);
  out.events = engine.events_processed();
  world.abandon_activities();
  engine.destroy_processes();
  return out;
}

}  // namespace mpisim::coll
