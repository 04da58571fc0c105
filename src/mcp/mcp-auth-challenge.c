/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include "mcp-auth-challenge.h"
#include "mcp-error.h"

G_DEFINE_BOXED_TYPE (McpAuthChallenge, mcp_auth_challenge,
                     mcp_auth_challenge_copy, mcp_auth_challenge_free)

/* RFC 9110 §5.6.2: the characters of a token. */
static gboolean
is_tchar (char c)
{
  return g_ascii_isalnum (c) || (c != '\0' && strchr ("!#$%&'*+-.^_`|~", c) != NULL);
}

static const char *
skip_space (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

static char *
read_token (const char **p)
{
  const char *start = *p;

  while (is_tchar (**p))
    (*p)++;

  return *p > start ? g_strndup (start, *p - start) : NULL;
}

/* A quoted-string with its backslash escapes undone, or NULL when it does
 * not end. */
static char *
read_quoted (const char **p)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *q = *p + 1;

  for (; *q != '\0' && *q != '"'; q++)
    {
      if (*q == '\\' && q[1] != '\0')
        q++;
      g_string_append_c (out, *q);
    }

  if (*q != '"')
    return NULL;

  *p = q + 1;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
keep (McpAuthChallenge *challenge,
      const char       *name,
      char             *value)
{
  char **slot = NULL;

  if (g_ascii_strcasecmp (name, "error") == 0)
    slot = &challenge->error;
  else if (g_ascii_strcasecmp (name, "scope") == 0)
    slot = &challenge->scope;
  else if (g_ascii_strcasecmp (name, "resource_metadata") == 0)
    slot = &challenge->resource_metadata;
  else if (g_ascii_strcasecmp (name, "error_description") == 0)
    slot = &challenge->error_description;

  /* The first of a repeated parameter counts, as a later one could be
   * smuggled in after it. */
  if (slot != NULL && *slot == NULL)
    *slot = value;
  else
    g_free (value);
}

/**
 * mcp_auth_challenge_parse:
 * @header: (nullable): the `WWW-Authenticate` value; several headers come
 *   joined with commas, and other schemes may stand around the `Bearer` one
 *
 * Returns: (transfer full) (nullable): the `Bearer` challenge, or %NULL when
 *   the header holds none or cannot be read
 */
McpAuthChallenge *
mcp_auth_challenge_parse (const char *header)
{
  g_autoptr(McpAuthChallenge) challenge = NULL;
  const char *p = header;
  gboolean in_bearer = FALSE;

  if (header == NULL)
    return NULL;

  for (;;)
    {
      g_autofree char *name = NULL;
      const char *after;
      char *value;

      p = skip_space (p);
      while (*p == ',')
        p = skip_space (p + 1);
      if (*p == '\0')
        break;

      name = read_token (&p);
      if (name == NULL)
        return NULL;

      after = skip_space (p);
      if (*after != '=' || after[1] == '=')
        {
          /* A new scheme, or the token68 of one, whose padding is
           * passed over. */
          if (*after == '=')
            for (p = after; *p == '='; p++)
              ;
          in_bearer = g_ascii_strcasecmp (name, "Bearer") == 0;
          if (in_bearer && challenge == NULL)
            challenge = g_new0 (McpAuthChallenge, 1);
          else if (in_bearer)
            break;
          continue;
        }

      /* A parameter's value is a quoted string or a bare token (RFC 9110
       * §11.2); either way it is kept only for the Bearer scheme. */
      p = skip_space (after + 1);
      value = *p == '"' ? read_quoted (&p) : read_token (&p);
      if (value == NULL)
        return NULL;
      if (in_bearer)
        keep (challenge, name, value);
      else
        g_free (value);
    }

  return g_steal_pointer (&challenge);
}

McpAuthChallenge *
mcp_auth_challenge_copy (const McpAuthChallenge *challenge)
{
  McpAuthChallenge *copy = g_new0 (McpAuthChallenge, 1);

  copy->error = g_strdup (challenge->error);
  copy->scope = g_strdup (challenge->scope);
  copy->resource_metadata = g_strdup (challenge->resource_metadata);
  copy->error_description = g_strdup (challenge->error_description);

  return copy;
}

void
mcp_auth_challenge_free (McpAuthChallenge *challenge)
{
  if (challenge == NULL)
    return;

  g_free (challenge->error);
  g_free (challenge->scope);
  g_free (challenge->resource_metadata);
  g_free (challenge->error_description);
  g_free (challenge);
}

/**
 * mcp_auth_challenge_from_error:
 * @error: why a connection or a request failed
 *
 * Whether @error is the server asking for a sign-in: a `401` with a Bearer
 * challenge, or a `403` whose challenge asks for more scopes. A `401`
 * without a Bearer challenge wants some other credential, which signing
 * in would not give.
 *
 * Returns: (transfer full) (nullable): the `WWW-Authenticate` header to
 *   sign in with, or %NULL
 */
char *
mcp_auth_challenge_from_error (const GError *error)
{
  g_autoptr(McpAuthChallenge) challenge = NULL;
  JsonObject *object;
  JsonNode *data;
  const char *header;
  gint64 status;

  if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_HTTP_STATUS))
    return NULL;

  data = mcp_error_get_data (error);
  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
    return NULL;

  object = json_node_get_object (data);
  status = json_object_get_int_member_with_default (object, "status", 0);
  header = json_object_get_string_member_with_default (object, "wwwAuthenticate", NULL);

  challenge = mcp_auth_challenge_parse (header);
  if (challenge == NULL)
    return NULL;
  if (status == 401 ||
      (status == 403 && g_strcmp0 (challenge->error, "insufficient_scope") == 0))
    return g_strdup (header);

  return NULL;
}
