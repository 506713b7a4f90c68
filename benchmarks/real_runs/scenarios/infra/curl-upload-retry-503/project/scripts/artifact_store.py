"""A local stand-in for the artifact store: reads are fine, every upload gets a 503 (storage backend down)."""

import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Store(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "3")
        self.end_headers()
        self.wfile.write(b"ok\n")

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", 0))
        self.rfile.read(length)
        body = b'{"error": "storage backend unavailable"}\n'
        self.send_response(503)
        self.send_header("Retry-After", "1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Store).serve_forever()
