#!/usr/bin/env bash
set -euo pipefail
SHELLCHECK_VERSION=v0.10.0
mkdir -p .tools/bin
echo "Installing shellcheck ${SHELLCHECK_VERSION}"
curl -fsSL --retry 2 --retry-delay 1 \
  "https://github.com/koalaman/shellcheck/releases/download/${SHELLCHECK_VERSION}/shellcheck-${SHELLCHECK_VERSION}.linux.x86_64.tar.xz" \
  -o .tools/shellcheck.tar.xz
tar -xJf .tools/shellcheck.tar.xz -C .tools
mv ".tools/shellcheck-${SHELLCHECK_VERSION}/shellcheck" .tools/bin/
