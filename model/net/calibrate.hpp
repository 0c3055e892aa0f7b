#pragma once
// Calibration: a network file fitted to ping-pong measurements.
//
// Measurements come as text: the output of the OSU micro-benchmarks' osu_latency
// (one-way latency in microseconds per size) or osu_bw (bandwidth in MB/s per
// size, a window of messages streamed back to back), or a CSV of size in bytes and
// one-way time in microseconds. The fit is one of three forms, each a network file
// mpisim loads (docs/cost-models.md, "Calibration"):
//   hockney    t(n) = α + nβ;
//   piecewise  Hockney below and above a break, which becomes the eager limit (the
//              fields rendezvous_alpha and rendezvous_beta hold the upper piece);
//   loggp      t(n) = 2o + L + (n−1)G, with g from osu_bw's smallest size.
// Each piece is a least-squares fit of the relative error, so a 1-byte and a 4 MiB
// message weigh alike.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpisim::net {

struct Sample {
  double bytes = 0;
  double ps = 0;  // one-way time (latency samples) or time per message (streaming samples)
};

struct Measurements {
  std::vector<Sample> latency;    // osu_latency, CSV
  std::vector<Sample> streaming;  // osu_bw: bytes / bandwidth
  std::vector<std::string> sources;
};

// Adds the measurements in `text` (from the file `where`), recognising the format
// by its header. Throws sim::InputError naming the file and line of a problem.
void read_measurements(const std::string& text, const std::string& where, Measurements& into);

enum class FitForm { hockney, piecewise, loggp };

struct FitOptions {
  FitForm form = FitForm::hockney;
  std::string name = "calibrated";
  std::optional<double> overhead_ps;          // loggp: o (not observable from a ping-pong)
  std::optional<std::uint64_t> eager_limit;   // piecewise: the break (default: the best split)
};

struct FitRow {
  double bytes = 0;
  bool streaming = false;
  double measured_ps = 0, predicted_ps = 0;
};

struct Fit {
  std::string network_json;  // the network file, as mpisim loads it
  std::vector<FitRow> rows;  // every measurement beside the fitted model's prediction
  double max_error = 0, rms_error = 0;  // relative, over all rows
  std::vector<std::string> notes;       // what the fit could not observe, and what it chose
};

// Throws sim::InputError when the measurements cannot determine the form.
Fit fit_network(const Measurements& m, const FitOptions& options);

}  // namespace mpisim::net
