#include "model/coll/smp.hpp"

#include "model/coll/registry.hpp"

namespace mpisim::coll::smp {

const Hierarchy& hierarchy(Rank& rank, const CollArgs& a) { return rank.world().node_hierarchy(*a.comm, rank.id()); }

Place place_of(const Hierarchy& h, int r) {
  Place p;
  p.node = h.node[static_cast<std::size_t>(r)];
  p.node_rank = h.node_rank[static_cast<std::size_t>(r)];
  p.members = h.node_comms[static_cast<std::size_t>(p.node)];
  p.node_size = p.members ? p.members->size() : 1;
  return p;
}

CollArgs on(const CollArgs& a, Collective kind, const Communicator& comm, int me, int p) {
  CollArgs s;
  s.kind = kind;
  s.form = a.form;  // a nonblocking call's messages carry its instance in their tags
  s.comm = &comm;
  s.me = me;
  s.p = p;
  s.op = a.op;
  s.instance = a.instance;
  return s;
}

Task<void> run_auto(Rank& rank, CollArgs sub) { co_await auto_algorithm(sub).run(rank, sub); }

Task<void> bcast(Rank& rank, const CollArgs& a, const Communicator& comm, int me, int p, int root, Address buf,
                 std::int64_t count, const TypeRef& type) {
  CollArgs s = on(a, Collective::bcast, comm, me, p);
  s.root = root;
  s.recvbuf = buf;
  s.recvcount = count;
  s.recvtype = type;
  co_await run_auto(rank, s);
}

}  // namespace mpisim::coll::smp
