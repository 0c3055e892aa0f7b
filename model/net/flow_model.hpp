#pragma once
// Networks with a topology: messages cross the links of their route and share
// each link's bandwidth with the other messages crossing it, max-min fairly.
//
// Rules (docs/cost-models.md has them with examples):
//  - a message of n bytes from rank a to rank b follows the route between their
//    nodes (the node's intra-node link when both are on one node); its latency is
//    the sum of the route's link latencies;
//  - a rank's network interface injects one message at a time, in the order the
//    rank sent them: a message starts its transfer when the rank's previous message
//    has transferred its last byte (as Hockney's port, and MPICH's progress engine,
//    serve a rank's sends in order), not when that one has arrived. Messages of one
//    rank never split its link between them; messages of different ranks do;
//  - while it transfers its n bytes a message is a flow on every link of its
//    route, and the flows on the links share the bandwidth max-min fairly: no flow
//    can get more without taking from a flow that has no more than it (progressive
//    filling, as SimGrid's flow model); it arrives its route's latency after its
//    last byte left;
//  - a message is complete at its receiver when its last byte is through, but never
//    before an earlier message from the same rank to the same rank (the transport
//    keeps order, as MPI's non-overtaking rule needs): a small message that overtakes
//    a large one on the wire waits for it (the runtime, not this model, sends a
//    rendezvous message's data only once a receive matched its envelope);
//  - alone on its route a message takes latency + n / (the route's lowest
//    bandwidth): on a crossbar with one flow per link that is Hockney's α + nβ;
//  - with "contention": false every message gets the route's lowest bandwidth
//    whatever else is in flight (the contention-free form of the same network);
//  - every message costs its sender's CPU the overhead o when it is sent and its
//    receiver's CPU o when it is absorbed (LogGP's o): the CPU does one thing at a
//    time, so a rank's sends, receptions and computations queue for it. The
//    message arrives o later than its transfer and route alone would make it (the
//    sender's overhead counted with the route's latency: its transfer itself starts
//    when it is sent), and a rank starts at most one send every gap g (LogGP's g:
//    its injection rate). A send the runtime starts without asking send_ready
//    (rendezvous data leaving when its receive matches) pays o after whatever the
//    CPU is busy with. With o = g = 0 (an SMPI-like network) communication costs no
//    CPU and the rules above are all;
//  - computation occupies the rank's CPU.
//
// Rates are recomputed when a flow starts or ends, and only where they change
// (flow_model.cpp explains how that is found): one instant's changes are solved
// together, before time moves on.
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/net/cost_model.hpp"
#include "model/net/cpu_only_model.hpp"
#include "model/net/topology.hpp"

namespace mpisim::net {

struct Placement {
  enum class Kind { block, round_robin, list };
  Kind kind = Kind::block;
  std::uint32_t ranks_per_node = 1;
  std::vector<std::uint32_t> nodes;  // Kind::list: the node of each rank
};

struct TopologyParams {
  // Builds the topology for a run that needs `nodes` nodes. Shapes of a fixed size
  // ignore the argument; crossbar, ring and fully connected networks without a
  // "nodes" field grow to it.
  std::function<Topology(std::uint32_t nodes)> build;
  std::string shape;          // "crossbar", ... (known before the build)
  Placement placement;
  LinkSpec intra_node;
  bool contention = true;
  double gamma_ps_per_byte = 0;
  double copy_ps_per_byte = 0;
  std::uint64_t eager_limit = std::numeric_limits<std::uint64_t>::max();
  // Per message: the CPU overhead at each end (o) and the least time between two
  // sends of a rank (g), in picoseconds. 0 here; a network file's defaults are
  // kOverheadDefault and kGapDefault (network_file.hpp).
  double overhead_ps = 0, gap_ps = 0;
  std::string where;          // the network file, for errors found when the run sizes it
  // The file's parameters as (name, readable value), for the trace and summary.
  std::vector<std::pair<std::string, std::string>> description;
};

class FlowModel final : public CpuOnlyModel {
 public:
  explicit FlowModel(TopologyParams p);
  ~FlowModel() override;

  std::string_view kind() const override { return "topology"; }
  std::vector<std::pair<std::string, std::string>> parameters() const override;
  // Builds the topology and places the ranks; throws sim::InputError when the
  // ranks do not fit the placement.
  void reset(Rank ranks) override;
  std::uint64_t eager_limit() const override { return p_.eager_limit; }

  // With an overhead, sends, receptions and computations share the CPU.
  bool sends_compete() const override { return overhead_ > SimTime::zero(); }
  bool computes_compete() const override { return overhead_ > SimTime::zero(); }
  SimTime send_ready(Rank src, SimTime t) const override {
    if (!per_message_) return t;
    const SimTime gap = max(t, gap_free_[src]);
    return overhead_ > SimTime::zero() ? max(gap, cpu_free(src)) : gap;
  }
  SimTime start_send(Rank src, Rank dst, std::uint64_t bytes, SimTime t, std::uint64_t token) override;
  bool defers_arrivals() const override { return true; }
  SimTime next_event() const override;
  void advance(SimTime t, std::vector<std::uint64_t>& arrived) override;
  SimTime receive_ready(Rank dst, SimTime t) const override {
    return overhead_ > SimTime::zero() ? max(t, cpu_free(dst)) : t;
  }
  SimTime start_receive(Rank, Rank dst, std::uint64_t, SimTime t) override;
  void route(Rank src, Rank dst, std::vector<std::uint32_t>& links) const override;
  std::vector<LinkUsage> link_usage() const override;

  const Topology* topology() const { return topo_.get(); }
  std::uint32_t node_of(Rank r) const { return node_of_[r]; }
  std::uint32_t node(Rank r) const override { return node_of_[r]; }
  // false: every solve covers every flow (the reference the tests compare against).
  void set_incremental(bool on) { incremental_ = on; }
  // The flows transferring now, each as (its route, its rate in bytes per
  // picosecond), and a link's capacity in bytes per picosecond: what a check of
  // the sharing needs.
  std::vector<std::pair<std::vector<std::uint32_t>, double>> transferring() const;
  double capacity(std::uint32_t link) const;
  // How many times rates were solved and how many flows those solves covered.
  std::uint64_t solves() const { return solves_; }
  std::uint64_t solved_flows() const { return solved_flows_; }

 private:
  struct Flow;
  struct Hot;
  struct Link;
  struct LinkStats;
  struct Event;
  struct Solver;

  SimTime route_latency(const std::vector<std::uint32_t>& links) const;
  void store_route(std::uint32_t f, const std::vector<std::uint32_t>& links);
  std::span<const std::uint32_t> route_of(std::uint32_t f) const {
    const std::uint32_t* row = routes_.data() + std::size_t{f} * route_stride_;
    return {row + 1, row[0]};
  }
  void activate(std::uint32_t f, SimTime t);
  void finish(std::uint32_t f, SimTime t);
  void mark(std::uint32_t link);
  void solve(SimTime t);
  void open(std::uint32_t link);
  void open_route(std::uint32_t f);
  void fix(std::uint32_t f, double at, std::uint32_t by);
  void schedule_completion(std::uint32_t f, SimTime t);
  // The event heap: schedule adds the flow's event or moves it to its new time.
  void schedule(const Event& e);
  void unschedule_first();
  void place_event(std::size_t i, const Event& e);
  void sift_event(std::size_t i);
  // Reports f (its transfer done) and the held flows behind it, in send order.
  void deliver_in_order(std::uint32_t f, std::vector<std::uint64_t>& arrived);
  static std::uint64_t pair_key(Rank src, Rank dst) { return std::uint64_t{src} << 32 | dst; }

  TopologyParams p_;
  SimTime overhead_, gap_;      // o and g, rounded
  bool per_message_ = false;   // o or g is not zero
  std::vector<SimTime> gap_free_;  // by rank: when it may start its next send (g after its last)
  std::unique_ptr<Topology> topo_;
  std::vector<std::uint32_t> node_of_;
  std::vector<Link> links_;          // the topology's links, then one intra-node link per node
  std::vector<LinkStats> stats_;     // by link: what the trace reports
  // By link, apart: its slot in the solver during a solve, else none.
  std::vector<std::uint32_t> slot_;
  std::vector<Flow> flows_;          // a pool: finished flows are reused
  std::vector<Hot> hot_;             // by flow, beside flows_
  std::vector<std::uint32_t> routes_;  // by flow, a row of route_stride_: the route's length, its links
  std::size_t route_stride_ = 1;
  std::vector<std::uint32_t> route_scratch_;
  std::vector<std::uint32_t> free_flows_;
  std::vector<Event> events_;        // a min-heap, at most one per flow
  std::vector<std::uint32_t> event_at_;  // by flow: its event's place in events_, or none
  std::vector<std::uint32_t> dirty_; // links whose flows changed since the last solve
  // Per (source, destination) rank pair: the deferred flows in flight, in send
  // order (with contention), or the last arrival (without). Looked up, never iterated.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> in_flight_;
  std::unordered_map<std::uint64_t, SimTime> last_arrival_;
  // By sending rank, with contention: its messages waiting to transfer, in send
  // order, the first transferring; without: when its interface is free. Looked
  // up, never iterated.
  // The queue is a list through the flows (Flow::nic_next), by sender its first
  // and last flow, or none.
  std::vector<std::uint32_t> nic_first_, nic_last_;
  std::vector<SimTime> nic_free_;
  void nic_start(Rank src, SimTime t);  // activates the first of src's queue if it is not transferring
  SimTime dirty_at_ = SimTime::never();
  std::uint64_t next_seq_ = 0;
  std::uint64_t solves_ = 0, solved_flows_ = 0;
  bool incremental_ = true;
  std::unique_ptr<Solver> solver_;
};

}  // namespace mpisim::net
