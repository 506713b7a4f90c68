#!/usr/bin/env bash
set -eu
source ./scripts/common.sh

files=$(ls dist/*.tar.gz)
for f in $files; do
  log "uploading $f"
done
if [ $# -eq 0 ]; then
  die "usage: publish.sh CHANNEL"
fi
channel=$1
read line < "dist/$channel.manifest"
log "published to $channel ($line)"
