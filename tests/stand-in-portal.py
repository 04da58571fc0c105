#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Stands in for the desktop portal's OpenURI interface on a private session
# bus, the way a Flatpak sandbox opens a browser: it takes the address a
# program asks to open and follows it as a browser would, then reports it
# on stderr. It runs the program given as its arguments with
# GTK_USE_PORTAL=1, which makes GIO use the portal outside a sandbox too,
# and exits with its status. The program sees no desktop files and no
# MIME associations, as inside a sandbox, so that GIO has no handler of its
# own for https and turns to the portal, as GLib 2.74 does in Flatpak. Under the portal GIO asks the ProxyResolver
# interface too, which answers that every address is reached directly.
#
#   dbus-run-session -- stand-in-portal.py PROGRAM [ARGUMENT…]

import os
import subprocess
import sys
import tempfile
import threading
import urllib.request

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.portal.OpenURI">
    <method name="OpenURI">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="s" name="uri" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
    <property name="version" type="u" access="read"/>
  </interface>
  <interface name="org.freedesktop.portal.ProxyResolver">
    <method name="Lookup">
      <arg type="s" name="uri" direction="in"/>
      <arg type="as" name="proxies" direction="out"/>
    </method>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""


def follow(uri):
    try:
        with urllib.request.urlopen(uri, timeout=20) as response:
            response.read()
    except Exception as error:  # noqa: BLE001 — reported; the program then fails
        print("stand-in portal: %s: %s" % (uri, error), file=sys.stderr, flush=True)


def method_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "Lookup":
        invocation.return_value(GLib.Variant("(as)", (["direct://"],)))
        return
    if method != "OpenURI":
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
        return
    uri = parameters.unpack()[1]
    print("stand-in portal: opened %s" % uri.split("?")[0], file=sys.stderr, flush=True)
    threading.Thread(target=follow, args=(uri,), daemon=True).start()
    invocation.return_value(GLib.Variant("(o)", ("/org/freedesktop/portal/desktop/request/1/t",)))


def get_property(connection, sender, path, interface, name):
    return GLib.Variant("u", 4)


def main():
    loop = GLib.MainLoop()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    for info in Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces:
        bus.register_object("/org/freedesktop/portal/desktop", info, method_call, get_property,
                            None)
    status = {}

    def run_program(*_):
        empty = tempfile.mkdtemp()
        env = dict(os.environ, GTK_USE_PORTAL="1", XDG_DATA_HOME=empty, XDG_DATA_DIRS=empty,
                   XDG_CONFIG_HOME=empty, XDG_CONFIG_DIRS=empty)
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        process = subprocess.Popen(sys.argv[1:], env=env)

        def waited():
            status["code"] = process.wait()
            GLib.idle_add(loop.quit)

        threading.Thread(target=waited, daemon=True).start()

    Gio.bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop",
                                   Gio.BusNameOwnerFlags.NONE, run_program, None)
    loop.run()
    return status.get("code", 1)


if __name__ == "__main__":
    sys.exit(main())
