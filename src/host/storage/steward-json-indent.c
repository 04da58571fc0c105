/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log"

#include "config.h"

#include <string.h>

#include "steward-json-indent.h"

typedef struct {
  GString  *out;
  gsize     limit;  /* out->len may not pass this */
  gboolean  full;
} Writer;

static void
put (Writer     *w,
     const char *text,
     gsize       length)
{
  if (w->full)
    return;

  if (w->out->len + length > w->limit)
    {
      length = w->limit - w->out->len;
      w->full = TRUE;
    }

  /* Most writes are a byte or a short run into room reserved up front;
   * GLib 2.74's append is a function call through an insert for each. */
  if (w->out->len + length < w->out->allocated_len)
    {
      memcpy (w->out->str + w->out->len, text, length);
      w->out->len += length;
      w->out->str[w->out->len] = '\0';
    }
  else
    g_string_append_len (w->out, text, length);
}

static void
newline (Writer *w,
         guint   level)
{
  static const char spaces[] = "\n                                                                ";

  put (w, spaces, 1);
  for (gsize n = (gsize) level * 2; n > 0 && !w->full;)
    {
      gsize step = MIN (n, sizeof spaces - 2);

      put (w, spaces + 1, step);
      n -= step;
    }
}

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/**
 * steward_json_indent_append:
 * @out: where to append
 * @json: compact JSON text, valid UTF-8
 * @length: its length in bytes
 * @max_bytes: the most to append
 *
 * Returns: whether the text was cut at @max_bytes
 */
gboolean
steward_json_indent_append (GString    *out,
                            const char *json,
                            gsize       length,
                            gsize       max_bytes)
{
  Writer w = { out, out->len + max_bytes, FALSE };
  gsize start = out->len;
  guint level = 0;
  gsize i = 0;

  /* Indenting adds about half again to a message: reserve that. */
  g_string_set_size (out, start + MIN (max_bytes, length + length / 2 + 64));
  g_string_truncate (out, start);

  while (i < length && !w.full)
    {
      char c = json[i];

      switch (c)
        {
        case '"':
          {
            /* A string, copied as it is up to its closing quote; one that
             * does not close runs to the end. */
            gsize end = i + 1;

            while (end < length && json[end] != '"')
              end += json[end] == '\\' ? 2 : 1;
            end = MIN (end + 1, length);
            put (&w, json + i, end - i);
            i = end;
          }
          continue;

        case '{':
        case '[':
          {
            gsize next = i + 1;

            while (next < length && is_blank (json[next]))
              next++;
            if (next < length && json[next] == (c == '{' ? '}' : ']'))
              {
                put (&w, c == '{' ? "{}" : "[]", 2);
                i = next + 1;
                continue;
              }
            put (&w, &c, 1);
            newline (&w, ++level);
          }
          break;

        case '}':
        case ']':
          if (level > 0)
            level--;
          newline (&w, level);
          put (&w, &c, 1);
          break;

        case ',':
          put (&w, ",", 1);
          newline (&w, level);
          break;

        case ':':
          put (&w, ": ", 2);
          break;

        case ' ':
        case '\t':
        case '\n':
        case '\r':
          break;

        default:
          {
            /* A number or a literal, to the next sign. */
            gsize end = i + 1;

            while (end < length && strchr ("\"{}[],: \t\n\r", json[end]) == NULL)
              end++;
            put (&w, json + i, end - i);
            i = end;
          }
          continue;
        }

      i++;
    }

  if (w.full)
    {
      const char *valid_end = NULL;

      /* Cut on a whole character. */
      if (!g_utf8_validate_len (out->str + start, out->len - start, &valid_end))
        g_string_truncate (out, valid_end - out->str);
    }

  return w.full || i < length;
}
