#include "sim/cli/figure.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/report.hpp"

namespace mpisim::cli {
namespace {

using Json = nlohmann::json;

// The viewer's rank palette, so a figure and the page colour a rank alike.
constexpr const char* kPalette[] = {"#8ecae6", "#ffb703", "#90be6d", "#f4978e", "#cdb4db", "#f9c74f", "#a3c4bc", "#ffafcc",
                                    "#bde0fe", "#e9c46a", "#b5e48c", "#f28482", "#d0b8e8", "#ffd6a5", "#9bf6ff", "#caffbf"};
constexpr const char* kUnknown = "#eef0f3";

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string rank_text(const std::vector<int>& ranks) {
  if (ranks.size() > 4 && ranks.back() - ranks.front() == static_cast<int>(ranks.size()) - 1)
    return std::to_string(ranks.front()) + ".." + std::to_string(ranks.back());
  std::string s;
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? "+" : "") + std::to_string(ranks[i]);
  return s;
}

// What a cell shows of a region's contents: where its data came from (one rank,
// several combined, several, or unknown) and its values in short.
struct Cell {
  std::string values;
  int origin = -1;          // the rank, when every element came from one
  std::vector<int> ranks;   // combined from these (a reduction), when not empty
  bool mixed = false;       // elements from different ranks
  std::string argument;
  int block = -1;
  std::string buffer;
  std::int64_t first = 0, count = 0;  // the elements of the buffer the region covers
};

Cell cell_of(const Json& region, const Json& data) {
  Cell c;
  c.argument = region.value("argument", "");
  c.block = region.value("block", -1);
  c.buffer = data.value("buffer", "");
  c.first = data.value("first", std::int64_t{0});
  c.count = data.value("count", std::int64_t{0});
  if (!data.contains("values") || data["values"].is_null()) {
    c.values = "no data";
    return c;
  }
  c.values = compact_snapshot(data.dump());
  if (!data.contains("origins")) return c;
  std::map<int, std::vector<int>> combined;
  if (data.contains("combined"))
    for (const auto& k : data["combined"]) combined[k["origin"].get<int>()] = k["ranks"].get<std::vector<int>>();
  bool first = true;
  for (const auto& o : data["origins"]) {
    const int v = o.get<int>();
    if (first) {
      c.origin = v;
      first = false;
    } else if (v != c.origin) {
      c.mixed = true;
    }
  }
  if (!c.mixed && c.origin <= -2) {
    c.ranks = combined[c.origin];
    c.origin = -1;
  }
  if (c.mixed) c.origin = -1;
  return c;
}

}  // namespace

std::string figure_svg(const std::string& title, const std::string& definition, const std::vector<std::string>& rows_json) {
  std::vector<Json> rows;
  for (const auto& r : rows_json) {
    rows.push_back(Json::parse(r));
    // Inputs first, as the standard's figures read: what the call reads, then what it writes.
    auto& regions = rows.back()["regions"];
    std::stable_sort(regions.begin(), regions.end(), [](const Json& a, const Json& b) { return !a["writes"] && b["writes"]; });
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Json& a, const Json& b) { return a["rank"] < b["rank"]; });
  constexpr std::size_t kMaxRows = 32;
  const bool cut = rows.size() > kMaxRows;
  if (cut) rows.resize(kMaxRows);
  // The cells of each row, before and after.
  std::vector<std::vector<Cell>> before(rows.size()), after(rows.size());
  std::size_t widest = 1;
  std::vector<int> origins;
  bool any_combined = false, any_initial = false, any_mixed = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (const auto& region : rows[i]["regions"]) {
      before[i].push_back(cell_of(region, region["before"]));
      after[i].push_back(cell_of(region, region["after"]));
    }
    widest = std::max(widest, before[i].size());
    for (const auto* side : {&before[i], &after[i]})
      for (const Cell& c : *side) {
        if (c.origin >= 0) origins.push_back(c.origin);
        any_combined = any_combined || !c.ranks.empty();
        any_initial = any_initial || (c.origin < 0 && c.ranks.empty() && !c.mixed && c.values != "no data");
        any_mixed = any_mixed || c.mixed;
      }
  }
  std::sort(origins.begin(), origins.end());
  origins.erase(std::unique(origins.begin(), origins.end()), origins.end());
  const int cw = widest <= 4 ? 84 : widest <= 8 ? 64 : widest <= 16 ? 44 : 28, ch = 30, gap = 2;
  const int label = 110, panel = static_cast<int>(widest) * (cw + gap), arrow = 50, top = 78;
  const int width = label + 2 * panel + arrow + 20;
  const int height = top + static_cast<int>(rows.size()) * (ch + 16) + 60 + (cut ? 18 : 0);
  std::ostringstream o;
  o << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << width << "\" height=\"" << height << R"(" font-family="sans-serif" font-size="11">)"
    << "\n<defs><pattern id=\"combined\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f1edf7\"/><rect width=\"3\" height=\"6\" "
       "fill=\"#d9d2e9\"/></pattern></defs>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << escape(title) << "</text>\n"
    << "<text x=\"10\" y=\"38\" fill=\"#3b4a58\">" << escape(definition.size() > 180 ? definition.substr(0, 177) + "..." : definition)
    << "</text>\n";
  const int x_before = label, x_after = label + panel + arrow;
  o << "<text x=\"" << x_before << "\" y=\"" << top - 14 << "\" font-weight=\"bold\">before the call</text>\n"
    << "<text x=\"" << x_after << "\" y=\"" << top - 14 << "\" font-weight=\"bold\">after the call</text>\n";
  auto draw = [&](const std::vector<Cell>& cells, int x0, int y, int rank, const char* side) {
    int x = x0;
    std::string last_argument;
    for (const Cell& c : cells) {
      const std::string fill = !c.ranks.empty() ? "url(#combined)" : c.origin >= 0 ? kPalette[c.origin % 16] : kUnknown;
      std::string from = !c.ranks.empty() ? "combined from ranks " + rank_text(c.ranks)
                         : c.origin >= 0  ? "from rank " + std::to_string(c.origin)
                         : c.mixed        ? "from several ranks"
                                          : "origin unknown";
      const std::string where =
          c.argument + (c.block >= 0 ? " block " + std::to_string(c.block) : "") +
          (c.buffer.empty() ? ""
                            : " (" + c.buffer + (c.count > 1 ? " elements " + std::to_string(c.first) + ".." +
                                                                   std::to_string(c.first + c.count - 1)
                                                             : " element " + std::to_string(c.first)) + ")");
      o << "<g class=\"cell\" data-rank=\"" << rank << "\" data-side=\"" << side << "\" data-argument=\"" << escape(c.argument)
        << "\" data-block=\"" << c.block << "\" data-origin=\"" << c.origin << "\"><title>rank " << rank << ", " << escape(where)
        << ": " << escape(c.values) << "\n" << escape(from) << "</title>"
        << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cw << "\" height=\"" << ch << "\" fill=\"" << fill
        // A rank's own data is faint, so what arrived from others stands out.
        << (c.origin == rank ? "\" fill-opacity=\"0.35" : "") << "\" stroke=\"#20303f\" stroke-width=\"0.5\"/>";
      const std::size_t fits = static_cast<std::size_t>(std::max(1, (cw - 6) / 6));
      auto shorten = [fits](std::string t) { return t.size() > fits ? t.substr(0, fits > 1 ? fits - 1 : 1) + "…" : t; };
      if (c.ranks.empty())
        o << "<text x=\"" << x + 3 << "\" y=\"" << y + 19 << "\">" << escape(shorten(c.values)) << "</text></g>\n";
      else  // a reduction's result: the ranks it combines, and its values
        o << "<text x=\"" << x + 3 << "\" y=\"" << y + 12 << "\" font-size=\"10\">" << escape(shorten("Σ " + rank_text(c.ranks)))
          << "</text><text x=\"" << x + 3 << "\" y=\"" << y + 25 << "\" font-size=\"10\">" << escape(shorten(c.values))
          << "</text></g>\n";
      if (c.argument != last_argument)
        o << "<text x=\"" << x << "\" y=\"" << y + ch + 11 << "\" font-size=\"9\" fill=\"#5b6875\">" << escape(c.argument)
          << "</text>\n";
      last_argument = c.argument;
      x += cw + gap;
    }
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const int y = top + static_cast<int>(i) * (ch + 16);
    const int rank = rows[i]["rank"].get<int>();
    const std::string role = rows[i].value("role", "");
    o << "<text x=\"10\" y=\"" << y + 19 << "\">rank " << rank << (role == "root" ? " (root)" : "") << "</text>\n";
    draw(before[i], x_before, y, rank, "before");
    draw(after[i], x_after, y, rank, "after");
  }
  const int ya = top + static_cast<int>(rows.size()) * (ch + 16) / 2;
  o << "<path d=\"M" << x_before + panel + 8 << "," << ya << " L" << x_after - 10 << "," << ya << "\" stroke=\"#20303f\" "
    << "stroke-width=\"2\"/><path d=\"M" << x_after - 10 << "," << ya - 5 << " L" << x_after - 2 << "," << ya << " L"
    << x_after - 10 << "," << ya + 5 << " z\" fill=\"#20303f\"/>\n";
  int y = top + static_cast<int>(rows.size()) * (ch + 16) + 14;
  if (cut) {
    o << "<text x=\"10\" y=\"" << y << "\">(the first " << kMaxRows << " ranks)</text>\n";
    y += 18;
  }
  // The legend: the colours of the ranks whose data appears, combined data, the rest.
  int x = 10;
  o << "<g class=\"legend\">";
  for (int r : origins) {
    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\"" << kPalette[r % 16] << "\"/><text x=\""
      << x + 16 << "\" y=\"" << y + 10 << "\">rank " << r << "'s data</text>";
    x += 100;
    if (x > width - 120) x = 10, y += 18;
  }
  if (any_combined) {
    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\"url(#combined)\"/><text x=\"" << x + 16
      << "\" y=\"" << y + 10 << "\">combined from several ranks (Σ)</text>";
    x += 210;
    if (x > width - 120) x = 10, y += 18;
  }
  if (any_initial || any_mixed)
    o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\"" << kUnknown
      << "\" stroke=\"#9aa7b4\"/><text x=\"" << x + 16 << "\" y=\"" << y + 10 << "\">"
      << (any_initial && any_mixed ? "data of unknown origin, or from several ranks (see the tooltip)"
          : any_mixed              ? "data from several ranks (see the tooltip)"
                                   : "data of unknown origin") << "</text>";
  o << "</g>\n</svg>\n";
  return o.str();
}

}  // namespace mpisim::cli
