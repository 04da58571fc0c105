/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include "mcp-soup.h"

#include "steward-provider.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * What every back end spoken to over HTTP has: a name, a base URL, the
 * keyring id of its key, one SoupSession, the list of its models and the
 * chat turn. Subclasses (steward-provider-private.h) bring only their wire
 * format: the request body, the headers, the parsing of their answers.
 */

#define STEWARD_TYPE_HTTP_PROVIDER (steward_http_provider_get_type ())

G_DECLARE_DERIVABLE_TYPE (StewardHttpProvider, steward_http_provider, STEWARD, HTTP_PROVIDER, GObject)

/* The wire format's chat turn (steward-provider-private.h). */
typedef struct _StewardProviderWire StewardProviderWire;

struct _StewardHttpProviderClass
{
  GObjectClass parent_class;

  /* The wire format's chat turn. */
  const StewardProviderWire *wire;
  /* The base URL when none is given, or NULL. */
  const char                *default_base_url;

  /* Headers every request carries besides "Accept"; @key may be NULL. */
  void         (*add_headers)         (StewardHttpProvider  *self,
                                       SoupMessageHeaders   *headers,
                                       const char           *key);
  /* Where a chat turn is posted, and where the list of models starts. */
  char        *(*chat_url)            (StewardHttpProvider  *self);
  char        *(*models_url)          (StewardHttpProvider  *self);
  /* Reads one page of the list into @names (steward_provider_add_model_name);
   * @next receives the URL of the page after it, if there is one. FALSE
   * when the page is not a list of models. @fallback says the page came
   * from fallback_models_url(). */
  gboolean     (*read_models)         (StewardHttpProvider  *self,
                                       JsonNode             *reply,
                                       gboolean              fallback,
                                       GPtrArray            *names,
                                       char                **next,
                                       GError              **error);
  /* (nullable) Where else to ask once when the list failed with @status,
   * or NULL. */
  char        *(*fallback_models_url) (StewardHttpProvider  *self,
                                       guint                 status);
};

const char *steward_http_provider_get_base_url (StewardHttpProvider *self);
const char *steward_http_provider_get_key_id   (StewardHttpProvider *self);

G_END_DECLS
