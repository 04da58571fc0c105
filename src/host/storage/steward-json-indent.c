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

#define MAX_STEP 64

/* @before (or nothing, when it is 0), a line break, the indentation of
 * @level and @after (or nothing), in one write. */
static void
break_line (Writer *w,
            char    before,
            guint   level,
            char    after)
{
  char line[MAX_STEP + 3];
  gsize n = 0;
  gsize indent = (gsize) level * 2;

  if (before != '\0')
    line[n++] = before;
  line[n++] = '\n';

  /* Deep nesting: a line's worth of spaces at a time. */
  while (indent > MAX_STEP)
    {
      if (w->full)
        return;
      memset (line + n, ' ', MAX_STEP - n);
      put (w, line, MAX_STEP);
      indent -= MAX_STEP - n;
      n = 0;
    }

  memset (line + n, ' ', indent);
  n += indent;
  if (after != '\0')
    line[n++] = after;
  put (w, line, n);
}

/* The end of the string whose opening quote is at @i: past its closing
 * quote, or @length when it does not close. */
static gsize
string_end (const char *json,
            gsize       length,
            gsize       i)
{
  gsize from = i + 1;

  for (;;)
    {
      const char *quote = memchr (json + from, '"', length - from);
      gsize at;
      gsize backslashes = 0;

      if (quote == NULL)
        return length;

      /* Escaped when an odd number of backslashes stands before it. */
      at = quote - json;
      while (at - backslashes > i + 1 && json[at - backslashes - 1] == '\\')
        backslashes++;
      if (backslashes % 2 == 0)
        return at + 1;

      from = at + 1;
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
            gsize end = string_end (json, length, i);

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
            break_line (&w, c, ++level, '\0');
          }
          break;

        case '}':
        case ']':
          if (level > 0)
            level--;
          break_line (&w, '\0', level, c);
          break;

        case ',':
          break_line (&w, ',', level, '\0');
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
