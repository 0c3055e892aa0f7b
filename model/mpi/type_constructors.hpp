#pragma once
// The datatype constructors of MPI-4.1 §5.1.2–§5.1.7 (timeless functions).
// Counts are in elements of oldtype unless the name says bytes (the h- forms).
// Erroneous arguments throw MpiError naming the argument and the rule.
#include <cstdint>
#include <string>
#include <vector>

#include "model/mpi/datatype.hpp"

namespace mpisim::mpi {

enum class Order { c, fortran };

TypeRef type_contiguous(std::int64_t count, const TypeRef& oldtype, std::string name = "contiguous");
TypeRef type_vector(std::int64_t count, std::int64_t blocklength, std::int64_t stride, const TypeRef& oldtype,
                    std::string name = "vector");
TypeRef type_hvector(std::int64_t count, std::int64_t blocklength, std::int64_t stride_bytes, const TypeRef& oldtype,
                     std::string name = "hvector");
TypeRef type_indexed(const std::vector<std::int64_t>& blocklengths, const std::vector<std::int64_t>& displacements,
                     const TypeRef& oldtype, std::string name = "indexed");
TypeRef type_hindexed(const std::vector<std::int64_t>& blocklengths, const std::vector<std::int64_t>& displacements_bytes,
                      const TypeRef& oldtype, std::string name = "hindexed");
TypeRef type_indexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& displacements,
                           const TypeRef& oldtype, std::string name = "indexed_block");
TypeRef type_hindexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& displacements_bytes,
                            const TypeRef& oldtype, std::string name = "hindexed_block");
TypeRef type_struct(const std::vector<std::int64_t>& blocklengths, const std::vector<std::int64_t>& displacements_bytes,
                    const std::vector<TypeRef>& types, std::string name = "struct");
TypeRef type_subarray(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& subsizes,
                      const std::vector<std::int64_t>& starts, Order order, const TypeRef& oldtype,
                      std::string name = "subarray");
enum class Distribution { block, cyclic, none };
inline constexpr std::int64_t kDefaultDistributionArg = -49767;  // MPI_DISTRIBUTE_DFLT_DARG (MPICH's value)

// MPI-4.1 §5.1.4: the part of a global array that process `rank` of a `size`-process
// grid (psizes, row-major) owns under the given distributions, in array order,
// with the whole array's extent.
TypeRef type_darray(std::int64_t size, std::int64_t rank, const std::vector<std::int64_t>& gsizes,
                    const std::vector<Distribution>& distribs, const std::vector<std::int64_t>& dargs,
                    const std::vector<std::int64_t>& psizes, Order order, const TypeRef& oldtype,
                    std::string name = "darray");
TypeRef type_resized(const TypeRef& oldtype, std::int64_t lb, std::int64_t extent, std::string name = "resized");
TypeRef type_dup(const TypeRef& oldtype, std::string name = "dup");

}  // namespace mpisim::mpi
