// What a run shows of a rank: show steps (values, buffers, groups, handles by
// name), the buffers show steps follow, the names of the MPI constants a call's
// results stand for, and what mpisim explain records of each call.
#include "model/scenario/executor.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace mpisim::scenario::exec {
// An MPI_CHAR buffer that holds printable text (ASCII up to its first NUL): that
// text as "text", beside the values (MPI_Error_string's output reads as words).
static void write_text_json(sim::JsonWriter& w, const mpi::Allocation& a) {
  if (a.type->name() != "MPI_CHAR" || !a.data) return;
  std::string text;
  for (std::int64_t i = 0; i < a.count; ++i) {
    const auto c = static_cast<unsigned char>(a.data[static_cast<std::size_t>(i)]);
    if (c == 0) break;
    if (c < 32 || c > 126) return;
    text += static_cast<char>(c);
  }
  w.field("text", text);
}

// Each buffer of the rank, compactly (mpisim explain).
std::vector<std::string> Executor::buffer_texts(RankEnv& env) {
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
    write_text_json(w, a);
    w.end_object();
    body.pop_back();
    out.push_back(std::move(body));
  }
  return out;
}

void Executor::record_explain(RankEnv& env, const Step& s, const char* algorithm, SimTime start, const std::string& args) {
  runner::ExplainEntry e;
  e.path = s.path;
  e.call = s.spec->name;
  e.rank = env.rank;
  e.args_json = args;
  e.algorithm = algorithm;
  e.start_ps = start.ps;
  e.end_ps = world_.engine().now().ps;
  const ExplainCall* called = nullptr;
  if (auto it = explain_call_.find(env.rank); it != explain_call_.end()) called = &it->second;
  if (called) {
    // Only the arguments significant at this rank: a collective's parameters the
    // library did not read (a scatter's send arguments away from its root) go.
    auto j = nlohmann::ordered_json::parse(args.empty() ? "{}" : args);
    for (int p = 0; p <= static_cast<int>(coll::Param::recvtypes); ++p)
      if (!(called->read >> p & 1)) j.erase(coll::param_name(static_cast<coll::Param>(p)));
    e.args_json = j.dump();
    e.role = called->role;
    e.in_place = called->in_place;
  }
  std::vector<std::string> after = buffer_texts(env);
  const auto& allocs = world_.rank(env.rank).memory().allocations();
  for (std::size_t i = 0; i < after.size(); ++i) {
    const auto& found = explain_before_[env.rank];
    std::string before = i < found.size() ? found[i] : "(not yet declared)";
    const bool written = called && std::find(called->written.begin(), called->written.end(), allocs[i].name) !=
                                       called->written.end();
    if (before != after[i] || written) e.changes.push_back({*allocs[i].name, std::move(before), after[i]});
  }
  e.results = explain_results(env, s);
  result_.explain.push_back(std::move(e));
}

// The values a call's output parameters got at this rank, in words.
namespace {

// The name v stands for under n, or "" when it is just a number.
std::string named_value(Naming n, std::int64_t v) {
  switch (n) {
    case Naming::plain: return {};
    case Naming::errhandler:
      if (const char* x = mpi::errhandler_name(v)) return x;
      return {};
    case Naming::error_class:
      if (const char* x = mpi::error_code_name(static_cast<int>(v)); x && v == static_cast<int>(v)) return x;
      return {};
    case Naming::comparison:
      return v >= 0 && v <= 3 ? mpi::comparison_name(static_cast<mpi::Comparison>(v)) : std::string();
    case Naming::topology:
      return v == mpi::CART ? "MPI_CART" : v == mpi::GRAPH ? "MPI_GRAPH" : v == mpi::DIST_GRAPH ? "MPI_DIST_GRAPH" : "MPI_UNDEFINED";
    case Naming::undefined_or_proc_null:
      if (v == mpi::PROC_NULL) return "MPI_PROC_NULL";
      [[fallthrough]];
    case Naming::undefined: return v == mpi::UNDEFINED ? "MPI_UNDEFINED" : std::string();
    case Naming::proc_null: return v == mpi::PROC_NULL ? "MPI_PROC_NULL" : std::string();
  }
  return {};
}

std::string shown_value(Naming naming, std::int64_t v) {
  std::string n = named_value(naming, v);
  return n.empty() ? std::to_string(v) : n;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> Executor::explain_results(RankEnv& env, const Step& s) {
  std::vector<std::pair<std::string, std::string>> out;
  Naming naming = Naming::plain;
  auto one = [&](std::int64_t v) { return shown_value(naming, v); };
  auto list = [&](const std::vector<std::int64_t>& xs) {
    std::string t = "{";
    for (std::size_t i = 0; i < xs.size() && i < 16; ++i) t += (i ? ", " : "") + one(xs[i]);
    return t + (xs.size() > 16 ? ", ...}" : "}");
  };
  for (std::size_t i = 0; i < s.spec->params.size(); ++i) {
    const Arg& a = s.args[i];
    const ParamSpec& p = s.spec->params[i];
    if (!a.present || a.ignore) continue;
    const std::string& name = names_.str(a.name);
    naming = p.naming;
    std::string value;
    switch (p.kind) {
      case ParamKind::out_int:
      case ParamKind::array_out:
      case ParamKind::array_inout:
      case ParamKind::int_inout:
        if (const Value* v = find_in(env.values(), a.name))
          value = v->is_real ? v->to_string() : v->is_array ? list(v->array) : one(v->scalar);
        break;
      case ParamKind::group_out:
        naming = Naming::plain;
        if (const mpi::GroupRef* g = find_in(env.groups(), a.name))
          value = *g ? "the group of world ranks " + list((*g)->members()) : "MPI_GROUP_NULL";
        break;
      case ParamKind::comm_out:
        if (const mpi::Communicator** c = find_in(env.comms(), a.name))
          value = *c ? std::to_string((*c)->size()) + " processes" + ((*c)->is_inter() ? " and a remote group of " +
                                                                          std::to_string((*c)->peer_count())
                                                                    : std::string())
                     : "MPI_COMM_NULL";
        break;
      case ParamKind::datatype_out:
        if (const mpi::TypeRef* t = find_in(env.types(), a.name); t && *t)
          value = "size " + std::to_string((*t)->size()) + ", extent " + std::to_string((*t)->extent()) + ", lb " +
                  std::to_string((*t)->lb()) + ", true extent " + std::to_string((*t)->true_extent());
        break;
      default: continue;
    }
    if (!value.empty()) out.emplace_back(p.name, name + " = " + value);
  }
  if (s.return_name)  // the call's return code: MPI_SUCCESS, or the class an error handler returned
    if (const Value* v = find_in(env.values(), *s.return_name); v && !v->is_array && !v->is_real)
      if (const char* n = mpi::error_code_name(static_cast<int>(v->scalar)))
        out.emplace_back("return", names_.str(*s.return_name) + " = " + n);
  return out;
}

// A handle as `show` prints it: the null handle's name, or what the handle holds.
std::string Executor::handle_text(RankEnv& env, NameId id) {
  if (find_in(env.values(), id)) return "";  // a value of that name hides the handle
  if (const mpi::Communicator** c = find_in(env.comms(), id))
    return *c ? "communicator " + (*c)->name() + " (" + std::to_string((*c)->size()) + " processes)" : "MPI_COMM_NULL";
  if (const mpi::TypeRef* t = find_in(env.types(), id))
    return *t ? "datatype " + (*t)->name() + " (size " + std::to_string((*t)->size()) + ", extent " +
                    std::to_string((*t)->extent()) + ")"
              : "MPI_DATATYPE_NULL";
  if (const mpi::OpRef* o = find_in(env.ops(), id)) return *o ? "operation " + (*o)->name : "MPI_OP_NULL";
  if (auto h = handle_value(env, id); h && find_in(env.requests(), id))
    return *h == mpi::REQUEST_NULL ? "MPI_REQUEST_NULL" : "request " + names_.str(id);
  return "";
}

// The rank each of elements [first, first + n) came from: the origin of its first
// byte; for an element a reduction computed from several ranks, a code (at most
// -2) that "combined" lists with its ranks. Nothing when no provenance is kept.
void Executor::write_origins(sim::JsonWriter& w, const mpi::Allocation& a, std::int64_t first, std::int64_t n) {
  if (!a.origin) return;
  std::vector<std::int32_t> codes;
  w.key("origins").begin_array();
  for (std::int64_t i = first; i < first + n; ++i) {
    const std::int32_t o = a.origin[i * a.type->size()];
    w.value(o);
    if (mpi::ProvenanceSets::combined(o) && std::find(codes.begin(), codes.end(), o) == codes.end()) codes.push_back(o);
  }
  w.end_array();
  if (codes.empty()) return;
  std::sort(codes.begin(), codes.end(), std::greater<>());
  w.key("combined").begin_array();
  for (std::int32_t code : codes) {
    w.begin_object().field("origin", code).key("ranks").begin_array();
    for (std::int32_t r : world_.provenance().ranks(code)) w.value(r);
    w.end_array().end_object();
  }
  w.end_array();
}

// A buffer's contents as a snapshot writes them: type, count, element size,
// values, their origins (and the ranks of combined ones), text.
void Executor::write_buffer(sim::JsonWriter& w, const mpi::Allocation& a) {
  w.field("type", a.type->name()).field("count", a.count).field("element_size", a.type->extent());
  w.key("values");
  if (!a.data) {
    w.null();
  } else {
    w.begin_array();
    std::int64_t n = std::min<std::int64_t>(a.count, kMaxShown);
    for (std::int64_t i = 0; i < n; ++i) write_element_json(w, a, i);
    w.end_array();
    write_origins(w, a, 0, n);
    if (n < a.count) w.field("truncated", true);
    write_text_json(w, a);
  }
}

void Executor::follow_delivery(std::uint32_t dst, std::uint32_t src) {
  RankEnv* env = envs_[dst];
  if (env == nullptr || env->step == nullptr) return;
  const Step& s = *env->step;
  std::string what = "the message from rank " + std::to_string(src);
  if (s.kind == Step::call) what += std::string(" in ") + s.spec->name;
  follow_buffers(*env, s, what);
}

void Executor::follow_buffers(RankEnv& env, const Step& s, std::string_view what) {
  if (sc_.followed.empty() || result_.trace.level() != sim::TraceLevel::full) return;
  for (NameId id : sc_.followed) {
    const mpi::Allocation* a = allocation(env, id);
    if (!a || !a->data || follow_count_ >= kMaxFollowed) continue;
    std::string contents;
    sim::JsonWriter cw(contents, 0);
    cw.begin_object();
    write_buffer(cw, *a);
    cw.end_object();
    std::string& last = followed_[{env.rank, id}];
    if (contents == last) continue;  // unchanged since the last record
    last = contents;
    ++follow_count_;
    std::string body;
    sim::JsonWriter w(body, 0);
    w.begin_object().field("follow", std::string(what));
    write_buffer(w, *a);
    w.end_object();
    body.pop_back();
    result_.trace.record_snapshot(
        sim::Snapshot{env.rank, index_of(s), world_.engine().now(), names_.str(id), std::move(body), true});
  }
}

void Executor::name_results(RankEnv& env, const Step& s) {
  for (std::size_t i = 0; i < s.spec->params.size(); ++i) {
    const Naming n = s.spec->params[i].naming;
    const Arg& a = s.args[i];
    if (n == Naming::plain || !a.present || a.ignore) continue;
    if (Value* v = find_in(env.values(), a.name)) v->naming = static_cast<std::uint8_t>(n);
  }
}

void Executor::show(RankEnv& env, const Step& s) {
  // A grid's dimensions, the same for every buffer the step shows.
  std::int64_t rows = 0, columns = 0;
  if (!s.shape.empty()) {
    rows = eval_int(env, s.shape[0]);
    columns = eval_int(env, s.shape[1]);
    if (rows <= 0 || columns <= 0)
      throw StepError("the shape [" + std::to_string(rows) + ", " + std::to_string(columns) +
                      "] must have a positive number of rows and of columns");
  }
  for (NameId id : s.shown) {
    std::string body;
    sim::JsonWriter w(body, 0);
    w.begin_object();
    if (rows > 0) w.key("shape").begin_array().value(rows).value(columns).end_array();
    if (const mpi::Allocation* a = allocation(env, id)) {
      write_buffer(w, *a);
    } else if (mpi::GroupRef* g = find_in(env.groups(), id)) {
      if (!*g) w.field("handle", "MPI_GROUP_NULL");
      if (*g) {
        w.field("size", (*g)->size());
        w.key("members").begin_array();
        std::int64_t n = std::min<std::int64_t>((*g)->size(), kMaxShown);
        for (std::int64_t i = 0; i < n; ++i) w.value((*g)->world(i));
        w.end_array();
      }
    } else if (std::string h = handle_text(env, id); !h.empty()) {
      w.field("handle", h);
    } else if (Value* v = find_in(env.values(), id)) {
      const auto naming = static_cast<Naming>(v->naming);
      if (v->is_array) {
        w.key("values").begin_array();
        if (v->is_real)
          for (double x : v->reals) w.value(x);
        else
          for (auto x : v->array) w.value(x);
        w.end_array();
        // The elements that stand for an MPI constant, by name (null: a number).
        if (naming != Naming::plain && !v->is_real &&
            std::any_of(v->array.begin(), v->array.end(), [&](std::int64_t x) { return !named_value(naming, x).empty(); })) {
          w.key("names").begin_array();
          for (auto x : v->array)
            if (std::string n = named_value(naming, x); n.empty()) w.null();
            else w.value(n);
          w.end_array();
        }
      } else if (v->is_real) {
        w.field("value", v->real);
      } else {
        w.field("value", v->scalar);
        if (std::string n = named_value(naming, v->scalar); !n.empty()) w.field("name", n);
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

}  // namespace mpisim::scenario::exec

namespace mpisim::scenario::exec {

// mpisim figure: a region of a rank's memory as a snapshot's data: the elements of
// the allocation it lies in that it covers, their origins and combined ranks.
std::string Executor::region_json(mpi::Rank& rk, Address addr, std::int64_t bytes) {
  std::string out;
  sim::JsonWriter w(out, 0);
  w.begin_object();
  const mpi::Allocation* al = rk.memory().find(addr, 1);
  if (!al || !al->data || bytes <= 0) {
    w.key("values").null().end_object();
    out.pop_back();
    return out;
  }
  const std::int64_t element = al->type->extent();
  const std::int64_t first = (addr - al->base) / element;
  const std::int64_t end = std::min(al->count, (addr + bytes - al->base + element - 1) / element);
  const std::int64_t n = std::min<std::int64_t>(end - first, kMaxShown);
  w.field("buffer", *al->name).field("type", al->type->name()).field("first", first).field("count", end - first);
  w.key("values").begin_array();
  for (std::int64_t i = 0; i < n; ++i) write_element_json(w, *al, first + i);
  w.end_array();
  write_origins(w, *al, first, n);
  w.end_object();
  out.pop_back();
  return out;
}

// The regions the library reads or writes at the rank (coll::touched), and their
// contents before the call.
void Executor::figure_before(RankEnv& env, const coll::CollArgs& a, mpi::Rank& rk) {
  FigureCall& f = figure_pending_[env.rank];
  f = FigureCall{};
  f.role = !coll::rooted(a.kind) ? "" : a.is_root() ? "root" : "non-root";
  for (const coll::Touched& t : coll::touched(a)) {
    if (t.count <= 0) continue;
    // From the first element's true lower bound to the last one's true upper bound.
    const std::int64_t lb = std::min<std::int64_t>(0, t.type->true_lb());
    const std::int64_t bytes = (t.count - 1) * t.type->extent() + t.type->true_ub() - lb;
    f.regions.push_back({t.argument, t.block, t.writes, t.addr + lb, bytes, ""});
    f.regions.back().before = region_json(rk, f.regions.back().addr, bytes);
  }
}

void Executor::figure_after(RankEnv& env) {
  auto it = figure_pending_.find(env.rank);
  if (it == figure_pending_.end()) return;
  mpi::Rank& rk = world_.rank(env.rank);
  std::string out;
  sim::JsonWriter w(out, 0);
  w.begin_object().field("rank", static_cast<std::int64_t>(env.rank)).field("role", it->second.role);
  w.key("regions").begin_array();
  for (const FigureRegion& r : it->second.regions) {
    w.begin_object().field("argument", r.argument).field("block", static_cast<std::int64_t>(r.block)).field("writes", r.writes);
    w.key("before").raw(r.before);
    w.key("after").raw(region_json(rk, r.addr, r.bytes));
    w.end_object();
  }
  w.end_array().end_object();
  out.pop_back();
  result_.figure.push_back(std::move(out));
  figure_pending_.erase(it);
}

}  // namespace mpisim::scenario::exec
