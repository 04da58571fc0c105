/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sandbox"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "steward-host.h"
#include "steward-sandbox.h"
#include "steward-server.h"

/* Servers when Steward runs in Flatpak: the flatpak-spawn argument
 * vectors, the reading of /.flatpak-info, the diagnosis of a missing
 * program, and StewardServer starting servers through a stand-in for
 * flatpak-spawn that records what it was given and then runs the server
 * as flatpak-spawn would, here. */

#define HELPER "/app/libexec/steward-sandbox-env"
#define OVERRIDE \
  "flatpak override --user --talk-name=org.freedesktop.Flatpak io.github.stewardmcp.Steward"

#define wait_until(condition, seconds)                                         \
  G_STMT_START {                                                              \
    gint64 deadline_ = g_get_monotonic_time () + (seconds) * G_USEC_PER_SEC;   \
    guint tick_ = g_timeout_add (50, tick_cb, NULL);                           \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= deadline_)                             \
          g_error ("timed out after %d s waiting for: %s", (int) (seconds),    \
                   #condition);                                               \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
    g_source_remove (tick_);                                                  \
  } G_STMT_END

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static GHashTable *
string_table (const char *first,
              ...) G_GNUC_NULL_TERMINATED;

static GHashTable *
string_table (const char *first,
              ...)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_list ap;

  va_start (ap, first);
  for (const char *name = first; name != NULL; name = va_arg (ap, const char *))
    g_hash_table_insert (table, g_strdup (name), g_strdup (va_arg (ap, const char *)));
  va_end (ap);

  return table;
}

static void
test_wrap_sandbox (void)
{
  static const char * const npx[] = { "npx", "-y", "@modelcontextprotocol/server-memory", NULL };
  static const char * const roots[] = { "/run/user/1000/doc/ab12/Notes", "/tmp/a b", NULL };
  static const char * const passed[] = { "GITHUB_TOKEN", "PLAIN", NULL };
  g_autoptr(GHashTable) session = string_table ("LANG", "de_DE.UTF-8", "HOME", "/home/ada",
                                                NULL);
  static const struct {
    const char * const *roots;
    const char         *cwd;
    gboolean            session;
    const char * const *passed;
    gboolean            network;
    const char         *expected[24];
  } cases[] = {
    /* The least: no roots, no network, nothing to pass. */
    { NULL, NULL, FALSE, NULL, FALSE,
      { "flatpak-spawn", "--sandbox", "--no-network", "--watch-bus", "--clear-env", "--",
        "npx", "-y", "@modelcontextprotocol/server-memory", NULL } },
    /* Each root exposed, spaces and all, as one argument; the network
     * when allowed; the session's variables sorted by name. */
    { roots, "/tmp/a b", TRUE, NULL, TRUE,
      { "flatpak-spawn", "--sandbox", "--sandbox-expose-path=/run/user/1000/doc/ab12/Notes",
        "--sandbox-expose-path=/tmp/a b", "--watch-bus", "--clear-env", "--directory=/tmp/a b",
        "--env=HOME=/home/ada", "--env=LANG=de_DE.UTF-8", "--",
        "npx", "-y", "@modelcontextprotocol/server-memory", NULL } },
    /* Configured variables go through the helper, by name only. */
    { roots, NULL, TRUE, passed, FALSE,
      { HELPER, "--pass=GITHUB_TOKEN", "--pass=PLAIN", "--",
        "flatpak-spawn", "--sandbox", "--sandbox-expose-path=/run/user/1000/doc/ab12/Notes",
        "--sandbox-expose-path=/tmp/a b", "--no-network", "--watch-bus", "--clear-env",
        "--env=HOME=/home/ada", "--env=LANG=de_DE.UTF-8", "--",
        "npx", "-y", "@modelcontextprotocol/server-memory", NULL } },
  };

  steward_sandbox_set_paths_for_testing (NULL, HELPER);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) argv = NULL;

      g_test_message ("case %u", i);
      argv = steward_sandbox_wrap_argv (npx, cases[i].roots, cases[i].cwd,
                                        cases[i].session ? session : NULL, cases[i].passed,
                                        cases[i].network, FALSE);
      g_assert_cmpstrv (argv, cases[i].expected);
    }

  steward_sandbox_set_paths_for_testing (NULL, NULL);
}

static void
test_wrap_host (void)
{
  static const char * const uvx[] = { "uvx", "mcp-server-git", "--repository", "/srv/r", NULL };
  static const char * const roots[] = { "/home/ada/Notes", NULL };
  static const char * const passed[] = { "TOKEN", NULL };
  static const char * const plain[] = {
    "flatpak-spawn", "--host", "--watch-bus", "--directory=/srv/r", "--",
    "uvx", "mcp-server-git", "--repository", "/srv/r", NULL
  };
  /* On the host nothing is exposed or taken away: the server sees the
   * whole computer, the network and the session's environment. */
  static const char * const with_helper[] = {
    HELPER, "--pass=TOKEN", "--",
    "flatpak-spawn", "--host", "--watch-bus", "--",
    "uvx", "mcp-server-git", "--repository", "/srv/r", NULL
  };
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) argv_helper = NULL;

  steward_sandbox_set_paths_for_testing (NULL, HELPER);

  argv = steward_sandbox_wrap_argv (uvx, roots, "/srv/r", NULL, NULL, FALSE, TRUE);
  g_assert_cmpstrv (argv, plain);
  argv_helper = steward_sandbox_wrap_argv (uvx, NULL, NULL, NULL, passed, TRUE, TRUE);
  g_assert_cmpstrv (argv_helper, with_helper);

  steward_sandbox_set_paths_for_testing (NULL, NULL);
}

static void
test_info (void)
{
  static const struct {
    const char *info;
    gboolean    allows;
  } cases[] = {
    /* As Flatpak writes it for the manifest's permissions. */
    { "[Application]\nname=io.github.stewardmcp.Steward\nruntime=runtime/org.gnome.Platform/"
      "x86_64/51\n\n[Context]\nshared=network;ipc;\nsockets=wayland;fallback-x11;\n"
      "devices=dri;\n\n[Instance]\ninstance-id=1234\n", FALSE },
    /* After `flatpak override --user --talk-name=org.freedesktop.Flatpak`. */
    { "[Application]\nname=io.github.stewardmcp.Steward\n\n[Context]\nshared=network;ipc;\n\n"
      "[Session Bus Policy]\norg.freedesktop.Flatpak=talk\n", TRUE },
    { "[Session Bus Policy]\norg.freedesktop.Flatpak = own\n", TRUE },
    { "[Session Bus Policy]\norg.freedesktop.*=talk\n", TRUE },
    { "[Session Bus Policy]\norg.freedesktop.Flatpak=see\n", FALSE },
    { "[Session Bus Policy]\norg.freedesktop.Flatpak=none\n", FALSE },
    /* Other names, however alike, and the system bus, do not count. */
    { "[Session Bus Policy]\norg.freedesktop.secrets=talk\norg.freedesktop.portal.*=talk\n"
      "org.freedesktop.FlatpakX=talk\n", FALSE },
    { "[System Bus Policy]\norg.freedesktop.Flatpak=talk\n", FALSE },
    /* The whole session bus includes the name. */
    { "[Context]\nsockets=wayland;session-bus;\n", TRUE },
    { "[Context]\nsockets=wayland;!session-bus;\n", FALSE },
    { "", FALSE },
    { "not a key file\n\x01\x02", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u: %s", i, cases[i].info);
      g_assert_cmpint (steward_sandbox_info_allows_host (cases[i].info, -1), ==,
                       cases[i].allows);
      g_assert_cmpint (steward_sandbox_info_allows_host (cases[i].info,
                                                         strlen (cases[i].info)), ==,
                       cases[i].allows);
    }
}

static void
test_info_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-sandbox-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "flatpak-info", NULL);

  g_assert_no_error (error);

  steward_sandbox_set_paths_for_testing (path, NULL);
  g_assert_false (steward_sandbox_is_flatpak ());
  g_assert_false (steward_sandbox_can_spawn_on_host ());

  g_assert_true (g_file_set_contents (path, "[Application]\nname=x\n", -1, &error));
  steward_sandbox_set_paths_for_testing (path, NULL);
  g_assert_true (steward_sandbox_is_flatpak ());
  g_assert_false (steward_sandbox_can_spawn_on_host ());

  /* Read once: a sandbox never gains a permission while it runs. */
  g_assert_true (g_file_set_contents (path, "[Session Bus Policy]\n"
                                      "org.freedesktop.Flatpak=talk\n", -1, &error));
  g_assert_false (steward_sandbox_can_spawn_on_host ());
  steward_sandbox_set_paths_for_testing (path, NULL);
  g_assert_true (steward_sandbox_can_spawn_on_host ());

  steward_sandbox_set_paths_for_testing (NULL, NULL);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_session_env (void)
{
  static const char * const parent[] = {
    "HOME=/home/ada", "USER=ada", "LANG=C.UTF-8", "LC_TIME=de_DE.UTF-8", "TZ=Europe/Berlin",
    "PATH=/app/bin:/usr/bin", "XDG_CONFIG_HOME=/home/ada/.var/app/x/config",
    "XDG_DATA_HOME=/home/ada/.var/app/x/data", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/b",
    "WAYLAND_DISPLAY=wayland-0", "DISPLAY=:0", "GITHUB_TOKEN=ghp_secret", "SSH_AUTH_SOCK=/s",
    "=nameless", "no-equals", "LANGUAGE=de:en", NULL
  };
  g_autoptr(GHashTable) env = steward_sandbox_dup_session_env (parent);

  g_assert_cmpuint (g_hash_table_size (env), ==, 6);
  g_assert_cmpstr (g_hash_table_lookup (env, "HOME"), ==, "/home/ada");
  g_assert_cmpstr (g_hash_table_lookup (env, "USER"), ==, "ada");
  g_assert_cmpstr (g_hash_table_lookup (env, "LANG"), ==, "C.UTF-8");
  g_assert_cmpstr (g_hash_table_lookup (env, "LANGUAGE"), ==, "de:en");
  g_assert_cmpstr (g_hash_table_lookup (env, "LC_TIME"), ==, "de_DE.UTF-8");
  g_assert_cmpstr (g_hash_table_lookup (env, "TZ"), ==, "Europe/Berlin");
}

static void
test_diagnose (void)
{
  g_autofree char *missing = steward_sandbox_diagnose_missing ("uvx");
  g_autofree char *no_host = steward_sandbox_diagnose_no_host ();

  g_test_message ("%s", missing);
  g_assert_true (g_str_has_prefix (missing, "`uvx` is not available inside the Flatpak: "));
  g_assert_nonnull (strstr (missing, "npx"));
  g_assert_nonnull (strstr (missing, OVERRIDE));
  g_assert_nonnull (strstr (missing, "Run on the host"));

  g_test_message ("%s", no_host);
  g_assert_nonnull (strstr (no_host, "full access to your computer"));
  g_assert_nonnull (strstr (no_host, OVERRIDE));
}

/* StewardServer in a pretend Flatpak */

/* Records its arguments, the variables it got through --env-fd and the
 * names in its own environment, one JSON line per start, beside itself;
 * then starts the server the way flatpak-spawn does: options up to the
 * first argument without a dash, a cleared environment with the sandbox's
 * PATH, the variables given, the folder given. */
static const char fake_flatpak_spawn[] =
  "#!/usr/bin/python3\n"
  "import json, os, sys\n"
  "args = sys.argv[1:]\n"
  "i = 0\n"
  "while i < len(args) and args[i].startswith('-'):\n"
  "    i += 1\n"
  "options, command = args[:i], args[i:]\n"
  "passed = {}\n"
  "for option in options:\n"
  "    if option.startswith('--env-fd='):\n"
  "        fd = int(option.split('=', 1)[1])\n"
  "        with open('/proc/self/fd/%d' % fd, 'rb') as f:\n"
  "            data = f.read()\n"
  "        os.close(fd)\n"
  "        for item in data.split(b'\\0'):\n"
  "            if item:\n"
  "                name, value = item.decode().split('=', 1)\n"
  "                passed[name] = value\n"
  "with open(os.path.join(os.path.dirname(__file__), 'calls.jsonl'), 'a') as f:\n"
  "    f.write(json.dumps({'argv': args, 'passed': passed,\n"
  "                        'environ': sorted(os.environ)}) + '\\n')\n"
  "env = {} if '--clear-env' in options else dict(os.environ)\n"
  "env['PATH'] = '/usr/bin:/bin'\n"
  "for option in options:\n"
  "    if option.startswith('--env='):\n"
  "        name, value = option[len('--env='):].split('=', 1)\n"
  "        env[name] = value\n"
  "    elif option.startswith('--directory='):\n"
  "        os.chdir(option[len('--directory='):])\n"
  "env.update(passed)\n"
  "os.execvpe(command[0], command, env)\n";

/* Where the stand-in for flatpak-spawn is, first on PATH: set before
 * any test runs, as changing the environment once threads run is not
 * safe. */
static char *fake_dir;

typedef struct {
  char          *top;
  char          *info;
  char          *calls;
  char          *root;
  StewardHost   *host;
  StewardServer *server;
} Fixture;

static void
remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (children != NULL)
    {
      GFileInfo *info;
      GFile *child;

      while (g_file_enumerator_iterate (children, &info, &child, NULL, NULL) && info != NULL)
        remove_tree (child);
    }

  g_file_delete (file, NULL, NULL);
}

static void
write_info (Fixture    *fixture,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *helper = g_test_build_filename (G_TEST_BUILT, "..", "src", "host",
                                                   "steward-sandbox-env", NULL);

  g_assert_true (g_file_set_contents (fixture->info, text, -1, &error));
  g_assert_no_error (error);
  steward_sandbox_set_paths_for_testing (fixture->info, helper);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GFile) root_dir = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *state_path = NULL;
  g_autofree char *root_path = NULL;
  StewardRoot *root;

  fixture->top = g_dir_make_tmp ("test-sandbox-XXXXXX", &error);
  g_assert_no_error (error);
  config_path = g_build_filename (fixture->top, "config", NULL);
  state_path = g_build_filename (fixture->top, "state", NULL);
  root_path = g_build_filename (fixture->top, "shared folder", NULL);
  g_assert_cmpint (g_mkdir (config_path, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (state_path, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (root_path, 0700), ==, 0);
  fixture->calls = g_build_filename (fake_dir, "calls.jsonl", NULL);
  g_unlink (fixture->calls);

  fixture->info = g_build_filename (fixture->top, "flatpak-info", NULL);
  write_info (fixture, "[Application]\nname=io.github.stewardmcp.Steward\n");

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_for_path (state_path);
  fixture->host = steward_host_new (config_dir, state_dir);

  root_dir = g_file_new_for_path (root_path);
  root = steward_roots_add (steward_host_get_roots (fixture->host), root_dir, &error);
  g_assert_no_error (error);
  fixture->root = g_strdup (steward_root_get_path (root));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GFile) top = g_file_new_for_path (fixture->top);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->host);
  steward_sandbox_set_paths_for_testing (NULL, NULL);
  g_unlink (fixture->calls);
  remove_tree (top);
  g_free (fixture->top);
  g_free (fixture->info);
  g_free (fixture->calls);
  g_free (fixture->root);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
stop_server (StewardServer *server)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_server_stop_async (server, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_true (steward_server_stop_finish (server, result, &error));
  g_assert_no_error (error);
}

/* Starts @config with consent and waits until it is ready or failed. */
static void
run (Fixture             *fixture,
     StewardServerConfig *config)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (steward_config_record_consent (steward_host_get_config (fixture->host), config,
                                                &error));
  g_assert_no_error (error);

  steward_server_set_config (fixture->server, config);
  steward_server_start (fixture->server);
  wait_until (steward_server_get_status (fixture->server) == STEWARD_SERVER_STATUS_READY ||
              steward_server_get_status (fixture->server) == STEWARD_SERVER_STATUS_FAILED, 20);
  g_test_message ("%s: %s", steward_server_get_status_text (fixture->server),
                  steward_server_get_detail_text (fixture->server));
}

static JsonObject *
request (Fixture    *fixture,
         const char *method)
{
  McpClient *client = steward_server_get_client (fixture->server);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  mcp_client_request_async (client, method, NULL, NULL, NULL, NULL, NULL, store_result_cb,
                            &result);
  wait_until (result != NULL, 20);
  reply = mcp_client_request_finish (client, result, &error);
  g_assert_no_error (error);

  return reply;
}

/* The newest line flatpak-spawn recorded; the file is removed so that the
 * next start writes the only line. */
static JsonObject *
take_call (Fixture *fixture)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (fixture->calls, &text, NULL, &error));
  g_assert_cmpint (g_unlink (fixture->calls), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char **
dup_strings (JsonObject *object,
             const char *member)
{
  JsonArray *array = json_object_get_array_member (object, member);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < json_array_get_length (array); i++)
    g_strv_builder_add (builder, json_array_get_string_element (array, i));

  return g_strv_builder_end (builder);
}

static void
test_server_sandboxed (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);
  const char *args[] = { script, NULL };
  g_autoptr(GHashTable) env = string_table ("SERVICE_TOKEN", "canary-5e2a-value",
                                            "PLAIN", "plain value", NULL);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServerConfig) networked = NULL;
  g_autoptr(JsonObject) call = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autofree char *expose = g_strconcat ("--sandbox-expose-path=", fixture->root, NULL);
  g_autofree char *directory = g_strconcat ("--directory=", fixture->root, NULL);
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) environ_names = NULL;
  JsonObject *environment;
  JsonObject *passed;
  guint dashes = 0;

  config = steward_server_config_new_stdio ("sandboxed", "/usr/bin/python3", args, env,
                                            fixture->root);
  fixture->server = steward_server_new (steward_host_get_server_context (fixture->host),
                                        config);
  run (fixture, config);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==, STEWARD_SERVER_STATUS_READY);

  call = take_call (fixture);
  argv = dup_strings (call, "argv");
  g_assert_true (g_str_has_prefix (argv[0], "--env-fd="));
  g_assert_cmpstr (argv[1], ==, "--sandbox");
  g_assert_true (g_strv_contains ((const char * const *) argv, expose));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--no-network"));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--watch-bus"));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--clear-env"));
  g_assert_true (g_strv_contains ((const char * const *) argv, directory));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--host"));
  for (guint i = 0; argv[i] != NULL; i++)
    {
      /* The configured values never show in the arguments, which any
       * process may read. */
      g_assert_null (strstr (argv[i], "canary"));
      g_assert_null (strstr (argv[i], "plain value"));
      if (g_str_equal (argv[i], "--"))
        dashes = i;
    }
  g_assert_cmpstr (argv[dashes + 1], ==, "/usr/bin/python3");
  g_assert_cmpstr (argv[dashes + 2], ==, script);
  g_assert_null (argv[dashes + 3]);

  /* They came through the file descriptor, and flatpak-spawn's own
   * environment no longer holds them. */
  passed = json_object_get_object_member (call, "passed");
  g_assert_cmpuint (json_object_get_size (passed), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (passed, "SERVICE_TOKEN"), ==,
                   "canary-5e2a-value");
  g_assert_cmpstr (json_object_get_string_member (passed, "PLAIN"), ==, "plain value");
  environ_names = dup_strings (call, "environ");
  g_assert_false (g_strv_contains ((const char * const *) environ_names, "SERVICE_TOKEN"));
  g_assert_false (g_strv_contains ((const char * const *) environ_names, "PLAIN"));

  reply = request (fixture, "environ");
  environment = json_object_get_object_member (reply, "environ");
  g_assert_cmpstr (json_object_get_string_member (environment, "SERVICE_TOKEN"), ==,
                   "canary-5e2a-value");
  g_assert_cmpstr (json_object_get_string_member (environment, "PLAIN"), ==, "plain value");
  g_assert_false (json_object_has_member (environment, "DBUS_SESSION_BUS_ADDRESS"));
  g_clear_pointer (&reply, json_object_unref);
  reply = request (fixture, "cwd");
  g_assert_cmpstr (json_object_get_string_member (reply, "cwd"), ==, fixture->root);
  stop_server (fixture->server);

  /* The network is the person's choice, and a new consent. */
  networked = steward_server_config_with_sandbox (config, TRUE, FALSE);
  run (fixture, networked);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==, STEWARD_SERVER_STATUS_READY);
  g_clear_pointer (&call, json_object_unref);
  g_clear_pointer (&argv, g_strfreev);
  call = take_call (fixture);
  argv = dup_strings (call, "argv");
  g_assert_true (g_strv_contains ((const char * const *) argv, "--sandbox"));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--no-network"));
  stop_server (fixture->server);

  g_assert_finalize_object (g_steal_pointer (&fixture->server));
}

static void
test_server_host (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);
  const char *args[] = { script, NULL };
  g_autoptr(StewardServerConfig) plain = NULL;
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(JsonObject) call = NULL;
  g_auto(GStrv) argv = NULL;

  plain = steward_server_config_new_stdio ("host", "/usr/bin/python3", args, NULL, NULL);
  config = steward_server_config_with_sandbox (plain, FALSE, TRUE);
  fixture->server = steward_server_new (steward_host_get_server_context (fixture->host),
                                        config);

  /* Without the permission, the person learns how to grant it. */
  run (fixture, config);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_FAILED);
  g_assert_nonnull (strstr (steward_server_get_detail_text (fixture->server), OVERRIDE));
  g_assert_false (g_file_test (fixture->calls, G_FILE_TEST_EXISTS));
  stop_server (fixture->server);

  write_info (fixture, "[Application]\nname=io.github.stewardmcp.Steward\n\n"
              "[Session Bus Policy]\norg.freedesktop.Flatpak=talk\n");
  run (fixture, config);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==, STEWARD_SERVER_STATUS_READY);
  call = take_call (fixture);
  argv = dup_strings (call, "argv");
  g_assert_cmpstr (argv[0], ==, "--host");
  g_assert_false (g_strv_contains ((const char * const *) argv, "--sandbox"));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--clear-env"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_assert_false (g_str_has_prefix (argv[i], "--sandbox-expose-path="));
  stop_server (fixture->server);

  g_assert_finalize_object (g_steal_pointer (&fixture->server));
}

static void
test_server_missing (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServerConfig) absolute = NULL;
  const char *text;

  config = steward_server_config_new_stdio ("missing", "uvx-not-installed-here", NULL, NULL,
                                            NULL);
  fixture->server = steward_server_new (steward_host_get_server_context (fixture->host),
                                        config);
  run (fixture, config);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_FAILED);
  text = steward_server_get_status_text (fixture->server);
  g_assert_nonnull (strstr (text,
                            "`uvx-not-installed-here` is not available inside the Flatpak: "));
  g_assert_false (g_file_test (fixture->calls, G_FILE_TEST_EXISTS));
  stop_server (fixture->server);

  absolute = steward_server_config_new_stdio ("missing", "/home/nobody/bin/server", NULL, NULL,
                                              NULL);
  run (fixture, absolute);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_FAILED);
  text = steward_server_get_status_text (fixture->server);
  g_assert_nonnull (strstr (text,
                            "`/home/nobody/bin/server` is not available inside the Flatpak: "));
  stop_server (fixture->server);

  g_assert_finalize_object (g_steal_pointer (&fixture->server));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) fake_top = NULL;
  g_autofree char *fake = NULL;
  g_autofree char *path = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  fake_dir = g_dir_make_tmp ("test-sandbox-bin-XXXXXX", &error);
  g_assert_no_error (error);
  fake = g_build_filename (fake_dir, "flatpak-spawn", NULL);
  g_assert_true (g_file_set_contents (fake, fake_flatpak_spawn, -1, &error));
  g_assert_cmpint (g_chmod (fake, 0755), ==, 0);
  path = g_strconcat (fake_dir, ":", g_getenv ("PATH") ? g_getenv ("PATH") : "/usr/bin:/bin",
                      NULL);
  g_setenv ("PATH", path, TRUE);

  g_test_add_func ("/steward/sandbox/wrap-sandbox", test_wrap_sandbox);
  g_test_add_func ("/steward/sandbox/wrap-host", test_wrap_host);
  g_test_add_func ("/steward/sandbox/info", test_info);
  g_test_add_func ("/steward/sandbox/info-file", test_info_file);
  g_test_add_func ("/steward/sandbox/session-env", test_session_env);
  g_test_add_func ("/steward/sandbox/diagnose", test_diagnose);

#define ADD(path, func) \
  g_test_add ("/steward/sandbox/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("server-sandboxed", test_server_sandboxed);
  ADD ("server-host", test_server_host);
  ADD ("server-missing", test_server_missing);

#undef ADD

  status = g_test_run ();

  fake_top = g_file_new_for_path (fake_dir);
  remove_tree (fake_top);
  g_free (fake_dir);

  return status;
}
