/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-lazy-list"

#include "config.h"

#include <adwaita.h>

#include "steward-lazy-list.h"
#include "test-widgets.h"

/* A long list handed to a list view in batches: the view gets the first
 * batch, more as a person scrolls towards its end, all of it in the end,
 * and the first batch again after a reset. */

#define N_ITEMS 500
#define BATCH   40

typedef struct {
  GtkWindow       *window;
  GtkListView     *view;
  GListStore      *store;
  StewardLazyList *lazy;
} Fixture;

static void
setup_label_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  gtk_list_item_set_child (item, gtk_label_new (NULL));
}

static void
bind_label_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (string));
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  fixture->store = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  for (guint i = 0; i < N_ITEMS; i++)
    {
      g_autofree char *text = g_strdup_printf ("item %u", i);
      g_autoptr(GtkStringObject) string = gtk_string_object_new (text);

      g_list_store_append (fixture->store, string);
    }

  fixture->lazy = steward_lazy_list_new (G_LIST_MODEL (fixture->store), BATCH);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_label_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label_cb), NULL);
  fixture->view = GTK_LIST_VIEW (gtk_list_view_new (
    GTK_SELECTION_MODEL (gtk_no_selection_new (
      g_object_ref (steward_lazy_list_get_model (fixture->lazy)))),
    g_object_ref (factory)));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (fixture->view));
  steward_lazy_list_set_adjustment (
    fixture->lazy, gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture->view)));

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 300, 300);
  gtk_window_set_child (fixture->window, scroller);
  gtk_window_present (fixture->window);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  test_drain_main_context ();
  g_assert_finalize_object (fixture->lazy);
  g_assert_finalize_object (fixture->store);
}

static GtkAdjustment *
adjustment (Fixture *fixture)
{
  return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture->view));
}

static guint
n_handed (Fixture *fixture)
{
  return g_list_model_get_n_items (steward_lazy_list_get_model (fixture->lazy));
}

static gboolean
laid_out (gpointer data)
{
  return gtk_adjustment_get_page_size (adjustment (data)) > 0;
}

static gboolean
more_handed (gpointer data)
{
  Fixture *fixture = data;

  return n_handed (fixture) > BATCH;
}

/* Scrolls to the end of what is handed over, until all of it is. */
static gboolean
scrolled_to_all (gpointer data)
{
  Fixture *fixture = data;
  GtkAdjustment *adj = adjustment (fixture);

  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  return n_handed (fixture) == N_ITEMS;
}

static void
test_grows_on_scroll (Fixture       *fixture,
                      gconstpointer  data)
{
  test_wait_until (laid_out, fixture, 10000);
  test_drain_main_context ();

  /* A 300-pixel window shows far fewer than a batch: nothing more yet. */
  g_assert_cmpuint (n_handed (fixture), ==, BATCH);

  gtk_adjustment_set_value (adjustment (fixture), gtk_adjustment_get_upper (adjustment (fixture)));
  test_wait_until (more_handed, fixture, 10000);
  g_assert_cmpuint (n_handed (fixture), <=, 2 * BATCH);

  test_wait_until (scrolled_to_all, fixture, 20000);

  steward_lazy_list_reset (fixture->lazy);
  g_assert_cmpuint (n_handed (fixture), ==, BATCH);
}

static void
test_reveal (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GtkStringObject) item = NULL;

  test_wait_until (laid_out, fixture, 10000);

  steward_lazy_list_reveal (fixture->lazy, 10);
  g_assert_cmpuint (n_handed (fixture), ==, BATCH);

  steward_lazy_list_reveal (fixture->lazy, 300);
  g_assert_cmpuint (n_handed (fixture), >, 300);
  item = g_list_model_get_item (steward_lazy_list_get_model (fixture->lazy), 300);
  g_assert_cmpstr (gtk_string_object_get_string (item), ==, "item 300");

  /* Never past the end of the list. */
  steward_lazy_list_reveal (fixture->lazy, N_ITEMS - 1);
  g_assert_cmpuint (n_handed (fixture), ==, N_ITEMS);
}

static void
test_follows_model (Fixture       *fixture,
                    gconstpointer  data)
{
  test_wait_until (laid_out, fixture, 10000);

  /* Fewer items than a batch are all handed over; more come back to a
   * batch. */
  g_list_store_splice (fixture->store, 10, N_ITEMS - 10, NULL, 0);
  g_assert_cmpuint (n_handed (fixture), ==, 10);
  for (guint i = 10; i < N_ITEMS; i++)
    {
      g_autoptr(GtkStringObject) string = gtk_string_object_new ("again");

      g_list_store_append (fixture->store, string);
    }
  g_assert_cmpuint (n_handed (fixture), ==, BATCH);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/steward/lazy-list/grows-on-scroll", Fixture, NULL,
              fixture_setup, test_grows_on_scroll, fixture_teardown);
  g_test_add ("/steward/lazy-list/reveal", Fixture, NULL,
              fixture_setup, test_reveal, fixture_teardown);
  g_test_add ("/steward/lazy-list/follows-model", Fixture, NULL,
              fixture_setup, test_follows_model, fixture_teardown);

  return g_test_run ();
}
