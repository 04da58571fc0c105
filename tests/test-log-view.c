/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-log-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mcp-message.h"
#include "steward-log-view.h"
#include "steward-trace-names.h"
#include "test-error-banner.h"

/* Bounds on waiting: a failure, never a measurement. */
#define WAIT_TIMEOUT_S 10
#define FLOOD_ENTRIES 100000
#define FLOOD_MAX_ITERATIONS 20000

typedef struct
{
  char           *tmp_dir;
  StewardHost    *host;
  StewardLogStore *store;
  GtkWindow      *window;
  StewardLogView *view;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

typedef gboolean (*Condition) (Fixture *fixture,
                               gpointer data);

/* Iterates the main context until @condition holds; fails the test when it
 * does not within WAIT_TIMEOUT_S. */
static void
wait_until (Fixture   *fixture,
            Condition  condition,
            gpointer   data)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add_seconds (WAIT_TIMEOUT_S, timeout_cb, &timed_out);

  while (!condition (fixture, data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

/* Lets whatever is due run (idles, a frame or two) without waiting. */
static void
drain (void)
{
  guint i;

  for (i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

/* The first widget of @type with @css_class (the drop-downs hold list
 * views of their own). */
static GtkWidget *
find_widget (GtkWidget  *root,
             GType       type,
             const char *css_class)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) && gtk_widget_has_css_class (root, css_class))
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, css_class);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static guint
count_shown (Fixture *fixture)
{
  return g_list_model_get_n_items (steward_log_view_get_model (fixture->view));
}

static gboolean
settled (Fixture *fixture)
{
  GListModel *model = steward_log_view_get_model (fixture->view);

  return !GTK_IS_FILTER_LIST_MODEL (model) ||
         gtk_filter_list_model_get_pending (GTK_FILTER_LIST_MODEL (model)) == 0;
}

static gboolean
shows_count (Fixture  *fixture,
             gpointer  data)
{
  return settled (fixture) && count_shown (fixture) == GPOINTER_TO_UINT (data);
}

static void
assert_shows (Fixture *fixture,
              guint    expected)
{
  wait_until (fixture, shows_count, GUINT_TO_POINTER (expected));
  g_assert_cmpuint (count_shown (fixture), ==, expected);
}

static void
append (Fixture             *fixture,
        const char          *server,
        StewardLogSource     source,
        StewardLogLevel      level,
        const char          *text)
{
  StewardLogDirection direction = STEWARD_LOG_DIRECTION_NONE;
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autofree char *detail = NULL;

  if (source == STEWARD_LOG_SOURCE_TRACE)
    {
      direction = STEWARD_LOG_DIRECTION_IN;
      detail = g_strdup_printf ("{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"%s\"\n}", text);
    }

  entry = steward_log_entry_new (g_get_real_time (), server, source, level, direction,
                                 source == STEWARD_LOG_SOURCE_SERVER ? "test-logger" : NULL,
                                 text, detail, strlen (text));
  steward_log_store_append (fixture->store, entry);
}

/* One entry of each source, two servers, four levels. */
static void
append_sample (Fixture *fixture)
{
  append (fixture, "alpha", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO,
          "alpha starting up");
  append (fixture, "alpha", STEWARD_LOG_SOURCE_SERVER, STEWARD_LOG_LEVEL_WARNING,
          "alpha cache is cold");
  append (fixture, "beta", STEWARD_LOG_SOURCE_TRACE, STEWARD_LOG_LEVEL_DEBUG,
          "tools/list 1");
  append (fixture, "beta", STEWARD_LOG_SOURCE_HOST, STEWARD_LOG_LEVEL_ERROR,
          "beta exited with status 1");
  steward_log_store_flush (fixture->store);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  /* Every case starts from the schema's defaults. */
  g_settings_reset (settings, "log-min-level");
  g_settings_reset (settings, "log-sources");
  g_settings_reset (settings, "log-follow");
  g_settings_reset (settings, "log-detail-height");

  fixture->tmp_dir = g_dir_make_tmp ("test-log-view-XXXXXX", &error);
  g_assert_no_error (error);
  config_dir = g_file_new_build_filename (fixture->tmp_dir, "config", NULL);
  state_dir = g_file_new_build_filename (fixture->tmp_dir, "state", NULL);

  fixture->host = steward_host_new (config_dir, state_dir);
  fixture->store = steward_host_get_log_store (fixture->host);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  g_object_ref (fixture->window);
  gtk_window_set_default_size (fixture->window, 900, 600);
  fixture->view = STEWARD_LOG_VIEW (steward_log_view_new (fixture->host));
  g_object_add_weak_pointer (G_OBJECT (fixture->view), (gpointer *) &fixture->view);
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->view));
  gtk_window_present (fixture->window);
  drain ();
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }

  g_remove (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  drain ();
  g_assert_finalize_object (fixture->window);
  g_assert_null (fixture->view);
  g_assert_finalize_object (fixture->host);

  remove_tree (fixture->tmp_dir);
  g_free (fixture->tmp_dir);
}

static void
test_shows_entries (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(StewardLogEntry) first = NULL;

  assert_shows (fixture, 0);
  append_sample (fixture);
  assert_shows (fixture, 4);

  first = g_list_model_get_item (steward_log_view_get_model (fixture->view), 0);
  g_assert_cmpstr (steward_log_entry_get_text (first), ==, "alpha starting up");

  /* Its bars wrap: the view fits a window 360 px wide. */
  {
    int minimum = 0;

    gtk_widget_measure (GTK_WIDGET (fixture->view), GTK_ORIENTATION_HORIZONTAL, -1,
                        &minimum, NULL, NULL, NULL);
    g_test_message ("the log view is at least %d px wide", minimum);
    g_assert_cmpint (minimum, <=, 360);
  }
}

static void
test_text_filter (Fixture       *fixture,
                  gconstpointer  data)
{
  append_sample (fixture);
  assert_shows (fixture, 4);

  g_object_set (fixture->view, "search-text", "alpha", NULL);
  assert_shows (fixture, 2);

  /* Narrower, and case does not matter. */
  g_object_set (fixture->view, "search-text", "ALPHA CACHE", NULL);
  assert_shows (fixture, 1);

  /* The detail is searched too (the method in the trace's JSON). */
  g_object_set (fixture->view, "search-text", "\"method\"", NULL);
  assert_shows (fixture, 1);

  g_object_set (fixture->view, "search-text", "", NULL);
  assert_shows (fixture, 4);

  /* New entries are filtered as they arrive. */
  g_object_set (fixture->view, "search-text", "alpha", NULL);
  assert_shows (fixture, 2);
  append (fixture, "alpha", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO, "alpha again");
  append (fixture, "beta", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO, "beta again");
  steward_log_store_flush (fixture->store);
  assert_shows (fixture, 3);
}

static void
test_level_filter (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *saved = NULL;

  append_sample (fixture);
  assert_shows (fixture, 4);

  g_object_set (fixture->view, "min-level", STEWARD_LOG_LEVEL_WARNING, NULL);
  assert_shows (fixture, 2);
  saved = g_settings_get_string (settings, "log-min-level");
  g_assert_cmpstr (saved, ==, "warning");

  g_object_set (fixture->view, "min-level", STEWARD_LOG_LEVEL_EMERGENCY, NULL);
  assert_shows (fixture, 0);

  g_object_set (fixture->view, "min-level", STEWARD_LOG_LEVEL_DEBUG, NULL);
  assert_shows (fixture, 4);
}

static void
test_source_filter (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) saved = NULL;
  guint sources;

  append_sample (fixture);
  assert_shows (fixture, 4);

  g_object_set (fixture->view, "sources", 1u << STEWARD_LOG_SOURCE_TRACE, NULL);
  assert_shows (fixture, 1);
  saved = g_settings_get_strv (settings, "log-sources");
  g_assert_cmpuint (g_strv_length (saved), ==, 1);
  g_assert_cmpstr (saved[0], ==, "protocol");

  g_object_set (fixture->view,
                "sources", (1u << STEWARD_LOG_SOURCE_TRACE) | (1u << STEWARD_LOG_SOURCE_HOST),
                NULL);
  assert_shows (fixture, 2);

  g_object_get (fixture->view, "sources", &sources, NULL);
  g_assert_cmpuint (sources, ==,
                    (1u << STEWARD_LOG_SOURCE_TRACE) | (1u << STEWARD_LOG_SOURCE_HOST));

  g_object_set (fixture->view, "sources", 0xfu, NULL);
  assert_shows (fixture, 4);
}

static void
test_server_filter (Fixture       *fixture,
                    gconstpointer  data)
{
  append_sample (fixture);
  assert_shows (fixture, 4);

  steward_log_view_set_server (fixture->view, "beta");
  g_assert_cmpstr (steward_log_view_get_server (fixture->view), ==, "beta");
  assert_shows (fixture, 2);

  /* Combined with the other filters. */
  g_object_set (fixture->view, "min-level", STEWARD_LOG_LEVEL_ERROR, NULL);
  assert_shows (fixture, 1);
  g_object_set (fixture->view, "min-level", STEWARD_LOG_LEVEL_DEBUG, NULL);

  steward_log_view_set_server (fixture->view, "alpha");
  assert_shows (fixture, 2);

  steward_log_view_set_server (fixture->view, NULL);
  g_assert_null (steward_log_view_get_server (fixture->view));
  assert_shows (fixture, 4);
}

static void
test_pause (Fixture       *fixture,
            gconstpointer  data)
{
  guint i;

  append_sample (fixture);
  assert_shows (fixture, 4);

  g_object_set (fixture->view, "paused", TRUE, NULL);
  assert_shows (fixture, 4);

  /* The store keeps recording; the view stays as it was. */
  for (i = 0; i < 10; i++)
    append (fixture, "alpha", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO, "while paused");
  steward_log_store_flush (fixture->store);
  drain ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->store)), ==, 14);
  g_assert_cmpuint (count_shown (fixture), ==, 4);

  /* A filter changed while paused applies to what is frozen. */
  g_object_set (fixture->view, "search-text", "alpha", NULL);
  wait_until (fixture, shows_count, GUINT_TO_POINTER (2));
  g_object_set (fixture->view, "search-text", NULL, NULL);
  wait_until (fixture, shows_count, GUINT_TO_POINTER (4));

  /* Resuming catches up with everything recorded meanwhile. */
  g_object_set (fixture->view, "paused", FALSE, NULL);
  assert_shows (fixture, 14);
}

typedef struct
{
  gboolean done;
  gboolean ok;
  GError  *error;
} ExportResult;

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ExportResult *export = user_data;

  export->ok = steward_log_view_export_finish (STEWARD_LOG_VIEW (object), result, &export->error);
  export->done = TRUE;
}

static gboolean
export_done (Fixture  *fixture,
             gpointer  data)
{
  return ((ExportResult *) data)->done;
}

static char **
export_lines (Fixture    *fixture,
              const char *name,
              gboolean    as_json)
{
  g_autofree char *path = g_build_filename (fixture->tmp_dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  ExportResult export = { 0 };
  GStrvBuilder *builder = g_strv_builder_new ();
  char **lines;
  guint i;

  steward_log_view_export_async (fixture->view, file, as_json, NULL, export_cb, &export);
  wait_until (fixture, export_done, &export);
  g_assert_no_error (export.error);
  g_assert_true (export.ok);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  lines = g_strsplit (contents, "\n", -1);
  for (i = 0; lines[i] != NULL; i++)
    {
      if (*lines[i] != '\0')
        g_strv_builder_add (builder, lines[i]);
    }
  g_strfreev (lines);

  lines = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return lines;
}

static void
test_export (Fixture       *fixture,
             gconstpointer  data)
{
  g_auto(GStrv) text_lines = NULL;
  g_auto(GStrv) json_lines = NULL;
  guint i;

  append_sample (fixture);
  assert_shows (fixture, 4);

  /* What is exported is what is shown. */
  g_object_set (fixture->view, "search-text", "alpha", NULL);
  assert_shows (fixture, 2);

  text_lines = export_lines (fixture, "log.txt", FALSE);
  g_assert_cmpuint (g_strv_length (text_lines), ==, 2);
  g_assert_nonnull (strstr (text_lines[0], "alpha starting up"));
  g_assert_nonnull (strstr (text_lines[1], "alpha cache is cold"));

  json_lines = export_lines (fixture, "log.jsonl", TRUE);
  g_assert_cmpuint (g_strv_length (json_lines), ==, 2);
  for (i = 0; json_lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      json_parser_load_from_data (parser, json_lines[i], -1, &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
    }
}

static gboolean
error_shown (Fixture  *fixture,
             gpointer  data)
{
  return (test_error_message (GTK_WIDGET (fixture->view)) != NULL) == GPOINTER_TO_INT (data);
}

/* A failed export needs the person to choose another place: the reason
 * stays above the log in full, not in a toast that times out, until
 * dismissed or an export works. */
static void
test_export_error (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *nowhere = g_build_filename (fixture->tmp_dir, "no such folder", "log.txt",
                                               NULL);
  g_autoptr(GFile) nowhere_file = g_file_new_for_path (nowhere);
  g_autofree char *good = g_build_filename (fixture->tmp_dir, "log.txt", NULL);
  g_autoptr(GFile) good_file = g_file_new_for_path (good);
  GtkWidget *view = GTK_WIDGET (fixture->view);
  const char *message;

  append_sample (fixture);
  assert_shows (fixture, 4);
  test_assert_no_error (view);

  steward_log_view_export_to (fixture->view, nowhere_file);
  wait_until (fixture, error_shown, GINT_TO_POINTER (TRUE));
  message = test_assert_error_shown (view, "Could not export the log: ");
  g_assert_cmpuint (strlen (message), >, strlen ("Could not export the log: "));
  drain ();
  test_assert_error_shown (view, "Could not export the log: ");

  test_dismiss_error (view);
  test_assert_no_error (view);

  steward_log_view_export_to (fixture->view, nowhere_file);
  wait_until (fixture, error_shown, GINT_TO_POINTER (TRUE));
  steward_log_view_export_to (fixture->view, good_file);
  wait_until (fixture, error_shown, GINT_TO_POINTER (FALSE));
  g_assert_true (g_file_test (good, G_FILE_TEST_IS_REGULAR));
}

static GtkAdjustment *
get_vadjustment (Fixture *fixture)
{
  GtkWidget *list_view = find_widget (GTK_WIDGET (fixture->view), GTK_TYPE_LIST_VIEW,
                                      "steward-log-list");

  g_assert_nonnull (list_view);
  return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list_view));
}

/* Laid out, taller than the window, and at the bottom. */
static gboolean
scrolled_to_end (Fixture  *fixture,
                 gpointer  data)
{
  GtkAdjustment *adjustment = get_vadjustment (fixture);
  double bottom = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  return gtk_adjustment_get_page_size (adjustment) > 0 && bottom > 0 &&
         gtk_adjustment_get_value (adjustment) >= bottom - 1;
}

static gboolean
has_inscription (GtkWidget  *root,
                 const char *text)
{
  GtkWidget *child;

  if (GTK_IS_INSCRIPTION (root) && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (root)),
                                              text) == 0)
    return TRUE;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (has_inscription (child, text))
        return TRUE;
    }

  return FALSE;
}

/* Whether the list made a row that shows @data. */
static gboolean
shows_row (Fixture  *fixture,
           gpointer  data)
{
  GtkWidget *list_view = find_widget (GTK_WIDGET (fixture->view), GTK_TYPE_LIST_VIEW,
                                      "steward-log-list");

  return has_inscription (list_view, data);
}

static void
scroll_up (Fixture *fixture)
{
  GtkWidget *list_view = find_widget (GTK_WIDGET (fixture->view), GTK_TYPE_LIST_VIEW,
                                      "steward-log-list");
  g_autoptr(GListModel) controllers = NULL;
  gboolean handled = FALSE;
  guint i;

  controllers = gtk_widget_observe_controllers (gtk_widget_get_parent (list_view));
  for (i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller) &&
          gtk_event_controller_get_propagation_phase (controller) == GTK_PHASE_CAPTURE)
        {
          g_signal_emit_by_name (controller, "scroll", 0.0, -1.0, &handled);
          return;
        }
    }

  g_assert_not_reached ();
}

static void
test_follow (Fixture       *fixture,
             gconstpointer  data)
{
  gboolean follow = FALSE;
  guint i;

  g_object_get (fixture->view, "follow", &follow, NULL);
  g_assert_true (follow);

  /* Turning it off is remembered. */
  g_object_set (fixture->view, "follow", FALSE, NULL);
  {
    g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

    g_assert_false (g_settings_get_boolean (settings, "log-follow"));
  }
  g_object_set (fixture->view, "follow", TRUE, NULL);

  for (i = 0; i < 500; i++)
    {
      g_autofree char *text = g_strdup_printf ("line %u", i);

      append (fixture, "alpha", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO, text);
    }
  steward_log_store_flush (fixture->store);
  assert_shows (fixture, 500);

  /* Following keeps the newest entry in view, with a row made for it... */
  wait_until (fixture, scrolled_to_end, NULL);
  wait_until (fixture, shows_row, "line 499");
  g_object_get (fixture->view, "follow", &follow, NULL);
  g_assert_true (follow);

  /* ...until the person scrolls up: the wheel's event, as the view's
   * scroll controller receives it. */
  scroll_up (fixture);
  g_object_get (fixture->view, "follow", &follow, NULL);
  g_assert_false (follow);

  /* New entries no longer move the view. */
  gtk_adjustment_set_value (get_vadjustment (fixture), 0);
  append (fixture, "alpha", STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO, "one more");
  steward_log_store_flush (fixture->store);
  assert_shows (fixture, 501);
  drain ();
  g_assert_cmpfloat (gtk_adjustment_get_value (get_vadjustment (fixture)), <, 1.0);
}

static gboolean
flood_done (Fixture *fixture)
{
  guint expected = MIN (FLOOD_ENTRIES, steward_log_store_get_capacity (fixture->store));

  return settled (fixture) && count_shown (fixture) == expected;
}

static void
test_flood (Fixture       *fixture,
            gconstpointer  data)
{
  guint iterations = 0;
  guint i;

  for (i = 0; i < FLOOD_ENTRIES; i++)
    {
      append (fixture, i % 2 ? "alpha" : "beta",
              i % 3 ? STEWARD_LOG_SOURCE_SERVER : STEWARD_LOG_SOURCE_TRACE,
              i % 5 ? STEWARD_LOG_LEVEL_INFO : STEWARD_LOG_LEVEL_WARNING,
              "a flood of notifications/message");
    }
  steward_log_store_flush (fixture->store);

  /* The view takes the flood in slices, a bounded number of them. */
  while (!flood_done (fixture))
    {
      g_main_context_iteration (NULL, TRUE);
      iterations++;
      g_assert_cmpuint (iterations, <, FLOOD_MAX_ITERATIONS);
    }
  g_test_message ("took %u main loop iterations", iterations);

  /* A filter over all of them finishes in a bounded number as well. */
  g_object_set (fixture->view, "min-level", STEWARD_LOG_LEVEL_WARNING, NULL);
  iterations = 0;
  while (!settled (fixture))
    {
      g_main_context_iteration (NULL, TRUE);
      iterations++;
      g_assert_cmpuint (iterations, <, FLOOD_MAX_ITERATIONS);
    }
  g_assert_cmpuint (count_shown (fixture), ==, FLOOD_ENTRIES / 5);
}

/* A protocol message as the server's log records it: summarized by the
 * same names a server keeps, with the message as its detail. */
static void
append_message (Fixture           *fixture,
                StewardTraceNames *names,
                McpMessage        *message,
                gboolean           outgoing)
{
  g_autofree char *text = steward_trace_names_summarize (names, message, outgoing);
  g_autofree char *detail = NULL;
  g_autoptr(StewardLogEntry) entry = NULL;

  detail = g_strdup_printf ("{\"summary\": \"%s\"}", text);
  entry = steward_log_entry_new (g_get_real_time (), "files", STEWARD_LOG_SOURCE_TRACE,
                                 STEWARD_LOG_LEVEL_DEBUG,
                                 outgoing ? STEWARD_LOG_DIRECTION_OUT : STEWARD_LOG_DIRECTION_IN,
                                 NULL, text, detail, strlen (detail));
  steward_log_store_append (fixture->store, entry);
}

static McpMessage *
request_new (gint64      id,
             const char *method,
             const char *member,
             const char *value)
{
  g_autoptr(JsonNode) node = json_node_init_int (json_node_alloc (), id);
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_string_member (params, member, value);
  return mcp_message_new_request (node, method, params);
}

static McpMessage *
result_new (gint64 id)
{
  g_autoptr(JsonNode) node = json_node_init_int (json_node_alloc (), id);
  g_autoptr(JsonObject) result = json_object_new ();

  return mcp_message_new_result (node, result);
}

static GtkSingleSelection *
get_selection (Fixture *fixture)
{
  GtkListView *list = GTK_LIST_VIEW (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                                    STEWARD_TYPE_LOG_VIEW,
                                                                    "list_view"));

  return GTK_SINGLE_SELECTION (gtk_list_view_get_model (list));
}

static void
select_text (Fixture    *fixture,
             const char *text)
{
  GListModel *model = steward_log_view_get_model (fixture->view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

      if (g_strcmp0 (steward_log_entry_get_text (entry), text) == 0)
        {
          gtk_single_selection_set_selected (get_selection (fixture), i);
          return;
        }
    }

  g_assert_not_reached ();
}

static char *
detail_text (Fixture *fixture)
{
  GtkTextView *view = GTK_TEXT_VIEW (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                                    STEWARD_TYPE_LOG_VIEW,
                                                                    "detail_view"));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
detail_contains (Fixture  *fixture,
                 gpointer  data)
{
  g_autofree char *text = detail_text (fixture);

  return strstr (text, data) != NULL;
}

static void
test_exchange (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(StewardTraceNames) names = steward_trace_names_new ();
  g_autoptr(McpMessage) call = request_new (8, "tools/call", "name", "echo");
  g_autoptr(McpMessage) read = request_new (9, "resources/read", "uri", "file:///tmp/a b");
  g_autoptr(McpMessage) ping = request_new (8, "ping", "x", "y");
  g_autoptr(McpMessage) call_result = result_new (8);
  g_autoptr(McpMessage) read_result = result_new (9);
  g_autoptr(McpMessage) ping_result = result_new (8);
  g_autofree char *text = NULL;

  /* The server asks something with the same id the other way: it is not
   * the answer to Steward's call. */
  append_message (fixture, names, call, TRUE);
  append_message (fixture, names, ping, FALSE);
  append_message (fixture, names, ping_result, TRUE);
  append_message (fixture, names, read, TRUE);
  append_message (fixture, names, call_result, FALSE);
  steward_log_store_flush (fixture->store);
  assert_shows (fixture, 5);

  /* Rows name what a request is about, and what an answer answers. */
  select_text (fixture, "tools/call “echo” id 8");
  wait_until (fixture, detail_contains, "── Its answer: result id 8 for tools/call “echo” ──");
  text = detail_text (fixture);
  g_assert_true (g_str_has_prefix (strstr (text, "Direction:"), "Direction: → sent"));
  g_assert_nonnull (strstr (text, "Direction: ← received from the server"));
  g_clear_pointer (&text, g_free);

  /* And the reverse. */
  select_text (fixture, "result id 8 for tools/call “echo”");
  wait_until (fixture, detail_contains, "── The request: tools/call “echo” id 8 ──");
  text = detail_text (fixture);
  g_assert_null (strstr (text, "ping"));
  g_clear_pointer (&text, g_free);

  /* An answer that comes while its request is on show appears below it. */
  select_text (fixture, "resources/read “file:///tmp/a b” id 9");
  g_assert_false (detail_contains (fixture, "── Its answer"));
  append_message (fixture, names, read_result, FALSE);
  steward_log_store_flush (fixture->store);
  wait_until (fixture, detail_contains,
              "── Its answer: result id 9 for resources/read “file:///tmp/a b” ──");
}

/* GtkPaned has no getter for it. */
static int
get_max_position (GtkPaned *paned)
{
  int max = 0;

  g_object_get (paned, "max-position", &max, NULL);
  return max;
}

static int
detail_height (Fixture *fixture)
{
  GtkPaned *paned = GTK_PANED (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                              STEWARD_TYPE_LOG_VIEW, "paned"));

  return get_max_position (paned) - gtk_paned_get_position (paned);
}

static gboolean
detail_height_is (Fixture  *fixture,
                  gpointer  data)
{
  return ABS (detail_height (fixture) - GPOINTER_TO_INT (data)) <= 2;
}

static gboolean
detail_at_least (Fixture  *fixture,
                 gpointer  data)
{
  return detail_height (fixture) >= GPOINTER_TO_INT (data);
}

static void
test_detail_pane (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  GtkPaned *paned = GTK_PANED (gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                              STEWARD_TYPE_LOG_VIEW, "paned"));
  int height;

  /* The pane has room to read a message, not 120 pixels. */
  gtk_window_set_default_size (fixture->window, 990, 690);
  wait_until (fixture, detail_at_least, GINT_TO_POINTER (250));

  /* Dragged taller, it says so in the settings... */
  height = get_max_position (paned);
  gtk_paned_set_position (paned, height - 340);
  g_assert_cmpint (g_settings_get_int (settings, "log-detail-height"), ==, 340);

  /* ...and a new viewer opens with it. */
  gtk_window_destroy (fixture->window);
  drain ();
  g_assert_finalize_object (fixture->window);
  fixture->window = GTK_WINDOW (gtk_window_new ());
  g_object_ref (fixture->window);
  gtk_window_set_default_size (fixture->window, 990, 690);
  fixture->view = STEWARD_LOG_VIEW (steward_log_view_new (fixture->host));
  g_object_add_weak_pointer (G_OBJECT (fixture->view), (gpointer *) &fixture->view);
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->view));
  gtk_window_present (fixture->window);
  wait_until (fixture, detail_height_is, GINT_TO_POINTER (340));
}

static void
test_settings_restored (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  const char *sources[] = { "stderr", "host", NULL };
  GtkWidget *view;
  guint min_level;
  guint mask;
  gboolean follow;

  g_settings_set_string (settings, "log-min-level", "error");
  g_settings_set_strv (settings, "log-sources", sources);
  g_settings_set_boolean (settings, "log-follow", FALSE);

  view = g_object_ref_sink (steward_log_view_new (fixture->host));
  g_object_get (view, "min-level", &min_level, "sources", &mask, "follow", &follow, NULL);
  g_assert_cmpuint (min_level, ==, STEWARD_LOG_LEVEL_ERROR);
  g_assert_cmpuint (mask, ==, (1u << STEWARD_LOG_SOURCE_STDERR) | (1u << STEWARD_LOG_SOURCE_HOST));
  g_assert_false (follow);
  g_assert_finalize_object (view);
}

/* Each case runs on a fresh host, view and window of its own. */
#define WITH_FIXTURE(func) \
  static void \
  func##_case (void) \
  { \
    Fixture fixture = { 0 }; \
    \
    fixture_set_up (&fixture, NULL); \
    func (&fixture, NULL); \
    fixture_tear_down (&fixture, NULL); \
  }

WITH_FIXTURE (test_shows_entries)
WITH_FIXTURE (test_text_filter)
WITH_FIXTURE (test_level_filter)
WITH_FIXTURE (test_source_filter)
WITH_FIXTURE (test_server_filter)
WITH_FIXTURE (test_pause)
WITH_FIXTURE (test_export)
WITH_FIXTURE (test_export_error)
WITH_FIXTURE (test_follow)
WITH_FIXTURE (test_flood)
WITH_FIXTURE (test_settings_restored)
WITH_FIXTURE (test_exchange)
WITH_FIXTURE (test_detail_pane)

/* Ids are written without printf, and must read as printf writes them. */
static void
test_format_int64_case (void)
{
  static const gint64 values[] = { 0, 7, -1, 10, 1234567890, G_MAXINT64, G_MININT64 };

  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *expected = g_strdup_printf ("%" G_GINT64_FORMAT, values[i]);
      char digits[24];
      gsize length = steward_trace_format_int64 (values[i], digits);

      g_assert_cmpstr (digits, ==, expected);
      g_assert_cmpuint (length, ==, strlen (expected));
    }
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/log-view/shows-entries", test_shows_entries_case);
  g_test_add_func ("/steward/log-view/text-filter", test_text_filter_case);
  g_test_add_func ("/steward/log-view/level-filter", test_level_filter_case);
  g_test_add_func ("/steward/log-view/source-filter", test_source_filter_case);
  g_test_add_func ("/steward/log-view/server-filter", test_server_filter_case);
  g_test_add_func ("/steward/log-view/pause", test_pause_case);
  g_test_add_func ("/steward/log-view/export", test_export_case);
  g_test_add_func ("/steward/log-view/export-error", test_export_error_case);
  g_test_add_func ("/steward/log-view/follow", test_follow_case);
  g_test_add_func ("/steward/log-view/flood", test_flood_case);
  g_test_add_func ("/steward/log-view/settings-restored", test_settings_restored_case);
  g_test_add_func ("/steward/log-view/exchange", test_exchange_case);
  g_test_add_func ("/steward/log-view/detail-pane", test_detail_pane_case);
  g_test_add_func ("/steward/log-view/format-int64", test_format_int64_case);

  return g_test_run ();
}
