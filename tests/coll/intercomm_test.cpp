// Every intercommunicator algorithm of the registry, on groups of several size
// pairs (equal, one process on a side, the larger group on either side), with the
// root in either group, v forms with gaps between blocks, and for the reductions a
// commutative and a non-commutative operation: each run is verified by the
// coordinator against the standard's definition (model/coll/reference.cpp).
#include <doctest/doctest.h>

#include <string>

#include "model/coll/registry.hpp"
#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

using namespace mpisim;
using coll::Collective;

namespace {

// The step that calls `c` on intercommunicator "ab", with `root_group` (0: A, 1: B)
// holding the root at its last local rank. Names bound before it: g (0 in A, 1 in
// B), lr (local rank), p (local size), q (remote size).
std::string call_step(Collective c, int root_group, const std::string& op) {
  const std::string rg = std::to_string(root_group);
  const std::string root = "\"root\": \"g == " + rg + " ? (lr == p - 1 ? MPI_ROOT : MPI_PROC_NULL) : q - 1\"";
  const std::string vcounts = "\"[1 + k % 3 for k in 0..q]\"", vdispls = "\"[4 * k for k in 0..q]\"";
  switch (c) {
    case Collective::barrier: return R"("call": "MPI_Barrier")";
    case Collective::bcast: return R"("call": "MPI_Bcast", "buffer": "r", "count": 2, "datatype": "MPI_INT", )" + root;
    case Collective::gather:
      return R"("call": "MPI_Gather", "sendbuf": "s", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": 2, "recvtype": "MPI_INT", )" + root;
    case Collective::gatherv:
      return R"("call": "MPI_Gatherv", "sendbuf": "s", "sendcount": "1 + lr % 3", "sendtype": "MPI_INT", "recvbuf": "r", "recvcounts": )" +
             vcounts + R"(, "displs": )" + vdispls + R"(, "recvtype": "MPI_INT", )" + root;
    case Collective::scatter:
      return R"("call": "MPI_Scatter", "sendbuf": "s", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": 2, "recvtype": "MPI_INT", )" + root;
    case Collective::scatterv:
      return R"("call": "MPI_Scatterv", "sendbuf": "s", "sendcounts": )" + vcounts + R"(, "displs": )" + vdispls +
             R"(, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": "1 + lr % 3", "recvtype": "MPI_INT", )" + root;
    case Collective::allgather:
      return R"("call": "MPI_Allgather", "sendbuf": "s", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": 2, "recvtype": "MPI_INT")";
    case Collective::allgatherv:
      return R"("call": "MPI_Allgatherv", "sendbuf": "s", "sendcount": "1 + lr % 3", "sendtype": "MPI_INT", "recvbuf": "r", "recvcounts": )" +
             vcounts + R"(, "displs": )" + vdispls + R"(, "recvtype": "MPI_INT")";
    case Collective::alltoall:
      return R"("call": "MPI_Alltoall", "sendbuf": "s", "sendcount": 2, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": 2, "recvtype": "MPI_INT")";
    case Collective::alltoallv:
      // Rank i of one group sends 1 + i % 3 elements to every remote rank.
      return R"("call": "MPI_Alltoallv", "sendbuf": "s", "sendcounts": "[1 + lr % 3 for k in 0..q]", "sdispls": )" + vdispls +
             R"(, "sendtype": "MPI_INT", "recvbuf": "r", "recvcounts": )" + vcounts + R"(, "rdispls": )" + vdispls +
             R"(, "recvtype": "MPI_INT")";
    case Collective::alltoallw: break;  // see alltoallw_steps
    case Collective::reduce:
      return R"("call": "MPI_Reduce", "sendbuf": "m", "recvbuf": "mr", "count": 2, "datatype": "matrix", "op": ")" + op + "\", " + root;
    case Collective::allreduce:
      return R"("call": "MPI_Allreduce", "sendbuf": "m", "recvbuf": "mr", "count": 2, "datatype": "matrix", "op": ")" + op + "\"";
    case Collective::reduce_scatter_block:
      // Both groups reduce 2·p_A·p_B matrices, scattered in blocks of 2q.
      return R"("call": "MPI_Reduce_scatter_block", "sendbuf": "m", "recvbuf": "mr", "recvcount": "2 * q", "datatype": "matrix", "op": ")" +
             op + "\"";
    case Collective::reduce_scatter:
      // Unequal blocks; both groups' totals are 2·p_A·p_B.
      return R"("call": "MPI_Reduce_scatter", "sendbuf": "m", "recvbuf": "mr", "recvcounts": "[k == 0 ? 2 * q * p - 2 * (p - 1) : 2 for k in 0..p]", "datatype": "matrix", "op": ")" +
             op + "\"";
    case Collective::scan:
    case Collective::exscan: break;
    default: break;  // the neighbourhood collectives: no intercommunicator has a topology
  }
  return "";
}

// MPI_Alltoallw's type lists are as long as the remote group: one step per group.
std::string alltoallw_steps(int pa, int pb, const std::string& alg) {
  std::string out;
  for (int g = 0; g < 2; ++g) {
    std::string types = "[";
    for (int k = 0; k < (g == 0 ? pb : pa); ++k) types += std::string(k ? ", " : "") + "\"MPI_INT\"";
    types += "]";
    out += std::string(g ? ", " : "") + R"({"ranks": "g == )" + std::to_string(g) +
           R"(", "call": "MPI_Alltoallw", "sendbuf": "s", "sendcounts": "[1 + lr % 3 for k in 0..q]", "sdispls": "[16 * k for k in 0..q]", "sendtypes": )" +
           types + R"(, "recvbuf": "r", "recvcounts": "[1 + k % 3 for k in 0..q]", "rdispls": "[16 * k for k in 0..q]", "recvtypes": )" +
           types + R"(, "comm": "ab", "algorithm": ")" + alg + R"("})";
  }
  return out;
}

runner::Result run(int pa, int pb, const coll::Algorithm& alg, int root_group, const std::string& op) {
  const std::string step = alg.collective == Collective::alltoallw
                               ? alltoallw_steps(pa, pb, std::string(alg.name))
                               : "{" + call_step(alg.collective, root_group, op) + R"(, "comm": "ab", "algorithm": ")" +
                                     std::string(alg.name) + "\"}";
  std::string text = R"J({"mpisim": 1, "program": [
    {"let": {"g": "rank < )J" + std::to_string(pa) + R"J( ? 0 : 1"}},
    {"call": "MPI_Comm_split", "comm": "MPI_COMM_WORLD", "color": "g", "key": "rank", "newcomm": "local"},
    {"call": "MPI_Intercomm_create", "local_comm": "local", "local_leader": 0, "peer_comm": "MPI_COMM_WORLD",
     "remote_leader": "g == 0 ? )J" + std::to_string(pa) + R"J( : 0", "tag": 5, "newintercomm": "ab"},
    {"call": "MPI_Comm_rank", "comm": "ab", "rank": "lr"},
    {"call": "MPI_Comm_size", "comm": "ab", "size": "p"},
    {"call": "MPI_Comm_remote_size", "comm": "ab", "size": "q"},
    {"call": "MPI_Type_contiguous", "count": 4, "oldtype": "MPI_INT", "newtype": "matrix"},
    {"call": "MPI_Type_commit", "datatype": "matrix"},
    {"call": "MPI_Op_create", "user_fn": "matrix_product_2x2", "commute": 0, "op": "matmul"},
    {"buffer": "s", "type": "MPI_INT", "count": "8 * q", "init": "100 * rank + i"},
    {"buffer": "r", "type": "MPI_INT", "count": "8 * q", "init": "g == )J" + std::to_string(root_group) + R"J( ? 7 * i : -1"},
    {"buffer": "m", "type": "MPI_INT", "count": "16 * p * q", "init": "i % 4 == 2 ? 0 : (i % 4 == 3 ? rank + 1 : 1 + i % 5)"},
    {"buffer": "mr", "type": "MPI_INT", "count": "16 * p * q", "init": -1},
    )J" + step + "]}";
  scenario::Scenario sc = scenario::parse_scenario(text, "intercomm-test");
  net::Network n = net::default_network();
  runner::Config cfg;
  cfg.ranks = pa + pb;
  cfg.payload = mpi::PayloadMode::data;
  cfg.trace_level = sim::TraceLevel::summary;
  cfg.verify = true;
  return scenario::run_scenario(sc, n, cfg);
}

}  // namespace

TEST_CASE("every intercommunicator algorithm gives the standard's result on groups of any sizes") {
  const std::pair<int, int> splits[] = {{1, 1}, {1, 3}, {3, 1}, {2, 5}, {4, 4}, {5, 2}};
  int runs = 0;
  for (const auto& alg : coll::algorithms()) {
    if (!alg.restrictions.intercomm) continue;
    for (const auto& split : splits)
      for (int root_group : {0, 1}) {
        const int pa = split.first, pb = split.second;  // named, not bound: CAPTURE takes them in a lambda
        if (!coll::rooted(alg.collective) && root_group == 1) continue;
        for (const char* op : {"MPI_SUM", "matmul"}) {
          if (!coll::reduces(alg.collective) && std::string(op) != "MPI_SUM") continue;
          CAPTURE(alg.name);
          CAPTURE(coll::collective_name(alg.collective));
          CAPTURE(pa);
          CAPTURE(pb);
          CAPTURE(root_group);
          CAPTURE(op);
          runner::Result r = run(pa, pb, alg, root_group, op);
          std::string why;
          for (const auto& d : r.trace.diagnostics()) why += d.code + ": " + d.message + "\n";
          CAPTURE(why);
          CHECK(r.outcome == runner::Outcome::clean);
          ++runs;
        }
      }
  }
  CHECK(runs > 100);
}
