#include "model/net/hockney.hpp"

#include <cmath>

#include "model/net/units.hpp"

namespace mpisim::net {

std::vector<std::pair<std::string, std::string>> Hockney::parameters() const {
  std::vector<std::pair<std::string, std::string>> out{
      {"alpha", format_time(std::llround(p_.alpha_ps))},
      {"beta", per_byte_text(p_.beta_ps_per_byte)},
      {"gamma", per_byte_text(p_.gamma_ps_per_byte)},
      {"copy", per_byte_text(p_.copy_ps_per_byte)},
  };
  out.emplace_back("eager_limit", p_.eager_limit == std::numeric_limits<std::uint64_t>::max()
                                       ? std::string("unlimited")
                                       : format_bytes(p_.eager_limit));
  if (p_.rendezvous_alpha_ps >= 0) {
    out.emplace_back("rendezvous_alpha", format_time(std::llround(p_.rendezvous_alpha_ps)));
    out.emplace_back("rendezvous_beta", per_byte_text(p_.rendezvous_beta_ps_per_byte));
  }
  return out;
}

void Hockney::reset(Rank ranks) {
  port_free_.assign(ranks, SimTime::zero());
  reset_cpus(ranks);
}

SimTime Hockney::start_send(Rank src, Rank, std::uint64_t bytes, SimTime t, std::uint64_t) {
  const bool piece2 = bytes > p_.eager_limit && p_.rendezvous_alpha_ps >= 0;
  SimTime wire = round_ps(static_cast<double>(bytes) * (piece2 ? p_.rendezvous_beta_ps_per_byte : p_.beta_ps_per_byte));
  port_free_[src] = t + wire;
  return t + round_ps(piece2 ? p_.rendezvous_alpha_ps : p_.alpha_ps) + wire;
}

}  // namespace mpisim::net
