#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "model/net/calibrate.hpp"
#include "model/net/network_file.hpp"
#include "sim/input_error.hpp"

using namespace mpisim::net;

namespace {

// One-way times of a two-piece Hockney network: 2 us + 0.8 ns/B up to 32 KiB,
// 5 us + 0.4 ns/B above, as CSV (microseconds).
std::string two_pieces() {
  std::string csv = "bytes,microseconds\n";
  for (double n = 1; n <= 1 << 20; n *= 4) {
    const double ps = n <= 32768 ? 2e6 + 800 * n : 5e6 + 400 * n;
    csv += std::to_string(static_cast<long>(n)) + "," + std::to_string(ps / 1e6) + "\n";
  }
  return csv;
}

Measurements read(const std::string& text) {
  Measurements m;
  read_measurements(text, "m.txt", m);
  return m;
}

std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const mpisim::sim::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("measurements: osu_latency, osu_bw and CSV, told apart by their headers") {
  Measurements m = read(
      "# OSU MPI Latency Test v7.3\n# Size          Latency (us)\n0                       0.21\n1                       0.25\n"
      "1024                    0.80\n");
  REQUIRE(m.latency.size() == 3);
  CHECK(m.streaming.empty());
  CHECK(m.latency[2].bytes == 1024);
  CHECK(m.latency[2].ps == doctest::Approx(800000));
  read_measurements("# OSU MPI Bandwidth Test v7.3\n# Size      Bandwidth (MB/s)\n1                       2.50\n"
                    "1048576              10000.00\n",
                    "bw.txt", m);
  REQUIRE(m.streaming.size() == 2);
  CHECK(m.streaming[0].ps == doctest::Approx(400000));          // 1 B at 2.5 MB/s: 0.4 us
  CHECK(m.streaming[1].ps == doctest::Approx(104857600));       // 1 MiB at 10 GB/s: 104.9 us
  CHECK(m.sources == std::vector<std::string>{"m.txt", "bw.txt"});
  // CSV with or without a header line, comments anywhere, blanks as separators too.
  CHECK(read("bytes,microseconds\n8,1.5\n# a comment\n16 1.75\n").latency.size() == 2);
  CHECK(read("8,1.5\n16,1.75\n").latency.size() == 2);
}

TEST_CASE("measurements: a bad line is named with its file and line") {
  CHECK(error_of("8,1.5\nsixteen,2\n") ==
        "m.txt:2: expected two numbers, the message size in bytes and the one-way time in microseconds; got \"sixteen,2\"");
  CHECK(error_of("8,1.5\n16,-2\n") == "m.txt:2: the time must be a positive number");
  CHECK(error_of("8.5,1.5\n") == "m.txt:1: the message size must be a whole number of bytes, got 8.5");
  CHECK(error_of("# nothing here\n") ==
        "m.txt: no measurements: expected osu_latency's or osu_bw's output, or lines of \"bytes,microseconds\"");
  CHECK(error_of("# Size  Bandwidth (MB/s)\n1024 0\n") == "m.txt:2: the bandwidth must be a positive number");
}

TEST_CASE("fits: exact measurements give back the network that produced them") {
  const Measurements m = read(two_pieces());
  FitOptions o;
  o.form = FitForm::piecewise;
  Fit f = fit_network(m, o);
  CHECK(f.max_error < 1e-6);
  CHECK(f.network_json.find("\"alpha\": \"2000.000ns\"") != std::string::npos);
  CHECK(f.network_json.find("\"beta\": \"800.0000ps\"") != std::string::npos);
  // Sizes go 1, 4, ..., 16 KiB, 64 KiB: the break lies between the last two, and
  // the eager limit is the largest size measured below it.
  CHECK(f.network_json.find("\"eager_limit\": 16384") != std::string::npos);
  CHECK(f.network_json.find("\"rendezvous_alpha\": \"5000.000ns\"") != std::string::npos);
  CHECK(f.network_json.find("\"rendezvous_beta\": \"400.0000ps\"") != std::string::npos);
  // The fitted file loads, and its model gives the measured times.
  Network n = parse_network(f.network_json, "fit.json");
  CHECK(n.model->eager_limit() == 16384);
  n.model->reset(2);
  CHECK(n.model->start_send(0, 1, 1 << 20, mpisim::sim::SimTime::zero(), 0).ps == 5000000 + 400 * (1 << 20));
  n.model->reset(2);
  CHECK(n.model->start_send(0, 1, 1024, mpisim::sim::SimTime::zero(), 0).ps == 2000000 + 800 * 1024);

  // One Hockney line through the same points cannot follow both pieces.
  o.form = FitForm::hockney;
  f = fit_network(m, o);
  CHECK(f.max_error > 0.1);
  CHECK(f.rows.size() == 11);

  // A single piece is recovered exactly by the plain fit.
  std::string one = "bytes,microseconds\n";
  for (int n = 1; n <= 1 << 20; n *= 8) one += std::to_string(n) + "," + std::to_string((2e6 + 800.0 * n) / 1e6) + "\n";
  f = fit_network(read(one), o);
  CHECK(f.max_error < 1e-6);
  CHECK(f.network_json.find("\"alpha\": \"2000.000ns\"") != std::string::npos);
}

TEST_CASE("LogGP: 2o + L and G from the one-way times, o as given, g from the streaming rate") {
  // One-way t(n) = 2o + L + (n-1)G with o = 0.5 us, L = 1 us, G = 0.5 ns; streaming
  // 8-byte messages every 0.8 us.
  std::string csv;
  for (int n = 1; n <= 1 << 16; n *= 4) csv += std::to_string(n) + "," + std::to_string((2e6 + 500.0 * (n - 1)) / 1e6) + "\n";
  Measurements m = read(csv);
  read_measurements("# OSU MPI Bandwidth Test\n# Size Bandwidth (MB/s)\n8 10\n", "bw.txt", m);
  FitOptions o;
  o.form = FitForm::loggp;
  o.overhead_ps = 500000;
  const Fit f = fit_network(m, o);
  CHECK(f.network_json.find("\"L\": \"1000.000ns\"") != std::string::npos);
  CHECK(f.network_json.find("\"o\": \"500.000ns\"") != std::string::npos);
  CHECK(f.network_json.find("\"G\": \"0.5000ps\"") == std::string::npos);
  CHECK(f.network_json.find("\"G\": \"500.0000ps\"") != std::string::npos);
  CHECK(f.network_json.find("\"g\": \"796.500ns\"") != std::string::npos);  // 0.8 us - 7 G
  CHECK(f.max_error < 1e-6);
  // An overhead larger than half of 2o + L is refused.
  o.overhead_ps = 2e6;
  CHECK_THROWS_AS(fit_network(m, o), mpisim::sim::InputError);
}

TEST_CASE("fits refuse what the measurements cannot determine") {
  FitOptions o;
  CHECK_THROWS_AS(fit_network(read("8,1.5\n8,1.6\n"), o), mpisim::sim::InputError);  // one size
  o.form = FitForm::piecewise;
  CHECK_THROWS_AS(fit_network(read("8,1.5\n16,1.6\n32,1.7\n"), o), mpisim::sim::InputError);  // three sizes
  o.eager_limit = 8;  // one size below the break
  CHECK_THROWS_AS(fit_network(read("8,1.5\n16,1.6\n32,1.7\n64,2\n"), o), mpisim::sim::InputError);
}
