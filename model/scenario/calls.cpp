#include <algorithm>

#include "model/scenario/scenario.hpp"

namespace mpisim::scenario {

namespace {
using K = ParamKind;
constexpr bool req = true;
constexpr bool opt = false;
}  // namespace

// The MPI calls a scenario can make, with the standard's parameter names.
const std::vector<CallSpec>& call_specs() {
  static const std::vector<CallSpec> specs = {
      {CallId::comm_rank, "MPI_Comm_rank", {{P::comm, "comm", K::comm, req}, {P::rank, "rank", K::out_int, req}},
       "the calling process's rank in comm"},
      {CallId::comm_size, "MPI_Comm_size", {{P::comm, "comm", K::comm, req}, {P::size, "size", K::out_int, req}},
       "the number of processes in comm"},
      {CallId::wtime, "MPI_Wtime", {{P::result, "result", K::out_int, req}}, "the virtual time, in picoseconds"},
      {CallId::send, "MPI_Send",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "blocking send"},
      {CallId::recv, "MPI_Recv",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::status, "status", K::status_out, opt}},
       "blocking receive"},
      {CallId::isend, "MPI_Isend",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::request, "request", K::request_out, req}},
       "nonblocking send"},
      {CallId::irecv, "MPI_Irecv",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::request, "request", K::request_out, req}},
       "nonblocking receive"},
      {CallId::wait, "MPI_Wait", {{P::request, "request", K::request_in, req}, {P::status, "status", K::status_out, opt}},
       "wait for one request"},
      {CallId::waitall, "MPI_Waitall",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req},
        {P::array_of_statuses, "array_of_statuses", K::statuses_out, opt}},
       "wait for all requests"},
      {CallId::waitany, "MPI_Waitany",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req}, {P::index, "index", K::out_int, req},
        {P::status, "status", K::status_out, opt}},
       "wait for any one request"},
      {CallId::test, "MPI_Test",
       {{P::request, "request", K::request_in, req}, {P::flag, "flag", K::out_int, req}, {P::status, "status", K::status_out, opt}},
       "test a request for completion"},
      {CallId::sendrecv, "MPI_Sendrecv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, req}, {P::sendtype, "sendtype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::sendtag, "sendtag", K::integer, req}, {P::recvbuf, "recvbuf", K::buffer, req},
        {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req}, {P::source, "source", K::integer, req},
        {P::recvtag, "recvtag", K::integer, req}, {P::comm, "comm", K::comm, req}, {P::status, "status", K::status_out, opt}},
       "send and receive at once"},
      {CallId::sendrecv_replace, "MPI_Sendrecv_replace",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::sendtag, "sendtag", K::integer, req}, {P::source, "source", K::integer, req},
        {P::recvtag, "recvtag", K::integer, req}, {P::comm, "comm", K::comm, req}, {P::status, "status", K::status_out, opt}},
       "send a buffer and replace it with the received data"},
      {CallId::probe, "MPI_Probe",
       {{P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::status, "status", K::status_out, opt}},
       "block until a matching message can be received"},
      {CallId::iprobe, "MPI_Iprobe",
       {{P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::flag, "flag", K::out_int, req}, {P::status, "status", K::status_out, opt}},
       "check whether a matching message can be received"},
      {CallId::get_count, "MPI_Get_count",
       {{P::status, "status", K::status_in, req}, {P::datatype, "datatype", K::datatype, req}, {P::count, "count", K::out_int, req}},
       "the number of datatype elements a receive got"},
      {CallId::barrier, "MPI_Barrier", {{P::comm, "comm", K::comm, req}}, "block until every process has entered"},
      {CallId::scatter, "MPI_Scatter",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root sends block i of sendbuf to rank i"},
      {CallId::scatterv, "MPI_Scatterv",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::displs, "displs", K::int_array, opt},
        {P::sendtype, "sendtype", K::datatype, opt}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req},
        {P::recvtype, "recvtype", K::datatype, req}, {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root sends sendcounts[i] elements from displs[i] to rank i"},
      {CallId::comm_group, "MPI_Comm_group", {{P::comm, "comm", K::comm, req}, {P::group, "group", K::group_out, req}},
       "the group of comm"},
      {CallId::group_size, "MPI_Group_size", {{P::group, "group", K::group_in, req}, {P::size, "size", K::out_int, req}},
       "the number of processes in group"},
      {CallId::group_rank, "MPI_Group_rank", {{P::group, "group", K::group_in, req}, {P::rank, "rank", K::out_int, req}},
       "the calling process's rank in group, or MPI_UNDEFINED"},
      {CallId::group_translate_ranks, "MPI_Group_translate_ranks",
       {{P::group1, "group1", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranks1, "ranks1", K::int_array, req},
        {P::group2, "group2", K::group_in, req}, {P::ranks2, "ranks2", K::array_out, req}},
       "the ranks in group2 of processes given by their ranks in group1"},
      {CallId::group_compare, "MPI_Group_compare",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::result, "result", K::out_int, req}},
       "MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL"},
      {CallId::group_union, "MPI_Group_union",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group1's members, then group2's others"},
      {CallId::group_intersection, "MPI_Group_intersection",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group1's members that are in group2, in group1's order"},
      {CallId::group_difference, "MPI_Group_difference",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group1's members that are not in group2, in group1's order"},
      {CallId::group_incl, "MPI_Group_incl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranks, "ranks", K::int_array, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "the processes of group with the given ranks, in that order"},
      {CallId::group_excl, "MPI_Group_excl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranks, "ranks", K::int_array, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group without the given ranks, in group's order"},
      {CallId::group_range_incl, "MPI_Group_range_incl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranges, "ranges", K::ranges, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "the processes of group named by (first, last, stride) triplets, in that order"},
      {CallId::group_range_excl, "MPI_Group_range_excl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranges, "ranges", K::ranges, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group without the processes named by triplets, in group's order"},
      {CallId::group_free, "MPI_Group_free", {{P::group, "group", K::group_inout, req}},
       "frees the group; the handle becomes MPI_GROUP_NULL"},
  };
  return specs;
}

const char* param_name(P p) {
  static const char* const names[] = {
      "array_of_requests", "array_of_statuses", "buf", "comm", "count", "datatype", "dest", "displs",
      "flag", "index", "rank", "recvbuf", "recvcount", "recvtag", "recvtype", "request", "result", "root",
      "sendbuf", "sendcount", "sendcounts", "sendtag", "sendtype", "size", "source", "status", "tag",
      "group", "group1", "group2", "newgroup", "n", "ranks", "ranks1", "ranks2", "ranges"};
  static_assert(std::size(names) == static_cast<std::size_t>(P::count_));
  return names[static_cast<std::size_t>(p)];
}

const CallSpec* find_call(std::string_view name) {
  const auto& s = call_specs();
  auto it = std::find_if(s.begin(), s.end(), [&](const CallSpec& c) { return name == c.name; });
  return it == s.end() ? nullptr : &*it;
}

}  // namespace mpisim::scenario
