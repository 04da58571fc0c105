/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-chat-message"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "steward-chat-private.h"
#include "steward-chat-message.h"

/**
 * StewardChatMessage:
 *
 * One message of a conversation: who wrote it, its content blocks, and
 * for the model's messages the model, the tool calls, and how the turn
 * ended.
 */
struct _StewardChatMessage
{
  GObject          parent_instance;

  StewardChatRole  role;
  JsonArray       *content;
  /* The text blocks joined, what get_text() returns. */
  GString         *text;
  /* While text streams in, the last block's text grows here and is
   * written to its block when someone reads the content: setting a JSON
   * string member copies it, which on every delta would be quadratic. */
  GString         *tail;
  JsonObject      *tail_block;
  char            *model;
  char            *error;
  char            *note;
  /* A message an MCP Apps view sent: the view's tool call */
  char            *view_server;
  char            *view_tool;
  char            *view_call;
  JsonObject      *usage;
  GListStore      *tool_calls;
  gint64           time;

  guint            streaming : 1;
};

enum {
  PROP_0,
  PROP_ROLE,
  PROP_TEXT,
  PROP_CONTENT,
  PROP_STREAMING,
  PROP_MODEL,
  PROP_ERROR,
  PROP_NOTE,
  PROP_USAGE,
  PROP_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardChatMessage, steward_chat_message, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StewardChatRole, steward_chat_role,
  G_DEFINE_ENUM_VALUE (STEWARD_CHAT_ROLE_USER, "user"),
  G_DEFINE_ENUM_VALUE (STEWARD_CHAT_ROLE_ASSISTANT, "assistant"))

static void
emit_changed (StewardChatMessage *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static gboolean
is_text_block (JsonNode *node)
{
  JsonObject *block;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  block = json_node_get_object (node);
  return g_strcmp0 (mcp_json_get_string (block, "type"), "text") == 0 &&
         mcp_json_get_string (block, "text") != NULL;
}

/* Writes the streamed tail into its block. */
static void
sync_tail (StewardChatMessage *self)
{
  if (self->tail_block == NULL)
    return;

  json_object_set_string_member (self->tail_block, "text", self->tail->str);
  g_clear_pointer (&self->tail_block, json_object_unref);
  g_string_truncate (self->tail, 0);
}

static void
rebuild_text (StewardChatMessage *self)
{
  g_string_truncate (self->text, 0);

  for (guint i = 0; i < json_array_get_length (self->content); i++)
    {
      JsonNode *node = json_array_get_element (self->content, i);

      if (!is_text_block (node))
        continue;
      if (self->text->len > 0)
        g_string_append (self->text, "\n\n");
      g_string_append (self->text,
                       mcp_json_get_string (json_node_get_object (node), "text"));
    }
}

static void
tool_call_notify_cb (StewardChatMessage *self)
{
  emit_changed (self);
}

static void
steward_chat_message_dispose (GObject *object)
{
  StewardChatMessage *self = STEWARD_CHAT_MESSAGE (object);

  if (self->tool_calls != NULL)
    {
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tool_calls)); i++)
        {
          g_autoptr(StewardToolCall) call = NULL;

          call = g_list_model_get_item (G_LIST_MODEL (self->tool_calls), i);
          g_signal_handlers_disconnect_by_func (call, tool_call_notify_cb, self);
        }
      g_list_store_remove_all (self->tool_calls);
    }

  G_OBJECT_CLASS (steward_chat_message_parent_class)->dispose (object);
}

static void
steward_chat_message_finalize (GObject *object)
{
  StewardChatMessage *self = STEWARD_CHAT_MESSAGE (object);

  g_clear_pointer (&self->content, json_array_unref);
  g_string_free (self->text, TRUE);
  g_string_free (self->tail, TRUE);
  g_clear_pointer (&self->tail_block, json_object_unref);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->note, g_free);
  g_clear_pointer (&self->view_server, g_free);
  g_clear_pointer (&self->view_tool, g_free);
  g_clear_pointer (&self->view_call, g_free);
  g_clear_pointer (&self->usage, json_object_unref);
  g_clear_object (&self->tool_calls);

  G_OBJECT_CLASS (steward_chat_message_parent_class)->finalize (object);
}

static void
steward_chat_message_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardChatMessage *self = STEWARD_CHAT_MESSAGE (object);

  switch (prop_id)
    {
    case PROP_ROLE:
      g_value_set_enum (value, self->role);
      break;

    case PROP_TEXT:
      g_value_set_string (value, steward_chat_message_get_text (self));
      break;

    case PROP_CONTENT:
      g_value_set_boxed (value, steward_chat_message_get_content (self));
      break;

    case PROP_STREAMING:
      g_value_set_boolean (value, self->streaming);
      break;

    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    case PROP_NOTE:
      g_value_set_string (value, self->note);
      break;

    case PROP_USAGE:
      g_value_set_boxed (value, self->usage);
      break;

    case PROP_TIME:
      g_value_set_int64 (value, self->time);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_chat_message_class_init (StewardChatMessageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_chat_message_dispose;
  object_class->finalize = steward_chat_message_finalize;
  object_class->get_property = steward_chat_message_get_property;

  properties[PROP_ROLE] =
    g_param_spec_enum ("role", NULL, NULL,
                       STEWARD_TYPE_CHAT_ROLE, STEWARD_CHAT_ROLE_USER,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONTENT] =
    g_param_spec_boxed ("content", NULL, NULL, JSON_TYPE_ARRAY,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STREAMING] =
    g_param_spec_boolean ("streaming", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NOTE] =
    g_param_spec_string ("note", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_USAGE] =
    g_param_spec_boxed ("usage", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_int64 ("time", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardChatMessage::changed:
   *
   * Something in the message changed, its tool calls included.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
steward_chat_message_init (StewardChatMessage *self)
{
  self->text = g_string_new (NULL);
  self->tail = g_string_new (NULL);
  self->tool_calls = g_list_store_new (STEWARD_TYPE_TOOL_CALL);
}

/* Internal API: JSON */

/**
 * steward_chat_json_copy:
 *
 * json_node_copy() shares the objects and arrays inside; this copies
 * them too, so that the copy can go to a worker.
 *
 * Returns: (transfer full): a copy of @node that shares nothing with it
 */
JsonNode *
steward_chat_json_copy (JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      copy = json_node_alloc ();
      json_node_take_object (json_node_init (copy, JSON_NODE_OBJECT),
                             steward_chat_json_copy_object (json_node_get_object (node)));
      return copy;

    case JSON_NODE_ARRAY:
      copy = json_node_alloc ();
      json_node_take_array (json_node_init (copy, JSON_NODE_ARRAY),
                            steward_chat_json_copy_array (json_node_get_array (node)));
      return copy;

    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

JsonObject *
steward_chat_json_copy_object (JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &member))
    json_object_set_member (copy, name, steward_chat_json_copy (member));

  return copy;
}

JsonArray *
steward_chat_json_copy_array (JsonArray *array)
{
  guint length = json_array_get_length (array);
  JsonArray *copy = json_array_sized_new (length);

  for (guint i = 0; i < length; i++)
    json_array_add_element (copy, steward_chat_json_copy (json_array_get_element (array, i)));

  return copy;
}

JsonArray *
steward_chat_json_array_from_model (GListModel           *model,
                                    StewardChatItemToJson to_json)
{
  guint n_items = g_list_model_get_n_items (model);
  JsonArray *array = json_array_sized_new (n_items);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      json_array_add_object_element (array, to_json (item));
    }

  return array;
}

void
steward_chat_json_set_string_or_null (JsonObject *object,
                                      const char *member,
                                      const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

char *
steward_chat_time_to_string (gint64 time)
{
  g_autoptr(GDateTime) stamp = g_date_time_new_from_unix_utc (time / G_USEC_PER_SEC);
  g_autoptr(GDateTime) exact = NULL;

  if (stamp == NULL)
    return g_strdup ("1970-01-01T00:00:00Z");

  exact = g_date_time_add (stamp, time % G_USEC_PER_SEC);
  return g_date_time_format_iso8601 (exact);
}

gint64
steward_chat_time_from_string (const char *stamp)
{
  g_autoptr(GTimeZone) utc = NULL;
  g_autoptr(GDateTime) time = NULL;

  if (stamp == NULL)
    return 0;

  utc = g_time_zone_new_utc ();
  time = g_date_time_new_from_iso8601 (stamp, utc);
  if (time == NULL)
    return 0;

  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

/* Internal API: the file */

/**
 * steward_chat_message_new_from_json:
 * @json: an entry of a conversation file's "messages"
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with @error
 *   set when @json has no role or no content
 */
StewardChatMessage *
steward_chat_message_new_from_json (JsonObject  *json,
                                    GError     **error)
{
  const char *role_name = mcp_json_get_string (json, "role");
  JsonArray *content = mcp_json_get_array (json, "content");
  JsonArray *calls = mcp_json_get_array (json, "toolCalls");
  JsonObject *usage = mcp_json_get_object (json, "usage");
  JsonObject *view = mcp_json_get_object (json, "view");
  StewardChatMessage *self;
  StewardChatRole role;

  if (g_strcmp0 (role_name, "user") == 0)
    role = STEWARD_CHAT_ROLE_USER;
  else if (g_strcmp0 (role_name, "assistant") == 0)
    role = STEWARD_CHAT_ROLE_ASSISTANT;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("A message has no role Steward knows (“user” or “assistant”)"));
      return NULL;
    }

  if (content == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("A message has no content"));
      return NULL;
    }

  self = steward_chat_message_new (role, content);
  self->model = g_strdup (mcp_json_get_string (json, "model"));
  self->error = g_strdup (mcp_json_get_string (json, "error"));
  self->note = g_strdup (mcp_json_get_string (json, "note"));
  self->time = steward_chat_time_from_string (mcp_json_get_string (json, "time"));
  if (usage != NULL)
    self->usage = json_object_ref (usage);
  if (view != NULL && mcp_json_get_string (view, "server") != NULL &&
      mcp_json_get_string (view, "tool") != NULL)
    steward_chat_message_set_view (self, mcp_json_get_string (view, "server"),
                                   mcp_json_get_string (view, "tool"),
                                   mcp_json_get_string (view, "toolCallId"));

  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonNode *node = json_array_get_element (calls, i);
      g_autoptr(StewardToolCall) call = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      call = steward_tool_call_new_from_json (json_node_get_object (node));
      steward_chat_message_add_tool_call (self, call);
    }

  return self;
}

/**
 * steward_chat_message_to_json:
 *
 * Returns: (transfer full): the message as the conversation file keeps
 *   it, sharing nothing with @self
 */
JsonObject *
steward_chat_message_to_json (StewardChatMessage *self)
{
  JsonObject *json = json_object_new ();
  g_autofree char *time = steward_chat_time_to_string (self->time);
  JsonArray *content;

  json_object_set_string_member (json, "role",
                                 self->role == STEWARD_CHAT_ROLE_USER ? "user" : "assistant");
  content = steward_chat_message_get_content (self);
  json_object_set_array_member (json, "content", steward_chat_json_copy_array (content));
  steward_chat_json_set_string_or_null (json, "model", self->model);
  steward_chat_json_set_string_or_null (json, "error", self->error);
  if (self->note != NULL)
    json_object_set_string_member (json, "note", self->note);
  if (self->usage != NULL)
    json_object_set_object_member (json, "usage", steward_chat_json_copy_object (self->usage));
  if (self->view_server != NULL)
    {
      JsonObject *view = json_object_new ();

      json_object_set_string_member (view, "server", self->view_server);
      json_object_set_string_member (view, "tool", self->view_tool);
      steward_chat_json_set_string_or_null (view, "toolCallId", self->view_call);
      json_object_set_object_member (json, "view", view);
    }
  json_object_set_string_member (json, "time", time);

  json_object_set_array_member (json, "toolCalls",
                                steward_chat_json_array_from_model (
                                  G_LIST_MODEL (self->tool_calls),
                                  (StewardChatItemToJson) steward_tool_call_to_json));

  return json;
}

/* Public API */

/**
 * steward_chat_message_new:
 * @role: who wrote it
 * @content: (nullable): content blocks; %NULL for none yet
 *
 * Returns: (transfer full): a message stamped with the current time
 */
StewardChatMessage *
steward_chat_message_new (StewardChatRole  role,
                          JsonArray       *content)
{
  StewardChatMessage *self;

  self = g_object_new (STEWARD_TYPE_CHAT_MESSAGE, NULL);
  self->role = role;
  self->content = content != NULL ? json_array_ref (content) : json_array_new ();
  self->time = g_get_real_time ();
  rebuild_text (self);

  return self;
}

StewardChatRole
steward_chat_message_get_role (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), STEWARD_CHAT_ROLE_USER);

  return self->role;
}

const char *
steward_chat_message_get_text (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->text->str;
}

/**
 * steward_chat_message_get_content:
 *
 * Returns: (transfer none): the content blocks
 */
JsonArray *
steward_chat_message_get_content (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  sync_tail (self);
  return self->content;
}

gboolean
steward_chat_message_get_streaming (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), FALSE);

  return self->streaming;
}

const char *
steward_chat_message_get_model (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->model;
}

const char *
steward_chat_message_get_error (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->error;
}

/**
 * steward_chat_message_get_tool_calls:
 *
 * Returns: (transfer none): a #GListModel of #StewardToolCall
 */
GListModel *
steward_chat_message_get_tool_calls (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return G_LIST_MODEL (self->tool_calls);
}

gint64
steward_chat_message_get_time (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), 0);

  return self->time;
}

const char *
steward_chat_message_get_note (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->note;
}

/**
 * steward_chat_message_get_usage:
 *
 * Returns: (transfer none) (nullable): the tokens counted for this answer
 */
JsonObject *
steward_chat_message_get_usage (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->usage;
}

void
steward_chat_message_set_content (StewardChatMessage *self,
                                  JsonArray          *content)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));
  g_return_if_fail (content != NULL);

  g_clear_pointer (&self->tail_block, json_object_unref);
  g_string_truncate (self->tail, 0);

  json_array_ref (content);
  g_clear_pointer (&self->content, json_array_unref);
  self->content = content;
  rebuild_text (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  emit_changed (self);
}

void
steward_chat_message_append_text (StewardChatMessage *self,
                                  const char         *delta)
{
  guint length;

  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  if (delta == NULL || *delta == '\0')
    return;

  if (self->tail_block == NULL)
    {
      length = json_array_get_length (self->content);

      if (length > 0 && is_text_block (json_array_get_element (self->content, length - 1)))
        {
          JsonObject *last = json_array_get_object_element (self->content, length - 1);

          self->tail_block = json_object_ref (last);
          g_string_assign (self->tail, mcp_json_get_string (last, "text"));
        }
      else
        {
          JsonObject *block = json_object_new ();

          json_object_set_string_member (block, "type", "text");
          json_object_set_string_member (block, "text", "");
          json_array_add_object_element (self->content, block);
          self->tail_block = json_object_ref (block);
          g_string_truncate (self->tail, 0);
          if (self->text->len > 0)
            g_string_append (self->text, "\n\n");
        }
    }

  g_string_append (self->tail, delta);
  g_string_append (self->text, delta);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
  emit_changed (self);
}

void
steward_chat_message_append_block (StewardChatMessage *self,
                                   JsonObject         *block)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));
  g_return_if_fail (block != NULL);

  sync_tail (self);
  json_array_add_object_element (self->content, json_object_ref (block));
  if (is_text_block (json_array_get_element (self->content,
                                             json_array_get_length (self->content) - 1)))
    {
      rebuild_text (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
  emit_changed (self);
}

void
steward_chat_message_set_streaming (StewardChatMessage *self,
                                    gboolean            streaming)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  streaming = !!streaming;
  if (self->streaming == streaming)
    return;

  self->streaming = streaming;
  if (!streaming)
    sync_tail (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STREAMING]);
  emit_changed (self);
}

static void
set_string (StewardChatMessage  *self,
            char               **field,
            const char          *value,
            guint                prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
  emit_changed (self);
}

void
steward_chat_message_set_model (StewardChatMessage *self,
                                const char         *model)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  set_string (self, &self->model, model, PROP_MODEL);
}

void
steward_chat_message_set_error (StewardChatMessage *self,
                                const char         *error)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  set_string (self, &self->error, error, PROP_ERROR);
}

void
steward_chat_message_set_note (StewardChatMessage *self,
                               const char         *note)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  set_string (self, &self->note, note, PROP_NOTE);
}

/**
 * steward_chat_message_set_usage:
 * @usage: (nullable): {"inputTokens", "outputTokens"}
 */
void
steward_chat_message_set_usage (StewardChatMessage *self,
                                JsonObject         *usage)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  if (usage == self->usage)
    return;

  if (usage != NULL)
    json_object_ref (usage);
  g_clear_pointer (&self->usage, json_object_unref);
  self->usage = usage;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USAGE]);
  emit_changed (self);
}

void
steward_chat_message_set_time (StewardChatMessage *self,
                               gint64              time)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));

  if (self->time == time)
    return;

  self->time = time;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
  emit_changed (self);
}

void
steward_chat_message_add_tool_call (StewardChatMessage *self,
                                    StewardToolCall    *call)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));
  g_return_if_fail (STEWARD_IS_TOOL_CALL (call));

  g_signal_connect_object (call, "notify", G_CALLBACK (tool_call_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_list_store_append (self->tool_calls, call);
  emit_changed (self);
}

/**
 * steward_chat_message_set_view:
 * @server: the view's server
 * @tool: the tool whose call shows the view
 * @call_id: (nullable): that call's id
 *
 * Marks a message as sent by an MCP Apps view (ui/message) rather than
 * typed by the person. Set before the message joins a conversation.
 */
void
steward_chat_message_set_view (StewardChatMessage *self,
                               const char         *server,
                               const char         *tool,
                               const char         *call_id)
{
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (self));
  g_return_if_fail (server != NULL && tool != NULL);

  g_free (self->view_server);
  g_free (self->view_tool);
  g_free (self->view_call);
  self->view_server = g_strdup (server);
  self->view_tool = g_strdup (tool);
  self->view_call = g_strdup (call_id);
}

const char *
steward_chat_message_get_view_server (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->view_server;
}

const char *
steward_chat_message_get_view_tool (StewardChatMessage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_MESSAGE (self), NULL);

  return self->view_tool;
}
