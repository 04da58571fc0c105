/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "steward-file-backed.h"

G_BEGIN_DECLS

/*
 * The folders the person chose for servers to see, as a GListModel of
 * StewardRoot, persisted in roots.json in the config folder. Each root is
 * offered to every server, or only to the servers named for it. Paths are
 * canonical (absolute, symlinks resolved, no "." or ".."), URIs come from
 * GIO (g_file_get_uri).
 *
 * "changed" (server-or-NULL) is emitted on every change: NULL when every
 * server's view may have changed, else the one server whose view did.
 * Servers answer it with notifications/roots/list_changed. A change that
 * touches several named servers' views is one emission per server; a
 * change that touches no server's view (allowing a server on a root that
 * every server sees already) emits nothing.
 *
 * Every change is saved to roots.json in the background, atomically;
 * "save-failed" (GError) says when that failed. The file is
 *   {"roots": [{"path": "/canonical", "servers": null | ["a", "b"]}]}
 * where null means every server.
 */

#define STEWARD_ROOTS_ERROR (steward_roots_error_quark ())

typedef enum {
  STEWARD_ROOTS_ERROR_NOT_A_FOLDER,   /* missing, or not a directory */
  STEWARD_ROOTS_ERROR_NOT_LOCAL,      /* no local path (a remote GVfs location) */
  STEWARD_ROOTS_ERROR_EXISTS,         /* already a root */
  STEWARD_ROOTS_ERROR_SAVE,           /* roots.json could not be written */
  STEWARD_ROOTS_ERROR_LOAD,           /* roots.json could not be read or parsed */
  STEWARD_ROOTS_ERROR_INVALID,        /* a path that cannot be a root: empty, NUL, too
                                       * long, relative without a folder to start
                                       * from, or not UTF-8 (roots.json is JSON) */
} StewardRootsError;

#define STEWARD_TYPE_ROOT (steward_root_get_type ())
G_DECLARE_FINAL_TYPE (StewardRoot, steward_root, STEWARD, ROOT, GObject)

#define STEWARD_TYPE_ROOTS (steward_roots_get_type ())
G_DECLARE_FINAL_TYPE (StewardRoots, steward_roots, STEWARD, ROOTS, StewardFileBacked)

GQuark         steward_roots_error_quark          (void);

const char    *steward_root_get_uri               (StewardRoot    *self);
const char    *steward_root_get_path              (StewardRoot    *self);
/* The folder's display name ("name" in roots/list). */
const char    *steward_root_get_name              (StewardRoot    *self);
/* TRUE when every server sees it; else only the servers allowed. */
gboolean       steward_root_get_all_servers       (StewardRoot    *self);
gboolean       steward_root_is_visible_to         (StewardRoot    *self,
                                                   const char     *server);
/* (transfer none) NULL-terminated names of the servers allowed when not
 * all servers see it. */
const char * const *steward_root_get_servers      (StewardRoot    *self);

/* @file: the config folder's roots.json; NULL for a store kept in memory
 * (tests). */
StewardRoots  *steward_roots_new                  (GFile          *file);
/* A missing file is no roots, not an error. A damaged one is
 * STEWARD_ROOTS_ERROR_LOAD naming the file, and the roots stay as they
 * were; the caller keeps the file aside before anything is saved over
 * it. load() reads on the calling thread: for tests and the CLI. */
gboolean       steward_roots_load                 (StewardRoots   *self,
                                                   GError        **error);
void           steward_roots_load_async           (StewardRoots        *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean       steward_roots_load_finish          (StewardRoots   *self,
                                                   GAsyncResult   *result,
                                                   GError        **error);
/* Completes once everything changed before the call is on disk (at once
 * for a store kept in memory). */
void           steward_roots_save_async           (StewardRoots        *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean       steward_roots_save_finish          (StewardRoots   *self,
                                                   GAsyncResult   *result,
                                                   GError        **error);
/* Canonicalises @folder. Returns the new root (transfer none), visible to
 * every server. The folder must be local and a directory. */
StewardRoot   *steward_roots_add                  (StewardRoots   *self,
                                                   GFile          *folder,
                                                   GError        **error);
void           steward_roots_remove               (StewardRoots   *self,
                                                   StewardRoot    *root);
/* (transfer none) (nullable) The root with this canonical path. */
StewardRoot   *steward_roots_lookup               (StewardRoots   *self,
                                                   const char     *canonical_path);
/* TRUE: every server sees @root and its list of servers is emptied.
 * FALSE: only the servers on its list see it; the list starts empty, so
 * to give a root to some servers only, call this first and then
 * set_server_allowed() for each of them. */
void           steward_roots_set_all_servers      (StewardRoots   *self,
                                                   StewardRoot    *root,
                                                   gboolean        all_servers);
/* Edits the list of servers of a root that not every server sees. On a
 * root that every server sees it changes nothing: call
 * set_all_servers (FALSE) first. */
void           steward_roots_set_server_allowed   (StewardRoots   *self,
                                                   StewardRoot    *root,
                                                   const char     *server,
                                                   gboolean        allowed);
/* The `roots/list` result object for @server: {"roots": [{uri, name}…]}. */
JsonObject    *steward_roots_list_for_server      (StewardRoots   *self,
                                                   const char     *server);

/* The canonical absolute path of @path (made absolute against @cwd when
 * relative, or against the current folder when @cwd is NULL; "." and ".."
 * resolved lexically, then symlinks resolved when the path exists), or
 * NULL with STEWARD_ROOTS_ERROR_INVALID when it cannot be. Pure enough to
 * be fuzzed. */
char          *steward_roots_canonicalize         (const char     *path,
                                                   const char     *cwd,
                                                   GError        **error);
/* The same for @length bytes of @path (-1: NUL-terminated), so that an
 * embedded NUL is refused rather than silently cutting the path short. */
char          *steward_roots_canonicalize_len     (const char     *path,
                                                   gssize          length,
                                                   const char     *cwd,
                                                   GError        **error);
/* Whether the person should confirm twice: "/", the home folder itself or
 * one of its parents, a folder holding secrets (~/.ssh, ~/.gnupg,
 * ~/.config, ~/.local/share/keyrings, ~/.aws…), anything inside one or one
 * of its parents, or a system folder (/etc, /root, /var, /usr, /boot,
 * /proc, /sys, /dev, /run). Sets @reason (nullable) to a sentence that
 * names the folder and says what it holds, or NULL. */
gboolean       steward_roots_is_dangerous         (const char     *canonical_path,
                                                   char          **reason);

G_END_DECLS
