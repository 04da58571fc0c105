/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-registry"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-config.h"
#include "steward-log-store.h"

#include "steward-server-registry.h"

/* Stopping every server never takes longer than this, even if one of
 * them does not say it stopped. */
#define STOP_ALL_TIMEOUT_MS 5000

/**
 * StewardServerRegistry:
 *
 * The servers of the servers file, one StewardServer per entry, sorted by
 * name. An entry that stays keeps its StewardServer object, so that what
 * shows it (a page, a row) keeps showing it across edits.
 */
struct _StewardServerRegistry
{
  GObject               parent_instance;

  StewardServerContext *context;
  StewardConfig        *config;
  StewardLogStore      *log_store;
  GPtrArray            *servers;  /* StewardServer, sorted by name */
  /* The config is followed once the host synced the first time, after
   * it loaded the files. */
  gboolean              following;
};

static void steward_server_registry_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardServerRegistry, steward_server_registry, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_server_registry_list_model_init))

static int
compare_names (const char *a,
               const char *b)
{
  int order = g_utf8_collate (a, b);

  /* Collation may tie names that differ; the bytes decide then. */
  return order != 0 ? order : strcmp (a, b);
}

/* Where a server of this name is, or would go. */
static guint
find_position (StewardServerRegistry *self,
               const char            *name,
               gboolean              *found)
{
  guint low = 0;
  guint high = self->servers->len;

  *found = FALSE;
  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      StewardServer *server = g_ptr_array_index (self->servers, middle);
      int order = compare_names (steward_server_get_name (server), name);

      if (order == 0)
        {
          *found = TRUE;
          return middle;
        }

      if (order < 0)
        low = middle + 1;
      else
        high = middle;
    }

  return low;
}

/* Whether @b differs from @a in anything the server acts on. */
static gboolean
config_differs (StewardServerConfig *a,
                StewardServerConfig *b)
{
  return a != b && !steward_server_config_equal (a, b);
}

static void
config_changed_cb (StewardServerRegistry *self)
{
  if (self->following)
    steward_server_registry_sync (self, TRUE);
}

/* GListModel */

static GType
steward_server_registry_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_SERVER;
}

static guint
steward_server_registry_get_n_items (GListModel *model)
{
  StewardServerRegistry *self = STEWARD_SERVER_REGISTRY (model);

  return self->servers->len;
}

static gpointer
steward_server_registry_get_item (GListModel *model,
                                  guint       position)
{
  StewardServerRegistry *self = STEWARD_SERVER_REGISTRY (model);

  if (position >= self->servers->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->servers, position));
}

static void
steward_server_registry_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_server_registry_get_item_type;
  iface->get_n_items = steward_server_registry_get_n_items;
  iface->get_item = steward_server_registry_get_item;
}

/* GObject */

static void
steward_server_registry_dispose (GObject *object)
{
  StewardServerRegistry *self = STEWARD_SERVER_REGISTRY (object);

  /* A server still running is held by its client until it stops; stop
   * them so that neither outlives us by more than that. */
  if (self->servers != NULL)
    {
      for (guint i = 0; i < self->servers->len; i++)
        {
          StewardServer *server = g_ptr_array_index (self->servers, i);

          if (steward_server_get_client (server) != NULL)
            steward_server_stop_async (server, NULL, NULL, NULL);
        }
      g_ptr_array_set_size (self->servers, 0);
    }

  g_clear_object (&self->config);
  g_clear_object (&self->log_store);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (steward_server_registry_parent_class)->dispose (object);
}

static void
steward_server_registry_finalize (GObject *object)
{
  StewardServerRegistry *self = STEWARD_SERVER_REGISTRY (object);

  g_clear_pointer (&self->servers, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_server_registry_parent_class)->finalize (object);
}

static void
steward_server_registry_class_init (StewardServerRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_server_registry_dispose;
  object_class->finalize = steward_server_registry_finalize;
}

static void
steward_server_registry_init (StewardServerRegistry *self)
{
  self->servers = g_ptr_array_new_with_free_func (g_object_unref);
}

/* Public API */

/**
 * steward_server_registry_new:
 * @context: what each server is handed when it is made
 */
StewardServerRegistry *
steward_server_registry_new (StewardServerContext *context)
{
  StewardServerRegistry *self;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (context), NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_REGISTRY, NULL);
  self->context = g_object_ref (context);
  self->config = g_object_ref (steward_server_context_get_config (context));
  self->log_store = g_object_ref (steward_server_context_get_log_store (context));

  /* An external edit comes as "changed"; an entry the app put shows in
   * the list at once. Both change the list in one splice. */
  g_signal_connect_object (self->config, "changed", G_CALLBACK (config_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (steward_config_get_servers (self->config), "items-changed",
                           G_CALLBACK (config_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

/**
 * steward_server_registry_lookup:
 *
 * Returns: (transfer none) (nullable): the server of that name
 */
StewardServer *
steward_server_registry_lookup (StewardServerRegistry *self,
                                const char            *name)
{
  gboolean found;
  guint position;

  g_return_val_if_fail (STEWARD_IS_SERVER_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  position = find_position (self, name, &found);

  return found ? g_ptr_array_index (self->servers, position) : NULL;
}

/**
 * steward_server_registry_sync:
 * @autostart: start the new servers that are not disabled
 *
 * Makes the list match the config: new entries become servers, changed
 * ones are handed to their server, and servers whose entry is gone are
 * stopped and removed. From the first call on, the registry follows the
 * config by itself.
 */
void
steward_server_registry_sync (StewardServerRegistry *self,
                              gboolean               autostart)
{
  GListModel *configs;
  g_autoptr(GHashTable) names = NULL;
  guint n_configs;

  g_return_if_fail (STEWARD_IS_SERVER_REGISTRY (self));

  if (self->context == NULL)
    return;

  self->following = TRUE;
  configs = steward_config_get_servers (self->config);
  n_configs = g_list_model_get_n_items (configs);
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < n_configs; i++)
    {
      g_autoptr(StewardServerConfig) config = g_list_model_get_item (configs, i);
      const char *name = steward_server_config_get_name (config);
      gboolean found;
      guint position;

      g_hash_table_add (names, g_strdup (name));
      position = find_position (self, name, &found);

      if (found)
        {
          StewardServer *server = g_ptr_array_index (self->servers, position);

          if (config_differs (steward_server_get_config (server), config))
            steward_server_set_config (server, config);
        }
      else
        {
          StewardServer *server = steward_server_new (self->context, config);

          g_ptr_array_insert (self->servers, position, server);
          g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);

          if (autostart && steward_server_get_enabled (server))
            steward_server_start (server);
        }
    }

  for (guint i = self->servers->len; i > 0; i--)
    {
      StewardServer *server = g_ptr_array_index (self->servers, i - 1);
      g_autoptr(StewardServer) removed = NULL;

      if (g_hash_table_contains (names, steward_server_get_name (server)))
        continue;

      removed = g_ptr_array_steal_index (self->servers, i - 1);
      g_list_model_items_changed (G_LIST_MODEL (self), i - 1, 1, 0);

      /* The stop holds the server until it is done. */
      steward_server_stop_async (removed, NULL, NULL, NULL);
    }
}

typedef struct {
  guint     n_waiting;
  guint     timeout_source;
  gboolean  returned;
} StopAll;

static void
stop_all_free (StopAll *stop_all)
{
  g_clear_handle_id (&stop_all->timeout_source, g_source_remove);
  g_free (stop_all);
}

/* Completes once: when the last server stopped, or at the deadline. */
static void
stop_all_return (GTask *task)
{
  StopAll *stop_all = g_task_get_task_data (task);

  if (stop_all->returned)
    return;

  stop_all->returned = TRUE;
  g_clear_handle_id (&stop_all->timeout_source, g_source_remove);
  g_task_return_boolean (task, TRUE);
}

static void
server_stopped_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StopAll *stop_all = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!steward_server_stop_finish (STEWARD_SERVER (object), result, &error))
    g_debug ("stopping %s: %s", steward_server_get_name (STEWARD_SERVER (object)),
             error->message);

  if (--stop_all->n_waiting == 0)
    stop_all_return (task);
}

static gboolean
stop_all_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  StopAll *stop_all = g_task_get_task_data (task);
  StewardServerRegistry *self = g_task_get_source_object (task);

  stop_all->timeout_source = 0;
  steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_WARNING,
                                    ngettext ("%u server did not stop in time",
                                              "%u servers did not stop in time",
                                              stop_all->n_waiting),
                                    stop_all->n_waiting);
  stop_all_return (task);

  return G_SOURCE_REMOVE;
}

/**
 * steward_server_registry_stop_all_async:
 *
 * Stops every server at once and completes when all have stopped, or
 * after 5 s at most.
 */
void
steward_server_registry_stop_all_async (StewardServerRegistry *self,
                                        GCancellable          *cancellable,
                                        GAsyncReadyCallback    callback,
                                        gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  StopAll *stop_all;

  g_return_if_fail (STEWARD_IS_SERVER_REGISTRY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_registry_stop_all_async);

  stop_all = g_new0 (StopAll, 1);
  g_task_set_task_data (task, stop_all, (GDestroyNotify) stop_all_free);

  if (self->servers->len == 0)
    {
      stop_all_return (task);
      return;
    }

  /* One more than the servers, so that a server that stops at once does
   * not complete the task before the others were asked. */
  stop_all->n_waiting = self->servers->len + 1;
  for (guint i = 0; i < self->servers->len; i++)
    steward_server_stop_async (g_ptr_array_index (self->servers, i), NULL, server_stopped_cb,
                               g_object_ref (task));

  stop_all->timeout_source = g_timeout_add (STOP_ALL_TIMEOUT_MS, stop_all_timeout_cb, task);

  if (--stop_all->n_waiting == 0)
    stop_all_return (task);
}

gboolean
steward_server_registry_stop_all_finish (StewardServerRegistry  *self,
                                         GAsyncResult           *result,
                                         GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
