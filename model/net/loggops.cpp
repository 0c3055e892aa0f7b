#include "model/net/loggops.hpp"

#include <algorithm>
#include <cmath>

#include "model/net/units.hpp"

namespace mpisim::net {

std::vector<std::pair<std::string, std::string>> LogGOPS::parameters() const {
  return {{"L", format_time(std::llround(p_.L_ps))},
          {"o", format_time(std::llround(p_.o_ps))},
          {"g", format_time(std::llround(p_.g_ps))},
          {"G", per_byte_text(p_.G_ps_per_byte)},
          {"O", per_byte_text(p_.O_ps_per_byte)},
          {"S", format_bytes(p_.S)},
          {"gamma", per_byte_text(p_.gamma_ps_per_byte)}};
}

void LogGOPS::reset(Rank ranks) { ranks_.assign(ranks, RankState{}); }

// (s-1)·rate, with s-1 clamped at 0 for empty messages.
SimTime LogGOPS::per_byte(std::uint64_t bytes, double ps_per_byte) const {
  double extra = bytes == 0 ? 0.0 : static_cast<double>(bytes - 1);
  return round_ps(extra * ps_per_byte);
}

SimTime LogGOPS::send_ready(Rank src, SimTime t) const {
  return max(t, max(ranks_[src].cpu, ranks_[src].send_nic));
}

SimTime LogGOPS::start_send(Rank src, Rank, std::uint64_t bytes, SimTime t, std::uint64_t) {
  RankState& s = ranks_[src];
  s.cpu = t + round_ps(p_.o_ps) + per_byte(bytes, p_.O_ps_per_byte);
  s.send_nic = t + round_ps(p_.g_ps) + per_byte(bytes, p_.G_ps_per_byte);
  return t + round_ps(p_.o_ps) + round_ps(p_.L_ps);
}

SimTime LogGOPS::receive_ready(Rank dst, SimTime t) const {
  return max(t, max(ranks_[dst].cpu, ranks_[dst].recv_nic));
}

SimTime LogGOPS::start_receive(Rank, Rank dst, std::uint64_t bytes, SimTime t) {
  RankState& r = ranks_[dst];
  r.cpu = t + round_ps(p_.o_ps) + per_byte(bytes, std::max(p_.O_ps_per_byte, p_.G_ps_per_byte));
  r.recv_nic = t + round_ps(p_.g_ps) + per_byte(bytes, p_.G_ps_per_byte);
  return r.cpu;
}

SimTime LogGOPS::start_compute(Rank r, SimTime duration, SimTime t) {
  ranks_[r].cpu = t + duration;
  return ranks_[r].cpu;
}

SimTime LogGOPS::reduce_time(std::uint64_t bytes) const {
  return round_ps(static_cast<double>(bytes) * p_.gamma_ps_per_byte);
}

SimTime LogGOPS::copy_time(std::uint64_t bytes) const {
  return round_ps(static_cast<double>(bytes) * p_.copy_ps_per_byte);
}

}  // namespace mpisim::net
