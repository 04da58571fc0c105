#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An MCP server on the legacy HTTP+SSE transport (2024-11-05), for tests.

Usage: sse-legacy-server.py MODE

It listens on two ports of 127.0.0.1, both chosen by the system: the main
one serves the event stream at /sse (or /mcp/sse) and takes messages at the
endpoint it names; the other one stands for a foreign origin and only
records what reaches it. The first line on stdout is "MAIN_PORT OTHER_PORT";
after it comes one JSON line for every request either port receives:
{"listener", "method", "path", "headers", and for a POST "message" with the
posted message's "id" and "method"}.

It speaks enough MCP for a client to connect, list its one tool and call it
(tools/call "echo" answers with the text it was given; "hangup" ends the
event stream; "hang" is never accepted in the post-hang mode), and it
misbehaves as MODE says:

  normal          behaves
  query           names a relative endpoint with a query to keep as it is
  cross-origin    names an endpoint on the other port
  second-endpoint names its endpoint, then two more (on the other port and
                  elsewhere on this one), which must be ignored
  no-endpoint     never names an endpoint (sends a message instead)
  ends-early      closes the stream before naming an endpoint
  unauthorized    answers the GET with 401
  not-sse         answers the GET with an HTML page
  huge            names its endpoint, then starts a 100 MiB event that
                  never ends
  silent          answers the GET and then sends nothing at all
  quiet           names its endpoint and then sends nothing at all
  post-500        refuses tools/call POSTs with 500
  post-redirect   redirects tools/call POSTs to the other port
  post-hang       never answers the POST of tools/call "hang"
  redirect        redirects the GET to the other port

It stops when its stdin closes, and after two minutes in any case.
"""

import json
import os
import queue
import sys
import threading
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LIFETIME_S = 120
HUGE_BYTES = 100 * 1024 * 1024
CHUNK = 64 * 1024

MODE = sys.argv[1] if len(sys.argv) > 1 else "normal"
print_lock = threading.Lock()
sessions = {}
sessions_lock = threading.Lock()
ports = {}


def record(listener, handler, message=None):
    entry = {
        "listener": listener,
        "method": handler.command,
        "path": handler.path,
        "headers": {k.lower(): v for k, v in handler.headers.items()},
    }
    if isinstance(message, dict):
        entry["message"] = {k: message[k] for k in ("id", "method") if k in message}
    line = json.dumps(entry)
    with print_lock:
        print(line, flush=True)


class Session:
    def __init__(self):
        self.id = uuid.uuid4().hex
        self.events = queue.Queue()
        if MODE == "query":
            # Relative to /mcp/sse, with characters that must stay encoded.
            self.endpoint = "messages/post?sessionId=%s&note=a%%2Fb%%26c" % self.id
            self.expected_path = "/mcp/messages/post?sessionId=%s&note=a%%2Fb%%26c" % self.id
        else:
            self.endpoint = "/message?sessionId=%s" % self.id
            self.expected_path = self.endpoint


def tool_list():
    return {"tools": [{
        "name": "echo",
        "description": "Says back what it was given",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    }]}


def answer(session, message):
    """Queues the reply to one message on the session's stream."""
    method = message.get("method")
    if method is None or "id" not in message:
        return
    reply = {"jsonrpc": "2.0", "id": message["id"]}
    params = message.get("params") or {}
    if method == "initialize":
        reply["result"] = {
            "protocolVersion": "2024-11-05",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "sse-legacy", "version": "1.0"},
        }
    elif method == "ping":
        reply["result"] = {}
    elif method == "tools/list":
        reply["result"] = tool_list()
    elif method == "tools/call" and params.get("name") == "echo":
        text = (params.get("arguments") or {}).get("text", "")
        reply["result"] = {"content": [{"type": "text", "text": text}]}
    elif method == "tools/call" and params.get("name") == "hangup":
        reply["result"] = {"content": [{"type": "text", "text": "bye"}]}
        session.events.put(("message", json.dumps(reply)))
        session.events.put(None)
        return
    else:
        reply["error"] = {"code": -32601, "message": "no such method: %s" % method}
    session.events.put(("message", json.dumps(reply)))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    listener = "main"

    def log_message(self, format, *args):
        pass

    def send_plain(self, status, body, headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def event(self, kind, data):
        self.chunk(("event: %s\ndata: %s\n\n" % (kind, data)).encode())

    def other_origin(self):
        return "http://127.0.0.1:%d" % ports["other"]

    def do_GET(self):
        record(self.listener, self)
        if self.listener == "other":
            self.send_plain(200, "this origin is not the server's")
            return
        if self.path not in ("/sse", "/mcp/sse"):
            self.send_plain(404, "no such stream")
            return
        if MODE == "unauthorized":
            self.send_plain(401, "who are you?", [("WWW-Authenticate", "Bearer")])
            return
        if MODE == "redirect":
            self.send_plain(307, "moved", [("Location", self.other_origin() + "/sse")])
            return
        if MODE == "not-sse":
            body = "<html><body>Hello</body></html>".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.close_connection = True

        session = Session()
        with sessions_lock:
            sessions[session.id] = session
        try:
            self.stream(session)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with sessions_lock:
                sessions.pop(session.id, None)

    def stream(self, session):
        if MODE == "silent":
            threading.Event().wait()
        if MODE == "ends-early":
            self.chunk(b": nothing to say\n\n")
            self.chunk(b"")
            return
        if MODE == "no-endpoint":
            self.chunk(b": hello\n\n")
            self.event("message", json.dumps({"jsonrpc": "2.0", "method": "notifications/x"}))
            threading.Event().wait()

        if MODE == "cross-origin":
            self.event("endpoint", self.other_origin() + session.endpoint)
        else:
            self.event("endpoint", session.endpoint)

        if MODE == "second-endpoint":
            self.event("endpoint", self.other_origin() + session.endpoint)
            self.event("endpoint", "/elsewhere?sessionId=" + session.id)
            self.event("heartbeat", "{}")
        if MODE == "quiet":
            threading.Event().wait()
        if MODE == "huge":
            self.chunk(b"event: message\ndata: ")
            block = b"x" * CHUNK
            for _ in range(HUGE_BYTES // CHUNK):
                self.chunk(block)
            threading.Event().wait()

        while True:
            item = session.events.get()
            if item is None:
                self.chunk(b"")
                return
            self.event(*item)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        record(self.listener, self, message)
        if self.listener == "other":
            self.send_plain(202, "Accepted")
            return

        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        with sessions_lock:
            session = sessions.get((query.get("sessionId") or [""])[0])
        if session is None or self.path != session.expected_path:
            self.send_plain(404, "no session at %s" % self.path)
            return
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self.send_plain(415, "messages are JSON")
            return
        if not isinstance(message, dict):
            self.send_plain(400, "not a JSON-RPC message")
            return

        calls = message.get("method") == "tools/call"
        name = (message.get("params") or {}).get("name")
        if MODE == "post-500" and calls:
            self.send_plain(500, "boom: the tool runner crashed\n")
            return
        if MODE == "post-redirect" and calls:
            self.send_plain(307, "moved", [("Location", self.other_origin() + self.path)])
            return
        if MODE == "post-hang" and calls and name == "hang":
            threading.Event().wait()

        # The reply may well reach the stream before the POST is answered.
        answer(session, message)
        self.send_plain(202, "Accepted")


class OtherHandler(Handler):
    listener = "other"


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hangs up is part of every test; anything else is
        # worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def watch_stdin():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    main_server = Server(("127.0.0.1", 0), Handler)
    other_server = Server(("127.0.0.1", 0), OtherHandler)
    ports["main"] = main_server.server_address[1]
    ports["other"] = other_server.server_address[1]

    threading.Thread(target=watch_stdin, daemon=True).start()
    timer = threading.Timer(LIFETIME_S, os._exit, (0,))
    timer.daemon = True
    timer.start()
    threading.Thread(target=other_server.serve_forever, daemon=True).start()

    with print_lock:
        print("%d %d" % (ports["main"], ports["other"]), flush=True)
    main_server.serve_forever()


if __name__ == "__main__":
    main()
