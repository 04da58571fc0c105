/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-soup"

#include "config.h"

#include "mcp-soup.h"

#include "mcp-library.h"

/* The real functions, found in libsoup by name. Each member has the type
 * of the function of this file that stands for it, which mcp-soup.h made
 * libsoup's headers declare with libsoup's own prototype. */
typedef struct
{
  __typeof__ (mcp_soup_date_time_new_from_http_string)      *date_time_new_from_http_string;
  __typeof__ (mcp_soup_form_encode_hash)                    *form_encode_hash;
  __typeof__ (mcp_soup_message_add_flags)                   *message_add_flags;
  __typeof__ (mcp_soup_message_get_reason_phrase)           *message_get_reason_phrase;
  __typeof__ (mcp_soup_message_get_request_headers)         *message_get_request_headers;
  __typeof__ (mcp_soup_message_get_response_headers)        *message_get_response_headers;
  __typeof__ (mcp_soup_message_get_status)                  *message_get_status;
  __typeof__ (mcp_soup_message_get_type)                    *message_get_type;
  __typeof__ (mcp_soup_message_get_uri)                     *message_get_uri;
  __typeof__ (mcp_soup_message_headers_get_content_length)  *message_headers_get_content_length;
  __typeof__ (mcp_soup_message_headers_get_content_type)    *message_headers_get_content_type;
  __typeof__ (mcp_soup_message_headers_get_encoding)        *message_headers_get_encoding;
  __typeof__ (mcp_soup_message_headers_get_list)            *message_headers_get_list;
  __typeof__ (mcp_soup_message_headers_get_one)             *message_headers_get_one;
  __typeof__ (mcp_soup_message_headers_replace)             *message_headers_replace;
  __typeof__ (mcp_soup_message_new)                         *message_new;
  __typeof__ (mcp_soup_message_new_from_encoded_form)       *message_new_from_encoded_form;
  __typeof__ (mcp_soup_message_new_from_uri)                *message_new_from_uri;
  __typeof__ (mcp_soup_message_set_request_body_from_bytes) *message_set_request_body_from_bytes;
  __typeof__ (mcp_soup_server_add_handler)                  *server_add_handler;
  __typeof__ (mcp_soup_server_disconnect)                   *server_disconnect;
  __typeof__ (mcp_soup_server_get_type)                     *server_get_type;
  __typeof__ (mcp_soup_server_get_uris)                     *server_get_uris;
  __typeof__ (mcp_soup_server_listen)                       *server_listen;
  __typeof__ (mcp_soup_server_message_get_method)           *server_message_get_method;
  __typeof__ (mcp_soup_server_message_set_response)         *server_message_set_response;
  __typeof__ (mcp_soup_server_message_set_status)           *server_message_set_status;
  __typeof__ (mcp_soup_session_abort)                       *session_abort;
  __typeof__ (mcp_soup_session_get_async_result_message)    *session_get_async_result_message;
  __typeof__ (mcp_soup_session_get_type)                    *session_get_type;
  __typeof__ (mcp_soup_session_send_and_read_async)         *session_send_and_read_async;
  __typeof__ (mcp_soup_session_send_and_read_finish)        *session_send_and_read_finish;
  __typeof__ (mcp_soup_session_send_async)                  *session_send_async;
  __typeof__ (mcp_soup_session_send_finish)                 *session_send_finish;
  __typeof__ (mcp_soup_session_set_proxy_resolver)          *session_set_proxy_resolver;
  __typeof__ (mcp_soup_status_get_phrase)                   *status_get_phrase;
} McpSoup;

static McpSoup table;

static const McpLibrarySymbol symbols[] = {
  MCP_LIBRARY_SYMBOL (McpSoup, date_time_new_from_http_string,
                      "soup_date_time_new_from_http_string"),
  MCP_LIBRARY_SYMBOL (McpSoup, form_encode_hash, "soup_form_encode_hash"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_add_flags, "soup_message_add_flags"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_get_reason_phrase, "soup_message_get_reason_phrase"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_get_request_headers, "soup_message_get_request_headers"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_get_response_headers, "soup_message_get_response_headers"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_get_status, "soup_message_get_status"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_get_type, "soup_message_get_type"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_get_uri, "soup_message_get_uri"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_headers_get_content_length,
                      "soup_message_headers_get_content_length"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_headers_get_content_type,
                      "soup_message_headers_get_content_type"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_headers_get_encoding, "soup_message_headers_get_encoding"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_headers_get_list, "soup_message_headers_get_list"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_headers_get_one, "soup_message_headers_get_one"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_headers_replace, "soup_message_headers_replace"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_new, "soup_message_new"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_new_from_encoded_form, "soup_message_new_from_encoded_form"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_new_from_uri, "soup_message_new_from_uri"),
  MCP_LIBRARY_SYMBOL (McpSoup, message_set_request_body_from_bytes,
                      "soup_message_set_request_body_from_bytes"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_add_handler, "soup_server_add_handler"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_disconnect, "soup_server_disconnect"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_get_type, "soup_server_get_type"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_get_uris, "soup_server_get_uris"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_listen, "soup_server_listen"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_message_get_method, "soup_server_message_get_method"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_message_set_response, "soup_server_message_set_response"),
  MCP_LIBRARY_SYMBOL (McpSoup, server_message_set_status, "soup_server_message_set_status"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_abort, "soup_session_abort"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_get_async_result_message,
                      "soup_session_get_async_result_message"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_get_type, "soup_session_get_type"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_send_and_read_async, "soup_session_send_and_read_async"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_send_and_read_finish, "soup_session_send_and_read_finish"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_send_async, "soup_session_send_async"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_send_finish, "soup_session_send_finish"),
  MCP_LIBRARY_SYMBOL (McpSoup, session_set_proxy_resolver, "soup_session_set_proxy_resolver"),
  MCP_LIBRARY_SYMBOL (McpSoup, status_get_phrase, "soup_status_get_phrase"),
};

/* libsoup is a dependency of the package like GTK is, so a system without
 * it is a broken installation: it ends the program with the reason, as the
 * dynamic loader would have ended it before main() had libsoup been
 * linked. */
static const McpSoup *
soup (void)
{
  static McpLibrary library;
  const char *detail;

  switch (mcp_library_load (&library, MCP_SOUP_SONAME, symbols, G_N_ELEMENTS (symbols),
                            &table, &detail))
    {
    case MCP_LIBRARY_LOADED:
      return &table;

    case MCP_LIBRARY_NOT_FOUND:
      g_error ("libsoup (%s), which Steward speaks HTTP with, could not be loaded: %s; "
               "install libsoup 3.2 or newer", MCP_SOUP_SONAME, detail);

    case MCP_LIBRARY_INCOMPLETE:
    default:
      g_error ("libsoup (%s) lacks %s, which Steward speaks HTTP with; "
               "install libsoup 3.2 or newer", MCP_SOUP_SONAME, detail);
    }
}

GDateTime *
mcp_soup_date_time_new_from_http_string (const char *date_string)
{
  return soup ()->date_time_new_from_http_string (date_string);
}

char *
mcp_soup_form_encode_hash (GHashTable *form_data_set)
{
  return soup ()->form_encode_hash (form_data_set);
}

void
mcp_soup_message_add_flags (SoupMessage      *msg,
                            SoupMessageFlags  flags)
{
  soup ()->message_add_flags (msg, flags);
}

const char *
mcp_soup_message_get_reason_phrase (SoupMessage *msg)
{
  return soup ()->message_get_reason_phrase (msg);
}

SoupMessageHeaders *
mcp_soup_message_get_request_headers (SoupMessage *msg)
{
  return soup ()->message_get_request_headers (msg);
}

SoupMessageHeaders *
mcp_soup_message_get_response_headers (SoupMessage *msg)
{
  return soup ()->message_get_response_headers (msg);
}

SoupStatus
mcp_soup_message_get_status (SoupMessage *msg)
{
  return soup ()->message_get_status (msg);
}

GType
mcp_soup_message_get_type (void)
{
  return soup ()->message_get_type ();
}

GUri *
mcp_soup_message_get_uri (SoupMessage *msg)
{
  return soup ()->message_get_uri (msg);
}

goffset
mcp_soup_message_headers_get_content_length (SoupMessageHeaders *hdrs)
{
  return soup ()->message_headers_get_content_length (hdrs);
}

const char *
mcp_soup_message_headers_get_content_type (SoupMessageHeaders  *hdrs,
                                           GHashTable         **params)
{
  return soup ()->message_headers_get_content_type (hdrs, params);
}

SoupEncoding
mcp_soup_message_headers_get_encoding (SoupMessageHeaders *hdrs)
{
  return soup ()->message_headers_get_encoding (hdrs);
}

const char *
mcp_soup_message_headers_get_list (SoupMessageHeaders *hdrs,
                                   const char         *name)
{
  return soup ()->message_headers_get_list (hdrs, name);
}

const char *
mcp_soup_message_headers_get_one (SoupMessageHeaders *hdrs,
                                  const char         *name)
{
  return soup ()->message_headers_get_one (hdrs, name);
}

void
mcp_soup_message_headers_replace (SoupMessageHeaders *hdrs,
                                  const char         *name,
                                  const char         *value)
{
  soup ()->message_headers_replace (hdrs, name, value);
}

SoupMessage *
mcp_soup_message_new (const char *method,
                      const char *uri_string)
{
  return soup ()->message_new (method, uri_string);
}

SoupMessage *
mcp_soup_message_new_from_encoded_form (const char *method,
                                        const char *uri_string,
                                        char       *encoded_form)
{
  return soup ()->message_new_from_encoded_form (method, uri_string, encoded_form);
}

SoupMessage *
mcp_soup_message_new_from_uri (const char *method,
                               GUri       *uri)
{
  return soup ()->message_new_from_uri (method, uri);
}

void
mcp_soup_message_set_request_body_from_bytes (SoupMessage *msg,
                                              const char  *content_type,
                                              GBytes      *bytes)
{
  soup ()->message_set_request_body_from_bytes (msg, content_type, bytes);
}

void
mcp_soup_server_add_handler (SoupServer         *server,
                             const char         *path,
                             SoupServerCallback  callback,
                             gpointer            user_data,
                             GDestroyNotify      destroy)
{
  soup ()->server_add_handler (server, path, callback, user_data, destroy);
}

void
mcp_soup_server_disconnect (SoupServer *server)
{
  soup ()->server_disconnect (server);
}

GType
mcp_soup_server_get_type (void)
{
  return soup ()->server_get_type ();
}

GSList *
mcp_soup_server_get_uris (SoupServer *server)
{
  return soup ()->server_get_uris (server);
}

gboolean
mcp_soup_server_listen (SoupServer               *server,
                        GSocketAddress           *address,
                        SoupServerListenOptions   options,
                        GError                  **error)
{
  return soup ()->server_listen (server, address, options, error);
}

const char *
mcp_soup_server_message_get_method (SoupServerMessage *msg)
{
  return soup ()->server_message_get_method (msg);
}

void
mcp_soup_server_message_set_response (SoupServerMessage *msg,
                                      const char        *content_type,
                                      SoupMemoryUse      resp_use,
                                      const char        *resp_body,
                                      gsize              resp_length)
{
  soup ()->server_message_set_response (msg, content_type, resp_use, resp_body, resp_length);
}

void
mcp_soup_server_message_set_status (SoupServerMessage *msg,
                                    guint              status_code,
                                    const char        *reason_phrase)
{
  soup ()->server_message_set_status (msg, status_code, reason_phrase);
}

void
mcp_soup_session_abort (SoupSession *session)
{
  soup ()->session_abort (session);
}

SoupMessage *
mcp_soup_session_get_async_result_message (SoupSession  *session,
                                           GAsyncResult *result)
{
  return soup ()->session_get_async_result_message (session, result);
}

GType
mcp_soup_session_get_type (void)
{
  return soup ()->session_get_type ();
}

void
mcp_soup_session_send_and_read_async (SoupSession         *session,
                                      SoupMessage         *msg,
                                      int                  io_priority,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  soup ()->session_send_and_read_async (session, msg, io_priority, cancellable, callback,
                                        user_data);
}

GBytes *
mcp_soup_session_send_and_read_finish (SoupSession   *session,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  return soup ()->session_send_and_read_finish (session, result, error);
}

void
mcp_soup_session_send_async (SoupSession         *session,
                             SoupMessage         *msg,
                             int                  io_priority,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  soup ()->session_send_async (session, msg, io_priority, cancellable, callback, user_data);
}

GInputStream *
mcp_soup_session_send_finish (SoupSession   *session,
                              GAsyncResult  *result,
                              GError       **error)
{
  return soup ()->session_send_finish (session, result, error);
}

void
mcp_soup_session_set_proxy_resolver (SoupSession    *session,
                                     GProxyResolver *proxy_resolver)
{
  soup ()->session_set_proxy_resolver (session, proxy_resolver);
}

const char *
mcp_soup_status_get_phrase (guint status_code)
{
  return soup ()->status_get_phrase (status_code);
}
