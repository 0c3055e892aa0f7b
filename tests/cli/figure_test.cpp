// mpisim figure: a collective call drawn from the run's buffers, a row per rank,
// a cell per block, coloured by the rank each block's data came from.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "sim/cli/app.hpp"

namespace {

int figure(std::vector<const char*> args, std::string* out_text, std::string* err_text = nullptr) {
  args.insert(args.begin(), {"mpisim", "figure"});
  std::ostringstream out, err;
  const int code = mpisim::cli::run_cli(static_cast<int>(args.size()), args.data(), out, err);
  *out_text = out.str();
  if (err_text) *err_text = err.str();
  return code;
}

// The cells drawn on one side for one rank and argument: "block:origin" each.
std::vector<std::string> cells(const std::string& svg, const std::string& side, int rank, const std::string& argument) {
  std::vector<std::string> out;
  const std::regex cell("<g class=\"cell\" data-rank=\"" + std::to_string(rank) + "\" data-side=\"" + side +
                        "\" data-argument=\"" + argument + "\" data-block=\"(-?\\d+)\" data-origin=\"(-?\\d+)\">");
  for (std::sregex_iterator it(svg.begin(), svg.end(), cell), end; it != end; ++it)
    out.push_back((*it)[1].str() + ":" + (*it)[2].str());
  return out;
}

}  // namespace

TEST_CASE("mpisim figure draws a scatter: the root's blocks before, each rank's block from the root after") {
  std::filesystem::current_path(MPISIM_SOURCE_DIR);
  std::string svg;
  REQUIRE(figure({"scenarios/seed/scatter.json", "--step", "/program/4"}, &svg) == 0);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("MPI_Scatter at /program/4") != std::string::npos);
  CHECK(svg.find("rank 0 (root)") != std::string::npos);
  // The root's sendbuf: four blocks of its own data, unchanged by the call.
  CHECK(cells(svg, "before", 0, "sendbuf") == std::vector<std::string>{"0:0", "1:0", "2:0", "3:0"});
  CHECK(cells(svg, "after", 0, "sendbuf") == std::vector<std::string>{"0:0", "1:0", "2:0", "3:0"});
  // Each rank's recvbuf: its own initial data before, the root's block after.
  for (int r = 1; r < 4; ++r) {
    CAPTURE(r);
    CHECK(cells(svg, "before", r, "recvbuf") == std::vector<std::string>{"-1:" + std::to_string(r)});
    CHECK(cells(svg, "after", r, "recvbuf") == std::vector<std::string>{"-1:0"});
    CHECK(cells(svg, "before", r, "sendbuf").empty());  // not significant away from the root
  }
  CHECK(svg.find("rank 1, recvbuf (rbuf elements 0..99): 100..199") != std::string::npos);
}

TEST_CASE("mpisim figure draws a reduction's result as combined from the ranks it reduces") {
  std::filesystem::current_path(MPISIM_SOURCE_DIR);
  std::string svg;
  REQUIRE(figure({"scenarios/collectives/allreduce-sum.json", "--step", "/program/2", "--ranks", "3"}, &svg) == 0);
  for (int r = 0; r < 3; ++r) {
    CAPTURE(r);
    CHECK(cells(svg, "before", r, "sendbuf") == std::vector<std::string>{"-1:" + std::to_string(r)});
    CHECK(cells(svg, "after", r, "recvbuf") == std::vector<std::string>{"-1:-1"});
  }
  CHECK(svg.find("combined from ranks 0+1+2") != std::string::npos);
  CHECK(svg.find("Σ 0+1+2") != std::string::npos);
}

TEST_CASE("mpisim figure draws the whole call when the root and the others make it from different steps") {
  std::filesystem::current_path(MPISIM_SOURCE_DIR);
  // Lesson 1: the root's in-place scatter is /program/12, the others' /program/13.
  for (const char* step : {"/program/12", "/program/13"}) {
    CAPTURE(step);
    std::string svg;
    REQUIRE(figure({"scenarios/teach/1-scatter.json", "--step", step}, &svg) == 0);
    CHECK(cells(svg, "after", 0, "sendbuf") == std::vector<std::string>{"0:0", "1:0", "2:0", "3:0"});
    CHECK(cells(svg, "after", 0, "recvbuf").empty());  // MPI_IN_PLACE: the root's block stays in sendbuf
    for (int r = 1; r < 4; ++r) CHECK(cells(svg, "after", r, "recvbuf") == std::vector<std::string>{"-1:0"});
  }
}

TEST_CASE("mpisim figure refuses a step that is not a blocking collective, or no step") {
  std::filesystem::current_path(MPISIM_SOURCE_DIR);
  std::string out, err;
  CHECK(figure({"scenarios/seed/scatter.json", "--step", "/program/1"}, &out, &err) == 2);
  CHECK(err.find("/program/1 is a call of MPI_Comm_size; mpisim figure draws a blocking collective") != std::string::npos);
  CHECK(figure({"scenarios/seed/scatter.json", "--step", "/program/40"}, &out, &err) == 2);
  CHECK(err.find("the scenario has no step /program/40") != std::string::npos);
  CHECK(figure({"scenarios/collectives/nonblocking.json", "--step", "/program/3"}, &out, &err) == 2);
  CHECK(figure({"scenarios/seed/scatter.json"}, &out, &err) == 2);
  CHECK(err.find("--step is required") != std::string::npos);
}
