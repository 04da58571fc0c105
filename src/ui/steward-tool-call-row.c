/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-call-row"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-content.h"
#include "steward-json-text.h"
#include "steward-text.h"

#include "steward-app-call-view.h"
#include "steward-application.h"
#include "steward-content-view.h"
#include "steward-elicitation-dialog.h"
#include "steward-overdue-prompt.h"
#include "steward-sampling-dialog.h"
#include "steward-tool-approval-dialog.h"
#include "steward-tool-call-row.h"
#include "steward-view-message-dialog.h"

/* A result with more blocks than this shows the first ones and says how
 * many are left out; the model still got them all. */
#define MAX_RESULT_BLOCKS 100

struct _StewardToolCallRow
{
  AdwBin           parent_instance;

  GtkToggleButton *header_button;
  GtkStack        *state_stack;
  GtkImage        *state_icon;
  GtkSpinner      *spinner;
  GtkLabel        *name_label;
  GtkLabel        *state_label;
  GtkImage        *arrow;
  GtkWidget       *approval_bar;
  GtkRevealer     *revealer;
  AdwBin          *app_bin;
  GtkLabel        *arguments_label;
  GtkWidget       *result_title;
  GtkBox          *result_box;
  GtkLabel        *error_label;
  GtkWidget       *approvals_title;
  GtkListBox      *approvals_list;

  StewardToolCall *call;
  StewardOverduePrompt *overdue;  /* the call's question past its timeout */
  gboolean         details_built;
};

enum {
  PROP_0,
  PROP_CALL,
  PROP_EXPANDED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardToolCallRow, steward_tool_call_row, ADW_TYPE_BIN)

static const char *
state_text (StewardToolCallState state)
{
  switch (state)
    {
    case STEWARD_TOOL_CALL_WAITING:
      return _("Waiting for approval");
    case STEWARD_TOOL_CALL_RUNNING:
      return _("Running…");
    case STEWARD_TOOL_CALL_DONE:
      return _("Done");
    case STEWARD_TOOL_CALL_FAILED:
      return _("Failed");
    case STEWARD_TOOL_CALL_DENIED:
      return _("Declined");
    default:
      return "";
    }
}

static const char *
state_icon_name (StewardToolCallState state)
{
  switch (state)
    {
    case STEWARD_TOOL_CALL_WAITING:
      return "dialog-question-symbolic";
    case STEWARD_TOOL_CALL_DONE:
      return "object-select-symbolic";
    case STEWARD_TOOL_CALL_FAILED:
      return "dialog-error-symbolic";
    case STEWARD_TOOL_CALL_DENIED:
      return "action-unavailable-symbolic";
    case STEWARD_TOOL_CALL_RUNNING:
    default:
      return "content-loading-symbolic";
    }
}

/* Opens an approval's dialog: through the application, which keeps one
 * dialog per approval, or on its own where there is none (tests). */
static void
present_approval (GtkWidget       *widget,
                  StewardApproval *approval)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkApplication *app = GTK_IS_WINDOW (root) ? gtk_window_get_application (GTK_WINDOW (root))
                                             : NULL;
  GtkWidget *dialog = NULL;

  if (STEWARD_IS_APPLICATION (app))
    {
      steward_application_present_approval (STEWARD_APPLICATION (app), approval);
      return;
    }

  switch (steward_approval_get_kind (approval))
    {
    case STEWARD_APPROVAL_KIND_TOOL_CALL:
      dialog = steward_tool_approval_dialog_new (approval, NULL);
      break;
    case STEWARD_APPROVAL_KIND_SAMPLING:
      dialog = steward_sampling_dialog_new (approval);
      break;
    case STEWARD_APPROVAL_KIND_ELICITATION:
      dialog = steward_elicitation_dialog_new (approval);
      break;
    case STEWARD_APPROVAL_KIND_CONSENT:
    default:
      return;
    }

  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (root));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
update_arguments (StewardToolCallRow *self)
{
  JsonObject *arguments = steward_tool_call_get_arguments (self->call);
  g_autofree char *json = NULL;
  g_autofree char *visible = NULL;

  if (arguments == NULL)
    {
      gtk_label_set_text (self->arguments_label, _("None"));
      return;
    }

  json = steward_json_object_to_text (arguments);
  visible = steward_text_for_display (json);
  gtk_label_set_text (self->arguments_label, visible);
}

static void
update_result (StewardToolCallRow *self)
{
  JsonArray *result = steward_tool_call_get_result (self->call);
  const char *error = steward_tool_call_get_error (self->call);
  GtkWidget *child;
  guint length;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->result_box))) != NULL)
    gtk_box_remove (self->result_box, child);

  length = result != NULL ? json_array_get_length (result) : 0;
  gtk_widget_set_visible (self->result_title, result != NULL);
  if (result != NULL)
    gtk_label_set_text (GTK_LABEL (self->result_title),
                        steward_tool_call_get_is_error (self->call)
                        ? _("Result (the tool reported an error)") : _("Result"));

  for (guint i = 0; i < MIN (length, MAX_RESULT_BLOCKS); i++)
    {
      JsonNode *node = json_array_get_element (result, i);
      g_autoptr(McpContent) content = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      content = mcp_content_new (json_node_get_object (node));
      gtk_box_append (self->result_box, steward_content_view_new (content));
    }

  if (length > MAX_RESULT_BLOCKS)
    {
      g_autofree char *text = NULL;
      GtkWidget *label;

      /* Translators: %u is a number of content blocks left out. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more block is not shown.",
                                           "%u more blocks are not shown.",
                                           length - MAX_RESULT_BLOCKS),
                              length - MAX_RESULT_BLOCKS);
      label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->result_box, label);
    }

  if (error != NULL && *error != '\0')
    {
      g_autofree char *visible = steward_text_for_display (error);

      gtk_label_set_text (self->error_label, visible);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL && *error != '\0');
}

static void
update_approval_row (AdwActionRow *row)
{
  StewardApproval *approval = g_object_get_data (G_OBJECT (row), "approval");
  GtkWidget *button = g_object_get_data (G_OBJECT (row), "open-button");
  gboolean finished = steward_approval_get_finished (approval);
  const char *outcome;

  if (!finished)
    outcome = steward_approval_get_stage (approval) == STEWARD_APPROVAL_STAGE_RESPONSE
              ? _("Waiting for you to review the answer") : _("Waiting for you");
  else if (steward_approval_get_withdrawn (approval))
    outcome = _("Withdrawn");
  else
    outcome = _("Answered");

  adw_action_row_set_subtitle (row, outcome);
  gtk_widget_set_visible (button, !finished);
}

static void
open_approval_clicked_cb (GtkButton *button,
                          gpointer   user_data)
{
  AdwActionRow *row = user_data;

  present_approval (GTK_WIDGET (row), g_object_get_data (G_OBJECT (row), "approval"));
}

static GtkWidget *
create_approval_row_cb (gpointer item,
                        gpointer user_data)
{
  StewardApproval *approval = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Open"));
  const char *title;

  switch (steward_approval_get_kind (approval))
    {
    case STEWARD_APPROVAL_KIND_SAMPLING:
      title = _("The server asked to use your model");
      break;
    case STEWARD_APPROVAL_KIND_ELICITATION:
      title = _("The server asked you a question");
      break;
    case STEWARD_APPROVAL_KIND_TOOL_CALL:
      title = _("A tool call asked for approval");
      break;
    case STEWARD_APPROVAL_KIND_CONSENT:
    default:
      title = _("A server asked to start");
      break;
    }

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

  g_object_set_data_full (G_OBJECT (row), "approval", g_object_ref (approval), g_object_unref);
  g_object_set_data (G_OBJECT (row), "open-button", button);
  g_signal_connect (button, "clicked", G_CALLBACK (open_approval_clicked_cb), row);
  g_signal_connect_object (approval, "notify::finished", G_CALLBACK (update_approval_row),
                           row, G_CONNECT_SWAPPED);
  g_signal_connect_object (approval, "notify::stage", G_CALLBACK (update_approval_row),
                           row, G_CONNECT_SWAPPED);
  update_approval_row (ADW_ACTION_ROW (row));

  return row;
}

static void
update_approvals_visibility (StewardToolCallRow *self)
{
  GListModel *approvals = steward_tool_call_get_approvals (self->call);
  gboolean any = g_list_model_get_n_items (approvals) > 0;

  gtk_widget_set_visible (self->approvals_title, any);
  gtk_widget_set_visible (GTK_WIDGET (self->approvals_list), any);
}

static void
build_details (StewardToolCallRow *self)
{
  if (self->details_built)
    return;

  self->details_built = TRUE;
  update_arguments (self);
  update_result (self);
  gtk_list_box_bind_model (self->approvals_list, steward_tool_call_get_approvals (self->call),
                           create_approval_row_cb, NULL, NULL);
  update_approvals_visibility (self);
}

/* What the row says of the call: while it runs, the server's own words
 * (a task's status message) and how much is done, when it says. */
static char *
running_text (StewardToolCall *call)
{
  StewardToolCallState state = steward_tool_call_get_state (call);
  const char *status = steward_tool_call_get_status (call);
  double fraction = steward_tool_call_get_fraction (call);
  g_autofree char *visible = NULL;

  if (state != STEWARD_TOOL_CALL_RUNNING || (status == NULL && fraction < 0))
    return g_strdup (state_text (state));

  if (status == NULL)
    /* Translators: a running tool call; %d is the percentage done. */
    return g_strdup_printf (_("Running, %d %% done"), (int) (fraction * 100));

  visible = steward_text_make_visible_capped (status, 200, NULL);
  if (fraction < 0)
    return g_steal_pointer (&visible);
  /* Translators: a running tool call: the server's status message, and
   * the percentage done. */
  return g_strdup_printf (_("%s (%d %%)"), visible, (int) (fraction * 100));
}

/* The call ran past its timeout: the question is put at once, over this
 * window, and goes when it is answered or the call ends. */
static void
update_overdue (StewardToolCallRow *self)
{
  StewardOverdue *question = steward_tool_call_get_overdue (self->call);

  g_clear_object (&self->overdue);
  if (question != NULL && steward_overdue_get_open (question))
    self->overdue = steward_overdue_prompt_new (GTK_WIDGET (self), question);
}

static void
update_state (StewardToolCallRow *self)
{
  StewardToolCallState state = steward_tool_call_get_state (self->call);
  const char *server = steward_tool_call_get_server (self->call);
  const char *tool = steward_tool_call_get_tool (self->call);
  g_autofree char *visible_server = steward_text_make_visible_capped (server ? server : "", 256,
                                                                      NULL);
  g_autofree char *visible_tool = steward_text_make_visible_capped (tool ? tool : "", 256, NULL);
  g_autofree char *name = NULL;
  g_autofree char *accessible = NULL;
  gboolean running = state == STEWARD_TOOL_CALL_RUNNING;
  g_autofree char *shown = running_text (self->call);

  /* Translators: a server's name and one of its tools' names. */
  name = g_strdup_printf (_("%s / %s"), visible_server, visible_tool);
  gtk_label_set_text (self->name_label, name);
  gtk_label_set_text (self->state_label, shown);
  gtk_image_set_from_icon_name (self->state_icon, state_icon_name (state));
  gtk_stack_set_visible_child_name (self->state_stack, running ? "spinner" : "icon");
  gtk_spinner_set_spinning (self->spinner, running);

  /* Translators: how a screen reader names a tool call: the tool, then
   * its state, such as "files / read_file, Done". */
  accessible = g_strdup_printf (_("Tool call %s, %s"), name, shown);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->header_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);

  gtk_widget_set_visible (self->approval_bar,
                          state == STEWARD_TOOL_CALL_WAITING &&
                          steward_tool_call_get_approval (self->call) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool-call.review",
                                 steward_tool_call_get_approval (self->call) != NULL);
}

static void
details_changed_cb (StewardToolCallRow *self)
{
  if (!self->details_built)
    return;

  update_arguments (self);
  update_result (self);
}

static void
approvals_changed_cb (StewardToolCallRow *self,
                      guint               position,
                      guint               removed,
                      guint               added,
                      GListModel         *approvals)
{
  /* A request from the server that waits for the person is shown at
   * once, where it belongs. */
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (!steward_approval_get_finished (approval))
        steward_tool_call_row_set_expanded (self, TRUE);
    }

  if (self->details_built)
    update_approvals_visibility (self);
}

/* The call's view asked to send a message: the person decides. */
static void
view_message_cb (StewardToolCallRow *self,
                 JsonArray          *content)
{
  steward_view_message_dialog_present (GTK_WIDGET (self), self->call, content);
}

static void
header_toggled_cb (StewardToolCallRow *self)
{
  gboolean expanded = gtk_toggle_button_get_active (self->header_button);

  if (expanded)
    build_details (self);

  gtk_revealer_set_reveal_child (self->revealer, expanded);
  gtk_image_set_from_icon_name (self->arrow, expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->header_button),
                               GTK_ACCESSIBLE_STATE_EXPANDED, expanded,
                               -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

static void
review_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardToolCallRow *self = STEWARD_TOOL_CALL_ROW (widget);
  StewardApproval *approval = steward_tool_call_get_approval (self->call);

  if (approval != NULL && !steward_approval_get_finished (approval))
    present_approval (widget, approval);
}

static void
steward_tool_call_row_constructed (GObject *object)
{
  StewardToolCallRow *self = STEWARD_TOOL_CALL_ROW (object);

  G_OBJECT_CLASS (steward_tool_call_row_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_TOOL_CALL (self->call));

  g_signal_connect_object (self->call, "notify::state", G_CALLBACK (update_state),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::approval", G_CALLBACK (update_state),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::status", G_CALLBACK (update_state),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::fraction", G_CALLBACK (update_state),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::overdue", G_CALLBACK (update_overdue),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::arguments", G_CALLBACK (details_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::result", G_CALLBACK (details_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "notify::error", G_CALLBACK (details_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->call, "view-message", G_CALLBACK (view_message_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (steward_tool_call_get_approvals (self->call), "items-changed",
                           G_CALLBACK (approvals_changed_cb), self, G_CONNECT_SWAPPED);

  adw_bin_set_child (self->app_bin, steward_app_call_view_new (self->call));
  update_state (self);
  update_overdue (self);
  approvals_changed_cb (self, 0, 0,
                        g_list_model_get_n_items (steward_tool_call_get_approvals (self->call)),
                        steward_tool_call_get_approvals (self->call));
}

static void
steward_tool_call_row_dispose (GObject *object)
{
  StewardToolCallRow *self = STEWARD_TOOL_CALL_ROW (object);

  if (self->approvals_list != NULL)
    gtk_list_box_bind_model (self->approvals_list, NULL, NULL, NULL, NULL);

  g_clear_object (&self->overdue);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_TOOL_CALL_ROW);
  g_clear_object (&self->call);

  G_OBJECT_CLASS (steward_tool_call_row_parent_class)->dispose (object);
}

static void
steward_tool_call_row_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardToolCallRow *self = STEWARD_TOOL_CALL_ROW (object);

  switch (prop_id)
    {
    case PROP_CALL:
      g_value_set_object (value, self->call);
      break;
    case PROP_EXPANDED:
      g_value_set_boolean (value, steward_tool_call_row_get_expanded (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_call_row_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  StewardToolCallRow *self = STEWARD_TOOL_CALL_ROW (object);

  switch (prop_id)
    {
    case PROP_CALL:
      g_set_object (&self->call, g_value_get_object (value));
      break;
    case PROP_EXPANDED:
      steward_tool_call_row_set_expanded (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_call_row_class_init (StewardToolCallRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_tool_call_row_constructed;
  object_class->dispose = steward_tool_call_row_dispose;
  object_class->get_property = steward_tool_call_row_get_property;
  object_class->set_property = steward_tool_call_row_set_property;

  properties[PROP_CALL] =
    g_param_spec_object ("call", NULL, NULL,
                         STEWARD_TYPE_TOOL_CALL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_EXPANDED] =
    g_param_spec_boolean ("expanded", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "tool-call.review", NULL, review_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-tool-call-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, header_button);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, state_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, state_icon);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, state_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, arrow);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, approval_bar);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, revealer);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, arguments_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, result_title);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, result_box);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, app_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, approvals_title);
  gtk_widget_class_bind_template_child (widget_class, StewardToolCallRow, approvals_list);
  gtk_widget_class_bind_template_callback (widget_class, header_toggled_cb);
}

static void
steward_tool_call_row_init (StewardToolCallRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_tool_call_row_new (StewardToolCall *call)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (call), NULL);

  return g_object_new (STEWARD_TYPE_TOOL_CALL_ROW,
                       "call", call,
                       NULL);
}

StewardToolCall *
steward_tool_call_row_get_call (StewardToolCallRow *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL_ROW (self), NULL);

  return self->call;
}

gboolean
steward_tool_call_row_get_expanded (StewardToolCallRow *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL_ROW (self), FALSE);

  return gtk_toggle_button_get_active (self->header_button);
}

void
steward_tool_call_row_set_expanded (StewardToolCallRow *self,
                                    gboolean            expanded)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL_ROW (self));

  /* The toggle button notifies through header_toggled_cb. */
  gtk_toggle_button_set_active (self->header_button, expanded);
}
