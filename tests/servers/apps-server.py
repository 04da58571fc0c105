#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stdio MCP server with an MCP Apps view, for the tests of the view
bridge (tests/test-app-bridge.c).

Usage: apps-server.py [other]

It offers a `ui://apps/board.html` view with a content policy, and tools
of every visibility: `show-board` (the view's tool, for both), `move`
(for the view only), `model-only` (for the model only) and
`client-capabilities`, which answers with the capabilities the client
declared. With `other`, it is a second server whose one tool,
`other-move`, is meant for views too: a view of the first must not
reach it.

Only the standard library is used, so the tests run anywhere Python does.
"""

import json
import sys

OTHER = len(sys.argv) > 1 and sys.argv[1] == "other"
VIEW = "ui://apps/board.html"
HTML = "<!doctype html><title>Board</title><p>board</p>"
SCHEMA = {"type": "object", "properties": {"square": {"type": "string"}}}

if OTHER:
    TOOLS = [{"name": "other-move", "inputSchema": SCHEMA,
              "_meta": {"ui": {"visibility": ["app"]}}}]
else:
    TOOLS = [
        {"name": "show-board", "inputSchema": SCHEMA,
         "annotations": {"readOnlyHint": True, "openWorldHint": False},
         "_meta": {"ui": {"resourceUri": VIEW}}},
        {"name": "move", "inputSchema": SCHEMA,
         "annotations": {"destructiveHint": False, "openWorldHint": False},
         "_meta": {"ui": {"resourceUri": VIEW, "visibility": ["app"]}}},
        {"name": "model-only", "inputSchema": SCHEMA,
         "_meta": {"ui": {"visibility": ["model"]}}},
        {"name": "client-capabilities", "inputSchema": {"type": "object"}},
    ]

capabilities = {}


def send(message):
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    sys.stdout.buffer.flush()


def text_result(text):
    return {"content": [{"type": "text", "text": text}]}


def call(params):
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if name == "client-capabilities":
        return text_result(json.dumps(capabilities, sort_keys=True))
    if any(tool["name"] == name for tool in TOOLS):
        return text_result("%s %s" % (name, arguments.get("square", "")))
    return None


def answer(message):
    global capabilities
    method = message.get("method")
    params = message.get("params") or {}
    result = None
    if method == "initialize":
        capabilities = params.get("capabilities", {})
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {"tools": {}, "resources": {}},
                  "serverInfo": {"name": "apps-server", "version": "1"}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "resources/list":
        result = {"resources": [] if OTHER else
                  [{"uri": VIEW, "name": "board", "mimeType": "text/html;profile=mcp-app"}]}
    elif method == "resources/read" and params.get("uri") == VIEW and not OTHER:
        result = {"contents": [{
            "uri": VIEW, "mimeType": "text/html;profile=mcp-app", "text": HTML,
            "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com"]},
                             "prefersBorder": True}}}]}
    elif method == "tools/call":
        result = call(params)
        if result is None:
            send({"jsonrpc": "2.0", "id": message["id"],
                  "error": {"code": -32602, "message": "no tool %s" % params.get("name")}})
            return
    if result is None:
        send({"jsonrpc": "2.0", "id": message["id"],
              "error": {"code": -32601, "message": "unknown method %s" % method}})
    else:
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})


for line in sys.stdin.buffer:
    message = json.loads(line)
    if "id" in message and "method" in message:
        answer(message)
