"""The loopback server of the tests and the measuring scripts (course/core/browser.py `serve`)."""
import socket
import struct
import time

from course.core.browser import serve


def test_a_connection_the_browser_drops_mid_file_prints_nothing(tmp_path, capfd):
    """Chromium drops connections (a page left, a fetch cancelled): no traceback in the test output for that,
    while the file is still served whole to a client that stays."""
    (tmp_path / "big.bin").write_bytes(b"x" * 4_000_000)
    with serve(tmp_path) as base:
        port = int(base.rsplit(":", 1)[1])
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.0 200")
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))   # reset, as a dropped tab does
            s.close()
        whole = socket.create_connection(("127.0.0.1", port))
        whole.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while chunk := whole.recv(1 << 16):
            got += chunk
        whole.close()
        time.sleep(0.5)
    assert got.endswith(b"x" * 1000) and len(got) > 4_000_000
    assert "Traceback" not in capfd.readouterr().err
