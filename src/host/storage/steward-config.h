/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-consent-store.h"
#include "steward-server-config.h"

G_BEGIN_DECLS

/* A servers file is a few kilobytes; anything far larger is a mistake. */
#define STEWARD_CONFIG_MAX_FILE_SIZE (1024 * 1024)

#define STEWARD_CONFIG_ERROR (steward_config_error_quark ())

/**
 * StewardConfigError:
 * @STEWARD_CONFIG_ERROR_NOT_FOUND: the servers file does not exist
 * @STEWARD_CONFIG_ERROR_READ: the file exists but could not be read
 * @STEWARD_CONFIG_ERROR_PARSE: the file is not JSON
 * @STEWARD_CONFIG_ERROR_INVALID: the JSON does not have the expected shape
 * @STEWARD_CONFIG_ERROR_NO_SUCH_SERVER: no server has the name asked for
 * @STEWARD_CONFIG_ERROR_WRITE: the servers or consents file could not be
 *   written
 * @STEWARD_CONFIG_ERROR_CONSENTS: the consents file could not be read, or
 *   was damaged and has been kept aside; no consent in it counts
 */
typedef enum {
  STEWARD_CONFIG_ERROR_NOT_FOUND,
  STEWARD_CONFIG_ERROR_READ,
  STEWARD_CONFIG_ERROR_PARSE,
  STEWARD_CONFIG_ERROR_INVALID,
  STEWARD_CONFIG_ERROR_NO_SUCH_SERVER,
  STEWARD_CONFIG_ERROR_WRITE,
  STEWARD_CONFIG_ERROR_CONSENTS,
} StewardConfigError;

#define STEWARD_TYPE_CONFIG (steward_config_get_type ())

G_DECLARE_FINAL_TYPE (StewardConfig, steward_config, STEWARD, CONFIG, GObject)

GQuark                steward_config_error_quark        (void);
GFile                *steward_config_get_default_file   (void);

StewardConfig        *steward_config_new                (GFile                *file);
GFile                *steward_config_get_file           (StewardConfig        *self);
GListModel           *steward_config_get_servers        (StewardConfig        *self);
StewardServerConfig  *steward_config_lookup             (StewardConfig        *self,
                                                         const char           *name,
                                                         GError              **error);

gboolean              steward_config_load               (StewardConfig        *self,
                                                         GCancellable         *cancellable,
                                                         GError              **error);
void                  steward_config_load_async         (StewardConfig        *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean              steward_config_load_finish        (StewardConfig        *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
gboolean              steward_config_load_from_data     (StewardConfig        *self,
                                                         const char           *data,
                                                         gsize                 length,
                                                         GError              **error);

/* Writing (issue: the desktop app). The file is replaced atomically and
 * keeps top-level keys it does not know. Configs are immutable: to change
 * one, build a new StewardServerConfig and put it. */
void                  steward_config_put_server         (StewardConfig        *self,
                                                         StewardServerConfig  *server);
gboolean              steward_config_remove_server      (StewardConfig        *self,
                                                         const char           *name);
void                  steward_config_save_async         (StewardConfig        *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean              steward_config_save_finish        (StewardConfig        *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* Reloads on external edits (debounced; our own writes are not echoed) and
 * emits "changed" after the servers list changed. A damaged edit keeps the
 * last good list and emits "load-failed" (GError). Only edits made
 * elsewhere emit "changed"; put and remove show in "items-changed".
 * consents.json is followed too: "consents-changed" after a consent was
 * taken back (or given) there. */
void                  steward_config_watch              (StewardConfig        *self);

/* Consent: fingerprints of the commands the person allowed, kept in
 * consents.json beside the servers file, each sealed by @store
 * (steward-consent-store.h) and verified against the entry as it is now
 * whenever asked. An entry whose seal does not verify (written elsewhere,
 * copied from another server, or sealed with another key) counts as no
 * consent. Without a store, or while it has no key, a consent recorded
 * lasts as long as this object and is not written. A damaged
 * consents.json, found by a load, a reload or the next consent written, is
 * renamed to consents.json.damaged (or .damaged-N) and reported by
 * "load-failed" with STEWARD_CONFIG_ERROR_CONSENTS; the consents start
 * empty. */
void                  steward_config_set_consent_store  (StewardConfig        *self,
                                                         StewardConsentStore  *store);
/* Whether a consent recorded now will be remembered after Steward quits. */
gboolean              steward_config_can_remember_consent (StewardConfig      *self);
gboolean              steward_config_has_consent        (StewardConfig        *self,
                                                         StewardServerConfig  *server);
gboolean              steward_config_record_consent     (StewardConfig        *self,
                                                         StewardServerConfig  *server,
                                                         GError              **error);
/* The server config the person last allowed under this name, to show what
 * changed (values that look secret masked); NULL when none. Transfer full.
 * A failed background write of consents.json emits "save-failed" (GError). */
StewardServerConfig  *steward_config_get_consented      (StewardConfig        *self,
                                                         const char           *name);

G_END_DECLS
