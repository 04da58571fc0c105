/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-long-running"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-client-tasks.h"
#include "mcp-json.h"
#include "mcp-message.h"

#include "steward-long-running.h"
#include "steward-server-registry.h"

/* A tools/call sent as an ordinary request, timed against the threshold
 * until its answer comes, it is cancelled, or its client closes. */
typedef struct {
  StewardLongRunning *self;
  McpClient          *client;   /* weak */
  char               *server;
  char               *tool;
  gint64              id;
  guint               source_id;
} Timing;

struct _StewardLongRunning
{
  GObject                parent_instance;

  StewardServerRegistry *registry;
  StewardLogStore       *log_store;
  GFile                 *file;
  GHashTable            *tools;      /* server → GHashTable set of tool names */
  GPtrArray             *timings;    /* Timing */
  GCancellable          *cancellable;
  guint                  threshold;
  gboolean               loaded;
  gboolean               saving;
  gboolean               save_again;
};

enum {
  PROP_0,
  PROP_THRESHOLD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardLongRunning, steward_long_running, G_TYPE_OBJECT)

static void
timing_free (Timing *timing)
{
  g_clear_handle_id (&timing->source_id, g_source_remove);
  g_clear_weak_pointer (&timing->client);
  g_free (timing->server);
  g_free (timing->tool);
  g_free (timing);
}

/* Remembered tools */

static GHashTable *
tools_of (StewardLongRunning *self,
          const char         *server,
          gboolean            create)
{
  GHashTable *set = g_hash_table_lookup (self->tools, server);

  if (set == NULL && create)
    {
      set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_insert (self->tools, g_strdup (server), set);
    }

  return set;
}

static void save (StewardLongRunning *self);

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StewardLongRunning) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_WARNING,
                                      /* Translators: %s says why. */
                                      _("Could not keep the tools that run as tasks: %s"),
                                      error->message);
  self->saving = FALSE;
  if (self->save_again)
    {
      self->save_again = FALSE;
      save (self);
    }
}

/* Written whole and atomically, one write at a time. */
static void
save (StewardLongRunning *self)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GFile) folder = g_file_get_parent (self->file);
  g_autoptr(GList) servers = NULL;
  JsonObject *by_server = json_object_new ();
  char *text;

  if (self->saving)
    {
      self->save_again = TRUE;
      return;
    }

  servers = g_list_sort (g_hash_table_get_keys (self->tools), (GCompareFunc) g_strcmp0);
  for (GList *l = servers; l != NULL; l = l->next)
    {
      g_autoptr(GList) names = g_hash_table_get_keys (tools_of (self, l->data, FALSE));
      JsonArray *array = json_array_new ();

      names = g_list_sort (names, (GCompareFunc) g_strcmp0);
      for (GList *n = names; n != NULL; n = n->next)
        json_array_add_string_element (array, n->data);
      json_object_set_array_member (by_server, l->data, array);
    }
  json_object_set_int_member (root, "version", 1);
  json_object_set_object_member (root, "servers", by_server);
  node = json_node_init_object (json_node_alloc (), root);
  text = json_to_string (node, TRUE);

  g_file_make_directory_with_parents (folder, NULL, NULL);
  self->saving = TRUE;
  g_object_set_data_full (G_OBJECT (self), "steward-long-running-text", text, g_free);
  g_file_replace_contents_async (self->file, text, strlen (text), NULL, FALSE,
                                 G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION,
                                 self->cancellable, saved_cb, g_object_ref (self));
}

/* Timing calls */

static void
drop_timing (StewardLongRunning *self,
             McpClient          *client,
             gint64              id)
{
  for (guint i = 0; i < self->timings->len; i++)
    {
      Timing *timing = g_ptr_array_index (self->timings, i);

      if (timing->client == client && timing->id == id)
        {
          g_ptr_array_remove_index_fast (self->timings, i);
          return;
        }
    }
}

static void
drop_client (StewardLongRunning *self,
             McpClient          *client)
{
  for (guint i = self->timings->len; i > 0; i--)
    {
      Timing *timing = g_ptr_array_index (self->timings, i - 1);

      if (timing->client == client || timing->client == NULL)
        g_ptr_array_remove_index_fast (self->timings, i - 1);
    }
}

static gboolean
threshold_passed_cb (gpointer user_data)
{
  Timing *timing = user_data;
  StewardLongRunning *self = timing->self;
  GHashTable *set;

  timing->source_id = 0;

  /* This call runs on as it was sent; the tool's next ones are tasks. */
  if (timing->client != NULL)
    mcp_client_set_long_running (timing->client, timing->tool, TRUE);

  set = tools_of (self, timing->server, TRUE);
  if (g_hash_table_add (set, g_strdup (timing->tool)))
    {
      /* Translators: a host event; %s is a tool, %u seconds. */
      steward_log_store_add_host_event (self->log_store, timing->server, STEWARD_LOG_LEVEL_INFO,
                                        g_dngettext (GETTEXT_PACKAGE,
                                                     "“%s” ran longer than %u second: its "
                                                     "next calls run as tasks",
                                                     "“%s” ran longer than %u seconds: its "
                                                     "next calls run as tasks",
                                                     self->threshold),
                                        timing->tool, self->threshold);
      save (self);
    }

  g_ptr_array_remove_fast (self->timings, timing);
  return G_SOURCE_REMOVE;
}

static void
trace_cb (McpClient          *client,
          McpTraceDirection   direction,
          McpMessage         *message,
          StewardLongRunning *self)
{
  const char *server = g_object_get_data (G_OBJECT (client), "steward-long-running-server");
  McpMessageKind kind = mcp_message_get_kind (message);
  JsonObject *params = mcp_message_get_params (message);
  const char *tool;
  Timing *timing;
  gint64 id = 0;

  if (direction == MCP_TRACE_INCOMING)
    {
      if ((kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR) &&
          mcp_message_get_int_id (message, &id))
        drop_timing (self, client, id);
      return;
    }

  if (kind == MCP_MESSAGE_NOTIFICATION &&
      g_strcmp0 (mcp_message_get_method (message), "notifications/cancelled") == 0)
    {
      drop_timing (self, client, (gint64) mcp_json_get_number (params, "requestId", 0));
      return;
    }

  if (kind != MCP_MESSAGE_REQUEST || self->threshold == 0 ||
      g_strcmp0 (mcp_message_get_method (message), "tools/call") != 0 ||
      !mcp_message_get_int_id (message, &id) || params == NULL ||
      json_object_has_member (params, "task") ||
      (tool = mcp_json_get_string (params, "name")) == NULL)
    return;

  /* Only a tool that may run either way is worth timing: in 2026-07-28
   * the server decides, and the others have no choice. */
  if (mcp_revision_is_stateless (mcp_client_get_revision (client)) ||
      !mcp_client_tool_allows_task (client, tool) || mcp_client_tool_needs_task (client, tool) ||
      mcp_client_get_long_running (client, tool))
    return;

  timing = g_new0 (Timing, 1);
  timing->self = self;
  g_set_weak_pointer (&timing->client, client);
  timing->server = g_strdup (server);
  timing->tool = g_strdup (tool);
  timing->id = id;
  timing->source_id = g_timeout_add_seconds (self->threshold, threshold_passed_cb, timing);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, timing->source_id),
                            "[steward] long-running threshold");
  g_ptr_array_add (self->timings, timing);
}

static void
closed_cb (McpClient          *client,
           const GError       *error,
           StewardLongRunning *self)
{
  drop_client (self, client);
}

/* Watching servers */

static void
apply (StewardLongRunning *self,
       StewardServer      *server)
{
  McpClient *client = steward_server_get_client (server);
  const char *name = steward_server_get_name (server);
  GHashTable *set;
  GHashTableIter iter;
  const char *tool;

  if (client == NULL)
    return;

  if (g_object_get_data (G_OBJECT (client), "steward-long-running-server") == NULL)
    {
      g_object_set_data_full (G_OBJECT (client), "steward-long-running-server", g_strdup (name),
                              g_free);
      g_signal_connect_object (client, "trace", G_CALLBACK (trace_cb), self, 0);
      g_signal_connect_object (client, "closed", G_CALLBACK (closed_cb), self, 0);
    }

  if (!self->loaded || (set = tools_of (self, name, FALSE)) == NULL)
    return;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, (gpointer *) &tool, NULL))
    mcp_client_set_long_running (client, tool, TRUE);
}

static void
server_client_cb (StewardServer      *server,
                  GParamSpec         *pspec,
                  StewardLongRunning *self)
{
  apply (self, server);
}

static void
watch_servers (StewardLongRunning *self,
               guint               position,
               guint               added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (G_LIST_MODEL (self->registry), i);

      if (g_object_get_data (G_OBJECT (server), "steward-long-running") != NULL)
        continue;
      g_object_set_data (G_OBJECT (server), "steward-long-running", self);
      g_signal_connect_object (server, "notify::client", G_CALLBACK (server_client_cb), self, 0);
      g_signal_connect_object (server, "notify::status", G_CALLBACK (server_client_cb), self, 0);
      apply (self, server);
    }
}

static void
registry_changed_cb (GListModel         *model,
                     guint               position,
                     guint               removed,
                     guint               added,
                     StewardLongRunning *self)
{
  watch_servers (self, position, added);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StewardLongRunning) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *contents = NULL;
  JsonObject *servers = NULL;
  gsize length = 0;

  if (g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      node = mcp_json_parse (contents, length, &error);
      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        servers = mcp_json_get_object (json_node_get_object (node), "servers");
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    /* Translators: %s says why; the file is written again as it changes. */
    steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_WARNING,
                                      _("Could not read the tools that run as tasks: %s"),
                                      error->message);

  if (servers != NULL)
    {
      JsonObjectIter iter;
      const char *server;
      JsonNode *tools;

      json_object_iter_init (&iter, servers);
      while (json_object_iter_next (&iter, &server, &tools))
        {
          if (!JSON_NODE_HOLDS_ARRAY (tools))
            continue;
          for (guint i = 0; i < json_array_get_length (json_node_get_array (tools)); i++)
            {
              JsonNode *element = json_array_get_element (json_node_get_array (tools), i);

              if (JSON_NODE_HOLDS_VALUE (element) &&
                  json_node_get_value_type (element) == G_TYPE_STRING)
                g_hash_table_add (tools_of (self, server, TRUE),
                                  g_strdup (json_node_get_string (element)));
            }
        }
    }

  self->loaded = TRUE;
  watch_servers (self, 0, 0);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->registry)); i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (G_LIST_MODEL (self->registry), i);

      apply (self, server);
    }
}

static void
steward_long_running_dispose (GObject *object)
{
  StewardLongRunning *self = STEWARD_LONG_RUNNING (object);

  g_cancellable_cancel (self->cancellable);
  if (self->timings != NULL)
    g_ptr_array_set_size (self->timings, 0);

  G_OBJECT_CLASS (steward_long_running_parent_class)->dispose (object);
}

static void
steward_long_running_finalize (GObject *object)
{
  StewardLongRunning *self = STEWARD_LONG_RUNNING (object);

  g_clear_object (&self->registry);
  g_clear_object (&self->log_store);
  g_clear_object (&self->file);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->tools, g_hash_table_unref);
  g_clear_pointer (&self->timings, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_long_running_parent_class)->finalize (object);
}

static void
steward_long_running_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardLongRunning *self = STEWARD_LONG_RUNNING (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_long_running_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StewardLongRunning *self = STEWARD_LONG_RUNNING (object);

  switch (prop_id)
    {
    case PROP_THRESHOLD:
      steward_long_running_set_threshold (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_long_running_class_init (StewardLongRunningClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_long_running_dispose;
  object_class->finalize = steward_long_running_finalize;
  object_class->get_property = steward_long_running_get_property;
  object_class->set_property = steward_long_running_set_property;

  properties[PROP_THRESHOLD] =
    g_param_spec_uint ("threshold", NULL, NULL, 0, 24 * 3600,
                       STEWARD_LONG_RUNNING_DEFAULT_THRESHOLD,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_long_running_init (StewardLongRunning *self)
{
  self->tools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_hash_table_unref);
  self->timings = g_ptr_array_new_with_free_func ((GDestroyNotify) timing_free);
  self->cancellable = g_cancellable_new ();
  self->threshold = STEWARD_LONG_RUNNING_DEFAULT_THRESHOLD;
}

/**
 * steward_long_running_new:
 * @file: where the remembered tools are kept
 */
StewardLongRunning *
steward_long_running_new (StewardHost *host,
                          GFile       *file)
{
  StewardLongRunning *self;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (STEWARD_TYPE_LONG_RUNNING, NULL);
  self->registry = g_object_ref (steward_host_get_registry (host));
  self->log_store = g_object_ref (steward_host_get_log_store (host));
  self->file = g_object_ref (file);

  g_signal_connect_object (self->registry, "items-changed", G_CALLBACK (registry_changed_cb),
                           self, 0);
  watch_servers (self, 0, g_list_model_get_n_items (G_LIST_MODEL (self->registry)));
  g_file_load_contents_async (file, self->cancellable, loaded_cb, g_object_ref (self));

  return self;
}

/**
 * steward_long_running_get_for_host:
 *
 * Returns: (transfer none): the host's, kept in its state folder; made on
 *   first use
 */
StewardLongRunning *
steward_long_running_get_for_host (StewardHost *host)
{
  StewardLongRunning *self;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  self = g_object_get_data (G_OBJECT (host), "steward-long-running");
  if (self == NULL)
    {
      g_autoptr(GFile) file = g_file_get_child (steward_host_get_state_dir (host),
                                                "long-running.json");

      self = steward_long_running_new (host, file);
      g_object_set_data_full (G_OBJECT (host), "steward-long-running", self, g_object_unref);
    }

  return self;
}

guint
steward_long_running_get_threshold (StewardLongRunning *self)
{
  g_return_val_if_fail (STEWARD_IS_LONG_RUNNING (self), 0);

  return self->threshold;
}

/* Calls already being timed keep the threshold they started with. */
void
steward_long_running_set_threshold (StewardLongRunning *self,
                                    guint               seconds)
{
  g_return_if_fail (STEWARD_IS_LONG_RUNNING (self));

  if (self->threshold == seconds)
    return;
  self->threshold = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THRESHOLD]);
}

/* Returns: whether calls of @tool on @server run as tasks because one ran
 *   past the threshold */
gboolean
steward_long_running_contains (StewardLongRunning *self,
                               const char         *server,
                               const char         *tool)
{
  GHashTable *set;

  g_return_val_if_fail (STEWARD_IS_LONG_RUNNING (self), FALSE);

  set = tools_of (self, server, FALSE);
  return set != NULL && g_hash_table_contains (set, tool);
}
