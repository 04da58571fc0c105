/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-config.h"
#include "steward-file-store.h"

G_BEGIN_DECLS

JsonNode *steward_config_parse_json (const char  *data,
                                     gsize        length,
                                     GError     **error);

/* What follows is shared by the files of StewardConfig alone:
 * steward-config.c (the servers file, loading, saving, watching),
 * steward-config-consents.c (consents.json) and steward-config-writer.c
 * (JSON as people write it). */

/* Editors save in bursts (truncate, write, rename, chmod); one reload
 * after the burst is enough. */
#define RELOAD_DELAY_MS 200

struct _StewardConfig
{
  GObject       parent_instance;

  GFile        *file;
  GListStore   *servers;
  /* The top-level object last read, for the members other hosts keep
   * beside "mcpServers". */
  JsonObject   *root;
  /* The bytes last read from the file or written to it: when the file
   * still holds them after a change event, the event was our own write. */
  GBytes       *content;
  /* Writes both files, following links, with mode 0600. */
  StewardFileStore *store;
  guint         saving;       /* saves not yet finished */

  GCancellable *cancellable;
  GFileMonitor *file_monitor;
  GFileMonitor *dir_monitor;
  guint         reload_source;
  gboolean      reloading;
  gboolean      reload_again;

  GFile        *consents_file;
  StewardFileStore *consents_store;
  /* Name → Consent: what the person allowed, as far as we know. */
  GHashTable   *consents;
  /* Name → Consent: recorded but not yet written, and being written. */
  GHashTable   *pending_consents;
  GHashTable   *writing_batch;
  gboolean      writing_consents;
  /* Like content, for consents.json: the bytes last read from it or
   * written to it, NULL when there was no file. */
  GBytes       *consents_content;
  GFileMonitor *consents_monitor;
  /* Seals consents; NULL: nothing read from the file counts. */
  StewardConsentStore *consent_store;
  /* Name → Consent: given while no key was at hand, kept in memory only. */
  GHashTable   *unsealed_consents;
  guint         consents_reload_source;
  gboolean      consents_reloading;
  gboolean      consents_reload_again;
};

enum {
  STEWARD_CONFIG_SIGNAL_CHANGED,
  STEWARD_CONFIG_SIGNAL_LOAD_FAILED,
  STEWARD_CONFIG_SIGNAL_SAVE_FAILED,
  STEWARD_CONFIG_SIGNAL_CONSENTS_CHANGED,
  STEWARD_CONFIG_N_SIGNALS
};

extern guint steward_config_signals[STEWARD_CONFIG_N_SIGNALS];

/* What one read of consents.json found. */
typedef struct {
  /* What the file holds, or NULL when there is none (any more). */
  GBytes     *bytes;
  /* What it says; empty unless the file is good. */
  GHashTable *consents;
  /* Why the file cannot be used, without its name. */
  GError     *error;
  /* The file is missing, good, or was kept aside: a write loses nothing. */
  gboolean    may_replace;
} StewardConsentsRead;

void                 steward_consents_read_free             (StewardConsentsRead  *read);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StewardConsentsRead, steward_consents_read_free)

/* steward-config.c */
char                *steward_config_dup_file_label          (StewardConfig        *self);
const char          *steward_config_describe_node           (JsonNode             *node);
int                  steward_config_compare_name_pointers   (const void           *a,
                                                             const void           *b);
char                *steward_config_describe_parse_error    (const char           *message,
                                                             const char           *data,
                                                             gsize                 length);

/* steward-config-writer.c */
GBytes              *steward_config_object_to_bytes         (JsonObject           *object);
GBytes              *steward_config_serialize_servers       (StewardConfig        *self);

/* steward-config-consents.c */
void                 steward_config_read_consents_async     (GFile                *file,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
StewardConsentsRead *steward_config_read_consents_finish    (GAsyncResult         *result,
                                                             GError              **error);
void                 steward_config_take_consents_read      (StewardConfig        *self,
                                                             StewardConsentsRead  *read,
                                                             gboolean              notify);
void                 steward_config_load_consents_sync      (StewardConfig        *self,
                                                             GCancellable         *cancellable);
void                 steward_config_schedule_consents_reload (StewardConfig       *self);

G_END_DECLS
