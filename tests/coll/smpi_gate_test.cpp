// The accuracy gate against SimGrid's SMPI (docs/cost-models.md, "Against SimGrid's
// SMPI"). tests/data/smpi-points.csv holds one collective call per line, timed by
// SMPI 3.32 (bench/smpi/sweep.sh) and by mpisim, on the two platforms of
// bench/smpi/: crossbar.json and fat-tree-4.json. Every point is run again here:
//  - mpisim's time must be the stored one, to the picosecond: a cost change that
//    moves a point fails with the point, the old and new time and SMPI's;
//  - a point more than 5 % from SMPI's time must carry a cause, a key of
//    tests/data/smpi-causes.txt (and a point within 5 % none).
// After a deliberate cost change, rewrite mpisim's times (and drop the causes of
// points now within 5 %) with
//   MPISIM_UPDATE_SMPI_POINTS=1 build/mpisim_tests -tc='SMPI points*'
// and explain in the commit why each moved point moved.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/coll/one_call.hpp"
#include "model/coll/registry.hpp"
#include "model/mpi/datatype.hpp"
#include "model/mpi/op.hpp"
#include "model/net/network_file.hpp"

using namespace mpisim;

namespace {

const std::string kPoints = std::string(MPISIM_SOURCE_DIR) + "/tests/data/smpi-points.csv";
const std::string kCauses = std::string(MPISIM_SOURCE_DIR) + "/tests/data/smpi-causes.txt";
const char* const kHeader = "platform,collective,algorithm,smpi_algorithm,ranks,bytes,smpi_ps,mpisim_ps,cause";

struct Point {
  std::string platform, collective, algorithm, smpi_algorithm;
  std::int64_t ranks = 0, bytes = 0, smpi_ps = 0, mpisim_ps = -1;
  std::string cause;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line)
    if (c == ',')
      out.emplace_back();
    else
      out.back() += c;
  return out;
}

std::string describe(const Point& p) {
  return p.platform + " " + p.collective + " " + p.algorithm + " (SMPI " + p.smpi_algorithm + ") " +
         std::to_string(p.ranks) + " ranks " + std::to_string(p.bytes) + " B";
}

std::string percent(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.2f %%", x * 100);
  return b;
}

}  // namespace

TEST_CASE("SMPI points: mpisim's times are the stored ones, and a point more than 5 % off SMPI's has a cause") {
  // The causes: "key: text" lines; # comments.
  std::map<std::string, std::string> causes;
  {
    std::ifstream in(kCauses);
    REQUIRE(in);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      auto colon = line.find(": ");
      REQUIRE_MESSAGE(colon != std::string::npos, "tests/data/smpi-causes.txt: expected \"key: text\", got " << line);
      causes[line.substr(0, colon)] = line.substr(colon + 2);
    }
  }
  std::vector<Point> points;
  {
    std::ifstream in(kPoints);
    REQUIRE(in);
    std::string line;
    std::getline(in, line);
    REQUIRE(line == kHeader);
    while (std::getline(in, line)) {
      auto f = split(line);
      REQUIRE_MESSAGE(f.size() == 9, "tests/data/smpi-points.csv: 9 fields expected: " << line);
      Point p{f[0], f[1], f[2], f[3], std::stoll(f[4]), std::stoll(f[5]), std::stoll(f[6]),
              f[7].empty() ? -1 : std::stoll(f[7]), f[8]};
      points.push_back(p);
    }
  }
  REQUIRE(points.size() >= 300);

  std::map<std::string, net::Network> networks;
  for (const char* platform : {"crossbar", "fat-tree-4"})
    networks[platform] = net::load_network_file(std::string(MPISIM_SOURCE_DIR) + "/bench/smpi/" + platform + ".json");

  const bool update = std::getenv("MPISIM_UPDATE_SMPI_POINTS") != nullptr;
  std::ostringstream failures;
  int failed = 0, within = 0, moved = 0;
  std::map<std::string, int> used;
  for (Point& p : points) {
    auto net = networks.find(p.platform);
    REQUIRE_MESSAGE(net != networks.end(), "unknown platform " << p.platform);
    coll::OneCall call;
    REQUIRE_MESSAGE(coll::collective_by_name(p.collective, &call.kind), "unknown collective " << p.collective);
    call.algorithm = coll::find_algorithm(call.kind, p.algorithm);
    REQUIRE_MESSAGE(call.algorithm != nullptr, "unknown algorithm " << describe(p));
    // As `mpisim cost` times a point: doubles added with MPI_SUM, bytes otherwise.
    const bool reduces = coll::reduces(call.kind);
    call.type = mpi::predefined_type(reduces ? "MPI_DOUBLE" : "MPI_BYTE");
    call.op = mpi::predefined_op("MPI_SUM");
    call.ranks = p.ranks;
    call.count = reduces ? (p.bytes + 7) / 8 : p.bytes;
    const coll::OneCallResult r = coll::run_one_call(call, *net->second.model);
    REQUIRE_MESSAGE(r.clean, describe(p) << ": " << r.failure);
    const double off = static_cast<double>(r.makespan_ps - p.smpi_ps) / static_cast<double>(p.smpi_ps);
    const bool close = std::fabs(off) <= 0.05;
    within += close;
    if (r.makespan_ps != p.mpisim_ps) {
      ++moved;
      if (!update) {
        ++failed;
        failures << describe(p) << ": mpisim " << p.mpisim_ps << " ps -> " << r.makespan_ps << " ps; SMPI "
                 << p.smpi_ps << " ps (" << percent(off) << " from SMPI)\n";
      }
      p.mpisim_ps = r.makespan_ps;
    }
    if (close && !p.cause.empty()) {
      if (update) {
        p.cause.clear();
      } else {
        ++failed;
        failures << describe(p) << ": within 5 % of SMPI (" << percent(off) << ") but has the cause \"" << p.cause
                 << "\": drop it\n";
      }
    }
    if (!close && p.cause.empty()) {
      ++failed;
      failures << describe(p) << ": mpisim " << r.makespan_ps << " ps, SMPI " << p.smpi_ps << " ps, " << percent(off)
               << " from SMPI, and no cause (tests/data/smpi-causes.txt)\n";
    }
    if (!p.cause.empty()) {
      ++used[p.cause];
      if (!causes.count(p.cause)) {
        ++failed;
        failures << describe(p) << ": the cause \"" << p.cause << "\" is not in tests/data/smpi-causes.txt\n";
      }
    }
  }
  for (const auto& [key, text] : causes)
    if (!used.count(key)) {
      ++failed;
      failures << "tests/data/smpi-causes.txt: \"" << key << "\" is the cause of no point\n";
    }
  if (update) {
    std::ofstream out(kPoints, std::ios::binary | std::ios::trunc);
    out << kHeader << "\n";
    for (const Point& p : points)
      out << p.platform << "," << p.collective << "," << p.algorithm << "," << p.smpi_algorithm << "," << p.ranks << ","
          << p.bytes << "," << p.smpi_ps << "," << p.mpisim_ps << "," << p.cause << "\n";
    MESSAGE("rewrote " << kPoints << ": " << moved << " of " << points.size() << " points moved");
  }
  MESSAGE(points.size() << " points, " << within << " within 5 % of SMPI");
  for (const auto& [key, n] : used) MESSAGE(key << ": " << n << " points");
  CHECK_MESSAGE(failed == 0, failed << " of the SMPI points fail:\n" << failures.str());
}
