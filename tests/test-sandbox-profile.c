/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sandbox-profile"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "steward-bwrap.h"
#include "steward-sandbox-profile.h"
#include "steward-sandbox.h"

/* The sandbox profile built from a server's entry, its words, its part of
 * the consent fingerprint, and the bubblewrap and flatpak-spawn vectors
 * built from it. test-sandbox-escape runs them for real. */

static StewardServerConfig *
config_from_json (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  StewardServerConfig *config;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  config = steward_server_config_new_from_json ("files", json_node_get_object (node), &error);
  g_assert_no_error (error);

  return config;
}

static StewardSandboxProfile *
profile_from_json (const char *json)
{
  g_autoptr(StewardServerConfig) config = config_from_json (json);
  const char *roots[] = { "/srv/project", NULL };

  return steward_sandbox_profile_new (config, roots);
}

/* The index of @arg in @argv, or -1. */
static int
find_arg (char       **argv,
          const char  *arg)
{
  for (int i = 0; argv[i] != NULL; i++)
    if (g_str_equal (argv[i], arg))
      return i;

  return -1;
}

/* Whether @argv holds @a immediately followed by @b and @c. */
static gboolean
has_triple (char       **argv,
            const char  *a,
            const char  *b,
            const char  *c)
{
  for (int i = 0; argv[i] != NULL && argv[i + 1] != NULL && argv[i + 2] != NULL; i++)
    if (g_str_equal (argv[i], a) && g_str_equal (argv[i + 1], b) && g_str_equal (argv[i + 2], c))
      return TRUE;

  return FALSE;
}

static void
test_network_default (void)
{
  static const struct {
    const char *json;
    gboolean    network;
    gboolean    is_default;
  } cases[] = {
    { "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}", TRUE, TRUE },
    { "{\"command\": \"/usr/bin/uvx\", \"args\": [\"pkg\"]}", TRUE, TRUE },
    { "{\"command\": \"node\", \"args\": [\"server.js\"]}", FALSE, TRUE },
    { "{\"command\": \"npx\", \"args\": [\"pkg\"], \"network\": false}", FALSE, FALSE },
    { "{\"command\": \"node\", \"args\": [], \"network\": true}", TRUE, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(StewardSandboxProfile) profile = profile_from_json (cases[i].json);

      g_test_message ("%s", cases[i].json);
      g_assert_cmpint (steward_sandbox_profile_get_network (profile), ==, cases[i].network);
      g_assert_cmpint (steward_sandbox_profile_network_is_default (profile), ==,
                       cases[i].is_default);
      g_assert_false (steward_sandbox_profile_get_full_access (profile));
      g_assert_false (steward_sandbox_profile_get_display (profile));
    }
}

/* What the command names is readable; the file system's root and the
 * session's sockets never are, whatever an argument says. */
static void
test_readable (void)
{
  g_autoptr(StewardSandboxProfile) profile = profile_from_json (
    "{\"command\": \"/opt/tool/bin/server\","
    " \"args\": [\"/srv/data\", \"--root=/srv/other/\", \"relative/path\", \"/\","
    "            \"/run/user/1000/bus\", \"/proc/1/environ\", \"-x\"],"
    " \"cwd\": \"/srv/work\", \"readable\": [\"/srv/granted\"]}");
  const char * const *readable = steward_sandbox_profile_get_readable (profile);
  const char * const *writable = steward_sandbox_profile_get_writable (profile);

  g_assert_true (g_strv_contains (readable, "/srv/granted"));
  g_assert_true (g_strv_contains (readable, "/opt/tool/bin/server"));
  g_assert_true (g_strv_contains (readable, "/srv/work"));
  g_assert_true (g_strv_contains (readable, "/srv/data"));
  g_assert_true (g_strv_contains (readable, "/srv/other"));
  g_assert_false (g_strv_contains (readable, "/"));
  g_assert_false (g_strv_contains (readable, "/run/user/1000/bus"));
  g_assert_false (g_strv_contains (readable, "/proc/1/environ"));
  for (guint i = 0; readable[i] != NULL; i++)
    g_assert_true (g_path_is_absolute (readable[i]));

  g_assert_cmpstrv (writable, ((const char *[]) { "/srv/project", NULL }));
  g_assert_true (g_str_has_prefix (steward_sandbox_profile_get_state_dir (profile),
                                   g_get_user_state_dir ()));
}

/* Two names that differ only in characters a folder name cannot hold
 * get two folders, neither outside the folder of folders. */
static void
test_state_dir (void)
{
  g_autoptr(JsonNode) node = json_from_string ("{\"command\": \"node\"}", NULL);
  g_autoptr(StewardServerConfig) a = NULL;
  g_autoptr(StewardServerConfig) b = NULL;
  g_autoptr(StewardSandboxProfile) pa = NULL;
  g_autoptr(StewardSandboxProfile) pb = NULL;
  g_autofree char *parent = g_build_filename (g_get_user_state_dir (), "steward", "servers",
                                              NULL);
  g_autofree char *dir_a = NULL;
  g_autofree char *dir_b = NULL;

  a = steward_server_config_new_from_json ("../../x", json_node_get_object (node), NULL);
  b = steward_server_config_new_from_json ("______x", json_node_get_object (node), NULL);
  pa = steward_sandbox_profile_new (a, NULL);
  pb = steward_sandbox_profile_new (b, NULL);
  dir_a = g_path_get_dirname (steward_sandbox_profile_get_state_dir (pa));
  dir_b = g_path_get_dirname (steward_sandbox_profile_get_state_dir (pb));

  g_assert_cmpstr (dir_a, ==, parent);
  g_assert_cmpstr (dir_b, ==, parent);
  g_assert_cmpstr (steward_sandbox_profile_get_state_dir (pa), !=,
                   steward_sandbox_profile_get_state_dir (pb));
}

static gboolean
lines_contain (char       **lines,
               const char  *needle)
{
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], needle) != NULL)
      return TRUE;

  return FALSE;
}

static void
test_descriptions (void)
{
  g_autoptr(StewardSandboxProfile) npx = profile_from_json (
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\", \"/srv/data\"], \"display\": true}");
  g_autoptr(StewardSandboxProfile) node = profile_from_json (
    "{\"command\": \"node\", \"args\": [\"server.js\"]}");
  g_autoptr(StewardSandboxProfile) full = profile_from_json (
    "{\"command\": \"node\", \"args\": [\"server.js\"], \"runOnHost\": true}");
  g_auto(GStrv) npx_lines = steward_sandbox_profile_dup_descriptions (npx);
  g_auto(GStrv) node_lines = steward_sandbox_profile_dup_descriptions (node);
  g_auto(GStrv) full_lines = steward_sandbox_profile_dup_descriptions (full);

  g_assert_true (lines_contain (npx_lines, "Network: allowed, because `npx`"));
  g_assert_true (lines_contain (npx_lines, "Reads, without changing: /srv/data"));
  g_assert_true (lines_contain (npx_lines, "/srv/project"));
  g_assert_true (lines_contain (npx_lines, "Display: may open windows"));
  g_assert_true (lines_contain (npx_lines, steward_sandbox_profile_get_state_dir (npx)));

  g_assert_true (lines_contain (node_lines, "Network: off."));
  g_assert_true (lines_contain (node_lines, "Display: off"));
  g_assert_true (lines_contain (node_lines, "session bus"));

  g_assert_cmpuint (g_strv_length (full_lines), ==, 1);
  g_assert_true (lines_contain (full_lines, "Full access (no sandbox)"));
  g_assert_true (lines_contain (full_lines, "keyring"));

  /* Where a switch stands for the network: every other sentence, in the
   * same order, and not the network's. */
  {
    g_auto(GStrv) but_network = steward_sandbox_profile_dup_descriptions_but_network (npx);
    guint j = 0;

    g_assert_cmpuint (g_strv_length (but_network), ==, g_strv_length (npx_lines) - 1);
    for (guint i = 0; npx_lines[i] != NULL; i++)
      if (!g_str_has_prefix (npx_lines[i], "Network: "))
        g_assert_cmpstr (but_network[j++], ==, npx_lines[i]);
    g_assert_false (lines_contain (but_network, "Network: "));
  }
}

static char *
fingerprint_part (const char *json)
{
  g_autoptr(StewardServerConfig) config = config_from_json (json);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (builder);
  steward_sandbox_profile_add_to_fingerprint (config, builder);
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

/* An entry that sets no permission adds nothing, so that consents given
 * before the profile existed stay valid; each permission changes it. */
static void
test_fingerprint (void)
{
  g_autofree char *none = fingerprint_part ("{\"command\": \"npx\"}");
  g_autofree char *display = fingerprint_part ("{\"command\": \"npx\", \"display\": true}");
  g_autofree char *readable = fingerprint_part ("{\"command\": \"npx\", \"readable\": [\"/a\"]}");
  g_autofree char *network = fingerprint_part ("{\"command\": \"npx\", \"network\": false}");
  g_autofree char *full = fingerprint_part ("{\"command\": \"npx\", \"runOnHost\": true}");

  g_assert_cmpstr (none, ==, "[]");
  g_assert_cmpstr (full, ==, "[{\"network\":false,\"runOnHost\":true}]");
  g_assert_cmpstr (network, ==, "[{\"network\":false,\"runOnHost\":false}]");
  g_assert_nonnull (strstr (display, "\"display\":true"));
  g_assert_nonnull (strstr (readable, "\"readable\":[\"/a\"]"));
}

static void
test_bwrap_argv (void)
{
  g_autofree char *top = g_dir_make_tmp ("test-sandbox-profile-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (top, "data", NULL);
  g_autofree char *project = g_build_filename (top, "project", NULL);
  g_autofree char *link = g_build_filename (top, "link", NULL);
  g_autofree char *json = NULL;
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardSandboxProfile) profile = NULL;
  const char *parent[] = { "DISPLAY=:0", "WAYLAND_DISPLAY=wayland-0",
                           "XDG_RUNTIME_DIR=/run/user/1000", NULL };
  const char *state;
  g_auto(GStrv) argv = NULL;
  g_autofree char *joined = NULL;
  int separator;

  g_assert_cmpint (g_mkdir (data, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (project, 0700), ==, 0);
  g_assert_cmpint (symlink (data, link), ==, 0);

  json = g_strdup_printf ("{\"command\": \"node\", \"args\": [\"%s\", \"/srv/missing\"],"
                          " \"env\": {\"API_KEY\": \"sk-secret-value\"}}", link);
  config = config_from_json (json);
  profile = steward_sandbox_profile_new (config, (const char *[]) { project, NULL });
  state = steward_sandbox_profile_get_state_dir (profile);
  argv = steward_bwrap_wrap_argv (profile, (const char *[]) { "node", link, NULL }, NULL, parent);
  joined = g_strjoinv (" ", argv);
  separator = find_arg (argv, "--");

  g_test_message ("%s", joined);
  g_assert_true (g_str_has_suffix (argv[0], "bwrap"));
  g_assert_true (has_triple (argv, "--ro-bind", "/", "/"));
  g_assert_cmpstr (argv[find_arg (argv, "/tmp") - 1], ==, "--tmpfs");
  g_assert_cmpstr (argv[find_arg (argv, "/run") - 1], ==, "--tmpfs");
  g_assert_cmpstr (argv[find_arg (argv, "/home") - 1], ==, "--tmpfs");
  /* A granted path is mounted where it really is, and the link that led
   * there is made again inside the hidden /tmp; a missing one is left
   * out. */
  g_assert_true (has_triple (argv, "--ro-bind-try", data, data));
  g_assert_true (has_triple (argv, "--symlink", data, link));
  g_assert_cmpint (find_arg (argv, "/srv/missing"), ==, -1);
  g_assert_true (has_triple (argv, "--bind-try", project, project));
  g_assert_true (has_triple (argv, "--setenv", "HOME", state));
  g_assert_true (has_triple (argv, "--chdir", state, "--"));
  g_assert_cmpint (find_arg (argv, "--unshare-net"), >, 0);
  g_assert_cmpint (find_arg (argv, "--unshare-pid"), >, 0);
  g_assert_cmpint (find_arg (argv, "--unshare-ipc"), >, 0);
  g_assert_cmpint (find_arg (argv, "--new-session"), >, 0);
  g_assert_cmpint (find_arg (argv, "--die-with-parent"), >, 0);
  g_assert_cmpint (find_arg (argv, "DBUS_SESSION_BUS_ADDRESS"), >, 0);
  g_assert_cmpint (find_arg (argv, "DISPLAY"), >, 0);
  /* No display without the permission, and never a variable's value. */
  g_assert_cmpint (find_arg (argv, "/tmp/.X11-unix"), ==, -1);
  g_assert_null (strstr (joined, "sk-secret-value"));
  g_assert_cmpstr (argv[separator + 1], ==, "node");
  g_assert_cmpstr (argv[separator + 2], ==, link);
  /* Hidden first, granted after: a later mount wins. */
  g_assert_cmpint (find_arg (argv, data), >, find_arg (argv, "/run"));

  g_assert_cmpint (g_unlink (link), ==, 0);
  g_assert_cmpint (g_rmdir (data), ==, 0);
  g_assert_cmpint (g_rmdir (project), ==, 0);
  g_assert_cmpint (g_rmdir (top), ==, 0);
}

static void
test_bwrap_network_display (void)
{
  g_autoptr(StewardSandboxProfile) profile = profile_from_json (
    "{\"command\": \"node\", \"args\": [], \"network\": true, \"display\": true}");
  const char *server[] = { "node", NULL };
  const char *parent[] = { "DISPLAY=:0", "WAYLAND_DISPLAY=wayland-0",
                           "XDG_RUNTIME_DIR=/run/user/1000", NULL };
  g_auto(GStrv) argv = steward_bwrap_wrap_argv (profile, server, "/srv/work", parent);

  g_assert_cmpint (find_arg (argv, "--unshare-net"), ==, -1);
  g_assert_true (has_triple (argv, "--bind-try", "/tmp/.X11-unix", "/tmp/.X11-unix"));
  g_assert_true (has_triple (argv, "--bind-try", "/run/user/1000/wayland-0",
                             "/run/user/1000/wayland-0"));
  g_assert_cmpint (find_arg (argv, "DISPLAY"), ==, -1);
  g_assert_true (has_triple (argv, "--chdir", "/srv/work", "--"));
}

static void
test_bwrap_check (void)
{
  g_autoptr(GError) error = NULL;

  steward_bwrap_set_program_for_testing ("/nonexistent/bwrap");
  g_assert_false (steward_bwrap_check (&error));
  g_assert_error (error, STEWARD_BWRAP_ERROR, STEWARD_BWRAP_ERROR_MISSING);
  g_assert_nonnull (strstr (error->message, "bubblewrap"));
  steward_bwrap_set_program_for_testing (NULL);
}

/* The Flatpak launcher takes the same profile: roots read and write,
 * granted paths read-only, the network and the host. */
static void
test_flatpak_argv (void)
{
  g_autoptr(StewardSandboxProfile) profile = profile_from_json (
    "{\"command\": \"node\", \"args\": [\"/srv/data\"]}");
  g_autoptr(StewardSandboxProfile) full = profile_from_json (
    "{\"command\": \"node\", \"args\": [\"/srv/data\"], \"runOnHost\": true}");
  const char *server[] = { "node", "/srv/data", NULL };
  g_auto(GStrv) argv = steward_sandbox_wrap_profile_argv (profile, server, NULL, NULL, NULL);
  g_auto(GStrv) host = steward_sandbox_wrap_profile_argv (full, server, NULL, NULL, NULL);

  g_assert_cmpint (find_arg (argv, "--sandbox"), >, 0);
  g_assert_cmpint (find_arg (argv, "--sandbox-expose-path=/srv/project"), >, 0);
  g_assert_cmpint (find_arg (argv, "--sandbox-expose-path-ro=/srv/data"), >, 0);
  g_assert_cmpint (find_arg (argv, "--no-network"), >, 0);
  g_assert_cmpint (find_arg (host, "--host"), >, 0);
  g_assert_cmpint (find_arg (host, "--sandbox"), ==, -1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/sandbox-profile/network-default", test_network_default);
  g_test_add_func ("/steward/sandbox-profile/readable", test_readable);
  g_test_add_func ("/steward/sandbox-profile/state-dir", test_state_dir);
  g_test_add_func ("/steward/sandbox-profile/descriptions", test_descriptions);
  g_test_add_func ("/steward/sandbox-profile/fingerprint", test_fingerprint);
  g_test_add_func ("/steward/sandbox-profile/bwrap-argv", test_bwrap_argv);
  g_test_add_func ("/steward/sandbox-profile/bwrap-network-display", test_bwrap_network_display);
  g_test_add_func ("/steward/sandbox-profile/bwrap-check", test_bwrap_check);
  g_test_add_func ("/steward/sandbox-profile/flatpak-argv", test_flatpak_argv);

  return g_test_run ();
}
