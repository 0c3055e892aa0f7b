#include "model/coll/registry.hpp"

#include <array>
#include <stdexcept>

#include "model/coll/algorithms.hpp"

namespace mpisim::coll {
namespace {

using C = Collective;
constexpr Restrictions any{};
constexpr Restrictions commutative{true, false};
constexpr Restrictions pof2{false, true};
constexpr Restrictions inter{false, false, true};
constexpr Restrictions topology{false, false, false, true};
constexpr Restrictions two{false, false, false, false, true};

const std::array kAlgorithms = {
    Algorithm{C::barrier, "dissemination", any, "ceil(lg p) rounds; in round k rank r signals r + 2^k", &barrier::dissemination,
              {"MPIR_Barrier_intra_dissemination", 4}},
    Algorithm{C::barrier, "binomial", any, "report up a binomial tree to rank 0, released down it", &barrier::binomial},
    Algorithm{C::barrier, "linear", any, "every rank reports to rank 0, which then releases each (Open MPI)", &barrier::linear,
              {"", 1}},
    Algorithm{C::barrier, "two_proc", two, "the two ranks exchange an empty message (Open MPI)", &barrier::two_proc,
              {"", 5}},
    Algorithm{C::barrier, "tree", any, "up a binomial tree to rank 0 and back down, pairs by rank ^ 2^k (Open MPI)",
              &barrier::tree,
              {"", 6}},
    Algorithm{C::barrier, "recursive_doubling", any, "lg q pairwise exchanges among the first q = 2^k ranks, the others folded in (Open MPI)",
              &barrier::recursive_doubling,
              {"", 3}},
    Algorithm{C::barrier, "double_ring", any, "an empty message twice round the ring from rank 0, synchronous the second time (Open MPI)",
              &barrier::double_ring,
              {"", 2}},
    Algorithm{C::barrier, "inter", inter, "barrier in each group, the two leaders exchange, barrier again (MPICH)", &barrier::inter},
    Algorithm{C::bcast, "binomial", any, "binomial tree from the root: ceil(lg p) rounds of the whole buffer", &bcast::binomial,
              {"MPIR_Bcast_intra_binomial", 6}},
    Algorithm{C::bcast, "scatter_recursive_doubling", pof2, "binomial scatter of p chunks, then recursive-doubling allgather",
              &bcast::scatter_recursive_doubling,
              {"MPIR_Bcast_intra_scatter_recursive_doubling_allgather", 8}},
    Algorithm{C::bcast, "scatter_ring", any, "binomial scatter of p chunks, then ring allgather", &bcast::scatter_ring,
              {"MPIR_Bcast_intra_scatter_ring_allgather", 9}},
    Algorithm{C::bcast, "pipelined_chain", any, "a chain from the root, the buffer in segments (\"segment\" bytes, 8 KiB)",
              &bcast::pipelined_chain,
              {"", 3, 8192}},
    Algorithm{C::bcast, "linear", any, "the root sends the buffer to every rank", &bcast::linear,
              {"", 1}},
    Algorithm{C::bcast, "knomial", any, "k-nomial tree from the root (\"radix\" k, 4): each rank sends to its up to (k-1)·log_k p children at once",
              &bcast::knomial,
              {"", 7}},
    Algorithm{C::bcast, "binary_tree", any, "complete binary tree filled level by level from the root, both children sent at once (Open MPI)",
              &bcast::binary_tree,
              {"", 5}},
    Algorithm{C::bcast, "split_binary_tree", any, "each half of the buffer down one subtree of the binary tree, then partners in the two subtrees swap halves (Open MPI)",
              &bcast::split_binary_tree,
              {"", 4}},
    Algorithm{C::bcast, "chain", any, "the whole buffer passed down the chain root, root + 1, ... (Open MPI, unsegmented)",
              &bcast::chain,
              {"", 2}},
    Algorithm{C::bcast, "smp", any, "SMP-aware: to the root's node leader, among node leaders, inside each node (MPICH)",
              &bcast::smp,
              {"MPIR_Bcast_intra_smp", 0}},
    Algorithm{C::bcast, "inter", inter, "the root sends to rank 0 of the other group, which runs a binomial bcast there (MPICH)",
              &bcast::inter},
    Algorithm{C::gather, "binomial", any, "binomial tree: subtrees' blocks travel packed to the root", &gather::binomial,
              {"MPIR_Gather_intra_binomial", 2}},
    Algorithm{C::gather, "linear", any, "every rank sends its block to the root directly", &gather::linear,
              {"", 1}},
    Algorithm{C::gather, "linear_sync", any, "the root takes one rank at a time: an empty message asks for its block (Open MPI)",
              &gather::linear_sync,
              {"", 3}},
    Algorithm{C::gather, "inter_local_gather", inter, "binomial gather to rank 0 of the sending group, one message to the root (MPICH)",
              &gather::inter_local_gather},
    Algorithm{C::gather, "inter_linear", inter, "every process of the other group sends its block to the root", &gather::inter_linear},
    Algorithm{C::gatherv, "linear", any, "every rank sends its block to the root directly", &gather::linear,
              {"MPIR_Gatherv_allcomm_linear", 0}},
    Algorithm{C::gatherv, "inter_linear", inter, "every process of the other group sends its block to the root (MPICH)",
              &gather::inter_linear},
    Algorithm{C::scatter, "binomial", any, "binomial tree: subtrees' blocks travel packed from the root", &scatter::binomial,
              {"MPIR_Scatter_intra_binomial", 2}},
    Algorithm{C::scatter, "linear", any, "the root sends each rank its block directly", &scatter::linear,
              {"", 1}},
    Algorithm{C::scatter, "linear_nb", any, "the root posts a send to each rank in rank order, copying its own block in turn (Open MPI)",
              &scatter::linear_nb,
              {"", 3}},
    Algorithm{C::scatter, "inter_local_scatter", inter, "one message to rank 0 of the other group, a binomial scatter there (MPICH)",
              &scatter::inter_local_scatter},
    Algorithm{C::scatter, "inter_linear", inter, "the root sends each process of the other group its block", &scatter::inter_linear},
    Algorithm{C::scatterv, "linear", any, "the root sends each rank its block directly", &scatter::linear,
              {"MPIR_Scatterv_allcomm_linear", 0}},
    Algorithm{C::scatterv, "inter_linear", inter, "the root sends each process of the other group its block (MPICH)",
              &scatter::inter_linear},
    Algorithm{C::allgather, "recursive_doubling", any, "lg p rounds exchanging all blocks held (fold for other p)",
              &allgather::recursive_doubling,
              {"MPIR_Allgather_intra_recursive_doubling", 3}},
    Algorithm{C::allgather, "bruck", any, "ceil(lg p) rounds sending the first blocks held to r - 2^k", &allgather::bruck,
              {"MPIR_Allgather_intra_brucks", 2}},
    Algorithm{C::allgather, "ring", any, "p - 1 steps passing blocks to the right neighbour", &allgather::ring,
              {"MPIR_Allgather_intra_ring", 4}},
    Algorithm{C::allgather, "neighbor", any, "p/2 steps exchanging pairs of blocks with the left and right neighbours in turn (Open MPI; ring for odd p)",
              &allgather::neighbor,
              {"", 5}},
    Algorithm{C::allgather, "two_proc", two, "the two ranks exchange their blocks (Open MPI)", &allgather::two_proc,
              {"", 6}},
    Algorithm{C::allgather, "inter", inter, "each leader gathers the other group's blocks, then a binomial bcast in each group (MPICH)",
              &allgather::inter},
    Algorithm{C::allgatherv, "recursive_doubling", any, "lg p rounds exchanging all blocks held (fold for other p)",
              &allgather::recursive_doubling,
              {"MPIR_Allgatherv_intra_recursive_doubling", 0}},
    Algorithm{C::allgatherv, "bruck", any, "ceil(lg p) rounds sending the first blocks held to r - 2^k", &allgather::bruck,
              {"MPIR_Allgatherv_intra_brucks", 2}},
    Algorithm{C::allgatherv, "ring", any, "p - 1 steps passing blocks to the right neighbour", &allgather::ring,
              {"MPIR_Allgatherv_intra_ring", 3}},
    Algorithm{C::allgatherv, "neighbor", any, "p/2 steps exchanging pairs of blocks with the left and right neighbours in turn (Open MPI; ring for odd p)",
              &allgather::neighbor,
              {"", 4}},
    Algorithm{C::allgatherv, "two_proc", two, "the two ranks exchange their blocks (Open MPI)", &allgather::two_proc,
              {"", 5}},
    Algorithm{C::allgatherv, "gatherv_bcast", any, "the blocks gathered at rank 0 one after the other, then broadcast as one indexed datatype with Open MPI's bcast (Open MPI's default)",
              &allgather::gatherv_bcast,
              {"", 1}},
    Algorithm{C::allgatherv, "inter", inter, "each leader gathers the other group's blocks, then a binomial bcast in each group (MPICH)",
              &allgather::inter},
    Algorithm{C::alltoall, "bruck", any, "ceil(lg p) rounds of the blocks whose index has bit k set", &alltoall::bruck,
              {"MPIR_Alltoall_intra_brucks", 3}},
    Algorithm{C::alltoall, "linear", any, "every send and receive posted at once", &alltoall::linear,
              {"MPIR_Alltoall_intra_scattered", 1}},
    Algorithm{C::alltoall, "pairwise", any, "p - 1 exchanges with r xor i (or r + i / r - i)", &alltoall::pairwise,
              {"MPIR_Alltoall_intra_pairwise", 2}},
    Algorithm{C::alltoall, "two_proc", two, "the two ranks exchange their blocks (Open MPI)", &alltoall::two_proc,
              {"", 5}},
    Algorithm{C::alltoall, "linear_sync", any, "own block first, receives from r + 1, r + 2, ..., sends to r - 1, r - 2, ..., all at once (Open MPI)",
              &alltoall::linear_sync,
              {"", 4}},
    Algorithm{C::alltoall, "inter", inter, "max(p, q) pairwise steps with remote ranks r + i / r - i (MPICH)", &alltoall::inter},
    Algorithm{C::alltoallv, "linear", any, "every send and receive posted at once", &alltoall::linear,
              {"MPIR_Alltoallv_intra_scattered", 1}},
    Algorithm{C::alltoallv, "pairwise", any, "p - 1 exchanges with r xor i (or r + i / r - i)", &alltoall::pairwise,
              {"", 2}},
    Algorithm{C::alltoallv, "inter", inter, "max(p, q) pairwise steps with remote ranks r + i / r - i (MPICH)", &alltoall::inter},
    Algorithm{C::alltoallw, "linear", any, "every send and receive posted at once", &alltoall::linear,
              {"MPIR_Alltoallw_intra_scattered", 0}},
    Algorithm{C::alltoallw, "pairwise", any, "p - 1 exchanges with r xor i (or r + i / r - i)", &alltoall::pairwise},
    Algorithm{C::alltoallw, "inter", inter, "max(p, q) pairwise steps with remote ranks r + i / r - i (MPICH)", &alltoall::inter},
    Algorithm{C::reduce, "binomial", any, "binomial tree, children combined behind the parent (rooted at 0 if not commutative)",
              &reduce::binomial,
              {"MPIR_Reduce_intra_binomial", 5}},
    Algorithm{C::reduce, "rabenseifner", commutative, "recursive-halving reduce-scatter, then binomial gather to the root",
              &reduce::rabenseifner,
              {"MPIR_Reduce_intra_reduce_scatter_gather", 7}},
    Algorithm{C::reduce, "linear", any, "the root receives every contribution and combines them in rank order", &reduce::linear,
              {"", 1}},
    Algorithm{C::reduce, "binary", commutative, "binary tree filled level by level from the root, each rank combining its two children's (Open MPI)",
              &reduce::binary,
              {"", 4}},
    Algorithm{C::reduce, "chain", commutative, "one chain to the root, each rank combining its contribution into what the next sent (Open MPI's chain and pipeline, unsegmented)",
              &reduce::chain,
              {"", 2}},
    Algorithm{C::reduce, "in_order_binary", any, "binary tree in rank order rooted at rank p - 1, which sends the result to the root (Open MPI; any operation)",
              &reduce::in_order_binary,
              {"", 6}},
    Algorithm{C::reduce, "smp", commutative, "SMP-aware: reduce inside each node, among node leaders, inside the root's node (MPICH)",
              &reduce::smp,
              {"MPIR_Reduce_intra_smp", 0}},
    Algorithm{C::reduce, "inter", inter, "binomial reduce to rank 0 of the other group, one message to the root (MPICH)",
              &reduce::inter},
    Algorithm{C::allreduce, "recursive_doubling", any, "lg p rounds exchanging the whole vector (fold for other p)",
              &allreduce::recursive_doubling,
              {"MPIR_Allreduce_intra_recursive_doubling", 3}},
    Algorithm{C::allreduce, "rabenseifner", commutative, "recursive-halving reduce-scatter, then recursive-doubling allgather",
              &allreduce::rabenseifner,
              {"MPIR_Allreduce_intra_reduce_scatter_allgather", 6}},
    Algorithm{C::allreduce, "ring", commutative, "ring reduce-scatter, then ring allgather", &allreduce::ring,
              {"", 4}},
    Algorithm{C::allreduce, "linear", any, "linear reduce to rank 0, then linear bcast from it (Open MPI's basic_linear)", &allreduce::linear,
              {"", 1}},
    Algorithm{C::allreduce, "reduce_bcast", any, "binomial reduce to rank 0, then binomial bcast", &allreduce::reduce_bcast,
              {"", 2}},
    Algorithm{C::allreduce, "smp", commutative, "SMP-aware: reduce inside each node, allreduce among node leaders, bcast inside each node (MPICH)",
              &allreduce::smp,
              {"MPIR_Allreduce_intra_smp", 0}},
    Algorithm{C::allreduce, "inter", inter, "binomial reduce in each group, the leaders exchange, binomial bcast (MPICH)",
              &allreduce::inter},
    Algorithm{C::reduce_scatter_block, "recursive_halving", commutative, "recursive halving of the vector (fold for other p)",
              &reduce_scatter::recursive_halving,
              {"MPIR_Reduce_scatter_block_intra_recursive_halving", 3}},
    Algorithm{C::reduce_scatter_block, "pairwise", commutative, "p - 1 steps: send block r + i, combine r - i's",
              &reduce_scatter::pairwise,
              {"MPIR_Reduce_scatter_block_intra_pairwise", 0}},
    Algorithm{C::reduce_scatter_block, "recursive_doubling", any, "lg p rounds exchanging all but the blocks of the own subtree, rank order kept",
              &reduce_scatter::recursive_doubling,
              {"MPIR_Reduce_scatter_block_intra_recursive_doubling", 2}},
    Algorithm{C::reduce_scatter_block, "ring", commutative, "p - 1 ring steps of partial blocks", &reduce_scatter::ring},
    Algorithm{C::reduce_scatter_block, "butterfly", commutative, "recursive halving of the vector, then a mirror-permuted exchange of the results (Open MPI)",
              &reduce_scatter::butterfly,
              {"", 4}},
    Algorithm{C::reduce_scatter_block, "reduce_scatterv", any, "binomial reduce to rank 0, then linear scatterv",
              &reduce_scatter::reduce_scatterv,
              {"", 1}},
    Algorithm{C::reduce_scatter_block, "inter", inter, "binomial reduce in each group, the leaders exchange, binomial scatter (MPICH)",
              &reduce_scatter::inter},
    Algorithm{C::reduce_scatter, "recursive_halving", commutative, "recursive halving of the vector (fold for other p)",
              &reduce_scatter::recursive_halving,
              {"MPIR_Reduce_scatter_intra_recursive_halving", 2}},
    Algorithm{C::reduce_scatter, "pairwise", commutative, "p - 1 steps: send block r + i, combine r - i's",
              &reduce_scatter::pairwise,
              // MPICH 4.0.2's pairwise MPI_Reduce_scatter fails on MPI_IN_PLACE (an assertion in its
              // pack), so a tuning file does not name it.
              {"", 0}},
    Algorithm{C::reduce_scatter, "recursive_doubling", any, "lg p rounds exchanging all but the blocks of the own subtree, rank order kept",
              &reduce_scatter::recursive_doubling,
              {"MPIR_Reduce_scatter_intra_recursive_doubling", 0}},
    Algorithm{C::reduce_scatter, "butterfly", commutative, "recursive halving of the vector, then a mirror-permuted exchange of the results (Open MPI)",
              &reduce_scatter::butterfly,
              {"", 4}},
    Algorithm{C::reduce_scatter, "ring", commutative, "p - 1 ring steps of partial blocks", &reduce_scatter::ring,
              {"", 3}},
    Algorithm{C::reduce_scatter, "reduce_scatterv", any, "binomial reduce to rank 0, then linear scatterv",
              &reduce_scatter::reduce_scatterv,
              {"", 1}},
    Algorithm{C::reduce_scatter, "inter", inter, "binomial reduce in each group, the leaders exchange, linear scatterv (MPICH)",
              &reduce_scatter::inter},
    Algorithm{C::scan, "recursive_doubling", any, "ceil(lg p) rounds exchanging partial results with r xor 2^k",
              &scan::recursive_doubling,
              {"MPIR_Scan_intra_recursive_doubling", 2}},
    Algorithm{C::scan, "linear", any, "a chain: each rank combines its data behind its left neighbour's prefix", &scan::linear,
              {"", 1}},
    Algorithm{C::exscan, "recursive_doubling", any, "ceil(lg p) rounds exchanging partial results with r xor 2^k",
              &scan::recursive_doubling,
              {"MPIR_Exscan_intra_recursive_doubling", 2}},
    Algorithm{C::exscan, "linear", any, "a chain: each rank passes on the prefix including its data", &scan::linear,
              {"", 1}},
    Algorithm{C::neighbor_allgather, "linear", topology, "a receive from every source and a send to every destination, posted at once",
              &neighbor::linear},
    Algorithm{C::neighbor_allgatherv, "linear", topology, "a receive from every source and a send to every destination, posted at once",
              &neighbor::linear},
    Algorithm{C::neighbor_alltoall, "linear", topology, "a receive from every source and a send to every destination, posted at once",
              &neighbor::linear},
    Algorithm{C::neighbor_alltoallv, "linear", topology, "a receive from every source and a send to every destination, posted at once",
              &neighbor::linear},
    Algorithm{C::neighbor_alltoallw, "linear", topology, "a receive from every source and a send to every destination, posted at once",
              &neighbor::linear},
};

bool is_pof2(int p) { return p > 0 && (p & (p - 1)) == 0; }

const Algorithm& named(C c, std::string_view name) {
  const Algorithm* a = find_algorithm(c, name);
  if (!a) throw std::logic_error("auto selection names an unregistered algorithm");
  return *a;
}

}  // namespace

std::span<const Algorithm> algorithms() { return kAlgorithms; }

const Algorithm* find_algorithm(Collective c, std::string_view name) {
  for (const auto& a : kAlgorithms)
    if (a.collective == c && a.name == name) return &a;
  return nullptr;
}

std::string ineligible(const Algorithm& alg, const CollArgs& a) {
  if (alg.restrictions.intercomm && !a.inter()) return "it is for intercommunicators, and " + a.comm->name() + " is an intracommunicator";
  if (!alg.restrictions.intercomm && a.inter())
    return "it is for intracommunicators, and " + a.comm->name() + " is an intercommunicator (the inter algorithms serve it)";
  if (alg.restrictions.commutative_only && a.op && !a.op->commutative)
    return "it combines operands out of rank order, so it needs a commutative operation, and " + a.op->name +
           " is not commutative (MPI-4.1 §6.9.1: a non-commutative operation is applied in rank order)";
  if (alg.restrictions.power_of_two_only && !is_pof2(a.p))
    return "it needs a power-of-two number of processes; the communicator has " + std::to_string(a.p);
  if (alg.restrictions.two_only && a.p != 2)
    return "it is for two processes; the communicator has " + std::to_string(a.p);
  return {};
}

std::string_view named_algorithm(const std::map<std::string, std::string>& table, std::string_view call, Collective c) {
  if (table.empty()) return {};
  auto it = table.find(std::string(call));
  if (it == table.end()) it = table.find(std::string(collective_name(c)));
  return it == table.end() ? std::string_view{} : std::string_view(it->second);
}

const Algorithm* find_named_algorithm(Collective c, std::string_view name, std::string_view call) {
  if (name.empty() || name == "auto") return nullptr;
  if (const Algorithm* found = find_algorithm(c, name)) return found;
  throw AlgorithmError("no algorithm \"" + std::string(name) + "\" for " + std::string(call) +
                       " (mpisim --list-algorithms lists them)");
}

const Algorithm& choose_algorithm(const Algorithm* named, const CollArgs& a, std::string_view call) {
  if (!named) return auto_algorithm(a);
  if (std::string no = ineligible(*named, a); !no.empty())
    throw AlgorithmError("the algorithm \"" + std::string(named->name) + "\" of " + std::string(call) +
                         " cannot run this call: " + no);
  return *named;
}

// MPICH 4.0's default selection for communicators of one process per node: the
// decisions of the selection tree its MPIR layer is built with; docs/collectives.md.
AutoInputs auto_inputs(const CollArgs& a) {
  AutoInputs in;
  in.kind = a.kind;
  in.p = a.p;
  in.inter = a.inter();
  in.commutative = !a.op || a.op->commutative;
  in.builtin_op = !a.op || a.op->kind != mpi::OpKind::user;
  in.in_place = a.in_place();
  in.recvcount = a.recvcount;
  in.sendcount = a.sendcount;
  in.recv_bytes = a.recvtype ? a.recvcount * a.recvtype->size() : 0;
  in.send_bytes = a.sendtype ? a.sendcount * a.sendtype->size() : 0;
  if (a.kind == C::allgather || a.kind == C::allgatherv || a.kind == C::reduce_scatter ||
      a.kind == C::reduce_scatter_block) {
    std::int64_t total = 0;
    for (int i = 0; i < a.p; ++i) total += a.recv_count(i);
    in.total_recv_bytes = total * a.recvtype->size();
  }
  return in;
}

const Algorithm& auto_algorithm(const CollArgs& a) { return auto_algorithm(auto_inputs(a)); }

const Algorithm& auto_algorithm(const AutoInputs& a) {
  if (a.inter) {
    // MPICH: the local-gather and local-scatter forms for MPI_Gather and MPI_Scatter
    // (its short-message choice), linear for the v forms, one form for the rest.
    switch (a.kind) {
      case C::gather: return named(C::gather, "inter_local_gather");
      case C::scatter: return named(C::scatter, "inter_local_scatter");
      case C::gatherv:
      case C::scatterv: return named(a.kind, "inter_linear");
      default: return named(a.kind, "inter");
    }
  }
  const int p = a.p;
  const bool commute = a.commutative;
  switch (a.kind) {
    case C::barrier: return named(C::barrier, "dissemination");
    case C::bcast: {
      const std::int64_t n = a.recv_bytes;
      if (n <= mpich::kBcastShort || p < mpich::kBcastMinProcs) return named(C::bcast, "binomial");
      if (n <= mpich::kBcastLong && is_pof2(p)) return named(C::bcast, "scatter_recursive_doubling");
      return named(C::bcast, "scatter_ring");
    }
    case C::gather: return named(C::gather, "binomial");
    case C::gatherv: return named(C::gatherv, "linear");
    case C::scatter: return named(C::scatter, "binomial");
    case C::scatterv: return named(C::scatterv, "linear");
    case C::allgather:
    case C::allgatherv: {
      const std::int64_t total = a.total_recv_bytes;
      if (total < mpich::kAllgatherLong && is_pof2(p)) return named(a.kind, "recursive_doubling");
      if (total < mpich::kAllgatherShort) return named(a.kind, "bruck");
      return named(a.kind, "ring");
    }
    case C::alltoall: {
      const std::int64_t n = a.recv_bytes;
      if (a.in_place) return named(C::alltoall, "pairwise");
      if (n <= mpich::kAlltoallShort && p > mpich::kAlltoallMinProcs) return named(C::alltoall, "bruck");
      if (n <= mpich::kAlltoallMedium) return named(C::alltoall, "linear");
      return named(C::alltoall, "pairwise");
    }
    case C::alltoallv:
    case C::alltoallw: return named(a.kind, a.in_place ? "pairwise" : "linear");
    // MPICH's reduce-scatter based forms take predefined operations only (all of
    // them commutative) and a count of at least the largest power of two <= p.
    case C::reduce: {
      const std::int64_t n = a.send_bytes;
      if (a.builtin_op && commute && n > mpich::kReduceShort && a.sendcount >= largest_pof2(p))
        return named(C::reduce, "rabenseifner");
      return named(C::reduce, "binomial");
    }
    case C::allreduce: {
      const std::int64_t n = a.recv_bytes;
      if (n <= 0 && commute) return named(C::allreduce, "smp");  // MPICH's tree, for empty calls
      if (a.builtin_op && commute && n > mpich::kAllreduceShort && a.recvcount >= largest_pof2(p))
        return named(C::allreduce, "rabenseifner");
      return named(C::allreduce, "recursive_doubling");
    }
    case C::reduce_scatter_block:
    case C::reduce_scatter: {
      const std::int64_t total = a.total_recv_bytes;
      if (!commute) return named(a.kind, "recursive_doubling");
      if (total < mpich::kReduceScatterLong) return named(a.kind, "recursive_halving");
      return named(a.kind, "pairwise");
    }
    case C::scan: return named(C::scan, "recursive_doubling");
    case C::exscan: return named(C::exscan, "recursive_doubling");
    case C::neighbor_allgather:
    case C::neighbor_allgatherv:
    case C::neighbor_alltoall:
    case C::neighbor_alltoallv:
    case C::neighbor_alltoallw: return named(a.kind, "linear");
  }
  throw std::logic_error("auto selection: unknown collective");
}

}  // namespace mpisim::coll
