"""A minimal Language Server Protocol client for the tests: JSON-RPC over a subprocess's pipes,
as an editor speaks it (Content-Length headers, requests answered by id, notifications)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_WAIT = 120  # seconds: a guard against a server that never answers, not a measure of speed


class Client:
    def __init__(self, cwd: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "UMPIRE_CACHE": "off"}
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp", *args], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.notes: list[dict] = []  # notifications received, in order
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                header = out.readline()
                if not header:
                    self.messages.put(None)
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None) -> dict:
        """The answer's result (the notifications that came before it are kept in ``notes``)."""
        message = self.answer(method, params)
        assert "error" not in message, message["error"]
        return message.get("result")

    def answer(self, method: str, params: dict | None) -> dict:
        """The whole answer to a request: its result or its error."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.response(self.next_id)

    def response(self, msg_id: int | None) -> dict:
        """The next response with this id (None: an error about a message whose id could not be read)."""
        while True:
            message = self._next()
            if "method" not in message and message.get("id") == msg_id:
                return message
            self._keep(message)

    def write(self, data: bytes) -> None:
        """Bytes as they are, framed or not."""
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def diagnostics(self, uri: str) -> list[dict]:
        """The next diagnostics published for ``uri``."""
        while True:
            message = self._next()
            self._keep(message)
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                return message["params"]["diagnostics"]

    def diagnostics_any(self, uris: set[str]) -> dict:
        """The next diagnostics published for any of ``uris``: {"uri": ..., "diagnostics": [...]}."""
        while True:
            message = self._next()
            self._keep(message)
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] in uris:
                return message["params"]

    def _keep(self, message: dict) -> None:
        if "method" in message and "id" in message:  # a request of the server's (registration): answered empty
            self.send({"id": message["id"], "result": None})
        elif "method" in message:
            self.notes.append(message)

    def _next(self) -> dict:
        message = self.messages.get(timeout=_WAIT)
        if message is None:
            raise AssertionError("the server stopped: " + self.proc.stderr.read().decode(errors="replace"))
        return message

    def close(self) -> int:
        """shutdown, exit, and the server's exit code."""
        self.request("shutdown", None)
        self.notify("exit", {})
        code = self.proc.wait(timeout=_WAIT)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code
