#!/bin/sh
# Runs the same collectives with the same algorithm in SimGrid's SMPI and in mpisim,
# on equivalent networks, and prints a side-by-side table (markdown).
#
#   bench/smpi/compare.sh [MPISIM] > table.md
#
# Needs Debian's libsimgrid-dev and simgrid (smpicc, smpirun). The SMPI platform is
# a SimGrid cluster of private full-duplex links of 1.25 GB/s and 1 us, no backbone:
# from node to node 2 us and one link's bandwidth, as mpisim's crossbar topology in
# bench/smpi/crossbar.json. SMPI runs its plain flow model (correction factors 1,
# no computation, no privatization), so both sides share bandwidth max-min fairly.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mpisim=${1:-$here/../../build/mpisim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O2 -o "$work/coll" "$here/coll.c" 2>/dev/null
{
  echo '<?xml version="1.0"?>'
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1">'
  echo '  <cluster id="crossbar" prefix="node-" suffix="" radical="0-255" speed="1Gf" bw="1.25GBps" lat="1us" sharing_policy="FULLDUPLEX"/>'
  echo '</platform>'
} > "$work/platform.xml"
i=0
while [ $i -lt 256 ]; do echo "node-$i"; i=$((i + 1)); done > "$work/hosts"

# collective  mpisim-name  smpi-call  smpi-algorithm  mpisim-algorithm
cases="MPI_Allreduce allreduce rdb recursive_doubling
MPI_Allreduce allreduce lr ring
MPI_Bcast bcast binomial_tree binomial
MPI_Alltoall alltoall pair pairwise"

echo "| collective | algorithm (mpisim / SMPI) | ranks | bytes | mpisim | SMPI | difference |"
echo "|---|---|---|---|---|---|---|"
echo "$cases" | while read -r coll call smpi_alg alg; do
  for p in 16 64 256; do
    for bytes in 8 65536 1048576; do
      [ "$call" = alltoall ] && [ "$bytes" = 1048576 ] && [ "$p" = 256 ] && continue
      ours=$("$mpisim" cost "$coll" --ranks "$p" --bytes "$bytes" --algorithm "$alg" \
               --network "$here/crossbar.json" -q --json "$work/out.jsonl" && sed 's/.*"time_ps":\([0-9]*\).*/\1/' "$work/out.jsonl")
      theirs=$(smpirun -np "$p" -platform "$work/platform.xml" -hostfile "$work/hosts" \
                 --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=smpi/simulate-computation:no \
                 --cfg=smpi/"$call":"$smpi_alg" -no-privatize "$work/coll" "$call" "$bytes" 2>/dev/null)
      diff=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%+.1f%%", (a - b) * 100 / b }')
      echo "| $coll | $alg / $smpi_alg | $p | $bytes | $(awk -v a="$ours" 'BEGIN{printf "%.3f us", a/1e6}') | $(awk -v b="$theirs" 'BEGIN{printf "%.3f us", b/1e6}') | $diff |"
    done
  done
done
