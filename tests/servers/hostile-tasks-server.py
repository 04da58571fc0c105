#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stdio MCP server (2025-11-25 tasks) that abuses them, for the tests
of the client's tasks.

Usage: hostile-tasks-server.py

Its one tool, "spin", runs only as a task. The server asks to be polled
every 0 ms, floods status notifications for tasks it never made and for
the real one with a status that contradicts tasks/get, sends a status
message of 200,000 characters, and after the task completed says it works
again. The result tells how the client polled: how many times, and the
shortest gap between two polls in milliseconds. A second tool, "maybe",
allows a task without needing one, and says which way it was called.

Only the standard library is used, so the tests run anywhere Python does.
"""

import json
import sys
import time

TASK_ID = "spin-1"
LONG = "x" * 200000

SPIN = {
    "name": "spin",
    "description": "Spins, as a task.",
    "inputSchema": {"type": "object", "properties": {}},
    "execution": {"taskSupport": "required"},
}

MAYBE = {
    "name": "maybe",
    "description": "Runs at once, or as a task when asked.",
    "inputSchema": {"type": "object", "properties": {}},
    "execution": {"taskSupport": "optional"},
}

state = {"polls": [], "created": None}


def send(message):
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    sys.stdout.buffer.flush()


def task(status, message):
    return {"taskId": TASK_ID, "status": status, "statusMessage": message,
            "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:00Z",
            "ttl": None, "pollInterval": 0}


def status_now():
    # Working for the first polls, then completed; once completed it
    # claims to work again, which a finished task may not.
    polls = len(state["polls"])
    if polls < 4:
        return "working"
    if polls == 4:
        return "completed"
    return "working"


def answer(request):
    method = request.get("method")
    params = request.get("params") or {}
    rid = request.get("id")

    if method == "initialize":
        return {"protocolVersion": "2025-11-25", "serverInfo": {"name": "hostile-tasks",
                                                                "version": "1"},
                "capabilities": {"tools": {}, "tasks": {"list": {}, "cancel": {},
                                                        "requests": {"tools": {"call": {}}}}}}
    if method == "tools/list":
        return {"tools": [SPIN, MAYBE]}
    if method == "tools/call" and params.get("name") == "maybe":
        if "task" not in params:
            return {"content": [{"type": "text", "text": "maybe ran at once"}]}
        return {"task": dict(task("completed", "done"), taskId="maybe-1", pollInterval=100)}
    if method == "tasks/result" and params.get("taskId") == "maybe-1":
        return {"content": [{"type": "text", "text": "maybe ran as a task"}]}
    if method == "tools/call":
        if "task" not in params:
            return {"error": {"code": -32601, "message": "spin runs only as a task"}}
        # A flood of notifications for tasks that do not exist.
        for i in range(500):
            send({"jsonrpc": "2.0", "method": "notifications/tasks/status",
                  "params": dict(task("completed", "not yours"), taskId="ghost-%d" % i)})
        return {"task": task("working", LONG)}
    if method == "tasks/get":
        state["polls"].append(time.monotonic())
        return task(status_now(), LONG if status_now() == "working" else "done")
    if method == "tasks/result":
        polls = state["polls"]
        gaps = [b - a for a, b in zip(polls, polls[1:])]
        shortest = int(min(gaps) * 1000) if gaps else -1
        return {"content": [{"type": "text",
                             "text": "polled %d times, shortest gap %d ms" % (len(polls),
                                                                             shortest)}],
                "_meta": {"io.modelcontextprotocol/related-task": {"taskId": TASK_ID}}}
    if rid is not None:
        return {"error": {"code": -32601, "message": "Method not found: %s" % method}}
    return None


def main():
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return
        request = json.loads(line)
        reply = answer(request)
        if reply is None or request.get("id") is None:
            continue
        if "error" in reply and len(reply) == 1:
            send({"jsonrpc": "2.0", "id": request["id"], "error": reply["error"]})
        else:
            send({"jsonrpc": "2.0", "id": request["id"], "result": reply})


if __name__ == "__main__":
    main()
