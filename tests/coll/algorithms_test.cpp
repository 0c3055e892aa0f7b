// Every registered algorithm, on every communicator size of the matrix, with and
// without MPI_IN_PLACE (where the collective has it), with a commutative and a
// non-commutative operation (for the reductions), on a dense and a strided
// derived datatype: each run is verified by the coordinator against the
// standard's definition (model/coll/reference.cpp), so a wrong byte anywhere
// fails the test with the combination that produced it.
#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <exception>
#include <string>

#include "model/coll/algorithms.hpp"
#include "model/coll/coordinator.hpp"
#include "model/mpi/type_constructors.hpp"
#include "model/net/hockney.hpp"
#include "model/net/network_file.hpp"
#include "sim/engine.hpp"

using namespace mpisim;
using coll::Collective;

namespace {

struct Case {
  const coll::Algorithm* alg;
  int p;
  bool in_place;
  mpi::OpRef op;
  mpi::TypeRef type;
  bool nonblocking = false;  // two calls in flight at once, as nonblocking collectives, then one wait for both
  std::uint64_t eager_limit = 64;  // bytes: both protocols appear
  int stagger = 0;  // rank r starts after (p - r) or r computing steps (-1, 1), or all at once (0)
  std::int64_t count = 2;  // elements per block (or of the buffer)
  int root = -1;           // -1: p / 3
  const char* network = nullptr;  // a network file's text (nodes of several ranks); null: Hockney
};

const std::string kName = "buf";
// Added to every buffer's salt: the second of two calls in flight gets other data.
int salt_base = 0;

// A buffer of `count` elements of t, its bytes filled with a pattern of the rank.
mpi::Address buffer(mpi::Rank& r, std::int64_t count, const mpi::TypeRef& t, int salt) {
  mpi::Address at = r.memory().allocate(&kName, t, count, mpi::PayloadMode::data);
  mpi::Allocation* a = r.memory().find(at, 0);
  if (a && a->data)
    for (std::int64_t k = 0; k + 4 <= a->bytes; k += 4) {
      std::int32_t v = static_cast<std::int32_t>((r.id() + 1) * 7919 + (salt + salt_base) * 131 + k / 4) % 1000 - 500;
      std::memcpy(a->data.get() + k, &v, 4);
    }
  return at;
}

bool has_in_place(Collective c) { return c != Collective::barrier && c != Collective::bcast; }

// The arguments of rank `me` for this case (block counts: 2 elements; v forms: 1 + (i mod 3), with gaps).
coll::CollArgs args_for(const Case& k, mpi::Rank& r, const mpi::Communicator& world, int me) {
  coll::CollArgs a;
  a.kind = k.alg->collective;
  a.comm = &world;
  a.me = me;
  a.p = k.p;
  a.root = k.root >= 0 ? k.root : k.p / 3;
  a.instance = 0;
  const int p = k.p;
  const auto& t = k.type;
  const std::int64_t c = k.count;
  const bool root = coll::rooted(a.kind) && me == a.root;
  auto vcount = [&](int i) { return std::int64_t{1} + i % 3; };
  auto vdispls = [&](auto count) {  // a gap of one element after each block
    std::vector<std::int64_t> d;
    std::int64_t at = 0;
    for (int i = 0; i < p; ++i) d.push_back(at), at += count(i) + 1;
    return d;
  };
  auto vcounts = [&](auto count) {
    std::vector<std::int64_t> v;
    for (int i = 0; i < p; ++i) v.push_back(count(i));
    return v;
  };
  auto span = [&](const std::vector<std::int64_t>& counts, const std::vector<std::int64_t>& displs) {
    std::int64_t n = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) n = std::max(n, displs[i] + counts[i]);
    return n;
  };
  if (coll::reduces(a.kind)) a.op = k.op;
  switch (a.kind) {
    case Collective::barrier: break;
    case Collective::bcast:
      a.recvcount = c, a.recvtype = t, a.recvbuf = buffer(r, c, t, 1);
      break;
    case Collective::gather:
    case Collective::gatherv:
      a.sendtype = a.recvtype = t;
      a.sendcount = a.kind == Collective::gather ? c : vcount(me);
      a.sendbuf = k.in_place && root ? coll::kInPlace : buffer(r, a.sendcount, t, 2);
      if (root) {
        if (a.kind == Collective::gather) {
          a.recvcount = c;
          a.recvbuf = buffer(r, p * c, t, 3);
        } else {
          a.per_process().recvcounts = vcounts(vcount);
          a.per_process().rdispls = vdispls(vcount);
          a.recvbuf = buffer(r, span(a.recvcounts(), a.rdispls()), t, 3);
        }
      }
      break;
    case Collective::scatter:
    case Collective::scatterv:
      a.sendtype = a.recvtype = t;
      a.recvcount = a.kind == Collective::scatter ? c : vcount(me);
      a.recvbuf = k.in_place && root ? coll::kInPlace : buffer(r, a.recvcount, t, 2);
      if (root) {
        if (a.kind == Collective::scatter) {
          a.sendcount = c;
          a.sendbuf = buffer(r, p * c, t, 3);
        } else {
          a.per_process().sendcounts = vcounts(vcount);
          a.per_process().sdispls = vdispls(vcount);
          a.sendbuf = buffer(r, span(a.sendcounts(), a.sdispls()), t, 3);
        }
      }
      break;
    case Collective::allgather:
    case Collective::allgatherv:
      a.sendtype = a.recvtype = t;
      if (a.kind == Collective::allgather) {
        a.recvcount = a.sendcount = c;
        a.recvbuf = buffer(r, p * c, t, 4);
      } else {
        a.sendcount = vcount(me);
        a.per_process().recvcounts = vcounts(vcount);
        a.per_process().rdispls = vdispls(vcount);
        a.recvbuf = buffer(r, span(a.recvcounts(), a.rdispls()), t, 4);
      }
      a.sendbuf = k.in_place ? coll::kInPlace : buffer(r, a.sendcount, t, 5);
      break;
    case Collective::alltoall:
      a.sendtype = a.recvtype = t;
      a.sendcount = a.recvcount = c;
      a.recvbuf = buffer(r, p * c, t, 6);
      a.sendbuf = k.in_place ? coll::kInPlace : buffer(r, p * c, t, 7);
      break;
    case Collective::alltoallv:
    case Collective::alltoallw: {
      auto pair_count = [&](int j) { return std::int64_t{1} + (me + j) % 3; };  // symmetric in (me, j)
      a.per_process().recvcounts = vcounts(pair_count);
      a.per_process().rdispls = vdispls(pair_count);
      const std::int64_t n = span(a.recvcounts(), a.rdispls());
      if (a.kind == Collective::alltoallw) {
        // Alternate the dense and the strided type per block; displacements in bytes.
        mpi::TypeRef other = mpi::type_vector(4, 1, 2, mpi::predefined_type("MPI_INT"), "strided");
        other->commit();
        for (int j = 0; j < p; ++j) a.per_process().recvtypes.push_back((me + j) % 2 ? t : other);
        for (auto& d : a.per_process().rdispls) d *= std::max(t->extent(), other->extent());
        a.recvbuf = buffer(r, n * std::max(t->extent(), other->extent()) / t->extent() + 1, t, 6);
      } else {
        a.recvtype = t;
        a.recvbuf = buffer(r, n, t, 6);
      }
      if (k.in_place) {
        a.sendbuf = coll::kInPlace;
      } else {
        a.per_process().sendcounts = a.recvcounts();
        a.per_process().sdispls = a.rdispls();
        a.per_process().sendtypes = a.recvtypes();
        a.sendtype = a.recvtype;
        a.sendbuf = a.kind == Collective::alltoallw ? buffer(r, n * 8, t, 7) : buffer(r, n, t, 7);
      }
      break;
    }
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::scan:
    case Collective::exscan: {
      a.sendtype = a.recvtype = t;
      a.sendcount = a.recvcount = c;
      const bool here = a.kind != Collective::reduce || root;
      const bool in_place = k.in_place && here;
      if (here) a.recvbuf = buffer(r, c, t, 8);
      a.sendbuf = in_place ? coll::kInPlace : buffer(r, c, t, 9);
      break;
    }
    case Collective::reduce_scatter_block:
    case Collective::reduce_scatter: {
      a.sendtype = a.recvtype = t;
      if (a.kind == Collective::reduce_scatter_block) a.recvcount = c;
      else a.per_process().recvcounts = vcounts(vcount);
      std::int64_t total = 0;
      for (int i = 0; i < p; ++i) total += a.recv_count(i);
      a.sendcount = total;
      a.recvbuf = buffer(r, k.in_place ? total : a.recv_count(me), t, 8);
      a.sendbuf = k.in_place ? coll::kInPlace : buffer(r, total, t, 9);
      break;
    }
    default: break;  // the neighbourhood collectives need a topology: tests/c/neighbors.c, scenarios
  }
  return a;
}

// Two nonblocking calls started back to back (activities of the rank, with the
// typed runtime alone), then waited for together.
sim::Task<void> two_in_flight(coll::Coordinator& coord, mpi::Rank& rank, coll::CollArgs first,
                              coll::CollArgs second, const coll::Algorithm& alg) {
  mpi::Request* reqs[2];
  reqs[0] = coord.start(rank, std::move(first), alg);
  reqs[1] = coord.start(rank, std::move(second), alg);
  co_await rank.wait_all(reqs);
}

// One blocking call, after `delay` of computing.
sim::Task<void> after(coll::Coordinator& coord, mpi::Rank& rank, coll::CollArgs args, const coll::Algorithm& alg,
                      sim::SimTime delay) {
  co_await rank.compute(delay);
  co_await coord.run(rank, std::move(args), alg);
}

// Runs one case; returns the failure's text, or "" when every rank verified.
// `deferred`: set to what the exchanges' data took (mpi::Deferred).
std::string run_case(const Case& k, mpi::World::DeferralCounts* deferred = nullptr) {
  sim::Engine engine;
  net::HockneyParams hp;
  hp.alpha_ps = 1e6;
  hp.beta_ps_per_byte = 100;
  hp.gamma_ps_per_byte = 10;
  hp.eager_limit = k.eager_limit;
  net::Hockney hockney(hp);
  net::Network file;
  if (k.network) file = net::parse_network(k.network, "net.json");
  net::CostModel& model = k.network ? *file.model : hockney;
  sim::Trace trace(sim::TraceLevel::summary);
  mpi::World world(engine, model, trace, static_cast<std::uint32_t>(k.p), mpi::PayloadMode::data);
  coll::Coordinator coord(world, /*verify=*/true);
  for (int r = 0; r < k.p; ++r) {
    mpi::Rank& rank = world.rank(static_cast<std::uint32_t>(r));
    if (!k.nonblocking) {
      if (k.stagger == 0) {
        engine.spawn(coord.run(rank, args_for(k, rank, world.comm_world(), r), *k.alg));
      } else {
        const int steps = k.stagger > 0 ? r : k.p - r;
        engine.spawn(after(coord, rank, args_for(k, rank, world.comm_world(), r), *k.alg,
                           sim::SimTime{static_cast<std::int64_t>(steps) * 700'000}));
      }
      continue;
    }
    coll::CollArgs first = args_for(k, rank, world.comm_world(), r);
    salt_base = 17;
    coll::CollArgs second = args_for(k, rank, world.comm_world(), r);
    salt_base = 0;
    first.form = second.form = coll::Form::nonblocking;
    second.instance = 1;
    engine.spawn(two_in_flight(coord, rank, std::move(first), std::move(second), *k.alg));
  }
  engine.run();
  if (deferred) *deferred = world.deferral_counts();
  std::string out;
  if (const auto& f = engine.failure()) {
    try {
      std::rethrow_exception(f->error);
    } catch (const std::exception& e) {
      out = "rank " + std::to_string(f->process) + ": " + e.what();
    }
  } else if (engine.unfinished_count() > 0) {
    out = std::to_string(engine.unfinished_count()) + " ranks never finished";
  } else if (!world.pending_activities().empty()) {
    out = std::to_string(world.pending_activities().size()) + " nonblocking calls never finished";
  }
  world.abandon_activities();
  engine.destroy_processes();
  return out;
}

}  // namespace

TEST_CASE("every registered algorithm gives the standard's result on every size, in place or not, any op, any type") {
  const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 32};
  mpi::TypeRef dense = mpi::type_contiguous(4, mpi::predefined_type("MPI_INT"), "four_ints");
  mpi::TypeRef strided = mpi::type_vector(4, 1, 2, mpi::predefined_type("MPI_INT"), "strided_ints");
  dense->commit();
  strided->commit();
  const mpi::OpRef ops[] = {mpi::predefined_op("MPI_SUM"), mpi::make_user_op("matrix", "matrix_product_2x2", false)};
  int runs = 0;
  for (const auto& alg : coll::algorithms()) {
    for (int p : sizes) {
      if (alg.restrictions.power_of_two_only && (p & (p - 1)) != 0) continue;
      if (alg.restrictions.two_only && p != 2) continue;
      if (alg.restrictions.intercomm) continue;  // intercomm_test.cpp runs these
      if (alg.restrictions.topology) continue;   // need a topology communicator: tests/c/neighbors.c
      for (bool in_place : {false, true}) {
        if (in_place && !has_in_place(alg.collective)) continue;
        for (const auto& op : ops) {
          if (!coll::reduces(alg.collective) && op != ops[0]) continue;
          if (alg.restrictions.commutative_only && !op->commutative) continue;
          for (const auto& type : {dense, strided}) {
            Case k{&alg, p, in_place, op, type};
            std::string failure = run_case(k);
            INFO(coll::collective_name(alg.collective), " ", alg.name, " p=", p, " in_place=", in_place, " op=",
                 op->name, " type=", type->name());
            CHECK(failure == "");
            ++runs;
          }
        }
      }
    }
  }
  MESSAGE(runs, " verified runs");
}

TEST_CASE("the SMP-aware algorithms give the standard's result whatever the placement, root and size") {
  // Nodes of 3 consecutive ranks, of 4 ranks dealt round robin, and an uneven list;
  // sizes on MPI_Bcast's three paths (short, medium on a power-of-two p, long).
  const char* const networks[] = {
      R"({"mpisim-network": 1, "model": "topology", "topology": {"kind": "crossbar"}, "link": {"latency": "1us", "beta": "1ns"},
          "intra_node": {"latency": "100ns", "beta": "10ps"}, "placement": {"kind": "block", "ranks_per_node": 3}})",
      R"({"mpisim-network": 1, "model": "topology", "topology": {"kind": "crossbar"}, "link": {"latency": "1us", "beta": "1ns"},
          "placement": {"kind": "round_robin", "ranks_per_node": 4}})",
      R"({"mpisim-network": 1, "model": "topology", "topology": {"kind": "crossbar"}, "link": {"latency": "1us", "beta": "1ns"},
          "placement": {"kind": "list", "nodes": [2, 0, 0, 1, 2, 2, 2, 0, 1, 3, 3, 0, 0, 0, 1, 2]}})"};
  mpi::TypeRef ints = mpi::predefined_type("MPI_INT");
  const mpi::OpRef sum = mpi::predefined_op("MPI_SUM");
  int runs = 0;
  for (const auto& alg : coll::algorithms()) {
    if (alg.name != "smp") continue;
    for (const char* net : networks)
      for (int p : {1, 2, 5, 8, 16})
        for (std::int64_t count : {2, 4000, 140000}) {
          if (alg.collective != Collective::bcast && count > 4000) continue;
          for (int root : {0, p - 1, p / 2})
            for (bool in_place : {false, true}) {
              if (in_place && !has_in_place(alg.collective)) continue;
              Case k{&alg, p, in_place, sum, ints};
              k.count = count;
              k.root = root;
              k.network = net;
              k.eager_limit = 1 << 20;
              INFO(coll::collective_name(alg.collective), " p=", p, " count=", count, " root=", root,
                   " in_place=", in_place, " network=", net);
              CHECK(run_case(k) == "");
              ++runs;
            }
        }
  }
  CHECK(runs > 0);
  MESSAGE(runs, " verified runs");
}

TEST_CASE("every registered algorithm runs as a nonblocking collective, two calls in flight at once") {
  // Each pair of calls shares the communicator, their messages the same peers:
  // both must match their own messages and give the standard's result.
  const int sizes[] = {1, 2, 3, 5, 8, 12, 17};
  mpi::TypeRef strided = mpi::type_vector(4, 1, 2, mpi::predefined_type("MPI_INT"), "strided_ints");
  strided->commit();
  const mpi::OpRef noncommutative = mpi::make_user_op("matrix", "matrix_product_2x2", false);
  const mpi::OpRef sum = mpi::predefined_op("MPI_SUM");
  int runs = 0;
  for (const auto& alg : coll::algorithms()) {
    if (alg.restrictions.intercomm || alg.restrictions.topology) continue;
    for (int p : sizes) {
      if (alg.restrictions.power_of_two_only && (p & (p - 1)) != 0) continue;
      if (alg.restrictions.two_only && p != 2) continue;
      const mpi::OpRef& op = alg.restrictions.commutative_only ? sum : noncommutative;
      Case k{&alg, p, false, coll::reduces(alg.collective) ? op : sum, strided, true};
      INFO(coll::call_name(alg.collective, coll::Form::nonblocking), " ", alg.name, " p=", p);
      CHECK(run_case(k) == "");
      ++runs;
    }
  }
  MESSAGE(runs, " verified pairs of nonblocking calls");
}

TEST_CASE("reductions whose received data waits in the partner's buffer give the standard's result") {
  // Every message rendezvous, so the exchanges' data may stay in the sender's
  // buffer until the combine reads it there, or the sender, resuming first, does
  // the receiver's combine, or both partners' in one pass (mpi::Deferred). Ranks
  // start at once, or staggered either way, so that either partner of a pair
  // resumes first; two calls in flight make a rank resume from one call's
  // exchange while the other's data is held.
  const int sizes[] = {2, 3, 4, 5, 7, 8, 12, 16};
  mpi::TypeRef dense = mpi::type_contiguous(4, mpi::predefined_type("MPI_INT"), "four_ints");
  dense->commit();
  const mpi::OpRef noncommutative = mpi::make_user_op("matrix", "matrix_product_2x2", false);
  const mpi::OpRef sum = mpi::predefined_op("MPI_SUM");
  std::map<std::string, mpi::World::DeferralCounts> by_algorithm;
  for (const auto& alg : coll::algorithms()) {
    if (!coll::reduces(alg.collective) || alg.restrictions.intercomm || alg.restrictions.topology) continue;
    for (int p : sizes) {
      if (alg.restrictions.power_of_two_only && (p & (p - 1)) != 0) continue;
      if (alg.restrictions.two_only && p != 2) continue;
      for (const mpi::OpRef& op : {sum, noncommutative}) {
        if (alg.restrictions.commutative_only && !op->commutative) continue;
        for (bool in_place : {false, true})
          for (int stagger : {0, 1, -1})
            for (bool nonblocking : {false, true}) {
              if (nonblocking && (stagger != 0 || in_place)) continue;
              Case k{&alg, p, in_place, op, dense, nonblocking, /*eager_limit=*/0, stagger};
              mpi::World::DeferralCounts counts;
              INFO(coll::collective_name(alg.collective), " ", alg.name, " p=", p, " op=", op->name,
                   " in_place=", in_place, " stagger=", stagger, " nonblocking=", nonblocking);
              CHECK(run_case(k, &counts) == "");
              // A nonblocking call's program may show its buffers meanwhile: no combine before its time.
              if (nonblocking) CHECK(counts.combined + counts.paired == 0);
              auto& total = by_algorithm[std::string(coll::collective_name(alg.collective)) + " " + std::string(alg.name)];
              total.held += counts.held, total.combined += counts.combined, total.paired += counts.paired;
            }
      }
    }
  }
  // Each way is taken: data reduced where it lies, the receiver's combine done by
  // the sender, both partners' in one pass.
  CHECK(by_algorithm["MPI_Allreduce recursive_doubling"].paired > 0);
  CHECK(by_algorithm["MPI_Allreduce recursive_doubling"].held > by_algorithm["MPI_Allreduce recursive_doubling"].paired);
  CHECK(by_algorithm["MPI_Allreduce rabenseifner"].combined > 0);
  CHECK(by_algorithm["MPI_Allreduce ring"].combined > 0);
  CHECK(by_algorithm["MPI_Reduce_scatter pairwise"].combined > 0);
  for (const auto& [name, counts] : by_algorithm) MESSAGE(name, ": ", counts.held, " held, ", counts.combined, " combined early, ", counts.paired, " paired");
}

namespace {
// An "algorithm" that moves nothing: verification must catch it.
sim::Task<void> broken_bcast(mpi::Rank&, const coll::CollArgs&) { co_return; }
// One that leaves one element short: a ring allgather that stops a step early.
sim::Task<void> short_allgather(mpi::Rank& rank, const coll::CollArgs& a) {
  coll::CollArgs b = a;
  b.p = a.p - 1;  // the last block never arrives
  if (a.me < b.p) co_await coll::allgather::ring(rank, b);
}
}  // namespace

TEST_CASE("verification reports an algorithm whose result differs from the definition") {
  mpi::TypeRef dense = mpi::type_contiguous(4, mpi::predefined_type("MPI_INT"), "four_ints");
  dense->commit();
  const coll::Algorithm bcast{Collective::bcast, "broken", {}, "moves nothing", &broken_bcast};
  std::string f = run_case(Case{&bcast, 4, false, nullptr, dense});
  INFO(f);
  CHECK(f.find("not the standard's definition") != std::string::npos);
  CHECK(f.find("MPI_Bcast") != std::string::npos);
  const coll::Algorithm allgather{Collective::allgather, "short", {}, "one block short", &short_allgather};
  f = run_case(Case{&allgather, 5, false, nullptr, dense});
  CHECK(f.find("recvbuf block") != std::string::npos);
}
