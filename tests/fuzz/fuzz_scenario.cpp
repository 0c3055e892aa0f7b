// libFuzzer target: the scenario loader. Any input must either parse or be refused
// with an InputError — never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/scenario/scenario.hpp"
#include "sim/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    mpisim::scenario::parse_scenario(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const mpisim::sim::InputError&) {
  }
  return 0;
}
