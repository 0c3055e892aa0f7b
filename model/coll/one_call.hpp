#pragma once
// One collective call on MPI_COMM_WORLD at every rank, from time 0, with a chosen
// algorithm: what `mpisim cost` times at each point of a sweep, made directly on
// the library (buffers, arguments through coll::read_arguments, the coordinator),
// with no scenario.
#include <cstdint>
#include <string>

#include "model/coll/registry.hpp"
#include "model/net/cost_model.hpp"

namespace mpisim::coll {

struct OneCall {
  Collective kind = Collective::barrier;
  Form form = Form::blocking;  // nonblocking: the call, then MPI_Wait at once
  std::int64_t ranks = 1;
  // The count argument: per rank for gather, scatter, allgather (and their v forms,
  // every rank the same); per pair for alltoall; the whole buffer for bcast and the
  // reductions; each rank's block of the result for reduce_scatter(_block).
  std::int64_t count = 0;
  TypeRef type;    // of every buffer
  mpi::OpRef op;   // the reductions'
  const Algorithm* algorithm = nullptr;
  std::int64_t segment_bytes = 0;  // a pipelined algorithm's segment size (0: its default)
  mpi::PayloadMode payload = mpi::PayloadMode::sizes;
};

struct OneCallResult {
  bool clean = false;
  std::int64_t makespan_ps = 0;
  std::uint64_t events = 0;
  std::string failure;          // when not clean: what went wrong
  bool internal_error = false;  // the failure is mpisim's, not the call's
};

// Runs the call; the root is rank 0. The model is reset for `ranks` ranks.
OneCallResult run_one_call(const OneCall& call, net::CostModel& model);

}  // namespace mpisim::coll
