/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-url"

#include "config.h"

#include <string.h>

#include "steward-url.h"

/* Every address, whether it opens, why not, and the host it names. */
static void
test_table (void)
{
  const struct {
    const char *url;
    int         error;  /* -1: it opens */
    const char *host;
  } cases[] = {
    { "https://example.com/", -1, "example.com" },
    { "https://Example.COM:8443/a?b#c", -1, "Example.COM" },
    { "https://example.com", -1, "example.com" },
    { "https://example.com?q=a@b", -1, "example.com" },
    { "https://example.com/path@x/", -1, "example.com" },
    { "HTTPS://example.com/", -1, "example.com" },
    { "http://localhost:8080/", -1, "localhost" },
    { "http://127.0.0.1/", -1, "127.0.0.1" },
    { "http://[::1]:3000/x", -1, "[::1]" },
    { "https://[2001:db8::1]/", -1, "[2001:db8::1]" },
    { "https://東京.example/", -1, "東京.example" },
    /* What browsers read as another host than GUri does */
    { "https://evil.example\\@accounts.google.com/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://evil.example\\.accounts.google.com/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "http://evil.example\\@127.0.0.1/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://exa\tmple.com/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://example.com/\r\nx", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://example.com/\n", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://example.com/a b", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { " https://example.com/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://example.com\u202e/moc.elgoog", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://exam\u200bple.com/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://example.com/\x1b[2J", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    { "https://ex%61mple.com/", STEWARD_URL_ERROR_AMBIGUOUS, NULL },
    /* Userinfo */
    { "https://accounts.google.com@evil.example/", STEWARD_URL_ERROR_USERINFO, NULL },
    { "https://user:password@example.com/", STEWARD_URL_ERROR_USERINFO, NULL },
    { "https://@example.com/", STEWARD_URL_ERROR_USERINFO, NULL },
    { "http://localhost@evil.example/", STEWARD_URL_ERROR_USERINFO, NULL },
    /* Files and other schemes */
    { "file:///etc/passwd", STEWARD_URL_ERROR_FILE, NULL },
    { "FILE:///home/someone/.ssh/id_ed25519", STEWARD_URL_ERROR_FILE, NULL },
    { "javascript:alert(1)", STEWARD_URL_ERROR_SCHEME, NULL },
    { "mailto:a@example.com", STEWARD_URL_ERROR_SCHEME, NULL },
    { "ftp://example.com/", STEWARD_URL_ERROR_SCHEME, NULL },
    { "data:text/html,<b>x</b>", STEWARD_URL_ERROR_SCHEME, NULL },
    /* Plain http elsewhere, and spellings of loopback only some read so */
    { "http://example.com/", STEWARD_URL_ERROR_INSECURE, NULL },
    { "http://localhost.evil.example/", STEWARD_URL_ERROR_INSECURE, NULL },
    { "http://127.1/", STEWARD_URL_ERROR_INSECURE, NULL },
    { "http://0x7f.0.0.1/", STEWARD_URL_ERROR_INSECURE, NULL },
    { "http://0177.0.0.1/", STEWARD_URL_ERROR_INSECURE, NULL },
    { "http://[::ffff:127.0.0.1]/", STEWARD_URL_ERROR_INSECURE, NULL },
    /* Not an address */
    { NULL, STEWARD_URL_ERROR_INVALID, NULL },
    { "", STEWARD_URL_ERROR_INVALID, NULL },
    { "example.com", STEWARD_URL_ERROR_INVALID, NULL },
    { "https:example.com", STEWARD_URL_ERROR_INVALID, NULL },
    { "https:/example.com", STEWARD_URL_ERROR_INVALID, NULL },
    { "https:///example.com", STEWARD_URL_ERROR_INVALID, NULL },
    { "https://", STEWARD_URL_ERROR_INVALID, NULL },
    { "https://[::1/", STEWARD_URL_ERROR_INVALID, NULL },
    { "https://example.com:x/", STEWARD_URL_ERROR_INVALID, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize start = 0;
      gsize end = 0;
      gboolean ok;

      g_test_message ("%s", cases[i].url != NULL ? cases[i].url : "(null)");
      ok = steward_url_check (cases[i].url, &start, &end, &error);

      if (cases[i].error < 0)
        {
          g_autofree char *host = g_strndup (cases[i].url + start, end - start);

          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpstr (host, ==, cases[i].host);
        }
      else
        {
          g_assert_false (ok);
          g_assert_error (error, STEWARD_URL_ERROR, cases[i].error);
          g_assert_cmpuint (strlen (error->message), >, 0);
        }
    }
}

static void
test_too_long (void)
{
  g_autoptr(GString) url = g_string_new ("https://example.com/");
  g_autoptr(GError) error = NULL;

  while (url->len <= STEWARD_URL_MAX_LENGTH)
    g_string_append_c (url, 'a');

  g_assert_false (steward_url_check (url->str, NULL, NULL, &error));
  g_assert_error (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_INVALID);

  g_string_truncate (url, STEWARD_URL_MAX_LENGTH);
  g_assert_true (steward_url_check (url->str, NULL, NULL, NULL));
}

static void
test_loopback (void)
{
  g_assert_true (steward_url_host_is_loopback ("localhost"));
  g_assert_true (steward_url_host_is_loopback ("LOCALHOST"));
  g_assert_true (steward_url_host_is_loopback ("127.0.0.1"));
  g_assert_true (steward_url_host_is_loopback ("127.255.0.9"));
  g_assert_true (steward_url_host_is_loopback ("::1"));
  g_assert_true (steward_url_host_is_loopback ("[::1]"));
  g_assert_false (steward_url_host_is_loopback (NULL));
  g_assert_false (steward_url_host_is_loopback (""));
  g_assert_false (steward_url_host_is_loopback ("128.0.0.1"));
  g_assert_false (steward_url_host_is_loopback ("127.0.0.256"));
  g_assert_false (steward_url_host_is_loopback ("127.0.0.01"));
  g_assert_false (steward_url_host_is_loopback ("127.0.0.1.evil.example"));
  g_assert_false (steward_url_host_is_loopback ("[::2]"));
  g_assert_false (steward_url_host_is_loopback ("[::1"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/url/table", test_table);
  g_test_add_func ("/steward/url/too-long", test_too_long);
  g_test_add_func ("/steward/url/loopback", test_loopback);

  return g_test_run ();
}
