// Closed-form costs: on a contention-free Hockney network (α, β, γ; local copies
// free; no eager limit) and a power-of-two p, each algorithm's predicted time is
// the formula of Thakur, Rabenseifner & Gropp, "Optimization of Collective
// Communication Operations in MPICH" (2005), exactly, to the picosecond. The same
// holds on a crossbar topology without contention, and with contention wherever
// the algorithm puts one message at a time on each link.
//
// n is the message size in bytes as the paper uses it: the whole buffer for
// bcast, allreduce and the reduce-scatter's vector; all p blocks together for
// allgather, gather, scatter and alltoall.
#include <doctest/doctest.h>

#include <bit>
#include <functional>
#include <string>

#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

using namespace mpisim;

namespace {

// α = 1000 ps, β = 3 ps/B, γ = 2 ps/B: distinct, so a term with the wrong factor shows.
constexpr std::int64_t kAlpha = 1000, kBeta = 3, kGamma = 2;
const char* const kHockney = R"({"mpisim-network": 1, "name": "closed-form", "model": "hockney",
  "alpha": "1000ps", "beta": "3ps", "gamma": "2ps"})";
// The same costs on a crossbar: a route is two links of 500 ps, so α = 1000 ps;
// no per-message overhead or gap (Hockney has none). Without contention every
// message gets the route's bandwidth, as Hockney's does.
const char* const kCrossbar = R"({"mpisim-network": 1, "name": "closed-form-crossbar", "model": "topology",
  "topology": {"kind": "crossbar"}, "link": {"latency": "500ps", "beta": "3ps"}, "gamma": "2ps",
  "overhead": "0ps", "gap": "0ps", "contention": false})";
// With contention, on the same crossbar: a rank's interface transfers one message
// at a time, so a message shares a link only with messages of other ranks entering
// its receiver at the same time. Where an algorithm never does that, Hockney's
// costs hold exactly; the binomial gather, whose root receives from several
// children at once, is slower there.
const char* const kShared = R"({"mpisim-network": 1, "name": "closed-form-shared", "model": "topology",
  "topology": {"kind": "crossbar"}, "link": {"latency": "500ps", "beta": "3ps"}, "gamma": "2ps",
  "overhead": "0ps", "gap": "0ps"})";
const char* const kNetworks[] = {kHockney, kCrossbar, kShared};
const char* network = kHockney;  // the one `makespan` uses
std::string network_text;         // a network made for one test

std::int64_t lg(std::int64_t p) {
  std::int64_t k = 0;
  while ((std::int64_t{1} << k) < p) ++k;
  return k;
}

// Runs one call of `call` (JSON arguments `args`, with `n_ints` MPI_INTs as the
// paper's n) on p ranks and returns the makespan in ps.
std::int64_t makespan(int p, const std::string& buffers, const std::string& call, const std::string& algorithm) {
  std::string text = R"({"mpisim": 1, "program": [)" + buffers + R"({"call": )" + call +
                     R"(, "comm": "MPI_COMM_WORLD", "algorithm": ")" + algorithm + R"("}]})";
  scenario::Scenario sc = scenario::parse_scenario(text, "closed-form");
  net::Network n = net::parse_network(network, "closed-form");
  runner::Config cfg;
  cfg.ranks = p;
  cfg.payload = mpi::PayloadMode::data;
  cfg.trace_level = sim::TraceLevel::summary;
  cfg.verify = true;
  runner::Result r = scenario::run_scenario(sc, n, cfg);
  REQUIRE(r.outcome == runner::Outcome::clean);
  return r.makespan_ps;
}

std::string buf(const char* name, std::int64_t count) {
  return R"({"buffer": ")" + std::string(name) + R"(", "type": "MPI_INT", "count": )" + std::to_string(count) +
         R"(, "init": "rank + i"},)";
}

// For every power of two p up to 32 and a few sizes: the simulated time of
// run(p, ints) equals formula(p, n), n = 4·ints bytes, ints a multiple of p.
void check(const char* what, const std::function<std::int64_t(int p, std::int64_t ints)>& run,
           const std::function<std::int64_t(std::int64_t p, std::int64_t n)>& formula, bool one_flow_per_link = true) {
  for (const char* net : kNetworks)
    for (int p : {2, 4, 8, 16, 32})
      for (std::int64_t per_rank : {1, 16, 1000}) {
        if (net == kShared && !one_flow_per_link) continue;
        network = net;
        std::int64_t ints = per_rank * p;
        std::int64_t n = ints * 4;
        CAPTURE(what);
        const char* model = net == kHockney ? "hockney" : net == kCrossbar ? "crossbar" : "crossbar, shared";
        CAPTURE(model);
        CAPTURE(p);
        CAPTURE(n);
        CHECK(run(p, ints) == formula(p, n));
      }
}

}  // namespace

TEST_CASE("binomial bcast costs ceil(lg p)(α + nβ)") {
  check(
      "MPI_Bcast binomial",
      [](int p, std::int64_t ints) {
        return makespan(p, buf("x", ints),
                        R"("MPI_Bcast", "buffer": "x", "count": )" + std::to_string(ints) +
                            R"(, "datatype": "MPI_INT", "root": 0)",
                        "binomial");
      },
      [](std::int64_t p, std::int64_t n) { return lg(p) * (kAlpha + n * kBeta); });
}

TEST_CASE("Open MPI's chain bcast costs (p−1)(α + nβ), its binary tree h(α + 2nβ) when complete") {
  check(
      "MPI_Bcast chain",
      [](int p, std::int64_t ints) {
        return makespan(p, buf("x", ints),
                        R"("MPI_Bcast", "buffer": "x", "count": )" + std::to_string(ints) +
                            R"(, "datatype": "MPI_INT", "root": 0)",
                        "chain");
      },
      [](std::int64_t p, std::int64_t n) { return (p - 1) * (kAlpha + n * kBeta); });
  for (const char* net : kNetworks)
    for (const int h : {1, 2, 3, 4})
      for (const std::int64_t ints : {1, 1000}) {
        network = net;
        const int p = (2 << h) - 1;
        CAPTURE(net);
        CAPTURE(p);
        CAPTURE(ints);
        CHECK(makespan(p, buf("x", ints),
                       R"("MPI_Bcast", "buffer": "x", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "root": 2)",
                       "binary_tree") == h * (kAlpha + 2 * 4 * ints * kBeta));
      }
  network = kHockney;
}

TEST_CASE("Open MPI's split binary tree bcast costs h(α + nβ) + α + nβ/2 when complete") {
  for (const char* net : {kHockney, kCrossbar})
    for (const int h : {1, 2, 3})
      for (const std::int64_t ints : {2, 2000}) {
        network = net;
        const int p = (2 << h) - 1;
        const std::int64_t n = 4 * ints;
        CAPTURE(net);
        CAPTURE(p);
        CAPTURE(ints);
        CHECK(makespan(p, buf("b", ints),
                       R"("MPI_Bcast", "buffer": "b", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "root": 2)",
                       "split_binary_tree") == h * (kAlpha + n * kBeta) + kAlpha + n / 2 * kBeta);
      }
  network = kHockney;
}

TEST_CASE("Open MPI's binary reduce costs h(α + nβ + 2nγ) on a complete tree of height h") {
  // Both children send at once: without contention both arrive α + nβ later (on
  // the shared crossbar they would share the parent's link).
  for (const char* net : {kHockney, kCrossbar})
    for (const int h : {1, 2, 3, 4})
      for (const std::int64_t ints : {1, 1000}) {
        network = net;
        const int p = (2 << h) - 1;
        const std::int64_t n = 4 * ints;
        CAPTURE(net);
        CAPTURE(p);
        CAPTURE(ints);
        CHECK(makespan(p, buf("s", ints) + buf("r", ints),
                       R"("MPI_Reduce", "sendbuf": "s", "recvbuf": "r", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "op": "MPI_SUM", "root": 1)",
                       "binary") == h * (kAlpha + n * kBeta + 2 * n * kGamma));
      }
  network = kHockney;
}

TEST_CASE("Open MPI's chain reduce costs (p−1)(α + nβ + nγ)") {
  for (const char* net : {kHockney, kCrossbar})
    for (const int p : {2, 3, 5, 8})
      for (const std::int64_t ints : {1, 1000}) {
        network = net;
        const std::int64_t n = 4 * ints;
        CAPTURE(net);
        CAPTURE(p);
        CAPTURE(ints);
        CHECK(makespan(p, buf("s", ints) + buf("r", ints),
                       R"("MPI_Reduce", "sendbuf": "s", "recvbuf": "r", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "op": "MPI_SUM", "root": 1)",
                       "chain") == (p - 1) * (kAlpha + n * kBeta + n * kGamma));
      }
  network = kHockney;
}

TEST_CASE("Open MPI's in-order binary reduce costs h(α + nβ + 2nγ) rooted at p−1, α + nβ more elsewhere") {
  for (const int h : {1, 2, 3})
    for (const std::int64_t ints : {1, 1000}) {
      const int p = (2 << h) - 1;
      const std::int64_t n = 4 * ints;
      CAPTURE(p);
      CAPTURE(ints);
      for (const int root : {p - 1, 0}) {
        CAPTURE(root);
        CHECK(makespan(p, buf("s", ints) + buf("r", ints),
                       R"("MPI_Reduce", "sendbuf": "s", "recvbuf": "r", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "op": "MPI_SUM", "root": )" + std::to_string(root),
                       "in_order_binary") ==
              h * (kAlpha + n * kBeta + 2 * n * kGamma) + (root == p - 1 ? 0 : kAlpha + n * kBeta));
      }
    }
}

TEST_CASE("k-nomial bcast costs log_k p·(α + (k-1)·nβ) for p = k^m") {
  // Each rank posts its sends to all its children at once and its port transfers
  // them one after the other: the root's first child of the highest level
  // receives at α + nβ, its last of that level at α + (k-1)·nβ.
  for (const char* net : kNetworks)
    for (const std::int64_t k : {2, 3, 4, 8})
      for (std::int64_t p = k, m = 1; p <= 64; p *= k, ++m)
        for (const std::int64_t ints : {1, 1000}) {
          network = net;
          CAPTURE(net);
          CAPTURE(k);
          CAPTURE(p);
          CAPTURE(ints);
          const std::int64_t n = 4 * ints;
          CHECK(makespan(static_cast<int>(p), buf("x", ints),
                         R"("MPI_Bcast", "buffer": "x", "count": )" + std::to_string(ints) +
                             R"(, "datatype": "MPI_INT", "root": 0, "radix": )" + std::to_string(k),
                         "knomial") == m * (kAlpha + (k - 1) * n * kBeta));
        }
}

TEST_CASE("k-nomial bcast delivers the root's buffer for any p, root and radix") {
  // makespan() runs with --verify: every rank's buffer is checked against the
  // definition after the call.
  network = kShared;
  for (const int p : {5, 7, 10, 13})
    for (const int k : {2, 3, 5, 16})
      for (const int root : {0, p - 1, 3}) {
        CAPTURE(p);
        CAPTURE(k);
        CAPTURE(root);
        CHECK(makespan(p, buf("x", 3),
                       R"("MPI_Bcast", "buffer": "x", "count": 3, "datatype": "MPI_INT", "root": )" +
                           std::to_string(root) + R"(, "radix": )" + std::to_string(k),
                       "knomial") > 0);
      }
}

namespace {
// Nodes of c ranks on a crossbar: between nodes α = 1000 ps and β = 3 ps/B, inside
// a node α' = 100 ps and β' = 1 ps/B, γ = 2 ps/B; no contention, no per-message costs.
std::string nodes_of(int c) {
  return R"({"mpisim-network": 1, "model": "topology", "topology": {"kind": "crossbar"},
    "link": {"latency": "500ps", "beta": "3ps"}, "intra_node": {"latency": "100ps", "beta": "1ps"},
    "overhead": "0ps", "gap": "0ps", "contention": false, "gamma": "2ps",
    "placement": {"kind": "block", "ranks_per_node": )" + std::to_string(c) + "}}";
}
}  // namespace

TEST_CASE("SMP-aware bcast of a short buffer costs lg q·(α + nβ) + lg c·(α' + nβ') on q nodes of c ranks") {
  // Between nodes α = 1000 ps and β = 3 ps/B; inside a node α' = 100 ps and
  // β' = 1 ps/B; no contention, no per-message costs. The root, rank 0, leads its
  // node; the leaders' and the nodes' bcasts are binomial (fewer than 8 ranks),
  // whose form holds for powers of two.
  for (const int c : {1, 2, 4})
    for (const int q : {1, 2, 4}) {
      network_text = nodes_of(c);
      network = network_text.c_str();
      for (const std::int64_t ints : {1, 100}) {
        CAPTURE(c);
        CAPTURE(q);
        CAPTURE(ints);
        const std::int64_t n = 4 * ints;
        CHECK(makespan(c * q, buf("x", ints),
                       R"("MPI_Bcast", "buffer": "x", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "root": 0)",
                       "smp") == lg(q) * (kAlpha + n * kBeta) + lg(c) * (100 + n));
      }
    }
  network = kHockney;
}

TEST_CASE("SMP-aware reduce costs lg c·(α' + nβ' + nγ) + lg q·(α + nβ + nγ) + lg c·nγ on q > 1 nodes of c ranks") {
  // As the SMP-aware bcast's network, with γ = 2 ps/B: the other nodes' binomial
  // reduces, then the leaders', then the root's node's (root 0 leads node 0),
  // whose partial results arrived meanwhile and only need combining: lg c·nγ.
  // On one node, the node's reduce alone.
  for (const int c : {1, 2, 4})
    for (const int q : {1, 2, 4}) {
      network_text = nodes_of(c);
      network = network_text.c_str();
      for (const std::int64_t ints : {1, 100}) {
        CAPTURE(c);
        CAPTURE(q);
        CAPTURE(ints);
        const std::int64_t n = 4 * ints;
        CHECK(makespan(c * q, buf("s", ints) + buf("r", ints),
                       R"("MPI_Reduce", "sendbuf": "s", "recvbuf": "r", "count": )" + std::to_string(ints) +
                           R"(, "datatype": "MPI_INT", "op": "MPI_SUM", "root": 0)",
                       "smp") == lg(c) * (100 + n + n * kGamma) +
                                    (q > 1 ? lg(q) * (kAlpha + n * kBeta + n * kGamma) + lg(c) * n * kGamma : 0));
      }
    }
  network = kHockney;
}

TEST_CASE("Open MPI's barriers: linear 2α, tree 2hα, recursive doubling lg p·α, double ring 2pα") {
  // h: the tree's height, the most bits set in a rank below p (lg p for a power of two).
  const auto height = [](int p) {
    int h = 0;
    for (int r = 0; r < p; ++r) h = std::max(h, std::popcount(static_cast<unsigned>(r)));
    return h;
  };
  for (const char* net : kNetworks)
    for (int p : {2, 4, 8, 16, 32, 5, 12}) {
      network = net;
      CAPTURE(net);
      CAPTURE(p);
      CHECK(makespan(p, "", R"("MPI_Barrier")", "linear") == 2 * kAlpha);
      CHECK(makespan(p, "", R"("MPI_Barrier")", "tree") == 2 * height(p) * kAlpha);
      if ((p & (p - 1)) == 0) CHECK(makespan(p, "", R"("MPI_Barrier")", "recursive_doubling") == lg(p) * kAlpha);
      CHECK(makespan(p, "", R"("MPI_Barrier")", "double_ring") == 2 * p * kAlpha);
    }
  network = kHockney;
}

TEST_CASE("dissemination barrier costs ceil(lg p)·α") {
  for (const char* net : kNetworks)
    for (int p : {2, 4, 8, 16, 32, 5, 12}) {
      network = net;
      CAPTURE(net);
      CAPTURE(p);
      CHECK(makespan(p, "", R"("MPI_Barrier")", "dissemination") == lg(p) * kAlpha);
    }
}

namespace {

std::int64_t allgather(int p, std::int64_t ints, const char* alg) {
  std::int64_t block = ints / p;
  return makespan(p, buf("s", block) + buf("r", ints),
                  R"("MPI_Allgather", "sendbuf": "s", "sendcount": )" + std::to_string(block) +
                      R"(, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": )" + std::to_string(block) +
                      R"(, "recvtype": "MPI_INT")",
                  alg);
}

std::int64_t rooted(const char* call, int p, std::int64_t ints, const char* alg) {
  std::int64_t block = ints / p;
  return makespan(p, buf("s", ints) + buf("r", ints),
                  R"(")" + std::string(call) + R"(", "sendbuf": "s", "sendcount": )" + std::to_string(block) +
                      R"(, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": )" + std::to_string(block) +
                      R"(, "recvtype": "MPI_INT", "root": 0)",
                  alg);
}

std::int64_t reduce_scatter_block(int p, std::int64_t ints, const char* alg) {
  return makespan(p, buf("s", ints) + buf("r", ints / p),
                  R"("MPI_Reduce_scatter_block", "sendbuf": "s", "recvbuf": "r", "recvcount": )" +
                      std::to_string(ints / p) + R"(, "datatype": "MPI_INT", "op": "MPI_SUM")",
                  alg);
}

std::int64_t allreduce(int p, std::int64_t ints, const char* alg) {
  return makespan(p, buf("s", ints) + buf("r", ints),
                  R"("MPI_Allreduce", "sendbuf": "s", "recvbuf": "r", "count": )" + std::to_string(ints) +
                      R"(, "datatype": "MPI_INT", "op": "MPI_SUM")",
                  alg);
}

std::int64_t alltoall(int p, std::int64_t ints, const char* alg) {
  std::int64_t block = ints / p;
  return makespan(p, buf("s", ints) + buf("r", ints),
                  R"("MPI_Alltoall", "sendbuf": "s", "sendcount": )" + std::to_string(block) +
                      R"(, "sendtype": "MPI_INT", "recvbuf": "r", "recvcount": )" + std::to_string(block) +
                      R"(, "recvtype": "MPI_INT")",
                  alg);
}

}  // namespace

TEST_CASE("recursive-doubling allgather costs lg p·α + (p−1)/p·nβ") {
  check(
      "MPI_Allgather recursive_doubling", [](int p, std::int64_t ints) { return allgather(p, ints, "recursive_doubling"); },
      [](std::int64_t p, std::int64_t n) { return lg(p) * kAlpha + (p - 1) * n / p * kBeta; });
}

TEST_CASE("ring allgather costs (p−1)α + (p−1)/p·nβ") {
  check(
      "MPI_Allgather ring", [](int p, std::int64_t ints) { return allgather(p, ints, "ring"); },
      [](std::int64_t p, std::int64_t n) { return (p - 1) * kAlpha + (p - 1) * n / p * kBeta; });
}

TEST_CASE("binomial scatter and gather cost lg p·α + (p−1)/p·nβ") {
  auto formula = [](std::int64_t p, std::int64_t n) { return lg(p) * kAlpha + (p - 1) * n / p * kBeta; };
  check(
      "MPI_Scatter binomial", [](int p, std::int64_t ints) { return rooted("MPI_Scatter", p, ints, "binomial"); },
      formula);
  check(
      "MPI_Gather binomial", [](int p, std::int64_t ints) { return rooted("MPI_Gather", p, ints, "binomial"); },
      formula, false);
}

TEST_CASE("recursive-halving reduce-scatter costs lg p·α + (p−1)/p·n(β + γ)") {
  check(
      "MPI_Reduce_scatter_block recursive_halving",
      [](int p, std::int64_t ints) { return reduce_scatter_block(p, ints, "recursive_halving"); },
      [](std::int64_t p, std::int64_t n) { return lg(p) * kAlpha + (p - 1) * n / p * (kBeta + kGamma); });
}

TEST_CASE("recursive-doubling reduce-scatter costs lg p·α + (lg p − (p−1)/p)·n(β + γ)") {
  // Each round leaves out the blocks of the sender's own subtree: n − 2^k·n/p bytes in round k.
  check(
      "MPI_Reduce_scatter_block recursive_doubling",
      [](int p, std::int64_t ints) { return reduce_scatter_block(p, ints, "recursive_doubling"); },
      [](std::int64_t p, std::int64_t n) {
        return lg(p) * kAlpha + (lg(p) * n - (p - 1) * n / p) * (kBeta + kGamma);
      });
}

TEST_CASE("Open MPI's butterfly reduce-scatter costs lg p·α + (p−1)/p·n(β + γ), and α + nβ/p more from 4 ranks on") {
  // The last exchange moves each reduced block to its owner, the rank whose number
  // is v's bits reversed: on 2 ranks every rank keeps its own, from 4 on some do not.
  check(
      "MPI_Reduce_scatter_block butterfly",
      [](int p, std::int64_t ints) { return reduce_scatter_block(p, ints, "butterfly"); },
      [](std::int64_t p, std::int64_t n) {
        return lg(p) * kAlpha + (p - 1) * n / p * (kBeta + kGamma) + (p > 2 ? kAlpha + n / p * kBeta : 0);
      });
}

TEST_CASE("pairwise reduce-scatter costs (p−1)α + (p−1)/p·n(β + γ)") {
  check(
      "MPI_Reduce_scatter_block pairwise",
      [](int p, std::int64_t ints) { return reduce_scatter_block(p, ints, "pairwise"); },
      [](std::int64_t p, std::int64_t n) { return (p - 1) * kAlpha + (p - 1) * n / p * (kBeta + kGamma); });
}

TEST_CASE("Rabenseifner allreduce costs 2 lg p·α + 2(p−1)/p·nβ + (p−1)/p·nγ") {
  check(
      "MPI_Allreduce rabenseifner", [](int p, std::int64_t ints) { return allreduce(p, ints, "rabenseifner"); },
      [](std::int64_t p, std::int64_t n) {
        return 2 * lg(p) * kAlpha + 2 * (p - 1) * n / p * kBeta + (p - 1) * n / p * kGamma;
      });
}

TEST_CASE("recursive-doubling allreduce costs lg p·(α + nβ + nγ)") {
  check(
      "MPI_Allreduce recursive_doubling",
      [](int p, std::int64_t ints) { return allreduce(p, ints, "recursive_doubling"); },
      [](std::int64_t p, std::int64_t n) { return lg(p) * (kAlpha + n * kBeta + n * kGamma); });
}

TEST_CASE("Open MPI's linear_nb scatter and linear_sync alltoall cost α + (p−1)/p·nβ") {
  // The root's (every rank's) sends leave one after the other; each receiver gets
  // one message at a time (the alltoall's k-th sends are a permutation).
  auto formula = [](std::int64_t p, std::int64_t n) { return kAlpha + (p - 1) * n / p * kBeta; };
  check(
      "MPI_Scatter linear_nb", [](int p, std::int64_t ints) { return rooted("MPI_Scatter", p, ints, "linear_nb"); },
      formula);
  check(
      "MPI_Alltoall linear_sync", [](int p, std::int64_t ints) { return alltoall(p, ints, "linear_sync"); }, formula);
}

TEST_CASE("Open MPI's linear_sync gather costs (p−1)(2α + (n/p)β)") {
  // One rank at a time: the root's empty message, then that rank's block.
  check(
      "MPI_Gather linear_sync", [](int p, std::int64_t ints) { return rooted("MPI_Gather", p, ints, "linear_sync"); },
      [](std::int64_t p, std::int64_t n) { return (p - 1) * (2 * kAlpha + n / p * kBeta); });
}

TEST_CASE("Open MPI's neighbor-exchange allgather costs (p/2)·α + (p−1)/p·nβ for an even p") {
  check(
      "MPI_Allgather neighbor", [](int p, std::int64_t ints) { return allgather(p, ints, "neighbor"); },
      [](std::int64_t p, std::int64_t n) { return p / 2 * kAlpha + (p - 1) * n / p * kBeta; });
}

TEST_CASE("Open MPI's two_proc barrier, allgather and alltoall cost α, α + (n/2)β, α + (n/2)β on two ranks") {
  for (const char* net : kNetworks)
    for (std::int64_t ints : {2, 32, 2000}) {
      network = net;
      CAPTURE(net);
      CAPTURE(ints);
      const std::int64_t n = 4 * ints;
      CHECK(makespan(2, "", R"("MPI_Barrier")", "two_proc") == kAlpha);
      CHECK(allgather(2, ints, "two_proc") == kAlpha + n / 2 * kBeta);
      CHECK(alltoall(2, ints, "two_proc") == kAlpha + n / 2 * kBeta);
    }
  network = kHockney;
}

TEST_CASE("pairwise alltoall costs (p−1)(α + nβ/p)") {
  check(
      "MPI_Alltoall pairwise", [](int p, std::int64_t ints) { return alltoall(p, ints, "pairwise"); },
      [](std::int64_t p, std::int64_t n) { return (p - 1) * (kAlpha + n / p * kBeta); });
}
