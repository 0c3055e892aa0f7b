// mpisim explain: each step's definition from the standard, in words, with this
// run's values, next to what happened (algorithm, time, the buffers it changed).
#include "sim/cli/explain.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "model/net/units.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/cli/report.hpp"

namespace mpisim::cli {
namespace {

std::string fill(std::string text, const nlohmann::json& args) {
  for (auto it = args.begin(); it != args.end(); ++it) {
    std::string key = "{" + it.key() + "}";
    std::string value = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  }
  return text;
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

std::string signature(const std::string& call, const nlohmann::json& args) {
  std::string s = call + "(";
  bool first = true;
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (it.key() == "path") continue;
    s += (first ? "" : ", ") + it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
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
    nlohmann::json args = nlohmann::json::parse(first.args_json.empty() ? "{}" : first.args_json);
    out << "\n" << path << "  " << signature(first.call, args) << "\n";
    if (auto n = notes.find(path); n != notes.end()) out << "  note: " << n->second << "\n";
    // The standard's definition, from the call's row, with this run's values: the
    // arguments, and what the output parameters got (at the first rank to run it).
    for (const auto& [param, value] : first.results) args[param] = value;
    if (const scenario::CallSpec* spec = scenario::find_call(first.call))
      out << "  " << spec->section << ": " << fill(spec->definition, args) << "\n";
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
