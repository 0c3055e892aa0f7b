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
      {CallId::comm_rank, "MPI_Comm_rank", {{"comm", K::comm, req}, {"rank", K::out_int, req}},
       "the calling process's rank in comm"},
      {CallId::comm_size, "MPI_Comm_size", {{"comm", K::comm, req}, {"size", K::out_int, req}},
       "the number of processes in comm"},
      {CallId::wtime, "MPI_Wtime", {{"result", K::out_int, req}}, "the virtual time, in picoseconds"},
      {CallId::send, "MPI_Send",
       {{"buf", K::buffer, req}, {"count", K::integer, req}, {"datatype", K::datatype, req},
        {"dest", K::integer, req}, {"tag", K::integer, req}, {"comm", K::comm, req}},
       "blocking send"},
      {CallId::recv, "MPI_Recv",
       {{"buf", K::buffer, req}, {"count", K::integer, req}, {"datatype", K::datatype, req},
        {"source", K::integer, req}, {"tag", K::integer, req}, {"comm", K::comm, req},
        {"status", K::status_out, opt}},
       "blocking receive"},
      {CallId::isend, "MPI_Isend",
       {{"buf", K::buffer, req}, {"count", K::integer, req}, {"datatype", K::datatype, req},
        {"dest", K::integer, req}, {"tag", K::integer, req}, {"comm", K::comm, req},
        {"request", K::request_out, req}},
       "nonblocking send"},
      {CallId::irecv, "MPI_Irecv",
       {{"buf", K::buffer, req}, {"count", K::integer, req}, {"datatype", K::datatype, req},
        {"source", K::integer, req}, {"tag", K::integer, req}, {"comm", K::comm, req},
        {"request", K::request_out, req}},
       "nonblocking receive"},
      {CallId::wait, "MPI_Wait", {{"request", K::request_in, req}, {"status", K::status_out, opt}},
       "wait for one request"},
      {CallId::waitall, "MPI_Waitall",
       {{"count", K::integer, opt}, {"array_of_requests", K::request_array, req},
        {"array_of_statuses", K::statuses_out, opt}},
       "wait for all requests"},
      {CallId::waitany, "MPI_Waitany",
       {{"count", K::integer, opt}, {"array_of_requests", K::request_array, req}, {"index", K::out_int, req},
        {"status", K::status_out, opt}},
       "wait for any one request"},
      {CallId::test, "MPI_Test",
       {{"request", K::request_in, req}, {"flag", K::out_int, req}, {"status", K::status_out, opt}},
       "test a request for completion"},
      {CallId::sendrecv, "MPI_Sendrecv",
       {{"sendbuf", K::buffer, req}, {"sendcount", K::integer, req}, {"sendtype", K::datatype, req},
        {"dest", K::integer, req}, {"sendtag", K::integer, req}, {"recvbuf", K::buffer, req},
        {"recvcount", K::integer, req}, {"recvtype", K::datatype, req}, {"source", K::integer, req},
        {"recvtag", K::integer, req}, {"comm", K::comm, req}, {"status", K::status_out, opt}},
       "send and receive at once"},
      {CallId::sendrecv_replace, "MPI_Sendrecv_replace",
       {{"buf", K::buffer, req}, {"count", K::integer, req}, {"datatype", K::datatype, req},
        {"dest", K::integer, req}, {"sendtag", K::integer, req}, {"source", K::integer, req},
        {"recvtag", K::integer, req}, {"comm", K::comm, req}, {"status", K::status_out, opt}},
       "send a buffer and replace it with the received data"},
      {CallId::probe, "MPI_Probe",
       {{"source", K::integer, req}, {"tag", K::integer, req}, {"comm", K::comm, req},
        {"status", K::status_out, opt}},
       "block until a matching message can be received"},
      {CallId::iprobe, "MPI_Iprobe",
       {{"source", K::integer, req}, {"tag", K::integer, req}, {"comm", K::comm, req},
        {"flag", K::out_int, req}, {"status", K::status_out, opt}},
       "check whether a matching message can be received"},
      {CallId::get_count, "MPI_Get_count",
       {{"status", K::status_in, req}, {"datatype", K::datatype, req}, {"count", K::out_int, req}},
       "the number of datatype elements a receive got"},
      {CallId::barrier, "MPI_Barrier", {{"comm", K::comm, req}}, "block until every process has entered"},
      {CallId::scatter, "MPI_Scatter",
       {{"sendbuf", K::buffer, opt}, {"sendcount", K::integer, opt}, {"sendtype", K::datatype, opt},
        {"recvbuf", K::buffer, req}, {"recvcount", K::integer, req}, {"recvtype", K::datatype, req},
        {"root", K::integer, req}, {"comm", K::comm, req}},
       "the root sends block i of sendbuf to rank i"},
      {CallId::scatterv, "MPI_Scatterv",
       {{"sendbuf", K::buffer, opt}, {"sendcounts", K::int_array, opt}, {"displs", K::int_array, opt},
        {"sendtype", K::datatype, opt}, {"recvbuf", K::buffer, req}, {"recvcount", K::integer, req},
        {"recvtype", K::datatype, req}, {"root", K::integer, req}, {"comm", K::comm, req}},
       "the root sends sendcounts[i] elements from displs[i] to rank i"},
  };
  return specs;
}

const CallSpec* find_call(std::string_view name) {
  const auto& s = call_specs();
  auto it = std::find_if(s.begin(), s.end(), [&](const CallSpec& c) { return name == c.name; });
  return it == s.end() ? nullptr : &*it;
}

}  // namespace mpisim::scenario
