#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stdio MCP server (2025-11-25 tasks) whose calls take as long as the
test wants, for the tests of long calls: the overdue question, the
person's threshold for tasks, a task's status in the chat, and the task
journal's redaction.

Usage: slow-tasks-server.py

Tools:
  hold         allows a task ("optional"); called at once it answers only
               when "release" is called; as a task it ends at the next poll
  plain        no task support; answers only when "release" is called
  steps        only as a task ("required"): three polls, "Step i of 3"
               and progress on the call's token, then "steps finished"
  echo-secret  only as a task: its result holds the value of the server's
               ECHO_SECRET variable, as a careless tool might
  release      answers every held call, each with "NAME ran at once"

Only the standard library is used, so the tests run anywhere Python does.
"""

import json
import os
import sys


def tool(name, description, support=None):
    entry = {"name": name, "description": description,
             "inputSchema": {"type": "object", "properties": {}}}
    if support is not None:
        entry["execution"] = {"taskSupport": support}
    return entry


TOOLS = [
    tool("hold", "Answers when released, or runs as a task.", "optional"),
    tool("plain", "Answers when released."),
    tool("steps", "Three steps, as a task.", "required"),
    tool("echo-secret", "Says its secret, as a task.", "required"),
    tool("release", "Answers the held calls."),
]

held = []      # (request id, tool)
tasks = {}     # task id -> {"tool", "polls", "token"}


def send(message):
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    sys.stdout.buffer.flush()


def text(value):
    return {"content": [{"type": "text", "text": value}]}


def task_state(task_id, status, message):
    return {"taskId": task_id, "status": status, "statusMessage": message,
            "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:00Z",
            "ttl": 600000, "pollInterval": 100}


def start_task(name, params):
    task_id = "%s-%d" % (name, len(tasks) + 1)
    token = ((params.get("_meta") or {}).get("progressToken"))
    tasks[task_id] = {"tool": name, "polls": 0, "token": token}
    return {"task": task_state(task_id, "working", "Starting")}


def poll(task_id):
    task = tasks.get(task_id)
    if task is None:
        return None
    task["polls"] += 1
    if task["tool"] == "steps" and task["polls"] < 3:
        if task["token"] is not None:
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": task["token"], "progress": task["polls"],
                             "total": 3}})
        return task_state(task_id, "working", "Step %d of 3" % task["polls"])
    return task_state(task_id, "completed", "Done")


def result_of(task_id):
    name = tasks[task_id]["tool"]
    if name == "steps":
        reply = text("steps finished")
    elif name == "echo-secret":
        reply = text("the secret is %s" % os.environ.get("ECHO_SECRET", "(none)"))
    else:
        reply = text("%s ran as a task" % name)
    reply["_meta"] = {"io.modelcontextprotocol/related-task": {"taskId": task_id}}
    return reply


def answer(request):
    method = request.get("method")
    params = request.get("params") or {}
    rid = request.get("id")

    if method == "initialize":
        return {"protocolVersion": "2025-11-25",
                "serverInfo": {"name": "slow-tasks", "version": "1"},
                "capabilities": {"tools": {}, "tasks": {"list": {}, "cancel": {},
                                                        "requests": {"tools": {"call": {}}}}}}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        name = params.get("name")
        if "task" in params and name in ("hold", "steps", "echo-secret"):
            return start_task(name, params)
        if name in ("steps", "echo-secret"):
            return {"error": {"code": -32601, "message": "%s runs only as a task" % name}}
        if name in ("hold", "plain"):
            held.append((rid, name))
            return None
        if name == "release":
            count = len(held)
            for held_id, held_name in held:
                send({"jsonrpc": "2.0", "id": held_id,
                      "result": text("%s ran at once" % held_name)})
            held.clear()
            return text("released %d" % count)
        return {"error": {"code": -32602, "message": "Unknown tool: %s" % name}}
    if method == "notifications/cancelled":
        held[:] = [h for h in held if h[0] != params.get("requestId")]
        return None
    if method == "tasks/get":
        state = poll(params.get("taskId"))
        if state is None:
            return {"error": {"code": -32602, "message": "Task not found"}}
        return state
    if method == "tasks/result":
        if params.get("taskId") not in tasks:
            return {"error": {"code": -32602, "message": "Task not found"}}
        return result_of(params["taskId"])
    if method == "tasks/list":
        return {"tasks": [task_state(t, "working", "") for t in tasks]}
    if method == "tasks/cancel":
        return task_state(params.get("taskId"), "cancelled", "Cancelled")
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
