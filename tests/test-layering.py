#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that each layer includes only what it may.

src/mcp (the protocol) includes nothing from src/host or src/ui and no
GTK, GDK, libadwaita or WebKit header; src/host and src/cli include no GTK,
GDK, libadwaita or WebKit header and nothing that lives in src/ui. The same goes for the
dependencies their meson.build files declare.

Usage: test-layering.py [SOURCE_ROOT]

The checker first runs itself on throwaway trees with known good and bad
includes, so that it cannot pass by finding nothing, then on SOURCE_ROOT.
Output is TAP.
"""

import os
import re
import sys
import tempfile

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TOOLKIT_HEADER_RE = re.compile(r'^(gtk|gdk|gsk)(-[0-9.]+)?/|^(gtk|adwaita)\.h$|^adw-|^webkit/|^jsc/')
TOOLKIT_DEP_RE = re.compile(r"""dependency\s*\(\s*['"](gtk4|gtk\+-3\.0|gtk-4|libadwaita-1|webkitgtk-6\.0)['"]""")
SOURCE_SUFFIXES = ('.c', '.h')

# Which layers each layer must not reach into.
FORBIDDEN_LAYERS = {
    'mcp': ('host', 'ui'),
    'host': ('ui',),
    'cli': ('ui',),
}


def layer_files(root, layer):
    base = os.path.join(root, 'src', layer)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in sorted(filenames):
            yield os.path.join(dirpath, name)


def ui_headers(root):
    return {os.path.basename(p) for p in layer_files(root, 'ui') if p.endswith('.h')}


def reaches_into(path, layers):
    """Whether an include path names a directory of a forbidden layer."""
    parts = [p for p in path.replace('\\', '/').split('/') if p not in ('', '.', '..')]
    return any(part in layers for part in parts[:-1])


def check_include(layer, target, ui_names):
    forbidden = FORBIDDEN_LAYERS[layer]
    base = os.path.basename(target)

    if TOOLKIT_HEADER_RE.search(target):
        return 'includes the toolkit header <%s>' % target
    if reaches_into(target, forbidden):
        return 'includes "%s" from a layer above it' % target
    if base in ui_names:
        return 'includes "%s", which lives in src/ui' % target
    if layer == 'mcp' and base.startswith('steward-'):
        return 'includes the host header "%s"' % target
    return None


def check_tree(root):
    """Returns (number of files scanned, list of violations)."""
    ui_names = ui_headers(root)
    scanned = 0
    violations = []

    for layer in FORBIDDEN_LAYERS:
        for path in layer_files(root, layer):
            rel = os.path.relpath(path, root)
            name = os.path.basename(path)

            if name == 'meson.build':
                with open(path, encoding='utf-8') as f:
                    for lineno, line in enumerate(f, 1):
                        if TOOLKIT_DEP_RE.search(line):
                            violations.append('%s:%d: depends on a toolkit library' % (rel, lineno))
                continue

            if not name.endswith(SOURCE_SUFFIXES):
                continue

            scanned += 1
            with open(path, encoding='utf-8', errors='replace') as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE_RE.match(line)
                    if not m:
                        continue
                    reason = check_include(layer, m.group(2), ui_names)
                    if reason:
                        violations.append('%s:%d: %s' % (rel, lineno, reason))

    return scanned, violations


CLEAN_TREE = {
    'src/mcp/mcp-thing.h': '#pragma once\n#include <gio/gio.h>\n',
    'src/mcp/mcp-thing.c': ('#include "config.h"\n#include <string.h>\n'
                            '#include <json-glib/json-glib.h>\n#include <libsoup/soup.h>\n'
                            '#include "mcp-thing.h"\n'),
    'src/mcp/meson.build': "json_dep = dependency('json-glib-1.0')\n",
    'src/host/steward-thing.c': ('#include "config.h"\n#include <libsecret/secret.h>\n'
                                 '#include <gdk-pixbuf/gdk-pixbuf.h>\n#include "mcp-thing.h"\n'
                                 '#include "steward-thing.h"\n'),
    'src/host/steward-thing.h': '#pragma once\n#include "mcp-thing.h"\n',
    'src/cli/steward-cli.c': '#include "config.h"\n#include "steward-thing.h"\n',
    'src/ui/steward-window.h': '#pragma once\n#include <adwaita.h>\n',
    'src/ui/steward-window.c': '#include <gtk/gtk.h>\n#include "steward-thing.h"\n',
    'src/ui/meson.build': "gtk_dep = dependency('gtk4')\n",
}

# Each case adds one file with exactly one violation to the clean tree.
BAD_CASES = [
    ('src/mcp/mcp-bad.c', '#include "steward-server.h"\n'),
    ('src/mcp/mcp-bad.c', '#include "host/steward-config.h"\n'),
    ('src/mcp/mcp-bad.c', '#include "../ui/steward-anything.h"\n'),
    ('src/mcp/mcp-bad.c', '#  include "ui/widgets.h"\n'),
    ('src/mcp/mcp-bad.h', '#include <gtk/gtk.h>\n'),
    ('src/mcp/mcp-bad.c', '#include <gdk/gdk.h>\n'),
    ('src/mcp/mcp-bad.c', '#include <adwaita.h>\n'),
    ('src/mcp/meson.build', "gtk_dep = dependency('gtk4')\n"),
    ('src/host/steward-bad.c', '#include <gtk/gtk.h>\n'),
    ('src/host/steward-bad.h', '#include <adwaita.h>\n'),
    ('src/host/steward-bad.c', '#include "steward-window.h"\n'),
    ('src/host/meson.build', "adw_dep = dependency('libadwaita-1', version: '>= 1.2')\n"),
    ('src/cli/steward-bad.c', '#include <gtk/gtk.h>\n'),
    ('src/cli/steward-bad.c', '#include "../ui/steward-window.h"\n'),
    ('src/host/steward-bad.c', '#include <webkit/webkit.h>\n'),
    ('src/mcp/mcp-bad.c', '#include <jsc/jsc.h>\n'),
    ('src/host/meson.build', "webkit_dep = dependency('webkitgtk-6.0')\n"),
]


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)


def self_tests():
    """Yields (passed, description, details)."""
    with tempfile.TemporaryDirectory(prefix='steward-layering-') as tmp:
        clean = os.path.join(tmp, 'clean')
        write_tree(clean, CLEAN_TREE)
        scanned, violations = check_tree(clean)
        yield (scanned > 0 and not violations,
               'self-test: a tree that keeps the rules passes',
               violations)

        for i, (rel, text) in enumerate(BAD_CASES):
            root = os.path.join(tmp, 'bad%d' % i)
            files = dict(CLEAN_TREE)
            files[rel] = files.get(rel, '') + text
            write_tree(root, files)
            _, violations = check_tree(root)
            yield (len(violations) == 1 and violations[0].startswith(rel + ':'),
                   'self-test: catches %s in %s' % (text.strip(), rel),
                   violations)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                           else os.path.join(os.path.dirname(__file__), '..'))
    results = list(self_tests())

    scanned, violations = check_tree(root)
    mcp_files = sum(1 for p in layer_files(root, 'mcp') if p.endswith(SOURCE_SUFFIXES))
    results.append((mcp_files > 0 and not violations,
                    'src/ keeps the layering (%d files scanned)' % scanned,
                    violations or ([] if mcp_files else ['no source found in src/mcp'])))

    print('1..%d' % len(results))
    failed = 0
    for n, (passed, description, details) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if passed else 'not ok', n, description))
        if not passed:
            failed += 1
            for line in details or ['nothing was reported']:
                print('# %s' % line)

    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
