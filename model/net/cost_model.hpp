#pragma once
// The interface every network/cost model implements.
//
// A model sees only (source, destination, bytes, time): ranks are plain indices
// and it never meets an MPI object. It owns each rank's resources (CPU, NIC
// ports) and answers two kinds of question for each of the three things a rank
// does — send, absorb a message, compute:
//   *_ready(rank, t): the earliest time >= t at which the resources are free;
//   start_*(..., t):  occupy them from t (a time *_ready returned) and say what follows.
// The runtime queues an item that is not ready at its ready time, keeping its
// sequence number, so an item that became ready first is served first.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/time.hpp"

namespace mpisim::net {

using sim::SimTime;
using Rank = std::uint32_t;

struct LinkUsage {
  std::uint32_t id;      // as in a message's route
  std::string name;      // "node 3 -> switch"
  std::uint64_t messages = 0, bytes = 0;
  SimTime busy{};        // time during which at least one message was crossing it
};

class CostModel {
 public:
  virtual ~CostModel() = default;

  virtual std::string_view kind() const = 0;  // "hockney", "loggops", ...
  // Parameters for the trace and summary, as (name, human-readable value).
  virtual std::vector<std::pair<std::string, std::string>> parameters() const = 0;

  // Sizes the per-rank state for `ranks` ranks and clears it.
  virtual void reset(Rank ranks) = 0;

  // Messages of at most this many bytes are sent eagerly; larger ones use the
  // rendezvous protocol (the send completes only when the receiver matches it).
  virtual std::uint64_t eager_limit() const = 0;

  // Whether a send competes with anything but the same rank's other sends (the CPU,
  // under LogGOPS). When it does not, a send whose rank has no other send waiting
  // can be served the moment it is posted: the runtime skips the queue then.
  virtual bool sends_compete() const = 0;

  virtual SimTime send_ready(Rank src, SimTime t) const = 0;
  // Returns when the message reaches `dst` and asks to be absorbed there, or
  // kDeferred when that depends on traffic still to come (shared links): the model
  // then reports the arrival through advance(), naming the message by `token`.
  static constexpr SimTime kDeferred = SimTime::never();
  virtual SimTime start_send(Rank src, Rank dst, std::uint64_t bytes, SimTime t, std::uint64_t token) = 0;
  // Whether start_send may answer kDeferred (arrivals depend on later traffic).
  virtual bool defers_arrivals() const { return false; }
  // Models with deferred arrivals: when the model next needs advance() (never when
  // nothing is in flight) ...
  virtual SimTime next_event() const { return SimTime::never(); }
  // ... and advance(t) at that time, which appends the tokens of the messages that
  // reached their destination at t, in the order they did.
  virtual void advance(SimTime, std::vector<std::uint64_t>&) {}

  virtual SimTime receive_ready(Rank dst, SimTime t) const = 0;
  // Returns when `dst` is done absorbing the message (the receive's completion).
  virtual SimTime start_receive(Rank src, Rank dst, std::uint64_t bytes, SimTime t) = 0;

  // Whether a computation competes for the CPU with anything but the same rank's
  // other computations (sends and receptions, under LogGOPS). When it does not, a
  // rank's computation starts when its CPU is free whatever else happens at that
  // instant, and the runtime starts it without queueing it.
  virtual bool computes_compete() const = 0;
  virtual SimTime compute_ready(Rank r, SimTime t) const = 0;
  // Returns when the computation ends.
  virtual SimTime start_compute(Rank r, SimTime duration, SimTime t) = 0;

  // When the rank's CPU is next free (a rank's finish time is when its CPU is last free).
  virtual SimTime cpu_free(Rank r) const = 0;
  // A hint that the rank's state (CPU, port) is about to be read: start loading
  // it from memory. It changes nothing.
  virtual void prefetch(Rank) const {}

  // Time to reduce `bytes` of data locally (γ per byte) and to copy them locally.
  virtual SimTime reduce_time(std::uint64_t bytes) const = 0;
  virtual SimTime copy_time(std::uint64_t bytes) const = 0;

  // Models with links: the links a message from `src` to `dst` crosses, and what
  // each link carried (links that carried nothing are left out).
  virtual void route(Rank, Rank, std::vector<std::uint32_t>&) const {}
  // The node (shared-memory domain) rank r runs on: its own one unless the model
  // places several ranks on a node.
  virtual std::uint32_t node(Rank r) const { return r; }
  virtual std::vector<LinkUsage> link_usage() const { return {}; }
};

}  // namespace mpisim::net
