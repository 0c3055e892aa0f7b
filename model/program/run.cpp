// A C program's run: loading it, a fiber per rank driven by an engine process,
// the globals swapped at every switch, and how the run ends.
#include <dlfcn.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>

#include "model/calls/table.hpp"
#include "model/net/units.hpp"
#include "model/program/runtime.hpp"
#include "sim/input_error.hpp"

namespace mpisim::program {

ProgramRun* g_run = nullptr;

namespace {
std::int64_t cpu_now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
Task<void> computing(mpi::Rank& rk, SimTime d) { co_await rk.compute(d); }
}  // namespace


bool is_program_file(const std::string& path) {
  // Only a regular file is opened: open() of a FIFO waits for a writer (a
  // scenario given as a pipe is refused by the scenario reader, not hung here).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && std::memcmp(magic, "\x7f" "ELF", 4) == 0;
}

Loaded::Loaded(const std::string& path) : path_(path) {
  // dlopen searches the library path for a name without a slash.
  const std::string open = path.find('/') == std::string::npos ? "./" + path : path;
  handle_ = dlopen(open.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* e = dlerror();
    const std::string why = e ? e : "unknown reason";
    // A symbol no library defines: an MPI call mpisim lacks, or a library the
    // program was not linked with.
    constexpr std::string_view undefined = "undefined symbol: ";
    if (const std::size_t at = why.find(undefined); at != std::string::npos) {
      const std::string symbol = why.substr(at + undefined.size());
      if (symbol.starts_with("MPI_") || symbol.starts_with("PMPI_"))
        throw sim::InputError(
            path, "the program calls " + symbol + ", which mpisim's MPI library does not have" +
                      (calls::c_declares(symbol) ? "" : " (mpi.h does not declare it; docs/calls.md lists the calls)"));
      throw sim::InputError(path, "cannot load the program: it needs " + symbol +
                                      ", which neither it nor a library it was linked with defines (name the "
                                      "library when linking: mpisim cc ... -lNAME)");
    }
    throw sim::InputError(path, "cannot load the program (" + why + "); a program for mpisim is built by `mpisim cc` "
                                "(mpisim cc prog.c -o prog), not by mpicc");
  }
  main_ = reinterpret_cast<Main>(dlsym(handle_, "main"));
  if (!main_ || !dlsym(handle_, "mpisim_program")) {
    dlclose(handle_);
    handle_ = nullptr;
    throw sim::InputError(path, main_ ? "this shared object was not built by `mpisim cc` (no mpisim_program marker)"
                                      : "the program has no main function");
  }
}

Loaded::~Loaded() {
  if (handle_) dlclose(handle_);
}

std::string source_line(const void* site) {
  static std::map<const void*, std::string> known;  // a deadlock may name the same line for many ranks
  if (!site) return "";
  if (auto it = known.find(site); it != known.end()) return it->second;
  std::string out;
  Dl_info info{};
  if (dladdr(site, &info) && info.dli_fname) {
    // The call instruction ends just before the return address.
    const auto offset = reinterpret_cast<std::uintptr_t>(site) - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    std::string file = info.dli_fname, quoted = "'";
    for (char ch : file) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    quoted += "'";
    char cmd[64];
    std::snprintf(cmd, sizeof cmd, " 0x%zx 2>/dev/null", static_cast<std::size_t>(offset));
    if (FILE* p = popen(("addr2line -f -s -e " + quoted + cmd).c_str(), "r")) {
      char function[512] = "", line[512] = "";
      const bool ok = std::fgets(function, sizeof function, p) && std::fgets(line, sizeof line, p);
      pclose(p);
      auto chomp = [](char* s) { s[std::strcspn(s, "\n")] = '\0'; };
      chomp(function), chomp(line);
      if (char* d = std::strstr(line, " (discriminator")) *d = '\0';
      if (ok && std::strncmp(line, "??", 2) != 0) out = std::string(line) + (std::strcmp(function, "??") ? std::string(" in ") + function : "");
    }
    if (out.empty()) {
      char off[32];
      std::snprintf(off, sizeof off, "+0x%zx", static_cast<std::size_t>(offset));
      const std::string base = file.substr(file.find_last_of('/') + 1);
      out = info.dli_sname ? std::string("in ") + info.dli_sname + " (" + base + off + ")" : base + off;
    }
  }
  return known[site] = out;
}

ProgramRun::ProgramRun(const Loaded& prog, mpi::World& world, const runner::Config& cfg,
                       runner::Result& result, const Options& opt)
    : prog_(prog), world_(world), cfg_(cfg), result_(result), coordinator_(world, cfg.verify),
      stacks_(world.size(), opt.stack_bytes), globals_(prog.handle(), world.size()), ranks_(world.size()), opt_(opt) {
  g_run = this;
  // The library reaches a rank's globals in that rank's copy while another runs.
  mpi::Memory::set_host_translator([](std::uint32_t rank, mpi::Address a, std::int64_t len) {
    return g_run->globals_.locate(rank, static_cast<std::uintptr_t>(a), static_cast<std::size_t>(len));
  });
  install_fault_handler(&stacks_, [](char* out, std::size_t size) {
    ProgramRun* run = g_run;
    if (!run) return;
    const CRank& c = run->ranks_[run->current_];
    std::snprintf(out, size, "in rank %u%s%s", run->current_, c.call ? ", in " : " (in the program, outside MPI)",
                  c.call ? c.call : "");
  });
}

ProgramRun::~ProgramRun() {
  for (CRank& c : ranks_) {  // the labelled streams: what is left of their lines
    if (c.out) std::fclose(c.out);
    if (c.err) std::fclose(c.err);
  }
  mpi::Memory::set_host_translator(nullptr);
  uninstall_fault_handler();
  g_run = nullptr;
}

void ProgramRun::rank_main(Fiber& f) {
  ProgramRun& run = *g_run;
  CRank& c = run.current();
  (void)f;
  const int status = run.prog_.main()(static_cast<int>(c.argv.size() - 1), c.argv.data(), environ);
  c.ending = Ending::returned;
  c.status = status;
}

ProgramRun::Acting::Acting(ProgramRun& run, std::uint32_t r)
    : run_(run), current_(run.current_), owner_(run.globals_.owner()) {
  run.current_ = r;
  run.globals_.switch_to(r);
}

ProgramRun::Acting::~Acting() {
  run_.current_ = current_;
  if (owner_ != UINT32_MAX) run_.globals_.switch_to(owner_);
}

void ProgramRun::resume(std::uint32_t r) {
  CRank& c = ranks_[r];
  current_ = r;
  globals_.switch_to(r);
  if (!c.fiber.started()) {
    stacks_.prepare(r);
    c.args.insert(c.args.begin(), prog_.path());
    c.args.insert(c.args.end(), opt_.args.begin(), opt_.args.end());
    for (auto& a : c.args) c.argv.push_back(a.data());
    c.argv.push_back(nullptr);
    c.handles.set_environment(mpi::environment_info(
        prog_.path(), opt_.args, static_cast<int>(world_.size())));
    c.fiber.start(stacks_.low(r), stacks_.size(), &ProgramRun::rank_main);
    if (opt_.host_compute) c.cpu_mark_ns = cpu_now_ns();
  }
  std::FILE* const out = stdout;
  std::FILE* const err = stderr;
  if (opt_.label_output) {
    label_streams(c, r);
    stdout = c.out;  // the program's printf and puts go to its rank's stream while it runs
    stderr = c.err;
  }
  on_fiber_ = true;
  c.fiber.resume();
  on_fiber_ = false;
  stdout = out;
  stderr = err;
  if (!stacks_.intact(r))
    throw ProgramFault{r, "overflowed its stack of " + std::to_string(stacks_.size() >> 10) +
                              " KiB (--stack-size sets it); the stacks are unguarded because " +
                              stacks_.unguarded_reason() + ", so memory near it may have been overwritten"};
}

namespace {

// A stream that writes whole lines, each after its rank's label, to another.
struct Labelled {
  std::FILE* to;
  std::string label;
  std::string line;  // the part of a line not yet ended
};

ssize_t write_labelled(void* cookie, const char* data, std::size_t size) {
  auto* l = static_cast<Labelled*>(cookie);
  for (std::size_t i = 0; i < size; ++i) {
    l->line += data[i];
    if (data[i] != '\n') continue;
    std::fputs(l->label.c_str(), l->to);
    std::fwrite(l->line.data(), 1, l->line.size(), l->to);
    l->line.clear();
  }
  return static_cast<ssize_t>(size);
}

int close_labelled(void* cookie) {
  auto* l = static_cast<Labelled*>(cookie);
  if (!l->line.empty()) {  // a last line without its newline
    std::fputs(l->label.c_str(), l->to);
    std::fwrite(l->line.data(), 1, l->line.size(), l->to);
    std::fputc('\n', l->to);
  }
  std::fflush(l->to);
  delete l;
  return 0;
}

std::FILE* labelled(std::FILE* to, std::uint32_t r) {
  auto* l = new Labelled{to, "[" + std::to_string(r) + "] ", {}};
  cookie_io_functions_t io{};
  io.write = write_labelled;
  io.close = close_labelled;
  std::FILE* f = fopencookie(l, "w", io);
  if (!f) {
    delete l;
    throw std::runtime_error("cannot make a labelled stream for rank " + std::to_string(r));
  }
  setvbuf(f, nullptr, _IOLBF, BUFSIZ);
  return f;
}

}  // namespace

void ProgramRun::label_streams(CRank& c, std::uint32_t r) {
  if (!c.out) c.out = labelled(stdout, r);
  if (!c.err) c.err = labelled(stderr, r);
}

sim::ProcessTask ProgramRun::run_rank(std::uint32_t r) {
  CRank& c = ranks_[r];
  for (;;) {
    resume(r);
    if (c.error) std::rethrow_exception(std::exchange(c.error, nullptr));
    if (c.ending != Ending::running) {
      if (c.cpu_mark_ns >= 0) {  // the code after the last call (host compute)
        const std::int64_t ns = cpu_now_ns() - c.cpu_mark_ns;
        if (ns > 0) co_await world_.rank(r).compute(SimTime::from_ps(ns * 1000));
      }
      break;
    }
    // A failure of what the rank waited for goes back to its call (which may
    // return it to the program, MPI_ERRORS_RETURN, or stop the rank).
    try {
      co_await std::move(c.pending);
    } catch (...) {
      c.pending_error = std::current_exception();
    }
    c.pending = Task<void>{};
  }
  const char* how = c.ending == Ending::exited ? "called exit" : "returned from main";
  if (c.status != 0)
    throw ProgramStop{r, c.status, false, std::string(how) + " with status " + std::to_string(c.status)};
  if (c.initialized && !c.finalized)
    throw mpi::MpiError(mpi::ErrorClass::other, "", std::string(how) + " without calling MPI_Finalize",
                        "MPI-4.1 §11.2.2: every process that initialized MPI must call MPI_Finalize before it exits");
}

void ProgramRun::block(Task<void> t) {
  if (!on_fiber_)
    throw mpi::MpiError(mpi::ErrorClass::other, "",
                        "a call that waits was made from a user operation's function, which runs inside an MPI call",
                        "MPI-4.1 §6.9.5: a user function may not call MPI, MPI_Abort aside");
  CRank& c = current();
  c.pending = std::move(t);
  c.fiber.yield();
  if (c.pending_error) std::rethrow_exception(std::exchange(c.pending_error, nullptr));
}

void ProgramRun::fail(std::exception_ptr e) {
  if (!on_fiber_) std::rethrow_exception(e);  // inside a user operation: up through the algorithm to the engine
  CRank& c = current();
  c.error = std::move(e);
  c.fiber.yield();  // the engine stops the run: never resumed
  std::abort();
}

void ProgramRun::end_rank(Ending how, int status) {
  if (!on_fiber_)
    throw ProgramStop{current_, status, false, "called exit(" + std::to_string(status) + ") in a user operation"};
  CRank& c = current();
  c.ending = how;
  c.status = status;
  c.fiber.yield();  // never resumed
  std::abort();
}

void ProgramRun::charge_host_time() {
  if (!on_fiber_) return;  // a user operation's time is the algorithm's
  CRank& c = current();
  const std::int64_t ns = c.cpu_mark_ns < 0 ? 0 : cpu_now_ns() - c.cpu_mark_ns;
  c.cpu_mark_ns = -1;
  if (ns > 0) block(computing(world_.rank(current_), SimTime::from_ps(ns * 1000)));
}

void ProgramRun::catch_up() {
  charge_host_time();
  current().cpu_mark_ns = cpu_now_ns();
}

void ProgramRun::call_begins(const char* name) {
  CRank& c = current();
  c.call = name;
  c.call_start = world_.engine().now();
  world_.set_in_mpi(current_, true);
}

void ProgramRun::call_ends(const char* algorithm, const Request* started) {
  CRank& c = current();
  const SimTime now = world_.engine().now();
  if (result_.trace.level() == sim::TraceLevel::summary) {
    result_.trace.count_call(c.call, c.call_start, now);
  } else {
    const std::int64_t record =
        result_.trace.record_call(sim::CallRecord{current_, -1, c.call, c.call_start, now, "{}", algorithm});
    if (started) world_.set_trace_call(started, record);
  }
  world_.set_in_mpi(current_, false);
  c.call = nullptr;
  if (opt_.host_compute) c.cpu_mark_ns = cpu_now_ns();  // the program's code runs from here
}

void ProgramRun::resume_call(const CRank::CallState& outer) {
  CRank& c = current();
  c.call = outer.call;
  c.site = outer.site;
  c.about = outer.about;
  c.call_start = outer.call_start;
  world_.set_in_mpi(current_, true);
}

const mpi::Communicator& ProgramRun::comm(int handle, const char* argument) {
  CRank& c = current();
  const mpi::Communicator& found = c.handles.comm(handle, world_, argument);
  if (c.about == 0) c.about = handle;  // the first communicator the call names: its error handler applies
  return found;
}

int ProgramRun::errhandler(int comm_handle) { return current().handles.errhandler(comm_handle); }

void ProgramRun::set_errhandler(int comm_handle, int errhandler) { current().handles.set_errhandler(comm_handle, errhandler); }

int ProgramRun::add_comm(const mpi::Communicator* made) { return current().handles.add_comm(made); }

std::int64_t ProgramRun::next_instance(CRank& c, const mpi::Communicator& comm) {
  if (&comm == &world_.comm_world()) return c.world_calls++;
  const std::uint32_t ctx = comm.is_self() ? 0xffffffffu : comm.base_context();
  for (auto& [k, n] : c.calls_on)
    if (k == ctx) return n++;
  c.calls_on.emplace_back(ctx, 1);
  return 0;
}

const coll::Algorithm& ProgramRun::algorithm_for(const char* call, coll::CollArgs& a, std::uint32_t caller) {
  const coll::Algorithm* named =
      coll::find_named_algorithm(a.kind, coll::named_algorithm(cfg_.algorithms, call, a.kind), call);
  if (!named && cfg_.selection) named = cfg_.selection->choose(a, call, world_, caller);
  const coll::Algorithm* alg = &coll::choose_algorithm(named, a, call);
  result_.used_algorithm(call, alg->name);
  return *alg;
}

namespace {

// The program's ranks as the runner's front-end.
class ProgramRanks final : public runner::FrontEnd {
 public:
  ProgramRanks(ProgramRun& run, ProgramResult& out) : run_(run), out_(out) {}

  sim::ProcessTask rank_program(std::uint32_t r) override { return run_.run_rank(r); }
  runner::RankPlace place(std::uint32_t r) const override {
    runner::RankPlace p;
    const CRank& c = run_.ranks()[r];
    p.call = c.call ? c.call : "";
    if (c.call) p.where = source_line(c.site);
    return p;
  }
  bool classify(const std::exception_ptr& e, const runner::RankPlace&, sim::Diagnostic& d) const override {
    try {
      std::rethrow_exception(e);
    } catch (const ProgramFault& f) {
      d.code = "STACK_OVERFLOW";
      d.process = f.rank;
      d.message = "rank " + std::to_string(f.rank) + " " + f.what;
      return true;
    } catch (const ProgramStop& s) {
      d.code = s.abort ? "MPI_ABORT" : "EXIT_STATUS";
      d.call = s.abort ? "MPI_Abort" : "";
      d.message = s.how + "; the run stopped there, as mpiexec stops every process of the job";
      out_.exit_status = s.status;
      return true;
    } catch (...) {
      return false;
    }
  }
  const coll::Coordinator& coordinator() const override { return run_.coordinator(); }
  void abandon() override { run_.world().abandon_activities(); }

 private:
  ProgramRun& run_;
  ProgramResult& out_;
};

}  // namespace

ProgramResult run_program(const Loaded& program, net::Network& net, const runner::Config& given,
                          const Options& opt) {
  runner::Config cfg = given;
  cfg.payload = mpi::PayloadMode::data;
  ProgramResult out;
  // A rank of a program costs its state in the library and, measured, about 10.7
  // KB of stack, fiber and tables (705 MB for a 65,536-rank allreduce), charged as
  // 12 KiB.
  constexpr std::int64_t kProgramRankBytes = 12 * 1024;
  runner::WorldRun wr(net, cfg, out.run, kProgramRankBytes, "the rank's stack and fiber of a C program");
  if (wr.refused()) return out;
  mpi::World& world = wr.world();
  for (std::uint32_t r = 0; r < world.size(); ++r) world.rank(r).memory().use_host_memory(r);
  {
    ProgramRun run(program, world, wr.config(), out.run, opt);
    ProgramRanks ranks(run, out);
    wr.run(ranks);
    out.stacks_guarded = run.stacks().guarded();
    out.unguarded_reason = run.stacks().unguarded_reason();
  }
  return out;
}

}  // namespace mpisim::program
