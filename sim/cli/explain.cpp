// mpisim explain: each step's definition from the standard, in words, with this
// run's values, next to what happened (algorithm, time, the buffers it changed).
#include "sim/cli/explain.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "model/calls/table.hpp"
#include "model/net/units.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/cli/report.hpp"

namespace mpisim::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string text_of(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The definition with each {parameter} replaced by its value, or by the bare
// parameter name where the run gives no one value (it differs among the ranks,
// or is not significant at the ranks that ran the step).
std::string fill(const std::string& text, const Json& args) {
  // One pass over the definition: each {name} becomes its value, or the name when
  // the run gives none; braces inside the values ({2, 2}) are kept.
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto close = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += text[i++];
      continue;
    }
    const std::string name = text.substr(i + 1, close - i - 1);
    out += args.contains(name) ? text_of(args[name]) : name;
    i = close + 1;
  }
  return out;
}

// Ranks as runs: "0..3, 5, 7..9".
std::string rank_list(const std::vector<std::int64_t>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    s += (s.empty() ? "" : ", ") + std::to_string(ranks[i]) + (j > i ? ".." + std::to_string(ranks[j]) : "");
    i = j + 1;
  }
  return s;
}

// The call with its arguments in the standard's order (the trace keeps them so).
std::string signature(const std::string& call, const Json& args) {
  std::string s = call + "(";
  bool first = true;
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (it.key() == "path") continue;
    s += (first ? "" : ", ") + it.key() + "=" + text_of(it.value());
    first = false;
  }
  return s + ")";
}

// The notes of the steps, by the steps' JSON pointers.
void collect_notes(const scenario::Program& program, std::map<std::string, std::string>& notes) {
  for (const scenario::Step& s : program) {
    if (!s.note.empty()) notes[s.path] = s.note;
    if (s.body) collect_notes(*s.body, notes);
  }
}

}  // namespace

void print_explanation(std::ostream& out, const scenario::Scenario& sc, const net::Network& net,
                       const runner::Result& r) {
  out << "mpisim explain | " << (sc.name.empty() ? sc.file : sc.name) << " (" << sc.file << "), " << r.ranks
      << " ranks, network " << net.name << "\n";
  if (!sc.note.empty()) out << "note: " << sc.note << "\n";
  std::map<std::string, std::string> notes;
  collect_notes(sc.program, notes);
  for (const auto& [rank, program] : sc.per_rank) collect_notes(program, notes);
  // Steps in the order they first ran.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const runner::ExplainEntry*>> by_path;
  for (const auto& e : r.explain) {
    auto& v = by_path[e.path];
    if (v.empty()) order.push_back(e.path);
    v.push_back(&e);
  }
  for (const auto& path : order) {
    const auto& entries = by_path[path];
    const runner::ExplainEntry& first = *entries.front();
    // The ranks that called with the same (significant) arguments in the same
    // role, together, in rank order: a v-variant's counts, a root and the others.
    std::vector<const runner::ExplainEntry*> ranked(entries.begin(), entries.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](auto* a, auto* b) { return a->rank < b->rank; });
    struct Group {
      std::string role;
      Json args;
      std::vector<std::int64_t> ranks;
    };
    std::vector<Group> groups;
    for (const auto* e : ranked) {
      Json args = Json::parse(e->args_json.empty() ? "{}" : e->args_json);
      args.erase("path");
      auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.role == e->role && x.args == args; });
      if (g == groups.end()) groups.push_back({e->role, std::move(args), {e->rank}});
      else g->ranks.push_back(e->rank);
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.role == "root" && b.role != "root"; });
    auto who = [](const Group& g) {
      return std::string(g.ranks.size() == 1 ? "rank " : "ranks ") + rank_list(g.ranks) +
             (g.role == "root" ? " (the root)" : g.role == "non-root" ? " (not the root)" : "");
    };
    if (groups.size() == 1) {
      out << "\n" << path << "  " << signature(first.call, groups.front().args) << "\n";
      if (!groups.front().role.empty()) out << "  at " << who(groups.front()) << "\n";
    } else {
      out << "\n" << path << "  " << first.call << ", called with different arguments:\n";
      for (std::size_t i = 0; i < groups.size() && i < 16; ++i)
        out << "  " << who(groups[i]) << ": " << signature(first.call, groups[i].args) << "\n";
      if (groups.size() > 16) out << "  ... (" << groups.size() - 16 << " more)\n";
    }
    if (auto n = notes.find(path); n != notes.end()) out << "  note: " << n->second << "\n";
    // The standard's definition, from the call's row, with this run's values: each
    // argument the ranks agree on, and what the output parameters got (at the first
    // rank to run it); the others by name.
    Json args;
    for (const Group& g : groups)
      for (auto it = g.args.begin(); it != g.args.end(); ++it) {
        bool same = true;
        for (const Group& h : groups) same = same && (!h.args.contains(it.key()) || h.args[it.key()] == it.value());
        if (same) args[it.key()] = it.value();
      }
    for (const auto& [param, value] : first.results) args[param] = value;
    if (const scenario::CallSpec* spec = scenario::find_call(first.call)) {
      out << "  " << spec->section << ": " << fill(spec->definition, args) << "\n";
      const bool in_place = std::any_of(entries.begin(), entries.end(), [](auto* e) { return e->in_place; });
      if (const char* rule = calls::in_place_definition(spec->id); rule && in_place) out << "  " << rule << "\n";
    }
    if (!first.results.empty()) {
      // What each rank got, the ranks that got the same thing together, in rank order.
      std::map<std::string, std::vector<std::int64_t>> got;
      std::vector<std::string> order;
      std::vector<const runner::ExplainEntry*> by_rank(entries.begin(), entries.end());
      std::stable_sort(by_rank.begin(), by_rank.end(), [](auto* a, auto* b) { return a->rank < b->rank; });
      for (const auto* e : by_rank) {
        std::string text;
        for (std::size_t i = 0; i < e->results.size(); ++i) text += (i ? "; " : "") + e->results[i].second;
        auto& ranks = got[text];
        if (ranks.empty()) order.push_back(text);
        ranks.push_back(e->rank);
      }
      std::size_t lines = 0;
      for (const auto& text : order) {
        if (++lines > 16) {
          out << "  ... (" << order.size() - 16 << " more results)\n";
          break;
        }
        const auto& ranks = got[text];
        out << "  " << (ranks.size() == 1 ? "rank " : "ranks ") << rank_list(ranks) << " got " << text << "\n";
      }
    }
    std::int64_t end = 0;
    for (const auto* e : entries) end = std::max(end, e->end_ps);
    out << "  ran at " << entries.size() << " rank" << (entries.size() == 1 ? "" : "s");
    if (!first.algorithm.empty()) out << ", algorithm " << first.algorithm;
    out << ", done by " << net::format_time(end) << "\n";
    std::size_t shown = 0;
    std::vector<const runner::ExplainEntry*> in_rank_order(entries.begin(), entries.end());
    std::stable_sort(in_rank_order.begin(), in_rank_order.end(), [](auto* a, auto* b) { return a->rank < b->rank; });
    for (const auto* e : in_rank_order) {
      for (const auto& c : e->changes) {
        if (++shown > 32) break;
        if (c.before == c.after)
          out << "  rank " << e->rank << "  " << c.buffer << ": " << compact_snapshot(c.after)
              << "  (written with the values it held)\n";
        else
          out << "  rank " << e->rank << "  " << c.buffer << ": " << compact_snapshot(c.before) << "  ->  "
              << compact_snapshot(c.after) << "\n";
      }
    }
    if (shown > 32) out << "  ... (" << shown - 32 << " more changes)\n";
    if (shown == 0) out << "  no buffer changed\n";
  }
  for (const auto& d : r.trace.diagnostics()) out << "\n" << d.code << ": " << d.message << "\n";
}

}  // namespace mpisim::cli
