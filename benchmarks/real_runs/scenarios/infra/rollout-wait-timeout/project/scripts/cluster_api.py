"""A local stand-in for the cluster API: the rollout never gets past 1/3 ready replicas."""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

polls = 0


class Api(BaseHTTPRequestHandler):
    def _send(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        global polls
        if self.path == "/healthz":
            return self._send(200, {"ok": True})
        polls += 1
        if polls == 2:
            return self._send(502, {"message": "upstream connect error"})
        self._send(200, {"name": "web", "replicas": 3, "ready": 1, "phase": "Progressing",
                         "reason": "ImagePullBackOff" if polls > 3 else "ContainerCreating"})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._send(202, {"name": "web", "revision": 42, "phase": "Progressing"})


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Api).serve_forever()
