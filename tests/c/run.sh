#!/bin/sh
# The C programs of tests/c, built with `mpisim cc` and run under mpisim: their
# output (sorted: ranks print in any order under mpiexec) must equal the expected
# file, and, when MPICH is there, the same program's output under mpiexec.
# Then each erroneous case must stop with its diagnostic and exit status.
# Usage: run.sh MPISIM SOURCE_DIR WORK_DIR [MPICC MPIEXEC]
set -u
mpisim=$1 src=$2 work=$3 mpicc=${4:-} mpiexec=${5:-}
mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

build() {  # name
  "$mpisim" cc -O1 -g -pthread "$src/$1.c" -o "$1" || { fail "$1: mpisim cc"; return 1; }
  if [ -n "$mpicc" ]; then "$mpicc" -O1 -pthread "$src/$1.c" -o "$1.mpich" || fail "$1: $mpicc"; fi
}
# A program of calls MPICH 4.0 does not have: built for mpisim only.
build_own() {  # name
  "$mpisim" cc -O1 -g -pthread "$src/$1.c" -o "$1" || fail "$1: mpisim cc"
}

# name ranks args...: the output against expected/NAME.RANKS.txt and MPICH's.
compare() {
  name=$1 ranks=$2
  shift 2
  "$mpisim" run "./$name" --ranks "$ranks" -q -- "$@" > "$name.$ranks.out" 2> "$name.$ranks.err"
  status=$?
  [ $status -eq 0 ] || { fail "$name on $ranks ranks: exit $status"; cat "$name.$ranks.err"; }
  sort "$name.$ranks.out" > "$name.$ranks.sorted"
  cmp -s "$name.$ranks.sorted" "$src/expected/$name.$ranks.txt" ||
    { fail "$name on $ranks ranks: output differs from expected/$name.$ranks.txt"; diff "$name.$ranks.sorted" "$src/expected/$name.$ranks.txt" | head -20; }
  if [ -n "$mpicc" ] && [ -x "$name.mpich" ]; then
    rm -rf "mpich.$name.$ranks" && mkdir "mpich.$name.$ranks"
    timeout 120 "$mpiexec" -n "$ranks" -outfile-pattern "mpich.$name.$ranks/out.%r" "./$name.mpich" "$@" > /dev/null 2>&1 ||
      fail "$name on $ranks ranks: mpiexec failed"
    cat "mpich.$name.$ranks"/out.* 2>/dev/null | sort > "$name.$ranks.mpich"
    cmp -s "$name.$ranks.sorted" "$name.$ranks.mpich" ||
      { fail "$name on $ranks ranks: mpisim and MPICH differ"; diff "$name.$ranks.sorted" "$name.$ranks.mpich" | head -20; }
  fi
}

# name ranks args...: against expected/NAME.RANKS.txt only, where MPICH departs
# from the standard.
expected_only() {
  keep=$mpicc
  mpicc=""
  compare "$@"
  mpicc=$keep
}

# expected-status pattern args...: an erroneous run of the errors program on 4 ranks.
erroneous() {
  want=$1 pattern=$2
  shift 2
  "$mpisim" run ./errors --ranks 4 -q -- "$@" > /dev/null 2> "errors.$1.err"
  status=$?
  [ $status -eq "$want" ] || fail "errors $*: exit $status, expected $want"
  grep -q -- "$pattern" "errors.$1.err" || { fail "errors $*: no '$pattern' in"; cat "errors.$1.err"; }
}

for p in ring globals reduce_globals collectives nonblocking datatypes comms intercomm derived completion seeds errhandler types external intercomm_groups userop_random persistent p2p_more graphs neighbors cart_random p2p_random decode names cart info attributes errhandler_api create_group persistent_order isendrecv idup in_status create_group_overlap large_count profiling userop_globals cancel_sends errors; do build $p; done
build_own request_status
build null_names
build match_size
compare ring 1 5
compare ring 4 3
compare ring 7 2
compare globals 4
compare globals 5
compare reduce_globals 4
compare reduce_globals 5
# The same under each algorithm that reduces through exchanges (mpi::Deferred).
for alg in recursive_doubling rabenseifner ring; do
  "$mpisim" run ./reduce_globals --ranks 6 -q --algorithm MPI_Allreduce=$alg \
    --algorithm MPI_Reduce_scatter_block=pairwise > "reduce_globals.$alg.out" 2>&1 ||
    fail "reduce_globals with $alg: exit $?"
  sort "reduce_globals.$alg.out" | cmp -s - "$src/expected/reduce_globals.6.txt" ||
    { fail "reduce_globals with $alg: output differs"; cat "reduce_globals.$alg.out" | head -8; }
done
for n in 1 2 3 4 5; do compare derived $n; compare completion $n; done
for n in 1 2 4; do compare seeds $n; done
for n in 2 3 4 5; do compare intercomm $n; done
for n in 1 2; do compare decode $n; done
for n in 1 3; do compare names $n; done
for n in 1 2 4 6 7 12; do compare cart $n; done
for n in 1 2 3 5; do compare graphs $n; done
# Random grids, one seed per rank count: MPI_Dims_create, coordinates, shifts, sub-grids.
compare cart_random 1 7
compare cart_random 4 1
compare cart_random 6 2
compare cart_random 12 3
compare cart_random 8 4
compare cart_random 9 5
# Random programs over the send modes, receives, probes and completion calls.
compare p2p_random 1 4
compare p2p_random 2 1
compare p2p_random 3 2
compare p2p_random 5 3
compare p2p_random 7 6
# On 1, 2 and 4 ranks the grid has a periodic dimension of size 1 or 2, whose two
# neighbours are one process, and the ring of distributed-graph edges has two
# edges between the same processes: MPI-4.1 §8.6 (Example 8.10; MPI-4.0's errata
# for MPI-3.1) pairs the blocks of such edges, and MPICH 4.0 pairs some of them
# otherwise (Open MPI 4.1 others).
for n in 3 6 7 9; do compare neighbors $n; done
for n in 1 2 4; do expected_only neighbors $n; done
for n in 1 2 3; do compare errhandler $n; done
# Every predefined type's size and extent, and reductions, against MPICH; which
# operations take which type against the standard's table (3 ranks, "ops").
for n in 1 2; do compare types $n; done
expected_only types 3 ops
# MPICH departs from the standard on three values (info.c says which).
expected_only info 3
for n in 1 2 3; do compare attributes $n; done
# MPICH 4.0.2 has no MPI_Remove_error_* and a stale MPI_LASTUSEDCODE (errhandler_api.c).
for n in 1 2; do expected_only errhandler_api $n; done
for n in 1 4 8; do compare create_group $n; done
for n in 1 2 5; do compare persistent_order $n; done
for n in 1 2 3; do compare external $n; done
for n in 2 3 4 5; do compare intercomm_groups $n; done
# A non-commutative user operation over random reductions: rank count and seed.
compare userop_random 1 1; compare userop_random 2 2; compare userop_random 3 3
compare userop_random 5 5; compare userop_random 7 6; compare userop_random 12 8
# MPICH 4.0's persistent MPI_Allgather on 2 and 4 ranks sends the data its send
# buffer held at MPI_Allgather_init at every start; the standard (§6.13) has each
# start send what the buffer holds then.
for n in 1 3; do compare persistent $n; done
for n in 2 4; do expected_only persistent $n; done
# MPICH 4.0 hangs in an MPI_Mprobe of a message a rank sent itself, and gives a
# persistent receive from MPI_PROC_NULL a source other than MPI_PROC_NULL (§3.11
# asks for MPI_PROC_NULL); Open MPI 4.1 prints exactly the expected files.
for n in 1 2 4; do expected_only p2p_more $n; done
# MPICH 4.0.2's MPI_Isendrecv gives a status of source 0, tag 0, count 0, crashes
# on MPI_PROC_NULL and hangs on one rank; the data it moves is as expected here.
for n in 1 2 3; do expected_only isendrecv $n; done
for n in 1 2 3; do expected_only request_status $n; done
for n in 1 3 4; do compare idup $n; done
for n in 2 3; do compare in_status $n; done
compare create_group_overlap 4 023 03 01 123 23 0123 13
for n in 1 3 4; do compare large_count $n; done
for n in 2 4; do compare profiling $n; done
for n in 2 5 8; do compare userop_globals $n; done
# MPICH 4.0.2 cancels no send (MPI_Test_cancelled false, the message received)
# and hangs cancelling one past its eager limit; the standard cancels a send
# whose message is not yet matched.
for n in 2 3; do expected_only cancel_sends $n; done
# The split types by hardware resource, on torus-3d.json's two processes per node.
build_own split_types
for n in 1 2 3 4; do
  "$mpisim" run ./split_types --ranks $n -q --network "$src/../../scenarios/networks/torus-3d.json" > "split_types.$n.out" 2>&1 ||
    fail "split_types on $n ranks: exit $?"
  sort "split_types.$n.out" | cmp -s - "$src/expected/split_types.$n.txt" ||
    { fail "split_types on $n ranks: output differs"; sort "split_types.$n.out" | diff - "$src/expected/split_types.$n.txt" | head; }
done
# MPICH raises MPI_Type_match_size's errors on MPI_COMM_WORLD (MPI-4.1 §9.3:
# MPI_COMM_SELF) and has quad types for 16-byte reals (match_size.c says more).
expected_only match_size 1
for n in 1 2; do expected_only null_names $n; done
grep -q "^warning: MPI_ERR_TRUNCATE: rank 1, MPI_Recv, argument count: returned to the program (MPI_ERRORS_RETURN)" \
  errhandler.2.err || { fail "a returned error is a warning"; cat errhandler.2.err; }
for n in 1 3 4 5; do compare collectives $n; compare nonblocking $n; compare datatypes $n; compare comms $n; done

# One rule, one diagnostic: the C program and the scenario of the same mistake
# stop with the same code, rank, call, argument, message and rule (only where in
# the program differs: a source line, a step's JSON pointer).
same_as_scenario() {  # case scenario options...
  case=$1 scenario=$2
  shift 2
  "$mpisim" run ./errors --ranks 4 -q "$@" -- "$case" > /dev/null 2> "same.$case.c" || true
  "$mpisim" check "$src/../../scenarios/errors/$scenario.json" > /dev/null 2> "same.$case.scenario" || true
  for side in c scenario; do
    grep -E "^(error: |  rule: )" "same.$case.$side" | sed -E 's/ \((errors\.c:[0-9]+ in main|\/program\/[0-9]+)\)//; s/ \[t=[^]]*\]$//' \
      > "same.$case.$side.lines"
  done
  [ -s "same.$case.c.lines" ] || { fail "$case: no diagnostic"; cat "same.$case.c"; }
  cmp -s "same.$case.c.lines" "same.$case.scenario.lines" ||
    { fail "$case: the C program and $scenario.json are diagnosed differently"; diff "same.$case.c.lines" "same.$case.scenario.lines"; }
}
same_as_scenario free-world comm-free-world
same_as_scenario bcast-inter-algorithm algorithm-intercomm-only --algorithm MPI_Bcast=inter

erroneous 2 "MPI_ERR_RANK: rank 0, MPI_Send, argument dest: .*(errors.c:[0-9]* in main)" bad-rank
erroneous 2 "DEADLOCK: 4 ranks blocked forever" deadlock
erroneous 2 "MPI_ERR_ROOT: rank 1, MPI_Bcast, argument root" root-mismatch
erroneous 2 "MPI_ERR_TRUNCATE: rank 1, MPI_Recv" truncate
erroneous 7 "MPI_ABORT: rank 1, MPI_Abort: called MPI_Abort(MPI_COMM_WORLD, 7)" abort
erroneous 3 "EXIT_STATUS: rank 2: called exit with status 3" exit
erroneous 2 "returned from main without calling MPI_Finalize" no-finalize
erroneous 2 "MPI_ERR_TYPE: rank 0, MPI_Send, argument datatype" bad-type
erroneous 2 "MPI_ERR_BUFFER: rank 0, MPI_Allreduce, argument sendbuf" null-buffer
erroneous 2 "MPI_ERR_COMM: rank 1, MPI_Barrier, argument comm: communicator 0x84000000 was freed" freed-comm
erroneous 2 "MPI_ERR_BUFFER: rank 0, MPI_Allgather, argument recvbuf: recvbuf's block for process 0 and sendbuf both hold 4 bytes" aliased
erroneous 4 "MPI_ABORT: .*called MPI_Abort(MPI_COMM_WORLD, 4)" abort-in-op
erroneous 2 "MPI_ERR_REQUEST: rank 0, MPI_Start, argument request: persistent request 0xac000000 is already active" start-active
erroneous 2 "MPI_ERR_REQUEST: rank 0, MPI_Mrecv, argument message: the message handle is MPI_MESSAGE_NULL" mrecv-null
erroneous 2 "MPI_ERR_REQUEST: rank 0, MPI_Cancel, argument request: the request is a nonblocking collective's" cancel-collective
erroneous 2 "UNFINISHED_COMMUNICATION.*matched by a matched probe and never received" matched-unreceived
erroneous 2 "MPI_ERR_TOPOLOGY: rank 0, MPI_Graph_create, argument edges: edges\[1\] = 5 is not a node of the graph" graph-edge
erroneous 2 "MPI_ERR_TOPOLOGY: rank 0, MPI_Cart_shift, argument comm: MPI_COMM_WORLD has no process topology" shift-not-cart
erroneous 2 "MPI_ERR_TOPOLOGY: .*MPI_Dist_graph_create_adjacent.*rank 1 lists rank 2 among its destinations 1 time(s), but rank 2 lists rank 1 among its sources 0 time(s)" dist-graph-inconsistent
erroneous 2 "MPI_ERR_TOPOLOGY: rank 0, MPI_Neighbor_allgather, argument comm: MPI_COMM_WORLD has no process topology" neighbor-no-topology
erroneous 2 "MPI_Comm_rank was called from a thread the program started" thread
erroneous 2 "segmentation fault at address 16 in rank 1" segv
erroneous 2 "rank 2 overflowed its stack of 1024 KiB" overflow
erroneous 2 "UNFINISHED_COMMUNICATION" unfinished

# Time: mpisim_compute (deterministic), and --compute host (the loop takes time).
"$mpisim" cc "$src/compute.c" -o compute || fail "compute: mpisim cc"
"$mpisim" run ./compute --ranks 3 -q | sort > compute.out
printf 'rank 0: barrier left at 0.500002 s\nrank 0: computed until 0, barrier left at later\nrank 1: computed until later, barrier left at later\nrank 2: computed until later, barrier left at later\n' |
  cmp -s - compute.out || { fail "mpisim_compute"; cat compute.out; }
"$mpisim" run ./compute --ranks 2 -q --compute host -- loop | sort > compute-host.out
printf 'rank 0: computed until later, barrier left at later\nrank 1: computed until later, barrier left at later\n' |
  cmp -s - compute-host.out || { fail "--compute host"; cat compute-host.out; }
"$mpisim" run ./compute --ranks 2 -q -- loop | sort > compute-none.out
printf 'rank 0: computed until 0, barrier left at 0\nrank 1: computed until 0, barrier left at 0\n' |
  cmp -s - compute-none.out || { fail "no --compute"; cat compute-none.out; }

# --label: each line after its rank, as mpiexec -l.
"$mpisim" run ./ring --ranks 3 --label -q -- 2 | sort > ring.labelled
printf '[0] rank 0 of 3: token 3\n[1] rank 1 of 3: token 4\n[2] rank 2 of 3: token 2\n' | cmp -s - ring.labelled ||
  { fail "--label"; cat ring.labelled; }

# The trace of a program: valid against the trace schema (when python3-jsonschema is there).
"$mpisim" run ./ring --ranks 4 --out ring-trace.json -q -- 2 > /dev/null || fail "ring --out"
if python3 -c "import jsonschema" 2> /dev/null; then
  python3 -c "
import json, sys, jsonschema
jsonschema.validate(json.load(open('ring-trace.json')), json.load(open(sys.argv[1])))
" "$src/../../docs/schema/trace.schema.json" || fail "ring's trace does not follow the schema"
fi

# Not a program of mpisim cc: a clear error, exit 2.
"$mpisim" run ./ring.mpich --ranks 2 > /dev/null 2> foreign.err
status=$?
if [ -n "$mpicc" ]; then
  [ $status -eq 2 ] && grep -q "mpisim cc" foreign.err || { fail "a program built by mpicc: exit $status"; cat foreign.err; }
fi
# A call mpi.h does not declare: a compile error (not GCC 12's warning); and a
# program that declares it itself is refused at load, naming the call.
printf '#include <mpi.h>\nint main(void) { return MPI_File_sync(0); }\n' > undeclared.c
"$mpisim" cc undeclared.c -o undeclared 2> undeclared.err && fail "an undeclared MPI call compiled"
grep -q "implicit declaration of function .MPI_File_sync" undeclared.err || { fail "undeclared call"; cat undeclared.err; }
printf '#include <mpi.h>\nint MPI_File_sync(int);\nint main(void) { return MPI_File_sync(0); }\n' > selfdeclared.c
"$mpisim" cc selfdeclared.c -o selfdeclared || fail "mpisim cc selfdeclared.c"
"$mpisim" run ./selfdeclared --ranks 2 > /dev/null 2> selfdeclared.err
[ $? -eq 2 ] && grep -q "calls MPI_File_sync, which mpisim's MPI library does not have" selfdeclared.err ||
  { fail "a program calling a missing MPI function"; cat selfdeclared.err; }
"$mpisim" run ./ring > /dev/null 2> noranks.err
[ $? -eq 2 ] && grep -q -- "--ranks" noranks.err || fail "a program without --ranks"

[ $failures -eq 0 ] && echo "all C program tests passed" || { echo "$failures failures"; exit 1; }
