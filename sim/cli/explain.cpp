// mpisim explain: each step's definition from the standard, in words, with this
// run's values, next to what happened (algorithm, time, the buffers it changed).
#include "sim/cli/explain.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "model/net/units.hpp"
#include "sim/cli/report.hpp"

namespace mpisim::cli {
namespace {

// The standard's definition of each call, with {parameter} for the values this run
// gave (as the first rank to run it saw them).
const std::map<std::string, std::string>& definitions() {
  static const std::map<std::string, std::string> d = {
      {"MPI_Comm_rank", "MPI-4.1 §7.4.1: the calling process's rank in the group of {comm}."},
      {"MPI_Comm_size", "MPI-4.1 §7.4.1: the number of processes in the group of {comm}."},
      {"MPI_Wtime", "MPI-4.1 §9.6: the time; here the virtual time, in picoseconds."},
      {"MPI_Send", "MPI-4.1 §3.2: send {count} elements of {datatype} from {buf} to rank {dest} of {comm} with tag "
                   "{tag}; returns when {buf} may be reused (eager: at once; rendezvous: when the receive matches)."},
      {"MPI_Recv", "MPI-4.1 §3.2.4: receive at most {count} elements of {datatype} into {buf} from rank {source} "
                   "with tag {tag} on {comm}; a longer message is an error (MPI_ERR_TRUNCATE)."},
      {"MPI_Isend", "MPI-4.1 §3.7.2: start a send of {count} {datatype} from {buf} to {dest} (tag {tag}); "
                    "{buf} must not change until {request} completes."},
      {"MPI_Irecv", "MPI-4.1 §3.7.2: start a receive of at most {count} {datatype} into {buf} from {source} (tag {tag})."},
      {"MPI_Wait", "MPI-4.1 §3.7.3: wait until {request} completes, then free it."},
      {"MPI_Waitall", "MPI-4.1 §3.7.5: wait until every request of {array_of_requests} completes."},
      {"MPI_Waitany", "MPI-4.1 §3.7.5: wait until one request of {array_of_requests} completes; its index is {index}."},
      {"MPI_Test", "MPI-4.1 §3.7.3: {flag} = whether {request} has completed (then it is freed)."},
      {"MPI_Sendrecv", "MPI-4.1 §3.10: send {sendcount} {sendtype} from {sendbuf} to {dest} and receive at most "
                       "{recvcount} {recvtype} into {recvbuf} from {source}, at once: it cannot deadlock by itself."},
      {"MPI_Sendrecv_replace", "MPI-4.1 §3.10: send {buf} to {dest} and replace its content by the message from {source}."},
      {"MPI_Probe", "MPI-4.1 §3.8.1: wait until a message from {source} with tag {tag} can be received; its "
                    "envelope is in {status}."},
      {"MPI_Iprobe", "MPI-4.1 §3.8.1: {flag} = whether a message from {source} with tag {tag} can be received now."},
      {"MPI_Get_count", "MPI-4.1 §3.2.5: the number of {datatype} elements the receive of {status} got."},
      {"MPI_Barrier", "MPI-4.1 §6.3: no process of {comm} leaves until every process has entered."},
      {"MPI_Scatter",
       "MPI-4.1 §6.6: as if the root (rank {root}) executed n sends MPI_Send({sendbuf} + i·{sendcount}·extent({sendtype}), "
       "{sendcount}, {sendtype}, i, ...), one per process i, and every process one receive MPI_Recv({recvbuf}, "
       "{recvcount}, {recvtype}, {root}, ...). No location of the root's buffer is read twice."},
      {"MPI_Scatterv",
       "MPI-4.1 §6.6: as if the root (rank {root}) executed n sends MPI_Send({sendbuf} + displs[i]·extent({sendtype}), "
       "sendcounts[i], {sendtype}, i, ...) with sendcounts = {sendcounts} and displs = {displs}, and every process one "
       "receive MPI_Recv({recvbuf}, {recvcount}, {recvtype}, {root}, ...)."},
      {"MPI_Comm_group", "MPI-4.1 §7.3.2: the group of {comm}."},
      {"MPI_Group_size", "MPI-4.1 §7.3.1: the number of processes in {group}."},
      {"MPI_Group_rank", "MPI-4.1 §7.3.1: the caller's rank in {group}, or MPI_UNDEFINED."},
      {"MPI_Group_translate_ranks", "MPI-4.1 §7.3.1: the ranks in {group2} of the processes with ranks {ranks1} in {group1}."},
      {"MPI_Group_compare", "MPI-4.1 §7.3.1: MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL."},
      {"MPI_Group_union", "MPI-4.1 §7.3.2: the members of {group1}, then those of {group2} not in {group1}, in {group2}'s order."},
      {"MPI_Group_intersection", "MPI-4.1 §7.3.2: the members of {group1} that are in {group2}, in {group1}'s order."},
      {"MPI_Group_difference", "MPI-4.1 §7.3.2: the members of {group1} that are not in {group2}, in {group1}'s order."},
      {"MPI_Group_incl", "MPI-4.1 §7.3.2: the processes of {group} with ranks {ranks}, in that order."},
      {"MPI_Group_excl", "MPI-4.1 §7.3.2: {group} without ranks {ranks}, in {group}'s order."},
      {"MPI_Group_range_incl", "MPI-4.1 §7.3.2: the processes of {group} at the ranks the triplets {ranges} compute, in that order."},
      {"MPI_Group_range_excl", "MPI-4.1 §7.3.2: {group} without the ranks the triplets {ranges} compute."},
      {"MPI_Group_free", "MPI-4.1 §7.3.3: {group} becomes MPI_GROUP_NULL."},
      {"MPI_Comm_dup", "MPI-4.1 §7.4.2: a communicator with the group of {comm} and a new context (collective)."},
      {"MPI_Comm_split", "MPI-4.1 §7.4.2: one communicator per color ({color} here), ranked by key ({key} here), ties by old rank."},
      {"MPI_Comm_create", "MPI-4.1 §7.4.2: a communicator for {group}; processes outside it get MPI_COMM_NULL."},
      {"MPI_Comm_create_group", "MPI-4.1 §7.4.2: a communicator for {group}, made by its members only (tag {tag})."},
      {"MPI_Intercomm_create", "MPI-4.1 §7.6.2: an intercommunicator between the group of {local_comm} and the group "
                               "led by rank {remote_leader} of {peer_comm} (tag {tag})."},
      {"MPI_Intercomm_merge", "MPI-4.1 §7.6.2: an intracommunicator of both groups; the one that passed high = 0 first."},
      {"MPI_Type_contiguous", "MPI-4.1 §5.1.2: {count} copies of {oldtype}, each one extent after the previous."},
      {"MPI_Type_vector", "MPI-4.1 §5.1.2: {count} blocks of {blocklength} {oldtype}, block starts {stride} extents apart."},
      {"MPI_Type_create_hvector", "MPI-4.1 §5.1.2: {count} blocks of {blocklength} {oldtype}, block starts {stride} bytes apart."},
      {"MPI_Type_indexed", "MPI-4.1 §5.1.2: blocks of {array_of_blocklengths} {oldtype} at {array_of_displacements} extents."},
      {"MPI_Type_create_struct", "MPI-4.1 §5.1.2: blocks of {array_of_blocklengths} elements of {array_of_types} at "
                                 "{array_of_displacements} bytes; the extent is padded to the strictest alignment."},
      {"MPI_Type_commit", "MPI-4.1 §5.1.9: {datatype} may now be used in communication."},
      {"MPI_Pack", "MPI-4.1 §5.2.1: append {incount} {datatype} from {inbuf} to {outbuf} at {position}, which advances."},
      {"MPI_Unpack", "MPI-4.1 §5.2.1: take {outcount} {datatype} from {inbuf} at {position} into {outbuf}."},
      {"MPI_Reduce_local", "MPI-4.1 §6.9.7: {inoutbuf}[i] = {inbuf}[i] {op} {inoutbuf}[i] for {count} elements of {datatype}."},
  };
  return d;
}

std::string fill(std::string text, const nlohmann::json& args) {
  for (auto it = args.begin(); it != args.end(); ++it) {
    std::string key = "{" + it.key() + "}";
    std::string value = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  }
  return text;
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

}  // namespace

void print_explanation(std::ostream& out, const scenario::Scenario& sc, const net::Network& net,
                       const scenario::RunResult& r) {
  out << "mpisim explain | " << (sc.name.empty() ? sc.file : sc.name) << " (" << sc.file << "), " << r.ranks
      << " ranks, network " << net.name << "\n";
  // Steps in the order they first ran.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const scenario::ExplainEntry*>> by_path;
  for (const auto& e : r.explain) {
    auto& v = by_path[e.path];
    if (v.empty()) order.push_back(e.path);
    v.push_back(&e);
  }
  for (const auto& path : order) {
    const auto& entries = by_path[path];
    const scenario::ExplainEntry& first = *entries.front();
    nlohmann::json args = nlohmann::json::parse(first.args_json.empty() ? "{}" : first.args_json);
    out << "\n" << path << "  " << signature(first.call, args) << "\n";
    auto def = definitions().find(first.call);
    if (def != definitions().end()) out << "  " << fill(def->second, args) << "\n";
    std::int64_t end = 0;
    for (const auto* e : entries) end = std::max(end, e->end_ps);
    out << "  ran at " << entries.size() << " rank" << (entries.size() == 1 ? "" : "s");
    if (!first.algorithm.empty()) out << ", algorithm " << first.algorithm;
    out << ", done by " << net::format_time(end) << "\n";
    std::size_t shown = 0;
    for (const auto* e : entries) {
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
