#pragma once
// A collective call's arguments, read and checked as the standard says: the
// library's entry for every collective, in each of its forms, from any front-end.
//
// A front-end (the scenario interpreter, `mpisim cost`, a test) hands over an
// ArgSource: the call's arguments by the standard's parameter names, each
// evaluated only when the library asks for it. The library asks only for the
// arguments that are significant at the calling process (a scatter's send
// arguments at its root only), in the order the checks need them, so that a
// front-end whose arguments are expressions evaluates nothing the standard
// ignores, and every check of the standard, with its diagnostic, is here.
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/coll/collective.hpp"

namespace mpisim::coll {

// The parameters of the collective calls, named as the standard names them.
enum class Param : std::uint8_t {
  buffer, count, datatype, root, op, sendbuf, sendcount, sendtype, sendcounts, sdispls, sendtypes, recvbuf,
  recvcount, recvtype, recvcounts, displs, rdispls, recvtypes
};
const char* param_name(Param p);

class ArgSource {
 public:
  // Whether the call gives the argument at all (a C call always does; a scenario
  // step may leave out one that is not significant).
  virtual bool given(Param p) const = 0;
  virtual std::int64_t integer(Param p) = 0;                  // count, root (an int)
  virtual Address buffer(Param p) = 0;                        // an address, or kInPlace
  virtual TypeRef datatype(Param p) = 0;                      // a valid handle (committed or not)
  // Arrays (sendcounts, displs, ...; sendtypes, recvtypes): `n` is how many
  // entries the standard gives the array at this call (one per process of the
  // group it addresses, or per neighbour), which the library decides. A source
  // whose arrays carry no length of their own (a C pointer) reads n entries; one
  // whose arrays do (a scenario's) gives them whole, and the library checks the
  // length against n.
  virtual std::vector<std::int64_t> integers(Param p, std::size_t n) = 0;
  virtual std::vector<TypeRef> datatypes(Param p, std::size_t n) = 0;
  virtual mpi::OpRef op() = 0;

 protected:
  ~ArgSource() = default;
};

// Reads the arguments of `kind` in `form` at `rank` on `comm`, checks each
// against the standard (throws mpi::MpiError naming the argument and the rule),
// and gives them as an algorithm reads them. The call's position among the
// collectives on the communicator (CollArgs::instance) is the caller's to set.
CollArgs read_arguments(Rank& rank, Collective kind, Form form, const Communicator& comm, ArgSource& source);

// A buffer a collective call reads or writes at the calling process: one
// per-process block (block >= 0) or the whole argument (block -1). Only the
// arguments significant at the process (MPI_Bcast's buffer is read at the root
// and written elsewhere; a reduce's recvbuf is the root's; MPI_IN_PLACE's buffer
// is written, and read where the call reads it).
struct Touched {
  Address addr;
  std::int64_t count;
  TypeRef type;
  int block;
  bool writes;
  const char* argument;  // "buffer", "sendbuf", "recvbuf"
};
std::vector<Touched> touched(const CollArgs& a);

}  // namespace mpisim::coll
