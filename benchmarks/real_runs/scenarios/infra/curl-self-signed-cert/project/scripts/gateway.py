"""A local stand-in for the staging gateway, serving HTTPS with the given certificate."""

import ssl
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Gateway(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"status": "ok"}\n'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


port, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
server = ThreadingHTTPServer(("127.0.0.1", port), Gateway)
server.socket = ctx.wrap_socket(server.socket, server_side=True)
server.serve_forever()
