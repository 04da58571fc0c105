/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "test-error-banner.h"

#include "steward-error-banner.h"

static GtkWidget *
find_type (GtkWidget *root,
           GType      type)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static StewardErrorBanner *
find_banner (GtkWidget *root)
{
  GtkWidget *banner = find_type (root, STEWARD_TYPE_ERROR_BANNER);

  g_assert_nonnull (banner);
  return STEWARD_ERROR_BANNER (banner);
}

const char *
test_error_message (GtkWidget *root)
{
  return steward_error_banner_get_message (find_banner (root));
}

const char *
test_assert_error_shown (GtkWidget  *root,
                         const char *start)
{
  StewardErrorBanner *banner = find_banner (root);
  const char *message = steward_error_banner_get_message (banner);
  GtkRevealer *revealer;
  GtkLabel *label;

  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, start));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (banner)));
  revealer = GTK_REVEALER (find_type (GTK_WIDGET (banner), GTK_TYPE_REVEALER));
  g_assert_true (gtk_revealer_get_reveal_child (revealer));

  /* All of it, as text, on as many lines as it needs. */
  label = GTK_LABEL (find_type (GTK_WIDGET (banner), GTK_TYPE_LABEL));
  g_assert_cmpstr (gtk_label_get_text (label), ==, message);
  g_assert_true (gtk_label_get_wrap (label));
  g_assert_cmpint (gtk_label_get_ellipsize (label), ==, PANGO_ELLIPSIZE_NONE);
  g_assert_false (gtk_label_get_use_markup (label));
  g_assert_cmpint (gtk_label_get_lines (label), <=, 0);

  return message;
}

void
test_assert_no_error (GtkWidget *root)
{
  StewardErrorBanner *banner = find_banner (root);

  g_assert_null (steward_error_banner_get_message (banner));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (banner)));
}

void
test_dismiss_error (GtkWidget *root)
{
  StewardErrorBanner *banner = find_banner (root);
  GtkWidget *button = find_type (GTK_WIDGET (banner), GTK_TYPE_BUTTON);

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
}
