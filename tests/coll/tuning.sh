#!/bin/sh
# The tuning files of `mpisim cost` loaded into the real libraries.
#
#   tuning.sh MPISIM SOURCE_DIR WORK_DIR MPICC MPIEXEC [OMPI_MPICC OMPI_MPIRUN]
#
# MPICH (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE):
#  1. it follows the file: tests/coll/tuning_probe.c's MPI_Reduce_scatter_block
#     shows by its rounding which algorithm ran; with a file predicting each
#     algorithm it gives what MPICH gives with that algorithm forced, and the
#     three results differ; mpisim run with the file (--selection) gives the same;
#  2. at the predicted crossover: a sweep where recursive doubling wins small
#     and pairwise large blocks; MPICH runs each on its side of the boundary;
#  3. it accepts a file for every collective: test programs with every kind of
#     collective (blocking, nonblocking, persistent, inter, neighbourhood) give
#     the same output with the file as without.
# Open MPI (coll_tuned_dynamic_rules_filename), when given: 1 and 3 likewise.
set -eu
mpisim=$1 src=$2 work=$3 mpicc=$4 mpiexec=$5 ompicc=${6:-} ompirun=${7:-}
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
crossbar=$src/scenarios/networks/crossbar-10g.json

"$mpisim" cc -O1 -o probe.sim "$src/tests/coll/tuning_probe.c"
"$mpicc" -O1 -o probe "$src/tests/coll/tuning_probe.c"
for p in collectives nonblocking persistent intercomm neighbors seeds; do
  "$mpicc" -O1 -o "$p.mpich" "$src/tests/c/$p.c"
done
run_mpich() {  # ranks program [file] -> sorted output of every rank
  rm -rf out && mkdir out
  if [ -n "${3:-}" ]; then
    MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$3 timeout 120 "$mpiexec" -n "$1" -outfile-pattern out/o.%r ./"$2" > /dev/null 2>&1 ||
      fail "$2 on $1 ranks with $3"
  else
    timeout 120 "$mpiexec" -n "$1" -outfile-pattern out/o.%r ./"$2" > /dev/null 2>&1 || fail "$2 on $1 ranks"
  fi
  cat out/o.* | sort
}

# 1. MPICH follows the file.
seen=
for alg in recursive_halving pairwise recursive_doubling; do
  "$mpisim" cost MPI_Reduce_scatter_block --ranks 4 --bytes 8..64KiB --algorithm "$alg" --mpich-tuning "mpich-$alg.json" -q
  with_file=$(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=mpich-$alg.json "$mpiexec" -n 4 ./probe 512)
  forced=$(MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=$alg "$mpiexec" -n 4 ./probe 512)
  [ "$with_file" = "$forced" ] || fail "MPICH with the file predicting $alg gives $with_file, with $alg forced $forced"
  simulated=$("$mpisim" run probe.sim --ranks 4 -q --selection "mpich-$alg.json" -- 512)
  [ "$simulated" = "$with_file" ] || fail "mpisim run --selection mpich-$alg.json gives $simulated, MPICH $with_file"
  echo "MPICH, file predicting $alg: $with_file (as with $alg forced, and as mpisim run with the file)"
  case " $seen " in *" $with_file "*) fail "two algorithms gave $with_file: the probe cannot tell them apart" ;; esac
  seen="$seen $with_file"
done

# 2. The crossover: recursive doubling for blocks up to 512 B, pairwise from 2 KiB.
"$mpisim" cost MPI_Reduce_scatter_block --ranks 4 --bytes 8..1MiB:4 --algorithm recursive_doubling --algorithm pairwise \
  --network "$crossbar" --mpich-tuning crossover.json > crossover.txt
grep -q "4 ranks: 8 B recursive_doubling 2.0 KiB pairwise" crossover.txt || { cat crossover.txt; fail "unexpected prediction"; }
small=$(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=crossover.json "$mpiexec" -n 4 ./probe 64)
large=$(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=crossover.json "$mpiexec" -n 4 ./probe 256)
[ "$small" = "$(MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=recursive_doubling "$mpiexec" -n 4 ./probe 64)" ] ||
  fail "512 B blocks did not run recursive doubling"
[ "$large" = "$(MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=pairwise "$mpiexec" -n 4 ./probe 256)" ] ||
  fail "2 KiB blocks did not run pairwise"
echo "MPICH at the crossover: 512 B blocks recursive doubling, 2 KiB pairwise, as predicted"

# 3. MPICH accepts a file for every collective.
for c in MPI_Barrier MPI_Bcast MPI_Gather MPI_Scatter MPI_Allgather MPI_Allgatherv MPI_Alltoall MPI_Alltoallv \
         MPI_Reduce MPI_Allreduce MPI_Reduce_scatter MPI_Scan; do
  "$mpisim" cost "$c" --ranks 3,4,8 --bytes 8..1MiB:8 --mpich-tuning "mpich-$c.json" -q
done
for n in 3 4; do
  for p in collectives nonblocking persistent intercomm neighbors seeds; do
    run_mpich "$n" "$p.mpich" > plain.txt
    for c in MPI_Barrier MPI_Bcast MPI_Gather MPI_Scatter MPI_Allgather MPI_Allgatherv MPI_Alltoall MPI_Alltoallv \
             MPI_Reduce MPI_Allreduce MPI_Reduce_scatter MPI_Scan; do
      # MPICH 4.0's persistent MPI_Allgather resends the data of its _init on 4
      # ranks under its default selection (docs/c-programs.md); a file choosing
      # another allgather corrects it, so that program is compared on 3 ranks only.
      [ "$p" = persistent ] && [ "$n" = 4 ] && continue
      run_mpich "$n" "$p.mpich" "mpich-$c.json" > tuned.txt
      cmp -s plain.txt tuned.txt || fail "$p on $n ranks differs under the file for $c"
    done
  done
done
echo "MPICH accepts the files of 12 collectives: 6 programs on 3 and 4 ranks give the same output"

[ -n "$ompicc" ] && [ -n "$ompirun" ] || { echo "Open MPI not given: its rules files are not loaded"; exit 0; }
ompi() { timeout 120 "$ompirun" --allow-run-as-root --oversubscribe -np "$@"; }
"$ompicc" -O1 -o probe.ompi "$src/tests/coll/tuning_probe.c"
"$ompicc" -O1 -o collectives.ompi "$src/tests/c/collectives.c"
seen=
for alg in recursive_halving:3 recursive_doubling:2; do
  name=${alg%:*} id=${alg#*:}
  "$mpisim" cost MPI_Reduce_scatter_block --ranks 4 --bytes 8..64KiB --algorithm "$name" --ompi-rules "ompi-$name.conf" -q
  with_file=$(ompi 4 --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "ompi-$name.conf" ./probe.ompi 512)
  forced=$(ompi 4 --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_scatter_block_algorithm "$id" ./probe.ompi 512)
  [ "$with_file" = "$forced" ] || fail "Open MPI with the rules predicting $name gives $with_file, with $name forced $forced"
  simulated=$("$mpisim" run probe.sim --ranks 4 -q --selection "ompi-$name.conf" -- 512)
  [ "$simulated" = "$with_file" ] || fail "mpisim run --selection ompi-$name.conf gives $simulated, Open MPI $with_file"
  echo "Open MPI, rules predicting $name: $with_file (as with $name forced, and as mpisim run with the rules)"
  case " $seen " in *" $with_file "*) fail "two algorithms gave $with_file" ;; esac
  seen="$seen $with_file"
done
# Open MPI's fixed decisions as mpisim encodes them (no rules file): at 8 and 4096
# bytes per block on 4 ranks the default gives what the algorithm mpisim names as
# Open MPI's default gives when forced (recursive doubling 0, recursive halving 2).
for bytes in 8 4096; do
  "$mpisim" cost MPI_Reduce_scatter_block --ranks 4 --bytes "$bytes" -q --json fixed.jsonl
  name=$(grep '"ompi_default":true' fixed.jsonl | sed 's/.*"algorithm":"\([^"]*\)".*/\1/')
  case $name in
    recursive_halving) id=3 ;;
    recursive_doubling) id=2 ;;
    *) fail "mpisim names '$name' as Open MPI's default at $bytes bytes" ;;
  esac
  plain=$(ompi 4 ./probe.ompi $((bytes / 8)))
  forced=$(ompi 4 --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_scatter_block_algorithm "$id" ./probe.ompi $((bytes / 8)))
  [ "$plain" = "$forced" ] || fail "Open MPI's default at $bytes bytes gives $plain, $name ($id) forced $forced"
  echo "Open MPI's default at $bytes bytes: $plain, as $name (mpisim's encoding of its fixed rules) forced"
done
plain=$(ompi 4 ./collectives.ompi | sort)
for c in MPI_Barrier MPI_Bcast MPI_Gather MPI_Scatter MPI_Allgather MPI_Alltoall MPI_Alltoallv MPI_Reduce \
         MPI_Allreduce MPI_Reduce_scatter MPI_Reduce_scatter_block MPI_Scan MPI_Exscan; do
  "$mpisim" cost "$c" --ranks 3,4,8 --bytes 8..1MiB:8 --ompi-rules "ompi-$c.conf" -q
  tuned=$(ompi 4 --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "ompi-$c.conf" ./collectives.ompi | sort)
  [ "$plain" = "$tuned" ] || fail "collectives under Open MPI differs with the rules for $c"
done
echo "Open MPI accepts the rules of 13 collectives: the collectives program gives the same output"
