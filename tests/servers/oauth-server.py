#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# An MCP server that wants its callers signed in, with the authorization
# server on the same origin, and that is hostile with what it is given: the
# tool `whoami` answers with the Authorization header it received, so a
# client that showed it would show the token.
#
#   oauth-server.py [--log FILE] [--account NAME] [--expires-in SECONDS]
#                   [--tool-scope SCOPE] [--userinfo NAME]
#
# Prints its base URL on a line once it listens, then serves until killed. Every token it grants holds "canary", so a test can look for it.
# It accepts Client ID Metadata Documents and revokes tokens (RFC 7009);
# GET /seen answers what it was asked since the last GET /seen: the
# clients and scopes of authorization requests, registrations, the client
# authentication of token requests, and the tokens revoked.
# --log appends a line naming each authorization, token and revocation
# request to FILE, so that a test can count them. --account makes its
# tokens JWT-shaped, naming NAME as who signed in, with refresh tokens.
# --expires-in says how long its tokens last. --tool-scope makes a tool
# call with a token not granted SCOPE fail with 403 insufficient_scope
# (a step-up), while the handshake needs none. --userinfo publishes a
# userinfo endpoint naming NAME for its tokens.

import argparse
import base64
import http.server
import json
import secrets
import threading
import urllib.parse

TOKENS = set()
REFRESH_TOKENS = set()
# The scopes each code, token and refresh token was granted.
SCOPES = {}
OPTIONS = None
LOCK = threading.Lock()


def new_seen():
    return {"authorize": [], "register": 0, "token_clients": [], "revoked": []}


SEEN = new_seen()


def note(what):
    if OPTIONS.log:
        with open(OPTIONS.log, "a") as log:
            log.write(what + "\n")


def new_token():
    token = "canary-%s" % secrets.token_hex(12)
    if OPTIONS.account:
        # Shaped like a JWT, so that a client can show who signed in; the
        # signature part still holds the canary.
        def part(value):
            return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")
        token = "%s.%s.%s" % (part({"alg": "none"}),
                              part({"sub": "user-1", "preferred_username": OPTIONS.account}),
                              token)
    return token


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def base(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def reply(self, status, body=None, headers=()):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        base = self.base()
        if url.path == "/.well-known/oauth-protected-resource/mcp":
            self.reply(200, {"resource": base + "/mcp", "authorization_servers": [base]})
        elif url.path == "/.well-known/oauth-authorization-server":
            answer = ({
                "issuer": base,
                "authorization_endpoint": base + "/authorize",
                "token_endpoint": base + "/token",
                "registration_endpoint": base + "/register",
                "revocation_endpoint": base + "/revoke",
                "client_id_metadata_document_supported": True,
                "code_challenge_methods_supported": ["S256"],
                "authorization_response_iss_parameter_supported": True,
            })
            if OPTIONS.userinfo:
                answer["userinfo_endpoint"] = base + "/userinfo"
            self.reply(200, answer)
        elif url.path == "/userinfo":
            note("userinfo")
            if self.headers.get("Authorization", "")[len("Bearer "):] not in TOKENS:
                self.reply(401, {"error": "invalid_token"})
            else:
                self.reply(200, {"sub": "user-1", "email": "ada@example.com",
                                 "name": OPTIONS.userinfo})
        elif url.path == "/seen":
            global SEEN
            with LOCK:
                seen, SEEN = SEEN, new_seen()
            self.reply(200, seen)
        elif url.path == "/authorize":
            note("authorize")
            query = dict(urllib.parse.parse_qsl(url.query))
            with LOCK:
                SEEN["authorize"].append({"client_id": query.get("client_id"),
                                          "scope": query.get("scope")})
            code = "code-%s" % secrets.token_hex(8)
            with LOCK:
                SCOPES[code] = (query.get("scope") or "").split()
            location = query["redirect_uri"] + "?" + urllib.parse.urlencode(
                {"code": code, "state": query.get("state", ""), "iss": base})
            self.reply(302, headers=[("Location", location)])
        elif url.path == "/mcp":
            # No stream of its own to offer (Streamable HTTP says 405).
            self.reply(405, headers=[("Allow", "POST")])
        else:
            self.reply(404, {})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        url = urllib.parse.urlsplit(self.path)
        form = dict(urllib.parse.parse_qsl(body.decode()))
        if url.path == "/register":
            with LOCK:
                SEEN["register"] += 1
            self.reply(201, {"client_id": "client-1"})
        elif url.path == "/revoke":
            note("revoke")
            with LOCK:
                SEEN["revoked"].append(form.get("token", ""))
                TOKENS.discard(form.get("token", ""))
            self.reply(200)
        elif url.path == "/token":
            with LOCK:
                SEEN["token_clients"].append(self.client_of(form))
            if form.get("grant_type") == "refresh_token":
                if form.get("refresh_token") not in REFRESH_TOKENS:
                    self.reply(400, {"error": "invalid_grant"})
                    return
                note("refresh")
                scopes = SCOPES.get(form.get("refresh_token"), [])
            else:
                note("token")
                scopes = SCOPES.get(form.get("code"), [])
            token = new_token()
            TOKENS.add(token)
            SCOPES[token] = scopes
            answer = {"access_token": token, "token_type": "Bearer",
                      "expires_in": OPTIONS.expires_in}
            if OPTIONS.account:
                answer["refresh_token"] = "canary-refresh-%s" % secrets.token_hex(12)
                REFRESH_TOKENS.add(answer["refresh_token"])
                SCOPES[answer["refresh_token"]] = scopes
            self.reply(200, answer)
        elif url.path == "/mcp":
            self.mcp(json.loads(body))
        else:
            self.reply(404, {})

    def client_of(self, form):
        """Who a token request authenticates as: "id:secret" with HTTP
        Basic, "id" in the form for a public client."""
        authorization = self.headers.get("Authorization", "")
        if authorization.startswith("Basic "):
            return urllib.parse.unquote(base64.b64decode(authorization[6:]).decode())
        if "client_secret" in form:
            return "%s:%s" % (form.get("client_id"), form["client_secret"])
        return form.get("client_id")

    def mcp(self, message):
        authorization = self.headers.get("Authorization", "")
        if authorization[len("Bearer "):] not in TOKENS:
            self.reply(401, {"error": "invalid_token"}, headers=[(
                "WWW-Authenticate",
                'Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"'
                % self.base())])
            return
        ident = message.get("id")
        method = message.get("method")
        if ident is None:
            self.reply(202)
        elif method == "initialize":
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "signed-in", "version": "1.0"}}})
        elif method == "ping":
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {}})
        elif method == "tools/list":
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {"tools": [{
                "name": "whoami",
                "description": "Says what the caller sent to sign in",
                "inputSchema": {"type": "object"}}]}})
        elif (method == "tools/call" and OPTIONS.tool_scope and
              OPTIONS.tool_scope not in SCOPES.get(authorization[len("Bearer "):], [])):
            note("insufficient-scope")
            self.reply(403, {"error": "insufficient_scope"}, headers=[(
                "WWW-Authenticate",
                'Bearer error="insufficient_scope", scope="%s", resource_metadata='
                '"%s/.well-known/oauth-protected-resource/mcp"' % (OPTIONS.tool_scope,
                                                                   self.base()))])
        elif method == "tools/call":
            self.reply(200, {"jsonrpc": "2.0", "id": ident, "result": {
                "content": [{"type": "text", "text": "you sent " + authorization}]}})
        else:
            self.reply(200, {"jsonrpc": "2.0", "id": ident,
                             "error": {"code": -32601, "message": "Method not found"}})


def main():
    global OPTIONS
    parser = argparse.ArgumentParser()
    parser.add_argument("--log")
    parser.add_argument("--account")
    parser.add_argument("--expires-in", type=int, default=3600)
    parser.add_argument("--tool-scope")
    parser.add_argument("--userinfo")
    OPTIONS = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
