// What every front-end's run shares: the budget, the engine's limits, spawning
// the ranks, running, and how the run ended.
#include "model/runner/run.hpp"

#include <algorithm>

#include "model/coll/registry.hpp"
#include "model/net/units.hpp"
#include "sim/wait_for_graph.hpp"

namespace mpisim::runner {
namespace {

using mpi::MpiError;
using sim::SimTime;

// A description of every blocked rank and the cycle among them, as a diagnostic.
sim::Diagnostic deadlock_diagnostic(mpi::World& world, sim::Engine& engine, const FrontEnd& fe) {
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
      const RankPlace p = fe.place(r);
      d.detail.push_back("rank " + std::to_string(r) + " blocked in " + (p.call.empty() ? "?" : p.call) +
                         (p.where.empty() ? "" : " (" + p.where + ")") + " waiting for " +
                         (what.empty() ? "a completion" : what));
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
  if (world.standard_sends_synchronous())
    msg += "; standard sends were run synchronously (--send-mode sync): each completes only once matched, so a "
           "program that is correct only thanks to buffering deadlocks";
  d.message = msg;
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

// Every rank's program ended with communication left undone: messages never
// received, requests never completed or freed.
sim::Diagnostic leftover_diagnostic(const mpi::World::Leftovers& left, sim::Engine& engine) {
  sim::Diagnostic d;
  d.severity = "error";
  d.code = "UNFINISHED_COMMUNICATION";
  d.time = engine.now();
  d.rule = "MPI-4.1 §11.2.2: before a process finishes, the communication it takes part in must be complete: every "
           "request completed by a wait or a test, or freed, and every message it sends received";
  auto plural = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string what;
  if (left.messages) what = plural(left.messages, "message was", "messages were") + " never received";
  if (left.requests)
    what += (what.empty() ? "" : ", and ") + plural(left.requests, "request was", "requests were") +
            " never completed or freed";
  d.message = what + " when the programs ended" + (left.lines.empty() ? "" : " (" + left.lines.front() + ")");
  d.detail = left.lines;
  const std::size_t total = left.messages + left.requests;
  if (total > left.lines.size()) d.detail.push_back("... and " + std::to_string(total - left.lines.size()) + " more");
  return d;
}

}  // namespace

std::string events_limit_text(std::uint64_t limit) {
  return "the run reached the limit of " + std::to_string(limit) +
         " events and interpreted steps (--max-events or the scenario's limits.max_events set it; by default "
         "10^8 + 10^4 per rank)";
}

void conclude(mpi::World& world, sim::Engine& engine, const Config& cfg, Result& res, const FrontEnd& fe) {
  if (const auto& f = engine.failure()) {
    const std::uint32_t r = f->process;
    const RankPlace p = fe.place(r);
    sim::Diagnostic d;
    d.severity = "error";
    d.process = r;
    d.time = f->time;
    d.call = p.call == "compute" ? "" : p.call;
    d.step = p.step;
    std::string where = p.where.empty() ? "" : " (" + p.where + ")";
    try {
      if (fe.classify(f->error, p, d)) {
        res.trace.record_diagnostic(std::move(d));
        if (res.outcome == Outcome::clean) res.outcome = Outcome::erroneous;
        return;
      }
      std::rethrow_exception(f->error);
    } catch (const mpi::Aborted& a) {
      d.code = "MPI_ABORT";
      d.call = "MPI_Abort";
      d.message = a.how + where +
                  "; the run stopped there, as mpiexec stops every process of the job";
      d.rule = "MPI-4.1 §11.3: MPI_Abort makes a best attempt to abort all tasks of the group of comm";
      res.outcome = Outcome::erroneous;
      res.exit_status = a.errorcode;
    } catch (const MpiError& e) {
      d.code = mpi::error_class_name(e.error_class());
      d.argument = e.argument();
      d.message = e.what() + where;
      d.rule = e.rule();
      res.outcome = Outcome::erroneous;
    } catch (const coll::AlgorithmError& e) {
      d.code = "ALGORITHM_ERROR";
      d.message = e.what() + where;
      d.rule = "mpisim: the algorithm a call is given (--algorithm, a step's \"algorithm\", the choice of a "
               "--selection file) must exist in mpisim for it and be able to run it";
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
    d.message = !time ? events_limit_text(cfg.max_events)
                : cfg.max_sim_time_ps && cfg.max_sim_time_ps < net::kLongestTime
                    ? "the run reached --max-sim-time " + std::to_string(cfg.max_sim_time_ps) +
                          " ps of virtual time and was stopped there"
                    : "the run's virtual time passed 2^62 ps (about 53 days), the longest mpisim simulates: a time "
                      "of the network model or a computation is beyond it";
    res.trace.record_diagnostic(std::move(d));
    res.outcome = Outcome::erroneous;
  } else if (engine.unfinished_count() > 0) {
    res.trace.record_diagnostic(deadlock_diagnostic(world, engine, fe));
    res.outcome = Outcome::erroneous;
  } else if (auto pending = world.pending_activities(); !pending.empty()) {
    res.trace.record_diagnostic(unfinished_diagnostic(pending, engine));
    res.outcome = Outcome::erroneous;
  } else if (auto left = world.leftovers(32); left.messages + left.requests > 0) {
    res.trace.record_diagnostic(leftover_diagnostic(left, engine));
    res.outcome = Outcome::erroneous;
  } else if (auto frees = world.incomplete_frees(32); !frees.empty()) {
    sim::Diagnostic d;
    d.severity = "error";
    d.code = "INCOMPLETE_COMM_FREE";
    d.time = engine.now();
    d.call = "MPI_Comm_free";
    d.message = frees.front() + (frees.size() > 1 ? " (and " + std::to_string(frees.size() - 1) + " more)" : "");
    if (frees.size() > 1) d.detail = frees;
    d.rule = "MPI-4.1 §7.4.3: MPI_Comm_free is collective: every process of the communicator calls it, or none";
    res.trace.record_diagnostic(std::move(d));
    res.outcome = Outcome::erroneous;
  }
  for (const auto& d : res.trace.diagnostics())
    if (d.code == "EXPECT_FAILED" && res.outcome == Outcome::clean) res.outcome = Outcome::erroneous;

}

WorldRun::WorldRun(net::Network& net, const Config& cfg, Result& res, std::int64_t rank_bytes,
                   std::string_view what_costs)
    : net_(net), cfg_(cfg), res_(res) {
  if (cfg_.max_events == 0) cfg_.max_events = default_max_events(cfg_.ranks);
  res_.trace = sim::Trace(cfg_.trace_level);
  res_.ranks = cfg_.ranks;
  res_.payload = cfg_.payload;
  res_.network_kind = std::string(net.model->kind());
  // The ranks' own state must fit the budget before the run starts, so that a run
  // too large for --max-memory is refused at once rather than killed by the system.
  const std::int64_t per_rank = mpi::World::kRankStateBytes + rank_bytes;
  const std::int64_t state = cfg_.ranks * per_rank;
  if (cfg_.max_memory && state > cfg_.max_memory) {
    sim::Diagnostic d;
    d.severity = "error";
    d.code = "LIMIT_MEMORY";
    d.message = std::to_string(cfg_.ranks) + " ranks need about " + net::format_bytes(static_cast<std::uint64_t>(state)) +
                " (" + std::to_string(per_rank) + " bytes per rank: mpisim's own state" +
                (what_costs.empty() ? std::string() : ", " + std::string(what_costs)) +
                ") before any buffer, over --max-memory " + net::format_bytes(static_cast<std::uint64_t>(cfg_.max_memory)) +
                "; the run was not started (a larger --max-memory lets it run, if the machine has the memory)";
    res_.trace.record_diagnostic(std::move(d));
    res_.outcome = Outcome::erroneous;
    return;
  }
  // Without a limit, virtual time stops at 2^62 ps (about 53 days): the models'
  // times saturate there, and no sum of two can wrap.
  engine_.set_limits(cfg_.max_events,
                     SimTime::from_ps(cfg_.max_sim_time_ps ? std::min(cfg_.max_sim_time_ps, net::kLongestTime)
                                                           : net::kLongestTime));
  const auto n = static_cast<std::uint32_t>(cfg_.ranks);
  world_.emplace(engine_, *net.model, res_.trace, n, cfg_.payload);
  res_.network_parameters = net.model->parameters();  // after the world sized the model
  if (cfg_.max_memory) world_->set_memory_limit(cfg_.max_memory, state);
  if (cfg_.progress_in_mpi.value_or(false)) world_->set_progress(mpi::World::Progress::in_mpi);
  world_->set_standard_sends_synchronous(cfg_.synchronous_sends);
  if (cfg_.progress) {
    constexpr std::uint64_t kEvery = std::uint64_t{1} << 21;
    engine_.set_progress(kEvery, [this, n, first = std::uint64_t{2} * kEvery](const sim::Engine& e) {
      if (e.events_processed() < first) return;
      cfg_.progress(Config::Progress{e.events_processed(), e.now().ps, n - e.unfinished_count(), n});
    });
  }
}

WorldRun::~WorldRun() = default;

void WorldRun::run(FrontEnd& fe) {
  mpi::World& world = *world_;
  const auto n = static_cast<std::uint32_t>(cfg_.ranks);
  engine_.reserve_processes(n);
  for (std::uint32_t r = 0; r < n; ++r) engine_.spawn(fe.rank_program(r));
  engine_.run();
  conclude(world, engine_, cfg_, res_, fe);
  res_.links = net_.model->link_usage();
  res_.finish_ps.resize(n);
  const auto& failure = engine_.failure();
  for (std::uint32_t r = 0; r < n; ++r) {
    // A rank that returned from its program finished; one the run stopped (blocked,
    // or ended by the error that stopped the run) did not.
    if (engine_.process_done(r) && !(failure && failure->process == r)) {
      res_.finish_ps[r] = world.finish_time(r).ps;
      res_.makespan_ps = std::max(res_.makespan_ps, *res_.finish_ps[r]);
    } else {
      res_.makespan_ps = std::max(res_.makespan_ps, engine_.now().ps);
    }
  }
  // A run stopped by the time limit lasted until the limit.
  if (engine_.limit_reached() == sim::Engine::Limit::time)
    res_.makespan_ps = std::max(res_.makespan_ps, cfg_.max_sim_time_ps ? std::min(cfg_.max_sim_time_ps, net::kLongestTime)
                                                                        : net::kLongestTime);
  res_.events = engine_.events_processed();
  for (const auto& [name, t] : fe.coordinator().totals()) res_.collectives[name] = {t.calls, t.time.ps};
  fe.abandon();
  engine_.destroy_processes();
}

}  // namespace mpisim::runner
