/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-message"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-message.h"
#include "mcp-message-private.h"

struct _McpMessage
{
  gatomicrefcount  ref_count;
  McpMessageKind   kind;
  JsonNode        *id;
  char            *method;
  JsonObject      *params;
  JsonObject      *result;
  int              error_code;
  char            *error_message;
  JsonNode        *error_data;
  gsize            wire_size;
  /* The compact text and a newline, built once for whoever asks first (the
   * protocol trace, to learn its size, then the transport, to send it). */
  GBytes          *line;
};

G_DEFINE_BOXED_TYPE (McpMessage, mcp_message, mcp_message_ref, mcp_message_unref)

static McpMessage *
mcp_message_alloc (McpMessageKind kind)
{
  McpMessage *self = g_new0 (McpMessage, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;

  return self;
}

static gboolean
id_is_valid (JsonNode *id)
{
  GType type;

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return FALSE;

  type = json_node_get_value_type (id);
  return type == G_TYPE_STRING || type == G_TYPE_INT64;
}

McpMessage *
mcp_message_new_request (JsonNode   *id,
                         const char *method,
                         JsonObject *params)
{
  McpMessage *self;

  g_return_val_if_fail (id_is_valid (id), NULL);
  g_return_val_if_fail (method != NULL, NULL);

  self = mcp_message_alloc (MCP_MESSAGE_REQUEST);
  self->id = json_node_copy (id);
  self->method = g_strdup (method);
  self->params = params ? json_object_ref (params) : NULL;

  return self;
}

McpMessage *
mcp_message_new_notification (const char *method,
                              JsonObject *params)
{
  McpMessage *self;

  g_return_val_if_fail (method != NULL, NULL);

  self = mcp_message_alloc (MCP_MESSAGE_NOTIFICATION);
  self->method = g_strdup (method);
  self->params = params ? json_object_ref (params) : NULL;

  return self;
}

McpMessage *
mcp_message_new_result (JsonNode   *id,
                        JsonObject *result)
{
  McpMessage *self;

  g_return_val_if_fail (id_is_valid (id), NULL);

  self = mcp_message_alloc (MCP_MESSAGE_RESULT);
  self->id = json_node_copy (id);
  self->result = result ? json_object_ref (result) : json_object_new ();

  return self;
}

McpMessage *
mcp_message_new_error (JsonNode   *id,
                       int         code,
                       const char *message,
                       JsonNode   *data)
{
  McpMessage *self;

  g_return_val_if_fail (id == NULL || id_is_valid (id), NULL);

  self = mcp_message_alloc (MCP_MESSAGE_ERROR);
  self->id = id ? json_node_copy (id) : NULL;
  self->error_code = code;
  self->error_message = g_strdup (message ? message : "");
  self->error_data = data ? json_node_copy (data) : NULL;

  return self;
}

static gboolean
invalid (GError     **error,
         const char  *what)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
               "not a valid JSON-RPC 2.0 message: %s", what);
  return FALSE;
}

/* The members JSON-RPC gives a meaning, and where each is kept. */
static const struct {
  const char *name;
  gsize       offset;
} member_slots[] = {
  { "jsonrpc", G_STRUCT_OFFSET (McpMessageMembers, version) },
  { "id", G_STRUCT_OFFSET (McpMessageMembers, id) },
  { "method", G_STRUCT_OFFSET (McpMessageMembers, method) },
  { "params", G_STRUCT_OFFSET (McpMessageMembers, params) },
  { "result", G_STRUCT_OFFSET (McpMessageMembers, result) },
  { "error", G_STRUCT_OFFSET (McpMessageMembers, error) },
};

#define MEMBER_SLOT(members, i) \
  G_STRUCT_MEMBER_P ((members), member_slots[(i)].offset)

/**
 * mcp_message_members_take:
 * @name: a member's name
 * @value: (transfer full): its value
 * @user_data: an #McpMessageMembers
 *
 * Keeps the value of a member that JSON-RPC gives a meaning, the last one
 * when a name comes twice, as reading into an object would; drops the
 * others. An #McpJsonMemberFunc.
 */
void
mcp_message_members_take (const char *name,
                          JsonNode   *value,
                          gpointer    user_data)
{
  for (guint i = 0; i < G_N_ELEMENTS (member_slots); i++)
    {
      JsonNode **slot = MEMBER_SLOT (user_data, i);

      if (strcmp (name, member_slots[i].name) == 0)
        {
          if (*slot != NULL)
            json_node_unref (*slot);
          *slot = value;
          return;
        }
    }

  json_node_unref (value);
}

void
mcp_message_members_clear (McpMessageMembers *members)
{
  for (guint i = 0; i < G_N_ELEMENTS (member_slots); i++)
    g_clear_pointer ((JsonNode **) MEMBER_SLOT (members, i), json_node_unref);
}

/* Reads @members into @self, applying the rules of JSON-RPC 2.0 as MCP
 * narrows them: ids are strings or integers, params and results are
 * objects. */
static gboolean
mcp_message_read (McpMessage         *self,
                  McpMessageMembers  *members,
                  GError            **error)
{
  JsonNode *version = members->version;
  JsonNode *id = members->id;
  JsonNode *method = members->method;
  JsonNode *params = members->params;
  JsonNode *result = members->result;
  JsonNode *err = members->error;

  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (version), "2.0") != 0)
    return invalid (error, "\"jsonrpc\" is not \"2.0\"");

  if (method != NULL)
    {
      if (result != NULL || err != NULL)
        return invalid (error, "a request carries a result or an error");
      if (!JSON_NODE_HOLDS_VALUE (method) || json_node_get_value_type (method) != G_TYPE_STRING)
        return invalid (error, "\"method\" is not a string");
      if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params))
        return invalid (error, "\"params\" is not an object");

      if (id != NULL)
        {
          if (!id_is_valid (id))
            return invalid (error, "a request id must be a string or an integer");
          self->kind = MCP_MESSAGE_REQUEST;
          self->id = json_node_ref (id);
        }
      else
        self->kind = MCP_MESSAGE_NOTIFICATION;

      self->method = g_strdup (json_node_get_string (method));
      self->params = params ? json_object_ref (json_node_get_object (params)) : NULL;
      return TRUE;
    }

  if ((result != NULL) == (err != NULL))
    return invalid (error, "a response needs exactly one of \"result\" and \"error\"");

  if (result != NULL)
    {
      if (id == NULL || !id_is_valid (id))
        return invalid (error, "a result's id must be a string or an integer");
      if (!JSON_NODE_HOLDS_OBJECT (result))
        return invalid (error, "\"result\" is not an object");

      self->kind = MCP_MESSAGE_RESULT;
      self->id = json_node_ref (id);
      self->result = json_object_ref (json_node_get_object (result));
      return TRUE;
    }
  else
    {
      JsonObject *err_object;
      JsonNode *code;
      JsonNode *message;

      /* An error may come without an id, or with null, when the peer could
       * not read the id of the request it answers. */
      if (id != NULL && !JSON_NODE_HOLDS_NULL (id) && !id_is_valid (id))
        return invalid (error, "an error's id must be a string, an integer or null");
      if (!JSON_NODE_HOLDS_OBJECT (err))
        return invalid (error, "\"error\" is not an object");

      err_object = json_node_get_object (err);
      code = json_object_get_member (err_object, "code");
      message = json_object_get_member (err_object, "message");
      if (code == NULL || !JSON_NODE_HOLDS_VALUE (code) ||
          json_node_get_value_type (code) != G_TYPE_INT64)
        return invalid (error, "an error's code is not an integer");
      if (message != NULL && (!JSON_NODE_HOLDS_VALUE (message) ||
                              json_node_get_value_type (message) != G_TYPE_STRING))
        return invalid (error, "an error's message is not a string");

      self->kind = MCP_MESSAGE_ERROR;
      self->id = (id && !JSON_NODE_HOLDS_NULL (id)) ? json_node_ref (id) : NULL;
      self->error_code = (int) CLAMP (json_node_get_int (code), G_MININT, G_MAXINT);
      self->error_message = g_strdup (message ? json_node_get_string (message) : "");
      if (json_object_has_member (err_object, "data"))
        self->error_data = json_node_copy (json_object_get_member (err_object, "data"));
      return TRUE;
    }
}

/**
 * mcp_message_new_from_node:
 * @node: one parsed JSON value
 * @wire_size: how many bytes it took on the wire, for the protocol trace
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with
 *   %MCP_ERROR_INVALID_MESSAGE naming what is wrong
 */
McpMessage *
mcp_message_new_from_node (JsonNode  *node,
                           gsize      wire_size,
                           GError   **error)
{
  McpMessageMembers members = { 0 };
  JsonObject *object;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, "not a JSON object");
      return NULL;
    }

  object = json_node_get_object (node);
  for (guint i = 0; i < G_N_ELEMENTS (member_slots); i++)
    {
      JsonNode *value = json_object_get_member (object, member_slots[i].name);

      if (value != NULL)
        *(JsonNode **) MEMBER_SLOT (&members, i) = json_node_ref (value);
    }

  return mcp_message_new_from_members (&members, wire_size, error);
}

/**
 * mcp_message_new_from_members:
 * @members: what was read of one JSON object; cleared
 * @wire_size: how many bytes it took on the wire, for the protocol trace
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with
 *   %MCP_ERROR_INVALID_MESSAGE naming what is wrong
 */
McpMessage *
mcp_message_new_from_members (McpMessageMembers  *members,
                              gsize               wire_size,
                              GError            **error)
{
  g_autoptr(McpMessage) self = mcp_message_alloc (MCP_MESSAGE_NOTIFICATION);
  gboolean read;

  self->wire_size = wire_size;
  read = mcp_message_read (self, members, error);
  mcp_message_members_clear (members);

  return read ? g_steal_pointer (&self) : NULL;
}

McpMessage *
mcp_message_ref (McpMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
mcp_message_unref (McpMessage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->id, json_node_unref);
  g_clear_pointer (&self->params, json_object_unref);
  g_clear_pointer (&self->result, json_object_unref);
  g_clear_pointer (&self->error_data, json_node_unref);
  g_free (self->method);
  g_free (self->error_message);
  g_clear_pointer (&self->line, g_bytes_unref);
  g_free (self);
}

McpMessageKind
mcp_message_get_kind (McpMessage *self)
{
  return self->kind;
}

JsonNode *
mcp_message_get_id (McpMessage *self)
{
  return self->id;
}

gboolean
mcp_message_get_int_id (McpMessage *self,
                        gint64     *id)
{
  if (self->id == NULL || json_node_get_value_type (self->id) != G_TYPE_INT64)
    return FALSE;

  if (id != NULL)
    *id = json_node_get_int (self->id);

  return TRUE;
}

/**
 * mcp_message_dup_id_string:
 *
 * Returns: a key for the id that keeps strings and integers apart
 *   ("s:abc", "i:7"), or %NULL without an id
 */
char *
mcp_message_dup_id_string (McpMessage *self)
{
  if (self->id == NULL)
    return NULL;

  if (json_node_get_value_type (self->id) == G_TYPE_INT64)
    return g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (self->id));

  return g_strconcat ("s:", json_node_get_string (self->id), NULL);
}

const char *
mcp_message_get_method (McpMessage *self)
{
  return self->method;
}

JsonObject *
mcp_message_get_params (McpMessage *self)
{
  return self->params;
}

JsonObject *
mcp_message_get_result (McpMessage *self)
{
  return self->result;
}

int
mcp_message_get_error_code (McpMessage *self)
{
  return self->error_code;
}

const char *
mcp_message_get_error_message (McpMessage *self)
{
  return self->error_message;
}

JsonNode *
mcp_message_get_error_data (McpMessage *self)
{
  return self->error_data;
}

GError *
mcp_message_to_gerror (McpMessage *self)
{
  g_return_val_if_fail (self->kind == MCP_MESSAGE_ERROR, NULL);

  return mcp_error_new_rpc (self->error_code, self->error_message, self->error_data);
}

gsize
mcp_message_get_wire_size (McpMessage *self)
{
  return self->wire_size;
}

JsonNode *
mcp_message_to_node (McpMessage *self)
{
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_string_member (object, "jsonrpc", "2.0");

  if (self->id != NULL)
    json_object_set_member (object, "id", json_node_copy (self->id));
  else if (self->kind == MCP_MESSAGE_ERROR)
    json_object_set_null_member (object, "id");

  switch (self->kind)
    {
    case MCP_MESSAGE_REQUEST:
    case MCP_MESSAGE_NOTIFICATION:
      json_object_set_string_member (object, "method", self->method);
      if (self->params != NULL)
        json_object_set_object_member (object, "params", json_object_ref (self->params));
      break;

    case MCP_MESSAGE_RESULT:
      json_object_set_object_member (object, "result", json_object_ref (self->result));
      break;

    case MCP_MESSAGE_ERROR:
      {
        JsonObject *err = json_object_new ();

        json_object_set_int_member (err, "code", self->error_code);
        json_object_set_string_member (err, "message", self->error_message);
        if (self->error_data != NULL)
          json_object_set_member (err, "data", json_node_copy (self->error_data));
        json_object_set_object_member (object, "error", err);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  return json_node_init_object (json_node_alloc (), object);
}

/**
 * mcp_message_write:
 * @out: where to append
 *
 * Appends the message as compact JSON, with no newline in it (strings
 * escape theirs), written straight from its parts.
 */
void
mcp_message_write (McpMessage *self,
                   GString    *out)
{
  g_string_append (out, "{\"jsonrpc\":\"2.0\"");

  if (self->id != NULL)
    {
      g_string_append (out, ",\"id\":");
      mcp_json_append (out, self->id, FALSE);
    }
  else if (self->kind == MCP_MESSAGE_ERROR)
    g_string_append (out, ",\"id\":null");

  switch (self->kind)
    {
    case MCP_MESSAGE_REQUEST:
    case MCP_MESSAGE_NOTIFICATION:
      g_string_append (out, ",\"method\":");
      mcp_json_append_string (out, self->method);
      if (self->params != NULL)
        {
          g_string_append (out, ",\"params\":");
          mcp_json_append_object (out, self->params);
        }
      break;

    case MCP_MESSAGE_RESULT:
      g_string_append (out, ",\"result\":");
      mcp_json_append_object (out, self->result);
      break;

    case MCP_MESSAGE_ERROR:
      g_string_append_printf (out, ",\"error\":{\"code\":%d,\"message\":", self->error_code);
      mcp_json_append_string (out, self->error_message);
      if (self->error_data != NULL)
        {
          g_string_append (out, ",\"data\":");
          mcp_json_append (out, self->error_data, FALSE);
        }
      g_string_append_c (out, '}');
      break;

    default:
      g_assert_not_reached ();
    }

  g_string_append_c (out, '}');
}

/**
 * mcp_message_get_line:
 *
 * The message as compact JSON followed by a newline. It is written the
 * first time it is asked for and kept with the message, which never
 * changes, so that tracing a message and sending it write its JSON once.
 *
 * Returns: (transfer none): the text, newline included
 */
GBytes *
mcp_message_get_line (McpMessage *self)
{
  if (self->line == NULL)
    {
      GString *out = g_string_sized_new (256);
      gsize length;
      char *text;

      mcp_message_write (self, out);
      g_string_append_c (out, '\n');
      /* The text may be kept long after the message (a protocol log
       * shares it), so it keeps its own size rather than the buffer's:
       * shrinking a block is done in place. */
      length = out->len;
      text = g_realloc (g_string_free (out, FALSE), length + 1);
      self->line = g_bytes_new_take (text, length);
    }

  return self->line;
}

/**
 * mcp_message_peek_line:
 *
 * The text mcp_message_get_line() returns, if it has been made: for a
 * message that arrived written as Steward writes, the text it came in.
 *
 * Returns: (transfer none) (nullable): the text, newline included, or
 *   %NULL when it has not been written
 */
GBytes *
mcp_message_peek_line (McpMessage *self)
{
  return self->line;
}

/**
 * mcp_message_keep_wire_text:
 * @text: the text @self was read from, written as mcp_message_write()
 *   would write it (see mcp_json_parse_members())
 *
 * Keeps a copy of @text, and a newline, as the message's line, so that a
 * trace of what arrived need not write it again.
 */
void
mcp_message_keep_wire_text (McpMessage *self,
                            const char *text,
                            gsize       length)
{
  char *line = g_malloc (length + 1);

  g_return_if_fail (self->line == NULL);

  memcpy (line, text, length);
  line[length] = '\n';
  self->line = g_bytes_new_take (line, length + 1);
}

/**
 * mcp_message_to_string:
 *
 * Returns: compact JSON with no newline in it, ready for a newline-framed
 *   transport
 */
char *
mcp_message_to_string (McpMessage *self,
                       gsize      *length)
{
  GString *out = g_string_sized_new (256);

  mcp_message_write (self, out);
  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}
