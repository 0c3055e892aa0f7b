#pragma once
// The C binding's text, written from the call table: mpi.h's prototypes, and the
// list of entry points mpisim defines (the build writes both; CMakeLists.txt).
#include <ostream>
#include <string_view>

namespace mpisim::calls {

// Every call's C prototype (rows, then the aliases C declares), grouped by family
// under a comment.
void write_prototypes(std::ostream& out);
// `header_template` with its @MPISIM_PROTOTYPES@ line replaced by the prototypes.
// Throws std::runtime_error if the template has no such line.
void write_mpi_h(std::ostream& out, std::string_view header_template);
// A C++ source that takes the address of every C entry point the table declares,
// so that linking mpisim fails while one has no definition.
void write_entry_points(std::ostream& out);
// A C++ source defining the C entry points of every collective row (blocking,
// nonblocking, persistent) and of their large-count forms (MPI_Bcast_c).
void write_collective_entry_points(std::ostream& out);
// A linker script that defines each entry point's profiling name (PMPI_Send) as
// the entry point itself.
void write_profiling_names(std::ostream& out);

}  // namespace mpisim::calls
