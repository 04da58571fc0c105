#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Long-running tool calls from end to end: the real app against a server of
# the 2026-07-28 revision with the tasks extension (tests/servers/
# tasks-server.mjs over HTTP, on the pinned official SDK), whose tasks
# outlive a client. A task started from the Tools page shows in the Tasks
# view; the app quits while it runs, starts again, follows it again from
# its journal and shows its result. Then three tasks in three states, which
# STEWARD_SCREENSHOTS_DIR keeps as tasks.png.
#
#   test-tasks-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session, like the other drivers; prints TAP.

import json
import os
import shutil
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from driver import check, step, write_json  # noqa: E402

SERVER = "tasks"
HERE = os.path.dirname(os.path.abspath(__file__))
TASKS_SERVER = os.path.join(HERE, "..", "servers", "tasks-server.mjs")
MAIN_SIZE = (1100, 720)
# Long enough to quit and start again in the middle, short enough to wait.
STEPS = 12
DELAY_MS = 1000


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Session(driver.AppSession):
    def __init__(self, steward, artifacts):
        super().__init__(steward, artifacts)
        self.screenshots = os.environ.get("STEWARD_SCREENSHOTS_DIR")
        self.server = None
        self.url = None
        self.task_id = None
        state = os.environ.get("XDG_STATE_HOME", os.path.join(self.home, ".local", "state"))
        self.journal = os.path.join(state, "steward", "tasks.json")

    def start_server(self):
        port = free_port()
        self.server = subprocess.Popen(["node", TASKS_SERVER, "http", str(port)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = self.server.stderr.readline().decode()
        check("listening" in line, "the tasks server to listen, not %r" % line)
        self.url = "http://127.0.0.1:%d/mcp" % port

    def cleanup(self):
        self.stop()
        if self.server is not None:
            driver.stop_process(self.server)



def servers(s):
    return a11y.find(s.main, "list", "Servers")


def answer_consent(s):
    """A remote server may ask first; the test agrees, as a person would."""
    consents = [w for w in a11y.toplevels(s.app) if w.name == "Start Server?"]
    for consent in consents:
        a11y.activate(a11y.find(consent, "push button", a11y.labelled("Start Server")))
        a11y.closed(s.app, "Start Server?")
    a11y.focus(s.main)


def wait_ready(s):
    def ready():
        answer_consent(s)
        return a11y.find_all(servers(s), "list item",
                             where=lambda row: a11y.name(row).startswith(SERVER + ", Ready"))
    a11y.wait_until("the tasks server to be ready", ready, timeout=60)


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


def call(pane):
    a11y.activate(a11y.find(pane, "push button", a11y.labelled("Call")))


def open_tasks(s):
    views = a11y.find(s.main, "list", "Views")
    row = a11y.find(views, "list item", "Tasks")
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(views, row)
    return a11y.find(s.main, "filler", "StewardTasksPage")


def task_row(page, tool, status, timeout=a11y.DEFAULT_TIMEOUT):
    name = "%s on %s: %s" % (tool, SERVER, status)
    return a11y.find(page, "list item", name, timeout=timeout)


def journalled(s):
    try:
        with open(s.journal) as f:
            tasks = json.load(f)["tasks"]
    except (OSError, ValueError, KeyError):
        return None
    running = [t for t in tasks if t.get("tool") == "count" and t.get("status") == "working"]
    return running[0]["taskId"] if running else None


@step()
def server_ready(s):
    s.start_server()
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME",
                                         os.path.join(s.home, ".config")), "steward")
    write_json(os.path.join(config, "servers.json"),
               {"mcpServers": {SERVER: {"url": s.url}}})
    s.launch(MAIN_SIZE, focus=False)
    wait_ready(s)


@step(server_ready)
def starts_task_from_tools_page(s):
    pane = open_tool(s, "count")
    a11y.set_text(a11y.find(pane, "text", "steps"), str(STEPS))
    a11y.set_text(a11y.find(pane, "text", "delayMs"), str(DELAY_MS))
    call(pane)
    page = open_tasks(s)
    task_row(page, "count", "Working")
    s.task_id = a11y.wait_until("the running task in the journal", lambda: journalled(s))


@step(starts_task_from_tools_page)
def quits_while_it_runs(s):
    # Quitting is no failure: check_alive() looks away until the start.
    s.quitting = True
    driver.stop_process(s.process)
    check(journalled(s) == s.task_id, "the journal keeps the running task")


@step(quits_while_it_runs)
def finds_result_after_restart(s):
    s.launch(MAIN_SIZE, append=True, focus=False)
    s.quitting = False
    wait_ready(s)
    page = open_tasks(s)
    row = task_row(page, "count", "Completed", timeout=STEPS * DELAY_MS / 1000 + 30)
    expander = a11y.find(row, "push button", "Result")
    if not a11y.find_all(row, "label", "counted to %d" % STEPS):
        a11y.activate(expander)
    a11y.find(row, "label", "counted to %d" % STEPS)

    # The journal is written a moment after the change.
    def completed():
        with open(s.journal) as f:
            kept = [t for t in json.load(f)["tasks"] if t["taskId"] == s.task_id]
        return kept and kept[0]["status"] == "completed" and \
            kept[0]["result"]["content"][0]["text"] == "counted to %d" % STEPS
    a11y.wait_until("the journal to keep the task's end and result", completed)


@step(finds_result_after_restart)
def three_states(s):
    pane = open_tool(s, "break")
    call(pane)
    pane = open_tool(s, "count")
    a11y.set_text(a11y.find(pane, "text", "steps"), "100")
    a11y.set_text(a11y.find(pane, "text", "delayMs"), "5000")
    call(pane)
    page = open_tasks(s)
    task_row(page, "break", "Failed")
    task_row(page, "count", "Working")
    task_row(page, "count", "Completed")
    if s.screenshots:
        a11y.park_pointer()
        a11y.screenshot(s.main, os.path.join(s.screenshots, "tasks.png"))


if __name__ == "__main__":
    if not shutil.which("node"):
        driver.skip_all("node is not installed", len(driver.STEPS))
        sys.exit(0)
    sys.exit(driver.main(Session, prefix="tasks-"))
