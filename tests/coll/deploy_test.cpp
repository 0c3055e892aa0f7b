#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "model/coll/deploy.hpp"
#include "model/coll/selection.hpp"
#include "sim/input_error.hpp"

using namespace mpisim::coll;

namespace {

const Algorithm* alg(Collective c, const char* name) { return find_algorithm(c, name); }

// Allreduce on 4 and 16 ranks at 8 B, 1 KiB and 64 KiB: recursive doubling wins
// the two small sizes, Rabenseifner the large one; ring (no MPICH equivalent) is
// fastest at 64 KiB on 16 ranks.
Sweep allreduce_sweep() {
  Sweep s;
  s.collective = Collective::allreduce;
  s.algorithms = {alg(s.collective, "recursive_doubling"), alg(s.collective, "rabenseifner"), alg(s.collective, "ring")};
  s.points = {{4, 8, {10, 20, 30}},      {4, 1024, {10, 20, 30}},      {4, 65536, {30, 20, 25}},
              {16, 8, {10, 20, 30}},     {16, 1024, {10, 20, 30}},     {16, 65536, {30, 20, 15}}};
  return s;
}

}  // namespace

TEST_CASE("MPICH's selection file: the swept collective as predicted, guarded as MPICH's forms need") {
  const TuningFile f = mpich_tuning_file(allreduce_sweep());
  const auto j = nlohmann::ordered_json::parse(f.text);
  // Every collective, blocking and nonblocking, is in the file (MPICH selects them all from it).
  CHECK(j.size() == 44);
  CHECK(j.contains("collective=bcast"));
  CHECK(j.contains("collective=ineighbor_alltoallw"));
  const auto& intra = j["collective=allreduce"]["comm_type=intra"];
  // Rabenseifner needs a commutative operation: others keep MPICH's own choice.
  REQUIRE(intra.contains("is_commutative=no"));
  const auto& sizes = intra["is_commutative=yes"];
  // Rank counts 4 and 16: the boundary at their geometric mean, 8.
  REQUIRE(sizes.contains("comm_size<=8"));
  REQUIRE(sizes.contains("comm_size=any"));
  // Sizes 1 KiB and 64 KiB: the boundary at 8 KiB.
  const auto& small = sizes["comm_size<=8"];
  CHECK(small.begin().key() == "avg_msg_size<=8192");
  CHECK(small["avg_msg_size<=8192"].contains("algorithm=MPIR_Allreduce_intra_recursive_doubling"));
  const auto& large = small["avg_msg_size=any"];
  CHECK(large["is_op_built_in=no"].contains("algorithm=MPIR_Allreduce_intra_recursive_doubling"));
  CHECK(large["is_op_built_in=yes"]["count<pow2"].contains("algorithm=MPIR_Allreduce_intra_recursive_doubling"));
  CHECK(large["is_op_built_in=yes"]["count=any"].contains("algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather"));
  CHECK(j["collective=allreduce"]["comm_type=inter"].contains("algorithm=MPIR_Allreduce_inter_reduce_exchange_bcast"));
  // Ring has no MPICH equivalent: on 16 ranks at 64 KiB the file takes Rabenseifner,
  // which is not the fastest there.
  REQUIRE(f.choices.size() == 6);
  CHECK(f.choices[5].algorithm->name == "rabenseifner");
  CHECK_FALSE(f.choices[5].fastest);
  CHECK(f.choices[2].fastest);
}

TEST_CASE("Open MPI's dynamic rules: lower bounds from the boundary up, the library's numbers") {
  const TuningFile f = ompi_rules_file(allreduce_sweep());
  CHECK(f.text.find("1  # collectives\n2  # MPI_Allreduce\n2  # communicator sizes\n") != std::string::npos);
  CHECK(f.text.find("1  # from 1 rank (measured at 4)\n2  # message sizes\n0 3 0 0  # from 0 bytes: recursive_doubling\n"
                    "8193 6 0 0  # from 8193 bytes: rabenseifner\n") != std::string::npos);
  // On 16 ranks ring (4) is the fastest at 64 KiB and Open MPI has it.
  CHECK(f.text.find("9  # from 9 ranks (measured at 16)\n2  # message sizes\n0 3 0 0  # from 0 bytes: recursive_doubling\n"
                    "8193 4 0 0  # from 8193 bytes: ring\n") != std::string::npos);
  CHECK(f.choices[5].algorithm->name == "ring");
  CHECK(f.choices[5].fastest);
}

TEST_CASE("Tuning files switch at the sweep's bisected crossovers, the geometric mean where it has none") {
  Sweep s = allreduce_sweep();
  // On 4 ranks Rabenseifner is faster from 3,000 bytes on (375 doubles).
  s.switches = {{4, 3000, alg(s.collective, "recursive_doubling"), alg(s.collective, "rabenseifner")},
                {4, 3000, alg(s.collective, "rabenseifner"), alg(s.collective, "recursive_doubling")}};  // no such change
  const auto j = nlohmann::ordered_json::parse(mpich_tuning_file(s).text);
  const auto& four = j["collective=allreduce"]["comm_type=intra"]["is_commutative=yes"]["comm_size<=8"];
  CHECK(four.begin().key() == "avg_msg_size<=2999");
  const std::string rules = ompi_rules_file(s).text;
  CHECK(rules.find("0 3 0 0  # from 0 bytes: recursive_doubling\n3000 6 0 0  # from 3000 bytes: rabenseifner\n") !=
        std::string::npos);
  // 16 ranks: none given, the geometric mean (8 KiB).
  CHECK(rules.find("0 3 0 0  # from 0 bytes: recursive_doubling\n8193 4 0 0  # from 8193 bytes: ring\n") != std::string::npos);
  // The files read back: 374 doubles recursive doubling, 375 Rabenseifner.
  auto sel = Selection::parse(mpich_tuning_file(s).text, "m.json");
  CHECK(sel->pick(cost_facts(s.collective, 4, 2992), NodeFacts{}).algorithm->name == "recursive_doubling");
  CHECK(sel->pick(cost_facts(s.collective, 4, 3000), NodeFacts{}).algorithm->name == "rabenseifner");
}

TEST_CASE("Open MPI's dynamic rules never name an algorithm for two ranks only: a rule covers a range of sizes") {
  // two_proc is the fastest on 2 ranks, but Open MPI's fails on any other size and
  // the first rule covers 1 .. 5 ranks: recursive doubling is written instead.
  Sweep s;
  s.collective = Collective::allgather;
  s.algorithms = {alg(s.collective, "recursive_doubling"), alg(s.collective, "two_proc")};
  s.points = {{2, 8, {20, 10}}, {8, 8, {20, -1}}};
  const TuningFile f = ompi_rules_file(s);
  CHECK(f.text.find(" 6 0 0") == std::string::npos);
  CHECK(f.choices[0].algorithm->name == "recursive_doubling");
  CHECK_FALSE(f.choices[0].fastest);
}

TEST_CASE("tuning files refuse what the library cannot take") {
  Sweep s;
  s.collective = Collective::allreduce;
  s.algorithms = {alg(s.collective, "ring")};
  s.points = {{4, 8, {10}}};
  CHECK_THROWS_AS(mpich_tuning_file(s), mpisim::sim::InputError);  // MPICH 4.0 has no ring allreduce
  s.collective = Collective::gatherv;
  s.algorithms = {alg(s.collective, "linear")};
  CHECK_THROWS_AS(ompi_rules_file(s), mpisim::sim::InputError);  // the tuned rules do not cover MPI_Gatherv
  CHECK_NOTHROW(mpich_tuning_file(s));
}

TEST_CASE("Open MPI's fixed decisions, where encoded, and mpisim's equivalents") {
  LibraryDefault d;
  REQUIRE(ompi_default(Collective::allreduce, 16, 4096, &d));
  CHECK(d.name == "rabenseifner");
  CHECK(d.algorithm == find_algorithm(Collective::allreduce, "rabenseifner"));
  // The segmented ring without a segment size is the ring; with fewer elements
  // than processes Open MPI's ring runs recursive doubling.
  REQUIRE(ompi_default(Collective::allreduce, 16, 8, &d));
  CHECK(d.name == "recursive_doubling");
  CHECK(d.algorithm == find_algorithm(Collective::allreduce, "recursive_doubling"));
  CHECK(d.note.rfind("segmented_ring falls back", 0) == 0);
  REQUIRE(ompi_default(Collective::allreduce, 3, 100000, &d));  // 12,500 doubles on 3 ranks
  CHECK(d.name == "ring");
  CHECK(d.algorithm == find_algorithm(Collective::allreduce, "ring"));
  CHECK(d.note == "segmented_ring falls back: no segment size, so the ring");
  // Open MPI's reduce chain and pipeline, unsegmented, are mpisim's chain; its
  // in-order binary tree is mpisim's.
  REQUIRE(ompi_default(Collective::reduce, 3, 600000, &d));  // below 4 ranks: the chain from 524,288 bytes
  CHECK(d.name == "chain");
  CHECK(d.algorithm == find_algorithm(Collective::reduce, "chain"));
  REQUIRE(ompi_default(Collective::reduce, 3, 16, &d));  // the pipeline from 16 to 31 bytes
  CHECK(d.name == "pipeline");
  CHECK(d.algorithm == find_algorithm(Collective::reduce, "chain"));
  CHECK(d.note == "pipeline, unsegmented");
  REQUIRE(ompi_default(Collective::reduce, 300, 8192, &d));
  CHECK(d.name == "in-order_binary");
  CHECK(d.algorithm == find_algorithm(Collective::reduce, "in_order_binary"));
  REQUIRE(ompi_default(Collective::allreduce, 300, 8, &d));
  CHECK(d.name == "nonoverlapping");
  CHECK(d.algorithm == find_algorithm(Collective::allreduce, "reduce_bcast"));
  REQUIRE(ompi_default(Collective::alltoall, 2, 100, &d));  // exactly 2 ranks have their own rules
  CHECK(d.name == "pairwise");
  REQUIRE(ompi_default(Collective::alltoall, 3, 100, &d));
  CHECK(d.name == "linear_sync");
  REQUIRE(ompi_default(Collective::alltoall, 64, 512, &d));
  CHECK(d.name == "modified_bruck");
  CHECK(d.algorithm == find_algorithm(Collective::alltoall, "bruck"));
  REQUIRE(ompi_default(Collective::alltoall, 64, 4096, &d));
  CHECK(d.name == "linear");
  REQUIRE(ompi_default(Collective::barrier, 100, 0, &d));
  CHECK(d.name == "bruck");
  CHECK(d.algorithm == find_algorithm(Collective::barrier, "dissemination"));
  CHECK_FALSE(ompi_default(Collective::gatherv, 4, 8, &d));
}

TEST_CASE("Open MPI's fixed decisions for the other collectives, with the algorithms' own fallbacks") {
  LibraryDefault d;
  // MPI_Bcast: 24 ranks, 1 MiB: scatter_allgather (1 MiB is not below 1 MiB).
  REQUIRE(ompi_default(Collective::bcast, 24, 1048576, &d));
  CHECK(d.name == "scatter_allgather");
  CHECK(d.algorithm == find_algorithm(Collective::bcast, "scatter_recursive_doubling"));
  REQUIRE(ompi_default(Collective::bcast, 100, 64, &d));
  CHECK(d.name == "knomial");
  CHECK(d.algorithm == find_algorithm(Collective::bcast, "knomial"));
  // Unsegmented, Open MPI's pipeline bcast is its chain: timed as mpisim's chain.
  int pipelines = 0;
  for (std::uint64_t p = 2; p <= 64; ++p)
    for (std::uint64_t bytes = 1; bytes <= (1u << 22); bytes *= 2) {
      LibraryDefault e;
      REQUIRE(ompi_default(Collective::bcast, p, bytes, &e));
      if (e.name != "pipeline") continue;
      ++pipelines;
      CHECK(e.algorithm == find_algorithm(Collective::bcast, "chain"));
      CHECK(e.note == "pipeline, unsegmented");
    }
  CHECK(pipelines > 0);
  REQUIRE(ompi_default(Collective::bcast, 8, 1048575, &d));
  CHECK(d.name == "basic_linear");
  CHECK(d.algorithm == find_algorithm(Collective::bcast, "linear"));
  // MPI_Allgather: two ranks have their own rule; recursive doubling falls back to
  // Bruck on 24 ranks; neighbor exchange to the ring on an odd count.
  REQUIRE(ompi_default(Collective::allgather, 2, 1 << 20, &d));
  CHECK(d.name == "two_proc");
  REQUIRE(ompi_default(Collective::allgather, 16, 8, &d));
  CHECK(d.name == "recursive_doubling");
  CHECK(d.note.empty());
  REQUIRE(ompi_default(Collective::allgather, 24, 8, &d));
  CHECK(d.name == "bruck");
  CHECK(d.note == "recursive_doubling falls back: p is not a power of two");
  CHECK(d.algorithm == find_algorithm(Collective::allgather, "bruck"));
  REQUIRE(ompi_default(Collective::allgather, 33, 2048, &d));
  CHECK(d.name == "ring");
  CHECK(d.note == "neighbor falls back: p is odd");
  // MPI_Allgatherv: the mean block; two ranks have their own rule.
  REQUIRE(ompi_default(Collective::allgatherv, 2, 8, &d));
  CHECK(d.name == "ring");
  CHECK(d.algorithm == find_algorithm(Collective::allgatherv, "ring"));
  REQUIRE(ompi_default(Collective::allgatherv, 12, 100, &d));
  CHECK(d.name == "default");
  // MPI_Reduce of doubles: Rabenseifner below 8 bytes on fewer than 4 ranks, which
  // runs linear with fewer doubles than the power of two below p.
  REQUIRE(ompi_default(Collective::reduce, 3, 0, &d));
  CHECK(d.name == "linear");
  CHECK(d.note == "rabenseifner falls back: fewer elements than the power of two below p");
  REQUIRE(ompi_default(Collective::reduce, 64, 1 << 20, &d));
  CHECK(d.name == "binomial");
  // MPI_Reduce_scatter compares the whole vector, MPI_Reduce_scatter_block one block.
  REQUIRE(ompi_default(Collective::reduce_scatter, 24, 65536, &d));  // 1.5 MiB
  CHECK(d.name == "ring");
  REQUIRE(ompi_default(Collective::reduce_scatter_block, 24, 65536, &d));
  CHECK(d.name == "recursive_halving");
  REQUIRE(ompi_default(Collective::gather, 4, 8, &d));
  CHECK(d.name == "binomial");
  REQUIRE(ompi_default(Collective::scatter, 4, 131072, &d));
  CHECK(d.name == "linear_nb");
  // No fixed rule for the scans: coll/basic's linear chain.
  REQUIRE(ompi_default(Collective::scan, 1000, 8, &d));
  CHECK(d.name == "linear");
  CHECK(d.algorithm == find_algorithm(Collective::scan, "linear"));
}
