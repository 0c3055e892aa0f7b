#include "model/coll/collective.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace mpisim::coll {

static_assert(sizeof(CollArgs) <= 136, "a CollArgs is 136 bytes: what only some calls need lives out of line "
                                       "(docs/architecture.md)");

namespace {
constexpr std::array<std::string_view, kCollectives> kNames = {
    "MPI_Barrier",   "MPI_Bcast",     "MPI_Gather",    "MPI_Gatherv",   "MPI_Scatter",
    "MPI_Scatterv",  "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
    "MPI_Alltoallw", "MPI_Reduce",    "MPI_Allreduce", "MPI_Reduce_scatter_block", "MPI_Reduce_scatter",
    "MPI_Scan",      "MPI_Exscan",    "MPI_Neighbor_allgather", "MPI_Neighbor_allgatherv", "MPI_Neighbor_alltoall",
    "MPI_Neighbor_alltoallv", "MPI_Neighbor_alltoallw"};
constexpr std::array<const char*, kCollectives> kNonblockingNames = {
    "MPI_Ibarrier",   "MPI_Ibcast",     "MPI_Igather",    "MPI_Igatherv",   "MPI_Iscatter",
    "MPI_Iscatterv",  "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv",
    "MPI_Ialltoallw", "MPI_Ireduce",    "MPI_Iallreduce", "MPI_Ireduce_scatter_block", "MPI_Ireduce_scatter",
    "MPI_Iscan",      "MPI_Iexscan",    "MPI_Ineighbor_allgather", "MPI_Ineighbor_allgatherv",
    "MPI_Ineighbor_alltoall", "MPI_Ineighbor_alltoallv", "MPI_Ineighbor_alltoallw"};
constexpr std::array<const char*, kCollectives> kPersistentNames = {
    "MPI_Barrier_init",   "MPI_Bcast_init",     "MPI_Gather_init",    "MPI_Gatherv_init",   "MPI_Scatter_init",
    "MPI_Scatterv_init",  "MPI_Allgather_init", "MPI_Allgatherv_init", "MPI_Alltoall_init", "MPI_Alltoallv_init",
    "MPI_Alltoallw_init", "MPI_Reduce_init",    "MPI_Allreduce_init", "MPI_Reduce_scatter_block_init",
    "MPI_Reduce_scatter_init", "MPI_Scan_init",  "MPI_Exscan_init", "MPI_Neighbor_allgather_init",
    "MPI_Neighbor_allgatherv_init", "MPI_Neighbor_alltoall_init", "MPI_Neighbor_alltoallv_init",
    "MPI_Neighbor_alltoallw_init"};
}  // namespace

std::string_view collective_name(Collective c) { return kNames[static_cast<std::size_t>(c)]; }
const char* call_name(Collective c, Form f) {
  const auto i = static_cast<std::size_t>(c);
  switch (f) {
    case Form::nonblocking: return kNonblockingNames[i];
    case Form::persistent: return kPersistentNames[i];
    default: return kNames[i].data();  // the literals are NUL-terminated
  }
}

bool collective_by_name(std::string_view name, Collective* out) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) {
      *out = static_cast<Collective>(i);
      return true;
    }
  return false;
}

bool reduces(Collective c) {
  switch (c) {
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter:
    case Collective::scan:
    case Collective::exscan: return true;
    default: return false;
  }
}


bool rooted(Collective c) {
  switch (c) {
    case Collective::bcast:
    case Collective::gather:
    case Collective::gatherv:
    case Collective::scatter:
    case Collective::scatterv:
    case Collective::reduce: return true;
    default: return false;
  }
}

const PerProcess CollArgs::kUniform{};

std::int64_t CollArgs::send_offset(int i) const {
  auto k = static_cast<std::size_t>(i);
  if (!sendtypes().empty()) return sdispls()[k];
  if (!sdispls().empty()) return sdispls()[k] * sendtype->extent();
  return i * sendcount * sendtype->extent();
}

std::int64_t CollArgs::recv_offset(int i) const {
  auto k = static_cast<std::size_t>(i);
  if (!recvtypes().empty()) return rdispls()[k];
  if (!rdispls().empty()) return rdispls()[k] * recvtype->extent();
  return i * recvcount * recvtype->extent();
}

Request* post_send(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int dest,
                   bool pinned) {
  Request* send = r.isend_collective(typed(r, at, count, t), t, dest, tag_of(a), *a.comm, a.instance, pinned);
  r.test(send, nullptr);  // frees it and clears the handle when it is complete now
  return send;
}

Request* post_recv(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int source,
                   mpi::Deferred* got) {
  return r.irecv_collective(typed(r, at, count, t), t, source, tag_of(a), *a.comm, got);
}

Rank::WaitOne send(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int dest) {
  return r.wait(post_send(r, a, at, count, t, dest));
}

Rank::WaitOne ssend(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int dest) {
  return r.wait(r.isend_collective(typed(r, at, count, t), t, dest, tag_of(a), *a.comm, a.instance, false,
                                   mpi::SendMode::synchronous));
}

Rank::WaitOne recv(Rank& r, const CollArgs& a, Address at, std::int64_t count, const TypeRef& t, int source) {
  return r.wait(post_recv(r, a, at, count, t, source));
}

SendRecv sendrecv(Rank& r, const CollArgs& a, Address sat, std::int64_t scount, const TypeRef& st, int dest,
                  Address rat, std::int64_t rcount, const TypeRef& rt, int source) {
  Request* recv_req = post_recv(r, a, rat, rcount, rt, source);
  return SendRecv(r, recv_req, post_send(r, a, sat, scount, st, dest));
}

SendRecv exchange(Rank& r, const CollArgs& a, Address sat, std::int64_t scount, const TypeRef& st, int dest,
                  Address rat, std::int64_t rcount, const TypeRef& rt, int source, mpi::Deferred& got,
                  const mpi::Op& op, Address inout, bool inout_first) {
  return exchange(r, a, sat, scount, st, dest, rat, rcount, rt, source, got, op, inout, inout, inout_first);
}

SendRecv exchange(Rank& r, const CollArgs& a, Address sat, std::int64_t scount, const TypeRef& st, int dest,
                  Address rat, std::int64_t rcount, const TypeRef& rt, int source, mpi::Deferred& got,
                  const mpi::Op& op, Address inout, Address base, bool inout_first) {
  if (r.world().payload() == mpi::PayloadMode::data)
    got.expect(r.world(), r.id(), op, typed(r, inout, rcount, rt), typed(r, base, rcount, rt), inout_first,
               typed(r, sat, scount, st), /*early=*/!a.nonblocking());
  Request* recv_req = post_recv(r, a, rat, rcount, rt, source, &got);
  return SendRecv(r, recv_req, post_send(r, a, sat, scount, st, dest, /*pinned=*/true));
}

namespace {
// The model's reduction time for `bytes`, as an awaiter (none when it is zero).
Rank::Compute reduce_wait(Rank& rank, std::int64_t bytes) {
  sim::SimTime cost = rank.world().model().reduce_time(static_cast<std::uint64_t>(bytes));
  return cost > sim::SimTime{} ? rank.compute(cost) : Rank::Compute{};
}
}  // namespace

Rank::Compute local_copy(Rank& rank, Address src, std::int64_t count, const TypeRef& type, Address dst,
                         std::int64_t count2, const TypeRef& type2) {
  mpi::MatchResult mr = mpi::match_signatures(*type, count, *type2, count2);
  if (mr.kind == mpi::MatchResult::truncated)
    throw mpi::MpiError(mpi::ErrorClass::truncate, "recvcount",
                        "the process's own block (" + std::to_string(count) + " x " + type->name() +
                            ") is longer than its receive buffer (" + std::to_string(count2) + " x " + type2->name() + ")",
                        "MPI-4.1 §6.1: the amount of data sent must equal the amount received, pairwise between "
                        "processes");
  if (mr.kind == mpi::MatchResult::mismatch)
    throw mpi::MpiError(mpi::ErrorClass::type, "recvtype",
                        "the process's own block carries " + std::string(mpi::basic_type(mr.send_basic).name) +
                            " where its recvtype expects " + std::string(mpi::basic_type(mr.recv_basic).name),
                        "MPI-4.1 §6.1: the type signatures of sendtype and recvtype must match");
  std::int64_t bytes = count * type->size();
  mpi::TypedBuffer s = typed(rank, src, count, type);
  mpi::TypedBuffer d = typed(rank, dst, count2, type2);
  mpi::check_access(s, bytes, "sendbuf");
  mpi::check_access(d, bytes, "recvbuf");
  if (rank.world().payload() == mpi::PayloadMode::data) mpi::copy_typed(s, d, bytes);
  sim::SimTime cost = rank.world().model().copy_time(static_cast<std::uint64_t>(bytes));
  return cost > sim::SimTime{} ? rank.compute(cost) : Rank::Compute{};
}

Rank::Compute local_copy_unmoved(Rank& rank, Address src, std::int64_t count, const TypeRef& type, Address dst) {
  const std::int64_t bytes = count * type->size();
  mpi::check_access(typed(rank, src, count, type), bytes, "sendbuf");
  mpi::check_access(typed(rank, dst, count, type), bytes, "recvbuf");
  sim::SimTime cost = rank.world().model().copy_time(static_cast<std::uint64_t>(bytes));
  return cost > sim::SimTime{} ? rank.compute(cost) : Rank::Compute{};
}

bool unseen_until_return(Rank& rank, const CollArgs& a) {
  const mpi::World& w = rank.world();
  return !a.nonblocking() && w.payload() == mpi::PayloadMode::data && !w.observes_deliveries() && !w.tracks_origins();
}

Rank::Compute combine(Rank& rank, const mpi::Op& op, Address in, Address inout, std::int64_t count,
                      const TypeRef& type, bool inout_first) {
  const std::int64_t bytes = count * type->size();
  if (bytes == 0) return {};
  if (rank.world().payload() == mpi::PayloadMode::data) {
    mpi::TypedBuffer i = typed(rank, in, count, type), io = typed(rank, inout, count, type);
    mpi::reduce_local(op, i, io, inout_first);
    if (rank.world().tracks_origins()) mpi::combine_origins(i, io, bytes, rank.world().provenance());
  }
  return reduce_wait(rank, bytes);
}

Rank::Compute combine(Rank& rank, const mpi::Op& op, mpi::Deferred& got, Address in, Address inout,
                      std::int64_t count, const TypeRef& type, bool inout_first) {
  return combine(rank, op, got, in, inout, inout, count, type, inout_first);
}

Rank::Compute combine(Rank& rank, const mpi::Op& op, mpi::Deferred& got, Address in, Address inout, Address base,
                      std::int64_t count, const TypeRef& type, bool inout_first) {
  const std::int64_t bytes = count * type->size();
  const mpi::TypedBuffer out = typed(rank, inout, count, type), from = typed(rank, base, count, type);
  if (got.announced() && got.combined()) {
    if (!got.expected(op, out, from, inout_first))
      throw std::logic_error("a combine after an exchange differs from the one the exchange announced");
  } else if (!got.announced() || !got.held() || got.from().count != count || got.from().type != type.get()) {
    // The data is at `in`: received there (with no combine announced: sizes mode),
    // or copied there now (not what was held).
    if (got.announced()) got.land();
    if (base != inout && rank.world().payload() == mpi::PayloadMode::data) mpi::copy_typed(from, out, bytes);
    return combine(rank, op, in, inout, count, type, inout_first);
  } else if (base == inout) {
    mpi::reduce_local(op, got.from(), out, inout_first);
  } else {
    mpi::reduce_into(op, got.from(), from, out, inout_first);
  }
  got.release();
  return reduce_wait(rank, bytes);
}

Scratch::Scratch(Rank& rank, std::int64_t count, const TypeRef& type) : rank_(&rank) {
  std::int64_t bytes = count <= 0 ? 0 : type->true_extent() + (count - 1) * type->extent();
  base_ = rank.memory().scratch(bytes, rank.world().payload());
  addr_ = base_ - type->true_lb();
}

Scratch::~Scratch() { rank_->memory().release(base_); }

Fold::Fold(int p, int me) : pof2(largest_pof2(p)), rem(p - largest_pof2(p)) {
  if (me < 2 * rem) newrank = me % 2 == 0 ? -1 : me / 2;
  else newrank = me - rem;
}

bool low_group(const Rank& rank, const CollArgs& a) {
  return a.comm->group(rank.id())->world(0) < a.comm->remote_group()->world(0);
}

int largest_pof2(int p) {
  int k = 1;
  while (k * 2 <= p) k *= 2;
  return k;
}

}  // namespace mpisim::coll
