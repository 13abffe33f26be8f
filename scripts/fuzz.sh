#!/usr/bin/env bash
# `make fuzz`: runs each libFuzzer harness of Sources/DingerFuzz for FUZZ_SECONDS (default 60),
# from the checked-in seeds (Fuzz/seeds/<harness>) and a working corpus kept under .build-fuzz/.
# Crashes are written to .build-fuzz/crashes/; the summary lists executions and crashes.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
harnesses=${FUZZ_HARNESSES:-"yaml merge index pack json speech cache tzif interchange trees"}
bin=.build-fuzz/debug/DingerFuzz
mkdir -p .build-fuzz/crashes
summary=.build-fuzz/summary.txt
: > "$summary"
failed=0
for h in $harnesses; do
  mkdir -p ".build-fuzz/corpus/$h"
  log=".build-fuzz/$h.log"
  DINGER_TEST_FUZZ=$h "$bin" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix=".build-fuzz/crashes/$h-" ".build-fuzz/corpus/$h" "Fuzz/seeds/$h" >"$log" 2>&1
  status=$?
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' || echo "?")
  if [ $status -ne 0 ]; then
    failed=1
    echo "$h: CRASH after $(grep -oE '^#[0-9]+' "$log" | tail -1) runs; see $log and .build-fuzz/crashes/" | tee -a "$summary"
  else
    echo "$h: $runs runs in ${seconds} s, no crash" | tee -a "$summary"
  fi
done
exit $failed
