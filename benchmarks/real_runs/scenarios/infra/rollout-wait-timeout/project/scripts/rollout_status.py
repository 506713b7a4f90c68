"""Print a deployment status document (JSON on argv[1]) as one line."""

import json
import sys

d = json.loads(sys.argv[1])
print(f"{d['ready']}/{d['replicas']} {d['phase']} {d['reason']}")
