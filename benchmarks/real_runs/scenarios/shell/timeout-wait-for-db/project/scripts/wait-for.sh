#!/usr/bin/env bash
# wait-for.sh HOST PORT: block until a TCP port accepts connections.
host=$1 port=$2
until (exec 3<>"/dev/tcp/${host}/${port}") 2>/dev/null; do
  echo "$(date -u +%H:%M:%S) waiting for ${host}:${port} ..."
  sleep 1
done
echo "${host}:${port} is up"
