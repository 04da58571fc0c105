/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app"

#include "config.h"

#include "steward-app-csp.h"

/* Appends the origins that pass the check again: the meta checked them
 * when it read them, and the policy must not depend on that alone. */
static gboolean
append_domains (GString            *policy,
                const char * const *domains,
                McpAppDomainKind    kind)
{
  gboolean any = FALSE;

  for (gsize i = 0; domains != NULL && domains[i] != NULL; i++)
    {
      if (!mcp_app_domain_check (domains[i], kind, NULL))
        continue;
      g_string_append_c (policy, ' ');
      g_string_append (policy, domains[i]);
      any = TRUE;
    }

  return any;
}

static void
append_directive (GString            *policy,
                  const char         *directive,
                  const char         *base,
                  const char * const *domains,
                  McpAppDomainKind    kind,
                  const char         *when_none)
{
  gsize start;

  if (policy->len > 0)
    g_string_append (policy, "; ");
  g_string_append (policy, directive);
  start = policy->len;
  if (base != NULL)
    {
      g_string_append_c (policy, ' ');
      g_string_append (policy, base);
    }

  if (!append_domains (policy, domains, kind) && base == NULL)
    {
      g_string_truncate (policy, start);
      g_string_append_c (policy, ' ');
      g_string_append (policy, when_none);
    }
}

/* The page is served to the view from a scheme of its own, so 'self' is
 * the page and nothing else; its inline script and style are how a view
 * is written (one HTML file with everything in it). */
char *
steward_app_csp_build (McpAppResourceMeta *meta)
{
  g_autoptr(McpAppResourceMeta) fallback = NULL;
  const char * const *resources;
  GString *policy = g_string_new (NULL);

  g_return_val_if_fail (meta == NULL || MCP_IS_APP_RESOURCE_META (meta), NULL);

  if (meta == NULL)
    meta = fallback = mcp_app_resource_meta_new_default ();

  resources = mcp_app_resource_meta_get_resource_domains (meta);

  g_string_append (policy, "default-src 'none'");
  append_directive (policy, "script-src", "'self' 'unsafe-inline'", resources,
                    MCP_APP_DOMAIN_RESOURCE, NULL);
  append_directive (policy, "style-src", "'self' 'unsafe-inline'", resources,
                    MCP_APP_DOMAIN_RESOURCE, NULL);
  append_directive (policy, "img-src", "'self' data:", resources,
                    MCP_APP_DOMAIN_RESOURCE, NULL);
  append_directive (policy, "font-src", "'self' data:", resources,
                    MCP_APP_DOMAIN_RESOURCE, NULL);
  append_directive (policy, "media-src", "'self' data:", resources,
                    MCP_APP_DOMAIN_RESOURCE, NULL);
  append_directive (policy, "connect-src", NULL,
                    mcp_app_resource_meta_get_connect_domains (meta),
                    MCP_APP_DOMAIN_CONNECT, "'none'");
  append_directive (policy, "frame-src", NULL,
                    mcp_app_resource_meta_get_frame_domains (meta),
                    MCP_APP_DOMAIN_FRAME, "'none'");
  append_directive (policy, "base-uri", NULL,
                    mcp_app_resource_meta_get_base_uri_domains (meta),
                    MCP_APP_DOMAIN_BASE_URI, "'self'");
  g_string_append (policy, "; object-src 'none'; worker-src 'self'; form-action 'none'");

  return g_string_free (policy, FALSE);
}
