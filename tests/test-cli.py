#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# steward-cli from the outside: its output and exit status against the real
# reference server (server-everything over stdio, and over Streamable HTTP
# and the legacy HTTP+SSE transport), and against small mock servers in
# this file for what the reference server cannot be made to do (never
# answer, crash, send media and hostile text, stream updates, insist on a
# header).
#
#   test-cli.py STEWARD-CLI
#   test-cli.py --mock-server MODE     (the stdio mock, started by the tests)
#   test-cli.py --mock-http-server     (the HTTP mock, started by the tests)
#
# Prints TAP. Every run of steward-cli has a timeout, so a hang fails the
# test instead of blocking the suite.

import base64
import concurrent.futures
import http.server
import json
import os
import queue
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import traceback

RUN_TIMEOUT = 60

# The mock server: just enough of MCP over stdio, one JSON object a line.

MOCK_TOOLS = [
    {"name": "slow", "description": "Never answers", "inputSchema": {"type": "object"}},
    {"name": "crash", "description": "Exits at once", "inputSchema": {"type": "object"}},
    {"name": "media", "description": "Every content type", "inputSchema": {"type": "object"}},
    {"name": "hostile", "description": "Terminal escapes\x1b[2J and bidi \u202e",
     "inputSchema": {"type": "object"}},
    {"name": "fails", "description": "A tool error", "inputSchema": {"type": "object"}},
    {"name": "whereami", "description": "Folder and environment",
     "inputSchema": {"type": "object"}},
]


def mock_media_content():
    return [
        {"type": "text", "text": "first block"},
        {"type": "image", "mimeType": "image/png",
         "data": base64.b64encode(b"\x89PNG" + b"\0" * 1230).decode()},
        {"type": "audio", "mimeType": "audio/wav",
         "data": base64.b64encode(b"RIFF012345").decode()},
        {"type": "resource_link", "uri": "file:///srv/report.txt", "name": "report"},
        {"type": "resource", "resource": {"uri": "mock://notes", "mimeType": "text/plain",
                                          "text": "embedded text"}},
        {"type": "resource", "resource": {"uri": "mock://blob",
                                          "mimeType": "application/octet-stream",
                                          "blob": base64.b64encode(b"abc").decode()}},
        {"type": "hologram", "depth": 3},
    ]


def mock_call(name):
    if name == "slow":
        return None
    if name == "crash":
        sys.stderr.write("crashing on purpose\n")
        sys.stderr.flush()
        os._exit(7)
    if name == "media":
        return {"content": mock_media_content(),
                "structuredContent": {"answer": 42, "unit": "things"}}
    if name == "hostile":
        return {"content": [{"type": "text",
                             "text": "clear\x1b[2Jscreen \u202eevil\u202c tag\U000e0041 ok"}]}
    if name == "fails":
        return {"content": [{"type": "text", "text": "the disk is full"}], "isError": True}
    if name == "whereami":
        return {"content": [{"type": "text",
                             "text": "cwd=%s var=%s" % (os.getcwd(),
                                                        os.environ.get("STEWARD_TEST_VAR"))}]}
    return {"content": [{"type": "text", "text": "no such tool"}], "isError": True}


def mock_server(mode):
    out = sys.stdout

    def send(message):
        out.write(json.dumps(message) + "\n")
        out.flush()

    sys.stderr.write("mock server starting in mode %s\n" % mode)
    sys.stderr.flush()
    if mode == "exit-at-start":
        sys.exit(9)

    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method = message.get("method")
        ident = message.get("id")
        params = message.get("params") or {}
        if ident is None:
            continue
        sys.stderr.write("mock got %s\n" % method)
        sys.stderr.flush()

        def reply(result):
            send({"jsonrpc": "2.0", "id": ident, "result": result})

        if method == "initialize":
            if mode == "stall-init":
                continue
            version = params.get("protocolVersion")
            if mode == "bad-version":
                version = "1999-01-01"
            reply({"protocolVersion": version,
                   "capabilities": {"tools": {}, "logging": {},
                                    "resources": {"subscribe": True}},
                   "serverInfo": {"name": "mock", "version": "1.0"}})
        elif method == "tools/list":
            reply({"tools": MOCK_TOOLS})
        elif method == "tools/call":
            result = mock_call(params.get("name"))
            if result is not None:
                reply(result)
        elif method == "resources/subscribe":
            reply({})
            for _ in range(3):
                send({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                      "params": {"uri": params.get("uri")}})
        elif method == "logging/setLevel":
            reply({})
            for i in range(2):
                send({"jsonrpc": "2.0", "method": "notifications/message",
                      "params": {"level": "warning", "logger": "mock",
                                 "data": "message %d" % i}})
        elif method == "ping":
            reply({})
        else:
            send({"jsonrpc": "2.0", "id": ident,
                  "error": {"code": -32601, "message": "Method not found"}})


# The HTTP mock: Streamable HTTP with JSON replies, answering only requests
# that carry the header below with this value.

MOCK_HTTP_HEADER = "X-Steward-Key"
MOCK_HTTP_KEY = os.environ.get("STEWARD_TEST_KEY", "")


class MockHttpHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def reply(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.reply(405)

    def do_DELETE(self):
        self.reply(200)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get(MOCK_HTTP_HEADER) != MOCK_HTTP_KEY:
            self.reply(401, {"error": "invalid_token"})
            return
        message = json.loads(body)
        ident = message.get("id")
        method = message.get("method")
        if ident is None:
            self.reply(202)
        elif method == "initialize":
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "http-mock", "version": "1.0"}}})
        elif method == "tools/list":
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {"tools": [
                {"name": "whoami", "inputSchema": {"type": "object"}}]}})
        elif method == "tools/call":
            # Never the key itself: that would put it on steward-cli's stdout.
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {"content": [
                {"type": "text", "text": "the key arrived"}]}})
        else:
            self.reply(200, {"jsonrpc": "2.0", "id": ident,
                             "error": {"code": -32601, "message": "Method not found"}})


def mock_http_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), MockHttpHandler)
    print("listening on port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if len(sys.argv) == 3 and sys.argv[1] == "--mock-server":
    mock_server(sys.argv[2])
    sys.exit(0)

if len(sys.argv) == 2 and sys.argv[1] == "--mock-http-server":
    mock_http_server()
    sys.exit(0)

# The tests.

if len(sys.argv) != 2:
    sys.stderr.write("usage: test-cli.py STEWARD-CLI\n")
    sys.exit(2)

CLI = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.environ.get("STEWARD_PEERS_DIR", os.path.join(HERE, "peers", "node_modules"))
EVERYTHING_JS = os.path.join(PEERS, "@modelcontextprotocol", "server-everything", "dist",
                             "index.js")
EVERYTHING = ["node", EVERYTHING_JS, "stdio"]
# The system's Python, which the sandbox lets a server run (one installed in a
# home folder is hidden with the home).
HOSTILE = ["/usr/bin/python3", os.path.join(HERE, "servers", "hostile-text-server.py")]


def mock(mode="normal"):
    return [sys.executable, os.path.abspath(__file__), "--mock-server", mode]


def free_port():
    # Free when asked; nothing else on this machine races for loopback ports
    # in the moment before the server binds it.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpPeer:
    """A server the tests reach over HTTP, started once for all of them.

    It is ready once it prints the port it listens on; its output is read
    to the end so that it never blocks on a full pipe."""

    START_TIMEOUT = 60

    def __init__(self, argv, port=None, env=None):
        self.argv = argv
        self.port = port
        self.env = env or {}
        self.process = None
        self.lines = queue.Queue()
        self.output = []

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def start(self):
        env = dict(os.environ, **self.env)
        if self.port is not None:
            env["PORT"] = str(self.port)
        self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=env)
        threading.Thread(target=self._read, daemon=True).start()
        while True:
            try:
                line = self.lines.get(timeout=self.START_TIMEOUT)
            except queue.Empty:
                line = None
            if line is None:
                self.stop()
                raise RuntimeError("%s did not say it listens:\n%s"
                                   % (" ".join(self.argv), "".join(self.output)))
            words = line.split()
            if "port" in words and words.index("port") + 1 < len(words):
                self.port = int(words[words.index("port") + 1])
                return

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# The key the HTTP mock insists on. It must never show in steward-cli's
# output, not even with --verbose.
TEST_KEY = "canary-" + secrets.token_hex(16)

PEERS_OVER_HTTP = {
    "streamable": HttpPeer(["node", EVERYTHING_JS, "streamableHttp"], free_port()),
    "sse": HttpPeer(["node", EVERYTHING_JS, "sse"], free_port()),
    "mock": HttpPeer([sys.executable, os.path.abspath(__file__), "--mock-http-server"],
                     env={"STEWARD_TEST_KEY": TEST_KEY}),
}


def everything_url(transport):
    """The reference server's URL and the --transport that reaches it."""
    if transport == "streamable":
        return ["--url", PEERS_OVER_HTTP["streamable"].url("/mcp"),
                "--transport", "streamable-http"]
    return ["--url", PEERS_OVER_HTTP["sse"].url("/sse"), "--transport", "sse"]


class Result:
    def __init__(self, completed):
        self.code = completed.returncode
        self.out = completed.stdout
        self.err = completed.stderr

    def __repr__(self):
        return "exit %s\n--- stdout\n%s\n--- stderr\n%s" % (self.code, self.out, self.err)


def run(*args, server=None, stdin=None, timeout=RUN_TIMEOUT, env=None):
    argv = [CLI] + list(args)
    if server is not None:
        argv += ["--stdio"] + server
    completed = subprocess.run(argv, input=stdin if stdin is not None else "",
                               capture_output=True, text=True, timeout=timeout, env=env)
    return Result(completed)


def check(condition, result, what):
    if not condition:
        raise AssertionError("%s\n%r" % (what, result))


def expect(result, code, out=(), err=()):
    check(result.code == code, result, "expected exit status %d" % code)
    for text in ([out] if isinstance(out, str) else out):
        check(text in result.out, result, "expected %r on stdout" % text)
    for text in ([err] if isinstance(err, str) else err):
        check(text in result.err, result, "expected %r on stderr" % text)


TESTS = []
# Tests that need neither the npm peers nor the HTTP servers: they run even
# where the peers are not installed.
OFFLINE = set()


def test(function):
    TESTS.append(function)
    return function


def offline(function):
    OFFLINE.add(function)
    return function


# Against the reference server.

@test
def info_shows_name_and_revision():
    r = run("info", server=EVERYTHING)
    expect(r, 0, out=["mcp-servers/everything", "Everything Reference Server"])
    protocol = [line for line in r.out.splitlines() if line.startswith("Protocol")]
    check(protocol and protocol[0].split()[-1] == "2025-11-25", r, "negotiated revision")
    check("tools (listChanged)" in r.out, r, "capabilities")


@test
def info_json_with_requested_revision():
    r = run("--json", "--protocol", "2025-06-18", "info", server=EVERYTHING)
    expect(r, 0)
    reply = json.loads(r.out)
    check(reply["protocolVersion"] == "2025-06-18", r, "requested revision")
    check(reply["serverInfo"]["name"] == "mcp-servers/everything", r, "server info")
    check("tools" in reply["capabilities"], r, "capabilities")


@test
def tools_list_lists_echo():
    r = run("tools", "list", server=EVERYTHING)
    expect(r, 0)
    lines = r.out.splitlines()
    check(lines[0].split() == ["NAME", "TITLE", "DESCRIPTION"], r, "header")
    check(any(line.split()[0] == "echo" for line in lines[1:]), r, "echo listed")
    # The columns line up: every description starts where the header's does.
    start = lines[0].index("DESCRIPTION")
    echo = [line for line in lines if line.startswith("echo ")][0]
    check(echo[start:].startswith("Echoes back"), r, "aligned columns")


@test
def tools_list_json_parses():
    r = run("tools", "list", "--json", server=EVERYTHING)
    expect(r, 0)
    names = [tool["name"] for tool in json.loads(r.out)["tools"]]
    check("echo" in names and "get-sum" in names, r, "tool names")


@test
def tools_call_echo():
    r = run("tools", "call", "echo", "--args", '{"message":"hi"}', server=EVERYTHING)
    expect(r, 0, out="Echo: hi\n")


@test
def tools_call_echo_json():
    r = run("--json", "tools", "call", "echo", "--args", '{"message":"hi"}', server=EVERYTHING)
    expect(r, 0)
    reply = json.loads(r.out)
    check(reply["content"][0]["text"] == "Echo: hi", r, "raw result")


@test
def tools_call_get_sum():
    r = run("tools", "call", "get-sum", "--args", '{"a": 2, "b": 40}', server=EVERYTHING)
    expect(r, 0, out="42")


@test
def tool_error_exits_5():
    r = run("tools", "call", "get-sum", "--args", '{"a": "two"}', server=EVERYTHING)
    expect(r, 5, out="The tool reported an error")


@test
def unknown_tool_exits_4():
    r = run("tools", "call", "no-such-tool", server=EVERYTHING)
    expect(r, 4, err="no tool `no-such-tool`")
    check(r.out == "", r, "nothing on stdout")


@test
def unknown_prompt_exits_4():
    r = run("prompts", "get", "no-such-prompt", server=EVERYTHING)
    expect(r, 4, err="-32602")


TASKS = ["node", os.path.join(HERE, "servers", "tasks-server.mjs"), "stdio"]


@test
def task_only_tool_runs_as_task():
    # simulate-research-query runs only as a task: a plain call becomes one.
    r = run("tools", "call", "simulate-research-query", "--args", '{"topic":"tides"}',
            server=EVERYTHING)
    expect(r, 0, out="# Research Report: tides")


def expect_statuses_in_order(result, statuses):
    """Which of a task's statuses a poll sees depends on when it polls, so a
    test asks for at least one, each at most once and in the server's
    order, never for a particular one in between."""
    seen = [line[len("[task] "):] for line in result.err.splitlines()
            if line.startswith("[task] ") and not line.startswith("[task] started ")]
    known = [line for line in seen if any(line.startswith(s) for s in statuses)]
    check(known, result, "expected one of %r on stderr" % (statuses,))
    order = [next(i for i, s in enumerate(statuses) if line.startswith(s)) for line in known]
    check(order == sorted(order), result, "expected the statuses in the server's order")


@test
def tools_call_task_shows_status():
    r = run("tools", "call", "simulate-research-query", "--task", "--args", '{"topic":"reefs"}',
            server=EVERYTHING)
    expect(r, 0, out="Research Report: reefs", err="[task] started ")
    expect_statuses_in_order(r, ["Gathering sources", "Analyzing content",
                                 "Synthesizing findings", "Generating report"])


@test
def tools_call_task_modern():
    r = run("tools", "call", "count", "--task", "--args", '{"steps":3,"delayMs":100}',
            server=TASKS)
    # "Step 0 of 3" comes with the task itself and "Done" with its end.
    expect(r, 0, out="counted to 3\n", err=["[task] started task-", "[task] Step 0 of 3",
                                            "[task] Done"])
    expect_statuses_in_order(r, ["Step 0", "Step 1", "Step 2", "Step 3", "Done"])


@test
def tools_call_task_refused_for_plain_tool():
    r = run("tools", "call", "echo", "--task", "--args", '{"message":"hi"}', server=EVERYTHING)
    expect(r, 4, err="the tool “echo” does not run as a task")


@test
def tasks_get_unknown_exits_4():
    r = run("tasks", "get", "no-such-task", server=EVERYTHING)
    expect(r, 4, err="-32602")


@test
def tasks_list_where_unsupported_exits_4():
    r = run("tasks", "list", server=TASKS)
    expect(r, 4, err="does not list its tasks")


@test
@offline
def task_option_needs_tools_call():
    r = run("tasks", "list", "--task", "--url", "http://127.0.0.1:9/mcp")
    expect(r, 2, err="--task goes with `tools call`")


@test
@offline
def tasks_needs_a_subcommand():
    r = run("tasks", "--url", "http://127.0.0.1:9/mcp")
    expect(r, 2, err="`tasks` is followed by list, get, cancel or result")


@test
def missing_command_exits_3():
    r = run("ping", server=["steward-no-such-command"])
    expect(r, 3, err=["steward-cli: cannot start server:",
                      "`steward-no-such-command` not found on PATH"])


@test
def resources_list_and_read():
    r = run("resources", "list", server=EVERYTHING)
    expect(r, 0, out="demo://resource/static/document/features.md")
    r = run("resources", "read", "demo://resource/static/document/features.md",
            server=EVERYTHING)
    expect(r, 0, out="# Everything Server - Features")


@test
def resources_templates():
    r = run("resources", "templates", server=EVERYTHING)
    expect(r, 0, out="demo://resource/dynamic/text/{resourceId}")


@test
def resources_read_blob():
    r = run("resources", "read", "demo://resource/dynamic/blob/1", server=EVERYTHING)
    expect(r, 0, out="[blob demo://resource/dynamic/blob/1, ")


@test
def prompts_list_and_get():
    r = run("prompts", "list", server=EVERYTHING)
    expect(r, 0, out=["args-prompt", "city, [state]"])
    r = run("prompts", "get", "args-prompt", "--args", '{"city":"Paris"}', server=EVERYTHING)
    expect(r, 0, out="[user] What's weather in Paris?")


@test
def prompt_with_embedded_resource():
    r = run("prompts", "get", "resource-prompt",
            "--args", '{"resourceType":"Text","resourceId":"3"}', server=EVERYTHING)
    expect(r, 0, out=["[resource demo://resource/dynamic/text/3, text/plain]",
                      "Resource 3: This is a plaintext resource"])


@test
def complete_prompt_argument():
    r = run("complete", "--prompt", "completable-prompt", "--argument", "department",
            "--value", "S", server=EVERYTHING)
    expect(r, 0)
    check(r.out.split() == ["Sales", "Support"], r, "candidates")
    r = run("complete", "--prompt", "completable-prompt", "--argument", "name",
            "--context", '{"department":"Engineering"}', "--json", server=EVERYTHING)
    expect(r, 0)
    check(json.loads(r.out)["completion"]["values"] == ["Alice", "Bob", "Charlie"], r,
          "context narrows the candidates")


@test
def complete_resource_template():
    r = run("complete", "--resource", "demo://resource/dynamic/text/{resourceId}",
            "--argument", "resourceId", "--value", "7", server=EVERYTHING)
    expect(r, 0, out="7\n")


@test
def ping():
    r = run("ping", server=EVERYTHING)
    expect(r, 0, out="The server answered the ping")
    r = run("ping", "--json", server=EVERYTHING)
    expect(r, 0)
    check(json.loads(r.out) == {}, r, "empty result")


@test
def roots_are_canonical_file_uris():
    with tempfile.TemporaryDirectory() as tmp:
        real = os.path.join(tmp, "project")
        os.mkdir(real)
        os.symlink(real, os.path.join(tmp, "link"))
        # Through the link and back up: realpath() ends in tmp, not in link's parent.
        r = run("--roots", os.path.join(tmp, "link", "..", "project"), "--roots", tmp,
                "tools", "call", "get-roots-list", server=EVERYTHING)
        expect(r, 0, out=["Current MCP Roots (2 total)",
                          "1. project\n   URI: file://" + os.path.realpath(real) + "\n",
                          "URI: file://" + os.path.realpath(tmp) + "\n"])
        r = run("--roots", os.path.join(tmp, "missing"), "ping", server=EVERYTHING)
        expect(r, 2, err="does not exist")
        with open(os.path.join(tmp, "file"), "w") as f:
            f.write("x")
        r = run("--roots", os.path.join(tmp, "file"), "ping", server=EVERYTHING)
        expect(r, 2, err="is not a folder")


@test
def undeclared_capabilities_hide_tools():
    # Without --roots, --sampling and --elicitation the client declares none
    # of them, so the server does not offer the tools that need them.
    r = run("tools", "list", "--json", server=EVERYTHING)
    names = [tool["name"] for tool in json.loads(r.out)["tools"]]
    for name in ("get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"):
        check(name not in names, r, "%s needs a capability" % name)
    r = run("--sampling", "reject", "--roots", "/", "--elicitation", "decline",
            "tools", "list", "--json", server=EVERYTHING)
    names = [tool["name"] for tool in json.loads(r.out)["tools"]]
    for name in ("get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"):
        check(name in names, r, "%s offered once declared" % name)


@test
def sampling_reject():
    r = run("--sampling", "reject", "tools", "call", "trigger-sampling-request",
            "--args", '{"prompt":"hello"}', server=EVERYTHING)
    expect(r, 5, out=["-1", "User rejected sampling request"])


@test
def sampling_manual():
    r = run("--sampling", "manual", "tools", "call", "trigger-sampling-request",
            "--args", '{"prompt":"the question"}', server=EVERYTHING,
            stdin="Forty-two,\nas always.\n.\nnot part of it\n")
    expect(r, 0, err=["System prompt: You are a helpful test server.",
                      "[user] Resource trigger-sampling-request context: the question",
                      "Max tokens: 100"])
    body = json.loads(r.out[r.out.index("{"):])
    check(body == {"model": "manual", "stopReason": "endTurn", "role": "assistant",
                   "content": {"type": "text", "text": "Forty-two,\nas always."}},
          r, "the typed answer reached the server")


@test
def sampling_manual_empty_answer_rejects():
    r = run("--sampling", "manual", "tools", "call", "trigger-sampling-request",
            "--args", '{"prompt":"q"}', server=EVERYTHING, stdin="")
    expect(r, 5, out="User rejected sampling request")


@test
def elicitation_accept_defaults():
    r = run("--elicitation", "accept-defaults", "tools", "call", "trigger-elicitation-request",
            server=EVERYTHING)
    expect(r, 0, out="User provided the requested information")
    raw = json.loads(r.out[r.out.index("Raw result: ") + len("Raw result: "):])
    check(raw["action"] == "accept", r, "accepted")
    content = raw["content"]
    check(content["integer"] == 42 and isinstance(content["integer"], int), r, "integer")
    check(content["number"] == 3.14, r, "number")
    check(content["firstLine"] == "It was a dark and stormy night.", r, "string")
    check(content["untitledMultipleSelectEnum"] == ["Guitar"], r, "array")
    check(content["titledSingleSelectEnum"] == "hero-1", r, "titled enum")
    check("name" not in content, r, "no default, no value")


@test
def elicitation_decline():
    r = run("--elicitation", "decline", "tools", "call", "trigger-elicitation-request",
            server=EVERYTHING)
    expect(r, 0, out="User declined")


@test
def elicitation_manual():
    answers = "\n".join([
        "y",
        "",                     # name is required: asked again
        "Ada",
        "maybe", "yes",         # check: not a boolean, then one
        "",                     # firstLine keeps its default
        "ada@", "ada@example.com",
        "https://ada.example/",
        "2023-02-30", "1815-12-10",
        "500", "7",             # integer above the maximum, then in range
        "2.5",
        "Joey",
        "Harp", "Piano, 4",     # not a choice, then a value and a number
        "Wonder Woman",         # a choice by its title
        "",
        "2",
    ]) + "\n"
    r = run("--elicitation", "manual", "tools", "call", "trigger-elicitation-request",
            server=EVERYTHING, stdin=answers)
    expect(r, 0, err=["This field is required.", "Not accepted: expected yes or no",
                      "Not accepted: expected an email address",
                      "Not accepted: expected a date", "Not accepted: expected at most 100",
                      "Not accepted: `Harp` is not one of the choices",
                      "1) hero-1 — Superman"])
    content = json.loads(r.out[r.out.index("Raw result: ") + len("Raw result: "):])["content"]
    check(content == {"name": "Ada", "check": True,
                      "firstLine": "It was a dark and stormy night.",
                      "email": "ada@example.com", "homepage": "https://ada.example/",
                      "birthdate": "1815-12-10", "integer": 7, "number": 2.5,
                      "untitledSingleSelectEnum": "Joey",
                      "untitledMultipleSelectEnum": ["Piano", "Drums"],
                      "titledSingleSelectEnum": "hero-3",
                      "titledMultipleSelectEnum": ["fish-1"],
                      "legacyTitledEnum": "pet-2"}, r, "typed, checked answers")


@test
def elicitation_manual_end_of_input_cancels():
    r = run("--elicitation", "manual", "tools", "call", "trigger-elicitation-request",
            server=EVERYTHING, stdin="y\nAda\n")
    expect(r, 0, out="User cancelled")


@test
def log_level_prints_messages():
    r = run("--roots", "/", "log-level", "info", "--count", "1", server=EVERYTHING)
    expect(r, 0, out="[info] everything-server: Roots updated: 1 root(s) received from client")


@test
def env_reaches_the_server():
    r = run("--env", "STEWARD_TEST_VAR=from the command line", "tools", "call", "get-env",
            server=EVERYTHING)
    expect(r, 0, out='"STEWARD_TEST_VAR": "from the command line"')


@test
def servers_file():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "servers.json")
        with open(path, "w") as f:
            json.dump({"mcpServers": {
                "everything": {"command": "node", "args": [EVERYTHING_JS, "stdio"],
                               "env": {"STEWARD_TEST_VAR": "from the file"}},
                "remote": {"url": PEERS_OVER_HTTP["streamable"].url("/mcp")},
            }}, f)
        r = run("--server", "everything", "--config", path, "tools", "call", "get-env")
        expect(r, 0, out='"STEWARD_TEST_VAR": "from the file"')
        r = run("--server", "missing", "--config", path, "ping")
        expect(r, 2, err=["no server is named `missing`", "`everything`, `remote`"])
        with open(path, "w") as f:
            f.write('{"mcpServers": {"files": {"command": "npx", "args": "-y"}}}')
        r = run("--server", "files", "--config", path, "ping")
        expect(r, 2, err="servers.json: server `files`: \"args\" must be an array of strings")
        # The default file lives in XDG_CONFIG_HOME.
        os.makedirs(os.path.join(tmp, "steward"))
        with open(os.path.join(tmp, "steward", "servers.json"), "w") as f:
            json.dump({"mcpServers": {"m": {"command": mock()[0], "args": mock()[1:]}}}, f)
        r = run("--server", "m", "ping", env=dict(os.environ, XDG_CONFIG_HOME=tmp))
        expect(r, 0)


@test
def usage_errors_exit_2():
    with_server = [
        (["tools"], "`tools` is followed by"),
        (["tools", "call"], "`tools call` needs NAME"),
        (["tools", "list", "extra"], "takes no argument `extra`"),
        (["frobnicate"], "unknown command `frobnicate`"),
        (["tools", "call", "echo", "--args", "{bad"], "--args: not valid JSON"),
        (["tools", "call", "echo", "--args", "[1]"], "expected a JSON object"),
        (["prompts", "get", "p", "--args", '{"n": 1}'], "must be a string"),
        (["--sampling", "always", "ping"], "--sampling: expected reject or manual"),
        (["--elicitation", "yes", "ping"], "--elicitation: expected"),
        (["--count", "2", "ping"], "--count goes with"),
        (["--count", "0", "log-level", "info"], "--count: expected a number above 0"),
        (["--timeout", "-5", "ping"], "--timeout"),
        (["--protocol", "2020-01-01", "ping"], "not a revision"),
        (["log-level", "loud"], "`loud` is not a log level"),
        (["complete", "--argument", "a"], "either --prompt NAME or --resource TEMPLATE"),
        (["complete", "--prompt", "p"], "needs --argument NAME"),
        (["--value", "x", "ping"], "go with `complete`"),
        (["--env", "NOEQUALS", "ping"], "--env: expected NAME=VALUE"),
        (["--no-such-option", "ping"], "Unknown option"),
        (["--server", "a", "ping"], "--stdio, --server and --url each name a server"),
        (["--url", "http://localhost/mcp", "ping"], "--stdio, --server and --url each name"),
        (["--header", "A:b", "ping"], "--header and --transport go with a remote server"),
        (["--transport", "sse", "ping"], "--header and --transport go with a remote server"),
        (["--config", "/tmp/x.json", "ping"], "--config only makes sense with --server"),
    ]
    without_server = [
        ([], "say what to do"),
        (["ping"], "say which server: --url URL, --server NAME, or --stdio"),
        (["--url", "ftp://example.com/mcp", "ping"], "--url: expected an http:// or https://"),
        (["--url", "localhost:3001", "ping"], "--url: expected an http:// or https://"),
        (["--url", "http:///mcp", "ping"], "--url: expected an http:// or https://"),
        (["--url", "http://localhost/", "--transport", "websocket", "ping"],
         "--transport: expected auto, streamable-http or sse, not `websocket`"),
        (["--url", "http://localhost/", "--header", "Authorization", "ping"],
         "--header: expected NAME:VALUE, not `Authorization`"),
        (["--url", "http://localhost/", "--header", ":value", "ping"],
         "--header: a header needs a name"),
        (["--url", "http://localhost/", "--header", "Bad Name: x", "ping"],
         "`Bad Name` is not an HTTP header name"),
        (["--url", "http://localhost/", "--header", "X-Two: a\r\nX-Injected: b", "ping"],
         "the value of header `X-Two` holds a control character"),
        (["--url", "http://localhost/", "--header", "mcp-session-id: abc", "ping"],
         "the transport sets `Mcp-Session-Id` itself"),
        (["--url", "http://localhost/", "--env", "A=b", "ping"],
         "--env and --cwd go with a server that steward-cli starts"),
        (["--url", "http://localhost/", "--cwd", "/", "ping"],
         "--env and --cwd go with a server that steward-cli starts"),
    ]
    cases = [(args, ["true"], message) for args, message in with_server]
    cases += [(args, None, message) for args, message in without_server]
    for args, server, message in cases:
        r = run(*args, server=server)
        expect(r, 2, err=["steward-cli: ", message, "steward-cli --help"])
        check(r.out == "", r, "nothing on stdout")
    r = run("ping", "--stdio")
    expect(r, 2, err="--stdio needs the command")


@test
def help_documents_grammar_and_exit_codes():
    r = run("--help")
    expect(r, 0, out=["--stdio PROGRAM", "--server NAME", "--url URL", "--header NAME:VALUE",
                      "--transport auto", "streamable-http|sse", "values", "Exit status:", "130",
                      "tools call NAME [--args JSON]", "2025-11-25", "2026-07-28"])
    r = run("--version")
    expect(r, 0, out="steward-cli ")


# Against the reference server over HTTP: the same commands, the same
# output and exit status as over stdio, with either transport.

def over_http(function):
    """Registers one test per transport."""
    for transport in ("streamable", "sse"):
        def case(transport=transport):
            function(transport)
        case.__name__ = "%s_%s" % (function.__name__, transport)
        TESTS.append(case)
    return function


@over_http
def http_info_shows_revision(transport):
    r = run("info", *everything_url(transport))
    expect(r, 0, out=["mcp-servers/everything", "Everything Reference Server"])
    protocol = [line for line in r.out.splitlines() if line.startswith("Protocol")]
    check(protocol and protocol[0].split()[-1] == "2025-11-25", r, "negotiated revision")
    r = run("--json", "--protocol", "2025-06-18", "info", *everything_url(transport))
    expect(r, 0)
    check(json.loads(r.out)["protocolVersion"] == "2025-06-18", r, "requested revision")


@over_http
def http_tools_list(transport):
    r = run("tools", "list", *everything_url(transport))
    expect(r, 0)
    lines = r.out.splitlines()
    check(lines[0].split() == ["NAME", "TITLE", "DESCRIPTION"], r, "header")
    check(any(line.split()[0] == "echo" for line in lines[1:]), r, "echo listed")


@over_http
def http_tools_call_echo(transport):
    r = run("tools", "call", "echo", "--args", '{"message":"hi"}', *everything_url(transport))
    expect(r, 0, out="Echo: hi\n")
    r = run("--json", "tools", "call", "get-sum", "--args", '{"a": 2, "b": 40}',
            *everything_url(transport))
    expect(r, 0)
    check(json.loads(r.out)["content"][0]["text"] == "The sum of 2 and 40 is 42.", r,
          "raw result")


@over_http
def http_tool_error_exits_5(transport):
    r = run("tools", "call", "get-sum", "--args", '{"a": "two"}', *everything_url(transport))
    expect(r, 5, out="The tool reported an error")
    r = run("tools", "call", "no-such-tool", *everything_url(transport))
    expect(r, 4, err="no tool `no-such-tool`")


@over_http
def http_sampling_reject(transport):
    r = run("--sampling", "reject", "tools", "call", "trigger-sampling-request",
            "--args", '{"prompt":"hello"}', *everything_url(transport))
    expect(r, 5, out=["-1", "User rejected sampling request"])


@over_http
def http_elicitation_accept_defaults(transport):
    r = run("--elicitation", "accept-defaults", "tools", "call", "trigger-elicitation-request",
            *everything_url(transport))
    expect(r, 0, out="User provided the requested information")
    raw = json.loads(r.out[r.out.index("Raw result: ") + len("Raw result: "):])
    check(raw["action"] == "accept", r, "accepted")
    check(raw["content"]["integer"] == 42, r, "defaults sent")


@over_http
def http_resources_and_prompts(transport):
    r = run("resources", "read", "demo://resource/static/document/features.md",
            *everything_url(transport))
    expect(r, 0, out="# Everything Server - Features")
    r = run("prompts", "get", "args-prompt", "--args", '{"city":"Paris"}',
            *everything_url(transport))
    expect(r, 0, out="[user] What's weather in Paris?")
    r = run("ping", *everything_url(transport))
    expect(r, 0, out="The server answered the ping")


@test
def http_auto_finds_the_transport():
    # The legacy server refuses the Streamable HTTP POST on /sse, so --transport
    # auto (the default) tries the legacy transport next, by itself.
    r = run("-v", "tools", "call", "echo", "--args", '{"message":"old"}',
            "--url", PEERS_OVER_HTTP["sse"].url("/sse"))
    expect(r, 0, out="Echo: old\n",
           err="[connect] connected with the legacy HTTP+SSE transport")
    r = run("-v", "tools", "call", "echo", "--args", '{"message":"new"}',
            "--url", PEERS_OVER_HTTP["streamable"].url("/mcp"))
    expect(r, 0, out="Echo: new\n",
           err="[connect] connected with the Streamable HTTP transport")


@test
def http_bad_url_exits_3():
    # A path the server does not serve, over either transport and with the
    # fallback from one to the other.
    url = PEERS_OVER_HTTP["streamable"].url("/nowhere")
    for transport in ("auto", "streamable-http", "sse"):
        r = run("--transport", transport, "ping", "--url", url, timeout=30)
        expect(r, 3, err=["steward-cli: cannot connect to the server", "HTTP 404"])
        check(r.out == "", r, "nothing on stdout")
    # A port nothing listens on, whichever transport is tried.
    for transport in ("auto", "streamable-http", "sse"):
        r = run("--transport", transport, "ping", "--url",
                "http://127.0.0.1:%d/mcp" % free_port(), timeout=30)
        expect(r, 3, err=["steward-cli: cannot connect to the server", "Connection refused"])


@test
def info_says_why_a_server_cannot_start():
    # The sentences the app shows: the cause and the fix, with the server's
    # error line, not the last line of its stack trace.
    r = run("info", server=["node", "/nonexistent/steward-test/server.js"])
    expect(r, 3, err="steward-cli: cannot connect to the server: the module "
                     "/nonexistent/steward-test/server.js was not found; check the path in the "
                     "server\u2019s arguments, or install the package\n")
    check("Node.js v" not in r.err and "requireStack" not in r.err, r, "no stack trace")
    port = free_port()
    r = run("info", "--url", "http://127.0.0.1:%d/mcp" % port, timeout=30)
    expect(r, 3, err="steward-cli: cannot connect to the server: nothing answers at "
                     "127.0.0.1:%d (Connection refused); start the server, or correct the "
                     "URL\n" % port)
    url = PEERS_OVER_HTTP["streamable"].url("/nowhere")
    for transport in ("auto", "streamable-http"):
        r = run("--transport", transport, "info", "--url", url, timeout=30)
        expect(r, 3, err="steward-cli: cannot connect to the server: %s answered HTTP 404 Not "
                         "Found; check the path in the URL\n" % url)


@test
def http_headers_reach_the_server_and_never_show():
    mock_url = PEERS_OVER_HTTP["mock"].url("/mcp")
    r = run("-v", "--header", "%s: %s" % (MOCK_HTTP_HEADER, TEST_KEY), "--header",
            "X-Other:1", "tools", "call", "whoami", "--url", mock_url)
    expect(r, 0, out="the key arrived",
           err="headers (values not shown): X-Other, %s" % MOCK_HTTP_HEADER)
    check(TEST_KEY not in r.out + r.err, r, "the header's value never printed")
    # The last --header of a name wins, whatever its case.
    r = run("--header", "%s: wrong" % MOCK_HTTP_HEADER,
            "--header", "%s:%s" % (MOCK_HTTP_HEADER.lower(), TEST_KEY),
            "--transport", "streamable-http", "tools", "call", "whoami", "--url", mock_url)
    expect(r, 0, out="the key arrived")
    # Without it the server refuses: a connection failure that says why.
    r = run("-v", "--header", "%s: wrong" % MOCK_HTTP_HEADER, "--transport", "streamable-http",
            "ping", "--url", mock_url)
    expect(r, 3, err=["cannot connect to the server", "401"])
    check(TEST_KEY not in r.out + r.err and ": wrong" not in r.err, r, "no values shown")


@test
def servers_file_remote_entries():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "servers.json")
        with open(path, "w") as f:
            json.dump({"mcpServers": {
                "streamable": {"url": PEERS_OVER_HTTP["streamable"].url("/mcp")},
                "legacy": {"url": PEERS_OVER_HTTP["sse"].url("/sse"), "transport": "sse"},
                "keyed": {"url": PEERS_OVER_HTTP["mock"].url("/mcp"),
                          "headers": {MOCK_HTTP_HEADER: "from the file"}},
                "local": {"command": "node", "args": [EVERYTHING_JS, "stdio"]},
            }}, f)
        r = run("--server", "streamable", "--config", path, "info")
        expect(r, 0, out="Everything Reference Server")
        r = run("-v", "--server", "legacy", "--config", path, "tools", "call", "echo",
                "--args", '{"message":"file"}')
        expect(r, 0, out="Echo: file\n", err="with the legacy HTTP+SSE transport")
        check("Streamable" not in r.err, r, "a named transport is not probed")
        # The file's header is refused by the mock; the command line's wins.
        r = run("--server", "keyed", "--config", path, "ping")
        expect(r, 3, err="401")
        r = run("--server", "keyed", "--config", path, "--header",
                "%s: %s" % (MOCK_HTTP_HEADER, TEST_KEY), "tools", "call", "whoami")
        expect(r, 0, out="the key arrived")
        r = run("--server", "keyed", "--config", path, "--env", "A=b", "ping")
        expect(r, 2, err="server `keyed` is remote")
        r = run("--server", "local", "--config", path, "--header", "A: b", "ping")
        expect(r, 2, err="server `local` is started with a command")


# Against the mock server.

@test
def subscribe_prints_updates_until_count():
    r = run("resources", "subscribe", "mock://watched", "--count", "2", server=mock())
    expect(r, 0, out="updated: mock://watched\nupdated: mock://watched\n",
           err="Subscribed to mock://watched")
    check(r.out.count("updated:") == 2, r, "stops at the count")
    r = run("resources", "subscribe", "mock://watched", "--count", "3", "--json",
            server=mock())
    expect(r, 0)
    check([json.loads(line) for line in r.out.splitlines()] == [{"uri": "mock://watched"}] * 3,
          r, "one JSON object a line")


@test
def subscribe_ends_on_interrupt():
    argv = [CLI, "resources", "subscribe", "mock://watched", "--stdio"] + mock()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    # Kill it if anything below hangs, so that the test fails instead.
    watchdog = threading.Timer(RUN_TIMEOUT, process.kill)
    watchdog.start()
    seen = []
    try:
        # The mock sends three updates and then nothing: once they are
        # printed, steward-cli waits for Ctrl+C alone.
        for line in process.stdout:
            seen.append(line)
            if len(seen) == 3:
                break
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=RUN_TIMEOUT)
    finally:
        watchdog.cancel()
    result = Result(subprocess.CompletedProcess(argv, process.returncode, "".join(seen) + out,
                                                err))
    expect(result, 0, err="Subscribed to mock://watched")
    check(seen == ["updated: mock://watched\n"] * 3, result, "the updates before Ctrl+C")
    check(out == "", result, "nothing after Ctrl+C")


@test
def interrupt_stops_a_request():
    argv = [CLI, "--verbose", "tools", "call", "slow", "--stdio"] + mock()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(RUN_TIMEOUT, process.kill)
    watchdog.start()
    seen = []
    try:
        # --verbose passes the mock's stderr on, so the request is known
        # to have arrived before Ctrl+C.
        for line in process.stderr:
            seen.append(line)
            if line == "[stderr] mock got tools/call\n":
                break
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=RUN_TIMEOUT)
    finally:
        watchdog.cancel()
    result = Result(subprocess.CompletedProcess(argv, process.returncode, out,
                                                "".join(seen) + err))
    expect(result, 130, err="steward-cli: interrupted")


@test
def log_level_json_lines():
    r = run("log-level", "warning", "--count", "2", "--json", server=mock())
    expect(r, 0)
    check([json.loads(line) for line in r.out.splitlines()] ==
          [{"level": "warning", "logger": "mock", "data": "message %d" % i} for i in range(2)],
          r, "log notifications as JSON lines")


@test
@offline
def verbose_shows_stderr_and_logs():
    r = run("--verbose", "log-level", "debug", "--count", "1", server=mock())
    expect(r, 0, err="[stderr] mock server starting in mode normal")
    r = run("-v", "ping", server=mock())
    expect(r, 0, err="[stderr] mock server starting")
    r = run("ping", server=mock())
    check("[stderr]" not in r.err, r, "quiet without --verbose")


@test
@offline
def timeout_exits_4():
    # Long enough for the mock to start on a busy machine: --timeout also
    # bounds the initialize request.
    r = run("--timeout", "3000", "tools", "call", "slow", server=mock())
    # Never silent: it says the call was still running, and how to wait.
    expect(r, 4, err=["did not answer", "tools/call", "“slow” is still running",
                      "--timeout MS (now 3000)"])


@test
@offline
def crash_during_request_exits_3():
    r = run("tools", "call", "crash", server=mock())
    expect(r, 3, err=["steward-cli: ", "status 7"])


@test
@offline
def connection_failures_exit_3():
    r = run("ping", server=mock("exit-at-start"))
    expect(r, 3, err=["cannot connect to the server", "status 9"])
    r = run("--timeout", "1000", "ping", server=mock("stall-init"))
    expect(r, 3, err=["cannot connect to the server", "initialize"])
    r = run("ping", server=mock("bad-version"))
    expect(r, 3, err=["cannot connect to the server", "1999-01-01"])


@test
@offline
def every_content_type_has_a_human_form():
    r = run("tools", "call", "media", server=mock())
    expect(r, 0, out=["first block\n", "[image image/png, 1.2 KiB]\n",
                      "[audio audio/wav, 10 bytes]\n", "[link] file:///srv/report.txt (report)\n",
                      "[resource mock://notes, text/plain]\nembedded text\n",
                      "[resource mock://blob, application/octet-stream, 3 bytes]\n",
                      '[hologram] {"type":"hologram","depth":3}\n',
                      "Structured content:\n", '"answer" : 42'])
    r = run("tools", "call", "media", "--json", server=mock())
    check(json.loads(r.out)["structuredContent"] == {"answer": 42, "unit": "things"}, r,
          "raw JSON")


@test
@offline
def tool_error_from_mock():
    r = run("tools", "call", "fails", server=mock())
    expect(r, 5, out="The tool reported an error:\nthe disk is full\n")
    r = run("tools", "call", "fails", "--json", server=mock())
    expect(r, 5)
    check(json.loads(r.out)["isError"] is True, r, "raw result with isError")


@test
@offline
def hostile_text_is_defused():
    r = run("tools", "call", "hostile", server=mock())
    expect(r, 0, out=["clear<U+001B>[2Jscreen", "<U+202E>evil<U+202C>", "tag<U+E0041> ok"])
    check("\x1b" not in r.out and "\u202e" not in r.out, r, "no raw controls")
    r = run("tools", "list", server=mock())
    check("\x1b" not in r.out and "<U+001B>" in r.out, r, "descriptions too")


@test
@offline
def cwd_and_env_for_stdio():
    with tempfile.TemporaryDirectory() as tmp:
        r = run("--cwd", tmp, "--env", "STEWARD_TEST_VAR=a=b", "tools", "call", "whereami",
                server=mock())
        expect(r, 0, out="cwd=%s var=a=b" % os.path.realpath(tmp))


# Against a server that tries to steer the terminal with every string it
# sends (tests/servers/hostile-text-server.py). The bytes are read as they
# reach the terminal, not decoded first.

def run_raw(*args, server=None, timeout=RUN_TIMEOUT, env=None):
    argv = [CLI] + list(args)
    if server is not None:
        argv += ["--stdio"] + server
    completed = subprocess.run(argv, input=b"", capture_output=True, timeout=timeout, env=env)
    return completed.returncode, completed.stdout, completed.stderr


def is_hidden(c):
    o = ord(c)
    return ((o < 0x20 and c not in "\n\t") or 0x7f <= o <= 0x9f or o == 0x61c
            or o in (0x200e, 0x200f) or 0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069
            or 0x200b <= o <= 0x200d or o in (0x2060, 0xfeff) or 0xe0000 <= o <= 0xe007f)


def raw_controls(data):
    """What in @data a terminal would act on or hide: any such character,
    or bytes that are not UTF-8 at all."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return ["not UTF-8 at %d: %r" % (error.start, data[error.start:error.start + 8])]
    return ["U+%04X at %d" % (ord(c), i) for i, c in enumerate(text) if is_hidden(c)]


def json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, member in value.items():
            yield key
            yield from json_strings(member)
    elif isinstance(value, list):
        for element in value:
            yield from json_strings(element)


HOSTILE_COMMANDS = [
    (["info"], 0),
    (["tools", "list"], 0),
    (["tools", "call", "evil"], 0),
    (["tools", "call", "evil-failure"], 5),
    (["tools", "call", "evil-error"], 4),
    (["tools", "call", "evil-exit"], 3),
    (["prompts", "list"], 0),
    (["prompts", "get", "p"], 0),
    (["resources", "list"], 0),
    (["resources", "read", "mock://r/x"], 0),
    (["log-level", "debug", "--count", "1"], 0),
]


@test
@offline
def hostile_server_leaves_no_control_on_the_terminal():
    shown = 0
    for command, code in HOSTILE_COMMANDS:
        for extra in ([], ["--json"], ["--verbose"]):
            if extra == ["--json"] and command[0] == "log-level":
                continue
            argv = extra + command
            status, out, err = run_raw(*argv, server=HOSTILE)
            what = "%s: exit %d\n--- stdout\n%r\n--- stderr\n%r" % (argv, status, out, err)
            check(status == code, what, "expected exit status %d" % code)
            check(raw_controls(out) == [], what, "stdout: %s" % raw_controls(out)[:5])
            check(raw_controls(err) == [], what, "stderr: %s" % raw_controls(err)[:5])
            # What the server sent is there, visible, not dropped.
            both = out + err
            if b"<U+001B>]52" in both or b"\\u001b]52" in both:
                shown += 1
            if extra == ["--json"] and status == 0:
                reply = json.loads(out)
                check(any("\x1b]52;c;" in text and "\u202e" in text and "\U000e0041" in text
                          for text in json_strings(reply)), what,
                      "the JSON still means what the server sent")
    check(shown >= 2 * len(HOSTILE_COMMANDS), shown, "the hostile text was shown")


@test
@offline
def hostile_stderr_and_exit_are_shown_visibly():
    status, out, err = run_raw("--verbose", "tools", "call", "evil-exit", server=HOSTILE)
    check(status == 3, (out, err), "exit status 3")
    check(b"[stderr] starting <U+001B>]52;c;" in err, err, "stderr lines, made visible")
    check(b"<U+009B>31m<U+202E>evil<U+202C>zero<U+200B>width<U+2060>tag<U+E0041>" in err, err,
          "C1, bidi, zero-width and tag characters named")
    check(b"steward-cli: lost the connection to the server: " in err, err, "the exit reason")
    check(err.count(b"\nsteward-cli: ") + err.startswith(b"steward-cli: ") == 1, err,
          "the exit reason is one line")
    check(raw_controls(err) == [], err, "no raw control")


# The system's Python: one installed in a home folder (pyenv) is hidden from the
# sandbox with the home.
ESCAPE = ["/usr/bin/python3", os.path.join(HERE, "servers", "escape-server.py")]


@test
@offline
def stdio_server_runs_sandboxed():
    # A file in /tmp, which the sandbox replaces with an empty one of its
    # own; --no-sandbox gives the server full access, and it reads it.
    with tempfile.NamedTemporaryFile("w", suffix=".canary") as canary:
        canary.write("cli-canary")
        canary.flush()
        probe = "PROBE_CANARIES=" + canary.name
        r = run("--json", "--env", probe, "tools", "call", "escape", server=ESCAPE)
        expect(r, 0)
        report = json.loads(json.loads(r.out)["content"][0]["text"])
        check(report["canaries"] == "blocked", r, "the canary stays out of the sandbox")
        check("/steward/servers/" in report["home"], r, "its own folder is its home")

        r = run("--json", "--no-sandbox", "--env", probe, "tools", "call", "escape",
                server=ESCAPE)
        expect(r, 0)
        report = json.loads(json.loads(r.out)["content"][0]["text"])
        check("cli-canary" in report["canaries"], r, "full access reads the canary")


@test
@offline
def no_sandbox_needs_a_local_server():
    r = run("--no-sandbox", "--url", "https://mcp.example.com/mcp", "ping")
    expect(r, 2, err="--no-sandbox goes with a server that steward-cli starts")


def main():
    peers = os.path.exists(EVERYTHING_JS)
    if not peers:
        print("# the npm peers are not installed in %s: only the tests without them run"
              % PEERS, flush=True)

    print("1..%d" % len(TESTS), flush=True)

    if not peers:
        return run_tests(peers=False)

    try:
        for peer in PEERS_OVER_HTTP.values():
            peer.start()
        return run_tests(peers=True)
    except RuntimeError as error:
        print("Bail out! %s" % str(error).replace("\n", " | "), flush=True)
        return 1
    finally:
        for peer in PEERS_OVER_HTTP.values():
            peer.stop()


def run_tests(peers):
    def attempt(function):
        if not peers and function not in OFFLINE:
            return "skip"
        try:
            function()
            return None
        except Exception:
            return traceback.format_exc()

    # Each test waits on servers, not on the processor, so a few at once
    # keep the suite short.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(attempt, TESTS))

    failed = 0
    for number, (function, failure) in enumerate(zip(TESTS, outcomes), 1):
        if failure is None:
            print("ok %d - %s" % (number, function.__name__))
        elif failure == "skip":
            print("ok %d - %s # SKIP the npm peers are not installed" % (number, function.__name__))
        else:
            failed += 1
            print("not ok %d - %s" % (number, function.__name__))
            for line in failure.splitlines():
                print("# " + line)
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
