#pragma once
// What the C entry points of mpi.h share (capi*.cpp): one call of the running
// rank, the handles of mpi.h and the library's objects they name, statuses, the
// coroutines that wait on the engine, the collectives' arguments. Internal to
// model/program.
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <span>

#define MPISIM_IMPLEMENTATION 1
#include "include/mpi.h"
#include "include/mpisim.h"
#include "model/coll/comm/constructors.hpp"
#include "model/mpi/group.hpp"
#include "model/mpi/local_calls.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/type_constructors.hpp"
#include "model/program/runtime.hpp"

// A program built by mpisim cc calls this instead of exit() (the linker's --wrap).
extern "C" [[noreturn]] void __wrap_exit(int status);  // NOLINT: the name --wrap=exit gives

namespace mpisim::program::capi {

using mpi::ErrorClass;
using mpi::MpiError;

// One call of the running rank.
struct Ctx {
  ProgramRun& run;
  CRank& c;
  std::uint32_t r;
  mpi::Rank& rk;
  const char* name;
  const char* algorithm = "";
  const Request* started = nullptr;
  bool returnable = true;  // an error now may be returned (MPI_ERRORS_RETURN)
};

// The calls a program may make before MPI_Init and after MPI_Finalize (MPI-4.1
// §11.2.1): these, and the MPI_Info_* calls.
inline bool allowed_outside(const char* name) {
  static constexpr std::array<const char*, 8> names{"MPI_Init",        "MPI_Init_thread", "MPI_Initialized",
                                                    "MPI_Finalized",   "MPI_Get_version", "MPI_Get_library_version",
                                                    "MPI_Abort",       "mpisim_compute"};
  return std::strncmp(name, "MPI_Info_", 9) == 0 ||
         std::any_of(names.begin(), names.end(), [name](const char* n) { return std::strcmp(n, name) == 0; });
}

// An error the program asked to have returned (MPI_ERRORS_RETURN on the
// communicator, or an error handler of its own, `to_handler`): a warning in the
// run's diagnostics, its class as the result.
int returned_error(ProgramRun& run, const char* name, const MpiError& e, bool to_handler);

// Runs one MPI call. An error stops the rank (the run's diagnostic says why), as
// under MPI_ERRORS_ARE_FATAL, unless the communicator the call is about (the
// first it names, or its requests' communicator; MPI_COMM_SELF for a call about
// none) has
// MPI_ERRORS_RETURN and the error can be returned: it was found at this rank by
// the call's own checks or by a point-to-point completion, not by a collective's
// agreement with the other members (which would leave them waiting).
// `site`: where the program called (the C entry point's return address), for
// the diagnostics' source line.
// A call with no run (from the program's constructors or exit handlers, which
// run when mpisim loads and unloads it): refused with a message.
int outside_run(const char* name);

// A call from a thread the program started: the ranks are fibers of mpisim's one
// thread, so it ends the run with a message (MPI_THREAD_SERIALIZED was granted).
[[noreturn]] void from_another_thread(const char* name);

template <typename F>
inline int call(const void* site, const char* name, F&& body) {
  if (!g_run) return outside_run(name);
  if (!g_run->on_its_thread()) [[unlikely]] from_another_thread(name);
  ProgramRun& run = *g_run;
  CRank& c = run.current();
  // A call made from a callback the library runs during another call (a user
  // operation, an attribute's copy or delete function) is nested in it: the outer
  // call's record is put back when it returns.
  const CRank::CallState outer = c.call_state();
  const bool nested = c.call != nullptr;
  if (run.host_compute() && !nested) run.charge_host_time();  // the program's own time, before the call's
  c.site = site;
  c.about = 0;
  Ctx x{run, c, run.current_rank(), run.world().rank(run.current_rank()), name};
  run.call_begins(name);
  struct Resume {  // every way out below ends the call, then resumes the outer one
    ProgramRun& run;
    CRank& c;
    const CRank::CallState& outer;
    bool nested;
    ~Resume() {
      if (nested) run.resume_call(outer);
    }
  } resume{run, c, outer, nested};
  std::exception_ptr error;
  try {
    if (!allowed_outside(name) && (!c.initialized || c.finalized))
      throw MpiError(ErrorClass::other, "", std::string(name) + " was called " +
                                                (c.finalized ? "after MPI_Finalize" : "before MPI_Init"),
                     "MPI-4.1 §11.2.1: a program calls MPI only between MPI_Init and MPI_Finalize (a few "
                     "calls, such as MPI_Initialized, aside)");
    body(x);
  } catch (...) {
    error = std::current_exception();  // handled outside the catch: fail() leaves this fiber for good
  }
  if (error) {
    // The handler of the communicator the call is about; MPI_COMM_SELF's for a
    // call about none (MPI-4.1 §9.3).
    int comm = c.about ? c.about : MPI_COMM_SELF;
    const int handler = run.errhandler(comm);
    const coll::Handles::ErrhandlerFn own = c.handles.errhandler_function(handler);
    if (x.returnable && (handler == MPI_ERRORS_RETURN || own)) {
      int code = MPI_SUCCESS;
      try {
        std::rethrow_exception(error);
      } catch (const MpiError& m) {
        code = returned_error(run, name, m, own != nullptr);
      } catch (...) {  // not an error of MPI (a limit, mpisim's own): the run stops
      }
      // The program's handler, with the communicator and the code (MPI-4.1
      // §9.3.1); an MPI call it makes is nested in this one.
      if (code != MPI_SUCCESS && own) {
        int passed = code;
        own(&comm, &passed);
      }
      if (code != MPI_SUCCESS) {
        run.call_ends(x.algorithm, x.started);
        return code;
      }
    }
    run.fail(std::move(error));
  }
  run.call_ends(x.algorithm, x.started);
  return MPI_SUCCESS;
}

inline std::string hex(int v) { return handle_text(v); }

// ---- handles
constexpr int kIndexMask = kHandleIndex;

struct TypeName {
  int handle;
  const char* name;
};
constexpr TypeName kTypes[] = {
    {MPI_CHAR, "MPI_CHAR"}, {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"}, {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR"},
    {MPI_BYTE, "MPI_BYTE"}, {MPI_WCHAR, "MPI_WCHAR"}, {MPI_SHORT, "MPI_SHORT"},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT"}, {MPI_INT, "MPI_INT"}, {MPI_UNSIGNED, "MPI_UNSIGNED"},
    {MPI_LONG, "MPI_LONG"}, {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"}, {MPI_FLOAT, "MPI_FLOAT"},
    {MPI_DOUBLE, "MPI_DOUBLE"}, {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE"}, {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT"},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG"}, {MPI_PACKED, "MPI_PACKED"},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT"}, {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"}, {MPI_LONG_INT, "MPI_LONG_INT"},
    {MPI_SHORT_INT, "MPI_SHORT_INT"}, {MPI_2INT, "MPI_2INT"}, {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
    {MPI_INT8_T, "MPI_INT8_T"}, {MPI_INT16_T, "MPI_INT16_T"}, {MPI_INT32_T, "MPI_INT32_T"},
    {MPI_INT64_T, "MPI_INT64_T"}, {MPI_UINT8_T, "MPI_UINT8_T"}, {MPI_UINT16_T, "MPI_UINT16_T"},
    {MPI_UINT32_T, "MPI_UINT32_T"}, {MPI_UINT64_T, "MPI_UINT64_T"}, {MPI_C_BOOL, "MPI_C_BOOL"},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX"}, {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"}, {MPI_AINT, "MPI_AINT"}, {MPI_OFFSET, "MPI_OFFSET"},
    {MPI_COUNT, "MPI_COUNT"}, {MPI_CHARACTER, "MPI_CHARACTER"}, {MPI_INTEGER, "MPI_INTEGER"}, {MPI_REAL, "MPI_REAL"},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"}, {MPI_COMPLEX, "MPI_COMPLEX"},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX"}, {MPI_LOGICAL, "MPI_LOGICAL"}, {MPI_2INTEGER, "MPI_2INTEGER"},
    {MPI_2REAL, "MPI_2REAL"}, {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"}, {MPI_INTEGER1, "MPI_INTEGER1"},
    {MPI_INTEGER2, "MPI_INTEGER2"}, {MPI_INTEGER4, "MPI_INTEGER4"}, {MPI_INTEGER8, "MPI_INTEGER8"},
    {MPI_REAL4, "MPI_REAL4"}, {MPI_REAL8, "MPI_REAL8"}, {MPI_COMPLEX8, "MPI_COMPLEX8"},
    {MPI_COMPLEX16, "MPI_COMPLEX16"}, {MPI_CXX_BOOL, "MPI_CXX_BOOL"},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX"}, {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"}};

inline mpi::TypeRef type_of(const CRank& c, int h, const char* argument) {
  static const std::map<int, mpi::TypeRef> predefined = [] {
    std::map<int, mpi::TypeRef> m;
    for (const TypeName& t : kTypes) m.emplace(t.handle, mpi::predefined_type(t.name));
    return m;
  }();
  if (auto it = predefined.find(h); it != predefined.end()) return it->second;
  if (h == MPI_LB || h == MPI_UB)
    throw MpiError(ErrorClass::type, argument,
                   std::string(h == MPI_LB ? "MPI_LB" : "MPI_UB") + " may only appear in MPI_Type_struct",
                   "MPI-4.1 §5.1.7: the MPI-1 markers MPI_LB and MPI_UB are type-map entries of struct types");
  if (mpi::TypeRef t = c.handles.type(h, argument)) return t;
  throw MpiError(ErrorClass::type, argument,
                 h == MPI_DATATYPE_NULL ? std::string("MPI_DATATYPE_NULL is not a datatype")
                                        : hex(h) + " is not a datatype handle",
                 "MPI-4.1 §3.2.2: a datatype argument must be a predefined or a constructed datatype");
}

inline mpi::OpRef op_of(const CRank& c, int h) {
  static constexpr std::array<const char*, 14> names{"MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",   "MPI_LAND",
                                                     "MPI_BAND", "MPI_LOR",  "MPI_BOR",    "MPI_LXOR",   "MPI_BXOR",
                                                     "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};
  static const std::array<mpi::OpRef, 14> ops = [] {
    std::array<mpi::OpRef, 14> a;
    for (std::size_t i = 0; i < names.size(); ++i) a[i] = mpi::predefined_op(names[i]);
    return a;
  }();
  const auto i = static_cast<unsigned>(h) - 0x58000001u;
  if (i < ops.size()) return ops[i];
  if (mpi::OpRef o = c.handles.op(h)) return o;
  if (h == MPI_OP_NULL) mpi::null_op("op");
  throw MpiError(ErrorClass::op, "op", hex(h) + " is not an operation handle",
                 "MPI-4.1 §6.9.2: op must be a predefined or a user-defined operation");
}

inline int add_request(CRank& c, Request* r) { return c.handles.add_request(r, c.about); }

// The operation a request handle names: null for MPI_REQUEST_NULL and for an
// inactive persistent request (a wait on either returns at once, MPI-4.1 §3.7.3).
inline Request*& request_of(CRank& c, int h, const char* argument) {
  static Request* null_request = nullptr;
  if (h == MPI_REQUEST_NULL) return null_request = nullptr;
  return c.handles.request(h, argument, &c.about);
}

// After a completion call completed the operation of `handle`: a persistent
// request stays (inactive), any other becomes MPI_REQUEST_NULL.
inline void completed(CRank& c, MPI_Request& handle) { c.handles.completed(handle); }

// `many`: a status of an array (MPI_Waitall, ...), whose MPI_ERROR field is set;
// a single completion leaves it alone (MPI-4.1 §3.2.5).
inline void put_status(MPI_Status* out, const Status& st, bool many = false) {
  if (out == nullptr || out == MPI_STATUS_IGNORE) return;
  out->MPI_SOURCE = st.source;
  out->MPI_TAG = st.tag;
  if (many) out->MPI_ERROR = static_cast<int>(st.error);
  out->count_lo = static_cast<int>(st.bytes & 0xffffffff);
  out->count_hi_and_cancelled = static_cast<int>((st.bytes >> 32) << 1) | (st.cancelled ? 1 : 0);
}

inline std::int64_t status_bytes(const MPI_Status* st) {
  return static_cast<std::int64_t>(static_cast<std::uint32_t>(st->count_lo)) +
         (static_cast<std::int64_t>(static_cast<std::uint32_t>(st->count_hi_and_cancelled) >> 1) << 32);
}

// An MPI_Test, MPI_Testall or MPI_Iprobe that finds nothing costs the caller this
// much virtual time: a loop that polls until a message arrives lets time run on
// (the program's own code costs none), as each poll does on a real machine.
constexpr SimTime kPollCost = SimTime::from_ps(100'000);

inline mpi::Address address(const void* p) { return static_cast<mpi::Address>(reinterpret_cast<std::intptr_t>(p)); }

inline mpi::TypedBuffer typed(Ctx& x, const void* buf, std::int64_t count, const mpi::TypeRef& t) {
  return mpi::TypedBuffer{&x.rk.memory(), address(buf), count, t.get()};
}

template <typename T>
inline void need(T* p, const char* argument) {
  if (p == nullptr)
    throw MpiError(ErrorClass::arg, argument, std::string(argument) + " is NULL",
                   "MPI-4.1 §2.5: an output argument must point to storage for the result");
}

// ---- waiting on the engine
inline Task<void> wait_one(mpi::Rank& rk, Request* r, Status* out) { *out = co_await rk.wait(r); }
inline Task<void> wait_two(mpi::Rank& rk, Request* a, Request* b, Status* out) {
  std::array<Request*, 2> rs{a, b};
  *out = co_await rk.wait_all(rs);
}
inline Task<void> wait_all(mpi::Rank& rk, std::span<Request*> rs, std::span<Status> sts) { co_await rk.wait_all(rs, sts); }
inline Task<void> wait_any(mpi::Rank& rk, std::span<Request*> rs, Status* st, int* index) {
  *index = co_await rk.wait_any(rs, st);
}
inline Task<void> compute(mpi::Rank& rk, SimTime d) { co_await rk.compute(d); }
inline void poll_failed(Ctx& x) { x.run.block(compute(x.rk, kPollCost)); }
inline Task<void> status_of(Task<Status> t, Status* out) { *out = co_await std::move(t); }
inline Task<void> probe(mpi::Rank& rk, int source, int tag, const mpi::Communicator& comm, Status* out) {
  *out = co_await rk.probe(source, tag, comm);
}

inline Task<void> mprobe(mpi::Rank& rk, int source, int tag, const mpi::Communicator& comm, Status* out,
                         mpi::MatchedMessage* m) {
  *out = co_await rk.mprobe(source, tag, comm, m);
}

// MPI_Message handles: MPI_MESSAGE_NO_PROC for a probe of MPI_PROC_NULL, else a
// slot of the rank's table, free again once received.
inline int add_message(CRank& c, const mpi::MatchedMessage& m) {
  return m.no_proc ? MPI_MESSAGE_NO_PROC : c.handles.add_message(m);
}

inline mpi::MatchedMessage& message_of(CRank& c, int h) {
  static mpi::MatchedMessage no_proc;
  if (h == MPI_MESSAGE_NO_PROC) {
    const auto& self = g_run->world().comm_self();
    return no_proc = mpi::MatchedMessage{nullptr, &self, true};
  }
  return c.handles.message(h);
}

inline Task<void> wait_some(mpi::Rank& rk, std::span<Request*> rs, std::vector<int>* indices,
                            std::vector<Status>* sts, int* n) {
  *n = co_await rk.wait_some(rs, indices, sts);
}

// The requests of an array argument, in the rank's scratch vector.
inline std::vector<Request*>& gather(CRank& c, int count, const MPI_Request* handles) {
  if (count < 0)
    throw MpiError(ErrorClass::count, "count", "count = " + std::to_string(count) + " is negative",
                   "MPI-4.1 §3.7.5: count is the number of requests");
  if (count > 0) need(handles, "array_of_requests");
  auto& reqs = c.scratch_requests;
  reqs.assign(static_cast<std::size_t>(count), nullptr);
  for (int i = 0; i < count; ++i) reqs[static_cast<std::size_t>(i)] = request_of(c, handles[i], "array_of_requests");
  return reqs;
}

// A request a completion call completed: its handle becomes MPI_REQUEST_NULL.
inline void release(CRank& c, MPI_Request& handle) {
  if (handle != MPI_REQUEST_NULL) request_of(c, handle, "array_of_requests") = nullptr;
  completed(c, handle);
}

// After a completion call on an array failed (a request completed with an error,
// which the library released): every request it released has its handle made
// MPI_REQUEST_NULL (a persistent one stays) and its slot freed, as on success.
inline void released_on_error(CRank& c, const std::vector<Request*>& scratch, MPI_Request* handles) {
  for (std::size_t i = 0; i < scratch.size(); ++i) {
    MPI_Request& h = handles[i];
    if (h == MPI_REQUEST_NULL || scratch[i] != nullptr) continue;
    Request** slot = c.handles.operation(h);
    // An inactive persistent request (or a handle repeated in the array): untouched.
    if (slot == nullptr || *slot == nullptr) continue;
    *slot = nullptr;
    completed(c, h);
  }
}

// A request of an array call failed: every status the call fills says how its
// request ended (MPI_ERROR), and the call fails with MPI_ERR_IN_STATUS.
[[noreturn]] inline void failed_in_status(const MpiError& e, MPI_Status* out, const std::vector<Status>& sts) {
  if (out != MPI_STATUSES_IGNORE && out != nullptr)
    for (std::size_t i = 0; i < sts.size(); ++i) put_status(&out[i], sts[i], true);
  throw mpi::in_status(e);
}

// MPI_Waitsome and MPI_Testsome when a request failed: the requests completed are
// reported (their handles were released already), then MPI_ERR_IN_STATUS.
[[noreturn]] inline void some_failed(CRank& c, const MpiError& e, int* outcount, int* array_of_indices,
                                     MPI_Status* statuses) {
  const std::vector<int>& indices = c.scratch_indices;
  *outcount = static_cast<int>(indices.size());
  if (array_of_indices != nullptr)
    for (std::size_t k = 0; k < indices.size(); ++k) array_of_indices[k] = indices[k];
  failed_in_status(e, statuses, c.scratch_statuses);
}

// MPI_Waitsome and MPI_Testsome's results.
inline void some_done(CRank& c, int n, const std::vector<int>& indices, MPI_Request* handles, int* outcount,
                      int* array_of_indices, MPI_Status* statuses) {
  *outcount = n;
  if (n == MPI_UNDEFINED) return;
  if (n > 0) need(array_of_indices, "array_of_indices");
  for (int k = 0; k < n; ++k) {
    const int i = indices[static_cast<std::size_t>(k)];
    array_of_indices[k] = i;
    release(c, handles[i]);
    if (statuses != MPI_STATUSES_IGNORE && statuses != nullptr)
      put_status(&statuses[k], c.scratch_statuses[static_cast<std::size_t>(k)], true);
  }
}

// ---- collectives
class CArgs final : public coll::ArgSource {
 public:
  explicit CArgs(const CRank& c) : c_(c) {}
  CArgs& buffer(coll::Param p, const void* v) { return set(p, v == MPI_IN_PLACE ? coll::kInPlace : address(v)); }
  CArgs& integer(coll::Param p, std::int64_t v) { return set(p, v); }
  CArgs& type(coll::Param p, MPI_Datatype h) { return set(p, h); }
  // An array of counts or displacements: int, MPI_Count (a large-count call's
  // counts) or MPI_Aint (MPI_Neighbor_alltoallw's displacements, a large-count
  // call's).
  CArgs& ints(coll::Param p, const int* a) {
    arrays_[static_cast<std::size_t>(p)] = a;
    return set(p, 0);
  }
  CArgs& ints(coll::Param p, const MPI_Count* a) {
    count_arrays_[static_cast<std::size_t>(p)] = a;
    return set(p, 0);
  }
  CArgs& ints(coll::Param p, const MPI_Aint* a) {
    aint_arrays_[static_cast<std::size_t>(p)] = a;
    return set(p, 0);
  }
  CArgs& op(MPI_Op h) { return set(coll::Param::op, h); }
  // A neighbourhood collective's arrays have one entry per source (receive side)
  // or destination (send side), not per process (for the wording of a NULL array).
  void neighbors() { neighbors_ = true; }

  bool given(coll::Param p) const override { return given_ >> static_cast<unsigned>(p) & 1u; }
  std::int64_t integer(coll::Param p) override { return values_[static_cast<std::size_t>(p)]; }
  mpi::Address buffer(coll::Param p) override { return values_[static_cast<std::size_t>(p)]; }
  mpi::TypeRef datatype(coll::Param p) override {
    return type_of(c_, static_cast<int>(values_[static_cast<std::size_t>(p)]), coll::param_name(p));
  }
  std::vector<std::int64_t> integers(coll::Param p, std::size_t n) override {
    if (const MPI_Aint* w = aint_arrays_[static_cast<std::size_t>(p)]) return std::vector<std::int64_t>(w, w + n);
    if (const MPI_Count* w = count_arrays_[static_cast<std::size_t>(p)]) return std::vector<std::int64_t>(w, w + n);
    const int* a = arrays_[static_cast<std::size_t>(p)];
    if (a == nullptr && n > 0)
      throw MpiError(ErrorClass::arg, coll::param_name(p), std::string(coll::param_name(p)) + " is NULL",
                     neighbors_ ? "MPI-4.1 §8.6: the array has one entry per neighbour"
                                : "MPI-4.1 §6.5: the array has one entry per process of the group");
    return std::vector<std::int64_t>(a, a + n);
  }
  CArgs& types(coll::Param p, const MPI_Datatype* a) {
    type_arrays_[static_cast<std::size_t>(p)] = a;
    return set(p, 0);
  }
  std::vector<mpi::TypeRef> datatypes(coll::Param p, std::size_t n) override {
    const MPI_Datatype* a = type_arrays_[static_cast<std::size_t>(p)];
    if (a == nullptr && n > 0)
      throw MpiError(ErrorClass::arg, coll::param_name(p), std::string(coll::param_name(p)) + " is NULL",
                     "MPI-4.1 §6.8: the array has one entry per process of the group");
    std::vector<mpi::TypeRef> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(type_of(c_, a[i], coll::param_name(p)));
    return out;
  }
  mpi::OpRef op() override { return op_of(c_, static_cast<int>(values_[static_cast<std::size_t>(coll::Param::op)])); }

 private:
  CArgs& set(coll::Param p, std::int64_t v) {
    values_[static_cast<std::size_t>(p)] = v;
    given_ |= 1u << static_cast<unsigned>(p);
    return *this;
  }
  const CRank& c_;
  std::array<std::int64_t, 18> values_{};
  std::array<const int*, 18> arrays_{};
  std::array<const MPI_Datatype*, 18> type_arrays_{};
  std::array<const MPI_Aint*, 18> aint_arrays_{};
  std::array<const MPI_Count*, 18> count_arrays_{};
  std::uint32_t given_ = 0;
  bool neighbors_ = false;
};

using coll::Param;

// A collective call: blocking (no request), nonblocking, or persistent (its
// _init: the arguments checked and the algorithm chosen once, MPI-4.1 §6.13;
// MPI_Start runs them).
inline void collective(Ctx& x, coll::Collective kind, MPI_Comm comm, const std::function<void(CArgs&)>& fill,
                       MPI_Request* request = nullptr, bool persistent = false) {
  const mpi::Communicator& cm = x.run.comm(comm, "comm");
  if (request) need(request, "request");
  CArgs a(x.c);
  if (coll::neighborhood(kind)) a.neighbors();
  fill(a);
  const coll::Form form = !request ? coll::Form::blocking : persistent ? coll::Form::persistent : coll::Form::nonblocking;
  coll::CollArgs args = coll::read_arguments(x.rk, kind, form, cm, a);
  const coll::Algorithm& alg = x.run.algorithm_for(x.name, args, x.rk.id());
  x.algorithm = alg.name.data();
  // A collective call among the communicator's, in every form: a persistent
  // one's _init too (MPI-4.1 §6.13); its starts are not.
  args.instance = x.run.next_instance(x.c, cm);
  if (persistent) {
    *request = x.c.handles.add_persistent(std::make_unique<coll::Persistent>(coll::Persistent{std::move(args), &alg, {}}),
                                          x.c.about);
    return;
  }
  x.returnable = false;  // the other members' calls are now bound to this one
  if (!request) {
    x.run.block(x.run.coordinator().run(x.rk, std::move(args), alg));
    return;
  }
  Request* r = x.run.coordinator().start(x.rk, std::move(args), alg);
  x.started = r;
  *request = add_request(x.c, r);
}

// MPI_Start on a persistent request: its operation again (a collective: as a
// new collective call on its communicator).
inline void start(Ctx& x, MPI_Request handle, const char* argument) {
  coll::Persistent* p = x.c.handles.persistent_of(handle);
  if (p == nullptr)
    throw MpiError(ErrorClass::request, argument, hex(handle) + " is not a persistent request of this rank",
                   "MPI-4.1 §3.9: MPI_Start takes a persistent request (MPI_Send_init, MPI_Bcast_init, ...)");
  Request*& op = x.c.handles.request(handle, argument, &x.c.about);
  coll::check_start(op != nullptr, "request " + hex(handle), argument);
  if (p->collective()) x.returnable = false;
  op = coll::start(x.run.coordinator(), x.rk, *p, &x.algorithm);
  x.started = op;
}

// MPI_Send_init, MPI_Ssend_init, MPI_Bsend_init, MPI_Rsend_init, MPI_Recv_init:
// a persistent point-to-point request, inactive until MPI_Start.
inline int p2p_init(const void* site, const char* name, bool send, mpi::SendMode mode, const void* buf, int count,
                    MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Request* request) {
  return call(site, name, [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = type_of(x.c, datatype, "datatype");
    need(request, "request");
    mpi::PersistentP2P op = x.rk.p2p_init(send, mode, typed(x, buf, count, t), t, peer, tag, cm);
    auto p = std::make_unique<coll::Persistent>();
    p->p2p = std::move(op);
    *request = x.c.handles.add_persistent(std::move(p), x.c.about);
  });
}

// ---- point-to-point
inline int send_in_mode(const void* site, const char* name, const void* buf, std::int64_t count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, mpi::SendMode mode, MPI_Request* request, bool nonblocking) {
  return call(site, name, [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = type_of(x.c, datatype, "datatype");
    if (nonblocking) need(request, "request");
    Request* r = mode == mpi::SendMode::standard
                     ? (nonblocking ? x.rk.isend_held(typed(x, buf, count, t), t, dest, tag, cm)
                                    : x.rk.isend(typed(x, buf, count, t), t, dest, tag, cm))
                     : x.rk.isend_mode(typed(x, buf, count, t), t, dest, tag, cm, mode, nonblocking);
    if (nonblocking) {
      *request = add_request(x.c, r);
      return;
    }
    Status st;
    x.run.block(wait_one(x.rk, r, &st));
  });
}

inline void new_type(Ctx& x, MPI_Datatype* newtype, mpi::TypeRef t) {
  need(newtype, "newtype");
  *newtype = x.c.handles.add_type(std::move(t));
}

inline Task<void> made_comm(Task<const mpi::Communicator*> t, const mpi::Communicator** out) { *out = co_await std::move(t); }
// A communicator constructor: a collective on `comm` whose result is a new handle.
// `counted`: whether the call is a collective of all of comm's members, one of
// the calls counted on it (MPI_Comm_create_group is the group's members' only).
// A nonblocking constructor's work (MPI_Comm_idup), run as an activity of the
// rank: once the collective is over, the handle given at the call names the
// communicator, and the request completes.
inline Task<void> fill_comm(coll::Handles& handles, int handle, Task<const mpi::Communicator*> made, mpi::World& w) {
  handles.fill_comm(handle, co_await std::move(made));
  w.end_activity();
}
// MPI_Comm_idup and MPI_Comm_idup_with_info: the handle is reserved now, with its
// parent's error handler (MPI-4.1 §9.3); the collective goes on in the background.
template <typename Make>
inline void construct_nonblocking(Ctx& x, MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request, Make make) {
  const mpi::Communicator& c = x.run.comm(comm, "comm");
  need(newcomm, "newcomm");
  need(request, "request");
  const std::int64_t seq = x.run.next_instance(x.c, c);
  *newcomm = x.c.handles.reserve_comm();
  Task<void> body = fill_comm(x.c.handles, *newcomm,
                              make(c, seq, std::string(x.name) + " #" + std::to_string(seq) + " of " + c.name()),
                              x.run.world());
  mpi::Request* r = x.run.world().start_activity(x.r, std::move(body), c, x.name);
  *request = add_request(x.c, r);
  x.started = r;
  if (const int h = x.run.errhandler(comm); h != MPI_ERRORS_ARE_FATAL) x.run.set_errhandler(*newcomm, h);
}

template <typename Make>
inline void construct(Ctx& x, MPI_Comm comm, MPI_Comm* newcomm, Make make, bool counted = true) {
  const mpi::Communicator& c = x.run.comm(comm, "comm");
  need(newcomm, "newcomm");
  const std::int64_t seq = counted ? x.run.next_instance(x.c, c) : 0;
  const mpi::Communicator* made = nullptr;
  x.returnable = false;
  x.run.block(made_comm(make(c, seq, std::string(x.name) + " #" + std::to_string(seq) + " of " + c.name()), &made));
  *newcomm = x.run.add_comm(made);
  // A new communicator has its parent's error handler (MPI-4.1 §9.3).
  if (const int h = x.run.errhandler(comm); h != MPI_ERRORS_ARE_FATAL && made) x.run.set_errhandler(*newcomm, h);
}
}  // namespace mpisim::program::capi
