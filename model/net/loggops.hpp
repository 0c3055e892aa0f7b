#pragma once
// LogGOPS, with the rules LogGOPSim implements, so that one schedule predicts the
// same times in both (docs/cost-models.md has the derivation):
//  - a send of s bytes starts at t when the sender's CPU and send NIC are free; it
//    occupies the CPU for o + (s-1)·O and the send NIC for g + (s-1)·G;
//  - its first byte reaches the receiver at t + o + L;
//  - the receiver absorbs it at max(arrival, CPU free, receive NIC free), its CPU
//    busy o + (s-1)·max(O, G) and its receive NIC g + (s-1)·G; the receive is
//    complete when the CPU is done with it;
//  - eager (s <= S) sends complete at t; rendezvous sends when the receiver matches;
//  - computation occupies the CPU.
// One message costs 2o + L + (s-1)·G (with O <= G). A 0-byte message costs 2o + L:
// (s-1) is clamped at 0, never wrapped around.
#include <vector>

#include "model/net/cost_model.hpp"
#include "sim/bulk.hpp"

namespace mpisim::net {

struct LogGOPSParams {
  double L_ps = 0, o_ps = 0, g_ps = 0;
  double G_ps_per_byte = 0, O_ps_per_byte = 0;
  std::uint64_t S = 65536;
  double gamma_ps_per_byte = 0;
  double copy_ps_per_byte = 0;
};

class LogGOPS final : public CostModel {
 public:
  explicit LogGOPS(LogGOPSParams p) : p_(p) {}

  std::string_view kind() const override { return "loggops"; }
  std::vector<std::pair<std::string, std::string>> parameters() const override;
  void reset(Rank ranks) override;
  std::uint64_t eager_limit() const override { return p_.S; }

  bool sends_compete() const override { return true; }  // sends and receptions share the CPU
  bool computes_compete() const override { return true; }  // the CPU also pays the overheads o and O
  SimTime send_ready(Rank src, SimTime t) const override;
  SimTime start_send(Rank src, Rank dst, std::uint64_t bytes, SimTime t, std::uint64_t token) override;
  SimTime receive_ready(Rank dst, SimTime t) const override;
  SimTime start_receive(Rank src, Rank dst, std::uint64_t bytes, SimTime t) override;
  SimTime compute_ready(Rank r, SimTime t) const override { return max(t, ranks_[r].cpu); }
  SimTime start_compute(Rank r, SimTime duration, SimTime t) override;
  SimTime cpu_free(Rank r) const override { return ranks_[r].cpu; }
  void prefetch(Rank r) const override { __builtin_prefetch(&ranks_[r]); }
  SimTime reduce_time(std::uint64_t bytes) const override;
  SimTime copy_time(std::uint64_t bytes) const override;

  const LogGOPSParams& params() const { return p_; }

 private:
  struct RankState {
    SimTime cpu, send_nic, recv_nic;
  };
  SimTime per_byte(std::uint64_t bytes, double ps_per_byte) const;
  LogGOPSParams p_;
  sim::bulk::Vector<RankState> ranks_;
};

}  // namespace mpisim::net
