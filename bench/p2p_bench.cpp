// Point-to-point benchmarks of the core (not a test: it reports figures).
//
//   mpisim_bench ring RANKS ITERATIONS   ring shift, sizes mode, summary trace:
//                                        simulated messages per wall-clock second
//   mpisim_bench ring-api RANKS ITERATIONS  the same ring shift driven through the
//                                        rank API directly (no scenario interpreter):
//                                        the p2p engine's own throughput
//   mpisim_bench blocked RANKS           every rank blocked in a receive: memory per rank
//   mpisim_bench copy MIB                one contiguous message in data mode: copy
//                                        bandwidth against memcpy
//   mpisim_bench groups                  range constructors and translate_ranks on
//                                        2^20-rank groups: runs kept, lookups per second
//   mpisim_bench datatypes               pack/unpack of a vector with 4 KiB blocks
//                                        against memcpy; committing a type of 10^6 blocks
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "model/mpi/constants.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/type_constructors.hpp"
#include "model/mpi/runtime.hpp"
#include "model/net/hockney.hpp"
#include "sim/engine.hpp"
#include "model/net/network_file.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"

using namespace mpisim;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

long rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

runner::Result run(const std::string& text, std::int64_t ranks, mpi::PayloadMode mode) {
  scenario::Scenario sc = scenario::parse_scenario(text, "bench");
  net::Network n = net::default_network();
  runner::Config cfg;
  cfg.ranks = ranks;
  cfg.payload = mode;
  cfg.trace_level = sim::TraceLevel::summary;
  return scenario::run_scenario(sc, n, cfg);
}

int ring(std::int64_t ranks, std::int64_t iters) {
  std::string text = R"({"mpisim": 1, "program": [
    {"buffer": "a", "type": "MPI_INT", "count": 1},
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"repeat": )" + std::to_string(iters) + R"(, "program": [
      {"call": "MPI_Sendrecv", "sendbuf": "a", "sendcount": 1, "sendtype": "MPI_INT", "dest": "(rank+1)%size",
       "sendtag": 0, "recvbuf": "b", "recvcount": 1, "recvtype": "MPI_INT", "source": "(rank+size-1)%size",
       "recvtag": 0, "comm": "MPI_COMM_WORLD"}]}]})";
  auto t0 = std::chrono::steady_clock::now();
  auto r = run(text, ranks, mpi::PayloadMode::sizes);
  double s = seconds_since(t0);
  std::printf("ring: %lld ranks x %lld iterations: %llu messages, %llu events in %.3f s -> %.2f M messages/s, "
              "%.2f M events/s (makespan %lld ps)\n",
              static_cast<long long>(ranks), static_cast<long long>(iters),
              static_cast<unsigned long long>(r.trace.message_count()), static_cast<unsigned long long>(r.events), s,
              r.trace.message_count() / s / 1e6, r.events / s / 1e6, static_cast<long long>(r.makespan_ps));
  return r.outcome == runner::Outcome::clean ? 0 : 1;
}

sim::Task<void> ring_rank(mpi::Rank& rank, std::int64_t iters, const mpi::TypeRef& type, mpi::Address a,
                          mpi::Address b) {
  const mpi::Communicator& world = rank.world().comm_world();
  const int p = world.size();
  const int me = static_cast<int>(rank.id());
  for (std::int64_t i = 0; i < iters; ++i) {
    mpi::Request* reqs[2] = {
        rank.irecv(mpi::TypedBuffer{&rank.memory(), b, 1, type.get()}, type, (me + p - 1) % p, 0, world),
        rank.isend(mpi::TypedBuffer{&rank.memory(), a, 1, type.get()}, type, (me + 1) % p, 0, world),
    };
    co_await rank.wait_all(reqs);
  }
}

int ring_api(std::int64_t ranks, std::int64_t iters) {
  sim::Engine engine;
  net::Network n = net::default_network();
  sim::Trace trace(sim::TraceLevel::summary);
  mpi::World world(engine, *n.model, trace, static_cast<std::uint32_t>(ranks), mpi::PayloadMode::sizes);
  auto type = mpi::predefined_type("MPI_INT");
  static const std::string na = "a", nb = "b";
  std::vector<std::pair<mpi::Address, mpi::Address>> bufs;
  for (std::int64_t r = 0; r < ranks; ++r) {
    mpi::Memory& m = world.rank(static_cast<std::uint32_t>(r)).memory();
    bufs.emplace_back(m.allocate(&na, type, 1, mpi::PayloadMode::sizes), m.allocate(&nb, type, 1, mpi::PayloadMode::sizes));
  }
  auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t r = 0; r < ranks; ++r)
    engine.spawn(ring_rank(world.rank(static_cast<std::uint32_t>(r)), iters, type, bufs[static_cast<std::size_t>(r)].first,
                           bufs[static_cast<std::size_t>(r)].second));
  engine.run();
  double s = seconds_since(t0);
  std::printf("ring-api: %lld ranks x %lld iterations: %llu messages, %llu events in %.3f s -> %.2f M messages/s\n",
              static_cast<long long>(ranks), static_cast<long long>(iters),
              static_cast<unsigned long long>(trace.message_count()),
              static_cast<unsigned long long>(engine.events_processed()), s, trace.message_count() / s / 1e6);
  engine.destroy_processes();
  return 0;
}

int blocked(std::int64_t ranks) {
  // Every rank receives from its right neighbour, nobody sends: all block, then
  // the run ends in a deadlock report. The peak RSS is measured from inside the
  // run by sampling before and after the engine has blocked everyone.
  std::string text = R"({"mpisim": 1, "program": [
    {"buffer": "b", "type": "MPI_INT", "count": 1},
    {"call": "MPI_Recv", "buf": "b", "count": 1, "datatype": "MPI_INT", "source": "(rank+1)%size", "tag": 0,
     "comm": "MPI_COMM_WORLD"}]})";
  long before = rss_kib();
  auto t0 = std::chrono::steady_clock::now();
  scenario::Scenario sc = scenario::parse_scenario(text, "bench");
  net::Network n = net::default_network();
  runner::Config cfg;
  cfg.ranks = ranks;
  cfg.payload = mpi::PayloadMode::sizes;
  cfg.trace_level = sim::TraceLevel::summary;
  auto r = scenario::run_scenario(sc, n, cfg);
  double s = seconds_since(t0);
  long peak = 0;
  {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("VmHWM:", 0) == 0) peak = std::stol(line.substr(6));
  }
  std::printf("blocked: %lld ranks blocked in MPI_Recv: peak RSS %.1f MiB above the baseline = %.0f bytes per rank "
              "(%.2f s, outcome %s)\n",
              static_cast<long long>(ranks), (peak - before) / 1024.0, (peak - before) * 1024.0 / ranks, s,
              r.outcome == runner::Outcome::erroneous ? "deadlock reported" : "unexpected");
  return 0;
}

sim::Task<void> copy_send(mpi::Rank& rank, const mpi::TypeRef& type, mpi::Address at, std::int64_t count) {
  co_await rank.send(mpi::TypedBuffer{&rank.memory(), at, count, type.get()}, type, 1, 0, rank.world().comm_world());
}

sim::Task<void> copy_recv(mpi::Rank& rank, const mpi::TypeRef& type, mpi::Address at, std::int64_t count) {
  co_await rank.recv(mpi::TypedBuffer{&rank.memory(), at, count, type.get()}, type, 0, 0, rank.world().comm_world());
}

// One contiguous message of `mib` MiB from rank 0 to rank 1 in data mode, through
// the rank API: the buffers are allocated (and so zeroed and resident) before the
// clock starts, so what is timed is the data path (matching and the copy), not
// the setup or first-touch page faults. Five messages, one at a time; the best is
// reported, as for memcpy.
int copy(std::int64_t mib) {
  const std::size_t bytes = static_cast<std::size_t>(mib) * 1024 * 1024;
  std::vector<char> a(bytes, 1), b(bytes, 0);
  double memcpy_s = 1e9;
  for (int i = 0; i < 5; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    memcpy_s = std::min(memcpy_s, seconds_since(t0));
  }

  sim::Engine engine;
  net::Network n = net::default_network();
  sim::Trace trace(sim::TraceLevel::summary);
  mpi::World world(engine, *n.model, trace, 2, mpi::PayloadMode::data);
  auto type = mpi::predefined_type("MPI_INT");
  static const std::string na = "x", nb = "y";
  const auto count = static_cast<std::int64_t>(bytes / 4);
  mpi::Address x = world.rank(0).memory().allocate(&na, type, count, mpi::PayloadMode::data);
  mpi::Address y = world.rank(1).memory().allocate(&nb, type, count, mpi::PayloadMode::data);
  double best = 1e9;
  for (int i = 0; i < 5; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    engine.spawn(copy_send(world.rank(0), type, x, count));
    engine.spawn(copy_recv(world.rank(1), type, y, count));
    engine.run();
    best = std::min(best, seconds_since(t0));
  }
  engine.destroy_processes();
  std::printf("copy: %lld MiB message: %.2f GB/s (memcpy %.2f GB/s) = %.0f%% of memcpy\n", static_cast<long long>(mib),
              bytes / best / 1e9, bytes / memcpy_s / 1e9, 100.0 * memcpy_s / best);
  return trace.message_count() == 5 ? 0 : 1;
}

int groups() {
  const std::int64_t n = 1 << 20;
  auto world = mpi::Group::range(0, n);
  auto t0 = std::chrono::steady_clock::now();
  auto evens = world->range_incl({{0, n - 1, 2}});
  auto odds = world->range_excl({{0, n - 1, 2}});
  auto strided = world->range_incl({{n - 1, 0, -3}, {1, n - 2, 3}});
  double build_s = seconds_since(t0);
  std::printf("groups: range_incl (0, 2^20-1, 2): %zu run(s); range_excl of the same: %zu run(s); two triplets: %zu "
              "run(s); built in %.3f s\n",
              evens->runs().size(), odds->runs().size(), strided->runs().size(), build_s);
  std::vector<std::int64_t> ranks(1 << 20);
  for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<std::int64_t>((i * 2654435761u) % (n / 2));
  auto t1 = std::chrono::steady_clock::now();
  auto out = mpi::Group::translate(*evens, ranks, *strided);
  double s = seconds_since(t1);
  std::int64_t undefined = 0;
  for (auto r : out) undefined += r == mpi::UNDEFINED;
  std::printf("groups: translate_ranks of %zu ranks from the evens into a two-run group: %.3f s = %.1f M lookups/s "
              "(%lld absent)\n",
              ranks.size(), s, ranks.size() / s / 1e6, static_cast<long long>(undefined));
  return 0;
}

int datatypes() {
  // A vector of 4096 blocks of 4 KiB (1024 ints), stride 2 blocks: 16 MiB of data.
  auto i32 = mpi::predefined_type("MPI_INT");
  auto v = mpi::type_vector(4096, 1024, 2048, i32);
  v->commit();
  const std::int64_t bytes = v->size();
  mpi::Memory mem;
  static const std::string name = "data";
  mpi::Address base = mem.allocate(&name, i32, 4096 * 2048, mpi::PayloadMode::data);
  std::vector<std::byte> packed(static_cast<std::size_t>(bytes));
  mpi::TypedBuffer tb{&mem, base, 1, v.get()};
  mpi::pack(tb, bytes, packed.data());  // warm
  auto t0 = std::chrono::steady_clock::now();
  const int reps = 20;
  for (int r = 0; r < reps; ++r) {
    mpi::pack(tb, bytes, packed.data());
    mpi::unpack(packed.data(), bytes, tb);
  }
  double s = seconds_since(t0) / (2 * reps);
  std::vector<std::byte> a(static_cast<std::size_t>(bytes)), b(static_cast<std::size_t>(bytes));
  std::memcpy(b.data(), a.data(), a.size());
  auto t1 = std::chrono::steady_clock::now();
  for (int r = 0; r < 2 * reps; ++r) std::memcpy(b.data(), a.data(), a.size());
  double m = seconds_since(t1) / (2 * reps);
  std::printf("datatypes: pack/unpack of vector(4096 x 4 KiB): %.2f GB/s (memcpy %.2f GB/s) = %.0f%% of memcpy\n",
              bytes / s / 1e9, bytes / m / 1e9, 100.0 * m / s);
  // A type of 10^6 blocks (hindexed, gaps between blocks so nothing merges).
  std::vector<std::int64_t> bl(1000000, 1), d(1000000);
  for (std::size_t k = 0; k < d.size(); ++k) d[k] = static_cast<std::int64_t>(k) * 8;
  auto t2 = std::chrono::steady_clock::now();
  auto h = mpi::type_hindexed(bl, d, i32);
  h->commit();
  double c = seconds_since(t2);
  std::printf("datatypes: building and committing an hindexed type of 10^6 blocks: %.3f s (%zu segments)\n", c,
              h->segments().size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "groups") return groups();
  if (argc == 2 && std::string(argv[1]) == "datatypes") return datatypes();
  if (argc < 3) {
    std::fprintf(stderr, "usage: mpisim_bench ring RANKS ITERATIONS | blocked RANKS | copy MIB | groups | datatypes\n");
    return 2;
  }
  std::string what = argv[1];
  if (what == "ring" && argc == 4) return ring(std::stoll(argv[2]), std::stoll(argv[3]));
  if (what == "ring-api" && argc == 4) return ring_api(std::stoll(argv[2]), std::stoll(argv[3]));
  if (what == "blocked") return blocked(std::stoll(argv[2]));
  if (what == "copy") return copy(std::stoll(argv[2]));
  if (what == "groups") return groups();
  std::fprintf(stderr, "usage: mpisim_bench ring RANKS ITERATIONS | blocked RANKS | copy MIB | groups | datatypes\n");
  return 2;
}
