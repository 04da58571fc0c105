#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stdio MCP peer for the transport tests, well behaved or not on request.

Usage: stdio-server.py [MODE]

MODE "serve" (the default) answers each request on stdin with a result and
misbehaves when a request asks it to (see the METHODS table, and
"close-stdin", which closes stdin but keeps the server running). The other
modes misbehave from the start:

  stubborn   ignores stdin closing and SIGTERM, and forks a child that does
             the same and keeps stdout open; announces the child's pid
  escape     forks a child into a new session that keeps the pipes open,
             announces its pid and exits
  huge N     writes N bytes to stdout without a newline, then waits
  garbage N  writes N lines that are not JSON, then waits for stdin to close

Only the standard library is used, so the tests run anywhere Python does.
"""

import json
import os
import signal
import sys
import time

STDOUT = sys.stdout.buffer
STDERR = sys.stderr.buffer


def write_stdout(data):
    STDOUT.write(data)
    STDOUT.flush()


def send(message):
    write_stdout(json.dumps(message, separators=(",", ":")).encode() + b"\n")


def notify(method, params):
    send({"jsonrpc": "2.0", "method": method, "params": params})


def monotonic_us():
    # CLOCK_MONOTONIC, the clock g_get_monotonic_time() reads on Linux.
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def stdin_lines():
    # readline() returns as soon as one line is in, unlike iterating over
    # a buffered file, which could wait for more input.
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return
        yield line


def do_echo(params):
    return {"params": params}


def do_environ(params):
    return {"environ": dict(os.environ)}


def do_cwd(params):
    return {"cwd": os.getcwd()}


def do_stderr(params):
    for line in params.get("lines", []):
        STDERR.write(line.encode() + b"\n")
    STDERR.flush()
    return {}


def do_raw(params):
    """Writes bytes (given as hex) to stdout as they are, count times."""
    data = bytes.fromhex(params["hex"])
    write_stdout(data * params.get("count", 1))
    return {}


def do_deep(params):
    depth = params["depth"]
    write_stdout(b"[" * depth + b"]" * depth + b"\n")
    return {}


def do_exit(params):
    if "stdout" in params:
        write_stdout(params["stdout"].encode())
    if "stderr" in params:
        STDERR.write(params["stderr"].encode())
    STDERR.write(b"exiting at %d\n" % monotonic_us())
    STDERR.flush()
    os._exit(params.get("status", 1))


def do_kill(params):
    STDERR.write(b"killing myself at %d\n" % monotonic_us())
    STDERR.flush()
    os.kill(os.getpid(), params.get("signal", signal.SIGKILL))
    return {}


def do_flood_stderr(params):
    """Writes as fast as the pipe takes it, without reading stdin."""
    line = b"x" * 1023 + b"\n"
    block = line * 64
    remaining = params["bytes"]
    while remaining > 0:
        chunk = block[:remaining]
        STDERR.write(chunk)
        remaining -= len(chunk)
    STDERR.flush()
    return {"flooded": params["bytes"]}


def do_big(params):
    """Writes count notifications of about size bytes each, back to back."""
    pad = "p" * params["size"]
    for seq in range(params["count"]):
        notify("big", {"seq": seq, "pad": pad})
    return {}


def do_initialize(params):
    """Lets McpClient connect, for the tests that go through the client."""
    return {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"logging": {}},
            "serverInfo": {"name": "stdio-server", "version": "1"}}


def do_flood(params):
    """Sends count log notifications paced at rate per second, then answers."""
    count = params["count"]
    rate = params["rate"]
    start = time.monotonic()
    for seq in range(count):
        due = start + seq / rate
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        notify("notifications/message", {"level": "info", "data": {"seq": seq}})
    return {"sent": count}


def close_stdin_and_stay(message_id):
    """Stops reading stdin for good but keeps running, so writes fail."""
    os.close(0)
    send({"jsonrpc": "2.0", "id": message_id, "result": {}})
    while True:
        signal.pause()


METHODS = {
    "echo": do_echo,
    "environ": do_environ,
    "cwd": do_cwd,
    "stderr": do_stderr,
    "raw": do_raw,
    "deep": do_deep,
    "exit": do_exit,
    "kill": do_kill,
    "flood-stderr": do_flood_stderr,
    "big": do_big,
    "initialize": do_initialize,
    "flood": do_flood,
}


def serve():
    for line in stdin_lines():
        message = json.loads(line)
        if "id" not in message:
            continue
        method = message.get("method")
        if method == "close-stdin":
            close_stdin_and_stay(message["id"])
        handler = METHODS.get(method)
        if handler is None:
            send({"jsonrpc": "2.0", "id": message["id"],
                  "error": {"code": -32601, "message": "unknown method %s" % method}})
            continue
        result = handler(message.get("params") or {})
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})


def stubborn():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        # The child keeps stdout open and outlives stdin too.
        while True:
            signal.pause()
    notify("child", {"pid": child})
    for _ in stdin_lines():
        pass
    STDERR.write(b"stdin closed; staying anyway\n")
    STDERR.flush()
    while True:
        signal.pause()


def escape():
    """Leaves a child behind in a session of its own, holding the pipes."""
    ready_read, ready_write = os.pipe()
    child = os.fork()
    if child == 0:
        os.setsid()
        os.write(ready_write, b".")
        while True:
            signal.pause()
    # Only once the child is out of the group may the parent exit.
    os.read(ready_read, 1)
    notify("child", {"pid": child})
    STDERR.write(b"exiting at %d\n" % monotonic_us())
    STDERR.flush()
    os._exit(0)


def huge(size):
    block = b"x" * (1024 * 1024)
    written = 0
    while written < size:
        chunk = block[:size - written]
        write_stdout(chunk)
        written += len(chunk)
    while True:
        signal.pause()


def garbage(count):
    for i in range(count):
        write_stdout(b"not json, line %d\n" % i)
    for _ in stdin_lines():
        pass


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "serve"
    if mode == "serve":
        serve()
    elif mode == "stubborn":
        stubborn()
    elif mode == "escape":
        escape()
    elif mode == "huge":
        huge(int(sys.argv[2]))
    elif mode == "garbage":
        garbage(int(sys.argv[2]))
    else:
        sys.exit("unknown mode %s" % mode)


if __name__ == "__main__":
    main()
