/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include "mcp-auth-flow-private.h"

/* Discovery for an McpAuthFlow: the protected resource metadata (RFC 9728)
 * from the challenge or the well-known places, then its authorization
 * server's metadata (RFC 8414 or OpenID Connect). Each step tries its list
 * of places in turn; a place that has nothing usable sends the run on to
 * the next one. */

static void fetch_resource_metadata (GTask *task);
static void fetch_server_metadata   (GTask *task);

static void
fetched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  McpAuthRun *run = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  /* A place with nothing usable sends the run on to the next one; not so
   * a cancelled run, or a server that cannot be reached at all. */
  node = mcp_auth_flow_send_json_finish (MCP_AUTH_FLOW (object), result, &error);
  if (node == NULL && (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                       g_error_matches (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_UNREACHABLE)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  run->fetched (task, node);
}

/* Asks the run's next place, whose answer goes to @fetched, and takes
 * @task; returns %FALSE, leaving @task to the caller, when no place is
 * left. */
static gboolean
fetch_next_url (GTask              *task,
                McpAuthFetchedFunc  fetched)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);

  run->fetched = fetched;
  while (run->urls != NULL && run->urls[run->next_url] != NULL)
    {
      SoupMessage *msg = soup_message_new ("GET", run->urls[run->next_url++]);

      if (msg != NULL)
        {
          mcp_auth_flow_send_json_async (self, msg, g_task_get_cancellable (task), fetched_cb,
                                         task);
          return TRUE;
        }
    }

  return FALSE;
}

/* Takes @task and goes on with the metadata of the authorization server
 * @issuer (taken). */
static void
follow_issuer (GTask *task,
               char  *issuer)
{
  McpAuthRun *run = g_task_get_task_data (task);

  g_free (run->issuer);
  run->issuer = issuer;
  g_clear_pointer (&run->urls, g_strfreev);
  run->urls = mcp_auth_server_metadata_urls (run->issuer);
  run->next_url = 0;
  fetch_server_metadata (task);
}

/* Takes @owned; @node is what one place answered, if anything. */
static void
read_resource_metadata (GTask    *owned,
                        JsonNode *node)
{
  g_autoptr(GTask) task = owned;
  McpAuthFlow *self = g_task_get_source_object (task);
  g_autoptr(McpAuthResourceMetadata) metadata = NULL;

  if (node != NULL)
    metadata = mcp_auth_resource_metadata_parse (node, NULL);

  if (metadata == NULL)
    {
      fetch_resource_metadata (g_steal_pointer (&task));
      return;
    }

  /* RFC 9728 §7.3: metadata for another resource must not be followed,
   * or a server could send the person's sign-in elsewhere. */
  if (!mcp_auth_resource_covers (metadata->resource, self->server_url))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_RESOURCE_MISMATCH,
                               "The server's protected resource metadata is for `%s`, not for "
                               "`%s`; signing in there could hand a token to another server",
                               metadata->resource, self->server_url);
      return;
    }

  g_free (self->resource);
  self->resource = g_strdup (metadata->resource);
  g_clear_pointer (&self->resource_metadata, mcp_auth_resource_metadata_free);
  self->resource_metadata = g_steal_pointer (&metadata);
  self->legacy = FALSE;

  follow_issuer (g_steal_pointer (&task),
                 g_strdup (self->resource_metadata->authorization_servers[0]));
}

/* Takes @task. */
static void
fetch_resource_metadata (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  g_autoptr(GUri) server = NULL;

  if (fetch_next_url (task, read_resource_metadata))
    return;

  /* No metadata: a server of the 2025-03-26 revision, whose own origin is
   * its authorization server. */
  server = g_uri_parse (self->server_url, G_URI_FLAGS_NONE, NULL);
  self->legacy = TRUE;
  g_free (self->resource);
  self->resource = mcp_auth_canonical_resource (self->server_url);
  follow_issuer (task, g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (server), NULL,
                                   g_uri_get_host (server), g_uri_get_port (server), "",
                                   NULL, NULL));
}

/* Takes @owned; @node is what one place answered, if anything. */
static void
read_server_metadata (GTask    *owned,
                      JsonNode *node)
{
  g_autoptr(GTask) task = owned;
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpAuthServerMetadata) metadata = NULL;

  if (node == NULL)
    {
      fetch_server_metadata (g_steal_pointer (&task));
      return;
    }

  metadata = mcp_auth_server_metadata_parse (node, &error);
  if (metadata == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The 2025-03-26 revision derived the metadata's place from the MCP
   * server, not from an issuer, so there is nothing to hold it to. */
  if (!self->legacy && !mcp_auth_issuer_matches (run->issuer, metadata->issuer))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_ISSUER_MISMATCH,
                               "The authorization server metadata found for `%s` says it is "
                               "`%s`; it was not used, as it may not be that server's",
                               run->issuer, metadata->issuer);
      return;
    }

  g_clear_pointer (&self->server_metadata, mcp_auth_server_metadata_free);
  self->server_metadata = g_steal_pointer (&metadata);
  mcp_auth_flow_after_discovery (g_steal_pointer (&task));
}

/* Takes @task. */
static void
fetch_server_metadata (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);

  if (fetch_next_url (task, read_server_metadata))
    return;

  if (self->legacy)
    {
      g_clear_pointer (&self->server_metadata, mcp_auth_server_metadata_free);
      self->server_metadata = mcp_auth_server_metadata_new_fallback (self->server_url);
      mcp_auth_flow_after_discovery (task);
      return;
    }

  g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_DISCOVERY,
                           "The authorization server `%s` publishes no metadata, neither "
                           "RFC 8414 nor OpenID Connect", run->issuer);
  g_object_unref (task);
}

/* Takes @task: finds the server's authorization server, from the place
 * the challenge names first, then the well-known ones. */
void
mcp_auth_flow_run_discovery (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);
  g_auto(GStrv) known = mcp_auth_resource_metadata_urls (self->server_url);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (run->challenge != NULL && run->challenge->resource_metadata != NULL)
    g_strv_builder_add (builder, run->challenge->resource_metadata);
  if (known != NULL)
    g_strv_builder_addv (builder, (const char **) known);
  run->urls = g_strv_builder_end (builder);

  fetch_resource_metadata (task);
}
