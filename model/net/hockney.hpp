#pragma once
// Hockney: a message of n bytes costs α + nβ.
//
// Rules (docs/cost-models.md): each rank has one outgoing port; a send starts when
// the port is free and holds it for nβ, so a rank injects one message at a time;
// the message arrives (is complete at the receiver) α + nβ after it starts.
// Receiving costs the receiver nothing beyond that: there is no receive port
// contention (topologies model that). Computation occupies the CPU, which sends
// and receives do not use. Because a rank's sends leave in order and each holds the
// port for its whole nβ, messages from one rank arrive in the order they were sent.
#include <limits>
#include <vector>

#include "model/net/cost_model.hpp"
#include "model/net/cpu_only_model.hpp"
#include "sim/bulk.hpp"

namespace mpisim::net {

struct HockneyParams {
  double alpha_ps = 0;            // latency
  double beta_ps_per_byte = 0;    // inverse bandwidth
  double gamma_ps_per_byte = 0;   // local reduction cost
  double copy_ps_per_byte = 0;    // local memory copy cost
  std::uint64_t eager_limit = std::numeric_limits<std::uint64_t>::max();
  // Messages above the eager limit, when given (a piecewise fit): their own α and β.
  double rendezvous_alpha_ps = -1, rendezvous_beta_ps_per_byte = -1;
};

class Hockney final : public CpuOnlyModel {
 public:
  explicit Hockney(HockneyParams p) : CpuOnlyModel(p.gamma_ps_per_byte, p.copy_ps_per_byte), p_(p) {}

  std::string_view kind() const override { return "hockney"; }
  std::vector<std::pair<std::string, std::string>> parameters() const override;
  void reset(Rank ranks) override;
  std::uint64_t eager_limit() const override { return p_.eager_limit; }

  bool sends_compete() const override { return false; }  // the port is the rank's own
  bool computes_compete() const override { return false; }  // the CPU only computes
  SimTime send_ready(Rank src, SimTime t) const override { return max(t, port_free_[src]); }
  void prefetch(Rank r) const override {
    CpuOnlyModel::prefetch(r);
    __builtin_prefetch(&port_free_[r]);
  }
  SimTime start_send(Rank src, Rank dst, std::uint64_t bytes, SimTime t, std::uint64_t token) override;
  SimTime receive_ready(Rank, SimTime t) const override { return t; }
  SimTime start_receive(Rank, Rank, std::uint64_t, SimTime t) override { return t; }

  const HockneyParams& params() const { return p_; }

 private:
  HockneyParams p_;
  sim::bulk::Vector<SimTime> port_free_;
};

}  // namespace mpisim::net
