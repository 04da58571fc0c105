/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-era"

#include "config.h"

#include <string.h>

#include "mcp-era-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* How many of a server's revisions a message names, and how long one may
 * be: the list comes from the server, and a message is one line. */
#define MAX_NAMED_VERSIONS 6
#define MAX_VERSION_LENGTH 32

/* Whether @versions is what a discover result must carry: a non-empty
 * list of strings. `{}`, which some servers give for any method they do
 * not know, is not one. */
static gboolean
is_version_list (JsonArray *versions)
{
  guint n = versions != NULL ? json_array_get_length (versions) : 0;

  if (n == 0)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (versions, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return FALSE;
    }

  return TRUE;
}

/* The newest revision in @versions this client speaks of the given era,
 * or UNKNOWN. */
static McpRevision
best_revision (JsonArray *versions,
               gboolean   modern)
{
  McpRevision best = MCP_REVISION_UNKNOWN;

  for (guint i = 0; versions != NULL && i < json_array_get_length (versions); i++)
    {
      JsonNode *node = json_array_get_element (versions, i);
      McpRevision revision;

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        continue;

      revision = mcp_revision_from_string (json_node_get_string (node));
      if (revision != MCP_REVISION_UNKNOWN && mcp_revision_is_stateless (revision) == modern)
        best = MAX (best, revision);
    }

  return best;
}

static gboolean
is_printable_version (const char *version)
{
  gsize length = strlen (version);

  if (length == 0 || length > MAX_VERSION_LENGTH)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isgraph (version[i]))
      return FALSE;

  return TRUE;
}

/* "“2027-01-01”, “2027-06-30”" from what the server listed, as much of it
 * as can be shown safely on one line. */
static char *
describe_versions (JsonArray *versions)
{
  GString *out = g_string_new (NULL);
  guint named = 0;
  guint left = 0;

  for (guint i = 0; versions != NULL && i < json_array_get_length (versions); i++)
    {
      JsonNode *node = json_array_get_element (versions, i);
      const char *version;

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          left++;
          continue;
        }

      version = json_node_get_string (node);
      if (named == MAX_NAMED_VERSIONS || !is_printable_version (version))
        {
          left++;
          continue;
        }

      g_string_append_printf (out, "%s“%s”", named > 0 ? ", " : "", version);
      named++;
    }

  if (named == 0)
    g_string_append (out, "nothing this client can read");
  else if (left > 0)
    g_string_append_printf (out, " and %u more", left);

  return g_string_free (out, FALSE);
}

static char *
describe_incompatible (JsonArray *versions)
{
  g_autofree char *theirs = describe_versions (versions);
  g_autofree char *ours = mcp_revision_list_supported ();

  return g_strdup_printf ("the server supports only protocol revisions %s, none of which "
                          "this client speaks (it speaks %s)", theirs, ours);
}

/* The JSON-RPC error of @error, whether the server sent it in a reply or,
 * over HTTP, in the body of a refusal (a 400 carries the modern errors). */
static gboolean
find_rpc_error (const GError  *error,
                gint64        *code,
                const char   **message,
                JsonObject   **data)
{
  JsonNode *node = mcp_error_get_data (error);
  JsonObject *object = node != NULL && JSON_NODE_HOLDS_OBJECT (node)
                       ? json_node_get_object (node) : NULL;
  JsonObject *rpc;

  if (mcp_error_is_rpc (error))
    {
      *code = error->code;
      *message = error->message;
      *data = object;
      return TRUE;
    }

  if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_HTTP_STATUS))
    return FALSE;

  rpc = mcp_json_get_object (object, "error");
  if (rpc == NULL || !mcp_json_has_number (rpc, "code"))
    return FALSE;

  *code = (gint64) mcp_json_get_number (rpc, "code", 0);
  *message = mcp_json_get_string (rpc, "message");
  *data = mcp_json_get_object (rpc, "data");
  return TRUE;
}

/* Only a server of the modern era sends these. */
static gboolean
is_modern_error (gint64 code)
{
  return code == MCP_ERROR_HEADER_MISMATCH ||
         code == MCP_ERROR_MISSING_REQUIRED_CLIENT_CAPABILITY ||
         code == MCP_ERROR_UNSUPPORTED_PROTOCOL_VERSION;
}

static McpEra
era_from_error (const GError  *error,
                McpRevision   *handshake_revision,
                char         **why)
{
  const char *message = NULL;
  JsonObject *data = NULL;
  JsonArray *supported;
  gint64 code = 0;

  if (!find_rpc_error (error, &code, &message, &data) || !is_modern_error (code))
    {
      /* The rules name no particular error: servers of the handshake era
       * answer an unknown method before initialize however they like. */
      *why = g_strdup (error->message);
      return MCP_ERA_HANDSHAKE;
    }

  if (code != MCP_ERROR_UNSUPPORTED_PROTOCOL_VERSION)
    {
      g_autofree char *clean = message != NULL ? g_utf8_make_valid (message, -1) : NULL;

      *why = g_strdup_printf ("the server is of the 2026-07-28 era but refused the first "
                              "request (error %" G_GINT64_FORMAT "%s%s)", code,
                              clean != NULL && clean[0] != '\0' ? ": " : "",
                              clean != NULL ? clean : "");
      return MCP_ERA_INCOMPATIBLE;
    }

  /* A server of both eras that does not speak ours: the handshake with the
   * newest revision of its list is one it has said it speaks. */
  supported = mcp_json_get_array (data, "supported");
  *handshake_revision = best_revision (supported, FALSE);
  if (*handshake_revision != MCP_REVISION_UNKNOWN)
    {
      *why = g_strdup ("it answered that it supports only revisions of the handshake era");
      return MCP_ERA_HANDSHAKE;
    }

  *why = describe_incompatible (supported);
  return MCP_ERA_INCOMPATIBLE;
}

/*
 * mcp_era_from_discover:
 * @result: (nullable): the result of the probe, or %NULL if it failed
 * @error: (nullable): why the probe failed (a JSON-RPC error, an HTTP
 *   refusal, a timeout) when @result is %NULL
 * @handshake_revision: (out): with %MCP_ERA_HANDSHAKE, the revision to
 *   offer in `initialize`: the newest the server named, else the newest
 *   of the handshake era; never a modern one
 * @why: (out) (transfer full): for %MCP_ERA_HANDSHAKE, why the server is
 *   taken to be of the handshake era; for %MCP_ERA_INCOMPATIBLE, a
 *   sentence saying why there is nothing to speak; %NULL otherwise
 *
 * Returns: the era of the server that gave this answer
 */
McpEra
mcp_era_from_discover (JsonObject    *result,
                       const GError  *error,
                       McpRevision   *handshake_revision,
                       char         **why)
{
  JsonArray *versions;

  g_return_val_if_fail (result != NULL || error != NULL, MCP_ERA_HANDSHAKE);
  g_return_val_if_fail (handshake_revision != NULL && why != NULL, MCP_ERA_HANDSHAKE);

  *handshake_revision = MCP_REVISION_LATEST_STATEFUL;
  *why = NULL;

  if (result == NULL)
    {
      McpEra era = era_from_error (error, handshake_revision, why);

      if (*handshake_revision == MCP_REVISION_UNKNOWN)
        *handshake_revision = MCP_REVISION_LATEST_STATEFUL;
      return era;
    }

  versions = mcp_json_get_array (result, "supportedVersions");
  if (!is_version_list (versions))
    {
      *why = g_strdup ("its answer to server/discover lists no supported versions, so it is "
                       "not a discover result");
      return MCP_ERA_HANDSHAKE;
    }

  if (best_revision (versions, TRUE) != MCP_REVISION_UNKNOWN)
    return MCP_ERA_MODERN;

  /* A valid discover result that names only handshake-era revisions: a
   * server of both eras that offers the old one alone. */
  *handshake_revision = best_revision (versions, FALSE);
  if (*handshake_revision != MCP_REVISION_UNKNOWN)
    {
      *why = g_strdup ("it lists only revisions of the handshake era");
      return MCP_ERA_HANDSHAKE;
    }

  *handshake_revision = MCP_REVISION_LATEST_STATEFUL;
  *why = describe_incompatible (versions);
  return MCP_ERA_INCOMPATIBLE;
}
