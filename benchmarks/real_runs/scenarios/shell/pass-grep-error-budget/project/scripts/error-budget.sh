#!/usr/bin/env bash
set -euo pipefail
budget=${ERROR_BUDGET:-5}
echo "ERROR lines per log:"
grep -c '^ERROR' logs/*.log
total=$(cat logs/*.log | grep -c '^ERROR' || true)
echo "first errors:"
grep -h '^ERROR' logs/*.log | head -3
if (( total > budget )); then
  echo "error budget exceeded: ${total} > ${budget}"
  exit 1
fi
echo "error budget ok: ${total} <= ${budget}"
