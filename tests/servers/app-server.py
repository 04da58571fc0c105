#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stdio MCP server with MCP Apps views, for the view widget's tests.

Usage: app-server.py [PORT]

It offers the tool "show" whose `_meta.ui.resourceUri` names the view
"ui://app-server/view", the tool "add" the view may call, and the tool
"forget" for the model only, which a view must not reach. The view is a
small page that speaks the view side of the protocol by hand: it posts
ui/initialize to window.parent, keeps what comes back in window.steward,
and records every Content-Security-Policy violation there too, so that a
test can read all of it by running JavaScript in the page. With PORT, the
second tool "show-allowed" shows the same page under a resource that
declares http://127.0.0.1:PORT as a connect domain, and "show-framed" one
that declares it as a frame domain.

Only the standard library is used, so the tests run anywhere Python does.
"""

import json
import sys

PAGE = """<!DOCTYPE html>
<html>
<head>
<title>App server view</title>
<script>
window.steward = { messages: [], violations: [], initialized: null };
document.addEventListener('securitypolicyviolation', function (event) {
  window.steward.violations.push(event.violatedDirective + ' ' + event.blockedURI);
});
window.addEventListener('message', function (event) {
  if (event.source !== window.parent)
    return;
  window.steward.messages.push(event.data);
  if (event.data.method === 'ui/resource-teardown') {
    window.parent.postMessage({ jsonrpc: '2.0', id: event.data.id, result: {} }, '*');
    return;
  }
  if (event.data.id === 1 && event.data.result) {
    window.steward.initialized = event.data.result;
    window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');
  }
});
window.parent.postMessage({
  jsonrpc: '2.0', id: 1, method: 'ui/initialize',
  params: {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'app-server-view', version: '1' },
    appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] }
  }
}, '*');
</script>
</head>
<body>
<h1 id="heading">Rendered by the app server</h1>
</body>
</html>
"""

MIME = "text/html;profile=mcp-app"


def tools(port):
    result = [
        {"name": "show", "description": "Shows the view.",
         "inputSchema": {"type": "object", "properties": {}},
         "_meta": {"ui": {"resourceUri": "ui://app-server/view"}}},
        {"name": "add", "description": "Adds two numbers.",
         "inputSchema": {"type": "object",
                         "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
         "_meta": {"ui": {"resourceUri": "ui://app-server/view", "visibility": ["app"]}}},
        {"name": "forget", "description": "Forgets everything; for the model only.",
         "inputSchema": {"type": "object", "properties": {}},
         "_meta": {"ui": {"visibility": ["model"]}}},
    ]
    if port:
        result.append({"name": "show-allowed", "description": "Shows the view, allowed to connect.",
                       "inputSchema": {"type": "object", "properties": {}},
                       "_meta": {"ui": {"resourceUri": "ui://app-server/allowed"}}})
        result.append({"name": "show-framed", "description": "Shows the view, declaring a frame.",
                       "inputSchema": {"type": "object", "properties": {}},
                       "_meta": {"ui": {"resourceUri": "ui://app-server/framed"}}})
    return result


def read(uri, port):
    if uri == "ui://app-server/view":
        return {"contents": [{"uri": uri, "mimeType": MIME, "text": PAGE,
                              "_meta": {"ui": {"prefersBorder": True}}}]}, None
    if uri == "ui://app-server/allowed" and port:
        csp = {"connectDomains": ["http://127.0.0.1:%s" % port]}
        return {"contents": [{"uri": uri, "mimeType": MIME, "text": PAGE,
                              "_meta": {"ui": {"csp": csp}}}]}, None
    if uri == "ui://app-server/framed" and port:
        csp = {"frameDomains": ["http://127.0.0.1:%s" % port]}
        return {"contents": [{"uri": uri, "mimeType": MIME, "text": PAGE,
                              "_meta": {"ui": {"csp": csp}}}]}, None
    return None, {"code": -32002, "message": "no resource %s" % uri}


def call(params):
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if name in ("show", "show-allowed", "show-framed"):
        return {"content": [{"type": "text", "text": "shown"}]}, None
    if name == "add":
        total = arguments.get("a", 0) + arguments.get("b", 0)
        return {"content": [{"type": "text", "text": str(total)}],
                "structuredContent": {"sum": total}}, None
    if name == "forget":
        # The bridge refuses a view's call of a model-only tool; if one
        # got here, the answer says so and the test fails on it.
        return {"content": [{"type": "text", "text": "forgotten by a view"}]}, None
    return None, {"code": -32602, "message": "unknown tool %s" % name}


def send(message):
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    sys.stdout.buffer.flush()


def main():
    port = sys.argv[1] if len(sys.argv) > 1 else None
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message or "method" not in message:
            continue
        method = message["method"]
        params = message.get("params") or {}
        result, error = None, None
        if method == "initialize":
            result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {}, "resources": {},
                                       "extensions": {"io.modelcontextprotocol/ui": {}}},
                      "serverInfo": {"name": "app-server", "version": "1"}}
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": tools(port)}
        elif method == "tools/call":
            result, error = call(params)
        elif method == "resources/list":
            result = {"resources": []}
        elif method == "resources/read":
            result, error = read(params.get("uri"), port)
        else:
            error = {"code": -32601, "message": "unknown method %s" % method}
        if error is not None:
            send({"jsonrpc": "2.0", "id": message["id"], "error": error})
        else:
            send({"jsonrpc": "2.0", "id": message["id"], "result": result})


if __name__ == "__main__":
    main()
