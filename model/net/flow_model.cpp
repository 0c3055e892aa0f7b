#include "model/net/flow_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "model/net/units.hpp"
#include "sim/input_error.hpp"

namespace mpisim::net {
namespace {
constexpr std::uint32_t kNone = 0xffffffffu;
// Relative slack under which a link counts as full (rates are doubles).
constexpr double kTight = 1e-9;
}  // namespace

struct FlowModel::Flow {
  std::uint64_t token = 0;
  std::uint64_t seq = 0;             // start order: unique, breaks ties between events
  double remaining = 0;              // bytes still to transfer at `updated`
  double rate = 0;                   // bytes per picosecond
  SimTime updated{};
  SimTime latency{};                 // its route's: from its last byte's injection to its arrival
  bool active = false;               // transferring (first in its sender's queue)
  bool scheduled = false;            // has a completion event for its current rate
  bool arrived = false;              // at its receiver (it may wait for an earlier one to be reported)
  std::uint32_t nic_next = kNone;    // the next message of its sender's queue
  std::uint64_t pair = 0;            // its (source, destination) ranks
};

// What the solver reads of every flow on a link, apart from the rest so that the
// flows of a few hundred links stay in cache: four to a cache line.
struct FlowModel::Hot {
  // Its rate. In a solve a flow keeps its rate from before until it is fixed:
  // the level its holder filled at, which is its cap while it is capped.
  double rate = 0;
  // The link that holds it (its bottleneck at the last solve: a full link of its
  // route on which no flow runs faster), or none for a new flow.
  std::uint32_t holder = kNone;
  std::uint8_t state = 0;            // Solver::State
};

namespace {
// A link's flows: the first few inside the link's record, more in a block of
// their own. Removing a flow moves the last one into its place, as a vector's
// swap-and-pop would: the order (which sets the order flows join the solver's
// set in) depends only on the adds and removes.
class FlowList {
 public:
  FlowList() = default;
  FlowList(const FlowList&) = delete;
  FlowList& operator=(const FlowList&) = delete;
  FlowList(FlowList&& o) noexcept { *this = std::move(o); }
  FlowList& operator=(FlowList&& o) noexcept {
    if (this != &o) {
      delete[] spill_;
      n_ = o.n_, cap_ = o.cap_, spill_ = o.spill_;
      std::copy_n(o.inline_, kInline, inline_);
      o.n_ = 0, o.cap_ = kInline, o.spill_ = nullptr;
    }
    return *this;
  }
  ~FlowList() { delete[] spill_; }

  const std::uint32_t* begin() const { return spill_ ? spill_ : inline_; }
  const std::uint32_t* end() const { return begin() + n_; }
  bool empty() const { return n_ == 0; }

  void push_back(std::uint32_t f) {
    if (n_ == cap_) {
      const std::uint32_t cap = cap_ * 2;
      auto* more = new std::uint32_t[cap];
      std::copy_n(begin(), n_, more);
      delete[] spill_;
      spill_ = more;
      cap_ = cap;
    }
    (spill_ ? spill_ : inline_)[n_++] = f;
  }
  // f must be on the list.
  void remove(std::uint32_t f) {
    std::uint32_t* at = spill_ ? spill_ : inline_;
    *std::find(at, at + n_, f) = at[n_ - 1];
    --n_;
  }

 private:
  static constexpr std::uint32_t kInline = 4;
  std::uint32_t n_ = 0, cap_ = kInline;
  std::uint32_t* spill_ = nullptr;  // once the list outgrew inline_, it lives here
  std::uint32_t inline_[kInline] = {};
};
}  // namespace

// One cache line: what the solver reads of a link, with its first flows.
struct alignas(64) FlowModel::Link {
  double capacity = 0;               // bytes per picosecond
  FlowList flows;                    // its active flows
  bool dirty = false;
};

// What the trace reports of a link, apart from what the solver reads.
struct FlowModel::LinkStats {
  std::uint64_t messages = 0, bytes = 0;
  SimTime busy{}, busy_since{};
};

// A transfer that ends (completion true), or an arrival: the route's latency after
// the transfer (or after an empty message left). A flow has at most one at a
// time, and flows' seqs are unique, so (t, seq) orders them totally.
struct FlowModel::Event {
  SimTime t;
  std::uint64_t seq;
  std::uint32_t flow;
  bool completion;
  bool before(const Event& o) const { return t < o.t || (t == o.t && seq < o.seq); }
};

// Which flows a change can affect, and their max-min fair rates.
//
// Max-min fair rates are what progressive filling gives: a level rises from
// zero, every flow not yet fixed runs at the level, and when a link fills, the
// flows on it that are not yet fixed are fixed at the level. Before a change
// (flows starting or ending at one instant) the rates were max-min fair, and each
// flow knows its holder, the link that filled at its rate with it on it. The
// solver runs the same filling for the new flows, but only on the links where it
// can differ from the last one (its slots), in order of level:
//  - the changed links are slots from level zero; a link becomes a slot at level
//    x when a flow on it departs from its old rate: it is fixed below it, or the
//    level passes its old rate while it is still free;
//  - the flows on slots take part. One whose holder is not a slot is capped: its
//    holder fills at its old rate as before (nothing on it has changed below
//    that level), so it is fixed there unless a slot fills first. One whose holder
//    is a slot (or a new flow) is free, fixed only when a slot fills;
//  - a flow on no slot keeps its rate: no link of its route has changed.
// A link that becomes a slot at level x starts with its flows as they stand:
// those fixed (or, off the slots, slower than x) take their rates from its
// capacity, the others share what is left. Slots and the levels at which free
// flows pass their old rates wait in one heap; a slot's entry may be low (flows
// fixed elsewhere raise its share) and is then put back at its level, never high.
// A slot waits there only while it can fill: while a free flow is on it, or a
// capped flow whose cap is above its share (one at or below it is fixed at its
// cap first, or lower by another slot; a capped flow that no slot fixed keeps
// its cap, its old rate). The filling ends with every flow that took part fixed: the rates are the
// max-min fair rates of all flows (to kTight, the slack under which a flow fixed
// at its old rate counts as unchanged), recomputed only where they change.
struct FlowModel::Solver {
  enum State : std::uint8_t { out, free, capped, fixed };
  struct Slot {
    double left;              // capacity less the rates of the flows fixed on it
    std::uint32_t link;
    std::uint32_t unfixed;    // flows on it not yet fixed
    bool queued;              // has an entry in the heap
  };
  // A heap entry, ordered by level (a non-negative double's bits order as the
  // double does), then by what it is: a slot (its index) before a flow passing
  // its old rate (its id), so that a slot filling at that very level fixes it first.
  struct Entry {
    std::uint64_t level, what;
    // Without branches: which of two entries comes first is what a heap cannot predict.
    bool before(const Entry& o) const { return (level < o.level) | ((level == o.level) & (what < o.what)); }
  };
  static constexpr std::uint64_t kPassing = std::uint64_t{1} << 32;

  std::vector<std::uint32_t> flows;  // the flows that take part
  std::vector<Slot> slots;
  std::vector<Entry> heap;           // a binary min-heap
  double level = 0;

  double share(const Slot& s) const { return std::max(0.0, s.left) / s.unfixed; }
  // A flow with an old rate turns free: if the level passes that rate while it is
  // still free, it departs from the last filling.
  void set_free(Hot& h, std::uint32_t f) {
    h.state = free;
    push(h.rate * (1 + kTight), kPassing | f);
  }
  // Whether a slot can fill: a free flow is on it, or a capped flow whose cap is
  // above its share (capped flows below it are fixed at their caps, or lower by
  // another slot, before it could fill).
  bool can_fill(const Slot& s, bool free_on, double top_cap) const { return free_on || top_cap > share(s); }
  // A slot that may fill gets an entry at its share (a level it cannot fill below).
  void wake(std::uint32_t slot) {
    Slot& s = slots[slot];
    if (s.queued || s.unfixed == 0) return;
    s.queued = true;
    push(std::max(level, share(s)), slot);
  }
  void push(double at, std::uint64_t what) {
    Entry e{std::bit_cast<std::uint64_t>(at), what};
    std::size_t i = heap.size();
    heap.push_back(e);
    while (i > 0 && e.before(heap[(i - 1) / 2])) {
      heap[i] = heap[(i - 1) / 2];
      i = (i - 1) / 2;
    }
    heap[i] = e;
  }
  Entry pop() {
    const Entry top = heap.front();
    const Entry e = heap.back();
    heap.pop_back();
    const std::size_t n = heap.size();
    if (n > 0) {
      std::size_t i = 0;
      for (;;) {
        std::size_t c = 2 * i + 1;
        if (c + 1 < n) c += heap[c + 1].before(heap[c]);
        else if (c >= n) break;
        if (!heap[c].before(e)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = e;
    }
    return top;
  }
};

FlowModel::FlowModel(TopologyParams p)
    : CpuOnlyModel(p.gamma_ps_per_byte, p.copy_ps_per_byte),
      p_(std::move(p)),
      overhead_(round_ps(p_.overhead_ps)),
      gap_(round_ps(p_.gap_ps)),
      per_message_(overhead_ > SimTime::zero() || gap_ > SimTime::zero()),
      solver_(std::make_unique<Solver>()) {}
FlowModel::~FlowModel() = default;

std::vector<std::pair<std::string, std::string>> FlowModel::parameters() const {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("topology", p_.shape + (topo_ ? " of " + std::to_string(topo_->hosts()) + " nodes" : ""));
  for (const auto& d : p_.description) out.push_back(d);
  if (topo_) out.emplace_back("routing", topo_->routing_rule());
  out.emplace_back("contention", p_.contention ? "max-min fair sharing" : "none");
  out.emplace_back("overhead", format_time(overhead_.ps));
  out.emplace_back("gap", format_time(gap_.ps));
  out.emplace_back("gamma", per_byte_text(p_.gamma_ps_per_byte));
  out.emplace_back("eager_limit", p_.eager_limit == std::numeric_limits<std::uint64_t>::max()
                                      ? std::string("unlimited")
                                      : format_bytes(p_.eager_limit));
  return out;
}

void FlowModel::reset(Rank ranks) {
  const Placement& pl = p_.placement;
  std::uint64_t needed = 0;
  if (pl.kind == Placement::Kind::list) {
    if (pl.nodes.size() < ranks)
      throw sim::InputError(p_.where + ": /placement/nodes",
                            "the list places " + std::to_string(pl.nodes.size()) + " ranks; the run has " +
                                std::to_string(ranks));
    for (Rank r = 0; r < ranks; ++r) needed = std::max<std::uint64_t>(needed, pl.nodes[r] + 1ull);
  } else {
    needed = (std::uint64_t{ranks} + pl.ranks_per_node - 1) / pl.ranks_per_node;
  }
  try {
    topo_ = std::make_unique<Topology>(p_.build(static_cast<std::uint32_t>(std::max<std::uint64_t>(needed, 1))));
  } catch (const std::invalid_argument& e) {
    throw sim::InputError(p_.where + ": /topology", e.what());
  }
  if (needed > topo_->hosts()) {
    std::string path = pl.kind == Placement::Kind::list ? "/placement/nodes" : "/placement";
    throw sim::InputError(p_.where + ": " + path,
                          "the placement needs node " + std::to_string(needed - 1) + " for " + std::to_string(ranks) +
                              " ranks, but the " + p_.shape + " has " + std::to_string(topo_->hosts()) +
                              " nodes (0 .. " + std::to_string(topo_->hosts() - 1) + ")" +
                              (pl.kind == Placement::Kind::list ? "" : "; raise ranks_per_node or use a larger network"));
  }
  node_of_.resize(ranks);
  for (Rank r = 0; r < ranks; ++r) {
    switch (pl.kind) {
      case Placement::Kind::block: node_of_[r] = r / pl.ranks_per_node; break;
      case Placement::Kind::round_robin: node_of_[r] = static_cast<std::uint32_t>(r % needed); break;
      case Placement::Kind::list: node_of_[r] = pl.nodes[r]; break;
    }
  }
  reset_cpus(ranks);
  links_.clear();
  links_.resize(topo_->link_count() + topo_->hosts());
  stats_.assign(links_.size(), LinkStats{});
  slot_.assign(links_.size(), kNone);
  for (std::uint32_t l = 0; l < links_.size(); ++l) {
    const LinkSpec& s = l < topo_->link_count() ? topo_->link_spec(l) : p_.intra_node;
    links_[l].capacity = 1.0 / s.ps_per_byte;
  }
  flows_.clear();
  hot_.clear();
  routes_.clear();
  route_stride_ = 1;
  event_at_.clear();
  free_flows_.clear();
  events_.clear();
  dirty_.clear();
  in_flight_.clear();
  last_arrival_.clear();
  nic_first_.assign(ranks, kNone);
  nic_last_.assign(ranks, kNone);
  nic_free_.assign(ranks, SimTime::zero());
  gap_free_.assign(per_message_ ? ranks : 0, SimTime::zero());
  dirty_at_ = SimTime::never();
  next_seq_ = 0;
}

void FlowModel::route(Rank src, Rank dst, std::vector<std::uint32_t>& links) const {
  std::uint32_t a = node_of_[src], b = node_of_[dst];
  if (a == b) links.push_back(topo_->link_count() + a);
  else topo_->route(a, b, links);
}

SimTime FlowModel::route_latency(const std::vector<std::uint32_t>& links) const {
  double ps = 0;
  for (std::uint32_t l : links) ps += l < topo_->link_count() ? topo_->link_spec(l).latency_ps : p_.intra_node.latency_ps;
  return round_ps(ps);
}

// Routes lie in one array, a row of route_stride_ entries per flow: its length,
// then its links. A route longer than the rows widens them all (rarely: the rows
// soon fit the network's longest route).
void FlowModel::store_route(std::uint32_t f, const std::vector<std::uint32_t>& links) {
  const std::size_t need = links.size() + 1;
  if (need > route_stride_) {
    std::vector<std::uint32_t> wider(flows_.size() * need, 0);
    for (std::size_t g = 0; g * route_stride_ < routes_.size(); ++g)
      std::copy_n(routes_.begin() + static_cast<std::ptrdiff_t>(g * route_stride_), route_stride_,
                  wider.begin() + static_cast<std::ptrdiff_t>(g * need));
    routes_ = std::move(wider);
    route_stride_ = need;
  }
  if (routes_.size() < flows_.size() * route_stride_) routes_.resize(flows_.size() * route_stride_, 0);
  std::uint32_t* row = routes_.data() + std::size_t{f} * route_stride_;
  row[0] = static_cast<std::uint32_t>(links.size());
  std::copy(links.begin(), links.end(), row + 1);
}

SimTime FlowModel::start_receive(Rank, Rank dst, std::uint64_t, SimTime t) {
  if (overhead_ == SimTime::zero()) return t;
  const SimTime done = max(t, cpu_free(dst)) + overhead_;  // t is receive_ready's: the CPU is free by then
  occupy_cpu(dst, done);
  return done;
}

SimTime FlowModel::start_send(Rank src, Rank dst, std::uint64_t bytes, SimTime t, std::uint64_t token) {
  route_scratch_.clear();
  route(src, dst, route_scratch_);
  // The sender's overhead comes before the message leaves: it arrives o later.
  SimTime latency = route_latency(route_scratch_) + overhead_;
  if (per_message_) {
    // Later than anything the CPU or the interface already has (a rendezvous
    // message's data may leave while its rank computes).
    if (overhead_ > SimTime::zero()) occupy_cpu(src, max(t, cpu_free(src)) + overhead_);
    gap_free_[src] = max(gap_free_[src], t + gap_);
  }
  double slowest = 0;
  for (std::uint32_t l : route_scratch_) {
    ++stats_[l].messages;
    stats_[l].bytes += bytes;
    slowest = std::max(slowest, 1.0 / links_[l].capacity);
  }
  const std::uint64_t pair = pair_key(src, dst);
  if (!p_.contention) {
    // Known now: nothing else can slow it down; only the sender's earlier messages
    // (one transfer at a time) and order can delay it.
    SimTime transfer = round_ps(static_cast<double>(bytes) * slowest);
    for (std::uint32_t l : route_scratch_) stats_[l].busy += transfer;
    SimTime begin = t;
    if (bytes > 0) {
      begin = max(begin, nic_free_[src]);
      nic_free_[src] = begin + transfer;
    }
    SimTime& last = last_arrival_[pair];
    last = max(last, begin + transfer + latency);
    return last;
  }
  auto queue = in_flight_.find(pair);
  if (bytes == 0 && queue == in_flight_.end()) return t + latency;  // no bandwidth to share, nothing ahead of it
  // A flow: from the pool, with its route.
  std::uint32_t f;
  if (free_flows_.empty()) {
    f = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
    hot_.emplace_back();
    event_at_.push_back(kNone);
  } else {
    f = free_flows_.back();
    free_flows_.pop_back();
  }
  store_route(f, route_scratch_);
  if (queue == in_flight_.end()) queue = in_flight_.emplace(pair, std::vector<std::uint32_t>{}).first;
  queue->second.push_back(f);
  Flow& flow = flows_[f];
  flow.pair = pair;
  flow.arrived = false;
  flow.token = token;
  flow.seq = next_seq_++;
  flow.remaining = static_cast<double>(bytes);
  flow.rate = 0;
  flow.latency = latency;
  flow.active = false;
  flow.scheduled = false;
  hot_[f] = Hot{};
  if (bytes > 0) {
    flow.nic_next = kNone;
    if (nic_first_[src] == kNone) nic_first_[src] = f;
    else flows_[nic_last_[src]].nic_next = f;
    nic_last_[src] = f;
    nic_start(src, t);
  } else {
    schedule(Event{t + latency, flow.seq, f, false});  // nothing to transfer: held for order
  }
  return kDeferred;
}

void FlowModel::nic_start(Rank src, SimTime t) {
  const std::uint32_t f = nic_first_[src];
  if (f != kNone && !flows_[f].active) activate(f, t);
}

SimTime FlowModel::next_event() const {
  SimTime next = dirty_at_;
  if (!events_.empty()) next = std::min(next, events_.front().t);
  return next;
}

void FlowModel::mark(std::uint32_t link) {
  if (links_[link].dirty) return;
  links_[link].dirty = true;
  dirty_.push_back(link);
}

void FlowModel::activate(std::uint32_t f, SimTime t) {
  Flow& flow = flows_[f];
  flow.active = true;
  flow.updated = t;
  for (std::uint32_t l : route_of(f)) {
    Link& link = links_[l];
    if (link.flows.empty()) stats_[l].busy_since = t;
    link.flows.push_back(f);
    mark(l);
  }
  dirty_at_ = std::min(dirty_at_, t);
}

void FlowModel::deliver_in_order(std::uint32_t f, std::vector<std::uint64_t>& arrived) {
  flows_[f].arrived = true;
  auto queue = in_flight_.find(flows_[f].pair);
  std::vector<std::uint32_t>& q = queue->second;
  std::size_t done = 0;
  while (done < q.size() && flows_[q[done]].arrived) {
    arrived.push_back(flows_[q[done]].token);
    free_flows_.push_back(q[done]);
    ++done;
  }
  q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(done));
  if (q.empty()) in_flight_.erase(queue);
}

void FlowModel::finish(std::uint32_t f, SimTime t) {
  Flow& flow = flows_[f];
  for (std::uint32_t l : route_of(f)) {
    Link& link = links_[l];
    link.flows.remove(f);
    if (link.flows.empty()) stats_[l].busy += t - stats_[l].busy_since;
    mark(l);
  }
  flow.active = false;
  dirty_at_ = std::min(dirty_at_, t);
}

void FlowModel::advance(SimTime t, std::vector<std::uint64_t>& arrived) {
  while (!events_.empty() && events_.front().t <= t) {
    const Event e = events_.front();
    unschedule_first();
    if (!e.completion) {  // its latency after its last byte is over
      deliver_in_order(e.flow, arrived);
      continue;
    }
    // Its sender's interface is free: the next of its messages transfers.
    const Rank src = static_cast<Rank>(flows_[e.flow].pair >> 32);
    finish(e.flow, t);
    nic_first_[src] = flows_[e.flow].nic_next;
    if (nic_first_[src] == kNone) nic_last_[src] = kNone;
    else nic_start(src, t);
    if (flows_[e.flow].latency > SimTime::zero()) schedule(Event{t + flows_[e.flow].latency, flows_[e.flow].seq, e.flow, false});
    else deliver_in_order(e.flow, arrived);
  }
  if (!dirty_.empty()) solve(t);
  dirty_at_ = SimTime::never();
}

// The events are a binary min-heap in which each flow knows where its event is
// (event_at_), so a new rate moves the flow's completion instead of leaving the
// old one behind.
void FlowModel::place_event(std::size_t i, const Event& e) {
  events_[i] = e;
  event_at_[e.flow] = static_cast<std::uint32_t>(i);
}

void FlowModel::sift_event(std::size_t i) {
  const Event e = events_[i];
  while (i > 0 && e.before(events_[(i - 1) / 2])) {
    place_event(i, events_[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  for (;;) {
    std::size_t child = 2 * i + 1;
    if (child >= events_.size()) break;
    if (child + 1 < events_.size() && events_[child + 1].before(events_[child])) ++child;
    if (!events_[child].before(e)) break;
    place_event(i, events_[child]);
    i = child;
  }
  place_event(i, e);
}

void FlowModel::schedule(const Event& e) {
  std::uint32_t& at = event_at_[e.flow];
  if (at == kNone) {
    at = static_cast<std::uint32_t>(events_.size());
    events_.push_back(e);
  } else {
    events_[at] = e;
  }
  sift_event(at);
}

void FlowModel::unschedule_first() {
  event_at_[events_.front().flow] = kNone;
  const Event last = events_.back();
  events_.pop_back();
  if (events_.empty()) return;
  events_.front() = last;
  sift_event(0);
}

void FlowModel::schedule_completion(std::uint32_t f, SimTime t) {
  Flow& flow = flows_[f];
  double ps = flow.remaining > 0 ? flow.remaining / flow.rate : 0.0;
  schedule(Event{t + round_ps(ps), flow.seq, f, true});
  flow.scheduled = true;
}

// A flow is fixed at `at` (by the slot `by` filling, or at its cap: kNone).
void FlowModel::fix(std::uint32_t f, double at, std::uint32_t by) {
  Solver& s = *solver_;
  Hot& h = hot_[f];
  // Below its old rate it departs from the last filling (a new flow's links are
  // all slots already).
  const bool departs = h.holder != kNone && at < h.rate * (1 - kTight);
  h.state = Solver::fixed;
  h.rate = at;
  if (by != kNone) h.holder = by;
  for (std::uint32_t l : route_of(f))
    if (const std::uint32_t slot = slot_[l]; slot != kNone) {
      s.slots[slot].left -= at;
      --s.slots[slot].unfixed;
    }
  if (departs) open_route(f);
}

void FlowModel::open_route(std::uint32_t f) {
  for (std::uint32_t l : route_of(f))
    if (slot_[l] == kNone) open(l);
}

// The link becomes a slot at the solver's level.
void FlowModel::open(std::uint32_t l) {
  Solver& s = *solver_;
  const auto slot = static_cast<std::uint32_t>(s.slots.size());
  slot_[l] = slot;
  s.slots.push_back({links_[l].capacity, l, 0, false});
  // A slot needs an entry in the heap only if it can fill (Solver::can_fill).
  bool free_on = false;
  double top_cap = 0;
  for (std::uint32_t g : links_[l].flows) {
    Hot& h = hot_[g];
    switch (h.state) {
      case Solver::fixed: s.slots[slot].left -= h.rate; break;
      case Solver::capped:
        ++s.slots[slot].unfixed;
        if (h.rate <= s.level) {
          fix(g, h.rate, kNone);  // its cap is reached: fixed there (here too)
        } else if (h.holder == l) {
          // Its holder is a slot now: it is free, and every slot it crosses may fill.
          s.set_free(h, g);
          free_on = true;
          for (std::uint32_t m : route_of(g))
            if (const std::uint32_t other = slot_[m]; other != kNone && other != slot) s.wake(other);
        } else {
          top_cap = std::max(top_cap, h.rate);
        }
        break;
      case Solver::free:
        ++s.slots[slot].unfixed;
        free_on = true;
        break;
      default:
        if (h.holder != kNone && h.rate <= s.level) {
          s.slots[slot].left -= h.rate;  // held at its rate by a link no change reached
          break;
        }
        ++s.slots[slot].unfixed;
        s.flows.push_back(g);
        if (h.holder == kNone) {
          h.state = Solver::free;
          free_on = true;
        } else if (slot_[h.holder] != kNone) {
          s.set_free(h, g);
          free_on = true;
        } else {
          h.state = Solver::capped;
          top_cap = std::max(top_cap, h.rate);
        }
    }
  }
  if (s.slots[slot].unfixed > 0 && s.can_fill(s.slots[slot], free_on, top_cap)) s.wake(slot);
}

void FlowModel::solve(SimTime t) {
  Solver& s = *solver_;
  s.flows.clear();
  s.slots.clear();
  s.heap.clear();
  s.level = 0;
  for (std::uint32_t l : dirty_) {
    links_[l].dirty = false;
    if (slot_[l] == kNone) open(l);
  }
  if (!incremental_)
    for (std::uint32_t l = 0; l < links_.size(); ++l)
      if (!links_[l].flows.empty() && slot_[l] == kNone) open(l);
  dirty_.clear();

  while (!s.heap.empty()) {
    const Solver::Entry e = s.pop();
    const double level = std::bit_cast<double>(e.level);
    s.level = std::max(s.level, level);
    if (e.what & Solver::kPassing) {
      // A free flow passes its old rate: it departs from the last filling.
      const auto f = static_cast<std::uint32_t>(e.what);
      if (hot_[f].state != Solver::fixed) open_route(f);
      continue;
    }
    const auto slot = static_cast<std::uint32_t>(e.what);
    s.slots[slot].queued = false;
    if (s.slots[slot].unfixed == 0) continue;
    const std::uint32_t l = s.slots[slot].link;
    // The capped flows whose caps the level has reached are fixed at them.
    bool free_on = false;
    double top_cap = 0;
    for (std::uint32_t g : links_[l].flows) {
      const Hot& h = hot_[g];
      if (h.state == Solver::free) {
        free_on = true;
      } else if (h.state == Solver::capped) {
        if (h.rate <= s.level) fix(g, h.rate, kNone);
        else top_cap = std::max(top_cap, h.rate);
      }
    }
    if (s.slots[slot].unfixed == 0) continue;
    const double share = s.share(s.slots[slot]);
    if (share > level) {
      // Its entry was low: it waits again at its share, if it can still fill.
      if (s.can_fill(s.slots[slot], free_on, top_cap)) s.wake(slot);
      continue;
    }
    // The slot fills: its flows not yet fixed are fixed at its share.
    const double at = std::max(share, 1e-18);  // never 0: rounding must not stall a flow
    for (std::uint32_t g : links_[l].flows)
      if (const std::uint8_t st = hot_[g].state; st == Solver::free || st == Solver::capped) fix(g, at, l);
  }

  ++solves_;
  solved_flows_ += s.flows.size();
  for (const Solver::Slot& slot : s.slots) slot_[slot.link] = kNone;
  for (std::uint32_t f : s.flows) {
    Flow& flow = flows_[f];
    Hot& h = hot_[f];
    h.state = Solver::out;
    if (flow.scheduled && h.rate == flow.rate) continue;
    flow.remaining = std::max(0.0, flow.remaining - flow.rate * static_cast<double>((t - flow.updated).ps));
    flow.updated = t;
    flow.rate = h.rate;
    schedule_completion(f, t);
  }
}

std::vector<std::pair<std::vector<std::uint32_t>, double>> FlowModel::transferring() const {
  std::vector<std::pair<std::vector<std::uint32_t>, double>> out;
  for (std::uint32_t f = 0; f < flows_.size(); ++f)
    if (flows_[f].active) {
      const auto r = route_of(f);
      out.emplace_back(std::vector<std::uint32_t>(r.begin(), r.end()), flows_[f].rate);
    }
  return out;
}

double FlowModel::capacity(std::uint32_t link) const { return links_[link].capacity; }

std::vector<LinkUsage> FlowModel::link_usage() const {
  std::vector<LinkUsage> out;
  for (std::uint32_t l = 0; l < links_.size(); ++l) {
    const LinkStats& link = stats_[l];
    if (link.messages == 0) continue;
    std::string name = l < topo_->link_count() ? topo_->link_name(l)
                                               : topo_->vertex_name(l - topo_->link_count()) + " (intra-node)";
    out.push_back(LinkUsage{l, std::move(name), link.messages, link.bytes, link.busy});
  }
  return out;
}

}  // namespace mpisim::net
