#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Streamable HTTP MCP peer for the transport tests, well behaved or not.

Usage: http-server.py [OPTION…]

Listens on 127.0.0.1 on a free port and on a second free port, "the other
origin", which only records that something reached it. The first line on
stdout is {"port": P, "other_port": Q}; every later line is one JSON record
of what happened (see record()), with times in microseconds of
CLOCK_MONOTONIC, the clock g_get_monotonic_time() reads, so that a test
can compare them with its own. Each line written to stdin comes back as a
"sync" record: once a test reads it, it has read every record written
before. The server exits when stdin closes, or after --lifetime seconds.

It speaks enough MCP for a client: initialize (with a session id),
notifications (202), tools/list, and tools/call, whose tool name picks the
behaviour (see TOOLS below). The options change how everything is served:

  --reply json|sse     answer requests with one JSON body (default) or an
                       event stream with a priming event and `retry`
  --retry MS           the `retry` sent in priming events (default 500)
  --session MODE       the Mcp-Session-Id given on initialize: good (the
                       default), none, fold (CR LF and a space inside), cr
                       (a bare CR inside), long (2000 characters), nonascii,
                       space, double (two headers)
  --get STATUS         answer the standalone GET with this status instead
                       of an event stream (404, 405, 400…)
  --listen-send        on the standalone GET stream, send a log notification
                       and a ping request at once
  --listen-close       end the standalone GET stream after its first event
                       (which has an id), so that the client reconnects
  --listen-retry MS    start each standalone GET stream with `retry: MS`
  --listen-empty       end each standalone GET stream at once, without a
                       message
  --listen-delay S     wait S seconds before answering a standalone GET
  --listen-pause S     wait S seconds after a standalone GET stream's
                       headers, before its first event: a request the
                       client sends on seeing them must still find the
                       stream
  --notify-body        answer notifications with 200 and a JSON body
  --delete STATUS      answer DELETE with this status (default 200), or
                       with 0 never answer it
  --lifetime S         exit after S seconds whatever happens (default 120)
"""

import argparse
import json
import os
import queue
import select
import socket
import socketserver
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

MIB = 1024 * 1024

OPTIONS = None
LOCK = threading.Lock()
STATE = {
    "listeners": [],     # queues of messages for the open standalone streams
    "answers": {},       # id → the client's answer to a request of ours
    "sessions": set(),
    "counter": 0,
    "pending": {},       # event id → response delivered on a GET resuming it
    "always_drop": set(),  # event ids whose resumption is dropped again
}


def monotonic_us():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def record(event, **fields):
    fields["ev"] = event
    fields["t"] = monotonic_us()
    line = json.dumps(fields, separators=(",", ":"))
    with LOCK:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def next_number():
    with LOCK:
        STATE["counter"] += 1
        return STATE["counter"]


def encode(message):
    return json.dumps(message, separators=(",", ":")).encode()


def result(request_id, value):
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def text_result(request_id, text):
    return result(request_id, {"content": [{"type": "text", "text": text}]})


class Gone(Exception):
    """The client went away."""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "http-server.py"

    def log_message(self, format, *args):
        pass

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    # Writing

    def write(self, data):
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError as error:
            raise Gone() from error

    def head(self, status, reason, headers):
        lines = [b"HTTP/1.1 %d %s\r\n" % (status, reason.encode())]
        for name, value in headers:
            if isinstance(value, str):
                value = value.encode()
            lines.append(name.encode() + b": " + value + b"\r\n")
        lines.append(b"\r\n")
        self.write(b"".join(lines))

    def send_body(self, status, reason, body, content_type="application/json", extra=()):
        headers = [("Content-Type", content_type), ("Content-Length", str(len(body)))]
        headers.extend(extra)
        self.head(status, reason, headers)
        self.write(body)

    def send_json(self, message, extra=()):
        self.send_body(200, "OK", encode(message), extra=extra)

    def start_stream(self, extra=()):
        headers = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                   ("Transfer-Encoding", "chunked")]
        headers.extend(extra)
        self.head(200, "OK", headers)

    def chunk(self, data):
        if data:
            self.write(b"%x\r\n%s\r\n" % (len(data), data))

    def end_stream(self):
        self.write(b"0\r\n\r\n")

    def event(self, message=None, event_id=None, retry=None, event_type=None):
        lines = []
        if event_type is not None:
            lines.append(b"event: " + event_type.encode())
        if event_id is not None:
            lines.append(b"id: " + event_id.encode())
        if retry is not None:
            lines.append(b"retry: %d" % retry)
        lines.append(b"data: " + (encode(message) if message is not None else b""))
        self.chunk(b"\n".join(lines) + b"\n\n")

    def priming(self):
        event_id = "ev-%d" % next_number()
        self.event(event_id=event_id, retry=OPTIONS.retry)
        return event_id

    def reset(self):
        # SO_LINGER with a zero timeout makes close() send a RST.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def wait_for_client_to_leave(self, seconds, outbox=None):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            while outbox is not None and not outbox.empty():
                self.event(outbox.get())
            readable, _, _ = select.select([self.connection], [], [], 0.2)
            if readable:
                try:
                    if not self.connection.recv(4096, socket.MSG_PEEK):
                        raise Gone()
                    self.connection.recv(4096)
                except OSError as error:
                    raise Gone() from error
        raise Gone()

    # Reading

    def headers_dict(self):
        return {name.lower(): value for name, value in self.headers.items()}

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    # Dispatch

    def do_POST(self):
        body = self.read_body()
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        record("request", method="POST", headers=self.headers_dict(), body=message)
        try:
            self.handle_post(message)
        except Gone:
            record("gone", method="POST", tool=tool_of(message))
            self.close_connection = True

    def do_GET(self):
        record("request", method="GET", headers=self.headers_dict())
        try:
            self.handle_get()
        except Gone:
            record("gone", method="GET")
            self.close_connection = True

    def do_DELETE(self):
        record("request", method="DELETE", headers=self.headers_dict())
        session = self.headers.get("Mcp-Session-Id")
        with LOCK:
            STATE["sessions"].discard(session)
        try:
            if OPTIONS.delete == 0:
                self.wait_for_client_to_leave(OPTIONS.lifetime)
            self.send_body(OPTIONS.delete, "Done" if OPTIONS.delete < 300 else "Refused", b"")
        except Gone:
            record("gone", method="DELETE")
            self.close_connection = True

    # POST

    def check_session(self, message):
        if OPTIONS.session == "none" or message.get("method") == "initialize":
            return True
        session = self.headers.get("Mcp-Session-Id")
        with LOCK:
            known = session in STATE["sessions"]
        if known:
            return True
        status, reason = (404, "Not Found") if session else (400, "Bad Request")
        error = {"jsonrpc": "2.0", "id": message.get("id"),
                 "error": {"code": -32001 if session else -32000,
                           "message": "Session not found" if session else "No session"}}
        self.send_body(status, reason, encode(error))
        return False

    def handle_post(self, message):
        if not isinstance(message, dict):
            self.send_body(400, "Bad Request", b"not JSON")
            return
        if not self.check_session(message):
            return

        if "method" not in message and "id" in message:
            with ANSWERED:
                STATE["answers"][message["id"]] = message
                ANSWERED.notify_all()

        if "method" not in message or "id" not in message:
            # A notification or a response.
            if message.get("method") == "notifications/refused":
                self.send_body(500, "Internal Server Error", b"cannot take it")
            elif OPTIONS.notify_body:
                self.send_json({"jsonrpc": "2.0", "result": {}})
            else:
                self.send_body(202, "Accepted", b"", content_type="text/plain")
            return

        method = message["method"]
        request_id = message["id"]
        if method == "initialize":
            self.initialize(request_id, message.get("params") or {})
        elif method == "tools/list":
            self.answer(result(request_id, {"tools": [
                {"name": "echo", "inputSchema": {"type": "object"}}]}))
        elif method == "tools/call":
            self.call_tool(request_id, message.get("params") or {})
        else:
            self.answer(result(request_id, {}))

    def initialize(self, request_id, params):
        extra = []
        if OPTIONS.session != "none":
            good = "sess-%d-%s" % (next_number(), os.urandom(6).hex())
            session = {
                "good": good,
                "fold": "abcdefgh\r\n ijklmnop",
                "cr": "abcdefgh\rijklmnop",
                "long": "L" * 2000,
                "nonascii": "s\u00e9ance-\u00efd-0123".encode(),
                "space": "abcdefgh ijklmnop",
            }.get(OPTIONS.session, good)
            if OPTIONS.session == "double":
                extra.append(("Mcp-Session-Id", good))
                extra.append(("Mcp-Session-Id", good + "x"))
            else:
                extra.append(("Mcp-Session-Id", session))
            with LOCK:
                STATE["sessions"].add(good)
            record("session", id=good)
        version = params.get("protocolVersion", "2025-11-25")
        self.answer(result(request_id, {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "http-server.py", "version": "1.0"},
        }), extra)

    def answer(self, message, extra=()):
        if OPTIONS.reply == "sse":
            self.start_stream(extra)
            self.priming()
            self.event(message, event_id="ev-%d" % next_number())
            self.end_stream()
        else:
            self.send_json(message, extra)

    def call_tool(self, request_id, params):
        name = params.get("name")
        arguments = params.get("arguments") or {}
        tool = TOOLS.get(name)
        if tool is None:
            self.answer(text_result(request_id, "called %s" % name))
            return
        tool(self, request_id, arguments)

    # GET

    def handle_get(self):
        last_id = self.headers.get("Last-Event-ID")
        session = self.headers.get("Mcp-Session-Id")
        if OPTIONS.session != "none":
            with LOCK:
                known = session in STATE["sessions"]
            if not known:
                self.send_body(404 if session else 400, "Not Found" if session else "Bad Request",
                               b'{"error":"no such session"}')
                return

        if last_id is not None:
            with LOCK:
                response = STATE["pending"].pop(last_id, None)
                again = last_id in STATE["always_drop"]
            if response is not None:
                record("resumed", last_event_id=last_id)
                self.start_stream()
                self.event(response, event_id="ev-%d" % next_number())
                self.end_stream()
                return
            if again:
                self.start_stream()
                event_id = self.priming()
                with LOCK:
                    STATE["always_drop"].add(event_id)
                self.end_stream()
                record("stream-closed", tool="drop-always")
                return

        if OPTIONS.get is not None:
            self.send_body(OPTIONS.get, "Refused", b"")
            return

        if last_id is None and OPTIONS.listen_delay:
            time.sleep(OPTIONS.listen_delay)
        # The stream takes messages from the moment its headers go out: a
        # client may send the request that needs it as soon as it sees them,
        # before this thread runs again.
        outbox = queue.Queue()
        with LOCK:
            STATE["listeners"].append(outbox)
        try:
            self.serve_listen_stream(last_id, outbox)
        finally:
            with LOCK:
                STATE["listeners"].remove(outbox)

    def serve_listen_stream(self, last_id, outbox):
        self.start_stream()
        record("listen-open")
        if OPTIONS.listen_pause:
            time.sleep(OPTIONS.listen_pause)
        if OPTIONS.listen_retry is not None:
            self.chunk(b"retry: %d\n\n" % OPTIONS.listen_retry)
        if OPTIONS.listen_empty:
            self.end_stream()
            record("stream-closed", tool="listen")
            return
        if last_id is None:
            if OPTIONS.listen_close:
                self.event(event_id="listen-1", retry=OPTIONS.retry)
                self.event({"jsonrpc": "2.0", "method": "notifications/message",
                            "params": {"level": "info", "data": "first"}})
                self.end_stream()
                record("stream-closed", tool="listen")
                return
            if OPTIONS.listen_send:
                self.event({"jsonrpc": "2.0", "method": "notifications/message",
                            "params": {"level": "info", "data": "unasked"}})
                self.event({"jsonrpc": "2.0", "id": "srv-listen-1", "method": "ping"})
        else:
            self.event({"jsonrpc": "2.0", "method": "notifications/message",
                        "params": {"level": "info", "data": "again"}})
        self.wait_for_client_to_leave(OPTIONS.lifetime, outbox)


def tool_of(message):
    if isinstance(message, dict) and message.get("method") == "tools/call":
        return (message.get("params") or {}).get("name")
    return None


# Tools: each answers (or misbehaves) for one tools/call.

def tool_echo(handler, request_id, arguments):
    handler.answer(text_result(request_id, str(arguments.get("message", ""))))


def tool_slow(handler, request_id, arguments):
    time.sleep(float(arguments.get("seconds", 0.5)))
    handler.answer(text_result(request_id, "slept"))


def tool_before(handler, request_id, arguments):
    """On an event stream: a notification and a request before the answer."""
    handler.start_stream()
    handler.priming()
    handler.event({"jsonrpc": "2.0", "method": "notifications/message",
                   "params": {"level": "info", "data": "before"}})
    handler.event({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"},
                  event_id="ev-%d" % next_number())
    handler.event({"jsonrpc": "2.0", "method": "notifications/custom"}, event_type="other")
    handler.event(text_result(request_id, "after"), event_id="ev-%d" % next_number())
    handler.end_stream()


def tool_ask_on_listen(handler, request_id, arguments):
    """As the SDK's servers do with a request that belongs to no request of
    the client: sent on the standalone stream, or lost if none is open."""
    with LOCK:
        listeners = list(STATE["listeners"])
    if not listeners:
        record("dropped", tool="ask-on-listen")
        handler.answer(text_result(request_id, "nobody was listening"))
        return
    ask_id = "ask-%d" % next_number()
    listeners[0].put({"jsonrpc": "2.0", "id": ask_id, "method": "elicitation/create",
                      "params": {"message": "Your name?", "requestedSchema": {
                          "type": "object", "properties": {"name": {"type": "string"}}}}})
    with ANSWERED:
        ANSWERED.wait_for(lambda: ask_id in STATE["answers"], timeout=10)
        answer = STATE["answers"].get(ask_id)
    handler.answer(text_result(request_id, json.dumps(answer.get("result") if answer else None)))


def tool_drop(handler, request_id, arguments):
    """Ends the stream after the priming event; the answer waits for a GET
    with Last-Event-ID."""
    handler.start_stream()
    event_id = handler.priming()
    with LOCK:
        STATE["pending"][event_id] = text_result(request_id, "resumed")
    time.sleep(0.05)
    if arguments.get("how") == "reset":
        record("stream-closed", tool="drop", how="reset")
        handler.reset()
        return
    handler.end_stream()
    record("stream-closed", tool="drop")


def tool_drop_no_id(handler, request_id, arguments):
    handler.start_stream()
    handler.event({"jsonrpc": "2.0", "method": "notifications/message",
                   "params": {"level": "info", "data": "no id"}})
    handler.end_stream()
    record("stream-closed", tool="drop-no-id")


def tool_drop_always(handler, request_id, arguments):
    handler.start_stream()
    event_id = handler.priming()
    with LOCK:
        STATE["always_drop"].add(event_id)
    handler.end_stream()
    record("stream-closed", tool="drop-always")


def tool_expire(handler, request_id, arguments):
    with LOCK:
        STATE["sessions"].clear()
    handler.send_body(404, "Not Found", b'{"error":"session gone"}')


def tool_huge_event(handler, request_id, arguments):
    handler.start_stream()
    handler.priming()
    handler.chunk(b"data: ")
    block = b"a" * (64 * 1024)
    sent = 0
    total = int(arguments.get("mib", 100)) * MIB
    while sent < total:
        handler.chunk(block)
        sent += len(block)
    record("sent-all", tool="huge-event")
    handler.wait_for_client_to_leave(30)


def tool_huge_json(handler, request_id, arguments):
    total = int(arguments.get("mib", 100)) * MIB
    if arguments.get("declare"):
        handler.head(200, "OK", [("Content-Type", "application/json"),
                                 ("Content-Length", str(total))])
        write = handler.write
    else:
        handler.head(200, "OK", [("Content-Type", "application/json"),
                                 ("Transfer-Encoding", "chunked")])
        write = handler.chunk
    write(b'{"jsonrpc":"2.0","id":%s,"result":{"text":"' % encode(request_id))
    block = b"a" * (64 * 1024)
    sent = 0
    while sent < total:
        write(block)
        sent += len(block)
    record("sent-all", tool="huge-json")
    handler.wait_for_client_to_leave(30)


def tool_silent(handler, request_id, arguments):
    """Headers, then nothing at all (and on an event stream no event id,
    so that nothing can be resumed)."""
    if arguments.get("sse"):
        handler.start_stream()
    else:
        handler.head(200, "OK", [("Content-Type", "application/json"),
                                 ("Transfer-Encoding", "chunked")])
        handler.chunk(b'{"jsonrpc":')
    handler.wait_for_client_to_leave(60)


def tool_no_headers(handler, request_id, arguments):
    """Takes the request and never answers."""
    handler.wait_for_client_to_leave(60)


def tool_trickle(handler, request_id, arguments):
    """One byte a second, forever: JSON, or an event that never ends."""
    if arguments.get("sse"):
        handler.start_stream()
        text = b"data: " + b"x" * 1000
    else:
        handler.head(200, "OK", [("Content-Type", "application/json"),
                                 ("Transfer-Encoding", "chunked")])
        text = b'{"jsonrpc":"2.0","id":%s,"result":{"text":"%s' % (
            encode(request_id), b"x" * 1000)
    for byte in text:
        handler.chunk(bytes([byte]))
        time.sleep(1)
    handler.wait_for_client_to_leave(60)


def tool_fail500(handler, request_id, arguments):
    body = b"database exploded\x1b[31m\r\n" + b"y" * 400
    handler.send_body(500, "Internal Server Error", body, content_type="text/plain")


def tool_rpc_error(handler, request_id, arguments):
    error = {"jsonrpc": "2.0", "id": request_id,
             "error": {"code": -32022, "message": "Unsupported protocol version",
                       "data": {"supported": ["2025-11-25"]}}}
    handler.send_body(400, "Bad Request", encode(error))


def tool_unauthorized(handler, request_id, arguments):
    challenge = ('Bearer error="invalid_token", resource_metadata='
                 '"http://127.0.0.1/.well-known/oauth-protected-resource/mcp"')
    handler.send_body(401, "Unauthorized", b'{"error":"invalid_token"}',
                      extra=[("WWW-Authenticate", challenge)])


def tool_reset(handler, request_id, arguments):
    handler.reset()


def tool_redirect(handler, request_id, arguments):
    if arguments.get("same"):
        location = "/elsewhere"
    else:
        location = "http://127.0.0.1:%d/mcp" % OTHER_PORT
    handler.send_body(int(arguments.get("status", 307)), "Temporary Redirect", b"",
                      content_type="text/plain", extra=[("Location", location)])


def tool_wrong_type(handler, request_id, arguments):
    handler.send_body(200, "OK", b"<html>hello</html>", content_type="text/html; charset=utf-8")


def tool_not_an_answer(handler, request_id, arguments):
    handler.send_json({"jsonrpc": "2.0", "method": "notifications/message",
                       "params": {"level": "info", "data": "not the answer"}})


def tool_charset(handler, request_id, arguments):
    handler.send_body(200, "OK", encode(text_result(request_id, "with charset")),
                      content_type="application/json; charset=utf-8")


def tool_batch(handler, request_id, arguments):
    handler.send_json([{"jsonrpc": "2.0", "method": "notifications/message",
                        "params": {"level": "info", "data": "in a batch"}},
                       text_result(request_id, "batched")])


TOOLS = {
    "echo": tool_echo,
    "slow": tool_slow,
    "before": tool_before,
    "ask-on-listen": tool_ask_on_listen,
    "drop": tool_drop,
    "drop-no-id": tool_drop_no_id,
    "drop-always": tool_drop_always,
    "expire": tool_expire,
    "huge-event": tool_huge_event,
    "huge-json": tool_huge_json,
    "silent": tool_silent,
    "no-headers": tool_no_headers,
    "trickle": tool_trickle,
    "fail500": tool_fail500,
    "rpc-error": tool_rpc_error,
    "unauthorized": tool_unauthorized,
    "reset": tool_reset,
    "redirect": tool_redirect,
    "wrong-type": tool_wrong_type,
    "not-an-answer": tool_not_an_answer,
    "charset": tool_charset,
    "batch": tool_batch,
}


class OtherHandler(BaseHTTPRequestHandler):
    """The other origin: whatever reaches it is recorded, and answered as a
    server would, so that a client that followed a redirect would seem to
    succeed."""
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def answer(self):
        record("other-origin", method=self.command, headers={
            name.lower(): value for name, value in self.headers.items()})
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = b'{"jsonrpc":"2.0","id":1,"result":{}}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = answer
    do_POST = answer
    do_DELETE = answer


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A client that hangs up mid-request is what several tests do.
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


def serve_stdin():
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            os._exit(0)
        record("sync", n=int(line))


def main():
    global OPTIONS, OTHER_PORT
    parser = argparse.ArgumentParser()
    parser.add_argument("--reply", choices=["json", "sse"], default="json")
    parser.add_argument("--retry", type=int, default=500)
    parser.add_argument("--session", default="good")
    parser.add_argument("--get", type=int)
    parser.add_argument("--listen-send", action="store_true")
    parser.add_argument("--listen-close", action="store_true")
    parser.add_argument("--listen-retry", type=int)
    parser.add_argument("--listen-empty", action="store_true")
    parser.add_argument("--listen-delay", type=float)
    parser.add_argument("--listen-pause", type=float)
    parser.add_argument("--notify-body", action="store_true")
    parser.add_argument("--delete", type=int, default=200)
    parser.add_argument("--lifetime", type=float, default=120)
    OPTIONS = parser.parse_args()

    server = Server(("127.0.0.1", 0), Handler)
    other = Server(("127.0.0.1", 0), OtherHandler)
    OTHER_PORT = other.server_address[1]

    for target in (server.serve_forever, other.serve_forever, serve_stdin):
        threading.Thread(target=target, daemon=True).start()

    with LOCK:
        sys.stdout.write(json.dumps({"port": server.server_address[1],
                                     "other_port": OTHER_PORT}) + "\n")
        sys.stdout.flush()

    time.sleep(OPTIONS.lifetime)
    os._exit(0)


OTHER_PORT = 0
ANSWERED = threading.Condition(LOCK)

if __name__ == "__main__":
    main()
