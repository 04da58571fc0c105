#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# MCP Apps from end to end: the real app against three pinned servers of
# the ext-apps examples (server-basic-vanillajs, server-system-monitor,
# server-budget-allocator) and a hostile one of our own
# (tests/servers/hostile-app-server.py). Each tool is called from the Tools
# page; its view appears under the result. GTK 4.8 shows a web view to the
# accessibility tree as an empty element, so the view describes itself
# with the text its page shows, read inside the page: that description is
# how the test sees what the page rendered. Where a view's page offers a
# control that calls a tool, it is pressed with the mouse as a person
# would, the call goes through the bridge, and the server's answer
# shows in the page. The bridge's traffic is read back in the log viewer.
#
# The hostile view tries to leave its page, to reach a loopback origin it
# did not declare and to call another server's tool; the test listens on
# that origin and asserts that nothing arrives and no call is made. The
# views' web processes are counted under the app: one comes when a view is
# shown and goes when it is left or replaced. The Tools page with the view
# is kept in the artifacts as app-view.png.
#
#   test-apps-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session, like the other drivers; prints TAP.

import http.server
import json
import os
import re
import shutil
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from driver import check, step  # noqa: E402

SERVER = "basic"


def peer(package):
    return os.path.realpath(os.path.join(driver.PEERS, "@modelcontextprotocol", package,
                                         "dist", "index.js"))


BASIC_JS = peer("server-basic-vanillajs")
MONITOR_JS = peer("server-system-monitor")
BUDGET_JS = peer("server-budget-allocator")
HOSTILE_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "servers",
                          "hostile-app-server.py")
# The sidebar's names of the servers, none a part of another.
SERVERS = ("basic", "monitor", "budget", "hostile")
MAIN_SIZE = (1100, 800)
# Where the page's "Get Server Time" button is, from the top of the view:
# under the notice and the time, with the page's margins.
BUTTON_TOP = 118


class Listener(http.server.BaseHTTPRequestHandler):
    """The origin the hostile view was never given: records whatever
    reaches it."""
    requests = []

    def handle(self):
        # Counted before anything is read: a connection is already too much.
        Listener.requests.append(self.client_address)
        super().handle()

    def do_GET(self):
        Listener.requests.append(self.command + " " + self.path)
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(b"reached")

    do_POST = do_GET
    do_HEAD = do_GET
    do_OPTIONS = do_GET

    def log_message(self, *args):
        pass


class Session(driver.AppSession):
    def __init__(self, *args):
        super().__init__(*args)
        self.listener = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Listener)
        threading.Thread(target=self.listener.serve_forever, daemon=True).start()

    def cleanup(self):
        super().cleanup()
        self.listener.shutdown()

    def save(self, name):
        if self.artifacts:
            a11y.park_pointer()
            os.makedirs(self.artifacts, exist_ok=True)
            a11y.screenshot(self.main, os.path.join(self.artifacts, name))


def servers(s):
    return a11y.find(s.main, "list", "Servers")


def answer_consent(s):
    """Answers the servers' consent dialogs one at a time: each server asks
    in a window of its own, all with the same title."""
    shown = a11y.count_windows("Start Server?")
    if shown == 0:
        return
    consents = [w for w in a11y.toplevels(s.app) if w.name == "Start Server?"]
    if consents:
        a11y.activate(a11y.find(consents[0], "push button", a11y.labelled("Start Server")))
        a11y.wait_until("a consent dialog to close",
                        lambda: a11y.count_windows("Start Server?") < shown)
    a11y.focus(s.main)


def row_of(node):
    while a11y.role(node) != "list item":
        node = node.parent
        if node is None:
            raise a11y.E2EError("no row holds the node")
    return node


def wait_for_text(view, what, predicate, timeout=30):
    """The view's description, the page's own text, once predicate accepts it."""
    def accepted():
        text = a11y.description(view)
        return text if predicate(text) else None
    return a11y.wait_until(what, accepted, timeout=timeout)


def open_tool(s, tool, server=SERVER):
    views = a11y.find(s.main, "list", "Views")
    servers_row = a11y.find_all(views, "list item", "Servers")
    if servers_row and not a11y.has_state(servers_row[0], pyatspi.STATE_SELECTED):
        a11y.select(views, servers_row[0])
    rows = servers(s)
    row = a11y.find(rows, "list item", where=lambda r: a11y.name(r).startswith(server + ","))
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(rows, row)
    page = a11y.find(s.main, "filler", server)
    tab = a11y.find(page, "page tab", "Tools")
    if not a11y.has_state(tab, pyatspi.STATE_SELECTED):
        a11y.activate(tab)
    a11y.set_text(a11y.find(page, "entry", "Search tools"), tool)
    tools = a11y.find(page, "list", "Tools")
    a11y.select(tools, row_of(a11y.find(tools, "label", tool)))
    return a11y.find(page, "filler", "StewardToolPane",
                     where=lambda pane: a11y.find_all(pane, "label", tool))


def log_rows(s, search, where):
    """The log viewer's rows for search that where accepts."""
    views = a11y.find(s.main, "list", "Views")
    a11y.select(views, a11y.find(views, "list item", "Logs"))
    logs = a11y.find(s.main, "filler", "StewardLogView")
    a11y.set_text(a11y.find(logs, "entry", "Search logs"), search)
    entries = a11y.find(logs, "list", "Log entries")
    return a11y.wait_until("log rows for %r" % search,
                           lambda: [row for row in a11y.find_all(entries, "list item")
                                    if any(where(a11y.name(c)) for c in a11y.children(row))])


@step()
def server_ready(s):
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME",
                                         os.path.join(s.home, ".config")), "steward")
    os.makedirs(config, exist_ok=True)
    node = shutil.which("node")
    port = s.listener.server_address[1]
    entries = {"basic": {"command": node, "args": [BASIC_JS, "--stdio"]},
               "monitor": {"command": node, "args": [MONITOR_JS, "--stdio"]},
               "budget": {"command": node, "args": [BUDGET_JS, "--stdio"]},
               "hostile": {"command": os.path.realpath(sys.executable),
                           "args": [os.path.realpath(HOSTILE_PY), str(port)]}}
    with open(os.path.join(config, "servers.json"), "w") as f:
        json.dump({"mcpServers": entries}, f, indent=2)
    s.launch(MAIN_SIZE, focus=False)

    def ready():
        answer_consent(s)
        names = [a11y.name(row) for row in a11y.find_all(servers(s), "list item")]
        return all(any(n.startswith(server + ", Ready") for n in names) for server in SERVERS)
    a11y.wait_until("the four servers to be ready", ready, timeout=120)


@step(server_ready)
def view_renders_under_result(s):
    pane = open_tool(s, "get-time")
    a11y.activate(a11y.find(pane, "push button", a11y.labelled("Call")))
    view = a11y.find(pane, None, where=lambda node: a11y.name(node).startswith("View of "),
                     timeout=30)
    check(view is not None, "the tool's view under its result")
    # The page's own words, read inside the page, after its script ran:
    # the time it was given by the tool's result.
    text = wait_for_text(view, "the basic view's text",
                         lambda t: "Get Server Time" in t and re.search(r"\d\d:\d\d", t))
    print("# the basic view says: %s" % text[:200])
    s.save("app-view.png")
    s.view = view


def press_first_button(view):
    """Presses the page's first button, "Get Server Time", as a person
    would, with the mouse: the page's first control, under its notice and
    the time, at the left; its place follows from the page's own style
    sheet."""
    a11y.click_in_page(view, "Get Server Time", 60, BUTTON_TOP)


@step(view_renders_under_result)
def view_calls_its_tool(s):
    press_first_button(s.view)
    # The view's call is asked about like a model's, naming the view.
    dialog = a11y.toplevel(s.app, "Allow Tool Call?")
    a11y.focus(dialog)
    a11y.find(dialog, "label", where=lambda node: a11y.name(node).startswith("The view "))
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Allow")))
    a11y.closed(s.app, "Allow Tool Call?")
    a11y.focus(s.main)
    # The page loaded and ran: it asked the bridge to initialize, and the
    # bridge recorded it with the view's traffic.
    log_rows(s, "ui/initialize", lambda name: "ui/initialize" in name)
    # The bridge got the page's tools/call (#0 was its ui/initialize) and
    # sent the server's answer back to the page (the view's traffic counts
    # its own ids, "#1"; the host's client writes "id 8").
    log_rows(s, "tools/call", lambda name: "tools/call #1" in name)
    log_rows(s, "result", lambda name: "result #1" in name)
    # The server answered two calls of its tool: the Tools page's and the view's.
    answers = log_rows(s, "result id", lambda name: "for tools/call" in name)
    check(len(answers) >= 2, "the server answered the view's call too")


def call_for_view(s, server, tool):
    """Calls tool of server from its Tools page and returns its view."""
    pane = open_tool(s, tool, server)
    a11y.activate(a11y.find(pane, "push button", a11y.labelled("Call")))
    return a11y.find(pane, None, where=lambda node: a11y.name(node).startswith("View of "),
                     timeout=30)


def web_processes(s):
    """The WebKit web processes under the app: one for each page shown."""
    parents = {}
    names = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        names[int(entry)] = stat[stat.index("(") + 1:stat.rindex(")")]
        parents[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])

    def under_app(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == s.process.pid:
                return True
        return False
    return [pid for pid, name in names.items()
            if name.startswith("WebKitWebProces") and under_app(pid)]


def answer_view_calls(s, always, until):
    """Allows each call the view asks about until until() holds; with
    always, the first allows the tool from then on."""
    first = [True]

    def answered():
        done = until()
        if done:
            return done
        for dialog in [w for w in a11y.toplevels(s.app) if w.name == "Allow Tool Call?"]:
            a11y.find(dialog, "label", where=lambda n: a11y.name(n).startswith("The view "))
            if always and first[0]:
                a11y.click(a11y.find(dialog, "check box", where=lambda n: a11y.name(n).replace(
                    "_", "") == "Always allow this tool"))
                first[0] = False
            a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Allow")))
            a11y.closed(s.app, "Allow Tool Call?")
        return None
    result = a11y.wait_until("the view's calls to be answered", answered, timeout=60)
    a11y.focus(s.main)
    return result


def press_toggle(view):
    """Presses the monitor's Start/Stop button with the mouse: at the
    right of the page's header, left of the status, by the page's own
    style sheet."""
    a11y.click_in_page(view, "System Monitor", -133, 29)


MEMORY = re.compile(r"memory\s+\d+(\.\d+)?%", re.I)
CLOCK = re.compile(r"\b\d\d:\d\d:\d\d\b")


@step(server_ready)
def monitor_view_polls(s):
    view = call_for_view(s, "monitor", "get-system-info")
    # Given its result, the page starts polling poll-system-stats through
    # the bridge at once; the person allows that tool for good.
    text = answer_view_calls(s, True, lambda: MEMORY.search(a11y.description(view))
                             and a11y.description(view))
    check("System Monitor" in text, "the monitor's page rendered")
    print("# the monitor view says: %s" % text[:200])
    s.monitor = view

    # Its Start/Stop button: Stop, then Start, which calls the tool again.
    press_toggle(view)
    wait_for_text(view, "the monitor to stop", lambda t: "Stopped" in t)
    check(not CLOCK.search(a11y.description(view)), "the stopped status shows no time")
    press_toggle(view)
    wait_for_text(view, "a fresh poll after Start",
                  lambda t: "Stopped" not in t and CLOCK.search(t))
    log_rows(s, "poll-system-stats", lambda name: "tools/call" in name
             and "poll-system-stats" in name)


@step(server_ready)
def budget_view_renders(s):
    view = call_for_view(s, "budget", "get-budget-data")
    # The page drew its sliders from the tool's result: a total above zero.
    text = wait_for_text(view, "the budget view's allocation",
                         lambda t: "Budget Allocator" in t
                         and re.search(r"Allocated: \$[1-9]", t))
    print("# the budget view says: %s" % text[:200])


@step(server_ready)
def hostile_view_gets_nothing(s):
    before = len(Listener.requests)
    view = call_for_view(s, "hostile", "escape")
    text = wait_for_text(view, "the hostile view's attempts", lambda t: "attempts done" in t,
                         timeout=60)
    print("# the hostile view says: %s" % text)
    check("initialized" in text, "the hostile view reached its own host")
    for outcome in ("fetch refused", "image refused", "script refused", "calls refused 4",
                    "navigation stayed"):
        check(outcome in text, "the view's page says %r" % outcome)
    check(len(Listener.requests) == before,
          "nothing reached the undeclared origin: %r" % Listener.requests[before:])
    check(not [w for w in a11y.toplevels(s.app) if w.name == "Allow Tool Call?"],
          "no call of another server's tool was even asked about")
    # The link it clicked by itself is not offered to the person either.
    check(a11y.count_windows("Open Link?") == 0, "no link offered that nobody clicked")
    # The bridge refused each by name, in the view's traffic.
    log_rows(s, "its own server", lambda name: "get-time" in name)


@step(monitor_view_polls)
def views_come_and_go(s):
    # Every page shown has a web process; leaving the Tools page for the
    # logs lets every page go after a short grace, and with it its process.
    pane = open_tool(s, "get-system-info", "monitor")
    view = a11y.find(pane, None, where=lambda node: a11y.name(node).startswith("View of "))
    wait_for_text(view, "the monitor's page", lambda t: MEMORY.search(t), timeout=60)
    a11y.wait_until("a web process for the shown view", lambda: web_processes(s))
    views = a11y.find(s.main, "list", "Views")
    a11y.select(views, a11y.find(views, "list item", "Logs"))
    a11y.wait_until("the views' web processes to end", lambda: not web_processes(s),
                    timeout=60)
    # Back on the monitor's tools, its view is loaded again.
    pane = open_tool(s, "get-system-info", "monitor")
    view = a11y.find(pane, None, where=lambda node: a11y.name(node).startswith("View of "))
    wait_for_text(view, "the monitor's page again", lambda t: MEMORY.search(t), timeout=60)
    shown = a11y.wait_until("a web process again", lambda: web_processes(s))
    print("# web processes with one view shown: %d" % len(shown))
    # A second call replaces the view: the first page goes, one remains.
    call_for_view(s, "monitor", "get-system-info")
    a11y.wait_until("the replaced view's process to end",
                    lambda: len(web_processes(s)) <= len(shown), timeout=60)


if __name__ == "__main__":
    if not shutil.which("node") or not all(os.path.exists(js) for js in (BASIC_JS, MONITOR_JS,
                                                                         BUDGET_JS)):
        driver.skip_all("node or the ext-apps example servers are not installed",
                        len(driver.STEPS))
        sys.exit(0)
    sys.exit(driver.main(Session, prefix="apps-", needs_everything=False))
