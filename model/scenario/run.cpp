// A scenario's run: its interpreter as the runner's front-end.
#include "model/scenario/run.hpp"

#include "model/scenario/executor.hpp"

namespace mpisim::scenario {
namespace {

using exec::Executor;
using exec::StepError;

class ScenarioRanks final : public runner::FrontEnd {
 public:
  ScenarioRanks(Executor& ex, mpi::World& world) : ex_(ex), world_(world) {}

  sim::ProcessTask rank_program(std::uint32_t r) override {
    world_.enter(r);  // the rank's frame, in its slot
    return ex_.run_rank(r);
  }
  runner::RankPlace place(std::uint32_t r) const override {
    const Step* s = ex_.env(r).step;
    runner::RankPlace p;
    if (!s) return p;
    p.call = s->kind == Step::call ? s->spec->name : s->kind == Step::compute ? "compute" : "";
    p.where = s->path;
    p.step = s->index;
    return p;
  }
  // A step the scenario's own rules refuse (a name never bound, ...).
  bool classify(const std::exception_ptr& error, const runner::RankPlace& where, sim::Diagnostic& d) const override {
    try {
      std::rethrow_exception(error);
    } catch (const StepError& e) {
      d.code = "SCENARIO_ERROR";
      d.message = e.what() + (where.where.empty() ? "" : " (" + where.where + ")");
      return true;
    } catch (...) {
      return false;
    }
  }
  const coll::Coordinator& coordinator() const override { return ex_.coordinator(); }
  void abandon() override { ex_.abandon_blocked(); }

 private:
  Executor& ex_;
  mpi::World& world_;
};

}  // namespace

runner::Result run_scenario(const Scenario& sc, net::Network& net, const runner::Config& given) {
  runner::Config cfg = given;
  cfg.progress_in_mpi = cfg.progress_in_mpi.value_or(sc.progress == "in-mpi");
  runner::Result res;
  runner::WorldRun run(net, cfg, res);
  if (run.refused()) return res;
  mpi::World& world = run.world();
  // Provenance for the viewer, when the trace keeps everything (allocations up to 16 MiB).
  if (cfg.trace_level == sim::TraceLevel::full) world.track_origins(16 << 20);
  Executor ex(sc, world, run.config(), res);
  // Followed buffers fill message by message in the viewer.
  if (!sc.followed.empty() && cfg.trace_level == sim::TraceLevel::full && cfg.payload == mpi::PayloadMode::data)
    world.observe_deliveries([&ex](std::uint32_t dst, std::uint32_t src) { ex.follow_delivery(dst, src); });
  ScenarioRanks ranks(ex, world);
  run.run(ranks);
  return res;
}

}  // namespace mpisim::scenario
