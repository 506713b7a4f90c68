#!/usr/bin/env bash
set -euo pipefail
PROTO_REPO=${PROTO_REPO:-https://github.com/example-org/api-protos.git}
PROTO_REF=${PROTO_REF:-v3.2.0}
rm -rf third_party/protos
echo "Fetching protos ${PROTO_REF} from ${PROTO_REPO}"
git clone --depth 1 --branch "${PROTO_REF}" "${PROTO_REPO}" third_party/protos
git -C third_party/protos log -1 --oneline
