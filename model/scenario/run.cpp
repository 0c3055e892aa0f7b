// Executing a scenario: each rank runs the same typed steps (or its own, MPMD)
// as a coroutine; MPI calls go through the rank API, which validates them.
#include "model/scenario/run.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "model/coll/arguments.hpp"
#include "model/coll/comm/constructors.hpp"
#include "model/coll/coordinator.hpp"
#include "model/coll/registry.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/runtime.hpp"
#include "model/mpi/type_constructors.hpp"
#include "sim/bulk.hpp"
#include "sim/engine.hpp"
#include "sim/wait_for_graph.hpp"

namespace mpisim::scenario {
namespace {

using mpi::Address;
using mpi::MpiError;
using mpi::Request;
using mpi::Status;
using sim::SimTime;
using sim::Task;

// A problem with the scenario found while running it on a rank (an unknown name,
// an array where a number was needed, ...): a user error, reported with the step.
class StepError : public std::runtime_error {
 public:
  explicit StepError(const std::string& what) : std::runtime_error(what) {}
};

// Thrown by an `expect` step is not needed: expectations record and go on.

// A rank's table of the names it bound, from the pool of small per-rank blocks,
// not the heap (and not the rank's arena, whose room goes to what the MPI calls
// touch at every message).
template <typename K, typename T>
using Table = std::vector<std::pair<K, T>, sim::frame_pool::PooledAllocator<std::pair<K, T>>>;

template <typename T>
T* find_in(Table<NameId, T>& v, NameId id) {
  for (auto& [k, x] : v)
    if (k == id) return &x;
  return nullptr;
}

template <typename T>
void bind(Table<NameId, T>& v, NameId id, T x) {
  if (T* p = find_in(v, id)) *p = std::move(x);
  else v.emplace_back(id, std::move(x));
}

// A persistent collective request (MPI-4.1 §6.13): the call's arguments, checked
// once by its _init, and its algorithm; each MPI_Start runs them as a new call.
struct Persistent {
  coll::CollArgs args;
  const coll::Algorithm* algorithm = nullptr;
};

// Where a rank is in its program: a step list, the next step, and for the body of
// a repeat, which iteration of how many.
struct Cursor {
  const Program* program = nullptr;
  std::uint32_t next = 0;
  const Step* repeat = nullptr;  // the repeat step whose body this is; null at top level
  std::int64_t iteration = 0, times = 0;
};

// What a step that may block hands to its rank's coroutine: nothing (it did not
// block, or the program is over), a coroutine to await, a collective's algorithm,
// or the requests it posted in RankEnv::pending (send, recv, wait, sendrecv:
// waited for with no coroutine frame of their own).
struct Blocking {
  enum Kind : std::uint8_t { none, coroutine, collective, requests };
  Kind kind = none;
  Task<Status> task;                 // coroutine
  Task<void> call;                   // collective: the algorithm (its status is empty)
  coll::Coordinator::Ticket ticket;  // collective: left once its algorithm is done
  Blocking() = default;
  Blocking(Task<Status> t) : kind(coroutine), task(std::move(t)) {}  // NOLINT: a task is a blocking step
  static Blocking on_collective(coll::Coordinator::Entered entered) {
    Blocking b;
    b.kind = collective;
    b.call = std::move(entered.algorithm);
    b.ticket = entered.ticket;
    return b;
  }
  static Blocking on_requests() {
    Blocking b;
    b.kind = requests;
    return b;
  }
};

// A rank's interpreter state. It lives here rather than in coroutine frames, so a
// blocked rank costs one small frame whatever its program's nesting.
struct RankEnv {
  std::uint32_t rank = 0;
  std::uint32_t top_next = 0;       // the next step of the top-level program
  const Program* top_program = nullptr;
  const Step* step = nullptr;       // the step running now
  // Repeat bodies being run, innermost last; made on the first repeat (most
  // programs at a million ranks have none, and the state stays small).
  std::unique_ptr<std::vector<Cursor>> nested;
  SimTime call_start{};
  // The step that blocked, and the requests a blocking point-to-point step posted:
  // what run_rank waits for. Kept here, not in run_rank's frame, which stays small.
  Blocking blocked;
  Request* pending[2] = {nullptr, nullptr};
  std::uint8_t pending_count = 0;
  std::int64_t world_collectives = 0;  // collective calls so far on MPI_COMM_WORLD (others: in bindings)

  // Names this rank has bound: a table per kind, each made on its first use
  // (many ranks bind none, or only a request).
  template <typename K, typename T>
  class Lazy {
   public:
    Table<K, T>& get() {
      if (!p_) p_.reset(new (sim::frame_pool::allocate_pooled(sizeof(Table<K, T>))) Table<K, T>{});
      return *p_;
    }

   private:
    struct Free {
      void operator()(Table<K, T>* p) const noexcept {
        std::destroy_at(p);
        sim::frame_pool::deallocate(p, sizeof(Table<K, T>));
      }
    };
    std::unique_ptr<Table<K, T>, Free> p_;
  };
  struct Bindings {
    Lazy<NameId, Value> values;
    Lazy<NameId, Request*> requests;
    Lazy<NameId, Status> statuses;
    Lazy<NameId, mpi::GroupRef> groups;  // null: MPI_GROUP_NULL (freed)
    Lazy<NameId, const mpi::Communicator*> comms;  // null: MPI_COMM_NULL
    Lazy<std::uint32_t, std::int64_t> collectives;  // per communicator context but the world's: calls so far
    Lazy<NameId, mpi::TypeRef> types;  // null: MPI_DATATYPE_NULL (freed)
    Lazy<NameId, mpi::OpRef> ops;      // null: MPI_OP_NULL (freed)
    Lazy<NameId, std::unique_ptr<Persistent>> persistent;  // null: freed
  };
  struct FreeBindings {
    void operator()(Bindings* p) const noexcept {
      std::destroy_at(p);
      sim::frame_pool::deallocate(p, sizeof(Bindings));
    }
  };
  std::unique_ptr<Bindings, FreeBindings> bindings;
  Bindings& b() {
    if (!bindings) bindings.reset(new (sim::frame_pool::allocate_pooled(sizeof(Bindings))) Bindings{});
    return *bindings;
  }
  Table<NameId, Value>& values() { return b().values.get(); }
  Table<NameId, Request*>& requests() { return b().requests.get(); }
  Table<NameId, Status>& statuses() { return b().statuses.get(); }
  Table<NameId, mpi::GroupRef>& groups() { return b().groups.get(); }
  Table<NameId, const mpi::Communicator*>& comms() { return b().comms.get(); }
  Table<NameId, mpi::TypeRef>& types() { return b().types.get(); }
  Table<NameId, mpi::OpRef>& ops() { return b().ops.get(); }
  Table<NameId, std::unique_ptr<Persistent>>& persistent() { return b().persistent.get(); }
};

double floating_at(const std::byte* p, std::int64_t size) {
  if (size == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (size == 8) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  long double ld;
  std::memcpy(&ld, p, sizeof ld);
  return static_cast<double>(ld);
}

std::int64_t element_as_int(const mpi::Allocation& a, std::int64_t i, bool* integral) {
  const mpi::BasicType& b = *a.type->basic();
  const std::byte* p = a.data.get() + i * b.size;
  *integral = true;
  switch (b.kind) {
    case mpi::ElementKind::complex: {
      double re = floating_at(p, b.size / 2), im = floating_at(p + b.size / 2, b.size / 2);
      *integral = im == 0 && re == std::floor(re) && std::fabs(re) < 9e18;
      return *integral ? static_cast<std::int64_t>(re) : 0;
    }
    case mpi::ElementKind::floating: {
      double d = floating_at(p, b.size);
      *integral = d == std::floor(d) && std::fabs(d) < 9e18;
      return *integral ? static_cast<std::int64_t>(d) : 0;
    }
    case mpi::ElementKind::unsigned_int:
    case mpi::ElementKind::byte:
    case mpi::ElementKind::boolean: {
      std::uint64_t u = 0;
      std::memcpy(&u, p, static_cast<std::size_t>(b.size));
      return static_cast<std::int64_t>(u);
    }
    case mpi::ElementKind::signed_int: {
      if (b.size == 1) { std::int8_t v; std::memcpy(&v, p, 1); return v; }
      if (b.size == 2) { std::int16_t v; std::memcpy(&v, p, 2); return v; }
      if (b.size == 4) { std::int32_t v; std::memcpy(&v, p, 4); return v; }
      std::int64_t v; std::memcpy(&v, p, 8); return v;
    }
  }
  return 0;
}

void store_element(mpi::Allocation& a, std::int64_t i, std::int64_t v) {
  const mpi::BasicType& b = *a.type->basic();
  std::byte* p = a.data.get() + i * b.size;
  if (b.kind == mpi::ElementKind::complex) {
    // The real part; the imaginary part is zero.
    std::memset(p, 0, static_cast<std::size_t>(b.size));
    const std::int64_t half = b.size / 2;
    if (half == 4) { float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
    else if (half == 8) { double d = static_cast<double>(v); std::memcpy(p, &d, 8); }
    else { long double ld = static_cast<long double>(v); std::memcpy(p, &ld, sizeof ld); }
    return;
  }
  if (b.kind == mpi::ElementKind::floating) {
    if (b.size == 4) { float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
    else if (b.size == 8) { double d = static_cast<double>(v); std::memcpy(p, &d, 8); }
    else { long double ld = static_cast<long double>(v); std::memcpy(p, &ld, sizeof ld); }
    return;
  }
  std::memcpy(p, &v, static_cast<std::size_t>(b.size));  // little-endian: the low bytes
}

void write_element_json(sim::JsonWriter& w, const mpi::Allocation& a, std::int64_t i) {
  const mpi::BasicType& b = *a.type->basic();
  if (b.kind == mpi::ElementKind::floating) {
    w.value(floating_at(a.data.get() + i * b.size, b.size));
    return;
  }
  if (b.kind == mpi::ElementKind::complex) {
    const std::byte* p = a.data.get() + i * b.size;
    w.begin_array().value(floating_at(p, b.size / 2)).value(floating_at(p + b.size / 2, b.size / 2)).end_array();
    return;
  }
  bool integral = true;
  w.value(element_as_int(a, i, &integral));
}

// The collective a call starts and in which form; false for the calls that are
// not collectives (the constructors aside). From the call table's names, once,
// into a table by call.
bool collective_of(CallId id, coll::Collective* kind, coll::Form* form) {
  struct Entry {
    bool is_collective = false;
    coll::Form form = coll::Form::blocking;
    coll::Collective kind = coll::Collective::barrier;
  };
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    for (const CallSpec& c : call_specs()) {
      const auto i = static_cast<std::size_t>(c.id);
      if (t.size() <= i) t.resize(i + 1);
      bool persistent = false;
      const std::optional<CallId> blocking = blocking_form(c.id, &persistent);
      const CallSpec* named = blocking ? nullptr : &c;
      if (blocking)
        for (const CallSpec& b : call_specs())
          if (b.id == *blocking) named = &b;
      t[i].is_collective = named && coll::collective_by_name(named->name, &t[i].kind);
      t[i].form = !blocking ? coll::Form::blocking : persistent ? coll::Form::persistent : coll::Form::nonblocking;
    }
    return t;
  }();
  const auto i = static_cast<std::size_t>(id);
  if (i >= table.size() || !table[i].is_collective) return false;
  *kind = table[i].kind;
  *form = table[i].form;
  return true;
}

class Executor {
 public:
  Executor(const Scenario& sc, mpi::World& world, const RunConfig& cfg, RunResult& result)
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

  // A rank's state lives in its slot, made when the rank starts.
  RankEnv& start_rank(std::uint32_t r) {
    world_.enter(r);
    RankEnv& env = *(envs_[r] = new (sim::frame_pool::allocate(sizeof(RankEnv))) RankEnv{});
    env.rank = r;
    env.top_program = &sc_.program_for(r);
    world_.rank(r).memory().reserve(buffer_steps(*env.top_program));
    return env;
  }
  // Runs the steps up to the next that blocks; false when the program is over.
  bool block_next(RankEnv& env) {
    env.blocked = advance(env);
    return env.blocked.kind != Blocking::none;
  }
  // The blocked step is over with status `st`.
  void after_block(RankEnv& env, const Status& st) {
    const char* algorithm = nullptr;  // a collective's (registry names are string literals)
    if (env.blocked.kind == Blocking::collective) {
      coordinator_.leave(world_.rank(env.rank), env.blocked.ticket);
      algorithm = env.blocked.ticket.alg->name.data();
    }
    env.blocked = Blocking{};  // frees the finished coroutine's frame
    finish_blocking(env, st, algorithm);
  }

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
    void await_resume() {
      Status st;
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
      ex.after_block(env, st);
    }
  };

  const RankEnv& env(std::uint32_t r) const {
    static const RankEnv not_started;
    return envs_[r] ? *envs_[r] : not_started;
  }
  // After a run that stopped with ranks blocked: destroys the coroutines they wait
  // for (before the engine destroys the ranks' own, and while the collectives'
  // arguments those refer to still exist).
  void abandon_blocked() {
    world_.abandon_activities();
    for (RankEnv* e : envs_)
      if (e) e->blocked = Blocking{};
  }

  // The buffers a program declares at its top level (memoized per program).
  std::size_t buffer_steps(const Program& prog) {
    if (&prog == counted_program_) return counted_buffers_;
    std::size_t n = 0;
    for (const Step& s : prog) n += s.kind == Step::buffer;
    counted_program_ = &prog;
    counted_buffers_ = n;
    return n;
  }
  const coll::Coordinator& coordinator() const { return coordinator_; }

 private:
  // ---- name lookup for expressions
  // The name lookup of one rank, as a callable (wrap an lvalue of it in a Lookup).
  auto lookup_for(RankEnv& env) {
    return [this, &env](std::string_view n, std::uint32_t resolved) -> std::optional<Value> {
      std::optional<NameId> id = resolved != kNoId ? std::optional<NameId>(resolved) : names_.find(n);
      if (!id) return std::nullopt;
      switch (*id) {
        case Names::rank: return Value::of(env.rank);
        case Names::size: return Value::of(static_cast<std::int64_t>(world_.size()));
        case Names::any_source: return Value::of(mpi::ANY_SOURCE);
        case Names::any_tag: return Value::of(mpi::ANY_TAG);
        case Names::proc_null: return Value::of(mpi::PROC_NULL);
        case Names::root: return Value::of(mpi::ROOT);
        case Names::undefined: return Value::of(mpi::UNDEFINED);
        case Names::tag_ub: return Value::of(mpi::TAG_UB);
        case Names::ident: return Value::of(static_cast<int>(mpi::Comparison::ident));
        case Names::congruent: return Value::of(static_cast<int>(mpi::Comparison::congruent));
        case Names::similar: return Value::of(static_cast<int>(mpi::Comparison::similar));
        case Names::unequal: return Value::of(static_cast<int>(mpi::Comparison::unequal));
        case Names::order_c: return Value::of(kOrderC);
        case Names::order_fortran: return Value::of(kOrderFortran);
        default: break;
      }
      if (Value* v = find_in(env.values(), *id)) return *v;
      if (mpi::GroupRef* g = find_in(env.groups(), *id); g && *g) return Value::of((*g)->members());
      if (auto c = mpi_constant(n)) return Value::of(*c);
      if (const mpi::Allocation* a = allocation(env, *id)) {
        if (!a->data)
          throw StepError("buffer '" + std::string(n) + "' has no contents in --payload sizes mode");
        std::vector<std::int64_t> xs(static_cast<std::size_t>(a->count));
        for (std::int64_t i = 0; i < a->count; ++i) {
          bool integral = true;
          xs[static_cast<std::size_t>(i)] = element_as_int(*a, i, &integral);
          if (!integral)
            throw StepError("buffer '" + std::string(n) + "' element " + std::to_string(i) +
                            " is not an integer; expressions compare integers only");
        }
        return Value::of(std::move(xs));
      }
      return std::nullopt;
    };
  }

  const mpi::Allocation* allocation(RankEnv& env, NameId id) {
    const std::string* key = &names_.str(id);
    for (const auto& a : world_.rank(env.rank).memory().allocations())
      if (a.name == key) return &a;
    return nullptr;
  }

  Value eval(RankEnv& env, const Expr& e) {
    auto fn = lookup_for(env);
    try {
      return e.eval(fn);
    } catch (const ExprError& x) {
      throw StepError("in the expression \"" + e.text() + "\": " + x.what());
    }
  }
  static bool scalar_name(void* ctx, std::uint32_t id, std::int64_t* out) {
    auto* self = static_cast<std::pair<Executor*, RankEnv*>*>(ctx);
    RankEnv& env = *self->second;
    switch (id) {
      case Names::rank: *out = env.rank; return true;
      case Names::size: *out = self->first->world_.size(); return true;
      case Names::any_source: *out = mpi::ANY_SOURCE; return true;
      case Names::any_tag: *out = mpi::ANY_TAG; return true;
      case Names::proc_null: *out = mpi::PROC_NULL; return true;
      case Names::root: *out = mpi::ROOT; return true;
      case Names::undefined: *out = mpi::UNDEFINED; return true;
      case Names::tag_ub: *out = mpi::TAG_UB; return true;
      case Names::ident: *out = static_cast<int>(mpi::Comparison::ident); return true;
      case Names::congruent: *out = static_cast<int>(mpi::Comparison::congruent); return true;
      case Names::similar: *out = static_cast<int>(mpi::Comparison::similar); return true;
      case Names::unequal: *out = static_cast<int>(mpi::Comparison::unequal); return true;
      case Names::order_c: *out = kOrderC; return true;
      case Names::order_fortran: *out = kOrderFortran; return true;
      default: break;
    }
    const Value* v = find_in(env.values(), id);
    if (v == nullptr) {
      auto c = mpi_constant(self->first->names_.str(id));
      if (c) *out = *c;
      return c.has_value();
    }
    if (v->is_array) return false;
    *out = v->scalar;
    return true;
  }

  // Small enough to be inlined where arguments are read: a number, or a memoized value.
  [[gnu::always_inline]] std::int64_t eval_int(RankEnv& env, const Expr& e) {
    if (e.constant_value()) return *e.constant_value();
    if (e.memo_slot() >= 0 && e.memo_slot() < memo_width_) return memoized_int(env, e);
    return compute_int(env, e);
  }
  // A per-rank constant (see Expr::memo_slot): computed on a rank's first use.
  // A rank's slots are side by side, so its memoized values share a cache line.
  [[gnu::noinline]] std::int64_t memoized_int(RankEnv& env, const Expr& e) {
    if (memo_.empty()) memo_.assign(static_cast<std::size_t>(memo_width_) * world_.size(), kUnset);
    std::int64_t& v = memo_[static_cast<std::size_t>(env.rank) * static_cast<std::size_t>(memo_width_) +
                            static_cast<std::size_t>(e.memo_slot())];
    if (v == kUnset) v = compute_int(env, e);  // a value of kUnset itself is computed every time
    return v;
  }
  static constexpr std::int64_t kUnset = INT64_MIN;
  // Memo slots kept per rank: a loop body's few neighbour and count expressions,
  // not an unbounded array per rank.
  static constexpr std::int32_t kMemoSlots = 4;
  [[gnu::noinline]] std::int64_t compute_int(RankEnv& env, const Expr& e) {
    std::pair<Executor*, RankEnv*> ctx{this, &env};
    std::int64_t fast = 0;
    builtins_[Names::rank] = env.rank;
    try {
      if (e.eval_scalar(ScalarLookup{&ctx, &scalar_name, builtins_.data(), Names::builtin_count}, &fast)) return fast;
    } catch (const ExprError& x) {
      throw StepError("in the expression \"" + e.text() + "\": " + x.what());
    }
    Value v = eval(env, e);
    if (v.is_array) throw StepError("the expression \"" + e.text() + "\" gives an array where a number is expected");
    return v.scalar;
  }

  // ---- arguments
  [[gnu::always_inline]] const Arg& arg(const Step& s, P p) {
    std::int8_t i = s.slot[static_cast<std::size_t>(p)];
    if (i < 0) no_parameter(p);
    return s.args[static_cast<std::size_t>(i)];
  }
  [[noreturn, gnu::cold]] static void no_parameter(P p) {
    throw std::logic_error(std::string("call has no parameter ") + param_name(p));
  }
  const Arg& need(const Step& s, P p, const char* why) {
    const char* name = param_name(p);
    const Arg& a = arg(s, p);
    if (!a.present)
      throw MpiError(mpi::ErrorClass::arg, name,
                     std::string("parameter ") + name + " is missing" + (*why ? std::string(" ") + why : std::string()),
                     "MPI-4.1 §6.1: an argument that is significant at a process must be given there");
    return a;
  }
  [[gnu::always_inline]] std::int64_t int_arg(RankEnv& env, const Step& s, P p) {
    const Arg& a = arg(s, p);
    return eval_int(env, *a.expr);
  }
  [[gnu::always_inline]] int rank_arg(RankEnv& env, const Step& s, P p) {
    std::int64_t v = int_arg(env, s, p);
    if (v < INT32_MIN || v > INT32_MAX) not_an_int(p, v);
    return static_cast<int>(v);
  }
  [[noreturn, gnu::cold]] static void not_an_int(P p, std::int64_t v) {
    const char* name = param_name(p);
    throw MpiError(mpi::ErrorClass::arg, name, std::string(name) + " = " + std::to_string(v) + " does not fit an int",
                   "MPI-4.1 §2.5.6: C int arguments");
  }
  mpi::TypeRef type_arg(RankEnv& env, const Step& s, P p) {
    const Arg& a = arg(s, p);
    if (a.predefined) return a.predefined;
    return named_type(env, a.name, param_name(p));
  }

  mpi::TypeRef named_type(RankEnv& env, NameId id, const char* argument) {
    const std::string& n = names_.str(id);
    if (auto t = mpi::predefined_type(n)) return t;
    mpi::TypeRef* t = find_in(env.types(), id);
    if (!t)
      throw MpiError(mpi::ErrorClass::type, argument, "datatype '" + n + "' was never created on this rank",
                     "MPI-4.1 §5.1: a datatype argument must be a valid datatype handle");
    if (!*t)
      throw MpiError(mpi::ErrorClass::type, argument, "datatype '" + n + "' is MPI_DATATYPE_NULL: it was freed",
                     "MPI-4.1 §5.1.9: MPI_Type_free sets the handle to MPI_DATATYPE_NULL");
    return *t;
  }

  void bind_type(RankEnv& env, const Step& s, P p, mpi::TypeRef t) { bind(env.types(), arg(s, p).name, std::move(t)); }

  // An array argument whose optional count parameter must give its length.
  std::vector<std::int64_t> array_arg_counted(RankEnv& env, const Step& s, P p, P count_param) {
    const Arg& a = arg(s, p);
    Value v = eval(env, *a.expr);
    if (!v.is_array) throw StepError(std::string(param_name(p)) + " must be an array");
    if (std::int8_t k = s.slot[static_cast<std::size_t>(count_param)]; k >= 0 && s.args[static_cast<std::size_t>(k)].present) {
      std::int64_t n = eval_int(env, *s.args[static_cast<std::size_t>(k)].expr);
      if (n != static_cast<std::int64_t>(v.array.size()))
        throw MpiError(mpi::ErrorClass::arg, param_name(count_param),
                       std::string(param_name(count_param)) + " = " + std::to_string(n) + " but " + param_name(p) +
                           " has " + std::to_string(v.array.size()) + " entries",
                       "MPI-4.1 §5.1.2: the arrays of a constructor have count entries");
    }
    return std::move(v.array);
  }

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
  Address address(RankEnv& env, const Arg& a, P p) {
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
  [[noreturn, gnu::cold]] void undeclared_buffer(const RankEnv& env, NameId name, P p) const {
    throw MpiError(mpi::ErrorClass::buffer, param_name(p),
                   "buffer '" + names_.str(name) + "' is not declared on rank " + std::to_string(env.rank),
                   "MPI-4.1 §3.2.2: buf is the address of the rank's own data");
  }
  mpi::TypedBuffer typed(RankEnv& env, const Step& s, P p, std::int64_t count, const mpi::TypeRef& t) {
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
  void bind_request(RankEnv& env, const Step& s, Request* r) {
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

  // ---- steps
  // Runs the rank's steps that do not block, up to the next one that may; returns
  // that one's task, or nothing when the program is over.
  Blocking advance(RankEnv& env) {
    for (;;) {
      if (!env.nested || env.nested->empty()) {
        if (env.top_next >= env.top_program->size()) return {};
        if (Blocking b = run_step(env, (*env.top_program)[env.top_next++]); b.kind != Blocking::none) return b;
        continue;
      }
      Cursor& c = env.nested->back();
      if (c.next >= c.program->size()) {
        if (++c.iteration < c.times) {
          c.next = 0;
          if (c.repeat->loop_var) bind(env.values(), *c.repeat->loop_var, Value::of(c.iteration));
        } else {
          env.nested->pop_back();
        }
        continue;
      }
      if (Blocking b = run_step(env, (*c.program)[c.next++]); b.kind != Blocking::none) return b;
    }
  }

  // Runs one step; returns its task if it may block.
  Blocking run_step(RankEnv& env, const Step& s) {
    env.step = &s;
    // Interpreted steps count against --max-events too: a loop of local steps
    // schedules no event but must end.
    if (cfg_.max_events && ++steps_ + world_.engine().events_processed() > cfg_.max_events)
      throw mpi::LimitError("events", "the run reached --max-events " + std::to_string(cfg_.max_events) +
                                          " (events and interpreted steps)");
    if (s.ranks && eval_int(env, *s.ranks) == 0) return {};
    {
      switch (s.kind) {
        case Step::let:
          for (const auto& [id, e] : s.lets) bind(env.values(), id, eval(env, e));
          break;
        case Step::buffer: declare_buffer(env, s); break;
        case Step::show: show(env, s); break;
        case Step::expect: expect(env, s); break;
        case Step::compute:
          env.call_start = world_.engine().now();
          world_.set_in_mpi(env.rank, false);  // the program computes: outside MPI
          return computing(world_.rank(env.rank), SimTime::from_ps(s.compute_ps));
        case Step::repeat: {
          std::int64_t n = eval_int(env, *s.times);
          if (n <= 0 || s.body->empty()) break;
          if (s.loop_var) bind(env.values(), *s.loop_var, Value::of(0));
          if (!env.nested) env.nested = std::make_unique<std::vector<Cursor>>();
          env.nested->push_back(Cursor{s.body.get(), 0, &s, 0, n});
          break;
        }
        case Step::call:
          env.call_start = world_.engine().now();
          if (cfg_.explain) explain_before_[env.rank] = buffer_texts(env);
          started_.clear();
          if (!call_sync(env, s)) return call_async(env, s);
          {
            const std::int64_t record = record_call(env, s, s.spec->name, env.call_start,
                                                    std::exchange(started_algorithm_, ""), args_json(env, s));
            // The operations the call started: their completion goes to its record.
            for (const Request* r : started_) world_.set_trace_call(r, record);
            started_.clear();
          }
          break;
      }
    }
    return {};
  }

  static Task<Status> computing(mpi::Rank& rk, SimTime duration) {
    co_await rk.compute(duration);
    co_return Status{};
  }

  // After a blocking step: bind its status and record it.
  void finish_blocking(RankEnv& env, const Status& st, const char* algorithm) {
    const Step& s = *env.step;
    if (s.kind == Step::compute) {
      world_.set_in_mpi(env.rank, true);
      record_call(env, s, "compute", env.call_start, "", "");
      return;
    }
    if (s.slot[static_cast<std::size_t>(P::status)] >= 0) bind_status(env, s, P::status, st);
    record_call(env, s, s.spec->name, env.call_start, algorithm ? algorithm : "", args_json(env, s));
  }

  static std::int32_t index_of(const Step& s) { return s.index; }

  // Each buffer of the rank, compactly (mpisim explain).
  std::vector<std::string> buffer_texts(RankEnv& env) {
    std::vector<std::string> out;
    for (const auto& a : world_.rank(env.rank).memory().allocations()) {
      if (!a.data) {
        out.push_back("(no data)");
        continue;
      }
      std::string body;
      sim::JsonWriter w(body, 0);
      w.begin_object();
      w.key("values").begin_array();
      std::int64_t n = std::min<std::int64_t>(a.count, 64);
      for (std::int64_t i = 0; i < n; ++i) write_element_json(w, a, i);
      w.end_array();
      w.field("count", a.count);
      w.end_object();
      body.pop_back();
      out.push_back(std::move(body));
    }
    return out;
  }

  void record_explain(RankEnv& env, const Step& s, const char* algorithm, SimTime start, const std::string& args) {
    ExplainEntry e;
    e.path = s.path;
    e.call = s.spec->name;
    e.rank = env.rank;
    e.args_json = args;
    e.algorithm = algorithm;
    e.start_ps = start.ps;
    e.end_ps = world_.engine().now().ps;
    std::vector<std::string> after = buffer_texts(env);
    const auto& allocs = world_.rank(env.rank).memory().allocations();
    for (std::size_t i = 0; i < after.size(); ++i) {
      const auto& found = explain_before_[env.rank];
      std::string before = i < found.size() ? found[i] : "(not yet declared)";
      if (before != after[i]) e.changes.push_back({*allocs[i].name, std::move(before), after[i]});
    }
    result_.explain.push_back(std::move(e));
  }

  std::int64_t record_call(RankEnv& env, const Step& s, const char* name, SimTime start, const char* algorithm,
                           std::string args) {
    if (cfg_.explain && s.kind == Step::call) record_explain(env, s, algorithm, start, args);
    if (result_.trace.level() == sim::TraceLevel::summary) {
      result_.trace.count_call(name, start, world_.engine().now());
      return -1;
    }
    return result_.trace.record_call(sim::CallRecord{env.rank, index_of(s), name, start, world_.engine().now(),
                                                     std::move(args), algorithm});
  }

  std::string args_json(RankEnv& env, const Step& s) {
    if (result_.trace.level() == sim::TraceLevel::summary) return {};
    std::string out;
    sim::JsonWriter w(out, 0);
    w.begin_object();
    w.field("path", s.path);
    for (std::size_t i = 0; i < s.spec->params.size(); ++i) {
      const Arg& a = s.args[i];
      if (!a.present) continue;
      const char* n = s.spec->params[i].name;
      switch (a.kind) {
        case ParamKind::integer: {
          // Evaluated again after the call: the value as this rank saw it.
          try {
            w.field(n, eval_int(env, *a.expr));
          } catch (const std::exception&) {
            w.field(n, a.text);
          }
          break;
        }
        default: w.field(n, a.text); break;
      }
    }
    w.end_object();
    out.pop_back();  // the writer ends a top-level value with a newline
    return out;
  }

  void declare_buffer(RankEnv& env, const Step& s) {
    std::int64_t count = eval_int(env, *s.count);
    if (count < 0) throw StepError("buffer '" + names_.str(s.name) + "' has a negative count " + std::to_string(count));
    mpi::Memory& mem = world_.rank(env.rank).memory();
    if (allocation(env, s.name)) throw StepError("buffer '" + names_.str(s.name) + "' is declared twice on this rank");
    Address at = mem.allocate(&names_.str(s.name), s.type, count, cfg_.payload);
    mpi::Allocation* a = mem.find(at, 0);
    if (!a || !a->data) return;
    if (!s.init) return;
    if (s.init->free_names().empty()) {
      std::int64_t v = eval_int(env, *s.init);
      for (std::int64_t i = 0; i < count; ++i) store_element(*a, i, v);
      return;
    }
    NameId i_id = names_.intern("i");
    auto base = lookup_for(env);
    std::int64_t i = 0;
    auto with_i = [&](std::string_view n, std::uint32_t id) -> std::optional<Value> {
      if (id == i_id) return Value::of(i);
      return base(n, id);
    };
    for (; i < count; ++i) {
      try {
        store_element(*a, i, s.init->eval_int(with_i));
      } catch (const ExprError& x) {
        throw StepError("in the init expression \"" + s.init->text() + "\": " + x.what());
      }
    }
  }

  void show(RankEnv& env, const Step& s) {
    for (NameId id : s.shown) {
      std::string body;
      sim::JsonWriter w(body, 0);
      w.begin_object();
      if (const mpi::Allocation* a = allocation(env, id)) {
        w.field("type", a->type->name()).field("count", a->count);
        w.key("values");
        if (!a->data) {
          w.null();
        } else {
          w.begin_array();
          std::int64_t n = std::min<std::int64_t>(a->count, kMaxShown);
          for (std::int64_t i = 0; i < n; ++i) write_element_json(w, *a, i);
          w.end_array();
          if (a->origin) {
            // The rank each element came from: the origin of its first byte.
            w.key("origins").begin_array();
            for (std::int64_t i = 0; i < n; ++i) w.value(a->origin[i * a->type->size()]);
            w.end_array();
          }
          if (n < a->count) w.field("truncated", true);
        }
      } else if (mpi::GroupRef* g = find_in(env.groups(), id)) {
        if (!*g) w.field("handle", "MPI_GROUP_NULL");
        if (*g) {
          w.field("size", (*g)->size());
          w.key("members").begin_array();
          std::int64_t n = std::min<std::int64_t>((*g)->size(), kMaxShown);
          for (std::int64_t i = 0; i < n; ++i) w.value((*g)->world(i));
          w.end_array();
        }
      } else if (Value* v = find_in(env.values(), id)) {
        if (v->is_array) {
          w.key("values").begin_array();
          for (auto x : v->array) w.value(x);
          w.end_array();
        } else {
          w.field("value", v->scalar);
        }
      } else {
        throw StepError("show: '" + names_.str(id) + "' is neither a buffer nor a value on rank " +
                        std::to_string(env.rank));
      }
      w.end_object();
      body.pop_back();
      result_.trace.record_snapshot(
          sim::Snapshot{env.rank, index_of(s), world_.engine().now(), names_.str(id), std::move(body)});
    }
  }

  void expect(RankEnv& env, const Step& s) {
    auto failed = [&](const std::string& what) {
      sim::Diagnostic d;
      d.severity = "error";
      d.code = "EXPECT_FAILED";
      d.process = env.rank;
      d.step = index_of(s);
      d.message = (s.message.empty() ? "" : s.message + ": ") + what + " (" + s.path + ")";
      d.time = world_.engine().now();
      result_.trace.record_diagnostic(std::move(d));
    };
    if (s.expect_true) {
      if (eval_int(env, *s.expect_true) == 0) failed("expected \"" + s.expect_true->text() + "\" to hold");
      return;
    }
    auto lk = lookup_for(env);
    for (const auto& [id, e] : s.expect_values) {
      std::optional<Value> actual;
      try {
        actual = lk(names_.str(id), id);
      } catch (const ExprError& x) {
        throw StepError(x.what());
      }
      if (!actual) throw StepError("expect: '" + names_.str(id) + "' is neither a buffer nor a value on this rank");
      Value want = eval(env, e);
      if (*actual == want) continue;
      std::string what = names_.str(id) + " is " + abbreviate(*actual) + ", expected " + abbreviate(want);
      if (actual->is_array && want.is_array && actual->array.size() == want.array.size()) {
        for (std::size_t i = 0; i < want.array.size(); ++i)
          if (actual->array[i] != want.array[i]) {
            what = names_.str(id) + "[" + std::to_string(i) + "] is " + std::to_string(actual->array[i]) +
                   ", expected " + std::to_string(want.array[i]);
            break;
          }
      }
      failed(what);
    }
  }

  static std::string abbreviate(const Value& v) {
    if (!v.is_array || v.array.size() <= 8) return v.to_string();
    std::string s = "[";
    for (int i = 0; i < 6; ++i) s += std::to_string(v.array[static_cast<std::size_t>(i)]) + ", ";
    return s + "... (" + std::to_string(v.array.size()) + " elements)]";
  }

  // ---- calls
  // Calls that never block run here, outside any coroutine frame, one family
  // after another; returns false for the calls that may block (call_async).
  bool call_sync(RankEnv& env, const Step& s) {
    return p2p_call(env, s) || group_call(env, s) || type_call(env, s) || start_call(env, s);
  }

  // The point-to-point calls that never block: ranks, requests, tests.
  bool p2p_call(RankEnv& env, const Step& s) {
    mpi::Rank& rk = world_.rank(env.rank);
    switch (s.spec->id) {
      case CallId::comm_rank: {
        const auto& c = comm_arg(env, s);
        bind_int(env, s, P::rank, c.rank_of(env.rank, env.rank));
        return true;
      }
      case CallId::comm_size: bind_int(env, s, P::size, comm_arg(env, s).size()); return true;
      case CallId::wtime: bind_int(env, s, P::result, world_.engine().now().ps); return true;
      case CallId::isend: {
        auto t = type_arg(env, s, P::datatype);
        std::int64_t n = int_arg(env, s, P::count);
        auto b = typed(env, s, P::buf, n, t);
        bind_request(env, s, rk.isend(b, t, rank_arg(env, s, P::dest), rank_arg(env, s, P::tag), comm_arg(env, s)));
        return true;
      }
      case CallId::irecv: {
        auto t = type_arg(env, s, P::datatype);
        std::int64_t n = int_arg(env, s, P::count);
        auto b = typed(env, s, P::buf, n, t);
        bind_request(env, s, rk.irecv(b, t, rank_arg(env, s, P::source), rank_arg(env, s, P::tag), comm_arg(env, s)));
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
      case CallId::iprobe: {
        auto st = rk.iprobe(rank_arg(env, s, P::source), rank_arg(env, s, P::tag), comm_arg(env, s));
        bind_int(env, s, P::flag, st ? 1 : 0);
        if (st) bind_status(env, s, P::status, *st);
        return true;
      }
      case CallId::get_count: {
        const Arg& a = arg(s, P::status);
        Status* st = find_in(env.statuses(), a.name);
        if (!st)
          throw MpiError(mpi::ErrorClass::arg, "status", "status '" + names_.str(a.name) + "' was never filled in",
                         "MPI-4.1 §3.2.5: MPI_Get_count reads the status a receive returned");
        auto t = type_arg(env, s, P::datatype);
        // MPI-4.1 §3.2.5: MPI_UNDEFINED when the bytes are not a whole number of datatype elements.
        std::int64_t c = t->size() == 0 ? (st->bytes == 0 ? 0 : mpi::UNDEFINED)
                         : st->bytes % t->size() != 0 ? mpi::UNDEFINED
                                                      : st->bytes / t->size();
        bind_int(env, s, P::count, c);
        return true;
      }
      case CallId::testall: {
        std::vector<Request*> reqs = gather_requests(env, s, P::count);
        std::vector<Status> sts(reqs.size());
        const bool done = rk.test_all(reqs, sts);
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
        const int n = rk.test_some(reqs, &indices, &sts);
        write_back(env, s, reqs);
        bind_some(env, s, n, indices, sts);
        return true;
      }
      case CallId::request_free: {
        const NameId id = arg(s, P::request).name;
        if (std::unique_ptr<Persistent>* p = find_in(env.persistent(), id); p && *p) {
          if (request_slot(env, id, "request") != nullptr)
            throw MpiError(mpi::ErrorClass::request, "request",
                           "persistent request '" + names_.str(id) + "' is active (started by MPI_Start and not "
                           "completed)",
                           "MPI-4.1 §6.13: a persistent collective request may be freed only when it is inactive");
          p->reset();
          return true;
        }
        rk.free_request(request_slot(env, id, "request"));
        return true;
      }
      case CallId::start: start_persistent(env, s, rk, arg(s, P::request).name, "request"); return true;
      case CallId::startall: {
        const Arg& a = arg(s, P::array_of_requests);
        check_request_count(env, s, P::count, a.names.size());
        // MPI-4.1 §3.9: as MPI_Start on each, in order.
        for (NameId id : a.names) start_persistent(env, s, rk, id, "array_of_requests");
        return true;
      }
      default: return false;
    }
  }

  // Groups and the local communicator calls.
  bool group_call(RankEnv& env, const Step& s) {
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
      case CallId::comm_free: {
        NameId id = arg(s, P::comm).name;
        const mpi::Communicator** c = find_in(env.comms(), id);
        if (!c || !*c)
          throw MpiError(mpi::ErrorClass::comm, "comm",
                         "communicator '" + names_.str(id) + (c ? "' is already MPI_COMM_NULL" : "' was never created on this rank"),
                         "MPI-4.1 §7.4.3: MPI_Comm_free takes a valid communicator handle");
        *c = nullptr;  // MPI_COMM_NULL; pending operations on it still complete
        return true;
      }
      case CallId::comm_remote_size:
      case CallId::comm_remote_group: {
        const auto& c = comm_arg(env, s);
        if (!c.is_inter())
          throw MpiError(mpi::ErrorClass::comm, "comm", c.name() + " is not an intercommunicator",
                         "MPI-4.1 §7.6.1: the remote group exists only for intercommunicators");
        if (s.spec->id == CallId::comm_remote_size) bind_int(env, s, P::size, c.remote_group()->size());
        else bind_group(env, s, P::group, c.remote_group());
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

  // Datatypes, pack and unpack, operations.
  bool type_call(RankEnv& env, const Step& s) {
    switch (s.spec->id) {
      case CallId::type_contiguous:
        bind_type(env, s, P::newtype,
                  mpi::type_contiguous(int_arg(env, s, P::count), type_arg(env, s, P::oldtype), type_name(s)));
        return true;
      case CallId::type_vector:
      case CallId::type_hvector: {
        auto count = int_arg(env, s, P::count), bl = int_arg(env, s, P::blocklength), st = int_arg(env, s, P::stride);
        auto old = type_arg(env, s, P::oldtype);
        bind_type(env, s, P::newtype,
                  s.spec->id == CallId::type_vector ? mpi::type_vector(count, bl, st, old, type_name(s))
                                                    : mpi::type_hvector(count, bl, st, old, type_name(s)));
        return true;
      }
      case CallId::type_indexed:
      case CallId::type_hindexed: {
        auto bls = array_arg_counted(env, s, P::array_of_blocklengths, P::count);
        auto ds = array_arg_counted(env, s, P::array_of_displacements, P::count);
        auto old = type_arg(env, s, P::oldtype);
        bind_type(env, s, P::newtype,
                  s.spec->id == CallId::type_indexed ? mpi::type_indexed(bls, ds, old, type_name(s))
                                                     : mpi::type_hindexed(bls, ds, old, type_name(s)));
        return true;
      }
      case CallId::type_indexed_block:
      case CallId::type_hindexed_block: {
        auto bl = int_arg(env, s, P::blocklength);
        auto ds = array_arg_counted(env, s, P::array_of_displacements, P::count);
        auto old = type_arg(env, s, P::oldtype);
        bind_type(env, s, P::newtype,
                  s.spec->id == CallId::type_indexed_block ? mpi::type_indexed_block(bl, ds, old, type_name(s))
                                                           : mpi::type_hindexed_block(bl, ds, old, type_name(s)));
        return true;
      }
      case CallId::type_struct: {
        auto bls = array_arg_counted(env, s, P::array_of_blocklengths, P::count);
        auto ds = array_arg_counted(env, s, P::array_of_displacements, P::count);
        std::vector<mpi::TypeRef> types;
        for (NameId id : arg(s, P::array_of_types).names) {
          const std::string& n = names_.str(id);
          types.push_back(n == "MPI_LB" ? mpi::Datatype::make_marker(true)
                          : n == "MPI_UB" ? mpi::Datatype::make_marker(false)
                                          : named_type(env, id, "array_of_types"));
        }
        bind_type(env, s, P::newtype, mpi::type_struct(bls, ds, types, type_name(s)));
        return true;
      }
      case CallId::type_subarray: {
        auto sizes = array_arg_counted(env, s, P::array_of_sizes, P::ndims);
        auto subsizes = array_arg_counted(env, s, P::array_of_subsizes, P::ndims);
        auto starts = array_arg_counted(env, s, P::array_of_starts, P::ndims);
        auto order = int_arg(env, s, P::order);
        if (order != kOrderC && order != kOrderFortran)
          throw MpiError(mpi::ErrorClass::arg, "order", "order = " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                         "MPI-4.1 §5.1.3: order is MPI_ORDER_C or MPI_ORDER_FORTRAN");
        bind_type(env, s, P::newtype,
                  mpi::type_subarray(sizes, subsizes, starts, order == kOrderC ? mpi::Order::c : mpi::Order::fortran,
                                     type_arg(env, s, P::oldtype), type_name(s)));
        return true;
      }
      case CallId::type_resized:
        bind_type(env, s, P::newtype,
                  mpi::type_resized(type_arg(env, s, P::oldtype), int_arg(env, s, P::lb), int_arg(env, s, P::extent),
                                    type_name(s)));
        return true;
      case CallId::type_dup:
        bind_type(env, s, P::newtype, mpi::type_dup(type_arg(env, s, P::oldtype), type_name(s)));
        return true;
      case CallId::type_commit:
      case CallId::type_free: {
        NameId id = arg(s, P::datatype).name;
        const std::string& n = names_.str(id);
        if (mpi::predefined_type(n)) {
          if (s.spec->id == CallId::type_free)
            throw MpiError(mpi::ErrorClass::type, "datatype", "predefined datatype " + n + " cannot be freed",
                           "MPI-4.1 §5.1.9: freeing a predefined datatype is erroneous");
          return true;  // committing a predefined type is allowed and does nothing
        }
        mpi::TypeRef t = named_type(env, id, "datatype");
        if (s.spec->id == CallId::type_commit) t->commit();
        else *find_in(env.types(), id) = nullptr;  // pending operations keep their own reference
        return true;
      }
      case CallId::type_size: bind_int(env, s, P::size, type_arg(env, s, P::datatype)->size()); return true;
      case CallId::type_get_extent:
      case CallId::type_get_true_extent: {
        auto t = type_arg(env, s, P::datatype);
        bool true_bounds = s.spec->id == CallId::type_get_true_extent;
        bind_int(env, s, true_bounds ? P::true_lb : P::lb, true_bounds ? t->true_lb() : t->lb());
        bind_int(env, s, true_bounds ? P::true_extent : P::extent, true_bounds ? t->true_extent() : t->extent());
        return true;
      }
      case CallId::type_extent: bind_int(env, s, P::extent, type_arg(env, s, P::datatype)->extent()); return true;
      case CallId::type_lb: bind_int(env, s, P::displacement, type_arg(env, s, P::datatype)->lb()); return true;
      case CallId::type_ub: bind_int(env, s, P::displacement, type_arg(env, s, P::datatype)->ub()); return true;
      case CallId::get_address: bind_int(env, s, P::address, address(env, arg(s, P::location), P::location)); return true;
      case CallId::pack_size:
        comm_arg(env, s);
        bind_int(env, s, P::size, int_arg(env, s, P::incount) * type_arg(env, s, P::datatype)->size());
        return true;
      case CallId::pack:
      case CallId::unpack: pack_unpack(env, s); return true;
      case CallId::get_elements: {
        const Arg& a = arg(s, P::status);
        Status* st = find_in(env.statuses(), a.name);
        if (!st)
          throw MpiError(mpi::ErrorClass::arg, "status", "status '" + names_.str(a.name) + "' was never filled in",
                         "MPI-4.1 §5.1.11: MPI_Get_elements reads the status a receive returned");
        bind_int(env, s, P::count, basic_elements(*type_arg(env, s, P::datatype), st->bytes));
        return true;
      }
      case CallId::type_darray: {
        auto gs = array_arg_counted(env, s, P::array_of_gsizes, P::ndims);
        auto ds = array_arg_counted(env, s, P::array_of_distribs, P::ndims);
        auto da = array_arg_counted(env, s, P::array_of_dargs, P::ndims);
        auto ps = array_arg_counted(env, s, P::array_of_psizes, P::ndims);
        std::vector<mpi::Distribution> dist;
        for (std::size_t i = 0; i < ds.size(); ++i) {
          if (ds[i] == 121) dist.push_back(mpi::Distribution::block);
          else if (ds[i] == 122) dist.push_back(mpi::Distribution::cyclic);
          else if (ds[i] == 123) dist.push_back(mpi::Distribution::none);
          else
            throw MpiError(mpi::ErrorClass::arg, "array_of_distribs",
                           "array_of_distribs[" + std::to_string(i) + "] = " + std::to_string(ds[i]) +
                               " is not MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC or MPI_DISTRIBUTE_NONE",
                           "MPI-4.1 §5.1.4: the distribution of each dimension");
        }
        auto order = int_arg(env, s, P::order);
        if (order != kOrderC && order != kOrderFortran)
          throw MpiError(mpi::ErrorClass::arg, "order", "order is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                         "MPI-4.1 §5.1.4: order is MPI_ORDER_C or MPI_ORDER_FORTRAN");
        bind_type(env, s, P::newtype,
                  mpi::type_darray(int_arg(env, s, P::size), int_arg(env, s, P::rank), gs, dist, da, ps,
                                   order == kOrderC ? mpi::Order::c : mpi::Order::fortran,
                                   type_arg(env, s, P::oldtype), type_name(s)));
        return true;
      }
      case CallId::type_get_envelope: {
        auto t = type_arg(env, s, P::datatype);
        const auto& c = t->contents();
        bool named = t->predefined();
        bind_int(env, s, P::num_integers, named ? 0 : static_cast<std::int64_t>(c.integers.size()));
        bind_int(env, s, P::num_addresses, named ? 0 : static_cast<std::int64_t>(c.addresses.size()));
        bind_int(env, s, P::num_datatypes, named ? 0 : static_cast<std::int64_t>(c.types.size()));
        bind_int(env, s, P::combiner, mpi::combiner_value(named ? mpi::Combiner::named : t->combiner()));
        return true;
      }
      case CallId::type_get_contents: {
        auto t = type_arg(env, s, P::datatype);
        if (t->predefined())
          throw MpiError(mpi::ErrorClass::arg, "datatype", t->name() + " is a predefined datatype",
                         "MPI-4.1 §5.1.13: MPI_Type_get_contents is erroneous for MPI_COMBINER_NAMED");
        const auto& c = t->contents();
        bind(env.values(), arg(s, P::array_of_integers).name, Value::of(c.integers));
        bind(env.values(), arg(s, P::array_of_addresses).name, Value::of(c.addresses));
        const std::string& prefix = names_.str(arg(s, P::array_of_datatypes).name);
        for (std::size_t i = 0; i < c.types.size(); ++i)
          bind(env.types(), names_.intern(prefix + std::to_string(i)), c.types[i]);
        return true;
      }
      case CallId::op_create: {
        bool commute = int_arg(env, s, P::commute) != 0;
        NameId id = arg(s, P::op).name;
        bind(env.ops(), id, mpi::make_user_op(names_.str(id), arg(s, P::user_fn).handle, commute));
        return true;
      }
      case CallId::op_free: {
        NameId id = arg(s, P::op).name;
        mpi::OpRef* o = find_in(env.ops(), id);
        if (!o || !*o)
          throw MpiError(mpi::ErrorClass::op, "op",
                         "operation '" + names_.str(id) + (o ? "' is already MPI_OP_NULL" : "' was never created on this rank"),
                         "MPI-4.1 §6.9.5: MPI_Op_free takes a user-defined operation");
        o->reset();
        return true;
      }
      case CallId::op_commutative: bind_int(env, s, P::commute, op_arg(env, s)->commutative ? 1 : 0); return true;
      case CallId::reduce_local: {
        auto op = op_arg(env, s);
        auto t = type_arg(env, s, P::datatype);
        std::int64_t n = int_arg(env, s, P::count);
        if (n < 0)
          throw MpiError(mpi::ErrorClass::count, "count", "count = " + std::to_string(n) + " is negative",
                         "MPI-4.1 §3.2.2: counts are non-negative");
        if (!t->committed())
          throw MpiError(mpi::ErrorClass::type, "datatype", "datatype " + t->name() + " is not committed",
                         "MPI-4.1 §5.1.9: a datatype must be committed before use");
        mpi::check_op_type(*op, *t, n, "op");
        mpi::Rank& r = world_.rank(env.rank);
        mpi::TypedBuffer in{&r.memory(), address(env, arg(s, P::inbuf), P::inbuf), n, t.get()};
        mpi::TypedBuffer inout{&r.memory(), address(env, arg(s, P::inoutbuf), P::inoutbuf), n, t.get()};
        mpi::check_access(in, n * t->size(), "inbuf");
        mpi::check_access(inout, n * t->size(), "inoutbuf");
        if (world_.payload() == mpi::PayloadMode::data) {
          mpi::reduce_local(*op, in, inout);
          mpi::set_origin(inout, n * t->size(), static_cast<std::int32_t>(env.rank));  // computed here
        }
        return true;
      }
      default: return false;
    }
  }

  // The nonblocking collectives and the persistent ones' _init: they start, never block.
  bool start_call(RankEnv& env, const Step& s) {
    coll::Collective kind;
    coll::Form form = coll::Form::blocking;
    if (!collective_of(s.spec->id, &kind, &form) || form == coll::Form::blocking) return false;
    mpi::Rank& rk = world_.rank(env.rank);
    if (form == coll::Form::nonblocking) start_collective(env, s, rk, kind);
    else init_persistent(env, s, rk, kind);
    return true;
  }

  // MPI-4.1 §6.13: checks the arguments and chooses the algorithm once; the
  // request is inactive until MPI_Start.
  void init_persistent(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind) {
    if (const Arg& info = arg(s, P::info); info.present) {
      const std::int64_t v = eval_int(env, *info.expr);
      if (v != *mpi_constant("MPI_INFO_NULL"))
        throw MpiError(mpi::ErrorClass::arg, "info", "info = " + std::to_string(v) + " is not MPI_INFO_NULL",
                       "MPI-4.1 §10: info is an info object or MPI_INFO_NULL; a scenario has only MPI_INFO_NULL");
    }
    coll::CollArgs a = collective_args(env, s, rk, kind, coll::Form::persistent);
    const coll::Algorithm& alg = algorithm_for(s, a);
    bind_request(env, s, nullptr);
    auto p = std::make_unique<Persistent>();
    p->args = std::move(a);
    p->algorithm = &alg;
    bind(env.persistent(), arg(s, P::request).name, std::move(p));
  }

  // MPI_Start on the request named `id`: its call runs again, as a new
  // collective call on its communicator.
  void start_persistent(RankEnv& env, const Step& s, mpi::Rank& rk, NameId id, const char* param) {
    (void)s;
    std::unique_ptr<Persistent>* p = find_in(env.persistent(), id);
    if (!p || !*p)
      throw MpiError(mpi::ErrorClass::request, param,
                     "request '" + names_.str(id) + "' is not a persistent request" +
                         (p ? " any more: it was freed" : ""),
                     "MPI-4.1 §3.9: MPI_Start takes a persistent request (MPI_Bcast_init, ...)");
    Request*& slot = request_slot(env, id, param);
    if (slot)
      throw MpiError(mpi::ErrorClass::request, param,
                     "persistent request '" + names_.str(id) + "' is already active: it was started and not completed",
                     "MPI-4.1 §3.9: MPI_Start takes an inactive request; complete it (MPI_Wait, MPI_Test) first");
    coll::CollArgs a = (*p)->args;
    a.instance = next_instance(env, *a.comm);
    slot = coordinator_.start(rk, std::move(a), *(*p)->algorithm);
    started_algorithm_ = (*p)->algorithm->name.data();
    started_.push_back(slot);
  }

  // The statuses of a completion call (array_of_statuses), as the arrays
  // <name>.MPI_SOURCE and <name>.MPI_TAG.
  void bind_statuses(RankEnv& env, const Step& s, const std::vector<Status>& sts) {
    const Arg& so = arg(s, P::array_of_statuses);
    if (!so.present || so.ignore) return;
    const std::string& base = names_.str(so.name);
    std::vector<std::int64_t> src, tag;
    for (const Status& st : sts) src.push_back(st.source), tag.push_back(st.tag);
    bind(env.values(), names_.intern(base + ".MPI_SOURCE"), Value::of(std::move(src)));
    bind(env.values(), names_.intern(base + ".MPI_TAG"), Value::of(std::move(tag)));
  }
  // MPI_Waitsome and MPI_Testsome's results.
  void bind_some(RankEnv& env, const Step& s, int n, const std::vector<int>& indices, const std::vector<Status>& sts) {
    bind_int(env, s, P::outcount, n);
    std::vector<std::int64_t> idx(indices.begin(), indices.end());
    bind(env.values(), arg(s, P::array_of_indices).name, Value::of(std::move(idx)));
    bind_statuses(env, s, sts);
  }

  std::string type_name(const Step& s) { return names_.str(arg(s, P::newtype).name); }

  mpi::OpRef op_arg(RankEnv& env, const Step& s) {
    const Arg& a = arg(s, P::op);
    if (auto op = mpi::predefined_op(a.handle)) return op;
    mpi::OpRef* o = find_in(env.ops(), a.name);
    if (!o)
      throw MpiError(mpi::ErrorClass::op, "op", "operation '" + a.handle + "' was never created on this rank",
                     "MPI-4.1 §6.9: op must be a valid operation handle");
    if (!*o)
      throw MpiError(mpi::ErrorClass::op, "op", "operation '" + a.handle + "' is MPI_OP_NULL: it was freed",
                     "MPI-4.1 §6.9.5: MPI_Op_free sets the handle to MPI_OP_NULL");
    return *o;
  }

  // MPI-4.1 §5.1.11: the number of basic elements in `bytes` of data of type t, or
  // MPI_UNDEFINED when the bytes end inside a basic element.
  static std::int64_t basic_elements(const mpi::Datatype& t, std::int64_t bytes) {
    if (bytes == 0) return 0;
    if (t.size() == 0) return mpi::UNDEFINED;
    std::int64_t whole = bytes / t.size(), rest = bytes % t.size();
    std::int64_t n = whole * t.basic_count();
    for (const auto& r : t.signature()) {
      if (rest == 0) break;
      std::int64_t b = mpi::basic_type(r.basic).size;
      std::int64_t take = std::min(r.count, rest / b);
      n += take;
      rest -= take * b;
      if (take < r.count) break;
    }
    return rest == 0 ? n : mpi::UNDEFINED;
  }

  // MPI_Pack and MPI_Unpack: the packed form is the data bytes in type-map order.
  void pack_unpack(RankEnv& env, const Step& s) {
    comm_arg(env, s);
    mpi::Rank& rk = world_.rank(env.rank);
    const bool packing = s.spec->id == CallId::pack;
    auto t = type_arg(env, s, P::datatype);
    if (!t->committed())
      throw MpiError(mpi::ErrorClass::type, "datatype", "datatype " + t->name() + " is not committed",
                     "MPI-4.1 §5.2.1: the datatype of MPI_Pack and MPI_Unpack must be committed");
    std::int64_t count = int_arg(env, s, packing ? P::incount : P::outcount);
    std::int64_t limit = int_arg(env, s, packing ? P::outsize : P::insize);
    NameId pos_id = arg(s, P::position).name;
    Value* pos = find_in(env.values(), pos_id);
    if (!pos || pos->is_array)
      throw StepError("position: '" + names_.str(pos_id) + "' must be a number bound before the call (let it be 0)");
    std::int64_t bytes = count * t->size();
    if (count < 0)
      throw MpiError(mpi::ErrorClass::count, packing ? "incount" : "outcount", "the count is negative",
                     "MPI-4.1 §3.2.2: counts are non-negative");
    if (pos->scalar < 0 || pos->scalar + bytes > limit)
      throw MpiError(mpi::ErrorClass::truncate, packing ? "outsize" : "insize",
                     "position " + std::to_string(pos->scalar) + " + " + std::to_string(bytes) +
                         " bytes is beyond the packed buffer's " + std::to_string(limit) + " bytes",
                     "MPI-4.1 §5.2.1: the packed data must fit in outsize (MPI_Pack) or insize (MPI_Unpack) bytes");
    static const mpi::TypeRef byte = mpi::predefined_type("MPI_BYTE");
    mpi::Address packed = address(env, arg(s, packing ? P::outbuf : P::inbuf), packing ? P::outbuf : P::inbuf);
    mpi::TypedBuffer flat{&rk.memory(), packed + pos->scalar, bytes, byte.get()};
    mpi::Address data = address(env, arg(s, packing ? P::inbuf : P::outbuf), packing ? P::inbuf : P::outbuf);
    mpi::TypedBuffer typed_buf{&rk.memory(), data, count, t.get()};
    mpi::check_access(flat, bytes, packing ? "outbuf" : "inbuf");
    mpi::check_access(typed_buf, bytes, packing ? "inbuf" : "outbuf");
    if (world_.payload() == mpi::PayloadMode::data) {
      if (packing) mpi::copy_typed(typed_buf, flat, bytes);
      else mpi::copy_typed(flat, typed_buf, bytes);
    }
    pos->scalar += bytes;
  }

  mpi::GroupRef world_group() {
    if (!world_group_) world_group_ = mpi::Group::range(0, world_.size());
    return world_group_;
  }

  mpi::GroupRef group_arg(RankEnv& env, const Step& s, P p) {
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

  void bind_group(RankEnv& env, const Step& s, P p, mpi::GroupRef g) { bind(env.groups(), arg(s, p).name, std::move(g)); }

  // An integer array argument whose length the optional n gives (in units of `per`).
  std::vector<std::int64_t> counted_array(RankEnv& env, const Step& s, P p, std::size_t per) {
    const Arg& a = arg(s, p);
    Value v = eval(env, *a.expr);
    if (!v.is_array) throw StepError(std::string(param_name(p)) + " must be an array");
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

  // Calls that may block. The simple ones prepare here, outside any coroutine, and
  // hand back the runtime's own small waiting coroutine, so a blocked rank's frames
  // stay small. Each returns the status run_program binds to "status", if given.
  Blocking call_async(RankEnv& env, const Step& s) {
    mpi::Rank& rk = world_.rank(env.rank);
    switch (s.spec->id) {
      case CallId::send: {
        auto t = type_arg(env, s, P::datatype);
        auto b = typed(env, s, P::buf, int_arg(env, s, P::count), t);
        return pending(env, rk.isend(b, t, rank_arg(env, s, P::dest), rank_arg(env, s, P::tag), comm_arg(env, s)));
      }
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
      case CallId::waitall: return waitall(env, s, rk);
      case CallId::waitany: return waitany(env, s, rk);
      case CallId::sendrecv: return sendrecv(env, s, rk);
      case CallId::sendrecv_replace: return sendrecv_replace(env, s, rk);
      case CallId::comm_dup:
      case CallId::comm_split:
      case CallId::comm_create:
      case CallId::comm_create_group:
      case CallId::intercomm_create:
      case CallId::intercomm_merge: return construct(env, s, rk);
      case CallId::waitsome: return waitsome(env, s, rk);
      default: {
        coll::Collective kind;
        coll::Form form = coll::Form::blocking;
        if (!collective_of(s.spec->id, &kind, &form) || form != coll::Form::blocking)
          throw std::logic_error("call_async: a call that never blocks");
        return collective(env, s, rk, kind);
      }
    }
  }

  // The optional count parameter of a call on an array of requests: its length.
  void check_request_count(RankEnv& env, const Step& s, P count_param, std::size_t n) {
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
  std::vector<Request*> gather_requests(RankEnv& env, const Step& s, P count_param = P::count) {
    const Arg& a = arg(s, P::array_of_requests);
    check_request_count(env, s, count_param, a.names.size());
    std::vector<Request*> reqs;
    for (NameId id : a.names) reqs.push_back(request_slot(env, id, "array_of_requests"));
    return reqs;
  }

  void write_back(RankEnv& env, const Step& s, const std::vector<Request*>& reqs) {
    const Arg& a = arg(s, P::array_of_requests);
    for (std::size_t i = 0; i < reqs.size(); ++i) *find_in(env.requests(), a.names[i]) = reqs[i];
  }

  Task<Status> waitall(RankEnv& env, const Step& s, mpi::Rank& rk) {
    std::vector<Request*> reqs = gather_requests(env, s);
    std::vector<Status> sts(reqs.size());
    // The names are cleared first: a failing request must not stay bound.
    const Arg& a = arg(s, P::array_of_requests);
    for (NameId id : a.names) *find_in(env.requests(), id) = nullptr;
    co_await rk.wait_all(reqs, sts);
    bind_statuses(env, s, sts);
    co_return Status{};
  }

  Task<Status> waitsome(RankEnv& env, const Step& s, mpi::Rank& rk) {
    std::vector<Request*> reqs = gather_requests(env, s, P::incount);
    std::vector<int> indices;
    std::vector<Status> sts;
    const int n = co_await rk.wait_some(reqs, &indices, &sts);
    write_back(env, s, reqs);
    bind_some(env, s, n, indices, sts);
    co_return Status{};
  }

  Task<Status> waitany(RankEnv& env, const Step& s, mpi::Rank& rk) {
    std::vector<Request*> reqs = gather_requests(env, s);
    Status st;
    int index = co_await rk.wait_any(reqs, &st);
    write_back(env, s, reqs);
    bind_int(env, s, P::index, index);
    co_return st;
  }

  // A blocking call's requests, for run_rank to wait for (MPI_REQUEST_NULL: an empty status at once).
  static Blocking pending(RankEnv& env, Request* first, Request* second = nullptr) {
    env.pending[0] = first;
    env.pending[1] = second;
    env.pending_count = second ? 2 : 1;
    return Blocking::on_requests();
  }

  // The receive is posted first; when the send's arguments are wrong, the error
  // ends the run, which releases the receive.
  Blocking sendrecv(RankEnv& env, const Step& s, mpi::Rank& rk) {
    auto st_t = type_arg(env, s, P::sendtype);
    auto rt_t = type_arg(env, s, P::recvtype);
    auto sb = typed(env, s, P::sendbuf, int_arg(env, s, P::sendcount), st_t);
    auto rb = typed(env, s, P::recvbuf, int_arg(env, s, P::recvcount), rt_t);
    const auto& c = comm_arg(env, s);
    Request* recv = rk.irecv(rb, rt_t, rank_arg(env, s, P::source), rank_arg(env, s, P::recvtag), c);
    env.pending[0] = recv;
    env.pending_count = 1;
    Request* send = rk.isend(sb, st_t, rank_arg(env, s, P::dest), rank_arg(env, s, P::sendtag), c);
    return pending(env, recv, send);
  }

  Task<Status> sendrecv_replace(RankEnv& env, const Step& s, mpi::Rank& rk) {
    auto t = type_arg(env, s, P::datatype);
    std::int64_t n = int_arg(env, s, P::count);
    auto b = typed(env, s, P::buf, n, t);
    const auto& c = comm_arg(env, s);
    if (n < 0)
      throw MpiError(mpi::ErrorClass::count, "count", "count = " + std::to_string(n) + " is negative",
                     "MPI-4.1 §3.2.2: count is a non-negative integer");
    mpi::check_access(b, n * t->size(), "buf");
    // MPI-4.1 §3.10: the data sent is the buffer's content before the receive
    // replaces it, so it is packed first.
    std::vector<std::byte> packed;
    std::vector<std::int32_t> origins;
    if (world_.payload() == mpi::PayloadMode::data) {
      packed.resize(static_cast<std::size_t>(n * t->size()));
      if (world_.tracks_origins()) origins.assign(packed.size(), static_cast<std::int32_t>(env.rank));
      mpi::pack(b, n * t->size(), packed.data(), origins.empty() ? nullptr : origins.data());
    }
    Request* reqs[2] = {rk.irecv(b, t, rank_arg(env, s, P::source), rank_arg(env, s, P::recvtag), c), nullptr};
    reqs[1] = rk.isend_packed(std::move(packed), t, n, rank_arg(env, s, P::dest), rank_arg(env, s, P::sendtag), c,
                              std::move(origins));
    Status sts[2];
    co_await rk.wait_all(reqs, sts);
    co_return sts[0];
  }

  // ---- collectives: the library reads and checks the arguments (coll::read_arguments),
  // asking this step for each where it is significant; the coordinator runs the algorithm.
  class StepArgs final : public coll::ArgSource {
   public:
    StepArgs(Executor& ex, RankEnv& env, const Step& s) : ex_(ex), env_(env), s_(s) {}
    bool given(coll::Param p) const override {
      const std::int8_t i = s_.slot[static_cast<std::size_t>(id(p))];
      return i >= 0 && s_.args[static_cast<std::size_t>(i)].present;
    }
    std::int64_t integer(coll::Param p) override { return ex_.int_arg(env_, s_, id(p)); }
    Address buffer(coll::Param p) override { return ex_.address(env_, ex_.arg(s_, id(p)), id(p)); }
    mpi::TypeRef datatype(coll::Param p) override { return ex_.type_arg(env_, s_, id(p)); }
    std::vector<std::int64_t> integers(coll::Param p) override {
      Value v = ex_.eval(env_, *ex_.arg(s_, id(p)).expr);
      if (!v.is_array) throw StepError(std::string(param_name(id(p))) + " must be an array");
      return std::move(v.array);
    }
    std::vector<mpi::TypeRef> datatypes(coll::Param p) override {
      std::vector<mpi::TypeRef> out;
      for (NameId n : ex_.arg(s_, id(p)).names) out.push_back(ex_.named_type(env_, n, param_name(id(p))));
      return out;
    }
    mpi::OpRef op() override { return ex_.op_arg(env_, s_); }

   private:
    static P id(coll::Param p) {
      switch (p) {
        case coll::Param::buffer: return P::buffer;
        case coll::Param::count: return P::count;
        case coll::Param::datatype: return P::datatype;
        case coll::Param::root: return P::root;
        case coll::Param::op: return P::op;
        case coll::Param::sendbuf: return P::sendbuf;
        case coll::Param::sendcount: return P::sendcount;
        case coll::Param::sendtype: return P::sendtype;
        case coll::Param::sendcounts: return P::sendcounts;
        case coll::Param::sdispls: return P::sdispls;
        case coll::Param::sendtypes: return P::sendtypes;
        case coll::Param::recvbuf: return P::recvbuf;
        case coll::Param::recvcount: return P::recvcount;
        case coll::Param::recvtype: return P::recvtype;
        case coll::Param::recvcounts: return P::recvcounts;
        case coll::Param::displs: return P::displs;
        case coll::Param::rdispls: return P::rdispls;
        case coll::Param::recvtypes: return P::recvtypes;
      }
      throw std::logic_error("a collective parameter without a scenario name");
    }
    Executor& ex_;
    RankEnv& env_;
    const Step& s_;
  };

  // A collective call's arguments, checked against the standard here, at the
  // boundary; the coordinator checks them against the other members'.
  coll::CollArgs collective_args(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind, coll::Form form) {
    StepArgs source(*this, env, s);
    const mpi::Communicator& comm = comm_arg(env, s);
    coll::CollArgs a = coll::read_arguments(rk, kind, form, comm, source);
    a.segment_bytes = s.segment;
    a.instance = next_instance(env, comm);
    return a;
  }

  // The algorithm that runs the call: the one the step names, else the one the run
  // names for the call (a nonblocking call falls back to its blocking form's),
  // else auto.
  const coll::Algorithm& algorithm_for(const Step& s, const coll::CollArgs& a) {
    const std::string_view cname = coll::collective_name(a.kind);
    // Looked up once per step while the ranks run it one after another.
    if (named_.step != &s) {
      std::string_view want = s.algorithm;
      if (want.empty()) {
        auto it = cfg_.algorithms.find(s.spec->name);
        if (it == cfg_.algorithms.end()) it = cfg_.algorithms.find(std::string(cname));
        if (it != cfg_.algorithms.end()) want = it->second;
      }
      const coll::Algorithm* found = nullptr;
      if (!want.empty() && want != "auto") {
        found = coll::find_algorithm(a.kind, want);
        if (!found)
          throw StepError("no algorithm \"" + std::string(want) + "\" for " + s.spec->name +
                          " (mpisim --list-algorithms lists them)");
      }
      named_ = {&s, found};
    }
    const coll::Algorithm* alg = named_.algorithm;
    if (alg) {
      std::string no = coll::ineligible(*alg, a);
      if (!no.empty())
        throw StepError("the algorithm \"" + std::string(alg->name) + "\" of " + s.spec->name +
                        " cannot run this call: " + no);
    } else {
      alg = &coll::auto_algorithm(a);
    }
    if (alg != last_used_ || s.spec != last_used_call_) {  // recorded when it changes, not for every rank
      result_.algorithms_used[s.spec->name] = alg->name;
      last_used_ = alg;
      last_used_call_ = s.spec;
    }
    return *alg;
  }

  Blocking collective(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind) {
    coll::CollArgs a = collective_args(env, s, rk, kind, coll::Form::blocking);
    const coll::Algorithm& alg = algorithm_for(s, a);
    return Blocking::on_collective(coordinator_.enter(rk, std::move(a), alg));
  }

  // MPI-4.1 §6.12: a nonblocking collective starts its algorithm as an activity of
  // the rank and returns its request at once.
  void start_collective(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind) {
    coll::CollArgs a = collective_args(env, s, rk, kind, coll::Form::nonblocking);
    const coll::Algorithm& alg = algorithm_for(s, a);
    Request* r = coordinator_.start(rk, std::move(a), alg);
    started_algorithm_ = alg.name.data();
    started_.push_back(r);
    bind_request(env, s, r);
  }

  // The communicator constructors: collectives whose result is a communicator handle.
  Task<Status> construct(RankEnv& env, const Step& s, mpi::Rank& rk) {
    const mpi::Communicator* made = nullptr;
    switch (s.spec->id) {
      case CallId::comm_dup: {
        const auto& c = comm_arg(env, s);
        made = co_await coll::comm::dup(rk, c, next_instance(env, c), names_.str(arg(s, P::newcomm).name));
        bind(env.comms(), arg(s, P::newcomm).name, made);
        break;
      }
      case CallId::comm_split: {
        const auto& c = comm_arg(env, s);
        int color = rank_arg(env, s, P::color), key = rank_arg(env, s, P::key);
        if (color < 0 && color != mpi::UNDEFINED)
          throw MpiError(mpi::ErrorClass::arg, "color", "color = " + std::to_string(color) + " is negative",
                         "MPI-4.1 §7.4.2: color must be non-negative or MPI_UNDEFINED");
        made = co_await coll::comm::split(rk, c, next_instance(env, c), color, key, names_.str(arg(s, P::newcomm).name));
        bind(env.comms(), arg(s, P::newcomm).name, made);
        break;
      }
      case CallId::comm_create: {
        const auto& c = comm_arg(env, s);
        auto g = group_arg(env, s, P::group);
        made = co_await coll::comm::create(rk, c, next_instance(env, c), g, names_.str(arg(s, P::newcomm).name));
        bind(env.comms(), arg(s, P::newcomm).name, made);
        break;
      }
      case CallId::comm_create_group: {
        const auto& c = comm_arg(env, s);
        auto g = group_arg(env, s, P::group);
        int tag = rank_arg(env, s, P::tag);
        if (tag < 0 || tag > mpi::TAG_UB)
          throw MpiError(mpi::ErrorClass::tag, "tag", "tag = " + std::to_string(tag) + " is outside 0..MPI_TAG_UB",
                         "MPI-4.1 §7.4.2: tag is a valid tag");
        made = co_await coll::comm::create_group(rk, c, g, tag, names_.str(arg(s, P::newcomm).name));
        bind(env.comms(), arg(s, P::newcomm).name, made);
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
        break;
      }
      case CallId::intercomm_merge: {
        const auto& inter = comm_arg(env, s, P::intercomm);
        if (!inter.is_inter())
          throw MpiError(mpi::ErrorClass::comm, "intercomm", inter.name() + " is not an intercommunicator",
                         "MPI-4.1 §7.6.2: MPI_Intercomm_merge takes an intercommunicator");
        bool high = int_arg(env, s, P::high) != 0;
        made = co_await coll::comm::intercomm_merge(rk, inter, next_instance(env, inter), high,
                                                    names_.str(arg(s, P::newintracomm).name));
        bind(env.comms(), arg(s, P::newintracomm).name, made);
        break;
      }
      default: throw std::logic_error("construct: not a constructor");
    }
    co_return Status{};
  }

  // The position of this call among the collectives on `c` at this rank.
  std::int64_t next_instance(RankEnv& env, const mpi::Communicator& c) {
    if (&c == &world_.comm_world()) return env.world_collectives++;
    auto& counts = env.b().collectives.get();
    std::uint32_t ctx = c.is_self() ? 0xffffffffu : c.base_context();
    for (auto& [k, n] : counts)
      if (k == ctx) return n++;
    counts.emplace_back(ctx, 1);
    return 0;
  }

  static constexpr std::int64_t kMaxShown = 65536;
  static constexpr std::int64_t kOrderC = 56, kOrderFortran = 57;  // MPICH's MPI_ORDER_C / MPI_ORDER_FORTRAN
  mpi::GroupRef world_group_;
  std::uint64_t steps_ = 0;
  // The builtin names' values for the scalar fast path (rank: set per evaluation).
  std::array<std::int64_t, Names::builtin_count> builtins_{};
  const Program* counted_program_ = nullptr;
  std::size_t counted_buffers_ = 0;
  std::map<std::uint32_t, std::vector<std::string>> explain_before_;  // mpisim explain: buffers as each call found them
  struct {
    const Step* step = nullptr;
    const coll::Algorithm* algorithm = nullptr;  // null: auto
  } named_;                                      // the last collective step's named algorithm
  const coll::Algorithm* last_used_ = nullptr;   // the algorithm last recorded in algorithms_used
  const CallSpec* last_used_call_ = nullptr;     // and its call
  const char* started_algorithm_ = "";           // the algorithm of the nonblocking collective just started
  std::vector<const Request*> started_;          // the operations the running call started

  const Scenario& sc_;
  Names& names_;
  mpi::World& world_;
  const RunConfig& cfg_;
  RunResult& result_;
  sim::bulk::Vector<RankEnv*> envs_;  // null until the rank starts
  std::vector<std::int64_t> memo_;  // eval_int's memo: memo_width_ slots per rank, allocated on first use
  std::int32_t memo_width_ = 0;
  coll::Coordinator coordinator_;
};

// A description of every blocked rank and the cycle among them, as a diagnostic.
sim::Diagnostic deadlock_diagnostic(mpi::World& world, sim::Engine& engine, const Scenario& sc,
                                    const Executor& ex) {
  sim::Diagnostic d;
  d.severity = "error";
  d.code = "DEADLOCK";
  d.time = engine.now();
  d.rule = "MPI-4.1 §3.5: a program whose blocking calls wait for each other with no message to progress never completes";
  std::vector<sim::WaitEdge> edges;
  std::size_t blocked = 0;
  constexpr std::size_t kMaxLines = 32;
  for (std::uint32_t r = 0; r < world.size(); ++r) {
    if (engine.process_done(r)) continue;
    ++blocked;
    std::vector<std::uint32_t> waits;
    mpi::Rank& rk = world.rank(r);
    std::string what = rk.blocked_on(&waits);
    for (auto w : waits) edges.emplace_back(r, w);
    if (d.detail.size() < kMaxLines) {
      const Step* s = ex.env(r).step;
      std::string call = !s ? "?" : s->kind == Step::call ? s->spec->name : "compute";
      d.detail.push_back("rank " + std::to_string(r) + " blocked in " + call + " (" + (s ? s->path : "?") +
                         ") waiting for " + (what.empty() ? "a completion" : what));
    }
  }
  if (blocked > kMaxLines) d.detail.push_back("... and " + std::to_string(blocked - kMaxLines) + " more blocked ranks");
  std::vector<std::uint32_t> cycle = sim::find_cycle(world.size(), edges);
  std::string msg = std::to_string(blocked) + " rank" + (blocked == 1 ? "" : "s") +
                    " blocked forever: no message or event can make progress";
  if (!cycle.empty()) {
    std::string c;
    for (auto v : cycle) c += "rank " + std::to_string(v) + " -> ";
    c += "rank " + std::to_string(cycle.front());
    msg += "; wait-for cycle: " + c;
  }
  d.message = msg;
  (void)sc;
  return d;
}

// Every rank's program ended, but nonblocking collectives they started never
// completed: the other members never called them.
sim::Diagnostic unfinished_diagnostic(const std::vector<mpi::World::PendingActivity>& pending, sim::Engine& engine) {
  sim::Diagnostic d;
  d.severity = "error";
  d.code = "UNFINISHED_COLLECTIVE";
  d.time = engine.now();
  d.process = pending.front().rank;
  d.call = pending.front().call;
  d.rule = "MPI-4.1 §11.2.2: a process must complete its pending operations before it finishes; a collective "
           "completes only once every member of the communicator has called it (§6.12)";
  constexpr std::size_t kMaxLines = 32;
  for (const auto& p : pending) {
    if (d.detail.size() == kMaxLines) {
      d.detail.push_back("... and " + std::to_string(pending.size() - kMaxLines) + " more");
      break;
    }
    d.detail.push_back("rank " + std::to_string(p.rank) + ": " + p.call + " never completed" +
                       (p.waits_for.empty() ? std::string() : "; its algorithm waits for " + p.waits_for));
  }
  d.message = std::to_string(pending.size()) + " nonblocking collective" + (pending.size() == 1 ? "" : "s") +
              " never completed: the programs ended while " + (pending.size() == 1 ? "it was" : "they were") +
              " in flight (rank " + std::to_string(pending.front().rank) + ": " + pending.front().call + ")";
  return d;
}

}  // namespace

RunResult run_scenario(const Scenario& sc, net::Network& net, const RunConfig& cfg) {
  RunResult res;
  res.trace = sim::Trace(cfg.trace_level);
  res.ranks = cfg.ranks;
  res.payload = cfg.payload;
  res.network_kind = std::string(net.model->kind());
  const auto n = static_cast<std::uint32_t>(cfg.ranks);

  sim::Engine engine;
  engine.set_limits(cfg.max_events ? cfg.max_events : UINT64_MAX,
                    cfg.max_sim_time_ps ? SimTime::from_ps(cfg.max_sim_time_ps) : SimTime::never());
  mpi::World world(engine, *net.model, res.trace, n, cfg.payload);
  res.network_parameters = net.model->parameters();  // after the world sized the model
  if (cfg.max_memory) world.set_memory_limit(cfg.max_memory);
  if (cfg.progress_in_mpi.value_or(sc.progress == "in-mpi")) world.set_progress(mpi::World::Progress::in_mpi);
  // Provenance for the viewer, when the trace keeps everything (allocations up to 16 MiB).
  if (cfg.trace_level == sim::TraceLevel::full) world.track_origins(16 << 20);
  Executor ex(sc, world, cfg, res);
  engine.reserve_processes(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    world.enter(r);  // the rank's frame, in its slot
    engine.spawn(ex.run_rank(r));
  }
  if (cfg.progress) {
    constexpr std::uint64_t kEvery = std::uint64_t{1} << 21;
    engine.set_progress(kEvery, [&cfg, n, first = std::uint64_t{2} * kEvery](const sim::Engine& e) {
      if (e.events_processed() < first) return;
      cfg.progress(RunConfig::Progress{e.events_processed(), e.now().ps, n - e.unfinished_count(), n});
    });
  }
  engine.run();

  if (const auto& f = engine.failure()) {
    const std::uint32_t r = f->process;
    const Step* s = ex.env(r).step;
    const char* call = s && s->kind == Step::call ? s->spec->name : nullptr;
    sim::Diagnostic d;
    d.severity = "error";
    d.process = r;
    d.time = f->time;
    d.call = call && s && s->kind == Step::call ? call : "";
    d.step = s ? s->index : -1;
    std::string where = s ? " (" + s->path + ")" : "";
    try {
      std::rethrow_exception(f->error);
    } catch (const MpiError& e) {
      d.code = mpi::error_class_name(e.error_class());
      d.argument = e.argument();
      d.message = e.what() + where;
      d.rule = e.rule();
      res.outcome = Outcome::erroneous;
    } catch (const StepError& e) {
      d.code = "SCENARIO_ERROR";
      d.message = e.what() + where;
      res.outcome = Outcome::erroneous;
    } catch (const mpi::LimitError& e) {
      d.code = e.limit() == "memory" ? "LIMIT_MEMORY" : "LIMIT_EVENTS";
      d.message = e.what() + where;
      res.outcome = Outcome::erroneous;
    } catch (const std::exception& e) {
      d.code = "INTERNAL_ERROR";
      d.message = std::string("mpisim failed: ") + e.what() + where;
      res.outcome = Outcome::internal_error;
    }
    res.trace.record_diagnostic(std::move(d));
  } else if (engine.limit_reached() != sim::Engine::Limit::none) {
    sim::Diagnostic d;
    d.severity = "error";
    d.time = engine.now();
    bool time = engine.limit_reached() == sim::Engine::Limit::time;
    d.code = time ? "LIMIT_SIM_TIME" : "LIMIT_EVENTS";
    d.message = time ? "the run reached --max-sim-time " + std::to_string(cfg.max_sim_time_ps) +
                           " ps of virtual time and was stopped there"
                     : "the run reached --max-events " + std::to_string(cfg.max_events) + " and was stopped";
    res.trace.record_diagnostic(std::move(d));
    res.outcome = Outcome::erroneous;
  } else if (engine.unfinished_count() > 0) {
    res.trace.record_diagnostic(deadlock_diagnostic(world, engine, sc, ex));
    res.outcome = Outcome::erroneous;
  } else if (auto pending = world.pending_activities(); !pending.empty()) {
    res.trace.record_diagnostic(unfinished_diagnostic(pending, engine));
    res.outcome = Outcome::erroneous;
  }
  for (const auto& d : res.trace.diagnostics())
    if (d.code == "EXPECT_FAILED" && res.outcome == Outcome::clean) res.outcome = Outcome::erroneous;

  res.links = net.model->link_usage();
  res.finish_ps.resize(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    res.finish_ps[r] = world.finish_time(r).ps;
    res.makespan_ps = std::max(res.makespan_ps, res.finish_ps[r]);
  }
  res.events = engine.events_processed();
  for (const auto& [name, t] : ex.coordinator().totals()) res.collectives[name] = {t.calls, t.time.ps};
  ex.abandon_blocked();
  engine.destroy_processes();
  return res;
}

}  // namespace mpisim::scenario
