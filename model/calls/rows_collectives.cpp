// Rows of the call table (model/calls/rows.hpp): The blocking collectives (their nonblocking and persistent forms are made from these rows: calls.cpp).
#include "model/calls/rows.hpp"

namespace mpisim::calls::rows {

std::vector<CallSpec> collective_rows() {
  return {
      {CallId::barrier, "MPI_Barrier", {{P::comm, "comm", K::comm, req}}, "block until every process has entered",
       "MPI-4.1 §6.3",
       "no process of {comm} leaves until every process has entered.",
       "MPI_Comm comm"},
      {CallId::bcast, "MPI_Bcast",
       {{P::buffer, "buffer", K::buffer, req}, {P::count, "count", K::integer, req}, {P::datatype, "datatype", K::datatype, req},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root's buffer is copied to every process",
       "MPI-4.1 §6.4",
       "the root (rank {root}) sends its {count} elements of {datatype} in {buffer} to every process of "
       "{comm}; afterwards every {buffer} holds the root's data.",
       "void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm"},
      {CallId::gather, "MPI_Gather",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcount, "recvcount", K::integer, opt}, {P::recvtype, "recvtype", K::datatype, opt},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf becomes block i of the root's recvbuf",
       "MPI-4.1 §6.5",
       "as if every process sent {sendcount} {sendtype} from {sendbuf} to the root (rank {root}), which "
       "receives the message of rank i at {recvbuf} + i·{recvcount}·extent({recvtype}), in rank order. "
       "No location of the root's buffer is written twice.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm"},
      {CallId::gatherv, "MPI_Gatherv",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcounts, "recvcounts", K::int_array, opt}, {P::displs, "displs", K::int_array, opt},
        {P::recvtype, "recvtype", K::datatype, opt}, {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf lands at displs[i] of the root's recvbuf",
       "MPI-4.1 §6.5",
       "as MPI_Gather, but the root receives recvcounts[i] = {recvcounts} elements from rank i at "
       "{recvbuf} + displs[i]·extent({recvtype}) with displs = {displs}.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm"},
      {CallId::scatter, "MPI_Scatter",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcount, "recvcount", K::integer, opt}, {P::recvtype, "recvtype", K::datatype, opt},
        {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root sends block i of sendbuf to rank i",
       "MPI-4.1 §6.6",
       "as if the root (rank {root}) executed n sends MPI_Send({sendbuf} + "
       "i·{sendcount}·extent({sendtype}), {sendcount}, {sendtype}, i, ...), one per process i, and every "
       "process one receive MPI_Recv({recvbuf}, {recvcount}, {recvtype}, {root}, ...). No location of "
       "the root's buffer is read twice.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm"},
      {CallId::scatterv, "MPI_Scatterv",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::displs, "displs", K::int_array, opt},
        {P::sendtype, "sendtype", K::datatype, opt}, {P::recvbuf, "recvbuf", K::buffer, opt}, {P::recvcount, "recvcount", K::integer, opt},
        {P::recvtype, "recvtype", K::datatype, opt}, {P::root, "root", K::integer, req}, {P::comm, "comm", K::comm, req}},
       "the root sends sendcounts[i] elements from displs[i] to rank i",
       "MPI-4.1 §6.6",
       "as if the root (rank {root}) executed n sends MPI_Send({sendbuf} + displs[i]·extent({sendtype}), "
       "sendcounts[i], {sendtype}, i, ...) with sendcounts = {sendcounts} and displs = {displs}, and "
       "every process one receive MPI_Recv({recvbuf}, {recvcount}, {recvtype}, {root}, ...).",
       "const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm"},
      {CallId::allgather, "MPI_Allgather",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf becomes block i of every recvbuf",
       "MPI-4.1 §6.7",
       "as MPI_Gather with every process as the root: block i of every {recvbuf} holds rank i's "
       "{sendcount} {sendtype} from {sendbuf}.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::allgatherv, "MPI_Allgatherv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req}, {P::displs, "displs", K::int_array, req},
        {P::recvtype, "recvtype", K::datatype, req}, {P::comm, "comm", K::comm, req}},
       "rank i's sendbuf lands at displs[i] of every recvbuf",
       "MPI-4.1 §6.7",
       "as MPI_Gatherv with every process as the root: rank i's data lands at displs[i] = {displs} in "
       "every {recvbuf}, recvcounts[i] = {recvcounts} elements.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::alltoall, "MPI_Alltoall",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, opt}, {P::sendtype, "sendtype", K::datatype, opt},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "block j of rank i's sendbuf becomes block i of rank j's recvbuf",
       "MPI-4.1 §6.8",
       "block j of rank i's {sendbuf} ({sendcount} {sendtype}) goes to block i of rank j's {recvbuf} "
       "({recvcount} {recvtype}): a transpose of blocks among the processes of {comm}.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::alltoallv, "MPI_Alltoallv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::sdispls, "sdispls", K::int_array, opt},
        {P::sendtype, "sendtype", K::datatype, opt}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::rdispls, "rdispls", K::int_array, req}, {P::recvtype, "recvtype", K::datatype, req}, {P::comm, "comm", K::comm, req}},
       "alltoall with per-process counts and displacements",
       "MPI-4.1 §6.8",
       "as MPI_Alltoall with a count and displacement per process: sendcounts = {sendcounts} at sdispls "
       "= {sdispls}, recvcounts = {recvcounts} at rdispls = {rdispls}, in elements of the types.",
       "const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::alltoallw, "MPI_Alltoallw",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcounts, "sendcounts", K::int_array, opt}, {P::sdispls, "sdispls", K::int_array, opt},
        {P::sendtypes, "sendtypes", K::type_array, opt}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::rdispls, "rdispls", K::int_array, req}, {P::recvtypes, "recvtypes", K::type_array, req}, {P::comm, "comm", K::comm, req}},
       "alltoall with per-process counts, byte displacements and datatypes",
       "MPI-4.1 §6.8",
       "as MPI_Alltoallv with a datatype per process ({sendtypes}, {recvtypes}) and displacements in "
       "bytes.",
       "const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm"},
      {CallId::reduce, "MPI_Reduce",
       {{P::sendbuf, "sendbuf", K::buffer, opt}, {P::recvbuf, "recvbuf", K::buffer, opt}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::root, "root", K::integer, req},
        {P::comm, "comm", K::comm, req}},
       "the root gets op applied to every process's sendbuf, in rank order",
       "MPI-4.1 §6.9.1",
       "the root (rank {root}) gets in {recvbuf}, element by element, the {count} elements of {datatype} "
       "of every process's {sendbuf} combined with {op}, in rank order (op(op(x0, x1), x2) ... for a "
       "non-commutative op).",
       "const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm"},
      {CallId::allreduce, "MPI_Allreduce",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "every process gets op applied to every process's sendbuf, in rank order",
       "MPI-4.1 §6.9.6",
       "as MPI_Reduce followed by MPI_Bcast of the result: every {recvbuf} gets the {count} elements of "
       "{datatype} of all processes combined with {op}, in rank order.",
       "const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm"},
      {CallId::reduce_scatter_block, "MPI_Reduce_scatter_block",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "reduce p·recvcount elements, then rank i gets block i",
       "MPI-4.1 §6.10.1",
       "the processes' {sendbuf} vectors (size·{recvcount} elements of {datatype}) are combined with "
       "{op}, in rank order; rank i gets block i, {recvcount} elements, in {recvbuf}.",
       "const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm"},
      {CallId::reduce_scatter, "MPI_Reduce_scatter",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "reduce the sum of recvcounts elements, then rank i gets its recvcounts[i]",
       "MPI-4.1 §6.10.2",
       "the processes' {sendbuf} vectors are combined with {op}, in rank order; rank i gets "
       "recvcounts[i] elements of the result, recvcounts = {recvcounts}, in {recvbuf}.",
       "const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm"},
      {CallId::scan, "MPI_Scan",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "rank i gets op applied to the sendbufs of ranks 0..i",
       "MPI-4.1 §6.11.1",
       "rank i gets in {recvbuf} the {count} elements of {datatype} of ranks 0..i's {sendbuf} combined "
       "with {op}, in rank order (an inclusive prefix reduction).",
       "const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm"},
      {CallId::exscan, "MPI_Exscan",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::count, "count", K::integer, req},
        {P::datatype, "datatype", K::datatype, req}, {P::op, "op", K::op_in, req}, {P::comm, "comm", K::comm, req}},
       "rank i gets op applied to the sendbufs of ranks 0..i-1 (rank 0: unchanged)",
       "MPI-4.1 §6.11.2",
       "rank i > 0 gets in {recvbuf} the {sendbuf} of ranks 0..i-1 combined with {op}, in rank order (an "
       "exclusive prefix reduction); rank 0's {recvbuf} is undefined and left unchanged.",
       "const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm"},
      {CallId::neighbor_allgather, "MPI_Neighbor_allgather",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, req}, {P::sendtype, "sendtype", K::datatype, req},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "each process's sendbuf goes to its topology neighbours: block k of recvbuf comes from source k",
       "MPI-4.1 §8.6.1",
       "every process sends its {sendcount} {sendtype} from {sendbuf} to each destination of its topology on "
       "{comm}, and receives block k of {recvbuf} ({recvcount} {recvtype}) from its k-th source; a block whose "
       "source is MPI_PROC_NULL is left unchanged.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::neighbor_allgatherv, "MPI_Neighbor_allgatherv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, req}, {P::sendtype, "sendtype", K::datatype, req},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req}, {P::displs, "displs", K::int_array, req},
        {P::recvtype, "recvtype", K::datatype, req}, {P::comm, "comm", K::comm, req}},
       "neighbour allgather with a count and displacement per source",
       "MPI-4.1 §8.6.1",
       "as MPI_Neighbor_allgather, the block from source k landing at displs[k] = {displs} of {recvbuf}, "
       "recvcounts[k] = {recvcounts} elements.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::neighbor_alltoall, "MPI_Neighbor_alltoall",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcount, "sendcount", K::integer, req}, {P::sendtype, "sendtype", K::datatype, req},
        {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcount, "recvcount", K::integer, req}, {P::recvtype, "recvtype", K::datatype, req},
        {P::comm, "comm", K::comm, req}},
       "block j of sendbuf goes to destination j; block k of recvbuf comes from source k",
       "MPI-4.1 §8.6.2",
       "every process sends block j of {sendbuf} ({sendcount} {sendtype}) to its j-th destination in the topology of "
       "{comm} and receives block k of {recvbuf} ({recvcount} {recvtype}) from its k-th source. On a Cartesian grid "
       "the block sent in the positive direction of a dimension arrives in the block from the negative direction.",
       "const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::neighbor_alltoallv, "MPI_Neighbor_alltoallv",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcounts, "sendcounts", K::int_array, req}, {P::sdispls, "sdispls", K::int_array, req},
        {P::sendtype, "sendtype", K::datatype, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::rdispls, "rdispls", K::int_array, req}, {P::recvtype, "recvtype", K::datatype, req}, {P::comm, "comm", K::comm, req}},
       "neighbour alltoall with a count and displacement per neighbour",
       "MPI-4.1 §8.6.2",
       "as MPI_Neighbor_alltoall with a count and displacement per destination (sendcounts = {sendcounts} at sdispls "
       "= {sdispls}) and per source (recvcounts = {recvcounts} at rdispls = {rdispls}), in elements of the types.",
       "const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm"},
      {CallId::neighbor_alltoallw, "MPI_Neighbor_alltoallw",
       {{P::sendbuf, "sendbuf", K::buffer, req}, {P::sendcounts, "sendcounts", K::int_array, req}, {P::sdispls, "sdispls", K::int_array, req},
        {P::sendtypes, "sendtypes", K::type_array, req}, {P::recvbuf, "recvbuf", K::buffer, req}, {P::recvcounts, "recvcounts", K::int_array, req},
        {P::rdispls, "rdispls", K::int_array, req}, {P::recvtypes, "recvtypes", K::type_array, req}, {P::comm, "comm", K::comm, req}},
       "neighbour alltoall with per-neighbour counts, byte displacements and datatypes",
       "MPI-4.1 §8.6.2",
       "as MPI_Neighbor_alltoallv with a datatype per neighbour and displacements in bytes: sdispls = {sdispls}, "
       "rdispls = {rdispls}.",
       "const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm"},
  };
}

}  // namespace mpisim::calls::rows

namespace mpisim::calls {

const char* in_place_definition(CallId id) {
  switch (blocking_form(id).value_or(id)) {
    case CallId::gather:
    case CallId::gatherv:
      return "MPI_IN_PLACE as sendbuf at the root (MPI-4.1 §6.5): the root's own block is taken to be in its place in "
             "recvbuf already; the root sends itself nothing, and sendcount and sendtype are ignored there.";
    case CallId::scatter:
    case CallId::scatterv:
      return "MPI_IN_PLACE as recvbuf at the root (MPI-4.1 §6.6): the root sends itself no block; its own block stays "
             "where it is in sendbuf, and recvcount and recvtype are ignored there.";
    case CallId::allgather:
    case CallId::allgatherv:
      return "MPI_IN_PLACE as sendbuf at every process (MPI-4.1 §6.7): each process's contribution is taken from its "
             "own block of recvbuf, which the call leaves as it is; sendcount and sendtype are ignored.";
    case CallId::alltoall:
    case CallId::alltoallv:
    case CallId::alltoallw:
      return "MPI_IN_PLACE as sendbuf at every process (MPI-4.1 §6.8): the data sent is taken from recvbuf, laid out "
             "as the receive arguments say, and the data received replaces it there.";
    case CallId::reduce:
      return "MPI_IN_PLACE as sendbuf at the root (MPI-4.1 §6.9.1): the root's input is taken from recvbuf, and the "
             "result replaces it there.";
    case CallId::allreduce:
      return "MPI_IN_PLACE as sendbuf at every process (MPI-4.1 §6.9.6): each process's input is taken from recvbuf, "
             "and the result replaces it there.";
    case CallId::reduce_scatter_block:
    case CallId::reduce_scatter:
      return "MPI_IN_PLACE as sendbuf at every process (MPI-4.1 §6.10): each process's input is taken from recvbuf, "
             "and its block of the result is left at the start of recvbuf.";
    case CallId::scan:
    case CallId::exscan:
      return "MPI_IN_PLACE as sendbuf (MPI-4.1 §6.11): each process's input is taken from recvbuf, and its prefix "
             "result replaces it there (MPI_Exscan leaves rank 0's recvbuf undefined).";
    default: return nullptr;
  }
}

}  // namespace mpisim::calls
