#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

#include "model/scenario/scenario.hpp"

namespace mpisim::scenario {

namespace {
using K = ParamKind;
constexpr bool req = true;
constexpr bool opt = false;
}  // namespace

namespace {
// Each nonblocking collective and its blocking form (MPI-4.1 §6.12): the same
// parameters and a request.
// Each blocking collective, its nonblocking form (MPI-4.1 §6.12: the same
// parameters and a request) and its persistent form (§6.13: the same, an info
// and a request).
struct CollectiveForms {
  CallId blocking, nonblocking, persistent;
};
constexpr CollectiveForms kForms[] = {
    {CallId::barrier, CallId::ibarrier, CallId::barrier_init},
    {CallId::bcast, CallId::ibcast, CallId::bcast_init},
    {CallId::gather, CallId::igather, CallId::gather_init},
    {CallId::gatherv, CallId::igatherv, CallId::gatherv_init},
    {CallId::scatter, CallId::iscatter, CallId::scatter_init},
    {CallId::scatterv, CallId::iscatterv, CallId::scatterv_init},
    {CallId::allgather, CallId::iallgather, CallId::allgather_init},
    {CallId::allgatherv, CallId::iallgatherv, CallId::allgatherv_init},
    {CallId::alltoall, CallId::ialltoall, CallId::alltoall_init},
    {CallId::alltoallv, CallId::ialltoallv, CallId::alltoallv_init},
    {CallId::alltoallw, CallId::ialltoallw, CallId::alltoallw_init},
    {CallId::reduce, CallId::ireduce, CallId::reduce_init},
    {CallId::allreduce, CallId::iallreduce, CallId::allreduce_init},
    {CallId::reduce_scatter_block, CallId::ireduce_scatter_block, CallId::reduce_scatter_block_init},
    {CallId::reduce_scatter, CallId::ireduce_scatter, CallId::reduce_scatter_init},
    {CallId::scan, CallId::iscan, CallId::scan_init},
    {CallId::exscan, CallId::iexscan, CallId::exscan_init},
};

// The rows of the blocking collectives, then one for each nonblocking form (named
// as the standard names it: MPI_Bcast, MPI_Ibcast) and one for each persistent
// form (MPI_Bcast_init).
std::vector<CallSpec> with_nonblocking(std::vector<CallSpec> rows) {
  static std::vector<std::unique_ptr<std::string>> texts;  // the new rows' names and summaries
  auto keep = [](std::string t) {
    texts.push_back(std::make_unique<std::string>(std::move(t)));
    return texts.back()->c_str();
  };
  const std::size_t n = rows.size();
  for (bool persistent : {false, true})
    for (const CollectiveForms& forms : kForms)
      for (std::size_t i = 0; i < n; ++i) {
        if (rows[i].id != forms.blocking) continue;
        CallSpec row = rows[i];
        const std::string name = row.name;
        const std::string definition = name + " (" + row.section + "): " + row.definition;
        if (persistent) {
          row.id = forms.persistent;
          row.name = keep(name + "_init");
          row.summary = keep("make a persistent request for " + name + ", started by MPI_Start: " + row.summary);
          row.section = "MPI-4.1 §6.13";
          row.definition = keep("make {request}, an inactive persistent request for " + name +
                                " with these arguments (checked now); each MPI_Start runs it anew, on the buffers' "
                                "contents then, until a wait or test completes it. " + definition);
          row.params.push_back({P::info, "info", K::integer, opt});
        } else {
          row.id = forms.nonblocking;
          row.name = keep("MPI_I" + std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(name[4])))) +
                          name.substr(5));
          row.summary = keep("start " + name + " and return at once: " + row.summary);
          row.section = "MPI-4.1 §6.12";
          row.definition = keep("start " + name + " and return {request} at once; the buffers are the operation's "
                                "until a wait or test completes it. " + definition);
        }
        row.params.push_back({P::request, "request", K::request_out, req});
        rows.push_back(std::move(row));
      }
  return rows;
}
}  // namespace

std::optional<CallId> blocking_form(CallId id, bool* persistent) {
  for (const CollectiveForms& forms : kForms)
    if (forms.nonblocking == id || forms.persistent == id) {
      if (persistent) *persistent = forms.persistent == id;
      return forms.blocking;
    }
  return std::nullopt;
}

// The MPI calls a scenario can make, with the standard's parameter names.
const std::vector<CallSpec>& call_specs() {
  static const std::vector<CallSpec> specs = with_nonblocking({
      {CallId::comm_rank, "MPI_Comm_rank", {{P::comm, "comm", K::comm, req}, {P::rank, "rank", K::out_int, req}},
       "the calling process's rank in comm",
       "MPI-4.1 §7.4.1",
       "the calling process's rank in the group of {comm}."},
      {CallId::comm_size, "MPI_Comm_size", {{P::comm, "comm", K::comm, req}, {P::size, "size", K::out_int, req}},
       "the number of processes in comm",
       "MPI-4.1 §7.4.1",
       "the number of processes in the group of {comm}."},
      {CallId::wtime, "MPI_Wtime", {{P::result, "result", K::out_int, req}}, "the virtual time, in picoseconds",
       "MPI-4.1 §9.6",
       "the time; here the virtual time, in picoseconds."},
      {CallId::send, "MPI_Send",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "blocking send",
       "MPI-4.1 §3.2",
       "send {count} elements of {datatype} from {buf} to rank {dest} of {comm} with tag {tag}; returns "
       "when {buf} may be reused (eager: at once; rendezvous: when the receive matches)."},
      {CallId::recv, "MPI_Recv",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::status, "status", K::status_out, opt}},
       "blocking receive",
       "MPI-4.1 §3.2.4",
       "receive at most {count} elements of {datatype} into {buf} from rank {source} with tag {tag} on "
       "{comm}; a longer message is an error (MPI_ERR_TRUNCATE)."},
      {CallId::isend, "MPI_Isend",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::request, "request", K::request_out, req}},
       "nonblocking send",
       "MPI-4.1 §3.7.2",
       "start a send of {count} {datatype} from {buf} to {dest} (tag {tag}); {buf} must not change until "
       "{request} completes."},
      {CallId::irecv, "MPI_Irecv",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::request, "request", K::request_out, req}},
       "nonblocking receive",
       "MPI-4.1 §3.7.2",
       "start a receive of at most {count} {datatype} into {buf} from {source} (tag {tag})."},
      {CallId::wait, "MPI_Wait", {{P::request, "request", K::request_in, req}, {P::status, "status", K::status_out, opt}},
       "wait for one request",
       "MPI-4.1 §3.7.3",
       "wait until {request} completes, then free it."},
      {CallId::waitall, "MPI_Waitall",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req},
        {P::array_of_statuses, "array_of_statuses", K::statuses_out, opt}},
       "wait for all requests",
       "MPI-4.1 §3.7.5",
       "wait until every request of {array_of_requests} completes."},
      {CallId::waitany, "MPI_Waitany",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req}, {P::index, "index", K::out_int, req},
        {P::status, "status", K::status_out, opt}},
       "wait for any one request",
       "MPI-4.1 §3.7.5",
       "wait until one request of {array_of_requests} completes; its index is {index}."},
      {CallId::test, "MPI_Test",
       {{P::request, "request", K::request_in, req}, {P::flag, "flag", K::out_int, req}, {P::status, "status", K::status_out, opt}},
       "test a request for completion",
       "MPI-4.1 §3.7.3",
       "{flag} = whether {request} has completed (then it is freed)."},
      {CallId::waitsome, "MPI_Waitsome",
       {{P::incount, "incount", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req},
        {P::outcount, "outcount", K::out_int, req}, {P::array_of_indices, "array_of_indices", K::array_out, req},
        {P::array_of_statuses, "array_of_statuses", K::statuses_out, opt}},
       "wait until at least one request completes; complete all that have",
       "MPI-4.1 §3.7.5",
       "wait until at least one request of {array_of_requests} completes, then complete every one "
       "complete by then; their number is {outcount}, their positions {array_of_indices}."},
      {CallId::testall, "MPI_Testall",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req},
        {P::flag, "flag", K::out_int, req}, {P::array_of_statuses, "array_of_statuses", K::statuses_out, opt}},
       "test whether every request has completed (then complete them all)",
       "MPI-4.1 §3.7.5",
       "{flag} = whether every request of {array_of_requests} has completed; only then are they all "
       "completed and freed."},
      {CallId::testany, "MPI_Testany",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req},
        {P::index, "index", K::out_int, req}, {P::flag, "flag", K::out_int, req},
        {P::status, "status", K::status_out, opt}},
       "test whether any one request has completed (then complete it)",
       "MPI-4.1 §3.7.5",
       "{flag} = whether one request of {array_of_requests} has completed; if so it is completed and "
       "{index} is its position."},
      {CallId::testsome, "MPI_Testsome",
       {{P::incount, "incount", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req},
        {P::outcount, "outcount", K::out_int, req}, {P::array_of_indices, "array_of_indices", K::array_out, req},
        {P::array_of_statuses, "array_of_statuses", K::statuses_out, opt}},
       "complete every request that has completed, without waiting",
       "MPI-4.1 §3.7.5",
       "complete, without waiting, every request of {array_of_requests} that has completed; their number "
       "is {outcount}, their positions {array_of_indices}."},
      {CallId::request_free, "MPI_Request_free", {{P::request, "request", K::request_in, req}},
       "free a request; an active one completes in the background",
       "MPI-4.1 §3.7.3",
       "{request} becomes MPI_REQUEST_NULL; an operation still running goes on and completes unseen."},
      {CallId::start, "MPI_Start", {{P::request, "request", K::request_in, req}},
       "start the operation of an inactive persistent request",
       "MPI-4.1 §3.9",
       "start the operation of the inactive persistent request {request}; it is active until a wait or "
       "test completes it."},
      {CallId::startall, "MPI_Startall",
       {{P::count, "count", K::integer, opt}, {P::array_of_requests, "array_of_requests", K::request_array, req}},
       "start the operations of inactive persistent requests, in order",
       "MPI-4.1 §3.9",
       "MPI_Start on each request of {array_of_requests}, in order."},
      {CallId::sendrecv, "MPI_Sendrecv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, req}, {P::sendtype, "sendtype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::sendtag, "sendtag", K::integer, req}, {P::recvbuf, "recvbuf", K::buffer, req},
        {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req}, {P::source, "source", K::integer, req},
        {P::recvtag, "recvtag", K::integer, req}, {P::comm, "comm", K::comm, req}, {P::status, "status", K::status_out, opt}},
       "send and receive at once",
       "MPI-4.1 §3.10",
       "send {sendcount} {sendtype} from {sendbuf} to {dest} and receive at most {recvcount} {recvtype} "
       "into {recvbuf} from {source}, at once: it cannot deadlock by itself."},
      {CallId::sendrecv_replace, "MPI_Sendrecv_replace",
       {{P::buf, "buf", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::dest, "dest", K::integer, req}, {P::sendtag, "sendtag", K::integer, req}, {P::source, "source", K::integer, req},
        {P::recvtag, "recvtag", K::integer, req}, {P::comm, "comm", K::comm, req}, {P::status, "status", K::status_out, opt}},
       "send a buffer and replace it with the received data",
       "MPI-4.1 §3.10",
       "send {buf} to {dest} and replace its content by the message from {source}."},
      {CallId::probe, "MPI_Probe",
       {{P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::status, "status", K::status_out, opt}},
       "block until a matching message can be received",
       "MPI-4.1 §3.8.1",
       "wait until a message from {source} with tag {tag} can be received; its envelope is in {status}."},
      {CallId::iprobe, "MPI_Iprobe",
       {{P::source, "source", K::integer, req}, {P::tag, "tag", K::integer, req}, {P::comm, "comm", K::comm, req},
        {P::flag, "flag", K::out_int, req}, {P::status, "status", K::status_out, opt}},
       "check whether a matching message can be received",
       "MPI-4.1 §3.8.1",
       "{flag} = whether a message from {source} with tag {tag} can be received now."},
      {CallId::get_count, "MPI_Get_count",
       {{P::status, "status", K::status_in, req}, {P::datatype, "datatype", K::datatype, req}, {P::count, "count", K::out_int, req}},
       "the number of datatype elements a receive got",
       "MPI-4.1 §3.2.5",
       "the number of {datatype} elements the receive of {status} got."},
      {CallId::barrier, "MPI_Barrier", {{P::comm, "comm", K::comm, req}}, "block until every process has entered",
       "MPI-4.1 §6.3",
       "no process of {comm} leaves until every process has entered."},
      {CallId::bcast, "MPI_Bcast",
       {{P::buffer, "buffer", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root's buffer is copied to every process",
       "MPI-4.1 §6.4",
       "the root (rank {root}) sends its {count} elements of {datatype} in {buffer} to every process of "
       "{comm}; afterwards every {buffer} holds the root's data."},
      {CallId::gather, "MPI_Gather",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcount, "recvcount", K::integer, opt}, {P::recvtype, "recvtype", K::datatype, opt},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf becomes block i of the root's recvbuf",
       "MPI-4.1 §6.5",
       "as if every process sent {sendcount} {sendtype} from {sendbuf} to the root (rank {root}), which "
       "receives the message of rank i at {recvbuf} + i·{recvcount}·extent({recvtype}), in rank order. "
       "No location of the root's buffer is written twice."},
      {CallId::gatherv, "MPI_Gatherv",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcounts, "recvcounts", K::int_array, opt}, {P::displs, "displs", K::int_array, opt},
        {P::recvtype, "recvtype", K::datatype, opt}, {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf lands at displs[i] of the root's recvbuf",
       "MPI-4.1 §6.5",
       "as MPI_Gather, but the root receives recvcounts[i] = {recvcounts} elements from rank i at "
       "{recvbuf} + displs[i]·extent({recvtype}) with displs = {displs}."},
      {CallId::scatter, "MPI_Scatter",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcount, "recvcount", K::integer, opt}, {P::recvtype, "recvtype", K::datatype, opt},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root sends block i of sendbuf to rank i",
       "MPI-4.1 §6.6",
       "as if the root (rank {root}) executed n sends MPI_Send({sendbuf} + "
       "i·{sendcount}·extent({sendtype}), {sendcount}, {sendtype}, i, ...), one per process i, and every "
       "process one receive MPI_Recv({recvbuf}, {recvcount}, {recvtype}, {root}, ...). No location of "
       "the root's buffer is read twice."},
      {CallId::scatterv, "MPI_Scatterv",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::displs, "displs", K::int_array, opt},
        {P::sendtype, "sendtype", K::datatype, opt}, {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcount, "recvcount", K::integer, opt},
        {P::recvtype, "recvtype", K::datatype, opt}, {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root sends sendcounts[i] elements from displs[i] to rank i",
       "MPI-4.1 §6.6",
       "as if the root (rank {root}) executed n sends MPI_Send({sendbuf} + displs[i]·extent({sendtype}), "
       "sendcounts[i], {sendtype}, i, ...) with sendcounts = {sendcounts} and displs = {displs}, and "
       "every process one receive MPI_Recv({recvbuf}, {recvcount}, {recvtype}, {root}, ...)."},
      {CallId::allgather, "MPI_Allgather",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf becomes block i of every recvbuf",
       "MPI-4.1 §6.7",
       "as MPI_Gather with every process as the root: block i of every {recvbuf} holds rank i's "
       "{sendcount} {sendtype} from {sendbuf}."},
      {CallId::allgatherv, "MPI_Allgatherv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req}, {P::displs, "displs", K::int_array, req},
        {P::recvtype, "recvtype", K::datatype, req}, {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf lands at displs[i] of every recvbuf",
       "MPI-4.1 §6.7",
       "as MPI_Gatherv with every process as the root: rank i's data lands at displs[i] = {displs} in "
       "every {recvbuf}, recvcounts[i] = {recvcounts} elements."},
      {CallId::alltoall, "MPI_Alltoall",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "block j of rank i's sendbuf becomes block i of rank j's recvbuf",
       "MPI-4.1 §6.8",
       "block j of rank i's {sendbuf} ({sendcount} {sendtype}) goes to block i of rank j's {recvbuf} "
       "({recvcount} {recvtype}): a transpose of blocks among the processes of {comm}."},
      {CallId::alltoallv, "MPI_Alltoallv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::sdispls, "sdispls", K::int_array, opt},
        {P::sendtype, "sendtype", K::datatype, opt}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::rdispls, "rdispls", K::int_array, req}, {P::recvtype, "recvtype", K::datatype, req}, {P::comm, "comm", K::comm, req}},
       "alltoall with per-process counts and displacements",
       "MPI-4.1 §6.8",
       "as MPI_Alltoall with a count and displacement per process: sendcounts = {sendcounts} at sdispls "
       "= {sdispls}, recvcounts = {recvcounts} at rdispls = {rdispls}, in elements of the types."},
      {CallId::alltoallw, "MPI_Alltoallw",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::sdispls, "sdispls", K::int_array, opt},
        {P::sendtypes, "sendtypes", K::type_array, opt}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::rdispls, "rdispls", K::int_array, req}, {P::recvtypes, "recvtypes", K::type_array, req}, {P::comm, "comm", K::comm, req}},
       "alltoall with per-process counts, byte displacements and datatypes",
       "MPI-4.1 §6.8",
       "as MPI_Alltoallv with a datatype per process ({sendtypes}, {recvtypes}) and displacements in "
       "bytes."},
      {CallId::reduce, "MPI_Reduce",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::recvbuf, "recvbuf", K::buffer, opt}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::root, "root", K::integer, req},
        {P::comm, "comm", K::comm, req}},
       "the root gets op applied to every process's sendbuf, in rank order",
       "MPI-4.1 §6.9.1",
       "the root (rank {root}) gets in {recvbuf}, element by element, the {count} elements of {datatype} "
       "of every process's {sendbuf} combined with {op}, in rank order (op(op(x0, x1), x2) ... for a "
       "non-commutative op)."},
      {CallId::allreduce, "MPI_Allreduce",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "every process gets op applied to every process's sendbuf, in rank order",
       "MPI-4.1 §6.9.6",
       "as MPI_Reduce followed by MPI_Bcast of the result: every {recvbuf} gets the {count} elements of "
       "{datatype} of all processes combined with {op}, in rank order."},
      {CallId::reduce_scatter_block, "MPI_Reduce_scatter_block",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "reduce p·recvcount elements, then rank i gets block i",
       "MPI-4.1 §6.10.1",
       "the processes' {sendbuf} vectors (size·{recvcount} elements of {datatype}) are combined with "
       "{op}, in rank order; rank i gets block i, {recvcount} elements, in {recvbuf}."},
      {CallId::reduce_scatter, "MPI_Reduce_scatter",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "reduce the sum of recvcounts elements, then rank i gets its recvcounts[i]",
       "MPI-4.1 §6.10.2",
       "the processes' {sendbuf} vectors are combined with {op}, in rank order; rank i gets "
       "recvcounts[i] elements of the result, recvcounts = {recvcounts}, in {recvbuf}."},
      {CallId::scan, "MPI_Scan",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "rank i gets op applied to the sendbufs of ranks 0..i",
       "MPI-4.1 §6.11.1",
       "rank i gets in {recvbuf} the {count} elements of {datatype} of ranks 0..i's {sendbuf} combined "
       "with {op}, in rank order (an inclusive prefix reduction)."},
      {CallId::exscan, "MPI_Exscan",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "rank i gets op applied to the sendbufs of ranks 0..i-1 (rank 0: unchanged)",
       "MPI-4.1 §6.11.2",
       "rank i > 0 gets in {recvbuf} the {sendbuf} of ranks 0..i-1 combined with {op}, in rank order (an "
       "exclusive prefix reduction); rank 0's {recvbuf} is undefined and left unchanged."},
      {CallId::comm_group, "MPI_Comm_group", {{P::comm, "comm", K::comm, req}, {P::group, "group", K::group_out, req}},
       "the group of comm",
       "MPI-4.1 §7.3.2",
       "the group of {comm}."},
      {CallId::group_size, "MPI_Group_size", {{P::group, "group", K::group_in, req}, {P::size, "size", K::out_int, req}},
       "the number of processes in group",
       "MPI-4.1 §7.3.1",
       "the number of processes in {group}."},
      {CallId::group_rank, "MPI_Group_rank", {{P::group, "group", K::group_in, req}, {P::rank, "rank", K::out_int, req}},
       "the calling process's rank in group, or MPI_UNDEFINED",
       "MPI-4.1 §7.3.1",
       "the caller's rank in {group}, or MPI_UNDEFINED."},
      {CallId::group_translate_ranks, "MPI_Group_translate_ranks",
       {{P::group1, "group1", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranks1, "ranks1", K::int_array, req},
        {P::group2, "group2", K::group_in, req}, {P::ranks2, "ranks2", K::array_out, req}},
       "the ranks in group2 of processes given by their ranks in group1",
       "MPI-4.1 §7.3.1",
       "the ranks in {group2} of the processes with ranks {ranks1} in {group1}."},
      {CallId::group_compare, "MPI_Group_compare",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::result, "result", K::out_int, req}},
       "MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL",
       "MPI-4.1 §7.3.1",
       "MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL."},
      {CallId::group_union, "MPI_Group_union",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group1's members, then group2's others",
       "MPI-4.1 §7.3.2",
       "the members of {group1}, then those of {group2} not in {group1}, in {group2}'s order."},
      {CallId::group_intersection, "MPI_Group_intersection",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group1's members that are in group2, in group1's order",
       "MPI-4.1 §7.3.2",
       "the members of {group1} that are in {group2}, in {group1}'s order."},
      {CallId::group_difference, "MPI_Group_difference",
       {{P::group1, "group1", K::group_in, req}, {P::group2, "group2", K::group_in, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group1's members that are not in group2, in group1's order",
       "MPI-4.1 §7.3.2",
       "the members of {group1} that are not in {group2}, in {group1}'s order."},
      {CallId::group_incl, "MPI_Group_incl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranks, "ranks", K::int_array, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "the processes of group with the given ranks, in that order",
       "MPI-4.1 §7.3.2",
       "the processes of {group} with ranks {ranks}, in that order."},
      {CallId::group_excl, "MPI_Group_excl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranks, "ranks", K::int_array, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group without the given ranks, in group's order",
       "MPI-4.1 §7.3.2",
       "{group} without ranks {ranks}, in {group}'s order."},
      {CallId::group_range_incl, "MPI_Group_range_incl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranges, "ranges", K::ranges, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "the processes of group named by (first, last, stride) triplets, in that order",
       "MPI-4.1 §7.3.2",
       "the processes of {group} at the ranks the triplets {ranges} compute, in that order."},
      {CallId::group_range_excl, "MPI_Group_range_excl",
       {{P::group, "group", K::group_in, req}, {P::n, "n", K::integer, opt}, {P::ranges, "ranges", K::ranges, req},
        {P::newgroup, "newgroup", K::group_out, req}},
       "group without the processes named by triplets, in group's order",
       "MPI-4.1 §7.3.2",
       "{group} without the ranks the triplets {ranges} compute."},
      {CallId::group_free, "MPI_Group_free", {{P::group, "group", K::group_inout, req}},
       "frees the group; the handle becomes MPI_GROUP_NULL",
       "MPI-4.1 §7.3.3",
       "{group} becomes MPI_GROUP_NULL."},
      {CallId::comm_dup, "MPI_Comm_dup", {{P::comm, "comm", K::comm, req}, {P::newcomm, "newcomm", K::comm_out, req}},
       "a new communicator with the same group and a new context (collective)",
       "MPI-4.1 §7.4.2",
       "a communicator with the group of {comm} and a new context (collective)."},
      {CallId::comm_split, "MPI_Comm_split",
       {{P::comm, "comm", K::comm, req}, {P::color, "color", K::integer, req}, {P::key, "key", K::integer, req},
        {P::newcomm, "newcomm", K::comm_out, req}},
       "one new communicator per color, ranked by key (collective)",
       "MPI-4.1 §7.4.2",
       "one communicator per color ({color} here), ranked by key ({key} here), ties by old rank."},
      {CallId::comm_create, "MPI_Comm_create",
       {{P::comm, "comm", K::comm, req}, {P::group, "group", K::group_in, req}, {P::newcomm, "newcomm", K::comm_out, req}},
       "a communicator for each (equal or disjoint) group given; MPI_COMM_NULL outside (collective over comm)",
       "MPI-4.1 §7.4.2",
       "a communicator for {group}; processes outside it get MPI_COMM_NULL."},
      {CallId::comm_create_group, "MPI_Comm_create_group",
       {{P::comm, "comm", K::comm, req}, {P::group, "group", K::group_in, req}, {P::tag, "tag", K::integer, req},
        {P::newcomm, "newcomm", K::comm_out, req}},
       "a communicator for group, collective over group's members only",
       "MPI-4.1 §7.4.2",
       "a communicator for {group}, made by its members only (tag {tag})."},
      {CallId::comm_compare, "MPI_Comm_compare",
       {{P::comm1, "comm1", K::comm, req}, {P::comm2, "comm2", K::comm, req}, {P::result, "result", K::out_int, req}},
       "MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL",
       "MPI-4.1 §7.4.1",
       "{result} = MPI_IDENT (the same communicator), MPI_CONGRUENT (same group and order, other "
       "context), MPI_SIMILAR (same members, other order) or MPI_UNEQUAL."},
      {CallId::comm_free, "MPI_Comm_free", {{P::comm, "comm", K::comm_inout, req}},
       "frees the communicator; the handle becomes MPI_COMM_NULL",
       "MPI-4.1 §7.4.3",
       "{comm} becomes MPI_COMM_NULL; operations still pending on it complete."},
      {CallId::intercomm_create, "MPI_Intercomm_create",
       {{P::local_comm, "local_comm", K::comm, req}, {P::local_leader, "local_leader", K::integer, req},
        {P::peer_comm, "peer_comm", K::comm, opt}, {P::remote_leader, "remote_leader", K::integer, opt},
        {P::tag, "tag", K::integer, req}, {P::newintercomm, "newintercomm", K::comm_out, req}},
       "an intercommunicator between two groups, through their leaders (collective)",
       "MPI-4.1 §7.6.2",
       "an intercommunicator between the group of {local_comm} and the group led by rank {remote_leader} "
       "of {peer_comm} (tag {tag})."},
      {CallId::intercomm_merge, "MPI_Intercomm_merge",
       {{P::intercomm, "intercomm", K::comm, req}, {P::high, "high", K::integer, req},
        {P::newintracomm, "newintracomm", K::comm_out, req}},
       "an intracommunicator of both groups, the high=false group first (collective)",
       "MPI-4.1 §7.6.2",
       "an intracommunicator of both groups; the one that passed high = 0 first."},
      {CallId::comm_remote_size, "MPI_Comm_remote_size", {{P::comm, "comm", K::comm, req}, {P::size, "size", K::out_int, req}},
       "the size of an intercommunicator's remote group",
       "MPI-4.1 §7.6.1",
       "the number of processes in the remote group of the intercommunicator {comm}."},
      {CallId::comm_remote_group, "MPI_Comm_remote_group",
       {{P::comm, "comm", K::comm, req}, {P::group, "group", K::group_out, req}},
       "the remote group of an intercommunicator",
       "MPI-4.1 §7.6.1",
       "the remote group of the intercommunicator {comm}."},
      {CallId::comm_test_inter, "MPI_Comm_test_inter", {{P::comm, "comm", K::comm, req}, {P::flag, "flag", K::out_int, req}},
       "1 for an intercommunicator, 0 otherwise",
       "MPI-4.1 §7.6.1",
       "{flag} = whether {comm} is an intercommunicator."},
      {CallId::type_contiguous, "MPI_Type_contiguous",
       {{P::count, "count", K::integer, req}, {P::oldtype, "oldtype", K::datatype, req},
        {P::newtype, "newtype", K::datatype_out, req}},
       "count copies of oldtype, one after another",
       "MPI-4.1 §5.1.2",
       "{count} copies of {oldtype}, each one extent after the previous."},
      {CallId::type_vector, "MPI_Type_vector",
       {{P::count, "count", K::integer, req}, {P::blocklength, "blocklength", K::integer, req},
        {P::stride, "stride", K::integer, req}, {P::oldtype, "oldtype", K::datatype, req},
        {P::newtype, "newtype", K::datatype_out, req}},
       "count blocks of blocklength elements, stride elements apart",
       "MPI-4.1 §5.1.2",
       "{count} blocks of {blocklength} {oldtype}, block starts {stride} extents apart."},
      {CallId::type_hvector, "MPI_Type_create_hvector",
       {{P::count, "count", K::integer, req}, {P::blocklength, "blocklength", K::integer, req},
        {P::stride, "stride", K::integer, req}, {P::oldtype, "oldtype", K::datatype, req},
        {P::newtype, "newtype", K::datatype_out, req}},
       "count blocks of blocklength elements, stride bytes apart (also MPI_Type_hvector)",
       "MPI-4.1 §5.1.2",
       "{count} blocks of {blocklength} {oldtype}, block starts {stride} bytes apart."},
      {CallId::type_indexed, "MPI_Type_indexed",
       {{P::count, "count", K::integer, opt}, {P::array_of_blocklengths, "array_of_blocklengths", K::int_array, req},
        {P::array_of_displacements, "array_of_displacements", K::int_array, req},
        {P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "blocks of given lengths at displacements in elements",
       "MPI-4.1 §5.1.2",
       "blocks of {array_of_blocklengths} {oldtype} at {array_of_displacements} extents."},
      {CallId::type_hindexed, "MPI_Type_create_hindexed",
       {{P::count, "count", K::integer, opt}, {P::array_of_blocklengths, "array_of_blocklengths", K::int_array, req},
        {P::array_of_displacements, "array_of_displacements", K::int_array, req},
        {P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "blocks of given lengths at displacements in bytes (also MPI_Type_hindexed)",
       "MPI-4.1 §5.1.2",
       "blocks of {array_of_blocklengths} {oldtype} at {array_of_displacements} bytes."},
      {CallId::type_indexed_block, "MPI_Type_create_indexed_block",
       {{P::count, "count", K::integer, opt}, {P::blocklength, "blocklength", K::integer, req},
        {P::array_of_displacements, "array_of_displacements", K::int_array, req},
        {P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "equal blocks at displacements in elements",
       "MPI-4.1 §5.1.2",
       "blocks of {blocklength} {oldtype} each, at {array_of_displacements} extents of {oldtype}."},
      {CallId::type_hindexed_block, "MPI_Type_create_hindexed_block",
       {{P::count, "count", K::integer, opt}, {P::blocklength, "blocklength", K::integer, req},
        {P::array_of_displacements, "array_of_displacements", K::int_array, req},
        {P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "equal blocks at displacements in bytes",
       "MPI-4.1 §5.1.2",
       "blocks of {blocklength} {oldtype} each, at {array_of_displacements} bytes."},
      {CallId::type_struct, "MPI_Type_create_struct",
       {{P::count, "count", K::integer, opt}, {P::array_of_blocklengths, "array_of_blocklengths", K::int_array, req},
        {P::array_of_displacements, "array_of_displacements", K::int_array, req},
        {P::array_of_types, "array_of_types", K::type_array, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "blocks of different types at displacements in bytes, padded to alignment (also MPI_Type_struct)",
       "MPI-4.1 §5.1.2",
       "blocks of {array_of_blocklengths} elements of {array_of_types} at {array_of_displacements} "
       "bytes; the extent is padded to the strictest alignment."},
      {CallId::type_subarray, "MPI_Type_create_subarray",
       {{P::ndims, "ndims", K::integer, opt}, {P::array_of_sizes, "array_of_sizes", K::int_array, req},
        {P::array_of_subsizes, "array_of_subsizes", K::int_array, req},
        {P::array_of_starts, "array_of_starts", K::int_array, req}, {P::order, "order", K::integer, req},
        {P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "a sub-block of an n-dimensional array, in C or Fortran order",
       "MPI-4.1 §5.1.3",
       "the {array_of_subsizes} subarray starting at {array_of_starts} of a {array_of_sizes} array of "
       "{oldtype} in {order} order; the extent is the whole array's."},
      {CallId::type_resized, "MPI_Type_create_resized",
       {{P::oldtype, "oldtype", K::datatype, req}, {P::lb, "lb", K::integer, req}, {P::extent, "extent", K::integer, req},
        {P::newtype, "newtype", K::datatype_out, req}},
       "oldtype with a new lower bound and extent",
       "MPI-4.1 §5.1.7",
       "{oldtype} with its lower bound set to {lb} and its extent to {extent} bytes; the type map is "
       "unchanged."},
      {CallId::type_dup, "MPI_Type_dup", {{P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "a copy of oldtype",
       "MPI-4.1 §5.1.10",
       "a new handle {newtype} for the same type map as {oldtype}, committed if it is."},
      {CallId::type_commit, "MPI_Type_commit", {{P::datatype, "datatype", K::datatype_inout, req}},
       "commits a datatype for use in communication",
       "MPI-4.1 §5.1.9",
       "{datatype} may now be used in communication."},
      {CallId::type_free, "MPI_Type_free", {{P::datatype, "datatype", K::datatype_inout, req}},
       "frees a datatype; the handle becomes MPI_DATATYPE_NULL",
       "MPI-4.1 §5.1.9",
       "{datatype} becomes MPI_DATATYPE_NULL; operations using it complete, and types built from it keep "
       "their own copy."},
      {CallId::type_size, "MPI_Type_size", {{P::datatype, "datatype", K::datatype, req}, {P::size, "size", K::out_int, req}},
       "the number of bytes of data in one element",
       "MPI-4.1 §5.1.5",
       "{size} = the number of bytes of data in one element of {datatype} (holes not counted)."},
      {CallId::type_get_extent, "MPI_Type_get_extent",
       {{P::datatype, "datatype", K::datatype, req}, {P::lb, "lb", K::out_int, req}, {P::extent, "extent", K::out_int, req}},
       "lower bound and extent",
       "MPI-4.1 §5.1.7",
       "{lb} = the lower bound of {datatype}, {extent} = its upper bound minus its lower bound, padding "
       "included."},
      {CallId::type_get_true_extent, "MPI_Type_get_true_extent",
       {{P::datatype, "datatype", K::datatype, req}, {P::true_lb, "true_lb", K::out_int, req},
        {P::true_extent, "true_extent", K::out_int, req}},
       "bounds of the data itself, markers and padding ignored",
       "MPI-4.1 §5.1.8",
       "{true_lb} and {true_extent} of {datatype}: the bounds of its data alone, markers and resizing "
       "ignored."},
      {CallId::type_extent, "MPI_Type_extent", {{P::datatype, "datatype", K::datatype, req}, {P::extent, "extent", K::out_int, req}},
       "extent (MPI-1)",
       "MPI-1.1 §3.12.2 (removed in MPI-3.0; MPI-4.1 §5.1.7 has MPI_Type_get_extent)",
       "{extent} = the extent of {datatype}."},
      {CallId::type_lb, "MPI_Type_lb",
       {{P::datatype, "datatype", K::datatype, req}, {P::displacement, "displacement", K::out_int, req}},
       "lower bound (MPI-1)",
       "MPI-1.1 §3.12.2 (removed in MPI-3.0)",
       "{displacement} = the lower bound of {datatype}."},
      {CallId::type_ub, "MPI_Type_ub",
       {{P::datatype, "datatype", K::datatype, req}, {P::displacement, "displacement", K::out_int, req}},
       "upper bound (MPI-1)",
       "MPI-1.1 §3.12.2 (removed in MPI-3.0)",
       "{displacement} = the upper bound of {datatype}."},
      {CallId::get_address, "MPI_Get_address",
       {{P::location, "location", K::buffer, req}, {P::address, "address", K::out_int, req}},
       "the simulated address of a location (also MPI_Address)",
       "MPI-4.1 §5.1.5",
       "{address} = the address of {location} in the process's memory, for absolute displacements and "
       "MPI_BOTTOM."},
      {CallId::pack, "MPI_Pack",
       {{P::inbuf, "inbuf", K::buffer, req}, {P::incount, "incount", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::outbuf, "outbuf", K::buffer, req},
        {P::outsize, "outsize", K::integer, req}, {P::position, "position", K::int_inout, req},
        {P::comm, "comm", K::comm, req}},
       "packs incount elements into outbuf at position, which advances",
       "MPI-4.1 §5.2.1",
       "append {incount} {datatype} from {inbuf} to {outbuf} at {position}, which advances."},
      {CallId::unpack, "MPI_Unpack",
       {{P::inbuf, "inbuf", K::buffer, req}, {P::insize, "insize", K::integer, req},
        {P::position, "position", K::int_inout, req}, {P::outbuf, "outbuf", K::buffer, req},
        {P::outcount, "outcount", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "unpacks outcount elements from inbuf at position, which advances",
       "MPI-4.1 §5.2.1",
       "take {outcount} {datatype} from {inbuf} at {position} into {outbuf}."},
      {CallId::pack_size, "MPI_Pack_size",
       {{P::incount, "incount", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::comm, "comm", K::comm, req}, {P::size, "size", K::out_int, req}},
       "an upper bound of the bytes MPI_Pack needs",
       "MPI-4.1 §5.2.1",
       "{size} = an upper bound of the bytes MPI_Pack needs for {incount} elements of {datatype}."},
      {CallId::get_elements, "MPI_Get_elements",
       {{P::status, "status", K::status_in, req}, {P::datatype, "datatype", K::datatype, req},
        {P::count, "count", K::out_int, req}},
       "the number of basic elements a receive got",
       "MPI-4.1 §5.1.11",
       "{count} = the number of basic elements of {datatype} the receive of {status} got (MPI_UNDEFINED "
       "if it ended inside one)."},
      {CallId::op_create, "MPI_Op_create",
       {{P::user_fn, "user_fn", K::function_name, req}, {P::commute, "commute", K::integer, req},
        {P::op, "op", K::op_out, req}},
       "a user operation from a function mpisim provides: matrix_product_2x2 or absolute_max",
       "MPI-4.1 §6.9.5",
       "{op} = a new operation applying {user_fn}, commutative if {commute} is true."},
      {CallId::op_free, "MPI_Op_free", {{P::op, "op", K::op_inout, req}}, "frees the operation; the handle becomes MPI_OP_NULL",
       "MPI-4.1 §6.9.5",
       "{op} becomes MPI_OP_NULL."},
      {CallId::op_commutative, "MPI_Op_commutative",
       {{P::op, "op", K::op_in, req}, {P::commute, "commute", K::out_int, req}},
       "1 if the operation is commutative",
       "MPI-4.1 §6.9.5",
       "{commute} = whether {op} is commutative."},
      {CallId::reduce_local, "MPI_Reduce_local",
       {{P::inbuf, "inbuf", K::buffer, req}, {P::inoutbuf, "inoutbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}},
       "inoutbuf = inbuf op inoutbuf, element by element",
       "MPI-4.1 §6.9.7",
       "{inoutbuf}[i] = {inbuf}[i] {op} {inoutbuf}[i] for {count} elements of {datatype}."},
      {CallId::type_darray, "MPI_Type_create_darray",
       {{P::size, "size", K::integer, req}, {P::rank, "rank", K::integer, req}, {P::ndims, "ndims", K::integer, opt},
        {P::array_of_gsizes, "array_of_gsizes", K::int_array, req},
        {P::array_of_distribs, "array_of_distribs", K::int_array, req},
        {P::array_of_dargs, "array_of_dargs", K::int_array, req},
        {P::array_of_psizes, "array_of_psizes", K::int_array, req}, {P::order, "order", K::integer, req},
        {P::oldtype, "oldtype", K::datatype, req}, {P::newtype, "newtype", K::datatype_out, req}},
       "the part of a distributed array a process owns (block, cyclic, none)",
       "MPI-4.1 §5.1.4",
       "the part of a {array_of_gsizes} array of {oldtype}, distributed over a {array_of_psizes} process "
       "grid by {array_of_distribs} with arguments {array_of_dargs}, that process {rank} of {size} owns, "
       "in {order} order."},
      {CallId::type_get_envelope, "MPI_Type_get_envelope",
       {{P::datatype, "datatype", K::datatype, req}, {P::num_integers, "num_integers", K::out_int, req},
        {P::num_addresses, "num_addresses", K::out_int, req}, {P::num_datatypes, "num_datatypes", K::out_int, req},
        {P::combiner, "combiner", K::out_int, req}},
       "how a datatype was made (MPI_COMBINER_*) and how many arguments it took",
       "MPI-4.1 §5.1.13",
       "how {datatype} was made: its {combiner} and the numbers of integers ({num_integers}), addresses "
       "({num_addresses}) and datatypes ({num_datatypes}) its constructor took."},
      {CallId::type_get_contents, "MPI_Type_get_contents",
       {{P::datatype, "datatype", K::datatype, req}, {P::max_integers, "max_integers", K::integer, opt},
        {P::max_addresses, "max_addresses", K::integer, opt}, {P::max_datatypes, "max_datatypes", K::integer, opt},
        {P::array_of_integers, "array_of_integers", K::array_out, req},
        {P::array_of_addresses, "array_of_addresses", K::array_out, req},
        {P::array_of_datatypes, "array_of_datatypes", K::array_out, req}},
       "the arguments a derived datatype was made with; its datatypes are bound as NAME0, NAME1, ...",
       "MPI-4.1 §5.1.13",
       "the arguments the constructor of {datatype} took: {array_of_integers}, {array_of_addresses} and "
       "the datatypes {array_of_datatypes}."},
  });
  return specs;
}

std::optional<std::int64_t> mpi_constant(std::string_view name) {
  static const std::pair<std::string_view, std::int64_t> table[] = {
      {"MPI_COMBINER_NAMED", 1},        {"MPI_COMBINER_DUP", 2},           {"MPI_COMBINER_CONTIGUOUS", 3},
      {"MPI_COMBINER_VECTOR", 4},       {"MPI_COMBINER_HVECTOR", 6},       {"MPI_COMBINER_INDEXED", 7},
      {"MPI_COMBINER_HINDEXED", 9},     {"MPI_COMBINER_INDEXED_BLOCK", 10}, {"MPI_COMBINER_STRUCT", 12},
      {"MPI_COMBINER_SUBARRAY", 13},    {"MPI_COMBINER_DARRAY", 14},       {"MPI_COMBINER_RESIZED", 18},
      {"MPI_COMBINER_HINDEXED_BLOCK", 19}, {"MPI_DISTRIBUTE_BLOCK", 121},  {"MPI_DISTRIBUTE_CYCLIC", 122},
      {"MPI_DISTRIBUTE_NONE", 123},     {"MPI_DISTRIBUTE_DFLT_DARG", -49767}, {"MPI_INFO_NULL", 0x1c000000}};
  for (const auto& [n, v] : table)
    if (n == name) return v;
  return std::nullopt;
}

const char* param_name(P p) {
  static const char* const names[] = {
      "array_of_requests", "array_of_statuses", "buf", "comm", "count", "datatype", "dest", "displs",
      "flag", "index", "rank", "recvbuf", "recvcount", "recvtag", "recvtype", "request", "result", "root",
      "sendbuf", "sendcount", "sendcounts", "sendtag", "sendtype", "size", "source", "status", "tag",
      "group", "group1", "group2", "newgroup", "n", "ranks", "ranks1", "ranks2", "ranges",
      "newcomm", "color", "key", "comm1", "comm2", "local_comm", "local_leader", "peer_comm", "remote_leader",
      "newintercomm", "intercomm", "high", "newintracomm",
      "oldtype", "newtype", "blocklength", "stride", "array_of_blocklengths", "array_of_displacements",
      "array_of_types", "ndims", "array_of_sizes", "array_of_subsizes", "array_of_starts", "order", "lb", "extent",
      "true_lb", "true_extent", "displacement", "location", "address", "inbuf", "incount", "outbuf", "outsize",
      "position", "insize", "outcount", "user_fn", "commute", "op", "inoutbuf",
      "array_of_gsizes", "array_of_distribs", "array_of_dargs", "array_of_psizes", "num_integers", "num_addresses",
      "num_datatypes", "combiner", "max_integers", "max_addresses", "max_datatypes", "array_of_integers",
      "array_of_addresses", "array_of_datatypes", "buffer", "recvcounts", "sdispls", "rdispls", "sendtypes",
      "recvtypes", "array_of_indices", "info"};
  static_assert(std::size(names) == static_cast<std::size_t>(P::count_));
  return names[static_cast<std::size_t>(p)];
}

const std::vector<std::pair<std::string_view, std::string_view>>& call_aliases() {
  // The seed material uses them.
  static const std::vector<std::pair<std::string_view, std::string_view>> aliases = {
      {"MPI_Type_hvector", "MPI_Type_create_hvector"}, {"MPI_Type_hindexed", "MPI_Type_create_hindexed"},
      {"MPI_Type_struct", "MPI_Type_create_struct"}, {"MPI_Address", "MPI_Get_address"}};
  return aliases;
}

const CallSpec* find_call(std::string_view name) {
  for (const auto& [old_name, new_name] : call_aliases())
    if (name == old_name) name = new_name;
  const auto& s = call_specs();
  auto it = std::find_if(s.begin(), s.end(), [&](const CallSpec& c) { return name == c.name; });
  return it == s.end() ? nullptr : &*it;
}

}  // namespace mpisim::scenario
