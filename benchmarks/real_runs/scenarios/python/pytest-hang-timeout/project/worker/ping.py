import socket


def ping(host: str, port: int, timeout: float | None = None) -> bytes:
    with socket.create_connection((host, port)) as s:
        s.settimeout(timeout)
        s.sendall(b"PING\n")
        return s.recv(64)
