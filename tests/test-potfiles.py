#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that po/POTFILES lists every file with strings to translate.

A file under src/ or data/ must be listed when it marks a string for
translation: _(), N_(), C_(), NC_(), Q_(), g_dngettext() or ngettext() in C,
translatable="yes" in a GtkBuilder file, the translated keys of a desktop
file, the texts of a metainfo file or a settings schema, or an
intltool-style <_name> element or _Name= key anywhere. Every file that
POTFILES names must exist.

Usage: test-potfiles.py [SOURCE_ROOT]

The checker first runs itself on throwaway trees with known good and bad
lists, so that it cannot pass by finding nothing, then on SOURCE_ROOT.
Output is TAP.
"""

import os
import re
import sys
import tempfile

SCANNED_DIRS = ('src', 'data')

C_MARK_RE = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|Q_|g_dgettext|g_dngettext|g_dpgettext2|'
                       r'(?:d|dc)?n?gettext)\s*\(')
UI_MARK_RE = re.compile(r'translatable\s*=\s*["\'](?:yes|true|1)["\']')
DESKTOP_MARK_RE = re.compile(r'^(?:Name|GenericName|Comment|Keywords|X-GNOME-FullName)=', re.M)
METAINFO_MARK_RE = re.compile(r'<(?:name|summary|p|li|caption|developer_name)[\s>]')
SCHEMA_MARK_RE = re.compile(r'<(?:summary|description)[\s>]')
INTLTOOL_MARK_RE = re.compile(r'<_[A-Za-z][\w-]*[\s>]|^_[A-Za-z][\w-]*=', re.M)


def marks_strings(path, text):
    """Whether a file marks strings for translation, by its kind."""
    name = os.path.basename(path)

    if INTLTOOL_MARK_RE.search(text):
        return True
    if name.endswith(('.c', '.h')):
        return bool(C_MARK_RE.search(text))
    if name.endswith('.ui'):
        return bool(UI_MARK_RE.search(text))
    if name.endswith(('.desktop.in', '.desktop')):
        return bool(DESKTOP_MARK_RE.search(text))
    if name.endswith(('.metainfo.xml.in', '.appdata.xml.in', '.metainfo.xml')):
        return bool(METAINFO_MARK_RE.search(text))
    if name.endswith('.gschema.xml'):
        return bool(SCHEMA_MARK_RE.search(text))
    return False


def read_potfiles(root):
    """Returns the list of paths POTFILES names, in order."""
    entries = []
    with open(os.path.join(root, 'po', 'POTFILES'), encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                entries.append(line)
    return entries


def files_with_strings(root):
    found = []
    for top in SCANNED_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                try:
                    with open(path, encoding='utf-8') as f:
                        text = f.read()
                except (UnicodeDecodeError, OSError):
                    continue
                if marks_strings(path, text):
                    found.append(os.path.relpath(path, root).replace(os.sep, '/'))
    return found


def check_tree(root):
    """Returns (number of files with strings, list of problems)."""
    problems = []
    entries = read_potfiles(root)
    listed = set(entries)

    for entry in entries:
        if not os.path.isfile(os.path.join(root, entry)):
            problems.append('po/POTFILES names %s, which does not exist' % entry)
        if entries.count(entry) > 1 and entry not in problems:
            problems.append('po/POTFILES names %s more than once' % entry)

    found = files_with_strings(root)
    for path in found:
        if path not in listed:
            problems.append('%s has strings to translate but is missing from po/POTFILES' % path)

    return len(found), sorted(set(problems))


GOOD_TREE = {
    'po/POTFILES': ('# comment\n'
                    'data/app.desktop.in\ndata/app.metainfo.xml.in\ndata/app.gschema.xml\n'
                    'src/ui/window.c\nsrc/ui/window.ui\nsrc/host/config.c\n'),
    'data/app.desktop.in': '[Desktop Entry]\nName=App\nExec=app\n',
    'data/app.metainfo.xml.in': '<component><name>App</name><summary>Does</summary></component>\n',
    'data/app.gschema.xml': '<schemalist><schema id="a"><key name="k" type="b"><default>true</default>'
                            '<summary>K</summary></key></schema></schemalist>\n',
    'data/meson.build': "i18n.merge_file(input: 'app.desktop.in')\n",
    'data/icons/app.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    'src/ui/window.c': '#include <glib/gi18n.h>\nconst char *s (void) { return _("Hello"); }\n',
    'src/ui/window.ui': '<interface><object class="GtkLabel"><property name="label" '
                        'translatable="yes">Hi</property></object></interface>\n',
    'src/ui/row.ui': '<interface><object class="GtkLabel"><property name="label">x</property>'
                     '</object></interface>\n',
    'src/host/config.c': 'static const char *n = N_("Name");\n',
    'src/mcp/plain.c': ('static int foo_ (int x) { return x; }\n'
                        'int bar (void) { return foo_ (1) + G_N_ELEMENTS_(2); }\n'
                        '/* mark_() is not a marker either */\n'),
}

# Each case changes the good tree so that exactly one problem appears.
BAD_CASES = [
    ('C file with _()', 'src/ui/dialog.c', 'void f (void) { g_print ("%s", _("Bye")); }\n', None),
    ('C file with C_()', 'src/host/other.c', 'const char *x = C_("ctx", "Word");\n', None),
    ('C file with ngettext', 'src/host/plural.c',
     'char *p = g_dngettext (GETTEXT_PACKAGE, "one", "many", n);\n', None),
    ('C file with plain ngettext', 'src/host/count.c',
     'char *p = ngettext ("%u server", "%u servers", n);\n', None),
    ('GtkBuilder file', 'src/ui/dialog.ui',
     '<interface><property name="title" translatable="yes">T</property></interface>\n', None),
    ('desktop file', 'data/other.desktop.in', '[Desktop Entry]\nComment=Does things\n', None),
    ('metainfo file', 'data/other.metainfo.xml.in', '<component><summary>S</summary></component>\n',
     None),
    ('settings schema', 'data/other.gschema.xml',
     '<schemalist><key name="a" type="b"><description>D</description></key></schemalist>\n', None),
    ('intltool-style key', 'data/other.xml', '<list><_name>Thing</_name></list>\n', None),
    ('POTFILES naming a missing file', None, None, 'src/ui/gone.c\n'),
]


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)


def self_tests():
    """Yields (passed, description, details)."""
    with tempfile.TemporaryDirectory(prefix='steward-potfiles-') as tmp:
        good = os.path.join(tmp, 'good')
        write_tree(good, GOOD_TREE)
        found, problems = check_tree(good)
        yield (found == 6 and not problems,
               'self-test: a complete list passes (%d files with strings found)' % found,
               problems)

        for i, (what, rel, text, potfiles_extra) in enumerate(BAD_CASES):
            root = os.path.join(tmp, 'bad%d' % i)
            files = dict(GOOD_TREE)
            if rel is not None:
                files[rel] = text
            if potfiles_extra is not None:
                files['po/POTFILES'] = files['po/POTFILES'] + potfiles_extra
            write_tree(root, files)
            _, problems = check_tree(root)
            named = rel if rel is not None else potfiles_extra.strip()
            yield (len(problems) == 1 and named in problems[0],
                   'self-test: catches a %s (%s)' % (what, named),
                   problems)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                           else os.path.join(os.path.dirname(__file__), '..'))
    results = list(self_tests())

    found, problems = check_tree(root)
    results.append((found > 0 and not problems,
                    'po/POTFILES lists every file with strings to translate (%d found)' % found,
                    problems or ([] if found else ['no file with strings found under src/ or data/'])))

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
