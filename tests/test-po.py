#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that every catalogue in po/LINGUAS is complete for today's sources.

The strings are extracted afresh from the files po/POTFILES names, with the
same xgettext options as meson's i18n module and its glib preset (what
`ninja steward-pot` runs), so a string added to the code fails this test
until each catalogue translates it. Each catalogue is merged against that
template into a temporary file, never in place, and then:

- msgfmt --check-format --check-header --check-domain must accept it;
- msgattrib --untranslated and --only-fuzzy must find nothing;
- a translation must keep a GTK mnemonic when its message has one
  (msgfmt --check-accelerators=_), and end with ";" when its message does,
  as the Keywords of a desktop file must.

Usage: test-po.py [SOURCE_ROOT]

The checker first runs itself on a throwaway tree with one complete
catalogue and with catalogues that are each wrong in one way, so that it
cannot pass by checking nothing; then on SOURCE_ROOT. Output is TAP.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

PACKAGE = 'steward'

# meson's i18n.gettext(preset: 'glib'), plus the -k_ its pot target adds.
XGETTEXT_ARGS = [
    '--from-code=UTF-8',
    '--add-comments',
    '-k_',
    '--keyword=_',
    '--keyword=N_',
    '--keyword=C_:1c,2',
    '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2',
    '--keyword=g_dngettext:2,3',
    '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format',
    '--flag=C_:2:pass-c-format',
    '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format',
    '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format',
    '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format',
    '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format',
    '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format',
    '--flag=g_printerr:1:c-format',
    '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format',
    '--flag=g_sprintf:2:c-format',
    '--flag=g_snprintf:3:c-format',
]

TOOLS = ('xgettext', 'msgmerge', 'msgattrib', 'msgfmt')


class CheckError(Exception):
    pass


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def read_list(path):
    entries = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                entries.extend(line.split())
    return entries


def po_entries(text):
    """Yields (msgid, msgid_plural, [msgstr…], flags) of a PO file's
    messages, header and obsolete entries left out."""
    def unquote(s):
        return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)),
                      s[1:-1])

    for block in re.split(r'\n\s*\n', text):
        fields = {}
        flags = []
        key = None
        for line in block.splitlines():
            if line.startswith('#,'):
                flags += [f.strip() for f in line[2:].split(',')]
            elif line.startswith('#'):
                continue
            elif line.startswith('"') and key:
                fields[key] += unquote(line.strip())
            else:
                m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
                if m:
                    key = m.group(1)
                    fields[key] = unquote(m.group(2))
        if fields.get('msgid'):
            strs = [v for k, v in sorted(fields.items()) if k.startswith('msgstr')]
            yield fields['msgid'], fields.get('msgid_plural'), strs, flags


def make_template(root, potfiles, pot):
    result = run(['xgettext', '--package-name=' + PACKAGE, '-f', potfiles, '-D', root,
                  '-o', pot] + XGETTEXT_ARGS)
    if result.returncode != 0 or not os.path.isfile(pot):
        raise CheckError('xgettext failed: ' + (result.stderr.strip() or 'no template written'))


def check_catalogue(po, pot, tmp):
    """Returns (number of messages, list of problems) of one catalogue
    merged against the template."""
    name = os.path.basename(po)
    if not os.path.isfile(po):
        return 0, ['%s is named in po/LINGUAS but does not exist' % name]

    merged = os.path.join(tmp, 'merged-' + name)
    result = run(['msgmerge', '--quiet', '--no-wrap', '--previous', '-o', merged, po, pot])
    if result.returncode != 0:
        return 0, ['%s cannot be merged with the sources: %s' % (name, result.stderr.strip())]

    problems = []
    result = run(['msgfmt', '--check-format', '--check-header', '--check-domain',
                  '--check-accelerators=_', '-o', os.devnull, merged])
    if result.returncode != 0:
        problems.append('%s fails msgfmt --check: %s' % (name, result.stderr.strip()))

    for option, what in (('--untranslated', 'untranslated'), ('--only-fuzzy', 'fuzzy')):
        result = run(['msgattrib', option, '--no-obsolete', '--no-wrap', merged])
        found = [e for e in po_entries(result.stdout)]
        if result.returncode != 0:
            problems.append('%s: msgattrib %s failed: %s' % (name, option, result.stderr.strip()))
        for msgid, _, _, _ in found:
            problems.append('%s: %s message %r' % (name, what, msgid))

    with open(merged, encoding='utf-8') as f:
        entries = [e for e in po_entries(f.read()) if 'fuzzy' not in e[3]]
    for msgid, plural, strs, _ in entries:
        if any(strs) and not all(strs):
            problems.append('%s: a plural form of %r is untranslated' % (name, msgid))
        if msgid.endswith(';') and any(s and not s.endswith(';') for s in strs):
            problems.append('%s: the translation of %r must end with ";"' % (name, msgid))

    return len(entries), problems


def check_tree(root):
    """Returns ({language: messages}, list of problems)."""
    linguas = read_list(os.path.join(root, 'po', 'LINGUAS'))
    if not linguas:
        raise CheckError('po/LINGUAS names no language')

    counts = {}
    problems = []
    with tempfile.TemporaryDirectory(prefix='steward-po-') as tmp:
        pot = os.path.join(tmp, PACKAGE + '.pot')
        make_template(root, os.path.join(root, 'po', 'POTFILES'), pot)
        for lang in linguas:
            counts[lang], found = check_catalogue(os.path.join(root, 'po', lang + '.po'), pot, tmp)
            problems += found
    return counts, problems


# A tree with one source of each kind and a complete catalogue for it.
SOURCE_C = ('#include <glib/gi18n.h>\n'
            'const char *a (void) { return _("_Open"); }\n'
            'const char *b (int n) { return g_dngettext (NULL, "%d file", "%d files", n); }\n'
            'const char *c (void) { return C_("menu", "Quit"); }\n')
SOURCE_DESKTOP = '[Desktop Entry]\nName=App\nKeywords=Tools;Things;\nExec=app\nType=Application\n'
SOURCE_UI = ('<interface><object class="GtkLabel"><property name="label" translatable="yes">'
             'Hello</property></object></interface>\n')

GOOD_PO = r'''msgid ""
msgstr ""
"Project-Id-Version: steward\n"
"Report-Msgid-Bugs-To: \n"
"PO-Revision-Date: 2026-01-01 00:00+0000\n"
"Last-Translator: The Steward developers\n"
"Language-Team: German\n"
"Language: de\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "App"
msgstr "Anwendung"

msgid "Tools;Things;"
msgstr "Werkzeuge;Dinge;"

msgid "_Open"
msgstr "_Öffnen"

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] "%d Dateien"

msgctxt "menu"
msgid "Quit"
msgstr "Beenden"

msgid "Hello"
msgstr "Hallo"
'''

GOOD_TREE = {
    'po/LINGUAS': '# languages\nde\n',
    'po/POTFILES': 'data/app.desktop.in\nsrc/app.c\nsrc/app.ui\n',
    'po/de.po': GOOD_PO,
    'data/app.desktop.in': SOURCE_DESKTOP,
    'src/app.c': SOURCE_C,
    'src/app.ui': SOURCE_UI,
}

# Each case breaks the good tree in one way; the problem must name what.
BAD_CASES = [
    ('an untranslated message', 'po/de.po',
     GOOD_PO.replace('msgstr "Hallo"', 'msgstr ""'), 'untranslated message \'Hello\''),
    ('a fuzzy message', 'po/de.po',
     GOOD_PO.replace('msgid "Hello"', '#, fuzzy\nmsgid "Hello"'), 'fuzzy message \'Hello\''),
    ('a message new in the sources', 'src/app.c',
     SOURCE_C + 'const char *d (void) { return _("Save"); }\n', 'untranslated message \'Save\''),
    ('a plural form left empty', 'po/de.po',
     GOOD_PO.replace('msgstr[1] "%d Dateien"', 'msgstr[1] ""'),
     'a plural form of \'%d file\' is untranslated'),
    ('a broken format', 'po/de.po',
     GOOD_PO.replace('"%d Dateien"', '"%s Dateien"'), 'fails msgfmt --check'),
    ('a lost mnemonic', 'po/de.po', GOOD_PO.replace('"_Öffnen"', '"Öffnen"'),
     'fails msgfmt --check'),
    ('a header without plural forms', 'po/de.po',
     GOOD_PO.replace('"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n', ''),
     'fails msgfmt --check'),
    ('keywords without the final ";"', 'po/de.po',
     GOOD_PO.replace('"Werkzeuge;Dinge;"', '"Werkzeuge;Dinge"'), 'must end with ";"'),
    ('a catalogue that does not exist', 'po/LINGUAS', 'de\nfr\n', 'fr.po is named in po/LINGUAS'),
]


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)


def self_tests():
    """Yields (passed, description, details)."""
    with tempfile.TemporaryDirectory(prefix='steward-po-self-') as tmp:
        good = os.path.join(tmp, 'good')
        write_tree(good, GOOD_TREE)
        counts, problems = check_tree(good)
        yield (counts == {'de': 6} and not problems,
               'self-test: a complete catalogue passes (%s)' % counts, problems)

        for i, (what, rel, text, expected) in enumerate(BAD_CASES):
            root = os.path.join(tmp, 'bad%d' % i)
            files = dict(GOOD_TREE)
            files[rel] = text
            write_tree(root, files)
            _, problems = check_tree(root)
            yield (bool(problems) and any(expected in p for p in problems),
                   'self-test: catches %s' % what, problems or ['nothing was reported'])


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                           else os.path.join(os.path.dirname(__file__), '..'))

    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        print('1..0 # SKIP the gettext tools are not installed (%s)' % ', '.join(missing))
        return 0

    results = []
    try:
        results += list(self_tests())
        counts, problems = check_tree(root)
    except CheckError as error:
        counts, problems = {}, [str(error)]

    results.append((bool(counts) and not problems,
                    'every catalogue in po/LINGUAS translates every message of the sources (%s)'
                    % ', '.join('%s: %d' % item for item in sorted(counts.items())),
                    problems))

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
