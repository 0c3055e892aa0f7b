// The executor: the step loop, the names of expressions, the arguments of steps.
#include "model/scenario/executor.hpp"
#include "sim/suggest.hpp"

namespace mpisim::scenario::exec {

namespace {

// The communicator constructors: collectives that block, bound to the other members.
bool constructs_comm(CallId id) {
  switch (id) {
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
    case CallId::dist_graph_create_adjacent: return true;
    default: return false;
  }
}

}  // namespace

std::optional<Value> Executor::NameLookup::operator()(std::string_view n, std::uint32_t resolved) const {
  std::optional<NameId> id = resolved != kNoId ? std::optional<NameId>(resolved) : ex->names_.find(n);
  if (!id) return std::nullopt;
  switch (*id) {
    case Names::rank: return Value::of(env->rank);
    case Names::size: return Value::of(static_cast<std::int64_t>(ex->world_.size()));
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
    case Names::order_c: return Value::of(Executor::kOrderC);
    case Names::order_fortran: return Value::of(Executor::kOrderFortran);
    default: break;
  }
  if (Value* v = find_in(env->values(), *id)) return *v;
  // A group reads as its members (MPI_GROUP_EMPTY as none); the other handles as
  // handle values, which compare with each other and the null handles.
  if (mpi::GroupRef* g = find_in(env->groups(), *id)) return *g ? Value::of((*g)->members()) : Value::of(mpi::GROUP_NULL);
  if (n == "MPI_GROUP_EMPTY") return Value::of(std::vector<std::int64_t>{});
  if (auto h = ex->handle_value(*env, *id)) return Value::of(*h);
  if (auto c = mpi_constant(n)) return Value::of(*c);
  if (const mpi::Allocation* a = ex->allocation(*env, *id)) {
    if (a->count == 0) return Value::of(std::vector<std::int64_t>{});  // an empty buffer: the empty array
    if (!a->data)
      throw StepError("buffer '" + std::string(n) + "' has no contents in --payload sizes mode");
    // The program reads every element: none may be a pending receive's (`show`,
    // which only shows the simulator's state, may).
    const mpi::Memory& mem = ex->world_.rank(env->rank).memory();
    if (mem.held()) mpi::check_not_held(mem, {a->base, a->count, a->type.get()}, false, "");
    // Integers, or reals for a floating buffer that holds a number that is not one.
    std::vector<std::int64_t> xs(static_cast<std::size_t>(a->count));
    for (std::int64_t i = 0; i < a->count; ++i) {
      bool integral = true;
      xs[static_cast<std::size_t>(i)] = element_as_int(*a, i, &integral);
      if (!integral) return Value::of_reals(reals_of(*a, std::string(n)));
    }
    return Value::of(std::move(xs));
  }
  return std::nullopt;
}

// A rank's state lives in its slot, made when the rank starts.
RankEnv& Executor::start_rank(std::uint32_t r) {
  world_.enter(r);
  RankEnv& env = *(envs_[r] = new (sim::frame_pool::allocate(sizeof(RankEnv))) RankEnv{});
  env.rank = r;
  env.top_program = &sc_.program_for(r);
  world_.rank(r).memory().reserve(buffer_steps(*env.top_program));
  return env;
}

// The blocked step is over with status `st`.
void Executor::after_block(RankEnv& env, const Status& st) {
  const char* algorithm = nullptr;  // a collective's (registry names are string literals)
  if (env.blocked.kind == Blocking::collective) {
    coordinator_.leave(world_.rank(env.rank), env.blocked.ticket);
    algorithm = env.blocked.ticket.alg->name.data();
  }
  env.blocked = Blocking{};  // frees the finished coroutine's frame
  finish_blocking(env, st, algorithm);
}

// After a run that stopped with ranks blocked: destroys the coroutines they wait
// for (before the engine destroys the ranks' own, and while the collectives'
// arguments those refer to still exist).
void Executor::abandon_blocked() {
  world_.abandon_activities();
  for (RankEnv* e : envs_)
    if (e) e->blocked = Blocking{};
}

// The buffers a program declares at its top level (memoized per program).
std::size_t Executor::buffer_steps(const Program& prog) {
  if (&prog == counted_program_) return counted_buffers_;
  std::size_t n = 0;
  for (const Step& s : prog) n += s.kind == Step::buffer;
  counted_program_ = &prog;
  counted_buffers_ = n;
  return n;
}

Value Executor::eval(RankEnv& env, const Expr& e) {
  auto fn = lookup_for(env);
  try {
    return e.eval(fn);
  } catch (const ExprError& x) {
    throw StepError("in the expression \"" + e.text() + "\": " + x.what());
  }
}

bool Executor::scalar_name(void* ctx, std::uint32_t id, std::int64_t* out) {
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
  if (v->is_array || v->is_real) return false;
  *out = v->scalar;
  return true;
}

// A per-rank constant (see Expr::memo_slot): computed on a rank's first use.
// A rank's slots are side by side, so its memoized values share a cache line.
std::int64_t Executor::memoized_int(RankEnv& env, const Expr& e) {
  if (memo_.empty()) memo_.assign(static_cast<std::size_t>(memo_width_) * world_.size(), kUnset);
  std::int64_t& v = memo_[static_cast<std::size_t>(env.rank) * static_cast<std::size_t>(memo_width_) +
                          static_cast<std::size_t>(e.memo_slot())];
  if (v == kUnset) v = compute_int(env, e);  // a value of kUnset itself is computed every time
  return v;
}

std::int64_t Executor::compute_int(RankEnv& env, const Expr& e) {
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
  if (v.is_real)
    throw StepError("the expression \"" + e.text() + "\" gives the real " + v.to_string() +
                    " where an integer is expected (int() truncates a real)");
  return v.scalar;
}

void Executor::no_parameter(P p) {
  throw std::logic_error(std::string("call has no parameter ") + param_name(p));
}

const Arg& Executor::need(const Step& s, P p, const char* why) {
  const char* name = param_name(p);
  const Arg& a = arg(s, p);
  if (!a.present)
    throw MpiError(mpi::ErrorClass::arg, name,
                   std::string("parameter ") + name + " is missing" + (*why ? std::string(" ") + why : std::string()),
                   "MPI-4.1 §6.1: an argument that is significant at a process must be given there");
  return a;
}

void Executor::not_an_int(P p, std::int64_t v) {
  const char* name = param_name(p);
  throw MpiError(mpi::ErrorClass::arg, name, std::string(name) + " = " + std::to_string(v) + " does not fit an int",
                 "MPI-4.1 §2.5.6: C int arguments");
}

void Executor::undeclared_buffer(const RankEnv& env, NameId name, P p) const {
  // A misspelled name: the rank's buffer closest to it.
  sim::Suggestion near(names_.str(name));
  for (const auto& a : world_.rank(env.rank).memory().allocations())
    if (a.name) near.consider(*a.name);
  throw MpiError(mpi::ErrorClass::buffer, param_name(p),
                 "buffer '" + names_.str(name) + "' is not declared on rank " + std::to_string(env.rank) +
                     (near.best().empty() ? "" : " (did you mean '" + near.best() + "'?)"),
                 "MPI-4.1 §3.2.2: buf is the address of the rank's own data");
}

// ---- steps
// Runs the rank's steps that do not block, up to the next one that may; returns
// that one's task, or nothing when the program is over.
Blocking Executor::advance(RankEnv& env) {
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
Blocking Executor::run_step(RankEnv& env, const Step& s) {
  env.step = &s;
  // Interpreted steps count against --max-events too: a loop of local steps
  // schedules no event but must end.
  if (++steps_ + world_.engine().events_processed() > cfg_.max_events) [[unlikely]]
    throw mpi::LimitError("events", runner::events_limit_text(cfg_.max_events));
  if (s.ranks && eval_int(env, *s.ranks) == 0) return {};
  {
    switch (s.kind) {
      case Step::let:
        for (const auto& [id, e] : s.lets) bind(env.values(), id, eval(env, e));
        break;
      case Step::buffer:
        declare_buffer(env, s);
        follow_buffers(env, s, "declared");
        break;
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
      case Step::call: {
        env.call_start = world_.engine().now();
        if (cfg_.explain) {
          explain_before_[env.rank] = buffer_texts(env);
          explain_call_.erase(env.rank);
        }
        started_.clear();
        committed_ = false;
        const bool returns = returns_errors(env, s);  // before the call changes the handles it names
        try {
          // The calls that may block first: they are the ones a long run repeats.
          if (Blocking b = call_async(env, s); b.kind != Blocking::none) {
            // A collective's wait (a communicator constructor's included) is bound to the other members'.
            b.errors_return = returns && b.kind != Blocking::collective && !constructs_comm(s.spec->id);
            return b;
          }
          if (!call_sync(env, s)) throw std::logic_error(std::string("a call with no handler: ") + s.spec->name);
        } catch (const MpiError& e) {
          if (committed_ || !returns) throw;
          return_error(env, s, e);
          break;
        }
        if (s.return_name) bind(env.values(), *s.return_name, Value::of(0));  // MPI_SUCCESS
        const std::int64_t record = record_call(env, s, s.spec->name, env.call_start,
                                                std::exchange(started_algorithm_, ""), args_json(env, s));
        // The operations the call started: their completion goes to its record.
        for (const Request* r : started_) world_.set_trace_call(r, record);
        started_.clear();
        break;
      }
    }
  }
  return {};
}

Task<Status> Executor::computing(mpi::Rank& rk, SimTime duration) {
  co_await rk.compute(duration);
  co_return Status{};
}

// After a blocking step: bind its status and record it.
void Executor::finish_blocking(RankEnv& env, const Status& st, const char* algorithm) {
  const Step& s = *env.step;
  if (s.kind == Step::compute) {
    world_.set_in_mpi(env.rank, true);
    record_call(env, s, "compute", env.call_start, "", "");
    return;
  }
  if (s.slot[static_cast<std::size_t>(P::status)] >= 0) bind_status(env, s, P::status, st);
  if (s.return_name) bind(env.values(), *s.return_name, Value::of(0));  // MPI_SUCCESS
  record_call(env, s, s.spec->name, env.call_start, algorithm ? algorithm : "", args_json(env, s));
}

std::int64_t Executor::record_call(RankEnv& env, const Step& s, const char* name, SimTime start, const char* algorithm,
                         std::string args) {
  if (s.kind == Step::call && s.spec->names_outputs) name_results(env, s);
  if (cfg_.explain && s.kind == Step::call) record_explain(env, s, algorithm, start, args);
  if (!figure_pending_.empty() && s.kind == Step::call) figure_after(env);
  if (result_.trace.level() == sim::TraceLevel::summary) {
    result_.trace.count_call(name, start, world_.engine().now());
    return -1;
  }
  const std::int64_t index = result_.trace.record_call(sim::CallRecord{env.rank, index_of(s), name, start,
                                                                      world_.engine().now(), std::move(args), algorithm});
  follow_buffers(env, s, name);
  return index;
}

std::string Executor::args_json(RankEnv& env, const Step& s) {
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
        // Evaluated again after the call: the value as this rank saw it (a handle by its name).
        try {
          const std::int64_t v = eval_int(env, *a.expr);
          const char* handler = s.spec->params[i].id == P::errhandler ? mpi::errhandler_name(v) : nullptr;
          if (handler) w.field(n, handler);
          else w.field(n, v);
        } catch (const std::exception&) {
          w.field(n, a.text);
        }
        break;
      }
      case ParamKind::buffer:
        w.field(n, a.text);
        // An offset into a named buffer, resolved on this rank: its byte offset
        // from the buffer's start (the viewer highlights the bytes a call touches).
        if (a.buffer.kind == BufferRef::named && a.buffer.offset)
          if (const mpi::Allocation* al = allocation(env, a.buffer.name)) {
            try {
              w.field(std::string(n) + "_offset_bytes", eval_int(env, *a.buffer.offset) * al->type->extent());
            } catch (const std::exception&) {
            }
          }
        break;
      default: w.field(n, a.text); break;
    }
  }
  w.end_object();
  out.pop_back();  // the writer ends a top-level value with a newline
  return out;
}

// ---- handles as values
std::optional<std::int64_t> Executor::handle_value(RankEnv& env, NameId id) {
  // Handle values of the kinds' own ranges (MPICH's kind bits), numbered by the
  // communicator's context or the name's id: deterministic, distinct per object.
  constexpr std::int64_t kComm = 0x84000000, kType = 0x8c000000, kOp = 0x98000000, kRequest = 0xac000000;
  if (const mpi::Communicator** c = find_in(env.comms(), id)) {
    if (!*c) return mpi::COMM_NULL;
    return kComm | static_cast<std::int64_t>((*c)->base_context() & 0xffffff);
  }
  if (const mpi::TypeRef* t = find_in(env.types(), id)) return *t ? kType | id : mpi::DATATYPE_NULL;
  if (const mpi::OpRef* o = find_in(env.ops(), id)) return *o ? kOp | id : mpi::OP_NULL;
  if (Request** r = find_in(env.requests(), id)) {
    const std::unique_ptr<Persistent>* p = find_in(env.persistent(), id);
    return *r || (p && *p) ? kRequest | id : mpi::REQUEST_NULL;  // an inactive persistent request is not null
  }
  return std::nullopt;
}

// ---- error handlers
std::int64_t Executor::errhandler_of(RankEnv& env, const mpi::Communicator& c) {
  if (!errhandlers_set_) return mpi::ERRORS_ARE_FATAL;
  const std::int64_t* h = find_in(env.b().errhandlers.get(), comm_key(c));
  return h ? *h : mpi::ERRORS_ARE_FATAL;
}

void Executor::set_errhandler(RankEnv& env, const mpi::Communicator& c, std::int64_t handler) {
  errhandlers_set_ = true;
  bind(env.b().errhandlers.get(), comm_key(c), handler);
}

// The communicator parameter i of step s names, or null if it names none (yet).
const mpi::Communicator* Executor::comm_or_null(RankEnv& env, const Step& s, std::size_t i) {
  const Arg& a = s.args[i];
  if (a.comm_kind == Arg::world) return &world_.comm_world();
  if (a.comm_kind == Arg::self) return &world_.comm_self();
  const mpi::Communicator** c = find_in(env.comms(), a.name);
  return c ? *c : nullptr;
}

bool Executor::handler_returns(RankEnv& env, const Step& s) {
  const mpi::Communicator* about = nullptr;
  for (std::size_t i = 0; i < s.spec->params.size() && !about; ++i) {
    const ParamSpec& p = s.spec->params[i];
    const Arg& a = s.args[i];
    if (!a.present) continue;
    if (p.kind == ParamKind::comm || p.kind == ParamKind::comm_inout) {
      about = comm_or_null(env, s, i);
      if (!about) break;  // an invalid communicator: MPI_COMM_SELF's handler
    } else if (p.kind == ParamKind::request_in || p.kind == ParamKind::request_array) {
      // A completion is about its requests' communicator (the first active one).
      const std::vector<NameId> one{a.name};
      for (NameId id : p.kind == ParamKind::request_in ? one : a.names)
        if (Request** r = find_in(env.requests(), id); r && *r && (*r)->comm) {
          about = (*r)->comm;
          break;
        }
    }
  }
  return errhandler_of(env, about ? *about : world_.comm_self()) == mpi::ERRORS_RETURN;
}

void Executor::return_error(RankEnv& env, const Step& s, const MpiError& e) {
  sim::Diagnostic d;
  d.severity = "warning";
  d.code = mpi::error_class_name(e.error_class());
  d.process = env.rank;
  d.step = s.index;
  d.time = world_.engine().now();
  d.call = s.spec->name;
  d.argument = e.argument();
  d.message = std::string("returned to the program (MPI_ERRORS_RETURN): ") + e.what() + " (" + s.path + ")";
  d.rule = e.rule();
  result_.trace.record_diagnostic(std::move(d));
  if (s.return_name) bind(env.values(), *s.return_name, Value::of(static_cast<int>(e.error_class())));
  started_.clear();
  started_algorithm_ = "";
  record_call(env, s, s.spec->name, env.call_start, "", args_json(env, s));
}

// ---- calls
// Calls that never block run here, outside any coroutine frame, one family
// after another; returns false for the calls that may block (call_async).
bool Executor::call_sync(RankEnv& env, const Step& s) {
  return p2p_call(env, s) || group_call(env, s) || topology_call(env, s) || type_call(env, s) || start_call(env, s);
}

}  // namespace mpisim::scenario::exec
