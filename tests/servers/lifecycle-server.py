#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stdio MCP server whose life goes wrong on request, for the tests of
StewardServer's start, crash, restart and stop.

Usage: lifecycle-server.py MODE [ARG]...

  crash STATE N    crashes (exit status 3) right after initialization on
                   its first N runs, counted in the file STATE, and serves
                   after that; says on stderr which run it is
  exit-at-once     writes a complaint to stderr and exits with status 2
                   before reading anything
  stubborn         serves, but ignores stdin closing and SIGTERM
  serve            serves: answers initialize and ping

Only the standard library is used, so the tests run anywhere Python does.
"""

import json
import os
import signal
import sys

STDERR = sys.stderr.buffer


def say(text):
    STDERR.write(text.encode() + b"\n")
    STDERR.flush()


def send(message):
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    sys.stdout.buffer.flush()


def messages():
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return
        yield json.loads(line)


def answer(message):
    method = message.get("method")
    if method == "initialize":
        params = message.get("params") or {}
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {},
                  "serverInfo": {"name": "lifecycle-server", "version": "1"}}
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": message["id"],
              "error": {"code": -32601, "message": "unknown method %s" % method}})


def serve(on_initialized=None):
    for message in messages():
        if "id" in message:
            answer(message)
        elif message.get("method") == "notifications/initialized" and on_initialized:
            on_initialized()


def crash(state, limit):
    try:
        with open(state) as f:
            run = int(f.read() or "0") + 1
    except FileNotFoundError:
        run = 1
    with open(state, "w") as f:
        f.write(str(run))

    if run > limit:
        say("run %d: serving" % run)
        serve()
        return

    def die():
        say("run %d: something went badly wrong" % run)
        say("run %d: giving up now" % run)
        os._exit(3)

    say("run %d: starting" % run)
    serve(die)


def exit_at_once():
    say("lifecycle-server: cannot read /nonexistent/settings.toml")
    say("lifecycle-server: no such file or directory")
    sys.exit(2)


def stubborn():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    serve()
    say("stdin closed; staying anyway")
    while True:
        signal.pause()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "serve"
    if mode == "crash":
        crash(sys.argv[2], int(sys.argv[3]))
    elif mode == "exit-at-once":
        exit_at_once()
    elif mode == "stubborn":
        stubborn()
    elif mode == "serve":
        serve()
    else:
        sys.exit("unknown mode %s" % mode)


if __name__ == "__main__":
    main()
