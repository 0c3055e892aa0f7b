#pragma once
// The collective calls as the simulator sees them: every member's call at once.
//
// A real MPI sees one process; here each member of a collective call deposits its
// arguments when it enters, so mpisim can check what the standard requires across
// processes (the same collective in the same order, the same root and op, matching
// type signatures, no root location read or written twice, consistent in-place
// use) and report the first broken rule at the rank that breaks it. After the
// algorithm, each rank's result can be verified against the standard's definition
// computed from every member's contribution (reference.cpp): a difference is a bug
// in mpisim, reported as an internal error.
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/coll/registry.hpp"
#include "sim/bulk.hpp"

namespace mpisim::coll {

class Coordinator {
 public:
  Coordinator(mpi::World& world, bool verify) : world_(world), verify_(verify) {}

  // `rank`'s part of a collective call, entered: await `algorithm`, then call
  // leave(ticket). No coroutine frame of the coordinator's stays with a blocked member.
  struct Instance;
  struct Ticket {
    Instance* instance = nullptr;
    const Algorithm* alg = nullptr;
    int index = 0;
  };
  struct Entered {
    Task<void> algorithm;
    Ticket ticket;
  };
  // Enters `rank`'s call with `alg`: throws MpiError when the call contradicts
  // another member's.
  Entered enter(Rank& rank, CollArgs args, const Algorithm& alg);
  // After the algorithm: verifies the result (std::logic_error when it is not the
  // standard's) and closes the instance after its last member.
  void leave(Rank& rank, const Ticket& ticket);
  // enter, then the algorithm and leave as one task: for callers to whom a frame
  // per member does not matter (tests).
  Task<void> run(Rank& rank, CollArgs args, const Algorithm& alg);
  // A nonblocking call (args.nonblocking): enter, then start the algorithm as an
  // activity of the rank (mpi::World::start_activity); returns its request,
  // complete once the algorithm is done and the result verified.
  Request* start(Rank& rank, CollArgs args, const Algorithm& alg);

  // Per collective: the calls completed and their total time (each call from its
  // first member's entry to its last member's exit).
  struct Totals {
    std::int64_t calls = 0;
    sim::SimTime time{};
  };
  const std::map<std::string, Totals>& totals() const { return totals_; }

 private:
  // A call's state, as a ticket refers to it. A member's arguments live here, in
  // the instance, from its entry to the instance's end: `members` is sized once, so
  // they never move, and a blocked member's algorithm refers to them instead of
  // keeping a copy.
  struct Member {
    CollArgs args;
    bool present = false;  // entered
    std::uint32_t world = 0;
    struct Contribution {
      std::vector<std::byte> bytes;  // what it brought, packed
      std::vector<std::int64_t> at;  // its blocks' offsets in `bytes` (scatter, alltoall)
    };
    std::unique_ptr<Contribution> contribution;  // data mode + verify only: out of line, one pointer otherwise
  };

 public:
  struct Instance {
    sim::bulk::Vector<Member> members;
    int entered = 0, exited = 0;
    int first = -1;  // the first member to enter: the others are compared with it
    // Intercommunicators, per group (low, high): its first member to enter, and the
    // member that passed MPI_ROOT.
    int first_in[2] = {-1, -1}, root_in[2] = {-1, -1};
    sim::SimTime started{};
  };

 private:
  using Key = std::tuple<std::uint32_t, std::int64_t, std::uint32_t>;  // (context, call number, start)
  static Key key_of(const Rank& rank, const CollArgs& a);
  Task<void> complete(Rank& rank, Entered entered);
  Task<void> complete_activity(Rank& rank, Entered entered);
  Instance& deposit(Rank& rank, CollArgs&& args, int index, int members, Key key);
  void check(const Instance& in, int index) const;
  void check_inter(const Instance& in, int index) const;
  int member_index(const Rank& rank, const CollArgs& a, int* members) const;

  mpi::World& world_;
  bool verify_;
  std::map<Key, Instance> instances_;
  std::map<std::string, Totals> totals_;
};

// reference.cpp: the standard's definitions.
namespace reference {
// Packs what the caller contributes to the call, as the definition reads it;
// `at` receives the offsets of its blocks when it brings one per process.
std::vector<std::byte> contribution(Rank& rank, const CollArgs& a, std::vector<std::int64_t>* at);
// Compares the caller's result with the definition's, from every member's
// contribution (indexed by rank in the communicator); empty if equal, else what differs.
using Contributions = std::vector<std::pair<const CollArgs*, const std::vector<std::byte>*>>;
std::string verify(Rank& rank, const CollArgs& a, const Contributions& all,
                   const std::vector<const std::vector<std::int64_t>*>& offsets);
}  // namespace reference

}  // namespace mpisim::coll
