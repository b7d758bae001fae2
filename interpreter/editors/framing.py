"""The language server's reading of its input: the LSP base protocol (messages framed by a
`Content-Length` header, JSON-RPC 2.0 inside), with an answer to every message it cannot take in.

pygls's own reading loop (pygls.io_.run_async) is replaced because of what it does with bad
input: a message whose header gives no usable length runs into the next message's header, so
the next request is lost with it; and a request whose params do not have the method's types is
logged and never answered, which leaves the editor waiting. Here a message with no usable
length is discarded alone and answered with a Parse error (id null, since its id cannot be
read); a body that is not JSON gets a Parse error too, a message that is not a JSON-RPC 2.0
request, notification or response an Invalid Request, and a request with params of the wrong
types an Invalid params error under its own id. A notification with such params has no answer
(JSON-RPC forbids one): the server logs it to the editor (window/logMessage).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable

import cattrs
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer

from ..limits import MAX_MESSAGE_BYTES

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

_log = logging.getLogger(__name__)


def run(server: LanguageServer) -> None:
    """Serve over stdin and stdout until the input ends or the editor says `exit`."""
    writer = StdoutWriter(sys.stdout.buffer)
    server.protocol.set_writer(writer)
    reader = StdinAsyncReader(sys.stdin.buffer, server.thread_pool)
    try:
        asyncio.run(_serve(server, reader, writer))
    except BrokenPipeError:
        _log.error("the editor closed the connection")
    except (KeyboardInterrupt, SystemExit):  # `exit` ends the server with SystemExit
        pass
    finally:
        server.shutdown()


async def _serve(server: LanguageServer, reader: StdinAsyncReader, writer: StdoutWriter) -> None:
    def answer(msg_id: int | str | None, code: int, message: str) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}).encode()
        writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    async for body in bodies(reader, lambda why: answer(None, PARSE_ERROR, f"Parse error: {why}")):
        take(server, body, answer)


async def bodies(reader: StdinAsyncReader, refused: Callable[[str], None]) -> AsyncIterator[bytes]:
    """The body of each message, by its `Content-Length`; ``refused`` is told why of a message whose
    headers give no length (none, or not a number) or one over MAX_MESSAGE_BYTES, which is not read
    (a length of many gigabytes would be allocated whole). Such a body cannot be told from what
    follows it, so everything up to the next `Content-Length` header is skipped: that message alone
    is lost."""
    length: int | None = None
    headers = lost = False
    while True:
        line = await reader.readline()
        if not line:
            return
        if lost:  # the discarded body, with no line end of its own, runs into the next header
            at = line.lower().find(b"content-length")
            if at < 0:
                continue
            line, lost = line[at:], False
        if line.strip():
            headers = True
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                value = value.strip()
                length = int(value) if value.isdigit() else None  # bytes.isdigit: ASCII digits only
            continue
        if length is not None and length <= MAX_MESSAGE_BYTES:
            body = await reader.readexactly(length)
            if len(body) < length:  # the input ended inside the body
                return
            yield body
        elif headers:
            refused(f"a message of {length:,} bytes is more than the {MAX_MESSAGE_BYTES:,} the server reads; it was discarded"
                    if length is not None else
                    "a message with no Content-Length header giving its size in bytes was discarded")
            lost = True
        length, headers = None, False


def take(server: LanguageServer, body: bytes, answer: Callable[[int | str | None, int, str], None]) -> None:
    """Hand one message to pygls, or answer it with the JSON-RPC error that says why it cannot be."""
    try:
        data = json.loads(body)
    except ValueError as err:  # not UTF-8, or not JSON
        answer(None, PARSE_ERROR, f"Parse error: the message is not JSON ({err})")
        return
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0" or not isinstance(data.get("method", ""), str):
        answer(_id(data), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request, notification or response")
        return
    try:
        message = server.protocol.structure_message(data)
    except JsonRpcException as err:
        _refuse(server, data, err, answer)
        return
    try:
        server.protocol.handle_message(message)
    except Exception as err:  # as pygls does: the editor is told, the server goes on
        _log.exception("cannot handle a message")
        server.report_server_error(err, JsonRpcException)


def _refuse(server: LanguageServer, data: dict, err: JsonRpcException,
            answer: Callable[[int | str | None, int, str], None]) -> None:
    method = data.get("method")
    why = _why(err)
    if "id" in data and method:
        answer(_id(data), INVALID_PARAMS, f"Invalid params for {method}: {why}")
    elif method:  # a notification is never answered
        server.window_log_message(t.LogMessageParams(type=t.MessageType.Error,
                                                     message=f"umpire: ignored {method}, whose params are invalid: {why}"))
    else:
        answer(_id(data), INVALID_REQUEST, f"Invalid Request: {why}")


def _why(err: JsonRpcException) -> str:
    """What cattrs found wrong, by the path of each value in the message ('$.params.position')."""
    cause = err.__cause__
    if isinstance(cause, (cattrs.ClassValidationError, cattrs.IterableValidationError)):
        return "; ".join(cattrs.transform_error(cause))
    return str(cause or err)


def _id(data: object) -> int | str | None:
    """A message's id if it is one JSON-RPC allows (a string or a number), else null."""
    msg_id = data.get("id") if isinstance(data, dict) else None
    return msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None
