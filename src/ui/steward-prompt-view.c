/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-prompt-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-completion-entry.h"
#include "steward-content-view.h"
#include "steward-item-row.h"
#include "steward-text.h"
#include "steward-ui-call.h"

#include "steward-prompt-view.h"

/* A prompt from a server could declare any number of arguments. */
#define MAX_ARGUMENTS 64

struct _StewardPromptView
{
  AdwBin           parent_instance;

  McpClient       *client;
  McpPrompt       *prompt;
  McpPromptResult *result;
  GPtrArray       *entries;        /* StewardCompletionEntry */
  GCancellable    *cancellable;    /* the Get under way, or NULL */

  StewardItemRow  *header;
  GtkGrid         *arguments_grid;
  GtkSpinner      *spinner;
  GtkLabel        *status_label;
  GtkWidget       *messages_box;
};

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardPromptView, steward_prompt_view, ADW_TYPE_BIN)

static gboolean
entry_is_required (StewardPromptView      *self,
                   StewardCompletionEntry *entry)
{
  const char *name = steward_completion_entry_get_argument (entry);

  for (guint i = 0; i < mcp_prompt_get_n_arguments (self->prompt); i++)
    if (g_strcmp0 (mcp_prompt_get_argument_name (self->prompt, i), name) == 0)
      return mcp_prompt_get_argument_required (self->prompt, i);

  return FALSE;
}

static JsonObject *
dup_arguments (StewardPromptView *self)
{
  JsonObject *arguments = json_object_new ();

  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);
      const char *text = gtk_editable_get_text (steward_completion_entry_get_editable (entry));

      if (*text != '\0')
        json_object_set_string_member (arguments, steward_completion_entry_get_argument (entry),
                                       text);
    }

  return arguments;
}

static void
update_actions (StewardPromptView *self)
{
  gboolean ready = self->cancellable == NULL;

  for (guint i = 0; ready && i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);
      const char *text = gtk_editable_get_text (steward_completion_entry_get_editable (entry));

      if (*text == '\0' && entry_is_required (self, entry))
        ready = FALSE;
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prompt.get", ready);
}

static void
arguments_changed_cb (StewardPromptView *self)
{
  g_autoptr(JsonObject) context = dup_arguments (self);

  for (guint i = 0; i < self->entries->len; i++)
    steward_completion_entry_set_context (g_ptr_array_index (self->entries, i), context);
  update_actions (self);
}

static void
show_message (StewardPromptView *self,
              guint              index)
{
  const char *role = mcp_prompt_result_get_message_role (self->result, index);
  McpContent *content = mcp_prompt_result_get_message_content (self->result, index);
  g_autofree char *visible = steward_text_make_visible_capped (role ? role : "", 256, NULL);
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (visible);

  gtk_widget_add_css_class (card, "card");
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  if (content != NULL)
    gtk_box_append (GTK_BOX (box), steward_content_view_new (content));
  gtk_box_append (GTK_BOX (card), box);
  gtk_box_append (GTK_BOX (self->messages_box), card);
}

static void
show_result (StewardPromptView *self)
{
  const char *description = mcp_prompt_result_get_description (self->result);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->messages_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->messages_box), child);

  if (description != NULL)
    {
      g_autofree char *visible = steward_text_for_display (description);
      GtkWidget *label = gtk_label_new (visible);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (self->messages_box), label);
    }

  for (guint i = 0; i < mcp_prompt_result_get_n_messages (self->result); i++)
    show_message (self, i);
}

static void
set_loading (StewardPromptView *self,
             gboolean           loading)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), loading);
  gtk_spinner_set_spinning (self->spinner, loading);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
get_prompt_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  StewardPromptView *self = steward_ui_call_finish (user_data);
  g_autoptr(McpPromptResult) prompt_result = NULL;
  g_autoptr(GError) error = NULL;

  prompt_result = mcp_client_get_prompt_finish (MCP_CLIENT (object), result, &error);
  if (self == NULL)
    return;

  g_clear_object (&self->cancellable);
  if (prompt_result == NULL)
    {
      g_autofree char *reason = steward_text_make_visible_capped (error->message, 4096, NULL);
      /* Translators: %s is the server's or the connection's reason. */
      g_autofree char *message = g_strdup_printf (_("Could not get this prompt: %s"), reason);

      gtk_label_set_text (self->status_label, message);
      gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
    }
  else
    {
      g_set_object (&self->result, prompt_result);
      show_result (self);
    }

  set_loading (self, FALSE);
}

static void
get_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  StewardPromptView *self = STEWARD_PROMPT_VIEW (widget);
  g_autoptr(JsonObject) arguments = NULL;

  if (self->cancellable != NULL)
    return;

  arguments = dup_arguments (self);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  self->cancellable = g_cancellable_new ();
  set_loading (self, TRUE);
  mcp_client_get_prompt_async (self->client, mcp_item_get_name (MCP_ITEM (self->prompt)),
                               arguments, self->cancellable, get_prompt_cb,
                               steward_ui_call_new (self, self->cancellable));
}

static void
add_argument (StewardPromptView *self,
              guint              index)
{
  const char *name = mcp_prompt_get_argument_name (self->prompt, index);
  const char *description = mcp_prompt_get_argument_description (self->prompt, index);
  gboolean required = mcp_prompt_get_argument_required (self->prompt, index);
  g_autofree char *visible = steward_text_make_visible_capped (name, 256, NULL);
  g_autofree char *title = required ? g_strdup_printf ("%s *", visible) : g_strdup (visible);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *entry = steward_completion_entry_new (self->client, "ref/prompt",
                                                   mcp_item_get_name (MCP_ITEM (self->prompt)),
                                                   name);
  GtkEditable *editable = steward_completion_entry_get_editable (STEWARD_COMPLETION_ENTRY (entry));
  /* Laid out as the tool form lays out a field: the name as a heading,
   * its description under it, then the entry, in one column that narrows
   * with the window. */
  int row = index * 3;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "heading");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (editable));
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_widget_set_margin_bottom (entry, 6);
  gtk_grid_attach (self->arguments_grid, label, 0, row, 1, 1);
  gtk_grid_attach (self->arguments_grid, entry, 0, row + 2, 1, 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (editable),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, visible,
                                  GTK_ACCESSIBLE_PROPERTY_REQUIRED, required,
                                  -1);
  if (required)
    gtk_widget_set_tooltip_text (label, _("Required"));

  if (description != NULL)
    {
      g_autofree char *shown = steward_text_make_visible_capped (description, 4096, NULL);
      GtkWidget *hint = gtk_label_new (shown);

      gtk_label_set_xalign (GTK_LABEL (hint), 0);
      gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (hint), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (hint, "caption");
      gtk_widget_add_css_class (hint, "dim-label");
      gtk_grid_attach (self->arguments_grid, hint, 0, row + 1, 1, 1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (editable),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, shown, -1);
    }

  g_signal_connect_object (editable, "changed", G_CALLBACK (arguments_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_ptr_array_add (self->entries, entry);
}

static void
steward_prompt_view_dispose (GObject *object)
{
  StewardPromptView *self = STEWARD_PROMPT_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->entries, g_ptr_array_unref);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_PROMPT_VIEW);

  g_clear_object (&self->client);
  g_clear_object (&self->prompt);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (steward_prompt_view_parent_class)->dispose (object);
}

static void
steward_prompt_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardPromptView *self = STEWARD_PROMPT_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, steward_prompt_view_get_loading (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_prompt_view_class_init (StewardPromptViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_prompt_view_dispose;
  object_class->get_property = steward_prompt_view_get_property;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "prompt.get", NULL, get_action);

  g_type_ensure (STEWARD_TYPE_ITEM_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-prompt-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardPromptView, header);
  gtk_widget_class_bind_template_child (widget_class, StewardPromptView, arguments_grid);
  gtk_widget_class_bind_template_child (widget_class, StewardPromptView, spinner);
  gtk_widget_class_bind_template_child (widget_class, StewardPromptView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardPromptView, messages_box);
}

static void
steward_prompt_view_init (StewardPromptView *self)
{
  self->entries = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_prompt_view_new (McpClient *client,
                         McpPrompt *prompt)
{
  StewardPromptView *self;

  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (MCP_IS_PROMPT (prompt), NULL);

  self = g_object_new (STEWARD_TYPE_PROMPT_VIEW, NULL);
  self->client = g_object_ref (client);
  self->prompt = g_object_ref (prompt);
  steward_item_row_set_item (self->header, MCP_ITEM (prompt));

  for (guint i = 0; i < mcp_prompt_get_n_arguments (prompt) && i < MAX_ARGUMENTS; i++)
    add_argument (self, i);
  update_actions (self);

  return GTK_WIDGET (self);
}

GtkWidget *
steward_prompt_view_get_entry (StewardPromptView *self,
                               const char        *name)
{
  g_return_val_if_fail (STEWARD_IS_PROMPT_VIEW (self), NULL);

  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (self->entries, i);

      if (g_strcmp0 (steward_completion_entry_get_argument (entry), name) == 0)
        return GTK_WIDGET (entry);
    }

  return NULL;
}

McpPromptResult *
steward_prompt_view_get_result (StewardPromptView *self)
{
  g_return_val_if_fail (STEWARD_IS_PROMPT_VIEW (self), NULL);

  return self->result;
}

gboolean
steward_prompt_view_get_loading (StewardPromptView *self)
{
  g_return_val_if_fail (STEWARD_IS_PROMPT_VIEW (self), FALSE);

  return self->cancellable != NULL;
}
