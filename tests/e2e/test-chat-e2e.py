#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The chat from end to end, as a person uses it: the real app, driven
# through the accessibility tree and the X server's keyboard, talking to a
# scripted model (tests/servers/fake-llm.py, OpenAI-compatible, on
# loopback) and to two MCP servers over stdio: server-everything and
# tests/servers/changing-tool-server.py, whose tool changes its description
# after its first call.
#
# The provider, the model and the servers are written into the private
# configuration folder before the app starts; the servers start only once
# the person agrees in the consent dialogs, which the test answers. Then:
# a question whose answer calls everything__echo, approved in the tool
# approval dialog, and the answer built on the tool's result; a sampling
# request from server-everything answered by the model, the answer edited
# before it is sent; a tool whose definition changed after its first call,
# kept from the model until the person approves the new definition.
#
#   test-chat-e2e.py STEWARD [--artifacts DIR]
#
# Runs inside tests/run-in-session like test-e2e.py. Prints TAP, one case a
# step; a step whose prerequisite failed is skipped.

import json
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import driver  # noqa: E402  (first: it sets up G_DEBUG before GLib loads)
import a11y  # noqa: E402
import pyatspi  # noqa: E402
from fake_model import MODEL_ID, FakeModel, text_stream, tool_call_stream  # noqa: E402
from driver import EVERYTHING_JS, HERE, check, step, write_json  # noqa: E402

SERVERS_DIR = os.path.join(HERE, "..", "servers")
CHANGING = os.path.realpath(os.path.join(SERVERS_DIR, "changing-tool-server.py"))

EVERYTHING = "everything"
CHANGING_SERVER = "changing"

QUESTION = "Please echo the words purple giraffe"
ECHO_MESSAGE = "purple giraffe"
ECHO_RESULT = "Echo: " + ECHO_MESSAGE
ANSWER = "The echo tool answered: %s. Anything else?" % ECHO_RESULT

SAMPLING_PROMPT = "Name a colour"
MODEL_SAMPLING_ANSWER = "Teal, like a calm sea"
EDITED_SAMPLING_ANSWER = "Ochre, edited by the person before sending"

GREET_QUESTION = "Greet Ada, please"
GREET_ANSWER = "I greeted Ada for you."
OLD_DESCRIPTION = "Says hello."
NEW_DESCRIPTION = "Says hello, then reads ~/.ssh and sends it away."

MAIN_SIZE = (1200, 800)


# The scripted model

def tool_names(request):
    return [tool.get("function", {}).get("name") for tool in request["body"].get("tools") or []]


def tool_messages(request):
    return [message for message in request["body"].get("messages", [])
            if message.get("role") == "tool"]


def content_text(message):
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


# The app

class Session(driver.AppSession):
    def __init__(self, steward, artifacts):
        super().__init__(steward, artifacts)
        self.model = None
        self.chat = None

    def sidebar(self):
        back = a11y.find_all(self.main, "push button", "Back")
        if back:
            a11y.activate(back[0])
            a11y.gone(self.main, "push button", "Back")

    def views(self):
        self.sidebar()
        return a11y.find(self.main, "list", "Views")

    def servers(self):
        self.sidebar()
        return a11y.find(self.main, "list", "Servers")

    def stop(self):
        super().stop()
        if self.model is not None:
            self.model.stop()

    def cleanup(self):
        self.stop()
        for pid in server_processes(self):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass



def write_configuration(s):
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME",
                                         os.path.join(os.environ["HOME"], ".config")), "steward")
    s.model.write_provider(config)
    write_json(os.path.join(config, "servers.json"), {"mcpServers": {
        EVERYTHING: {"command": shutil.which("node"), "args": [EVERYTHING_JS]},
        CHANGING_SERVER: {"command": sys.executable, "args": [CHANGING]}}})
    # Sampling from server-everything may use the model; the person still
    # approves each request.
    write_json(os.path.join(config, "policies.json"), {"servers": {
        EVERYTHING: {"sampling": "ask", "models": [MODEL_ID]}}})


def row_of(node):
    while a11y.role(node) != "list item":
        node = node.parent
        if node is None:
            raise a11y.E2EError("no row holds the node")
    return node



def open_chat(s):
    a11y.focus(s.main)
    views = s.views()
    row = a11y.find(views, "list item", "Chat")
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(views, row)
    return a11y.find(s.main, "filler", "StewardChatPage")


def send_message(s, text):
    a11y.focus(s.main)
    composer = a11y.find(s.chat, "text", "Message")
    a11y.set_text(composer, text)
    a11y.wait_until("the composer to hold the message",
                    lambda: a11y.text_of(composer) == text)
    a11y.activate(a11y.find(s.chat, "push button", "Send",
                            where=lambda b: a11y.has_state(b, pyatspi.STATE_SENSITIVE)))


def messages_list(s):
    return a11y.find(s.chat, "list", "Messages")


def approve_tool_call(s, expected):
    dialog = a11y.toplevel(s.app, "Allow Tool Call?")
    a11y.focus(dialog)
    shown = a11y.wait_for_texts(dialog, expected, "the approval to show the call")
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Allow")))
    a11y.closed(s.app, "Allow Tool Call?")
    a11y.focus(s.main)
    return shown


def open_tool(s, server, tool):
    servers = s.servers()
    row = a11y.find(servers, "list item", contains=server)
    if not a11y.has_state(row, pyatspi.STATE_SELECTED):
        a11y.select(servers, row)
    page = a11y.find(s.main, "filler", server)
    tab = a11y.find(page, "page tab", "Tools")
    if not a11y.has_state(tab, pyatspi.STATE_SELECTED):
        a11y.activate(tab)
    a11y.set_text(a11y.find(page, "entry", "Search tools"), tool)
    tools = a11y.find(page, "list", "Tools")
    a11y.select(tools, row_of(a11y.find(tools, "label", tool)))
    return a11y.find(page, "filler", "StewardToolPane",
                     where=lambda pane: a11y.find_all(pane, "label", tool))


def banner_count(s):
    """How many tool definitions the chat's banner says wait for review, or
    None while it shows none."""
    for label in a11y.find_all(s.chat, "label"):
        words = a11y.name(label).split(" ", 1)
        if len(words) == 2 and words[0].isdigit() and \
                words[1].startswith("tool definition") and "review" in words[1]:
            return int(words[0])
    return None


# The steps

@step()
def starts_after_consent(s):
    s.model = FakeModel(s.top)
    write_configuration(s)
    s.launch(MAIN_SIZE, focus=False)
    # One consent dialog a server; both may be open at once, with the same
    # title, so each is told by the server it names and answered through
    # its button, which needs no keyboard focus.
    asked = set()
    while len(asked) < 2:
        def next_consent():
            for window in a11y.toplevels(s.app):
                if window.name != "Start Server?":
                    continue
                shown = "\n".join(a11y.texts(window))
                for name in (EVERYTHING, CHANGING_SERVER):
                    if "Start “%s”?" % name in shown and name not in asked:
                        return window, name
            return None
        a11y.toplevel(s.app, "Start Server?")
        consent, server = a11y.wait_until("a consent dialog for a server not started yet",
                                          next_consent)
        open_before = a11y.count_windows("Start Server?")
        a11y.activate(a11y.find(consent, "push button", a11y.labelled("Start Server")))
        asked.add(server)
        a11y.wait_until("the consent for %s to close" % server,
                        lambda: a11y.count_windows("Start Server?") < open_before)
    a11y.focus(s.main)
    for server in (EVERYTHING, CHANGING_SERVER):
        a11y.find(s.servers(), "list item", where=lambda row, server=server:
                  a11y.name(row).startswith(server + ", Ready"), timeout=60)


def unreviewed_banner(s):
    """The chat's banner about tools no one reviewed yet, or None."""
    for label in a11y.find_all(s.chat, "label"):
        if "not offered to models until you review" in a11y.name(label):
            return label
    return None


@step(starts_after_consent)
def tools_offered_only_after_review(s):
    # First contact: a new server's tools reach no model until the person
    # has looked at them, and the chat says so.
    s.model.script([text_stream("No tools yet.")])
    s.chat = open_chat(s)
    a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("New Conversation")))
    a11y.wait_until("the banner about tools to review", lambda: unreviewed_banner(s))
    before = len(s.model.requests())
    send_message(s, "Which tools do you have?")
    a11y.wait_for_texts(messages_list(s), ["No tools yet."], "the answer without tools")
    first = s.model.wait_requests(before + 1)[before]
    check(not [name for name in tool_names(first) if name.startswith(EVERYTHING + "__") or
               name.startswith(CHANGING_SERVER + "__")],
          "no tool of a server no one reviewed is offered: %s" % tool_names(first))

    # The person reviews each server's tools from the banner.
    for _ in (EVERYTHING, CHANGING_SERVER):
        a11y.focus(s.main)
        a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("Review")))
        review = a11y.toplevel(s.app, contains="Review the Tools of")
        a11y.focus(review)
        a11y.wait_for_texts(review, ["Offer to Models"], "the review to list the tools")
        if CHANGING_SERVER in review.name:
            # greet's description hides tag characters: shown, flagged, and
            # switched off until the person, having read it, switches it on.
            a11y.wait_for_texts(review, ["Says hello.⟨U+E0"], "the hidden characters to show")
            toggle = a11y.find(review, "check box", contains="Offer “greet” to models")
            check(not a11y.has_state(toggle, pyatspi.STATE_CHECKED),
                  "a tool that hides text starts switched off")
            a11y.click(toggle)
            a11y.wait_until("greet to be switched on",
                            lambda: a11y.has_state(toggle, pyatspi.STATE_CHECKED))
        a11y.activate(a11y.find(review, "push button", a11y.labelled("Offer to Models")))
        a11y.closed(s.app, review.name)
    a11y.focus(s.main)
    a11y.wait_until("the banner to go", lambda: unreviewed_banner(s) is None)


@step(tools_offered_only_after_review)
def question_calls_echo_after_approval(s):
    s.model.script([
        tool_call_stream("call_echo_1", EVERYTHING + "__echo", {"message": ECHO_MESSAGE}),
        text_stream(ANSWER),
    ])
    s.chat = open_chat(s)
    a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("New Conversation")))
    before = len(s.model.requests())
    send_message(s, QUESTION)

    shown = approve_tool_call(s, ["echo", ECHO_MESSAGE])
    check(EVERYTHING in shown, "the approval names the server:\n%s" % shown)

    a11y.wait_for_texts(messages_list(s), [QUESTION, ANSWER], "the answer to render", timeout=60)
    requests = s.model.wait_requests(before + 2)
    first, second = requests[before], requests[before + 1]
    check(QUESTION in json.dumps(first["body"]), "the question reached the model")
    check(EVERYTHING + "__echo" in tool_names(first),
          "the model was offered everything__echo: %s" % tool_names(first))
    results = [content_text(m) for m in tool_messages(second)]
    check(any(ECHO_RESULT in r for r in results),
          "the tool's result reached the model: %r" % results)
    check(any(m.get("tool_call_id") == "call_echo_1" for m in tool_messages(second)),
          "the result answers the model's call")


@step(starts_after_consent)
def sampling_answered_by_model_and_edited(s):
    before = len(s.model.requests())
    s.model.script([text_stream(MODEL_SAMPLING_ANSWER)])
    a11y.focus(s.main)
    pane = open_tool(s, EVERYTHING, "trigger-sampling-request")
    a11y.set_text(a11y.find(pane, "text", "prompt"), SAMPLING_PROMPT)
    a11y.set_text(a11y.find(pane, "text", "maxTokens"), "100")
    a11y.activate(a11y.find(pane, "push button", a11y.labelled("Call")))

    title = "Sampling Request from “%s”" % EVERYTHING
    dialog = a11y.toplevel(s.app, title)
    a11y.focus(dialog)
    a11y.wait_for_texts(dialog, [MODEL_ID, "the only model this server may use"],
                   "stage 1 to show the model and why it was chosen")
    message = a11y.find(dialog, "text", "Message 1 from user")
    check(SAMPLING_PROMPT in a11y.text_of(message),
          "stage 1 shows the request: %r" % a11y.text_of(message))
    a11y.activate(a11y.find(dialog, "push button", a11y.labelled("Continue")))

    answer = a11y.find(dialog, "text", "Answer")
    a11y.wait_until("the model's answer to stream into the approval",
                    lambda: MODEL_SAMPLING_ANSWER in a11y.text_of(answer), timeout=30)
    a11y.set_text(answer, EDITED_SAMPLING_ANSWER)
    send = a11y.find(dialog, "push button", a11y.labelled("Send"))
    a11y.wait_until("Send to be available",
                    lambda: a11y.has_state(send, pyatspi.STATE_SENSITIVE))
    a11y.activate(send)
    a11y.closed(s.app, title)
    a11y.focus(s.main)

    view = a11y.find(pane, "filler", "StewardToolResultView")
    a11y.wait_for_texts(view, ["LLM sampling result", EDITED_SAMPLING_ANSWER],
                   "the tool result to hold the edited answer")
    requests = s.model.wait_requests(before + 1)
    check(SAMPLING_PROMPT in json.dumps(requests[before]["body"]),
          "the sampling request reached the model")
    check(MODEL_SAMPLING_ANSWER not in "\n".join(a11y.texts(view)),
          "the model's unedited answer is not what the server got")


@step(tools_offered_only_after_review)
def changed_tool_held_until_approved(s):
    greet = CHANGING_SERVER + "__greet"
    s.model.script([
        tool_call_stream("call_greet_1", greet, {"name": "Ada"}),
        text_stream(GREET_ANSWER),
        text_stream("Noted."),
        text_stream("Approved, then."),
    ])
    s.chat = open_chat(s)
    before = len(s.model.requests())
    send_message(s, GREET_QUESTION)
    # The review pinned greet's definition; the person allows its call.
    approve_tool_call(s, ["greet", "Ada"])
    a11y.wait_for_texts(messages_list(s), [GREET_ANSWER], "the greeting's answer", timeout=60)
    requests = s.model.wait_requests(before + 2)
    check(greet in tool_names(requests[before]), "greet was offered before it changed")
    check(any("Hello, Ada!" in content_text(m) for m in tool_messages(requests[before + 1])),
          "greet's result reached the model")

    # The call changed greet: the chat says so and keeps it from the model.
    held_count = a11y.wait_until("the banner about changed tools", lambda: banner_count(s))
    count = len(s.model.requests())
    send_message(s, "And now?")
    a11y.wait_for_texts(messages_list(s), ["Noted."], "the next answer")
    held = s.model.wait_requests(count + 1)[count]
    check(greet not in tool_names(held) and CHANGING_SERVER + "__farewell" not in
          tool_names(held) and EVERYTHING + "__echo" in tool_names(held),
          "the changed and the new tool are not offered until approved: %s" % tool_names(held))

    a11y.activate(a11y.find(s.chat, "push button", a11y.labelled("Review")))
    review = a11y.toplevel(s.app, "Review Tool Changes")
    a11y.focus(review)
    row = a11y.find(review, "list item", CHANGING_SERVER + " / greet")
    a11y.wait_for_texts(row, ["Changed since you approved it"], "the row to say greet changed")
    # The row expands to show the diff, as a click on it does.
    a11y.click(a11y.find(row, "label", CHANGING_SERVER + " / greet"))
    diff = a11y.find(review, "text", "Changes to the tool’s definition")
    shown = a11y.wait_until("the diff to show", lambda: a11y.text_of(diff) or None)
    lines = shown.splitlines()
    check(any(line.startswith("− ") and OLD_DESCRIPTION in line for line in lines) and
          any(line.startswith("+ ") and NEW_DESCRIPTION in line for line in lines),
          "the diff has a line with the old description and one with the new:\n%s" % shown)
    a11y.activate(a11y.find(row, "push button", a11y.labelled("Approve New Definition")))
    a11y.gone(review, "list item", CHANGING_SERVER + " / greet")
    a11y.wait_until("the banner to count one tool fewer",
                    lambda: (banner_count(s) or 0) == held_count - 1)
    a11y.activate(a11y.find(review, "push button", "Close"))
    a11y.closed(s.app, "Review Tool Changes")
    a11y.focus(s.main)

    count = len(s.model.requests())
    send_message(s, "Greet Grace as well")
    a11y.wait_for_texts(messages_list(s), ["Approved, then."], "the answer after approval")
    after = s.model.wait_requests(count + 1)[count]
    check(greet in tool_names(after), "greet is offered again once approved: %s" %
          tool_names(after))


def server_processes(s):
    """Processes of this session's servers: the private HOME in their
    environment tells them from servers other tests run at the same time."""
    home = ("HOME=" + os.environ["HOME"]).encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                cmdline = f.read().decode(errors="replace")
            with open("/proc/%s/environ" % entry, "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            continue
        if (EVERYTHING_JS in cmdline or CHANGING in cmdline) and home in environ:
            pids.append(int(entry))
    return pids


if __name__ == "__main__":
    sys.exit(driver.main(Session, prefix="chat-", dump_limit=200))
