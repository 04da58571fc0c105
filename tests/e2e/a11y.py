# SPDX-License-Identifier: GPL-3.0-or-later
"""Driving Steward through the accessibility tree, as a screen reader user
or a keyboard user would: find a control by its role and accessible name,
activate it, type into it, read what it shows.

Every wait polls the tree with a deadline and fails with what it was waiting
for, so a failing test says why; dump() prints the part of the tree that
matters.

Two things about the session the tests run in (tests/run-in-session):

- GTK 4.8 marks no widget but a window as showing, and keeps the last
  allocation of a stack page that is no longer shown. A node counts as
  shown here when it has a size and lies inside its window; a page shown
  earlier may still be found, so tests look inside the container that is
  current, or for something only the current page has.
- Xvfb runs no window manager: windows open at 0,0 and nothing gives them
  the keyboard focus. focus() does what a window manager would, and the
  keyboard and pointer helpers go through the X server (xdotool), as a
  person's keys and clicks do.
- GTK 4.8 crashes when asked for a window by an index past the last one
  shown while it keeps a hidden one (the shortcuts window), which happens
  when a window closes between two questions. toplevel() and closed()
  wait for windows on the X side, and the app's windows are listed only
  once that is settled.
"""

import os
import re
import subprocess
import time

import pyatspi

DEFAULT_TIMEOUT = float(os.environ.get('STEWARD_E2E_TIMEOUT', '30'))

# The smallest part of a node, in pixels each way, that must lie inside its
# window for it to count as shown. A page that a folded leaflet moved out
# of the window keeps a sliver of a pixel or two at the edge.
MIN_VISIBLE = 4


class E2EError(AssertionError):
    pass


def wait_until(what, predicate, timeout=DEFAULT_TIMEOUT, interval=0.05):
    """Polls predicate() until it returns something true and returns it.
    The accessibility bus has no 'changed' event we can rely on for every
    property a test asserts, so this polls, bounded by timeout."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except Exception as error:  # the tree changes under our feet
            last_error = error
        if time.monotonic() > deadline:
            raise E2EError('timed out after %.0f s waiting for %s%s' %
                           (timeout, what,
                            ' (last error: %s)' % last_error if last_error else ''))
        time.sleep(interval)


def application(name, timeout=DEFAULT_TIMEOUT):
    def find_app():
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == name:
                return app
        return None
    return wait_until('application %r on the accessibility bus' % name, find_app, timeout)


def children(node):
    try:
        return [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return []


def extents(node):
    """(x, y, width, height) relative to the node's window, or None for a
    node without a place of its own (a stack page)."""
    try:
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    except Exception:
        return None
    return (box.x, box.y, box.width, box.height)


def _inside(box, window):
    if box is None:
        return True
    x, y, width, height = box
    if width <= 0 or height <= 0:
        return False
    if window is None:
        return True
    visible_w = min(x + width, window[2]) - max(x, 0)
    visible_h = min(y + height, window[3]) - max(y, 0)
    return visible_w >= min(width, MIN_VISIBLE) and visible_h >= min(height, MIN_VISIBLE)


def _window_box(node):
    """The extents of the window that holds node."""
    current = node
    for _ in range(200):
        try:
            parent = current.parent
            if parent is None or parent.getRoleName() == 'application':
                return extents(current)
        except Exception:
            return None
        current = parent
    return None


def walk(node, showing_only=True):
    """Yields node and its descendants, depth first. With showing_only,
    skips subtrees that have no size or lie outside the window (pages a
    stack never showed, pages a folded leaflet moved away); what a
    scrolled area holds counts as shown wherever it is scrolled to, as a
    person can scroll to it."""
    stack = [(node, _window_box(node) if showing_only else None)]
    while stack:
        current, clip = stack.pop()
        if current is None:
            continue
        if showing_only and current is not node and not _inside(extents(current), clip):
            continue
        yield current
        if clip is not None and role(current) == 'scroll pane':
            clip = None
        stack.extend((child, clip) for child in reversed(children(current)))


def role(node):
    try:
        return node.getRoleName()
    except Exception:
        return None


def name(node):
    try:
        return node.name or ''
    except Exception:
        return ''


def describe(node):
    try:
        return '%s %r' % (node.getRoleName(), node.name)
    except Exception:
        return '<gone>'


def states(node):
    try:
        return [pyatspi.stateToString(s) for s in node.getState().getStates()]
    except Exception:
        return []


def has_state(node, state):
    try:
        return node.getState().contains(state)
    except Exception:
        return False


def labelled(text):
    """A name test for a control whose visible label is text. GTK 4.8
    names a button with a mnemonic "_Add Add", and one with an accessible
    label and a visible one "Call the tool Call"."""
    def matches(node_name):
        return node_name == text or node_name.endswith(' ' + text)
    matches.__doc__ = text
    return matches


def _matches(node, role_name, node_name, contains, where):
    try:
        if role_name is not None and node.getRoleName() != role_name:
            return False
        text = node.name or ''
    except Exception:
        return False
    if callable(node_name):
        if not node_name(text):
            return False
    elif node_name is not None and text != node_name:
        return False
    if contains is not None and contains not in text:
        return False
    if where is not None and not where(node):
        return False
    return True


def find_all(root, role=None, name=None, contains=None, where=None, showing_only=True):
    """Nodes under root (itself included) by role, name (a string, or a test
    such as labelled()), a part of the name, or any test on the node."""
    return [node for node in walk(root, showing_only)
            if _matches(node, role, name, contains, where)]


def _what(role_name, node_name, contains):
    if callable(node_name):
        node_name = getattr(node_name, '__doc__', None) or 'a matching name'
    label = node_name if node_name is not None else contains
    return '%s named %r' % (role_name or 'a node', label)


def find(root, role=None, name=None, contains=None, where=None, timeout=DEFAULT_TIMEOUT):
    """The first shown node that matches, waiting for it up to timeout; the
    error names what was missing and shows the tree under root."""
    def first():
        found = find_all(root, role, name, contains, where)
        return found[0] if found else None
    try:
        return wait_until(_what(role, name, contains), first, timeout)
    except E2EError as error:
        raise E2EError('%s under %s; the tree there:\n%s' %
                       (error, describe(root), dump(root))) from None


def gone(root, role=None, name=None, contains=None, where=None, timeout=DEFAULT_TIMEOUT):
    """Waits until nothing under root matches any more."""
    wait_until('%s to go away' % _what(role, name, contains),
               lambda: not find_all(root, role, name, contains, where), timeout)


def dump(root, limit=300, showing_only=True):
    """The tree under root, one node a line, indented, with what a test
    matches on: role, name, text for text fields, and place."""
    lines = []

    def visit(node, depth, clip):
        if len(lines) >= limit:
            return
        box = extents(node)
        if showing_only and depth > 0 and not _inside(box, clip):
            return
        line = '  ' * depth + describe(node)
        if role(node) in ('text', 'entry', 'password text'):
            line += ' text=%r' % text_of(node)[:200]
        if box is not None:
            line += ' @%d,%d %dx%d' % box
        lines.append(line)
        if clip is not None and role(node) == 'scroll pane':
            clip = None
        for child in children(node):
            visit(child, depth + 1, clip)

    visit(root, 0, _window_box(root) if showing_only else None)
    if len(lines) >= limit:
        lines.append('…')
    return '\n'.join(lines)


def toplevels(app):
    """The app's shown windows. GTK 4.8 crashes when asked for a window by
    an index past the last shown one while a hidden window is kept, so
    call this only while no window opens or closes: wait for that on the
    X side first (toplevel(), closed())."""
    return children(app)


def _title_pattern(name, contains):
    if name is not None:
        return '^%s$' % re.escape(name)
    return re.escape(contains)


def _x_windows(pattern):
    out = subprocess.run(['xdotool', 'search', '--onlyvisible', '--name', pattern],
                         capture_output=True, text=True)
    return out.stdout.split()


def toplevel(app, name=None, contains=None, timeout=DEFAULT_TIMEOUT):
    """A window of app by its title, waiting for it to open: first on the X
    side, then in the accessibility tree."""
    what = 'a window titled %r' % (name if name is not None else contains)
    pattern = _title_pattern(name, contains)
    wait_until(what + ' to show', lambda: _x_windows(pattern), timeout)

    def match():
        for window in toplevels(app):
            title = window.name or ''
            if (name is None or title == name) and (contains is None or contains in title):
                return window
        return None
    try:
        return wait_until(what, match, timeout)
    except E2EError as error:
        raise E2EError('%s; open windows: %s' %
                       (error, ', '.join(describe(w) for w in toplevels(app)))) from None


def count_windows(name=None, contains=None):
    """How many windows titled so the X server shows: several dialogs may
    share a title, as consent dialogs for two servers do."""
    return len(_x_windows(_title_pattern(name, contains)))


def closed(app, name=None, contains=None, timeout=DEFAULT_TIMEOUT):
    """Waits until the window titled so is no longer shown."""
    pattern = _title_pattern(name, contains)
    wait_until('the window titled %r to close' % (name if name is not None else contains),
               lambda: not _x_windows(pattern), timeout)


def activate(node):
    """Clicks a button, toggles a switch, opens a menu: the first action."""
    try:
        action = node.queryAction()
    except NotImplementedError:
        raise E2EError('%s has no action' % describe(node)) from None
    if action.nActions < 1:
        raise E2EError('%s has no action' % describe(node))
    names = [action.getName(i) for i in range(action.nActions)]
    for preferred in ('click', 'activate', 'press', 'toggle', 'select'):
        if preferred in names:
            action.doAction(names.index(preferred))
            return
    action.doAction(0)


def select(container, child):
    """Selects child, a row of the list container, as a click on it would."""
    index = child.getIndexInParent()
    try:
        selected = container.querySelection().selectChild(index)
    except Exception as error:
        # An app busy with what the row selects (a conversation to load)
        # may answer after the bus stopped waiting; the row then says
        # whether it was selected.
        if 'Did not receive a reply' not in str(error):
            raise
        selected = wait_until('%s to be selected' % describe(child),
                              lambda: has_state(child, pyatspi.STATE_SELECTED))
    if not selected:
        raise E2EError('%s refused to select %s' % (describe(container), describe(child)))


def set_text(node, text):
    node.queryEditableText().setTextContents(text)


def text_of(node):
    try:
        t = node.queryText()
        return t.getText(0, t.characterCount)
    except NotImplementedError:
        return node.name or ''
    except Exception:
        return ''


def texts(root):
    """Every label and text shown under root, in order: what a person
    reads there."""
    found = []
    for node in walk(root):
        if role(node) in ('label', 'text', 'entry'):
            found.append(text_of(node))
    return found


# The X side: windows, keyboard focus, keys and clicks.


def wait_for_texts(root, expected, what, timeout=DEFAULT_TIMEOUT):
    """Waits until the texts shown under root contain every string in
    expected, and returns them joined; on a timeout, says what was shown."""
    seen = []

    def shown():
        seen[:] = texts(root)
        joined = "\n".join(seen)
        return joined if all(part in joined for part in expected) else None
    try:
        return wait_until(what, shown, timeout)
    except E2EError as error:
        raise E2EError("%s; shown instead:\n%s" % (error, "\n".join(seen))) from None

def _xdotool(*args):
    out = subprocess.run(['xdotool'] + [str(a) for a in args], capture_output=True, text=True)
    if out.returncode != 0:
        raise E2EError('xdotool %s failed: %s' % (' '.join(map(str, args)), out.stderr.strip()))
    return out.stdout


def _window_info(wid):
    """What the X server says of window wid, by xwininfo's field names, or
    None once the window is gone."""
    out = subprocess.run(['xwininfo', '-id', wid], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    fields = {}
    for line in out.stdout.splitlines():
        key, sep, value = line.strip().partition(':')
        if sep:
            fields[key] = value.strip()
    return fields


def _shown_window(title):
    """(id, geometry) of the window of its own titled exactly title, mapped
    and shown, or None while there is none. xdotool matches titles without
    regard to case, and GTK titles its popups (tooltips, popovers, menus)
    with the program's name: those come and go as the pointer moves and
    the app works, so a window taken by title alone may be one of them,
    or gone by the time it is asked about."""
    for wid in reversed(_x_windows('^%s$' % re.escape(title))):
        info = _window_info(wid)
        if (info is None or info.get('Map State') != 'IsViewable' or
                info.get('Override Redirect State') != 'no'):
            continue
        named = subprocess.run(['xdotool', 'getwindowname', wid], capture_output=True,
                               text=True)
        if named.returncode != 0 or named.stdout.rstrip('\n') != title:
            continue
        try:
            return wid, {'X': int(info['Absolute upper-left X']),
                         'Y': int(info['Absolute upper-left Y']),
                         'WIDTH': int(info['Width']), 'HEIGHT': int(info['Height'])}
        except (KeyError, ValueError):
            continue
    return None


def _shown(title, timeout=DEFAULT_TIMEOUT):
    return wait_until('the X window titled %r to be mapped and shown' % title,
                      lambda: _shown_window(title), timeout)


def window_id(title, timeout=DEFAULT_TIMEOUT):
    """The X window of the shown window titled title, waiting for it."""
    return _shown(title, timeout)[0]


def _window_origin(window):
    """Where the window's own (0, 0) lies on the screen: GTK draws a margin
    for the resize border around a window that decorates itself."""
    _, geometry = _shown(window.name)
    box = extents(window)
    margin_x = (geometry['WIDTH'] - box[2]) // 2
    margin_y = (geometry['HEIGHT'] - box[3]) // 2
    return geometry['X'] + margin_x, geometry['Y'] + margin_y, margin_x, margin_y


def focus(window):
    """Gives window the keyboard focus, as a window manager does when a
    window opens or a person clicks on it, and waits until GTK knows."""
    wid = window_id(window.name)
    _xdotool('windowfocus', '--sync', wid)

    # GTK says which window is active only for windows in the plain sense,
    # and a modal dialog that shows itself when its parent becomes active
    # takes the focus from it at once. X delivers the focus before any key
    # sent after it, so for keys the X side is enough.
    def settled():
        return (role(window) != 'frame' or has_state(window, pyatspi.STATE_ACTIVE) or
                _xdotool('getwindowfocus').strip() != wid)
    wait_until('%s to become active' % describe(window), settled, 10)


def resize(window, width, height):
    """Resizes window so that its content is width×height."""
    wid, geometry = _shown(window.name)
    box = extents(window)
    _xdotool('windowsize', '--sync', wid,
             width + geometry['WIDTH'] - box[2], height + geometry['HEIGHT'] - box[3])
    wait_until('%s to be %dx%d' % (describe(window), width, height),
               lambda: extents(window)[2:] == (width, height), 10)


def key(keys):
    """Presses keys, such as 'Return' or 'ctrl+l', in the focused window."""
    _xdotool('key', '--clearmodifiers', keys)


def type_text(text):
    _xdotool('type', '--delay', '5', text)


def window_of(node):
    current = node
    while True:
        parent = current.parent
        if parent is None or parent.getRoleName() == 'application':
            return current
        current = parent


def _scroller_of(node):
    current = node.parent
    while current is not None and role(current) != 'application':
        if role(current) == 'scroll pane':
            box = extents(current)
            if box is not None and box[2] > 0 and box[3] > 0:
                return current
        current = current.parent
    return None


def scroll_into_view(node, timeout=DEFAULT_TIMEOUT):
    """Turns the mouse wheel over the scrolled area that holds node until
    node is in view, as a person scrolls to a control below the fold."""
    scroller = _scroller_of(node)
    if scroller is None:
        return
    window = window_of(node)
    left, top, _, _ = _window_origin(window)
    deadline = time.monotonic() + timeout
    while True:
        area = extents(scroller)
        box = extents(node)
        if box[1] >= area[1] and box[1] + box[3] <= area[1] + area[3]:
            return
        if time.monotonic() > deadline:
            raise E2EError('could not scroll %s into view' % describe(node))
        # At the right edge, over the scroll bar, where no control inside
        # takes the wheel for itself.
        button = 4 if box[1] < area[1] else 5
        _xdotool('mousemove', left + area[0] + area[2] - 4,
                 top + area[1] + area[3] // 2, 'click', button)
        time.sleep(0.05)


def click(node):
    """Clicks the middle of node with the mouse, scrolling it into view
    first. For controls GTK 4.8 gives no accessible action, such as check
    buttons, and for rows of a drop-down's list."""
    scroll_into_view(node)
    left, top, _, _ = _window_origin(window_of(node))
    x, y, width, height = extents(node)
    _xdotool('mousemove', left + x + width // 2, top + y + height // 2, 'click', 1)


def description(node):
    """node's accessible description, or "" while it has none or is gone."""
    try:
        return node.description or ""
    except Exception:
        return ""


# The height a web view has until its page says what it needs
# (INITIAL_HEIGHT in src/ui/steward-app-view.c).
VIEW_FIRST_HEIGHT = 160


def click_in_page(view, title, x, y, timeout=60):
    """Clicks at (x, y) of a web view's page with the mouse, as a person
    would; a negative x counts from the view's right edge. GTK 4.8 shows
    the page only as an empty element, so its place on screen is all
    there is to aim at. Only once the page ran and was laid out: its text,
    title among it, is read inside the page (the view's description), and
    the view took the height the page asked for, over its first one and
    the same at two looks in a row. A click before lands in a page still
    growing under the pointer, and does nothing or the wrong thing."""
    last = [None]

    def laid_out():
        height = extents(view)[3]
        steady = height == last[0]
        last[0] = height
        return title in description(view) and height > VIEW_FIRST_HEIGHT and steady
    wait_until("the page to show %r at its own height" % title, laid_out, timeout)
    scroll_into_view(view)
    left, top, _, _ = _window_origin(window_of(view))
    vx, vy, width, height = extents(view)
    print("# the view at %d,%d %dx%d" % (vx, vy, width, height))
    if width <= 100 or height <= VIEW_FIRST_HEIGHT:
        raise E2EError("%s has no place on screen to click" % describe(view))
    _xdotool("mousemove", left + vx + (x if x >= 0 else width + x), top + vy + y,
             "click", 1)


def drag(node, dx, dy):
    """Drags node, such as the handle between two panes, by dx, dy pixels
    with the mouse."""
    left, top, _, _ = _window_origin(window_of(node))
    x, y, width, height = extents(node)
    x, y = left + x + width // 2, top + y + height // 2
    _xdotool('mousemove', x, y, 'mousedown', 1)
    # In steps, as a hand moves: GTK starts a drag only after a little way.
    for i in range(1, 11):
        _xdotool('mousemove', x + dx * i // 10, y + dy * i // 10)
    _xdotool('mouseup', 1)


def park_pointer():
    """Moves the mouse to the screen's far corner, away from every window,
    so that nothing shows as hovered."""
    width, height = _xdotool('getdisplaygeometry').split()
    _xdotool('mousemove', int(width) - 1, int(height) - 1)


def screenshot(window, path):
    """Saves window, without the margin around it, as a PNG without
    metadata, so that the same picture makes the same file."""
    wid = window_id(window.name)
    _, _, margin_x, margin_y = _window_origin(window)
    _, _, width, height = extents(window)
    subprocess.run(['import', '-window', wid,
                    '-crop', '%dx%d+%d+%d' % (width, height, margin_x, margin_y), '+repage',
                    '-strip', '-define', 'png:exclude-chunks=date,time', path],
                   check=True)


def screenshot_screen(path):
    subprocess.run(['import', '-window', 'root', '-strip', path], check=True)
