#pragma once
// A rank's CPU in the models where only computation occupies it (Hockney and the
// topology models; LogGOPS also charges its overheads o and O there): the time it
// is busy until, and what reducing or copying a byte costs it.
#include <cstdint>

#include "model/net/cost_model.hpp"
#include "model/net/units.hpp"
#include "sim/bulk.hpp"
#include "sim/time.hpp"

namespace mpisim::net {

class RankCpu {
 public:
  RankCpu(double gamma_ps_per_byte, double copy_ps_per_byte) : gamma_(gamma_ps_per_byte), copy_(copy_ps_per_byte) {}

  void reset(std::uint32_t ranks) { free_.assign(ranks, sim::SimTime::zero()); }
  sim::SimTime ready(std::uint32_t r, sim::SimTime t) const { return max(t, free_[r]); }
  // Busy for `duration` from t; returns when it is free again.
  sim::SimTime start(std::uint32_t r, sim::SimTime duration, sim::SimTime t) { return free_[r] = t + duration; }
  sim::SimTime free_at(std::uint32_t r) const { return free_[r]; }
  sim::SimTime reduce_time(std::uint64_t bytes) const { return round_ps(static_cast<double>(bytes) * gamma_); }
  sim::SimTime copy_time(std::uint64_t bytes) const { return round_ps(static_cast<double>(bytes) * copy_); }

 private:
  double gamma_, copy_;
  sim::bulk::Vector<sim::SimTime> free_;
};

// A cost model whose ranks' CPUs only compute: the CPU answers of CostModel.
class CpuOnlyModel : public CostModel {
 public:
  sim::SimTime compute_ready(Rank r, sim::SimTime t) const override { return cpu_.ready(r, t); }
  sim::SimTime start_compute(Rank r, sim::SimTime duration, sim::SimTime t) override {
    return cpu_.start(r, duration, t);
  }
  sim::SimTime cpu_free(Rank r) const override { return cpu_.free_at(r); }
  sim::SimTime reduce_time(std::uint64_t bytes) const override { return cpu_.reduce_time(bytes); }
  sim::SimTime copy_time(std::uint64_t bytes) const override { return cpu_.copy_time(bytes); }

 protected:
  CpuOnlyModel(double gamma_ps_per_byte, double copy_ps_per_byte) : cpu_(gamma_ps_per_byte, copy_ps_per_byte) {}
  RankCpu cpu_;
};

}  // namespace mpisim::net
