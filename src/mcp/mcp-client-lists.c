/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-tool.h"

static const struct {
  const char *method;
  const char *member;
  const char *capability;
  gpointer  (*make) (JsonObject *json, GError **error);
} list_kinds[N_LISTS] = {
  [LIST_TOOLS]     = { "tools/list",               "tools",             "tools",
                       (gpointer) mcp_tool_new },
  [LIST_RESOURCES] = { "resources/list",           "resources",         "resources",
                       (gpointer) mcp_resource_new },
  [LIST_TEMPLATES] = { "resources/templates/list", "resourceTemplates", "resources",
                       (gpointer) mcp_resource_template_new },
  [LIST_PROMPTS]   = { "prompts/list",             "prompts",           "prompts",
                       (gpointer) mcp_prompt_new },
};

/* Lists */

static gboolean
holds_at (GListModel *model,
          guint       position,
          gpointer    item)
{
  g_autoptr(GObject) held = g_list_model_get_item (model, position);

  return held == item;
}

/* Whether @a and @b say the same. The members that are plain values (a
 * description, a title) go first: they are what changes most often, and
 * the deep comparison of a schema is what costs. */
static gboolean
same_definition (JsonObject *a,
                 JsonObject *b)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  if (json_object_get_size (a) != json_object_get_size (b))
    return FALSE;

  json_object_iter_init (&iter, a);
  while (json_object_iter_next (&iter, &member, &node))
    {
      JsonNode *other;

      if (!JSON_NODE_HOLDS_VALUE (node))
        continue;

      other = json_object_get_member (b, member);
      if (other == NULL || !json_node_equal (node, other))
        return FALSE;
    }

  return json_object_equal (a, b);
}

/* Puts @items, a new listing, into @store in place of the last one. An
 * entry listed as it was stays the same object, so that what was worked
 * out from it (a tool's pinned hash, a list row) stays good, and only the
 * entries from the first change to the last are replaced: a list view
 * keeps its rows for the rest. A changed entry is a new object, never
 * the old one altered, as a tool's definition is checked against its
 * pin by object. @items is left holding what @store holds. */
static void
update_store (GListStore *store,
              GPtrArray  *items)
{
  GListModel *model = G_LIST_MODEL (store);
  guint n_old = g_list_model_get_n_items (model);
  g_autoptr(GHashTable) old = g_hash_table_new (g_str_hash, g_str_equal);
  guint start = 0;
  guint end_old = n_old;
  guint end_new = items->len;

  for (guint i = 0; i < n_old; i++)
    {
      McpItem *item = g_list_model_get_item (model, i);

      /* The store holds a reference for as long as this runs. */
      g_hash_table_insert (old, (gpointer) mcp_item_get_key (item), item);
      g_object_unref (item);
    }

  for (guint i = 0; i < items->len; i++)
    {
      McpItem *fresh = g_ptr_array_index (items, i);
      McpItem *same = g_hash_table_lookup (old, mcp_item_get_key (fresh));

      if (same != NULL && G_OBJECT_TYPE (same) == G_OBJECT_TYPE (fresh) &&
          same_definition (mcp_item_get_json (same), mcp_item_get_json (fresh)))
        {
          g_ptr_array_index (items, i) = g_object_ref (same);
          g_object_unref (fresh);
          /* Listed twice, it is two objects again. */
          g_hash_table_remove (old, mcp_item_get_key (same));
        }
    }

  while (start < n_old && start < items->len &&
         holds_at (model, start, g_ptr_array_index (items, start)))
    start++;
  while (end_old > start && end_new > start &&
         holds_at (model, end_old - 1, g_ptr_array_index (items, end_new - 1)))
    {
      end_old--;
      end_new--;
    }

  if (end_old > start || end_new > start)
    g_list_store_splice (store, start, end_old - start, items->pdata + start, end_new - start);
}

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data);

typedef struct {
  const char *method;
  ListKind    kind;
  GPtrArray  *items;
  guint       pages;
  gboolean    restarted;
} ListState;

static void
list_state_free (ListState *state)
{
  g_ptr_array_unref (state->items);
  g_free (state);
}

static ListKind
list_kind_for_method (const char *method)
{
  for (guint i = 0; i < N_LISTS; i++)
    if (g_str_equal (method, list_kinds[i].method))
      return (ListKind) i;

  return N_LISTS;
}

static void
list_request_page (McpClient  *self,
                   GTask      *task,
                   const char *cursor)
{
  ListState *state = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;

  if (cursor != NULL)
    {
      params = json_object_new ();
      json_object_set_string_member (params, "cursor", cursor);
    }

  mcp_client_start_request (self, state->method, params, FALSE, self->request_timeout_ms,
                            NULL, NULL, NULL, g_task_get_cancellable (task),
                            list_request_page, list_page_cb, g_object_ref (task));
}

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  ListState *state = g_task_get_task_data (task);
  g_autoptr(JsonObject) page = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *entries;
  const char *cursor;

  page = mcp_client_finish_request (self, result, list_request_page, &error);
  if (page == NULL)
    {
      /* A server that forgot our cursor says so with invalid params: start
       * over once, from the first page. */
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS) &&
          state->pages > 0 && !state->restarted)
        {
          state->restarted = TRUE;
          state->pages = 0;
          g_ptr_array_set_size (state->items, 0);
          list_request_page (self, task, NULL);
          return;
        }

      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  entries = mcp_json_get_array (page, list_kinds[state->kind].member);
  for (guint i = 0; entries != NULL && i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      g_autoptr(GError) item_error = NULL;
      gpointer item = NULL;

      if (JSON_NODE_HOLDS_OBJECT (node))
        item = list_kinds[state->kind].make (json_node_get_object (node), &item_error);
      else
        item_error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                          "an entry is not an object");

      if (item != NULL)
        g_ptr_array_add (state->items, item);
      else
        mcp_client_diagnostic (self, "%s: skipped an entry: %s",
                               state->method, item_error->message);
    }

  state->pages++;
  cursor = mcp_json_get_string (page, "nextCursor");
  if (cursor == NULL)
    {
      GListStore *store = self->lists[state->kind];

      update_store (store, state->items);

      /* 2026-07-28 lists say how long they stay good. */
      self->list_expiry[state->kind] = 0;
      if (self->modern && mcp_json_has_number (page, "ttlMs"))
        self->list_expiry[state->kind] =
          g_get_monotonic_time () + (gint64) mcp_json_get_number (page, "ttlMs", 0) * 1000;
      g_task_return_pointer (task, g_ptr_array_ref (state->items),
                             (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  if (state->pages >= MCP_MAX_LIST_PAGES)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "the server's “%s” went on for more than %u pages; "
                               "stopped, as the listing looks like a loop",
                               state->method, MCP_MAX_LIST_PAGES);
      return;
    }

  list_request_page (self, task, cursor);
}

static void
refresh_list_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  ListKind kind = GPOINTER_TO_UINT (user_data);
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  items = mcp_client_list_finish (self, result, &error);
  self->list_busy &= ~(1u << kind);

  if (items == NULL)
    {
      if (self->state == MCP_CLIENT_STATE_READY)
        mcp_client_diagnostic (self, "could not refresh %s: %s",
                               list_kinds[kind].member, error->message);
      return;
    }

  if (self->list_dirty & (1u << kind))
    {
      self->list_dirty &= ~(1u << kind);
      mcp_client_refresh_list (self, kind);
    }
}

void
mcp_client_refresh_list (McpClient *self,
                         ListKind   kind)
{
  if (self->state != MCP_CLIENT_STATE_READY ||
      !mcp_client_has_capability (self, list_kinds[kind].capability, NULL))
    return;

  self->list_expiry[kind] = 0;

  /* A change while a listing runs may not be in it: list again after. */
  if (self->list_busy & (1u << kind))
    {
      self->list_dirty |= 1u << kind;
      return;
    }

  self->list_busy |= 1u << kind;
  mcp_client_list_async (self, list_kinds[kind].method, self->cancellable,
                         refresh_list_cb, GUINT_TO_POINTER (kind));
}

/* Subscriptions (2026-07-28): one subscriptions/listen request stays
 * open for as long as the connection, carrying list changes and updates
 * of the subscribed resources; a change of what we want reopens it. */

static void
listen_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = mcp_client_finish_request (self, result, mcp_client_open_subscriptions, &error);
  if (reply != NULL)
    mcp_client_diagnostic (self, "the server ended the subscription stream");
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
           !g_error_matches (error, MCP_ERROR, MCP_ERROR_CLOSED))
    mcp_client_diagnostic (self, "the subscription stream failed: %s", error->message);
}

void
mcp_client_open_subscriptions (McpClient *self)
{
  g_autoptr(JsonObject) params = NULL;
  JsonObject *filter;
  GHashTableIter iter;
  gpointer uri;
  Pending *old;

  if (!self->modern || self->state != MCP_CLIENT_STATE_READY)
    return;

  /* The stream open now is replaced: on stdio it is cancelled by a
   * notification, over HTTP by closing its response. */
  if (self->listen_id != 0 && (old = g_hash_table_lookup (self->pending, &self->listen_id)) != NULL)
    {
      mcp_client_send_cancelled (self, old->id, "the subscriptions changed");
      mcp_client_pending_complete (old, NULL,
                                   g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                        "replaced by a new subscription"));
    }
  self->listen_id = 0;

  filter = json_object_new ();
  if (mcp_client_has_capability (self, "tools", "listChanged"))
    json_object_set_boolean_member (filter, "toolsListChanged", TRUE);
  if (mcp_client_has_capability (self, "prompts", "listChanged"))
    json_object_set_boolean_member (filter, "promptsListChanged", TRUE);
  if (mcp_client_has_capability (self, "resources", "listChanged"))
    json_object_set_boolean_member (filter, "resourcesListChanged", TRUE);
  if (g_hash_table_size (self->subscriptions) > 0)
    {
      JsonArray *uris = json_array_new ();

      g_hash_table_iter_init (&iter, self->subscriptions);
      while (g_hash_table_iter_next (&iter, &uri, NULL))
        json_array_add_string_element (uris, uri);
      json_object_set_array_member (filter, "resourceSubscriptions", uris);
    }

  if (json_object_get_size (filter) == 0)
    {
      json_object_unref (filter);
      return;
    }

  params = json_object_new ();
  json_object_set_object_member (params, "notifications", filter);
  self->listen_id = self->next_id;
  mcp_client_start_request (self, "subscriptions/listen", params, FALSE, 0, NULL, NULL, NULL,
                            self->cancellable, mcp_client_open_subscriptions, listen_done_cb, NULL);
}

/**
 * mcp_client_list_async:
 * @method: "tools/list", "resources/list", "resources/templates/list" or
 *   "prompts/list"
 *
 * Fetches every page of a list, and updates the matching list model.
 */
void
mcp_client_list_async (McpClient           *self,
                       const char          *method,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListKind kind;
  ListState *state;

  g_return_if_fail (MCP_IS_CLIENT (self));

  kind = list_kind_for_method (method);
  g_return_if_fail (kind < N_LISTS);

  if (!mcp_client_require_capability (self, list_kinds[kind].capability, NULL,
                                      list_kinds[kind].member, mcp_client_list_async,
                                      callback, user_data))
    return;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_list_async);

  /* A list the server said is still good, with no change announced since,
   * is not fetched again. */
  if (self->list_expiry[kind] > g_get_monotonic_time ())
    {
      GListModel *model = G_LIST_MODEL (self->lists[kind]);
      GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        g_ptr_array_add (items, g_list_model_get_item (model, i));
      g_task_return_pointer (task, items, (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  state = g_new0 (ListState, 1);
  state->method = list_kinds[kind].method;
  state->kind = kind;
  state->items = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, state, (GDestroyNotify) list_state_free);

  list_request_page (self, task, NULL);
}

/**
 * mcp_client_list_finish:
 *
 * Returns: (transfer container) (element-type McpItem): the entries
 */
GPtrArray *
mcp_client_list_finish (McpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  char     *uri;
  gboolean  subscribe;
} SubscribeData;

static void
subscribe_data_free (SubscribeData *data)
{
  g_free (data->uri);
  g_free (data);
}

static void
subscribe_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  SubscribeData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) reply = NULL;
  GError *error = NULL;

  reply = mcp_client_request_finish (self, result, &error);
  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (data->subscribe)
    g_hash_table_add (self->subscriptions, g_strdup (data->uri));
  else
    g_hash_table_remove (self->subscriptions, data->uri);

  g_task_return_boolean (task, TRUE);
}

/**
 * mcp_client_subscribe_async:
 * @subscribe: %TRUE to subscribe, %FALSE to unsubscribe
 *
 * Updates then arrive as "resource-updated".
 */
void
mcp_client_subscribe_async (McpClient           *self,
                            const char          *uri,
                            gboolean             subscribe,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;
  SubscribeData *data;
  GTask *task;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (uri != NULL);

  if (!mcp_client_require_capability (self, "resources", "subscribe", "resource subscriptions",
                                      mcp_client_subscribe_async, callback, user_data))
    return;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_subscribe_async);

  /* 2026-07-28 subscribes through the subscription stream. */
  if (self->modern)
    {
      if (subscribe)
        g_hash_table_add (self->subscriptions, g_strdup (uri));
      else
        g_hash_table_remove (self->subscriptions, uri);
      mcp_client_open_subscriptions (self);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  data = g_new0 (SubscribeData, 1);
  data->uri = g_strdup (uri);
  data->subscribe = !!subscribe;
  g_task_set_task_data (task, data, (GDestroyNotify) subscribe_data_free);

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  mcp_client_request_async (self, subscribe ? "resources/subscribe" : "resources/unsubscribe",
                            params, NULL, NULL, NULL, cancellable, subscribe_cb, task);
}

gboolean
mcp_client_subscribe_finish (McpClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
