#!/usr/bin/env bash
# Push main; when the remote moved meanwhile, rebase onto it and try again.
set -uo pipefail
tries=${1:-3}
for i in $(seq 1 "$tries"); do
  if git push origin main; then
    echo "push succeeded on attempt $i"
    exit 0
  fi
  echo "push attempt $i failed; rebasing onto origin/main"
  git -c user.name=release-bot -c user.email=release-bot@example.invalid pull --rebase origin main || exit 1
  # the tag must point at the rebased release commit
  git tag -f -a "v$(cat VERSION)" -m "v$(cat VERSION)" HEAD
done
echo "error: giving up after $tries push attempts" >&2
exit 1
