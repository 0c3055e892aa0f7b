#include "sim/cli/report.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "model/net/units.hpp"
#include "sim/json_writer.hpp"

namespace mpisim::cli {

using net::format_bytes;
using net::format_time;

std::string trace_json(const scenario::Scenario& sc, const net::Network& net, const runner::Result& r) {
  std::string out;
  sim::JsonWriter w(out, 2);
  w.begin_object();
  w.field("schema", kTraceSchema).field("mpisim", kVersion);
  w.key("scenario").begin_object();
  w.field("file", sc.file).field("name", sc.name).field("about", sc.about);
  w.field("ranks", r.ranks).field("payload", r.payload == mpi::PayloadMode::data ? "data" : "sizes");
  w.field("trace", r.trace.level() == sim::TraceLevel::full    ? "full"
                   : r.trace.level() == sim::TraceLevel::calls ? "calls"
                                                               : "summary");
  w.key("source").raw(sc.source_json);
  w.end_object();
  w.key("network").begin_object();
  w.field("name", net.name).field("source", net.source).field("about", net.about).field("model", r.network_kind);
  w.key("parameters").begin_object();
  for (const auto& [k, v] : r.network_parameters) w.field(k, v);
  w.end_object();
  w.end_object();
  if (!r.links.empty()) {
    // What each link carried: ids as in the messages' routes.
    w.key("links").begin_array();
    for (const auto& l : r.links) {
      w.begin_object();
      w.field("id", l.id).field("name", l.name).field("messages", l.messages).field("bytes", l.bytes);
      w.field("busy_ps", l.busy.ps);
      w.end_object();
    }
    w.end_array();
  }
  w.key("algorithms").begin_object();
  // One algorithm as its name; several (auto chose by size, or steps named others) as a list.
  for (const auto& [k, v] : r.algorithms_used) {
    if (v.size() == 1) {
      w.field(k, v.front());
      continue;
    }
    w.key(k).begin_array();
    for (const auto& a : v) w.value(a);
    w.end_array();
  }
  w.end_object();
  r.trace.write_records(w);
  if (!r.datatypes.empty()) {
    // The committed datatypes, drawn by the viewer.
    w.key("datatypes").begin_array();
    for (const auto& d : r.datatypes) {
      std::string item = d.json;
      item.pop_back();  // the closing brace: the ranks go inside
      item += ",\"ranks\":[";
      for (std::size_t i = 0; i < d.ranks.size(); ++i) item += (i ? "," : "") + std::to_string(d.ranks[i]);
      item += "]}";
      w.raw(item);
    }
    w.end_array();
  }
  w.key("summary").begin_object();
  w.field("outcome", r.outcome == runner::Outcome::clean       ? "clean"
                     : r.outcome == runner::Outcome::erroneous ? "erroneous"
                                                                 : "internal_error");
  w.field("makespan_ps", r.makespan_ps).field("events", r.events);
  w.field("messages", r.trace.message_count()).field("bytes", r.trace.byte_count());
  w.key("finish_ps").begin_array();
  for (const auto& f : r.finish_ps) f ? w.value(*f) : w.null();
  w.end_array();
  w.key("calls").begin_object();
  for (const auto& [name, st] : r.trace.call_stats()) {
    w.key(name).begin_object();
    w.field("count", st.count).field("total_ps", st.total_ps).field("max_ps", st.max_ps);
    w.end_object();
  }
  w.end_object();
  // The makespan per collective: each call from its first member's entry to its last member's exit.
  w.key("collectives").begin_object();
  for (const auto& [name, c] : r.collectives) {
    w.key(name).begin_object();
    w.field("calls", c.calls).field("time_ps", c.time_ps);
    w.end_object();
  }
  w.end_object();
  if (r.trace.level() != sim::TraceLevel::summary) {
    w.key("traffic").begin_array();
    for (const auto& t : r.trace.traffic()) {
      w.begin_object();
      w.field("sent_messages", t.sent_messages).field("sent_bytes", t.sent_bytes);
      w.field("received_messages", t.received_messages).field("received_bytes", t.received_bytes);
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  w.end_object();
  return out;
}

extern const char* const kViewerHtml;

std::string html_page(const std::string& trace_json) {
  std::string page = kViewerHtml;
  const std::string placeholder = "/*MPISIM_TRACE*/";
  // "</" inside a script element would end it; "<\/" is the same JSON string.
  std::string embedded;
  embedded.reserve(trace_json.size());
  for (std::size_t i = 0; i < trace_json.size(); ++i) {
    if (trace_json[i] == '<' && i + 1 < trace_json.size() && trace_json[i + 1] == '/') {
      embedded += "<\\/";
      ++i;
    } else {
      embedded += trace_json[i];
    }
  }
  auto at = page.find(placeholder);
  if (at != std::string::npos) page.replace(at, placeholder.size(), embedded);
  return page;
}

std::string chrome_trace_json(const scenario::Scenario& sc, const runner::Result& r) {
  std::string out;
  sim::JsonWriter w(out, 2);
  auto us = [](std::int64_t ps) { return static_cast<double>(ps) / 1e6; };
  w.begin_object();
  w.field("displayTimeUnit", "ns");
  w.key("traceEvents").begin_array();
  w.begin_object();
  w.field("name", "process_name").field("ph", "M").field("pid", 0);
  w.key("args").begin_object().field("name", "mpisim: " + (sc.name.empty() ? sc.file : sc.name)).end_object();
  w.end_object();
  for (std::int64_t rank = 0; rank < r.ranks && rank < 4096; ++rank) {
    w.begin_object();
    w.field("name", "thread_name").field("ph", "M").field("pid", 0).field("tid", rank);
    w.key("args").begin_object().field("name", "rank " + std::to_string(rank)).end_object();
    w.end_object();
  }
  for (const auto& c : r.trace.calls()) {
    w.begin_object();
    w.field("name", c.name).field("cat", "call").field("ph", "X").field("pid", 0).field("tid", c.process);
    w.field("ts", us(c.start.ps)).field("dur", us((c.end - c.start).ps));
    w.key("args").begin_object();
    if (!c.detail.empty()) w.field("algorithm", c.detail);
    if (c.step >= 0) w.field("step", c.step);
    w.end_object();
    w.end_object();
    if (c.completed_ps >= 0) {
      // The operation the call started, from the call to its completion: an async slice.
      const std::string name = c.name + " in flight";
      w.begin_object();
      w.field("name", name).field("cat", "operation").field("ph", "b").field("id", &c - r.trace.calls().data());
      w.field("pid", 0).field("tid", c.process).field("ts", us(c.start.ps));
      w.end_object();
      w.begin_object();
      w.field("name", name).field("cat", "operation").field("ph", "e").field("id", &c - r.trace.calls().data());
      w.field("pid", 0).field("tid", c.process).field("ts", us(c.completed_ps));
      w.end_object();
    }
  }
  const auto& channels = r.trace.channel_names();
  for (const auto& m : r.trace.messages()) {
    std::string name = "message " + std::to_string(m.bytes) + " B";
    w.begin_object();
    w.field("name", name).field("cat", "message").field("ph", "s").field("id", m.id).field("pid", 0);
    w.field("tid", m.src).field("ts", us(m.sent.ps));
    w.key("args").begin_object().field("bytes", m.bytes).field("tag", m.tag);
    w.field("communicator", m.channel < channels.size() ? channels[m.channel] : std::string("?")).end_object();
    w.end_object();
    w.begin_object();
    w.field("name", name).field("cat", "message").field("ph", "f").field("bp", "e").field("id", m.id).field("pid", 0);
    w.field("tid", m.dst).field("ts", us(m.arrived.ps));
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return out;
}

namespace {

// A snapshot's values, compactly: up to 12 shown, runs of consecutive integers folded.
std::string compact_values(const std::string& body) {
  auto j = nlohmann::json::parse(body);
  if (j.contains("name")) return j["name"].get<std::string>();  // a value that stands for an MPI constant
  if (j.contains("value")) return j["value"].dump();
  if (j.contains("handle")) return j["handle"].get<std::string>();
  if (j.contains("text")) return j["text"].dump();  // an MPI_CHAR buffer of printable text
  const char* key = j.contains("members") ? "members" : "values";
  if (!j.contains(key) || j[key].is_null()) return "(no data: --payload sizes)";
  if (j.contains("names")) {  // elements that stand for MPI constants print as their names
    auto& v = j[key];
    const auto& names = j["names"];
    for (std::size_t i = 0; i < v.size() && i < names.size(); ++i)
      if (names[i].is_string()) v[i] = names[i];
  }
  const auto& v = j[key];
  auto text = [](const nlohmann::json& x) { return x.is_string() ? x.get<std::string>() : x.dump(); };
  std::string s;
  std::size_t n = v.size();
  std::size_t total = j.contains("count") ? j["count"].get<std::size_t>() : n;
  std::size_t i = 0;
  int shown = 0;
  while (i < n && shown < 12) {
    // Fold a run of equal values ("v (k times)") or of consecutive integers (a..b).
    std::size_t same = i, step = i;
    while (same + 1 < n && v[same + 1] == v[i]) ++same;
    if (v[i].is_number_integer())
      while (step + 1 < n && v[step + 1].is_number_integer() &&
             v[step + 1].get<std::int64_t>() == v[step].get<std::int64_t>() + 1)
        ++step;
    if (!s.empty()) s += " ";
    if (same >= i + 3) {
      s += text(v[i]) + " (" + std::to_string(same - i + 1) + " times)";
      i = same + 1;
    } else if (step >= i + 3) {
      s += text(v[i]) + ".." + text(v[step]);
      i = step + 1;
    } else {
      s += text(v[i]);
      ++i;
    }
    ++shown;
  }
  if (i < total) s += " ... (" + std::to_string(total) + " elements)";
  if (j.contains("members")) s = "group {" + s + "}";
  if (j.contains("truncated")) s += " (snapshot truncated)";
  return s;
}

}  // namespace

std::string compact_snapshot(const std::string& body) { return compact_values(body); }

void print_summary(std::ostream& out, const scenario::Scenario& sc, const net::Network& net,
                   const runner::Result& r) {
  out << "mpisim " << kVersion << " | " << (sc.name.empty() ? sc.file : sc.name) << " (" << sc.file << ")\n";
  if (!sc.about.empty()) out << "  " << sc.about << "\n";
  out << "ranks " << r.ranks << ", payload " << (r.payload == mpi::PayloadMode::data ? "data" : "sizes")
      << ", network " << net.name << " (" << r.network_kind;
  for (const auto& [k, v] : r.network_parameters) out << " " << k << "=" << v;
  out << ")\n";
  if (!r.trace.call_stats().empty()) {
    out << "calls:\n";
    std::size_t width = 22;  // the counts in one column, after the longest name
    for (const auto& [name, st] : r.trace.call_stats()) width = std::max(width, name.size() + 1);
    for (const auto& [name, st] : r.trace.call_stats()) {
      out << "  " << name << std::string(width - name.size(), ' ') << "x" << st.count;
      auto alg = r.algorithms_used.find(name);
      if (alg != r.algorithms_used.end()) {
        out << (alg->second.size() == 1 ? "  algorithm " : "  algorithms ");
        for (std::size_t i = 0; i < alg->second.size(); ++i) out << (i ? ", " : "") << alg->second[i];
      }
      out << "  longest " << format_time(st.max_ps) << "\n";
    }
  }
  out << "messages " << r.trace.message_count() << ", " << format_bytes(r.trace.byte_count()) << "; events "
      << r.events << "\n";
  out << "makespan " << format_time(r.makespan_ps) << "\n";
  for (const auto& [name, c] : r.collectives) {
    out << "  " << name << std::string(name.size() < 26 ? 26 - name.size() : 1, ' ') << c.calls
        << (c.calls == 1 ? " call,  " : " calls, ") << format_time(c.time_ps);
    // The calls' spans add up to more than the makespan when calls overlap (on
    // different communicators, or nonblocking ones in flight together).
    if (c.time_ps > r.makespan_ps) out << " (calls overlap: their spans add up to more than the makespan)";
    else if (r.makespan_ps > 0)
      out << " (" << static_cast<std::int64_t>((__int128{100} * c.time_ps + r.makespan_ps / 2) / r.makespan_ps)
          << "% of the makespan)";
    out << "\n";
  }
  if (!r.finish_ps.empty()) {
    // A rank the run stopped before it ended has no finish time.
    const auto unfinished = std::count(r.finish_ps.begin(), r.finish_ps.end(), std::nullopt);
    if (r.finish_ps.size() <= 16) {
      out << "finish:";
      for (std::size_t i = 0; i < r.finish_ps.size(); ++i)
        out << " [" << i << "] " << (r.finish_ps[i] ? format_time(*r.finish_ps[i]) : "did not finish");
      out << "\n";
    } else if (unfinished == static_cast<std::ptrdiff_t>(r.finish_ps.size())) {
      out << "finish: no rank finished\n";
    } else {
      std::size_t lo = r.finish_ps.size(), hi = lo;
      for (std::size_t i = 0; i < r.finish_ps.size(); ++i) {
        if (!r.finish_ps[i]) continue;
        if (lo == r.finish_ps.size() || *r.finish_ps[i] < *r.finish_ps[lo]) lo = i;
        if (hi == r.finish_ps.size() || *r.finish_ps[i] > *r.finish_ps[hi]) hi = i;
      }
      out << "finish: earliest " << format_time(*r.finish_ps[lo]) << " (rank " << lo << "), latest "
          << format_time(*r.finish_ps[hi]) << " (rank " << hi << ")";
      if (unfinished) out << "; " << unfinished << (unfinished == 1 ? " rank" : " ranks") << " did not finish";
      out << "\n";
    }
  }
  const auto& snaps = r.trace.snapshots();
  // The shows, not the records kept for playing the run back.
  const auto shows = static_cast<std::size_t>(
      std::count_if(snaps.begin(), snaps.end(), [](const sim::Snapshot& s) { return !s.replay; }));
  if (shows > 0) {
    out << "show:\n";
    // In the program's order, not the order the ranks reached it: by step, then the
    // how-manieth time a rank shows that value there (a loop), then rank.
    std::vector<std::tuple<std::int32_t, std::int64_t, std::int64_t, std::size_t>> order;
    std::map<std::tuple<std::int64_t, std::int32_t, std::string>, std::int64_t> seen;
    for (std::size_t i = 0; i < snaps.size(); ++i) {
      const auto& s = snaps[i];
      if (s.replay) continue;
      order.emplace_back(s.step, seen[{s.process, s.step, s.name}]++, s.process, i);
    }
    std::sort(order.begin(), order.end());
    std::size_t limit = 64;
    for (std::size_t k = 0; k < order.size() && k < limit; ++k) {
      const auto& s = snaps[std::get<3>(order[k])];
      out << "  rank " << s.process << " " << s.name << " = " << compact_values(s.json) << "\n";
    }
    if (shows > limit) out << "  ... " << (shows - limit) << " more snapshots in the trace\n";
  }
  std::size_t errors = r.trace.diagnostics().size();
  out << (errors == 0 ? "no diagnostics" : std::to_string(errors) + " diagnostic" + (errors == 1 ? "" : "s")) << "\n";
}

void print_diagnostics(std::ostream& err, const runner::Result& r) {
  for (const auto& d : r.trace.diagnostics()) {
    err << (d.severity.empty() ? "error" : d.severity) << ": " << d.code;
    if (d.process >= 0) err << ": rank " << d.process;
    if (!d.call.empty()) err << ", " << d.call;
    if (!d.argument.empty()) err << ", argument " << d.argument;
    err << ": " << d.message;
    err << " [t=" << format_time(d.time.ps) << "]\n";
    for (const auto& line : d.detail) err << "  " << line << "\n";
    if (!d.rule.empty()) err << "  rule: " << d.rule << "\n";
  }
}

}  // namespace mpisim::cli
