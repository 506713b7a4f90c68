#!/usr/bin/env bash
# save-cache.sh DEST: pack the build directory into the cache file DEST.
set -euo pipefail
dest=$1
echo "Packing build/ ($(du -sk build | cut -f1) KiB) into ${dest}"
tar -cf - build | gzip -1 > "${dest}"
echo "cache saved"
