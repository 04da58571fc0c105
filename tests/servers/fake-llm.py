#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A scripted LLM server for the provider tests: OpenAI chat completions and
Anthropic Messages, streamed as server-sent events, on loopback.

Usage: fake-llm.py [--script FILE] [--lifetime S]

Listens on 127.0.0.1 on a free port and writes {"port": P} as the first line
on stdout. Exits when stdin closes, or after --lifetime seconds (default
120), so that a test that dies leaves nothing behind.

The script is a JSON object, read from --script FILE or POSTed to /_script
(which replaces the previous one):

  {"models": ["name", …],            what /v1/models and /api/tags list
   "responses": [RESPONSE, …]}       answers, in order, one per request

Each request takes the first RESPONSE left whose "path" (when it has one)
is the request's path, query left out; a RESPONSE without "path" answers
POST requests only. GET /v1/models and GET /api/tags that no RESPONSE
claims list the models. A POST with nothing left gets a 500.

RESPONSE is one of:

  {"status": N, "headers": {…}, "body": JSON or text}
      one whole reply; Retry-After and the like go in "headers"
  {"status": N, "body_fill": N}
      a whole reply of N bytes "x" that says it is JSON (caps)
  Either may wait "delay" seconds before it answers at all.
  {"stream": [EVENT, …], "status": 200, "headers": {…}, "model": "…"}
      an event stream, each EVENT its own HTTP chunk:
        {"text": "…"}                      an OpenAI chunk with content
        {"tool_call": {"index", "id", "name", "arguments"}}
                                           an OpenAI chunk with one tool
                                           call fragment (members optional)
        {"finish": "stop"}                 an OpenAI chunk with finish_reason
        {"usage": {"prompt_tokens", "completion_tokens"}}
                                           an OpenAI usage chunk
        {"done": true}                     data: [DONE]
        {"anthropic": {"type": …, …}}      an Anthropic event, named by type
        {"data": JSON or text, "event": NAME}
                                           any event
        {"raw": "…"}                       bytes as they are
        {"raw_fill": N, "char": "x"}       N bytes of one character (caps)
        {"filler": N}                      an OpenAI chunk with N bytes of
                                           content (caps)
        {"delay": S}                       a pause (a slow stream)
        {"close": true}                    the connection closes, mid-stream

GET /_requests returns every request received, in order, as
{"method", "path", "headers" (names in lower case), "body" (JSON when it
parses), "finished" (the reply was sent whole), "disconnected" (the client
went away while the reply was being sent)}.
"""

import argparse
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {
    "models": ["fake-model", "fake-vision"],
    "responses": [],
    "requests": [],
}

MODEL_PATHS = ("/v1/models", "/models", "/api/tags")


def take_response(method, path):
    with LOCK:
        for i, response in enumerate(STATE["responses"]):
            wanted = response.get("path")
            if wanted is not None and wanted != path:
                continue
            if wanted is None and method != "POST":
                continue
            return STATE["responses"].pop(i)
    return None


def openai_chunk(model, delta=None, finish=None, usage=None):
    chunk = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [],
    }
    if delta is not None or finish is not None:
        chunk["choices"].append({
            "index": 0,
            "delta": delta if delta is not None else {},
            "finish_reason": finish,
        })
    if usage is not None:
        chunk["usage"] = usage
    return chunk


def sse(data, event=None):
    text = data if isinstance(data, str) else json.dumps(data)
    lines = []
    if event is not None:
        lines.append("event: " + event)
    for line in text.split("\n"):
        lines.append("data: " + line)
    return ("\n".join(lines) + "\n\n").encode()


def encode_event(event, model):
    """Returns the bytes for one EVENT, or None for the control ones."""
    if "text" in event:
        return sse(openai_chunk(model, delta={"content": event["text"]}))
    if "tool_call" in event:
        call = event["tool_call"]
        fragment = {}
        if "index" in call:
            fragment["index"] = call["index"]
        if "id" in call:
            fragment["id"] = call["id"]
            fragment["type"] = "function"
        function = {}
        if "name" in call:
            function["name"] = call["name"]
        if "arguments" in call:
            function["arguments"] = call["arguments"]
        fragment["function"] = function
        return sse(openai_chunk(model, delta={"tool_calls": [fragment]}))
    if "finish" in event:
        return sse(openai_chunk(model, finish=event["finish"]))
    if "usage" in event:
        return sse(openai_chunk(model, usage=event["usage"]))
    if event.get("done"):
        return sse("[DONE]")
    if "anthropic" in event:
        return sse(event["anthropic"], event["anthropic"].get("type"))
    if "data" in event:
        return sse(event["data"], event.get("event"))
    if "raw" in event:
        return event["raw"].encode()
    if "raw_fill" in event:
        return event.get("char", "x").encode() * event["raw_fill"]
    if "filler" in event:
        return sse(openai_chunk(model, delta={"content": "x" * event["filler"]}))
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def record(self, body):
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = body.decode("utf-8", "replace")
        entry = {
            "method": self.command,
            "path": self.path,
            "headers": headers,
            "body": parsed,
            "finished": False,
            "disconnected": False,
        }
        with LOCK:
            STATE["requests"].append(entry)
        return entry

    def mark(self, entry, **fields):
        with LOCK:
            entry.update(fields)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def send_whole(self, status, body, headers=None, fill=None):
        if fill is not None:
            data = b"x" * fill
            content_type = "application/json"
        elif isinstance(body, (dict, list)):
            data = json.dumps(body).encode()
            content_type = "application/json"
        else:
            data = (body or "").encode()
            content_type = "text/plain"
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, str(value))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def write_chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def send_stream(self, response, entry):
        model = response.get("model", "fake-model")
        self.send_response(response.get("status", 200))
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in response.get("headers", {}).items():
            self.send_header(name, str(value))
        self.end_headers()
        try:
            self.wfile.flush()
            for event in response["stream"]:
                if "delay" in event:
                    time.sleep(event["delay"])
                    continue
                if event.get("close"):
                    # Mid-stream: no terminating chunk, the socket just goes.
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                data = encode_event(event, model)
                if data is not None:
                    self.write_chunk(data)
            self.write_chunk(b"")
            self.mark(entry, finished=True)
        except (BrokenPipeError, ConnectionResetError, OSError):
            self.close_connection = True
            self.mark(entry, disconnected=True)

    def answer(self, response, entry):
        if "delay" in response:
            time.sleep(response["delay"])
        if "stream" in response:
            self.send_stream(response, entry)
            return
        try:
            self.send_whole(response.get("status", 200), response.get("body"),
                            response.get("headers"), response.get("body_fill"))
            self.mark(entry, finished=True)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            self.mark(entry, disconnected=True)

    def list_models(self, path):
        with LOCK:
            models = list(STATE["models"])
        if path == "/api/tags":
            return {"models": [{"name": m, "model": m} for m in models]}
        return {
            "object": "list",
            "data": [{"id": m, "object": "model", "type": "model"} for m in models],
            "has_more": False,
        }

    def handle_request(self):
        body = self.read_body()
        path = self.path.split("?", 1)[0]

        if path == "/_script" and self.command == "POST":
            script = json.loads(body)
            with LOCK:
                STATE["responses"] = list(script.get("responses", []))
                if "models" in script:
                    STATE["models"] = list(script["models"])
            self.send_whole(200, {"ok": True})
            return
        if path == "/_requests" and self.command == "GET":
            with LOCK:
                snapshot = json.loads(json.dumps(STATE["requests"]))
            self.send_whole(200, snapshot)
            return

        entry = self.record(body)
        response = take_response(self.command, path)
        if response is not None:
            self.answer(response, entry)
        elif self.command == "GET" and path in MODEL_PATHS:
            self.send_whole(200, self.list_models(path))
            self.mark(entry, finished=True)
        else:
            self.send_whole(500, {"error": {"message": "fake-llm: no scripted response left",
                                            "type": "server_error"}})
            self.mark(entry, finished=True)

    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        self.handle_request()


def watch_stdin():
    # The test closes our stdin, or dies: either way it is time to go.
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script")
    parser.add_argument("--lifetime", type=float, default=120)
    options = parser.parse_args()

    if options.script:
        with open(options.script, encoding="utf-8") as f:
            script = json.load(f)
        STATE["responses"] = list(script.get("responses", []))
        if "models" in script:
            STATE["models"] = list(script["models"])

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    sys.stdout.write(json.dumps({"port": server.server_address[1]}) + "\n")
    sys.stdout.flush()

    threading.Thread(target=watch_stdin, daemon=True).start()
    timer = threading.Timer(options.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    server.serve_forever()


if __name__ == "__main__":
    main()
