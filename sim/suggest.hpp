#pragma once
// "Did you mean": the known name closest to a misspelled one.
#include <cstddef>
#include <string>
#include <string_view>

namespace mpisim::sim {

// Offer each known name with consider(); best() is the one closest to the word by
// edit distance (an insertion, a deletion, a substitution or a swap of two
// neighbouring characters is one edit; letter case costs nothing), if it is
// close enough to be a slip: at most 1 edit in a word of up to 4 characters, 2
// up to 8, 3 beyond. Of equally close names the first offered wins.
class Suggestion {
 public:
  explicit Suggestion(std::string_view word);
  void consider(std::string_view name);
  // The closest name, or "" when none is close enough. The callers ask about
  // words that are not known names; one that differs only in case is suggested.
  const std::string& best() const { return best_; }
  // " (did you mean \"NAME\"?)", or "" when there is no suggestion.
  std::string hint() const;

 private:
  std::string word_;  // lower case
  std::size_t limit_;
  std::size_t best_distance_;
  std::string best_;
};

// The distance consider() uses: the optimal string alignment distance of the two
// words in lower case.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace mpisim::sim
