#!/usr/bin/env bash
# Large and runaway inputs under an address-space limit of 24 GiB (this machine's
# memory): each ends with exit status 2 and its diagnostic, in bounded time, never
# with exit status 1 or a signal.
set -u
mpisim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

expect() {  # expect NAME CODE -- command...
  local name=$1 code=$2
  shift 3
  local start=$SECONDS
  prlimit --as=$((24 << 30)) "$@" >"$dir/out" 2>"$dir/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q "$code" "$dir/err"; then
    echo "FAIL $name: exit $rc, expected 2 and $code"; sed -n 1,5p "$dir/err"; fail=1
  else
    echo "ok   $name: exit 2, $code, $((SECONDS - start)) s"
  fi
}

printf '{"mpisim": 1, "program": [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]}' >"$dir/barrier.json"
expect "2^24 ranks under the default --max-memory" LIMIT_MEMORY -- \
  "$mpisim" run "$dir/barrier.json" --ranks 16777216 --payload sizes

printf '{"mpisim": 1, "program": [{"repeat": 4611686018427387904, "program": [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]}]}' \
  >"$dir/forever.json"
expect "a repeat of 2^62 at the default event limit" LIMIT_EVENTS -- "$mpisim" run "$dir/forever.json" --ranks 2

python3 - "$dir/nested.json" <<'PY'
import json, sys
p = [{"call": "MPI_Barrier", "comm": "MPI_COMM_WORLD"}]
for _ in range(10):
    p = [{"repeat": 1000, "program": p}]
json.dump({"mpisim": 1, "ranks": 2, "program": p}, open(sys.argv[1], "w"))
PY
expect "ten nested repeats of 1,000 under check" LIMIT_EVENTS -- "$mpisim" check "$dir/nested.json"

printf '{"mpisim": 1, "program": [{"buffer": "b", "type": "MPI_BYTE", "count": 4096, "init": 1}]}' >"$dir/buffers.json"
expect "2^20 ranks of 4 KiB with provenance, over --max-memory 4GiB" LIMIT_MEMORY -- \
  "$mpisim" run "$dir/buffers.json" --ranks 1048576 --max-memory 4GiB --out "$dir/trace.json"

expect "/dev/zero as a scenario" "regular file" -- "$mpisim" run /dev/zero --ranks 2
exit $fail
