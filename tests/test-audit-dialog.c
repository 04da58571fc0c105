/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-audit-dialog"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-audit-dialog.h"
#include "steward-audit-record.h"
#include "test-error-banner.h"

#define WAIT_TIMEOUT_S 10

/* Three records, oldest first, and a damaged line among them. */
static const char journal[] =
  "{\"time\": \"2025-06-01T10:00:00Z\", \"server\": \"alpha\", \"decision\": \"sent\","
  " \"model\": \"llama3.2\", \"inputTokens\": 120, \"outputTokens\": 40,"
  " \"summary\": \"Summarise the README\"}\n"
  "{\"time\": \"2025-06-01T10:05:00Z\", \"server\": \"beta\", \"decision\": \"rej\n"
  "{\"time\": \"2025-06-01T10:06:00Z\", \"server\": \"beta\", \"decision\": \"denied\","
  " \"reason\": \"Sampling is off for this server\"}\n"
  "{\"time\": \"2025-06-01T10:07:00Z\", \"server\": \"gamma\", \"decision\": \"rejected\","
  " \"model\": \"claude-sonnet\", \"summary\": \"<b>not markup</b>\"}\n";

typedef struct
{
  char               *tmp_dir;
  StewardHost        *host;
  StewardAuditDialog *dialog;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

typedef gboolean (*Condition) (Fixture       *fixture,
                               gconstpointer  data);

static void
wait_until (Fixture       *fixture,
            Condition      condition,
            gconstpointer  data)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add_seconds (WAIT_TIMEOUT_S, timeout_cb, &timed_out);

  while (!condition (fixture, data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

static void
drain (void)
{
  guint i;

  for (i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
loaded (Fixture       *fixture,
        gconstpointer  data)
{
  return !steward_audit_dialog_get_loading (fixture->dialog);
}

static gboolean
shows_count (Fixture       *fixture,
             gconstpointer  data)
{
  return g_list_model_get_n_items (steward_audit_dialog_get_model (fixture->dialog)) ==
         GPOINTER_TO_UINT (data);
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static const char *
visible_page (Fixture *fixture)
{
  GtkWidget *stack = find_widget (GTK_WIDGET (fixture->dialog), GTK_TYPE_STACK);

  g_assert_nonnull (stack);
  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
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

/* Stands for a journal that cannot be read: a folder where it goes. */
static const char journal_is_folder[] = "";

static void
fixture_set_up (Fixture    *fixture,
                const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  StewardSamplingBroker *broker;
  GFile *journal_file;

  fixture->tmp_dir = g_dir_make_tmp ("test-audit-dialog-XXXXXX", &error);
  g_assert_no_error (error);
  config_dir = g_file_new_build_filename (fixture->tmp_dir, "config", NULL);
  state_dir = g_file_new_build_filename (fixture->tmp_dir, "state", NULL);
  fixture->host = steward_host_new (config_dir, state_dir);

  broker = steward_host_get_sampling_broker (fixture->host);
  journal_file = steward_sampling_broker_get_journal (broker);
  g_assert_nonnull (journal_file);
  if (contents == journal_is_folder)
    {
      g_autofree char *path = g_file_get_path (journal_file);

      g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
    }
  else if (contents != NULL)
    {
      g_autofree char *path = g_file_get_path (journal_file);
      g_autofree char *dir = g_path_get_dirname (path);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      g_file_set_contents (path, contents, -1, &error);
      g_assert_no_error (error);
    }

  fixture->dialog = STEWARD_AUDIT_DIALOG (steward_audit_dialog_new (fixture->host));
  g_object_ref (fixture->dialog);
  gtk_window_present (GTK_WINDOW (fixture->dialog));
  wait_until (fixture, loaded, NULL);
}

static void
fixture_tear_down (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->dialog));
  drain ();
  g_assert_finalize_object (fixture->dialog);
  g_assert_finalize_object (fixture->host);

  remove_tree (fixture->tmp_dir);
  g_free (fixture->tmp_dir);
}

static void
test_records (void)
{
  Fixture fixture = { 0 };
  g_autoptr(StewardAuditRecord) newest = NULL;
  g_autoptr(StewardAuditRecord) oldest = NULL;
  GListModel *model;
  GtkWidget *search_entry;

  fixture_set_up (&fixture, journal);
  model = steward_audit_dialog_get_model (fixture.dialog);

  /* The damaged line is skipped; the rest are newest first. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  g_assert_cmpstr (visible_page (&fixture), ==, "list");

  newest = g_list_model_get_item (model, 0);
  g_assert_cmpstr (steward_audit_record_get_server (newest), ==, "gamma");
  g_assert_cmpstr (steward_audit_record_get_model (newest), ==, "claude-sonnet");
  g_assert_cmpstr (steward_audit_record_get_summary (newest), ==, "<b>not markup</b>");

  oldest = g_list_model_get_item (model, 2);
  g_assert_cmpstr (steward_audit_record_get_server (oldest), ==, "alpha");
  g_assert_cmpstr (steward_audit_record_get_decision (oldest), ==, "Sent");
  g_assert_cmpstr (steward_audit_record_get_tokens (oldest), ==, "120 in · 40 out");

  /* The search narrows the list, over every column. */
  search_entry = find_widget (GTK_WIDGET (fixture.dialog), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (search_entry);
  gtk_editable_set_text (GTK_EDITABLE (search_entry), "README");
  wait_until (&fixture, shows_count, GUINT_TO_POINTER (1));
  gtk_editable_set_text (GTK_EDITABLE (search_entry), "beta");
  wait_until (&fixture, shows_count, GUINT_TO_POINTER (1));
  gtk_editable_set_text (GTK_EDITABLE (search_entry), "no such thing");
  wait_until (&fixture, shows_count, GUINT_TO_POINTER (0));
  g_assert_cmpstr (visible_page (&fixture), ==, "no-match");
  gtk_editable_set_text (GTK_EDITABLE (search_entry), "");
  wait_until (&fixture, shows_count, GUINT_TO_POINTER (3));

  fixture_tear_down (&fixture);
}

static gboolean
error_shown (Fixture       *fixture,
             gconstpointer  data)
{
  return (test_error_message (GTK_WIDGET (fixture->dialog)) != NULL) == GPOINTER_TO_INT (data);
}

/* An export that fails needs the person to choose another place: the
 * reason stays on the dialog in full, not in a toast that times out,
 * until dismissed or an export succeeds. */
static void
test_export_error (void)
{
  Fixture fixture = { 0 };
  g_autofree char *nowhere = NULL;
  g_autofree char *good = NULL;
  g_autoptr(GFile) nowhere_file = NULL;
  g_autoptr(GFile) good_file = NULL;
  GtkWidget *dialog;
  const char *message;

  fixture_set_up (&fixture, journal);
  dialog = GTK_WIDGET (fixture.dialog);
  nowhere = g_build_filename (fixture.tmp_dir, "no such folder", "audit.jsonl", NULL);
  nowhere_file = g_file_new_for_path (nowhere);
  good = g_build_filename (fixture.tmp_dir, "audit.jsonl", NULL);
  good_file = g_file_new_for_path (good);
  test_assert_no_error (dialog);

  steward_audit_dialog_export_to (fixture.dialog, nowhere_file);
  wait_until (&fixture, error_shown, GINT_TO_POINTER (TRUE));
  message = test_assert_error_shown (dialog, "Could not export the journal: ");
  g_assert_cmpuint (strlen (message), >, strlen ("Could not export the journal: "));
  drain ();
  test_assert_error_shown (dialog, "Could not export the journal: ");

  test_dismiss_error (dialog);
  test_assert_no_error (dialog);

  /* Failing again shows it again; a later export that works clears it. */
  steward_audit_dialog_export_to (fixture.dialog, nowhere_file);
  wait_until (&fixture, error_shown, GINT_TO_POINTER (TRUE));
  steward_audit_dialog_export_to (fixture.dialog, good_file);
  wait_until (&fixture, error_shown, GINT_TO_POINTER (FALSE));
  g_assert_true (g_file_test (good, G_FILE_TEST_IS_REGULAR));

  fixture_tear_down (&fixture);
}

/* A journal that cannot be read says why in full, above the empty list. */
static void
test_read_error (void)
{
  Fixture fixture = { 0 };
  const char *message;

  fixture_set_up (&fixture, journal_is_folder);
  message = test_assert_error_shown (GTK_WIDGET (fixture.dialog), "Could not read the journal: ");
  g_assert_cmpuint (strlen (message), >, strlen ("Could not read the journal: "));
  g_assert_cmpuint (g_list_model_get_n_items (steward_audit_dialog_get_model (fixture.dialog)),
                    ==, 0);

  test_dismiss_error (GTK_WIDGET (fixture.dialog));
  test_assert_no_error (GTK_WIDGET (fixture.dialog));

  fixture_tear_down (&fixture);
}

static void
test_empty (void)
{
  Fixture fixture = { 0 };

  /* No journal yet: the empty state, not an error. */
  fixture_set_up (&fixture, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (steward_audit_dialog_get_model (fixture.dialog)),
                    ==, 0);
  g_assert_cmpstr (visible_page (&fixture), ==, "empty");

  fixture_tear_down (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/audit-dialog/records", test_records);
  g_test_add_func ("/steward/audit-dialog/empty", test_empty);
  g_test_add_func ("/steward/audit-dialog/export-error", test_export_error);
  g_test_add_func ("/steward/audit-dialog/read-error", test_read_error);

  return g_test_run ();
}
