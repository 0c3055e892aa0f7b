#include "model/coll/collective.hpp"

namespace mpisim::coll {

std::string_view collective_name(Collective c) {
  switch (c) {
    case Collective::barrier: return "MPI_Barrier";
    case Collective::scatter: return "MPI_Scatter";
    case Collective::scatterv: return "MPI_Scatterv";
  }
  return "?";
}

Task<void> local_copy(Rank& rank, Address src, std::int64_t count, const TypeRef& type, Address dst,
                      std::int64_t count2, const TypeRef& type2) {
  mpi::MatchResult mr = mpi::match_signatures(*type, count, *type2, count2);
  if (mr.kind == mpi::MatchResult::truncated)
    throw mpi::MpiError(mpi::ErrorClass::truncate, "recvcount",
                        "the root's own block (" + std::to_string(count) + " x " + type->name() +
                            ") is longer than its receive buffer (" + std::to_string(count2) + " x " + type2->name() + ")",
                        "MPI-4.1 §6.2.2: the amount of data sent must equal the amount received, pairwise between "
                        "each process and the root");
  if (mr.kind == mpi::MatchResult::mismatch)
    throw mpi::MpiError(mpi::ErrorClass::type, "recvtype",
                        "the root's own block carries " + std::string(mpi::basic_type(mr.send_basic).name) +
                            " where its recvtype expects " + std::string(mpi::basic_type(mr.recv_basic).name),
                        "MPI-4.1 §6.2.2: the type signatures of sendtype and recvtype must match");
  std::int64_t bytes = count * type->size();
  mpi::TypedBuffer s{&rank.memory(), src, count, type.get()};
  mpi::TypedBuffer d{&rank.memory(), dst, count2, type2.get()};
  mpi::check_access(s, bytes, "sendbuf");
  mpi::check_access(d, bytes, "recvbuf");
  if (rank.world().payload() == mpi::PayloadMode::data) mpi::copy_typed(s, d, bytes);
  sim::SimTime cost = rank.world().model().copy_time(static_cast<std::uint64_t>(bytes));
  if (cost > sim::SimTime{}) co_await rank.compute(cost);
}

}  // namespace mpisim::coll
