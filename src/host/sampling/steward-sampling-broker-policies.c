/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-file-store.h"

#include "steward-sampling-broker-private.h"

/* policies.json: each configured server's StewardSamplingSettings, read
 * and written whole through a StewardFileStore (steward-sampling-broker.h
 * shows the shape). */

/* policies.json holds a few lines per server. */
#define POLICIES_MAX_FILE_SIZE (1024 * 1024)

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* A tree of its own, which the store turns into text on its worker. */
static JsonNode *
serialize_policies (StewardSamplingBroker *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  StewardSamplingServerState *state;

  g_hash_table_iter_init (&iter, self->servers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &state))
    if (steward_sampling_settings_get_configured (state->settings))
      g_ptr_array_add (names, state->name);
  /* Sorted, so that a file under version control changes little. */
  g_ptr_array_sort (names, compare_names);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "servers");
  json_builder_begin_object (builder);
  for (guint i = 0; i < names->len; i++)
    {
      StewardSamplingSettings *settings;
      StewardSamplingPolicy policy;
      const char * const *models;

      state = g_hash_table_lookup (self->servers, g_ptr_array_index (names, i));
      settings = state->settings;
      models = steward_sampling_settings_get_models (settings);
      /* "Allow for this session" ends with the session: it is kept as
       * "ask", what the server gets when Steward starts again. */
      policy = steward_sampling_settings_get_policy (settings);
      if (policy == STEWARD_SAMPLING_POLICY_ALLOW_SESSION)
        policy = STEWARD_SAMPLING_POLICY_ASK;

      json_builder_set_member_name (builder, state->name);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "sampling");
      json_builder_add_string_value (builder, steward_sampling_policy_to_string (policy));
      json_builder_set_member_name (builder, "maxTokens");
      json_builder_add_int_value (builder, steward_sampling_settings_get_max_tokens (settings));
      json_builder_set_member_name (builder, "perMinute");
      json_builder_add_int_value (builder, steward_sampling_settings_get_per_minute (settings));
      json_builder_set_member_name (builder, "dailyTokens");
      json_builder_add_int_value (builder, steward_sampling_settings_get_daily_tokens (settings));
      if (models != NULL)
        {
          json_builder_set_member_name (builder, "models");
          json_builder_begin_array (builder);
          for (guint j = 0; models[j] != NULL; j++)
            json_builder_add_string_value (builder, models[j]);
          json_builder_end_array (builder);
        }
      if (steward_sampling_settings_get_local_only (settings))
        {
          json_builder_set_member_name (builder, "localOnly");
          json_builder_add_boolean_value (builder, TRUE);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

typedef struct {
  char                  *name;
  StewardSamplingPolicy  policy;
  guint                  max_tokens;
  guint                  per_minute;
  guint                  daily_tokens;
  char                 **models;
  gboolean               local_only;
} Entry;

static void
entry_free (Entry *entry)
{
  g_free (entry->name);
  g_strfreev (entry->models);
  g_free (entry);
}

/* "models": model ids, or null for all. */
static gboolean
read_models (JsonObject   *object,
             const char   *server,
             char       ***models,
             GError      **error)
{
  JsonNode *node = json_object_get_member (object, "models");
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("server `%s`: “models” must be a list of model ids"), server);
      return FALSE;
    }

  builder = g_strv_builder_new ();
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("server `%s`: “models” must be a list of model ids"), server);
          return FALSE;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  *models = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
read_flag (JsonObject  *object,
           const char  *server,
           const char  *member,
           gboolean    *value,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("server `%s`: “%s” must be true or false"), server, member);
      return FALSE;
    }

  *value = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
read_setting (JsonObject  *object,
              const char  *server,
              const char  *member,
              guint        minimum,
              guint       *value,
              GError     **error)
{
  gint64 number;

  if (!json_object_has_member (object, member))
    return TRUE;

  if (!mcp_json_get_int64 (object, member, G_MININT64, G_MAXINT64, &number) ||
      number < minimum || number > G_MAXUINT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("server `%s`: “%s” must be a whole number from %u to %u"),
                   server, member, minimum, G_MAXUINT);
      return FALSE;
    }

  *value = (guint) number;
  return TRUE;
}

static GPtrArray *
parse_policies (JsonObject  *root,
                GError     **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  JsonObject *servers;
  JsonNode *servers_node;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  servers_node = json_object_get_member (root, "servers");
  if (servers_node == NULL)
    return g_steal_pointer (&entries);

  if (!JSON_NODE_HOLDS_OBJECT (servers_node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("“servers” must be an object"));
      return NULL;
    }

  servers = json_node_get_object (servers_node);
  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &node))
    {
      Entry *entry;
      JsonObject *object;
      const char *policy;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("server `%s`: must be an object"), name);
          return NULL;
        }

      object = json_node_get_object (node);
      entry = g_new0 (Entry, 1);
      entry->name = g_strdup (name);
      entry->policy = STEWARD_SAMPLING_POLICY_ASK;
      entry->max_tokens = STEWARD_SAMPLING_DEFAULT_MAX_TOKENS;
      entry->per_minute = STEWARD_SAMPLING_DEFAULT_PER_MINUTE;
      entry->daily_tokens = STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS;
      g_ptr_array_add (entries, entry);

      if (json_object_has_member (object, "sampling"))
        {
          policy = mcp_json_get_string (object, "sampling");
          if (policy == NULL || !steward_sampling_policy_from_string (policy, &entry->policy))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("server `%s`: “sampling” must be “deny”, “ask” or “always”"),
                           name);
              return NULL;
            }
          /* A session's allowance never comes back from a file. */
          if (entry->policy == STEWARD_SAMPLING_POLICY_ALLOW_SESSION)
            entry->policy = STEWARD_SAMPLING_POLICY_ASK;
        }

      if (!read_setting (object, name, "maxTokens", 1, &entry->max_tokens, error) ||
          !read_setting (object, name, "perMinute", 0, &entry->per_minute, error) ||
          !read_setting (object, name, "dailyTokens", 0, &entry->daily_tokens, error) ||
          !read_models (object, name, &entry->models, error) ||
          !read_flag (object, name, "localOnly", &entry->local_only, error))
        return NULL;
    }

  return g_steal_pointer (&entries);
}

static gboolean
apply_policies (StewardSamplingBroker  *self,
                JsonObject             *root,
                GError                **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) local_error = NULL;
  GHashTableIter iter;
  StewardSamplingServerState *state;

  entries = parse_policies (root, &local_error);
  if (entries == NULL)
    {
      g_autofree char *label = g_file_get_parse_name (self->policies);

      g_set_error (error, local_error->domain, local_error->code,
                   "%s: %s", label, local_error->message);
      return FALSE;
    }

  /* The file says everything: a server it leaves out has the defaults. */
  self->loading = TRUE;
  g_hash_table_iter_init (&iter, self->servers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &state))
    steward_sampling_settings_reset (state->settings);

  for (guint i = 0; i < entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (entries, i);
      StewardSamplingSettings *settings;

      settings = steward_sampling_broker_get_settings (self, entry->name);
      steward_sampling_settings_set_policy (settings, entry->policy);
      steward_sampling_settings_set_max_tokens (settings, entry->max_tokens);
      steward_sampling_settings_set_per_minute (settings, entry->per_minute);
      steward_sampling_settings_set_daily_tokens (settings, entry->daily_tokens);
      steward_sampling_settings_set_models (settings, (const char * const *) entry->models);
      steward_sampling_settings_set_local_only (settings, entry->local_only);
    }
  self->loading = FALSE;

  return TRUE;
}

/* What the read of policies.json found: the policies applied, or the
 * error the load answers with. A file that is not there is no error, and
 * one the store refused (too large, not JSON, not an object) is damaged. */
static gboolean
apply_read (StewardSamplingBroker  *self,
            JsonObject             *root,
            GError                 *read_error,
            GError                **error)
{
  g_autoptr(JsonObject) empty = NULL;

  if (g_error_matches (read_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    root = empty = json_object_new ();
  else if (read_error != NULL && read_error->domain == STEWARD_FILE_STORE_ERROR)
    {
      /* The store's sentence names the file. */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, read_error->message);
      return FALSE;
    }
  else if (read_error != NULL)
    {
      g_autofree char *label = g_file_get_parse_name (self->policies);

      g_set_error (error, G_IO_ERROR,
                   read_error->domain == G_IO_ERROR ? read_error->code : G_IO_ERROR_FAILED,
                   _("Cannot read the sampling policies %s: %s"), label, read_error->message);
      return FALSE;
    }

  return apply_policies (self, root, error);
}

static gboolean
autosave_cb (gpointer user_data)
{
  StewardSamplingBroker *self = user_data;
  g_autoptr(JsonNode) root = serialize_policies (self);

  self->save_source_id = 0;
  steward_file_store_save_json (self->policies_store, root);

  return G_SOURCE_REMOVE;
}

static void
write_failed_cb (StewardSamplingBroker *self,
                 const GError          *error)
{
  g_autofree char *label = g_file_get_parse_name (self->policies);

  g_warning (_("Cannot save the sampling policies to %s: %s"), label, error->message);
}

/* Changes made together are written together, once the main loop is idle.
 * The source holds the broker so that no change is lost when it goes. What
 * a load sets came from the file, and is not written back. */
void
steward_sampling_broker_settings_changed (StewardSamplingBroker *self)
{
  if (self->loading)
    return;

  if (self->policies_store != NULL && self->save_source_id == 0)
    self->save_source_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, autosave_cb,
                                            g_object_ref (self), g_object_unref);
}

void
steward_sampling_broker_set_policies_file (StewardSamplingBroker *self,
                                           GFile                 *policies)
{
  self->policies = policies ? g_object_ref (policies) : NULL;
  if (policies == NULL)
    return;

  self->policies_store = steward_file_store_new (policies, POLICIES_MAX_FILE_SIZE,
                                                 STEWARD_FILE_STORE_PRIVATE |
                                                 STEWARD_FILE_STORE_PRETTY);
  g_signal_connect_object (self->policies_store, "write-failed",
                           G_CALLBACK (write_failed_cb), self, G_CONNECT_SWAPPED);
}

gboolean
steward_sampling_broker_load (StewardSamplingBroker  *self,
                              GError                **error)
{
  gboolean loaded = TRUE;

  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), FALSE);

  if (self->policies_store != NULL)
    {
      g_autoptr(JsonObject) root = NULL;
      g_autoptr(GError) read_error = NULL;

      root = steward_file_store_load (self->policies_store, NULL, &read_error);
      loaded = apply_read (self, root, read_error, error);
    }

  /* Damaged policies leave the defaults, and today's spending counts
   * against those too. */
  steward_sampling_journal_recount (self->journal);

  return loaded;
}

/* The load's answer is the policies'; the task data holds their error. */
static void
load_return (GTask *task)
{
  const GError *error = g_task_get_task_data (task);

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
load_budget_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_sampling_journal_recount_finish (STEWARD_SAMPLING_JOURNAL (object), result,
                                               &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    load_return (task);
}

static void
load_budget (GTask *task)
{
  StewardSamplingBroker *self = g_task_get_source_object (task);

  steward_sampling_journal_recount_async (self->journal, g_task_get_cancellable (task),
                                          load_budget_cb, task);
}

static void
load_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GError) error = NULL;
  GError *policies_error = NULL;

  root = steward_file_store_load_finish (STEWARD_FILE_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!apply_read (self, root, error, &policies_error))
    g_task_set_task_data (task, policies_error, (GDestroyNotify) g_error_free);

  load_budget (g_steal_pointer (&task));
}

/* Reads policies.json, then counts the tokens each server spent today
 * from the journal, both on workers. */
void
steward_sampling_broker_load_async (StewardSamplingBroker *self,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_load_async);

  if (self->policies_store == NULL)
    {
      load_budget (g_steal_pointer (&task));
      return;
    }

  steward_file_store_load_async (self->policies_store, cancellable, load_read_cb,
                                 g_steal_pointer (&task));
}

gboolean
steward_sampling_broker_load_finish (StewardSamplingBroker  *self,
                                     GAsyncResult           *result,
                                     GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_load_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (steward_file_store_flush_finish (STEWARD_FILE_STORE (object), result, &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    {
      g_autofree char *label = g_file_get_parse_name (self->policies);

      g_task_return_new_error (task, G_IO_ERROR,
                               error->domain == G_IO_ERROR ? error->code : G_IO_ERROR_FAILED,
                               _("Cannot save the sampling policies to %s: %s"),
                               label, error->message);
    }
}

void
steward_sampling_broker_save_async (StewardSamplingBroker *self,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_save_async);

  if (self->policies_store == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* Now, with every change so far: the idle save has nothing left to do. */
  g_clear_handle_id (&self->save_source_id, g_source_remove);
  root = serialize_policies (self);
  steward_file_store_save_json (self->policies_store, root);
  steward_file_store_flush_async (self->policies_store, cancellable, save_cb,
                                  g_steal_pointer (&task));
}

gboolean
steward_sampling_broker_save_finish (StewardSamplingBroker  *self,
                                     GAsyncResult           *result,
                                     GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_save_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * steward_sampling_broker_get_policies:
 *
 * Returns: (transfer none) (nullable): policies.json
 */
GFile *
steward_sampling_broker_get_policies (StewardSamplingBroker *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), NULL);

  return self->policies;
}
