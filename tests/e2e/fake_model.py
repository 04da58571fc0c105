# SPDX-License-Identifier: GPL-3.0-or-later
#
# The scripted model the chat drivers talk to: tests/servers/fake-llm.py on
# loopback, an OpenAI-compatible provider whose answers a step scripts
# beforehand and whose requests a step reads back afterwards.

import json
import os
import subprocess
import sys
import urllib.request

import a11y
from driver import HERE, write_json

FAKE_LLM = os.path.join(HERE, "..", "servers", "fake-llm.py")
PROVIDER_ID = "fakellm"
MODEL = "fake-model"
MODEL_ID = PROVIDER_ID + "/" + MODEL


class FakeModel:
    def __init__(self, top):
        self.log = open(os.path.join(top, "fake-llm.log"), "w")
        self.process = subprocess.Popen([sys.executable, FAKE_LLM, "--lifetime", "600"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.log)
        self.port = json.loads(self.process.stdout.readline())["port"]
        self.base = "http://127.0.0.1:%d" % self.port

    def script(self, responses):
        body = json.dumps({"models": [MODEL], "responses": responses}).encode()
        request = urllib.request.Request(self.base + "/_script", data=body,
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()

    def requests(self):
        with urllib.request.urlopen(self.base + "/_requests", timeout=10) as reply:
            return [r for r in json.loads(reply.read())
                    if r["method"] == "POST" and r["path"].endswith("/chat/completions")]

    def wait_requests(self, count, timeout=a11y.DEFAULT_TIMEOUT):
        return a11y.wait_until("the model to have received %d requests" % count,
                               lambda: (lambda r: r if len(r) >= count else None)(
                                   self.requests()), timeout)

    def write_provider(self, config):
        """Make this model the only one the app knows, in the folder @config."""
        write_json(os.path.join(config, "providers.json"), {"providers": [
            {"id": PROVIDER_ID, "kind": "openai-compatible", "name": "Fake LLM",
             "baseUrl": self.base + "/v1", "keyId": None}]})
        write_json(os.path.join(config, "models.json"), {"models": [
            {"provider": PROVIDER_ID, "name": MODEL, "cost": 0.0, "speed": 0.5,
             "intelligence": 0.5, "local": True}]})

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def text_stream(text, pieces=4):
    """An answer of @text, streamed in @pieces."""
    size = max(1, len(text) // pieces)
    events = [{"text": text[i:i + size]} for i in range(0, len(text), size)]
    return {"stream": events + [{"finish": "stop"}, {"done": True}], "model": MODEL}


def tool_call_stream(call_id, name, arguments):
    """An answer that calls the tool @name, its arguments streamed in two halves."""
    encoded = json.dumps(arguments)
    half = len(encoded) // 2
    return {"stream": [
        {"tool_call": {"index": 0, "id": call_id, "name": name, "arguments": encoded[:half]}},
        {"tool_call": {"index": 0, "arguments": encoded[half:]}},
        {"finish": "tool_calls"}, {"done": True}], "model": MODEL}
