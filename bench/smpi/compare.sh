#!/bin/sh
# Compares the wall-clock times of SimGrid's SMPI and mpisim, in data mode: the three
# workloads of docs/performance.md (allreduce of 1 MiB on 256 ranks, Rabenseifner
# and recursive doubling; alltoall of 1 KiB on 1,024 ranks, pairwise), buffers
# initialised on both sides, best of three runs each, and prints the ratios
# (markdown). The simulated times of the two are compared by bench/smpi/sweep.sh
# and the test "SMPI points" (docs/cost-models.md, "Against SimGrid's SMPI").
#
#   bench/smpi/compare.sh [--data] [MPISIM] > table.md
#
# Needs Debian's libsimgrid-dev and simgrid (smpicc, smpirun). The SMPI platform is
# a SimGrid cluster of private full-duplex links of 1.25 GB/s and 1 us, no backbone:
# from node to node 2 us and one link's bandwidth, as mpisim's crossbar topology in
# bench/smpi/crossbar.json. SMPI runs its plain flow model (correction factors 1,
# no computation, no privatization).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --data ]; then shift; fi
mpisim=${1:-$here/../../build/mpisim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O2 -o "$work/coll" "$here/coll.c" 2>/dev/null
{
  echo '<?xml version="1.0"?>'
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1">'
  echo '  <cluster id="crossbar" prefix="node-" suffix="" radical="0-1023" speed="1Gf" bw="1.25GBps" lat="1us" sharing_policy="FULLDUPLEX"/>'
  echo '</platform>'
} > "$work/platform.xml"
i=0
while [ $i -lt 1024 ]; do echo "node-$i"; i=$((i + 1)); done > "$work/hosts"

smpi() {  # ranks call smpi-algorithm bytes [init]
  p=$1 call=$2 alg=$3 bytes=$4
  shift 4
  smpirun -np "$p" -platform "$work/platform.xml" -hostfile "$work/hosts" \
    --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=smpi/simulate-computation:no \
    --cfg=smpi/"$call":"$alg" -no-privatize "$work/coll" "$call" "$bytes" "$@" 2>/dev/null
}

# The best of three wall-clock times of a command, in seconds.
best_of_3() {
  best=
  for run in 1 2 3; do
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
  done
  echo "$best"
}

scenarios=$here/../scenarios
# workload  ranks  smpi-call  smpi-algorithm  bytes  scenario
cases="allreduce-rabenseifner 256 allreduce rab_rdb 1048576 allreduce-rabenseifner-1mib.json
allreduce-recursive-doubling 256 allreduce rdb 1048576 allreduce-recursive-doubling-1mib.json
alltoall-pairwise 1024 alltoall pair 1024 alltoall-pairwise-1kib-data.json"
echo "| workload (data mode, buffers initialised) | ranks | mpisim | SMPI | mpisim / SMPI |"
echo "|---|---|---|---|---|"
echo "$cases" | while read -r name p call alg bytes scenario; do
  ours=$(best_of_3 "$mpisim" run "$scenarios/$scenario" --ranks "$p" --payload data --trace summary -q \
           --network "$here/crossbar.json")
  theirs=$(best_of_3 smpi "$p" "$call" "$alg" "$bytes" init)
  echo "| $name | $p | $ours s | $theirs s | $(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }') |"
done
