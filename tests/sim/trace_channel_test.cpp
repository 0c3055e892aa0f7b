// The trace's channels: numbered in the order first named, found again by name.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "sim/trace.hpp"

using mpisim::sim::Trace;

TEST_CASE("a channel keeps the number of its first naming, among a hundred thousand") {
  // As many channels as a program creating and freeing 50,000 communicators names
  // (a point-to-point and a collective channel each). Finding a name must not
  // walk the ones before it: 100,000 names compared with all earlier ones are
  // 5 * 10^9 string comparisons.
  Trace trace;
  const std::uint32_t n = 100'000;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string name = "MPI_COMM_WORLD/dup#" + std::to_string(i);
    REQUIRE(trace.channel(name) == i);
    REQUIRE(trace.channel(name) == i);  // named again: the same channel
  }
  CHECK(trace.channel("MPI_COMM_WORLD/dup#0") == 0);
  CHECK(trace.channel("MPI_COMM_WORLD/dup#99999") == n - 1);
  CHECK(trace.channel("another") == n);
  REQUIRE(trace.channel_names().size() == n + 1);
  CHECK(trace.channel_names()[12345] == "MPI_COMM_WORLD/dup#12345");
  CHECK(trace.channel_names().back() == "another");
}
