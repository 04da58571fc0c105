/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-json-parser"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-json-private.h"

/* A strict JSON reader (RFC 8259) that builds json-glib nodes.
 *
 * json-glib 1.6 reads through GScanner, which takes a superset of JSON
 * (comments, single quotes, hex numbers, C escapes, raw control characters,
 * a second value after the first, \u escapes with fewer than four digits)
 * and recurses once per nesting level, so a deep text crashes it. What a
 * peer sends must mean exactly what it says and must never crash us, so
 * texts are read here instead: strictly, with a depth limit, in one pass. */

typedef struct {
  const char  *start;
  const char  *p;
  const char  *end;
  guint        depth;
  guint        max_depth;
  GError     **error;
  GString     *scratch;   /* the string being read, reused for each one */
  /* Whether the text is as mcp_json_append() writes: no space between
   * tokens, and no escape it would not write (\u, \/), so that a secret
   * in it reads as it does in what Steward writes. */
  gboolean     plain;
} Parser;

/* A scratch buffer grown past this by one long string is not kept. */
#define SCRATCH_KEPT 4096

static void
mcp_json_scratch_free (GString *scratch)
{
  g_string_free (scratch, TRUE);
}

static JsonNode *parse_value (Parser *parser);

static gboolean
fail (Parser     *parser,
      int         code,
      const char *what)
{
  if (parser->error != NULL && *parser->error == NULL)
    g_set_error (parser->error, MCP_ERROR, code, "the text is not JSON: %s (at byte %" G_GSIZE_FORMAT ")",
                 what, (gsize) (parser->p - parser->start));
  return FALSE;
}

static void
skip_space (Parser *parser)
{
  const char *first = parser->p;

  while (parser->p < parser->end &&
         (*parser->p == ' ' || *parser->p == '\t' || *parser->p == '\n' || *parser->p == '\r'))
    parser->p++;

  if (parser->p != first)
    parser->plain = FALSE;
}

static int
read_hex4 (Parser *parser)
{
  int unit = 0;

  if (parser->end - parser->p < 4)
    return -1;

  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (parser->p[i]);

      if (digit < 0)
        return -1;
      unit = unit * 16 + digit;
    }

  parser->p += 4;
  return unit;
}

/* Reads a string whose opening quote was consumed into the parser's
 * scratch buffer, valid until the next string is read: json-glib copies
 * keys and values anyway, so reading them costs no allocation of ours. */
static const char *
parse_string (Parser *parser)
{
  GString *out = parser->scratch;
  const char *run = parser->p;

  g_string_truncate (out, 0);

  while (parser->p < parser->end)
    {
      guchar c = (guchar) *parser->p;

      if (c == '"')
        {
          g_string_append_len (out, run, parser->p - run);
          parser->p++;
          return out->str;
        }

      if (c < 0x20)
        {
          fail (parser, MCP_ERROR_PARSE_ERROR, c == 0 ? "a NUL byte inside a string"
                                                      : "a control character inside a string");
          goto error;
        }

      if (c != '\\')
        {
          parser->p++;
          continue;
        }

      g_string_append_len (out, run, parser->p - run);
      parser->p++;
      if (parser->p >= parser->end)
        break;

      switch (*parser->p++)
        {
        case '"':  g_string_append_c (out, '"'); break;
        case '\\': g_string_append_c (out, '\\'); break;
        case '/':  g_string_append_c (out, '/'); parser->plain = FALSE; break;
        case 'b':  g_string_append_c (out, '\b'); break;
        case 'f':  g_string_append_c (out, '\f'); break;
        case 'n':  g_string_append_c (out, '\n'); break;
        case 'r':  g_string_append_c (out, '\r'); break;
        case 't':  g_string_append_c (out, '\t'); break;
        case 'u':
          {
            int unit = read_hex4 (parser);
            gunichar ch;

            parser->plain = FALSE;
            if (unit < 0)
              {
                fail (parser, MCP_ERROR_PARSE_ERROR, "a \\u escape without four hex digits");
                goto error;
              }

            ch = (gunichar) unit;
            if (unit >= 0xd800 && unit <= 0xdbff)
              {
                int low;

                if (parser->end - parser->p < 6 || parser->p[0] != '\\' || parser->p[1] != 'u')
                  {
                    fail (parser, MCP_ERROR_INVALID_UTF8, "an unpaired UTF-16 surrogate");
                    goto error;
                  }
                parser->p += 2;
                low = read_hex4 (parser);
                if (low < 0xdc00 || low > 0xdfff)
                  {
                    fail (parser, MCP_ERROR_INVALID_UTF8, "an unpaired UTF-16 surrogate");
                    goto error;
                  }
                ch = 0x10000 + (((gunichar) unit - 0xd800) << 10) + ((gunichar) low - 0xdc00);
              }
            else if (unit >= 0xdc00 && unit <= 0xdfff)
              {
                fail (parser, MCP_ERROR_INVALID_UTF8, "an unpaired UTF-16 surrogate");
                goto error;
              }

            /* U+0000 would end the C string early: refuse it rather than
             * lose what follows. */
            if (ch == 0)
              {
                fail (parser, MCP_ERROR_PARSE_ERROR, "a NUL character in a string");
                goto error;
              }
            g_string_append_unichar (out, ch);
          }
          break;

        default:
          parser->p--;
          fail (parser, MCP_ERROR_PARSE_ERROR, "an escape JSON does not have");
          goto error;
        }

      run = parser->p;
    }

  fail (parser, MCP_ERROR_PARSE_ERROR, "a string without its closing quote");

error:
  return NULL;
}

static gboolean
skip_digits (Parser *parser)
{
  const char *first = parser->p;

  while (parser->p < parser->end && g_ascii_isdigit (*parser->p))
    parser->p++;

  return parser->p > first;
}

static JsonNode *
parse_number (Parser *parser)
{
  const char *first = parser->p;
  gboolean integer = TRUE;
  char buffer[64];
  g_autofree char *copy = NULL;
  const char *text;
  gsize length;

  if (*parser->p == '-')
    parser->p++;

  /* No leading zeros, at least one digit. */
  if (parser->p < parser->end && *parser->p == '0')
    parser->p++;
  else if (!skip_digits (parser))
    return fail (parser, MCP_ERROR_PARSE_ERROR, "a malformed number"), NULL;

  if (parser->p < parser->end && *parser->p == '.')
    {
      parser->p++;
      integer = FALSE;
      if (!skip_digits (parser))
        return fail (parser, MCP_ERROR_PARSE_ERROR, "a malformed number"), NULL;
    }

  if (parser->p < parser->end && (*parser->p == 'e' || *parser->p == 'E'))
    {
      parser->p++;
      integer = FALSE;
      if (parser->p < parser->end && (*parser->p == '+' || *parser->p == '-'))
        parser->p++;
      if (!skip_digits (parser))
        return fail (parser, MCP_ERROR_PARSE_ERROR, "a malformed number"), NULL;
    }

  length = parser->p - first;
  if (length < sizeof buffer)
    {
      memcpy (buffer, first, length);
      buffer[length] = '\0';
      text = buffer;
    }
  else
    text = copy = g_strndup (first, length);

  if (integer)
    {
      gint64 value;

      errno = 0;
      value = g_ascii_strtoll (text, NULL, 10);
      if (errno == 0)
        return json_node_init_int (json_node_alloc (), value);
    }

  /* Too large for an integer, or not one: a double, as json-glib has it.
   * One beyond a double's range could only be passed on as null. */
  {
    double value = g_ascii_strtod (text, NULL);

    if (!isfinite (value))
      return fail (parser, MCP_ERROR_PARSE_ERROR, "a number too large to hold"), NULL;

    return json_node_init_double (json_node_alloc (), value);
  }
}

static gboolean
expect_word (Parser     *parser,
             const char *word)
{
  gsize length = strlen (word);

  if ((gsize) (parser->end - parser->p) < length || memcmp (parser->p, word, length) != 0)
    return fail (parser, MCP_ERROR_PARSE_ERROR, "an unexpected character");

  parser->p += length;
  return TRUE;
}

static gboolean
enter (Parser *parser)
{
  if (++parser->depth > parser->max_depth)
    {
      g_autofree char *what = g_strdup_printf ("arrays and objects nested deeper than %u levels",
                                               parser->max_depth);

      return fail (parser, MCP_ERROR_TOO_DEEP, what);
    }

  parser->p++;
  return TRUE;
}

/* Reads an object's members, handing each to @func as it is read; the
 * name is valid only during the call, the value is @func's. */
static gboolean
parse_members (Parser            *parser,
               McpJsonMemberFunc  func,
               gpointer           user_data)
{
  if (!enter (parser))
    return FALSE;

  skip_space (parser);
  if (parser->p < parser->end && *parser->p == '}')
    {
      parser->p++;
      parser->depth--;
      return TRUE;
    }

  for (;;)
    {
      char short_key[64];
      g_autofree char *long_key = NULL;
      const char *key;
      JsonNode *value;

      skip_space (parser);
      if (parser->p >= parser->end || *parser->p != '"')
        return fail (parser, MCP_ERROR_PARSE_ERROR, "an object key that is not a string");
      parser->p++;
      if ((key = parse_string (parser)) == NULL)
        return FALSE;

      /* The value is read before the key is handed on, so the key leaves
       * the scratch buffer; keys are short as a rule. */
      if (parser->scratch->len < sizeof short_key)
        key = memcpy (short_key, key, parser->scratch->len + 1);
      else
        key = long_key = g_strndup (key, parser->scratch->len);

      skip_space (parser);
      if (parser->p >= parser->end || *parser->p != ':')
        return fail (parser, MCP_ERROR_PARSE_ERROR, "a missing colon after an object key");
      parser->p++;

      if ((value = parse_value (parser)) == NULL)
        return FALSE;
      func (key, value, user_data);

      skip_space (parser);
      if (parser->p < parser->end && *parser->p == ',')
        {
          parser->p++;
          continue;
        }
      if (parser->p < parser->end && *parser->p == '}')
        {
          parser->p++;
          parser->depth--;
          return TRUE;
        }

      return fail (parser, MCP_ERROR_PARSE_ERROR, "a missing comma or closing brace");
    }
}

static void
set_member (const char *name,
            JsonNode   *value,
            gpointer    user_data)
{
  json_object_set_member (user_data, name, value);
}

static JsonNode *
parse_object (Parser *parser)
{
  g_autoptr(JsonObject) object = json_object_new ();

  if (!parse_members (parser, set_member, object))
    return NULL;

  return json_node_init_object (json_node_alloc (), object);
}

static JsonNode *
parse_array (Parser *parser)
{
  g_autoptr(JsonArray) array = NULL;

  if (!enter (parser))
    return NULL;

  array = json_array_new ();
  skip_space (parser);
  if (parser->p < parser->end && *parser->p == ']')
    {
      parser->p++;
      parser->depth--;
      return json_node_init_array (json_node_alloc (), array);
    }

  for (;;)
    {
      JsonNode *value = parse_value (parser);

      if (value == NULL)
        return NULL;
      json_array_add_element (array, value);

      skip_space (parser);
      if (parser->p < parser->end && *parser->p == ',')
        {
          parser->p++;
          continue;
        }
      if (parser->p < parser->end && *parser->p == ']')
        {
          parser->p++;
          parser->depth--;
          return json_node_init_array (json_node_alloc (), array);
        }

      return fail (parser, MCP_ERROR_PARSE_ERROR, "a missing comma or closing bracket"), NULL;
    }
}

static JsonNode *
parse_value (Parser *parser)
{
  skip_space (parser);
  if (parser->p >= parser->end)
    return fail (parser, MCP_ERROR_PARSE_ERROR, "the text ends where a value should be"), NULL;

  switch (*parser->p)
    {
    case '{':
      return parse_object (parser);

    case '[':
      return parse_array (parser);

    case '"':
      {
        const char *string;

        parser->p++;
        if ((string = parse_string (parser)) == NULL)
          return NULL;

        return json_node_init_string (json_node_alloc (), string);
      }

    case 't':
      return expect_word (parser, "true") ? json_node_init_boolean (json_node_alloc (), TRUE) : NULL;

    case 'f':
      return expect_word (parser, "false") ? json_node_init_boolean (json_node_alloc (), FALSE)
                                           : NULL;

    case 'n':
      return expect_word (parser, "null") ? json_node_init_null (json_node_alloc ()) : NULL;

    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      return parse_number (parser);

    default:
      fail (parser, MCP_ERROR_PARSE_ERROR, *parser->p == '\0' ? "a NUL byte"
                                                               : "an unexpected character");
      return NULL;
    }
}

/* The buffer strings are read into, kept for the thread's next text: a
 * text that is parsed while another is (a member callback that parses)
 * gets one of its own. */
static GPrivate scratch_key = G_PRIVATE_INIT ((GDestroyNotify) mcp_json_scratch_free);

static gboolean
parser_begin (Parser      *parser,
              const char  *data,
              gssize       length,
              guint        max_depth,
              GError     **error)
{
  const char *invalid_at = NULL;

  if (length < 0)
    length = (gssize) strlen (data);

  if (!g_utf8_validate_len (data, (gsize) length, &invalid_at))
    {
      /* GLib counts a NUL as invalid UTF-8; it is valid, but never JSON. */
      if (*invalid_at == '\0')
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_PARSE_ERROR,
                       "the text is not JSON: a NUL byte (at byte %" G_GSIZE_FORMAT ")",
                       (gsize) (invalid_at - data));
          return FALSE;
        }

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_UTF8,
                   "the text is not valid UTF-8 (at byte %" G_GSIZE_FORMAT ")",
                   (gsize) (invalid_at - data));
      return FALSE;
    }

  parser->start = parser->p = data;
  parser->end = data + length;
  parser->depth = 0;
  parser->max_depth = max_depth;
  parser->error = error;
  parser->plain = TRUE;
  parser->scratch = g_private_get (&scratch_key);
  if (parser->scratch != NULL)
    g_private_set (&scratch_key, NULL);
  else
    parser->scratch = g_string_sized_new (64);

  return TRUE;
}

/* Gives the scratch buffer back and, after a value was read, checks that
 * nothing but space follows it. */
static gboolean
parser_end (Parser   *parser,
            gboolean  read)
{
  if (g_private_get (&scratch_key) == NULL && parser->scratch->allocated_len <= SCRATCH_KEPT)
    g_private_set (&scratch_key, parser->scratch);
  else
    g_string_free (parser->scratch, TRUE);
  parser->scratch = NULL;

  if (!read)
    return FALSE;

  skip_space (parser);
  if (parser->p != parser->end)
    return fail (parser, MCP_ERROR_PARSE_ERROR, *parser->p == '\0' ? "a NUL byte after the value"
                                                                    : "more text after the value");

  return TRUE;
}

/**
 * mcp_json_parse:
 * @data: the text, not necessarily nul-terminated
 * @length: its length, or -1 when it is nul-terminated
 *
 * Reads exactly one JSON value, strictly as RFC 8259 has it: valid UTF-8,
 * no comments, no trailing text, and arrays and objects nested at most
 * %MCP_JSON_MAX_DEPTH deep.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL with an error in
 *   %MCP_ERROR (%MCP_ERROR_PARSE_ERROR, %MCP_ERROR_INVALID_UTF8 or
 *   %MCP_ERROR_TOO_DEEP) naming what is wrong and where
 */
JsonNode *
mcp_json_parse (const char  *data,
                gssize       length,
                GError     **error)
{
  return mcp_json_parse_with_depth (data, length, MCP_JSON_MAX_DEPTH, error);
}

/**
 * mcp_json_parse_with_depth:
 * @max_depth: the deepest nesting of arrays and objects allowed
 *
 * As mcp_json_parse(), with another depth limit.
 */
JsonNode *
mcp_json_parse_with_depth (const char  *data,
                           gssize       length,
                           guint        max_depth,
                           GError     **error)
{
  Parser parser;
  JsonNode *node;

  if (!parser_begin (&parser, data, length, max_depth, error))
    return NULL;

  node = parse_value (&parser);
  if (!parser_end (&parser, node != NULL))
    {
      g_clear_pointer (&node, json_node_unref);
      return NULL;
    }

  return node;
}

/**
 * mcp_json_parse_members:
 * @data: the text, not necessarily nul-terminated
 * @length: its length
 * @func: called with each member as it is read, in the order of the text
 * @user_data: for @func
 *
 * Reads one JSON object as strictly as mcp_json_parse() reads any value,
 * handing its members to @func rather than building the object: for a
 * reader that keeps a few members and drops the others, as a JSON-RPC
 * envelope is read. A name that comes twice is handed over twice.
 *
 * @plain: (out) (optional): whether the text is written as
 *   mcp_json_append() would write it: no space between tokens, and no
 *   escape it does not write (`\u` and `\/`)
 *
 * Returns: whether @data is one JSON object; if not, an error as
 *   mcp_json_parse() has it, or %MCP_ERROR_PARSE_ERROR for another value
 */
gboolean
mcp_json_parse_members (const char         *data,
                        gsize               length,
                        McpJsonMemberFunc   func,
                        gpointer            user_data,
                        gboolean           *plain,
                        GError            **error)
{
  Parser parser;
  gboolean ok;

  if (!parser_begin (&parser, data, (gssize) length, MCP_JSON_MAX_DEPTH, error))
    return FALSE;

  skip_space (&parser);
  if (parser.p < parser.end && *parser.p == '{')
    ok = parse_members (&parser, func, user_data);
  else
    ok = fail (&parser, MCP_ERROR_PARSE_ERROR, "a value that is not an object");

  ok = parser_end (&parser, ok);
  if (plain != NULL)
    *plain = ok && parser.plain;

  return ok;
}
