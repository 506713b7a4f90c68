"""A local stand-in for the deploy API: the CI token may read, not deploy."""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Api(BaseHTTPRequestHandler):
    def _send(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/healthz":
            return self._send(200, {"ok": True})
        self._send(200, {"environment": "staging", "current": "1.4.1", "locked": False})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._send(403, {"message": "token 'ci-readonly' lacks scope deployments:write"})


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Api).serve_forever()
