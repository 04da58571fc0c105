#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# MCP Apps from end to end: the real app against the pinned
# @modelcontextprotocol/server-basic-vanillajs. Its get-time tool is called
# from the Tools page; its view appears under the result, in a web view the
# accessibility tree cannot see into (GTK 4.8 does not expose WebKit's
# content), so what the page does is read from the log viewer, where the
# view bridge records its traffic: the page's ui/initialize shows that it
# loaded, ran its script and reached the host through the bridge. Then its
# "Get Server Time" button is pressed with the mouse: the page calls its
# server's tool through the bridge, the approval names the view, and the
# server's answer goes back to the page. The Tools page with the view is
# kept in the artifacts as app-view.png.
#
#   test-apps-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session, like the other drivers; prints TAP.

import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from driver import check, step  # noqa: E402

SERVER = "basic"
BASIC_JS = os.path.realpath(os.path.join(driver.PEERS, "@modelcontextprotocol",
                                         "server-basic-vanillajs", "dist", "index.js"))
MAIN_SIZE = (1100, 800)
# Where the page's "Get Server Time" button is, from the top of the view:
# under the notice and the time, with the page's margins.
BUTTON_TOP = 118


class Session(driver.AppSession):
    def save(self, name):
        if self.artifacts:
            a11y.park_pointer()
            os.makedirs(self.artifacts, exist_ok=True)
            a11y.screenshot(self.main, os.path.join(self.artifacts, name))


def servers(s):
    return a11y.find(s.main, "list", "Servers")


def answer_consent(s):
    for consent in [w for w in a11y.toplevels(s.app) if w.name == "Start Server?"]:
        a11y.activate(a11y.find(consent, "push button", a11y.labelled("Start Server")))
        a11y.closed(s.app, "Start Server?")
    a11y.focus(s.main)


def row_of(node):
    while a11y.role(node) != "list item":
        node = node.parent
        if node is None:
            raise a11y.E2EError("no row holds the node")
    return node


def open_tool(s, tool):
    rows = servers(s)
    row = a11y.find(rows, "list item", contains=SERVER)
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(rows, row)
    page = a11y.find(s.main, "filler", SERVER)
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
    with open(os.path.join(config, "servers.json"), "w") as f:
        json.dump({"mcpServers": {SERVER: {"command": shutil.which("node"),
                                           "args": [BASIC_JS, "--stdio"]}}}, f, indent=2)
    s.launch(MAIN_SIZE, focus=False)

    def ready():
        answer_consent(s)
        return a11y.find_all(servers(s), "list item",
                             where=lambda row: a11y.name(row).startswith(SERVER + ", Ready"))
    a11y.wait_until("the basic server to be ready", ready, timeout=90)


@step(server_ready)
def view_renders_under_result(s):
    pane = open_tool(s, "get-time")
    a11y.activate(a11y.find(pane, "push button", a11y.labelled("Call")))
    view = a11y.find(pane, None, where=lambda node: a11y.name(node).startswith("View of "),
                     timeout=30)
    check(view is not None, "the tool's view under its result")
    s.save("app-view.png")
    s.view = view


def press_first_button(s, view):
    """Presses the page's first button, "Get Server Time", as a person
    would, with the mouse. The accessibility tree shows the web view as an
    empty filler, so its place on screen is all it tells: the button is
    the page's first control, under its notice and the time, at the left;
    its place in the page follows from the page's own style sheet."""
    a11y.scroll_into_view(view)
    left, top, _, _ = a11y._window_origin(a11y.window_of(view))
    x, y, width, height = a11y.extents(view)
    print("# the view at %d,%d %dx%d" % (x, y, width, height))
    check(width > 100 and height > 150, "the view has a place on screen")
    a11y._xdotool("mousemove", left + x + 60, top + y + BUTTON_TOP, "click", 1)


@step(view_renders_under_result)
def view_calls_its_tool(s):
    press_first_button(s, s.view)
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


if __name__ == "__main__":
    if not shutil.which("node") or not os.path.exists(BASIC_JS):
        driver.skip_all("node or server-basic-vanillajs is not installed", len(driver.STEPS))
        sys.exit(0)
    sys.exit(driver.main(Session, prefix="apps-", needs_everything=False))
