// The C entry points of mpi.h: each translates its C arguments (handles, host
// pointers) into a call of the MPI library and back. Nothing of the standard is
// checked here but what only the C binding has (a handle that names no object, a
// call before MPI_Init); the library checks the rest.
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

namespace mpisim::program {
namespace {

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
};

// The calls a program may make before MPI_Init and after MPI_Finalize (MPI-4.1 §11.2.1).
bool allowed_outside(const char* name) {
  static constexpr std::array<const char*, 7> names{"MPI_Init",      "MPI_Init_thread", "MPI_Initialized",
                                                    "MPI_Finalized", "MPI_Get_version", "MPI_Abort",
                                                    "mpisim_compute"};
  return std::any_of(names.begin(), names.end(), [name](const char* n) { return std::strcmp(n, name) == 0; });
}

// Runs one MPI call: the error of a failing call stops the rank (the run's
// diagnostic says why), as under MPI_ERRORS_ARE_FATAL.
// `site`: where the program called (the C entry point's return address), for
// the diagnostics' source line.
template <typename F>
int call(const void* site, const char* name, F&& body) {
  ProgramRun& run = *g_run;
  CRank& c = run.current();
  c.site = site;
  Ctx x{run, c, run.current_rank(), run.world().rank(run.current_rank()), name};
  run.call_begins(name);
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
  if (error) run.fail(std::move(error));
  run.call_ends(x.algorithm, x.started);
  return MPI_SUCCESS;
}

std::string hex(int v) { return handle_text(v); }

// ---- handles
constexpr int kDerivedType = static_cast<int>(0xcc000000u);
constexpr int kRequestKind = static_cast<int>(0xac000000u);
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
    {MPI_COUNT, "MPI_COUNT"}};

mpi::TypeRef type_of(const CRank& c, int h, const char* argument) {
  static const std::map<int, mpi::TypeRef> predefined = [] {
    std::map<int, mpi::TypeRef> m;
    for (const TypeName& t : kTypes) m.emplace(t.handle, mpi::predefined_type(t.name));
    return m;
  }();
  if (auto it = predefined.find(h); it != predefined.end()) return it->second;
  if ((h & ~kIndexMask) == kDerivedType) {
    const auto i = static_cast<std::size_t>(h & kIndexMask);
    if (i < c.types.size() && c.types[i]) return c.types[i];
    if (i < c.types.size())
      throw MpiError(ErrorClass::type, argument, "datatype " + hex(h) + " was freed (MPI_Type_free)",
                     "MPI-4.1 §5.1.9: a freed datatype handle may not be used");
  }
  throw MpiError(ErrorClass::type, argument,
                 h == MPI_DATATYPE_NULL ? std::string("MPI_DATATYPE_NULL is not a datatype")
                                        : hex(h) + " is not a datatype handle",
                 "MPI-4.1 §3.2.2: a datatype argument must be a predefined or a constructed datatype");
}

mpi::OpRef op_of(int h) {
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
  throw MpiError(ErrorClass::op, "op",
                 h == MPI_OP_NULL ? std::string("MPI_OP_NULL is not an operation") : hex(h) + " is not an operation handle",
                 "MPI-4.1 §6.9.2: op must be a predefined or a user-defined operation");
}

int add_request(CRank& c, Request* r) {
  auto free = std::find(c.requests.begin(), c.requests.end(), nullptr);
  if (free == c.requests.end()) free = c.requests.insert(free, nullptr);
  *free = r;
  return kRequestKind | static_cast<int>(free - c.requests.begin());
}

Request*& request_of(CRank& c, int h, const char* argument) {
  static Request* null_request = nullptr;
  if (h == MPI_REQUEST_NULL) return null_request = nullptr;
  const auto i = static_cast<std::size_t>(h & kIndexMask);
  if ((h & ~kIndexMask) == kRequestKind && i < c.requests.size() && c.requests[i]) return c.requests[i];
  throw MpiError(ErrorClass::request, argument, hex(h) + " is not an active request of this rank",
                 "MPI-4.1 §3.7.3: a request handle must come from a nonblocking call and not be completed or "
                 "freed yet");
}

void put_status(MPI_Status* out, const Status& st) {
  if (out == nullptr || out == MPI_STATUS_IGNORE) return;
  out->MPI_SOURCE = st.source;
  out->MPI_TAG = st.tag;
  out->MPI_ERROR = static_cast<int>(st.error);
  out->count_lo = static_cast<int>(st.bytes & 0xffffffff);
  out->count_hi_and_cancelled = static_cast<int>((st.bytes >> 32) << 1);
}

std::int64_t status_bytes(const MPI_Status* st) {
  return static_cast<std::int64_t>(static_cast<std::uint32_t>(st->count_lo)) +
         (static_cast<std::int64_t>(st->count_hi_and_cancelled >> 1) << 32);
}

// An MPI_Test, MPI_Testall or MPI_Iprobe that finds nothing costs the caller this
// much virtual time: a loop that polls until a message arrives lets time run on
// (the program's own code costs none), as each poll does on a real machine.
constexpr SimTime kPollCost = SimTime::from_ps(100'000);

mpi::Address address(const void* p) { return static_cast<mpi::Address>(reinterpret_cast<std::intptr_t>(p)); }

mpi::TypedBuffer typed(Ctx& x, const void* buf, int count, const mpi::TypeRef& t) {
  return mpi::TypedBuffer{&x.rk.memory(), address(buf), count, t.get()};
}

template <typename T>
void need(T* p, const char* argument) {
  if (p == nullptr)
    throw MpiError(ErrorClass::arg, argument, std::string(argument) + " is NULL",
                   "MPI-4.1 §2.5: an output argument must point to storage for the result");
}

// ---- waiting on the engine
Task<void> wait_one(mpi::Rank& rk, Request* r, Status* out) { *out = co_await rk.wait(r); }
Task<void> wait_two(mpi::Rank& rk, Request* a, Request* b, Status* out) {
  std::array<Request*, 2> rs{a, b};
  *out = co_await rk.wait_all(rs);
}
Task<void> wait_all(mpi::Rank& rk, std::span<Request*> rs, std::span<Status> sts) { co_await rk.wait_all(rs, sts); }
Task<void> wait_any(mpi::Rank& rk, std::span<Request*> rs, Status* st, int* index) {
  *index = co_await rk.wait_any(rs, st);
}
Task<void> compute(mpi::Rank& rk, SimTime d) { co_await rk.compute(d); }
void poll_failed(Ctx& x) { x.run.block(compute(x.rk, kPollCost)); }
Task<void> status_of(Task<Status> t, Status* out) { *out = co_await std::move(t); }
Task<void> probe(mpi::Rank& rk, int source, int tag, const mpi::Communicator& comm, Status* out) {
  *out = co_await rk.probe(source, tag, comm);
}

// ---- collectives
class CArgs final : public coll::ArgSource {
 public:
  CArgs(const CRank& c, const mpi::Communicator& comm) : c_(c), comm_(comm) {}
  CArgs& buffer(coll::Param p, const void* v) { return set(p, v == MPI_IN_PLACE ? coll::kInPlace : address(v)); }
  CArgs& integer(coll::Param p, int v) { return set(p, v); }
  CArgs& type(coll::Param p, MPI_Datatype h) { return set(p, h); }
  CArgs& ints(coll::Param p, const int* a) {
    arrays_[static_cast<std::size_t>(p)] = a;
    return set(p, 0);
  }
  CArgs& op(MPI_Op h) { return set(coll::Param::op, h); }

  bool given(coll::Param p) const override { return given_ >> static_cast<unsigned>(p) & 1u; }
  std::int64_t integer(coll::Param p) override { return values_[static_cast<std::size_t>(p)]; }
  mpi::Address buffer(coll::Param p) override { return values_[static_cast<std::size_t>(p)]; }
  mpi::TypeRef datatype(coll::Param p) override {
    return type_of(c_, static_cast<int>(values_[static_cast<std::size_t>(p)]), coll::param_name(p));
  }
  std::vector<std::int64_t> integers(coll::Param p) override {
    const int* a = arrays_[static_cast<std::size_t>(p)];
    const auto n = static_cast<std::size_t>(comm_.peer_count());  // the remote group's on an intercommunicator
    if (a == nullptr && n > 0)
      throw MpiError(ErrorClass::arg, coll::param_name(p), std::string(coll::param_name(p)) + " is NULL",
                     "MPI-4.1 §6.5: the array has one entry per process of the group");
    return std::vector<std::int64_t>(a, a + n);
  }
  std::vector<mpi::TypeRef> datatypes(coll::Param p) override {
    throw MpiError(ErrorClass::arg, coll::param_name(p), "arrays of datatypes are not available from C yet", "");
  }
  mpi::OpRef op() override { return op_of(static_cast<int>(values_[static_cast<std::size_t>(coll::Param::op)])); }

 private:
  CArgs& set(coll::Param p, std::int64_t v) {
    values_[static_cast<std::size_t>(p)] = v;
    given_ |= 1u << static_cast<unsigned>(p);
    return *this;
  }
  const CRank& c_;
  const mpi::Communicator& comm_;
  std::array<std::int64_t, 18> values_{};
  std::array<const int*, 18> arrays_{};
  std::uint32_t given_ = 0;
};

using coll::Param;

void collective(Ctx& x, coll::Collective kind, MPI_Comm comm, const std::function<void(CArgs&)>& fill,
                MPI_Request* request = nullptr) {
  const mpi::Communicator& cm = x.run.comm(comm, "comm");
  if (request) need(request, "request");
  CArgs a(x.c, cm);
  fill(a);
  const coll::Form form = request ? coll::Form::nonblocking : coll::Form::blocking;
  coll::CollArgs args = coll::read_arguments(x.rk, kind, form, cm, a);
  args.instance = x.run.next_instance(x.c, cm);
  const coll::Algorithm& alg = x.run.algorithm_for(x.name, args);
  x.algorithm = alg.name.data();
  if (!request) {
    x.run.block(x.run.coordinator().run(x.rk, std::move(args), alg));
    return;
  }
  Request* r = x.run.coordinator().start(x.rk, std::move(args), alg);
  x.started = r;
  *request = add_request(x.c, r);
}

// The send and receive arguments of gather, scatter, allgather, alltoall.
auto exchange_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, int root = MPI_UNDEFINED) {
  return [=](CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).integer(Param::sendcount, sendcount).type(Param::sendtype, sendtype);
    a.buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount).type(Param::recvtype, recvtype);
    if (root != MPI_UNDEFINED) a.integer(Param::root, root);
  };
}
auto reduce_args(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root = MPI_UNDEFINED) {
  return [=](CArgs& a) {
    a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).integer(Param::count, count);
    a.type(Param::datatype, datatype).op(op);
    if (root != MPI_UNDEFINED) a.integer(Param::root, root);
  };
}

// ---- point-to-point
int send_in_mode(const void* site, const char* name, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, mpi::SendMode mode, MPI_Request* request) {
  return call(site, name, [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = type_of(x.c, datatype, "datatype");
    if (request) need(request, "request");
    Request* r = mode == mpi::SendMode::standard
                     ? (request ? x.rk.isend_held(typed(x, buf, count, t), t, dest, tag, cm)
                                : x.rk.isend(typed(x, buf, count, t), t, dest, tag, cm))
                     : x.rk.isend_mode(typed(x, buf, count, t), t, dest, tag, cm, mode, request != nullptr);
    if (request) {
      *request = add_request(x.c, r);
      return;
    }
    Status st;
    x.run.block(wait_one(x.rk, r, &st));
  });
}

void new_type(Ctx& x, MPI_Datatype* newtype, mpi::TypeRef t) {
  need(newtype, "newtype");
  auto free = std::find(x.c.types.begin(), x.c.types.end(), nullptr);
  if (free == x.c.types.end()) free = x.c.types.insert(free, nullptr);
  *free = std::move(t);
  *newtype = kDerivedType | static_cast<int>(free - x.c.types.begin());
}

Task<void> made_comm(Task<const mpi::Communicator*> t, const mpi::Communicator** out) { *out = co_await std::move(t); }
// A communicator constructor: a collective on `comm` whose result is a new handle.
template <typename Make>
void construct(Ctx& x, MPI_Comm comm, MPI_Comm* newcomm, Make make) {
  const mpi::Communicator& c = x.run.comm(comm, "comm");
  need(newcomm, "newcomm");
  const std::int64_t seq = x.run.next_instance(x.c, c);
  const mpi::Communicator* made = nullptr;
  x.run.block(made_comm(make(c, seq, std::string(x.name) + " #" + std::to_string(seq) + " of " + c.name()), &made));
  *newcomm = x.run.add_comm(made);
}
}  // namespace
}  // namespace mpisim::program

using namespace mpisim;
using program::call;
using program::Ctx;
using program::Param;
using mpi::Request;
using sim::SimTime;
namespace coll = mpisim::coll;

extern "C" {

// A program built by mpisim cc calls this instead of exit() (the linker's --wrap).
[[noreturn]] void __wrap_exit(int status) {  // NOLINT: the name --wrap=exit gives
  program::g_run->end_rank(program::Ending::exited, status);
}

// ---- the environment
int MPI_Init(int* argc, char*** argv) {
  (void)argc, (void)argv;
  return call(__builtin_return_address(0), "MPI_Init", [](Ctx& x) {
    if (x.c.initialized)
      throw mpi::MpiError(mpi::ErrorClass::other, "", "MPI_Init was called twice",
                          "MPI-4.1 §11.2.1: MPI may be initialized once per process");
    x.c.initialized = true;
  });
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  (void)argc, (void)argv;
  return call(__builtin_return_address(0), "MPI_Init_thread", [&](Ctx& x) {
    if (x.c.initialized)
      throw mpi::MpiError(mpi::ErrorClass::other, "", "MPI_Init_thread was called after MPI was initialized",
                          "MPI-4.1 §11.2.1: MPI may be initialized once per process");
    program::need(provided, "provided");
    // Each rank is one fiber: any level up to serialized holds; multiple is
    // granted as serialized, as an MPI without thread support does.
    *provided = std::min(required, MPI_THREAD_SERIALIZED);
    x.c.initialized = true;
  });
}

int MPI_Finalize(void) {
  return call(__builtin_return_address(0), "MPI_Finalize", [](Ctx& x) { x.c.finalized = true; });
}

int MPI_Initialized(int* flag) {
  return call(__builtin_return_address(0), "MPI_Initialized", [&](Ctx& x) {
    program::need(flag, "flag");
    *flag = x.c.initialized ? 1 : 0;
  });
}

int MPI_Finalized(int* flag) {
  return call(__builtin_return_address(0), "MPI_Finalized", [&](Ctx& x) {
    program::need(flag, "flag");
    *flag = x.c.finalized ? 1 : 0;
  });
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  return call(__builtin_return_address(0), "MPI_Abort", [&](Ctx& x) {
    const char* name = comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "comm";
    throw program::ProgramStop{x.r, errorcode, true,
                               "called MPI_Abort(" + std::string(name) + ", " + std::to_string(errorcode) + ")"};
  });
}

int MPI_Query_thread(int* provided) {
  return call(__builtin_return_address(0), "MPI_Query_thread", [&](Ctx&) {
    program::need(provided, "provided");
    *provided = MPI_THREAD_SERIALIZED;
  });
}

int MPI_Is_thread_main(int* flag) {
  return call(__builtin_return_address(0), "MPI_Is_thread_main", [&](Ctx&) {
    program::need(flag, "flag");
    *flag = 1;
  });
}

double MPI_Wtime(void) { return static_cast<double>(program::g_run->world().engine().now().ps) * 1e-12; }
double MPI_Wtick(void) { return 1e-12; }

int MPI_Get_processor_name(char* name, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Get_processor_name", [&](Ctx& x) {
    program::need(name, "name");
    program::need(resultlen, "resultlen");
    const std::string n = "node" + std::to_string(x.run.world().node_of(x.r));
    std::memcpy(name, n.c_str(), n.size() + 1);
    *resultlen = static_cast<int>(n.size());
  });
}

int MPI_Get_version(int* version, int* subversion) {
  return call(__builtin_return_address(0), "MPI_Get_version", [&](Ctx&) {
    program::need(version, "version");
    program::need(subversion, "subversion");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
  });
}

int MPI_Error_class(int errorcode, int* errorclass) {
  return call(__builtin_return_address(0), "MPI_Error_class", [&](Ctx&) {
    program::need(errorclass, "errorclass");
    *errorclass = errorcode;
  });
}

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Error_string", [&](Ctx&) {
    program::need(string, "string");
    program::need(resultlen, "resultlen");
    const std::string s = mpi::error_class_name(static_cast<mpi::ErrorClass>(errorcode));
    const std::size_t n = std::min<std::size_t>(s.size(), MPI_MAX_ERROR_STRING - 1);
    std::memcpy(string, s.data(), n);
    string[n] = '\0';
    *resultlen = static_cast<int>(n);
  });
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  return call(__builtin_return_address(0), "MPI_Comm_rank", [&](Ctx& x) {
    const auto& c = x.run.comm(comm, "comm");
    program::need(rank, "rank");
    *rank = c.rank_of(x.r, x.r);
  });
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  return call(__builtin_return_address(0), "MPI_Comm_size", [&](Ctx& x) {
    const auto& c = x.run.comm(comm, "comm");
    program::need(size, "size");
    *size = static_cast<int>(c.size());
  });
}

// ---- communicators

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_dup", [&](Ctx& x) {
    program::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::dup(x.rk, c, seq, std::move(label));
    });
  });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_split", [&](Ctx& x) {
    program::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::split(x.rk, c, seq, color, key, std::move(label));
    });
  });
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_split_type", [&](Ctx& x) {
    mpi::check_info(info);
    const int color = mpi::split_type_color(split_type, x.run.world().node_of(x.r));
    program::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::split(x.rk, c, seq, color, key, std::move(label));
    });
  });
}

int MPI_Comm_free(MPI_Comm* comm) {
  return call(__builtin_return_address(0), "MPI_Comm_free", [&](Ctx& x) {
    program::need(comm, "comm");
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
      throw mpi::MpiError(mpi::ErrorClass::comm, "comm", "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed",
                          "MPI-4.1 §7.4.3: MPI_Comm_free takes a communicator the program made");
    x.run.comm(*comm, "comm");  // a valid handle
    x.c.comms[static_cast<std::size_t>(*comm & program::kIndexMask)] = nullptr;  // pending operations still complete
    *comm = MPI_COMM_NULL;
  });
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  return call(__builtin_return_address(0), "MPI_Comm_compare", [&](Ctx& x) {
    program::need(result, "result");
    *result = static_cast<int>(mpi::compare(x.run.comm(comm1, "comm1"), x.run.comm(comm2, "comm2"), x.r));
  });
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  return call(__builtin_return_address(0), "MPI_Comm_test_inter", [&](Ctx& x) {
    program::need(flag, "flag");
    *flag = x.run.comm(comm, "comm").is_inter() ? 1 : 0;
  });
}

// ---- point-to-point
int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return program::send_in_mode(__builtin_return_address(0), "MPI_Send", buf, count, datatype, dest, tag, comm, mpi::SendMode::standard, nullptr);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return program::send_in_mode(__builtin_return_address(0), "MPI_Ssend", buf, count, datatype, dest, tag, comm, mpi::SendMode::synchronous,
                               nullptr);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return program::send_in_mode(__builtin_return_address(0), "MPI_Rsend", buf, count, datatype, dest, tag, comm, mpi::SendMode::ready, nullptr);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return program::send_in_mode(__builtin_return_address(0), "MPI_Isend", buf, count, datatype, dest, tag, comm, mpi::SendMode::standard, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return program::send_in_mode(__builtin_return_address(0), "MPI_Issend", buf, count, datatype, dest, tag, comm, mpi::SendMode::synchronous,
                               request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return program::send_in_mode(__builtin_return_address(0), "MPI_Irsend", buf, count, datatype, dest, tag, comm, mpi::SendMode::ready, request);
}

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Recv", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = program::type_of(x.c, datatype, "datatype");
    Request* r = x.rk.irecv(program::typed(x, buf, count, t), t, source, tag, cm);
    mpi::Status st;
    x.run.block(program::wait_one(x.rk, r, &st));
    program::put_status(status, st);
  });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Irecv", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = program::type_of(x.c, datatype, "datatype");
    program::need(request, "request");
    *request = program::add_request(x.c, x.rk.irecv_held(program::typed(x, buf, count, t), t, source, tag, cm));
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Sendrecv", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto st_t = program::type_of(x.c, sendtype, "sendtype");
    auto rt_t = program::type_of(x.c, recvtype, "recvtype");
    auto [recv, send] = x.rk.isendrecv(program::typed(x, sendbuf, sendcount, st_t), st_t, dest, sendtag,
                                       program::typed(x, recvbuf, recvcount, rt_t), rt_t, source, recvtag, cm);
    mpi::Status st;
    x.run.block(program::wait_two(x.rk, recv, send, &st));
    program::put_status(status, st);
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Sendrecv_replace", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    auto t = program::type_of(x.c, datatype, "datatype");
    mpi::Status st;
    auto task = x.rk.sendrecv_replace(program::typed(x, buf, count, t), t, dest, sendtag, source, recvtag, cm);
    x.run.block(program::status_of(std::move(task), &st));
    program::put_status(status, st);
  });
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Wait", [&](Ctx& x) {
    program::need(request, "request");
    Request* r = std::exchange(program::request_of(x.c, *request, "request"), nullptr);
    *request = MPI_REQUEST_NULL;
    mpi::Status st;
    x.run.block(program::wait_one(x.rk, r, &st));
    program::put_status(status, st);
  });
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Waitall", [&](Ctx& x) {
    if (count < 0)
      throw mpi::MpiError(mpi::ErrorClass::count, "count", "count = " + std::to_string(count) + " is negative",
                          "MPI-4.1 §3.7.5: count is the number of requests");
    if (count > 0) program::need(array_of_requests, "array_of_requests");
    auto& reqs = x.c.scratch_requests;
    auto& sts = x.c.scratch_statuses;
    reqs.assign(static_cast<std::size_t>(count), nullptr);
    sts.assign(static_cast<std::size_t>(count), mpi::Status{});
    for (int i = 0; i < count; ++i)
      reqs[static_cast<std::size_t>(i)] = program::request_of(x.c, array_of_requests[i], "array_of_requests");
    for (int i = 0; i < count; ++i) {
      if (array_of_requests[i] != MPI_REQUEST_NULL)
        program::request_of(x.c, array_of_requests[i], "array_of_requests") = nullptr;
      array_of_requests[i] = MPI_REQUEST_NULL;
    }
    x.run.block(program::wait_all(x.rk, reqs, sts));
    if (array_of_statuses != MPI_STATUSES_IGNORE && array_of_statuses != nullptr)
      for (int i = 0; i < count; ++i) program::put_status(&array_of_statuses[i], sts[static_cast<std::size_t>(i)]);
  });
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Waitany", [&](Ctx& x) {
    program::need(index, "index");
    if (count > 0) program::need(array_of_requests, "array_of_requests");
    auto& reqs = x.c.scratch_requests;
    reqs.assign(static_cast<std::size_t>(std::max(count, 0)), nullptr);
    for (int i = 0; i < count; ++i)
      reqs[static_cast<std::size_t>(i)] = program::request_of(x.c, array_of_requests[i], "array_of_requests");
    mpi::Status st;
    x.run.block(program::wait_any(x.rk, reqs, &st, index));
    if (*index != MPI_UNDEFINED) {
      program::request_of(x.c, array_of_requests[*index], "array_of_requests") = nullptr;
      array_of_requests[*index] = MPI_REQUEST_NULL;
    }
    program::put_status(status, st);
  });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Test", [&](Ctx& x) {
    program::need(request, "request");
    program::need(flag, "flag");
    Request*& slot = program::request_of(x.c, *request, "request");
    mpi::Status st;
    const bool done = x.rk.test(slot, &st);
    *flag = done ? 1 : 0;
    if (!done) return program::poll_failed(x);
    *request = MPI_REQUEST_NULL;
    program::put_status(status, st);
  });
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]) {
  return call(__builtin_return_address(0), "MPI_Testall", [&](Ctx& x) {
    program::need(flag, "flag");
    if (count > 0) program::need(array_of_requests, "array_of_requests");
    auto& reqs = x.c.scratch_requests;
    auto& sts = x.c.scratch_statuses;
    reqs.assign(static_cast<std::size_t>(std::max(count, 0)), nullptr);
    sts.assign(reqs.size(), mpi::Status{});
    for (int i = 0; i < count; ++i)
      reqs[static_cast<std::size_t>(i)] = program::request_of(x.c, array_of_requests[i], "array_of_requests");
    const bool done = x.rk.test_all(reqs, sts);
    *flag = done ? 1 : 0;
    if (!done) return program::poll_failed(x);
    for (int i = 0; i < count; ++i) {
      if (array_of_requests[i] != MPI_REQUEST_NULL)
        program::request_of(x.c, array_of_requests[i], "array_of_requests") = nullptr;
      array_of_requests[i] = MPI_REQUEST_NULL;
      if (array_of_statuses != MPI_STATUSES_IGNORE && array_of_statuses != nullptr)
        program::put_status(&array_of_statuses[i], sts[static_cast<std::size_t>(i)]);
    }
  });
}

int MPI_Request_free(MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Request_free", [&](Ctx& x) {
    program::need(request, "request");
    x.rk.free_request(program::request_of(x.c, *request, "request"));
    *request = MPI_REQUEST_NULL;
  });
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Probe", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    mpi::Status st;
    x.run.block(program::probe(x.rk, source, tag, cm, &st));
    program::put_status(status, st);
  });
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return call(__builtin_return_address(0), "MPI_Iprobe", [&](Ctx& x) {
    const auto& cm = x.run.comm(comm, "comm");
    program::need(flag, "flag");
    auto st = x.rk.iprobe(source, tag, cm);
    *flag = st ? 1 : 0;
    if (!st) return program::poll_failed(x);
    program::put_status(status, *st);
  });
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return call(__builtin_return_address(0), "MPI_Get_count", [&](Ctx& x) {
    program::need(status, "status");
    program::need(count, "count");
    auto t = program::type_of(x.c, datatype, "datatype");
    *count = static_cast<int>(mpi::get_count(program::status_bytes(status), *t));
  });
}

// ---- collectives
int MPI_Barrier(MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Barrier", [&](Ctx& x) { program::collective(x, coll::Collective::barrier, comm, [](auto&) {}); });
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ibarrier",
              [&](Ctx& x) { program::collective(x, coll::Collective::barrier, comm, [](auto&) {}, request); });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Bcast", [&](Ctx& x) {
    program::collective(x, coll::Collective::bcast, comm, [&](program::CArgs& a) {
      a.buffer(Param::buffer, buffer).integer(Param::count, count).type(Param::datatype, datatype);
      a.integer(Param::root, root);
    });
  });
}
int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ibcast", [&](Ctx& x) {
    program::collective(
        x, coll::Collective::bcast, comm,
        [&](program::CArgs& a) {
          a.buffer(Param::buffer, buffer).integer(Param::count, count).type(Param::datatype, datatype);
          a.integer(Param::root, root);
        },
        request);
  });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Gather", [&](Ctx& x) {
    program::collective(x, coll::Collective::gather, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  });
}
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Igather", [&](Ctx& x) {
    program::collective(x, coll::Collective::gather, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                        request);
  });
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Gatherv", [&](Ctx& x) {
    program::collective(x, coll::Collective::gatherv, comm, [&](program::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).integer(Param::sendcount, sendcount).type(Param::sendtype, sendtype);
      a.buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts).ints(Param::displs, displs);
      a.type(Param::recvtype, recvtype).integer(Param::root, root);
    });
  });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Scatter", [&](Ctx& x) {
    program::collective(x, coll::Collective::scatter, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  });
}
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iscatter", [&](Ctx& x) {
    program::collective(x, coll::Collective::scatter, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                        request);
  });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Scatterv", [&](Ctx& x) {
    program::collective(x, coll::Collective::scatterv, comm, [&](program::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::displs, displs);
      a.type(Param::sendtype, sendtype).buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount);
      a.type(Param::recvtype, recvtype).integer(Param::root, root);
    });
  });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Allgather", [&](Ctx& x) {
    program::collective(x, coll::Collective::allgather, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iallgather", [&](Ctx& x) {
    program::collective(x, coll::Collective::allgather, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request);
  });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Allgatherv", [&](Ctx& x) {
    program::collective(x, coll::Collective::allgatherv, comm, [&](program::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).integer(Param::sendcount, sendcount).type(Param::sendtype, sendtype);
      a.buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts).ints(Param::displs, displs);
      a.type(Param::recvtype, recvtype);
    });
  });
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Alltoall", [&](Ctx& x) {
    program::collective(x, coll::Collective::alltoall, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
  });
}
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ialltoall", [&](Ctx& x) {
    program::collective(x, coll::Collective::alltoall, comm,
                        program::exchange_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype), request);
  });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Alltoallv", [&](Ctx& x) {
    program::collective(x, coll::Collective::alltoallv, comm, [&](program::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).ints(Param::sendcounts, sendcounts).ints(Param::sdispls, sdispls);
      a.type(Param::sendtype, sendtype).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
      a.ints(Param::rdispls, rdispls).type(Param::recvtype, recvtype);
    });
  });
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Reduce", [&](Ctx& x) {
    program::collective(x, coll::Collective::reduce, comm,
                        program::reduce_args(sendbuf, recvbuf, count, datatype, op, root));
  });
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Ireduce", [&](Ctx& x) {
    program::collective(x, coll::Collective::reduce, comm,
                        program::reduce_args(sendbuf, recvbuf, count, datatype, op, root), request);
  });
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Allreduce", [&](Ctx& x) {
    program::collective(x, coll::Collective::allreduce, comm,
                        program::reduce_args(sendbuf, recvbuf, count, datatype, op));
  });
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iallreduce", [&](Ctx& x) {
    program::collective(x, coll::Collective::allreduce, comm,
                        program::reduce_args(sendbuf, recvbuf, count, datatype, op), request);
  });
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Reduce_scatter", [&](Ctx& x) {
    program::collective(x, coll::Collective::reduce_scatter, comm, [&](program::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).ints(Param::recvcounts, recvcounts);
      a.type(Param::datatype, datatype).op(op);
    });
  });
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Reduce_scatter_block", [&](Ctx& x) {
    program::collective(x, coll::Collective::reduce_scatter_block, comm, [&](program::CArgs& a) {
      a.buffer(Param::sendbuf, sendbuf).buffer(Param::recvbuf, recvbuf).integer(Param::recvcount, recvcount);
      a.type(Param::datatype, datatype).op(op);
    });
  });
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Scan", [&](Ctx& x) {
    program::collective(x, coll::Collective::scan, comm, program::reduce_args(sendbuf, recvbuf, count, datatype, op));
  });
}
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iscan", [&](Ctx& x) {
    program::collective(x, coll::Collective::scan, comm, program::reduce_args(sendbuf, recvbuf, count, datatype, op),
                        request);
  });
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Exscan", [&](Ctx& x) {
    program::collective(x, coll::Collective::exscan, comm,
                        program::reduce_args(sendbuf, recvbuf, count, datatype, op));
  });
}
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  return call(__builtin_return_address(0), "MPI_Iexscan", [&](Ctx& x) {
    program::collective(x, coll::Collective::exscan, comm,
                        program::reduce_args(sendbuf, recvbuf, count, datatype, op), request);
  });
}

// ---- datatypes
int MPI_Type_size(MPI_Datatype datatype, int* size) {
  return call(__builtin_return_address(0), "MPI_Type_size", [&](Ctx& x) {
    program::need(size, "size");
    const auto s = program::type_of(x.c, datatype, "datatype")->size();
    *size = s > INT32_MAX ? MPI_UNDEFINED : static_cast<int>(s);
  });
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return call(__builtin_return_address(0), "MPI_Type_get_extent", [&](Ctx& x) {
    program::need(lb, "lb");
    program::need(extent, "extent");
    auto t = program::type_of(x.c, datatype, "datatype");
    *lb = t->lb();
    *extent = t->extent();
  });
}


int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_contiguous", [&](Ctx& x) {
    program::new_type(x, newtype, mpi::type_contiguous(count, program::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_vector", [&](Ctx& x) {
    program::new_type(x, newtype,
                      mpi::type_vector(count, blocklength, stride, program::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_commit", [&](Ctx& x) {
    program::need(datatype, "datatype");
    program::type_of(x.c, *datatype, "datatype")->commit();
  });
}

int MPI_Type_free(MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_free", [&](Ctx& x) {
    program::need(datatype, "datatype");
    auto t = program::type_of(x.c, *datatype, "datatype");
    mpi::check_type_free(*t, "datatype");
    x.c.types[static_cast<std::size_t>(*datatype & program::kIndexMask)] = nullptr;
    *datatype = MPI_DATATYPE_NULL;
  });
}

// ---- mpisim.h
void mpisim_compute(double seconds) {
  call(__builtin_return_address(0), "mpisim_compute", [&](Ctx& x) {
    if (!(seconds >= 0) || seconds > 4.6e6)
      throw mpi::MpiError(mpi::ErrorClass::arg, "seconds",
                          "mpisim_compute(" + std::to_string(seconds) + "): expected a time from 0 to 4.6e6 s",
                          "mpisim.h: a computation lasts a nonnegative time");
    x.run.block(program::compute(x.rk, SimTime::from_ps(static_cast<std::int64_t>(seconds * 1e12))));
  });
}

}  // extern "C"
