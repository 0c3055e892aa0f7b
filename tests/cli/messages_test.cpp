// The command line's messages for what users mistype, as golden text: each
// command line with its exit status and what it printed on stderr
// (tests/golden/cli-messages.txt; MPISIM_UPDATE_GOLDEN=1 rewrites it).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <unistd.h>

#include "sim/cli/app.hpp"
#include "tests/support.hpp"

using mpisim::test::slurp;

namespace fs = std::filesystem;

namespace {

// Scenarios with one slip each, written to a temporary folder.
const std::vector<std::pair<const char*, const char*>> kScenarios = {
    {"field.json", R"({"mpisim": 1, "ranks": 2, "progam": []})"},
    {"kind.json", R"({"mpisim": 1, "ranks": 2, "program": [{"cal": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]})"},
    {"call.json", R"({"mpisim": 1, "ranks": 2, "program": [{"call": "MPI_Scaterv"}]})"},
    {"parameter.json", R"({"mpisim": 1, "ranks": 2, "program": [{"call": "MPI_Barrier", "com": "MPI_COMM_WORLD"}]})"},
    {"step-field.json", R"({"mpisim": 1, "ranks": 2, "program": [{"buffer": "x", "type": "MPI_INT", "count": 1, "inti": 3}]})"},
    {"type.json", R"({"mpisim": 1, "ranks": 2, "program": [{"buffer": "x", "type": "MPI_INTT", "count": 1}]})"},
    {"buffer.json", R"({"mpisim": 1, "ranks": 2, "program": [{"buffer": "colR", "type": "MPI_INT", "count": 4},
      {"call": "MPI_Bcast", "buffer": "colr", "count": 4, "datatype": "MPI_INT", "root": 0, "comm": "MPI_COMM_WORLD"}]})"},
};

const std::vector<std::vector<std::string>> kCommands = {
    {"bogus", "--help"},
    {"rnu", "T/kind.json"},
    {"scenarios/seed/scatter.json"},
    {"--lst-calls"},
    {"run", "--rank", "4", "scenarios/seed/scatter.json"},
    {"run", "scenarios/seed/scatter.json", "--algoritm=MPI_Scatter=linear"},
    {"run", "scenarios/seed/scatter.json", "--ranks", "eight"},
    {"run", "scenarios/seed/scatter.json", "--ranks", "16777217"},
    {"run"},
    {"run", "scenarios/seed/scatter.json", "--algorithm", "MPI_Scatterr=linear"},
    {"run", "scenarios/seed/scatter.json", "--algorithm", "MPI_Scatter=linaer"},
    {"cost", "MPI_Bcst"},
    {"cost", "MPI_Bcast", "--algorithm", "binomal"},
    {"cost", "MPI_Bcast", "extra"},
    {"check", "T/field.json"},
    {"check", "T/kind.json"},
    {"check", "T/call.json"},
    {"check", "T/parameter.json"},
    {"check", "T/step-field.json"},
    {"check", "T/type.json"},
    {"check", "T/buffer.json"},
};

}  // namespace

TEST_CASE("mistyped commands, options, keys, calls and buffer names get one message and a suggestion") {
  fs::current_path(MPISIM_SOURCE_DIR);
  const fs::path dir = fs::temp_directory_path() / ("mpisim-typos-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const auto& [name, text] : kScenarios) std::ofstream(dir / name) << text;
  std::string printed;
  for (const auto& command : kCommands) {
    std::vector<std::string> args = {"mpisim"};
    std::string line = "$ mpisim";
    for (const auto& a : command) {
      line += " " + a;
      args.push_back(a.rfind("T/", 0) == 0 ? (dir / a.substr(2)).string() : a);
    }
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = mpisim::cli::run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
    std::string text = err.str();
    // The temporary folder reads as T/.
    for (std::size_t at; (at = text.find(dir.string() + "/")) != std::string::npos;) text.replace(at, dir.string().size() + 1, "T/");
    printed += line + "\nexit " + std::to_string(code) + "\n" + text + "\n";
    CAPTURE(line);
    CHECK(code == 2);
  }
  fs::remove_all(dir);
  const fs::path golden = "tests/golden/cli-messages.txt";
  if (std::getenv("MPISIM_UPDATE_GOLDEN")) std::ofstream(golden, std::ios::binary) << printed;
  CHECK(printed == slurp(golden));
}
