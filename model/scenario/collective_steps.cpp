// Collective calls: their arguments for the library, the algorithm, the blocking, nonblocking and persistent forms.
#include "model/scenario/executor.hpp"

namespace mpisim::scenario::exec {

// The collective a call starts and in which form; false for the calls that are
// not collectives (the constructors aside). From the call table's names, once,
// into a table by call.
bool collective_of(CallId id, coll::Collective* kind, coll::Form* form) {
  struct Entry {
    bool is_collective = false;
    coll::Form form = coll::Form::blocking;
    coll::Collective kind = coll::Collective::barrier;
  };
  static const std::array<Entry, kCallIds> table = [] {
    std::array<Entry, kCallIds> t{};
    for (const CallSpec& c : call_specs()) {
      const auto i = static_cast<std::size_t>(c.id);  // < kCallIds: every CallId is below it
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

// The step's arguments for the library, evaluated as it asks for them; under
// mpisim explain it notes which it asked for (those significant at the rank).
class Executor::StepArgs final : public coll::ArgSource {
 public:
  StepArgs(Executor& ex, RankEnv& env, const Step& s, std::uint32_t* read) : ex_(ex), env_(env), s_(s), read_(read) {}
  bool given(coll::Param p) const override {
    const std::int8_t i = s_.slot[static_cast<std::size_t>(id(p))];
    return i >= 0 && s_.args[static_cast<std::size_t>(i)].present;
  }
  std::int64_t integer(coll::Param p) override { return ex_.int_arg(env_, s_, id(note(p))); }
  Address buffer(coll::Param p) override { return ex_.address(env_, ex_.arg(s_, id(note(p))), id(p)); }
  mpi::TypeRef datatype(coll::Param p) override { return ex_.type_arg(env_, s_, id(note(p))); }
  std::vector<std::int64_t> integers(coll::Param p, std::size_t) override {
    Value v = ex_.eval(env_, *ex_.arg(s_, id(note(p))).expr);
    if (!v.is_array || v.is_real) throw StepError(std::string(param_name(id(p))) + " must be an array of integers");
    return std::move(v.array);
  }
  std::vector<mpi::TypeRef> datatypes(coll::Param p, std::size_t) override {
    std::vector<mpi::TypeRef> out;
    for (NameId n : ex_.arg(s_, id(note(p))).names) out.push_back(ex_.named_type(env_, n, param_name(id(p))));
    return out;
  }
  mpi::OpRef op() override {
    note(coll::Param::op);
    return ex_.op_arg(env_, s_);
  }

 private:
  coll::Param note(coll::Param p) {
    if (read_) *read_ |= std::uint32_t{1} << static_cast<unsigned>(p);
    return p;
  }
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
  std::uint32_t* read_;
};

// The nonblocking collectives and the persistent ones' _init: they start, never block.
bool Executor::start_call(RankEnv& env, const Step& s) {
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
void Executor::init_persistent(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind) {
  if (const Arg& info = arg(s, P::info); info.present) {
    const std::int64_t v = eval_int(env, *info.expr);
    mpi::check_info(v);
  }
  coll::CollArgs a = collective_args(env, s, rk, kind, coll::Form::persistent);
  const coll::Algorithm& alg = algorithm_for(s, a, rk.id());
  bind_request(env, s, nullptr);
  auto p = std::make_unique<Persistent>();
  p->args = std::move(a);
  p->algorithm = &alg;
  bind(env.persistent(), arg(s, P::request).name, std::move(p));
}

// MPI_Start on the request named `id`: its operation again (a collective: as a
// new collective call on its communicator).
void Executor::start_persistent(RankEnv& env, mpi::Rank& rk, NameId id, const char* param) {
  std::unique_ptr<Persistent>* p = find_in(env.persistent(), id);
  if (!p || !*p)
    throw MpiError(mpi::ErrorClass::request, param,
                   "request '" + names_.str(id) + "' is not a persistent request" +
                       (p ? " any more: it was freed" : ""),
                   "MPI-4.1 §3.9: MPI_Start takes a persistent request (MPI_Send_init, MPI_Bcast_init, ...)");
  Request*& slot = request_slot(env, id, param);
  coll::check_start(slot != nullptr, "request '" + names_.str(id) + "'", param);
  Persistent& q = **p;
  committed_ = q.collective();
  slot = coll::start(coordinator_, rk, q, &started_algorithm_);
  if (q.collective()) started_.push_back(slot);
}

// A collective call's arguments, checked against the standard here, at the
// boundary; the coordinator checks them against the other members'.
coll::CollArgs Executor::collective_args(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind, coll::Form form) {
  ExplainCall* explained = cfg_.explain ? &(explain_call_[env.rank] = ExplainCall{}) : nullptr;
  StepArgs source(*this, env, s, explained ? &explained->read : nullptr);
  const mpi::Communicator& comm = comm_arg(env, s);
  coll::CollArgs a = coll::read_arguments(rk, kind, form, comm, source);
  if (explained) {
    explained->role = !coll::rooted(kind) ? "" : a.is_root() ? "root" : "non-root";
    explained->in_place = a.in_place() || (a.recvbuf == coll::kInPlace);
    for (const coll::Touched& t : coll::touched(a))
      if (t.writes)
        if (const mpi::Allocation* al = rk.memory().find(t.addr, 1); al && al->name &&
            std::find(explained->written.begin(), explained->written.end(), al->name) == explained->written.end())
          explained->written.push_back(al->name);
  }
  a.segment_bytes = s.segment;
  a.radix = static_cast<std::uint16_t>(s.radix);
  a.instance = next_instance(env, comm);
  // mpisim figure: the collective call the step makes, at every member, whichever
  // step the member makes it from (a root's step and the others').
  if (!cfg_.figure_step.empty() && form == coll::Form::blocking) {
    const std::pair<std::uint32_t, std::int64_t> call{comm.base_context(), a.instance};
    if (!result_.figure_call && s.path == cfg_.figure_step) result_.figure_call = call;
    if (cfg_.figure_call == call) figure_before(env, a, rk);
  }
  committed_ = true;  // numbered among the communicator's collectives: bound to the other members' calls
  return a;
}

// The algorithm that runs the call: the one the step names, else the one the run
// names for the call, else the selection file's (--selection), else auto (the
// library's rules: coll::choose_algorithm).
const coll::Algorithm& Executor::algorithm_for(const Step& s, coll::CollArgs& a, std::uint32_t caller) {
  // Looked up once per step while the ranks run it one after another.
  if (named_.step != &s) {
    std::string_view want = s.algorithm;
    if (want.empty()) want = coll::named_algorithm(cfg_.algorithms, s.spec->name, a.kind);
    named_ = {&s, coll::find_named_algorithm(a.kind, want, s.spec->name)};
  }
  const coll::Algorithm* named = named_.algorithm;
  if (!named && cfg_.selection) named = cfg_.selection->choose(a, s.spec->name, world_, caller);
  const coll::Algorithm* alg = &coll::choose_algorithm(named, a, s.spec->name);
  if (alg != last_used_ || s.spec != last_used_call_) {  // recorded when it changes, not for every rank
    result_.used_algorithm(s.spec->name, alg->name);
    last_used_ = alg;
    last_used_call_ = s.spec;
  }
  return *alg;
}

Blocking Executor::collective(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind) {
  coll::CollArgs a = collective_args(env, s, rk, kind, coll::Form::blocking);
  const coll::Algorithm& alg = algorithm_for(s, a, rk.id());
  return Blocking::on_collective(coordinator_.enter(rk, std::move(a), alg));
}

// MPI-4.1 §6.12: a nonblocking collective starts its algorithm as an activity of
// the rank and returns its request at once.
void Executor::start_collective(RankEnv& env, const Step& s, mpi::Rank& rk, coll::Collective kind) {
  coll::CollArgs a = collective_args(env, s, rk, kind, coll::Form::nonblocking);
  const coll::Algorithm& alg = algorithm_for(s, a, rk.id());
  Request* r = coordinator_.start(rk, std::move(a), alg);
  started_algorithm_ = alg.name.data();
  started_.push_back(r);
  bind_request(env, s, r);
}

// The position of this call among the collectives on `c` at this rank.
std::int64_t Executor::next_instance(RankEnv& env, const mpi::Communicator& c) {
  if (&c == &world_.comm_world()) return env.world_collectives++;
  auto& counts = env.b().collectives.get();
  std::uint32_t ctx = c.is_self() ? 0xffffffffu : c.base_context();
  for (auto& [k, n] : counts)
    if (k == ctx) return n++;
  counts.emplace_back(ctx, 1);
  return 0;
}

}  // namespace mpisim::scenario::exec
