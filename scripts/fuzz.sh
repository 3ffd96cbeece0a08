#!/usr/bin/env bash
# Runs fuzz targets under libFuzzer: scripts/fuzz.sh <fuzz build dir> <seconds> <target>...
# Each target starts from its committed corpus (tests/fuzz/corpus/<target>, left unchanged) plus
# what earlier runs found (<build>/corpus/<target>); a crash, leak, timeout or out-of-memory is
# saved under <build>/findings/<target>/ and makes this script fail. Prints each target's
# executions and coverage.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
seconds=$2
shift 2
failed=0
summary=()
for target in "$@"; do
  mkdir -p "$build/corpus/$target" "$build/findings/$target"
  log="$build/fuzz-$target.log"
  echo "fuzz: $target for ${seconds}s"
  PARLEY_FUZZ_TARGET=$target "$build/tests/parley_fuzz" \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$target/" \
    "$build/corpus/$target" "$root/tests/fuzz/corpus/$target" > "$log" 2>&1
  status=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  findings=$(find "$build/findings/$target" -type f | wc -l)
  if [ $status -ne 0 ] || [ "$findings" -ne 0 ]; then
    failed=1
    echo "fuzz: $target FOUND something (exit $status); see $log and $build/findings/$target/"
  fi
  summary+=("$target: ${execs:-?} executions, coverage ${coverage:-?}, findings $findings")
done
printf '%s\n' "${summary[@]}"
exit $failed
