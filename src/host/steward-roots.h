/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

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
 * Servers answer it with notifications/roots/list_changed.
 */

#define STEWARD_ROOTS_ERROR (steward_roots_error_quark ())

typedef enum {
  STEWARD_ROOTS_ERROR_NOT_A_FOLDER,   /* missing, or not a directory */
  STEWARD_ROOTS_ERROR_NOT_LOCAL,      /* no local path (a remote GVfs location) */
  STEWARD_ROOTS_ERROR_EXISTS,         /* already a root */
  STEWARD_ROOTS_ERROR_SAVE,           /* roots.json could not be written */
  STEWARD_ROOTS_ERROR_LOAD,           /* roots.json could not be read or parsed */
} StewardRootsError;

#define STEWARD_TYPE_ROOT (steward_root_get_type ())
G_DECLARE_FINAL_TYPE (StewardRoot, steward_root, STEWARD, ROOT, GObject)

#define STEWARD_TYPE_ROOTS (steward_roots_get_type ())
G_DECLARE_FINAL_TYPE (StewardRoots, steward_roots, STEWARD, ROOTS, GObject)

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
gboolean       steward_roots_load                 (StewardRoots   *self,
                                                   GError        **error);
/* Canonicalises @folder. Returns the new root (transfer none). */
StewardRoot   *steward_roots_add                  (StewardRoots   *self,
                                                   GFile          *folder,
                                                   GError        **error);
void           steward_roots_remove               (StewardRoots   *self,
                                                   StewardRoot    *root);
void           steward_roots_set_all_servers      (StewardRoots   *self,
                                                   StewardRoot    *root,
                                                   gboolean        all_servers);
void           steward_roots_set_server_allowed   (StewardRoots   *self,
                                                   StewardRoot    *root,
                                                   const char     *server,
                                                   gboolean        allowed);
/* The `roots/list` result object for @server: {"roots": [{uri, name}…]}. */
JsonObject    *steward_roots_list_for_server      (StewardRoots   *self,
                                                   const char     *server);

/* The canonical absolute path of @path (made absolute against @cwd when
 * relative; "." and ".." resolved lexically, then symlinks resolved when
 * the path exists), or NULL with an error when it cannot be. Pure enough to
 * be fuzzed. */
char          *steward_roots_canonicalize         (const char     *path,
                                                   const char     *cwd,
                                                   GError        **error);
/* Whether the person should confirm twice: "/", the home folder itself, or
 * a folder holding secrets (~/.ssh, ~/.gnupg, ~/.config, ~/.local/share/
 * keyrings, ~/.aws…) or one of its parents. Sets @reason to a sentence. */
gboolean       steward_roots_is_dangerous         (const char     *canonical_path,
                                                   char          **reason);

G_END_DECLS
