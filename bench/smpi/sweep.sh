#!/bin/sh
# Measures SimGrid's SMPI at the points of mpisim's accuracy gate
# (tests/data/smpi-points.csv, checked by the test "SMPI points" in
# tests/coll/smpi_gate_test.cpp; docs/cost-models.md, "Against SimGrid's SMPI").
#
#   bench/smpi/sweep.sh [-j JOBS] [OLD_POINTS.csv] > new-points.csv
#
# Prints the points as CSV, SMPI's times filled in and mpisim's column empty;
# the causes of OLD_POINTS.csv (default tests/data/smpi-points.csv) are kept for
# the points that were there. Then fill in mpisim's times:
#
#   cp new-points.csv tests/data/smpi-points.csv
#   MPISIM_UPDATE_SMPI_POINTS=1 build/mpisim_tests -tc='SMPI points*'
#
# Needs Debian's libsimgrid-dev (smpicc, smpirun; SimGrid 3.32). Every collective
# and algorithm that both SMPI (its smpi/<collective> selector) and mpisim have,
# on two platforms of 256 nodes with the same links (full-duplex, 1.25 GB/s, 1 us):
#  - crossbar: a SimGrid cluster of private links, no backbone (2 us and one
#    link's bandwidth from node to node), mpisim's bench/smpi/crossbar.json;
#  - fat-tree-4: a SimGrid cluster with topology FAT_TREE, the 4-ary 4-tree,
#    mpisim's bench/smpi/fat-tree-4.json.
# At 16, 24, 64, 100 and 256 ranks (rank i on node i) and 8 B, 16 KiB (eager) and
# 1 MiB (rendezvous), except where SMPI needs many minutes a point: alltoall(v) stops
# at 100 ranks, and where every rank holds p blocks (alltoall(v), allgather(v),
# reduce_scatter) 1 MiB stops at 24 ranks (SMPI copies the blocks through
# temporary buffers). Power-of-two algorithms only at 16, 64 and 256 ranks.
# SMPI runs its flow model plain: bandwidth and latency factors 1, no simulated
# computation, no cross-traffic (SimGrid's reverse flow of 5 % of each flow, its
# model of TCP acknowledgements, which mpisim's links do not have), -no-privatize.
# Times in picoseconds, the makespan of one call (bench/smpi/coll.c).
# One to two hours with -j 2 on a 2-core machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jobs=1
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
old=${1:-$here/../../tests/data/smpi-points.csv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O2 -o "$work/coll" "$here/coll.c" 2>/dev/null

platform() {  # id extra-attributes
  echo '<?xml version="1.0"?>'
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1">'
  echo "  <cluster id=\"$1\" prefix=\"node-\" suffix=\"\" radical=\"0-255\" speed=\"1Gf\" bw=\"1.25GBps\" lat=\"1us\" sharing_policy=\"SPLITDUPLEX\"$2/>"
  echo '</platform>'
}
platform crossbar "" > "$work/crossbar.xml"
platform fat-tree-4 ' topology="FAT_TREE" topo_parameters="4;4,4,4,4;1,4,4,4;1,1,1,1"' > "$work/fat-tree-4.xml"
i=0
while [ $i -lt 256 ]; do echo "node-$i"; i=$((i + 1)); done > "$work/hosts"

# mpisim collective, mpisim algorithm, SMPI collective, SMPI algorithm
pairs="MPI_Barrier dissemination barrier ompi_bruck
MPI_Bcast binomial bcast binomial_tree
MPI_Bcast linear bcast flattree
MPI_Bcast scatter_recursive_doubling bcast scatter_rdb_allgather
MPI_Bcast scatter_ring bcast scatter_LR_allgather
MPI_Bcast pipelined_chain bcast NTSL
MPI_Gather binomial gather ompi_binomial
MPI_Gather linear gather ompi_basic_linear
MPI_Scatter binomial scatter ompi_binomial
MPI_Scatter linear scatter ompi_basic_linear
MPI_Allgather recursive_doubling allgather rdb
MPI_Allgather bruck allgather bruck
MPI_Allgather ring allgather ring
MPI_Allgatherv recursive_doubling allgatherv mpich_rdb
MPI_Allgatherv bruck allgatherv ompi_bruck
MPI_Allgatherv ring allgatherv mpich_ring
MPI_Allreduce recursive_doubling allreduce rdb
MPI_Allreduce rabenseifner allreduce rab_rdb
MPI_Allreduce ring allreduce lr
MPI_Allreduce reduce_bcast allreduce redbcast
MPI_Alltoall pairwise alltoall pair
MPI_Alltoall linear alltoall basic_linear
MPI_Alltoall bruck alltoall bruck
MPI_Alltoallv pairwise alltoallv pair
MPI_Alltoallv linear alltoallv ompi_basic_linear
MPI_Reduce binomial reduce binomial
MPI_Reduce linear reduce flat_tree
MPI_Reduce rabenseifner reduce scatter_gather
MPI_Reduce_scatter recursive_halving reduce_scatter ompi_basic_recursivehalving
MPI_Reduce_scatter pairwise reduce_scatter mpich_pair
MPI_Reduce_scatter recursive_doubling reduce_scatter mpich_rdb
MPI_Reduce_scatter ring reduce_scatter ompi_ring"

# The points, one a line: platform coll alg call smpi_alg ranks bytes
echo "$pairs" | while read -r coll alg call salg; do
  for plat in crossbar fat-tree-4; do
    for p in 16 24 64 100 256; do
      for bytes in 8 16384 1048576; do
        [ "$coll" = MPI_Barrier ] && [ "$bytes" != 8 ] && continue
        # Power-of-two algorithms: mpisim's scatter_recursive_doubling, SMPI's alltoall
        # pair and reduce scatter_gather (both fail on other p).
        case $salg in scatter_rdb_allgather | pair | scatter_gather) [ $((p & (p - 1))) != 0 ] && continue ;; esac
        # An alltoall of 256 ranks (65,280 messages) takes SMPI minutes at every size.
        case $call in alltoall*) [ "$p" = 256 ] && continue ;; esac
        case $call in alltoall | alltoallv | allgather | allgatherv | reduce_scatter)
          [ "$p" -gt 24 ] && [ "$bytes" = 1048576 ] && continue ;;
        esac
        echo "$plat $coll $alg $call $salg $p $bytes"
      done
    done
  done
done > "$work/points"

# One point: its CSV line (mpisim's time and the cause empty), or nothing if SMPI failed.
cat > "$work/one" <<EOF
#!/bin/sh
plat=\$1 coll=\$2 alg=\$3 call=\$4 salg=\$5 p=\$6 bytes=\$7
# SMPI's redbcast (and lr, whose fallback it is) reduces with the selected reduce:
# the binomial one, as mpisim's reduce_bcast (its bcast is binomial_tree by default).
extra=
case \$call in allreduce) extra=--cfg=smpi/reduce:binomial ;; esac
t=\$(timeout 600 smpirun -np "\$p" -platform "$work/\$plat.xml" -hostfile "$work/hosts" \\
  --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=smpi/simulate-computation:no \\
  --cfg=network/crosstraffic:0 --cfg=smpi/shared-malloc-blocksize:268435456 \\
  --cfg=smpi/"\$call":"\$salg" \$extra -no-privatize "$work/coll" "\$call" "\$bytes" 2>/dev/null) || t=
case \$t in ''|*[!0-9]*) echo "SMPI failed: \$*" >&2; exit 0 ;; esac
echo "\$plat,\$coll,\$alg,\$salg,\$p,\$bytes,\$t,,"
EOF
chmod +x "$work/one"

echo "platform,collective,algorithm,smpi_algorithm,ranks,bytes,smpi_ps,mpisim_ps,cause"
xargs -P "$jobs" -L 1 "$work/one" < "$work/points" > "$work/measured"
# In the order of the points; the causes of the old file kept.
awk -F, -v OFS=, 'FILENAME == ARGV[1] { if (FNR > 1) cause[$1 FS $2 FS $3 FS $5 FS $6] = $9; next }
     { k = $1 FS $2 FS $3 FS $5 FS $6; if (k in cause) $9 = cause[k]; print }' \
  "$([ -f "$old" ] && echo "$old" || echo /dev/null)" "$work/measured" |
  sort -t, -k1,1 -k2,2 -k3,3 -k5,5n -k6,6n
