// Groups and communicators: the local calls and the constructors.
#include "model/scenario/executor.hpp"

#include "model/coll/comm/constructors.hpp"

namespace mpisim::scenario::exec {

// Groups and the local communicator calls.
bool Executor::group_call(RankEnv& env, const Step& s) {
  switch (s.spec->id) {
    case CallId::comm_group: {
      const auto& c = comm_arg(env, s);
      bind_group(env, s, P::group, c.is_self() ? mpi::Group::of({env.rank}) : &c == &world_.comm_world() ? world_group() : c.group(env.rank));
      return true;
    }
    case CallId::group_size: bind_int(env, s, P::size, group_arg(env, s, P::group)->size()); return true;
    case CallId::group_rank: bind_int(env, s, P::rank, group_arg(env, s, P::group)->rank_of(env.rank)); return true;
    case CallId::group_translate_ranks: {
      auto g1 = group_arg(env, s, P::group1);
      auto g2 = group_arg(env, s, P::group2);
      auto r1 = counted_array(env, s, P::ranks1, 1);
      bind(env.values(), arg(s, P::ranks2).name, Value::of(mpi::Group::translate(*g1, r1, *g2)));
      return true;
    }
    case CallId::group_compare:
      bind_int(env, s, P::result,
               static_cast<int>(mpi::Group::compare(*group_arg(env, s, P::group1), *group_arg(env, s, P::group2))));
      return true;
    case CallId::group_union:
      bind_group(env, s, P::newgroup,
                 mpi::Group::set_union(*group_arg(env, s, P::group1), *group_arg(env, s, P::group2)));
      return true;
    case CallId::group_intersection:
      bind_group(env, s, P::newgroup,
                 mpi::Group::intersection(*group_arg(env, s, P::group1), *group_arg(env, s, P::group2)));
      return true;
    case CallId::group_difference:
      bind_group(env, s, P::newgroup,
                 mpi::Group::difference(*group_arg(env, s, P::group1), *group_arg(env, s, P::group2)));
      return true;
    case CallId::group_incl:
      bind_group(env, s, P::newgroup, group_arg(env, s, P::group)->incl(counted_array(env, s, P::ranks, 1)));
      return true;
    case CallId::group_excl:
      bind_group(env, s, P::newgroup, group_arg(env, s, P::group)->excl(counted_array(env, s, P::ranks, 1)));
      return true;
    case CallId::group_range_incl:
    case CallId::group_range_excl: {
      auto g = group_arg(env, s, P::group);
      auto flat = counted_array(env, s, P::ranges, 3);
      std::vector<mpi::RankRange> ranges;
      for (std::size_t i = 0; i + 2 < flat.size(); i += 3) ranges.push_back({flat[i], flat[i + 1], flat[i + 2]});
      bind_group(env, s, P::newgroup,
                 s.spec->id == CallId::group_range_incl ? g->range_incl(ranges) : g->range_excl(ranges));
      return true;
    }
    case CallId::comm_compare:
      bind_int(env, s, P::result,
               static_cast<int>(mpi::compare(comm_arg(env, s, P::comm1), comm_arg(env, s, P::comm2), env.rank)));
      return true;
    case CallId::comm_set_name: {
      const auto& c = comm_arg(env, s);
      bind(env.b().comm_names.get(), comm_key(c), arg(s, P::comm_name).text.substr(0, mpi::MAX_OBJECT_NAME - 1));
      return true;
    }
    case CallId::comm_get_name: {
      const auto& c = comm_arg(env, s);
      const std::string* set = find_in(env.b().comm_names.get(), comm_key(c));
      const std::string name = set                                ? *set
                               : &c == &world_.comm_world()       ? "MPI_COMM_WORLD"
                               : &c == &world_.comm_self()        ? "MPI_COMM_SELF"
                                                                  : "";
      const Address at = address(env, arg(s, P::comm_name), P::comm_name);
      bind_int(env, s, P::resultlen,
               mpi::write_name(world_.rank(env.rank).memory(), world_.payload(), at, name, "comm_name"));
      return true;
    }
    case CallId::comm_free: {
      NameId id = arg(s, P::comm).name;
      const mpi::Communicator** c = find_in(env.comms(), id);
      if (!c) {  // a predefined communicator (the library's rule refuses it), or a name never bound
        const std::string& name = names_.str(id);
        if (name == "MPI_COMM_WORLD" || name == "MPI_COMM_SELF")
          world_.record_free(name == "MPI_COMM_WORLD" ? world_.comm_world() : world_.comm_self(), env.rank);
        throw MpiError(mpi::ErrorClass::comm, "comm", "communicator '" + name + "' was never created on this rank",
                       "MPI-4.1 §7.4: a communicator argument must be a valid communicator handle");
      }
      if (!*c)
        throw MpiError(mpi::ErrorClass::comm, "comm", "communicator '" + names_.str(id) + "' is already MPI_COMM_NULL",
                       "MPI-4.1 §7.4.3: MPI_Comm_free takes a valid communicator handle");
      world_.record_free(**c, env.rank);
      *c = nullptr;  // MPI_COMM_NULL; pending operations on it still complete
      return true;
    }
    case CallId::comm_remote_size:
    case CallId::comm_remote_group: {
      mpi::GroupRef remote = mpi::remote_group(comm_arg(env, s));
      if (s.spec->id == CallId::comm_remote_size) bind_int(env, s, P::size, remote->size());
      else bind_group(env, s, P::group, std::move(remote));
      return true;
    }
    case CallId::comm_test_inter: bind_int(env, s, P::flag, comm_arg(env, s).is_inter() ? 1 : 0); return true;
    case CallId::group_free: {
      NameId id = arg(s, P::group).name;
      mpi::GroupRef* g = find_in(env.groups(), id);
      if (!g || !*g)
        throw MpiError(mpi::ErrorClass::group, "group",
                       "group '" + names_.str(id) + (g ? "' is already MPI_GROUP_NULL" : "' was never created on this rank"),
                       "MPI-4.1 §7.3.3: MPI_Group_free takes a valid group handle");
      g->reset();  // MPI_GROUP_NULL; operations that use the group still complete (values are shared)
      return true;
    }
    default: return false;
  }
}

mpi::GroupRef Executor::world_group() {
  if (!world_group_) world_group_ = mpi::Group::range(0, world_.size());
  return world_group_;
}

mpi::GroupRef Executor::group_arg(RankEnv& env, const Step& s, P p) {
  const Arg& a = arg(s, p);
  if (a.handle == "MPI_GROUP_EMPTY") return mpi::Group::empty();
  mpi::GroupRef* g = find_in(env.groups(), a.name);
  const char* name = param_name(p);
  if (!g)
    throw MpiError(mpi::ErrorClass::group, name, "group '" + names_.str(a.name) + "' was never created on this rank",
                   "MPI-4.1 §7.3: a group argument must be a valid group handle");
  if (!*g)
    throw MpiError(mpi::ErrorClass::group, name,
                   "group '" + names_.str(a.name) + "' is MPI_GROUP_NULL: it was freed by MPI_Group_free",
                   "MPI-4.1 §7.3.3: MPI_Group_free sets the handle to MPI_GROUP_NULL");
  return *g;
}

// An integer array argument whose length the optional n gives (in units of `per`).
std::vector<std::int64_t> Executor::counted_array(RankEnv& env, const Step& s, P p, std::size_t per) {
  const Arg& a = arg(s, p);
  Value v = eval(env, *a.expr);
  if (!v.is_array || v.is_real) throw StepError(std::string(param_name(p)) + " must be an array of integers");
  if (v.array.size() % per != 0)
    throw MpiError(mpi::ErrorClass::arg, param_name(p),
                   std::string(param_name(p)) + " has " + std::to_string(v.array.size()) +
                       " numbers, not a whole number of (first, last, stride) triplets",
                   "MPI-4.1 §7.3.2: ranges is an array of n triplets");
  if (const Arg& n = arg(s, P::n); n.present) {
    std::int64_t count = eval_int(env, *n.expr);
    if (count != static_cast<std::int64_t>(v.array.size() / per))
      throw MpiError(mpi::ErrorClass::arg, "n",
                     "n = " + std::to_string(count) + " but " + param_name(p) + " has " +
                         std::to_string(v.array.size() / per) + " entries",
                     "MPI-4.1 §7.3: n is the number of entries of the array argument");
  }
  return std::move(v.array);
}

// The communicator constructors: collectives whose result is a communicator handle.
Task<void> Executor::idup(RankEnv& env, NameId name, const mpi::Communicator& parent,
                          Task<const mpi::Communicator*> made) {
  const mpi::Communicator* c = co_await std::move(made);
  bind(env.comms(), name, c);
  inherit_errhandler(env, parent, c);
  world_.end_activity();
}

Task<Status> Executor::construct(RankEnv& env, const Step& s, mpi::Rank& rk) {
  const mpi::Communicator* made = nullptr;
  switch (s.spec->id) {
    case CallId::comm_dup: {
      const auto& c = comm_arg(env, s);
      made = co_await coll::comm::dup(rk, c, next_instance(env, c), names_.str(arg(s, P::newcomm).name));
      bind(env.comms(), arg(s, P::newcomm).name, made);
      inherit_errhandler(env, c, made);
      break;
    }
    case CallId::comm_split: {
      const auto& c = comm_arg(env, s);
      int color = rank_arg(env, s, P::color), key = rank_arg(env, s, P::key);
      made = co_await coll::comm::split(rk, c, next_instance(env, c), color, key, names_.str(arg(s, P::newcomm).name));
      bind(env.comms(), arg(s, P::newcomm).name, made);
      inherit_errhandler(env, c, made);
      break;
    }
    case CallId::comm_split_type: {
      const auto& c = comm_arg(env, s);
      if (const Arg& info = arg(s, P::info); info.present) mpi::check_info(eval_int(env, *info.expr));
      const int color = mpi::split_type_color(int_arg(env, s, P::split_type), nullptr, c, env.rank,
                                              [&](std::uint32_t r) { return world_.node_of(r); })
                            .color;
      const int key = rank_arg(env, s, P::key);
      made = co_await coll::comm::split(rk, c, next_instance(env, c), color, key, names_.str(arg(s, P::newcomm).name));
      bind(env.comms(), arg(s, P::newcomm).name, made);
      inherit_errhandler(env, c, made);
      break;
    }
    case CallId::comm_create: {
      const auto& c = comm_arg(env, s);
      auto g = group_arg(env, s, P::group);
      made = co_await coll::comm::create(rk, c, next_instance(env, c), g, names_.str(arg(s, P::newcomm).name));
      bind(env.comms(), arg(s, P::newcomm).name, made);
      inherit_errhandler(env, c, made);
      break;
    }
    case CallId::comm_create_group: {
      const auto& c = comm_arg(env, s);
      auto g = group_arg(env, s, P::group);
      int tag = rank_arg(env, s, P::tag);
      made = co_await coll::comm::create_group(rk, c, g, tag, names_.str(arg(s, P::newcomm).name));
      bind(env.comms(), arg(s, P::newcomm).name, made);
      inherit_errhandler(env, c, made);
      break;
    }
    case CallId::intercomm_create: {
      const auto& local = comm_arg(env, s, P::local_comm);
      int leader = rank_arg(env, s, P::local_leader);
      int tag = rank_arg(env, s, P::tag);
      const mpi::Communicator* peer = nullptr;
      int remote_leader = -1;
      if (local.rank_of(env.rank, env.rank) == leader) {
        // peer_comm and remote_leader are significant only at the local leader.
        need(s, P::peer_comm, "at the local leader");
        need(s, P::remote_leader, "at the local leader");
        peer = &comm_arg(env, s, P::peer_comm);
        remote_leader = rank_arg(env, s, P::remote_leader);
      }
      made = co_await coll::comm::intercomm_create(rk, local, next_instance(env, local), leader, peer, remote_leader,
                                                   tag, names_.str(arg(s, P::newintercomm).name));
      bind(env.comms(), arg(s, P::newintercomm).name, made);
      inherit_errhandler(env, local, made);
      break;
    }
    case CallId::intercomm_create_from_groups: {
      auto local = group_arg(env, s, P::local_group), remote = group_arg(env, s, P::remote_group);
      const int local_leader = rank_arg(env, s, P::local_leader), remote_leader = rank_arg(env, s, P::remote_leader);
      if (const Arg& info = arg(s, P::info); info.present) mpi::check_info(eval_int(env, *info.expr));
      const std::int64_t handler = int_arg(env, s, P::errhandler);
      mpi::check_errhandler(handler, "errhandler");
      made = co_await coll::comm::intercomm_create_from_groups(rk, std::move(local), local_leader, std::move(remote),
                                                               remote_leader, arg(s, P::stringtag).text,
                                                               names_.str(arg(s, P::newintercomm).name));
      bind(env.comms(), arg(s, P::newintercomm).name, made);
      if (handler != mpi::ERRORS_ARE_FATAL) set_errhandler(env, *made, handler);
      break;
    }
    case CallId::intercomm_merge: {
      const auto& inter = comm_arg(env, s, P::intercomm);
      bool high = int_arg(env, s, P::high) != 0;
      made = co_await coll::comm::intercomm_merge(rk, inter, next_instance(env, inter), high,
                                                  names_.str(arg(s, P::newintracomm).name));
      bind(env.comms(), arg(s, P::newintracomm).name, made);
      inherit_errhandler(env, inter, made);
      break;
    }
    case CallId::cart_create:
    case CallId::cart_sub:
    case CallId::graph_create:
    case CallId::dist_graph_create:
    case CallId::dist_graph_create_adjacent: {
      const P out = s.spec->id == CallId::cart_create  ? P::comm_cart
                    : s.spec->id == CallId::graph_create ? P::comm_graph
                    : s.spec->id == CallId::cart_sub     ? P::newcomm
                                                         : P::comm_dist_graph;
      made = co_await construct_topology(env, s, rk);
      bind(env.comms(), arg(s, out).name, made);
      if (const mpi::Communicator* parent = comm_or_null(env, s, 0)) inherit_errhandler(env, *parent, made);
      break;
    }
    default: throw std::logic_error("construct: not a constructor");
  }
  co_return Status{};
}

}  // namespace mpisim::scenario::exec
