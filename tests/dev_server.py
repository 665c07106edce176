"""`mkdocs serve` in a copy of the project, as an author runs it: started, read, waited on, stopped. Used by
tests/test_serve.py and scripts/bench_edit.py."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

MKDOCS = Path(sys.executable).parent / "mkdocs"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevServer:
    """One `mkdocs serve` process in `root`; its output is collected line by line as it comes."""

    def __init__(self, root: Path, draft: bool = False):
        self.root, self.port = root, free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("COURSE_DRAFT", "COURSE_TEST_BUILD")}
        if draft:
            env["COURSE_DRAFT"] = "1"
        env["NO_MKDOCS_2_WARNING"] = "1"
        self.proc = subprocess.Popen([str(MKDOCS), "serve", "--dev-addr", f"127.0.0.1:{self.port}"], cwd=root,
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, pattern: str, after: int = 0, timeout: float = 600) -> int:
        """Wait until a line from index `after` on matches `pattern`; return the index after it."""
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for i in range(after, len(self.lines)):
                if rx.search(self.lines[i]):
                    return i + 1
            if self.proc.poll() is not None:
                raise RuntimeError(f"mkdocs serve exited ({self.proc.returncode}):\n{self.output[-6000:]}")
            time.sleep(0.2)
        raise TimeoutError(f"no line matching {pattern!r} in {timeout} s:\n{self.output[-6000:]}")

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path.lstrip('/')}", timeout=60) as r:
            return r.read().decode("utf-8")

    def wait_until_served(self, path: str, pattern: str, timeout: float = 600) -> float:
        """Poll `path` until its HTML matches `pattern`; return the seconds it took."""
        rx, t0 = re.compile(pattern), time.monotonic()
        while time.monotonic() - t0 < timeout:
            try:
                if rx.search(self.get(path)):
                    return time.monotonic() - t0
            except OSError:
                pass  # between two builds
            if self.proc.poll() is not None:
                raise RuntimeError(f"mkdocs serve exited ({self.proc.returncode}):\n{self.output[-6000:]}")
            time.sleep(0.1)
        raise TimeoutError(f"{path} never matched {pattern!r} in {timeout} s:\n{self.output[-6000:]}")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
