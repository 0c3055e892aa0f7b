// `mpisim cost`: sweeps, the timed results against closed forms, shards, outputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/cli/cost.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using mpisim::test::slurp;

using namespace mpisim;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

std::string temp(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

}  // namespace

TEST_CASE("sweeps: values, lists and geometric ranges that keep both ends") {
  using cli::parse_sweep;
  auto b = parse_sweep("8..16MiB", "--bytes", true);
  CHECK(b.size() == 12);
  CHECK(b.front() == 8);
  CHECK(b[1] == 32);
  CHECK(b.back() == 16u << 20);
  auto r = parse_sweep("4..4096", "--ranks", false);
  CHECK(r.size() == 11);
  CHECK(r[1] == 8);
  CHECK(parse_sweep("4..100:3", "--ranks", false) == std::vector<std::uint64_t>{4, 12, 36, 100});
  CHECK(parse_sweep("64,4,16,4", "--ranks", false) == std::vector<std::uint64_t>{4, 16, 64});
  CHECK(parse_sweep("1KiB", "--bytes", true) == std::vector<std::uint64_t>{1024});
  CHECK_THROWS_AS(parse_sweep("0", "--ranks", false), sim::InputError);
  CHECK_THROWS_AS(parse_sweep("16..8", "--ranks", false), sim::InputError);
  CHECK_THROWS_AS(parse_sweep("4..64:1", "--ranks", false), sim::InputError);
  CHECK_THROWS_AS(parse_sweep("4..64:0.5", "--ranks", false), sim::InputError);
  CHECK_THROWS_AS(parse_sweep("4..64:x", "--ranks", false), sim::InputError);
  // Fractional factors: lo·f^k rounded, strictly increasing, the end point kept.
  CHECK(parse_sweep("1000..2000:1.25", "--bytes", true) == std::vector<std::uint64_t>{1000, 1250, 1563, 1953, 2000});
  CHECK(parse_sweep("1..6:1.1", "--ranks", false) == std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6});
  CHECK_THROWS_AS(parse_sweep("8..lots", "--bytes", true), sim::InputError);
}

TEST_CASE("cost times every algorithm and marks the fastest, ring allgather meets its closed form") {
  // Hockney α = 1 us, β = 1 ns/B. Ring allgather on p ranks with b bytes per rank:
  // (p-1)(α + bβ).
  std::string net = temp("cost-test-net.json");
  std::ofstream(net) << R"({"mpisim-network": 1, "model": "hockney", "alpha": "1us", "beta": "1ns"})";
  cli::CostFlags f;
  f.collective = "MPI_Allgather";
  f.ranks = "4,8";
  f.bytes = "1KiB,64KiB";
  f.network = net;
  f.json = temp("cost-test.jsonl");
  f.csv = temp("cost-test.csv");
  f.svg = temp("cost-test.svg");
  std::ostringstream out, err;
  REQUIRE(cli::run_cost(f, out, err) == 0);
  auto rows = lines(slurp(f.json));
  // 2 rank counts x 2 sizes x 4 algorithms (recursive_doubling, bruck, ring,
  // neighbor; two_proc cannot run on 4 or 8 ranks).
  CHECK(rows.size() == 16);
  int best = 0;
  for (const auto& row : rows) best += row.find("\"best\":true") != std::string::npos;
  CHECK(best == 4);
  auto ring = std::find_if(rows.begin(), rows.end(), [](const std::string& r) {
    return r.find("\"ranks\":8,\"bytes\":65536,\"algorithm\":\"ring\"") != std::string::npos;
  });
  REQUIRE(ring != rows.end());
  CHECK(ring->find("\"time_ps\":" + std::to_string(7 * (1'000'000 + 65536 * 1000)) + ",") != std::string::npos);
  CHECK(lines(slurp(f.csv)).size() == 17);
  CHECK(slurp(f.csv).starts_with("collective,network,ranks,bytes,algorithm,time_ps,best,mpich_default\n"));
  CHECK(slurp(f.svg).find("<polyline") != std::string::npos);
  CHECK(out.str().find("MPI_Allgather on 8 ranks") != std::string::npos);
}

TEST_CASE("cost shards partition the points, their JSON Lines concatenate into the whole") {
  cli::CostFlags f;
  f.collective = "MPI_Bcast";
  f.ranks = "4..16";
  f.bytes = "8,4KiB";
  f.quiet = true;
  std::ostringstream out, err;
  f.json = temp("cost-whole.jsonl");
  REQUIRE(cli::run_cost(f, out, err) == 0);
  std::vector<std::string> parts;
  for (const char* s : {"1/3", "2/3", "3/3"}) {
    f.shard = s;
    f.json = temp("cost-part.jsonl");
    REQUIRE(cli::run_cost(f, out, err) == 0);
    for (auto& l : lines(slurp(f.json))) parts.push_back(l);
  }
  auto whole = lines(slurp(temp("cost-whole.jsonl")));
  std::sort(whole.begin(), whole.end());
  std::sort(parts.begin(), parts.end());
  CHECK(parts == whole);
  CHECK(out.str().empty());
  f.shard = "4/3";
  CHECK_THROWS_AS(cli::run_cost(f, out, err), sim::InputError);
}

TEST_CASE("cost refuses an unknown collective or algorithm") {
  cli::CostFlags f;
  f.collective = "MPI_Allreduc";
  std::ostringstream out, err;
  CHECK_THROWS_AS(cli::run_cost(f, out, err), sim::InputError);
  f.collective = "MPI_Allreduce";
  f.algorithms = {"fastest"};
  CHECK_THROWS_AS(cli::run_cost(f, out, err), sim::InputError);
}

TEST_CASE("cost shows MPICH's default choice and bisects the crossovers to the byte") {
  std::string net = temp("cost-test-net2.json");
  std::ofstream(net) << R"({"mpisim-network": 1, "model": "hockney", "alpha": "2us", "beta": "0.8ns"})";
  cli::CostFlags f;
  f.collective = "MPI_Bcast";
  f.ranks = "12";
  f.bytes = "1KiB..64KiB:4";
  f.network = net;
  f.algorithms = {"binomial", "scatter_ring"};
  f.json = temp("cost-test-cross.jsonl");
  std::ostringstream out, err;
  REQUIRE(cli::run_cost(f, out, err) == 0);
  const std::string text = out.str();
  const auto at = text.find("crossover: scatter_ring is faster than binomial from ");
  REQUIRE(at != std::string::npos);
  const std::uint64_t x = std::stoull(text.substr(at + 53));
  // At x scatter_ring wins, at x - 1 binomial: time both.
  cli::CostFlags g = f;
  g.bytes = std::to_string(x - 1) + "," + std::to_string(x);
  g.json = temp("cost-test-cross2.jsonl");
  std::ostringstream out2;
  REQUIRE(cli::run_cost(g, out2, err) == 0);
  auto rows = lines(slurp(g.json));
  REQUIRE(rows.size() == 4);
  auto best = [&](std::uint64_t b, const char* alg) {
    const std::string key = "\"bytes\":" + std::to_string(b) + ",\"algorithm\":\"" + alg + "\"";
    for (const auto& r : rows)
      if (r.find(key) != std::string::npos) return r.find("\"best\":true") != std::string::npos;
    return false;
  };
  CHECK(best(x - 1, "binomial"));
  CHECK(best(x, "scatter_ring"));
  // MPICH's default on 12 ranks: binomial below 12288 bytes, scatter_ring from there.
  CHECK(text.find("binomial 9.277 us") != std::string::npos);
  for (const auto& r : lines(slurp(f.json)))
    if (r.find("\"bytes\":1024,\"algorithm\":\"binomial\"") != std::string::npos)
      CHECK(r.find("\"mpich_default\":true") != std::string::npos);
}

TEST_CASE("cost labels every size apart, in the table and the plot, and no two plot labels overlap") {
  std::string net = temp("cost-test-net3.json");
  std::ofstream(net) << R"({"mpisim-network": 1, "model": "hockney", "alpha": "2us", "beta": "0.8ns"})";
  cli::CostFlags f;
  f.collective = "MPI_Allreduce";
  f.ranks = "16";
  f.bytes = "1000,1010,1020,1024,1025,1030,1040,1050,1060,1070,1080,1536";  // "1.0 KiB" rounded, but 1536
  f.network = net;
  f.svg = temp("cost-test-labels.svg");
  std::ostringstream out, err;
  REQUIRE(cli::run_cost(f, out, err) == 0);
  std::vector<std::string> sizes;
  for (const auto& l : lines(out.str()))
    if (!l.empty() && l[0] >= '0' && l[0] <= '9') sizes.push_back(l.substr(0, l.find("  ")));
  REQUIRE(sizes.size() > 10);
  CHECK(std::find(sizes.begin(), sizes.end(), "1000 B") != sizes.end());
  CHECK(std::find(sizes.begin(), sizes.end(), "1.0 KiB") != sizes.end());  // 1024 exactly
  CHECK(std::find(sizes.begin(), sizes.end(), "1025 B") != sizes.end());
  CHECK(std::find(sizes.begin(), sizes.end(), "1.5 KiB") != sizes.end());
  auto sorted = sizes;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  // The plot's 10-pixel labels (sizes on the axis, crossovers in the panel): none
  // overlaps another on its line, at 6 pixels a character.
  const std::string svg = slurp(f.svg);
  struct Label {
    double from, to, y;
  };
  std::vector<Label> labels;
  for (std::size_t at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
    const std::string tag = svg.substr(at, svg.find("</text>", at) - at);
    if (tag.find("font-size=\"10\"") == std::string::npos) continue;
    const double x = std::stod(tag.substr(tag.find(" x=\"") + 4)), y = std::stod(tag.substr(tag.find(" y=\"") + 4));
    const double w = 6.0 * static_cast<double>(tag.size() - tag.find('>') - 1);
    const double from = tag.find("\"middle\"") != std::string::npos ? x - w / 2 : tag.find("\"end\"") != std::string::npos ? x - w : x;
    labels.push_back({from, from + w, y});
  }
  REQUIRE(labels.size() >= 3);
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      if (labels[i].y == labels[j].y) CHECK((labels[i].to <= labels[j].from || labels[j].to <= labels[i].from));
}
