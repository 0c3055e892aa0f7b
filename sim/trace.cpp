#include "sim/trace.hpp"

#include <algorithm>

namespace mpisim::sim {

// Per-rank traffic is kept for the full and calls levels only: at a million ranks
// the summary level keeps counters, not per-rank tables.
void Trace::set_process_count(std::uint32_t n) {
  if (level_ != TraceLevel::summary) traffic_.assign(n, Traffic{});
}

std::uint32_t Trace::channel(const std::string& name) {
  const auto [it, added] = channel_index_.try_emplace(name, static_cast<std::uint32_t>(channel_names_.size()));
  if (added) channel_names_.push_back(name);
  return it->second;
}

std::int64_t Trace::record_call(CallRecord r) {
  auto it = call_stats_.find(r.name);
  if (it == call_stats_.end()) it = call_stats_.emplace(r.name, CallStats{}).first;
  std::int64_t d = (r.end - r.start).ps;
  it->second.count += 1;
  it->second.total_ps += d;
  it->second.max_ps = std::max(it->second.max_ps, d);
  if (level_ == TraceLevel::summary) return -1;
  calls_.push_back(std::move(r));
  return static_cast<std::int64_t>(calls_.size()) - 1;
}

void Trace::complete_call(std::int64_t index, SimTime t) {
  if (index < 0 || index >= static_cast<std::int64_t>(calls_.size())) return;
  CallRecord& c = calls_[static_cast<std::size_t>(index)];
  c.completed_ps = std::max(c.completed_ps, t.ps);
}

void Trace::count_call(const char* name, SimTime start, SimTime end) {
  CallStats* st = nullptr;
  if (!stats_by_pointer_.empty() && stats_by_pointer_.back().first == name) {
    st = stats_by_pointer_.back().second;  // most often the call counted last (a loop)
  } else {
    for (std::size_t i = 0; i < stats_by_pointer_.size(); ++i)
      if (stats_by_pointer_[i].first == name) {
        st = stats_by_pointer_[i].second;
        std::swap(stats_by_pointer_[i], stats_by_pointer_.back());  // found first next time
        break;
      }
  }
  if (st == nullptr) {
    auto it = call_stats_.find(std::string_view(name));
    if (it == call_stats_.end()) it = call_stats_.emplace(name, CallStats{}).first;
    st = &it->second;
    stats_by_pointer_.emplace_back(name, st);
  }
  std::int64_t d = (end - start).ps;
  st->count += 1;
  st->total_ps += d;
  st->max_ps = std::max(st->max_ps, d);
}

void Trace::record_message(const MessageRecord& m) {
  ++message_count_;
  byte_count_ += m.bytes;
  if (m.src < traffic_.size()) {
    traffic_[m.src].sent_messages += 1;
    traffic_[m.src].sent_bytes += m.bytes;
  }
  if (m.dst < traffic_.size()) {
    traffic_[m.dst].received_messages += 1;
    traffic_[m.dst].received_bytes += m.bytes;
  }
  if (level_ == TraceLevel::full) messages_.push_back(m);
}

void Trace::write_diagnostic(JsonWriter& w, const Diagnostic& d) {
  w.begin_object();
  w.field("severity", d.severity).field("code", d.code);
  if (d.process >= 0) w.field("rank", d.process);
  if (d.step >= 0) w.field("step", d.step);
  if (!d.call.empty()) w.field("call", d.call);
  if (!d.argument.empty()) w.field("argument", d.argument);
  w.field("message", d.message);
  if (!d.rule.empty()) w.field("rule", d.rule);
  w.field("time_ps", d.time.ps);
  if (!d.detail.empty()) {
    w.key("detail").begin_array();
    for (const auto& line : d.detail) w.value(line);
    w.end_array();
  }
  w.end_object();
}

void Trace::write_records(JsonWriter& w) const {
  w.key("channels").begin_array();
  for (const auto& c : channel_names_) w.value(c);
  w.end_array();

  w.key("calls").begin_array();
  for (const auto& c : calls_) {
    w.begin_object();
    w.field("rank", c.process);
    if (c.step >= 0) w.field("step", c.step);
    w.field("call", c.name).field("start_ps", c.start.ps).field("end_ps", c.end.ps);
    if (!c.detail.empty()) w.field("algorithm", c.detail);
    if (c.completed_ps >= 0) w.field("completed_ps", c.completed_ps);
    if (!c.args_json.empty()) w.key("args").raw(c.args_json);
    w.end_object();
  }
  w.end_array();

  w.key("messages").begin_array();
  for (const auto& m : messages_) {
    w.begin_object();
    w.field("id", m.id).field("src", m.src).field("dst", m.dst).field("channel", m.channel).field("tag", m.tag);
    w.field("bytes", m.bytes).field("send_ps", m.sent.ps).field("arrival_ps", m.arrived.ps);
    if (m.instance >= 0) w.field("collective", m.instance);
    if (!m.route.empty()) {
      w.key("route").begin_array();
      for (auto l : m.route) w.value(l);
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();

  w.key("snapshots").begin_array();
  for (const auto& s : snapshots_) {
    w.begin_object();
    w.field("rank", s.process).field("step", s.step).field("time_ps", s.time.ps).field("buffer", s.name);
    w.key("data").raw(s.json);
    w.end_object();
  }
  w.end_array();

  w.key("diagnostics").begin_array();
  for (const auto& d : diagnostics_) write_diagnostic(w, d);
  w.end_array();
}

}  // namespace mpisim::sim
