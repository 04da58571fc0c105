/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-redactor"

#include "config.h"

#include <string.h>

#include "steward-log-entry.h"
#include "steward-redactor.h"

#define CANARY "canary-7f3a9c2e41d8b6"

/* A value the host resolved is redacted exactly, wherever it stands and
 * however often, even where no pattern would see a secret. */
static void
test_known_value (void)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *twice = NULL;
  g_autofree char *none = NULL;

  steward_redact_forget_secrets ();

  before = steward_redact ("echo " CANARY " here");
  g_assert_cmpstr (before, ==, "echo " CANARY " here");

  steward_redact_add_secret (CANARY);
  after = steward_redact ("echo " CANARY " here");
  g_assert_cmpstr (after, ==, "echo [redacted] here");

  twice = steward_redact (CANARY CANARY "\n" CANARY);
  g_assert_cmpstr (twice, ==, "[redacted][redacted]\n[redacted]");

  none = steward_redact_if_needed ("nothing to see", strlen ("nothing to see"));
  g_assert_null (none);

  steward_redact_forget_secrets ();
}

/* A secret that holds another is replaced whole; short values are not
 * remembered, or every "1234" would go. */
static void
test_longest_first_and_short (void)
{
  g_autofree char *text = NULL;
  g_autofree char *shorty = NULL;

  steward_redact_forget_secrets ();
  steward_redact_add_secret ("abcdef");
  steward_redact_add_secret ("xxabcdefyy");
  steward_redact_add_secret ("1234");
  steward_redact_add_secret (NULL);

  text = steward_redact ("a xxabcdefyy b abcdef c");
  g_assert_cmpstr (text, ==, "a [redacted] b [redacted] c");

  shorty = steward_redact ("pin 1234");
  g_assert_cmpstr (shorty, ==, "pin 1234");

  steward_redact_forget_secrets ();
}

/* Both kinds at once: the pattern still sees what the value left. */
static void
test_with_shapes (void)
{
  g_autofree char *text = NULL;

  steward_redact_forget_secrets ();
  steward_redact_add_secret (CANARY);

  text = steward_redact ("Authorization: Bearer abcdefghijklmnop " CANARY);
  g_assert_null (strstr (text, CANARY));
  g_assert_null (strstr (text, "abcdefghijklmnop"));

  steward_redact_forget_secrets ();
}

/* A value with a quote or a backslash is found in JSON too, where it
 * stands escaped: in a protocol trace, or in --json output. */
static void
test_json_escaped (void)
{
  g_autofree char *raw = NULL;
  g_autofree char *json = NULL;

  steward_redact_forget_secrets ();
  steward_redact_add_secret ("quo\"te\\back\tslash");

  raw = steward_redact ("raw quo\"te\\back\tslash here");
  g_assert_cmpstr (raw, ==, "raw [redacted] here");
  json = steward_redact ("{\"v\": \"quo\\\"te\\\\back\\tslash\"}");
  g_assert_cmpstr (json, ==, "{\"v\": \"[redacted]\"}");

  steward_redact_forget_secrets ();
}

/* Text cut at a limit, as a log entry is. */
static void
test_not_nul_terminated (void)
{
  const char text[] = "xx" CANARY "yy";
  g_autofree char *cut = NULL;

  steward_redact_forget_secrets ();
  steward_redact_add_secret (CANARY);

  cut = steward_redact_if_needed (text, 2 + strlen (CANARY));
  g_assert_cmpstr (cut, ==, "xx[redacted]");

  /* A value cut in two is not whole, and is not found. */
  g_assert_null (steward_redact_if_needed (text, 6));

  steward_redact_forget_secrets ();
}

/* Every log entry is made through the redactor. */
static void
test_log_entry (void)
{
  g_autoptr(StewardLogEntry) entry = NULL;

  steward_redact_forget_secrets ();
  steward_redact_add_secret (CANARY);

  entry = steward_log_entry_new (0, "server", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO,
                                 STEWARD_LOG_DIRECTION_NONE, NULL, "token is " CANARY,
                                 "{\"env\": \"" CANARY "\"}", 0);
  g_assert_null (strstr (steward_log_entry_get_text (entry), CANARY));
  g_assert_null (strstr (steward_log_entry_get_detail (entry), CANARY));

  steward_redact_forget_secrets ();
}

/* Redaction runs on workers too. */
static gpointer
redact_thread (gpointer data)
{
  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *text = steward_redact ("a " CANARY " b");

      g_assert_cmpstr (text, ==, "a [redacted] b");
    }

  return NULL;
}

static void
test_threads (void)
{
  GThread *threads[4];

  steward_redact_forget_secrets ();
  steward_redact_add_secret (CANARY);

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("redact", redact_thread, NULL);
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *value = g_strdup_printf ("other-secret-%u", i);

      steward_redact_add_secret (value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);

  steward_redact_forget_secrets ();
}

/* The scan passes over most bytes by their class and most keys by their
 * last two letters: what it passes over must not be a secret's start.
 * Headers after a line break, keys whose last letters stand apart or in
 * capitals, single quotes, escaped quotes and a key at the length limit. */
static void
test_scan_edges (void)
{
  static const struct {
    const char *input;
    const char *expected;
  } cases[] = {
    { "GET /\nAuthorization: Basic dXNlcjpwYXNz\nAccept: */*",
      "GET /\nAuthorization: [redacted]\nAccept: */*" },
    { "GET /\r\nCookie: a=b\r\n", "GET /\r\nCookie: [redacted]\r\n" },
    { "{\"Session_I.D\":\"abc\"}", "{\"Session_I.D\":\"[redacted]\"}" },
    { "{\"GITHUB_TOKEN\": \"abc\"}", "{\"GITHUB_TOKEN\": \"[redacted]\"}" },
    { "{'api-k_ey': 'abc'}", "{'api-k_ey': '[redacted]'}" },
    { "{\\\"client_secret\\\": \\\"abc\\\"}", "{\\\"client_secret\\\": \\\"[redacted]\\\"}" },
    { "{\"method\":\"x\",\"params\":{\"name\":\"y\"},\"content\":\"z\"}", NULL },
    { "{\"progressToken\":\"abc\"}", NULL },
    { "{\"" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaatoken" "\":\"abc\"}",
      "{\"" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaatoken" "\":\"[redacted]\"}" },
    { "{\"" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaatoken" "\":\"abc\"}", NULL },
    { "x\tbearer  abcdefghijkl\u00e9", "x\tbearer  [redacted]\u00e9" },
    { "caf\u00e9 sk-abcdefghijklmnopqrstuvwxyz", "caf\u00e9 [redacted]" },
    /* What the quick pass before the scan must not let through: a name
     * in two words, a name far from its colon, a name whose last
     * letters are also an ordinary key's ("id"), a URL's password. */
    { "{\"id\":5,\"session id\": \"abc\"}", "{\"id\":5,\"session id\": \"[redacted]\"}" },
    { "{\"token\"" "                                                                      "
      "          : \"abc\"}",
      "{\"token\"" "                                                                      "
      "          : \"[redacted]\"}" },
    { "PASS-WORD = hunter2", "PASS-WORD = [redacted]" },
    { "see https://me:hunter2@example.com/x", "see https://me:[redacted]@example.com/x" },
    { "{\"id\":5,\"method\":\"tools/call\",\"text\":\"Echo: hello\"}", NULL },
  };

  steward_redact_forget_secrets ();

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *redacted = steward_redact_if_needed (cases[i].input,
                                                            strlen (cases[i].input));

      g_test_message ("%s", cases[i].input);
      g_assert_cmpstr (redacted, ==, cases[i].expected);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/redactor/known-value", test_known_value);
  g_test_add_func ("/steward/redactor/longest-first-and-short", test_longest_first_and_short);
  g_test_add_func ("/steward/redactor/with-shapes", test_with_shapes);
  g_test_add_func ("/steward/redactor/json-escaped", test_json_escaped);
  g_test_add_func ("/steward/redactor/not-nul-terminated", test_not_nul_terminated);
  g_test_add_func ("/steward/redactor/log-entry", test_log_entry);
  g_test_add_func ("/steward/redactor/threads", test_threads);
  g_test_add_func ("/steward/redactor/scan-edges", test_scan_edges);

  return g_test_run ();
}
