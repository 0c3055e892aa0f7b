#!/bin/sh
# Calibration against a real MPI: bench/pingpong.c measures this machine under
# mpiexec; `mpisim calibrate` fits each form to it; the fitted piecewise network
# then predicts a 2-rank exchange (MPI_Sendrecv both ways at once, the pattern the
# ping-pong does not measure), compared with its measured time.
#
#   calibrate.sh MPISIM MPICC MPIEXEC SOURCE_DIR WORK_DIR
set -eu
mpisim=$1 mpicc=$2 mpiexec=$3 src=$4 work=$5
mkdir -p "$work"
"$mpicc" -O2 -o "$work/pingpong" "$src/bench/pingpong.c"

# Measures the ping-pong and fits each form to it.
fit() {
  "$mpiexec" -n 2 "$work/pingpong" > "$work/pingpong.csv"
  for model in hockney loggp piecewise; do
    "$mpisim" calibrate "$work/pingpong.csv" --model "$model" --name "this-machine-$model" -o "$work/$model.json" > "$work/$model.txt"
    grep -q '^error: at most' "$work/$model.txt"
  done
  cat "$work/piecewise.txt"
}

# Predicts each exchange with the piecewise fit and compares it with its
# measured time; fails when one is more than a factor of 2 apart.
exchanges() {
  status=0
  # A loaded machine can slow one measurement down: each exchange gets three tries.
  for bytes in 64 4096 1048576; do
    iters=$([ "$bytes" -le 4096 ] && echo 2000 || echo 100)
    sed -e "s/BYTES/$bytes/g" -e "s/ITERS/$iters/g" > "$work/exchange.json" <<'JSON'
{"mpisim": 1, "name": "exchange", "about": "two ranks exchange BYTES bytes ITERS times with MPI_Sendrecv", "ranks": 2,
 "program": [
  {"buffer": "a", "type": "MPI_BYTE", "count": BYTES},
  {"buffer": "b", "type": "MPI_BYTE", "count": BYTES},
  {"repeat": ITERS, "program": [
    {"call": "MPI_Sendrecv", "sendbuf": "a", "sendcount": BYTES, "sendtype": "MPI_BYTE", "dest": "1 - rank", "sendtag": 0,
     "recvbuf": "b", "recvcount": BYTES, "recvtype": "MPI_BYTE", "source": "1 - rank", "recvtag": 0,
     "comm": "MPI_COMM_WORLD"}]}]}
JSON
    "$mpisim" run "$work/exchange.json" --network "$work/piecewise.json" --payload sizes -q --out "$work/exchange-trace.json"
    makespan=$(grep -o '"makespan_ps": *[0-9]*' "$work/exchange-trace.json" | head -1 | sed 's/.*: *//')
    ok=no
    for try in 1 2 3; do
      measured=$("$mpiexec" -n 2 "$work/pingpong" exchange "$bytes" "$iters")
      if line=$(awk -v m="$measured" -v p="$makespan" -v n="$iters" -v b="$bytes" 'BEGIN {
        q = p / n / 1e6; r = q / m
        printf "exchange of %d bytes: measured %.3f us per iteration, predicted %.3f us (ratio %.2f)", b, m, q, r
        exit !(r >= 0.5 && r <= 2) }'); then
        ok=yes
        break
      fi
      echo "$line: more than a factor of 2 apart (try $try of 3)"
    done
    [ $ok = yes ] || status=1
    echo "$line"
  done
  return $status
}

# The ping-pong itself may have been the slowed measurement (every exchange then
# runs faster than predicted): it is measured again, up to three times in all.
for round in 1 2 3; do
  fit
  if exchanges; then exit 0; fi
  echo "round $round of 3 failed; measuring the ping-pong again"
done
exit 1
