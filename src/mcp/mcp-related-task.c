/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-related-task.h"

/* Returns: (nullable): the related-task object, or NULL when there is
 * none; sets @error when `_meta` or the entry is not an object. */
static JsonObject *
lookup (JsonObject  *params,
        GError     **error)
{
  JsonNode *meta;
  JsonNode *related;

  if (params == NULL || (meta = json_object_get_member (params, "_meta")) == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (meta))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           "the request's \"_meta\" is not an object");
      return NULL;
    }

  related = json_object_get_member (json_node_get_object (meta), MCP_RELATED_TASK_META);
  if (related == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (related))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           "the request's related task is not an object with a \"taskId\"");
      return NULL;
    }

  return json_node_get_object (related);
}

/**
 * mcp_related_task_check:
 *
 * Checks the related task of a server's request, when it names one: its
 * `taskId` must be a non-empty string of at most %MCP_RELATED_TASK_ID_MAX
 * bytes of valid UTF-8 without control characters, since the host shows it
 * and looks tasks up by it.
 *
 * Returns: FALSE, with an %MCP_ERROR_INVALID_PARAMS @error naming the
 *   fault, when the request names a task badly
 */
gboolean
mcp_related_task_check (JsonObject  *params,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonObject *related = lookup (params, &local_error);
  JsonNode *id;
  const char *text;

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (related == NULL)
    return TRUE;

  id = json_object_get_member (related, "taskId");
  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           "the request's related task has no \"taskId\" string");
      return FALSE;
    }

  text = json_node_get_string (id);
  if (*text == '\0' || strlen (text) > MCP_RELATED_TASK_ID_MAX)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                   "the request's related task id must have 1 to %d characters",
                   MCP_RELATED_TASK_ID_MAX);
      return FALSE;
    }
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           "the request's related task id is not valid UTF-8");
      return FALSE;
    }
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      {
        g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                             "the request's related task id contains control characters");
        return FALSE;
      }

  return TRUE;
}

/**
 * mcp_related_task_get_id:
 *
 * Returns: (nullable): the id of the task @params belong to, or NULL when
 *   they name none or name one badly (see mcp_related_task_check())
 */
const char *
mcp_related_task_get_id (JsonObject *params)
{
  JsonObject *related;

  if (!mcp_related_task_check (params, NULL))
    return NULL;
  related = lookup (params, NULL);
  return related != NULL ? json_object_get_string_member (related, "taskId") : NULL;
}

/**
 * mcp_related_task_set_id:
 *
 * Marks @params as belonging to task @task_id, replacing whatever related
 * task they named. A `_meta` that is not an object is replaced.
 */
void
mcp_related_task_set_id (JsonObject *params,
                         const char *task_id)
{
  JsonNode *meta_node;
  JsonObject *meta;
  JsonObject *related;

  g_return_if_fail (params != NULL);
  g_return_if_fail (task_id != NULL);

  meta_node = json_object_get_member (params, "_meta");
  if (meta_node == NULL || !JSON_NODE_HOLDS_OBJECT (meta_node))
    {
      meta = json_object_new ();
      json_object_set_object_member (params, "_meta", meta);
    }
  else
    meta = json_node_get_object (meta_node);

  related = json_object_new ();
  json_object_set_string_member (related, "taskId", task_id);
  json_object_set_object_member (meta, MCP_RELATED_TASK_META, related);
}
