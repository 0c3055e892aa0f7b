// The point-to-point calls and the completion calls.
#include "model/coll/comm/constructors.hpp"
#include "model/scenario/executor.hpp"

namespace mpisim::scenario::exec {

void Executor::bind_request(RankEnv& env, const Step& s, Request* r) {
  const Arg& a = arg(s, P::request);
  if (Request** old = find_in(env.requests(), a.name); old && *old)
    throw MpiError(mpi::ErrorClass::request, "request",
                   "request '" + names_.str(a.name) + "' is still active; complete it before reusing its name",
                   "MPI-4.1 §3.7.3: every request must be completed by a wait or test");
  if (std::unique_ptr<Persistent>* p = find_in(env.persistent(), a.name); p && *p)
    throw MpiError(mpi::ErrorClass::request, "request",
                   "request '" + names_.str(a.name) + "' is a persistent request; free it (MPI_Request_free) "
                   "before reusing its name",
                   "MPI-4.1 §3.9: a persistent request is freed with MPI_Request_free");
  bind(env.requests(), a.name, r);
}

mpi::MatchedMessage& Executor::message_arg(RankEnv& env, const Step& s) {
  const NameId id = arg(s, P::message).name;
  mpi::MatchedMessage* m = find_in(env.messages(), id);
  if (!m)
    throw MpiError(mpi::ErrorClass::request, "message",
                   "message '" + names_.str(id) + "' was never returned by MPI_Mprobe or MPI_Improbe on this rank",
                   "MPI-4.1 §3.8.3: MPI_Mrecv and MPI_Imrecv receive a message that a matched probe returned");
  return *m;
}

const Status& Executor::status_arg(RankEnv& env, const Step& s, const char* rule) {
  const Arg& a = arg(s, P::status);
  const Status* st = find_in(env.statuses(), a.name);
  if (!st)
    throw MpiError(mpi::ErrorClass::arg, "status", "status '" + names_.str(a.name) + "' was never filled in", rule);
  return *st;
}

void Executor::init_p2p(RankEnv& env, const Step& s, mpi::Rank& rk) {
  const CallId id = s.spec->id;
  const bool send = id != CallId::recv_init;
  mpi::SendMode mode = mpi::SendMode::standard;
  if (id == CallId::ssend_init) mode = mpi::SendMode::synchronous;
  if (id == CallId::bsend_init) mode = mpi::SendMode::buffered;
  if (id == CallId::rsend_init) mode = mpi::SendMode::ready;
  auto t = type_arg(env, s, P::datatype);
  auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
  const int peer = rank_arg(env, s, send ? P::dest : P::source), tag = rank_arg(env, s, P::tag);
  mpi::PersistentP2P op = rk.p2p_init(send, mode, b, std::move(t), peer, tag, comm_arg(env, s));
  bind_request(env, s, nullptr);
  auto p = std::make_unique<Persistent>();
  p->p2p = std::move(op);
  bind(env.persistent(), arg(s, P::request).name, std::move(p));
}

// The point-to-point calls that never block: ranks, requests, tests.
bool Executor::p2p_call(RankEnv& env, const Step& s) {
  mpi::Rank& rk = world_.rank(env.rank);
  switch (s.spec->id) {
    case CallId::comm_rank: {
      const auto& c = comm_arg(env, s);
      bind_int(env, s, P::rank, c.rank_of(env.rank, env.rank));
      return true;
    }
    case CallId::comm_size: bind_int(env, s, P::size, comm_arg(env, s).size()); return true;
    case CallId::wtime: bind_int(env, s, P::result, world_.engine().now().ps); return true;
    case CallId::wtick: bind_int(env, s, P::result, 1); return true;  // a picosecond
    case CallId::get_version:
      bind_int(env, s, P::version, mpi::VERSION);
      bind_int(env, s, P::subversion, mpi::SUBVERSION);
      return true;
    case CallId::initialized: bind_int(env, s, P::flag, 1); return true;
    case CallId::abort: {
      const auto& c = comm_arg(env, s);
      const int code = rank_arg(env, s, P::errorcode);
      throw mpi::Aborted{code, "called MPI_Abort(" + c.name() + ", " + std::to_string(code) + ")"};
    }
    case CallId::finalized: bind_int(env, s, P::flag, 0); return true;
    case CallId::comm_set_errhandler: {
      const auto& c = comm_arg(env, s);
      const std::int64_t h = int_arg(env, s, P::errhandler);
      mpi::check_errhandler(h, "errhandler");
      set_errhandler(env, c, h);
      return true;
    }
    case CallId::comm_get_errhandler: bind_int(env, s, P::errhandler, errhandler_of(env, comm_arg(env, s))); return true;
    case CallId::errhandler_free: {
      Value* h = find_in(env.values(), arg(s, P::errhandler).name);
      if (!h || h->is_array || h->is_real)
        throw StepError("errhandler: '" + names_.str(arg(s, P::errhandler).name) +
                        "' must be a number bound before the call (an error handler MPI_Comm_get_errhandler gave)");
      mpi::check_errhandler(h->scalar, "errhandler");
      *h = Value::of(mpi::ERRHANDLER_NULL);  // the predefined handlers themselves stay
      return true;
    }
    case CallId::error_class: {
      bind_int(env, s, P::errorclass, mpi::error_class_of(rank_arg(env, s, P::errorcode), "errorcode"));
      return true;
    }
    case CallId::error_string: {
      const int code = rank_arg(env, s, P::errorcode);
      const Address at = address(env, arg(s, P::string), P::string);
      bind_int(env, s, P::resultlen, mpi::error_string(rk.memory(), world_.payload(), at, code));
      return true;
    }
    case CallId::isend:
    case CallId::irecv: {
      const bool send = s.spec->id == CallId::isend;
      auto t = type_arg(env, s, P::datatype);
      std::int64_t n = int_arg(env, s, P::count);
      auto b = typed(env, s, P::buf, n, t);
      const int peer = rank_arg(env, s, send ? P::dest : P::source), tag = rank_arg(env, s, P::tag);
      const auto& c = comm_arg(env, s);
      bind_request(env, s, send ? rk.isend_held(b, t, peer, tag, c) : rk.irecv_held(b, t, peer, tag, c));
      return true;
    }
    case CallId::issend:
    case CallId::ibsend:
    case CallId::irsend: bind_request(env, s, send_in_mode(env, s, rk, true)); return true;
    case CallId::buffer_attach: {
      const std::int64_t size = int_arg(env, s, P::size);
      rk.buffer_attach(address(env, arg(s, P::buffer), P::buffer), size);
      return true;
    }
    case CallId::buffer_detach: {
      const auto [at, size] = rk.buffer_detach();
      if (arg(s, P::buffer_addr).present) bind_int(env, s, P::buffer_addr, at);
      if (arg(s, P::size).present) bind_int(env, s, P::size, size);
      return true;
    }
    case CallId::test: {
      Request*& r = request_slot(env, arg(s, P::request).name, "request");
      Status st;
      bool done = rk.test(r, &st);
      bind_int(env, s, P::flag, done ? 1 : 0);
      if (done) bind_status(env, s, P::status, st);
      return true;
    }
    case CallId::request_get_status: {
      const Request* r = request_slot(env, arg(s, P::request).name, "request");
      Status st;
      const bool done = rk.request_get_status(r, &st);
      bind_int(env, s, P::flag, done ? 1 : 0);
      if (done) bind_status(env, s, P::status, st);
      return true;
    }
    case CallId::iprobe: {
      auto st = rk.iprobe(rank_arg(env, s, P::source), rank_arg(env, s, P::tag), comm_arg(env, s));
      bind_int(env, s, P::flag, st ? 1 : 0);
      if (st) bind_status(env, s, P::status, *st);
      return true;
    }
    case CallId::get_count: {
      const Status& st = status_arg(env, s, "MPI-4.1 §3.2.5: MPI_Get_count reads the status a receive returned");
      mpi::check_not_cancelled(st.cancelled, "MPI_Get_count");
      bind_int(env, s, P::count, mpi::get_count(st.bytes, *type_arg(env, s, P::datatype)));
      return true;
    }
    case CallId::test_cancelled: {
      const Status& st = status_arg(env, s, "MPI-4.1 §3.8.4: MPI_Test_cancelled reads the status a wait or test returned");
      bind_int(env, s, P::flag, st.cancelled ? 1 : 0);
      return true;
    }
    case CallId::send_init:
    case CallId::ssend_init:
    case CallId::bsend_init:
    case CallId::rsend_init:
    case CallId::recv_init: init_p2p(env, s, rk); return true;
    case CallId::cancel: {
      const NameId id = arg(s, P::request).name;
      Request* r = request_slot(env, id, "request");
      if (const Persistent* p = persistent_of(env, id)) coll::check_cancel(*p, r != nullptr, "request '" + names_.str(id) + "'");
      rk.cancel(r);
      return true;
    }
    case CallId::improbe: {
      mpi::MatchedMessage m;
      auto st = rk.improbe(rank_arg(env, s, P::source), rank_arg(env, s, P::tag), comm_arg(env, s), &m);
      bind_int(env, s, P::flag, st ? 1 : 0);
      if (!st) return true;
      bind(env.messages(), arg(s, P::message).name, m);
      bind_status(env, s, P::status, *st);
      return true;
    }
    case CallId::imrecv: {
      auto t = type_arg(env, s, P::datatype);
      auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
      mpi::MatchedMessage& m = message_arg(env, s);
      bind_request(env, s, rk.imrecv(b, std::move(t), m, true));
      return true;
    }
    case CallId::testall: {
      std::vector<Request*> reqs = gather_requests(env, s, P::count);
      std::vector<Status> sts(reqs.size());
      bool done = false;
      try {
        done = rk.test_all(reqs, sts);
      } catch (const MpiError& e) {
        write_back(env, s, reqs);
        throw mpi::in_status(e);
      }
      write_back(env, s, reqs);
      bind_int(env, s, P::flag, done ? 1 : 0);
      if (done) bind_statuses(env, s, sts);
      return true;
    }
    case CallId::testany: {
      std::vector<Request*> reqs = gather_requests(env, s, P::count);
      Status st;
      int index = mpi::UNDEFINED;
      const bool done = rk.test_any(reqs, &index, &st);
      write_back(env, s, reqs);
      bind_int(env, s, P::index, index);
      bind_int(env, s, P::flag, done ? 1 : 0);
      if (done) bind_status(env, s, P::status, st);
      return true;
    }
    case CallId::testsome: {
      std::vector<Request*> reqs = gather_requests(env, s, P::incount);
      std::vector<int> indices;
      std::vector<Status> sts;
      int n = 0;
      try {
        n = rk.test_some(reqs, &indices, &sts);
      } catch (const MpiError& e) {
        write_back(env, s, reqs);
        throw mpi::in_status(e);
      }
      write_back(env, s, reqs);
      bind_some(env, s, n, indices, sts);
      return true;
    }
    case CallId::comm_idup: {
      const auto& c = comm_arg(env, s);
      const NameId name = arg(s, P::newcomm).name;
      Task<void> body = idup(env, name, c, coll::comm::dup(rk, c, next_instance(env, c), names_.str(name)));
      Request* r = world_.start_activity(env.rank, std::move(body), c, "MPI_Comm_idup");
      started_.push_back(r);
      bind_request(env, s, r);
      return true;
    }
    case CallId::request_get_status_any: {
      const std::vector<Request*> reqs = gather_requests(env, s, P::count);
      Status st;
      int index = mpi::UNDEFINED;
      const bool done = rk.request_get_status_any(reqs, &index, &st);
      bind_int(env, s, P::index, index);
      bind_int(env, s, P::flag, done ? 1 : 0);
      if (done) bind_status(env, s, P::status, st);
      return true;
    }
    case CallId::request_get_status_all: {
      const std::vector<Request*> reqs = gather_requests(env, s, P::count);
      std::vector<Status> sts(reqs.size());
      const bool done = rk.request_get_status_all(reqs, sts);
      bind_int(env, s, P::flag, done ? 1 : 0);
      if (done) bind_statuses(env, s, sts);
      return true;
    }
    case CallId::request_get_status_some: {
      const std::vector<Request*> reqs = gather_requests(env, s, P::incount);
      std::vector<int> indices;
      std::vector<Status> sts;
      bind_some(env, s, rk.request_get_status_some(reqs, &indices, &sts), indices, sts);
      return true;
    }
    case CallId::isendrecv: {
      auto st_t = type_arg(env, s, P::sendtype);
      auto rt_t = type_arg(env, s, P::recvtype);
      auto sb = typed(env, s, P::sendbuf, int_arg(env, s, P::sendcount), st_t);
      auto rb = typed(env, s, P::recvbuf, int_arg(env, s, P::recvcount), rt_t);
      const int dest = rank_arg(env, s, P::dest), sendtag = rank_arg(env, s, P::sendtag);
      const int source = rank_arg(env, s, P::source), recvtag = rank_arg(env, s, P::recvtag);
      const auto& c = comm_arg(env, s);
      bind_request(env, s, rk.isendrecv_request(sb, std::move(st_t), dest, sendtag, rb, std::move(rt_t), source, recvtag, c));
      return true;
    }
    case CallId::isendrecv_replace: {
      auto t = type_arg(env, s, P::datatype);
      auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
      const int dest = rank_arg(env, s, P::dest), sendtag = rank_arg(env, s, P::sendtag);
      const int source = rank_arg(env, s, P::source), recvtag = rank_arg(env, s, P::recvtag);
      const auto& c = comm_arg(env, s);
      bind_request(env, s, rk.isendrecv_replace_request(b, std::move(t), dest, sendtag, source, recvtag, c));
      return true;
    }
    case CallId::request_free: {
      const NameId id = arg(s, P::request).name;
      if (std::unique_ptr<Persistent>* p = find_in(env.persistent(), id); p && *p) {
        Request*& active = request_slot(env, id, "request");
        coll::check_free(**p, active != nullptr, "request '" + names_.str(id) + "'");
        if (active) rk.free_request(active);
        p->reset();
        return true;
      }
      rk.free_request(request_slot(env, id, "request"));
      return true;
    }
    case CallId::start: start_persistent(env, rk, arg(s, P::request).name, "request"); return true;
    case CallId::startall: {
      const Arg& a = arg(s, P::array_of_requests);
      check_request_count(env, s, P::count, a.names.size());
      // MPI-4.1 §3.9: as MPI_Start on each, in order.
      for (NameId id : a.names) start_persistent(env, rk, id, "array_of_requests");
      return true;
    }
    default: return false;
  }
}

// The statuses of a completion call (array_of_statuses), as the arrays
// <name>.MPI_SOURCE and <name>.MPI_TAG.
void Executor::bind_statuses(RankEnv& env, const Step& s, const std::vector<Status>& sts) {
  const Arg& so = arg(s, P::array_of_statuses);
  if (!so.present || so.ignore) return;
  const std::string& base = names_.str(so.name);
  std::vector<std::int64_t> src, tag;
  for (const Status& st : sts) src.push_back(st.source), tag.push_back(st.tag);
  bind(env.values(), names_.intern(base + ".MPI_SOURCE"), Value::of(std::move(src)));
  bind(env.values(), names_.intern(base + ".MPI_TAG"), Value::of(std::move(tag)));
}

// MPI_Waitsome and MPI_Testsome's results.
void Executor::bind_some(RankEnv& env, const Step& s, int n, const std::vector<int>& indices, const std::vector<Status>& sts) {
  bind_int(env, s, P::outcount, n);
  std::vector<std::int64_t> idx(indices.begin(), indices.end());
  bind(env.values(), arg(s, P::array_of_indices).name, Value::of(std::move(idx)));
  bind_statuses(env, s, sts);
}

// Calls that may block. The simple ones prepare here, outside any coroutine, and
// hand back the runtime's own small waiting coroutine, so a blocked rank's frames
// stay small. Each returns the status run_program binds to "status", if given.
Blocking Executor::call_async(RankEnv& env, const Step& s) {
  mpi::Rank& rk = world_.rank(env.rank);
  switch (s.spec->id) {
    case CallId::send: {
      auto t = type_arg(env, s, P::datatype);
      auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
      return pending(env, rk.isend(b, t, rank_arg(env, s, P::dest), rank_arg(env, s, P::tag), comm_arg(env, s)));
    }
    case CallId::ssend:
    case CallId::bsend:
    case CallId::rsend: return pending(env, send_in_mode(env, s, rk, false));
    case CallId::recv: {
      auto t = type_arg(env, s, P::datatype);
      auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
      return pending(env, rk.irecv(b, t, rank_arg(env, s, P::source), rank_arg(env, s, P::tag), comm_arg(env, s)));
    }
    case CallId::wait: {
      Request*& r = request_slot(env, arg(s, P::request).name, "request");
      return pending(env, std::exchange(r, nullptr));
    }
    case CallId::probe: return rk.probe(rank_arg(env, s, P::source), rank_arg(env, s, P::tag), comm_arg(env, s));
    case CallId::mprobe: {
      const int source = rank_arg(env, s, P::source), tag = rank_arg(env, s, P::tag);
      const auto& c = comm_arg(env, s);
      // The message is bound when the probe matches; the slot stays put while the rank waits.
      const NameId id = arg(s, P::message).name;
      bind(env.messages(), id, mpi::MatchedMessage{});
      return rk.mprobe(source, tag, c, find_in(env.messages(), id));
    }
    case CallId::mrecv: {
      auto t = type_arg(env, s, P::datatype);
      auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
      return pending(env, rk.imrecv(b, std::move(t), message_arg(env, s), false));
    }
    case CallId::waitall: return waitall(env, s, rk);
    case CallId::waitany: return waitany(env, s, rk);
    case CallId::sendrecv: return sendrecv(env, s, rk);
    case CallId::sendrecv_replace: return sendrecv_replace(env, s, rk);
    case CallId::comm_dup:
    case CallId::comm_split:
    case CallId::comm_split_type:
    case CallId::comm_create:
    case CallId::comm_create_group:
    case CallId::intercomm_create:
    case CallId::intercomm_merge:
    case CallId::intercomm_create_from_groups:
    case CallId::cart_create:
    case CallId::cart_sub:
    case CallId::graph_create:
    case CallId::dist_graph_create:
    case CallId::dist_graph_create_adjacent: return construct(env, s, rk);
    case CallId::waitsome: return waitsome(env, s, rk);
    default: {
      coll::Collective kind;
      coll::Form form = coll::Form::blocking;
      if (!collective_of(s.spec->id, &kind, &form) || form != coll::Form::blocking) return {};  // never blocks
      return collective(env, s, rk, kind);
    }
  }
}

// The optional count parameter of a call on an array of requests: its length.
void Executor::check_request_count(RankEnv& env, const Step& s, P count_param, std::size_t n) {
  if (const Arg& c = arg(s, count_param); c.present) {
    std::int64_t v = eval_int(env, *c.expr);
    if (v != static_cast<std::int64_t>(n))
      throw MpiError(mpi::ErrorClass::count, param_name(count_param),
                     std::string(param_name(count_param)) + " = " + std::to_string(v) +
                         " but array_of_requests names " + std::to_string(n) + " requests",
                     std::string("MPI-4.1 §3.7.5: ") + param_name(count_param) +
                         " is the length of array_of_requests");
  }
}

std::vector<Request*> Executor::gather_requests(RankEnv& env, const Step& s, P count_param) {
  const Arg& a = arg(s, P::array_of_requests);
  check_request_count(env, s, count_param, a.names.size());
  std::vector<Request*> reqs;
  for (NameId id : a.names) reqs.push_back(request_slot(env, id, "array_of_requests"));
  return reqs;
}

void Executor::write_back(RankEnv& env, const Step& s, const std::vector<Request*>& reqs) {
  const Arg& a = arg(s, P::array_of_requests);
  for (std::size_t i = 0; i < reqs.size(); ++i) *find_in(env.requests(), a.names[i]) = reqs[i];
}

Task<Status> Executor::waitall(RankEnv& env, const Step& s, mpi::Rank& rk) {
  std::vector<Request*> reqs = gather_requests(env, s);
  std::vector<Status> sts(reqs.size());
  // The names are cleared first: a failing request must not stay bound.
  const Arg& a = arg(s, P::array_of_requests);
  for (NameId id : a.names) *find_in(env.requests(), id) = nullptr;
  try {
    co_await rk.wait_all(reqs, sts);
  } catch (const MpiError& e) {
    throw mpi::in_status(e);
  }
  bind_statuses(env, s, sts);
  co_return Status{};
}

Task<Status> Executor::waitsome(RankEnv& env, const Step& s, mpi::Rank& rk) {
  std::vector<Request*> reqs = gather_requests(env, s, P::incount);
  std::vector<int> indices;
  std::vector<Status> sts;
  int n = 0;
  try {
    n = co_await rk.wait_some(reqs, &indices, &sts);
  } catch (const MpiError& e) {
    write_back(env, s, reqs);
    throw mpi::in_status(e);
  }
  write_back(env, s, reqs);
  bind_some(env, s, n, indices, sts);
  co_return Status{};
}

Task<Status> Executor::waitany(RankEnv& env, const Step& s, mpi::Rank& rk) {
  std::vector<Request*> reqs = gather_requests(env, s);
  Status st;
  int index = co_await rk.wait_any(reqs, &st);
  write_back(env, s, reqs);
  bind_int(env, s, P::index, index);
  co_return st;
}

Request* Executor::send_in_mode(RankEnv& env, const Step& s, mpi::Rank& rk, bool nonblocking) {
  mpi::SendMode mode = mpi::SendMode::ready;
  switch (s.spec->id) {
    case CallId::ssend:
    case CallId::issend: mode = mpi::SendMode::synchronous; break;
    case CallId::bsend:
    case CallId::ibsend: mode = mpi::SendMode::buffered; break;
    default: break;  // MPI_Rsend, MPI_Irsend
  }
  auto t = type_arg(env, s, P::datatype);
  auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
  return rk.isend_mode(b, t, rank_arg(env, s, P::dest), rank_arg(env, s, P::tag), comm_arg(env, s), mode, nonblocking);
}

Blocking Executor::sendrecv(RankEnv& env, const Step& s, mpi::Rank& rk) {
  auto st_t = type_arg(env, s, P::sendtype);
  auto rt_t = type_arg(env, s, P::recvtype);
  auto sb = typed(env, s, P::sendbuf, int_arg(env, s, P::sendcount), st_t);
  auto rb = typed(env, s, P::recvbuf, int_arg(env, s, P::recvcount), rt_t);
  auto [recv, send] = rk.isendrecv(sb, st_t, rank_arg(env, s, P::dest), rank_arg(env, s, P::sendtag), rb, rt_t,
                                   rank_arg(env, s, P::source), rank_arg(env, s, P::recvtag), comm_arg(env, s));
  return pending(env, recv, send);
}

Task<Status> Executor::sendrecv_replace(RankEnv& env, const Step& s, mpi::Rank& rk) {
  auto t = type_arg(env, s, P::datatype);
  const std::int64_t n = int_arg(env, s, P::count);
  auto b = typed(env, s, P::buf, n, t);
  const auto& c = comm_arg(env, s);
  return rk.sendrecv_replace(b, std::move(t), rank_arg(env, s, P::dest), rank_arg(env, s, P::sendtag),
                             rank_arg(env, s, P::source), rank_arg(env, s, P::recvtag), c);
}

}  // namespace mpisim::scenario::exec
