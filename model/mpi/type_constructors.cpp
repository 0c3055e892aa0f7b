#include "model/mpi/type_constructors.hpp"

#include <algorithm>

#include "model/mpi/error.hpp"

namespace mpisim::mpi {
namespace {

using Block = Datatype::Block;
using Contents = Datatype::Contents;

constexpr const char* kRuleCount = "MPI-4.1 §5.1.2: counts and block lengths are non-negative integers";

void non_negative(std::int64_t v, const std::string& argument) {
  if (v < 0)
    throw MpiError(ErrorClass::count, argument, argument + " = " + std::to_string(v) + " is negative", kRuleCount);
}

void same_length(std::size_t a, std::size_t b, const char* what_a, const char* what_b) {
  if (a != b)
    throw MpiError(ErrorClass::arg, what_b,
                   std::string(what_a) + " has " + std::to_string(a) + " entries but " + what_b + " has " +
                       std::to_string(b),
                   "MPI-4.1 §5.1.2: the arrays of a constructor have count entries each");
}

// a × b for a displacement or a stride in bytes, checked: past 2^62 it is an
// MpiError naming the argument, never a wrapped number.
std::int64_t times(std::int64_t a, std::int64_t b, const std::string& argument) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r) || r > (std::int64_t{1} << 62) || r < -(std::int64_t{1} << 62))
    throw MpiError(ErrorClass::arg, argument,
                   argument + ": " + std::to_string(a) + " x " + std::to_string(b) +
                       " bytes is beyond any address (over 2^62)",
                   "MPI-4.1 §2.5.6: displacements and extents are addresses (MPI_Aint)");
  return r;
}

// The most blocks one constructor makes: beyond it the type's own description
// would not fit in memory (a vector of 2^40 blocks); the run stops with LIMIT_MEMORY.
constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 24;
void bounded_blocks(std::int64_t n, const char* argument) {
  if (n > kMaxBlocks)
    throw LimitError("memory", std::string(argument) + " = " + std::to_string(n) +
                                   " blocks: mpisim describes a datatype of at most 16,777,216 blocks per "
                                   "constructor (nest constructors for more)");
}

void not_marker(const TypeRef& t, const char* argument) {
  if (t->combiner() == Combiner::marker)
    throw MpiError(ErrorClass::type, argument, t->name() + " may only appear in MPI_Type_struct",
                   "MPI-4.1 §5.1.7: the MPI-1 markers MPI_LB and MPI_UB are type-map entries of struct types");
}

}  // namespace

TypeRef type_contiguous(std::int64_t count, const TypeRef& oldtype, std::string name) {
  non_negative(count, "count");
  not_marker(oldtype, "oldtype");
  return Datatype::make_derived(std::move(name), Combiner::contiguous, {Block{oldtype, 0, count}}, false,
                                Contents{{count}, {}, {oldtype}});
}

namespace {
// count blocks of blocklength elements, the starts `stride_bytes` apart.
TypeRef strided(Combiner combiner, std::int64_t count, std::int64_t blocklength, std::int64_t stride_bytes,
                const TypeRef& oldtype, std::string name, Contents contents) {
  non_negative(count, "count");
  non_negative(blocklength, "blocklength");
  not_marker(oldtype, "oldtype");
  bounded_blocks(count, "count");
  if (count > 1) times(count - 1, stride_bytes, "stride");  // the last block's start, and so every one, fits
  std::vector<Block> blocks;
  blocks.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) blocks.push_back(Block{oldtype, i * stride_bytes, blocklength});
  return Datatype::make_derived(std::move(name), combiner, std::move(blocks), false, std::move(contents));
}
}  // namespace

TypeRef type_hvector(std::int64_t count, std::int64_t blocklength, std::int64_t stride_bytes, const TypeRef& oldtype,
                     std::string name) {
  return strided(Combiner::hvector, count, blocklength, stride_bytes, oldtype, std::move(name),
                 Contents{{count, blocklength}, {stride_bytes}, {oldtype}});
}

TypeRef type_vector(std::int64_t count, std::int64_t blocklength, std::int64_t stride, const TypeRef& oldtype,
                    std::string name) {
  return strided(Combiner::vector, count, blocklength, times(stride, oldtype->extent(), "stride"), oldtype, std::move(name),
                 Contents{{count, blocklength, stride}, {}, {oldtype}});
}

TypeRef type_hindexed(const std::vector<std::int64_t>& blocklengths, const std::vector<std::int64_t>& displacements_bytes,
                      const TypeRef& oldtype, std::string name) {
  same_length(blocklengths.size(), displacements_bytes.size(), "array_of_blocklengths", "array_of_displacements");
  not_marker(oldtype, "oldtype");
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < blocklengths.size(); ++i) {
    non_negative(blocklengths[i], "array_of_blocklengths[" + std::to_string(i) + "]");
    blocks.push_back(Block{oldtype, displacements_bytes[i], blocklengths[i]});
  }
  Contents c{{static_cast<std::int64_t>(blocklengths.size())}, displacements_bytes, {oldtype}};
  c.integers.insert(c.integers.end(), blocklengths.begin(), blocklengths.end());
  return Datatype::make_derived(std::move(name), Combiner::hindexed, std::move(blocks), false, std::move(c));
}

TypeRef type_indexed(const std::vector<std::int64_t>& blocklengths, const std::vector<std::int64_t>& displacements,
                     const TypeRef& oldtype, std::string name) {
  same_length(blocklengths.size(), displacements.size(), "array_of_blocklengths", "array_of_displacements");
  not_marker(oldtype, "oldtype");
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < blocklengths.size(); ++i) {
    non_negative(blocklengths[i], "array_of_blocklengths[" + std::to_string(i) + "]");
    blocks.push_back(Block{oldtype, times(displacements[i], oldtype->extent(), "array_of_displacements"), blocklengths[i]});
  }
  Contents c{{static_cast<std::int64_t>(blocklengths.size())}, {}, {oldtype}};
  c.integers.insert(c.integers.end(), blocklengths.begin(), blocklengths.end());
  c.integers.insert(c.integers.end(), displacements.begin(), displacements.end());
  return Datatype::make_derived(std::move(name), Combiner::indexed, std::move(blocks), false, std::move(c));
}

TypeRef type_indexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& displacements,
                           const TypeRef& oldtype, std::string name) {
  non_negative(blocklength, "blocklength");
  not_marker(oldtype, "oldtype");
  std::vector<Block> blocks;
  for (auto d : displacements) blocks.push_back(Block{oldtype, times(d, oldtype->extent(), "array_of_displacements"), blocklength});
  Contents c{{static_cast<std::int64_t>(displacements.size()), blocklength}, {}, {oldtype}};
  c.integers.insert(c.integers.end(), displacements.begin(), displacements.end());
  return Datatype::make_derived(std::move(name), Combiner::indexed_block, std::move(blocks), false, std::move(c));
}

TypeRef type_hindexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& displacements_bytes,
                            const TypeRef& oldtype, std::string name) {
  non_negative(blocklength, "blocklength");
  not_marker(oldtype, "oldtype");
  std::vector<Block> blocks;
  for (auto d : displacements_bytes) blocks.push_back(Block{oldtype, d, blocklength});
  return Datatype::make_derived(std::move(name), Combiner::hindexed_block, std::move(blocks), false,
                                Contents{{static_cast<std::int64_t>(displacements_bytes.size()), blocklength},
                                         displacements_bytes, {oldtype}});
}

TypeRef type_struct(const std::vector<std::int64_t>& blocklengths, const std::vector<std::int64_t>& displacements_bytes,
                    const std::vector<TypeRef>& types, std::string name) {
  same_length(blocklengths.size(), displacements_bytes.size(), "array_of_blocklengths", "array_of_displacements");
  same_length(blocklengths.size(), types.size(), "array_of_blocklengths", "array_of_types");
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < blocklengths.size(); ++i) {
    non_negative(blocklengths[i], "array_of_blocklengths[" + std::to_string(i) + "]");
    blocks.push_back(Block{types[i], displacements_bytes[i], blocklengths[i]});
  }
  Contents c{{static_cast<std::int64_t>(blocklengths.size())}, displacements_bytes, types};
  c.integers.insert(c.integers.end(), blocklengths.begin(), blocklengths.end());
  return Datatype::make_derived(std::move(name), Combiner::struct_, std::move(blocks), true, std::move(c));
}

TypeRef type_subarray(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& subsizes,
                      const std::vector<std::int64_t>& starts, Order order, const TypeRef& oldtype, std::string name) {
  const std::size_t n = sizes.size();
  if (n == 0)
    throw MpiError(ErrorClass::arg, "ndims", "ndims = 0", "MPI-4.1 §5.1.3: ndims is positive");
  same_length(n, subsizes.size(), "array_of_sizes", "array_of_subsizes");
  same_length(n, starts.size(), "array_of_sizes", "array_of_starts");
  not_marker(oldtype, "oldtype");
  for (std::size_t d = 0; d < n; ++d) {
    std::string dim = "[" + std::to_string(d) + "]";
    if (sizes[d] < 1)
      throw MpiError(ErrorClass::arg, "array_of_sizes", "array_of_sizes" + dim + " = " + std::to_string(sizes[d]),
                     "MPI-4.1 §5.1.3: every size is positive");
    if (subsizes[d] < 1 || subsizes[d] > sizes[d])
      throw MpiError(ErrorClass::arg, "array_of_subsizes",
                     "array_of_subsizes" + dim + " = " + std::to_string(subsizes[d]) + " is not in 1.." +
                         std::to_string(sizes[d]),
                     "MPI-4.1 §5.1.3: 1 <= subsize <= size in every dimension");
    if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
      throw MpiError(ErrorClass::arg, "array_of_starts",
                     "array_of_starts" + dim + " = " + std::to_string(starts[d]) + " is not in 0.." +
                         std::to_string(sizes[d] - subsizes[d]),
                     "MPI-4.1 §5.1.3: 0 <= start <= size - subsize in every dimension");
  }
  // Dimensions from the fastest-varying outwards: the last in C order, the first in Fortran.
  std::vector<std::size_t> dims(n);
  for (std::size_t i = 0; i < n; ++i) dims[i] = order == Order::c ? n - 1 - i : i;
  const std::int64_t ext = oldtype->extent();
  TypeRef t = type_contiguous(subsizes[dims[0]], oldtype);
  std::int64_t stride = times(ext, sizes[dims[0]], "array_of_sizes");
  std::int64_t offset = times(starts[dims[0]], ext, "array_of_starts");
  for (std::size_t i = 1; i < n; ++i) {
    t = type_hvector(subsizes[dims[i]], 1, stride, t);
    offset += times(starts[dims[i]], stride, "array_of_starts");
    stride = times(stride, sizes[dims[i]], "array_of_sizes");
  }
  // The subarray keeps its place in the full array: lb 0, extent the whole array.
  TypeRef placed = Datatype::make_derived("subarray-placed", Combiner::hindexed, {Datatype::Block{t, offset, 1}}, false, {});
  Contents c{{static_cast<std::int64_t>(n)}, {}, {oldtype}};
  for (const auto* v : {&sizes, &subsizes, &starts}) c.integers.insert(c.integers.end(), v->begin(), v->end());
  c.integers.push_back(order == Order::c ? 56 : 57);  // MPI_ORDER_C / MPI_ORDER_FORTRAN (MPICH's values)
  TypeRef r = Datatype::make_resized(std::move(name), placed, 0, stride);
  auto out = std::const_pointer_cast<Datatype>(r);
  return Datatype::make_derived(out->name(), Combiner::subarray, {Datatype::Block{r, 0, 1}}, false, std::move(c));
}

TypeRef type_darray(std::int64_t size, std::int64_t rank, const std::vector<std::int64_t>& gsizes,
                    const std::vector<Distribution>& distribs, const std::vector<std::int64_t>& dargs,
                    const std::vector<std::int64_t>& psizes, Order order, const TypeRef& oldtype, std::string name) {
  const std::size_t n = gsizes.size();
  constexpr const char* kRule = "MPI-4.1 §5.1.4: the arguments of MPI_Type_create_darray";
  if (n == 0) throw MpiError(ErrorClass::arg, "ndims", "ndims = 0", kRule);
  same_length(n, distribs.size(), "array_of_gsizes", "array_of_distribs");
  same_length(n, dargs.size(), "array_of_gsizes", "array_of_dargs");
  same_length(n, psizes.size(), "array_of_gsizes", "array_of_psizes");
  not_marker(oldtype, "oldtype");
  std::int64_t procs = 1;
  for (auto p : psizes) {
    if (p < 1) throw MpiError(ErrorClass::arg, "array_of_psizes", "a process grid dimension is " + std::to_string(p), kRule);
    procs *= p;
  }
  if (procs != size)
    throw MpiError(ErrorClass::arg, "array_of_psizes",
                   "the process grid has " + std::to_string(procs) + " processes, not size = " + std::to_string(size),
                   "MPI-4.1 §5.1.4: the product of array_of_psizes must equal size");
  if (rank < 0 || rank >= size)
    throw MpiError(ErrorClass::rank, "rank", "rank = " + std::to_string(rank) + " is not in 0.." + std::to_string(size - 1), kRule);
  // The process's coordinates in the grid, row-major (C order) whatever `order` is.
  std::vector<std::int64_t> coord(n);
  for (std::size_t d = n, r = static_cast<std::size_t>(rank); d-- > 0;) {
    coord[d] = static_cast<std::int64_t>(r % static_cast<std::size_t>(psizes[d]));
    r /= static_cast<std::size_t>(psizes[d]);
  }
  // The indices this process owns along each dimension, ascending.
  std::vector<std::vector<std::int64_t>> owned(n);
  for (std::size_t d = 0; d < n; ++d) {
    std::string dim = "[" + std::to_string(d) + "]";
    if (gsizes[d] < 1) throw MpiError(ErrorClass::arg, "array_of_gsizes", "array_of_gsizes" + dim + " < 1", kRule);
    bounded_blocks(gsizes[d], "array_of_gsizes");
    const std::int64_t g = gsizes[d], p = psizes[d], c = coord[d];
    switch (distribs[d]) {
      case Distribution::none:
        if (p != 1)
          throw MpiError(ErrorClass::arg, "array_of_psizes", "array_of_psizes" + dim + " must be 1 for MPI_DISTRIBUTE_NONE", kRule);
        for (std::int64_t i = 0; i < g; ++i) owned[d].push_back(i);
        break;
      case Distribution::block: {
        std::int64_t b = dargs[d] == kDefaultDistributionArg ? (g + p - 1) / p : dargs[d];
        if (b < 1 || (b < g && b * p < g))
          throw MpiError(ErrorClass::arg, "array_of_dargs",
                         "array_of_dargs" + dim + " = " + std::to_string(b) + ": blocks of that size do not cover " +
                             std::to_string(g) + " elements on " + std::to_string(p) + " processes",
                         "MPI-4.1 §5.1.4: for MPI_DISTRIBUTE_BLOCK, darg * psize >= gsize");
        b = std::min(b, g);  // a block as large as the array: the first process owns it all
        for (std::int64_t i = c * b; i < std::min(g, (c + 1) * b); ++i) owned[d].push_back(i);
        break;
      }
      case Distribution::cyclic: {
        std::int64_t k = dargs[d] == kDefaultDistributionArg ? 1 : dargs[d];
        if (k < 1) throw MpiError(ErrorClass::arg, "array_of_dargs", "array_of_dargs" + dim + " < 1", kRule);
        k = std::min(k, g);
        for (std::int64_t start = c * k; start < g; start += k * p)
          for (std::int64_t i = start; i < std::min(g, start + k); ++i) owned[d].push_back(i);
        break;
      }
    }
  }
  // Nested from the fastest-varying dimension out: each level places the inner
  // type once per owned index, at that index's absolute offset.
  std::vector<std::size_t> dims(n);
  for (std::size_t i = 0; i < n; ++i) dims[i] = order == Order::c ? n - 1 - i : i;
  const std::int64_t ext = oldtype->extent();
  TypeRef t = oldtype;
  std::int64_t stride = ext;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& idx = owned[dims[i]];
    std::vector<Block> blocks;
    for (auto x : idx) blocks.push_back(Block{t, times(x, stride, "array_of_gsizes"), 1});
    t = Datatype::make_derived("darray-level", Combiner::hindexed, std::move(blocks), false, {});
    stride = times(stride, gsizes[dims[i]], "array_of_gsizes");
  }
  // MPI_Type_get_contents order: size, rank, ndims, gsizes, distribs, dargs, psizes, order.
  Contents c{{size, rank, static_cast<std::int64_t>(n)}, {}, {oldtype}};
  c.integers.insert(c.integers.end(), gsizes.begin(), gsizes.end());
  for (auto d : distribs) c.integers.push_back(d == Distribution::block ? 121 : d == Distribution::cyclic ? 122 : 123);
  c.integers.insert(c.integers.end(), dargs.begin(), dargs.end());
  c.integers.insert(c.integers.end(), psizes.begin(), psizes.end());
  c.integers.push_back(order == Order::c ? 56 : 57);
  TypeRef r = Datatype::make_resized(name, t, 0, stride);
  return Datatype::make_derived(std::move(name), Combiner::darray, {Block{r, 0, 1}}, false, std::move(c));
}

TypeRef type_resized(const TypeRef& oldtype, std::int64_t lb, std::int64_t extent, std::string name) {
  not_marker(oldtype, "oldtype");
  return Datatype::make_resized(std::move(name), oldtype, lb, extent);
}

TypeRef type_dup(const TypeRef& oldtype, std::string name) {
  not_marker(oldtype, "oldtype");
  return Datatype::make_dup(std::move(name), oldtype);
}

}  // namespace mpisim::mpi
