#pragma once
// `mpisim cost`: every eligible algorithm of one collective, timed on a network
// for each (rank count, message size) of a sweep; a table, JSON Lines, CSV and an
// SVG plot. docs/cost.md describes the command and its output.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace mpisim::cli {

struct CostFlags {
  std::string collective;                // "MPI_Allreduce"
  std::string ranks = "16";
  std::string bytes = "8..1MiB";
  std::string network;                   // empty: the built-in network
  std::vector<std::string> algorithms;   // empty: every eligible one
  std::string payload = "sizes";
  std::string json, csv, svg;
  std::string shard;                     // "i/n"
  std::string mpich_tuning, ompi_rules;  // tuning files to write (model/coll/deploy.hpp)
  std::string selection;                 // a tuning file to read (model/coll/selection.hpp): a column of its choices
  bool quiet = false;
};

// A sweep as written on the command line: "64", "4,16,64", "8..16MiB" or
// "8..16MiB:4" (a geometric range; the factor defaults to the smallest power of
// two that gives at most 12 points; the end point is always included). Throws
// sim::InputError naming `option`.
std::vector<std::uint64_t> parse_sweep(const std::string& text, const std::string& option, bool bytes);

int run_cost(const CostFlags& f, std::ostream& out, std::ostream& err);

}  // namespace mpisim::cli
