#pragma once
// The CPU answers of a cost model whose ranks' CPUs compute (Hockney; the topology
// models, which may also charge a per-message overhead there; LogGOPS keeps its own): each rank's
// CPU is busy until a time, and reducing or copying a byte costs γ or the copy rate.
#include <cstdint>

#include "model/net/cost_model.hpp"
#include "model/net/units.hpp"
#include "sim/bulk.hpp"
#include "sim/time.hpp"

namespace mpisim::net {

class CpuOnlyModel : public CostModel {
 public:
  sim::SimTime compute_ready(Rank r, sim::SimTime t) const override { return max(t, cpu_free_[r]); }
  sim::SimTime start_compute(Rank r, sim::SimTime duration, sim::SimTime t) override {
    return cpu_free_[r] = t + duration;
  }
  sim::SimTime cpu_free(Rank r) const override { return cpu_free_[r]; }
  void prefetch(Rank r) const override { __builtin_prefetch(&cpu_free_[r]); }
  sim::SimTime reduce_time(std::uint64_t bytes) const override { return round_ps(static_cast<double>(bytes) * gamma_); }
  sim::SimTime copy_time(std::uint64_t bytes) const override { return round_ps(static_cast<double>(bytes) * copy_); }

 protected:
  CpuOnlyModel(double gamma_ps_per_byte, double copy_ps_per_byte) : gamma_(gamma_ps_per_byte), copy_(copy_ps_per_byte) {}
  // Every rank's CPU free from time zero (a model's reset).
  void reset_cpus(Rank ranks) { cpu_free_.assign(ranks, sim::SimTime::zero()); }
  // The rank's CPU busy until `until` (a model that charges a per-message overhead).
  void occupy_cpu(Rank r, sim::SimTime until) { cpu_free_[r] = until; }

 private:
  double gamma_, copy_;
  sim::bulk::Vector<sim::SimTime> cpu_free_;
};

}  // namespace mpisim::net
