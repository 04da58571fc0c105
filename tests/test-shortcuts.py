#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check that the Keyboard Shortcuts window lists every shortcut, and no other.

The shortcuts the app has are the key bindings its widget classes add
(gtk_widget_class_add_binding_action) and the accelerators the application
sets for its actions (gtk_application_set_accels_for_action). The window
(src/ui/steward-shortcuts.ui) names them by accelerator, or by action name
for an application action. Escape bound to window.close is how every dialog
closes and is not listed; a keypad key bound beside its main key to the same
action is the same shortcut.

Usage: test-shortcuts.py [SOURCE_ROOT]

The checker first runs itself on throwaway trees with a known missing and a
known stale entry, so that it cannot pass by finding nothing. Output is TAP.
"""

import glob
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

BINDING_RE = re.compile(r'gtk_widget_class_add_binding_action\s*\(\s*\w+\s*,\s*GDK_KEY_(\w+)\s*,'
                        r'\s*([^,]+?)\s*,\s*"([\w.-]+)"', re.S)
ACCELS_ARRAY_RE = re.compile(r'const\s+char\s*\*\s*(\w+)\s*\[\]\s*=\s*\{([^}]*)\}', re.S)
SET_ACCELS_RE = re.compile(r'gtk_application_set_accels_for_action\s*\([^,]+,\s*"([\w.-]+)"\s*,'
                           r'\s*(\w+)\s*\)', re.S)
MASKS = {'GDK_CONTROL_MASK': 'control', 'GDK_SHIFT_MASK': 'shift', 'GDK_ALT_MASK': 'alt',
         'GDK_SUPER_MASK': 'super'}
ACCEL_MOD_RE = re.compile(r'<(\w+)>')
MOD_NAMES = {'control': 'control', 'ctrl': 'control', 'primary': 'control', 'shift': 'shift',
             'alt': 'alt', 'super': 'super'}
# Keys a key controller handles in code rather than a binding: the
# composer's Enter sends and Shift+Enter starts a line, so they are listed
# while the handler that does it is there.
HANDLED_KEYS = [(('"chat.send"', 'GDK_KEY_Return', 'GDK_SHIFT_MASK'), [(frozenset(), 'return'),
                                                          (frozenset({'shift'}), 'return')])]
KEYPAD_TWINS = {'kp_enter': 'return', 'iso_enter': 'return', 'kp_up': 'up', 'kp_down': 'down'}


def parse_accel(text):
    """'<Control><Shift>r' as (frozenset of modifiers, key), lower case."""
    mods = frozenset(MOD_NAMES[m.lower()] for m in ACCEL_MOD_RE.findall(text))
    key = ACCEL_MOD_RE.sub('', text).strip().lower()
    return (mods, key)


def code_shortcuts(root):
    """Every shortcut the sources set: {(mods, key): where}."""
    found = {}
    twins = []
    app_accels = {}
    for path in sorted(glob.glob(os.path.join(root, 'src', 'ui', '*.c'))):
        with open(path, encoding='utf-8') as f:
            text = f.read()
        name = os.path.relpath(path, root)
        for key, mask, action in BINDING_RE.findall(text):
            mods = frozenset(MASKS[m.strip()] for m in mask.split('|') if m.strip() in MASKS)
            key = key.lower()
            if key == 'escape' and action == 'window.close':
                continue
            if key in KEYPAD_TWINS:
                twins.append(((mods, KEYPAD_TWINS[key]), action))
                continue
            found[(mods, key)] = '%s (%s)' % (name, action)
        for markers, accels in HANDLED_KEYS:
            if all(marker in text for marker in markers):
                for accel in accels:
                    found[accel] = '%s (key handler)' % name
        arrays = {n: re.findall(r'"([^"]+)"', body) for n, body in ACCELS_ARRAY_RE.findall(text)}
        for action, array in SET_ACCELS_RE.findall(text):
            accels = arrays.get(array, [])
            app_accels[action] = [parse_accel(a) for a in accels]
            for accel in accels:
                found[parse_accel(accel)] = '%s (%s)' % (name, action)
    return found, app_accels


def listed_shortcuts(root, app_accels):
    """Every shortcut the window lists: {(mods, key): title}."""
    listed = {}
    tree = ET.parse(os.path.join(root, 'src', 'ui', 'steward-shortcuts.ui'))
    for obj in tree.iter('object'):
        if obj.get('class') != 'GtkShortcutsShortcut':
            continue
        props = {p.get('name'): (p.text or '') for p in obj.findall('property')}
        title = props.get('title', '?')
        if 'accelerator' in props:
            for accel in props['accelerator'].split():
                listed[parse_accel(accel)] = title
        elif 'action-name' in props:
            for accel in app_accels.get(props['action-name'], []):
                listed[accel] = title
    return listed


def check(root):
    """Returns a list of problems, empty when the window matches the code."""
    found, app_accels = code_shortcuts(root)
    listed = listed_shortcuts(root, app_accels)
    problems = []

    def show(accel):
        mods, key = accel
        return ''.join('<%s>' % m for m in sorted(mods)) + key

    for accel, where in sorted(found.items(), key=lambda i: show(i[0])):
        if accel not in listed:
            problems.append('%s, set in %s, is missing from the shortcuts window'
                            % (show(accel), where))
    for accel, title in sorted(listed.items(), key=lambda i: show(i[0])):
        if accel not in found:
            problems.append('“%s” lists %s, which nothing in the code sets' % (title, show(accel)))
    return problems


def write_tree(root, code, ui):
    os.makedirs(os.path.join(root, 'src', 'ui'))
    with open(os.path.join(root, 'src', 'ui', 'steward-thing.c'), 'w', encoding='utf-8') as f:
        f.write(code)
    with open(os.path.join(root, 'src', 'ui', 'steward-shortcuts.ui'), 'w',
              encoding='utf-8') as f:
        f.write(ui)


SELF_CODE = '''
  static const char *quit_accels[] = { "<Control>q", NULL };
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "tool.call", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK,
                                       "tool.call", NULL);
'''
SELF_UI = '''<interface><object class="GtkShortcutsWindow">
  <child><object class="GtkShortcutsShortcut">
    <property name="title">Quit</property><property name="action-name">app.quit</property>
  </object></child>%s
</object></interface>'''
CALL = '''<child><object class="GtkShortcutsShortcut">
    <property name="title">Call</property><property name="accelerator">&lt;Control&gt;Return</property>
  </object></child>'''
STALE = '''<child><object class="GtkShortcutsShortcut">
    <property name="title">Gone</property><property name="accelerator">&lt;Control&gt;g</property>
  </object></child>'''


def self_test():
    """(name, ok) for the checker's runs on trees with known answers."""
    results = []
    cases = [('a complete window passes', CALL, 0),
             ('a missing shortcut is found', '', 1),
             ('a stale entry is found', CALL + STALE, 1)]
    for name, extra, expected in cases:
        with tempfile.TemporaryDirectory() as tmp:
            write_tree(tmp, SELF_CODE, SELF_UI % extra)
            problems = check(tmp)
            results.append(('self-test: ' + name, len(problems) == expected, problems))
    return results


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    results = self_test()
    problems = check(root)
    results.append(('the shortcuts window lists every shortcut the code sets', not problems,
                    problems))
    found, _ = code_shortcuts(root)
    results.append(('the code sets shortcuts (%d found)' % len(found), len(found) >= 10, []))

    print('1..%d' % len(results))
    failed = 0
    for i, (name, ok, details) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
        if not ok:
            failed += 1
            for line in details:
                print('# ' + line)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
