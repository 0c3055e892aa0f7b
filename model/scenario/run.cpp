// A run: every rank's program on the MPI library over a network model, and what
// the run tells when it ends (failures, limits, deadlocks, unfinished operations).
#include "model/scenario/run.hpp"

#include <algorithm>

#include "model/net/units.hpp"
#include "model/scenario/executor.hpp"
#include "sim/wait_for_graph.hpp"

namespace mpisim::scenario {
namespace {

using exec::Executor;
using exec::StepError;
using mpi::MpiError;
using sim::SimTime;

// A description of every blocked rank and the cycle among them, as a diagnostic.
sim::Diagnostic deadlock_diagnostic(mpi::World& world, sim::Engine& engine, const PlaceOf& place_of) {
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
      const RankPlace p = place_of(r);
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

void conclude_run(mpi::World& world, sim::Engine& engine, const RunConfig& cfg, RunResult& res, const PlaceOf& place_of,
                  const Classify& classify) {
  if (const auto& f = engine.failure()) {
    const std::uint32_t r = f->process;
    const RankPlace p = place_of(r);
    sim::Diagnostic d;
    d.severity = "error";
    d.process = r;
    d.time = f->time;
    d.call = p.call == "compute" ? "" : p.call;
    d.step = p.step;
    std::string where = p.where.empty() ? "" : " (" + p.where + ")";
    try {
      if (classify && classify(f->error, d)) {
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
    d.message = !time ? events_limit_text(cfg.max_events)
                : cfg.max_sim_time_ps && cfg.max_sim_time_ps < net::kLongestTime
                    ? "the run reached --max-sim-time " + std::to_string(cfg.max_sim_time_ps) +
                          " ps of virtual time and was stopped there"
                    : "the run's virtual time passed 2^62 ps (about 53 days), the longest mpisim simulates: a time "
                      "of the network model or a computation is beyond it";
    res.trace.record_diagnostic(std::move(d));
    res.outcome = Outcome::erroneous;
  } else if (engine.unfinished_count() > 0) {
    res.trace.record_diagnostic(deadlock_diagnostic(world, engine, place_of));
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

RunResult run_scenario(const Scenario& sc, net::Network& net, const RunConfig& given) {
  RunConfig cfg = given;
  if (cfg.max_events == 0) cfg.max_events = default_max_events(cfg.ranks);
  RunResult res;
  res.trace = sim::Trace(cfg.trace_level);
  res.ranks = cfg.ranks;
  res.payload = cfg.payload;
  res.network_kind = std::string(net.model->kind());
  const auto n = static_cast<std::uint32_t>(cfg.ranks);
  // The ranks' own state must fit the budget before the run starts.
  const std::int64_t state = cfg.ranks * mpi::World::kRankStateBytes;
  if (cfg.max_memory && state > cfg.max_memory) {
    sim::Diagnostic d;
    d.severity = "error";
    d.code = "LIMIT_MEMORY";
    d.message = std::to_string(cfg.ranks) + " ranks need about " + net::format_bytes(static_cast<std::uint64_t>(state)) +
                " for mpisim's own state (" + std::to_string(mpi::World::kRankStateBytes) +
                " bytes per rank) before any buffer, over --max-memory " +
                net::format_bytes(static_cast<std::uint64_t>(cfg.max_memory)) +
                "; the run was not started (a larger --max-memory lets it run, if the machine has the memory)";
    res.trace.record_diagnostic(std::move(d));
    res.outcome = Outcome::erroneous;
    return res;
  }

  sim::Engine engine;
  // Without a limit, virtual time stops at 2^62 ps (about 53 days): the models'
  // times saturate there, and no sum of two can wrap.
  engine.set_limits(cfg.max_events,
                    SimTime::from_ps(cfg.max_sim_time_ps ? std::min(cfg.max_sim_time_ps, net::kLongestTime)
                                                         : net::kLongestTime));
  mpi::World world(engine, *net.model, res.trace, n, cfg.payload);
  res.network_parameters = net.model->parameters();  // after the world sized the model
  if (cfg.max_memory) world.set_memory_limit(cfg.max_memory, state);
  if (cfg.progress_in_mpi.value_or(sc.progress == "in-mpi")) world.set_progress(mpi::World::Progress::in_mpi);
  world.set_standard_sends_synchronous(cfg.synchronous_sends);
  // Provenance for the viewer, when the trace keeps everything (allocations up to 16 MiB).
  if (cfg.trace_level == sim::TraceLevel::full) world.track_origins(16 << 20);
  Executor ex(sc, world, cfg, res);
  // Followed buffers fill message by message in the viewer.
  if (!sc.followed.empty() && cfg.trace_level == sim::TraceLevel::full && cfg.payload == mpi::PayloadMode::data)
    world.observe_deliveries([&ex](std::uint32_t dst, std::uint32_t src) { ex.follow_delivery(dst, src); });
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
  conclude_run(world, engine, cfg, res, [&ex](std::uint32_t r) {
    const Step* s = ex.env(r).step;
    RankPlace p;
    if (!s) return p;
    p.call = s->kind == Step::call ? s->spec->name : s->kind == Step::compute ? "compute" : "";
    p.where = s->path;
    p.step = s->index;
    return p;
  });

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

