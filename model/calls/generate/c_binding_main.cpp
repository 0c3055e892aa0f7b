// mpisim_c_binding TEMPLATE MPI_H ENTRY_POINTS COLLECTIVES PROFILING: writes mpi.h
// from its template and the call table, the list of C entry points mpisim must
// define, the collectives' entry points, and the linker script of the PMPI_ names. Run by
// the build (CMakeLists.txt); writes a file only when its text changes, so that
// what includes it is not rebuilt for nothing.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "model/calls/c_binding.hpp"

namespace {

bool write_if_changed(const std::string& path, const std::string& text) {
  {
    std::ifstream in(path, std::ios::binary);
    std::stringstream old;
    old << in.rdbuf();
    if (in && old.str() == text) return true;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: mpisim_c_binding TEMPLATE MPI_H ENTRY_POINTS COLLECTIVES PROFILING\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "mpisim_c_binding: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::stringstream tmpl;
  tmpl << in.rdbuf();
  std::ostringstream header, entries, collectives, profiling;
  try {
    mpisim::calls::write_mpi_h(header, tmpl.str());
  } catch (const std::exception& e) {
    std::cerr << "mpisim_c_binding: " << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
  try {
    mpisim::calls::write_entry_points(entries);
    mpisim::calls::write_collective_entry_points(collectives);
    mpisim::calls::write_profiling_names(profiling);
  } catch (const std::exception& e) {
    std::cerr << "mpisim_c_binding: " << e.what() << "\n";
    return 1;
  }
  for (const auto& [path, text] : {std::pair{argv[2], header.str()}, std::pair{argv[3], entries.str()},
                                   std::pair{argv[4], collectives.str()}, std::pair{argv[5], profiling.str()}})
    if (!write_if_changed(path, text)) {
      std::cerr << "mpisim_c_binding: cannot write " << path << "\n";
      return 1;
    }
  return 0;
}
