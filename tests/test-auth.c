/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-auth"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

/* libsoup as Steward's code calls it (mcp-soup.h); the test links it too,
 * for the calls of its own stand-in servers. */
#include "mcp-soup.h"

#include "mcp-auth-challenge.h"
#include "mcp-auth-flow.h"
#include "mcp-auth-identity.h"
#include "mcp-auth-jwt.h"
#include "mcp-auth-metadata.h"
#include "mcp-auth-pkce.h"

/* The parts of signing in that the conformance suite does not reach: the
 * parsers on hostile input, and the flow against an authorization server
 * of our own that answers with a missing, wrong or unexpected `iss`,
 * metadata of another issuer, refreshes and revocations. */

#define WAIT_TIMEOUT_S 20

static gboolean
timed_out_cb (gpointer user_data)
{
  g_error ("the sign-in did not end within %d s", WAIT_TIMEOUT_S);
  return G_SOURCE_REMOVE;
}

#define RUN_UNTIL(condition)                                                 \
  G_STMT_START {                                                             \
    guint timeout_id_ = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, \
                                               NULL);                        \
    while (!(condition))                                                     \
      g_main_context_iteration (NULL, TRUE);                                 \
    g_source_remove (timeout_id_);                                           \
  } G_STMT_END

/* Parsers */

static void
test_challenge (void)
{
  g_autoptr(McpAuthChallenge) plain = NULL;
  g_autoptr(McpAuthChallenge) mixed = NULL;
  g_autoptr(McpAuthChallenge) escaped = NULL;
  g_autoptr(McpAuthChallenge) repeated = NULL;

  plain = mcp_auth_challenge_parse ("Bearer error=\"invalid_token\", "
                                    "resource_metadata=\"https://a.example/.well-known/"
                                    "oauth-protected-resource/mcp\", scope=\"read write\"");
  g_assert_nonnull (plain);
  g_assert_cmpstr (plain->error, ==, "invalid_token");
  g_assert_cmpstr (plain->scope, ==, "read write");
  g_assert_cmpstr (plain->resource_metadata, ==,
                   "https://a.example/.well-known/oauth-protected-resource/mcp");

  /* Another scheme first, with a token68, then Bearer with bare tokens. */
  mixed = mcp_auth_challenge_parse ("Basic dXNlcg==, Bearer error=insufficient_scope, "
                                    "scope=\"admin\"");
  g_assert_nonnull (mixed);
  g_assert_cmpstr (mixed->error, ==, "insufficient_scope");
  g_assert_cmpstr (mixed->scope, ==, "admin");

  escaped = mcp_auth_challenge_parse ("Bearer error_description=\"say \\\"no\\\", twice\"");
  g_assert_nonnull (escaped);
  g_assert_cmpstr (escaped->error_description, ==, "say \"no\", twice");

  /* The first of a repeated parameter counts. */
  repeated = mcp_auth_challenge_parse ("Bearer scope=\"a\", scope=\"b\"");
  g_assert_cmpstr (repeated->scope, ==, "a");

  g_assert_null (mcp_auth_challenge_parse (NULL));
  g_assert_null (mcp_auth_challenge_parse ("Basic realm=\"x\""));
  g_assert_null (mcp_auth_challenge_parse ("Bearer scope=\"never ends"));
  g_assert_null (mcp_auth_challenge_parse ("Bearer =broken"));
}

static void
test_pkce (void)
{
  g_autofree char *challenge = NULL;
  g_autofree char *verifier = mcp_auth_pkce_new_verifier ();
  g_autofree char *other = mcp_auth_pkce_new_verifier ();

  /* Worked out with another SHA-256 and base64url implementation. */
  challenge = mcp_auth_pkce_challenge ("dBjftJeZ4CVP-mJ92K1W7rMfxbe3wWvOxHGbNGzMY3k");
  g_assert_cmpstr (challenge, ==, "2oyxX2O0chC-DQOFIt5RDtrnfHO03WnqaDXLM1T1gcg");

  /* 43 characters of the unreserved set (RFC 7636 §4.1), never twice. */
  g_assert_cmpuint (strlen (verifier), ==, 43);
  for (const char *p = verifier; *p != '\0'; p++)
    g_assert_true (g_ascii_isalnum (*p) || *p == '-' || *p == '_');
  g_assert_cmpstr (verifier, !=, other);
}

static void
test_metadata_urls (void)
{
  g_auto(GStrv) prm = mcp_auth_resource_metadata_urls ("https://a.example/tools/mcp?x=1");
  g_auto(GStrv) prm_root = mcp_auth_resource_metadata_urls ("https://a.example");
  g_auto(GStrv) tenant = mcp_auth_server_metadata_urls ("https://auth.example/tenant1");
  g_auto(GStrv) root = mcp_auth_server_metadata_urls ("https://auth.example");

  g_assert_cmpuint (g_strv_length (prm), ==, 2);
  g_assert_cmpstr (prm[0], ==, "https://a.example/.well-known/oauth-protected-resource/tools/mcp");
  g_assert_cmpstr (prm[1], ==, "https://a.example/.well-known/oauth-protected-resource");
  g_assert_cmpuint (g_strv_length (prm_root), ==, 1);

  g_assert_cmpuint (g_strv_length (tenant), ==, 3);
  g_assert_cmpstr (tenant[0], ==,
                   "https://auth.example/.well-known/oauth-authorization-server/tenant1");
  g_assert_cmpstr (tenant[1], ==, "https://auth.example/.well-known/openid-configuration/tenant1");
  g_assert_cmpstr (tenant[2], ==, "https://auth.example/tenant1/.well-known/openid-configuration");

  g_assert_cmpuint (g_strv_length (root), ==, 2);
  g_assert_cmpstr (root[0], ==, "https://auth.example/.well-known/oauth-authorization-server");
  g_assert_cmpstr (root[1], ==, "https://auth.example/.well-known/openid-configuration");
}

static void
test_resource_covers (void)
{
  g_assert_true (mcp_auth_resource_covers ("https://a.example/mcp", "https://a.example/mcp"));
  g_assert_true (mcp_auth_resource_covers ("https://a.example", "https://a.example/mcp"));
  g_assert_true (mcp_auth_resource_covers ("https://A.example/", "https://a.example/mcp/"));
  g_assert_false (mcp_auth_resource_covers ("https://evil.example/mcp", "https://a.example/mcp"));
  g_assert_false (mcp_auth_resource_covers ("https://a.example/mc", "https://a.example/mcp"));
  g_assert_false (mcp_auth_resource_covers ("http://a.example/mcp", "https://a.example/mcp"));
  g_assert_false (mcp_auth_resource_covers ("https://a.example:8443/mcp",
                                            "https://a.example/mcp"));
  g_assert_false (mcp_auth_resource_covers (NULL, "https://a.example/mcp"));

  g_assert_true (mcp_auth_issuer_matches ("https://a.example/t", "https://a.example/t"));
  g_assert_false (mcp_auth_issuer_matches ("https://a.example/t", "https://a.example/t/"));
  g_assert_false (mcp_auth_issuer_matches ("https://a.example", NULL));
}

/* An authorization server of our own */

typedef enum {
  ISS_NONE,
  ISS_RIGHT,
  ISS_WRONG,
} IssMode;

typedef struct {
  SoupServer *server;
  char       *base;
  /* How it behaves. */
  IssMode     iss_mode;
  gboolean    promises_iss;
  char       *claimed_issuer;
  gboolean    rotates_refresh;
  /* What it saw. */
  guint       n_authorize;
  guint       n_token;
  guint       n_refresh;
  char       *last_resource;
  char       *revoked;
} Fixture;

static void
reply_json (SoupServerMessage *msg,
            guint              status,
            const char        *json)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY,
                                    json, strlen (json));
}

static GHashTable *
read_form (SoupServerMessage *msg)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  return soup_form_decode (text);
}

static void
handler_cb (SoupServer        *server,
            SoupServerMessage *msg,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  Fixture *fixture = user_data;

  if (g_str_equal (path, "/.well-known/oauth-protected-resource/mcp"))
    {
      g_autofree char *json = g_strdup_printf ("{\"resource\": \"%s/mcp\", "
                                               "\"authorization_servers\": [\"%s\"], "
                                               "\"scopes_supported\": [\"files\"]}",
                                               fixture->base, fixture->base);
      reply_json (msg, 200, json);
    }
  else if (g_str_equal (path, "/.well-known/oauth-authorization-server"))
    {
      g_autofree char *json = g_strdup_printf (
        "{\"issuer\": \"%s\", \"authorization_endpoint\": \"%s/authorize\", "
        "\"token_endpoint\": \"%s/token\", \"registration_endpoint\": \"%s/register\", "
        "\"revocation_endpoint\": \"%s/revoke\", \"code_challenge_methods_supported\": [\"S256\"], "
        "\"scopes_supported\": [\"files\", \"offline_access\"], "
        "\"authorization_response_iss_parameter_supported\": %s}",
        fixture->claimed_issuer != NULL ? fixture->claimed_issuer : fixture->base,
        fixture->base, fixture->base, fixture->base, fixture->base,
        fixture->promises_iss ? "true" : "false");
      reply_json (msg, 200, json);
    }
  else if (g_str_equal (path, "/register"))
    reply_json (msg, 201, "{\"client_id\": \"client-1\"}");
  else if (g_str_equal (path, "/userinfo"))
    {
      const char *authorization =
        soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                      "Authorization");

      /* Every claim the person could be shown by, in the order least
       * readable first, so that the pick is the client's. */
      if (g_strcmp0 (authorization, "Bearer token-1") == 0)
        reply_json (msg, 200, "{\"sub\": \"u-1\", \"email\": \"ada@example.com\", "
                              "\"preferred_username\": \"ada\", \"name\": \"Ada Lovelace\"}");
      else if (g_strcmp0 (authorization, "Bearer nameless") == 0)
        reply_json (msg, 200, "{\"sub\": \"u-1\"}");
      else
        reply_json (msg, 401, "{\"error\": \"invalid_token\"}");
    }
  else if (g_str_equal (path, "/userinfo-flood"))
    {
      g_autofree char *flood = g_strnfill (128 * 1024, ' ');

      reply_json (msg, 200, flood);
    }
  else if (g_str_equal (path, "/authorize"))
    {
      g_autoptr(GString) location = g_string_new (g_hash_table_lookup (query, "redirect_uri"));
      g_autofree char *state = g_uri_escape_string (g_hash_table_lookup (query, "state"), NULL,
                                                    FALSE);

      fixture->n_authorize++;
      g_free (fixture->last_resource);
      fixture->last_resource = g_strdup (g_hash_table_lookup (query, "resource"));
      g_string_append_printf (location, "?code=code-1&state=%s", state);
      if (fixture->iss_mode == ISS_RIGHT)
        g_string_append_printf (location, "&iss=%s", fixture->base);
      else if (fixture->iss_mode == ISS_WRONG)
        g_string_append (location, "&iss=https%3A%2F%2Fevil.example");
      soup_server_message_set_redirect (msg, 302, location->str);
    }
  else if (g_str_equal (path, "/token"))
    {
      g_autoptr(GHashTable) form = read_form (msg);
      const char *grant = g_hash_table_lookup (form, "grant_type");

      fixture->n_token++;
      if (g_strcmp0 (grant, "refresh_token") == 0 &&
          g_strcmp0 (g_hash_table_lookup (form, "refresh_token"), "refresh-1") == 0)
        {
          fixture->n_refresh++;
          reply_json (msg, 200, fixture->rotates_refresh ?
                      "{\"access_token\": \"access-2\", \"token_type\": \"Bearer\", "
                      "\"expires_in\": 60, \"refresh_token\": \"refresh-2\"}" :
                      "{\"access_token\": \"access-2\", \"token_type\": \"Bearer\", "
                      "\"expires_in\": 60}");
        }
      else if (g_strcmp0 (grant, "authorization_code") == 0 &&
               g_strcmp0 (g_hash_table_lookup (form, "code"), "code-1") == 0 &&
               g_hash_table_lookup (form, "code_verifier") != NULL)
        reply_json (msg, 200, "{\"access_token\": \"access-1\", \"token_type\": \"bearer\", "
                              "\"expires_in\": 3600, \"refresh_token\": \"refresh-1\"}");
      else
        reply_json (msg, 400, "{\"error\": \"invalid_grant\"}");
    }
  else if (g_str_equal (path, "/revoke"))
    {
      g_autoptr(GHashTable) form = read_form (msg);

      g_free (fixture->revoked);
      fixture->revoked = g_strdup (g_hash_table_lookup (form, "token"));
      soup_server_message_set_status (msg, 200, NULL);
    }
  else
    reply_json (msg, 404, "{}");
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  fixture->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (fixture->server, NULL, handler_cb, fixture, NULL);
  soup_server_listen (fixture->server, address, 0, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (fixture->server);
  fixture->base = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  soup_server_disconnect (fixture->server);
  g_assert_finalize_object (fixture->server);
  g_free (fixture->base);
  g_free (fixture->claimed_issuer);
  g_free (fixture->last_resource);
  g_free (fixture->revoked);
}

/* The browser: follows the authorization request's redirect to the
 * loopback server, as a person's browser would after they approve. */
typedef struct {
  SoupSession *session;
  guint        n_opened;
} Browser;

static void
loopback_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (object), result,
                                                              NULL);
}

static void
authorize_page_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SoupMessage) msg = user_data;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(SoupMessage) next = NULL;
  const char *location;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 302);
  location = soup_message_headers_get_one (soup_message_get_response_headers (msg), "Location");
  g_assert_true (g_str_has_prefix (location, "http://127.0.0.1:"));

  next = soup_message_new ("GET", location);
  soup_session_send_and_read_async (SOUP_SESSION (object), next, G_PRIORITY_DEFAULT, NULL,
                                    loopback_cb, NULL);
}

static void
open_cb (const char *url,
         gpointer    user_data)
{
  Browser *browser = user_data;
  SoupMessage *msg = soup_message_new ("GET", url);

  browser->n_opened++;
  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_and_read_async (browser->session, msg, G_PRIORITY_DEFAULT, NULL,
                                    authorize_page_cb, msg);
}

typedef struct {
  gboolean      done;
  McpAuthToken *token;
  GError       *error;
} Outcome;

static void
authorized_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->token = mcp_auth_flow_authorize_finish (MCP_AUTH_FLOW (object), result,
                                                   &outcome->error);
  outcome->done = TRUE;
}

static void
refreshed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->token = mcp_auth_flow_refresh_finish (MCP_AUTH_FLOW (object), result,
                                                 &outcome->error);
  outcome->done = TRUE;
}

static void
revoked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Outcome *outcome = user_data;

  g_assert_true (mcp_auth_flow_revoke_finish (MCP_AUTH_FLOW (object), result, &outcome->error));
  outcome->done = TRUE;
}

static void
outcome_clear (Outcome *outcome)
{
  g_clear_pointer (&outcome->token, mcp_auth_token_free);
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
}

/* Signs in to the fixture's server with a browser of our own. */
static McpAuthFlow *
sign_in (Fixture  *fixture,
         Browser  *browser,
         Outcome  *outcome)
{
  g_autofree char *url = g_strconcat (fixture->base, "/mcp", NULL);
  g_autofree char *challenge = g_strdup_printf (
    "Bearer resource_metadata=\"%s/.well-known/oauth-protected-resource/mcp\"", fixture->base);
  McpAuthFlow *flow = mcp_auth_flow_new (url);

  browser->session = soup_session_new ();
  mcp_auth_flow_set_open_func (flow, open_cb, browser, NULL);
  mcp_auth_flow_authorize_async (flow, challenge, NULL, authorized_cb, outcome);
  RUN_UNTIL (outcome->done);

  return flow;
}

static void
browser_clear (Browser *browser)
{
  g_clear_object (&browser->session);
}

static void
test_sign_in (Fixture       *fixture,
              gconstpointer  data)
{
  Browser browser = { 0 };
  Outcome outcome = { 0 };
  g_autoptr(McpAuthFlow) flow = NULL;
  g_autofree char *resource = g_strconcat (fixture->base, "/mcp", NULL);

  fixture->iss_mode = ISS_RIGHT;
  fixture->promises_iss = TRUE;
  flow = sign_in (fixture, &browser, &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpstr (outcome.token->access_token, ==, "access-1");
  g_assert_cmpstr (outcome.token->refresh_token, ==, "refresh-1");
  g_assert_cmpstr (outcome.token->issuer, ==, fixture->base);
  g_assert_cmpstr (outcome.token->resource, ==, resource);
  g_assert_cmpstr (outcome.token->client_id, ==, "client-1");
  /* The resource's scopes, and offline_access as the server lists it. */
  g_assert_cmpstr (outcome.token->scope, ==, "files offline_access");
  g_assert_cmpint (outcome.token->expires_at, >, g_get_real_time () / G_USEC_PER_SEC + 3000);
  g_assert_cmpstr (fixture->last_resource, ==, resource);
  g_assert_cmpuint (browser.n_opened, ==, 1);

  outcome_clear (&outcome);
  browser_clear (&browser);
  g_assert_finalize_object (g_steal_pointer (&flow));
}

/* RFC 9207: a wrong `iss`, or none where the server promised one, and the
 * code is never redeemed. */
static void
test_iss_refused (Fixture       *fixture,
                  gconstpointer  data)
{
  static const struct {
    IssMode  mode;
    gboolean promised;
  } cases[] = {
    { ISS_NONE, TRUE },    /* missing */
    { ISS_WRONG, TRUE },   /* wrong */
    { ISS_WRONG, FALSE },  /* unexpected, and wrong */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Browser browser = { 0 };
      Outcome outcome = { 0 };
      g_autoptr(McpAuthFlow) flow = NULL;

      fixture->iss_mode = cases[i].mode;
      fixture->promises_iss = cases[i].promised;
      fixture->n_token = 0;
      flow = sign_in (fixture, &browser, &outcome);

      g_assert_error (outcome.error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_ISS);
      g_assert_null (outcome.token);
      g_assert_cmpuint (fixture->n_token, ==, 0);

      outcome_clear (&outcome);
      browser_clear (&browser);
      g_assert_finalize_object (g_steal_pointer (&flow));
    }
}

/* An `iss` the server did not promise but that names it is accepted. */
static void
test_iss_unexpected_right (Fixture       *fixture,
                           gconstpointer  data)
{
  Browser browser = { 0 };
  Outcome outcome = { 0 };
  g_autoptr(McpAuthFlow) flow = NULL;

  fixture->iss_mode = ISS_RIGHT;
  fixture->promises_iss = FALSE;
  flow = sign_in (fixture, &browser, &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpstr (outcome.token->access_token, ==, "access-1");

  outcome_clear (&outcome);
  browser_clear (&browser);
  g_assert_finalize_object (g_steal_pointer (&flow));
}

/* Metadata that names another issuer than the one it was looked up for
 * stops the sign-in before the browser opens. */
static void
test_issuer_mismatch (Fixture       *fixture,
                      gconstpointer  data)
{
  Browser browser = { 0 };
  Outcome outcome = { 0 };
  g_autoptr(McpAuthFlow) flow = NULL;

  fixture->claimed_issuer = g_strdup ("https://other.example");
  flow = sign_in (fixture, &browser, &outcome);

  g_assert_error (outcome.error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_ISSUER_MISMATCH);
  g_assert_cmpuint (browser.n_opened, ==, 0);
  g_assert_cmpuint (fixture->n_authorize, ==, 0);

  outcome_clear (&outcome);
  browser_clear (&browser);
  g_assert_finalize_object (g_steal_pointer (&flow));
}

/* A refresh gets a new access token without the browser; a server that
 * does not rotate leaves the refresh token as it was. Then sign-out
 * revokes the refresh token. */
static void
test_refresh_and_revoke (Fixture       *fixture,
                         gconstpointer  data)
{
  Browser browser = { 0 };
  Outcome outcome = { 0 };
  g_autoptr(McpAuthFlow) flow = NULL;
  g_autoptr(McpAuthFlow) later = NULL;
  g_autoptr(McpAuthToken) first = NULL;
  g_autofree char *url = g_strconcat (fixture->base, "/mcp", NULL);

  flow = sign_in (fixture, &browser, &outcome);
  g_assert_no_error (outcome.error);
  first = g_steal_pointer (&outcome.token);
  outcome_clear (&outcome);

  /* A new flow, as after a restart: it discovers again and refreshes as
   * the client the token was granted to. */
  later = mcp_auth_flow_new (url);
  mcp_auth_flow_refresh_async (later, first, NULL, refreshed_cb, &outcome);
  RUN_UNTIL (outcome.done);
  g_assert_no_error (outcome.error);
  g_assert_cmpstr (outcome.token->access_token, ==, "access-2");
  g_assert_cmpstr (outcome.token->refresh_token, ==, "refresh-1");
  g_assert_cmpstr (outcome.token->client_id, ==, "client-1");
  g_assert_cmpuint (fixture->n_refresh, ==, 1);
  g_assert_cmpuint (browser.n_opened, ==, 1);
  outcome_clear (&outcome);

  fixture->rotates_refresh = TRUE;
  mcp_auth_flow_refresh_async (later, first, NULL, refreshed_cb, &outcome);
  RUN_UNTIL (outcome.done);
  g_assert_cmpstr (outcome.token->refresh_token, ==, "refresh-2");
  outcome_clear (&outcome);

  mcp_auth_flow_revoke_async (later, first, NULL, revoked_cb, &outcome);
  RUN_UNTIL (outcome.done);
  g_assert_no_error (outcome.error);
  g_assert_cmpstr (fixture->revoked, ==, "refresh-1");
  outcome_clear (&outcome);

  browser_clear (&browser);
  g_assert_finalize_object (g_steal_pointer (&flow));
  g_assert_finalize_object (g_steal_pointer (&later));
}

/* JWT-shaped, with @claims as its payload and no signature worth the
 * name: who signed in is shown, never trusted. */
static char *
make_jwt (const char *claims)
{
  g_autofree char *header = g_base64_encode ((const guchar *) "{\"alg\":\"none\"}", 15);
  g_autofree char *payload = g_base64_encode ((const guchar *) claims, strlen (claims));

  g_strdelimit (header, "=", '\0');
  g_strdelimit (payload, "=", '\0');
  g_strdelimit (header, "+", '-');
  g_strdelimit (payload, "+", '-');
  g_strdelimit (header, "/", '_');
  g_strdelimit (payload, "/", '_');
  return g_strdup_printf ("%s.%s.sig", header, payload);
}

static void
test_identity_claims (void)
{
  g_autofree char *all = make_jwt ("{\"sub\":\"u\",\"email\":\"a@example.com\","
                                   "\"preferred_username\":\"ada\",\"name\":\"Ada L\"}");
  g_autofree char *handle = make_jwt ("{\"email\":\"a@example.com\","
                                      "\"preferred_username\":\"ada\"}");
  g_autofree char *mail = make_jwt ("{\"sub\":\"u\",\"email\":\"a@example.com\","
                                    "\"name\":\"\"}");
  g_autofree char *subject = make_jwt ("{\"sub\":\"u\",\"name\":7}");
  g_autofree char *from_all = mcp_auth_identity_from_jwt (all);
  g_autofree char *from_handle = mcp_auth_identity_from_jwt (handle);
  g_autofree char *from_mail = mcp_auth_identity_from_jwt (mail);
  g_autofree char *from_subject = mcp_auth_identity_from_jwt (subject);
  g_autofree char *from_opaque = mcp_auth_identity_from_jwt ("opaque-token");
  g_autofree char *from_garbage = mcp_auth_identity_from_jwt ("a.%%%.c");
  McpAuthToken token = { 0 };
  g_autofree char *with_openid = NULL;
  g_autofree char *without_openid = NULL;

  /* name, then preferred_username, then email; empty and non-string
   * claims do not count, nor does the opaque subject. */
  g_assert_cmpstr (from_all, ==, "Ada L");
  g_assert_cmpstr (from_handle, ==, "ada");
  g_assert_cmpstr (from_mail, ==, "a@example.com");
  g_assert_null (from_subject);
  g_assert_null (from_opaque);
  g_assert_null (from_garbage);

  /* The ID token names who signed in when openid was granted; otherwise
   * the access token does. */
  token.access_token = handle;
  token.id_token = all;
  token.scope = (char *) "files openid";
  with_openid = mcp_auth_identity_from_token (&token);
  g_assert_cmpstr (with_openid, ==, "Ada L");
  token.scope = (char *) "files";
  without_openid = mcp_auth_identity_from_token (&token);
  g_assert_cmpstr (without_openid, ==, "ada");
}

typedef struct {
  gboolean  done;
  char     *name;
  GError   *error;
} Userinfo;

static void
userinfo_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Userinfo *userinfo = user_data;

  userinfo->name = mcp_auth_identity_fetch_userinfo_finish (result, &userinfo->error);
  userinfo->done = TRUE;
}

static void
fetch_userinfo (Fixture    *fixture,
                const char *path,
                const char *token,
                Userinfo   *userinfo)
{
  g_autofree char *endpoint = g_strconcat (fixture->base, path, NULL);

  mcp_auth_identity_fetch_userinfo_async (endpoint, token, NULL, userinfo_cb, userinfo);
  RUN_UNTIL (userinfo->done);
}

static void
test_userinfo (Fixture       *fixture,
               gconstpointer  data)
{
  Userinfo named = { 0 };
  Userinfo refused = { 0 };
  Userinfo nameless = { 0 };
  Userinfo flood = { 0 };

  fetch_userinfo (fixture, "/userinfo", "token-1", &named);
  g_assert_no_error (named.error);
  g_assert_cmpstr (named.name, ==, "Ada Lovelace");

  fetch_userinfo (fixture, "/userinfo", "someone-else", &refused);
  g_assert_error (refused.error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP);
  g_assert_nonnull (strstr (refused.error->message, "401"));
  g_assert_null (refused.name);

  fetch_userinfo (fixture, "/userinfo", "nameless", &nameless);
  g_assert_error (nameless.error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP);
  g_assert_null (nameless.name);

  /* A flood is cut off at its limit rather than read whole. */
  fetch_userinfo (fixture, "/userinfo-flood", "token-1", &flood);
  g_assert_error (flood.error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP);
  g_assert_nonnull (strstr (flood.error->message, "more than"));

  g_free (named.name);
  g_clear_error (&refused.error);
  g_clear_error (&nameless.error);
  g_clear_error (&flood.error);
}

static guchar *
decode_base64url (const char *text,
                  gsize      *length)
{
  g_autoptr(GString) padded = g_string_new (text);

  g_strdelimit (padded->str, "-", '+');
  g_strdelimit (padded->str, "_", '/');
  while (padded->len % 4 != 0)
    g_string_append_c (padded, '=');

  return g_base64_decode (padded->str, length);
}

/* A key made by openssl for the test alone, in @dir; NULL without openssl. */
static char *
make_key (const char *dir,
          const char *name,
          const char *algorithm_option)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *argv0 = g_find_program_in_path ("openssl");
  const char *argv[] = { argv0, "genpkey", "-algorithm", NULL, "-pkeyopt", algorithm_option,
                         "-out", path, NULL };
  g_autoptr(GError) error = NULL;
  char *pem = NULL;
  int status = -1;

  if (argv0 == NULL)
    return NULL;

  argv[3] = g_str_has_prefix (algorithm_option, "ec_") ? "EC" : "RSA";
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_file_get_contents (path, &pem, NULL, &error);
  g_assert_no_error (error);

  return pem;
}

/* GnuTLS is loaded when the first assertion is signed: ES256 and RS256
 * come out in the JWS form, the RSA one checked by openssl, and a key
 * that is no key is named as the cause. */
static void
test_jwt_sign_with_key (void)
{
  g_autofree char *dir = g_dir_make_tmp ("steward-jwt-XXXXXX", NULL);
  g_autofree char *ec = make_key (dir, "ec.pem", "ec_paramgen_curve:P-256");
  g_autofree char *rsa = make_key (dir, "rsa.pem", "rsa_keygen_bits:2048");
  g_autoptr(GError) error = NULL;
  g_autofree char *es256 = NULL;
  g_autofree char *rs256 = NULL;
  g_autofree char *none = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree guchar *header = NULL;
  g_autofree guchar *signature = NULL;
  gsize length = 0;

  if (ec == NULL)
    {
      g_test_skip ("openssl is not installed to make the keys");
      return;
    }

  es256 = mcp_auth_jwt_sign_with_key (ec, "client", "https://as.example/token", &error);
  g_assert_no_error (error);
  parts = g_strsplit (es256, ".", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  header = decode_base64url (parts[0], &length);
  g_assert_nonnull (g_strstr_len ((const char *) header, length, "\"ES256\""));
  signature = decode_base64url (parts[2], &length);
  g_assert_cmpuint (length, ==, 64);
  g_clear_pointer (&parts, g_strfreev);
  g_clear_pointer (&signature, g_free);

  rs256 = mcp_auth_jwt_sign_with_key (rsa, "client", "https://as.example/token", &error);
  g_assert_no_error (error);
  parts = g_strsplit (rs256, ".", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  signature = decode_base64url (parts[2], &length);
  g_assert_cmpuint (length, ==, 256);
  {
    g_autofree char *input = g_strconcat (parts[0], ".", parts[1], NULL);
    g_autofree char *input_path = g_build_filename (dir, "input", NULL);
    g_autofree char *signature_path = g_build_filename (dir, "signature", NULL);
    g_autofree char *key_path = g_build_filename (dir, "rsa.pem", NULL);
    g_autofree char *argv0 = g_find_program_in_path ("openssl");
    const char *argv[] = { argv0, "dgst", "-sha256", "-verify", NULL, "-signature",
                           signature_path, input_path, NULL };
    g_autofree char *public_path = g_build_filename (dir, "rsa.pub", NULL);
    const char *export[] = { argv0, "pkey", "-in", key_path, "-pubout", "-out", public_path,
                             NULL };
    int status = -1;

    g_file_set_contents (input_path, input, -1, &error);
    g_assert_no_error (error);
    g_file_set_contents (signature_path, (const char *) signature, length, &error);
    g_assert_no_error (error);
    g_spawn_sync (NULL, (char **) export, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                  NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
    argv[4] = public_path;
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                  NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
  }

  none = mcp_auth_jwt_sign_with_key ("not a key", "client", "https://as.example/token", &error);
  g_assert_null (none);
  g_assert_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT);
  g_assert_nonnull (strstr (error->message, "not a PEM private key"));

  {
    const char *names[] = { "ec.pem", "rsa.pem", "rsa.pub", "input", "signature" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *path = g_build_filename (dir, names[i], NULL);

        g_unlink (path);
      }
    g_rmdir (dir);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/auth/challenge", test_challenge);
  g_test_add_func ("/steward/auth/pkce", test_pkce);
  g_test_add_func ("/steward/auth/jwt-sign-with-key", test_jwt_sign_with_key);
  g_test_add_func ("/steward/auth/metadata-urls", test_metadata_urls);
  g_test_add_func ("/steward/auth/resource-covers", test_resource_covers);
  g_test_add ("/steward/auth/sign-in", Fixture, NULL, fixture_set_up, test_sign_in,
              fixture_tear_down);
  g_test_add ("/steward/auth/iss-refused", Fixture, NULL, fixture_set_up, test_iss_refused,
              fixture_tear_down);
  g_test_add ("/steward/auth/iss-unexpected-right", Fixture, NULL, fixture_set_up,
              test_iss_unexpected_right, fixture_tear_down);
  g_test_add ("/steward/auth/issuer-mismatch", Fixture, NULL, fixture_set_up,
              test_issuer_mismatch, fixture_tear_down);
  g_test_add ("/steward/auth/refresh-and-revoke", Fixture, NULL, fixture_set_up,
              test_refresh_and_revoke, fixture_tear_down);
  g_test_add_func ("/steward/auth/identity-claims", test_identity_claims);
  g_test_add ("/steward/auth/userinfo", Fixture, NULL, fixture_set_up, test_userinfo,
              fixture_tear_down);

  return g_test_run ();
}
