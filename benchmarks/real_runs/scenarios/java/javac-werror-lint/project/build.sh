#!/usr/bin/env bash
# Compiles the library with every lint on and warnings as errors (the release build's policy).
set -euo pipefail
rm -rf build && mkdir -p build/classes
sources=$(find src -name '*.java' | sort)
echo "javac: $(echo "$sources" | wc -l) sources"
javac -Xlint:all -Werror -d build/classes $sources
jar --create --file build/metrics.jar -C build/classes .
echo "built build/metrics.jar"
