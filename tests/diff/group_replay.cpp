// Differential test of groups, mpisim's side: reads the lines group_oracle printed
// under a real MPI, replays every operation on mpisim's groups and compares the
// results (members in order, compare results, translated ranks). Prints
// "N passed, M failed" and exits non-zero on any mismatch.
//
// Known deviation of MPICH 4.0 from the standard, where mpisim follows the standard:
// MPI_Group_translate_ranks into an empty group2 returns MPI_UNDEFINED for an input
// of MPI_PROC_NULL; MPI-4.1 §7.3.1 says MPI_PROC_NULL translates to MPI_PROC_NULL.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "model/mpi/constants.hpp"
#include "model/mpi/group.hpp"

using mpisim::mpi::Group;
using mpisim::mpi::GroupRef;
using mpisim::mpi::RankRange;
using V = std::vector<std::int64_t>;

namespace {

V read_ints(std::istringstream& in, std::int64_t n) {
  V v(static_cast<std::size_t>(n));
  for (auto& x : v) in >> x;
  return v;
}

V rest_after_arrow(std::istringstream& in) {
  std::string arrow;
  in >> arrow;
  V v;
  for (std::int64_t x; in >> x;) v.push_back(x);
  return v;
}

std::string text(const V& v) {
  std::string s;
  for (auto x : v) {
    s += ' ';
    s += std::to_string(x);
  }
  return s;
}

}  // namespace

int main() {
  std::int64_t world_size = 0, passed = 0, failed = 0, sequences = 0, deviations = 0;
  std::vector<GroupRef> g(16);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string op;
    in >> op;
    if (op == "world") {
      in >> world_size;
      continue;
    }
    if (op == "sequence") {
      ++sequences;
      g.assign(16, nullptr);
      g[0] = Group::range(0, world_size);
      continue;
    }
    V got, want;
    try {
      if (op == "incl" || op == "excl") {
        std::int64_t k, a, n;
        in >> k >> a >> n;
        V ranks = read_ints(in, n);
        g[static_cast<std::size_t>(k)] = op == "incl" ? g[static_cast<std::size_t>(a)]->incl(ranks)
                                                       : g[static_cast<std::size_t>(a)]->excl(ranks);
        got = g[static_cast<std::size_t>(k)]->members();
      } else if (op == "range_incl" || op == "range_excl") {
        std::int64_t k, a, n;
        in >> k >> a >> n;
        std::vector<RankRange> r(static_cast<std::size_t>(n));
        for (auto& t : r) in >> t.first >> t.last >> t.stride;
        g[static_cast<std::size_t>(k)] = op == "range_incl" ? g[static_cast<std::size_t>(a)]->range_incl(r)
                                                             : g[static_cast<std::size_t>(a)]->range_excl(r);
        got = g[static_cast<std::size_t>(k)]->members();
      } else if (op == "union" || op == "intersection" || op == "difference") {
        std::int64_t k, a, b;
        in >> k >> a >> b;
        const Group& x = *g[static_cast<std::size_t>(a)];
        const Group& y = *g[static_cast<std::size_t>(b)];
        g[static_cast<std::size_t>(k)] = op == "union" ? Group::set_union(x, y)
                                         : op == "intersection" ? Group::intersection(x, y)
                                                                : Group::difference(x, y);
        got = g[static_cast<std::size_t>(k)]->members();
      } else if (op == "compare") {
        std::int64_t a, b;
        in >> a >> b;
        got = {static_cast<std::int64_t>(Group::compare(*g[static_cast<std::size_t>(a)], *g[static_cast<std::size_t>(b)]))};
      } else if (op == "rank") {
        std::int64_t a;
        in >> a;
        const Group& x = *g[static_cast<std::size_t>(a)];
        got = {x.rank_of(0), x.size()};  // the oracle's caller is world rank 0
      } else if (op == "translate") {
        std::int64_t a, b, n;
        in >> a >> b >> n;
        V ranks = read_ints(in, n);
        got = Group::translate(*g[static_cast<std::size_t>(a)], ranks, *g[static_cast<std::size_t>(b)]);
        want = rest_after_arrow(in);
        if (g[static_cast<std::size_t>(b)]->size() == 0 && want.size() == got.size()) {
          for (std::size_t i = 0; i < got.size(); ++i)
            if (ranks[i] == mpisim::mpi::PROC_NULL && want[i] == mpisim::mpi::UNDEFINED && got[i] == mpisim::mpi::PROC_NULL) {
              want[i] = got[i];
              ++deviations;
            }
        }
        if (got == want) ++passed;
        else {
          ++failed;
          std::cerr << "sequence " << sequences - 1 << ": " << line << "\n  mpisim gives:" << text(got) << "\n";
        }
        continue;
      } else {
        std::cerr << "unknown line: " << line << "\n";
        ++failed;
        continue;
      }
      want = rest_after_arrow(in);
    } catch (const std::exception& e) {
      std::cerr << "sequence " << sequences - 1 << ": " << line << "\n  mpisim raised: " << e.what() << "\n";
      ++failed;
      continue;
    }
    if (got == want) {
      ++passed;
    } else {
      ++failed;
      std::cerr << "sequence " << sequences - 1 << ": " << line << "\n  mpisim gives:" << text(got) << "\n";
    }
  }
  std::cout << sequences << " sequences against the real MPI; " << deviations
            << " results differ where MPICH deviates from the standard (translate of MPI_PROC_NULL into an empty group)\n"
            << passed << " passed, " << failed << " failed\n";
  return failed == 0 && passed > 0 ? 0 : 1;
}
