#!/usr/bin/env bash
# Helpers sourced by the release scripts.

log() {
  printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*"
}

die() {
  log "error: $*" >&2
  exit 1
}
