// Differential test of MPI_Dims_create, mpisim's side: reads the lines dims_oracle
// printed under a real MPI ("nnodes ndims dims-before -> dims-after"), runs
// mpisim's dims_create on each dims-before and compares the result. Prints
// "N passed, M failed" and exits non-zero on any mismatch.
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "model/mpi/topology.hpp"

namespace {

std::string text(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += ' ' + std::to_string(x);
  return s;
}

}  // namespace

int main() {
  long passed = 0, failed = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    int nnodes = 0, ndims = 0;
    std::string arrow;
    in >> nnodes >> ndims;
    std::vector<int> dims(static_cast<std::size_t>(ndims)), want(static_cast<std::size_t>(ndims));
    for (int& x : dims) in >> x;
    in >> arrow;
    for (int& x : want) in >> x;
    if (!in || arrow != "->") {
      std::cerr << "unreadable line: " << line << "\n";
      ++failed;
      continue;
    }
    try {
      mpisim::mpi::dims_create(nnodes, dims);
    } catch (const std::exception& e) {
      std::cerr << line << "\n  mpisim raised: " << e.what() << "\n";
      ++failed;
      continue;
    }
    if (dims == want) {
      ++passed;
    } else {
      ++failed;
      std::cerr << line << "\n  mpisim gives:" << text(dims) << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
