#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/coll/deploy.hpp"
#include "model/coll/selection.hpp"
#include "sim/input_error.hpp"
#include "tests/support.hpp"

using namespace mpisim;
using namespace mpisim::coll;
using mpisim::test::has;

namespace {

const Algorithm* alg(Collective c, const char* name) { return find_algorithm(c, name); }

std::string load_error(const std::string& text) {
  try {
    Selection::parse(text, "sel");
  } catch (const sim::InputError& e) {
    return e.what();
  }
  return "no error";
}

// A sweep over 4, 16 and 64 ranks and three sizes in which the fastest of the
// algorithms `library` has changes from point to point (each in turn, by a
// fixed pattern); the others are slower everywhere.
Sweep sweep_of(Collective c, bool (*has_it)(const Algorithm&)) {
  Sweep s;
  s.collective = c;
  for (const auto& a : algorithms())
    if (a.collective == c && !a.restrictions.intercomm && !a.restrictions.two_only) s.algorithms.push_back(&a);
  std::vector<std::size_t> with;
  for (std::size_t i = 0; i < s.algorithms.size(); ++i)
    if (has_it(*s.algorithms[i])) with.push_back(i);
  std::size_t n = 0;
  for (std::uint64_t p : {4, 16, 64})
    for (std::uint64_t b : {1024, 65536, 1048576}) {
      SweepPoint pt{p, b, std::vector<std::int64_t>(s.algorithms.size(), 1000)};
      if (!with.empty()) pt.time_ps[with[(n * 7 + p) % with.size()]] = 10;
      ++n;
      s.points.push_back(pt);
    }
  return s;
}

}  // namespace

TEST_CASE("A tuning file mpisim cost writes reads back to what it predicted, at every point, for every collective") {
  // Writes the file of `library` for a sweep of c and reads it back: true when the
  // library has an algorithm of c to write.
  auto round_trip = [](Collective c, bool (*has)(const Algorithm&), TuningFile (*write)(const Sweep&),
                       Selection::Library library) {
    TuningFile f;
    try {
      f = write(sweep_of(c, has));
    } catch (const sim::InputError&) {
      return false;  // the library has none of mpisim's algorithms of c, or its rules do not cover c
    }
    auto sel = Selection::parse(f.text, "tuning");
    CHECK(sel->library() == library);
    for (const Choice& ch : f.choices) {
      CAPTURE(ch.ranks);
      CAPTURE(ch.bytes);
      const Selection::Pick pk = sel->pick(cost_facts(c, ch.ranks, ch.bytes), NodeFacts{});
      CHECK(pk.decided);
      CHECK(pk.algorithm == ch.algorithm);
    }
    return true;
  };
  int mpich_files = 0, ompi_files = 0;
  for (int i = 0; i < kCollectives; ++i) {
    const auto c = static_cast<Collective>(i);
    if (neighborhood(c)) continue;
    CAPTURE(collective_name(c));
    mpich_files += round_trip(
        c, [](const Algorithm& a) { return !a.library.mpich.empty(); }, mpich_tuning_file, Selection::Library::mpich);
    ompi_files += round_trip(
        c, [](const Algorithm& a) { return a.library.ompi > 0; }, ompi_rules_file, Selection::Library::ompi);
  }
  CHECK(mpich_files >= 10);
  CHECK(ompi_files >= 10);
}

TEST_CASE("MPICH's selection JSON is evaluated as MPICH's csel evaluates it") {
  const std::string text = R"({
    "collective=bcast": {
      "comm_type=intra": {
        "comm_size<8": {"algorithm=MPIR_Bcast_intra_binomial": {}},
        "comm_size=any": {
          "avg_msg_size<=1024": {
            "comm_size<16": {"algorithm=MPIR_Bcast_intra_scatter_ring_allgather": {}},
            "comm_size=any": {"algorithm=MPIR_Bcast_intra_binomial": {}}
          },
          "avg_msg_size=any": {"algorithm=MPIR_Bcast_intra_tree": {}}
        }
      },
      "comm_type=inter": {"algorithm=MPIR_Bcast_inter_remote_send_local_bcast": {}}
    },
    "collective=ibcast": {
      "comm_type=intra": {"algorithm=MPIR_Ibcast_intra_sched_binomial": {}}
    },
    "collective=ireduce": {
      "comm_type=intra": {"algorithm=MPIR_Ireduce_intra_tsp_tree": {}}
    }
  })";
  auto sel = Selection::parse(text, "s.json");
  auto bcast = [&](int p, std::uint64_t bytes) { return sel->pick(cost_facts(Collective::bcast, p, bytes), NodeFacts{}); };
  // Right below the collective, "<" is "<" (MPICH decides it once per communicator) ...
  CHECK(bcast(7, 8).algorithm == alg(Collective::bcast, "binomial"));
  CHECK(bcast(8, 8).algorithm == alg(Collective::bcast, "scatter_ring"));  // 8 falls to "any", then the size
  // ... below a size key MPICH's search takes "comm_size<16" as "<= 16".
  CHECK(bcast(16, 8).algorithm == alg(Collective::bcast, "scatter_ring"));
  CHECK(bcast(17, 8).algorithm == alg(Collective::bcast, "binomial"));
  CHECK(bcast(8, 1024).algorithm == alg(Collective::bcast, "scatter_ring"));
  // An algorithm mpisim does not have: decided, with MPICH's name and where.
  const Selection::Pick tree = bcast(32, 4096);
  CHECK(tree.decided);
  CHECK(tree.algorithm == nullptr);
  CHECK(tree.name == "MPIR_Bcast_intra_tree");
  CHECK(tree.rule == "/collective=bcast/comm_type=intra/comm_size=any/avg_msg_size=any/algorithm=MPIR_Bcast_intra_tree");
  // Nonblocking: the blocking algorithm of the same schedule, where mpisim has it.
  CallFacts ib = cost_facts(Collective::bcast, 8, 8);
  ib.nonblocking = true;
  CHECK(sel->pick(ib, NodeFacts{}).algorithm == alg(Collective::bcast, "binomial"));
  CallFacts ir = cost_facts(Collective::reduce, 8, 8);
  ir.nonblocking = true;
  CHECK_FALSE(sel->pick(ir, NodeFacts{}).decided);
  // Intercommunicators keep mpisim's algorithms; a collective not in the file its default.
  CallFacts inter = cost_facts(Collective::bcast, 8, 8);
  inter.inter = true;
  CHECK_FALSE(sel->pick(inter, NodeFacts{}).decided);
  CHECK_FALSE(sel->pick(cost_facts(Collective::gather, 8, 8), NodeFacts{}).decided);
}

TEST_CASE("MPICH's hierarchy keys read the nodes of the communicator's members") {
  const std::string text = R"({"collective=allreduce": {
      "comm_hierarchy=parent": {
        "is_node_consecutive=yes": {"comm_avg_ppn<=2": {"algorithm=MPIR_Allreduce_intra_smp": {}},
                                    "comm_size=any": {"algorithm=MPIR_Allreduce_intra_tree": {}}},
        "is_node_consecutive=no": {"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather": {}}},
      "comm_hierarchy=any": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}}}})";
  auto sel = Selection::parse(text, "s.json");
  CHECK(sel->uses_nodes());
  const CallFacts f = cost_facts(Collective::allreduce, 8, 1024);
  const std::vector<int> blocks = {0, 0, 1, 1, 2, 2, 3, 3}, fours = {0, 0, 0, 0, 1, 1, 1, 1},
                         robin = {0, 1, 0, 1, 0, 1, 0, 1}, alone = {0, 1, 2, 3, 4, 5, 6, 7};
  CHECK(sel->pick(f, node_facts(blocks)).algorithm == alg(Collective::allreduce, "smp"));
  CHECK(sel->pick(f, node_facts(fours)).name == "MPIR_Allreduce_intra_tree");
  CHECK(sel->pick(f, node_facts(robin)).algorithm == alg(Collective::allreduce, "rabenseifner"));
  CHECK(sel->pick(f, node_facts(alone)).algorithm == alg(Collective::allreduce, "recursive_doubling"));
  CHECK(node_facts(fours).nodes == 2);
  CHECK_FALSE(node_facts(robin).consecutive);
  CHECK(node_facts(std::vector<int>{5, 5, 5}).one_node);
}

TEST_CASE("MPICH selection files MPICH would refuse are refused, with where and why") {
  CHECK(has(load_error("{\"collective=bcast\": {\"comm_size<=4\": {\"algorithm=MPIR_Bcast_intra_binomial\": {}}}}"),
            "sel: /collective=bcast/comm_size<=4: a comparison must be followed by another key"));
  CHECK(has(load_error("{\"collective=bcast\": {\"comm_size=any\": {\"algorithm=X\": {}}, \"comm_type=intra\": "
                       "{\"algorithm=Y\": {}}}}"),
            "/collective=bcast/comm_size=any: an \"=any\" key must be the last"));
  CHECK(has(load_error("{\"collective=bcast\": {\"msg_size<=4\": {\"algorithm=X\": {}}, \"comm_size=any\": "
                       "{\"algorithm=Y\": {}}}}"),
            "/collective=bcast/msg_size<=4: \"msg_size<=4\" is not a key of MPICH 4.0's collective selection"));
  CHECK(has(load_error("{\"collective=bcst\": {\"algorithm=X\": {}}}"), "\"bcst\" is not a collective"));
  CHECK(has(load_error("{\"comm_size=any\": {\"algorithm=X\": {}}}"), "expected \"collective=...\" keys at the top"));
  CHECK(has(load_error("{\"collective=bcast\": {\"avg_msg_size<=4k\": {\"algorithm=X\": {}}, \"avg_msg_size=any\": "
                       "{\"algorithm=Y\": {}}}}"),
            "after \"avg_msg_size<=\"; got \"4k\""));
  CHECK(has(load_error("{\"collective=bcast\": {\"comm_size<=3000000000\": {\"algorithm=X\": {}}, \"comm_size=any\": "
                       "{\"algorithm=Y\": {}}}}"),
            "expected a whole number from 0 to 2147483647"));
  std::string deep = "{\"algorithm=X\": {}}";
  for (int i = 0; i < 100; ++i) deep = "{\"comm_type=intra\": " + deep + "}";
  CHECK(has(load_error("{\"collective=bcast\": " + deep + "}"), "nested deeper than 64 levels"));
  CHECK(has(load_error("{\"collective=bcast\": 3}"), "/collective=bcast: expected an object"));
  CHECK(has(load_error("{\"collective=bcast\": {}"), "sel: not valid JSON"));
  // A tree no key of which matches a call stops it (MPICH asserts).
  auto sel = Selection::parse("{\"collective=bcast\": {\"comm_type=inter\": {\"algorithm=X\": {}}}}", "s.json");
  try {
    sel->pick(cost_facts(Collective::bcast, 4, 8), NodeFacts{});
    FAIL("no error");
  } catch (const sim::InputError& e) {
    CHECK(has(e.what(), "s.json: /collective=bcast: no key matches a call of MPI_Bcast on 4 processes"));
  }
}

TEST_CASE("Open MPI's dynamic rules are looked up as its tuned component looks them up") {
  const std::string text =
      "rule-file-version-2\n"
      "# a comment\n"
      "2\n"
      "7   # MPI_Bcast\n"
      "2\n"
      "8 3\n"
      "0 6 0 0\n"
      "4096 3 0 1024 16\n"  // a maximum of requests (version 2)
      "65536 0 0 0\n"       // 0: the fixed decisions
      "64 1\n"
      "0 7 0 0\n"
      "2   # MPI_Allreduce\n"
      "1\n"
      "1 1\n"
      "0 5 0 0\n";
  auto sel = Selection::parse(text, "o.conf");
  REQUIRE(sel->library() == Selection::Library::ompi);
  auto bcast = [&](int p, std::uint64_t bytes) { return sel->pick(cost_facts(Collective::bcast, p, bytes), NodeFacts{}); };
  // Below the first communicator size, the first rule still applies.
  CHECK(bcast(4, 8).algorithm == alg(Collective::bcast, "binomial"));
  CHECK(bcast(63, 8).algorithm == alg(Collective::bcast, "binomial"));
  const Selection::Pick seg = bcast(16, 4096);
  CHECK(seg.algorithm == alg(Collective::bcast, "pipelined_chain"));
  CHECK(seg.segment_bytes == 1024);
  CHECK(seg.rule == "line 8");
  CHECK_FALSE(bcast(16, 65536).decided);
  CHECK(bcast(64, 1 << 20).algorithm == alg(Collective::bcast, "knomial"));
  // What Open MPI runs for a rule: its segmented ring without a segment size is
  // the ring, and with fewer elements than processes recursive doubling.
  const Selection::Pick ring = sel->pick(cost_facts(Collective::allreduce, 16, 8), NodeFacts{});
  CHECK(ring.decided);
  CHECK(ring.algorithm == alg(Collective::allreduce, "recursive_doubling"));
  CHECK(has(ring.name, "segmented_ring falls back"));
  CHECK(sel->pick(cost_facts(Collective::allreduce, 16, 1024), NodeFacts{}).algorithm ==
        alg(Collective::allreduce, "ring"));
  // Rules cover blocking intracommunicator calls only; not the collectives left out.
  CallFacts nb = cost_facts(Collective::bcast, 16, 8);
  nb.nonblocking = true;
  CHECK_FALSE(sel->pick(nb, NodeFacts{}).decided);
  CHECK_FALSE(sel->pick(cost_facts(Collective::gather, 16, 8), NodeFacts{}).decided);
}

TEST_CASE("Open MPI rules files Open MPI would refuse are refused, with the line") {
  CHECK(has(load_error("1\n7\n1\n1\n1\n8 6 0 0\n"), "sel:6: the first message-size rule"));
  CHECK(has(load_error("1\n7\n1\n1\n1\n0 12 0 0\n"), "sel:6: Open MPI's tuned MPI_Bcast has no algorithm 12"));
  CHECK(has(load_error("1\n30\n"), "sel:2: collective 30 is not one of Open MPI's"));
  CHECK(has(load_error("1\n7\n1\n1\n2\n0 6 0 0\n"), "sel:6: the file ends where a message size was expected"));
  CHECK(has(load_error("1\n7\n1\n1\n1\n0 six 0 0\n"), "sel:6: expected a whole number; got \"six\""));
  CHECK(has(load_error("1\n7\n0\n7\n"), "sel:4: more numbers than the rules announce"));
  CHECK(has(load_error("2\n7\n0\n7\n0\n"), "sel:4: collective 7 (MPI_Bcast) has rules already"));
}

TEST_CASE("A run follows --selection where no algorithm is named, and a choice mpisim cannot run stops it") {
  const std::string sc = R"({"mpisim": 1, "program": [
      {"buffer": "x", "type": "MPI_DOUBLE", "count": 64, "init": "rank"},
      {"buffer": "y", "type": "MPI_DOUBLE", "count": 64},
      {"call": "MPI_Allreduce", "sendbuf": "x", "recvbuf": "y", "count": 64, "datatype": "MPI_DOUBLE", "op": "MPI_SUM",
       "comm": "MPI_COMM_WORLD"},
      {"call": "MPI_Bcast", "buffer": "y", "count": 64, "datatype": "MPI_DOUBLE", "root": 0, "comm": "MPI_COMM_WORLD"}]})";
  auto run = [&](const std::string& file, std::map<std::string, std::string> named = {}) {
    scenario::Scenario s = scenario::parse_scenario(sc, "test.json");
    net::Network n = net::default_network();
    runner::Config cfg;
    cfg.ranks = 8;
    cfg.algorithms = std::move(named);
    cfg.selection = Selection::parse(file, "sel");
    return scenario::run_scenario(s, n, cfg);
  };
  const std::string ring = "1\n2\n1\n1\n1\n0 4 0 0\n";  // Open MPI's allreduce algorithm 4: the ring
  runner::Result r = run(ring);
  CHECK(test::first_code(r) == "");
  CHECK(r.algorithms_used["MPI_Allreduce"] == std::vector<std::string>{"ring"});
  CHECK(r.algorithms_used["MPI_Bcast"] == std::vector<std::string>{"binomial"});  // not in the file: the default
  // A named algorithm comes first.
  r = run(ring, {{"MPI_Allreduce", "recursive_doubling"}});
  CHECK(r.algorithms_used["MPI_Allreduce"] == std::vector<std::string>{"recursive_doubling"});
  // The segmented ring in segments of 64 bytes (8 doubles): 64 doubles on 8 ranks
  // are 8 segments, so Open MPI segments, which mpisim does not model.
  r = run("1\n2\n1\n1\n1\n0 5 0 64\n");
  REQUIRE(test::first_code(r) == "ALGORITHM_ERROR");
  CHECK(has(r.trace.diagnostics().front().message, "the selection sel (line 6) picks segmented_ring (algorithm 5; "
                                                    "segments of 64 bytes) for MPI_Allreduce, which mpisim does not model"));
  // Without a segment size it is the ring.
  r = run("1\n2\n1\n1\n1\n0 5 0 0\n");
  CHECK(r.algorithms_used["MPI_Allreduce"] == std::vector<std::string>{"ring"});
  r = run("{\"collective=allreduce\": {\"algorithm=MPIR_Allreduce_intra_recursive_doubling\": {}},"
          " \"collective=bcast\": {\"algorithm=MPIR_Bcast_intra_scatter_recursive_doubling_allgather\": {}}}");
  CHECK(r.algorithms_used["MPI_Allreduce"] == std::vector<std::string>{"recursive_doubling"});
  CHECK(r.algorithms_used["MPI_Bcast"] == std::vector<std::string>{"scatter_recursive_doubling"});
}

TEST_CASE("Open MPI rules: a version-2 maximum of requests on the segment size's line, unused collectives read") {
  // The maximum of requests follows the segment size, on its line, even when the
  // rule spans two lines.
  auto sel = Selection::parse("rule-file-version-2\n1\n7\n1\n1\n1\n0 6\n0 0 16\n", "v2.conf");
  CHECK(sel->pick(cost_facts(Collective::bcast, 8, 8), NodeFacts{}).algorithm == alg(Collective::bcast, "binomial"));
  // Rules for MPI_Gatherv (10), which the tuned component does not decide: read, unused.
  auto gv = Selection::parse("1\n10\n1\n1\n1\n0 1 0 0\n", "gv.conf");
  CHECK_FALSE(gv->pick(cost_facts(Collective::gatherv, 8, 8), NodeFacts{}).decided);
}
