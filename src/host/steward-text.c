/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-text"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-text.h"

/**
 * steward_text_is_hidden_char:
 * @c: a character
 *
 * Returns: whether @c would be invisible, or would change how the text
 *   around it reads, without being seen: C0 and C1 controls other than
 *   line feed and tab, bidi embeddings, overrides, isolates and marks,
 *   zero-width characters and Unicode tags
 */
gboolean
steward_text_is_hidden_char (gunichar c)
{
  if (c == '\n' || c == '\t')
    return FALSE;

  return c < 0x20 || (c >= 0x7f && c <= 0x9f) ||
         /* bidi controls and marks */
         c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
         /* zero-width characters */
         (c >= 0x200b && c <= 0x200d) || c == 0x2060 || c == 0xfeff ||
         /* tags, which can spell out a whole message no one sees */
         (c >= 0xe0000 && c <= 0xe007f);
}

/**
 * steward_text_has_hidden:
 * @text: (nullable): text from a server or a model
 *
 * Returns: whether @text holds a hidden character (a carriage return
 *   before a line feed is an ordinary line end) or is not valid UTF-8
 */
gboolean
steward_text_has_hidden (const char *text)
{
  if (text == NULL)
    return FALSE;

  if (!g_utf8_validate (text, -1, NULL))
    return TRUE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = (guchar) *p < 0x80 ? (gunichar) *p : g_utf8_get_char (p);

      if (c == '\r' && p[1] == '\n')
        continue;
      if (steward_text_is_hidden_char (c))
        return TRUE;
    }

  return FALSE;
}

/* @text itself when it is valid UTF-8, else a repaired copy that
 * @repaired owns. */
static const char *
make_valid (const char  *text,
            char       **repaired)
{
  if (g_utf8_validate (text, -1, NULL))
    return text;

  *repaired = g_utf8_make_valid (text, -1);
  return *repaired;
}

/**
 * steward_text_make_visible_capped:
 * @text: (nullable): text from a server or a model
 * @max_bytes: the most bytes of text to return, before the marker
 * @truncated: (out) (optional): set to whether @text was cut
 *
 * Returns: (transfer full): @text as valid UTF-8 with every hidden
 *   character written as ⟨U+XXXX⟩ and CR LF as LF, cut at a character
 *   boundary after at most @max_bytes with a marker saying how much of
 *   it is shown
 */
char *
steward_text_make_visible_capped (const char *text,
                                  gsize       max_bytes,
                                  gboolean   *truncated)
{
  g_autofree char *valid = NULL;
  const char *p;
  GString *out;
  gsize length;

  if (truncated != NULL)
    *truncated = FALSE;

  if (text == NULL)
    return g_strdup ("");

  text = make_valid (text, &valid);
  length = strlen (text);
  out = g_string_sized_new (MIN (length, max_bytes) + 16);

  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = (guchar) *p < 0x80 ? (gunichar) *p : g_utf8_get_char (p);
      gsize before = out->len;

      if (c == '\r' && p[1] == '\n')
        continue;

      if (steward_text_is_hidden_char (c))
        g_string_append_printf (out, "⟨U+%04X⟩", c);
      else if (c < 0x80)
        g_string_append_c (out, *p);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);

      if (out->len > max_bytes)
        {
          g_string_truncate (out, before);
          break;
        }
    }

  if (*p != '\0')
    {
      g_autofree char *shown = g_format_size ((p - text));
      g_autofree char *total = g_format_size (length);

      if (truncated != NULL)
        *truncated = TRUE;

      /* Translators: the marker at the end of text cut for display; the
       * first %s is the size shown, the second the whole size. */
      g_string_append_printf (out, _("\n\n[… cut here: %s of %s shown]"), shown, total);
    }

  return g_string_free (out, FALSE);
}

/**
 * steward_text_make_visible:
 * @text: (nullable): text from a server or a model
 *
 * Returns: (transfer full): @text with hidden characters made visible,
 *   whole
 */
char *
steward_text_make_visible (const char *text)
{
  return steward_text_make_visible_capped (text, G_MAXSIZE, NULL);
}

/**
 * steward_text_for_display:
 * @text: (nullable): text from a server or a model
 *
 * Returns: (transfer full): @text with hidden characters made visible and
 *   cut at %STEWARD_TEXT_DISPLAY_MAX bytes with a marker
 */
char *
steward_text_for_display (const char *text)
{
  return steward_text_make_visible_capped (text, STEWARD_TEXT_DISPLAY_MAX, NULL);
}

/* What becomes of a hidden character: dropped, named as <U+XXXX> for a
 * terminal, or written as a JSON escape. */
typedef enum {
  HIDDEN_DROP,
  HIDDEN_NAME,
  HIDDEN_ESCAPE_JSON,
} HiddenAs;

static void
append_json_escape (GString  *out,
                    gunichar  c)
{
  if (c > 0xffff)
    {
      c -= 0x10000;
      g_string_append_printf (out, "\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    }
  else
    {
      g_string_append_printf (out, "\\u%04x", c);
    }
}

/* @text as valid UTF-8 with each hidden character rewritten @as says.
 * Outside JSON, CR LF is a line end; a line feed becomes a space where
 * @multiline is not set. */
static char *
rewrite_hidden (const char *text,
                HiddenAs    as,
                gboolean    multiline)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (text == NULL)
    return g_strdup ("");

  text = make_valid (text, &valid);
  out = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = (guchar) *p < 0x80 ? (gunichar) *p : g_utf8_get_char (p);

      if (as != HIDDEN_ESCAPE_JSON && c == '\r' && p[1] == '\n')
        continue;

      if (c == '\n' && !multiline)
        g_string_append_c (out, ' ');
      else if (!steward_text_is_hidden_char (c))
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      else if (as == HIDDEN_NAME)
        g_string_append_printf (out, "<U+%04X>", c);
      else if (as == HIDDEN_ESCAPE_JSON)
        append_json_escape (out, c);
    }

  return g_string_free (out, FALSE);
}

/**
 * steward_text_strip_hidden:
 * @text: (nullable): text from a server or a model
 *
 * Returns: (transfer full): @text as valid UTF-8 with every hidden
 *   character removed and CR LF as LF
 */
char *
steward_text_strip_hidden (const char *text)
{
  return rewrite_hidden (text, HIDDEN_DROP, TRUE);
}

/**
 * steward_text_for_terminal:
 * @text: (nullable): text from a server, or anything that quotes it
 * @multiline: whether line feeds stay line feeds
 *
 * Returns: (transfer full): @text as valid UTF-8 in which no character
 *   can steer a terminal (escape sequences, C1 controls such as U+009B,
 *   a lone carriage return) or hide or reorder what it shows (bidi
 *   controls, zero-width and tag characters): each is written as
 *   <U+XXXX>. Tabs stay; CR LF is a line feed.
 */
char *
steward_text_for_terminal (const char *text,
                           gboolean    multiline)
{
  return rewrite_hidden (text, HIDDEN_NAME, multiline);
}

/**
 * steward_text_escape_json:
 * @json: (nullable): JSON text as a generator wrote it
 *
 * Returns: (transfer full): @json with every hidden character but the
 *   line feeds and tabs a pretty printer puts between values written as
 *   a JSON escape, so the text means the same and shows nothing hidden
 */
char *
steward_text_escape_json (const char *json)
{
  return rewrite_hidden (json, HIDDEN_ESCAPE_JSON, TRUE);
}
