#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# MCP Apps in the chat, from end to end: the real app, a scripted model
# (tests/servers/fake-llm.py on loopback) and the pinned
# @modelcontextprotocol/server-basic-vanillajs. The model calls the
# server's get-time tool; once the person allows it, the tool's view
# renders under the call in the conversation. The view's "Send Message"
# button is pressed from the keyboard, as a person would: the page posts
# ui/message, the chat asks the person whether to send it, and once they
# agree the message shows in the conversation marked as coming from the
# view and reaches the model as the person's turn, saying where it came
# from. Then, in a chat of its own, @modelcontextprotocol/server-system-monitor:
# the model calls get-system-info, and the view's Start button makes the
# page poll its server through the bridge with poll-system-stats, a tool
# kept for views that the model is never offered, once the person allowed
# it; the log viewer shows the calls and the server's answers. Last, in a
# third chat, @modelcontextprotocol/server-budget-allocator: the model
# calls get-budget-data and the view's own text shows the allocation.
#
# GTK 4.8 shows a WebKit view to the accessibility tree only as an empty
# filler, so the page is reached through the screen: a click on its
# notice puts the keyboard in the page, and Tab moves through its
# controls in their order (Get Server Time, the message, Send Message).
# With STEWARD_SCREENSHOTS_DIR set, the conversation with the view is
# saved as app-view-chat-light.png and, the app started again in the dark
# style, app-view-chat-dark.png.
#
#   test-apps-chat-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session, like the other drivers; prints TAP.

import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from fake_model import FakeModel, text_stream, tool_call_stream  # noqa: E402
from driver import check, step, write_json  # noqa: E402

SERVER = "basic"
BASIC_JS = os.path.realpath(os.path.join(driver.PEERS, "@modelcontextprotocol",
                                         "server-basic-vanillajs", "dist", "index.js"))
MONITOR = "monitor"
MONITOR_JS = os.path.realpath(os.path.join(driver.PEERS, "@modelcontextprotocol",
                                           "server-system-monitor", "dist", "index.js"))
BUDGET = "budget"
BUDGET_JS = os.path.realpath(os.path.join(driver.PEERS, "@modelcontextprotocol",
                                          "server-budget-allocator", "dist", "index.js"))
MAIN_SIZE = (1100, 860)

QUESTION = "What time is it on the server?"
ANSWER = "The server's clock is shown in its view above."
VIEW_MESSAGE = "This is message text."
REPLY = "Thank you, I read the message from the view."
MONITOR_QUESTION = "How busy is this computer?"
MONITOR_ANSWER = "Its monitor is shown above; press Start to follow it."
BUDGET_QUESTION = "How is this year's budget allocated?"
BUDGET_ANSWER = "The allocation is shown above."
# Where the page's notice is, from the top left of the view: a place to
# click that is no control.
NOTICE = (40, 22)


def user_texts(request):
    """The text of each user message of a request, in order."""
    texts = []
    for message in request["body"].get("messages", []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(part.get("text", "") for part in content
                                if isinstance(part, dict))
        texts.append(content or "")
    return texts


class Session(driver.AppSession):
    def __init__(self, steward, artifacts):
        super().__init__(steward, artifacts)
        self.model = None
        self.chat = None
        self.screenshots = os.environ.get("STEWARD_SCREENSHOTS_DIR")

    def save(self, name, keep=False):
        """Saves the main window to the artifacts, and with keep to the
        screenshots the README shows."""
        a11y.park_pointer()
        for folder in (self.artifacts, self.screenshots if keep else None):
            if folder:
                os.makedirs(folder, exist_ok=True)
                a11y.screenshot(self.main, os.path.join(folder, name))

    def sidebar(self):
        back = a11y.find_all(self.main, "push button", "Back")
        if back:
            a11y.activate(back[0])
            a11y.gone(self.main, "push button", "Back")

    def stop(self):
        super().stop()
        if self.model is not None:
            self.model.stop()
            self.model = None



def answer_consent(s):
    for consent in [w for w in a11y.toplevels(s.app) if w.name == "Start Server?"]:
        a11y.activate(a11y.find(consent, "push button", a11y.labelled("Start Server")))
        a11y.closed(s.app, "Start Server?")


def optional_servers():
    """The servers besides server-basic-vanillajs that are installed."""
    return [name for name, js in ((MONITOR, MONITOR_JS), (BUDGET, BUDGET_JS))
            if os.path.exists(js)]


def wait_ready(s):
    names = [SERVER] + optional_servers()

    def ready():
        answer_consent(s)
        s.sidebar()
        rows = a11y.find(s.main, "list", "Servers")
        return all(a11y.find_all(rows, "list item",
                                 where=lambda row, name=name: a11y.name(row).startswith(
                                     name + ", Ready"))
                   for name in names)
    a11y.wait_until("the servers to be ready", ready, timeout=90)
    a11y.focus(s.main)


def open_chat(s):
    a11y.focus(s.main)
    s.sidebar()
    views = a11y.find(s.main, "list", "Views")
    row = a11y.find(views, "list item", "Chat")
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(views, row)
    return a11y.find(s.main, "filler", "StewardChatPage")


def messages_list(s):
    return a11y.find(s.chat, "list", "Messages")



def find_view(s, timeout=30):
    return a11y.find(messages_list(s), None, timeout=timeout,
                     where=lambda node: a11y.name(node).startswith("View of "))


# The steps

@step()
def server_ready(s):
    s.model = FakeModel(s.top)
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME",
                                         os.path.join(s.home, ".config")), "steward")
    s.model.write_provider(config)
    servers = {SERVER: {"command": shutil.which("node"), "args": [BASIC_JS, "--stdio"]}}
    for name, js in ((MONITOR, MONITOR_JS), (BUDGET, BUDGET_JS)):
        if os.path.exists(js):
            servers[name] = {"command": shutil.which("node"), "args": [js, "--stdio"]}
    write_json(os.path.join(config, "servers.json"), {"mcpServers": servers})
    s.launch(MAIN_SIZE, focus=False)
    wait_ready(s)


@step(server_ready)
def tools_reviewed(s):
    # First contact: the server's tools reach no model until the person
    # has looked at them.
    s.chat = open_chat(s)
    a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("New Conversation")))
    for _ in range(1 + len(optional_servers())):
        a11y.focus(s.main)
        a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("Review")))
        review = a11y.toplevel(s.app, contains="Review the Tools of")
        a11y.focus(review)
        a11y.wait_for_texts(review, ["Offer to Models"], "the review to list the tools")
        a11y.activate(a11y.find(review, "push button", a11y.labelled("Offer to Models")))
        a11y.closed(s.app, review.name)
    a11y.focus(s.main)


@step(tools_reviewed)
def view_renders_under_tool_call(s):
    s.model.script([
        tool_call_stream("call_time_1", SERVER + "__get-time", {}),
        text_stream(ANSWER),
        text_stream(REPLY),
    ])
    composer = a11y.find(s.chat, "text", "Message")
    a11y.set_text(composer, QUESTION)
    a11y.wait_until("the composer to hold the question",
                    lambda: a11y.text_of(composer) == QUESTION)
    a11y.activate(a11y.find(s.chat, "push button", "Send",
                            where=lambda b: a11y.has_state(b, pyatspi.STATE_SENSITIVE)))

    dialog = a11y.toplevel(s.app, "Allow Tool Call?")
    a11y.focus(dialog)
    a11y.wait_for_texts(dialog, ["get-time"], "the approval to name the tool")
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Allow")))
    a11y.closed(s.app, "Allow Tool Call?")
    a11y.focus(s.main)

    a11y.wait_for_texts(messages_list(s), [QUESTION, ANSWER], "the answer after the call",
                   timeout=60)
    view = find_view(s)
    # The view is part of the tool call's row, in the conversation.
    node, inside_call = view, False
    while node is not None and not inside_call:
        inside_call = a11y.name(node).startswith("Tool call %s / get-time" % SERVER) or \
            any(a11y.name(c).startswith("Tool call %s / get-time" % SERVER)
                for c in a11y.children(node))
        node = node.parent
    check(inside_call, "the view renders under its tool call")
    s.model.wait_requests(2)


def focus_page(view, title):
    """Puts the keyboard in the page: a click on its notice, which is no
    control, as a person would click into it, once the page is laid out."""
    a11y.click_in_page(view, title, *NOTICE)


@step(view_renders_under_tool_call)
def view_message_reaches_model(s):
    before = len(s.model.requests())
    view = find_view(s)
    s.save("apps-chat-view.png")
    focus_page(view, "Get Server Time")
    # Get Server Time, the message, Send Message; then press it.
    for key in ("Tab", "Tab", "Tab", "Return"):
        a11y.key(key)

    # The chat asks the person, showing the message and naming the view.
    dialog = a11y.toplevel(s.app, "Send the View’s Message?", timeout=30)
    a11y.focus(dialog)
    shown = a11y.wait_for_texts(dialog, [VIEW_MESSAGE, "get-time", SERVER],
                           "the question to show the message and the view")
    check(len(s.model.requests()) == before, "nothing reached the model before the person agreed")
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Send")))
    a11y.closed(s.app, "Send the View’s Message?")
    a11y.focus(s.main)
    print("# asked: %r" % shown)

    # In the conversation, marked as coming from the view, and answered.
    texts = a11y.wait_for_texts(messages_list(s), ["From a View", "%s / get-time" % SERVER,
                                              VIEW_MESSAGE, REPLY],
                           "the view's message and the answer to it", timeout=60)
    check(texts.index("From a View") < texts.index(VIEW_MESSAGE) < texts.index(REPLY),
          "the view's message comes after its caption and before the answer")

    request = s.model.wait_requests(before + 1)[before]
    last = user_texts(request)[-1]
    check(VIEW_MESSAGE in last, "the view's message reached the model: %r" % last)
    check("view (an MCP App) of the tool %s__get-time" % SERVER in last,
          "the model is told the message came from the view: %r" % last)
    s.save("app-view-chat-light.png", keep=True)


def send_question(s, question):
    composer = a11y.find(s.chat, "text", "Message")
    a11y.set_text(composer, question)
    a11y.wait_until("the composer to hold the question",
                    lambda: a11y.text_of(composer) == question)
    a11y.activate(a11y.find(s.chat, "push button", "Send",
                            where=lambda b: a11y.has_state(b, pyatspi.STATE_SENSITIVE)))


def allow_call(s, expected, always=False):
    # A view's call may be withdrawn while it is asked about (the page
    # gave up on it and asks again), and its dialog replaced by another:
    # so the dialog is looked for afresh until one shown names the call,
    # and looked for again if it went away before it was answered.
    def asking():
        try:
            dialog = a11y.toplevel(s.app, "Allow Tool Call?", timeout=5)
        except a11y.E2EError:
            # Asked while the X focus was elsewhere (a dialog that just
            # closed takes it along), the app told the desktop instead;
            # it shows the dialog once its window is active again, as
            # when a person comes back to it.
            a11y.focus(s.main)
            raise
        joined = "\n".join(a11y.texts(dialog))
        return (dialog, joined) if all(part in joined for part in expected) else None

    def answered():
        dialog, shown = a11y.wait_until("an approval naming %s" % expected, asking, timeout=60)
        a11y.focus(dialog)
        if always:
            a11y.click(a11y.find(dialog, "check box", contains="ways allow this tool"))
        a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Allow")))
        return shown
    shown = a11y.wait_until("the approval naming %s to be answered" % expected, answered,
                            timeout=120)
    a11y.closed(s.app, "Allow Tool Call?")
    a11y.focus(s.main)
    return shown


def log_rows(s, search, where):
    """The log viewer's rows for search that where accepts."""
    s.sidebar()
    views = a11y.find(s.main, "list", "Views")
    a11y.select(views, a11y.find(views, "list item", "Logs"))
    logs = a11y.find(s.main, "filler", "StewardLogView")
    a11y.set_text(a11y.find(logs, "entry", "Search logs"), search)
    entries = a11y.find(logs, "list", "Log entries")
    return a11y.wait_until("log rows for %r" % search,
                           lambda: [row for row in a11y.find_all(entries, "list item")
                                    if any(where(a11y.name(c)) for c in a11y.children(row))])


@step(view_message_reaches_model)
def monitor_view_calls_its_tool(s):
    # server-system-monitor in a chat of its own: its view, under the
    # model's call, polls the server through the bridge once started, with
    # a tool kept for views, after the person allowed it.
    if not os.path.exists(MONITOR_JS):
        print("# server-system-monitor is not installed")
        return
    before = len(s.model.requests())
    s.model.script([
        tool_call_stream("call_info_1", MONITOR + "__get-system-info", {}),
        text_stream(MONITOR_ANSWER),
    ])
    a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("New Conversation")))
    send_question(s, MONITOR_QUESTION)
    allow_call(s, ["get-system-info"])
    a11y.wait_for_texts(messages_list(s), [MONITOR_QUESTION, MONITOR_ANSWER],
                   "the answer after the call", timeout=60)
    requests = s.model.wait_requests(before + 2)
    check(all("poll-system-stats" not in json.dumps(r["body"].get("tools") or [])
              for r in requests[before:]),
          "the tool kept for views is not offered to the model")
    view = find_view(s)
    focus_page(view, "System Monitor")
    # Start, the page's first control, begins the polling.
    for key in ("Tab", "Return"):
        a11y.key(key)
    shown = allow_call(s, ["poll-system-stats", "The view "], always=True)
    print("# asked: %r" % shown)
    log_rows(s, "poll-system-stats", lambda name: "tools/call" in name)
    answers = log_rows(s, "result id", lambda name: "for tools/call" in name)
    check(len(answers) >= 3, "the server answered the view's poll too")
    s.chat = open_chat(s)


@step(view_message_reaches_model)
def budget_view_renders(s):
    # server-budget-allocator in a chat of its own: the model calls
    # get-budget-data, and its view draws the allocation from the result.
    # GTK 4.8 shows the page as an empty filler, so the view describes
    # itself with the text its page shows: that is what is read here.
    if not os.path.exists(BUDGET_JS):
        print("# server-budget-allocator is not installed")
        return
    s.model.script([
        tool_call_stream("call_budget_1", BUDGET + "__get-budget-data", {}),
        text_stream(BUDGET_ANSWER),
    ])
    a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("New Conversation")))
    send_question(s, BUDGET_QUESTION)
    allow_call(s, ["get-budget-data"])
    a11y.wait_for_texts(messages_list(s), [BUDGET_QUESTION, BUDGET_ANSWER],
                        "the answer after the call", timeout=60)
    view = find_view(s)
    text = a11y.wait_until("the budget view's allocation",
                           lambda: (lambda t: t if "Budget Allocator" in t and
                                    re.search(r"Allocated: \$[1-9]", t) else None)(
                                        a11y.description(view)), timeout=60)
    print("# the budget view says: %s" % text[:200])


@step(view_message_reaches_model)
def view_in_dark_style(s):
    # The same chat after a restart in the dark style: the view renders
    # again from the kept conversation and follows the style.
    s.quitting = True
    driver.stop_process(s.process)
    s.launch(MAIN_SIZE, extra_env={"ADW_DEBUG_COLOR_SCHEME": "prefer-dark"}, append=True,
             focus=False)
    s.quitting = False
    wait_ready(s)
    s.chat = open_chat(s)
    chats = a11y.find(s.chat, "list", "Conversations")
    a11y.select(chats, a11y.find(chats, "list item",
                                 where=lambda row: a11y.find_all(row, "label", QUESTION)))
    a11y.wait_for_texts(messages_list(s), [QUESTION, VIEW_MESSAGE], "the kept conversation")
    view = find_view(s)
    a11y.scroll_into_view(view)
    # The page has drawn once the view took the height the page asked
    # for (ui/notifications/size-changed), well over its first one.
    a11y.wait_until("the view to take its page's height",
                    lambda: a11y.extents(view)[3] > 300, timeout=60)
    s.save("app-view-chat-dark.png", keep=True)


if __name__ == "__main__":
    if not shutil.which("node") or not os.path.exists(BASIC_JS):
        driver.skip_all("node or server-basic-vanillajs is not installed", len(driver.STEPS))
        sys.exit(0)
    sys.exit(driver.main(Session, prefix="apps-chat-", dump_limit=200, needs_everything=False))
