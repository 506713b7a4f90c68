#!/usr/bin/env bash
# retry.sh ATTEMPTS DELAY CMD...: run CMD until it succeeds, at most ATTEMPTS times.
attempts=$1 delay=$2
shift 2
for ((i = 1; i <= attempts; i++)); do
  rc=0
  "$@" || rc=$?
  if ((rc == 0)); then
    exit 0
  fi
  echo "::warning::attempt ${i}/${attempts} failed (exit ${rc}), retrying in ${delay}s"
  sleep "${delay}"
done
echo "error: all ${attempts} attempts failed"
exit 1
