#include "model/coll/deploy.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/coll/collective.hpp"
#include "sim/input_error.hpp"

namespace mpisim::coll {
namespace {

using C = Collective;
using Json = nlohmann::ordered_json;

// How a library measures a call's size from `mpisim cost`'s bytes on p ranks.
enum class Measure { none, bytes, bytes_times_p };

// MPICH 4.0's selection keys: the message-size key its JSON defines for the
// collective (avg_msg_size: one process's count times the type's size, per pair
// for alltoall; total_msg_size: the whole result).
struct MpichCollective {
  const char* size_key;  // null: the selection takes no size for it
  Measure measure;
};

MpichCollective mpich_collective(C c) {
  switch (c) {
    case C::bcast:
    case C::reduce:
    case C::allreduce:
    case C::alltoall: return {"avg_msg_size", Measure::bytes};
    case C::allgather:
    case C::allgatherv:
    case C::reduce_scatter:
    case C::reduce_scatter_block: return {"total_msg_size", Measure::bytes_times_p};
    default: return {nullptr, Measure::none};
  }
}

// Open MPI 4.1's tuned component: the collective's number in the rules file (its
// COLLTYPE) and what the rules compare against (the call's data in bytes: one
// process's for the rooted reductions and broadcast, the whole exchange's for
// the all-to-all and gather families); -1: the rules do not cover it.
struct OmpiCollective {
  int id;
  Measure measure;
};

OmpiCollective ompi_collective(C c) {
  switch (c) {
    case C::allreduce:
    case C::bcast:
    case C::reduce: return {ompi_collective_id(c), Measure::bytes};
    case C::allgather:
    case C::alltoall:
    case C::gather:
    case C::reduce_scatter:
    case C::reduce_scatter_block:
    case C::scatter: return {ompi_collective_id(c), Measure::bytes_times_p};
    // The size Open MPI compares for these does not depend on the count (for the
    // scans it is the type's size times p), so one rule covers every size.
    case C::alltoallv:
    case C::barrier:
    case C::exscan:
    case C::scan: return {ompi_collective_id(c), Measure::none};
    default: return {-1, Measure::none};
  }
}

// The size a call of `bytes` (mpisim cost's meaning) has for a library.
std::uint64_t library_size(C c, Measure m, std::uint64_t bytes, std::uint64_t p) {
  if (reduces(c)) bytes = (bytes + 7) / 8 * 8;  // mpisim cost reduces doubles
  return m == Measure::bytes_times_p ? bytes * p : bytes;
}

// The boundary between two measured values: their geometric mean, rounded down
// (at least the smaller one).
std::uint64_t between(std::uint64_t a, std::uint64_t b) {
  auto g = static_cast<std::uint64_t>(std::floor(std::sqrt(static_cast<double>(a) * static_cast<double>(b))));
  return std::max(a, std::min(g, b - 1));
}

// The largest library size that still takes a's choice, when the next point of
// the same rank count takes b's: below the bisected crossover when the sweep has
// one joining the two, else the geometric mean of the two sizes.
std::uint64_t last_of(const Sweep& s, Measure m, std::uint64_t p, const Choice& a, const Choice& b) {
  for (const Switch& w : s.switches)
    if (w.ranks == p && w.from == a.algorithm && w.to == b.algorithm && w.bytes > a.bytes && w.bytes <= b.bytes) {
      const std::uint64_t at = library_size(s.collective, m, w.bytes, p);
      if (at > library_size(s.collective, m, a.bytes, p)) return at - 1;
    }
  return between(library_size(s.collective, m, a.bytes, p), library_size(s.collective, m, b.bytes, p));
}

std::string lower_name(C c) {
  std::string s(collective_name(c).substr(4));  // "MPI_Allreduce" -> "Allreduce"
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The choices at each point: the fastest algorithm the library has.
template <typename Has>
std::vector<Choice> choose(const Sweep& s, Has has, const std::string& library, const std::string& option) {
  std::vector<Choice> out;
  for (const SweepPoint& pt : s.points) {
    std::int64_t best = -1, fastest = -1;
    const Algorithm* pick = nullptr;
    for (std::size_t i = 0; i < s.algorithms.size(); ++i) {
      const std::int64_t t = pt.time_ps[i];
      if (t < 0) continue;
      if (fastest < 0 || t < fastest) fastest = t;
      if (has(*s.algorithms[i]) && (best < 0 || t < best)) best = t, pick = s.algorithms[i];
    }
    if (!pick) {
      std::string names;
      for (const auto& a : algorithms())
        if (a.collective == s.collective && has(a)) names += (names.empty() ? "" : ", ") + std::string(a.name);
      throw sim::InputError(option, "at " + std::to_string(pt.ranks) + " ranks and " + std::to_string(pt.bytes) +
                                        " bytes none of the algorithms timed has an equivalent in " + library +
                                        (names.empty() ? std::string(" (it has none of mpisim's for ") +
                                                             std::string(collective_name(s.collective)) + ")"
                                                       : " (time one of: " + names + ")"));
    }
    out.push_back(Choice{pt.ranks, pt.bytes, pick, best == fastest});
  }
  return out;
}

// The rank counts of the sweep, and each one's choices in size order.
std::map<std::uint64_t, std::vector<Choice*>> by_ranks(std::vector<Choice>& choices) {
  std::map<std::uint64_t, std::vector<Choice*>> m;
  for (Choice& c : choices) m[c.ranks].push_back(&c);
  for (auto& [p, v] : m)
    std::stable_sort(v.begin(), v.end(), [](const Choice* a, const Choice* b) { return a->bytes < b->bytes; });
  return m;
}

// Where a library takes one algorithm for all sizes: the one chosen at the most
// sizes (on a tie, the first in the sweep's order); the others' choices follow.
void one_for_all_sizes(const Sweep& s, std::vector<Choice*>& v) {
  std::map<const Algorithm*, int> votes;
  for (Choice* c : v) ++votes[c->algorithm];
  const Algorithm* pick = nullptr;
  int most = 0;
  for (const Algorithm* a : s.algorithms)
    if (votes.count(a) && votes[a] > most) most = votes[a], pick = a;
  for (Choice* c : v)
    if (c->algorithm != pick) c->algorithm = pick, c->fastest = false;
}

// --- MPICH ---------------------------------------------------------------------

Json leaf(const std::string& name) {
  Json j = Json::object();
  j["algorithm=" + name] = Json::object();
  return j;
}

// MPICH's default selection for a collective on intracommunicators (the
// thresholds docs/collectives.md gives, as mpisim's "auto" applies them), and on
// intercommunicators; for the nonblocking and neighbourhood collectives, the
// schedule each has for any size.
// A key of MPICH's selection tree: "avg_msg_size<" and a threshold of registry.hpp.
std::string below(const char* key, std::int64_t threshold) { return key + std::to_string(threshold); }

Json mpich_default_intra(C c) {
  const std::string A = "MPIR_" + std::string(collective_name(c).substr(4));
  Json j = Json::object();
  switch (c) {
    case C::barrier: return leaf(A + "_intra_dissemination");
    case C::bcast: {
      j[below("comm_size<", mpich::kBcastMinProcs)] = leaf(A + "_intra_binomial");
      Json pow2 = Json::object(), other = Json::object();
      pow2[below("avg_msg_size<=", mpich::kBcastShort)] = leaf(A + "_intra_binomial");
      pow2[below("avg_msg_size<=", mpich::kBcastLong)] = leaf(A + "_intra_scatter_recursive_doubling_allgather");
      pow2["avg_msg_size=any"] = leaf(A + "_intra_scatter_ring_allgather");
      other[below("avg_msg_size<=", mpich::kBcastShort)] = leaf(A + "_intra_binomial");
      other["avg_msg_size=any"] = leaf(A + "_intra_scatter_ring_allgather");
      j["comm_size=pow2"] = pow2;
      j["comm_size=any"] = other;
      return j;
    }
    case C::gather:
    case C::scatter: return leaf(A + "_intra_binomial");
    case C::gatherv:
    case C::scatterv: return leaf(A + "_allcomm_linear");
    case C::allgather:
    case C::allgatherv: {
      Json pow2 = Json::object(), other = Json::object();
      pow2[below("total_msg_size<", mpich::kAllgatherLong)] = leaf(A + "_intra_recursive_doubling");
      pow2["total_msg_size=any"] = leaf(A + "_intra_ring");
      other[below("total_msg_size<", mpich::kAllgatherShort)] = leaf(A + "_intra_brucks");
      other["total_msg_size=any"] = leaf(A + "_intra_ring");
      j["comm_size=pow2"] = pow2;
      j["comm_size=any"] = other;
      return j;
    }
    case C::alltoall: {
      Json out = Json::object(), small = Json::object(), big = Json::object();
      small[below("avg_msg_size<=", mpich::kAlltoallMedium)] = leaf(A + "_intra_scattered");
      small["avg_msg_size=any"] = leaf(A + "_intra_pairwise");
      big[below("avg_msg_size<=", mpich::kAlltoallShort)] = leaf(A + "_intra_brucks");
      big[below("avg_msg_size<=", mpich::kAlltoallMedium)] = leaf(A + "_intra_scattered");
      big["avg_msg_size=any"] = leaf(A + "_intra_pairwise");
      out[below("comm_size<", mpich::kAlltoallMinProcs)] = small;
      out["comm_size=any"] = big;
      j["is_sendbuf_inplace=yes"] = leaf(A + "_intra_pairwise_sendrecv_replace");
      j["is_sendbuf_inplace=no"] = out;
      return j;
    }
    case C::alltoallv:
    case C::alltoallw:
      j["is_sendbuf_inplace=yes"] = leaf(A + "_intra_pairwise_sendrecv_replace");
      j["is_sendbuf_inplace=no"] = leaf(A + "_intra_scattered");
      return j;
    case C::reduce:
    case C::allreduce: {
      const std::string tree = A + (c == C::reduce ? "_intra_binomial" : "_intra_recursive_doubling");
      const std::string large = A + (c == C::reduce ? "_intra_reduce_scatter_gather" : "_intra_reduce_scatter_allgather");
      Json builtin = Json::object(), big = Json::object(), counts = Json::object();
      counts["count<pow2"] = leaf(tree);
      counts["count=any"] = leaf(large);
      builtin["is_op_built_in=yes"] = counts;
      builtin["is_op_built_in=no"] = leaf(tree);
      big["is_commutative=yes"] = builtin;
      big["is_commutative=no"] = leaf(tree);
      j[below("avg_msg_size<=", c == C::reduce ? mpich::kReduceShort : mpich::kAllreduceShort)] = leaf(tree);
      j["avg_msg_size=any"] = big;
      return j;
    }
    case C::reduce_scatter:
    case C::reduce_scatter_block: {
      Json commute = Json::object(), other = Json::object(), pow2 = Json::object();
      commute[below("total_msg_size<", mpich::kReduceScatterLong)] = leaf(A + "_intra_recursive_halving");
      commute["total_msg_size=any"] = leaf(A + "_intra_pairwise");
      pow2["comm_size=pow2"] = leaf(A + "_intra_noncommutative");
      pow2["comm_size=any"] = leaf(A + "_intra_recursive_doubling");
      if (c == C::reduce_scatter) {
        other["is_block_regular=yes"] = pow2;
        other["is_block_regular=no"] = leaf(A + "_intra_recursive_doubling");
      } else {
        other = pow2;
      }
      j["is_commutative=yes"] = commute;
      j["is_commutative=no"] = other;
      return j;
    }
    case C::scan:
    case C::exscan: return leaf(A + "_intra_recursive_doubling");
    default: return leaf(A + "_allcomm_nb");  // the neighbourhood collectives
  }
}

const char* mpich_inter(C c) {
  switch (c) {
    case C::barrier: return "_inter_bcast";
    case C::bcast: return "_inter_remote_send_local_bcast";
    case C::gather: return "_inter_linear";
    case C::scatter: return "_inter_linear";
    case C::gatherv:
    case C::scatterv: return "_allcomm_linear";
    case C::allgather: return "_inter_local_gather_remote_bcast";
    case C::allgatherv: return "_inter_remote_gather_local_bcast";
    case C::alltoall:
    case C::alltoallv:
    case C::alltoallw: return "_inter_pairwise_exchange";
    case C::reduce: return "_inter_local_reduce_remote_send";
    case C::allreduce: return "_inter_reduce_exchange_bcast";
    case C::reduce_scatter:
    case C::reduce_scatter_block: return "_inter_remote_reduce_local_scatter";
    default: return nullptr;  // scan, exscan: intracommunicators only; neighbourhood: one node for all
  }
}

Json mpich_collective_node(C c, Json intra) {
  const std::string A = "MPIR_" + std::string(collective_name(c).substr(4));
  if (neighborhood(c)) return intra;
  Json j = Json::object();
  j["comm_type=intra"] = std::move(intra);
  if (const char* inter = mpich_inter(c)) j["comm_type=inter"] = leaf(A + inter);
  return j;
}

// The nonblocking form's schedule, for any size: intra and inter.
Json mpich_nonblocking(C c) {
  const std::string A = "MPIR_I" + lower_name(c);
  Json j = Json::object(), intra;
  const char* inter = nullptr;
  switch (c) {
    case C::barrier: intra = leaf(A + "_intra_sched_recursive_doubling"), inter = "_inter_sched_bcast"; break;
    case C::bcast: intra = leaf(A + "_intra_sched_binomial"), inter = "_inter_sched_flat"; break;
    case C::gather: intra = leaf(A + "_intra_sched_binomial"), inter = "_inter_sched_long"; break;
    case C::scatter: intra = leaf(A + "_intra_sched_binomial"), inter = "_inter_sched_linear"; break;
    case C::gatherv:
    case C::scatterv: return leaf(A + "_allcomm_sched_linear");
    case C::allgather: intra = leaf(A + "_intra_sched_ring"), inter = "_inter_sched_local_gather_remote_bcast"; break;
    case C::allgatherv: intra = leaf(A + "_intra_sched_ring"), inter = "_inter_sched_remote_gather_local_bcast"; break;
    case C::alltoall:
    case C::alltoallv:
    case C::alltoallw:
      intra = Json::object();
      intra["is_sendbuf_inplace=yes"] = leaf(A + "_intra_sched_inplace");
      intra["is_sendbuf_inplace=no"] = leaf(A + (c == C::alltoall ? "_intra_sched_pairwise" : "_intra_sched_blocked"));
      inter = "_inter_sched_pairwise_exchange";
      break;
    case C::reduce: intra = leaf(A + "_intra_sched_binomial"), inter = "_inter_sched_local_reduce_remote_send"; break;
    case C::allreduce:
      intra = leaf(A + "_intra_sched_recursive_doubling"), inter = "_inter_sched_remote_reduce_local_bcast";
      break;
    case C::reduce_scatter:
    case C::reduce_scatter_block:
      intra = leaf(A + "_intra_sched_recursive_doubling"), inter = "_inter_sched_remote_reduce_local_scatterv";
      break;
    case C::scan:
    case C::exscan: intra = leaf(A + "_intra_sched_recursive_doubling"); break;
    default: return leaf(A + "_allcomm_sched_linear");  // the neighbourhood collectives
  }
  j["comm_type=intra"] = intra;
  if (inter) j["comm_type=inter"] = leaf(A + inter);
  return j;
}

// The leaf of a chosen algorithm, with the guards MPICH's form of it needs: a
// power-of-two communicator, or (reduce-scatter based reductions) a count of at
// least the largest power of two below the size.
Json mpich_choice(C c, const Algorithm& a) {
  const std::string A = "MPIR_" + std::string(collective_name(c).substr(4));
  if (a.restrictions.power_of_two_only) {
    Json j = Json::object();
    j["comm_size=pow2"] = leaf(std::string(a.library.mpich));
    j["comm_size=any"] = leaf(A + "_intra_scatter_ring_allgather");  // bcast's only such algorithm
    return j;
  }
  if (a.library.mpich == A + "_intra_reduce_scatter_allgather" || a.library.mpich == A + "_intra_reduce_scatter_gather") {
    // MPICH's forms take built-in operations only (its allreduce asserts it) and
    // a count of at least the largest power of two below the size.
    const std::string tree = A + (c == C::reduce ? "_intra_binomial" : "_intra_recursive_doubling");
    Json counts = Json::object(), j = Json::object();
    counts["count<pow2"] = leaf(tree);
    counts["count=any"] = leaf(std::string(a.library.mpich));
    j["is_op_built_in=yes"] = counts;
    j["is_op_built_in=no"] = leaf(tree);
    return j;
  }
  return leaf(std::string(a.library.mpich));
}

// Open MPI 4.1's fixed decisions, as data: per communicator-size bound (the rule
// applies below it; 0: any size), the algorithm number below each message-size
// bound (0: any size).
struct SizeRule {
  std::uint64_t below;
  int algorithm;
};
struct RankRule {
  std::uint64_t below;
  std::vector<SizeRule> sizes;
};

const std::vector<RankRule>& ompi_allreduce_rules() {  // commutative operations; the size is count × size
  static const std::vector<RankRule> r = {
      {4, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}, {0, 6}}},
      {8, {{16, 4}, {8192, 3}, {0, 6}}},
      {16, {{8192, 3}, {0, 6}}},
      {32, {{64, 5}, {4096, 3}, {0, 6}}},
      {64, {{128, 5}, {0, 6}}},
      {128, {{262144, 3}, {0, 6}}},
      {256, {{131072, 2}, {262144, 3}, {0, 6}}},
      {512, {{4096, 2}, {0, 6}}},
      {2048, {{2048, 2}, {16384, 3}, {0, 6}}},
      {4096, {{2048, 2}, {4096, 5}, {16384, 3}, {0, 6}}},
      {0, {{2048, 2}, {16384, 5}, {32768, 3}, {0, 6}}},
  };
  return r;
}

// The first rule is for exactly 2 ranks.
const std::vector<RankRule>& ompi_alltoall_rules() {  // the size is one pair's block
  static const std::vector<RankRule> r = {
      {3, {{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5}, {32768, 2}, {262144, 4}, {1048576, 5}, {0, 2}}},
      {8, {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}, {0, 1}}},
      {16, {{262144, 4}, {0, 1}}},
      {32, {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}, {0, 4}}},
      {64, {{512, 3}, {524288, 1}, {0, 4}}},
      {128, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}, {0, 2}}},
      {256, {{1024, 3}, {2048, 4}, {262144, 1}, {0, 2}}},
      {512, {{1024, 3}, {8192, 4}, {32768, 1}, {0, 2}}},
      {1024, {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}, {0, 2}}},
      {2048, {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}, {0, 4}}},
      {4096, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}, {0, 1}}},
      {0, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}, {0, 4}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_alltoallv_rules() {  // by communicator size only
  static const std::vector<RankRule> r = {
      {4, {{0, 2}}}, {64, {{0, 1}}}, {128, {{0, 2}}}, {256, {{0, 1}}}, {1024, {{0, 2}}}, {0, {{0, 1}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_barrier_rules() {
  static const std::vector<RankRule> r = {
      {4, {{0, 3}}}, {8, {{0, 1}}}, {64, {{0, 3}}}, {256, {{0, 4}}}, {512, {{0, 6}}}, {1024, {{0, 4}}}, {4096, {{0, 6}}},
      {0, {{0, 4}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_bcast_rules() {  // the size is the buffer's bytes
  static const std::vector<RankRule> r = {
      {4, {{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2}, {524288, 1}, {1048576, 6}, {0, 5}}},
      {8, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}, {0, 2}}},
      {16, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}, {0, 1}}},
      {32, {{4096, 7}, {1048576, 6}, {0, 8}}},
      {64, {{2048, 6}, {0, 7}}},
      {128, {{0, 7}}},
      {256, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}, {0, 7}}},
      {1024, {{16384, 7}, {32768, 4}, {0, 7}}},
      {2048, {{524288, 7}, {0, 8}}},
      {4096, {{262144, 7}, {0, 8}}},
      {0, {{8192, 7}, {16384, 5}, {262144, 7}, {0, 8}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_reduce_rules() {  // commutative operations; the size is count × size
  static const std::vector<RankRule> r = {
      {4, {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}, {0, 3}}},
      {8, {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}, {0, 1}}},
      {16, {{8192, 4}, {0, 5}}},
      {32, {{4096, 4}, {0, 5}}},
      {256, {{0, 5}}},
      {512, {{8192, 5}, {16384, 6}, {0, 5}}},
      {2048, {{0, 5}}},
      {4096, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}, {0, 5}}},
      {0, {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}, {0, 5}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_allgather_rules() {  // above 2 ranks; the size is one rank's block
  static const std::vector<RankRule> r = {
      {32, {{0, 3}}},
      {64, {{1024, 3}, {65536, 5}, {0, 4}}},
      {128, {{512, 3}, {65536, 5}, {0, 4}}},
      {256, {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {0, 4}}},
      {512, {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {0, 4}}},
      {1024, {{64, 3}, {256, 2}, {2048, 3}, {0, 5}}},
      {2048, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}, {0, 5}}},
      {4096, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}, {0, 5}}},
      {0, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}, {0, 5}}},
  };
  return r;
}

// The first rule is for exactly 2 ranks; the size is the mean of the blocks.
const std::vector<RankRule>& ompi_allgatherv_rules() {
  static const std::vector<RankRule> r = {
      {3, {{2048, 3}, {4096, 5}, {8192, 3}, {0, 5}}},
      {8, {{256, 1}, {4096, 4}, {8192, 3}, {16384, 4}, {262144, 2}, {0, 4}}},
      {16, {{1024, 1}, {0, 2}}},
      {32, {{128, 1}, {262144, 2}, {0, 3}}},
      {64, {{256, 1}, {8192, 2}, {0, 3}}},
      {128, {{256, 1}, {4096, 2}, {0, 3}}},
      {256, {{1024, 2}, {65536, 4}, {0, 3}}},
      {512, {{1024, 2}, {0, 3}}},
      {1024, {{512, 2}, {1024, 1}, {4096, 2}, {1048576, 4}, {0, 3}}},
      {0, {{4096, 2}, {0, 4}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_gather_rules() {  // the size is one rank's block
  static const std::vector<RankRule> r = {
      {4, {{2, 3}, {4, 1}, {32768, 2}, {65536, 1}, {131072, 2}, {0, 3}}},
      {8, {{1024, 2}, {8192, 1}, {32768, 2}, {262144, 1}, {0, 3}}},
      {256, {{0, 2}}},
      {512, {{2048, 2}, {8192, 1}, {0, 2}}},
      {0, {{0, 2}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_scatter_rules() {  // the size is one rank's block
  static const std::vector<RankRule> r = {
      {4, {{2, 3}, {131072, 1}, {262144, 3}, {0, 1}}},
      {8, {{2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3}, {0, 1}}},
      {16, {{16384, 2}, {1048576, 3}, {0, 1}}},
      {32, {{16384, 2}, {32768, 1}, {0, 3}}},
      {64, {{512, 2}, {8192, 3}, {16384, 2}, {0, 3}}},
      {0, {{512, 2}, {0, 3}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_reduce_scatter_rules() {  // commutative; the size is the whole vector
  static const std::vector<RankRule> r = {
      {4, {{65536, 3}, {131072, 4}, {0, 3}}},
      {8, {{8, 1}, {262144, 2}, {0, 3}}},
      {32, {{262144, 2}, {0, 3}}},
      {64, {{64, 1}, {2048, 2}, {524288, 4}, {0, 3}}},
      {128, {{256, 1}, {512, 2}, {2048, 4}, {4096, 2}, {0, 4}}},
      {256, {{256, 1}, {512, 2}, {0, 4}}},
      {512, {{256, 1}, {1024, 2}, {0, 4}}},
      {1024, {{512, 1}, {2048, 2}, {8192, 4}, {16384, 2}, {0, 4}}},
      {2048, {{512, 1}, {4096, 2}, {16384, 4}, {32768, 2}, {0, 4}}},
      {4096, {{512, 1}, {4096, 2}, {0, 4}}},
      {0, {{1024, 1}, {8192, 2}, {0, 4}}},
  };
  return r;
}

const std::vector<RankRule>& ompi_reduce_scatter_block_rules() {  // commutative; the size is one rank's block
  static const std::vector<RankRule> r = {
      {4, {{4, 2}, {8, 4}, {16, 3}, {128, 4}, {256, 3}, {4096, 4}, {8192, 3}, {131072, 4}, {0, 1}}},
      {8, {{8, 3}, {32, 2}, {256, 4}, {8192, 3}, {16384, 4}, {1048576, 3}, {0, 1}}},
      {16, {{4, 1}, {32, 3}, {128, 4}, {524288, 3}, {4194304, 1}, {0, 4}}},
      {32, {{32, 1}, {524288, 3}, {2097152, 1}, {4194304, 3}, {0, 4}}},
      {0, {{4, 3}, {16, 1}, {65536, 4}, {262144, 1}, {0, 4}}},
  };
  return r;
}

int lookup(const std::vector<RankRule>& rules, std::uint64_t p, std::uint64_t size, std::size_t first = 0) {
  for (std::size_t i = first; i < rules.size(); ++i)
    if (const RankRule& r = rules[i]; r.below == 0 || p < r.below)
      for (const SizeRule& s : r.sizes)
        if (s.below == 0 || size < s.below) return s.algorithm;
  return 0;
}

}  // namespace

TuningFile mpich_tuning_file(const Sweep& s) {
  TuningFile f;
  f.choices = choose(s, [](const Algorithm& a) { return !a.library.mpich.empty(); }, "MPICH 4.0", "--mpich-tuning");
  const MpichCollective mc = mpich_collective(s.collective);
  auto groups = by_ranks(f.choices);
  bool commutative_only = false;
  Json sizes_by_ranks = Json::object();
  std::vector<std::uint64_t> ranks;
  for (auto& [p, v] : groups) ranks.push_back(p);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::uint64_t p = ranks[r];
    std::vector<Choice*>& v = groups[p];
    if (!mc.size_key) one_for_all_sizes(s, v);
    Json node = Json::object();
    for (std::size_t i = 0; i < v.size(); ++i) {
      commutative_only = commutative_only || v[i]->algorithm->restrictions.commutative_only;
      const bool last = i + 1 == v.size();
      // One rule for a run of equal choices (and for sizes the library sees as one).
      if (!last && (v[i + 1]->algorithm == v[i]->algorithm ||
                    library_size(s.collective, mc.measure, v[i]->bytes, p) ==
                        library_size(s.collective, mc.measure, v[i + 1]->bytes, p)))
        continue;
      if (!mc.size_key) {
        node = mpich_choice(s.collective, *v[i]->algorithm);
        break;
      }
      const std::string key =
          last ? std::string(mc.size_key) + "=any"
               : std::string(mc.size_key) + "<=" +
                     std::to_string(last_of(s, mc.measure, p, *v[i], *v[i + 1]));
      node[key] = mpich_choice(s.collective, *v[i]->algorithm);
    }
    const std::string key = r + 1 == ranks.size() ? "comm_size=any" : "comm_size<=" + std::to_string(between(p, ranks[r + 1]));
    sizes_by_ranks[key] = node;
  }
  Json intra = Json::object();
  if (commutative_only) {  // non-commutative operations keep MPICH's own choice
    intra["is_commutative=no"] = mpich_default_intra(s.collective);
    intra["is_commutative=yes"] = sizes_by_ranks;
  } else if (s.collective == C::alltoall || s.collective == C::alltoallv || s.collective == C::alltoallw) {
    intra["is_sendbuf_inplace=yes"] = mpich_default_intra(s.collective)["is_sendbuf_inplace=yes"];
    intra["is_sendbuf_inplace=no"] = sizes_by_ranks;
  } else {
    intra = sizes_by_ranks;
  }

  Json j = Json::object();
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<C>(i);
    j["collective=" + lower_name(c)] = mpich_collective_node(c, c == s.collective ? intra : mpich_default_intra(c));
  }
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<C>(i);
    j["collective=i" + lower_name(c)] = mpich_nonblocking(c);
  }
  f.text = j.dump(2) + "\n";
  return f;
}

TuningFile ompi_rules_file(const Sweep& s) {
  const OmpiCollective oc = ompi_collective(s.collective);
  if (oc.id < 0)
    throw sim::InputError("--ompi-rules", "Open MPI's tuned dynamic rules do not cover " +
                                              std::string(collective_name(s.collective)) +
                                              " (they cover MPI_Allgather, MPI_Allreduce, MPI_Alltoall, MPI_Alltoallv, "
                                              "MPI_Barrier, MPI_Bcast, MPI_Exscan, MPI_Gather, MPI_Reduce, "
                                              "MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Scan, MPI_Scatter)");
  TuningFile f;
  // A rule covers a range of communicator sizes: an algorithm for two ranks only
  // (Open MPI's two_proc fails on any other size) cannot be one's.
  f.choices = choose(s, [](const Algorithm& a) { return a.library.ompi > 0 && !a.restrictions.two_only; },
                     "Open MPI 4.1's tuned component", "--ompi-rules");
  auto groups = by_ranks(f.choices);
  std::ostringstream o;
  o << "# Open MPI dynamic rules for the tuned collective component, written by mpisim cost:\n"
    << "# " << collective_name(s.collective) << ", the fastest predicted algorithm per communicator size and\n"
    << "# message size. Load with: mpirun --mca coll_tuned_use_dynamic_rules 1\n"
    << "#   --mca coll_tuned_dynamic_rules_filename FILE\n"
    << "1  # collectives\n"
    << oc.id << "  # " << collective_name(s.collective) << "\n"
    << groups.size() << "  # communicator sizes\n";
  std::vector<std::uint64_t> ranks;
  for (auto& [p, v] : groups) ranks.push_back(p);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::uint64_t p = ranks[r];
    std::vector<Choice*>& v = groups[p];
    if (oc.measure == Measure::none) one_for_all_sizes(s, v);
    // Rules apply from their size up: a run of equal choices starts at the
    // boundary below its first size.
    std::vector<std::pair<std::uint64_t, const Algorithm*>> rules;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0 && (v[i - 1]->algorithm == v[i]->algorithm ||
                    library_size(s.collective, oc.measure, v[i - 1]->bytes, p) ==
                        library_size(s.collective, oc.measure, v[i]->bytes, p)))
        continue;
      if (oc.measure == Measure::none && i > 0) break;
      const std::uint64_t from =
          i == 0 ? 0
                 : last_of(s, oc.measure, p, *v[i - 1], *v[i]) + 1;
      rules.emplace_back(from, v[i]->algorithm);
    }
    const std::uint64_t from_ranks = r == 0 ? 1 : between(ranks[r - 1], p) + 1;
    o << from_ranks << "  # from " << from_ranks << (from_ranks == 1 ? " rank" : " ranks") << " (measured at " << p
      << ")\n"
      << rules.size() << "  # message sizes\n";
    for (const auto& [from, a] : rules)
      o << from << " " << a->library.ompi << " 0 " << a->library.ompi_segsize << "  # from " << from << " bytes: "
        << a->name << "\n";
  }
  f.text = o.str();
  return f;
}

OmpiRun ompi_run(Collective c, long number, long faninout, std::int64_t segsize, std::uint64_t p, std::int64_t count,
                 std::int64_t type_size, bool commutative) {
  OmpiRun out;
  const auto pof2 = static_cast<std::uint64_t>(largest_pof2(static_cast<int>(std::max<std::uint64_t>(p, 1))));
  const auto elements = static_cast<std::uint64_t>(std::max<std::int64_t>(count, 0));
  // Open MPI segments only when the segment holds at least one element and less
  // than the buffer (its COLL_BASE_COMPUTED_SEGCOUNT); otherwise one segment.
  const bool segmented = segsize > 0 && type_size > 0 && segsize >= type_size && segsize < type_size * count;
  const bool takes_segments = (c == C::bcast && number >= 2 && number <= 7) ||
                              (c == C::reduce && number >= 2 && number <= 6) || (c == C::allreduce && number == 5) ||
                              (c == C::gather && number == 3);
  long runs = number;
  std::string why;
  switch (c) {
    case C::allreduce:
      // Its segmented ring runs the ring unless count >= p segments; its ring with
      // fewer elements than processes runs recursive doubling; its Rabenseifner
      // needs a commutative operation and count >= the power of two below p.
      if (number == 5 && (!segmented || elements < p * static_cast<std::uint64_t>(segsize / type_size)))
        runs = 4, why = segmented ? "fewer elements than p segments, so the ring" : "no segment size, so the ring";
      if (runs == 4 && elements < p)
        runs = 3, why = number == 5 ? why + ", and the ring of fewer elements than processes is recursive doubling"
                                    : "fewer elements than processes";
      if (number == 6 && (!commutative || elements < pof2))
        runs = 1, why = commutative ? "fewer elements than the power of two below p" : "a non-commutative operation";
      break;
    case C::bcast:
      if ((number == 8 || number == 9) && elements < p) runs = 1, why = "fewer elements than processes";
      break;
    case C::reduce:
      if (number == 7 && (pof2 < 2 || elements < pof2 || !commutative))
        runs = 1, why = commutative ? "fewer elements than the power of two below p" : "a non-commutative operation";
      break;
    case C::allgather:
      if (number == 3 && pof2 != p) runs = 2, why = "p is not a power of two";
      if (number == 5 && p % 2 == 1) runs = 4, why = "p is odd";
      break;
    case C::allgatherv:
      if (number == 4 && p % 2 == 1) runs = 3, why = "p is odd";
      break;
    default: break;
  }
  out.name = std::string(ompi_algorithm_name(c, runs));
  if (runs != number) out.note = std::string(ompi_algorithm_name(c, number)) + " falls back: " + why;
  if (runs == number && takes_segments && segmented) {
    // mpisim has one of Open MPI's segmented algorithms: the pipeline bcast, in
    // segments of whole elements.
    if (c == C::bcast && number == 3) {
      out.algorithm = ompi_equivalent(c, 3, segsize);
      out.segment_bytes = segsize / type_size * type_size;
    }
    out.note = "segments of " + std::to_string(segsize / type_size * type_size) + " bytes";
    return out;
  }
  // A chain of several chains (a fan-out above 1) mpisim does not have.
  if ((c == C::bcast || c == C::reduce) && runs == 2 && faninout > 1) {
    out.note = std::to_string(faninout) + " chains";
    return out;
  }
  out.algorithm = ompi_equivalent(c, runs, 0);
  if (out.note.empty() && (c == C::bcast || c == C::reduce) && runs == 3) out.note = out.name + ", unsegmented";
  return out;
}

bool ompi_default(Collective c, std::uint64_t p, std::uint64_t bytes, LibraryDefault* out, std::int64_t count) {
  // Reductions are of doubles: `bytes` rounded up to whole elements.
  const std::uint64_t reduced = (bytes + 7) / 8 * 8;
  int id = 0;
  switch (c) {
    case C::allreduce: id = lookup(ompi_allreduce_rules(), p, reduced); break;
    case C::alltoall: id = lookup(ompi_alltoall_rules(), p, bytes, p == 2 ? 0 : 1); break;
    case C::alltoallv: id = lookup(ompi_alltoallv_rules(), p, bytes); break;
    case C::barrier: id = lookup(ompi_barrier_rules(), p, 0); break;
    case C::bcast: id = lookup(ompi_bcast_rules(), p, bytes); break;
    case C::reduce: id = lookup(ompi_reduce_rules(), p, reduced); break;
    case C::allgather: id = p == 2 ? 6 : lookup(ompi_allgather_rules(), p, bytes); break;
    case C::allgatherv: id = lookup(ompi_allgatherv_rules(), p, bytes, p == 2 ? 0 : 1); break;
    case C::gather: id = lookup(ompi_gather_rules(), p, bytes); break;
    case C::scatter: id = lookup(ompi_scatter_rules(), p, bytes); break;
    case C::reduce_scatter: id = lookup(ompi_reduce_scatter_rules(), p, p * reduced); break;
    case C::reduce_scatter_block: id = lookup(ompi_reduce_scatter_block_rules(), p, reduced); break;
    // The tuned component has no fixed rule for these: coll/basic's linear chain runs.
    case C::scan:
    case C::exscan: id = 1; break;
    default: return false;
  }
  // The fixed rules give no fan-out and no segment size.
  const bool reduction = reduces(c);
  const std::int64_t elements =
      count >= 0 ? count : static_cast<std::int64_t>(reduction ? reduced / 8 : bytes);
  const OmpiRun run = ompi_run(c, id, 0, 0, p, elements, reduction ? 8 : 1, true);
  out->algorithm = run.algorithm;
  out->name = run.name;
  out->note = run.note;
  return true;
}

int ompi_collective_id(Collective c) {
  static constexpr C kOrder[] = {C::allgather, C::allgatherv, C::allreduce, C::alltoall, C::alltoallv, C::alltoallw,
                                 C::barrier, C::bcast, C::exscan, C::gather, C::gatherv, C::reduce,
                                 C::reduce_scatter, C::reduce_scatter_block, C::scan, C::scatter, C::scatterv,
                                 C::neighbor_allgather, C::neighbor_allgatherv, C::neighbor_alltoall,
                                 C::neighbor_alltoallv, C::neighbor_alltoallw};
  for (int i = 0; i < kCollectives; ++i)
    if (kOrder[i] == c) return i;
  return -1;
}

bool ompi_collective_of(long id, Collective* out) {
  for (int i = 0; i < kCollectives; ++i)
    if (ompi_collective_id(static_cast<C>(i)) == id) return *out = static_cast<C>(i), true;
  return false;
}

std::string_view ompi_algorithm_name(Collective c, long number) {
  // Open MPI's names of the algorithms, by number.
  static const std::map<C, std::vector<const char*>> names = {
      {C::allreduce, {"basic_linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring", "rabenseifner"}},
      {C::alltoall, {"linear", "pairwise", "modified_bruck", "linear_sync", "two_proc"}},
      {C::alltoallv, {"basic_linear", "pairwise"}},
      {C::barrier, {"linear", "double_ring", "recursive_doubling", "bruck", "two_proc", "tree"}},
      {C::bcast, {"basic_linear", "chain", "pipeline", "split_binary_tree", "binary_tree", "binomial", "knomial",
                  "scatter_allgather", "scatter_allgather_ring"}},
      {C::reduce, {"linear", "chain", "pipeline", "binary", "binomial", "in-order_binary", "rabenseifner"}},
      {C::allgather, {"linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc"}},
      {C::allgatherv, {"default", "bruck", "ring", "neighbor", "two_proc"}},
      {C::gather, {"basic_linear", "binomial", "linear_sync"}},
      {C::scatter, {"basic_linear", "binomial", "linear_nb"}},
      {C::reduce_scatter, {"non-overlapping", "recursive_halving", "ring", "butterfly"}},
      {C::reduce_scatter_block, {"basic_linear", "recursive_doubling", "recursive_halving", "butterfly"}},
      {C::scan, {"linear", "recursive_doubling"}},
      {C::exscan, {"linear", "recursive_doubling"}},
  };
  const auto it = names.find(c);
  if (it == names.end() || number < 1 || number > static_cast<long>(it->second.size())) return {};
  return it->second[static_cast<std::size_t>(number - 1)];
}

const Algorithm* ompi_equivalent(Collective c, long number, std::int64_t segsize) {
  // Unsegmented, the pipeline bcast and reduce are the chain (one chain from or to
  // the root either way; Open MPI's reduce chain with no fan-out given has one).
  if ((c == C::bcast || c == C::reduce) && number == 3 && segsize == 0) number = 2;
  for (const auto& a : algorithms())
    if (a.collective == c && a.library.ompi == number && (a.library.ompi_segsize != 0) == (segsize != 0) &&
        !a.restrictions.intercomm)
      return &a;
  return nullptr;
}

}  // namespace mpisim::coll
