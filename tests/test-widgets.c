/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "test-widgets.h"

static gboolean
timed_out_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;

  return G_SOURCE_REMOVE;
}

void
test_wait_until (TestCondition condition,
                 gpointer      data,
                 guint         timeout_ms)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add (timeout_ms, timed_out_cb, &timed_out);

  while (!condition (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (timeout_id);

  g_assert_true (condition (data));
}

void
test_drain_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

typedef gboolean (*Match) (GtkWidget  *widget,
                           const char *text);

static GtkWidget *
find (GtkWidget  *root,
      Match       match,
      const char *text)
{
  if (match (root, text))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find (child, match, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
label_is (GtkWidget  *widget,
          const char *text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static gboolean
label_contains (GtkWidget  *widget,
                const char *needle)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), needle) != NULL;
}

static gboolean
name_is (GtkWidget  *widget,
         const char *name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

GtkLabel *
test_find_label (GtkWidget  *root,
                 const char *text)
{
  return (GtkLabel *) find (root, label_is, text);
}

GtkLabel *
test_find_label_containing (GtkWidget  *root,
                            const char *needle)
{
  return (GtkLabel *) find (root, label_contains, needle);
}

gboolean
test_any_label_contains (GtkWidget  *root,
                         const char *needle)
{
  return test_find_label_containing (root, needle) != NULL;
}

GtkWidget *
test_find_by_name (GtkWidget  *root,
                   const char *name)
{
  return find (root, name_is, name);
}

static GtkWidget *
find_type (GtkWidget *root,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

GtkWidget *
test_find_by_type (GtkWidget *root,
                   GType      type)
{
  return find_type (root, type);
}
