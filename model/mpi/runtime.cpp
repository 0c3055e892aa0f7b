#include "model/mpi/runtime.hpp"

#include <algorithm>
#include <iterator>
#include <cassert>
#include <exception>
#include <stdexcept>

#include "model/mpi/op.hpp"
#include "model/mpi/overlap.hpp"

namespace mpisim::mpi {
namespace {

constexpr const char* kRuleRank = "MPI-4.1 §3.2.3: dest/source must be a rank of the communicator's group, or MPI_PROC_NULL";
constexpr const char* kRuleTag = "MPI-4.1 §3.2.3: tags range from 0 to MPI_TAG_UB; only receives may use MPI_ANY_TAG";
constexpr const char* kRuleCount = "MPI-4.1 §3.2.2: count is a non-negative integer";
constexpr const char* kRuleCommit = "MPI-4.1 §5.1.9: a datatype must be committed before it is used in communication";
constexpr const char* kRuleTruncate =
    "MPI-4.1 §3.2.4: a message longer than the receive buffer is an overflow; the receive fails with MPI_ERR_TRUNCATE";
constexpr const char* kRuleMatch =
    "MPI-4.1 §3.3.1: the type signature of the send must match (be a prefix of) that of the receive";

bool matches(int want_source, int want_tag, std::uint32_t want_ctx, const Message& m) {
  return m.context == want_ctx && (want_source == ANY_SOURCE || want_source == m.src) &&
         (want_tag == ANY_TAG || want_tag == m.tag);
}

std::string rank_text(int r) {
  if (r == ANY_SOURCE) return "MPI_ANY_SOURCE";
  if (r == PROC_NULL) return "MPI_PROC_NULL";
  return std::to_string(r);
}

std::string tag_text(int t) { return t == ANY_TAG ? "MPI_ANY_TAG" : std::to_string(t); }

}  // namespace

// ---------------------------------------------------------------------------
// Waiting

bool Rank::wait_ready(std::span<Request*> reqs, bool any) {
  SimTime t = now();
  SimTime latest{};
  SimTime earliest = SimTime::never();
  bool some_complete = false;
  std::uint32_t incomplete = 0;
  for (Request* r : reqs) {
    if (r == nullptr) continue;
    if (r->complete) {
      some_complete = true;
      latest = max(latest, r->done_at);
      earliest = std::min(earliest, r->done_at);
    } else {
      ++incomplete;
    }
  }
  if (any && some_complete) {
    incomplete = 0;
    latest = earliest;
  }
  if (world_->running_ != nullptr) [[unlikely]] {
    // An activity's work runs beside the program's (see Activity): it does not
    // wait for the program's CPU.
    Activity& a = *world_->running_;
    a.needed = incomplete;
    a.time = incomplete > 0 ? latest : max(latest, t);
    return incomplete == 0 && a.time == t;
  }
  wait_needed_ = incomplete;
  if (incomplete > 0) {
    wait_time_ = latest;
    return false;
  }
  // The program resumes once its CPU is free.
  wait_time_ = max(latest, max(t, world_->model_.cpu_free(id_)));
  return wait_time_ == t;
}

// The program's path and an activity's do the same with their own wait state;
// the program's is kept free of the activity's indirections (it is the hot one).
void Rank::wait_suspend(std::span<Request*> reqs, bool any, std::coroutine_handle<> h) {
  if (world_->running_ != nullptr) [[unlikely]] {
    activity_wait_suspend(*world_->running_, reqs, any, h);
    return;
  }
  if (wait_needed_ == 0) {
    resume_at(wait_time_, h);
    return;
  }
  for (Request* r : reqs)
    if (r != nullptr && !r->complete) r->awaited = true;  // by the program: Request::thread stays 0
  waiter_ = h;
  if (any) {
    wait_needed_ = 1;
    wait_time_ = SimTime{};
  }
  waiting_on_ = reqs;
}

void Rank::activity_wait_suspend(Activity& a, std::span<Request*> reqs, bool any, std::coroutine_handle<> h) {
  if (a.needed == 0) {
    world_->resume_activity_at(a, a.time, h);
    return;
  }
  for (Request* r : reqs)
    if (r != nullptr && !r->complete) {
      r->awaited = true;
      r->thread = a.thread;  // a request is awaited by one thread all its life
    }
  a.waiter = h;
  if (any) {
    a.needed = 1;
    a.time = SimTime{};
  }
  a.waiting_on = reqs;
}

void Rank::wait_over(std::span<Request*> reqs) {
  for (Request* r : reqs)
    if (r != nullptr) r->awaited = false;
  if (world_->running_ != nullptr) [[unlikely]] world_->running_->waiting_on = {};
  else waiting_on_ = {};
}

struct Rank::WaitAnyAwaiter {
  Rank& rank;
  std::span<Request*> reqs;
  bool await_ready() { return rank.wait_ready(reqs, true); }
  void await_suspend(std::coroutine_handle<> h) { rank.wait_suspend(reqs, true, h); }
  void await_resume() { rank.wait_over(reqs); }
};

void Rank::on_complete(Request* r) {
  if (!r->awaited) return;
  if (r->thread != 0) [[unlikely]] {
    // Awaited by one of the rank's activities.
    Activity* a = world_->find_activity(id_, r->thread);
    if (a == nullptr || a->waiter == nullptr) return;
    a->time = max(a->time, r->done_at);
    if (--a->needed > 0) return;
    auto h = std::exchange(a->waiter, nullptr);
    world_->resume_activity_at(*a, max(a->time, now()), h);
    return;
  }
  if (waiter_ == nullptr || probe_) return;
  wait_time_ = max(wait_time_, r->done_at);
  if (--wait_needed_ > 0) return;
  auto h = waiter_;
  waiter_ = nullptr;
  SimTime at = max(wait_time_, max(now(), world_->model_.cpu_free(id_)));
  resume_at(at, h);
}

inline void Rank::resume_at(SimTime t, std::coroutine_handle<> h) {
  assert(resume_ == nullptr);  // a rank's program waits for one resumption at most
  resume_ = h;
  if (world_->keep_resumption_ && world_->kept_ == nullptr && world_->kept_activity_ == nullptr && t == now()) {
    world_->kept_ = this;  // the stage that completed the wait resumes it (docs/semantics.md)
    return;
  }
  world_->engine_.at(t, world_->resume_stage_, id_);
}

void Rank::finish(Request* r, Status* status) {
  if (status) *status = r->status;
  ErrorClass cls = r->status.error;
  std::unique_ptr<Request::Failure> f = std::move(r->failure);
  world_->release(r);
  if (cls != ErrorClass::success) throw MpiError(cls, f->argument, f->text, f->rule);
}

Status Rank::WaitOne::await_resume() {
  Status st;
  if (req == nullptr) return st;  // MPI_REQUEST_NULL: an empty status (MPI-4.1 §3.7.3)
  rank.wait_over(std::span<Request*>(&req, 1));
  rank.finish(req, &st);
  return st;
}

Status Rank::WaitAll::await_resume() {
  rank.wait_over(reqs);
  // Free every request before reporting the first error, so none leaks.
  std::exception_ptr error;
  Status first;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    Request* r = std::exchange(reqs[i], nullptr);
    if (r == nullptr) continue;
    try {
      rank.finish(r, !statuses.empty() ? &statuses[i] : i == 0 ? &first : nullptr);
    } catch (const MpiError&) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  return statuses.empty() ? first : statuses[0];
}

Task<int> Rank::wait_any(std::span<Request*> reqs, Status* status) {
  if (std::all_of(reqs.begin(), reqs.end(), [](Request* r) { return r == nullptr; })) {
    if (status) *status = Status{};
    co_return UNDEFINED;
  }
  co_await WaitAnyAwaiter{*this, reqs};
  // The one completed earliest; ties go to the lowest index.
  int best = -1;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    Request* r = reqs[i];
    if (r && r->complete && (best < 0 || r->done_at < reqs[static_cast<std::size_t>(best)]->done_at))
      best = static_cast<int>(i);
  }
  assert(best >= 0);
  Request* r = std::exchange(reqs[static_cast<std::size_t>(best)], nullptr);
  finish(r, status);
  co_return best;
}

bool Rank::test_all(std::span<Request*> reqs, std::span<Status> statuses) {
  for (Request* r : reqs)
    if (r != nullptr && (!r->complete || r->done_at > now())) return false;
  std::exception_ptr error;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    Status* st = statuses.empty() ? nullptr : &statuses[i];
    Request* r = std::exchange(reqs[i], nullptr);
    if (r == nullptr) {
      if (st) *st = Status{};
      continue;
    }
    try {
      finish(r, st);
    } catch (const MpiError&) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  return true;
}

namespace {
// The request of `reqs` complete by `now` that completed first (ties: the lowest
// index); -1 if none.
int first_complete(std::span<Request* const> reqs, SimTime now) {
  int best = -1;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const Request* r = reqs[i];
    if (r && r->complete && r->done_at <= now && (best < 0 || r->done_at < reqs[static_cast<std::size_t>(best)]->done_at))
      best = static_cast<int>(i);
  }
  return best;
}
bool all_null(std::span<Request* const> reqs) {
  return std::all_of(reqs.begin(), reqs.end(), [](const Request* r) { return r == nullptr; });
}
}  // namespace

bool Rank::test_any(std::span<Request*> reqs, int* index, Status* status) {
  *index = UNDEFINED;
  if (all_null(reqs)) {
    if (status) *status = Status{};
    return true;
  }
  const int best = first_complete(reqs, now());
  if (best < 0) return false;
  *index = best;
  finish(std::exchange(reqs[static_cast<std::size_t>(best)], nullptr), status);
  return true;
}

int Rank::test_some(std::span<Request*> reqs, std::vector<int>* indices, std::vector<Status>* statuses) {
  indices->clear();
  statuses->clear();
  if (all_null(reqs)) return UNDEFINED;
  std::exception_ptr error;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    Request* r = reqs[i];
    if (r == nullptr || !r->complete || r->done_at > now()) continue;
    reqs[i] = nullptr;
    indices->push_back(static_cast<int>(i));
    statuses->emplace_back();
    try {
      finish(r, &statuses->back());
    } catch (const MpiError&) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  return static_cast<int>(indices->size());
}

Task<int> Rank::wait_some(std::span<Request*> reqs, std::vector<int>* indices, std::vector<Status>* statuses) {
  if (all_null(reqs)) {
    indices->clear();
    statuses->clear();
    co_return UNDEFINED;
  }
  co_await WaitAnyAwaiter{*this, reqs};
  co_return test_some(reqs, indices, statuses);
}

void Rank::free_request(Request*& req) {
  if (req == nullptr)
    throw MpiError(ErrorClass::request, "request", "the request is MPI_REQUEST_NULL",
                   "MPI-4.1 §3.7.3: MPI_Request_free takes an active or inactive request, not MPI_REQUEST_NULL");
  if (req->kind == Request::Kind::activity && !world_->point_to_point_activity(req))
    throw MpiError(ErrorClass::request, "request", "the request is a nonblocking collective's",
                   "MPI-4.1 §6.12: freeing the request of a nonblocking collective operation is erroneous; complete "
                   "it with a wait or a test");
  Request* r = std::exchange(req, nullptr);
  if (r->complete) world_->release(r);
  else r->freed = true;
}

bool Rank::test(Request*& req, Status* status) {
  if (req == nullptr) {
    if (status) *status = Status{};
    return true;
  }
  if (!req->complete || req->done_at > now()) return false;
  finish(std::exchange(req, nullptr), status);
  return true;
}

bool Rank::request_get_status(const Request* req, Status* status) const {
  if (req == nullptr) {
    if (status) *status = Status{};
    return true;
  }
  if (!req->complete || req->done_at > now()) return false;
  if (status) *status = req->status;
  return true;
}

bool Rank::request_get_status_any(std::span<Request* const> reqs, int* index, Status* status) const {
  *index = UNDEFINED;
  if (all_null(reqs)) {
    if (status) *status = Status{};
    return true;
  }
  const int best = first_complete(reqs, now());
  if (best < 0) return false;
  *index = best;
  if (status) *status = reqs[static_cast<std::size_t>(best)]->status;
  return true;
}

bool Rank::request_get_status_all(std::span<Request* const> reqs, std::span<Status> statuses) const {
  for (const Request* r : reqs)
    if (r != nullptr && (!r->complete || r->done_at > now())) return false;
  for (std::size_t i = 0; i < reqs.size() && !statuses.empty(); ++i)
    statuses[i] = reqs[i] ? reqs[i]->status : Status{};
  return true;
}

int Rank::request_get_status_some(std::span<Request* const> reqs, std::vector<int>* indices,
                                  std::vector<Status>* statuses) const {
  indices->clear();
  statuses->clear();
  if (all_null(reqs)) return UNDEFINED;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const Request* r = reqs[i];
    if (r == nullptr || !r->complete || r->done_at > now()) continue;
    indices->push_back(static_cast<int>(i));
    statuses->push_back(r->status);
  }
  return static_cast<int>(indices->size());
}

// ---------------------------------------------------------------------------
// Posting

Rank::Rank(World& w, std::uint32_t id) : world_(&w), id_(id) {}

SimTime Rank::now() const { return world_->engine_.now(); }

void Rank::validate_other_peer(int peer, const Communicator& comm, bool receive, const char* argument) const {
  if (peer == PROC_NULL) return;
  if (receive && peer == ANY_SOURCE) return;
  if (peer < 0 || peer >= comm.peer_count()) {
    std::string what = std::string(argument) + " = " + rank_text(peer) + " is not a rank of " + comm.name() +
                       " (" + std::string(comm.is_inter() ? "remote group size " : "size ") + std::to_string(comm.peer_count()) + ")";
    if (!receive && peer == ANY_SOURCE) what += "; MPI_ANY_SOURCE is only for receives";
    throw MpiError(ErrorClass::rank, argument, what, kRuleRank);
  }
}

void Rank::validate_tag(int tag, bool receive) const {
  if (receive && tag == ANY_TAG) return;
  if (tag < 0 || tag > TAG_UB)
    throw MpiError(ErrorClass::tag, "tag", "tag = " + tag_text(tag) + " is outside 0.." + std::to_string(TAG_UB),
                   kRuleTag);
}

void Rank::validate_buffer(const TypedBuffer& buf, const char* argument) const {
  if (buf.count < 0)
    throw MpiError(ErrorClass::count, "count", "count = " + std::to_string(buf.count) + " is negative", kRuleCount);
  if (!buf.type->committed())
    throw MpiError(ErrorClass::type, "datatype", "datatype " + buf.type->name() + " is not committed", kRuleCommit);
  check_access(buf, data_bytes(buf.count, *buf.type, "count"), argument);
}

[[gnu::always_inline]] inline Request* Rank::new_request(Request::Kind kind, const TypedBuffer& buf, TypeRef type,
                                                        int peer, int tag, const Communicator& comm, Context ctx) {
  // In the rank's slot while it has room (a rank visited touches one place), else
  // in the pool.
  const std::uint32_t context = comm.context(ctx);
  const bool collective = ctx == Context::collective;
  if (void* p = world_->arenas_ ? world_->slots_.allocate_marked(id_, sizeof(Request)) : nullptr)
    return new (p) Request(kind, id_, peer, tag, context, collective, &comm, buf, std::move(type));
  return world_->requests_.make(kind, id_, peer, tag, context, collective, &comm, buf, std::move(type));
}

void Rank::hold(HeldBuffers::Use use) {
  HeldBuffers& h = memory_.held_buffers();
  const void* op = use.op;
  const bool had = h.holds(op);  // one count per operation, whatever its buffers
  h.hold(std::move(use));
  if (!had && h.holds(op)) ++world_->held_ops_;
}

Request* Rank::isend_held(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm) {
  Request* r = isend(buf, type, dest, tag, comm);
  if (dest != PROC_NULL) hold({r, buf.addr, buf.count, std::move(type), "MPI_Isend", "buf", -1, dest, tag, false, true});
  return r;
}

Request* Rank::irecv_held(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm) {
  Request* r = irecv(buf, type, source, tag, comm);
  if (source != PROC_NULL) hold({r, buf.addr, buf.count, std::move(type), "MPI_Irecv", "buf", -1, source, tag, true, true});
  return r;
}

Request* Rank::isend(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm, Context ctx,
                     std::int64_t collective) {
  validate_peer(dest, comm, false, "dest");
  validate_tag(tag, false);
  validate_buffer(buf, "buf");
  check_held({buf.addr, buf.count, buf.type}, false, "buf");
  return start_send(buf, std::move(type), dest, tag, comm, ctx, collective, false, nullptr, nullptr,
                    ctx == Context::p2p && world_->sync_standard_ ? SendMode::synchronous : SendMode::standard);
}

const char* send_call_name(SendMode mode, bool nonblocking) {
  switch (mode) {
    case SendMode::standard: return nonblocking ? "MPI_Isend" : "MPI_Send";
    case SendMode::synchronous: return nonblocking ? "MPI_Issend" : "MPI_Ssend";
    case SendMode::buffered: return nonblocking ? "MPI_Ibsend" : "MPI_Bsend";
    case SendMode::ready: return nonblocking ? "MPI_Irsend" : "MPI_Rsend";
  }
  return "MPI_Send";
}

Request* Rank::isend_mode(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                          SendMode mode, bool nonblocking) {
  if (mode == SendMode::standard) return nonblocking ? isend_held(buf, type, dest, tag, comm) : isend(buf, type, dest, tag, comm);
  validate_peer(dest, comm, false, "dest");
  validate_tag(tag, false);
  validate_buffer(buf, "buf");
  check_held({buf.addr, buf.count, buf.type}, false, "buf");
  const char* call = send_call_name(mode, nonblocking);
  if (dest != PROC_NULL && mode == SendMode::ready) {
    // MPI-4.1 §3.4: the matching receive must already be posted (no real MPI can
    // tell; mpisim sees the destination's posted receives).
    const Rank& to = world_->rank(comm.peer_world(dest, id_));
    const std::uint32_t ctx = comm.context(Context::p2p);
    const int me = comm.rank_of(id_, id_);
    bool posted = false;
    for (const Request* q = to.posted_.first(); q != nullptr && !posted; q = to.posted_.after(q))
      posted = q->context == ctx && (q->peer == ANY_SOURCE || q->peer == me) && (q->tag == ANY_TAG || q->tag == tag);
    if (!posted)
      throw MpiError(ErrorClass::other, "dest",
                     std::string(call) + " to rank " + std::to_string(dest) + " (tag " + std::to_string(tag) +
                         ") started before rank " + std::to_string(dest) + " posted a receive that matches it",
                     "MPI-4.1 §3.4: a send in ready mode may start only if the matching receive is already posted");
  }
  if (dest != PROC_NULL && mode == SendMode::buffered) {
    const std::int64_t need = data_bytes(buf.count, *buf.type, "count") + BSEND_OVERHEAD;
    auto it = world_->attached_.find(id_);
    const std::string what = std::string(call) + " needs " + std::to_string(need) + " bytes of the attached buffer (" +
                             std::to_string(need - BSEND_OVERHEAD) + " of data and MPI_BSEND_OVERHEAD, " +
                             std::to_string(BSEND_OVERHEAD) + ")";
    constexpr const char* rule =
        "MPI-4.1 §3.6: a buffered send takes its room from the buffer MPI_Buffer_attach supplied, until the message "
        "has left; a send that does not fit is erroneous";
    if (it == world_->attached_.end())
      throw MpiError(ErrorClass::buffer, "buf", what + ", and no buffer is attached (MPI_Buffer_attach)", rule);
    if (it->second.used + need > it->second.size)
      throw MpiError(ErrorClass::buffer, "buf",
                     what + ", and " + std::to_string(it->second.size - it->second.used) + " of its " +
                         std::to_string(it->second.size) + " bytes are free",
                     rule);
    it->second.used += need;
  }
  Request* r = start_send(buf, type, dest, tag, comm, Context::p2p, -1, false, nullptr, nullptr, mode);
  if (nonblocking && dest != PROC_NULL) hold({r, buf.addr, buf.count, std::move(type), call, "buf", -1, dest, tag, false, true});
  return r;
}

void Rank::buffer_attach(Address addr, std::int64_t size) {
  if (size < 0)
    throw MpiError(ErrorClass::arg, "size", "size = " + std::to_string(size) + " is negative",
                   "MPI-4.1 §3.6.1: the size of the buffer is a non-negative count of bytes");
  if (world_->attached_.count(id_))
    throw MpiError(ErrorClass::buffer, "buffer", "a buffer is already attached to this process",
                   "MPI-4.1 §3.6.1: only one buffer can be attached to a process at a time; detach it first");
  static const TypeRef bytes = predefined_type("MPI_BYTE");
  check_access(TypedBuffer{&memory_, addr, size, bytes.get()}, data_bytes(size, *bytes, "size"), "buffer");
  World::Attached& a = world_->attached_[id_];
  a = World::Attached{addr, size, 0};
  // The program may not touch the attached buffer until it detaches it.
  hold({&a, addr, size, bytes, "MPI_Buffer_attach", "buffer", -1, -1, -1, true, false});
}

std::pair<Address, std::int64_t> Rank::buffer_detach() {
  auto it = world_->attached_.find(id_);
  if (it == world_->attached_.end()) return {0, 0};  // nothing attached: as MPICH, a null buffer of size 0
  const std::pair<Address, std::int64_t> out{it->second.addr, it->second.size};
  if (HeldBuffers* h = memory_.held(); h && h->release(&it->second)) --world_->held_ops_;
  world_->attached_.erase(it);
  return out;
}

Request* Rank::start_send(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                          Context ctx, std::int64_t collective, bool phantom, PackedBytes* packed,
                          std::vector<std::int32_t>* origins, SendMode mode, bool pinned) {
  const std::uint32_t dst_world = dest == PROC_NULL ? 0 : comm.peer_world(dest, id_);
  const auto bytes = static_cast<std::uint64_t>(buf.count * buf.type->size());
  const bool eager = bytes <= world_->model_.eager_limit();
  const std::int64_t held =
      dest == PROC_NULL ? 0 : world_->charge_message(*this, dst_world, bytes, eager, phantom, packed != nullptr, mode);
  Request* r = new_request(Request::Kind::send, buf, std::move(type), dest, tag, comm, ctx);
  r->phantom = phantom;
  if (dest == PROC_NULL) {
    r->status = Status{PROC_NULL, ANY_TAG, ErrorClass::success, false, 0};
    world_->complete(r, now());
    return r;
  }
  Message* m = world_->new_message(*this, r, dst_world, bytes, eager, held);
  m->collective = collective;
  m->phantom = phantom;
  m->pinned = pinned;
  m->channel = comm.channel(ctx);
  if (packed && world_->mode_ == PayloadMode::data) {
    m->payload = std::move(*packed);
    if (origins) m->payload_origin = std::move(*origins);
    m->has_payload = true;
  }
  if (mode == SendMode::synchronous) [[unlikely]] {
    m->eager = false;  // complete only once matched, whatever the size (§3.4)
  } else if (mode == SendMode::buffered) [[unlikely]] {
    // The data goes into the attached buffer now (the message keeps it) and the
    // send is complete; the message leaves as an eager one, the request detached.
    m->eager = true;
    m->buffered = true;
    if (world_->mode_ == PayloadMode::data && !m->has_payload) {
      m->payload.resize(m->bytes);
      std::int32_t* origin = nullptr;
      if (world_->tracks_origins()) {
        m->payload_origin.assign(m->bytes, static_cast<std::int32_t>(id_));
        origin = m->payload_origin.data();
      }
      pack(buf, static_cast<std::int64_t>(m->bytes), m->payload.data(), origin);
      m->has_payload = true;
    }
    world_->complete(r, now());
    world_->post(m, nullptr);
    r->message = m;  // withdrawable by MPI_Cancel until matched (Message::eager_request)
    m->eager_request = r;
    return r;
  }
  world_->post(m, r);
  return r;
}

Request* Rank::isend_collective(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                                std::int64_t instance, bool pinned, SendMode mode) {
  validate_peer(dest, comm, false, "dest");
  if (world_->mode_ == PayloadMode::data) validate_buffer(buf, "buf");
  return start_send(buf, std::move(type), dest, tag, comm, Context::collective, instance, false, nullptr, nullptr,
                    mode, pinned);
}

Request* Rank::irecv_collective(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                                Deferred* deferred) {
  validate_peer(source, comm, true, "source");
  if (world_->mode_ == PayloadMode::data) validate_buffer(buf, "buf");
  return start_recv(buf, std::move(type), source, tag, comm, Context::collective, false, deferred);
}

Request* Rank::isend_unchecked(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                              Context ctx) {
  return start_send(buf, std::move(type), dest, tag, comm, ctx, -1, true, nullptr, nullptr);
}

Request* Rank::irecv_unchecked(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                              Context ctx) {
  return start_recv(buf, std::move(type), source, tag, comm, ctx, true);
}

Request* Rank::start_recv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                          Context ctx, bool phantom, Deferred* deferred) {
  Request* r = new_request(Request::Kind::recv, buf, std::move(type), source, tag, comm, ctx);
  r->phantom = phantom;
  r->deferred = deferred;
  if (source == PROC_NULL) {
    // A receive from MPI_PROC_NULL completes at once with an empty status (MPI-4.1 §3.11).
    r->status = Status{PROC_NULL, ANY_TAG, ErrorClass::success, false, 0};
    world_->complete(r, now());
    return r;
  }
  if (Message* m = take_unexpected(source, tag, r->context, true)) {
    world_->deliver(m, r, max(now(), m->ready));
    return r;
  }
  posted_.push_back(r);
  return r;
}

Request* Rank::isend_packed(PackedBytes packed, TypeRef type, std::int64_t count, int dest, int tag,
                            const Communicator& comm, std::vector<std::int32_t> origins) {
  validate_peer(dest, comm, false, "dest");
  validate_tag(tag, false);
  TypedBuffer none{&memory_, 0, count, type.get()};
  return start_send(none, std::move(type), dest, tag, comm, Context::p2p, -1, false, &packed,
                    origins.empty() ? nullptr : &origins,
                    world_->sync_standard_ ? SendMode::synchronous : SendMode::standard);
}

Message* Rank::take_unexpected(int source, int tag, std::uint32_t context, bool remove) {
  Message* best = nullptr;
  Message* best_prev = nullptr;
  Message* prev = nullptr;
  for (Message* m = unexpected_.first(); m != nullptr; prev = m, m = unexpected_.after(m)) {
    if (best && m->arrived > best->arrived) break;  // the queue is in arrival order
    if (!matches(source, tag, context, *m)) continue;
    if (best == nullptr || m->src < best->src) {
      best = m;
      best_prev = prev;
    }
  }
  if (best && remove) unexpected_.remove(best_prev, best);
  return best;
}

Request* Rank::irecv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm, Context ctx) {
  validate_peer(source, comm, true, "source");
  validate_tag(tag, true);
  validate_buffer(buf, "buf");
  check_held({buf.addr, buf.count, buf.type}, true, "buf");
  return start_recv(buf, std::move(type), source, tag, comm, ctx, false);
}

std::pair<Request*, Request*> Rank::isendrecv(const TypedBuffer& sendbuf, TypeRef sendtype, int dest, int sendtag,
                                              const TypedBuffer& recvbuf, TypeRef recvtype, int source, int recvtag,
                                              const Communicator& comm) {
  validate_peer(dest, comm, false, "dest");
  validate_tag(sendtag, false);
  validate_buffer(sendbuf, "sendbuf");
  validate_peer(source, comm, true, "source");
  validate_tag(recvtag, true);
  validate_buffer(recvbuf, "recvbuf");
  const Region s{sendbuf.addr, sendbuf.count, sendbuf.type}, r{recvbuf.addr, recvbuf.count, recvbuf.type};
  if (auto o = find_overlap({&r, 1}, {&s, 1}))
    throw MpiError(ErrorClass::buffer, "recvbuf",
                   "recvbuf and sendbuf both hold " + describe_bytes(memory_, o->first, o->bytes) +
                       ": the receive buffer overlaps the send buffer",
                   "MPI-4.1 §3.10: the send buffer and the receive buffer of MPI_Sendrecv must be disjoint "
                   "(MPI_Sendrecv_replace is the call for one buffer)");
  check_held(s, false, "sendbuf");
  check_held(r, true, "recvbuf");
  Request* recv = start_recv(recvbuf, std::move(recvtype), source, recvtag, comm, Context::p2p, false);
  return {recv, start_send(sendbuf, std::move(sendtype), dest, sendtag, comm, Context::p2p, -1, false, nullptr, nullptr,
                           world_->sync_standard_ ? SendMode::synchronous : SendMode::standard)};
}

Rank::WaitOne Rank::send(const TypedBuffer& buf, TypeRef type, int dest, int tag, const Communicator& comm,
                         Context ctx, std::int64_t collective) {
  return wait(isend(buf, std::move(type), dest, tag, comm, ctx, collective));
}

Rank::WaitOne Rank::recv(const TypedBuffer& buf, TypeRef type, int source, int tag, const Communicator& comm,
                         Context ctx) {
  return wait(irecv(buf, std::move(type), source, tag, comm, ctx));
}

Task<Status> Rank::sendrecv_replace(TypedBuffer buf, TypeRef type, int dest, int sendtag, int source,
                                    int recvtag, const Communicator& comm) {
  const std::int64_t n = buf.count;
  if (n < 0)
    throw MpiError(ErrorClass::count, "count", "count = " + std::to_string(n) + " is negative", kRuleCount);
  check_access(buf, data_bytes(n, *type, "count"), "buf");
  // MPI-4.1 §3.2.7: the data sent is the buffer's content before the receive
  // replaces it, so it is packed first.
  PackedBytes packed;
  std::vector<std::int32_t> origins;
  if (world_->mode_ == PayloadMode::data) {
    packed.resize(static_cast<std::size_t>(n * type->size()));
    if (world_->tracks_origins()) origins.assign(packed.size(), static_cast<std::int32_t>(id_));
    pack(buf, n * type->size(), packed.data(), origins.empty() ? nullptr : origins.data());
  }
  Request* reqs[2] = {irecv(buf, type, source, recvtag, comm), nullptr};
  reqs[1] = isend_packed(std::move(packed), type, n, dest, sendtag, comm, std::move(origins));
  Status sts[2];
  co_await wait_all(reqs, sts);
  co_return sts[0];
}

Request* Rank::isendrecv_request(const TypedBuffer& sendbuf, TypeRef sendtype, int dest, int sendtag,
                                 const TypedBuffer& recvbuf, TypeRef recvtype, int source, int recvtag,
                                 const Communicator& comm) {
  auto [recv, send] = isendrecv(sendbuf, sendtype, dest, sendtag, recvbuf, recvtype, source, recvtag, comm);
  Request* r = both_complete(recv, send, comm, "MPI_Isendrecv");
  if (dest != PROC_NULL)
    hold({r, sendbuf.addr, sendbuf.count, std::move(sendtype), "MPI_Isendrecv", "sendbuf", -1, dest, sendtag, false, true});
  if (source != PROC_NULL)
    hold({r, recvbuf.addr, recvbuf.count, std::move(recvtype), "MPI_Isendrecv", "recvbuf", -1, source, recvtag, true, true});
  return r;
}

Request* Rank::isendrecv_replace_request(const TypedBuffer& buf, TypeRef type, int dest, int sendtag, int source,
                                         int recvtag, const Communicator& comm) {
  const std::int64_t n = buf.count;
  if (n < 0)
    throw MpiError(ErrorClass::count, "count", "count = " + std::to_string(n) + " is negative", kRuleCount);
  check_access(buf, data_bytes(n, *type, "count"), "buf");
  validate_peer(dest, comm, false, "dest");
  validate_tag(sendtag, false);
  check_held({buf.addr, buf.count, buf.type}, true, "buf");
  // The data sent is the buffer's content at the call (MPI-4.1 §3.10), packed now.
  PackedBytes packed;
  std::vector<std::int32_t> origins;
  if (world_->mode_ == PayloadMode::data) {
    packed.resize(static_cast<std::size_t>(n * type->size()));
    if (world_->tracks_origins()) origins.assign(packed.size(), static_cast<std::int32_t>(id_));
    pack(buf, n * type->size(), packed.data(), origins.empty() ? nullptr : origins.data());
  }
  Request* recv = irecv(buf, type, source, recvtag, comm);
  Request* send = isend_packed(std::move(packed), type, n, dest, sendtag, comm, std::move(origins));
  Request* r = both_complete(recv, send, comm, "MPI_Isendrecv_replace");
  if (source != PROC_NULL || dest != PROC_NULL)
    hold({r, buf.addr, buf.count, std::move(type), "MPI_Isendrecv_replace", "buf", -1, source, recvtag, true, true});
  return r;
}

Request* Rank::both_complete(Request* recv, Request* send, const Communicator& comm, const char* call) {
  Task<void> body;
  {
    sim::frame_pool::OutsideArena outside;  // touched at the start and at the end only
    body = complete_pair(recv, send);
  }
  return world_->start_activity(id_, std::move(body), comm, call, true);
}

Task<void> Rank::complete_pair(Request* recv, Request* send) {
  Request* reqs[2] = {recv, send};
  Status sts[2];
  co_await wait_all(reqs, sts);
  world_->end_activity(sts[0]);
}

// ---------------------------------------------------------------------------
// Probe and compute

struct Rank::ProbeAwaiter {
  Rank& rank;
  ProbeState want;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    rank.probe_ = want;
    rank.waiter_ = h;
    rank.wait_needed_ = 1;
  }
  void await_resume() noexcept {}
};

std::optional<Status> Rank::iprobe(int source, int tag, const Communicator& comm) {
  validate_peer(source, comm, true, "source");
  validate_tag(tag, true);
  if (source == PROC_NULL) return Status{PROC_NULL, ANY_TAG, ErrorClass::success, false, 0};
  Message* m = take_unexpected(source, tag, comm.context(Context::p2p), false);
  if (m == nullptr || m->ready > now()) return std::nullopt;
  return Status{m->src, m->tag, ErrorClass::success, false, static_cast<std::int64_t>(m->bytes)};
}

Task<Status> Rank::probe(int source, int tag, const Communicator& comm) {
  validate_peer(source, comm, true, "source");
  validate_tag(tag, true);
  if (source == PROC_NULL) co_return Status{PROC_NULL, ANY_TAG, ErrorClass::success, false, 0};
  std::uint32_t ctx = comm.context(Context::p2p);
  Message* m = take_unexpected(source, tag, ctx, false);
  if (m == nullptr) {
    co_await ProbeAwaiter{*this, ProbeState{source, tag, ctx}};
    m = take_unexpected(source, tag, ctx, false);
    assert(m != nullptr);
  } else if (m->ready > now()) {
    co_await world_->engine_.sleep_until(m->ready);
  }
  co_return Status{m->src, m->tag, ErrorClass::success, false, static_cast<std::int64_t>(m->bytes)};
}

namespace {
Status envelope_of(const Message& m) {
  return Status{m.src, m.tag, ErrorClass::success, false, static_cast<std::int64_t>(m.bytes)};
}
}  // namespace

std::optional<Status> Rank::improbe(int source, int tag, const Communicator& comm, MatchedMessage* out) {
  validate_peer(source, comm, true, "source");
  validate_tag(tag, true);
  if (source == PROC_NULL) {
    *out = MatchedMessage{nullptr, &comm, true};
    return Status{PROC_NULL, ANY_TAG, ErrorClass::success, false, 0};
  }
  const std::uint32_t ctx = comm.context(Context::p2p);
  Message* m = take_unexpected(source, tag, ctx, false);
  if (m == nullptr || m->ready > now()) return std::nullopt;
  take_unexpected(source, tag, ctx, true);
  world_->matched_.push_back(m);
  *out = MatchedMessage{m, &comm, false};
  return envelope_of(*m);
}

Task<Status> Rank::mprobe(int source, int tag, const Communicator& comm, MatchedMessage* out) {
  validate_peer(source, comm, true, "source");
  validate_tag(tag, true);
  if (source == PROC_NULL) {
    *out = MatchedMessage{nullptr, &comm, true};
    co_return Status{PROC_NULL, ANY_TAG, ErrorClass::success, false, 0};
  }
  const std::uint32_t ctx = comm.context(Context::p2p);
  if (take_unexpected(source, tag, ctx, false) == nullptr) co_await ProbeAwaiter{*this, ProbeState{source, tag, ctx}};
  // Taken out of matching now: no receive of this rank can take it meanwhile.
  Message* m = take_unexpected(source, tag, ctx, true);
  assert(m != nullptr);
  world_->matched_.push_back(m);
  *out = MatchedMessage{m, &comm, false};
  if (m->ready > now()) co_await world_->engine_.sleep_until(m->ready);
  co_return envelope_of(*m);
}

Request* Rank::imrecv(const TypedBuffer& buf, TypeRef type, MatchedMessage& msg, bool nonblocking) {
  if (msg.comm == nullptr)
    throw MpiError(ErrorClass::request, "message",
                   "the message handle is MPI_MESSAGE_NULL (not from MPI_Mprobe or MPI_Improbe, or already received)",
                   "MPI-4.1 §3.8.3: MPI_Mrecv and MPI_Imrecv receive a message that a matched probe returned");
  validate_buffer(buf, "buf");
  check_held({buf.addr, buf.count, buf.type}, true, "buf");
  const MatchedMessage taken = std::exchange(msg, MatchedMessage{});
  if (taken.no_proc) return start_recv(buf, std::move(type), PROC_NULL, ANY_TAG, *taken.comm, Context::p2p, false);
  Message* m = taken.message;
  auto& matched = world_->matched_;
  matched.erase(std::find(matched.begin(), matched.end(), m));
  Request* r = new_request(Request::Kind::recv, buf, type, m->src, m->tag, *taken.comm, Context::p2p);
  if (nonblocking) hold({r, buf.addr, buf.count, std::move(type), "MPI_Imrecv", "buf", -1, m->src, m->tag, true, true});
  world_->deliver(m, r, max(now(), m->ready));
  return r;
}

PersistentP2P Rank::p2p_init(bool send, SendMode mode, const TypedBuffer& buf, TypeRef type, int peer, int tag,
                             const Communicator& comm) const {
  validate_peer(peer, comm, !send, send ? "dest" : "source");
  validate_tag(tag, !send);
  validate_buffer(buf, "buf");
  return PersistentP2P{send, mode, buf, std::move(type), peer, tag, &comm};
}

Request* Rank::start(const PersistentP2P& p) {
  const Region region{p.buf.addr, p.buf.count, p.buf.type};
  check_held(region, !p.send, "buf");
  Request* r = nullptr;
  if (!p.send) {
    r = irecv(p.buf, p.type, p.peer, p.tag, *p.comm);
  } else if (p.mode == SendMode::standard) {
    r = isend(p.buf, p.type, p.peer, p.tag, *p.comm);
  } else {
    r = isend_mode(p.buf, p.type, p.peer, p.tag, *p.comm, p.mode, false);
  }
  if (p.peer != PROC_NULL)
    hold({r, p.buf.addr, p.buf.count, p.type, "MPI_Start", "buf", -1, p.peer, p.tag, !p.send, true});
  return r;
}

void Rank::cancel(Request* r) {
  if (r == nullptr)
    throw MpiError(ErrorClass::request, "request", "the request is MPI_REQUEST_NULL",
                   "MPI-4.1 §3.8.4: MPI_Cancel takes an active request");
  if (r->kind == Request::Kind::activity) {
    if (world_->point_to_point_activity(r))
      throw MpiError(ErrorClass::request, "request",
                     "the request is an MPI_Isendrecv's; mpisim cancels the requests of single sends and receives, "
                     "not this pair's",
                     "MPI-4.1 §3.8.4: MPI_Cancel marks a pending nonblocking communication for cancellation");
    throw MpiError(ErrorClass::request, "request", "the request is a nonblocking collective's",
                   "MPI-4.1 §6.12: calling MPI_Cancel on the request of a nonblocking collective operation is "
                   "erroneous");
  }
  // Done already: the cancellation fails, unless the send is eager and its
  // message not yet matched (then withdrawn as below; the request stays complete).
  if (r->complete && !(r->kind == Request::Kind::send && r->message != nullptr)) return;
  World& w = *world_;
  if (r->kind == Request::Kind::recv) {
    Request* prev = nullptr;
    for (Request* q = posted_.first(); q != nullptr; prev = q, q = posted_.after(q)) {
      if (q != r) continue;
      posted_.remove(prev, q);
      r->status = Status{r->peer, r->tag, ErrorClass::success, true, 0};
      w.complete(r, now());
      return;
    }
    return;  // matched: its data is on the way
  }
  // A send: cancelled unless its message was matched. The wait that follows a
  // cancellation must not depend on other processes (§3.8.4), so a message still
  // on its way is withdrawn as well as one waiting at its destination.
  Message* m = r->message;
  if (m == nullptr) return;  // matched, or eager and gone: the send completes normally
  if (m->data_moving) return;  // matched, its data on the way
  if (std::find(w.matched_.begin(), w.matched_.end(), m) != w.matched_.end()) return;  // a matched probe has it
  r->message = nullptr;
  m->send_request = nullptr;
  m->eager_request = nullptr;
  r->status = Status{r->peer, r->tag, ErrorClass::success, true, 0};
  Rank& to = w.rank(m->dst_world);
  Message* prev = nullptr;
  Message* q = to.unexpected_.first();
  while (q != nullptr && q != m) prev = q, q = to.unexpected_.after(q);
  if (q != nullptr) {
    to.unexpected_.remove(prev, q);
    w.release(m);
  } else {
    m->cancelled = true;  // in the network or its sender's queue: dropped there
  }
  if (!r->complete) w.complete(r, now());
}

void Rank::Compute::await_suspend(std::coroutine_handle<> h) {
  World& w = *rank->world_;
  if (Activity* a = w.running_) {
    // An activity's reductions and copies take their time beside the program's
    // CPU (see Activity).
    w.resume_activity_at(*a, rank->now() + duration, h);
    return;
  }
  if (!w.model_.computes_compete()) {
    // Nothing else claims this CPU: the computation starts when it is free, as the
    // queued compute item would, one event sooner.
    SimTime end = w.model_.start_compute(rank->id_, duration, w.model_.compute_ready(rank->id_, rank->now()));
    rank->resume_at(end, h);
    return;
  }
  rank->wait_time_ = duration;
  rank->waiter_ = h;
  w.queue_issued(w.compute_stage_, rank->id_);
}

void World::ComputeStage::on_event(std::uint64_t arg, std::uint64_t seq) {
  auto id = static_cast<std::uint32_t>(arg);
  Rank& r = w->rank(id);
  SimTime t = w->engine_.now();
  SimTime ready = w->model_.compute_ready(id, t);
  if (ready > t) {
    w->engine_.at_keeping_seq(ready, seq, *this, arg);
    return;
  }
  SimTime end = w->model_.start_compute(id, r.wait_time_, t);
  auto h = std::exchange(r.waiter_, nullptr);
  r.resume_at(end, h);
}

// ---------------------------------------------------------------------------
// Deadlock description

std::string Rank::blocked_on(std::vector<std::uint32_t>* waits_for) const {
  if (probe_)
    return "a message from " + rank_text(probe_->source) + " with tag " + tag_text(probe_->tag) + " to probe";
  return describe_waits(waiting_on_, waits_for);
}

std::string Rank::describe_waits(std::span<Request*> reqs, std::vector<std::uint32_t>* waits_for) const {
  std::string out;
  auto add_peer = [&](const Communicator& comm, int peer) {
    if (!waits_for) return;
    if (peer >= 0) {
      waits_for->push_back(comm.peer_world(peer, id_));
    } else if (peer == ANY_SOURCE && comm.peer_count() <= 4096) {
      for (int p = 0; p < comm.peer_count(); ++p)
        if (comm.peer_world(p, id_) != id_) waits_for->push_back(comm.peer_world(p, id_));
    }
  };
  for (Request* r : reqs) {
    if (r == nullptr || r->complete) continue;
    if (!out.empty()) out += "; ";
    std::string where = r->comm->name() + (r->collective ? " (collective context)" : "");
    if (r->kind == Request::Kind::activity) {
      const Activity* a = world_->find_activity(id_, static_cast<std::uint16_t>(r->peer));
      out += std::string("the completion of ") + (a ? a->call : "a nonblocking collective") + " on " + r->comm->name();
      if (a && a->waiter) {
        std::string inner = describe_waits(a->waiting_on, waits_for);
        out += " (whose algorithm waits for " + (inner.empty() ? std::string("a computation") : inner) + ")";
      }
      continue;
    }
    if (r->kind == Request::Kind::recv) {
      out += "a message from rank " + rank_text(r->peer) + " with tag " + tag_text(r->tag) + " on " + where;
    } else {
      const std::int64_t bytes = r->buffer.count * r->buffer.type->size();
      // A message the eager protocol would have sent waits only because the send is synchronous.
      const bool sync = bytes <= static_cast<std::int64_t>(std::min<std::uint64_t>(world_->model_.eager_limit(), INT64_MAX));
      out += "rank " + rank_text(r->peer) + " to receive its " + std::to_string(bytes) + "-byte message (tag " +
             tag_text(r->tag) + (sync ? ", synchronous" : ", rendezvous") + ") on " + where;
    }
    add_peer(*r->comm, r->peer);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Activities: a rank's threads of control beside its program

Activity* World::find_activity(std::uint32_t rank, std::uint16_t thread) const {
  if (activities_.empty()) return nullptr;
  for (Activity* a = activities_[rank]; a != nullptr; a = a->next)
    if (a->thread == thread) return a;
  return nullptr;
}

Request* World::start_activity(std::uint32_t r, Task<void> body, const Communicator& comm, const char* call,
                               bool point_to_point) {
  if (activities_.empty()) activities_.assign(size(), nullptr);
  // The smallest thread number free at r: the list is kept in thread order.
  std::uint16_t thread = 1;
  Activity** link = &activities_[r];
  while (*link != nullptr && (*link)->thread == thread) {
    link = &(*link)->next;
    ++thread;
  }
  if (thread == UINT16_MAX)
    throw MpiError(ErrorClass::other, "request",
                   "rank " + std::to_string(r) + " has " + std::to_string(UINT16_MAX - 1) +
                       " nonblocking collectives in flight, the most mpisim keeps at one process",
                   "MPI-4.1 §6.12: each nonblocking collective must be completed (MPI_Wait, MPI_Test, ...)");
  // The activity and its request stay out of the rank's arena, which keeps its
  // room for the algorithm's frames and requests (touched at every message).
  auto* a = new (sim::frame_pool::allocate_pooled(sizeof(Activity))) Activity{};
  a->rank = r;
  a->thread = thread;
  a->call = call;
  a->point_to_point = point_to_point;
  a->next = *link;
  *link = a;
  static const TypeRef kNoType;
  a->request = requests_.make(Request::Kind::activity, r, static_cast<int>(thread), 0,
                              comm.context(Context::collective), true, &comm,
                              TypedBuffer{&rank(r).memory(), 0, 0, nullptr}, kNoType);
  a->body = std::move(body);
  run_activity(*a, a->body.handle());
  return a->request;
}

void World::end_activity(const Status& status) {
  Activity& a = *running_;
  a.done = true;
  a.request->status = status;
  trace_.complete_call(a.trace_call, engine_.now());
  complete(a.request, engine_.now());
}

void World::set_trace_call(const Request* r, std::int64_t index) {
  if (r == nullptr || r->kind != Request::Kind::activity) return;
  if (Activity* a = find_activity(r->owner, static_cast<std::uint16_t>(r->peer))) {
    a->trace_call = index;
    if (a->done) trace_.complete_call(index, r->done_at);  // it ended inside the call
  }
}

bool World::point_to_point_activity(const Request* r) const {
  const Activity* a = find_activity(r->owner, static_cast<std::uint16_t>(r->peer));
  return a != nullptr && a->point_to_point;
}

void World::run_activity(Activity& a, std::coroutine_handle<> h) {
  Activity* outer = std::exchange(running_, &a);
  enter(a.rank);
  h.resume();
  running_ = outer;
  // Suspended again (a wait or a resumption pending), or ended by end_activity;
  // otherwise the body ended without it: by an exception. (The body's frame is
  // read only then: it is seldom in cache.)
  if (!a.done && a.waiter == nullptr && a.resume == nullptr && a.body.done()) [[unlikely]] {
    a.done = true;
    std::exception_ptr error = a.body.error();
    engine_.fail(a.rank, error ? error : std::make_exception_ptr(std::logic_error("an activity ended unfinished")));
    return;
  }
  // An MPI_Isendrecv whose request was freed before it completed: nobody waits.
  if (a.done && a.request->freed) [[unlikely]] release(a.request);  // frees `a` too
}

void World::resume_activity_at(Activity& a, SimTime t, std::coroutine_handle<> h) {
  assert(a.resume == nullptr);
  a.resume = h;
  if (keep_resumption_ && kept_ == nullptr && kept_activity_ == nullptr && t == engine_.now()) {
    kept_activity_ = &a;  // resumed by the stage that completed its wait, as a rank is
    return;
  }
  engine_.at(t, activity_stage_, reinterpret_cast<std::uint64_t>(&a));
}

void World::dispatch_activity(Activity& a) {
  if (progress_ == Progress::in_mpi && !in_mpi_[a.rank]) {
    a.parked = true;  // until the program enters MPI again (set_in_mpi)
    return;
  }
  run_activity(a, std::exchange(a.resume, nullptr));
}

void World::ActivityStage::prefetch(std::uint64_t arg, int step) const {
  const auto* a = reinterpret_cast<const Activity*>(arg);
  if (step == 0) sim::prefetch_lines(a, 2);
  else if (step == 1) w->prefetch_rank(a->rank);
  else if (a->resume) sim::prefetch_lines(a->resume.address(), 4);
}

template <class F>
void World::as_resumption(std::uint64_t seq, F&& resume) {
  issue_seq_ = seq;
  issue_left_ = static_cast<std::uint32_t>(sim::Engine::kSeqStep - 1);
  resume();
  issue_left_ = 0;
}

void World::ActivityStage::on_event(std::uint64_t arg, std::uint64_t seq) {
  w->as_resumption(seq, [&] { w->dispatch_activity(*reinterpret_cast<Activity*>(arg)); });
}

void World::set_progress(Progress p) {
  progress_ = p;
  if (p == Progress::in_mpi) in_mpi_.assign(size(), 1);
}

void World::set_in_mpi(std::uint32_t r, bool inside) {
  if (progress_ != Progress::in_mpi) return;
  in_mpi_[r] = inside ? 1 : 0;
  if (!inside || activities_.empty()) return;
  for (Activity* a = activities_[r]; a != nullptr; a = a->next)
    if (a->parked) {
      a->parked = false;
      engine_.at(engine_.now(), activity_stage_, reinterpret_cast<std::uint64_t>(a));
    }
}

void World::free_activity(Activity* a) {
  Activity** link = &activities_[a->rank];
  while (*link != a) link = &(*link)->next;
  *link = a->next;
  std::destroy_at(a);
  sim::frame_pool::deallocate(a, sizeof(Activity));
}

std::vector<World::PendingActivity> World::pending_activities() const {
  std::vector<PendingActivity> out;
  for (std::uint32_t r = 0; r < activities_.size(); ++r)
    for (const Activity* a = activities_[r]; a != nullptr; a = a->next)
      if (!a->done) out.push_back({r, a->call, a->waiter ? rank(r).describe_waits(a->waiting_on, nullptr) : ""});
  return out;
}

void World::record_free(const Communicator& comm, std::uint32_t world_rank) {
  if (&comm == &world_ || &comm == &self_)
    throw MpiError(ErrorClass::comm, "comm", comm.name() + " is predefined and cannot be freed",
                   "MPI-4.1 §7.4.3: MPI_Comm_free takes a communicator the program made; MPI_COMM_WORLD and "
                   "MPI_COMM_SELF are freed by MPI_Finalize");
  Freed& f = freed_[comm.base_context()];
  f.comm = &comm;
  f.ranks.push_back(world_rank);
}

std::vector<std::string> World::incomplete_frees(std::size_t limit) const {
  std::vector<std::string> out;
  for (const auto& [context, f] : freed_) {
    const Communicator& c = *f.comm;
    // Every process of the communicator: both groups of an intercommunicator.
    std::vector<std::int64_t> members = c.group(f.ranks.front())->members();
    if (c.is_inter()) {
      const auto remote = c.remote_group()->members();
      members.insert(members.end(), remote.begin(), remote.end());
    }
    std::sort(members.begin(), members.end());
    std::vector<std::int64_t> freed(f.ranks.begin(), f.ranks.end()), missing;
    std::sort(freed.begin(), freed.end());
    std::set_difference(members.begin(), members.end(), freed.begin(), freed.end(), std::back_inserter(missing));
    if (missing.empty()) continue;
    if (out.size() == limit) break;
    std::string who;
    for (std::size_t i = 0; i < missing.size() && i < 16; ++i) who += (i ? ", " : "") + std::to_string(missing[i]);
    if (missing.size() > 16) who += ", ... (" + std::to_string(missing.size()) + " in all)";
    out.push_back("MPI_Comm_free of " + c.name() + " was called by " + std::to_string(f.ranks.size()) + " of its " +
                  std::to_string(members.size()) + " processes; never by world rank" +
                  (missing.size() == 1 ? " " : "s ") + who);
  }
  return out;
}

World::Leftovers World::leftovers(std::size_t limit) const {
  Leftovers out;
  std::vector<std::pair<std::uint32_t, std::string>> found;  // (rank, text)
  auto where = [this](std::uint32_t channel) {
    const auto& names = trace_.channel_names();
    return channel < names.size() ? names[channel] : std::string("?");
  };
  if (messages_.live() > 0)
    for (std::uint32_t r = 0; r < size(); ++r)
      for (const Message* m = rank(r).unexpected_.first(); m != nullptr; m = rank(r).unexpected_.after(m)) {
        ++out.messages;
        found.emplace_back(r, "rank " + std::to_string(r) + ": the message from rank " + std::to_string(m->src) +
                                  " (tag " + std::to_string(m->tag) + ", " + std::to_string(m->bytes) + " bytes, " +
                                  where(m->channel) + ") was never received");
      }
  for (const Message* m : matched_) {
    ++out.messages;
    found.emplace_back(m->dst_world, "rank " + std::to_string(m->dst_world) + ": the message from rank " +
                                         std::to_string(m->src) + " (tag " + std::to_string(m->tag) + ", " +
                                         std::to_string(m->bytes) + " bytes, " + where(m->channel) +
                                         ") was matched by a matched probe and never received (MPI_Mrecv)");
  }
  auto request = [&](const Request& q) {
    if (q.kind == Request::Kind::activity) {
      const Activity* a = find_activity(q.owner, static_cast<std::uint16_t>(q.peer));
      if (a && !a->done) return;  // still running: a pending activity
    }
    ++out.requests;
    std::string what;
    if (q.kind == Request::Kind::activity) {
      what = "a nonblocking collective's request (on " + q.comm->name() + ") was never completed by a wait or a test";
    } else {
      const bool send = q.kind == Request::Kind::send;
      what = std::string(send ? "a send to rank " : "a receive from rank ") + rank_text(q.peer) + " (tag " +
             tag_text(q.tag) + ", " + q.comm->name() + ")" +
             (q.freed ? " was freed by MPI_Request_free and never " + std::string(send ? "received" : "matched")
              : q.complete ? " completed but was never waited for, tested or freed"
                           : " never completed, and was never waited for, tested or freed");
    }
    found.emplace_back(q.owner, "rank " + std::to_string(q.owner) + ": " + what);
  };
  slots_.for_each_marked([&](void* p) { request(*static_cast<const Request*>(p)); });
  requests_.for_each_live(request);
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < found.size() && i < limit; ++i) out.lines.push_back(std::move(found[i].second));
  return out;
}

void World::abandon_activities() noexcept {
  for (std::uint32_t r = 0; r < activities_.size(); ++r)
    while (Activity* a = activities_[r]) {
      // Its request, alive while it is, goes with the world's other requests.
      a->request->peer = 0;
      free_activity(a);
    }
}

// ---------------------------------------------------------------------------
// The world: message stages

World::World(sim::Engine& engine, net::CostModel& model, sim::Trace& trace, std::uint32_t ranks, PayloadMode mode)
    : engine_(engine),
      model_(model),
      trace_(trace),
      mode_(mode),
      world_(Communicator::world(ranks, 0)),
      self_(Communicator::self(2)),
      slots_(ranks, kSlotBytes, sizeof(Rank)) {
  static_assert(sizeof(Rank) + 256 <= kSlotBytes, "a rank's slot leaves room for its arena");
  // The budgets docs/architecture.md states (a blocked rank costs about 1 KiB).
  static_assert(sizeof(Rank) <= 176, "the Rank object is 176 bytes (docs/architecture.md, Rank slots)");
  static_assert(sizeof(Request) <= 144, "a request is 144 bytes (docs/architecture.md)");
  static_assert(sizeof(Rank::WaitOne) <= 16 && sizeof(Rank::WaitAll) <= 40,
                "the wait awaiters keep nothing but their requests (docs/architecture.md)");
  // One statement per channel: argument evaluation order must not decide the numbering.
  std::uint32_t world_p2p = trace_.channel("MPI_COMM_WORLD");
  std::uint32_t world_coll = trace_.channel("MPI_COMM_WORLD/collective");
  std::uint32_t self_p2p = trace_.channel("MPI_COMM_SELF");
  std::uint32_t self_coll = trace_.channel("MPI_COMM_SELF/collective");
  world_.set_channels(world_p2p, world_coll);
  self_.set_channels(self_p2p, self_coll);
  trace_.set_process_count(ranks);
  model_.reset(ranks);
  keeps_ranks_ = !model_.sends_compete() && !model_.defers_arrivals();
  arenas_ = ranks >= kArenaRanks;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    Rank* rk = new (slots_.slot(r)) Rank(*this, r);
    rk->memory().set_budget(&budget_);
  }
  send_stage_.w = this;
  arrive_stage_.w = this;
  compute_stage_.w = this;
  resume_stage_.w = this;
  network_stage_.w = this;
  activity_stage_.w = this;
  rendezvous_stage_.w = this;
}

void World::release_activity_of(const Request* r) {
  if (r->peer != 0)
    if (Activity* a = find_activity(r->owner, static_cast<std::uint16_t>(r->peer))) free_activity(a);
}

void World::unhold(const Request* r) {
  if (HeldBuffers* h = rank(r->owner).memory().held(); h && h->release(r)) --held_ops_;
}

inline void World::release(Request* r) {
  if (r->kind == Request::Kind::send && r->message != nullptr) [[unlikely]]
    r->message->eager_request = nullptr;  // complete: its message can no longer be withdrawn
  // Only the program's requests hold buffers (an algorithm's messages do not).
  if (held_ops_ != 0 && (!r->collective || r->kind == Request::Kind::activity)) [[unlikely]]
    unhold(r);
  // A nonblocking collective's request goes with its activity (ended: a request
  // is complete only then).
  if (r->kind == Request::Kind::activity) [[unlikely]]
    release_activity_of(r);
  if (slots_.owns(r)) {
    std::destroy_at(r);
    sim::frame_pool::deallocate(r, sizeof(Request));
  } else {
    requests_.release(r);
  }
}

// Requests and messages a stopped run left behind: those in the slots here, the
// others with their pools.
World::~World() {
  abandon_activities();
  slots_.for_each_marked([this](void* p) { release(static_cast<Request*>(p)); });
  for (std::uint32_t r = size(); r-- > 0;) std::destroy_at(&rank(r));
}

const Communicator& World::new_intra(std::string name, GroupRef group, TopologyRef topology) {
  std::uint32_t ctx = next_context_;
  next_context_ += 2;
  comms_.push_back(std::make_unique<Communicator>(Communicator::intra(std::move(name), std::move(group), ctx)));
  Communicator& c = *comms_.back();
  c.set_topology(std::move(topology));
  std::string label = c.name() + "#" + std::to_string(ctx / 2);
  std::uint32_t p2p = trace_.channel(label);
  std::uint32_t coll = trace_.channel(label + "/collective");
  c.set_channels(p2p, coll);
  return c;
}

const World::NodeHierarchy& World::node_hierarchy(const Communicator& comm, std::uint32_t caller) {
  auto [it, made] = hierarchies_.try_emplace(comm.base_context());
  NodeHierarchy& h = it->second;
  if (!made) return h;
  const int p = comm.size();
  std::vector<std::vector<std::int64_t>> members;  // by node index: world ranks
  std::map<std::uint32_t, int> index;              // node -> its index
  h.node.resize(static_cast<std::size_t>(p));
  h.node_rank.resize(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    const std::uint32_t w = comm.world_rank(r, caller);
    auto [at, fresh] = index.try_emplace(node_of(w), static_cast<int>(members.size()));
    if (fresh) {
      members.emplace_back();
      h.leader.push_back(r);
    }
    std::vector<std::int64_t>& m = members[static_cast<std::size_t>(at->second)];
    h.node[static_cast<std::size_t>(r)] = at->second;
    if (r > 0 && at->second != h.node[static_cast<std::size_t>(r) - 1] && !fresh) h.consecutive = false;
    h.node_rank[static_cast<std::size_t>(r)] = static_cast<int>(m.size());
    m.push_back(w);
  }
  for (std::size_t n = 0; n < members.size(); ++n)
    h.node_comms.push_back(members[n].size() > 1
                               ? &new_intra(comm.name() + "/node" + std::to_string(n), Group::of(members[n]))
                               : nullptr);
  if (members.size() > 1) {
    std::vector<std::int64_t> leaders;
    for (std::size_t n = 0; n < members.size(); ++n) leaders.push_back(members[n].front());
    h.leaders = &new_intra(comm.name() + "/leaders", Group::of(leaders));
  }
  return h;
}

std::pair<const Communicator*, const Communicator*> World::new_inter(const std::string& name, GroupRef a,
                                                                     GroupRef b) {
  // Each side's own intracommunicator first, then the shared context pair.
  const Communicator& local_a = new_intra(name + "/local", a);
  const Communicator& local_b = new_intra(name + "/local", b);
  std::uint32_t ctx = next_context_;
  next_context_ += 2;
  std::string label = name + "#" + std::to_string(ctx / 2);
  std::uint32_t p2p = trace_.channel(label);
  std::uint32_t coll = trace_.channel(label + "/collective");
  comms_.push_back(std::make_unique<Communicator>(Communicator::inter(name, a, b, ctx, &local_a)));
  comms_.back()->set_channels(p2p, coll);
  const Communicator* side_a = comms_.back().get();
  comms_.push_back(std::make_unique<Communicator>(Communicator::inter(name, b, a, ctx, &local_b)));
  comms_.back()->set_channels(p2p, coll);
  return {side_a, comms_.back().get()};
}

World::Agreement& World::agreement(std::uint32_t context, std::int64_t seq, std::size_t members) {
  Agreement& a = agreements_[{context, seq}];
  if (a.deposits.empty()) {
    a.deposits.resize(members);
    a.result.assign(members, nullptr);
  }
  return a;
}

std::int64_t World::group_call_key(std::uint32_t context, int tag, const std::vector<std::uint32_t>& members,
                                   std::uint32_t rank) {
  GroupCalls& g = group_calls_[{context, tag, members}];
  const auto n = static_cast<std::size_t>(g.made[rank]++);
  while (g.keys.size() <= n) g.keys.push_back(next_group_call_key_++);
  return g.keys[n];
}

SimTime World::finish_time(std::uint32_t r) const {
  SimTime end = engine_.process_count() > r ? engine_.process_end(r) : SimTime{};
  return max(end, model_.cpu_free(r));
}

std::int64_t World::charge_message(const Rank& from, std::uint32_t dst_world, std::uint64_t bytes, bool eager,
                                   bool phantom, bool packed, SendMode mode) {
  eager = mode == SendMode::buffered || (mode != SendMode::synchronous && eager);
  const bool holds_data = mode_ == PayloadMode::data && !phantom && (packed || eager);
  std::int64_t held = static_cast<std::int64_t>(sizeof(Message));
  if (holds_data) held += static_cast<std::int64_t>(bytes) * (track_origins_ ? 5 : 1);
  if (budget_.used + held > budget_.limit) [[unlikely]] over_budget(from, dst_world, bytes, held);
  budget_.used += held;
  return held;
}

void World::over_budget(const Rank& from, std::uint32_t dst_world, std::uint64_t bytes, std::int64_t held) const {
  throw LimitError("memory", "a message of " + std::to_string(bytes) + " bytes from rank " + std::to_string(from.id_) +
                                 " to rank " + std::to_string(dst_world) + " needs " + std::to_string(held) +
                                 " bytes until it is received; mpisim would then hold " +
                                 std::to_string(budget_.used + held) + " bytes (with " +
                                 std::to_string(messages_.live()) + " messages not yet received), over --max-memory " +
                                 std::to_string(budget_.limit));
}

Message* World::new_message(Rank& from, const Request* send, std::uint32_t dst_world, std::uint64_t bytes, bool eager,
                            std::int64_t held) {
  Message* m = messages_.make(next_message_id_++, from.id_, dst_world, send->comm->rank_of(from.id_, from.id_), send->tag,
                              send->context, bytes, eager, send->type_ref, send->buffer.count);
  m->held = held;
  return m;
}

void World::post(Message* m, Request* send) {
  if (send) send->message = m;  // null: a buffered send's message, its request already complete
  m->send_request = send;
  Rank& from = rank(m->src_world);
  // Served at once when nothing it competes with can be waiting: the result is the
  // one the queue would give, without the queue (exact for models whose sends
  // compete only with the same rank's sends).
  if (!model_.sends_compete() && from.waiting_sends_.empty() &&
      model_.send_ready(m->src_world, engine_.now()) == engine_.now()) {
    serve_send(m);
    return;
  }
  // A rank's sends are served in the order posted (their readiness is the
  // sender's alone, so the first waiting one always goes first): only the first
  // waits in the event queue, the others in the rank's ring with the seq they
  // would have had there. Re-queueing every waiting send whenever the port
  // frees would cost time quadratic in their number.
  if (from.waiting_sends_.empty()) queue_issued(send_stage_, reinterpret_cast<std::uint64_t>(m));
  else m->seq = issued_seq();
  from.waiting_sends_.push_back(m);
}

// The stages' prefetch hints. A message's first lines, then (arrivals) its
// receiver, then the receive that receiver posted first (what matching reads);
// a computing rank.
using sim::prefetch_lines;

void World::SendStage::prefetch(std::uint64_t arg, int step) const {
  const auto* m = reinterpret_cast<const Message*>(arg);
  if (step == 0) prefetch_lines(m, 2);
  else if (step == 1) w->model_.prefetch(m->src_world);
}
void World::ArriveStage::prefetch(std::uint64_t arg, int step) const {
  const auto* m = reinterpret_cast<const Message*>(arg);
  if (step == 0) {
    prefetch_lines(m, 2);
  } else if (step == 1) {
    w->prefetch_rank(m->dst_world);
    if (!w->activities_.empty()) prefetch_lines(&w->activities_[m->dst_world], 1);
  } else {
    const Rank& r = w->rank(m->dst_world);
    if (const Request* q = r.posted_.first()) prefetch_lines(q, 2);
    if (r.waiter_) prefetch_lines(r.waiter_.address(), 4);
    // An activity that may be waiting for it (its frames are in the rank's slot
    // while that has room; the activity is not).
    if (!w->activities_.empty())
      if (const Activity* a = w->activities_[m->dst_world]) prefetch_lines(a, 2);
  }
}
inline void World::prefetch_rank(std::uint32_t r) const {
  // The whole slot where the rank's blocks live in it, else the Rank.
  prefetch_lines(&rank(r), arenas_ ? static_cast<int>(kSlotBytes / 64) : static_cast<int>(sizeof(Rank) + 63) / 64);
  model_.prefetch(r);
}
void World::ResumeStage::prefetch(std::uint64_t arg, int step) const {
  const Rank& r = w->rank(static_cast<std::uint32_t>(arg));
  if (step == 0) {
    w->prefetch_rank(static_cast<std::uint32_t>(arg));
  } else if (step == 1) {
    prefetch_lines(r.resume_.address(), 4);
  } else {
    for (std::size_t i = 0; i < r.waiting_on_.size() && i < 2; ++i)
      if (const Request* q = r.waiting_on_[i]) prefetch_lines(q, 2);
  }
}
void World::ResumeStage::on_event(std::uint64_t arg, std::uint64_t seq) {
  w->as_resumption(seq, [&] { w->resume(w->rank(static_cast<std::uint32_t>(arg))); });
}

std::uint64_t World::issued_seq() {
  if (issue_left_ == 0) return engine_.take_seq();
  --issue_left_;
  return ++issue_seq_;
}

void World::queue_issued(sim::EventHandler& stage, std::uint64_t arg) {
  if (issue_left_ == 0) engine_.at(engine_.now(), stage, arg);
  else engine_.at_keeping_seq(engine_.now(), issued_seq(), stage, arg);
}
void World::ComputeStage::prefetch(std::uint64_t arg, int step) const {
  if (step == 0) w->prefetch_rank(static_cast<std::uint32_t>(arg));
}

void World::SendStage::on_event(std::uint64_t arg, std::uint64_t seq) {
  auto* m = reinterpret_cast<Message*>(arg);
  SimTime t = w->engine_.now();
  SimTime ready = w->model_.send_ready(m->src_world, t);
  if (ready > t) {
    w->engine_.at_keeping_seq(ready, seq, *this, arg);
    return;
  }
  // m is the first of its rank's waiting sends: the next one enters the queue,
  // unless m stays first, its start put off to the end of the instant (serve_send).
  Rank& from = w->rank(m->src_world);
  [[maybe_unused]] Message* first = from.waiting_sends_.pop_front();
  assert(first == m);
  {
    KeepResumption keep(*w);
    w->serve_send(m);
  }
  w->queue_next_send(from, t);
  w->resume_kept();
}

void World::queue_next_send(Rank& from, SimTime t) {
  Message* next = from.waiting_sends_.first();
  if (next != nullptr && !next->deciding)
    engine_.at_keeping_seq(model_.send_ready(next->src_world, t), next->seq, send_stage_,
                           reinterpret_cast<std::uint64_t>(next));
}

inline void World::arrive_at(Message* m, SimTime arrival) {
  if (arrival == net::CostModel::kDeferred) arm_network();
  else engine_.at(arrival, arrive_stage_, reinterpret_cast<std::uint64_t>(m));
}

void World::serve_send(Message* m) {
  if (m->cancelled) [[unlikely]] {  // withdrawn before it left
    if (m->buffered) {  // its room in the attached buffer is free again
      if (auto it = attached_.find(m->src_world); it != attached_.end())
        it->second.used -= static_cast<std::int64_t>(m->bytes) + BSEND_OVERHEAD;
    }
    release(m);
    return;
  }
  SimTime t = engine_.now();
  m->sent = t;
  // Rendezvous moves the data only once the receive is posted. Where messages
  // share links that matters to everyone else's traffic: unless the receive is
  // posted by the end of this instant, only the envelope leaves (an empty message,
  // in order with the pair's others) and the data follows when a receive matches
  // it (move_data). Which of the two leaves is decided at the end of the instant
  // (the rendezvous stage); until then the message stays first in its rank's
  // queue, so the rank's later sends leave after it, in the order posted, as
  // they would had the receive been posted first.
  const bool held = !m->eager && m->bytes > model_.eager_limit() && model_.defers_arrivals() && !posted_for(*m);
  if (held) [[unlikely]] {
    m->deciding = true;
    rank(m->src_world).waiting_sends_.push_front(m);
    engine_.at(t, rendezvous_stage_, reinterpret_cast<std::uint64_t>(m));
  }
  // Started before the send completes (the model may occupy the CPU the sender
  // resumes on); its arrival is queued after (the order of same-instant events).
  const SimTime arrival =
      held ? SimTime::never()
           : model_.start_send(m->src_world, m->dst_world, m->bytes, t, reinterpret_cast<std::uint64_t>(m));
  if (m->buffered) [[unlikely]] {  // it has left: its room in the attached buffer is free again
    if (auto it = attached_.find(m->src_world); it != attached_.end())
      it->second.used -= static_cast<std::int64_t>(m->bytes) + BSEND_OVERHEAD;
  }
  if (m->eager && m->send_request) {
    Request* s = m->send_request;
    if (mode_ == PayloadMode::data && !m->has_payload && !m->phantom) {
      m->payload.resize(m->bytes);
      std::int32_t* origin = nullptr;
      if (track_origins_) {
        m->payload_origin.assign(m->bytes, static_cast<std::int32_t>(m->src_world));
        origin = m->payload_origin.data();
      }
      pack(s->buffer, static_cast<std::int64_t>(m->bytes), m->payload.data(), origin);
      m->has_payload = true;
    }
    // An eager send is complete once its data has left the send buffer; its
    // message may be withdrawn until it is matched.
    m->send_request = nullptr;
    m->eager_request = s;
    complete(s, t);
  }
  if (!held) [[likely]] arrive_at(m, arrival);
}

void World::RendezvousStage::on_event(std::uint64_t arg, std::uint64_t) {
  auto* m = reinterpret_cast<Message*>(arg);
  const SimTime t = w->engine_.now();
  Rank& from = w->rank(m->src_world);
  [[maybe_unused]] Message* first = from.waiting_sends_.pop_front();
  assert(first == m);
  m->deciding = false;
  if (m->cancelled) [[unlikely]] {
    w->release(m);
  } else {
    m->envelope = w->posted_for(*m) == nullptr;
    w->arrive_at(m, w->start(m, t));
  }
  w->queue_next_send(from, t);  // the sends posted behind it
}

SimTime World::start(Message* m, SimTime t) {
  return model_.start_send(m->src_world, m->dst_world, m->envelope ? 0 : m->bytes, t,
                           reinterpret_cast<std::uint64_t>(m));
}


void World::arm_network() {
  SimTime next = model_.next_event();
  if (next >= network_armed_at_) return;
  network_armed_at_ = next;
  engine_.at(next, network_stage_, ++network_generation_);
}

void World::NetworkStage::on_event(std::uint64_t arg, std::uint64_t) {
  if (arg != w->network_generation_) return;  // superseded by an earlier one
  w->network_armed_at_ = SimTime::never();
  SimTime t = w->engine_.now();
  w->arrived_.clear();
  w->model_.advance(t, w->arrived_);
  for (std::uint64_t m : w->arrived_) w->engine_.at(t, w->arrive_stage_, m);
  w->arm_network();
}

void World::ArriveStage::on_event(std::uint64_t arg, std::uint64_t seq) {
  auto* m = reinterpret_cast<Message*>(arg);
  SimTime t = w->engine_.now();
  SimTime ready = w->model_.receive_ready(m->dst_world, t);
  if (ready > t) {
    w->wait_for_receiver(m, seq, ready);
    return;
  }
  // No longer waiting: a rendezvous envelope's message comes back with its data.
  const bool waited = std::exchange(m->waiting, false);
  const std::uint32_t dst = m->dst_world;
  {
    KeepResumption keep(*w);
    w->absorb(m);  // may release m
  }
  if (waited) w->waited_arrival_absorbed(dst, seq);
  w->resume_kept();
}

void World::resume_kept() {
  if (Rank* r = std::exchange(kept_, nullptr)) resume(*r);
  else if (kept_activity_ != nullptr) [[unlikely]] dispatch_activity(*std::exchange(kept_activity_, nullptr));
}

void World::resume(Rank& r) {
  enter(r.id_);
  std::exchange(r.resume_, nullptr).resume();
}

namespace {
struct LaterSeq {
  bool operator()(const std::pair<std::uint64_t, Message*>& a, const std::pair<std::uint64_t, Message*>& b) const {
    return a.first > b.first;
  }
};
}  // namespace

void World::wait_for_receiver(Message* m, std::uint64_t seq, SimTime ready) {
  if (!m->waiting) {  // waits for the first time (a queued one stays queued)
    m->waiting = true;
    WaitingArrivals& wa = waiting_arrivals_[m->dst_world];
    // One with a lower seq is queued: it is absorbed before this one can be.
    if (!wa.queued.empty() && *std::min_element(wa.queued.begin(), wa.queued.end()) < seq) {
      wa.parked.emplace_back(seq, m);
      std::push_heap(wa.parked.begin(), wa.parked.end(), LaterSeq{});
      return;
    }
    wa.queued.push_back(seq);
  }
  engine_.at_keeping_seq(ready, seq, arrive_stage_, reinterpret_cast<std::uint64_t>(m));
}

void World::waited_arrival_absorbed(std::uint32_t dst, std::uint64_t seq) {
  auto it = waiting_arrivals_.find(dst);
  assert(it != waiting_arrivals_.end());
  WaitingArrivals& wa = it->second;
  wa.queued.erase(std::find(wa.queued.begin(), wa.queued.end(), seq));
  if (!wa.parked.empty()) {
    std::pop_heap(wa.parked.begin(), wa.parked.end(), LaterSeq{});
    auto [next_seq, next] = wa.parked.back();
    wa.parked.pop_back();
    wa.queued.push_back(next_seq);
    engine_.at_keeping_seq(model_.receive_ready(dst, engine_.now()), next_seq, arrive_stage_,
                           reinterpret_cast<std::uint64_t>(next));
  }
  if (wa.queued.empty()) waiting_arrivals_.erase(it);
}

Request* World::posted_for(const Message& m, Request** prev) const {
  const Rank& r = rank(m.dst_world);
  Request* before = nullptr;
  for (Request* q = r.posted_.first(); q != nullptr; before = q, q = r.posted_.after(q))
    if (matches(q->peer, q->tag, q->context, m)) {
      if (prev) *prev = before;
      return q;
    }
  return nullptr;
}

void World::move_data(Message* m, Request* recv) {
  m->envelope = false;
  m->data_moving = true;
  m->data_for = recv;
  m->sent = engine_.now();  // the trace's send time is when the data left
  arrive_at(m, start(m, m->sent));
}

void World::absorb(Message* m) {
  if (m->cancelled) [[unlikely]] {  // withdrawn on its way: nobody can receive it
    release(m);
    return;
  }
  SimTime t = engine_.now();
  SimTime done = model_.start_receive(m->src_world, m->dst_world, m->envelope ? 0 : m->bytes, t);
  m->arrived = t;
  m->ready = done;
  if (!m->envelope) [[likely]] {  // an envelope's message is recorded when its data arrives
    sim::MessageRecord rec{m->id, m->src_world, m->dst_world, m->tag, m->channel, m->bytes, m->sent, t, m->collective};
    if (trace_.level() == sim::TraceLevel::full) model_.route(m->src_world, m->dst_world, rec.route);
    trace_.record_message(rec);
  }
  if (m->data_moving) [[unlikely]] {  // the data of a matched envelope
    m->data_moving = false;
    Request* q = m->data_for;
    m->next = nullptr;  // the union's link again
    deliver(m, q, done);
    return;
  }
  Rank& r = rank(m->dst_world);
  Request* prev = nullptr;
  if (Request* q = posted_for(*m, &prev)) {  // the first posted receive it matches
    r.posted_.remove(prev, q);
    deliver(m, q, done);
    return;
  }
  r.unexpected_.push_back(m);
  if (r.probe_ && matches(r.probe_->source, r.probe_->tag, r.probe_->context, *m)) {
    r.probe_.reset();
    auto h = std::exchange(r.waiter_, nullptr);
    r.resume_at(max(done, model_.cpu_free(r.id_)), h);
  }
}

void World::deliver(Message* m, Request* recv, SimTime done) {
  if (m->envelope) {
    move_data(m, recv);
    return;
  }
  recv->status = Status{m->src, m->tag, ErrorClass::success, false, static_cast<std::int64_t>(m->bytes)};
  MatchResult mr = match_signatures(*m->type, m->count, *recv->buffer.type, recv->buffer.count);
  if (mr.kind == MatchResult::truncated) {
    recv->status.error = ErrorClass::truncate;
    recv->failure = std::make_unique<Request::Failure>();
    recv->failure->argument = "count";
    recv->failure->text = "the message from rank " + std::to_string(m->src) + " (tag " + std::to_string(m->tag) + ", " +
                       std::to_string(m->count) + " x " + m->type->name() + " = " + std::to_string(m->bytes) +
                       " bytes) is longer than the receive buffer (" + std::to_string(recv->buffer.count) + " x " +
                       recv->buffer.type->name() + " = " +
                       std::to_string(recv->buffer.count * recv->buffer.type->size()) + " bytes)";
    recv->failure->rule = kRuleTruncate;
  } else if (mr.kind == MatchResult::mismatch) {
    recv->status.error = ErrorClass::type;
    recv->failure = std::make_unique<Request::Failure>();
    recv->failure->argument = "datatype";
    recv->failure->text = "the message from rank " + std::to_string(m->src) + " (tag " + std::to_string(m->tag) +
                       ") carries " + std::string(basic_type(mr.send_basic).name) + " at basic element " +
                       std::to_string(mr.element) + " where the receive's datatype " + recv->buffer.type->name() +
                       " expects " + std::string(basic_type(mr.recv_basic).name);
    recv->failure->rule = kRuleMatch;
  } else if (mode_ == PayloadMode::data && m->bytes > 0 && !m->phantom && !recv->phantom) {
    auto n = static_cast<std::int64_t>(m->bytes);
    if (m->has_payload)
      unpack(m->payload.data(), n, recv->buffer, m->payload_origin.empty() ? nullptr : m->payload_origin.data());
    else if (!(m->pinned && recv->deferred != nullptr && !observing_ && !track_origins_ &&
               m->send_request->buffer.type == recv->buffer.type && m->count == recv->buffer.count &&
               hold(recv->deferred, m, recv, n)))  // else left in the sender's buffer for the combine that reads it
      copy_typed(m->send_request->buffer, recv->buffer, n);
    if (observing_) [[unlikely]] delivered_(recv->owner, m->src_world);
  }
  complete(recv, done);
  if (Request* s = m->send_request) {
    // Rendezvous: the send completes when the receiver has matched it.
    s->message = nullptr;
    m->send_request = nullptr;
    complete(s, engine_.now());
  }
  release(m);
}

// A Deferred's combine, and its data while that is in the sender's buffer.
struct DeferredHold {
  World* world;
  std::uint32_t receiver;
  const Op* op;
  TypedBuffer inout;
  TypedBuffer base;  // inout itself, or what the combine reads in its place
  bool inout_first;
  TypedBuffer sends;      // what the receiver's own exchange sends
  bool early;             // the sender may do the combine
  bool held = false;      // in deferred_, keyed by sender
  bool combined = false;  // the sender did the combine
  TypedBuffer from{}, to{};
  TypeRef type;  // keeps from's datatype alive
  std::uint32_t sender = 0;
  std::int64_t bytes = 0;
};

namespace {

// The bytes a buffer's elements span, in its memory.
std::pair<Address, Address> span_of(const TypedBuffer& b) {
  if (b.count <= 0) return {b.addr, b.addr};
  const Address lo = b.addr + b.type->true_lb();
  return {lo, lo + (b.count - 1) * b.type->extent() + b.type->true_extent()};
}

bool overlap(const TypedBuffer& x, const TypedBuffer& y) {
  if (x.memory != y.memory) return false;
  const auto [a, b] = span_of(x);
  const auto [c, d] = span_of(y);
  return a < d && c < b;
}

bool same_buffer(const TypedBuffer& x, const TypedBuffer& y) {
  return x.memory == y.memory && x.addr == y.addr && x.count == y.count && x.type == y.type;
}

}  // namespace

void Deferred::expect(World& world, std::uint32_t receiver, const Op& op, const TypedBuffer& inout,
                      const TypedBuffer& base, bool inout_first, const TypedBuffer& sends, bool early) {
  release();
  hold_ = new DeferredHold{&world, receiver, &op, inout, base, inout_first, sends, early, false, false,
                           {},     {},       nullptr, 0,  0};
}

bool Deferred::held() const { return hold_ != nullptr && hold_->held; }
const TypedBuffer& Deferred::from() const { return hold_->from; }
bool Deferred::combined() const { return hold_ != nullptr && hold_->combined; }
bool Deferred::expected(const Op& op, const TypedBuffer& inout, const TypedBuffer& base, bool inout_first) const {
  return hold_ != nullptr && hold_->op == &op && same_buffer(hold_->inout, inout) && same_buffer(hold_->base, base) &&
         hold_->inout_first == inout_first;
}

bool World::hold(Deferred* d, const Message* m, const Request* recv, std::int64_t bytes) {
  DeferredHold* h = d->hold_;
  if (h == nullptr || h->held || h->combined) return false;
  h->from = m->send_request->buffer;
  h->to = recv->buffer;
  h->type = m->send_request->type_ref;
  h->sender = m->src_world;
  h->bytes = bytes;
  deferred_.emplace(m->src_world, h);
  h->held = true;
  ++deferral_counts_.held;
  return true;
}

void World::forget(const DeferredHold* h) {
  auto [first, last] = deferred_.equal_range(h->sender);
  for (auto it = first; it != last; ++it)
    if (it->second == h) {
      deferred_.erase(it);
      return;
    }
}

DeferredHold* World::combine_early(DeferredHold* h) {
  if (!h->early || h->op->kind == OpKind::user || h->receiver == h->sender) return nullptr;
  // Data held in the receiver's memory that its combine would overwrite: at most
  // one such, its partner's, for the pass that does both.
  DeferredHold* partner = nullptr;
  auto [first, last] = deferred_.equal_range(h->receiver);
  for (auto it = first; it != last; ++it)
    if (overlap(it->second->from, h->inout)) {
      if (partner != nullptr) return nullptr;
      partner = it->second;
    }
  const bool in_place = same_buffer(h->base, h->inout);
  if (partner == nullptr) {
    // The receiver's own send may not have left yet: what it sends must stay as it is.
    if (overlap(h->inout, h->sends)) return nullptr;
    if (in_place) reduce_local(*h->op, h->from, h->inout, h->inout_first);
    else reduce_into(*h->op, h->from, h->base, h->inout, h->inout_first);
    h->combined = true;
    ++deferral_counts_.combined;
    return h;
  }
  if (!in_place) return nullptr;
  // A round where each partner's combine writes what the other's reads: the
  // partner's combine (on the sender's side) writes what h reads, and reads what
  // h's writes, which is what the receiver's exchange sent.
  if (!partner->early || partner->receiver != h->sender || partner->op != h->op || !same_buffer(partner->from, h->inout) ||
      !same_buffer(h->sends, h->inout) || !same_buffer(h->from, partner->inout))
    return nullptr;
  return partner;
}

bool World::combine_pair(DeferredHold* h, DeferredHold* partner) {
  if (!reduce_pair(*h->op, partner->inout, partner->inout_first, h->inout, h->inout_first)) return false;
  forget(partner);
  partner->held = false;
  partner->combined = true;
  partner->type.reset();
  h->combined = true;
  ++deferral_counts_.paired;
  return true;
}

void World::settle_held(std::uint32_t sender) {
  auto [first, last] = deferred_.equal_range(sender);
  std::vector<DeferredHold*> holds;
  for (auto it = first; it != last; ++it) holds.push_back(it->second);
  deferred_.erase(first, last);
  // First what only reads the sender's memory (copies, the receivers' own
  // combines), then the passes that also write it, each where no other data held
  // there shares its region.
  std::vector<std::pair<DeferredHold*, DeferredHold*>> pairs;
  for (DeferredHold* h : holds) {
    h->held = false;
    DeferredHold* done = combine_early(h);
    if (done == h) continue;
    const bool alone = std::none_of(holds.begin(), holds.end(),
                                    [&](const DeferredHold* o) { return o != h && overlap(o->from, h->from); });
    if (done != nullptr && alone) pairs.emplace_back(h, done);
    else copy_typed(h->from, h->to, h->bytes);
  }
  for (auto [h, partner] : pairs)
    if (!combine_pair(h, partner)) copy_typed(h->from, h->to, h->bytes);
  for (DeferredHold* h : holds) h->type.reset();
}

void Deferred::land() {
  if (held()) copy_typed(hold_->from, hold_->to, hold_->bytes);
  release();
}

void Deferred::drop() noexcept {
  std::unique_ptr<DeferredHold> h(std::exchange(hold_, nullptr));
  if (h->held) h->world->forget(h.get());
}

void World::complete(Request* r, SimTime at) {
  r->complete = true;
  r->done_at = at;
  if (r->freed) {  // MPI_Request_free'd: nobody waits for it
    // An activity's request goes once its body has returned (run_activity).
    if (r->kind != Request::Kind::activity) release(r);
    return;
  }
  rank(r->owner).on_complete(r);
}

void World::track_origins(std::int64_t allocation_limit) {
  if (mode_ != PayloadMode::data) return;
  track_origins_ = true;
  for (std::uint32_t i = 0; i < size(); ++i) rank(i).memory().track_origins(static_cast<std::int32_t>(i), allocation_limit);
}

void World::release(Message* m) {
  if (m->eager_request) [[unlikely]] m->eager_request->message = nullptr;
  budget_.used -= m->held;
  m->payload.clear();
  messages_.release(m);
}

}  // namespace mpisim::mpi
