/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of McpAuthFlow share: mcp-auth-flow.c (the object, its
 * settings and the runs of a sign-in), mcp-auth-flow-discovery.c (finding
 * the authorization server), mcp-auth-flow-authorize.c (registration and
 * the authorization code grant) and mcp-auth-flow-token.c (the token
 * endpoint: client authentication, refresh and revocation). */

#include <json-glib/json-glib.h>
#include "mcp-soup.h"

#include "mcp-auth-challenge.h"
#include "mcp-auth-loopback.h"

#include "mcp-auth-flow.h"

G_BEGIN_DECLS

struct _McpAuthFlow
{
  GObject                  parent_instance;

  SoupSession             *session;
  char                    *server_url;
  char                    *client_name;
  char                    *done_page;

  /* What the person or the configuration gave. */
  char                    *client_id;
  char                    *client_secret;
  char                    *client_metadata_url;
  char                    *scope;
  char                    *private_key_pem;
  gboolean                 client_credentials;

  McpAuthOpenFunc          open_func;
  gpointer                 open_data;
  GDestroyNotify           open_destroy;

  /* What was discovered and registered. */
  McpAuthResourceMetadata *resource_metadata;
  McpAuthServerMetadata   *server_metadata;
  char                    *resource;
  gboolean                 legacy;
  char                    *registered_id;
  char                    *registered_secret;
  char                    *registered_method;
  char                    *requested_scope;
  /* Kept for the flow's life, so that a step-up uses the redirect URI the
   * client registered with. */
  McpAuthLoopback         *loopback;
};

/* Reads what one discovery place answered (%NULL for nothing usable);
 * takes @task. */
typedef void (*McpAuthFetchedFunc) (GTask    *task,
                                    JsonNode *node);

/* One sign-in, the task data of its GTask. */
typedef struct {
  McpAuthChallenge   *challenge;
  /* The discovery places to try in turn, and what reads their answers. */
  char              **urls;
  guint               next_url;
  McpAuthFetchedFunc  fetched;
  char               *issuer;
  char               *verifier;
  char               *state;
  char               *scope;
  gboolean            discover_only;
} McpAuthRun;

/* The token endpoint (mcp-auth-flow-token.c) */
void          mcp_auth_flow_send_json_async     (McpAuthFlow          *self,
                                                 SoupMessage          *msg,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
JsonNode     *mcp_auth_flow_send_json_finish    (McpAuthFlow          *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
const char   *mcp_auth_flow_client_id           (McpAuthFlow          *self);
SoupMessage  *mcp_auth_flow_new_token_request   (McpAuthFlow          *self,
                                                 const char           *url,
                                                 GHashTable           *form,
                                                 GError              **error);
McpAuthToken *mcp_auth_flow_token_finish        (McpAuthFlow          *self,
                                                 GAsyncResult         *result,
                                                 const char           *scope,
                                                 GError              **error);
GHashTable   *mcp_auth_form_new                 (void);
void          mcp_auth_form_add                 (GHashTable           *form,
                                                 const char           *name,
                                                 const char           *value);

/* Discovery (mcp-auth-flow-discovery.c); takes @task. */
void          mcp_auth_flow_run_discovery       (GTask                *task);

/* Signing in, once discovered (mcp-auth-flow-authorize.c); takes @task. */
void          mcp_auth_flow_after_discovery     (GTask                *task);

G_END_DECLS
