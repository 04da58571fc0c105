/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-template-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-completion-entry.h"
#include "steward-item-row.h"
#include "steward-resource-view.h"
#include "steward-text.h"

#include "steward-template-view.h"

/* A template from a server could name any number of variables. */
#define MAX_VARIABLES 64

struct _StewardTemplateView
{
  AdwBin               parent_instance;

  McpClient           *client;
  McpResourceTemplate *template;
  GPtrArray           *entries;     /* StewardCompletionEntry */

  StewardItemRow      *header;
  GtkGrid             *variables_grid;
  GtkLabel            *uri_label;
  AdwBin              *result_bin;
};

G_DEFINE_FINAL_TYPE (StewardTemplateView, steward_template_view, ADW_TYPE_BIN)

static GHashTable *
dup_values (StewardTemplateView *self)
{
  GHashTable *values = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);
      GtkEditable *editable = steward_completion_entry_get_editable (entry);

      g_hash_table_insert (values, (gpointer) steward_completion_entry_get_argument (entry),
                           (gpointer) gtk_editable_get_text (editable));
    }

  return values;
}

static gboolean
all_filled (StewardTemplateView *self)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);

      if (*gtk_editable_get_text (steward_completion_entry_get_editable (entry)) == '\0')
        return FALSE;
    }

  return TRUE;
}

static void
values_changed_cb (StewardTemplateView *self)
{
  g_autofree char *uri = steward_template_view_dup_uri (self);
  g_autofree char *visible = steward_text_make_visible_capped (uri, 4096, NULL);
  g_autoptr(JsonObject) context = json_object_new ();

  gtk_label_set_text (self->uri_label, visible);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "template.read", all_filled (self));

  /* Each variable is completed knowing the values of the others. */
  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);
      const char *text = gtk_editable_get_text (steward_completion_entry_get_editable (entry));

      if (*text != '\0')
        json_object_set_string_member (context, steward_completion_entry_get_argument (entry),
                                       text);
    }
  for (guint i = 0; i < self->entries->len; i++)
    steward_completion_entry_set_context (g_ptr_array_index (self->entries, i), context);
}

static void
read_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardTemplateView *self = STEWARD_TEMPLATE_VIEW (widget);
  g_autofree char *uri = NULL;

  if (!all_filled (self))
    return;

  uri = steward_template_view_dup_uri (self);
  adw_bin_set_child (self->result_bin, steward_resource_view_new (self->client, uri, NULL));
}

static void
add_variable (StewardTemplateView *self,
              const char          *name,
              int                  row)
{
  const char *uri_template = mcp_resource_template_get_uri_template (self->template);
  g_autofree char *visible = steward_text_make_visible_capped (name, 256, NULL);
  GtkWidget *label = gtk_label_new (visible);
  GtkWidget *entry = steward_completion_entry_new (self->client, "ref/resource", uri_template,
                                                   name);
  GtkEditable *editable = steward_completion_entry_get_editable (STEWARD_COMPLETION_ENTRY (entry));

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "monospace");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (editable));
  gtk_accessible_update_property (GTK_ACCESSIBLE (editable), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  visible, GTK_ACCESSIBLE_PROPERTY_REQUIRED, TRUE, -1);
  gtk_grid_attach (self->variables_grid, label, 0, row, 1, 1);
  gtk_grid_attach (self->variables_grid, entry, 1, row, 1, 1);
  gtk_widget_set_hexpand (entry, TRUE);

  g_signal_connect_object (editable, "changed", G_CALLBACK (values_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_ptr_array_add (self->entries, entry);
}

static void
steward_template_view_dispose (GObject *object)
{
  StewardTemplateView *self = STEWARD_TEMPLATE_VIEW (object);

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_TEMPLATE_VIEW);

  g_clear_object (&self->client);
  g_clear_object (&self->template);

  G_OBJECT_CLASS (steward_template_view_parent_class)->dispose (object);
}

static void
steward_template_view_class_init (StewardTemplateViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_template_view_dispose;

  gtk_widget_class_install_action (widget_class, "template.read", NULL, read_action);

  g_type_ensure (STEWARD_TYPE_ITEM_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-template-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardTemplateView, header);
  gtk_widget_class_bind_template_child (widget_class, StewardTemplateView, variables_grid);
  gtk_widget_class_bind_template_child (widget_class, StewardTemplateView, uri_label);
  gtk_widget_class_bind_template_child (widget_class, StewardTemplateView, result_bin);
}

static void
steward_template_view_init (StewardTemplateView *self)
{
  self->entries = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_template_view_new (McpClient           *client,
                           McpResourceTemplate *template)
{
  StewardTemplateView *self;
  g_auto(GStrv) variables = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (MCP_IS_RESOURCE_TEMPLATE (template), NULL);

  self = g_object_new (STEWARD_TYPE_TEMPLATE_VIEW, NULL);
  self->client = g_object_ref (client);
  self->template = g_object_ref (template);
  steward_item_row_set_item (self->header, MCP_ITEM (template));

  variables = mcp_resource_template_dup_variables (template);
  for (guint i = 0; variables != NULL && variables[i] != NULL && i < MAX_VARIABLES; i++)
    add_variable (self, variables[i], i);

  values_changed_cb (self);

  return GTK_WIDGET (self);
}

GtkWidget *
steward_template_view_get_entry (StewardTemplateView *self,
                                 const char          *name)
{
  g_return_val_if_fail (STEWARD_IS_TEMPLATE_VIEW (self), NULL);

  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);

      if (g_strcmp0 (steward_completion_entry_get_argument (entry), name) == 0)
        return GTK_WIDGET (entry);
    }

  return NULL;
}

char *
steward_template_view_dup_uri (StewardTemplateView *self)
{
  g_autoptr(GHashTable) values = NULL;

  g_return_val_if_fail (STEWARD_IS_TEMPLATE_VIEW (self), NULL);

  values = dup_values (self);
  return mcp_resource_template_expand (self->template, values);
}

GtkWidget *
steward_template_view_get_resource_view (StewardTemplateView *self)
{
  g_return_val_if_fail (STEWARD_IS_TEMPLATE_VIEW (self), NULL);

  return adw_bin_get_child (self->result_bin);
}
