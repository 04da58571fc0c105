/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-conversation"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-chat-private.h"
#include "steward-conversation.h"

/* Titles made from the first message are cut to this many characters. */
#define TITLE_MAX_CHARS 60

/**
 * StewardConversation:
 *
 * A chat: its messages, its title, and the model the person chose for it.
 */
struct _StewardConversation
{
  GObject     parent_instance;

  char       *id;
  char       *title;
  char       *model;
  GListStore *messages;
  gint64      created;
  gint64      updated;

  guint       busy : 1;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_MODEL,
  PROP_BUSY,
  PROP_CREATED,
  PROP_UPDATED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardConversation, steward_conversation, G_TYPE_OBJECT)

static void
emit_changed (StewardConversation *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
touch (StewardConversation *self)
{
  gint64 now = g_get_real_time ();

  /* Two changes in one microsecond still sort in the order they came. */
  self->updated = MAX (now, self->updated + 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UPDATED]);
}

static void
message_changed_cb (StewardConversation *self)
{
  emit_changed (self);
}

/* The first line of @text, cut to TITLE_MAX_CHARS characters. */
static char *
title_from_text (const char *text)
{
  g_autofree char *line = NULL;
  const char *end;
  glong length;

  if (text == NULL)
    return NULL;

  while (g_ascii_isspace (*text))
    text++;
  end = strchr (text, '\n');
  line = end != NULL ? g_strndup (text, end - text) : g_strdup (text);
  g_strchomp (line);
  if (*line == '\0' || !g_utf8_validate (line, -1, NULL))
    return NULL;

  length = g_utf8_strlen (line, -1);
  if (length <= TITLE_MAX_CHARS)
    return g_steal_pointer (&line);

  *g_utf8_offset_to_pointer (line, TITLE_MAX_CHARS - 1) = '\0';
  g_strchomp (line);
  return g_strconcat (line, "…", NULL);
}

static void
steward_conversation_dispose (GObject *object)
{
  StewardConversation *self = STEWARD_CONVERSATION (object);

  if (self->messages != NULL)
    g_list_store_remove_all (self->messages);

  G_OBJECT_CLASS (steward_conversation_parent_class)->dispose (object);
}

static void
steward_conversation_finalize (GObject *object)
{
  StewardConversation *self = STEWARD_CONVERSATION (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_object (&self->messages);

  G_OBJECT_CLASS (steward_conversation_parent_class)->finalize (object);
}

static void
steward_conversation_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardConversation *self = STEWARD_CONVERSATION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, steward_conversation_get_title (self));
      break;

    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_CREATED:
      g_value_set_int64 (value, self->created);
      break;

    case PROP_UPDATED:
      g_value_set_int64 (value, self->updated);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_conversation_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StewardConversation *self = STEWARD_CONVERSATION (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      steward_conversation_set_title (self, g_value_get_string (value));
      break;

    case PROP_MODEL:
      steward_conversation_set_model (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_conversation_class_init (StewardConversationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_conversation_dispose;
  object_class->finalize = steward_conversation_finalize;
  object_class->get_property = steward_conversation_get_property;
  object_class->set_property = steward_conversation_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CREATED] =
    g_param_spec_int64 ("created", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_UPDATED] =
    g_param_spec_int64 ("updated", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardConversation::changed:
   *
   * Something in the conversation changed and should be saved.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
steward_conversation_init (StewardConversation *self)
{
  self->messages = g_list_store_new (STEWARD_TYPE_CHAT_MESSAGE);
}

/* Internal API */

/**
 * steward_conversation_new_from_json:
 * @json: a conversation file's root object
 *
 * May run on a worker: the conversation is not shared until it returns.
 *
 * Returns: (transfer full) (nullable): the conversation, or %NULL with
 *   @error set when @json is not one
 */
StewardConversation *
steward_conversation_new_from_json (JsonObject  *json,
                                    GError     **error)
{
  g_autoptr(StewardConversation) self = NULL;
  const char *id = mcp_json_get_string (json, "id");
  JsonArray *messages = mcp_json_get_array (json, "messages");

  if (id == NULL || *id == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The conversation has no id"));
      return NULL;
    }

  if (messages == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The conversation has no list of messages"));
      return NULL;
    }

  self = steward_conversation_new (id);
  self->title = g_strdup (mcp_json_get_string (json, "title"));
  self->model = g_strdup (mcp_json_get_string (json, "model"));
  self->created = steward_chat_time_from_string (mcp_json_get_string (json, "created"));
  self->updated = steward_chat_time_from_string (mcp_json_get_string (json, "updated"));

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      g_autoptr(StewardChatMessage) message = NULL;
      g_autoptr(GError) local_error = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Message %u is not an object"), i + 1);
          return NULL;
        }

      message = steward_chat_message_new_from_json (json_node_get_object (node), &local_error);
      if (message == NULL)
        {
          /* Translators: %u counts messages from 1; %s says what is wrong. */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Message %u: %s"),
                       i + 1, local_error->message);
          return NULL;
        }

      g_signal_connect_object (message, "changed", G_CALLBACK (message_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_list_store_append (self->messages, message);
    }

  return g_steal_pointer (&self);
}

/**
 * steward_conversation_to_json:
 *
 * Returns: (transfer full): the conversation as its file keeps it,
 *   sharing nothing with @self, so that a worker can write it
 */
JsonObject *
steward_conversation_to_json (StewardConversation *self)
{
  JsonObject *json = json_object_new ();
  g_autofree char *created = steward_chat_time_to_string (self->created);
  g_autofree char *updated = steward_chat_time_to_string (self->updated);

  json_object_set_string_member (json, "id", self->id);
  steward_chat_json_set_string_or_null (json, "title", self->title);
  steward_chat_json_set_string_or_null (json, "model", self->model);
  json_object_set_string_member (json, "created", created);
  json_object_set_string_member (json, "updated", updated);
  json_object_set_array_member (json, "messages",
                                steward_chat_json_array_from_model (
                                  G_LIST_MODEL (self->messages),
                                  (StewardChatItemToJson) steward_chat_message_to_json));

  return json;
}

/* Public API */

/**
 * steward_conversation_new:
 * @id: (nullable): the conversation's id, or %NULL for a new one
 *
 * Returns: (transfer full): an empty conversation
 */
StewardConversation *
steward_conversation_new (const char *id)
{
  StewardConversation *self = g_object_new (STEWARD_TYPE_CONVERSATION, NULL);

  self->id = id != NULL ? g_strdup (id) : g_uuid_string_random ();
  self->created = self->updated = g_get_real_time ();

  return self;
}

const char *
steward_conversation_get_id (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), NULL);

  return self->id;
}

const char *
steward_conversation_get_title (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), NULL);

  if (self->title != NULL)
    return self->title;

  /* Translators: the title of a conversation with no message yet. */
  return _("New chat");
}

/**
 * steward_conversation_set_title:
 * @title: (nullable): the new title; %NULL or empty to go back to the
 *   default
 */
void
steward_conversation_set_title (StewardConversation *self,
                                const char          *title)
{
  g_autofree char *stripped = NULL;

  g_return_if_fail (STEWARD_IS_CONVERSATION (self));

  if (title != NULL)
    {
      stripped = g_strstrip (g_strdup (title));
      if (*stripped == '\0')
        g_clear_pointer (&stripped, g_free);
    }

  if (stripped == NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->messages));

      for (guint i = 0; i < n && stripped == NULL; i++)
        {
          g_autoptr(StewardChatMessage) message = NULL;

          message = g_list_model_get_item (G_LIST_MODEL (self->messages), i);
          if (steward_chat_message_get_role (message) == STEWARD_CHAT_ROLE_USER)
            stripped = title_from_text (steward_chat_message_get_text (message));
        }
    }

  if (g_strcmp0 (self->title, stripped) == 0)
    return;

  g_free (self->title);
  self->title = g_steal_pointer (&stripped);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  emit_changed (self);
}

const char *
steward_conversation_get_model (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), NULL);

  return self->model;
}

/**
 * steward_conversation_set_model:
 * @model: (nullable): "provider/name", or %NULL for the default model
 */
void
steward_conversation_set_model (StewardConversation *self,
                                const char          *model)
{
  g_return_if_fail (STEWARD_IS_CONVERSATION (self));

  if (model != NULL && *model == '\0')
    model = NULL;

  if (g_strcmp0 (self->model, model) == 0)
    return;

  g_free (self->model);
  self->model = g_strdup (model);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
  emit_changed (self);
}

/**
 * steward_conversation_get_messages:
 *
 * Returns: (transfer none): a #GListModel of #StewardChatMessage
 */
GListModel *
steward_conversation_get_messages (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), NULL);

  return G_LIST_MODEL (self->messages);
}

gboolean
steward_conversation_get_busy (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), FALSE);

  return self->busy;
}

void
steward_conversation_set_busy (StewardConversation *self,
                               gboolean             busy)
{
  g_return_if_fail (STEWARD_IS_CONVERSATION (self));

  busy = !!busy;
  if (self->busy == busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

gint64
steward_conversation_get_updated (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), 0);

  return self->updated;
}

gint64
steward_conversation_get_created (StewardConversation *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), 0);

  return self->created;
}

void
steward_conversation_append (StewardConversation *self,
                             StewardChatMessage  *message)
{
  g_return_if_fail (STEWARD_IS_CONVERSATION (self));
  g_return_if_fail (STEWARD_IS_CHAT_MESSAGE (message));

  g_signal_connect_object (message, "changed", G_CALLBACK (message_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_list_store_append (self->messages, message);

  if (self->title == NULL && steward_chat_message_get_role (message) == STEWARD_CHAT_ROLE_USER)
    {
      self->title = title_from_text (steward_chat_message_get_text (message));
      if (self->title != NULL)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }

  touch (self);
  emit_changed (self);
}

void
steward_conversation_truncate (StewardConversation *self,
                               guint                position)
{
  guint n;

  g_return_if_fail (STEWARD_IS_CONVERSATION (self));

  n = g_list_model_get_n_items (G_LIST_MODEL (self->messages));
  if (position >= n)
    return;

  for (guint i = position; i < n; i++)
    {
      g_autoptr(StewardChatMessage) message = NULL;

      message = g_list_model_get_item (G_LIST_MODEL (self->messages), i);
      g_signal_handlers_disconnect_by_func (message, message_changed_cb, self);
    }

  g_list_store_splice (self->messages, position, n - position, NULL, 0);
  touch (self);
  emit_changed (self);
}

gboolean
steward_conversation_matches (StewardConversation *self,
                              const char          *query)
{
  g_autofree char *needle = NULL;
  g_autofree char *title = NULL;
  GListModel *messages;

  g_return_val_if_fail (STEWARD_IS_CONVERSATION (self), FALSE);

  if (query == NULL || *query == '\0')
    return TRUE;

  needle = g_utf8_casefold (query, -1);
  title = g_utf8_casefold (steward_conversation_get_title (self), -1);
  if (strstr (title, needle) != NULL)
    return TRUE;

  messages = G_LIST_MODEL (self->messages);
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(StewardChatMessage) message = g_list_model_get_item (messages, i);
      g_autofree char *text = g_utf8_casefold (steward_chat_message_get_text (message), -1);

      if (strstr (text, needle) != NULL)
        return TRUE;
    }

  return FALSE;
}
