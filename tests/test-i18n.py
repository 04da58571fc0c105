#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that Steward's strings come out in the language LANGUAGE asks for.

Each language runs in a child process that does what src/ui/main.c does,
through the C library itself: setlocale (LC_ALL, ""), bindtextdomain () to
the catalogues meson built in the build tree (BUILD_PO_DIR/LANG/LC_MESSAGES/
PACKAGE.mo, the layout of an installed locale folder), then dgettext () and
dngettext () for strings from each kind of source: a .ui file, a context
from the shortcuts window, a plural, the host library, the command-line
tool and the settings schema.

gettext reads LANGUAGE only when the locale is not "C". The tests run with
LC_ALL=C.UTF-8, which is not "C" and exists on every glibc system, so no
other locale needs generating: LC_ALL=C.UTF-8 LANGUAGE=de is enough. A
language with no catalogue (fr) must give back the English strings, which
shows the lookups are real rather than always translated.

The desktop file and the metainfo are merged from the catalogues the way
meson's i18n.merge_file() does (msgfmt --desktop and --xml, into a
temporary folder, as the build tree's copies are only remade when their
template changes), and must carry the translated name, comment, keywords
and summary.

Usage: test-i18n.py BUILD_PO_DIR PACKAGE SOURCE_ROOT
Output is TAP.
"""

import ctypes
import ctypes.util
import json
import os
import re
import subprocess
import sys
import tempfile

# msgctxt, msgid, msgid_plural, n: what the app asks for.
LOOKUPS = [
    (None, '_Add Server…', None, None),            # src/ui/steward-window.ui
    ('shortcut window', 'Quit', None, None),      # src/ui/steward-shortcuts.ui
    (None, '%u entry', '%u entries', 1),          # src/ui/steward-log-view.c
    (None, '%u entry', '%u entries', 5),
    (None, 'Steward is closing', None, None),     # src/host/chat/steward-chat-engine.c
    (None, 'Print the version and exit', None, None),  # src/cli/steward-cli-options.c
    (None, 'Window width', None, None),           # data/*.gschema.xml
]

EXPECTED = {
    'de': [
        'Server _hinzufügen …',
        'Beenden',
        '%u Eintrag',
        '%u Einträge',
        'Steward wird beendet',
        'Version ausgeben und beenden',
        'Fensterbreite',
    ],
    'zh_CN': [
        '添加服务器(_A)…',
        '退出',
        '%u 个条目',
        '%u 个条目',
        'Steward 正在关闭',
        '输出版本信息并退出',
        '窗口宽度',
    ],
}

# The English strings, for a language without a catalogue.
UNTRANSLATED = [plural if n is not None and n != 1 else msgid
                for _, msgid, plural, n in LOOKUPS]

DESKTOP = 'data/io.github.stewardmcp.Steward.desktop.in'
METAINFO = 'data/io.github.stewardmcp.Steward.metainfo.xml.in'

DESKTOP_EXPECTED = {
    'de': {'GenericName': 'MCP-Host',
           'Comment': 'MCP-Server ausführen und die Kontrolle über ihre Anfragen behalten'},
    'zh_CN': {'GenericName': 'MCP 主机',
              'Comment': '运行模型上下文协议（MCP）服务器，并掌控它们提出的每个请求'},
}

METAINFO_EXPECTED = {
    'de': 'MCP-Server ausführen und die Kontrolle über ihre Anfragen behalten',
    'zh_CN': '运行 MCP 服务器，并掌控它们提出的每个请求',
}

LC_ALL = 6  # glibc's value, which <locale.h> gives on every Linux architecture


def child(localedir, package):
    """Looks the strings up as the app does and prints them as JSON."""
    libc = ctypes.CDLL(ctypes.util.find_library('c'))
    for name in ('setlocale', 'bindtextdomain', 'bind_textdomain_codeset', 'dgettext'):
        getattr(libc, name).restype = ctypes.c_char_p
    libc.dngettext.restype = ctypes.c_char_p
    libc.dngettext.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                               ctypes.c_ulong]

    if libc.setlocale(LC_ALL, b'') is None:
        raise SystemExit('setlocale failed for LC_ALL=%s' % os.environ.get('LC_ALL'))
    domain = package.encode()
    libc.bindtextdomain(domain, localedir.encode())
    libc.bind_textdomain_codeset(domain, b'UTF-8')

    found = []
    for context, msgid, plural, n in LOOKUPS:
        # What g_dpgettext2 () looks up: the context and the message joined by EOT.
        key = (context + '\x04' + msgid if context else msgid).encode()
        if plural is None:
            text = libc.dgettext(domain, key)
        else:
            text = libc.dngettext(domain, key, plural.encode(), n)
        # Untranslated, it comes back with its context, which g_dpgettext2 () drops.
        found.append(msgid if text == key else text.decode())
    print(json.dumps(found))


def lookup(localedir, package, language):
    env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE=language)
    env.pop('LANG', None)
    result = subprocess.run([sys.executable, __file__, '--child', localedir, package],
                            capture_output=True, text=True, env=env)
    if result.returncode != 0:
        return None, result.stderr.strip()
    return json.loads(result.stdout), None


def compare(got, expected):
    return ['%r came out as %r, not %r' % (LOOKUPS[i][1], g, e)
            for i, (g, e) in enumerate(zip(got, expected)) if g != e]


def check_language(localedir, package, language, expected):
    mo = os.path.join(localedir, language, 'LC_MESSAGES', package + '.mo')
    if expected is not UNTRANSLATED and not os.path.isfile(mo):
        return ['%s is missing: build the tree first (meson compile)' % mo]
    got, error = lookup(localedir, package, language)
    if got is None:
        return ['the lookup under LANGUAGE=%s failed: %s' % (language, error)]
    return compare(got, expected)


def merged_desktop(root, podir, tmp):
    out = os.path.join(tmp, 'app.desktop')
    result = subprocess.run(['msgfmt', '--desktop', '--template', os.path.join(root, DESKTOP),
                             '-d', podir, '-o', out], capture_output=True, text=True)
    if result.returncode != 0:
        return None, result.stderr.strip()
    keys = {}
    with open(out, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'([A-Za-z-]+)(?:\[([^\]]+)\])?=(.*)$', line.rstrip('\n'))
            if m:
                keys[(m.group(1), m.group(2))] = m.group(3)
    return keys, None


def merged_summaries(root, podir, tmp):
    out = os.path.join(tmp, 'app.metainfo.xml')
    result = subprocess.run(['msgfmt', '--xml', '--template', os.path.join(root, METAINFO),
                             '-d', podir, '-o', out], capture_output=True, text=True)
    if result.returncode != 0:
        return None, result.stderr.strip()
    with open(out, encoding='utf-8') as f:
        text = f.read()
    component = text.split('<description', 1)[0]
    return dict(re.findall(r'<summary xml:lang="([^"]+)">([^<]*)</summary>', component)), None


def check_desktop_files(root):
    problems = []
    podir = os.path.join(root, 'po')
    with tempfile.TemporaryDirectory(prefix='steward-i18n-') as tmp:
        keys, error = merged_desktop(root, podir, tmp)
        if keys is None:
            return ['msgfmt --desktop failed: %s' % error]
        for language, wanted in DESKTOP_EXPECTED.items():
            for key, value in wanted.items():
                if keys.get((key, language)) != value:
                    problems.append('the desktop file has %s[%s]=%r, not %r'
                                    % (key, language, keys.get((key, language)), value))
            keywords = keys.get(('Keywords', language), '')
            if not keywords.endswith(';') or keywords == keys.get(('Keywords', None)):
                problems.append('the desktop file has Keywords[%s]=%r' % (language, keywords))

        summaries, error = merged_summaries(root, podir, tmp)
        if summaries is None:
            return problems + ['msgfmt --xml failed: %s' % error]
        for language, wanted in METAINFO_EXPECTED.items():
            if summaries.get(language) != wanted:
                problems.append('the metainfo has the %s summary %r, not %r'
                                % (language, summaries.get(language), wanted))
    return problems


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--child':
        child(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2

    localedir, package, root = (os.path.abspath(sys.argv[1]), sys.argv[2],
                                os.path.abspath(sys.argv[3]))
    results = []
    for language, expected in EXPECTED.items():
        problems = check_language(localedir, package, language, expected)
        results.append((not problems,
                        'LANGUAGE=%s: the app\'s strings come out translated' % language, problems))
    problems = check_language(localedir, package, 'fr', UNTRANSLATED)
    results.append((not problems,
                    'LANGUAGE=fr, which has no catalogue: the strings stay English', problems))
    problems = check_desktop_files(root)
    results.append((not problems,
                    'the merged desktop file and metainfo carry the translations', problems))

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
