#pragma once
// The scenario executor: each rank runs the same typed steps (or its own, MPMD) as
// a coroutine and translates each call step into calls of the MPI library
// (model/mpi, model/coll), which check them against the standard. Internal to
// model/scenario, shared by its files: executor.cpp (the step loop, names and
// arguments), local_steps.cpp (buffers, expect), show_steps.cpp (show, followed
// buffers, explain), p2p_steps.cpp,
// group_steps.cpp (groups and communicators), type_steps.cpp (datatypes, pack,
// operations), collective_steps.cpp, and run.cpp (a run and its diagnostics).
// The small argument readers every family uses stay here, inline; a rank's state
// is in rank_env.hpp.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/coll/arguments.hpp"
#include "model/coll/coordinator.hpp"
#include "model/coll/persistent.hpp"
#include "model/coll/registry.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/local_calls.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/runtime.hpp"
#include "model/scenario/rank_env.hpp"
#include "model/scenario/run.hpp"
#include "sim/bulk.hpp"
#include "sim/engine.hpp"
#include "sim/frame_pool.hpp"
#include "sim/json_writer.hpp"

namespace mpisim::scenario::exec {

using mpi::Address;
using mpi::MpiError;
using mpi::Request;
using mpi::Status;
using sim::SimTime;
using sim::Task;

// The value of element i of an allocation as an integer (*integral: whether it is
// one); an element stored; an element written as JSON (local_steps.cpp).
std::int64_t element_as_int(const mpi::Allocation& a, std::int64_t i, bool* integral);
void store_element(mpi::Allocation& a, std::int64_t i, std::int64_t v);
// A real into element i of a floating (or complex: its real part) allocation; a
// StepError naming `init` for an integer type.
void store_real(mpi::Allocation& a, std::int64_t i, double v, const std::string& init);
// Every element of an allocation as a double (a complex one must be real); a
// StepError naming buffer `name` for a number that is not finite.
std::vector<double> reals_of(const mpi::Allocation& a, const std::string& name);
void write_element_json(sim::JsonWriter& w, const mpi::Allocation& a, std::int64_t i);

// The collective a call starts and in which form; false for the calls that are
// not collectives (the constructors aside) (collective_steps.cpp).
bool collective_of(CallId id, coll::Collective* kind, coll::Form* form);

class Executor {
 public:
  Executor(const Scenario& sc, mpi::World& world, const runner::Config& cfg, runner::Result& result)
      : sc_(sc), names_(*sc.names), world_(world), cfg_(cfg), result_(result), envs_(world.size(), nullptr),
        coordinator_(world, cfg.verify) {
    memo_width_ = std::min(sc.memo_slots, kMemoSlots);
    RankEnv any;  // the builtins but rank are the same at every rank
    std::pair<Executor*, RankEnv*> ctx{this, &any};
    for (NameId id = 0; id < Names::builtin_count; ++id) scalar_name(&ctx, id, &builtins_[id]);
  }

  // A rank's coroutine: run steps until one blocks, wait for it, finish it, go on.
  //
  // Its frame lives as long as the rank and a million ranks keep a million of them,
  // so it holds nothing but its arguments and its awaiter (two references): the
  // steps run in the functions it calls, and a wait keeps its requests in RankEnv.
  sim::ProcessTask run_rank(std::uint32_t r) {
    RankEnv& env = start_rank(r);
    while (block_next(env)) co_await Blocked{*this, env};
  }

  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  ~Executor() {
    for (RankEnv* e : envs_)
      if (e) {
        std::destroy_at(e);
        sim::frame_pool::deallocate(e, sizeof(RankEnv));
      }
  }

  // A buffer's contents as a snapshot writes them (local_steps.cpp).
  void write_buffer(sim::JsonWriter& w, const mpi::Allocation& a);
  void write_origins(sim::JsonWriter& w, const mpi::Allocation& a, std::int64_t first, std::int64_t n);
  // The buffers show steps follow, at env's rank, recorded after `what` (a call,
  // or the buffer's declaration) when their contents changed (full traces).
  void follow_buffers(RankEnv& env, const Step& s, std::string_view what);
  // A message's data has landed at rank `dst` (World::observe_deliveries): its
  // followed buffers are recorded if that changed them, so they fill message by
  // message, not only call by call.
  void follow_delivery(std::uint32_t dst, std::uint32_t src);
  // MPI_Type_commit's record of the datatype for the trace (type_steps.cpp).
  void record_datatype(RankEnv& env, const std::string& name, const mpi::Datatype& t);

  // A rank's state lives in its slot, made when the rank starts.
  RankEnv& start_rank(std::uint32_t r);
  // Runs the steps up to the next that blocks; false when the program is over.
  bool block_next(RankEnv& env) {
    env.blocked = advance(env);
    return env.blocked.kind != Blocking::none;
  }
  // The blocked step is over with status `st`.
  void after_block(RankEnv& env, const Status& st);

  // The one awaiter of run_rank, whatever the step left in env.blocked; it finishes
  // the step when the wait is over.
  struct Blocked {
    Executor& ex;
    RankEnv& env;
    // The requests a blocking point-to-point step waits for.
    mpi::Rank::WaitAll wait() const {
      return ex.world_.rank(env.rank).wait_all(std::span<Request*>(env.pending, env.pending_count));
    }
    bool null_wait() const { return env.pending_count == 1 && env.pending[0] == nullptr; }  // MPI_Wait on MPI_REQUEST_NULL
    bool await_ready() {
      if (env.blocked.kind != Blocking::requests) return false;  // a task: lazy, started by await_suspend
      return null_wait() || wait().await_ready();
    }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) {
      switch (env.blocked.kind) {
        case Blocking::coroutine: return std::move(env.blocked.task).operator co_await().await_suspend(h);
        case Blocking::collective: return std::move(env.blocked.call).operator co_await().await_suspend(h);
        default: {
          wait().await_suspend(h);  // the rank kept what await_ready found
          return std::noop_coroutine();
        }
      }
    }
    [[gnu::always_inline]] void await_resume() {
      Status st;
      try {
        switch (env.blocked.kind) {
          case Blocking::coroutine: st = std::move(env.blocked.task).operator co_await().await_resume(); break;
          case Blocking::collective: std::move(env.blocked.call).operator co_await().await_resume(); break;
          default: {
            const bool null = null_wait();
            mpi::Rank::WaitAll w = wait();
            env.pending_count = 0;
            if (!null) st = w.await_resume();
          }
        }
      } catch (const MpiError& e) {
        if (!env.blocked.errors_return) throw;
        env.blocked = Blocking{};
        ex.return_error(env, *env.step, e);
        return;
      }
      ex.after_block(env, st);
    }
  };

  // An erroneous call under MPI_ERRORS_RETURN (MPI-4.1 §9.3): the call did nothing;
  // its error class goes to the step's "return" name, a warning to the trace.
  void return_error(RankEnv& env, const Step& s, const MpiError& e);

  const RankEnv& env(std::uint32_t r) const {
    static const RankEnv not_started;
    return envs_[r] ? *envs_[r] : not_started;
  }
  // After a run that stopped with ranks blocked: destroys the coroutines they wait
  // for (before the engine destroys the ranks' own, and while the collectives'
  // arguments those refer to still exist).
  void abandon_blocked();

  // The buffers a program declares at its top level (memoized per program).
  std::size_t buffer_steps(const Program& prog);
  const coll::Coordinator& coordinator() const { return coordinator_; }

 private:
  // ---- name lookup for expressions
  // The name lookup of one rank, as a callable (wrap an lvalue of it in a Lookup).
  struct NameLookup {
    Executor* ex;
    RankEnv* env;
    std::optional<Value> operator()(std::string_view n, std::uint32_t resolved) const;
  };
  NameLookup lookup_for(RankEnv& env) { return NameLookup{this, &env}; }

  const mpi::Allocation* allocation(RankEnv& env, NameId id) {
    const std::string* key = &names_.str(id);
    for (const auto& a : world_.rank(env.rank).memory().allocations())
      if (a.name == key) return &a;
    return nullptr;
  }

  Value eval(RankEnv& env, const Expr& e);
  static bool scalar_name(void* ctx, std::uint32_t id, std::int64_t* out);

  // Small enough to be inlined where arguments are read: a number, or a memoized value.
  [[gnu::always_inline]] std::int64_t eval_int(RankEnv& env, const Expr& e) {
    if (e.constant_value()) return *e.constant_value();
    if (e.memo_slot() >= 0 && e.memo_slot() < memo_width_) return memoized_int(env, e);
    return compute_int(env, e);
  }
  // A per-rank constant (see Expr::memo_slot): computed on a rank's first use.
  // A rank's slots are side by side, so its memoized values share a cache line.
  [[gnu::noinline]] std::int64_t memoized_int(RankEnv& env, const Expr& e);
  static constexpr std::int64_t kUnset = INT64_MIN;
  // Memo slots kept per rank: a loop body's few neighbour and count expressions,
  // not an unbounded array per rank.
  static constexpr std::int32_t kMemoSlots = 4;
  [[gnu::noinline]] std::int64_t compute_int(RankEnv& env, const Expr& e);

  // ---- arguments
  [[gnu::always_inline]] const Arg& arg(const Step& s, P p) {
    std::int8_t i = s.slot[static_cast<std::size_t>(p)];
    if (i < 0) no_parameter(p);
    return s.args[static_cast<std::size_t>(i)];
  }
  [[noreturn, gnu::cold]] static void no_parameter(P p);
  const Arg& need(const Step& s, P p, const char* why);
  [[gnu::always_inline]] std::int64_t int_arg(RankEnv& env, const Step& s, P p) {
    const Arg& a = arg(s, p);
    return eval_int(env, *a.expr);
  }
  [[gnu::always_inline]] int rank_arg(RankEnv& env, const Step& s, P p) {
    std::int64_t v = int_arg(env, s, p);
    if (v < INT32_MIN || v > INT32_MAX) not_an_int(p, v);
    return static_cast<int>(v);
  }
  [[noreturn, gnu::cold]] static void not_an_int(P p, std::int64_t v);
  mpi::TypeRef type_arg(RankEnv& env, const Step& s, P p) {
    const Arg& a = arg(s, p);
    if (a.predefined) return a.predefined;
    return named_type(env, a.name, param_name(p));
  }

  mpi::TypeRef named_type(RankEnv& env, NameId id, const char* argument);

  // A datatype constructor's result, also recorded for the viewer (full traces).
  void bind_type(RankEnv& env, const Step& s, P p, mpi::TypeRef t) {
    if (t && result_.trace.level() == sim::TraceLevel::full) record_datatype(env, names_.str(arg(s, p).name), *t);
    bind(env.types(), arg(s, p).name, std::move(t));
  }

  // An array argument whose optional count parameter must give its length.
  std::vector<std::int64_t> array_arg_counted(RankEnv& env, const Step& s, P p, P count_param);

  const mpi::Communicator& comm_arg(RankEnv& env, const Step& s, P p = P::comm) {
    const Arg& a = arg(s, p);
    if (a.comm_kind == Arg::world) return world_.comm_world();
    if (a.comm_kind == Arg::self) return world_.comm_self();
    const mpi::Communicator** c = find_in(env.comms(), a.name);
    if (!c)
      throw MpiError(mpi::ErrorClass::comm, param_name(p), "communicator '" + a.handle + "' was never created on this rank",
                     "MPI-4.1 §7.4: a communicator argument must be a valid communicator handle");
    if (!*c)
      throw MpiError(mpi::ErrorClass::comm, param_name(p),
                     "communicator '" + a.handle + "' is MPI_COMM_NULL on rank " + std::to_string(env.rank) +
                         " (this rank is not a member, or the communicator was freed)",
                     "MPI-4.1 §7.4: MPI_COMM_NULL is not a valid communicator argument");
    return **c;
  }

  // The address a buffer argument denotes on this rank.
  [[gnu::always_inline]] Address address(RankEnv& env, const Arg& a, P p) {
    const BufferRef& b = a.buffer;
    if (b.kind == BufferRef::in_place) return coll::kInPlace;
    Address base = 0;
    std::int64_t elem = 1;
    if (b.kind == BufferRef::named) {
      const mpi::Allocation* al = allocation(env, b.name);
      if (!al) undeclared_buffer(env, b.name, p);
      base = al->base;
      elem = al->type->extent();
    }
    if (b.offset) base += eval_int(env, *b.offset) * elem;
    return base;
  }
  [[noreturn, gnu::cold]] void undeclared_buffer(const RankEnv& env, NameId name, P p) const;
  [[gnu::always_inline]] mpi::TypedBuffer typed(RankEnv& env, const Step& s, P p, std::int64_t count,
                                                const mpi::TypeRef& t) {
    Address at = address(env, arg(s, p), p);
    if (at == coll::kInPlace)
      throw MpiError(mpi::ErrorClass::buffer, param_name(p), "MPI_IN_PLACE is not allowed here",
                     "MPI-4.1 §6.2.1: MPI_IN_PLACE is only for the collective arguments that allow it");
    return mpi::TypedBuffer{&world_.rank(env.rank).memory(), at, count, t.get()};
  }
  void bind_status(RankEnv& env, const Step& s, P p, const Status& st) {
    const Arg& a = arg(s, p);
    if (!a.present || a.ignore) return;
    bind(env.statuses(), a.name, st);
    bind(env.values(), a.status_fields[0], Value::of(st.source));
    bind(env.values(), a.status_fields[1], Value::of(st.tag));
    bind(env.values(), a.status_fields[2], Value::of(static_cast<int>(st.error)));
  }
  void bind_int(RankEnv& env, const Step& s, P p, std::int64_t v) {
    bind(env.values(), arg(s, p).name, Value::of(v));
  }
  Request*& request_slot(RankEnv& env, NameId id, const char* param) {
    Request** r = find_in(env.requests(), id);
    if (!r)
      throw MpiError(mpi::ErrorClass::request, param, "request '" + names_.str(id) + "' was never started on this rank",
                     "MPI-4.1 §3.7.3: a request handle must come from a nonblocking call");
    return *r;
  }
  void bind_request(RankEnv& env, const Step& s, Request* r);
  // The matched message named by the step's message argument.
  mpi::MatchedMessage& message_arg(RankEnv& env, const Step& s);
  // The persistent request named `id`, or null when it is not one.
  Persistent* persistent_of(RankEnv& env, NameId id) {
    std::unique_ptr<Persistent>* p = find_in(env.persistent(), id);
    return p ? p->get() : nullptr;
  }

  // ---- steps
  // Runs the rank's steps that do not block, up to the next one that may; returns
  // that one's task, or nothing when the program is over.
  Blocking advance(RankEnv& env);

  // Runs one step; returns its task if it may block.
  Blocking run_step(RankEnv& env, const Step& s);

  static Task<Status> computing(mpi::Rank& rk, SimTime duration);

  // After a blocking step: bind its status and record it.
  void finish_blocking(RankEnv& env, const Status& st, const char* algorithm);

  static std::int32_t index_of(const Step& s) { return s.index; }

  // Each buffer of the rank, compactly (mpisim explain).
  std::vector<std::string> buffer_texts(RankEnv& env);

  std::vector<std::pair<std::string, std::string>> explain_results(RankEnv& env, const Step& s);
  // Tags the values a call bound with the MPI constants they may stand for, so
  // that show prints MPI_UNDEFINED, not -32766 (Value::naming).
  void name_results(RankEnv& env, const Step& s);
  void record_explain(RankEnv& env, const Step& s, const char* algorithm, SimTime start, const std::string& args);

  std::int64_t record_call(RankEnv& env, const Step& s, const char* name, SimTime start, const char* algorithm,
                           std::string args);

  std::string args_json(RankEnv& env, const Step& s);

  void declare_buffer(RankEnv& env, const Step& s);

  void show(RankEnv& env, const Step& s);

  void expect(RankEnv& env, const Step& s);

  static std::string abbreviate(const Value& v);

  // ---- calls
  // Calls that never block run here, outside any coroutine frame, one family
  // after another; false for a call none of them knows.
  bool call_sync(RankEnv& env, const Step& s);

  // The point-to-point calls that never block: ranks, requests, tests.
  bool p2p_call(RankEnv& env, const Step& s);

  // Groups and the local communicator calls.
  bool group_call(RankEnv& env, const Step& s);

  // The process topologies' local calls: MPI_Dims_create, the maps, the queries (topology_steps.cpp).
  bool topology_call(RankEnv& env, const Step& s);
  // The topology constructors (collectives): MPI_Cart_create, MPI_Cart_sub,
  // MPI_Graph_create, MPI_Dist_graph_create(_adjacent); the new communicator.
  Task<const mpi::Communicator*> construct_topology(RankEnv& env, const Step& s, mpi::Rank& rk);
  // An integer array argument as C ints (each must fit one).
  std::vector<int> int_vector(RankEnv& env, const Step& s, P p);
  // The same, as flags (nonzero: true).
  std::vector<bool> flag_vector(RankEnv& env, const Step& s, P p);

  // Datatypes, pack and unpack, operations.
  bool type_call(RankEnv& env, const Step& s);

  // The nonblocking collectives and the persistent ones' _init: they start, never block.
  bool start_call(RankEnv& env, const Step& s);

  // MPI-4.1 §6.13: checks the arguments and chooses the algorithm once; the
  // request is inactive until MPI_Start.
  void init_persistent(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind);

  // MPI_Start on the request named `id`: its call runs again, as a new
  // collective call on its communicator.
  void start_persistent(RankEnv& env, mpi::Rank& rk, NameId id, const char* param);

  // The statuses of a completion call (array_of_statuses), as the arrays
  // <name>.MPI_SOURCE and <name>.MPI_TAG.
  void bind_statuses(RankEnv& env, const Step& s, const std::vector<Status>& sts);
  // MPI_Waitsome and MPI_Testsome's results.
  void bind_some(RankEnv& env, const Step& s, int n, const std::vector<int>& indices, const std::vector<Status>& sts);

  std::string type_name(const Step& s) { return names_.str(arg(s, P::newtype).name); }

  mpi::OpRef op_arg(RankEnv& env, const Step& s);


  // MPI_Pack and MPI_Unpack: the packed form is the data bytes in type-map order.
  void pack_unpack(RankEnv& env, const Step& s);
  void type_name(RankEnv& env, const Step& s);
  static void expression_op(const mpi::Op& op, const std::byte* in, std::byte* inout, std::int64_t count,
                            const mpi::Datatype& type, std::int64_t /*rank*/);

  mpi::GroupRef world_group();

  mpi::GroupRef group_arg(RankEnv& env, const Step& s, P p);

  void bind_group(RankEnv& env, const Step& s, P p, mpi::GroupRef g) { bind(env.groups(), arg(s, p).name, std::move(g)); }

  // An integer array argument whose length the optional n gives (in units of `per`).
  std::vector<std::int64_t> counted_array(RankEnv& env, const Step& s, P p, std::size_t per);

  // Calls that may block. The simple ones prepare here, outside any coroutine, and
  // hand back the runtime's own small waiting coroutine, so a blocked rank's frames
  // stay small. Each returns the status run_program binds to "status", if given.
  // Nothing (Blocking::none) for a call that never blocks: call_sync runs it.
  Blocking call_async(RankEnv& env, const Step& s);

  // The optional count parameter of a call on an array of requests: its length.
  void check_request_count(RankEnv& env, const Step& s, P count_param, std::size_t n);
  std::vector<Request*> gather_requests(RankEnv& env, const Step& s, P count_param = P::count);

  void write_back(RankEnv& env, const Step& s, const std::vector<Request*>& reqs);

  Task<Status> waitall(RankEnv& env, const Step& s, mpi::Rank& rk);

  Task<Status> waitsome(RankEnv& env, const Step& s, mpi::Rank& rk);

  Task<Status> waitany(RankEnv& env, const Step& s, mpi::Rank& rk);

  // A blocking call's requests, for run_rank to wait for (MPI_REQUEST_NULL: an empty status at once).
  static Blocking pending(RankEnv& env, Request* first, Request* second = nullptr) {
    env.pending[0] = first;
    env.pending[1] = second;
    env.pending_count = second ? 2 : 1;
    return Blocking::on_requests();
  }

  // The receive is posted first; when the send's arguments are wrong, the error
  // ends the run, which releases the receive.
  Blocking sendrecv(RankEnv& env, const Step& s, mpi::Rank& rk);
  // MPI_Ssend, MPI_Bsend, MPI_Rsend and their nonblocking forms: the send in the call's mode.
  Request* send_in_mode(RankEnv& env, const Step& s, mpi::Rank& rk, bool nonblocking);
  // MPI_Send_init ... MPI_Recv_init: an inactive persistent point-to-point request.
  void init_p2p(RankEnv& env, const Step& s, mpi::Rank& rk);
  // The status a step names (MPI_Get_count, MPI_Test_cancelled).
  const Status& status_arg(RankEnv& env, const Step& s, const char* rule);

  Task<Status> sendrecv_replace(RankEnv& env, const Step& s, mpi::Rank& rk);

  // ---- collectives: the library reads and checks the arguments (coll::read_arguments),
  // asking this step for each where it is significant; the coordinator runs the algorithm.
  class StepArgs;

  // A collective call's arguments, checked against the standard here, at the
  // boundary; the coordinator checks them against the other members'.
  coll::CollArgs collective_args(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind, coll::Form form);

  // The algorithm that runs the call: the one the step names, else the one the run
  // names for the call (a nonblocking call falls back to its blocking form's),
  // else auto.
  const coll::Algorithm& algorithm_for(const Step& s, coll::CollArgs& a, std::uint32_t caller);

  Blocking collective(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind);

  // MPI-4.1 §6.12: a nonblocking collective starts its algorithm as an activity of
  // the rank and returns its request at once.
  void start_collective(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind);

  // The communicator constructors: collectives whose result is a communicator handle.
  Task<Status> construct(RankEnv& env, const Step& s, mpi::Rank& rk);
  // MPI_Comm_idup's work, an activity of the rank: the name is bound to the new
  // communicator once the collective is over, then the request completes.
  Task<void> idup(RankEnv& env, NameId name, const mpi::Communicator& parent, Task<const mpi::Communicator*> made);

  // The position of this call among the collectives on `c` at this rank.
  std::int64_t next_instance(RankEnv& env, const mpi::Communicator& c);

  static constexpr std::int64_t kMaxShown = 65536;
  // follow_buffers: the contents last recorded per (rank, buffer), and how many
  // snapshots it has recorded (at most kMaxFollowed).
  std::map<std::pair<std::uint32_t, NameId>, std::string> followed_;
  std::size_t follow_count_ = 0;
  static constexpr std::size_t kMaxFollowed = 20000;
  static constexpr std::int64_t kOrderC = mpi::ORDER_C, kOrderFortran = mpi::ORDER_FORTRAN;
  mpi::GroupRef world_group_;
  std::uint64_t steps_ = 0;
  // The builtin names' values for the scalar fast path (rank: set per evaluation).
  std::array<std::int64_t, Names::builtin_count> builtins_{};
  const Program* counted_program_ = nullptr;
  std::size_t counted_buffers_ = 0;
  std::map<std::uint32_t, std::vector<std::string>> explain_before_;  // mpisim explain: buffers as each call found them
  // mpisim explain: what the library made of a rank's collective call, from its
  // arguments (collective_args): the parameters it read (significant at the
  // rank), the rank's role, and the buffers the call writes there.
  struct ExplainCall {
    std::uint32_t read = 0;  // bits by coll::Param
    std::string role;        // "root", "non-root", or "" when the call has no root
    bool in_place = false;
    std::vector<const std::string*> written;  // the allocations the call writes at the rank
  };
  std::map<std::uint32_t, ExplainCall> explain_call_;
  // mpisim figure (Config::figure_step): the regions of the step's call at each
  // rank, with their contents before it; done once a rank's call returned.
  struct FigureRegion {
    const char* argument;
    int block;
    bool writes;
    Address addr;
    std::int64_t bytes;
    std::string before;
  };
  struct FigureCall {
    std::string role;
    std::vector<FigureRegion> regions;
  };
  std::map<std::uint32_t, FigureCall> figure_pending_;
  void figure_before(RankEnv& env, const coll::CollArgs& a, mpi::Rank& rk);
  void figure_after(RankEnv& env);
  std::string region_json(mpi::Rank& rk, Address addr, std::int64_t bytes);
  struct {
    const Step* step = nullptr;
    const coll::Algorithm* algorithm = nullptr;  // null: auto
  } named_;                                      // the last collective step's named algorithm
  const coll::Algorithm* last_used_ = nullptr;   // the algorithm last recorded in algorithms_used
  const CallSpec* last_used_call_ = nullptr;     // and its call
  // The value an expression reads for a handle name: a communicator, datatype,
  // operation or request (its null handle once freed or completed); nullopt for
  // a name that holds none of them.
  std::optional<std::int64_t> handle_value(RankEnv& env, NameId id);
  std::string handle_text(RankEnv& env, NameId id);

  // ---- error handlers (MPI-4.1 §9.3): per rank and communicator, in the bindings
  static std::uint32_t comm_key(const mpi::Communicator& c) { return c.is_self() ? 0xffffffffu : c.base_context(); }
  std::int64_t errhandler_of(RankEnv& env, const mpi::Communicator& c);
  void set_errhandler(RankEnv& env, const mpi::Communicator& c, std::int64_t handler);
  // A communicator made from `parent` inherits its handler.
  void inherit_errhandler(RankEnv& env, const mpi::Communicator& parent, const mpi::Communicator* made) {
    if (errhandlers_set_ && made) set_errhandler(env, *made, errhandler_of(env, parent));
  }
  // Whether an error of step `s` now goes back to the program: the handler of the
  // communicator it is about (its requests' for a completion), MPI_COMM_SELF's for
  // a call about none, is MPI_ERRORS_RETURN.
  bool returns_errors(RankEnv& env, const Step& s) { return errhandlers_set_ && handler_returns(env, s); }
  bool handler_returns(RankEnv& env, const Step& s);
  const mpi::Communicator* comm_or_null(RankEnv& env, const Step& s, std::size_t i);
  bool errhandlers_set_ = false;  // whether any call set a handler (else nothing is looked up)
  // Whether the running call is bound to the other members' calls (it entered a
  // collective): an error now stops the run whatever the handler.
  bool committed_ = false;
  const char* started_algorithm_ = "";           // the algorithm of the nonblocking collective just started
  std::vector<const Request*> started_;          // the operations the running call started

  const Scenario& sc_;
  Names& names_;
  mpi::World& world_;
  const runner::Config& cfg_;
  runner::Result& result_;
  sim::bulk::Vector<RankEnv*> envs_;  // null until the rank starts
  std::vector<std::int64_t> memo_;  // eval_int's memo: memo_width_ slots per rank, allocated on first use
  std::int32_t memo_width_ = 0;
  coll::Coordinator coordinator_;
};

}  // namespace mpisim::scenario::exec
