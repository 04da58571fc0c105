/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-config.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * Import from other hosts: Claude Desktop's claude_desktop_config.json
 * ("mcpServers") and VS Code's mcp.json ("servers", entries with "type"
 * stdio/http/sse). Parsing gives candidates the person previews (the exact
 * command, which values look secret, whether the name is taken); importing
 * the chosen ones moves the secret-looking values into the keyring when the
 * person agreed, and writes the servers file.
 */

#define STEWARD_TYPE_IMPORT_CANDIDATE (steward_import_candidate_get_type ())

G_DECLARE_FINAL_TYPE (StewardImportCandidate, steward_import_candidate, STEWARD, IMPORT_CANDIDATE, GObject)

typedef enum {
  STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP,
  STEWARD_IMPORT_SOURCE_VSCODE,
} StewardImportSource;

/**
 * StewardImportFlags:
 * @STEWARD_IMPORT_MOVE_SECRETS: store the values that look secret in the
 *   keyring and write references to them instead
 * @STEWARD_IMPORT_ALLOW: the person confirmed the list showing each exact
 *   command, which is their consent for these servers to start: record it
 *   for the very entry written, so that no second question follows
 */
typedef enum {
  STEWARD_IMPORT_NONE         = 0,
  STEWARD_IMPORT_MOVE_SECRETS = 1 << 0,
  STEWARD_IMPORT_ALLOW        = 1 << 1,
} StewardImportFlags;

const char          *steward_import_candidate_get_name        (StewardImportCandidate *self);
StewardServerConfig *steward_import_candidate_get_config      (StewardImportCandidate *self);
/* Names of env variables / headers whose values look secret. */
const char * const  *steward_import_candidate_get_secret_keys (StewardImportCandidate *self);
/* A server with this name exists already (it would be replaced). */
gboolean             steward_import_candidate_get_exists      (StewardImportCandidate *self);
/* Why it cannot be imported (e.g. VS Code "${input:…}" values), or NULL. */
const char          *steward_import_candidate_get_problem     (StewardImportCandidate *self);
/* Whether it is chosen for import (default TRUE unless there is a problem). */
gboolean             steward_import_candidate_get_selected    (StewardImportCandidate *self);
void                 steward_import_candidate_set_selected    (StewardImportCandidate *self,
                                                               gboolean                selected);

/* ~/.config/Claude/claude_desktop_config.json and ~/.config/Code/User/mcp.json. */
GFile               *steward_import_default_file              (StewardImportSource     source);
/* A GListModel of StewardImportCandidate; the format is recognised from
 * the content. */
GListModel          *steward_import_parse                     (StewardConfig          *config,
                                                               const char             *data,
                                                               gsize                   length,
                                                               GError                **error);
/* Imports the selected candidates as @flags say. */
void                 steward_import_apply_async               (StewardConfig          *config,
                                                               StewardSecrets         *secrets,
                                                               GListModel             *candidates,
                                                               StewardImportFlags      flags,
                                                               GCancellable           *cancellable,
                                                               GAsyncReadyCallback     callback,
                                                               gpointer                user_data);
guint                steward_import_apply_finish              (StewardConfig          *config,
                                                               GAsyncResult           *result,
                                                               GError                **error);

G_END_DECLS
