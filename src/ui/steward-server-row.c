/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-row"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-server-row.h"

struct _StewardServerRow
{
  GtkListBoxRow  parent_instance;

  StewardServer *server;
  GMenu         *menu;

  GtkImage      *status_icon;
  GtkLabel      *name_label;
  GtkLabel      *status_label;
  GtkButton     *review_button;
  GtkMenuButton *menu_button;
  /* Requests of this server waiting for the person, made in code. */
  GtkWidget     *waiting_button;
  StewardApprovals *approvals;
};

enum {
  PROP_0,
  PROP_SERVER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardServerRow, steward_server_row, GTK_TYPE_LIST_BOX_ROW)

static const char *
status_icon_name (StewardServerStatus status)
{
  switch (status)
    {
    case STEWARD_SERVER_STATUS_READY:
      return "emblem-ok-symbolic";
    case STEWARD_SERVER_STATUS_STARTING:
    case STEWARD_SERVER_STATUS_RESTARTING:
      return "emblem-synchronizing-symbolic";
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
      return "dialog-question-symbolic";
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      return "dialog-password-symbolic";
    case STEWARD_SERVER_STATUS_FAILED:
      return "dialog-error-symbolic";
    case STEWARD_SERVER_STATUS_DISCONNECTED:
      return "network-offline-symbolic";
    case STEWARD_SERVER_STATUS_DISABLED:
      return "action-unavailable-symbolic";
    case STEWARD_SERVER_STATUS_STOPPED:
    default:
      return "media-playback-stop-symbolic";
    }
}

static const char *
status_style (StewardServerStatus status)
{
  switch (status)
    {
    case STEWARD_SERVER_STATUS_READY:
      return "success";
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
    case STEWARD_SERVER_STATUS_RESTARTING:
    case STEWARD_SERVER_STATUS_DISCONNECTED:
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      return "warning";
    case STEWARD_SERVER_STATUS_FAILED:
      return "error";
    default:
      return NULL;
    }
}

static void
append_item (GMenu      *section,
             const char *label,
             const char *action,
             const char *name)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_string (name));
  g_menu_append_item (section, item);
}

static void
rebuild_menu (StewardServerRow *self)
{
  StewardServerStatus status = steward_server_get_status (self->server);
  const char *name = steward_server_get_name (self->server);
  g_autoptr(GMenu) run = g_menu_new ();
  g_autoptr(GMenu) manage = g_menu_new ();
  g_autoptr(GMenu) remove = g_menu_new ();

  switch (status)
    {
    case STEWARD_SERVER_STATUS_STARTING:
    case STEWARD_SERVER_STATUS_READY:
    case STEWARD_SERVER_STATUS_RESTARTING:
    case STEWARD_SERVER_STATUS_DISCONNECTED:
      append_item (run, _("Stop"), "win.server-stop", name);
      append_item (run, _("Restart"), "win.server-restart", name);
      break;
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
      append_item (run, _("Review Command…"), "win.server-review", name);
      break;
    case STEWARD_SERVER_STATUS_STOPPED:
    case STEWARD_SERVER_STATUS_FAILED:
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      append_item (run, _("Start"), "win.server-start", name);
      break;
    case STEWARD_SERVER_STATUS_DISABLED:
    default:
      break;
    }

  if (steward_server_get_enabled (self->server))
    append_item (manage, _("Disable"), "win.server-disable", name);
  else
    append_item (manage, _("Enable"), "win.server-enable", name);
  append_item (manage, _("Edit…"), "win.server-edit", name);
  append_item (manage, _("Show Log"), "win.server-log", name);

  append_item (remove, _("Remove…"), "win.server-remove", name);

  g_menu_remove_all (self->menu);
  if (g_menu_model_get_n_items (G_MENU_MODEL (run)) > 0)
    g_menu_append_section (self->menu, NULL, G_MENU_MODEL (run));
  g_menu_append_section (self->menu, NULL, G_MENU_MODEL (manage));
  g_menu_append_section (self->menu, NULL, G_MENU_MODEL (remove));
}

static void
update (StewardServerRow *self)
{
  static const char * const styles[] = { "success", "warning", "error" };
  StewardServerStatus status = steward_server_get_status (self->server);
  const char *name = steward_server_get_name (self->server);
  const char *status_text = steward_server_get_status_text (self->server);
  const char *style = status_style (status);
  g_autofree char *accessible = NULL;
  g_autofree char *menu_label = NULL;
  g_autofree char *review_label = NULL;

  if (status_text == NULL || status_text[0] == '\0')
    status_text = steward_server_status_to_string (status);

  gtk_label_set_text (self->name_label, name);
  gtk_label_set_text (self->status_label, status_text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), status_text);

  gtk_image_set_from_icon_name (self->status_icon, status_icon_name (status));
  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_icon), styles[i]);
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_icon), style);

  gtk_widget_set_visible (GTK_WIDGET (self->review_button),
                          status == STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->review_button),
                                          g_variant_new_string (name));

  /* Translators: how a screen reader names a server in the sidebar: the
   * server's name, then its status ("files, Ready · 2025-11-25"). */
  accessible = g_strdup_printf (_("%s, %s"), name, status_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);

  /* Translators: the name of a button that opens a server's menu. */
  menu_label = g_strdup_printf (_("Actions for “%s”"), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, menu_label,
                                  -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->menu_button), menu_label);

  /* Translators: the name of a button that shows the command a server
   * would run, to allow or refuse starting it. */
  review_label = g_strdup_printf (_("Review the command of “%s”"), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->review_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, review_label,
                                  -1);

  rebuild_menu (self);
}

static void
create_popup_cb (GtkMenuButton *button,
                 gpointer       user_data)
{
  StewardServerRow *self = user_data;

  /* Once a model is set, GTK no longer calls this. */
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (self->menu));
}

static void
popup_menu (StewardServerRow *self)
{
  gtk_menu_button_popup (self->menu_button);
}

static void
secondary_pressed_cb (StewardServerRow *self,
                      int               n_press,
                      double            x,
                      double            y,
                      GtkGestureClick  *gesture)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  popup_menu (self);
}

static void
popup_menu_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  popup_menu (STEWARD_SERVER_ROW (widget));
}

static void
steward_server_row_constructed (GObject *object)
{
  StewardServerRow *self = STEWARD_SERVER_ROW (object);

  G_OBJECT_CLASS (steward_server_row_parent_class)->constructed (object);

  g_signal_connect_object (self->server, "notify::status",
                           G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::status-text",
                           G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::enabled",
                           G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::name",
                           G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);
}

static void
steward_server_row_dispose (GObject *object)
{
  StewardServerRow *self = STEWARD_SERVER_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SERVER_ROW);
  g_clear_object (&self->approvals);
  g_clear_object (&self->server);
  g_clear_object (&self->menu);

  G_OBJECT_CLASS (steward_server_row_parent_class)->dispose (object);
}

static void
steward_server_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StewardServerRow *self = STEWARD_SERVER_ROW (object);

  switch (prop_id)
    {
    case PROP_SERVER:
      g_value_set_object (value, self->server);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  StewardServerRow *self = STEWARD_SERVER_ROW (object);

  switch (prop_id)
    {
    case PROP_SERVER:
      self->server = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_row_class_init (StewardServerRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_server_row_constructed;
  object_class->dispose = steward_server_row_dispose;
  object_class->get_property = steward_server_row_get_property;
  object_class->set_property = steward_server_row_set_property;

  properties[PROP_SERVER] =
    g_param_spec_object ("server", NULL, NULL,
                         STEWARD_TYPE_SERVER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-server-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardServerRow, status_icon);
  gtk_widget_class_bind_template_child (widget_class, StewardServerRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, StewardServerRow, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardServerRow, review_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerRow, menu_button);

  gtk_widget_class_install_action (widget_class, "row.popup-menu", NULL, popup_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "row.popup-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0,
                                       "row.popup-menu", NULL);
}

static void
steward_server_row_init (StewardServerRow *self)
{
  GtkGesture *gesture;

  gtk_widget_init_template (GTK_WIDGET (self));

  /* The popover is built when the menu is first opened: a popover menu
   * and its item widgets for every row, rebuilt on each change of status,
   * were most of what a server cost the app's memory, for a menu that is
   * seldom opened. */
  self->menu = g_menu_new ();
  gtk_menu_button_set_create_popup_func (self->menu_button, create_popup_cb, self, NULL);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (gesture, "pressed",
                           G_CALLBACK (secondary_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
steward_server_row_new (StewardServer *server)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);

  return g_object_new (STEWARD_TYPE_SERVER_ROW,
                       "server", server,
                       NULL);
}

StewardServer *
steward_server_row_get_server (StewardServerRow *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_ROW (self), NULL);

  return self->server;
}

GMenuModel *
steward_server_row_get_menu (StewardServerRow *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_ROW (self), NULL);

  return G_MENU_MODEL (self->menu);
}

/* Waiting requests */

static void
update_waiting (StewardServerRow *self)
{
  const char *name = steward_server_get_name (self->server);
  GListModel *approvals = G_LIST_MODEL (self->approvals);
  g_autofree char *label = NULL;
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      /* Consent has its own button above. */
      if (!steward_approval_get_finished (approval) &&
          steward_approval_get_kind (approval) != STEWARD_APPROVAL_KIND_CONSENT &&
          g_strcmp0 (steward_approval_get_server (approval), name) == 0)
        n++;
    }

  gtk_widget_set_visible (self->waiting_button, n > 0);
  if (n == 0)
    return;

  /* Translators: a button on a server's row in the sidebar. */
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Request Waiting",
                                        "%u Requests Waiting", n), n);
  gtk_button_set_label (GTK_BUTTON (self->waiting_button), label);
}

void
steward_server_row_watch_approvals (StewardServerRow *self,
                                    StewardApprovals *approvals)
{
  GtkWidget *parent;

  g_return_if_fail (STEWARD_IS_SERVER_ROW (self));
  g_return_if_fail (STEWARD_IS_APPROVALS (approvals));
  g_return_if_fail (self->approvals == NULL);

  self->approvals = g_object_ref (approvals);
  self->waiting_button = gtk_button_new ();
  gtk_widget_set_halign (self->waiting_button, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->waiting_button, 6);
  gtk_widget_add_css_class (self->waiting_button, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->waiting_button), "win.show-approvals");
  gtk_widget_set_visible (self->waiting_button, FALSE);

  parent = gtk_widget_get_parent (GTK_WIDGET (self->review_button));
  gtk_box_insert_child_after (GTK_BOX (parent), self->waiting_button,
                              GTK_WIDGET (self->review_button));

  g_signal_connect_object (approvals, "items-changed", G_CALLBACK (update_waiting), self,
                           G_CONNECT_SWAPPED);
  update_waiting (self);
}
