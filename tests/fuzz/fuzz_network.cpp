// libFuzzer target: the network-file loader. Any input must give a network or an
// InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/net/network_file.hpp"
#include "sim/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    mpisim::net::parse_network(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const mpisim::sim::InputError&) {
  }
  return 0;
}
