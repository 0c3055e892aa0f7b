#pragma once
// The external32 data representation (MPI-4.1 §13.5.2) and the calls that use it
// (§5.2.3): MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size.
// external32 is big-endian, with IEEE formats and fixed sizes that differ from
// this platform's for some types: MPI_LONG and MPI_UNSIGNED_LONG take 4 bytes,
// MPI_WCHAR 2, MPI_LONG_DOUBLE the 16 bytes of IEEE binary128.
#include <cstdint>
#include <string_view>

#include "model/mpi/datatype.hpp"
#include "model/mpi/memory.hpp"

namespace mpisim::mpi {

// The bytes one element of the basic type takes in external32.
std::int64_t external32_size(const BasicType& b);

// MPI_Pack_external_size: the bytes `count` elements of `type` take in
// `datarep` (which must be "external32": MPI_ERR_ARG otherwise).
std::int64_t pack_external_size(std::string_view datarep, std::int64_t count, const Datatype& type);

// MPI_Pack_external: incount elements of type at inbuf, converted to external32
// and appended to outbuf (outsize bytes) at position, which advances. Data moves
// in data mode only; the checks hold in both.
void pack_external(Memory& mem, PayloadMode mode, std::string_view datarep, Address inbuf, std::int64_t incount,
                   const TypeRef& type, Address outbuf, std::int64_t outsize, std::int64_t& position);
// MPI_Unpack_external: outcount elements of type into outbuf, converted from the
// external32 bytes of inbuf (insize bytes) at position, which advances.
void unpack_external(Memory& mem, PayloadMode mode, std::string_view datarep, Address inbuf, std::int64_t insize,
                     std::int64_t& position, Address outbuf, std::int64_t outcount, const TypeRef& type);

}  // namespace mpisim::mpi
