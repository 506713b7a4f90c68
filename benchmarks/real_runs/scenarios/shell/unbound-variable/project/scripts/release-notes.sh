#!/usr/bin/env bash
set -euo pipefail

prev_tag=$(git describe --tags --abbrev=0 2>/dev/null || echo "none")
echo "Previous tag: ${prev_tag}"
echo "Generating notes for ${RELEASE_TAG}"
{
  echo "## ${RELEASE_TAG}"
  echo
  cat CHANGES.md
} > release-notes.md
