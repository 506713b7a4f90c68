#!/usr/bin/env bash
# Poll a deployment until all replicas are ready or the deadline passes.
set -uo pipefail
name=$1
deadline=$2
start=$SECONDS
attempt=0
while (( SECONDS - start < deadline )); do
  attempt=$((attempt + 1))
  if ! status=$(curl -fsS --max-time 3 "http://127.0.0.1:18535/deployments/$name/status" 2>&1); then
    echo "error: status request failed (attempt $attempt): $status; retrying"
    sleep 1
    continue
  fi
  ready=$(python3 "$(dirname "$0")/rollout_status.py" "$status")
  echo "[$(( SECONDS - start ))s] $name: $ready"
  case $ready in
    3/3*) echo "rollout of $name complete"; exit 0 ;;
  esac
  sleep 1
done
echo "Error: timed out after ${deadline}s waiting for deployment '$name' to become ready" >&2
exit 1
