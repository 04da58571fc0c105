/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-sandbox"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "steward-app-sandbox.h"

typedef struct
{
  char *html;
  char *csp;
} Document;

struct _StewardAppSandbox
{
  GObject               parent_instance;

  char                 *server_name;
  char                 *host;
  char                 *origin;
  WebKitWebContext     *context;
  WebKitNetworkSession *session;
  /* path ("/<token>") → Document */
  GHashTable           *documents;
  /* "host" or "host:port" the views of this server declared */
  GHashTable           *reachable;
  /* WebKitWebView, not owned: the pages alive, which share one process */
  GPtrArray            *pages;
};

G_DEFINE_FINAL_TYPE (StewardAppSandbox, steward_app_sandbox, G_TYPE_OBJECT)

/* server name → StewardAppSandbox, not owned: a sandbox leaves the table
 * when its last view lets it go. */
static GHashTable *sandboxes;

static void
document_free (gpointer data)
{
  Document *document = data;

  g_free (document->html);
  g_free (document->csp);
  g_free (document);
}

/* A host name for the server's origin: the name itself when it is already
 * one, otherwise a digest of it, so that two servers never share an
 * origin and no name can smuggle URL syntax into it. */
static char *
host_for_server (const char *server_name)
{
  gsize length = strlen (server_name);
  gboolean plain = length > 0 && length <= 63 && server_name[0] != '-';

  for (const char *p = server_name; plain && *p != '\0'; p++)
    plain = g_ascii_islower (*p) || g_ascii_isdigit (*p) || *p == '-';

  if (plain)
    return g_strdup (server_name);

  {
    g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256,
                                                             server_name, -1);

    return g_strdup_printf ("s%.24s", digest);
  }
}

static void
finish_with_error (WebKitURISchemeRequest *request,
                   const char             *uri)
{
  g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                         /* Translators: %s is an address inside an app's view */
                                         _("“%s” is not part of this view; a view may load "
                                           "only its own page from its server."),
                                         uri);

  webkit_uri_scheme_request_finish_error (request, error);
}

static void
scheme_request_cb (WebKitURISchemeRequest *request,
                   gpointer                user_data)
{
  StewardAppSandbox *self = user_data;
  const char *uri = webkit_uri_scheme_request_get_uri (request);
  g_autoptr(GUri) parsed = g_uri_parse (uri, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(WebKitURISchemeResponse) response = NULL;
  SoupMessageHeaders *headers;
  Document *document;
  GBytes *bytes;

  /* A page of another server's origin never reaches this context, but
   * the check costs nothing and keeps the rule in one place. */
  if (parsed == NULL
      || g_strcmp0 (g_uri_get_host (parsed), self->host) != 0
      || g_uri_get_query (parsed) != NULL
      || (document = g_hash_table_lookup (self->documents, g_uri_get_path (parsed))) == NULL)
    {
      finish_with_error (request, uri);
      return;
    }

  bytes = g_bytes_new (document->html, strlen (document->html));
  stream = g_memory_input_stream_new_from_bytes (bytes);
  response = webkit_uri_scheme_response_new (stream, (gint64) g_bytes_get_size (bytes));
  g_bytes_unref (bytes);

  webkit_uri_scheme_response_set_status (response, 200, NULL);
  webkit_uri_scheme_response_set_content_type (response, "text/html; charset=utf-8");

  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  soup_message_headers_append (headers, "Content-Security-Policy", document->csp);
  soup_message_headers_append (headers, "X-Content-Type-Options", "nosniff");
  soup_message_headers_append (headers, "Referrer-Policy", "no-referrer");
  soup_message_headers_append (headers, "Cache-Control", "no-store");
  /* Takes the headers. */
  webkit_uri_scheme_response_set_http_headers (response, headers);

  webkit_uri_scheme_request_finish_with_response (request, response);
}

static void
download_started_cb (WebKitNetworkSession *session,
                     WebKitDownload       *download,
                     gpointer              user_data)
{
  /* A view has nowhere to save to: it shows, it does not download. */
  webkit_download_cancel (download);
}

static void
steward_app_sandbox_finalize (GObject *object)
{
  StewardAppSandbox *self = STEWARD_APP_SANDBOX (object);

  if (sandboxes != NULL && g_hash_table_lookup (sandboxes, self->server_name) == self)
    g_hash_table_remove (sandboxes, self->server_name);

  g_clear_object (&self->context);
  g_clear_object (&self->session);
  g_clear_pointer (&self->documents, g_hash_table_unref);
  g_clear_pointer (&self->reachable, g_hash_table_unref);
  g_clear_pointer (&self->pages, g_ptr_array_unref);
  g_free (self->server_name);
  g_free (self->host);
  g_free (self->origin);

  G_OBJECT_CLASS (steward_app_sandbox_parent_class)->finalize (object);
}

static void
steward_app_sandbox_class_init (StewardAppSandboxClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = steward_app_sandbox_finalize;
}

static void
steward_app_sandbox_init (StewardAppSandbox *self)
{
  self->documents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, document_free);
  self->reachable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pages = g_ptr_array_new ();
}

/*
 * A view's policy confines what its page asks for; the session's proxy
 * confines what the network process does on the page's behalf, beyond
 * what a policy reaches (the connections WebKit opens ahead of a
 * navigation it is about to be refused, for one): every host that no view
 * of this server declared is sent to a proxy that is not there, on this
 * computer, so that such a host never even sees a connection.
 */
#define NOWHERE_PROXY "http://127.0.0.1:9"

static void
apply_reachable (StewardAppSandbox *self)
{
  g_autoptr(GPtrArray) hosts = g_ptr_array_new ();
  WebKitNetworkProxySettings *settings;
  GHashTableIter iter;
  gpointer host;

  g_hash_table_iter_init (&iter, self->reachable);
  while (g_hash_table_iter_next (&iter, &host, NULL))
    g_ptr_array_add (hosts, host);
  g_ptr_array_add (hosts, NULL);

  settings = webkit_network_proxy_settings_new (NOWHERE_PROXY,
                                                (const char * const *) hosts->pdata);
  webkit_network_session_set_proxy_settings (self->session, WEBKIT_NETWORK_PROXY_MODE_CUSTOM,
                                             settings);
  webkit_network_proxy_settings_free (settings);
}

/* "https://api.example.com:8443/" → "api.example.com:8443", as the proxy's
 * list of exceptions takes it. */
static char *
reachable_host (const char *domain)
{
  const char *start = strstr (domain, "://");
  const char *end;

  start = start != NULL ? start + 3 : domain;
  end = start + strcspn (start, "/?#");

  return end > start ? g_strndup (start, end - start) : NULL;
}

static void
allow_domains (StewardAppSandbox  *self,
               const char * const *domains,
               gboolean           *changed)
{
  for (gsize i = 0; domains != NULL && domains[i] != NULL; i++)
    {
      char *host = reachable_host (domains[i]);

      if (host != NULL && !g_hash_table_contains (self->reachable, host))
        {
          g_hash_table_add (self->reachable, host);
          *changed = TRUE;
        }
      else
        {
          g_free (host);
        }
    }
}

void
steward_app_sandbox_allow (StewardAppSandbox  *self,
                           McpAppResourceMeta *meta)
{
  gboolean changed = FALSE;

  g_return_if_fail (STEWARD_IS_APP_SANDBOX (self));

  if (meta == NULL)
    return;

  allow_domains (self, mcp_app_resource_meta_get_connect_domains (meta), &changed);
  allow_domains (self, mcp_app_resource_meta_get_resource_domains (meta), &changed);
  allow_domains (self, mcp_app_resource_meta_get_frame_domains (meta), &changed);
  if (changed)
    apply_reachable (self);
}

StewardAppSandbox *
steward_app_sandbox_get_for_server (const char *server_name)
{
  StewardAppSandbox *self;
  WebKitSecurityManager *security;

  g_return_val_if_fail (server_name != NULL, NULL);

  if (sandboxes == NULL)
    sandboxes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self = g_hash_table_lookup (sandboxes, server_name);
  if (self != NULL)
    return g_object_ref (self);

  self = g_object_new (STEWARD_TYPE_APP_SANDBOX, NULL);
  self->server_name = g_strdup (server_name);
  self->host = host_for_server (server_name);
  self->origin = g_strdup_printf (STEWARD_APP_SCHEME "://%s", self->host);

  self->session = webkit_network_session_new_ephemeral ();
  apply_reachable (self);
  g_signal_connect_object (self->session, "download-started",
                           G_CALLBACK (download_started_cb), self, G_CONNECT_DEFAULT);

  self->context = webkit_web_context_new ();
  webkit_web_context_set_cache_model (self->context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
  /* A secure context, so that the features a view may be granted
   * (camera, microphone, geolocation, clipboard) exist at all. */
  security = webkit_web_context_get_security_manager (self->context);
  webkit_security_manager_register_uri_scheme_as_secure (security, STEWARD_APP_SCHEME);
  webkit_web_context_register_uri_scheme (self->context, STEWARD_APP_SCHEME,
                                          scheme_request_cb, self, NULL);

  g_hash_table_insert (sandboxes, g_strdup (server_name), self);

  return self;
}

const char *
steward_app_sandbox_get_origin (StewardAppSandbox *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_SANDBOX (self), NULL);

  return self->origin;
}

WebKitWebContext *
steward_app_sandbox_get_context (StewardAppSandbox *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_SANDBOX (self), NULL);

  return self->context;
}

WebKitNetworkSession *
steward_app_sandbox_get_session (StewardAppSandbox *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_SANDBOX (self), NULL);

  return self->session;
}

char *
steward_app_sandbox_add_document (StewardAppSandbox *self,
                                  const char        *html,
                                  const char        *csp)
{
  g_autofree char *token = g_uuid_string_random ();
  Document *document;
  char *path;

  g_return_val_if_fail (STEWARD_IS_APP_SANDBOX (self), NULL);
  g_return_val_if_fail (html != NULL && csp != NULL, NULL);

  document = g_new0 (Document, 1);
  document->html = steward_app_sandbox_add_csp_meta (html, csp);
  document->csp = g_strdup (csp);
  path = g_strdup_printf ("/%s", token);
  g_hash_table_insert (self->documents, path, document);

  return g_strconcat (self->origin, path, NULL);
}

void
steward_app_sandbox_remove_document (StewardAppSandbox *self,
                                     const char        *uri)
{
  g_return_if_fail (STEWARD_IS_APP_SANDBOX (self));

  if (uri != NULL && g_str_has_prefix (uri, self->origin))
    g_hash_table_remove (self->documents, uri + strlen (self->origin));
}

/* Where the end of the tag named @tag (with its "<") is, or NULL. */
static const char *
find_tag_end (const char *html,
              const char *tag)
{
  gsize tag_length = strlen (tag);

  for (const char *p = strchr (html, '<'); p != NULL; p = strchr (p + 1, '<'))
    {
      if (g_ascii_strncasecmp (p, tag, tag_length) == 0
          && (p[tag_length] == '>' || g_ascii_isspace (p[tag_length])))
        {
          const char *end = strchr (p, '>');

          return end != NULL ? end + 1 : NULL;
        }
    }

  return NULL;
}

char *
steward_app_sandbox_add_csp_meta (const char *html,
                                  const char *csp)
{
  g_autofree char *escaped = g_markup_escape_text (csp, -1);
  g_autofree char *meta = g_strdup_printf ("<meta http-equiv=\"Content-Security-Policy\" "
                                           "content=\"%s\">", escaped);
  const char *at;
  const char *wrap_head = "";
  const char *unwrap_head = "";

  g_return_val_if_fail (html != NULL && csp != NULL, NULL);

  if ((at = find_tag_end (html, "<head")) == NULL)
    {
      wrap_head = "<head>";
      unwrap_head = "</head>";
      if ((at = find_tag_end (html, "<html")) == NULL
          && (at = find_tag_end (html, "<!doctype")) == NULL)
        at = html;
    }

  return g_strdup_printf ("%.*s%s%s%s%s", (int) (at - html), html,
                          wrap_head, meta, unwrap_head, at);
}

WebKitWebView *
steward_app_sandbox_get_page (StewardAppSandbox *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_SANDBOX (self), NULL);

  return self->pages->len > 0 ? g_ptr_array_index (self->pages, 0) : NULL;
}

void
steward_app_sandbox_add_page (StewardAppSandbox *self,
                              WebKitWebView     *page)
{
  g_return_if_fail (STEWARD_IS_APP_SANDBOX (self));
  g_return_if_fail (WEBKIT_IS_WEB_VIEW (page));

  g_ptr_array_add (self->pages, page);
}

gboolean
steward_app_sandbox_remove_page (StewardAppSandbox *self,
                                 WebKitWebView     *page)
{
  g_return_val_if_fail (STEWARD_IS_APP_SANDBOX (self), FALSE);

  g_ptr_array_remove (self->pages, page);

  return self->pages->len == 0;
}
