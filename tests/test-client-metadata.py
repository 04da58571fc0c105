#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Steward's Client ID Metadata Document names itself: its `client_id` must
# be the address it is published at, which is also the default of the
# "client-metadata-url" setting and the address steward-cli falls back to
# where the schema is not installed. An authorization server refuses a
# document whose client_id differs from the URL it fetched, so the three
# must never drift apart.
#
#   test-client-metadata.py SOURCE-ROOT
#
# Prints TAP.

import json
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET

SCHEMA = "data/io.github.stewardmcp.Steward.gschema.xml"
DOCUMENT = "data/client-metadata.json"
HEADER = "src/host/auth/steward-client-metadata.h"


def schema_default(root):
    tree = ET.parse(os.path.join(root, SCHEMA))
    for key in tree.iter("key"):
        if key.get("name") == "client-metadata-url":
            return key.find("default").text.strip().strip("'")
    raise AssertionError("%s has no client-metadata-url key" % SCHEMA)


def header_default(root):
    with open(os.path.join(root, HEADER)) as f:
        match = re.search(r'#define STEWARD_CLIENT_METADATA_URL "([^"]+)"', f.read())
    assert match, "%s does not define STEWARD_CLIENT_METADATA_URL" % HEADER
    return match.group(1)


def check_agree(root, document):
    url = document["client_id"]
    assert schema_default(root) == url, \
        "the setting's default %r is not the document's client_id %r" % (schema_default(root), url)
    assert header_default(root) == url, \
        "steward-cli's fallback %r is not the document's client_id %r" % (header_default(root), url)


def check_document(root, document):
    url = urllib.parse.urlsplit(document["client_id"])
    assert url.scheme == "https" and url.netloc and url.path not in ("", "/"), \
        "client_id must be an https URL with a path: %r" % document["client_id"]
    assert not url.fragment, "client_id must have no fragment"
    # A native app holds no secret; the redirect is the loopback server on
    # whatever port the system gives, which servers match without the port.
    assert document.get("token_endpoint_auth_method") == "none", document
    assert "client_secret" not in document, "a public document cannot hold a secret"
    for uri in document["redirect_uris"]:
        parts = urllib.parse.urlsplit(uri)
        assert parts.scheme == "http" and parts.hostname == "127.0.0.1", \
            "redirect %r is not the loopback address steward listens on" % uri
    assert "authorization_code" in document["grant_types"], document
    assert document.get("client_name"), "servers show client_name on their consent page"


def main():
    root = sys.argv[1]
    with open(os.path.join(root, DOCUMENT)) as f:
        document = json.load(f)
    tests = [("the document, the setting and steward-cli name the same address", check_agree),
             ("the document describes a public native client", check_document)]
    print("1..%d" % len(tests))
    failed = 0
    for number, (name, function) in enumerate(tests, 1):
        try:
            function(root, document)
            print("ok %d - %s" % (number, name))
        except (AssertionError, KeyError) as error:
            failed += 1
            print("not ok %d - %s" % (number, name))
            for line in str(error).splitlines():
                print("# " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
