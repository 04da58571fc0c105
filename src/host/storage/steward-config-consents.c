/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-config"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-config-private.h"

/* consents.json: which servers the person allowed to start, read,
 * merged and written beside the servers file, and watched. */

/* Consents files hold a few lines per server: anything far larger, or
 * anything that is not a JSON object, is damage. A damaged file counts as
 * no consent at all: every server then asks again, which is the safe way
 * to be wrong. Entries that cannot be read are left out. */
static GHashTable *
parse_consents (const char  *data,
                gsize        length,
                GError     **error)
{
  g_autoptr(GHashTable) consents = steward_consent_table_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *detail = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  gsize blank = 0;

  /* An emptied file is a person taking every consent back, not damage. */
  while (blank < length && g_ascii_isspace (data[blank]))
    blank++;
  if (blank == length)
    return g_steal_pointer (&consents);

  if (length > STEWARD_CONFIG_MAX_FILE_SIZE)
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS,
                   _("the file is larger than %u KiB, far more than a list of consents needs"),
                   STEWARD_CONFIG_MAX_FILE_SIZE / 1024);
      return NULL;
    }

  root = mcp_json_parse (data, (gssize) length, &local_error);
  if (root == NULL)
    {
      detail = steward_config_describe_parse_error (local_error->message, data, length);
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS,
                   _("the file is not valid JSON: %s"), detail);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS,
                   _("the file must hold a JSON object, not %s"), steward_config_describe_node (root));
      return NULL;
    }

  json_object_iter_init_ordered (&iter, json_node_get_object (root));
  while (json_object_iter_next_ordered (&iter, &name, &node))
    {
      StewardConsent *consent = steward_consent_new_from_json (name, node);

      if (consent != NULL)
        g_hash_table_replace (consents, g_strdup (name), consent);
    }

  return g_steal_pointer (&consents);
}

static GHashTable *
copy_consents (GHashTable *consents)
{
  GHashTable *copy = steward_consent_table_new ();
  GHashTableIter iter;
  gpointer name;
  gpointer consent;

  g_hash_table_iter_init (&iter, consents);
  while (g_hash_table_iter_next (&iter, &name, &consent))
    g_hash_table_insert (copy, g_strdup (name), steward_consent_ref (consent));

  return copy;
}

/* Whether the same servers have consent, for the same commands. */
static gboolean
consents_equal (GHashTable *a,
                GHashTable *b)
{
  GHashTableIter iter;
  gpointer name;
  gpointer consent;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &name, &consent))
    {
      if (!steward_consent_equal (consent, g_hash_table_lookup (b, name)))
        return FALSE;
    }

  return TRUE;
}

void
steward_consents_read_free (StewardConsentsRead *read)
{
  g_clear_pointer (&read->bytes, g_bytes_unref);
  g_clear_pointer (&read->consents, g_hash_table_unref);
  g_clear_error (&read->error);
  g_free (read);
}

/* Reads consents.json, at most one byte more than allowed, and keeps it
 * aside when damaged. Runs on a worker, or in steward_config_load(). */
static StewardConsentsRead *
read_consents (GFile        *file,
               GCancellable *cancellable)
{
  g_autoptr(StewardConsentsRead) read = g_new0 (StewardConsentsRead, 1);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) move_error = NULL;
  g_autoptr(GHashTable) consents = NULL;
  g_autoptr(GFile) aside = NULL;
  g_autofree char *buffer = NULL;
  g_autofree char *aside_name = NULL;
  gsize length = 0;

  stream = g_file_read (file, cancellable, &error);
  if (stream != NULL)
    {
      buffer = g_malloc (STEWARD_CONFIG_MAX_FILE_SIZE + 1);
      g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, STEWARD_CONFIG_MAX_FILE_SIZE + 1,
                               &length, cancellable, &error);
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      read->consents = steward_consent_table_new ();
      read->may_replace = TRUE;
      return g_steal_pointer (&read);
    }

  if (error != NULL)
    {
      read->consents = steward_consent_table_new ();
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        read->error = g_steal_pointer (&error);
      else
        read->error = g_error_new (STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS,
                                   _("cannot read the file: %s"), error->message);
      return g_steal_pointer (&read);
    }

  read->bytes = g_bytes_new_take (g_realloc (g_steal_pointer (&buffer), MAX (length, 1)), length);
  consents = parse_consents (g_bytes_get_data (read->bytes, NULL), length, &error);
  if (consents != NULL)
    {
      read->consents = g_steal_pointer (&consents);
      read->may_replace = TRUE;
      return g_steal_pointer (&read);
    }

  read->consents = steward_consent_table_new ();
  aside = steward_file_store_move_aside (file, cancellable, &move_error);
  if (aside == NULL)
    {
      read->error = g_error_new (STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS,
                                 _("%s; it could not be kept aside (%s), so it is left as it is "
                                   "and no consent is saved until it is mended"),
                                 error->message, move_error->message);
      return g_steal_pointer (&read);
    }

  aside_name = g_file_get_parse_name (aside);
  read->error = g_error_new (STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS,
                             _("%s; it was kept as %s, and every server will ask again"),
                             error->message, aside_name);
  g_clear_pointer (&read->bytes, g_bytes_unref);
  read->may_replace = TRUE;

  return g_steal_pointer (&read);
}

static void
read_consents_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  g_task_return_pointer (task, read_consents (task_data, cancellable),
                         (GDestroyNotify) steward_consents_read_free);
}

/* No source object: a read under way holds no reference to the config,
 * and callbacks check for cancellation (dispose) before they touch it. */
void
steward_config_read_consents_async (GFile               *file,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, steward_config_read_consents_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, read_consents_thread);
}

/* Fails only when cancelled; what the read found is in the result. */
StewardConsentsRead *
steward_config_read_consents_finish (GAsyncResult  *result,
                                     GError       **error)
{
  StewardConsentsRead *read = g_task_propagate_pointer (G_TASK (result), error);

  if (read != NULL && g_error_matches (read->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&read->error));
      g_clear_pointer (&read, steward_consents_read_free);
    }

  return read;
}

static void
report_consents_failed (StewardConfig *self,
                        const GError  *reason)
{
  g_autofree char *label = g_file_get_parse_name (self->consents_file);
  g_autoptr(GError) error = g_error_new (reason->domain, reason->code, "%s: %s",
                                         label, reason->message);

  g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_LOAD_FAILED], 0, error);
}

/* Makes what consents.json says the consents: a consent taken out of the
 * file elsewhere is taken back here too. What was recorded but not
 * written yet is newer than the file and stays. Emits "consents-changed"
 * when @notify and a server's consent came, went or changed. */
static void
apply_consents (StewardConfig *self,
                GHashTable    *file_consents,
                gboolean       notify)
{
  g_autoptr(GHashTable) consents = copy_consents (file_consents);
  GHashTableIter iter;
  gpointer name;
  gpointer consent;
  gboolean changed;

  if (self->writing_batch != NULL)
    {
      g_hash_table_iter_init (&iter, self->writing_batch);
      while (g_hash_table_iter_next (&iter, &name, &consent))
        g_hash_table_replace (consents, g_strdup (name), steward_consent_ref (consent));
    }

  g_hash_table_iter_init (&iter, self->pending_consents);
  while (g_hash_table_iter_next (&iter, &name, &consent))
    g_hash_table_replace (consents, g_strdup (name), steward_consent_ref (consent));

  changed = !consents_equal (self->consents, consents);
  g_clear_pointer (&self->consents, g_hash_table_unref);
  self->consents = g_steal_pointer (&consents);

  if (notify && changed)
    g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_CONSENTS_CHANGED], 0);
}

/* Takes in what a read found: the damage reported, the consents it
 * holds. */
void
steward_config_take_consents_read (StewardConfig       *self,
                                   StewardConsentsRead *read,
                                   gboolean             notify)
{
  g_clear_pointer (&self->consents_content, g_bytes_unref);
  self->consents_content = read->bytes ? g_bytes_ref (read->bytes) : NULL;

  apply_consents (self, read->consents, notify);

  if (read->error != NULL)
    report_consents_failed (self, read->error);
}

static void write_consents (StewardConfig *self);

/* consents.json is read for a reload or written by one of us at a time;
 * what waited for the file goes next. */
static void
consents_file_released (StewardConfig *self,
                        gboolean       write_pending)
{
  if (write_pending)
    write_consents (self);

  if (!self->writing_consents && self->consents_reload_again)
    {
      self->consents_reload_again = FALSE;
      steward_config_schedule_consents_reload (self);
    }
}

static GBytes *
serialize_consents (GHashTable *consents)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autofree const char **names = NULL;
  guint n_names;

  names = (const char **) g_hash_table_get_keys_as_array (consents, &n_names);
  qsort (names, n_names, sizeof (char *), steward_config_compare_name_pointers);

  for (guint i = 0; i < n_names; i++)
    {
      StewardConsent *consent = g_hash_table_lookup (consents, names[i]);

      json_object_set_object_member (root, names[i], steward_consent_to_json (consent));
    }

  return steward_config_object_to_bytes (root);
}

typedef struct {
  StewardConfig *self;
  GHashTable    *batch;
  GBytes        *bytes;
} ConsentWrite;

static void
consent_write_free (ConsentWrite *write)
{
  g_clear_object (&write->self);
  g_clear_pointer (&write->batch, g_hash_table_unref);
  g_clear_pointer (&write->bytes, g_bytes_unref);
  g_free (write);
}

/* Puts back what could not be written, unless something newer was
 * recorded meanwhile, so the next consent tries again. */
static void
consent_write_failed (ConsentWrite *write,
                      GError       *error)
{
  StewardConfig *self = write->self;
  g_autoptr(GError) shown = NULL;
  g_autofree char *label = g_file_get_parse_name (self->consents_file);
  GHashTableIter iter;
  gpointer name;
  gpointer consent;

  g_hash_table_iter_init (&iter, write->batch);
  while (g_hash_table_iter_next (&iter, &name, &consent))
    if (!g_hash_table_contains (self->pending_consents, name))
      g_hash_table_insert (self->pending_consents, g_strdup (name), steward_consent_ref (consent));

  self->writing_consents = FALSE;
  g_clear_pointer (&self->writing_batch, g_hash_table_unref);
  shown = g_error_new (STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_WRITE,
                       _("%s: cannot save which servers may start: %s"), label, error->message);
  g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_SAVE_FAILED], 0, shown);
}

static void
consents_written_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  ConsentWrite *write = user_data;
  StewardConfig *self = write->self;
  g_autoptr(GError) error = NULL;

  if (!steward_file_store_save_finish (STEWARD_FILE_STORE (object), result, &error))
    consent_write_failed (write, error);
  else
    {
      /* The change events of this write are not edits made elsewhere. */
      g_clear_pointer (&self->consents_content, g_bytes_unref);
      self->consents_content = g_bytes_ref (write->bytes);
      self->writing_consents = FALSE;
      g_clear_pointer (&self->writing_batch, g_hash_table_unref);
    }

  consents_file_released (self, error == NULL);
  consent_write_free (write);
}

static void
consents_read_for_write_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  ConsentWrite *write = user_data;
  StewardConfig *self = write->self;
  g_autoptr(StewardConsentsRead) read = NULL;
  g_autoptr(GHashTable) merged = NULL;
  GHashTableIter iter;
  gpointer name;
  gpointer consent;

  /* Writes are never cancelled: a consent given just before the window
   * closed is still written. */
  read = steward_config_read_consents_finish (result, NULL);

  /* A file that cannot be read, or kept aside, is not replaced. */
  if (!read->may_replace)
    {
      consent_write_failed (write, read->error);
      consents_file_released (self, FALSE);
      consent_write_free (write);
      return;
    }

  /* Merging with what the file holds now keeps consents recorded
   * elsewhere, by another window or before this config was loaded, and
   * leaves out those taken back there. */
  steward_config_take_consents_read (self, read, TRUE);

  merged = copy_consents (read->consents);
  g_hash_table_iter_init (&iter, write->batch);
  while (g_hash_table_iter_next (&iter, &name, &consent))
    g_hash_table_replace (merged, g_strdup (name), steward_consent_ref (consent));

  write->bytes = serialize_consents (merged);
  steward_file_store_save_async (self->consents_store, write->bytes, NULL, consents_written_cb,
                                 write);
}

/* One write at a time, each with everything recorded until it starts. The
 * write holds a reference, so that a consent given just before the window
 * closed is still written. */
static void
write_consents (StewardConfig *self)
{
  ConsentWrite *write;

  if (self->writing_consents || self->consents_reloading ||
      g_hash_table_size (self->pending_consents) == 0)
    return;

  self->writing_consents = TRUE;
  write = g_new0 (ConsentWrite, 1);
  write->self = g_object_ref (self);
  write->batch = g_steal_pointer (&self->pending_consents);
  self->pending_consents = steward_consent_table_new ();
  self->writing_batch = g_hash_table_ref (write->batch);

  steward_config_read_consents_async (self->consents_file, NULL, consents_read_for_write_cb, write);
}

void
steward_config_load_consents_sync (StewardConfig *self,
                                   GCancellable  *cancellable)
{
  g_autoptr(StewardConsentsRead) read = read_consents (self->consents_file, cancellable);

  if (g_error_matches (read->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  steward_config_take_consents_read (self, read, FALSE);
}

static void
consents_reloaded_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(StewardConfig) self = NULL;
  g_autoptr(StewardConsentsRead) read = NULL;
  g_autoptr(GError) error = NULL;
  gboolean unchanged;

  read = steward_config_read_consents_finish (result, &error);
  if (read == NULL)
    return;

  /* Held, as a handler may drop the last other reference. */
  self = g_object_ref (STEWARD_CONFIG (user_data));
  self->consents_reloading = FALSE;

  /* The file as we last read or wrote it is no edit made elsewhere. The
   * same damage, left where it was, is reported once; a damaged file kept
   * aside reads as missing afterwards. */
  if (read->bytes == NULL)
    unchanged = read->error == NULL && self->consents_content == NULL;
  else
    unchanged = self->consents_content != NULL &&
                g_bytes_equal (read->bytes, self->consents_content);

  if (!unchanged)
    steward_config_take_consents_read (self, read, TRUE);

  consents_file_released (self, TRUE);
}

static gboolean
consents_reload_cb (gpointer user_data)
{
  StewardConfig *self = user_data;

  self->consents_reload_source = 0;

  /* Our own write is under way: the file is read again once it is done. */
  if (self->consents_reloading || self->writing_consents)
    {
      self->consents_reload_again = TRUE;
      return G_SOURCE_REMOVE;
    }

  self->consents_reloading = TRUE;
  steward_config_read_consents_async (self->consents_file, self->cancellable, consents_reloaded_cb, self);
  return G_SOURCE_REMOVE;
}

void
steward_config_schedule_consents_reload (StewardConfig *self)
{
  g_clear_handle_id (&self->consents_reload_source, g_source_remove);
  self->consents_reload_source = g_timeout_add (RELOAD_DELAY_MS, consents_reload_cb, self);
}

/* Consent */

static void
consent_key_state_cb (StewardConfig       *self,
                      GParamSpec          *pspec,
                      StewardConsentStore *store)
{
  /* With a key, what the file holds may verify now; without, it no longer
   * does. Either way servers ask again. */
  g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_CONSENTS_CHANGED], 0);
}

/**
 * steward_config_set_consent_store:
 * @store: (nullable): what seals consents
 *
 * Consents read from the file count only once @store has a key and their
 * seals verify; "consents-changed" is emitted when its key comes or goes.
 */
void
steward_config_set_consent_store (StewardConfig       *self,
                                  StewardConsentStore *store)
{
  g_return_if_fail (STEWARD_IS_CONFIG (self));
  g_return_if_fail (store == NULL || STEWARD_IS_CONSENT_STORE (store));

  if (self->consent_store == store)
    return;

  if (self->consent_store != NULL)
    g_signal_handlers_disconnect_by_data (self->consent_store, self);
  g_set_object (&self->consent_store, store);
  if (store != NULL)
    g_signal_connect_object (store, "notify::state", G_CALLBACK (consent_key_state_cb), self,
                             G_CONNECT_SWAPPED);
}

gboolean
steward_config_can_remember_consent (StewardConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);

  return self->consent_store != NULL &&
         steward_consent_store_get_state (self->consent_store) == STEWARD_CONSENT_KEY_READY;
}

/**
 * steward_config_has_consent:
 * @server: a server's entry
 *
 * The fingerprint is computed from @server as it is now, and must be the
 * one sealed under this name: the fingerprint the file states is not
 * believed.
 *
 * Returns: whether the person allowed this server, under this name, with
 *   this command, arguments, folder, environment, URL and header names
 */
gboolean
steward_config_has_consent (StewardConfig       *self,
                            StewardServerConfig *server)
{
  g_autofree char *fingerprint = NULL;
  const char *name;
  StewardConsent *consent;

  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (server), FALSE);

  name = steward_server_config_get_name (server);
  fingerprint = steward_server_config_dup_fingerprint (server);

  consent = g_hash_table_lookup (self->unsealed_consents, name);
  if (consent != NULL && g_str_equal (fingerprint, consent->fingerprint))
    return TRUE;

  consent = g_hash_table_lookup (self->consents, name);
  return consent != NULL && steward_consent_verifies (consent, self->consent_store, name,
                                                      fingerprint);
}

/**
 * steward_config_record_consent:
 * @server: the entry the person allowed
 *
 * Remembers the consent at once and writes consents.json in the
 * background, atomically, merged with what the file holds; a failed write
 * emits #StewardConfig::save-failed. Without a key to seal it, the consent
 * is kept in memory only (steward_config_can_remember_consent()). The
 * entry is kept for
 * steward_config_get_consented(), with values that look secret masked.
 *
 * Returns: %TRUE
 */
gboolean
steward_config_record_consent (StewardConfig        *self,
                               StewardServerConfig  *server,
                               GError              **error)
{
  const char *name;
  StewardConsent *consent;

  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (server), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  name = steward_server_config_get_name (server);
  consent = steward_consent_new (self->consent_store, server);

  /* Unsealed, it would not verify when read back: it lasts for this run. */
  if (consent->seal == NULL)
    {
      g_hash_table_replace (self->unsealed_consents, g_strdup (name), consent);
      return TRUE;
    }

  g_hash_table_remove (self->unsealed_consents, name);
  g_hash_table_replace (self->pending_consents, g_strdup (name), steward_consent_ref (consent));
  g_hash_table_replace (self->consents, g_strdup (name), consent);

  write_consents (self);
  return TRUE;
}

/**
 * steward_config_get_consented:
 * @name: a server's name
 *
 * Returns: (transfer full) (nullable): the entry the person last allowed
 *   under @name, values that look secret masked, or %NULL
 */
StewardServerConfig *
steward_config_get_consented (StewardConfig *self,
                              const char    *name)
{
  StewardConsent *consent;

  g_return_val_if_fail (STEWARD_IS_CONFIG (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  consent = g_hash_table_lookup (self->unsealed_consents, name);
  if (consent != NULL && consent->server != NULL)
    return g_object_ref (consent->server);

  /* What an entry shows counts only when Steward wrote it. */
  consent = g_hash_table_lookup (self->consents, name);
  if (consent == NULL || consent->server == NULL ||
      !steward_consent_verifies (consent, self->consent_store, name, consent->fingerprint))
    return NULL;

  return g_object_ref (consent->server);
}
