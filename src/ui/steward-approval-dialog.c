/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-approval-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-text.h"

#include "steward-approval-dialog.h"

/* Longer names are cut in headers; the server page shows them whole. */
#define MAX_SERVER_NAME 256

typedef struct
{
  StewardApproval *approval;
  gboolean         answered;
} StewardApprovalDialogPrivate;

enum {
  PROP_0,
  PROP_APPROVAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (StewardApprovalDialog, steward_approval_dialog, ADW_TYPE_WINDOW)

/* Each class's answers without data: action name → StewardApprovalAction. */
static GQuark
answers_quark (void)
{
  return g_quark_from_static_string ("steward-approval-dialog-answers");
}

void
steward_approval_dialog_update_actions (StewardApprovalDialog *self)
{
  StewardApprovalDialogClass *klass;

  g_return_if_fail (STEWARD_IS_APPROVAL_DIALOG (self));

  klass = STEWARD_APPROVAL_DIALOG_GET_CLASS (self);
  if (klass->update_actions != NULL)
    klass->update_actions (self);
}

static void
finished_cb (StewardApprovalDialog *self)
{
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  if (!steward_approval_get_finished (priv->approval))
    return;

  steward_approval_dialog_update_actions (self);
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
steward_approval_dialog_close_request (GtkWindow *window)
{
  StewardApprovalDialog *self = STEWARD_APPROVAL_DIALOG (window);
  StewardApprovalDialogClass *klass = STEWARD_APPROVAL_DIALOG_GET_CLASS (self);

  /* Answered once: after an answer, or when the approval finished
   * elsewhere, closing says nothing more. */
  if (klass->dismiss_action >= 0 && steward_approval_dialog_is_open (self))
    steward_approval_dialog_respond (self, klass->dismiss_action, NULL);

  return GTK_WINDOW_CLASS (steward_approval_dialog_parent_class)->close_request (window);
}

/* GtkWindow gives the first focus to the first widget that takes it once
 * the window is mapped, unless one has it already; a selectable label
 * would then open with its whole text selected. */
static void
steward_approval_dialog_map (GtkWidget *widget)
{
  StewardApprovalDialog *self = STEWARD_APPROVAL_DIALOG (widget);
  StewardApprovalDialogClass *klass = STEWARD_APPROVAL_DIALOG_GET_CLASS (self);
  GtkWindow *window = GTK_WINDOW (self);
  GtkWidget *focus = NULL;

  GTK_WIDGET_CLASS (steward_approval_dialog_parent_class)->map (widget);

  if (gtk_window_get_focus (window) != NULL)
    return;

  if (klass->initial_focus != NULL)
    focus = klass->initial_focus (self);
  if (focus == NULL)
    focus = gtk_window_get_default_widget (window);

  if (focus != NULL && gtk_widget_grab_focus (focus))
    return;

  /* A disabled default button cannot take focus: the first widget that
   * can, with any text it selected on focus deselected. */
  gtk_widget_child_focus (widget, GTK_DIR_TAB_FORWARD);
  focus = gtk_window_get_focus (window);
  if (GTK_IS_LABEL (focus))
    gtk_label_select_region (GTK_LABEL (focus), 0, 0);
}

static void
steward_approval_dialog_constructed (GObject *object)
{
  StewardApprovalDialog *self = STEWARD_APPROVAL_DIALOG (object);
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  G_OBJECT_CLASS (steward_approval_dialog_parent_class)->constructed (object);

  g_return_if_fail (priv->approval != NULL);

  g_signal_connect_object (priv->approval, "notify::finished",
                           G_CALLBACK (finished_cb), self, G_CONNECT_SWAPPED);
}

static void
steward_approval_dialog_dispose (GObject *object)
{
  StewardApprovalDialog *self = STEWARD_APPROVAL_DIALOG (object);
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  g_clear_object (&priv->approval);

  G_OBJECT_CLASS (steward_approval_dialog_parent_class)->dispose (object);
}

static void
steward_approval_dialog_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  StewardApprovalDialog *self = STEWARD_APPROVAL_DIALOG (object);
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_APPROVAL:
      g_value_set_object (value, priv->approval);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_approval_dialog_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  StewardApprovalDialog *self = STEWARD_APPROVAL_DIALOG (object);
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_APPROVAL:
      g_set_object (&priv->approval, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_approval_dialog_class_init (StewardApprovalDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = steward_approval_dialog_constructed;
  object_class->dispose = steward_approval_dialog_dispose;
  object_class->get_property = steward_approval_dialog_get_property;
  object_class->set_property = steward_approval_dialog_set_property;

  widget_class->map = steward_approval_dialog_map;

  window_class->close_request = steward_approval_dialog_close_request;

  klass->dismiss_action = -1;

  /**
   * StewardApprovalDialog:approval:
   *
   * The approval the dialog presents and answers.
   */
  properties[PROP_APPROVAL] =
    g_param_spec_object ("approval", NULL, NULL,
                         STEWARD_TYPE_APPROVAL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Escape is closing, and closing is the class's dismiss action. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_approval_dialog_init (StewardApprovalDialog *self)
{
}

StewardApproval *
steward_approval_dialog_get_approval (StewardApprovalDialog *self)
{
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  g_return_val_if_fail (STEWARD_IS_APPROVAL_DIALOG (self), NULL);

  return priv->approval;
}

gboolean
steward_approval_dialog_is_open (StewardApprovalDialog *self)
{
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);

  g_return_val_if_fail (STEWARD_IS_APPROVAL_DIALOG (self), FALSE);

  return !priv->answered && priv->approval != NULL &&
         !steward_approval_get_finished (priv->approval);
}

void
steward_approval_dialog_respond (StewardApprovalDialog *self,
                                 StewardApprovalAction  action,
                                 JsonObject            *data)
{
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);
  g_autoptr(StewardApprovalDialog) hold = NULL;

  g_return_if_fail (STEWARD_IS_APPROVAL_DIALOG (self));

  if (!steward_approval_dialog_is_open (self))
    return;

  /* The answer closes the window, which may drop the last reference
   * before the approval is done with it. */
  hold = g_object_ref (self);

  if (steward_approval_action_is_final (action))
    priv->answered = TRUE;

  steward_approval_dialog_update_actions (self);
  steward_approval_respond (priv->approval, action, data);
}

char *
steward_approval_dialog_dup_server_name (StewardApprovalDialog *self)
{
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);
  const char *name;

  g_return_val_if_fail (STEWARD_IS_APPROVAL_DIALOG (self), NULL);

  name = priv->approval != NULL ? steward_approval_get_server (priv->approval) : NULL;

  return steward_text_make_visible_capped (name != NULL ? name : "", MAX_SERVER_NAME, NULL);
}

char *
steward_approval_dialog_dup_task_line (StewardApprovalDialog *self)
{
  StewardApprovalDialogPrivate *priv = steward_approval_dialog_get_instance_private (self);
  const char *tool;
  GDateTime *started;
  g_autofree char *visible = NULL;
  g_autofree char *time = NULL;

  g_return_val_if_fail (STEWARD_IS_APPROVAL_DIALOG (self), NULL);

  if (priv->approval == NULL || steward_approval_get_task_id (priv->approval) == NULL)
    return NULL;

  /* The tool's name is the server's word: shown, never read as markup,
   * with hidden characters made visible. */
  tool = steward_approval_get_task_tool (priv->approval);
  started = steward_approval_get_task_started (priv->approval);
  visible = steward_text_make_visible_capped (tool != NULL ? tool
                                                           : steward_approval_get_task_id (priv->approval),
                                              MAX_SERVER_NAME, NULL);
  /* Translators: a time of day in the task line, as in "10:02". */
  time = g_date_time_format (started, _("%H:%M"));

  /* Translators: says which running task asks; the first %s is the tool
   * the task runs, the second when it started ("10:02"). */
  return g_strdup_printf (_("For the task “%s”, started %s"), visible, time);
}

void
steward_approval_dialog_class_set_dismiss_action (StewardApprovalDialogClass *klass,
                                                  StewardApprovalAction       action)
{
  g_return_if_fail (STEWARD_IS_APPROVAL_DIALOG_CLASS (klass));

  klass->dismiss_action = action;
}


static void
answer_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  GHashTable *answers = g_type_get_qdata (G_OBJECT_TYPE (widget), answers_quark ());
  gpointer action;

  if (answers != NULL && g_hash_table_lookup_extended (answers, action_name, NULL, &action))
    steward_approval_dialog_respond (STEWARD_APPROVAL_DIALOG (widget),
                                     GPOINTER_TO_INT (action), NULL);
}

void
steward_approval_dialog_class_install_answer (StewardApprovalDialogClass *klass,
                                              const char                 *action_name,
                                              StewardApprovalAction       action)
{
  GType type;
  GHashTable *answers;

  g_return_if_fail (STEWARD_IS_APPROVAL_DIALOG_CLASS (klass));
  g_return_if_fail (action_name != NULL);

  /* Classes are never freed, and neither is their table. */
  type = G_TYPE_FROM_CLASS (klass);
  answers = g_type_get_qdata (type, answers_quark ());
  if (answers == NULL)
    {
      answers = g_hash_table_new (g_str_hash, g_str_equal);
      g_type_set_qdata (type, answers_quark (), answers);
    }

  g_hash_table_insert (answers, (gpointer) action_name, GINT_TO_POINTER (action));
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), action_name, NULL, answer_action);
}
