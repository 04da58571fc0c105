/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include <string.h>

#include "mcp-sse-transport-private.h"
#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-http-util-private.h"
#include "mcp-line-framer.h"
#include "mcp-revision.h"

/* Text the server chose, made safe to show: valid UTF-8, no control or
 * invisible formatting characters, and not too long. */
char *
mcp_sse_transport_quote_text (const char *data,
                              gssize      length)
{
  g_autofree char *valid = g_utf8_make_valid (data, length);
  GString *text = g_string_new (NULL);
  guint n_chars = 0;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (n_chars == QUOTE_MAX_CHARS)
        {
          g_string_append (text, "…");
          break;
        }

      if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT)
        g_string_append_c (text, ' ');
      else
        g_string_append_unichar (text, c);
      n_chars++;
    }

  return g_strstrip (g_string_free (text, FALSE));
}

static int
default_port (const char *scheme)
{
  if (g_ascii_strcasecmp (scheme, "http") == 0)
    return 80;
  if (g_ascii_strcasecmp (scheme, "https") == 0)
    return 443;

  return -1;
}

/* A URL without what may be secret in it: user, password, query, fragment. */
char *
mcp_sse_transport_describe_uri (GUri    *uri,
                                gboolean with_path)
{
  g_autofree char *text = NULL;

  const char *scheme = g_uri_get_scheme (uri);
  int port = g_uri_get_port (uri);

  /* Without normalizing, which would make an empty path "/". */
  text = g_uri_join (G_URI_FLAGS_ENCODED, scheme, NULL, g_uri_get_host (uri),
                     port > 0 && port != default_port (scheme) ? port : -1,
                     with_path ? g_uri_get_path (uri) : "", NULL, NULL);

  return mcp_sse_transport_quote_text (text, -1);
}

static JsonNode *
status_data (guint status)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "status", status);
  json_node_take_object (node, object);

  return node;
}

void
mcp_sse_transport_set_status_data (GError *error,
                                   guint   status)
{
  g_autoptr(JsonNode) data = status_data (status);

  mcp_error_set_data (error, data);
}

/* The server answered @what with a redirect. It is not followed: the
 * target could be anywhere, and the headers would go with the request. */
GError *
mcp_sse_transport_redirect_error (McpSseTransport    *self,
                                  GUri               *from,
                                  guint               status,
                                  SoupMessageHeaders *headers,
                                  const char         *what)
{
  const char *location = soup_message_headers_get_one (headers, "Location");
  g_autoptr(GUri) target = NULL;
  GError *error;

  if (location != NULL)
    target = g_uri_parse_relative (from, location, SOUP_HTTP_URI_FLAGS, NULL);

  if (target == NULL)
    error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                         "the server answered %s with a redirect (HTTP %u) to no valid URL; "
                         "redirects are not followed", what, status);
  else if (!mcp_http_same_origin (mcp_http_transport_base_get_uri (MCP_HTTP_TRANSPORT_BASE (self)),
                                  target))
    {
      g_autofree char *origin = mcp_sse_transport_describe_uri (target, FALSE);

      error = g_error_new (MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN,
                           "the server redirected %s to another origin (%s) with HTTP %u; "
                           "redirects are not followed, so nothing was sent there",
                           what, origin, status);
    }
  else
    {
      g_autofree char *url = mcp_sse_transport_describe_uri (target, TRUE);

      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "the server redirected %s to %s with HTTP %u; redirects are not "
                           "followed, so configure that URL instead", what, url, status);
    }

  mcp_sse_transport_set_status_data (error, status);

  return error;
}

/* Why the GET that opens the stream was refused, in words that say what
 * to do about it. */
GError *
mcp_sse_transport_stream_status_error (McpSseTransport    *self,
                                       guint               status,
                                       SoupMessageHeaders *headers)
{
  GError *error;

  if (SOUP_STATUS_IS_REDIRECTION (status))
    return mcp_sse_transport_redirect_error (self, mcp_http_transport_base_get_uri (MCP_HTTP_TRANSPORT_BASE (self)),
                                             status, headers,
                                             "the event-stream request");

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "%s needs authorization (HTTP 401 Unauthorized); configure a token "
                           "or an Authorization header for this server", self->description);
      break;

    case SOUP_STATUS_FORBIDDEN:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "%s refused the connection (HTTP 403 Forbidden); the credentials "
                           "configured for this server are not accepted", self->description);
      break;

    case SOUP_STATUS_NOT_FOUND:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "there is no event stream at %s (HTTP 404 Not Found); check the URL",
                           self->description);
      break;

    default:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "%s answered the event-stream request with HTTP %u %s",
                           self->description, status, soup_status_get_phrase (status));
      break;
    }

  mcp_sse_transport_set_status_data (error, status);

  return error;
}
