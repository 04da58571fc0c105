#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A stand-in web browser for signing in under test: registered as the
# desktop's handler for http and https in the session's private XDG
# folders, it is what the app opens an authorization address with. It
# follows the address and the authorization server's redirect to the
# app's loopback address, as a person's browser would once they signed
# in, and keeps the page it ends on.
#
#   stand-in-browser.py --install    registers it in $XDG_DATA_HOME and
#                                    $XDG_CONFIG_HOME
#   stand-in-browser.py URL          opens URL
#
# Its folder ($STEWARD_TEST_BROWSER_DIR, else $XDG_RUNTIME_DIR/browser)
# holds "opened", one address a line, and "page.html", the last page
# shown, each written whole before it appears. A file "mode" there saying "ignore" makes it open nothing, as a
# person who does not sign in.

import os
import sys
import urllib.request

DESKTOP_ID = "steward-test-browser.desktop"


def folder():
    path = os.environ.get("STEWARD_TEST_BROWSER_DIR") or \
        os.path.join(os.environ["XDG_RUNTIME_DIR"], "browser")
    os.makedirs(path, exist_ok=True)
    return path


def install():
    applications = os.path.join(os.environ["XDG_DATA_HOME"], "applications")
    os.makedirs(applications, exist_ok=True)
    with open(os.path.join(applications, DESKTOP_ID), "w") as desktop:
        desktop.write("[Desktop Entry]\nType=Application\nName=Stand-in Browser\n"
                      "Exec=%s %s %%u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n"
                      "NoDisplay=true\n" % (sys.executable, os.path.abspath(__file__)))
    config = os.environ["XDG_CONFIG_HOME"]
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "mimeapps.list"), "w") as mimeapps:
        mimeapps.write("[Default Applications]\nx-scheme-handler/http=%s\n"
                       "x-scheme-handler/https=%s\n" % (DESKTOP_ID, DESKTOP_ID))
    folder()


def write_whole(path, data):
    # Written beside and renamed into place: a test that sees the file
    # sees all of it, never one created and not yet written.
    with open(path + ".part", "wb") as part:
        part.write(data)
    os.replace(path + ".part", path)


def open_url(url):
    here = folder()
    opened = os.path.join(here, "opened")
    try:
        with open(opened, "rb") as old:
            before = old.read()
    except FileNotFoundError:
        before = b""
    write_whole(opened, before + url.encode() + b"\n")
    try:
        with open(os.path.join(here, "mode")) as mode:
            if mode.read().strip() == "ignore":
                return
    except FileNotFoundError:
        pass
    # urllib follows the authorization server's redirect to the loopback.
    with urllib.request.urlopen(url, timeout=30) as response:
        page = response.read()
    write_whole(os.path.join(here, "page.html"), page)


def main():
    if sys.argv[1:] == ["--install"]:
        install()
    elif len(sys.argv) == 2:
        open_url(sys.argv[1])
    else:
        sys.exit("usage: stand-in-browser.py --install | URL")


if __name__ == "__main__":
    main()
