/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-resource-template"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-resource-template.h"

struct _McpResourceTemplate
{
  McpItem parent_instance;
};

G_DEFINE_FINAL_TYPE (McpResourceTemplate, mcp_resource_template, MCP_TYPE_ITEM)

#define RFC3986_RESERVED "!#$&'()*+,/:;=?@[]"

typedef struct {
  char        op;          /* 0 for a simple expression */
  const char *first;       /* put before the first defined variable */
  const char *separator;   /* put between variables */
  gboolean    named;       /* name=value */
  gboolean    allow_reserved;
  const char *if_empty;    /* after the name when the value is empty */
} Operator;

static const Operator operators[] = {
  { 0,   "",  ",", FALSE, FALSE, "" },
  { '+', "",  ",", FALSE, TRUE,  "" },
  { '#', "#", ",", FALSE, TRUE,  "" },
  { '.', ".", ".", FALSE, FALSE, "" },
  { '/', "/", "/", FALSE, FALSE, "" },
  { ';', ";", ";", TRUE,  FALSE, "" },
  { '?', "?", "&", TRUE,  FALSE, "=" },
  { '&', "&", "&", TRUE,  FALSE, "=" },
};

static void
mcp_resource_template_class_init (McpResourceTemplateClass *klass)
{
  MCP_ITEM_CLASS (klass)->key_member = "uriTemplate";
}

static void
mcp_resource_template_init (McpResourceTemplate *self)
{
}

McpResourceTemplate *
mcp_resource_template_new (JsonObject  *json,
                           GError     **error)
{
  return mcp_item_new_for_type (MCP_TYPE_RESOURCE_TEMPLATE, json, error);
}

const char *
mcp_resource_template_get_uri_template (McpResourceTemplate *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  return mcp_item_get_key (MCP_ITEM (self));
}

static const Operator *
find_operator (const char **expression)
{
  for (guint i = 1; i < G_N_ELEMENTS (operators); i++)
    if (**expression == operators[i].op)
      {
        (*expression)++;
        return &operators[i];
      }

  return &operators[0];
}

/* Splits "a,b:3,c*" into names, dropping the modifiers unless asked. */
static char **
split_variables (const char *expression,
                 gsize       length,
                 gboolean    keep_modifiers)
{
  g_autofree char *copy = g_strndup (expression, length);
  char **names = g_strsplit (copy, ",", -1);

  if (!keep_modifiers)
    for (char **p = names; *p != NULL; p++)
      (*p)[strcspn (*p, ":*")] = '\0';

  return names;
}

/**
 * mcp_resource_template_dup_variables:
 *
 * Returns: (transfer full): the variable names of the URI template, each
 *   once, in order of appearance
 */
char **
mcp_resource_template_dup_variables (McpResourceTemplate *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_null_terminated (4, g_free, TRUE);
  const char *p;

  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  p = mcp_resource_template_get_uri_template (self);
  while ((p = strchr (p, '{')) != NULL)
    {
      const char *end = strchr (p, '}');
      const char *expression = p + 1;
      g_auto(GStrv) vars = NULL;

      if (end == NULL)
        break;

      find_operator (&expression);
      vars = split_variables (expression, end - expression, FALSE);
      for (char **v = vars; *v != NULL; v++)
        if (**v != '\0' && !g_ptr_array_find_with_equal_func (names, *v, g_str_equal, NULL))
          g_ptr_array_add (names, g_strdup (*v));

      p = end + 1;
    }

  return (char **) g_ptr_array_steal (names, NULL);
}

static void
append_value (GString    *out,
              const char *value,
              gboolean    allow_reserved)
{
  g_autofree char *escaped = g_uri_escape_string (value, allow_reserved ? RFC3986_RESERVED : NULL,
                                                  FALSE);

  g_string_append (out, escaped);
}

/**
 * mcp_resource_template_expand:
 * @values: (element-type utf8 utf8): variable name → value
 *
 * Expands the template as RFC 6570 describes, levels 1 to 3 and the prefix
 * modifier of level 4. Variables without a value are left out.
 *
 * Returns: (transfer full): the URI
 */
char *
mcp_resource_template_expand (McpResourceTemplate *self,
                              GHashTable          *values)
{
  GString *out = g_string_new (NULL);
  const char *p;

  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (self), NULL);

  p = mcp_resource_template_get_uri_template (self);
  while (*p != '\0')
    {
      const char *open = strchr (p, '{');
      const char *close;
      const char *expression;
      const Operator *op;
      g_auto(GStrv) vars = NULL;
      gboolean first = TRUE;

      if (open == NULL || (close = strchr (open, '}')) == NULL)
        {
          g_string_append (out, p);
          break;
        }

      g_string_append_len (out, p, open - p);
      expression = open + 1;
      op = find_operator (&expression);
      vars = split_variables (expression, close - expression, TRUE);

      for (char **v = vars; *v != NULL; v++)
        {
          g_autofree char *name = g_strndup (*v, strcspn (*v, ":*"));
          const char *colon = strchr (*v, ':');
          const char *value = values ? g_hash_table_lookup (values, name) : NULL;
          g_autofree char *prefix = NULL;

          if (value == NULL)
            continue;

          if (colon != NULL)
            {
              guint64 max_chars = g_ascii_strtoull (colon + 1, NULL, 10);

              if (max_chars > 0 && max_chars < (guint64) g_utf8_strlen (value, -1))
                value = prefix = g_utf8_substring (value, 0, (glong) max_chars);
            }

          g_string_append (out, first ? op->first : op->separator);
          first = FALSE;

          if (op->named)
            {
              g_string_append (out, name);
              if (*value == '\0')
                {
                  g_string_append (out, op->if_empty);
                  continue;
                }
              g_string_append_c (out, '=');
            }

          append_value (out, value, op->allow_reserved);
        }

      p = close + 1;
    }

  return g_string_free (out, FALSE);
}
