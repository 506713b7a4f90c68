#!/usr/bin/env bash
# Build the release image and tag it with the version from VERSION.
set -eo pipefail

version="$(cat VERSION)"
cd "$(dirname "$0")/.."
cd build
tags=(latest "$version")
echo "building image with tags $tags"
for t in ${tags[@]}; do
  echo "docker tag app:$t"
done
echo "registry: $REGISTRY_HOST"
