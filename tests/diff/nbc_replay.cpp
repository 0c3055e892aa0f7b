// Differential test of nonblocking and persistent collectives, mpisim's side:
// reads the programs nbc_oracle ran under a real MPI and the buffers it printed,
// writes each program as a scenario (the same buffers, the same calls in the same
// order, the same completion order, the same change of the send buffers between
// two starts of a persistent request), runs it in mpisim (data mode, verified)
// and compares every printed buffer. Prints "N passed, M failed".
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

using namespace mpisim;
using Values = std::vector<std::int64_t>;

namespace {

struct Op {
  std::string kind, op;
  int count = 0, root = 0;
  bool persistent = false;
};

struct Program {
  std::vector<Op> ops;
  std::vector<int> order;
  std::map<std::pair<int, int>, Values> results;  // (rank, op) -> the MPI's buffer
};

// The call of op k in the given form, with request "q<k>".
std::string call(const Op& o, int k, bool persistent) {
  const std::string K = std::to_string(k), c = std::to_string(o.count), root = std::to_string(o.root);
  const std::string s = "\"s" + K + "\"", r = "\"r" + K + "\"", comm = "\"comm\": \"MPI_COMM_WORLD\"";
  auto name = [&](const std::string& blocking) {
    if (persistent) return "MPI_" + blocking + "_init";
    std::string n = blocking;
    n[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(n[0])));
    return "MPI_I" + n;
  };
  std::string args;
  std::string blocking;
  if (o.kind == "bcast") blocking = "Bcast", args = "\"buffer\": " + s + ", \"count\": " + c + ", \"datatype\": \"MPI_INT\", \"root\": " + root;
  else if (o.kind == "allreduce" || o.kind == "scan" || o.kind == "exscan" || o.kind == "reduce") {
    blocking = o.kind == "allreduce" ? "Allreduce" : o.kind == "scan" ? "Scan" : o.kind == "exscan" ? "Exscan" : "Reduce";
    args = "\"sendbuf\": " + s + ", \"recvbuf\": " + r + ", \"count\": " + c + ", \"datatype\": \"MPI_INT\", \"op\": \"" + o.op + "\"";
    if (o.kind == "reduce") args += ", \"root\": " + root;
  } else if (o.kind == "reduce_scatter_block") {
    blocking = "Reduce_scatter_block";
    args = "\"sendbuf\": " + s + ", \"recvbuf\": " + r + ", \"recvcount\": " + c + ", \"datatype\": \"MPI_INT\", \"op\": \"" + o.op + "\"";
  } else if (o.kind == "barrier") {
    blocking = "Barrier";
  } else {
    blocking = o.kind == "gather" ? "Gather" : o.kind == "scatter" ? "Scatter" : o.kind == "allgather" ? "Allgather" : "Alltoall";
    args = "\"sendbuf\": " + s + ", \"sendcount\": " + c + ", \"sendtype\": \"MPI_INT\", \"recvbuf\": " + r +
           ", \"recvcount\": " + c + ", \"recvtype\": \"MPI_INT\"";
    if (o.kind == "gather" || o.kind == "scatter") args += ", \"root\": " + root;
  }
  std::string out = "{\"call\": \"" + name(blocking) + "\", " + (args.empty() ? "" : args + ", ") + comm;
  if (persistent) out += ", \"info\": \"MPI_INFO_NULL\"";
  return out + ", \"request\": \"q" + K + "\"}";
}

std::string as_scenario(const Program& p, int size) {
  std::string steps;
  auto add = [&](const std::string& s) { steps += (steps.empty() ? "" : ",\n") + s; };
  add("{\"buffer\": \"thousand\", \"type\": \"MPI_INT\", \"count\": " + std::to_string(4 * size) + ", \"init\": 1000}");
  for (std::size_t k = 0; k < p.ops.size(); ++k) {
    const std::string K = std::to_string(k), len = std::to_string(p.ops[k].count * size);
    add("{\"buffer\": \"s" + K + "\", \"type\": \"MPI_INT\", \"count\": " + len + ", \"init\": \"(rank + 1) * 100 + i + 7 * " + K + "\"}");
    add("{\"buffer\": \"r" + K + "\", \"type\": \"MPI_INT\", \"count\": " + len + ", \"init\": -1}");
  }
  bool any_persistent = false;
  for (std::size_t k = 0; k < p.ops.size(); ++k) {
    add(call(p.ops[k], static_cast<int>(k), p.ops[k].persistent));
    if (p.ops[k].persistent) add("{\"call\": \"MPI_Start\", \"request\": \"q" + std::to_string(k) + "\"}");
    any_persistent |= p.ops[k].persistent;
  }
  for (int k : p.order) add("{\"call\": \"MPI_Wait\", \"request\": \"q" + std::to_string(k) + "\"}");
  if (any_persistent) {
    for (std::size_t k = 0; k < p.ops.size(); ++k) {
      if (!p.ops[k].persistent) continue;
      const std::string K = std::to_string(k);
      add("{\"call\": \"MPI_Reduce_local\", \"inbuf\": \"thousand\", \"inoutbuf\": \"s" + K + "\", \"count\": " +
          std::to_string(p.ops[k].count * size) + ", \"datatype\": \"MPI_INT\", \"op\": \"MPI_SUM\"}");
      add("{\"call\": \"MPI_Start\", \"request\": \"q" + K + "\"}");
    }
    for (int k : p.order) add("{\"call\": \"MPI_Wait\", \"request\": \"q" + std::to_string(k) + "\"}");
    for (std::size_t k = 0; k < p.ops.size(); ++k)
      if (p.ops[k].persistent) add("{\"call\": \"MPI_Request_free\", \"request\": \"q" + std::to_string(k) + "\"}");
  }
  std::string shown;
  for (std::size_t k = 0; k < p.ops.size(); ++k)
    shown += std::string(k ? ", " : "") + "\"s" + std::to_string(k) + "\", \"r" + std::to_string(k) + "\"";
  add("{\"show\": [" + shown + "]}");
  return "{\"mpisim\": 1, \"ranks\": " + std::to_string(size) + ", \"program\": [\n" + steps + "\n]}";
}

}  // namespace

int main() {
  std::map<int, Program> programs;
  int size = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string what;
    in >> what;
    if (what == "program") {
      int id = 0, n = 0;
      in >> id >> n;
      programs[id];
    } else if (what == "op") {
      // op K KIND COUNT ROOT OP PERSISTENT (printed by rank 0, after its program line)
      Op o;
      int k = 0, persistent = 0;
      in >> k >> o.kind >> o.count >> o.root >> o.op >> persistent;
      o.persistent = persistent != 0;
      programs.rbegin()->second.ops.push_back(o);
    } else if (what == "order") {
      for (int k; in >> k;) programs.rbegin()->second.order.push_back(k);
    } else if (what == "result") {
      int id = 0, rank = 0, k = 0;
      in >> id >> rank >> k;
      Values v;
      for (std::int64_t x; in >> x;) v.push_back(x);
      programs[id].results[{rank, k}] = v;
      size = std::max(size, rank + 1);
    }
  }
  std::int64_t passed = 0, failed = 0;
  for (const auto& [id, p] : programs) {
    if (p.results.empty()) continue;
    const std::string text = as_scenario(p, size);
    runner::Result r;
    try {
      scenario::Scenario sc = scenario::parse_scenario(text, "program-" + std::to_string(id) + ".json");
      net::Network n = net::default_network();
      runner::Config cfg;
      cfg.ranks = size;
      cfg.verify = true;
      r = scenario::run_scenario(sc, n, cfg);
    } catch (const std::exception& e) {
      std::cout << "FAIL program " << id << ": " << e.what() << "\n";
      ++failed;
      continue;
    }
    if (r.outcome != runner::Outcome::clean) {
      std::cout << "FAIL program " << id << ": the mpisim run is not clean: "
                << (r.trace.diagnostics().empty() ? "" : r.trace.diagnostics().front().message) << "\n" << text << "\n";
      ++failed;
      continue;
    }
    std::map<std::pair<std::int64_t, std::string>, Values> got;
    for (const sim::Snapshot& s : r.trace.snapshots()) {
      nlohmann::json body = nlohmann::json::parse(s.json);
      if (body.contains("values")) got[{s.process, s.name}] = body["values"].get<Values>();
    }
    for (const auto& [key, want] : p.results) {
      const auto [rank, k] = key;
      const std::string buffer = (p.ops[static_cast<std::size_t>(k)].kind == "bcast" ? "s" : "r") + std::to_string(k);
      const Values& have = got[{rank, buffer}];
      bool same = have.size() >= want.size();
      for (std::size_t i = 0; same && i < want.size(); ++i) same = have[i] == want[i];
      if (same) {
        ++passed;
        continue;
      }
      ++failed;
      std::cout << "FAIL program " << id << " rank " << rank << " op " << k << " ("
                << p.ops[static_cast<std::size_t>(k)].kind << "): the buffers differ\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
