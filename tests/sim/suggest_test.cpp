// "Did you mean": the closest known name within a few edits, or none.
#include <doctest/doctest.h>

#include "sim/suggest.hpp"

using mpisim::sim::edit_distance;
using mpisim::sim::Suggestion;

namespace {
std::string best(const char* word, std::initializer_list<const char*> names) {
  Suggestion s(word);
  for (const char* n : names) s.consider(n);
  return s.best();
}
}  // namespace

TEST_CASE("edit distance: insertions, deletions, substitutions and neighbour swaps cost one, case nothing") {
  CHECK(edit_distance("run", "run") == 0);
  CHECK(edit_distance("rnu", "run") == 1);       // a swap
  CHECK(edit_distance("MPI_Bcst", "MPI_Bcast") == 1);
  CHECK(edit_distance("colr", "colR") == 0);
  CHECK(edit_distance("datatpe", "datatype") == 1);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
}

TEST_CASE("a suggestion is the closest name within the word's limit, the first of equals") {
  CHECK(best("rnu", {"check", "run", "cost"}) == "run");
  CHECK(best("--rank", {"--network", "--ranks", "--payload"}) == "--ranks");
  CHECK(best("MPI_Scaterv", {"MPI_Scatter", "MPI_Scatterv", "MPI_Gatherv"}) == "MPI_Scatterv");
  CHECK(best("bogus", {"run", "check", "explain", "cost", "calibrate", "cc"}).empty());
  // Up to 4 characters one edit, up to 8 two, beyond three.
  CHECK(best("ab", {"xy"}).empty());
  CHECK(best("abcd", {"abxy"}).empty());
  CHECK(best("abcdefgh", {"abcdefxy"}) == "abcdefxy");
  CHECK(best("abcdefghij", {"abcdefgxyz"}) == "abcdefgxyz");
  CHECK(best("abcdefghij", {"abcdefwxyz"}).empty());
  CHECK(best("cat", {"bat", "cut"}) == "bat");
  Suggestion none("zzz");
  CHECK(none.hint().empty());
  Suggestion one("progam");
  one.consider("program");
  CHECK(one.hint() == " (did you mean \"program\"?)");
}
