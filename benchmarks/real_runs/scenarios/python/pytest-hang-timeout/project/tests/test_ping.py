import socket
import threading

import pytest

from worker.ping import ping


@pytest.fixture
def silent_server():
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    conns = []
    t = threading.Thread(target=lambda: conns.append(srv.accept()), daemon=True)
    t.start()
    yield srv.getsockname()[1]
    srv.close()


def test_refused():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(ConnectionRefusedError):
        ping("127.0.0.1", port, timeout=1)


def test_ping_gets_pong(silent_server):
    assert ping("127.0.0.1", silent_server) == b"PONG\n"


def test_after():
    assert True
