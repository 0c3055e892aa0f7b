// The completion calls on the rank API alone (no scenario): MPI_Testall,
// MPI_Testany, MPI_Waitsome, MPI_Testsome and MPI_Request_free, on requests that
// complete at known times. Rank 1 sends to rank 0 one message at 1 us, one at
// 3 us (alpha = 1 us, no bandwidth cost): rank 0 looks at its two receives at
// chosen instants.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "model/mpi/runtime.hpp"
#include "model/net/hockney.hpp"
#include "sim/engine.hpp"

using namespace mpisim;
using mpi::Request;
using sim::SimTime;

namespace {

const std::string kName = "buf";
constexpr std::int64_t kUs = 1'000'000;

struct Harness {
  sim::Engine engine;
  net::Hockney model{net::HockneyParams{1e6, 0, 0, 0, 1 << 20}};
  sim::Trace trace{sim::TraceLevel::summary};
  mpi::World world{engine, model, trace, 2, mpi::PayloadMode::data};
  mpi::TypeRef type = mpi::predefined_type("MPI_INT");

  mpi::TypedBuffer buffer(mpi::Rank& r, std::int64_t n) {
    mpi::Address at = r.memory().allocate(&kName, type, n, mpi::PayloadMode::data);
    return mpi::TypedBuffer{&r.memory(), at, n, type.get()};
  }
  // Rank 1: a message with tag 0 now (arrives at 1 us), one with tag 1 at 2 us (arrives at 3 us).
  sim::Task<void> sender() {
    mpi::Rank& r = world.rank(1);
    auto b = buffer(r, 1);
    co_await r.send(b, type, 0, 0, world.comm_world());
    co_await r.compute(SimTime::from_ps(2 * kUs - r.now().ps));
    co_await r.send(b, type, 0, 1, world.comm_world());
  }
  void run(std::function<sim::Task<void>(mpi::Rank&, Request**)> receiver) {
    auto body = [this, receiver]() -> sim::Task<void> {
      mpi::Rank& r = world.rank(0);
      auto b = buffer(r, 2);
      Request* reqs[2] = {r.irecv(mpi::TypedBuffer{b.memory, b.addr, 1, b.type}, type, 1, 0, world.comm_world()),
                          r.irecv(mpi::TypedBuffer{b.memory, b.addr + 4, 1, b.type}, type, 1, 1, world.comm_world())};
      co_await receiver(r, reqs);
    };
    engine.spawn(body());
    engine.spawn(sender());
    engine.run();
    REQUIRE_FALSE(engine.failure().has_value());
    CHECK(engine.unfinished_count() == 0);
    engine.destroy_processes();
  }
};

}  // namespace

TEST_CASE("MPI_Testany and MPI_Testall see only what has completed by now") {
  Harness h;
  h.run([&](mpi::Rank& r, Request** reqs) -> sim::Task<void> {
    std::span<Request*> all(reqs, 2);
    int index = 0;
    mpi::Status st;
    CHECK_FALSE(r.test_any(all, &index, &st));
    CHECK(index == mpi::UNDEFINED);
    co_await r.compute(SimTime::from_ps(2 * kUs));  // the first message has arrived, not the second
    std::vector<mpi::Status> sts(2);
    CHECK_FALSE(r.test_all(all, sts));
    CHECK(reqs[0] != nullptr);  // nothing was completed
    CHECK(r.test_any(all, &index, &st));
    CHECK(index == 0);
    CHECK(st.tag == 0);
    CHECK(reqs[0] == nullptr);
    co_await r.compute(SimTime::from_ps(2 * kUs));
    CHECK(r.test_all(all, sts));  // a null handle counts as complete
    CHECK(sts[1].tag == 1);
    CHECK(r.test_any(all, &index, &st));  // every handle null: true, MPI_UNDEFINED
    CHECK(index == mpi::UNDEFINED);
  });
}

TEST_CASE("MPI_Waitsome waits for the first completion and takes every one complete by then") {
  Harness h;
  h.run([&](mpi::Rank& r, Request** reqs) -> sim::Task<void> {
    std::span<Request*> all(reqs, 2);
    std::vector<int> indices;
    std::vector<mpi::Status> sts;
    int n = co_await r.wait_some(all, &indices, &sts);
    CHECK(n == 1);
    CHECK(r.now().ps == 1 * kUs);
    CHECK(indices == std::vector<int>{0});
    CHECK(r.test_some(all, &indices, &sts) == 0);
    n = co_await r.wait_some(all, &indices, &sts);
    CHECK(n == 1);
    CHECK(indices == std::vector<int>{1});
    CHECK(sts[0].tag == 1);
    CHECK(r.now().ps == 3 * kUs);
    CHECK(r.test_some(all, &indices, &sts) == mpi::UNDEFINED);
  });
}

TEST_CASE("a freed receive still completes, and its data arrives") {
  Harness h;
  h.run([&](mpi::Rank& r, Request** reqs) -> sim::Task<void> {
    r.free_request(reqs[1]);
    CHECK(reqs[1] == nullptr);
    co_await r.wait(reqs[0]);
    co_await r.compute(SimTime::from_ps(5 * kUs));
  });
  CHECK(h.world.messages_in_flight() == 0);
}
