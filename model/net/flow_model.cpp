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
constexpr std::uint32_t kInSet = 0xffffffffu;  // Hot::mark of a flow in the solver's set
// Relative slack under which a link counts as full (rates are doubles).
constexpr double kTight = 1e-9;
}  // namespace

struct FlowModel::Flow {
  std::uint64_t token = 0;
  std::uint64_t seq = 0;             // start order: unique, breaks ties between events
  double remaining = 0;              // bytes still to transfer at `updated`
  double rate = 0;                   // bytes per picosecond
  SimTime updated{};
  bool active = false;               // transferring (its latency is over)
  bool scheduled = false;            // has a completion event for its current rate
  bool transferred = false;          // its last byte is through (it may wait for an earlier one)
  std::uint64_t pair = 0;            // its (source, destination) ranks
};

// What the solver's checks read of every flow on a link, apart from the rest so
// that the flows of a few hundred links stay in cache: four to a cache line.
struct FlowModel::Hot {
  double rate = 0;                   // its rate, or while in the solver's set its new rate
  // The link that last held it, a link of its route (reset when the pool reuses the
  // flow): its bottleneck check starts there.
  std::uint32_t holder = kNone;
  std::uint32_t mark = 0;            // kInSet, or the solver round that last checked its bottleneck
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
  double used = 0;                   // the sum of its active flows' rates
  FlowList flows;                    // its active flows
  bool dirty = false;
};

// What the trace reports of a link, apart from what the solver reads.
struct FlowModel::LinkStats {
  std::uint64_t messages = 0, bytes = 0;
  SimTime busy{}, busy_since{};
};

// A latency that ends (completion false) or a transfer that ends. A flow has at
// most one at a time, and flows' seqs are unique, so (t, seq) orders them totally.
struct FlowModel::Event {
  SimTime t;
  std::uint64_t seq;
  std::uint32_t flow;
  bool completion;
  bool before(const Event& o) const { return t < o.t || (t == o.t && seq < o.seq); }
};

// Which flows a change can affect, and their max-min fair rates.
//
// Rates are max-min fair exactly when every flow has a bottleneck: a full link on
// which no flow runs faster than it. A change (a flow starting or ending) can only
// break that on the links of its route, and only for the flows those links held
// (each flow knows the link that last held it): a flow held by another link keeps
// that bottleneck. So the solver starts from the new flows and the flows the
// changed links held, keeps every other flow at its rate, and fills the set
// progressively on what the outside flows leave of each link. Then it checks the
// bottlenecks the new rates could have broken:
//  - each flow of the set was fixed at a link the set filled; if an outside flow
//    runs faster there, that link is not its bottleneck, and unless another full
//    link of its route holds it, the faster outside flows join the set;
//  - an outside flow on a link the set crosses may have lost its bottleneck (the
//    link is no longer full, or a flow of the set now runs faster on it): unless
//    another full link of its route still holds it, it joins the set.
// It solves again until nothing breaks. Every flow then has a bottleneck, so the
// rates are the max-min fair rates of all flows (to kTight), recomputed only where
// they change; where changes reach far, so does the set.
//
// A change travels one link further per round: an outside flow that lost its
// bottleneck runs faster after the next fill, and then the flows held by the
// other links of its route share those links with a faster flow, so the round
// after finds them unheld. They join with it instead (a flow that joins without
// need keeps its rate, to rounding), which saves rounds: each refills the whole set.
struct FlowModel::Solver {
  std::vector<std::uint32_t> flows;            // the set
  std::vector<std::uint32_t> links;            // every link its flows cross
  // The set's flows as slots: each flow's route (route_slots from route_at[j] to
  // route_at[j + 1]), and per slot what the outside flows leave of it plus the old
  // rates of the set's flows on it (`base`: the residual a fill starts from) and how
  // many of the set's flows cross it (`count`). Kept as flows join, so a fill reads
  // nothing outside the solver.
  std::vector<std::uint32_t> route_at, route_slots;
  std::vector<double> last_rate;               // per flow: its rate at the last round's checks
  std::vector<double> base;
  std::vector<std::uint32_t> count;
  std::vector<double> capacity;                // per slot: its link's
  // Per slot: its fastest flow's rate, found in round fastest_round (rates do not
  // change while a round's checks run).
  std::vector<double> fastest;
  std::vector<std::uint32_t> fastest_round;
  // By flow id: its place in `flows` while in the set. Per place: fixed in this
  // fill. (A fill finds the set's flows on a link among the link's flows: all
  // that a link fixes get the same rate, so their order changes no residual.)
  std::vector<std::uint32_t> index;
  std::vector<char> fixed;
  std::vector<char> expanded;                  // per slot: all the link's flows are in the set
  std::vector<double> residual;                // per slot
  std::vector<double> fixed_at;                // per slot: the rate of the set's flows fixed there, or -1
  std::vector<char> changed;                   // per slot: a rate on it moved since its outside flows were checked
  std::vector<std::uint32_t> unfixed;          // per slot: the set's flows on it not yet fixed
  std::vector<std::uint32_t> unheld;           // outside flows found unheld in this round's checks
  std::uint32_t round = 0;                     // numbers the checks of outside flows (never kInSet)
  // Progressive filling: the links with unfixed flows of the set (`open`, each
  // slot's place in it at open_at), each link's fair share of what is left
  // (`share`), and the share it was last seen at (`seen`). The next link to fill
  // is the one with the lowest level max(seen, share), ties to the lower link id:
  // shares only grow as flows are fixed (each fixed flow took no more than the
  // lowest share), so the level is the share, and `seen` keeps a share that
  // rounding shrank from counting below the level it was seen at. The open links
  // wait in a heap keyed by `seen` (a link that surfaces with a higher share is
  // seen again and re-queued) until a scan of them costs less: a scan finds the
  // same link, and sees again every link the heap would have surfaced first. A
  // scan costs the open links for each of at most `left` more links to fill; the
  // heap about (open + left) pops of lg(open) steps each, dearer per step
  // (mispredicted branches): FlowModel::scan_factor_ weighs them.
  std::vector<std::uint32_t> open, open_at;
  std::vector<double> share, seen;
  struct Seen {
    double level;
    std::uint32_t link, slot;
  };
  static bool later(const Seen& a, const Seen& b) {
    return a.level > b.level || (a.level == b.level && a.link > b.link);
  }
  std::vector<Seen> heap;
};

FlowModel::FlowModel(TopologyParams p)
    : CpuOnlyModel(p.gamma_ps_per_byte, p.copy_ps_per_byte), p_(std::move(p)), solver_(std::make_unique<Solver>()) {}
FlowModel::~FlowModel() = default;

std::vector<std::pair<std::string, std::string>> FlowModel::parameters() const {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("topology", p_.shape + (topo_ ? " of " + std::to_string(topo_->hosts()) + " nodes" : ""));
  for (const auto& d : p_.description) out.push_back(d);
  if (topo_) out.emplace_back("routing", topo_->routing_rule());
  out.emplace_back("contention", p_.contention ? "max-min fair sharing" : "none");
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
  tight_.assign(links_.size(), 0);
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

SimTime FlowModel::start_send(Rank src, Rank dst, std::uint64_t bytes, SimTime t, std::uint64_t token) {
  route_scratch_.clear();
  route(src, dst, route_scratch_);
  SimTime latency = route_latency(route_scratch_);
  double slowest = 0;
  for (std::uint32_t l : route_scratch_) {
    ++stats_[l].messages;
    stats_[l].bytes += bytes;
    slowest = std::max(slowest, 1.0 / links_[l].capacity);
  }
  const std::uint64_t pair = pair_key(src, dst);
  if (!p_.contention) {
    // Known now: nothing else can slow it down; only order can delay it.
    SimTime transfer = round_ps(static_cast<double>(bytes) * slowest);
    for (std::uint32_t l : route_scratch_) stats_[l].busy += transfer;
    SimTime& last = last_arrival_[pair];
    last = max(last, t + latency + transfer);
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
  flow.transferred = false;
  flow.token = token;
  flow.seq = next_seq_++;
  flow.remaining = static_cast<double>(bytes);
  flow.rate = 0;
  flow.active = false;
  flow.scheduled = false;
  hot_[f] = Hot{};
  if (latency > SimTime::zero() || bytes == 0) {
    schedule(Event{t + latency, flow.seq, f, false});
  } else {
    activate(f, t);
  }
  return kDeferred;
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
  flows_[f].transferred = true;
  auto queue = in_flight_.find(flows_[f].pair);
  std::vector<std::uint32_t>& q = queue->second;
  std::size_t done = 0;
  while (done < q.size() && flows_[q[done]].transferred) {
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
    link.used = link.flows.empty() ? 0.0 : std::max(0.0, link.used - flow.rate);
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
    if (!e.completion) {
      if (flows_[e.flow].remaining > 0) activate(e.flow, t);
      else deliver_in_order(e.flow, arrived);  // an empty message held for order
      continue;
    }
    finish(e.flow, t);
    deliver_in_order(e.flow, arrived);
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

void FlowModel::solve(SimTime t) {
  Solver& s = *solver_;
  s.flows.clear();
  s.links.clear();
  s.expanded.clear();
  s.changed.clear();
  s.base.clear();
  s.count.clear();
  s.route_slots.clear();
  s.route_at.assign(1, 0);
  s.last_rate.clear();
  s.capacity.clear();
  s.fastest.clear();
  s.fastest_round.clear();
  auto slot_of = [&](std::uint32_t l) {
    std::uint32_t& slot = slot_[l];
    if (slot == kNone) {
      const Link& link = links_[l];
      slot = static_cast<std::uint32_t>(s.links.size());
      s.links.push_back(l);
      s.expanded.push_back(0);
      s.base.push_back(link.capacity - link.used);
      s.count.push_back(0);
      s.capacity.push_back(link.capacity);
      s.fastest.push_back(0);
      s.fastest_round.push_back(0);
    }
    return slot;
  };
  auto add = [&](std::uint32_t f) {
    Hot& h = hot_[f];
    if (h.mark == kInSet) return;
    h.mark = kInSet;
    // Its rate: outside a solve a flow's Hot::rate is its Flow::rate (and until the
    // set is solved again, it stays so).
    const double rate = h.rate;
    if (s.index.size() <= f) s.index.resize(flows_.size());
    s.index[f] = static_cast<std::uint32_t>(s.flows.size());
    s.flows.push_back(f);
    s.last_rate.push_back(rate);
    for (std::uint32_t m : route_of(f)) {
      const std::uint32_t slot = slot_of(m);
      s.route_slots.push_back(slot);
      s.base[slot] += rate;  // its old rate is the set's to share again
      ++s.count[slot];
    }
    s.route_at.push_back(static_cast<std::uint32_t>(s.route_slots.size()));
  };
  auto expand = [&](std::uint32_t l) {
    std::uint32_t slot = slot_of(l);
    if (s.expanded[slot]) return;
    s.expanded[slot] = 1;
    for (std::uint32_t f : links_[l].flows) add(f);
  };
  // The changed links are slots (their fullness is brought up to date) and bring
  // the flows they held and the new flows (no holder yet) into the set.
  for (std::uint32_t l : dirty_) {
    links_[l].dirty = false;
    slot_of(l);
    for (std::uint32_t f : links_[l].flows)
      if (hot_[f].holder == l || hot_[f].holder == kNone) add(f);
  }
  if (!incremental_)
    for (std::uint32_t l = 0; l < links_.size(); ++l)
      if (!links_[l].flows.empty()) expand(l);
  dirty_.clear();

  std::size_t solved = 0;  // slots below it have the last round's residuals
  // (A link that is not a slot has no flow of the set, and slot_ is kNone.)
  auto full = [&](std::uint32_t l) {
    const std::uint32_t slot = slot_[l];
    return slot >= solved ? tight_[l] != 0 : s.residual[slot] <= kTight * s.capacity[slot];
  };
  // The fastest flow on a link: on a slot, found once per round of checks; on
  // another link, only outside flows, whose rates the solve does not change.
  auto fastest = [&](std::uint32_t l) {
    auto find = [&] {
      double most = 0;
      for (std::uint32_t h : links_[l].flows) most = std::max(most, hot_[h].rate);
      return most;
    };
    const std::uint32_t slot = slot_[l];
    if (slot == kNone) return find();
    if (s.fastest_round[slot] != s.round) {
      s.fastest_round[slot] = s.round;
      s.fastest[slot] = find();
    }
    return s.fastest[slot];
  };
  // A flow has a bottleneck: a full link of its route with no faster flow.
  //
  // Between solves every flow's holder holds it: a solve leaves each flow of its
  // set held by the link that fixed it (or by the link its check found), and an
  // outside flow's holder held it when it was last checked; whatever changes a
  // link since (a flow on it starting or ending, a rate on it moving) makes the
  // link one of a solve's slots, and a moved rate gets its outside flows checked
  // again. So a holder that is not a slot of this solve, whose flows and fullness
  // no solve has changed since, still holds its flow, and is not read again.
  auto held = [&](std::uint32_t g) {
    Hot& h = hot_[g];
    const double rate = h.rate;
    auto holds = [&](std::uint32_t m) { return full(m) && rate >= fastest(m) * (1 - kTight); };
    if (h.holder != kNone && (slot_[h.holder] == kNone || holds(h.holder))) return true;
    for (std::uint32_t m : route_of(g))
      if (m != h.holder && holds(m)) {
        h.holder = m;
        return true;
      }
    return false;
  };

  for (;;) {
    // Progressive filling over the set, on what the outside flows leave of each link.
    const std::size_t n = s.links.size();
    solved = n;
    const auto set_size = static_cast<std::uint32_t>(s.flows.size());
    s.residual.assign(s.base.begin(), s.base.end());
    s.unfixed.assign(s.count.begin(), s.count.end());
    s.fixed_at.assign(n, -1.0);
    s.fixed.assign(set_size, 0);
    auto share_of = [&](std::uint32_t slot) { return std::max(0.0, s.residual[slot]) / s.unfixed[slot]; };
    // The links that still have unfixed flows of the set: the first `opened` of
    // `open` (each slot's place in it at open_at).
    s.seen.resize(n);
    s.share.resize(n);
    s.open_at.resize(n);
    s.open.resize(n);
    s.heap.clear();
    std::uint32_t opened = 0;
    for (std::uint32_t i = 0; i < n; ++i)
      if (s.unfixed[i] > 0) {
        s.share[i] = s.seen[i] = share_of(i);
        s.open_at[i] = opened;
        s.open[opened++] = i;
      }
    // The scan reads only the first `low` open links while the level it finds is at
    // most `tau`: every other open link is above tau (at least the lower of its seen
    // level and its share, which bounds its level now and after any later
    // see_again), so the link found is the one a scan of all would find.
    std::uint32_t low = 0;
    double tau = -1;
    auto place = [&](std::uint32_t slot, std::uint32_t at) {
      s.open[at] = slot;
      s.open_at[slot] = at;
    };
    auto close = [&](std::uint32_t slot) {
      std::uint32_t hole = s.open_at[slot];
      if (hole < low) {
        --low;
        place(s.open[low], hole);
        hole = low;
      }
      if (--opened != hole) place(s.open[opened], hole);
    };
    auto bound = [&](std::uint32_t i) { return std::min(s.seen[i], s.share[i]); };
    auto lower = [&](std::uint32_t slot) {  // a high link whose bound fell to tau or below
      const std::uint32_t at = s.open_at[slot];
      if (at < low || bound(slot) > tau) return;
      place(s.open[low], at);
      place(slot, low++);
    };
    // The next link to fill (see Solver): from a heap of seen levels while it
    // costs less than a scan, then by a scan; both choose the same link.
    std::size_t left = s.flows.size();
    auto heap_pays = [&] {
      const double open = opened, unfixed = static_cast<double>(left);
      return unfixed * open > scan_factor_ * (open + unfixed) * std::bit_width(opened);
    };
    bool heap = heap_pays();
    if (heap) {
      for (std::uint32_t k = 0; k < opened; ++k) s.heap.push_back({s.seen[s.open[k]], s.links[s.open[k]], s.open[k]});
      std::make_heap(s.heap.begin(), s.heap.end(), Solver::later);
    }
    // The scan sees again the links the heap would have surfaced before the last
    // link chosen, lazily: in the next scan, or before the link's share changes.
    // (Levels are never negative: before the first scan no link is below `last`.)
    struct {
      double level;
      std::uint32_t link;
    } last{-1, 0};
    auto see_again = [&](std::uint32_t i) {
      const double seen = s.seen[i];
      if (seen <= last.level && (seen < last.level || s.links[i] < last.link)) s.seen[i] = s.share[i];
    };
    auto next = [&](double& level) {
      if (heap && !heap_pays()) {
        heap = false;  // the heap kept `seen`; the shares are read now
        for (std::uint32_t k = 0; k < opened; ++k) s.share[s.open[k]] = share_of(s.open[k]);
      }
      while (heap) {
        std::pop_heap(s.heap.begin(), s.heap.end(), Solver::later);
        Solver::Seen& top = s.heap.back();
        if (s.unfixed[top.slot] == 0) {
          s.heap.pop_back();
          continue;
        }
        if (const double now = share_of(top.slot); now > top.level) {
          top.level = s.seen[top.slot] = now;
          std::push_heap(s.heap.begin(), s.heap.end(), Solver::later);
          continue;
        }
        level = top.level;
        const std::uint32_t slot = top.slot;
        s.heap.pop_back();
        return slot;
      }
      auto lowest = [&](std::uint32_t from, std::uint32_t to, std::uint32_t& top) {
        for (std::uint32_t k = from; k < to; ++k) {
          const std::uint32_t i = s.open[k];
          see_again(i);
          const double at = std::max(s.seen[i], s.share[i]);
          if (at <= level && (at < level || s.links[i] < s.links[top])) top = i, level = at;
        }
      };
      std::uint32_t top = s.open[0];
      level = std::max(s.seen[top], s.share[top]);
      lowest(0, low, top);
      if (low == 0 || level > tau) {
        // Every open link is read, and the low ones are chosen again.
        lowest(low, opened, top);
        tau = 2 * level;
        low = 0;
        for (std::uint32_t k = 0; k < opened; ++k)
          if (const std::uint32_t i = s.open[k]; bound(i) <= tau) {
            place(s.open[low], k);
            place(i, low++);
          }
      }
      last = {level, s.links[top]};
      return top;
    };
    while (left > 0) {
      double level;
      const std::uint32_t top = next(level);
      double share = std::max(level, 1e-18);  // never 0: rounding must not stall a flow
      s.fixed_at[top] = share;
      for (const std::uint32_t f : links_[s.links[top]].flows) {
        if (hot_[f].mark != kInSet) continue;
        const std::uint32_t j = s.index[f];
        if (s.fixed[j]) continue;
        s.fixed[j] = 1;
        hot_[f].rate = share;
        hot_[f].holder = s.links[top];
        --left;
        for (std::uint32_t r = s.route_at[j]; r < s.route_at[j + 1]; ++r) {
          const std::uint32_t slot = s.route_slots[r];
          s.residual[slot] -= share;
          if (--s.unfixed[slot] == 0) {
            close(slot);
          } else if (!heap) {  // the heap reads shares when links surface
            see_again(slot);
            s.share[slot] = share_of(slot);
            lower(slot);
          }
        }
      }
    }
    // The bottlenecks the new rates may have broken (see Solver). An outside flow
    // whose links all kept the rates they had when it was last found held (or
    // before the solve) keeps its bottleneck: only the links where a rate moved
    // since the last round need their outside flows checked.
    s.changed.resize(n, 0);
    for (std::uint32_t j = 0; j < set_size; ++j) {
      const double rate = hot_[s.flows[j]].rate;
      if (rate != s.last_rate[j])
        for (std::uint32_t r = s.route_at[j]; r < s.route_at[j + 1]; ++r) s.changed[s.route_slots[r]] = 1;
      s.last_rate[j] = rate;
    }
    const std::size_t before = s.flows.size();
    if (++s.round == kInSet) {  // the round numbers wrap: no mark or link keeps an old one
      for (Hot& h : hot_)
        if (h.mark != kInSet) h.mark = 0;
      std::fill(s.fastest_round.begin(), s.fastest_round.end(), 0);
      s.round = 1;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (s.expanded[i]) continue;
      const std::uint32_t l = s.links[i];
      if (const double at = s.fixed_at[i]; at >= 0) {
        // The set's flows fixed here run slower than an outside flow: unless another
        // full link holds them, they and the faster flows must share this link afresh.
        const FlowList& on = links_[l].flows;
        auto outruns = [&](std::uint32_t g) { return hot_[g].mark != kInSet && hot_[g].rate > at * (1 + kTight); };
        auto unheld = [&](std::uint32_t f) { return hot_[f].mark == kInSet && hot_[f].rate == at && !held(f); };
        if (std::any_of(on.begin(), on.end(), outruns) && std::any_of(on.begin(), on.end(), unheld)) {
          for (std::uint32_t g : on)
            if (outruns(g)) add(g);
          continue;
        }
      }
      // (A link that sent its faster flows into the set above keeps its mark: its
      // outside flows are checked in the next round.)
      if (!s.changed[i]) continue;
      s.changed[i] = 0;
      for (std::uint32_t g : links_[l].flows) {
        Hot& h = hot_[g];
        if (h.mark == kInSet || h.mark == s.round) continue;
        h.mark = s.round;
        if (!held(g)) {
          add(g);
          s.unheld.push_back(g);
        }
      }
    }
    if (s.flows.size() == before) break;
    // The flows that the links of an unheld flow's route hold join with it (see
    // Solver). (Apart, so that the compiler keeps inlining the fill's heap.)
    [&]() __attribute__((noinline)) {
      for (std::uint32_t g : s.unheld)
        for (std::uint32_t m : route_of(g))
          for (std::uint32_t h : links_[m].flows)
            if (hot_[h].holder == m) add(h);
      s.unheld.clear();
    }();
  }

  ++solves_;
  solved_flows_ += s.flows.size();
  for (std::size_t i = 0; i < s.links.size(); ++i) {
    Link& link = links_[s.links[i]];
    link.used = link.flows.empty() ? 0.0 : std::max(0.0, link.capacity - s.residual[i]);
    tight_[s.links[i]] = !link.flows.empty() && s.residual[i] <= kTight * link.capacity;
    slot_[s.links[i]] = kNone;
  }
  for (std::uint32_t f : s.flows) {
    Flow& flow = flows_[f];
    Hot& h = hot_[f];
    h.mark = 0;
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
