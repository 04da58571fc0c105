/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-model-catalog"

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "steward-model-catalog.h"

#define HIGH 0.7
#define LOW  0.3

/* Waiting without sleeping: the main loop runs until the condition holds,
 * and a condition that never comes fails the test. */
static gboolean timed_out;

static gboolean
timeout_cb (gpointer user_data)
{
  timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

#define WAIT_UNTIL(condition) G_STMT_START {                             \
    guint timeout_id_ = g_timeout_add_seconds (10, timeout_cb, NULL);    \
    timed_out = FALSE;                                                   \
    while (!(condition) && !timed_out)                                   \
      g_main_context_iteration (NULL, TRUE);                             \
    g_assert_false (timed_out);                                          \
    g_source_remove (timeout_id_);                                       \
  } G_STMT_END

typedef enum {
  ANY,
  IS_HIGH,
  IS_LOW,
  IS_ZERO,
} Expect;

static void
assert_score (double      score,
              Expect      expect,
              const char *name,
              const char *what)
{
  g_test_message ("%s: %s = %g", name, what, score);
  switch (expect)
    {
    case IS_HIGH:
      g_assert_cmpfloat (score, >=, HIGH);
      break;
    case IS_LOW:
      g_assert_cmpfloat (score, <=, LOW);
      break;
    case IS_ZERO:
      g_assert_cmpfloat (score, ==, 0.0);
      break;
    case ANY:
    default:
      g_assert_cmpfloat (score, >=, 0.0);
      g_assert_cmpfloat (score, <=, 1.0);
      break;
    }
}

static void
test_defaults (void)
{
  static const struct {
    const char *name;
    gboolean    local;
    Expect      cost;
    Expect      speed;
    Expect      intelligence;
  } rows[] = {
    { "claude-opus-4-1", FALSE, IS_HIGH, ANY, IS_HIGH },
    { "gpt-4o", FALSE, IS_HIGH, ANY, IS_HIGH },
    { "GPT-4-Turbo", FALSE, IS_HIGH, ANY, IS_HIGH },
    { "o1-preview", FALSE, IS_HIGH, IS_LOW, IS_HIGH },
    { "o3", FALSE, IS_HIGH, ANY, IS_HIGH },
    { "deepseek-r1", FALSE, IS_HIGH, IS_LOW, IS_HIGH },
    { "qwen2.5:72b", FALSE, IS_HIGH, ANY, IS_HIGH },
    /* Local: the same mind, at no cost. */
    { "qwen2.5:72b", TRUE, IS_ZERO, ANY, IS_HIGH },
    { "claude-3-5-haiku-latest", FALSE, IS_LOW, IS_HIGH, ANY },
    { "gpt-4o-mini", FALSE, IS_LOW, IS_HIGH, ANY },
    { "o3-mini", FALSE, IS_LOW, IS_HIGH, ANY },
    { "gemini-2.0-flash", FALSE, IS_LOW, IS_HIGH, ANY },
    { "qwen2.5:7b", TRUE, IS_ZERO, IS_HIGH, ANY },
    { "llama3.1:8b", FALSE, IS_LOW, IS_HIGH, ANY },
    { "deepseek-r1:7b", TRUE, IS_ZERO, IS_HIGH, ANY },
    { "mistral-small-latest", FALSE, IS_LOW, IS_HIGH, ANY },
    /* "gemini" holds "mini" but is no small model. */
    { "gemini-2.5-pro", FALSE, IS_HIGH, ANY, IS_HIGH },
    { "claude-sonnet-4", FALSE, ANY, ANY, IS_HIGH },
    { "some-model-nobody-knows", FALSE, ANY, ANY, ANY },
    { "some-model-nobody-knows", TRUE, IS_ZERO, ANY, ANY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      double cost, speed, intelligence;

      steward_model_default_scores (rows[i].name, rows[i].local, &cost, &speed, &intelligence);
      assert_score (cost, rows[i].cost, rows[i].name, "cost");
      assert_score (speed, rows[i].speed, rows[i].name, "speed");
      assert_score (intelligence, rows[i].intelligence, rows[i].name, "intelligence");
    }

  /* An unknown name is middling, neither end. */
  {
    double cost, speed, intelligence;

    steward_model_default_scores ("some-model-nobody-knows", FALSE, &cost, &speed,
                                  &intelligence);
    g_assert_cmpfloat (cost, ==, 0.5);
    g_assert_cmpfloat (speed, ==, 0.5);
    g_assert_cmpfloat (intelligence, ==, 0.5);
  }
}

static void
items_changed_cb (GListModel *list,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           GString    *names)
{
  g_string_append_printf (names, "%s;", pspec->name);
}

static void
test_add_remove (void)
{
  StewardModelCatalog *catalog = steward_model_catalog_new (NULL);
  StewardModel *model;
  StewardModel *again;
  guint changes = 0;
  guint hint_changes = 0;

  g_signal_connect (catalog, "items-changed", G_CALLBACK (items_changed_cb), &changes);
  g_signal_connect (catalog, "hints-changed", G_CALLBACK (count_cb), &hint_changes);

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (catalog)) == STEWARD_TYPE_MODEL);

  model = steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  g_assert_cmpstr (steward_model_get_provider (model), ==, "ollama");
  g_assert_cmpstr (steward_model_get_name (model), ==, "qwen2.5:7b");
  g_assert_cmpstr (steward_model_get_id (model), ==, "ollama/qwen2.5:7b");
  g_assert_true (steward_model_get_local (model));
  g_assert_cmpfloat (steward_model_get_cost (model), ==, 0.0);
  g_assert_cmpuint (changes, ==, 1);

  /* A model the catalogue has keeps the person's scores. */
  steward_model_catalog_set_scores (catalog, "ollama/qwen2.5:7b", 0.1, 0.2, 0.3);
  again = steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  g_assert_true (again == model);
  g_assert_cmpfloat (steward_model_get_intelligence (model), ==, 0.3);
  g_assert_cmpuint (changes, ==, 1);

  /* Names may hold slashes; the id splits at the provider's end. */
  model = steward_model_catalog_add (catalog, "router", "anthropic/claude-sonnet-4", FALSE);
  g_assert_cmpstr (steward_model_get_id (model), ==, "router/anthropic/claude-sonnet-4");
  g_assert_true (steward_model_catalog_lookup (catalog, "router/anthropic/claude-sonnet-4") ==
                 model);
  g_assert_null (steward_model_catalog_lookup (catalog, "router/anthropic"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 2);

  /* Removing a model drops the hints that sent to it. */
  steward_model_catalog_set_hint (catalog, "sonnet", "router/anthropic/claude-sonnet-4");
  steward_model_catalog_set_hint (catalog, "qwen", "ollama/qwen2.5:7b");
  g_assert_cmpuint (hint_changes, ==, 2);
  steward_model_catalog_remove (catalog, "router/anthropic/claude-sonnet-4");
  g_assert_cmpuint (changes, ==, 3);
  g_assert_cmpuint (hint_changes, ==, 3);
  g_assert_null (g_hash_table_lookup (steward_model_catalog_get_hints (catalog), "sonnet"));
  g_assert_cmpstr (g_hash_table_lookup (steward_model_catalog_get_hints (catalog), "qwen"), ==,
                   "ollama/qwen2.5:7b");

  /* Removing what is not there changes nothing. */
  steward_model_catalog_remove (catalog, "nobody/nothing");
  g_assert_cmpuint (changes, ==, 3);

  g_assert_finalize_object (catalog);
}

static void
test_scores (void)
{
  static const struct {
    double in[3];
    double out[3];
  } rows[] = {
    { { 0.25, 0.5, 0.75 }, { 0.25, 0.5, 0.75 } },
    { { -1.0, 2.0, 0.0 }, { 0.0, 1.0, 0.0 } },
    { { NAN, INFINITY, -INFINITY }, { 0.0, 1.0, 0.0 } },
    { { 1.0, 1.0, 1.0 }, { 1.0, 1.0, 1.0 } },
  };
  StewardModelCatalog *catalog = steward_model_catalog_new (NULL);
  g_autoptr(GString) notified = g_string_new (NULL);
  StewardModel *model = steward_model_catalog_add (catalog, "openai", "gpt-4o", FALSE);
  StewardModel *made;

  g_signal_connect (model, "notify", G_CALLBACK (notify_cb), notified);

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      steward_model_catalog_set_scores (catalog, "openai/gpt-4o",
                                        rows[i].in[0], rows[i].in[1], rows[i].in[2]);
      g_assert_cmpfloat (steward_model_get_cost (model), ==, rows[i].out[0]);
      g_assert_cmpfloat (steward_model_get_speed (model), ==, rows[i].out[1]);
      g_assert_cmpfloat (steward_model_get_intelligence (model), ==, rows[i].out[2]);
    }

  /* Only what changed notifies. */
  g_string_truncate (notified, 0);
  steward_model_catalog_set_scores (catalog, "openai/gpt-4o", 1.0, 0.5, 1.0);
  g_assert_cmpstr (notified->str, ==, "speed;");

  /* A score for a model the catalogue does not have is dropped. */
  steward_model_catalog_set_scores (catalog, "openai/gone", 0.1, 0.1, 0.1);

  made = steward_model_new ("p", "m", 3.0, -2.0, 0.5, FALSE);
  g_assert_cmpfloat (steward_model_get_cost (made), ==, 1.0);
  g_assert_cmpfloat (steward_model_get_speed (made), ==, 0.0);
  g_assert_finalize_object (made);

  g_assert_finalize_object (catalog);
}

static void
test_hints (void)
{
  StewardModelCatalog *catalog = steward_model_catalog_new (NULL);
  GHashTable *hints = steward_model_catalog_get_hints (catalog);
  guint changes = 0;

  g_signal_connect (catalog, "hints-changed", G_CALLBACK (count_cb), &changes);

  steward_model_catalog_set_hint (catalog, "  Sonnet ", "anthropic/claude-sonnet-4");
  g_assert_cmpstr (g_hash_table_lookup (hints, "sonnet"), ==, "anthropic/claude-sonnet-4");
  g_assert_cmpuint (g_hash_table_size (hints), ==, 1);
  g_assert_cmpuint (changes, ==, 1);

  /* The same again changes nothing. */
  steward_model_catalog_set_hint (catalog, "SONNET", "anthropic/claude-sonnet-4");
  g_assert_cmpuint (changes, ==, 1);

  steward_model_catalog_set_hint (catalog, "sonnet", "ollama/qwen2.5:32b");
  g_assert_cmpstr (g_hash_table_lookup (hints, "sonnet"), ==, "ollama/qwen2.5:32b");
  g_assert_cmpuint (changes, ==, 2);

  steward_model_catalog_set_hint (catalog, "Sonnet", NULL);
  g_assert_cmpuint (g_hash_table_size (hints), ==, 0);
  g_assert_cmpuint (changes, ==, 3);
  steward_model_catalog_set_hint (catalog, "sonnet", NULL);
  g_assert_cmpuint (changes, ==, 3);

  g_assert_finalize_object (catalog);
}

/* Temporary folders */

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

static GFile *
make_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_dir_make_tmp ("steward-catalog-XXXXXX", &error);

  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

typedef struct {
  guint    done;
  gboolean ok;
  GError  *error;
} Saves;

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Saves *saves = user_data;

  saves->ok = steward_model_catalog_save_finish (STEWARD_MODEL_CATALOG (object), result,
                                                 &saves->error);
  saves->done++;
}

static void
save_and_wait (StewardModelCatalog *catalog)
{
  Saves saves = { 0, };

  steward_model_catalog_save_async (catalog, NULL, save_cb, &saves);
  WAIT_UNTIL (saves.done == 1);
  g_assert_no_error (saves.error);
  g_assert_true (saves.ok);
}

static void
test_round_trip (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) config = g_file_get_child (dir, "config");
  g_autoptr(GFile) file = g_file_get_child (config, "models.json");
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  StewardModelCatalog *catalog = steward_model_catalog_new (file);
  StewardModel *model;
  guint changes = 0;
  guint hint_changes = 0;

  g_assert_true (steward_file_backed_get_file (STEWARD_FILE_BACKED (catalog)) == file);

  /* Nothing saved yet: an empty catalogue, no error. */
  g_assert_true (steward_model_catalog_load (catalog, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 0);

  steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  steward_model_catalog_add (catalog, "anthropic", "claude-sonnet-4", FALSE);
  steward_model_catalog_set_scores (catalog, "anthropic/claude-sonnet-4", 0.625, 0.5, 0.875);
  steward_model_catalog_set_hint (catalog, "sonnet", "anthropic/claude-sonnet-4");
  steward_model_catalog_set_hint (catalog, "gpt-4", "ollama/qwen2.5:7b");

  /* The folder did not exist; the file is the person's alone. */
  save_and_wait (catalog);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_UNIX_MODE, G_FILE_QUERY_INFO_NONE, NULL,
                            &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE) & 0777,
                    ==, 0600);
  g_assert_finalize_object (catalog);

  catalog = steward_model_catalog_new (file);
  g_signal_connect (catalog, "items-changed", G_CALLBACK (items_changed_cb), &changes);
  g_signal_connect (catalog, "hints-changed", G_CALLBACK (count_cb), &hint_changes);
  g_assert_true (steward_model_catalog_load (catalog, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpuint (hint_changes, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 2);

  /* In the same order, with the same scores. */
  model = g_list_model_get_item (G_LIST_MODEL (catalog), 0);
  g_assert_cmpstr (steward_model_get_id (model), ==, "ollama/qwen2.5:7b");
  g_assert_true (steward_model_get_local (model));
  g_assert_cmpfloat (steward_model_get_cost (model), ==, 0.0);
  g_object_unref (model);
  model = g_list_model_get_item (G_LIST_MODEL (catalog), 1);
  g_assert_cmpstr (steward_model_get_id (model), ==, "anthropic/claude-sonnet-4");
  g_assert_false (steward_model_get_local (model));
  g_assert_cmpfloat (steward_model_get_cost (model), ==, 0.625);
  g_assert_cmpfloat (steward_model_get_speed (model), ==, 0.5);
  g_assert_cmpfloat (steward_model_get_intelligence (model), ==, 0.875);
  g_object_unref (model);
  g_assert_cmpstr (g_hash_table_lookup (steward_model_catalog_get_hints (catalog), "sonnet"), ==,
                   "anthropic/claude-sonnet-4");
  g_assert_cmpstr (g_hash_table_lookup (steward_model_catalog_get_hints (catalog), "gpt-4"), ==,
                   "ollama/qwen2.5:7b");

  g_assert_finalize_object (catalog);
  remove_tree (dir);
}

/* Saves asked for one after another finish in order, and the file ends
 * with the last state, never an older one written late. */
static void
test_saves_in_order (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) file = g_file_get_child (dir, "models.json");
  g_autoptr(GError) error = NULL;
  StewardModelCatalog *catalog = steward_model_catalog_new (file);
  StewardModelCatalog *reread;
  Saves saves = { 0, };

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("model-%u", i);

      steward_model_catalog_add (catalog, "ollama", name, TRUE);
      steward_model_catalog_save_async (catalog, NULL, save_cb, &saves);
    }
  steward_model_catalog_remove (catalog, "ollama/model-0");
  steward_model_catalog_save_async (catalog, NULL, save_cb, &saves);

  WAIT_UNTIL (saves.done == 21);
  g_assert_no_error (saves.error);
  g_assert_finalize_object (catalog);

  reread = steward_model_catalog_new (file);
  g_assert_true (steward_model_catalog_load (reread, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (reread)), ==, 19);
  g_assert_null (steward_model_catalog_lookup (reread, "ollama/model-0"));
  g_assert_nonnull (steward_model_catalog_lookup (reread, "ollama/model-19"));
  g_assert_finalize_object (reread);

  remove_tree (dir);
}

static void
test_load_lenient (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) file = g_file_get_child (dir, "models.json");
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;
  StewardModelCatalog *catalog = steward_model_catalog_new (file);
  StewardModel *model;

  /* Missing scores take the family's; out of range is clamped; a model
   * listed twice counts once; hints are kept in lowercase. */
  g_assert_true (g_file_set_contents (path,
                                      "{\"models\": ["
                                      "{\"provider\": \"openai\", \"name\": \"gpt-4o-mini\"},"
                                      "{\"provider\": \"x\", \"name\": \"y\", \"cost\": 3, "
                                      "\"speed\": -1, \"intelligence\": 0.5, \"local\": true},"
                                      "{\"provider\": \"x\", \"name\": \"y\", \"cost\": 0.1}],"
                                      "\"hints\": {\"Sonnet\": \"x/y\"}, \"later\": 1}",
                                      -1, NULL));
  g_assert_true (steward_model_catalog_load (catalog, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 2);

  model = steward_model_catalog_lookup (catalog, "openai/gpt-4o-mini");
  g_assert_cmpfloat (steward_model_get_speed (model), >=, HIGH);
  g_assert_false (steward_model_get_local (model));
  model = steward_model_catalog_lookup (catalog, "x/y");
  g_assert_cmpfloat (steward_model_get_cost (model), ==, 1.0);
  g_assert_cmpfloat (steward_model_get_speed (model), ==, 0.0);
  g_assert_true (steward_model_get_local (model));
  g_assert_cmpstr (g_hash_table_lookup (steward_model_catalog_get_hints (catalog), "sonnet"), ==,
                   "x/y");

  g_assert_finalize_object (catalog);
  remove_tree (dir);
}

static void
test_damaged (void)
{
  static const char * const damaged[] = {
    "{\"models\": ",
    "[]",
    "{\"models\": {}}",
    "{\"models\": [3]}",
    "{\"models\": [{\"name\": \"gpt-4o\"}]}",
    "{\"models\": [{\"provider\": \"openai\"}]}",
    "{\"models\": [{\"provider\": \"open/ai\", \"name\": \"gpt-4o\"}]}",
    "{\"models\": [{\"provider\": \"openai\", \"name\": \"\"}]}",
    "{\"models\": [{\"provider\": \"openai\", \"name\": \"gpt-4o\", \"cost\": \"high\"}]}",
    "{\"models\": [{\"provider\": \"openai\", \"name\": \"gpt-4o\", \"local\": \"no\"}]}",
    "{\"models\": [], \"hints\": []}",
    "{\"models\": [], \"hints\": {\"sonnet\": 3}}",
    "\xff\xfe{}",
  };
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) file = g_file_get_child (dir, "models.json");
  g_autofree char *path = g_file_get_path (file);
  StewardModelCatalog *catalog = steward_model_catalog_new (file);

  /* What the catalogue held before stays when the file is damaged. */
  steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  steward_model_catalog_set_hint (catalog, "qwen", "ollama/qwen2.5:7b");

  for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *shown = g_strescape (damaged[i], NULL);

      /* Escaped: the TAP reader takes only valid UTF-8. */
      g_test_message ("damaged %u: %s", i, shown);
      g_assert_true (g_file_set_contents (path, damaged[i], -1, NULL));
      g_assert_false (steward_model_catalog_load (catalog, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, path));

      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 1);
      g_assert_cmpuint (g_hash_table_size (steward_model_catalog_get_hints (catalog)), ==, 1);
    }

  g_assert_finalize_object (catalog);
  remove_tree (dir);
}

static void
test_save_error (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) blocker = g_file_get_child (dir, "not-a-folder");
  g_autoptr(GFile) file = g_file_get_child (blocker, "models.json");
  g_autofree char *blocker_path = g_file_get_path (blocker);
  StewardModelCatalog *catalog = steward_model_catalog_new (file);
  Saves saves = { 0, };

  /* A file where the folder should be: the save fails and says where. */
  g_assert_true (g_file_set_contents (blocker_path, "", -1, NULL));
  steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  steward_model_catalog_save_async (catalog, NULL, save_cb, &saves);
  WAIT_UNTIL (saves.done == 1);
  g_assert_false (saves.ok);
  g_assert_nonnull (saves.error);
  g_assert_nonnull (strstr (saves.error->message, "models.json"));
  g_clear_error (&saves.error);

  g_assert_finalize_object (catalog);
  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/model-catalog/defaults", test_defaults);
  g_test_add_func ("/steward/model-catalog/add-remove", test_add_remove);
  g_test_add_func ("/steward/model-catalog/scores", test_scores);
  g_test_add_func ("/steward/model-catalog/hints", test_hints);
  g_test_add_func ("/steward/model-catalog/round-trip", test_round_trip);
  g_test_add_func ("/steward/model-catalog/saves-in-order", test_saves_in_order);
  g_test_add_func ("/steward/model-catalog/load-lenient", test_load_lenient);
  g_test_add_func ("/steward/model-catalog/damaged", test_damaged);
  g_test_add_func ("/steward/model-catalog/save-error", test_save_error);

  return g_test_run ();
}
