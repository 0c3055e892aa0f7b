// Flow-sharing benchmark of the topology model (not a test: it reports figures).
//
//   mpisim_flow_bench SHAPE FLOWS EVENTS
//
// Keeps FLOWS messages in flight on a network: every message that arrives starts a
// new one, until EVENTS flow starts and ends have happened. Reports flow
// events per wall-clock second, how many flows each rate solve covered, and the
// virtual time reached (two builds that compute the same rates reach the same time).
// SHAPE is one of:
//   disjoint  a crossbar of 2·FLOWS nodes, each message between its own two nodes:
//             no two flows share a link (the solver's best case)
//   fat-tree  the 16-ary 3-tree of scenarios/networks/fat-tree.json (4,096 nodes),
//             random pairs: every node link carries a few flows, so most links are
//             full and every flow is coupled to the others through them, but a
//             change moves the rates of a few dozen flows
//   torus     the 8x8x8 torus of scenarios/networks/torus-3d.json (512 nodes),
//             random pairs: with 10,000 flows every link carries about 20, and a
//             change moves rates across much of the network (the hard case)
// On the fat tree and the torus each node holds 2·FLOWS/nodes ranks, and the pairs
// are of random ranks on different nodes: a rank transfers one message at a time,
// so this many senders keep about FLOWS flows sharing the links at once.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "model/net/flow_model.hpp"
#include "model/net/network_file.hpp"

using namespace mpisim;
using sim::SimTime;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: mpisim_flow_bench disjoint|fat-tree|torus FLOWS EVENTS\n");
    return 2;
  }
  const std::string shape = argv[1];
  const auto flows = static_cast<std::uint32_t>(std::stoul(argv[2]));
  const auto events = std::stoull(argv[3]);
  std::string topo;
  std::uint32_t nodes = 0;
  if (shape == "disjoint") {
    topo = R"({"kind": "crossbar"})";
    nodes = 2 * flows;
  } else if (shape == "fat-tree") {
    topo = R"({"kind": "fat_tree", "k": 16, "n": 3})";
    nodes = 4096;
  } else if (shape == "torus") {
    topo = R"({"kind": "torus", "dims": [8, 8, 8]})";
    nodes = 512;
  } else {
    std::fprintf(stderr, "unknown shape %s\n", shape.c_str());
    return 2;
  }
  const std::uint32_t per_node = shape == "disjoint" ? 1 : std::max<std::uint32_t>(1, (2 * flows + nodes - 1) / nodes);
  const std::uint32_t ranks = nodes * per_node;
  net::Network n = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "topology": )" + topo +
                                          R"(, "link": {"latency": "100ns", "bandwidth": "100 Gbit/s"},
                                          "placement": {"kind": "block", "ranks_per_node": )" +
                                          std::to_string(per_node) + "}}",
                                      "bench");
  auto& m = dynamic_cast<net::FlowModel&>(*n.model);
  m.reset(ranks);
  std::mt19937_64 rng(1);
  auto pair = [&](std::uint64_t i, std::uint32_t& a, std::uint32_t& b) {
    if (shape == "disjoint") {
      a = static_cast<std::uint32_t>(2 * (i % flows));
      b = a + 1;
      return;
    }
    a = static_cast<std::uint32_t>(rng() % ranks);
    b = static_cast<std::uint32_t>(rng() % (ranks - per_node));
    if (b / per_node >= a / per_node) b += per_node;  // a rank of another node
  };
  auto size = [&] { return 1024 + rng() % (1 << 20); };
  std::uint64_t started = 0, ended = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (std::uint32_t i = 0; i < flows; ++i) {
    std::uint32_t a, b;
    pair(started, a, b);
    m.start_send(a, b, size(), SimTime::from_ps(i), started);
    ++started;
  }
  std::vector<std::uint64_t> arrived;
  SimTime last{};
  while (started + ended < events) {
    SimTime t = m.next_event();
    if (t == SimTime::never()) break;
    last = t;
    arrived.clear();
    m.advance(t, arrived);
    for (std::uint64_t token : arrived) {
      ++ended;
      std::uint32_t a, b;
      pair(shape == "disjoint" ? token : started, a, b);
      m.start_send(a, b, size(), t, started);
      ++started;
    }
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %u flows in flight, %llu starts + %llu ends in %.2f s: %.0f flow events/s; "
              "%llu solves covering %.1f flows each on average; virtual time %llu ps\n",
              shape.c_str(), flows, static_cast<unsigned long long>(started), static_cast<unsigned long long>(ended), s,
              static_cast<double>(started + ended) / s, static_cast<unsigned long long>(m.solves()),
              static_cast<double>(m.solved_flows()) / static_cast<double>(std::max<std::uint64_t>(1, m.solves())),
              static_cast<unsigned long long>(last.ps));
  return 0;
}
