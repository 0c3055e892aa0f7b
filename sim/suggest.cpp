#include "sim/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace mpisim::sim {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::size_t distance_lower(const std::string& a, const std::string& b) {
  // Three rows of the dynamic programme: the swap looks two rows back.
  const std::size_t n = b.size();
  std::vector<std::size_t> before(n + 1), previous(n + 1), current(n + 1);
  for (std::size_t j = 0; j <= n; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[n];
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) { return distance_lower(lower(a), lower(b)); }

Suggestion::Suggestion(std::string_view word)
    : word_(lower(word)),
      limit_(word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3),
      best_distance_(limit_ + 1) {}

void Suggestion::consider(std::string_view name) {
  // Words far longer or shorter than the limit allows cannot be close.
  const std::size_t gap = name.size() > word_.size() ? name.size() - word_.size() : word_.size() - name.size();
  if (gap > limit_) return;
  const std::size_t d = distance_lower(word_, lower(name));
  if (d < best_distance_) {
    best_distance_ = d;
    best_ = std::string(name);
  }
}

std::string Suggestion::hint() const { return best_.empty() ? "" : " (did you mean \"" + best_ + "\"?)"; }

}  // namespace mpisim::sim
