/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-text"

#include "config.h"

#include <string.h>

#include "steward-text.h"

/* Every kind of hidden character, how it is shown, and what stays as is. */
static void
test_table (void)
{
  const struct {
    const char *input;
    const char *visible;
    gboolean    hidden;
  } cases[] = {
    { "", "", FALSE },
    { "plain text", "plain text", FALSE },
    { "two\nlines\tand a tab", "two\nlines\tand a tab", FALSE },
    { "windows\r\nline end", "windows\nline end", FALSE },
    { "<b>not markup</b> & more", "<b>not markup</b> & more", FALSE },
    { "café, 東京, 🙂", "café, 東京, 🙂", FALSE },
    /* C0 and C1 controls */
    { "bell\a", "bell⟨U+0007⟩", TRUE },
    { "esc\033[31m", "esc⟨U+001B⟩[31m", TRUE },
    { "lone\rreturn", "lone⟨U+000D⟩return", TRUE },
    { "nul\x7f", "nul⟨U+007F⟩", TRUE },
    { "c1\xc2\x85", "c1⟨U+0085⟩", TRUE },
    /* bidi controls */
    { "a\u202eb", "a⟨U+202E⟩b", TRUE },
    { "a\u202ab", "a⟨U+202A⟩b", TRUE },
    { "a\u2066b\u2069", "a⟨U+2066⟩b⟨U+2069⟩", TRUE },
    { "a\u200fb", "a⟨U+200F⟩b", TRUE },
    /* zero-width characters */
    { "zero\u200bwidth", "zero⟨U+200B⟩width", TRUE },
    { "joiner\u200d", "joiner⟨U+200D⟩", TRUE },
    { "\ufeffbom", "⟨U+FEFF⟩bom", TRUE },
    { "word\u2060joiner", "word⟨U+2060⟩joiner", TRUE },
    /* tags spelling "hi" */
    { "ok\U000E0068\U000E0069", "ok⟨U+E0068⟩⟨U+E0069⟩", TRUE },
    { "\U000E0000\U000E007F", "⟨U+E0000⟩⟨U+E007F⟩", TRUE },
    /* neighbours that are ordinary characters */
    { "\u2070\u200a\U000E0080", "\u2070\u200a\U000E0080", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *visible = steward_text_make_visible (cases[i].input);

      g_test_message ("case %u", i);
      g_assert_cmpstr (visible, ==, cases[i].visible);
      g_assert_cmpint (steward_text_has_hidden (cases[i].input), ==, cases[i].hidden);
      g_assert_false (steward_text_has_hidden (visible));
    }

  g_assert_false (steward_text_has_hidden (NULL));
  g_assert_true (steward_text_is_hidden_char (0xe0041));
  g_assert_false (steward_text_is_hidden_char ('\n'));
  g_assert_false (steward_text_is_hidden_char ('A'));
}

/* Invalid UTF-8 is hidden text too: it comes out valid, never raw. */
static void
test_invalid (void)
{
  g_autofree char *visible = steward_text_make_visible ("ab\xff\xfe" "cd");

  g_assert_true (steward_text_has_hidden ("ab\xff\xfe" "cd"));
  g_assert_true (g_utf8_validate (visible, -1, NULL));
  g_assert_true (g_str_has_prefix (visible, "ab"));
  g_assert_true (g_str_has_suffix (visible, "cd"));
}

/* What is made visible never hides anything again. */
static void
test_idempotent (void)
{
  const char *input = "x\u202ey\U000E0041z\u200b\a";
  g_autofree char *once = steward_text_make_visible (input);
  g_autofree char *twice = steward_text_make_visible (once);

  g_assert_false (steward_text_has_hidden (once));
  g_assert_cmpstr (once, ==, twice);
}

static void
test_cap (void)
{
  gsize big = 1024 * 1024;
  g_autofree char *text = g_malloc (big + 1);
  g_autofree char *shown = NULL;
  g_autofree char *small = NULL;
  g_autofree char *whole = NULL;
  gboolean truncated = FALSE;

  memset (text, 'a', big);
  text[big] = '\0';

  shown = steward_text_for_display (text);
  g_assert_cmpuint (strlen (shown), <, STEWARD_TEXT_DISPLAY_MAX + 200);
  g_assert_cmpuint (strspn (shown, "a"), ==, STEWARD_TEXT_DISPLAY_MAX);
  g_assert_nonnull (strstr (shown, "cut here"));

  /* A cut falls between characters, never inside one or a ⟨U+…⟩. */
  small = steward_text_make_visible_capped ("éé\u200bxyz", 5, &truncated);
  g_assert_true (truncated);
  g_assert_true (g_str_has_prefix (small, "éé\n"));
  g_assert_true (g_utf8_validate (small, -1, NULL));

  whole = steward_text_make_visible_capped ("short", 5, &truncated);
  g_assert_false (truncated);
  g_assert_cmpstr (whole, ==, "short");
}

/* What a terminal would act on, or would hide, is written out in ASCII. */
static void
test_terminal (void)
{
  const struct {
    const char *input;
    gboolean    multiline;
    const char *expected;
  } cases[] = {
    { NULL, TRUE, "" },
    { "plain, café, 東京", TRUE, "plain, café, 東京" },
    { "two\nlines\tand a tab", TRUE, "two\nlines\tand a tab" },
    { "two\r\nlines", FALSE, "two lines" },
    /* OSC 52 clipboard write, screen clear, window title */
    { "\033]52;c;cHduZWQ=\a", TRUE, "<U+001B>]52;c;cHduZWQ=<U+0007>" },
    { "\033[2J\033[H", TRUE, "<U+001B>[2J<U+001B>[H" },
    { "\033]0;title\033\\", TRUE, "<U+001B>]0;title<U+001B>\\" },
    /* C1 CSI, as UTF-8 and as a lone byte */
    { "\xc2\x9b" "31m", TRUE, "<U+009B>31m" },
    { "\x9b" "2J", TRUE, "\xef\xbf\xbd" "2J" },
    { "over\rwrite\x7f\b", TRUE, "over<U+000D>write<U+007F><U+0008>" },
    { "a\u202eb\u2066c\u200bd\u2060e\ufeff", TRUE,
      "a<U+202E>b<U+2066>c<U+200B>d<U+2060>e<U+FEFF>" },
    { "tag\U000e0041", TRUE, "tag<U+E0041>" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = steward_text_for_terminal (cases[i].input, cases[i].multiline);

      g_assert_cmpstr (shown, ==, cases[i].expected);
    }
}

/* JSON keeps its meaning, and shows only escapes. */
static void
test_escape_json (void)
{
  const struct {
    const char *input;
    const char *expected;
  } cases[] = {
    { NULL, "" },
    { "{\n  \"a\" : \"b\\u001b[2J\"\n}", "{\n  \"a\" : \"b\\u001b[2J\"\n}" },
    { "\"\xc2\x9b" "31m\"", "\"\\u009b31m\"" },
    { "\"\u202eevil\u202c\"", "\"\\u202eevil\\u202c\"" },
    { "\"zero\u200bwidth\u2060\ufeff\"", "\"zero\\u200bwidth\\u2060\\ufeff\"" },
    { "\"tag\U000e0041\"", "\"tag\\udb40\\udc41\"" },
    { "\"\x7f\"", "\"\\u007f\"" },
    { "\"café 🙂\"", "\"café 🙂\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *escaped = steward_text_escape_json (cases[i].input);

      g_assert_cmpstr (escaped, ==, cases[i].expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/text/table", test_table);
  g_test_add_func ("/steward/text/invalid", test_invalid);
  g_test_add_func ("/steward/text/idempotent", test_idempotent);
  g_test_add_func ("/steward/text/cap", test_cap);
  g_test_add_func ("/steward/text/terminal", test_terminal);
  g_test_add_func ("/steward/text/escape-json", test_escape_json);

  return g_test_run ();
}
