/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-delegate"

#include "config.h"

#include "mcp-json-private.h"
#include "test-delegate.h"

static void test_delegate_iface_init (McpClientDelegateInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestDelegate, test_delegate, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_CLIENT_DELEGATE,
                                                      test_delegate_iface_init))

JsonObject *
test_parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static const char *
default_reply (const char *method)
{
  if (g_str_equal (method, "sampling/createMessage"))
    return "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hello\"},"
           "\"model\":\"test-model\",\"stopReason\":\"endTurn\"}";
  if (g_str_equal (method, "elicitation/create"))
    return "{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}";

  return "{\"roots\":[{\"uri\":\"file:///home/ada/src\",\"name\":\"src\"}]}";
}

static void
reply (TestDelegate *self,
       GTask        *task)
{
  const char *method = g_task_get_task_data (task);
  JsonObject *params = g_ptr_array_index (self->params, GPOINTER_TO_UINT (
                                            g_object_get_data (G_OBJECT (task), "index")));
  GError *error = NULL;
  JsonObject *result;

  if (self->reply_func == NULL)
    {
      g_task_return_pointer (task, test_parse_object (default_reply (method)),
                             (GDestroyNotify) json_object_unref);
      return;
    }

  result = self->reply_func (method, params, self->reply_data, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
}

static void
answer (TestDelegate        *self,
        const char          *method,
        JsonObject          *params,
        GCancellable        *cancellable,
        GAsyncReadyCallback  callback,
        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_task_data (task, g_strdup (method), g_free);
  g_object_set_data (G_OBJECT (task), "index", GUINT_TO_POINTER (self->params->len));
  g_ptr_array_add (self->params, params ? json_object_ref (params) : json_object_new ());
  g_ptr_array_add (self->methods, g_strdup (method));

  if (self->hold)
    g_ptr_array_add (self->held, g_steal_pointer (&task));
  else
    reply (self, task);
}

static McpClientFeatures
test_delegate_get_features (McpClientDelegate *delegate)
{
  return TEST_DELEGATE (delegate)->features;
}

static void
test_delegate_create_message_async (McpClientDelegate   *delegate,
                                    McpClient           *client,
                                    JsonObject          *params,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  answer (TEST_DELEGATE (delegate), "sampling/createMessage", params, cancellable,
          callback, user_data);
}

static void
test_delegate_elicit_async (McpClientDelegate   *delegate,
                            McpClient           *client,
                            JsonObject          *params,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  answer (TEST_DELEGATE (delegate), "elicitation/create", params, cancellable,
          callback, user_data);
}

static void
test_delegate_list_roots_async (McpClientDelegate   *delegate,
                                McpClient           *client,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  answer (TEST_DELEGATE (delegate), "roots/list", NULL, cancellable, callback, user_data);
}

static JsonObject *
test_delegate_finish (McpClientDelegate  *delegate,
                      GAsyncResult       *result,
                      GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_delegate_iface_init (McpClientDelegateInterface *iface)
{
  iface->get_features = test_delegate_get_features;
  iface->create_message_async = test_delegate_create_message_async;
  iface->create_message_finish = test_delegate_finish;
  iface->elicit_async = test_delegate_elicit_async;
  iface->elicit_finish = test_delegate_finish;
  iface->list_roots_async = test_delegate_list_roots_async;
  iface->list_roots_finish = test_delegate_finish;
}

static void
test_delegate_finalize (GObject *object)
{
  TestDelegate *self = TEST_DELEGATE (object);

  g_assert_cmpuint (self->held->len, ==, 0);
  g_ptr_array_unref (self->held);
  g_ptr_array_unref (self->params);
  g_ptr_array_unref (self->methods);

  G_OBJECT_CLASS (test_delegate_parent_class)->finalize (object);
}

static void
test_delegate_class_init (TestDelegateClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_delegate_finalize;
}

static void
test_delegate_init (TestDelegate *self)
{
  self->held = g_ptr_array_new_with_free_func (g_object_unref);
  self->params = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  self->methods = g_ptr_array_new_with_free_func (g_free);
}

TestDelegate *
test_delegate_new (McpClientFeatures features)
{
  TestDelegate *self = g_object_new (TEST_TYPE_DELEGATE, NULL);

  self->features = features;
  return self;
}

/* Releases every held request, answering it unless it was cancelled. */
void
test_delegate_release (TestDelegate *self)
{
  g_autoptr(GPtrArray) held = g_steal_pointer (&self->held);

  self->held = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < held->len; i++)
    {
      GTask *task = g_ptr_array_index (held, i);

      if (!g_task_return_error_if_cancelled (task))
        reply (self, task);
    }
}
