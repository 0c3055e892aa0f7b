// The topology model's flows: max-min fair sharing with its closed forms, the
// incremental solver against a full one, placement, and bad network files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <random>

#include "model/net/flow_model.hpp"
#include "model/net/network_file.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using namespace mpisim;
using net::Network;
using sim::SimTime;

namespace {

struct Send {
  std::uint32_t src, dst;
  std::uint64_t bytes;
  std::int64_t at_ps;
};

// Drives the model alone: starts each send at its time and returns every
// message's arrival time in ps, by index. `after` runs each time the model has
// brought its rates up to date.
std::vector<std::int64_t> arrivals(net::CostModel& m, std::uint32_t ranks, std::vector<Send> sends,
                                   const std::function<void()>& after = {}) {
  m.reset(ranks);
  std::vector<std::int64_t> out(sends.size(), -1);
  std::vector<std::uint64_t> arrived;
  std::size_t next = 0;
  for (;;) {
    SimTime t = m.next_event();
    if (next < sends.size() && SimTime::from_ps(sends[next].at_ps) <= t) {
      const Send& s = sends[next];
      SimTime a = m.start_send(s.src, s.dst, s.bytes, SimTime::from_ps(s.at_ps), next);
      if (a != net::CostModel::kDeferred) out[next] = a.ps;
      ++next;
      continue;
    }
    if (t == SimTime::never()) break;
    arrived.clear();
    m.advance(t, arrived);
    for (auto token : arrived) out[token] = t.ps;
    if (after) after();
  }
  return out;
}

// The largest relative difference between a transferring flow's rate and its
// max-min fair rate, found here from scratch by progressive filling over every
// flow: the link with the smallest fair share fixes its flows at that share.
double maxmin_error(const net::FlowModel& m) {
  auto flows = m.transferring();
  std::map<std::uint32_t, double> left;
  std::map<std::uint32_t, int> unfixed;
  for (const auto& [route, rate] : flows)
    for (std::uint32_t l : route) {
      left.emplace(l, m.capacity(l));
      ++unfixed[l];
    }
  std::vector<double> fair(flows.size(), -1);
  for (std::size_t fixed = 0; fixed < flows.size();) {
    std::uint32_t best = 0;
    double share = std::numeric_limits<double>::infinity();
    for (const auto& [l, n] : unfixed)
      if (n > 0 && left[l] / n < share) share = left[l] / n, best = l;
    for (std::size_t i = 0; i < flows.size(); ++i) {
      const auto& route = flows[i].first;
      if (fair[i] >= 0 || std::find(route.begin(), route.end(), best) == route.end()) continue;
      fair[i] = share;
      ++fixed;
      for (std::uint32_t l : route) left[l] -= share, --unfixed[l];
    }
  }
  double worst = 0;
  for (std::size_t i = 0; i < flows.size(); ++i)
    worst = std::max(worst, std::abs(flows[i].second - fair[i]) / fair[i]);
  return worst;
}

Network network(const std::string& topology, const std::string& extra = "") {
  return net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": )" + topology +
                                R"(, "link": {"latency": "0ps", "beta": "1ps"})" + extra + "}",
                            "net.json");
}

}  // namespace

// Two ranks on each node: ranks 2k and 2k + 1 share node k's links.
const char* const kTwoPerNode = R"(, "placement": {"kind": "block", "ranks_per_node": 2})";

TEST_CASE("flows share links max-min fairly") {
  // A crossbar of 4 nodes, two ranks each, links of 1 B/ps, no latency. Four flows
  // of 1200 B, from four different ranks, node to node:
  //   f0: 0 -> 1, f1: 0 -> 2, f2: 1 -> 2, f3: 3 -> 2.
  // Node 2's down link carries f1, f2, f3: 1/3 B/ps each. Node 0's up link carries
  // f0 and f1; f1 has 1/3, so f0 gets 2/3. f0 ends at 1800 ps; the others, held by
  // node 2's link throughout, at 3600 ps.
  Network n = network(R"({"kind": "crossbar"})", kTwoPerNode);
  auto t = arrivals(*n.model, 8, {{0, 2, 1200, 0}, {1, 4, 1200, 0}, {2, 5, 1200, 0}, {6, 4, 1200, 0}});
  CHECK(t == std::vector<std::int64_t>{1800, 3600, 3600, 3600});
}

TEST_CASE("a rank's interface transfers one message at a time, in the order sent") {
  // Links of 1 us, 1 B/ps. Rank 0 sends 1000 B to rank 1, then 1000 B to rank 2,
  // at once: the second starts its transfer when the first has sent its last
  // byte, as Hockney's port would (2 us + 1000 ps, then 1000 ps more), with and
  // without contention. Ranks 1 and 2 sending to rank 0 at once do share its link.
  for (const char* contention : {"true", "false"}) {
    Network n = net::parse_network(std::string(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
      "link": {"latency": "1us", "beta": "1ps"}, "contention": )") + contention + "}",
                                   "net.json");
    CAPTURE(contention);
    auto t = arrivals(*n.model, 3, {{0, 1, 1000, 0}, {0, 2, 1000, 0}});
    CHECK(t == std::vector<std::int64_t>{2'001'000, 2'002'000});
  }
  Network n = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ps"}})",
                                 "net.json");
  auto u = arrivals(*n.model, 3, {{1, 0, 1000, 0}, {2, 0, 1000, 0}});
  CHECK(u == std::vector<std::int64_t>{2'002'000, 2'002'000});
}

TEST_CASE("a flow that ends frees its share for the others") {
  // Node 0's two ranks send 400 B to node 1 and 800 B to node 2 at once over its one
  // up link (1 B/ps): 1/2 B/ps each until the first ends at 800 ps with 400 B of the
  // second left, which then runs at 1 B/ps and ends at 1200 ps.
  Network n = network(R"({"kind": "crossbar"})", kTwoPerNode);
  auto t = arrivals(*n.model, 6, {{0, 2, 400, 0}, {1, 4, 800, 0}});
  CHECK(t == std::vector<std::int64_t>{800, 1200});
}

TEST_CASE("a change reaches flows on links that no changed flow crosses") {
  // Crossbar, links of 1 B/ps, no latency, node to node: f0 0 -> 1 (300 B), f1 2 -> 1,
  // f2 2 -> 3 (from node 2's other rank), f3 4 -> 1 (1000 B each). Node 1's down
  // link carries f0, f1, f3 at 1/3 B/ps;
  // node 2's up link carries f1 and f2, which gets the 2/3 left. f0 ends at 900 ps;
  // only its links changed, but f1 and f3 now get 1/2 on node 1's down link, so
  // f2, two links away, drops to 1/2 on node 2's up link: f2 has 400 B left and
  // ends at 1700 ps, f1 and f3 (300 B left then) at 2300 ps.
  Network n = network(R"({"kind": "crossbar"})", kTwoPerNode);
  auto t = arrivals(*n.model, 10, {{0, 2, 300, 0}, {4, 3, 1000, 0}, {5, 6, 1000, 0}, {8, 2, 1000, 0}});
  CHECK(t == std::vector<std::int64_t>{900, 2300, 1700, 2300});
}

TEST_CASE("a message alone costs its route's latency plus n over the slowest link") {
  // Crossbar links of 1 us: α = 2 us; β = 1 ps/B.
  Network n = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ps"}})",
                                 "net.json");
  auto t = arrivals(*n.model, 2, {{0, 1, 5000, 0}, {1, 0, 0, 10}});
  CHECK(t == std::vector<std::int64_t>{2'000'000 + 5000, 10 + 2'000'000});
}

TEST_CASE("a message in its latency does not take bandwidth") {
  // Links of 1 us latency, 1 B/ps. f0 (1000 B, from t = 0) transfers over
  // [0, 1000 ps) and arrives 2 us later. f1 starts at 1 us from the same node,
  // long after f0's last byte left: neither slows the other.
  Network n = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ps"}})",
                                 "net.json");
  auto t = arrivals(*n.model, 3, {{0, 1, 1000, 0}, {0, 2, 1000, 1'000'000}});
  CHECK(t == std::vector<std::int64_t>{2'001'000, 3'001'000});
}

TEST_CASE("a message waits for the injection of its rank's earlier one, not for its latency") {
  // The shipped fat tree (16-ary 3-tree, 250 ns and 100 Gbit/s = 80 ps/B per
  // link, 200 ns of sender overhead). Rank 0 sends 8 B to rank 255 (same level-1
  // subtree: 4 links, 1 us), then 8 B to rank 1 (same leaf switch: 2 links,
  // 0.5 us), at once. Each holds the interface for its injection, 8 B x 80 ps =
  // 640 ps: the first is injected over [0, 640) and arrives at 640 ps + 1 us (and
  // the overhead), the second over [640, 1280) and arrives at 1280 ps + 0.5 us,
  // without waiting for the first's latency. The same without contention.
  std::ifstream in(std::string(MPISIM_SOURCE_DIR) + "/scenarios/networks/fat-tree.json");
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(!file.empty());
  for (const bool contention : {true, false}) {
    CAPTURE(contention);
    std::string text = file;
    if (!contention) text.insert(text.rfind('}'), R"(, "contention": false)");
    Network n = net::parse_network(text, "fat-tree.json");
    auto t = arrivals(*n.model, 256, {{0, 255, 8, 0}, {0, 1, 8, 0}});
    CHECK(t == std::vector<std::int64_t>{640 + 1'000'000 + 200'000, 1280 + 500'000 + 200'000});
  }
}

TEST_CASE("the incremental solver gives the rates of a full solve") {
  // Random messages at random times on shapes where flows cross shared links
  // (an oversubscribed fat tree, a dragonfly, a torus, and the torus again with
  // hundreds of messages in flight at once): after every change, every flow's rate is
  // its max-min fair rate computed from scratch, and every arrival equals the one
  // of a model that re-solves every flow at every change, to rounding (a
  // completion is rounded to the picosecond, and one a picosecond off moves the
  // rate changes that follow it by as much).
  struct Case {
    const char* shape;
    int sends, gap_ps;
  };
  for (const Case c : {Case{R"({"kind": "fat_tree", "k": 4, "n": 2, "oversubscription": 3})", 400, 300},
                       Case{R"({"kind": "dragonfly", "groups": 5, "routers": 2, "hosts_per_router": 2})", 400, 300},
                       Case{R"({"kind": "torus", "dims": [4, 4]})", 400, 300},
                       Case{R"({"kind": "torus", "dims": [4, 4]})", 1500, 40}}) {
    // 64 ranks on each of the 16 nodes, so that many messages of different ranks
    // share the links at once (a rank transfers one message at a time).
    constexpr std::uint32_t kRanks = 16 * 64;
    const std::string placement = R"(, "placement": {"kind": "block", "ranks_per_node": 64})";
    std::mt19937_64 rng(7);
    std::vector<Send> sends;
    std::int64_t at = 0;
    for (int i = 0; i < c.sends; ++i) {
      std::uint32_t a = rng() % kRanks, b = rng() % kRanks;
      if (a / 64 == b / 64) b = (b + 64) % kRanks;  // another node
      at += static_cast<std::int64_t>(rng() % c.gap_ps);
      sends.push_back({a, b, 100 + rng() % 5000, at});
    }
    Network inc = network(c.shape, placement);
    auto& flow = dynamic_cast<net::FlowModel&>(*inc.model);
    double worst_rate = 0;
    std::size_t most = 0;
    auto fast = arrivals(flow, kRanks, sends, [&] {
      worst_rate = std::max(worst_rate, maxmin_error(flow));
      most = std::max(most, flow.transferring().size());
    });
    CAPTURE(c.shape);
    CAPTURE(c.sends);
    CHECK(flow.solves() > 0);
    CHECK(worst_rate < 1e-9);
    MESSAGE("at most ", most, " flows at once");
    // Compared with the full solve by rebuilding the model with the switch off.
    Network full = network(c.shape, placement + R"(, "contention": true)");
    auto& reference = dynamic_cast<net::FlowModel&>(*full.model);
    reference.set_incremental(false);
    auto slow = arrivals(reference, kRanks, sends);
    REQUIRE(fast.size() == slow.size());
    std::int64_t worst = 0;
    for (std::size_t i = 0; i < fast.size(); ++i) worst = std::max(worst, std::abs(fast[i] - slow[i]));
    CHECK(worst <= 5);
    // The incremental solver covered fewer flows than the full one.
    CHECK(flow.solved_flows() < reference.solved_flows());
  }
}

TEST_CASE("a linear gather on a crossbar serializes on the root's down link") {
  // p - 1 ranks send n bytes to rank 0 at once: they share its down link, so all
  // arrive at α + (p-1)·nβ, where Hockney (no shared links) predicts α + nβ.
  const char* gather = R"({"mpisim": 1, "program": [
    {"buffer": "s", "type": "MPI_BYTE", "count": 1000},
    {"buffer": "r", "type": "MPI_BYTE", "count": "1000 * size"},
    {"call": "MPI_Gather", "sendbuf": "s", "sendcount": 1000, "sendtype": "MPI_BYTE", "recvbuf": "r",
     "recvcount": 1000, "recvtype": "MPI_BYTE", "root": 0, "comm": "MPI_COMM_WORLD", "algorithm": "linear"}]})";
  const char* crossbar = R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "500ns", "beta": "1ns"}})";
  const char* hockney = R"({"mpisim-network": 1, "model": "hockney", "alpha": "1us", "beta": "1ns"})";
  for (int p : {2, 4, 8}) {
    CAPTURE(p);
    auto shared = test::run_text(gather, p, crossbar);
    auto free = test::run_text(gather, p, hockney);
    REQUIRE(shared.outcome == runner::Outcome::clean);
    CHECK(shared.finish_ps[0] == 1'000'000 + (p - 1) * 1000 * 1000);
    CHECK(free.finish_ps[0] == 1'000'000 + 1000 * 1000);
    // The root's down link was busy for all of the transfer.
    bool found = false;
    for (const auto& l : shared.links)
      if (l.name == "switch -> node 0") {
        found = true;
        CHECK(l.messages == static_cast<std::uint64_t>(p - 1));
        CHECK(l.busy.ps == (p - 1) * 1000 * 1000);
      }
    CHECK(found);
  }
}

TEST_CASE("ranks on one node talk over its intra-node link") {
  // Two ranks per node: ranks 0 and 1 share node 0, whose intra-node link is faster.
  const char* net = R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ns"}, "intra_node": {"latency": "100ns", "beta": "10ps"},
    "placement": {"kind": "block", "ranks_per_node": 2}})";
  Network n = net::parse_network(net, "net.json");
  // Rank 0's interface injects the intra-node message over [0, 10 ns), then the
  // other over [10 ns, 1.01 us); each arrives its route's latency later.
  auto t = arrivals(*n.model, 4, {{0, 1, 1000, 0}, {0, 2, 1000, 0}});
  CHECK(t == std::vector<std::int64_t>{10'000 + 100'000, 10'000 + 1'000'000 + 2'000'000});
  auto& flow = dynamic_cast<net::FlowModel&>(*n.model);
  CHECK(flow.node_of(3) == 1);
  std::vector<std::uint32_t> r;
  flow.route(0, 1, r);
  CHECK(r == std::vector<std::uint32_t>{flow.topology()->link_count()});
}

TEST_CASE("round-robin and list placements") {
  Network rr = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "ring", "nodes": 4},
    "link": {"latency": "1us", "beta": "1ns"}, "placement": {"kind": "round_robin", "ranks_per_node": 2}})",
                                  "net.json");
  rr.model->reset(6);  // 3 nodes used, ranks dealt 0 1 2 0 1 2
  auto& flow = dynamic_cast<net::FlowModel&>(*rr.model);
  CHECK(flow.node_of(3) == 0);
  CHECK(flow.node_of(5) == 2);
  Network list = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ns"}, "placement": {"kind": "list", "nodes": [3, 0, 3]}})",
                                    "net.json");
  list.model->reset(3);
  CHECK(dynamic_cast<net::FlowModel&>(*list.model).node_of(0) == 3);
  CHECK(dynamic_cast<net::FlowModel&>(*list.model).topology()->hosts() == 4);
}

TEST_CASE("bad network files get the JSON path and what was expected") {
  auto error_of = [](const std::string& text, std::uint32_t ranks = 4) -> std::string {
    try {
      Network n = net::parse_network(text, "net.json");
      n.model->reset(ranks);
    } catch (const sim::InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string head = R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", )";
  const std::string link = R"("link": {"latency": "1us", "bandwidth": "10 Gbit/s"})";
  CHECK(error_of(head + R"("topology": {"kind": "crossbar"}, "link": {"latency": "1us", "bandwidth": "0 Gbit/s"}})") ==
        "net.json: /link/bandwidth: expected a positive bandwidth such as \"10 Gbit/s\" or \"1.25 GB/s\"; got \"0 Gbit/s\"");
  CHECK(error_of(head + R"("topology": {"kind": "crossbar"}, "link": {"latency": "1us", "bandwidth": "-5 GB/s"}})")
            .starts_with("net.json: /link/bandwidth: expected a positive bandwidth"));
  CHECK(error_of(head + R"("topology": {"kind": "hypercube"}, )" + link + "}") ==
        "net.json: /topology/kind: unknown topology \"hypercube\"; known: crossbar, fully_connected, ring, torus, "
        "fat_tree, dragonfly, custom");
  CHECK(error_of(head + R"("topology": {"kind": "custom", "hosts": 2, "switches": 2, "links": [{"between": [0, 2]}, {"between": [1, 3]}]}, )" +
                 link + "}") ==
        "net.json: /topology/links: the graph is not connected: node 1 cannot be reached from node 0");
  CHECK(error_of(head + R"("topology": {"kind": "custom", "hosts": 2, "links": [{"between": [0, 7]}]}, )" + link + "}") ==
        "net.json: /topology/links/0/between: vertex 7 does not exist: the graph has 2 hosts (0 .. 1) and 0 switches");
  CHECK(error_of(head + R"("topology": {"kind": "fat_tree", "k": 2, "n": 2}, )" + link + "}", 5) ==
        "net.json: /placement: the placement needs node 4 for 5 ranks, but the fat_tree has 4 nodes (0 .. 3); raise "
        "ranks_per_node or use a larger network");
  CHECK(error_of(head + R"("topology": {"kind": "crossbar", "nodes": 4}, )" + link +
                 R"(, "placement": {"kind": "list", "nodes": [0, 1, 9, 2]}})") ==
        "net.json: /placement/nodes: the placement needs node 9 for 4 ranks, but the crossbar has 4 nodes (0 .. 3)");
  CHECK(error_of(R"({"mpisim-network": 1, "model": "mesh"})") ==
        "net.json: /model: unknown model \"mesh\"; known: hockney, loggp, loggops, topology");
  CHECK(error_of(head + R"("topology": {"kind": "torus", "dims": [4, 0]}, )" + link + "}") ==
        "net.json: /topology/dims/1: expected a positive integer, got 0");
  CHECK(error_of(head + R"("topology": {"kind": "crossbar"}})") ==
        "net.json: /link: missing: the links' parameters, e.g. {\"latency\": \"1us\", \"bandwidth\": \"10 Gbit/s\"}");
}

TEST_CASE("messages between two ranks arrive in the order they were sent") {
  // Rank 0 sends 1000 B, then 10 B, then 0 B to rank 1 at once (links of 1 B/ps,
  // 1 us). After the 2 us latency the 1000 B transfer, then the 10 B (one message
  // at a time): 2 us + 1000 ps and 2 us + 1010 ps; the empty one is held for order.
  Network n = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ps"}})",
                                 "net.json");
  auto t = arrivals(*n.model, 2, {{0, 1, 1000, 0}, {0, 1, 10, 0}, {0, 1, 0, 0}});
  CHECK(t == std::vector<std::int64_t>{2'001'000, 2'001'010, 2'001'010});
  // Without contention: the same; rank 1's message is not held by rank 0's.
  Network free = net::parse_network(R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "beta": "1ps"}, "contention": false})",
                                    "net.json");
  auto u = arrivals(*free.model, 2, {{0, 1, 1000, 0}, {0, 1, 10, 0}, {1, 0, 10, 0}});
  CHECK(u == std::vector<std::int64_t>{2'001'000, 2'001'010, 2'000'010});
}

TEST_CASE("a ring allreduce of fewer elements than ranks runs on a shared network") {
  // Some of its blocks are empty: an empty message must not overtake a full one.
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "a", "type": "MPI_INT", "count": 3, "init": "rank"},
    {"buffer": "b", "type": "MPI_INT", "count": 3},
    {"call": "MPI_Allreduce", "sendbuf": "a", "recvbuf": "b", "count": 3, "datatype": "MPI_INT", "op": "MPI_SUM",
     "comm": "MPI_COMM_WORLD", "algorithm": "ring"},
    {"expect": {"b": "[28, 28, 28]"}}]})";
  auto r = test::run_text(s, 8, R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
    "link": {"latency": "1us", "bandwidth": "10 Gbit/s"}})");
  CHECK(test::first_code(r) == "");
}

namespace {

// The crossbar of crossbar-10g.json: 1 us per link (2 us from node to node),
// 0.8 ns/B, rendezvous above 64 KiB.
const char* kCrossbar10g = R"({"mpisim-network": 1, "model": "topology", "overhead": "0ps", "gap": "0ps", "topology": {"kind": "crossbar"},
  "link": {"latency": "1us", "bandwidth": "10 Gbit/s"}, "eager_limit": "64KiB"})";
constexpr std::int64_t kMiB = 1048576, kLatency = 2'000'000, kMiBTime = kMiB * 800;  // ps

std::string late_receive(const char* before_compute) {
  return std::string(R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1048576},
    {"buffer": "c", "type": "MPI_BYTE", "count": 1048576},
    {"call": "MPI_Send", "ranks": "rank == 0 || rank == 2", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},)") +
         before_compute + R"(
    {"compute": {"ms": 1}, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Wait", "ranks": "rank == 1 && size > 2", "request": "q"}]})";
}

}  // namespace

TEST_CASE("rendezvous: the data moves when the receive is posted, the envelope before") {
  // Rank 0 sends 1 MiB to rank 1, which computes 1 ms before receiving: the data
  // leaves at 1 ms and arrives 2 us + 1 MiB x 0.8 ns later; the send completes then.
  auto r = test::run_text(late_receive(""), 2, kCrossbar10g);
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[1] == 1'000'000'000 + kLatency + kMiBTime);
  CHECK(r.finish_ps[0] == r.finish_ps[1]);
  REQUIRE(r.trace.messages().size() == 1);
  CHECK(r.trace.messages()[0].sent.ps == 1'000'000'000);
}

TEST_CASE("rendezvous: held data takes no bandwidth from a message whose receive is posted") {
  // Rank 1 posts a receive from rank 2 first, then computes 1 ms and receives rank
  // 0's message. Rank 2's 1 MiB has rank 1's link to itself (2 us + 1 MiB x 0.8 ns);
  // rank 0's moves after 1 ms. Both moving at once would share the link.
  auto r = test::run_text(late_receive(R"(
    {"call": "MPI_Irecv", "ranks": "rank == 1", "buf": "c", "count": 1048576, "datatype": "MPI_BYTE", "source": 2, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "q"},)"),
                          3, kCrossbar10g);
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[2] == kLatency + kMiBTime);
  CHECK(r.finish_ps[0] == 1'000'000'000 + kLatency + kMiBTime);
}

TEST_CASE("rendezvous: a receive posted later at the same instant takes the data at once") {
  // Rank 0 runs before rank 1 at time 0: its send is served before rank 1 posts
  // the receive, and still moves its data at 0 (alpha + n beta, as MPI_Bcast's
  // closed forms need).
  const char* s = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1048576},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(s, 2, kCrossbar10g);
  CHECK(r.finish_ps[1] == kLatency + kMiBTime);
}

TEST_CASE("rendezvous: a rank's sends leave in the order posted, eager or not") {
  // Rank 0 posts 1 MiB for rank 1 (rendezvous), then 1 KiB for rank 2 (eager).
  // Rank 1 posts its receive later in the same instant: the 1 MiB leaves first,
  // at 0, and holds rank 0's interface for 1 MiB x 0.8 ns; the 1 KiB follows:
  //   1 MiB: 838,860,800 ps + 2 us = 840,860,800 ps
  //   1 KiB: 838,860,800 + 1024 x 800 ps + 2 us = 841,680,000 ps
  auto mixed = [](const char* before_receive) {
    return std::string(R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1048576},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "big"},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "b", "count": 1024, "datatype": "MPI_BYTE", "dest": 2, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "small"},
    {"call": "MPI_Wait", "ranks": "rank == 0", "request": "big"},
    {"call": "MPI_Wait", "ranks": "rank == 0", "request": "small"},)") +
           before_receive + R"(
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 2", "buf": "b", "count": 1024, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  };
  constexpr std::int64_t kKiBTime = 1024 * 800;
  auto r = test::run_text(mixed(""), 3, kCrossbar10g);
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[1] == kMiBTime + kLatency);
  CHECK(r.finish_ps[2] == kMiBTime + kKiBTime + kLatency);
  // A receive posted after that instant: only the envelope leaves at 0, and the
  // 1 KiB follows it at once (2 us + 1 KiB x 0.8 ns); the data leaves when rank 1
  // receives, at 1 ms, as MPICH's later sends pass a rendezvous send that waits
  // for its clear-to-send.
  auto late = test::run_text(mixed(R"({"compute": {"ms": 1}, "ranks": "rank == 1"},)"), 3, kCrossbar10g);
  REQUIRE(test::first_code(late) == "");
  CHECK(late.finish_ps[2] == kKiBTime + kLatency);
  CHECK(late.finish_ps[1] == 1'000'000'000 + kMiBTime + kLatency);
}

TEST_CASE("rendezvous: linear alltoall on a crossbar costs α + (p−1)·nβ") {
  // crossbar-10g: α = 2 us (two links of 1 us), β = 0.8 ns/B; 8 ranks, n = 128 KiB
  // per pair, above the 64 KiB eager limit. Every rank posts all its receives
  // and then its sends at time 0, so every message's data leaves at 0 (its
  // receive is posted by the end of the instant), in the order posted: rank r
  // sends to r + 1, r + 2, ... (mod p). Each rank's interface injects one
  // message at a time, so in the k-th slot of nβ every rank receives from
  // exactly one sender and no link carries two flows. The last message is
  // injected over [6nβ, 7nβ) and arrives α later:
  //   α + (p−1)·nβ = 2,000,000 + 7 × 131,072 × 800 = 736,003,200 ps
  // (SimGrid's SMPI gives the same form). The own block's local copy (13.1 us)
  // runs beside. Were a later send to pass a rendezvous send whose receive is
  // posted later in the instant, every rank would send to rank 0 first, and the
  // exchange would be p − 1 incasts.
  const char* a2a = R"({"mpisim": 1, "program": [
    {"buffer": "s", "type": "MPI_BYTE", "count": "131072 * size"},
    {"buffer": "r", "type": "MPI_BYTE", "count": "131072 * size"},
    {"call": "MPI_Alltoall", "sendbuf": "s", "sendcount": 131072, "sendtype": "MPI_BYTE", "recvbuf": "r",
     "recvcount": 131072, "recvtype": "MPI_BYTE", "comm": "MPI_COMM_WORLD", "algorithm": "linear"}]})";
  auto r = test::run_text(a2a, 8, kCrossbar10g, mpi::PayloadMode::sizes);
  REQUIRE(test::first_code(r) == "");
  for (int rank = 0; rank < 8; ++rank) {
    CAPTURE(rank);
    CHECK(r.finish_ps[static_cast<std::size_t>(rank)] == kLatency + 7 * 131072 * 800);
  }
}

TEST_CASE("rendezvous: a probe sees the envelope, a cancel succeeds until a receive matches") {
  // MPI_Probe returns when the envelope arrives (2 us), long before the data moves.
  const char* probe = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1048576},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "dest": 1, "tag": 5, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Probe", "ranks": "rank == 1", "source": 0, "tag": "MPI_ANY_TAG", "comm": "MPI_COMM_WORLD", "status": "st"},
    {"call": "MPI_Wtime", "ranks": "rank == 1", "result": "t"},
    {"expect": "t == 2000000 && st.MPI_TAG == 5", "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "source": 0, "tag": 5, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(probe, 2, kCrossbar10g);
  CHECK(test::first_code(r) == "");
  CHECK(r.finish_ps[1] == kLatency + kLatency + kMiBTime);
  // Cancelled while only its envelope has travelled: the cancellation succeeds and
  // no data moves.
  const char* cancel = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1048576},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "b", "count": 1048576, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "q"},
    {"compute": {"us": 10}, "ranks": "rank == 0"},
    {"call": "MPI_Cancel", "ranks": "rank == 0", "request": "q"},
    {"call": "MPI_Wait", "ranks": "rank == 0", "request": "q", "status": "st"},
    {"call": "MPI_Test_cancelled", "ranks": "rank == 0", "status": "st", "flag": "f"},
    {"expect": "f == 1", "ranks": "rank == 0"}]})";
  auto c = test::run_text(cancel, 2, kCrossbar10g);
  CHECK(test::first_code(c) == "");
  CHECK(c.trace.messages().empty());
}

namespace {
// A crossbar of 500 ns links (α = 1 us from node to node) at 1 ns per byte, with
// the per-message costs `costs` (the "overhead" and "gap" fields).
std::string crossbar_with(const std::string& costs) {
  return R"({"mpisim-network": 1, "model": "topology", "topology": {"kind": "crossbar"},
    "link": {"latency": "500ns", "beta": "1ns"}, )" + costs + "}";
}
}  // namespace

TEST_CASE("per-message costs: a message costs o at each end, and a rank starts a send at most every g") {
  // One eager message of 1000 B: the sender's CPU is busy o, then the message
  // arrives o + nβ + α after the send, and the receiver's CPU takes o more:
  // 300 ns + 1 us + 1 us + 300 ns.
  const char* ping = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 1000},
    {"call": "MPI_Send", "ranks": "rank == 0", "buf": "b", "count": 1000, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 1000, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(ping, 2, crossbar_with(R"("overhead": "300ns", "gap": "0ns")"));
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[0] == 300'000);
  CHECK(r.finish_ps[1] == 300'000 + 1'000'000 + 1'000'000 + 300'000);
  // Zero costs: the link alone (the rules above, as SMPI's flow model).
  auto free = test::run_text(ping, 2, crossbar_with(R"("overhead": "0ns", "gap": "0ns")"));
  CHECK(free.finish_ps[1] == 1'000'000 + 1'000'000);
  // Left out, the defaults apply: 200 ns at each end.
  auto defaults = test::run_text(ping, 2, crossbar_with(R"("contention": true)"));
  CHECK(defaults.finish_ps[1] == 200'000 + 2'000'000 + 200'000);
}

TEST_CASE("per-message costs: a linear bcast of p - 1 small messages costs (p-2)·max(o, g) + 2o + α + nβ") {
  // The root's sends start every max(o, g) (its CPU, then its injection rate); the
  // last leaves at (p-2)·max(o, g) and is received 2o + α + nβ later. 8 B take
  // 8 ns of the root's link, less than the gap, so the link never queues them.
  const char* bcast = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 8},
    {"call": "MPI_Bcast", "buffer": "b", "count": 8, "datatype": "MPI_BYTE", "root": 0, "comm": "MPI_COMM_WORLD", "algorithm": "linear"}]})";
  struct Case {
    std::int64_t o, g;
  };
  for (const Case c : {Case{300'000, 0}, Case{300'000, 500'000}, Case{100'000, 400'000}}) {
    for (std::int64_t p : {2, 5, 16}) {
      CAPTURE(c.o);
      CAPTURE(c.g);
      CAPTURE(p);
      auto r = test::run_text(bcast, p, crossbar_with(R"("overhead": ")" + std::to_string(c.o) + R"(ps", "gap": ")" +
                                                      std::to_string(c.g) + R"(ps")"));
      REQUIRE(test::first_code(r) == "");
      CHECK(*std::max_element(r.finish_ps.begin(), r.finish_ps.end()) ==
            (p - 2 < 0 ? 0 : p - 2) * std::max(c.o, c.g) + 2 * c.o + 1'000'000 + 8 * 1000);
    }
  }
}

TEST_CASE("per-message costs: a receiver's CPU absorbs one message at a time, o each") {
  // Three ranks send 8 B to rank 0 at once: the messages arrive together at
  // o + α + nβ, and rank 0's CPU absorbs them one after the other, o each.
  const char* gather = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 8},
    {"call": "MPI_Send", "ranks": "rank > 0", "buf": "b", "count": 8, "datatype": "MPI_BYTE", "dest": 0, "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 0", "buf": "b", "count": 8, "datatype": "MPI_BYTE", "source": "MPI_ANY_SOURCE", "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 0", "buf": "b", "count": 8, "datatype": "MPI_BYTE", "source": "MPI_ANY_SOURCE", "tag": 0, "comm": "MPI_COMM_WORLD"},
    {"call": "MPI_Recv", "ranks": "rank == 0", "buf": "b", "count": 8, "datatype": "MPI_BYTE", "source": "MPI_ANY_SOURCE", "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(gather, 4, crossbar_with(R"("overhead": "300ns", "gap": "0ns", "contention": false)"));
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[0] == 300'000 + 1'000'000 + 8'000 + 3 * 300'000);
}

TEST_CASE("per-message costs: bad values are named") {
  auto error_of = [](const std::string& text) {
    try {
      net::parse_network(text, "net.json");
    } catch (const sim::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of(crossbar_with(R"("overhead": "-1ns")")).find("/overhead") != std::string::npos);
  CHECK(error_of(crossbar_with(R"("gap": "2s")")).find("at most 1 s per message") != std::string::npos);
  CHECK(error_of(crossbar_with(R"("gap": 5)")).find("/gap") != std::string::npos);
}

TEST_CASE("per-message costs: a rendezvous envelope that waited for its receiver's CPU comes back with its data") {
  // Rank 1 computes while rank 0's envelope arrives: the envelope waits for the
  // CPU, then the receive matches it and the data crosses as a second arrival.
  const std::string program = late_receive("");
  const char* loggops = R"({"mpisim-network": 1, "model": "loggops", "L": "1us", "o": "1us", "g": "1us",
    "G": "1ns", "S": 1024})";
  for (const std::string& net : {crossbar_with(R"("overhead": "300ns", "eager_limit": "64KiB")"), std::string(loggops)}) {
    CAPTURE(net);
    auto r = test::run_text(program, 2, net);
    CHECK(test::first_code(r) == "");
    CHECK(r.finish_ps[1] > 1'000'000'000);
  }
}

TEST_CASE("per-message costs: rendezvous data leaving while its sender computes pays the overhead after it") {
  // Rank 0 posts a 4 KiB rendezvous send (its envelope: o = 300 ns), computes 1 ms
  // and waits; rank 1 receives at 0.5 ms, when the data leaves. Its overhead comes
  // after rank 0's computation, not inside it: rank 0's CPU is last busy at
  // 300 ns + 1 ms + 300 ns.
  const char* program = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_BYTE", "count": 4096},
    {"call": "MPI_Isend", "ranks": "rank == 0", "buf": "b", "count": 4096, "datatype": "MPI_BYTE", "dest": 1, "tag": 0, "comm": "MPI_COMM_WORLD", "request": "q"},
    {"compute": {"ms": 1}, "ranks": "rank == 0"},
    {"call": "MPI_Wait", "ranks": "rank == 0", "request": "q"},
    {"compute": {"us": 500}, "ranks": "rank == 1"},
    {"call": "MPI_Recv", "ranks": "rank == 1", "buf": "b", "count": 4096, "datatype": "MPI_BYTE", "source": 0, "tag": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto r = test::run_text(program, 2, crossbar_with(R"("overhead": "300ns", "gap": "0ns", "eager_limit": "1KiB")"));
  REQUIRE(test::first_code(r) == "");
  CHECK(r.finish_ps[0] == 300'000 + 1'000'000'000 + 300'000);
}
