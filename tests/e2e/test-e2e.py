#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Steward from end to end, as a person uses it: the real app, driven through
# the accessibility tree and the X server's keyboard and mouse, against the
# real reference server (server-everything over stdio). It adds the server
# through the Add Server dialog, starts it from the consent dialog, calls a
# tool, finds the call in the protocol trace, shares folders, answers and
# rejects sampling requests, fills an elicitation form, and stores an API
# key that must be in the keyring and nowhere on disk.
#
#   test-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session (private home, session bus, keyring,
# accessibility bus, Xvfb). GSETTINGS_SCHEMA_DIR points at the compiled
# schema, STEWARD_PEERS_DIR at the npm peers. With STEWARD_SCREENSHOTS_DIR
# set, it also saves the screenshots the metainfo and the README show.
# A failing step prints what it waited for and the part of the
# accessibility tree it looked at, and saves the screen in DIR.
#
# Prints TAP, one case a step (tests/e2e/driver.py runs them).

import json
import os
import pathlib
import secrets
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from driver import EVERYTHING_JS, QUIT_TIMEOUT, check, step  # noqa: E402

SERVER = "everything"

ECHO_MESSAGE = "Hello from the end-to-end test"
SAMPLING_PROMPT = "Write a haiku about tomatoes"
EDITED_PROMPT = "Write a haiku about ripe tomatoes on a warm August evening"
ANSWER_LINES = ["Sun-warm tomatoes", "split their skins along the vine", "August in one bite"]
REJECTED = "User rejected sampling request"
PROVIDER = "OpenAI"
PROVIDER_URL = "https://api.openai.com/v1"
SECRET_SCHEMA = "io.github.stewardmcp.Steward.Secret"

MAIN_SIZE = (1100, 720)


class Session(driver.AppSession):
    """What the steps share: the app, its windows, the paths it was given."""

    def __init__(self, steward, artifacts):
        super().__init__(steward, artifacts)
        self.screenshots = os.environ.get("STEWARD_SCREENSHOTS_DIR")
        self.folders = [os.path.join(self.home, "Projects", name)
                        for name in ("garden-notes", "recipes")]
        self.canary = "sk-canary-" + secrets.token_hex(16)

    def screenshot(self, window, name):
        if self.screenshots:
            a11y.park_pointer()
            a11y.screenshot(window, os.path.join(self.screenshots, name))
        narrow = os.environ.get("STEWARD_NARROW_SCREENSHOTS_DIR")
        if narrow:
            self.screenshot_narrow(window, os.path.join(narrow, name))

    def screenshot_narrow(self, window, path):
        """The same at the narrowest width the app supports, to look at,
        never kept in the repository."""
        width, height = a11y.extents(window)[2:]
        try:
            a11y.resize(window, 360, height)
            a11y.park_pointer()
            a11y.screenshot(window, path)
        except a11y.E2EError as error:
            print("# %s not 360 pixels wide: %s" % (window.name, error), flush=True)
        finally:
            a11y.resize(window, width, height)

    def sidebar(self):
        """Back to the sidebar when the window is too narrow to show it
        beside a page, as a person would."""
        back = a11y.find_all(self.main, "push button", "Back")
        if back:
            a11y.activate(back[0])
            a11y.gone(self.main, "push button", "Back")

    def servers(self):
        self.sidebar()
        return a11y.find(self.main, "list", "Servers")

    def server_page(self):
        return a11y.find(self.main, "filler", SERVER)

    def views(self):
        """The Logs and Roots rows, below the servers."""
        self.sidebar()
        return a11y.find(self.main, "list", "Views")

    def cleanup(self):
        self.stop()
        for pid in server_processes(self):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def row_of(node):
    while a11y.role(node) != "list item":
        node = node.parent
        if node is None:
            raise a11y.E2EError("no row holds the node")
    return node



def open_tool(s, tool):
    """Goes to the server's Tools page, finds tool with the search field, as
    a person would in a long list, and opens it."""
    servers = s.servers()
    row = a11y.find(servers, "list item", contains=SERVER)
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(servers, row)
    page = s.server_page()
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


def result_of(pane, expected, timeout=a11y.DEFAULT_TIMEOUT):
    view = a11y.find(pane, "filler", "StewardToolResultView", timeout=timeout)
    return a11y.wait_for_texts(view, expected, "the result to show %r" % (expected,), timeout)


def audit_record(s, decision, text):
    """The last record of the sampling audit journal with decision whose
    summary (the last user message) holds text, or None."""
    found = None
    for folder, _, files in os.walk(s.top):
        if "audit.jsonl" not in files:
            continue
        with open(os.path.join(folder, "audit.jsonl")) as journal:
            for line in journal:
                record = json.loads(line)
                if record.get("decision") == decision and text in record.get("summary", ""):
                    found = record
    return found


@step()
def starts_with_no_servers(s):
    s.launch(MAIN_SIZE)
    a11y.find(s.main, "label", "No Servers Yet")


@step(starts_with_no_servers)
def adds_server_in_dialog(s):
    a11y.activate(a11y.find(s.main, "push button", "Add Server"))
    dialog = a11y.toplevel(s.app, "Add Server")
    a11y.focus(dialog)
    a11y.set_text(a11y.find(dialog, "text", "Name"), SERVER)
    a11y.set_text(a11y.find(dialog, "text", "Program"), shutil.which("node"))
    a11y.set_text(a11y.find(dialog, "text", "Arguments"), EVERYTHING_JS)
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Add")))
    a11y.closed(s.app, "Add Server")
    a11y.find(s.servers(), "list item", contains=SERVER)


@step(adds_server_in_dialog)
def starts_after_consent(s):
    # The window manager gives the focus back to the main window, and a
    # request to start a server shows itself to a person who is looking.
    a11y.focus(s.main)
    consent = a11y.toplevel(s.app, "Start Server?")
    shown = a11y.wait_for_texts(consent, [shutil.which("node"), EVERYTHING_JS],
                           "the consent dialog to show the exact command")
    check("Start “%s”?" % SERVER in shown, "the consent dialog names the server")
    a11y.activate(a11y.find(consent, "push button", a11y.labelled("Start Server")))
    a11y.closed(s.app, "Start Server?")
    a11y.focus(s.main)
    a11y.find(s.servers(), "list item", where=lambda row: a11y.name(row).startswith(
        SERVER + ", Ready"), timeout=60)


@step(starts_after_consent)
def calls_echo_from_tools_page(s):
    pane = open_tool(s, "echo")
    a11y.set_text(a11y.find(pane, "text", "message"), ECHO_MESSAGE)
    call(pane)
    result_of(pane, ["Echo: " + ECHO_MESSAGE])
    s.screenshot(s.main, "main-window.png")


@step(calls_echo_from_tools_page)
def finds_call_in_protocol_trace(s):
    views = s.views()
    a11y.select(views, a11y.find(views, "list item", "Logs"))
    logs = a11y.find(s.main, "filler", "StewardLogView")
    a11y.set_text(a11y.find(logs, "entry", "Search logs"), "tools/call")
    entries = a11y.find(logs, "list", "Log entries")

    # The row names the tool it calls.
    def is_call(row):
        return any(" tools/call “echo” id " in a11y.name(child) for child in a11y.children(row))
    a11y.select(entries, a11y.find(entries, "list item", where=is_call))
    detail = a11y.find(logs, "text", "Entry detail")
    shown = a11y.wait_until("the entry's detail with its answer",
                            lambda: (a11y.text_of(detail) or "") if "── Its answer: result id "
                            in (a11y.text_of(detail) or "") else None)
    for part in ("Source: Protocol", "Direction: → sent to the server",
                 '"method": "tools/call"', '"name": "echo"', '"message": "%s"' % ECHO_MESSAGE,
                 " for tools/call “echo” ──", "Direction: ← received from the server",
                 "Echo: %s" % ECHO_MESSAGE):
        check(part in shown, "the detail shows %r:\n%s" % (part, shown))

    if s.screenshots:
        # The whole log, with the call's answer chosen: what the tool
        # returned first, the request it answers below.
        def is_answer(row):
            return any(" result id " in a11y.name(child) and
                       a11y.name(child).endswith(" for tools/call “echo”")
                       for child in a11y.children(row))
        a11y.set_text(a11y.find(logs, "entry", "Search logs"), "")
        a11y.find(logs, "label", where=lambda label: a11y.name(label).endswith(" entries") and
                  " of " not in a11y.name(label))
        a11y.select(entries, a11y.find(entries, "list item", where=is_answer))
        a11y.wait_for_texts(detail, ["Echo: %s" % ECHO_MESSAGE, "── The request: "],
                       "the answer's detail, with the request it answers")
        # The detail pane can be made taller still by dragging its divider.
        handle = a11y.find(logs, "filler", "GtkPanedHandle")
        before = a11y.extents(detail)[3]
        a11y.drag(handle, 0, -60)
        a11y.wait_until("the detail to grow", lambda: a11y.extents(detail)[3] > before + 40)
        s.screenshot(s.main, "log-viewer.png")


def large_text():
    """A text well past what a label shows, as a notes file is: prose, and
    addresses too long for a line that can only break inside a word."""
    lines = []
    for number in range(1, 41):
        lines.append("Bed %d: tomatoes, basil and marigolds; water at dawn, "
                     "mulch after the first warm week." % number)
        if number % 4 == 0:
            lines.append("https://garden.example.org/notes/beds/bed%d/"
                         "planting_schedule_and_watering_log_for_this_summer.md" % number)
    return "\n".join(lines)


@step(calls_echo_from_tools_page)
def large_result_in_text_view(s):
    """A result too long for a label shows whole in its own scrolled text
    view, which the pane scrolls to and which fills it, and long words
    break without hyphens."""
    message = large_text()
    pane = open_tool(s, "echo")
    a11y.set_text(a11y.find(pane, "text", "message"), message)
    call(pane)
    # The new result takes the place of the last one, which had no text view.
    text = a11y.find(pane, "text", "Content text")
    view = a11y.find(pane, "filler", "StewardToolResultView")
    shown = a11y.wait_until("the result's text view to hold the whole text",
                            lambda: a11y.text_of(text) if message in a11y.text_of(text) else None)
    check(shown == "Echo: " + message, "the text view holds exactly the result: %r" % shown[:200])
    check(not any(message in a11y.text_of(label) for label in a11y.find_all(view, "label")),
          "the large text is not in a label")
    # Lines are wrapped at the view's width, never with a hyphen put in:
    # the accessible text holds what the server sent and nothing more.
    check("\u00ad" not in shown and "\u2010" not in shown, "no hyphen was put in the text")

    # The pane scrolls by itself to the result's top, and the text takes
    # most of the pane's height.
    scroller = a11y._scroller_of(view)
    area = a11y.extents(scroller)

    def filled():
        box = a11y.extents(text)
        return (box[1] >= area[1] and box[1] < area[1] + area[3] // 4 and
                box[3] >= area[3] // 2)
    a11y.wait_until("the text view to fill the pane, scrolled to", filled)
    s.screenshot(s.main, "large-result.png")


@step(starts_after_consent)
def shares_folders_from_roots_page(s):
    views = s.views()
    a11y.select(views, a11y.find(views, "list item", "Roots"))
    roots = a11y.find(s.main, "filler", "StewardRootsPage")
    for folder in s.folders:
        os.makedirs(folder, exist_ok=True)
        a11y.activate(a11y.find(roots, "push button", a11y.labelled("Add Folder…")))
        # Outside Flatpak without a portal, GTK's own file chooser: type
        # the folder's path into its location field, as a person can.
        chooser = a11y.toplevel(s.app, "Add Folder")
        a11y.focus(chooser)
        a11y.key("ctrl+l")
        location = a11y.find(chooser, "text", "GtkFileChooserEntry")
        a11y.type_text(folder + "/")
        a11y.wait_until("the location field to hold %s" % folder,
                        lambda: a11y.text_of(location).rstrip("/") == folder)
        a11y.activate(a11y.find(chooser, "push button", a11y.labelled("Add")))
        a11y.closed(s.app, "Add Folder")
        a11y.focus(s.main)
        shared = a11y.find(roots, "list", "Shared folders")
        row = a11y.find(shared, "list item", os.path.basename(folder))
        shown = "~/" + os.path.relpath(folder, s.home)
        a11y.wait_for_texts(row, [shown], "the row to show where the folder is")
    s.screenshot(s.main, "roots.png")


@step(shares_folders_from_roots_page)
def server_lists_the_roots(s):
    pane = open_tool(s, "get-roots-list")
    call(pane)
    uris = [pathlib.Path(os.path.realpath(folder)).as_uri() for folder in s.folders]
    result_of(pane, ["URI: " + uri for uri in uris])


@step(starts_after_consent)
def sampling_edited_and_answered(s):
    a11y.focus(s.main)
    pane = open_tool(s, "trigger-sampling-request")
    a11y.set_text(a11y.find(pane, "text", "prompt"), SAMPLING_PROMPT)
    a11y.set_text(a11y.find(pane, "text", "maxTokens"), "200")
    call(pane)

    dialog = a11y.toplevel(s.app, "Sampling Request from “%s”" % SERVER)
    a11y.focus(dialog)
    a11y.wait_for_texts(dialog, ["You are a helpful test server.",
                            "Tool call “trigger-sampling-request”"],
                   "the request's system prompt and cause")
    message = a11y.find(dialog, "text", "Message 1 from user")
    check(SAMPLING_PROMPT in a11y.text_of(message),
          "the message holds the prompt: %r" % a11y.text_of(message))
    a11y.set_text(message, EDITED_PROMPT)
    s.screenshot(dialog, "sampling-request.png")
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Continue")))

    answer = a11y.find(dialog, "text", "Answer")
    a11y.set_text(answer, "\n".join(ANSWER_LINES))
    send = a11y.find(dialog, "push button", a11y.labelled("Send"))
    a11y.wait_until("Send to be available",
                    lambda: a11y.has_state(send, pyatspi.STATE_SENSITIVE))
    s.screenshot(dialog, "sampling-response.png")
    a11y.activate(send)
    a11y.closed(s.app, dialog.name)
    a11y.focus(s.main)

    result_of(pane, ["LLM sampling result", '"model": "manual"', "\\n".join(ANSWER_LINES)])

    # The journal keeps the request as the person let it go.
    record = a11y.wait_until("the audit record of the edited request",
                             lambda: audit_record(s, "sent", EDITED_PROMPT))
    check(record.get("edited") is True, "the record says the request was edited: %r" % record)
    check(record.get("answerChars") == len("\n".join(ANSWER_LINES)),
          "the record counts the answer's characters: %r" % record)


@step(sampling_edited_and_answered)
def sampling_rejected(s):
    a11y.focus(s.main)
    pane = open_tool(s, "trigger-sampling-request")
    a11y.set_text(a11y.find(pane, "text", "prompt"), SAMPLING_PROMPT)
    call(pane)
    dialog = a11y.toplevel(s.app, "Sampling Request from “%s”" % SERVER)
    a11y.focus(dialog)
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Reject")))
    a11y.closed(s.app, dialog.name)
    a11y.focus(s.main)
    result_of(pane, [REJECTED])
    a11y.wait_until("the audit record of the rejection",
                    lambda: audit_record(s, "rejected", SAMPLING_PROMPT))


@step(starts_after_consent)
def elicitation_form_accepted(s):
    a11y.focus(s.main)
    pane = open_tool(s, "trigger-elicitation-request")
    call(pane)

    dialog = a11y.toplevel(s.app, "Request from “%s”" % SERVER)
    a11y.focus(dialog)
    a11y.wait_for_texts(dialog, ["Please provide inputs for the following fields:"],
                   "the server's message")
    a11y.set_text(a11y.find(dialog, "text", "String"), "Ada Lovelace")
    a11y.set_text(a11y.find(dialog, "text", "String with email format"), "ada@example.org")
    a11y.set_text(a11y.find(dialog, "text", "Integer"), "7")

    # GTK 4.8 gives check buttons no accessible action: click them.
    for box in ("Boolean", "Piano"):
        node = a11y.find(dialog, "check box", box)
        a11y.click(node)
        a11y.wait_until("%s to be checked" % box,
                        lambda: a11y.has_state(node, pyatspi.STATE_CHECKED))

    friends = a11y.find(dialog, "combo box", "Untitled Single Select Enum")
    a11y.activate(a11y.find(friends, "push button"))
    a11y.click(a11y.find(friends, "label", "Joey"))
    a11y.gone(friends, "filler", "GtkPopover")
    a11y.find(friends, "label", "Joey")

    if s.screenshots:
        a11y.scroll_into_view(a11y.find(dialog, "label", contains="asks you for information"))
        s.screenshot(dialog, "elicitation.png")
    accept = a11y.find(dialog, "push button", a11y.labelled("Accept"))
    a11y.wait_until("Accept to be available",
                    lambda: a11y.has_state(accept, pyatspi.STATE_SENSITIVE))
    a11y.activate(accept)
    a11y.closed(s.app, dialog.name)
    a11y.focus(s.main)

    result_of(pane, ['"action": "accept"', '"name": "Ada Lovelace"',
                     '"email": "ada@example.org"', '"integer": 7', '"check": true',
                     '"Piano"', '"untitledSingleSelectEnum": "Joey"'])


@step(starts_after_consent)
def request_in_view_while_unfocused(s):
    # Another program has the focus, and no notification service runs in
    # this session: the request a server makes must still be in view in
    # Steward's window, and answered from there.
    a11y.focus(s.main)
    pane = open_tool(s, "trigger-elicitation-request")
    other = subprocess.Popen(["xmessage", "-title", "Other work", "Other work"])
    try:
        a11y.wait_until("the other program's window", lambda: a11y._x_windows("^Other work$"))
        a11y._xdotool("windowfocus", "--sync", a11y.window_id("Other work"))
        a11y.wait_until("the main window to lose the focus",
                        lambda: not a11y.has_state(s.main, pyatspi.STATE_ACTIVE))
        call(pane)

        waiting = a11y.find(s.main, "push button", "1 request waits for your answer")
        a11y.find(waiting, "label", "1 Waiting")
        row = a11y.find(s.servers(), "list item", contains=SERVER)
        a11y.find(row, "push button", a11y.labelled("1 Request Waiting"))
        check(not a11y._x_windows("^Request from"),
              "the request did not take the focus from the other program")

        a11y.activate(waiting)
        dialog = a11y.toplevel(s.app, "Request from “%s”" % SERVER)
        a11y.focus(dialog)
        a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Decline")))
        a11y.closed(s.app, dialog.name)
        a11y.gone(s.main, "push button", "1 request waits for your answer")
    finally:
        other.terminate()
        other.wait()
    a11y.focus(s.main)
    result_of(pane, ['"action": "decline"'])


def add_provider(prefs):
    """Adds an OpenAI-compatible provider on the Providers page, opens its
    row and returns it, or returns None where the page has one fixed
    group a kind instead."""
    add = a11y.find_all(prefs, "list", "Add a Provider")
    if not add:
        return None
    a11y.set_text(a11y.find(add[0], "text", contains="Name of the new provider"), PROVIDER)
    a11y.set_text(a11y.find(add[0], "text", contains="Base URL of the new provider"),
                  PROVIDER_URL)
    a11y.activate(a11y.find(add[0], "push button", "Add the provider"))
    return a11y.find(a11y.find(prefs, "list", "Providers"), "list item", PROVIDER)


def stored_secrets():
    """The secrets Steward keeps in the keyring: {id: secret}."""
    found = subprocess.run(["secret-tool", "search", "--all", "xdg:schema", SECRET_SCHEMA],
                           capture_output=True, text=True, timeout=30)
    items = {}
    # secret-tool prints each item's secret on stdout, its attributes on
    # stderr, in the same order.
    secrets_seen = [line.split(" = ", 1)[1] for line in found.stdout.splitlines()
                    if line.startswith("secret = ")]
    ids = [line.split(" = ", 1)[1] for line in found.stderr.splitlines()
           if line.startswith("attribute.id = ")]
    for ident, secret in zip(ids, secrets_seen):
        items[ident] = secret
    return items


@step(starts_after_consent)
def import_keeps_working_server(s):
    """Importing Claude Desktop's file, whose "everything" has the name of
    the working server, leaves that one unticked; every row shows its
    command without being opened."""
    config = os.path.join(os.environ["XDG_CONFIG_HOME"], "Claude")
    path = os.path.join(config, "claude_desktop_config.json")
    token = "ghp_" + secrets.token_hex(18)
    os.makedirs(config, exist_ok=True)
    with open(path, "w") as f:
        json.dump({"mcpServers": {
            SERVER: {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
            "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
                       "env": {"MEMORY_FILE_PATH": "/home/me/memory.json"}},
            "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                       "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": token}},
        }}, f)

    a11y.focus(s.main)
    s.sidebar()
    menu = a11y.find(s.main, "push button", "Main Menu",
                     where=lambda b: a11y.has_state(b, pyatspi.STATE_FOCUSABLE))
    a11y.activate(menu)
    a11y.activate(a11y.find(s.main, "menu item", "Import Servers…"))
    dialog = a11y.toplevel(s.app, "Import Servers")
    a11y.focus(dialog)
    claude = a11y.find(dialog, "list item", contains="Claude Desktop",
                       where=lambda row: a11y.has_state(row, pyatspi.STATE_SENSITIVE))
    # GTK 4.8 gives an activatable row no accessible action: click it.
    a11y.click(claude)

    keep = a11y.find(dialog, "check box", "Import “%s”" % SERVER)
    new = a11y.find(dialog, "check box", "Import “memory”")
    a11y.wait_until("the new server ticked",
                    lambda: a11y.has_state(new, pyatspi.STATE_CHECKED))
    check(not a11y.has_state(keep, pyatspi.STATE_CHECKED),
          "the server that would replace the working %r is not ticked" % SERVER)
    a11y.wait_for_texts(dialog, ['"@modelcontextprotocol/server-everything"',
                            '"@modelcontextprotocol/server-memory"',
                            '"@modelcontextprotocol/server-github"',
                            "It stays as it is unless you tick this one"],
                   "every row's command, and what ticking the existing name does")
    check(not any(token in text for text in a11y.texts(dialog)),
          "the import list never shows a secret value")
    s.screenshot(dialog, "import.png")

    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Cancel")))
    a11y.closed(s.app, "Import Servers")
    a11y.focus(s.main)
    os.remove(path)


@step(starts_with_no_servers)
def api_key_only_in_keyring(s):
    a11y.focus(s.main)
    a11y.key("ctrl+comma")
    prefs = a11y.toplevel(s.app, "Preferences")
    a11y.focus(prefs)
    row = add_provider(prefs)
    if row is not None:
        # GTK 4.8 gives an expander row no accessible action: click it.
        a11y.click(row)
        group = a11y.find(prefs, "list", "Providers")
    else:
        group = a11y.find(prefs, "list", "OpenAI-Compatible")
    a11y.activate(a11y.find(group, "push button", a11y.labelled("Set…")))
    ask = a11y.toplevel(s.app, contains="API Key")
    a11y.set_text(a11y.find(ask, "password text"), s.canary)
    a11y.activate(a11y.find(ask, "push button", a11y.labelled("Save")))
    a11y.closed(s.app, ask.name)

    masked = "sk-…" + s.canary[-4:]

    def masked_shown():
        if a11y.find_all(prefs, "label", masked):
            return True
        # Saving rebuilds the list of providers, with every row closed.
        if row is not None and not a11y.find_all(group, "list item", "API Key"):
            a11y.click(a11y.find(group, "list item", PROVIDER))
        return False
    a11y.wait_until("the key shown masked as %r" % masked, masked_shown)
    check(not any(s.canary in text for text in a11y.texts(prefs)),
          "the preferences never show the key in full")

    stored = a11y.wait_until("the key in the keyring",
                             lambda: [i for i, v in stored_secrets().items() if v == s.canary])
    found = subprocess.run(["secret-tool", "lookup", "id", stored[0]],
                           capture_output=True, text=True, timeout=30)
    check(found.stdout == s.canary,
          "secret-tool looks the key up by its id %r: %r %r" % (stored[0], found.stdout,
                                                                found.stderr))

    # The keyring file is encrypted: the key is nowhere in plain text.
    needle = s.canary.encode()
    hits = []
    for folder, _, files in os.walk(s.top):
        for filename in files:
            path = os.path.join(folder, filename)
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            with open(path, "rb") as f:
                if needle in f.read():
                    hits.append(path)
    check(not hits, "the key is on disk in plain text: %s" % ", ".join(hits))

    a11y.activate(a11y.find(prefs, "push button", "Close"))
    a11y.closed(s.app, "Preferences")


@step(starts_with_no_servers)
def quits_without_leaving_servers(s):
    a11y.focus(s.main)
    s.quitting = True
    a11y.key("ctrl+q")
    started = time.monotonic()
    try:
        status = s.process.wait(QUIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise a11y.E2EError("steward still runs %d s after Ctrl+Q" % QUIT_TIMEOUT) from None
    check(status == 0, "steward exited with status %d" % status)
    # A figure, not a verdict: on a busy machine quitting may take longer
    # than the 5 s Steward aims for, and QUIT_TIMEOUT is the failure.
    print("# quitting took %.1f s" % (time.monotonic() - started))
    check(not server_processes(s), "server processes outlive steward: %s" % server_processes(s))


def server_processes(s):
    """Processes of this session that run the reference server."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmdline = f.read().split(b"\0")
            with open("/proc/%s/environ" % pid, "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            continue
        if (EVERYTHING_JS.encode() in cmdline and
                ("HOME=" + s.home).encode() in environ):
            found.append(int(pid))
    return found


if __name__ == "__main__":
    sys.exit(driver.main(Session))
