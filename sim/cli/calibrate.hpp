#pragma once
// `mpisim calibrate`: a network file fitted to ping-pong measurements
// (model/net/calibrate.hpp; docs/cost-models.md, "Calibration").
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace mpisim::cli {

struct CalibrateFlags {
  std::vector<std::string> files;
  std::string model = "hockney";
  std::string name = "calibrated";
  std::string overhead;     // loggp: o, a time
  std::string eager_limit;  // piecewise: the break, bytes
  std::string out;          // the network file; empty: standard output
};

void add_calibrate_options(CLI::App* cmd, CalibrateFlags& f);
int run_calibrate(const CalibrateFlags& f, std::ostream& out, std::ostream& err);

}  // namespace mpisim::cli
