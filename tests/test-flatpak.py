#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check the Flatpak manifest without building it.

The runtime is a download of a few hundred megabytes, so this test reads
flatpak/io.github.stewardmcp.Steward.json instead: it must parse as JSON;
name the application id and the command that meson builds; keep the
permissions to exactly the ones the sandbox design allows (the network,
Wayland with an X11 fallback, IPC, the GPU: no home folder, no keyring
service, no host access); fetch every source it downloads by checksum;
build the markdown library that meson asks for and take Node.js from the
SDK extension it declares; and, when flatpak-builder is installed, load in
`flatpak-builder --show-manifest` without a warning. The desktop file and
the metainfo are validated by the `desktop-file` and `metainfo` tests in
data/meson.build; this test only checks that they carry the same id.

Usage: test-flatpak.py [SOURCE_ROOT]

The checker first runs on broken copies of the manifest, so that it cannot
pass by finding nothing, then on the real one. Output is TAP.
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MANIFEST = os.path.join('flatpak', 'io.github.stewardmcp.Steward.json')

ALLOWED_FINISH_ARGS = [
    '--share=network',
    '--share=ipc',
    '--socket=wayland',
    '--socket=fallback-x11',
    '--device=dri',
]

# Named in the failure, as they are the ones most likely to be added.
FORBIDDEN_HINTS = {
    '--filesystem=': 'folders reach Steward through the FileChooser portal',
    '--talk-name=org.freedesktop.secrets': 'libsecret uses the Secret portal',
    '--talk-name=org.freedesktop.Flatpak': 'host access is a per-person flatpak override',
    '--socket=session-bus': 'the whole session bus includes host access',
}

REQUIRED_CLEANUP = ['/include', '/lib/pkgconfig', '*.a', '/share/doc', '/share/man']

SHA256_RE = re.compile(r'^[0-9a-f]{64}$')
COMMIT_RE = re.compile(r'^[0-9a-f]{40}$')


def read(root, *parts):
    with open(os.path.join(root, *parts), encoding='utf-8') as f:
        return f.read()


def meson_facts(root):
    """The application id, the program names that are installed, and the
    dependencies, as meson.build files say."""
    top = read(root, 'meson.build')
    match = re.search(r"^application_id\s*=\s*'([^']+)'", top, re.M)
    app_id = match.group(1) if match else None
    dependencies = set(re.findall(r"dependency\('([^']+)'", top))
    programs = set()
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'src')):
        if 'meson.build' in filenames:
            text = read(dirpath, 'meson.build')
            for name, body in re.findall(r"executable\('([^']+)',(.*?)\n\)", text, re.S):
                if re.search(r'install:\s*true', body):
                    programs.add(name)
    return app_id, programs, dependencies


def check_source(module, source, problems):
    kind = source.get('type')
    where = 'module %s: source %s' % (module, source.get('url') or source.get('path') or kind)
    if kind == 'dir':
        return
    if kind in ('archive', 'file'):
        if 'url' in source and not SHA256_RE.match(source.get('sha256', '')):
            problems.append('%s has no sha256' % where)
        return
    if kind == 'git':
        if not COMMIT_RE.match(source.get('commit', '')):
            problems.append('%s is not pinned to a commit' % where)
        return
    if kind in ('patch', 'script', 'shell', 'inline'):
        return
    problems.append('%s has a type this check does not know: %s' % (where, kind))


def check_manifest(manifest, facts):
    """Returns a list of problems with the manifest (a parsed object)."""
    app_id, programs, dependencies = facts
    problems = []

    manifest_id = manifest.get('id', manifest.get('app-id'))
    if manifest_id != app_id:
        problems.append('the id is %r, meson.build says %r' % (manifest_id, app_id))
    if manifest.get('command') not in programs:
        problems.append('the command %r is not a program meson installs (%s)'
                        % (manifest.get('command'), ', '.join(sorted(programs))))

    if manifest.get('runtime') != 'org.gnome.Platform' or manifest.get('sdk') != 'org.gnome.Sdk':
        problems.append('the runtime and SDK must be org.gnome.Platform and org.gnome.Sdk')
    if not re.match(r'^[0-9]+$', str(manifest.get('runtime-version', ''))):
        problems.append('runtime-version %r is not a stable GNOME branch'
                        % manifest.get('runtime-version'))

    finish_args = manifest.get('finish-args', [])
    for arg in finish_args:
        if arg not in ALLOWED_FINISH_ARGS:
            hint = next((why for prefix, why in FORBIDDEN_HINTS.items()
                         if arg.startswith(prefix)), 'not in the allowed set')
            problems.append('finish-args has %s: %s' % (arg, hint))
    for arg in ALLOWED_FINISH_ARGS:
        if arg not in finish_args:
            problems.append('finish-args lacks %s' % arg)
    if len(finish_args) != len(set(finish_args)):
        problems.append('finish-args names a permission twice')

    cleanup = manifest.get('cleanup', [])
    for entry in REQUIRED_CLEANUP:
        if entry not in cleanup:
            problems.append('cleanup lacks %s' % entry)

    modules = manifest.get('modules', [])
    names = [m.get('name') for m in modules if isinstance(m, dict)]
    for module in modules:
        if not isinstance(module, dict):
            problems.append('a module is a file reference (%r); keep them inline' % module)
            continue
        name = module.get('name')
        sources = module.get('sources', [])
        if not sources and not module.get('build-commands'):
            problems.append('module %s has neither sources nor build commands' % name)
        for source in sources:
            check_source(name, source, problems)

    for dependency in sorted(dependencies):
        if dependency == 'md4c' and 'md4c' not in names:
            problems.append("meson.build asks for dependency('md4c'), which the GNOME runtime "
                            'lacks, and no module builds it')

    extensions = [e for e in manifest.get('sdk-extensions', [])
                  if e.startswith('org.freedesktop.Sdk.Extension.node')]
    node = next((m for m in modules if isinstance(m, dict) and m.get('name') == 'node'), None)
    if len(extensions) != 1:
        problems.append('sdk-extensions must name one Node.js extension, for npx')
    elif node is None:
        problems.append('no module installs Node.js into /app')
    else:
        prefix = '/usr/lib/sdk/%s/' % extensions[0].rsplit('.', 1)[1]
        commands = '\n'.join(node.get('build-commands', []))
        if prefix not in commands or '/app/bin/' not in commands:
            problems.append('the node module must copy from %s into /app/bin, the PATH of '
                            'a sandboxed server' % prefix)
        if any(program not in commands for program in ('npx', 'npm')):
            problems.append('the node module must install npm and npx too')

    steward = modules[-1] if modules and isinstance(modules[-1], dict) else {}
    if steward.get('name') != 'steward' or steward.get('buildsystem') != 'meson':
        problems.append('the last module must build Steward with meson')
    elif steward.get('run-tests', False):
        problems.append('run-tests must stay off: the tests need Xvfb and the npm peers '
                        '(see flatpak/README.md)')

    return problems


def check_ids(root, app_id):
    """The data files are named after the id and say it."""
    problems = []
    for name, needle in (('%s.desktop.in', None),
                         ('%s.metainfo.xml.in', '<id>%s</id>' % app_id),
                         ('%s.service.in', None),
                         ('%s.gschema.xml', 'id="%s"' % app_id)):
        path = os.path.join(root, 'data', name % app_id)
        if not os.path.isfile(path):
            problems.append('data/%s is missing' % (name % app_id))
        elif needle is not None and needle not in read(path):
            problems.append('data/%s does not say %s' % (name % app_id, needle))
    return problems


def show_manifest(path):
    """Returns (ran, problems) for flatpak-builder --show-manifest."""
    builder = shutil.which('flatpak-builder')
    if builder is None:
        return False, []
    # flatpak-builder keeps its state in the folder it runs in.
    with tempfile.TemporaryDirectory(prefix='steward-flatpak-') as tmp:
        result = subprocess.run([builder, '--show-manifest', path], capture_output=True,
                                text=True, timeout=60, cwd=tmp)
    problems = []
    if result.returncode != 0:
        problems.append('flatpak-builder --show-manifest exited with %d: %s'
                        % (result.returncode, result.stderr.strip()))
    for line in result.stderr.splitlines():
        if 'WARNING' in line or 'Unknown property' in line:
            problems.append('flatpak-builder: %s' % line.strip())
    return True, problems


def broken_copies(manifest):
    """Yields (what, manifest, expected words in a problem)."""
    def changed(change):
        copied = copy.deepcopy(manifest)
        change(copied)
        return copied

    yield ('the home folder', changed(lambda m: m['finish-args'].append('--filesystem=home')),
           '--filesystem=home')
    yield ('the keyring service', changed(lambda m: m['finish-args'].append(
        '--talk-name=org.freedesktop.secrets')), 'org.freedesktop.secrets')
    yield ('host access', changed(lambda m: m['finish-args'].append(
        '--talk-name=org.freedesktop.Flatpak')), 'org.freedesktop.Flatpak')
    yield ('a missing permission', changed(lambda m: m['finish-args'].remove('--device=dri')),
           'lacks --device=dri')
    yield ('another app id', changed(lambda m: m.update({'id': 'org.example.Other'})),
           'org.example.Other')
    yield ('another command', changed(lambda m: m.update({'command': 'steward-gui'})),
           'steward-gui')
    yield ('a download without a checksum', changed(lambda m: [
        s.pop('sha256', None) for mod in m['modules'] for s in mod.get('sources', [])]),
        'no sha256')
    yield ('tests run in the build', changed(lambda m: m['modules'][-1].update(
        {'run-tests': True})), 'run-tests')
    yield ('no md4c', changed(lambda m: m.update(
        {'modules': [mod for mod in m['modules'] if mod.get('name') != 'md4c']})), 'md4c')
    yield ('a development runtime', changed(lambda m: m.update({'runtime-version': 'master'})),
           'master')


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                           else os.path.join(os.path.dirname(__file__), '..'))
    path = os.path.join(root, MANIFEST)
    facts = meson_facts(root)
    results = []

    try:
        manifest = json.loads(read(root, MANIFEST))
        results.append((isinstance(manifest, dict), '%s parses as JSON' % MANIFEST, []))
    except (OSError, ValueError) as error:
        manifest = None
        results.append((False, '%s parses as JSON' % MANIFEST, [str(error)]))

    if isinstance(manifest, dict):
        for what, broken, words in broken_copies(manifest):
            problems = check_manifest(broken, facts)
            results.append((any(words in p for p in problems),
                            'self-test: catches %s' % what,
                            problems or ['no problem found']))

        problems = check_manifest(manifest, facts)
        results.append((not problems, 'the manifest keeps to the sandbox design', problems))

    problems = check_ids(root, facts[0])
    results.append((not problems, 'data/ carries the app id %s' % facts[0], problems))

    ran, problems = show_manifest(path)
    if ran:
        results.append((not problems, 'flatpak-builder --show-manifest loads it', problems))
    else:
        results.append((True, 'flatpak-builder --show-manifest loads it '
                        '# SKIP flatpak-builder is not installed', []))

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
