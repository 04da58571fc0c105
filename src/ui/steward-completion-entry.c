/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-completion-entry"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-text.h"
#include "steward-ui-call.h"

#include "steward-completion-entry.h"

/* Ask once the person pauses, not on every key. */
#define DEBOUNCE_MS 150
/* The protocol caps a completion at 100 values; never show more. */
#define MAX_SUGGESTIONS 100

struct _StewardCompletionEntry
{
  AdwBin        parent_instance;

  McpClient    *client;
  char         *ref_type;
  char         *ref_name;
  char         *argument;
  JsonObject   *context;
  GStrv         suggestions;
  GCancellable *cancellable;     /* the question in flight */
  guint         debounce_id;
  gboolean      setting_text;
  gboolean      has_focus;

  GtkEntry     *entry;
  GtkWidget    *popover;
  GtkListBox   *list_box;
};

G_DEFINE_FINAL_TYPE (StewardCompletionEntry, steward_completion_entry, ADW_TYPE_BIN)

static void
popdown (StewardCompletionEntry *self)
{
  if (gtk_widget_get_visible (self->popover))
    gtk_popover_popdown (GTK_POPOVER (self->popover));
}

static void
show_suggestions (StewardCompletionEntry *self)
{
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);

  for (guint i = 0; self->suggestions != NULL && self->suggestions[i] != NULL; i++)
    {
      g_autofree char *visible = steward_text_make_visible_capped (self->suggestions[i], 256,
                                                                   NULL);
      GtkWidget *label = gtk_label_new (visible);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_list_box_append (self->list_box, label);
      n++;
    }

  if (n == 0 || !self->has_focus)
    {
      popdown (self);
      return;
    }

  gtk_widget_set_size_request (GTK_WIDGET (self->list_box),
                               MAX (160, gtk_widget_get_width (GTK_WIDGET (self->entry))), -1);
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

static void
complete_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  StewardCompletionEntry *self = steward_ui_call_finish (user_data);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;

  values = mcp_client_complete_finish (MCP_CLIENT (object), result, NULL, NULL, &error);
  if (self == NULL)
    return;

  g_clear_object (&self->cancellable);
  if (values == NULL)
    {
      /* A failed completion only means no suggestions; the person types on. */
      g_debug ("completion of %s failed: %s", self->argument, error->message);
      values = g_new0 (char *, 1);
    }

  if (g_strv_length (values) > MAX_SUGGESTIONS)
    {
      g_free (values[MAX_SUGGESTIONS]);
      for (guint i = MAX_SUGGESTIONS + 1; values[i] != NULL; i++)
        g_free (values[i]);
      values[MAX_SUGGESTIONS] = NULL;
    }

  g_strfreev (self->suggestions);
  self->suggestions = g_steal_pointer (&values);
  show_suggestions (self);
}

static gboolean
debounce_cb (gpointer user_data)
{
  StewardCompletionEntry *self = user_data;

  self->debounce_id = 0;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  mcp_client_complete_async (self->client, self->ref_type, self->ref_name, self->argument,
                             gtk_editable_get_text (GTK_EDITABLE (self->entry)), self->context,
                             self->cancellable, complete_cb,
                             steward_ui_call_new (self, self->cancellable));

  return G_SOURCE_REMOVE;
}

static void
entry_changed_cb (StewardCompletionEntry *self)
{
  if (self->setting_text || self->client == NULL ||
      !mcp_client_has_capability (self->client, "completions", NULL))
    return;

  g_clear_handle_id (&self->debounce_id, g_source_remove);
  self->debounce_id = g_timeout_add (DEBOUNCE_MS, debounce_cb, self);
}

static void
accept_row (StewardCompletionEntry *self,
            GtkListBoxRow          *row)
{
  int index = gtk_list_box_row_get_index (row);

  if (self->suggestions == NULL || index < 0 ||
      (guint) index >= g_strv_length (self->suggestions))
    return;

  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), self->suggestions[index]);
  gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
  self->setting_text = FALSE;
  popdown (self);
}

static void
row_activated_cb (StewardCompletionEntry *self,
                  GtkListBoxRow          *row)
{
  accept_row (self, row);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

static void
move_selection (StewardCompletionEntry *self,
                int                     delta)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list_box);
  int index = row != NULL ? gtk_list_box_row_get_index (row) + delta : (delta > 0 ? 0 : -1);
  GtkListBoxRow *next;

  if (index < 0)
    {
      gtk_list_box_unselect_all (self->list_box);
      return;
    }

  next = gtk_list_box_get_row_at_index (self->list_box, index);
  if (next != NULL)
    gtk_list_box_select_row (self->list_box, next);
}

/* The focus stays in the entry while the list is open: the arrows move
 * through the suggestions, Return takes one, Escape closes the list. */
static gboolean
key_pressed_cb (StewardCompletionEntry *self,
                guint                   keyval,
                guint                   keycode,
                GdkModifierType         state)
{
  GtkListBoxRow *row;

  if (!gtk_widget_get_visible (self->popover))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      move_selection (self, 1);
      return TRUE;

    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      move_selection (self, -1);
      return TRUE;

    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      row = gtk_list_box_get_selected_row (self->list_box);
      if (row == NULL)
        return FALSE;
      accept_row (self, row);
      return TRUE;

    case GDK_KEY_Escape:
      popdown (self);
      return TRUE;

    default:
      return FALSE;
    }
}

static void
focus_enter_cb (StewardCompletionEntry *self)
{
  self->has_focus = TRUE;
}

static void
focus_leave_cb (StewardCompletionEntry *self)
{
  self->has_focus = FALSE;
  popdown (self);
}

static void
steward_completion_entry_size_allocate (GtkWidget *widget,
                                        int        width,
                                        int        height,
                                        int        baseline)
{
  StewardCompletionEntry *self = STEWARD_COMPLETION_ENTRY (widget);

  GTK_WIDGET_CLASS (steward_completion_entry_parent_class)->size_allocate (widget, width, height,
                                                                          baseline);
  gtk_popover_present (GTK_POPOVER (self->popover));
}

static void
steward_completion_entry_dispose (GObject *object)
{
  StewardCompletionEntry *self = STEWARD_COMPLETION_ENTRY (object);

  g_clear_handle_id (&self->debounce_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->popover, gtk_widget_unparent);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_COMPLETION_ENTRY);

  g_clear_object (&self->client);
  g_clear_pointer (&self->context, json_object_unref);

  G_OBJECT_CLASS (steward_completion_entry_parent_class)->dispose (object);
}

static void
steward_completion_entry_finalize (GObject *object)
{
  StewardCompletionEntry *self = STEWARD_COMPLETION_ENTRY (object);

  g_free (self->ref_type);
  g_free (self->ref_name);
  g_free (self->argument);
  g_strfreev (self->suggestions);

  G_OBJECT_CLASS (steward_completion_entry_parent_class)->finalize (object);
}

static void
steward_completion_entry_class_init (StewardCompletionEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_completion_entry_dispose;
  object_class->finalize = steward_completion_entry_finalize;
  widget_class->size_allocate = steward_completion_entry_size_allocate;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-completion-entry.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardCompletionEntry, entry);
}

static void
steward_completion_entry_init (StewardCompletionEntry *self)
{
  GtkEventController *controller;
  GtkWidget *scroller;

  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_object (self->entry, "changed", G_CALLBACK (entry_changed_cb), self,
                           G_CONNECT_SWAPPED);

  self->list_box = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list_box, GTK_SELECTION_BROWSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list_box), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list_box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Suggestions"), -1);
  g_signal_connect_object (self->list_box, "row-activated", G_CALLBACK (row_activated_cb), self,
                           G_CONNECT_SWAPPED);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 240);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->list_box));

  self->popover = gtk_popover_new ();
  gtk_popover_set_autohide (GTK_POPOVER (self->popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->popover), GTK_POS_BOTTOM);
  gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
  gtk_popover_set_child (GTK_POPOVER (self->popover), scroller);
  gtk_widget_set_parent (self->popover, GTK_WIDGET (self));

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), controller);

  controller = gtk_event_controller_focus_new ();
  g_signal_connect_object (controller, "enter", G_CALLBACK (focus_enter_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (focus_leave_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), controller);
}

GtkWidget *
steward_completion_entry_new (McpClient  *client,
                              const char *ref_type,
                              const char *ref_name,
                              const char *argument)
{
  StewardCompletionEntry *self;

  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (ref_type != NULL, NULL);
  g_return_val_if_fail (ref_name != NULL, NULL);
  g_return_val_if_fail (argument != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_COMPLETION_ENTRY, NULL);
  self->client = g_object_ref (client);
  self->ref_type = g_strdup (ref_type);
  self->ref_name = g_strdup (ref_name);
  self->argument = g_strdup (argument);

  return GTK_WIDGET (self);
}

GtkEditable *
steward_completion_entry_get_editable (StewardCompletionEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_COMPLETION_ENTRY (self), NULL);

  return GTK_EDITABLE (self->entry);
}

const char *
steward_completion_entry_get_argument (StewardCompletionEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_COMPLETION_ENTRY (self), NULL);

  return self->argument;
}

void
steward_completion_entry_set_context (StewardCompletionEntry *self,
                                      JsonObject             *context)
{
  g_return_if_fail (STEWARD_IS_COMPLETION_ENTRY (self));

  g_clear_pointer (&self->context, json_object_unref);
  if (context != NULL)
    self->context = json_object_ref (context);
}

const char * const *
steward_completion_entry_get_suggestions (StewardCompletionEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_COMPLETION_ENTRY (self), NULL);

  return (const char * const *) self->suggestions;
}
