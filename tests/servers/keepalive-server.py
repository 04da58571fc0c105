#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Streamable HTTP MCP server of the handshake era that keeps connections
open, for the tests of protocol-era detection and of connection reuse.

Usage: keepalive-server.py [OPTION…]

Listens on a free loopback port. The first line on stdout is {"port": P};
every later line is a JSON record of one request that reached it:
{"conn": N, "nth": K, "http": "POST", "method": M, "version": V,
 "header_version": H}, where N numbers the TCP connections in the order
they were accepted and K the requests on one connection, and
{"conn": N, "closed": true} once the server has closed connection N. It
exits when stdin closes.

It speaks initialize (with a session id), notifications (202), tools/list
and tools/call of one tool, `echo`. The options:

  --discover MODE     how server/discover is answered: empty (200 with
                      `{"result": {}}`, what servers that answer unknown
                      methods with an empty result give), not-found (a
                      -32601 error), text400 (400 with a plain-text body),
                      status404 (404 with no body), unsupported (400 with
                      the modern error -32022 listing only --supported),
                      listed (a valid discover result listing only
                      --supported), silent (never answered)
  --supported V,V     the revisions named by --discover unsupported/listed
  --reply json|sse    answer requests with a JSON body (default) or with an
                      event stream that ends after the answer
  --idle-close S      close a kept-alive connection idle for S seconds
  --drop-reused M     the first request for method M that arrives on a
                      connection already used by an earlier request is
                      read, recorded, and answered by closing the connection
                      without a word: what a client sees when the server
                      closes an idle connection just as the request arrives
  --keep-alive-hint S send `Keep-Alive: timeout=S` with every answer
"""

import argparse
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

OPTIONS = None
LOCK = threading.Lock()
STATE = {"connections": 0, "dropped": False}
NUMBERS = {}  # id of a connection's socket → its number
SESSION = "keepalive-session-1"


def record(**fields):
    line = json.dumps(fields, separators=(",", ":"))
    with LOCK:
        try:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        except (BrokenPipeError, ValueError):
            # The test is done and reads no more.
            pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        if OPTIONS.idle_close:
            # BaseHTTPRequestHandler ends a connection whose next request
            # does not come within the socket's timeout.
            self.timeout = OPTIONS.idle_close
        super().setup()
        with LOCK:
            STATE["connections"] += 1
            self.conn_number = STATE["connections"]
            NUMBERS[id(self.request)] = self.conn_number
        self.nth = 0

    def log_message(self, format, *args):
        pass

    def extra_headers(self):
        if OPTIONS.keep_alive_hint:
            return [("Keep-Alive", "timeout=%d" % OPTIONS.keep_alive_hint)]
        return []

    def send(self, status, body=b"", content_type="application/json", headers=()):
        self.send_response(status)
        if body or status != 202:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in list(headers) + self.extra_headers():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(body)
        self.wfile.flush()

    def answer(self, message, headers=()):
        data = json.dumps(message).encode()
        if OPTIONS.reply == "sse":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            for name, value in list(headers) + self.extra_headers():
                self.send_header(name, value)
            self.end_headers()
            event = b"event: message\ndata: " + data + b"\n\n"
            self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(event), event))
            self.wfile.flush()
        else:
            self.send(200, data, headers=headers)

    def do_GET(self):
        self.nth += 1
        record(conn=self.conn_number, nth=self.nth, http="GET")
        self.send(405, b"no standalone stream", "text/plain")

    def do_DELETE(self):
        self.nth += 1
        record(conn=self.conn_number, nth=self.nth, http="DELETE")
        self.send(200)

    def do_POST(self):
        self.nth += 1
        length = int(self.headers.get("Content-Length", "0"))
        message = json.loads(self.rfile.read(length))
        method = message.get("method")
        params = message.get("params") or {}
        record(conn=self.conn_number, nth=self.nth, http="POST", method=method,
               version=params.get("protocolVersion"),
               header_version=self.headers.get("MCP-Protocol-Version"))

        if method == OPTIONS.drop_reused and self.nth > 1 and not STATE["dropped"]:
            STATE["dropped"] = True
            self.close_connection = True
            # An abortive close, so that the client reads a reset, as it
            # does when a server drops a connection it had given up on.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       b"\x01\x00\x00\x00\x00\x00\x00\x00")
            return

        if "id" not in message:
            self.send(202)
            return

        request_id = message["id"]
        if method == "server/discover":
            self.discover(request_id)
        elif method == "initialize":
            self.answer({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": params.get("protocolVersion"),
                "serverInfo": {"name": "keepalive", "version": "1.0"},
                "capabilities": {"tools": {}}}}, headers=[("Mcp-Session-Id", SESSION)])
        elif method == "tools/list":
            self.answer({"jsonrpc": "2.0", "id": request_id, "result": {"tools": [{
                "name": "echo", "inputSchema": {"type": "object"}}]}})
        elif method == "tools/call":
            text = json.dumps(params.get("arguments") or {})
            self.answer({"jsonrpc": "2.0", "id": request_id, "result": {
                "content": [{"type": "text", "text": text}]}})
        else:
            self.answer({"jsonrpc": "2.0", "id": request_id, "result": {}})

    def discover(self, request_id):
        mode = OPTIONS.discover
        supported = OPTIONS.supported.split(",") if OPTIONS.supported else []
        if mode == "empty":
            self.answer({"jsonrpc": "2.0", "id": request_id, "result": {}})
        elif mode == "not-found":
            self.answer({"jsonrpc": "2.0", "id": request_id,
                         "error": {"code": -32601, "message": "Method not found"}})
        elif mode == "text400":
            self.send(400, b"Bad Request: no session", "text/plain")
        elif mode == "status404":
            self.send(404, b"", "text/plain")
        elif mode == "unsupported":
            body = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {
                "code": -32022, "message": "Unsupported protocol version",
                "data": {"supported": supported, "requested": "2026-07-28"}}}).encode()
            self.send(400, body)
        elif mode == "listed":
            self.answer({"jsonrpc": "2.0", "id": request_id, "result": {
                "resultType": "complete", "supportedVersions": supported,
                "capabilities": {}}})
        elif mode == "silent":
            # Keeps the connection and says nothing; the client gives up.
            self.close_connection = True
            self.rfile.read(1)
        else:
            raise ValueError(mode)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def shutdown_request(self, request):
        # Said only once the socket is closed, so that a test that reads it
        # knows the client can see the connection gone.
        super().shutdown_request(request)
        with LOCK:
            number = NUMBERS.pop(id(request), None)
        if number is not None:
            record(conn=number, closed=True)


def main():
    global OPTIONS
    parser = argparse.ArgumentParser()
    parser.add_argument("--discover", default="not-found",
                        choices=["empty", "not-found", "text400", "status404", "unsupported",
                                 "listed", "silent"])
    parser.add_argument("--supported", default="")
    parser.add_argument("--reply", default="json", choices=["json", "sse"])
    parser.add_argument("--idle-close", type=float, default=0)
    parser.add_argument("--drop-reused", default=None)
    parser.add_argument("--keep-alive-hint", type=int, default=0)
    OPTIONS = parser.parse_args()

    server = Server(("127.0.0.1", 0), Handler)
    record(port=server.server_address[1])
    threading.Thread(target=server.serve_forever, daemon=True).start()

    # Ends with the test that started it.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
