/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-elicitation-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-json.h"
#include <string.h>

#include "steward-text.h"
#include "steward-url.h"

#include "steward-elicitation-dialog-private.h"
#include "steward-schema-form-private.h"
#include "steward-elicitation-dialog.h"

/* A longer address cannot be shown in full in a dialog, and an address
 * that is not shown in full is not opened. */
#define MAX_URL_BYTES STEWARD_URL_MAX_LENGTH

struct _StewardElicitationDialog
{
  StewardApprovalDialog parent_instance;

  GtkScrolledWindow  *scrolled;
  GtkStack           *stack;
  GtkLabel           *intro_label;
  GtkLabel           *cause_label;
  GtkLabel           *message_label;
  AdwBin             *form_bin;
  GtkLabel           *url_label;
  GtkBox             *warnings_box;
  GtkWidget          *decline_button;
  GtkWidget          *cancel_button;
  GtkWidget          *accept_button;
  GtkWidget          *open_button;
  GtkWidget          *problem_button;
  GtkLabel           *problem_label;

  /* Borrowed from the base, which holds the reference. */
  StewardApproval    *approval;
  StewardSchemaForm  *form;
  char               *url;
  gboolean            url_mode;
  gboolean            known_mode;
  gboolean            can_open;

  StewardShowUriFunc  show_uri;
  gpointer            show_uri_data;
};

G_DEFINE_FINAL_TYPE (StewardElicitationDialog, steward_elicitation_dialog,
                     STEWARD_TYPE_APPROVAL_DIALOG)

static void
add_warning (StewardElicitationDialog *self,
             const char               *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Warning"),
                                  -1);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_add_css_class (box, "warning");

  gtk_box_append (self->warnings_box, box);
  gtk_widget_set_visible (GTK_WIDGET (self->warnings_box), TRUE);
}

static void
steward_elicitation_dialog_update_actions (StewardApprovalDialog *dialog)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (dialog);
  gboolean open = steward_approval_dialog_is_open (dialog);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "elicitation.decline", open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "elicitation.cancel", open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "elicitation.accept",
                                 open && !self->url_mode && self->known_mode &&
                                 self->form != NULL && steward_schema_form_get_valid (self->form));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "elicitation.open",
                                 open && self->url_mode && self->can_open);
}

static void
respond (StewardElicitationDialog *self,
         StewardApprovalAction     action,
         JsonObject               *data)
{
  steward_approval_dialog_respond (STEWARD_APPROVAL_DIALOG (self), action, data);
}

/* Brings the field the form finds wrong into view, with its title above
 * and its message below, so that the reason Accept stays disabled is not
 * left scrolled away. */
static void
scroll_to_problem (StewardElicitationDialog *self,
                   gboolean                  focus)
{
  GtkWidget *control = steward_schema_form_get_problem_widget (self->form);
  GtkWidget *viewport = gtk_scrolled_window_get_child (self->scrolled);
  GtkWidget *content = GTK_IS_VIEWPORT (viewport)
                       ? gtk_viewport_get_child (GTK_VIEWPORT (viewport)) : NULL;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scrolled);
  GtkWidget *field;
  graphene_rect_t bounds;

  if (control == NULL || content == NULL)
    return;

  if (focus && !gtk_widget_grab_focus (control))
    gtk_widget_child_focus (control, GTK_DIR_TAB_FORWARD);

  /* The field's box: its title, the control and the message. */
  field = gtk_widget_get_ancestor (gtk_widget_get_parent (control), GTK_TYPE_BOX);
  if (field == NULL || !gtk_widget_compute_bounds (field, content, &bounds))
    return;

  gtk_adjustment_clamp_page (adjustment, bounds.origin.y,
                             bounds.origin.y + bounds.size.height);
}

static void
problem_changed_cb (StewardElicitationDialog *self)
{
  g_autofree char *problem = steward_schema_form_dup_problem (self->form);

  gtk_label_set_text (self->problem_label, problem != NULL ? problem : "");
  /* A button around a label of its own is not named after it. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->problem_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, problem != NULL ? problem : "",
                                  -1);
  gtk_widget_set_visible (self->problem_button, problem != NULL);
}

static void
valid_changed_cb (StewardElicitationDialog *self)
{
  steward_approval_dialog_update_actions (STEWARD_APPROVAL_DIALOG (self));

  /* A value that just became wrong: show where, unless the person is in
   * that field already. */
  if (!steward_schema_form_get_valid (self->form))
    {
      GtkWidget *control = steward_schema_form_get_problem_widget (self->form);
      GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

      gboolean in_field = focus != NULL &&
                          (focus == control || gtk_widget_is_ancestor (focus, control));

      if (control != NULL && !in_field)
        scroll_to_problem (self, FALSE);
    }
}

static void
problem_clicked_cb (StewardElicitationDialog *self)
{
  scroll_to_problem (self, TRUE);
}

/* Labels that can stand for other letters: IDN (xn--) labels, any
 * character outside ASCII, and escapes that hide which is which. */
static gboolean
host_is_deceptive (const char *host)
{
  g_autofree char *lower = g_ascii_strdown (host, -1);

  if (g_str_has_prefix (lower, "xn--") || strstr (lower, ".xn--") != NULL ||
      strchr (lower, '%') != NULL)
    return TRUE;

  for (const char *p = host; *p != '\0'; p++)
    {
      if ((guchar) *p >= 0x80)
        return TRUE;
    }

  return FALSE;
}

static void
append_escaped (GString    *markup,
                const char *text,
                gssize      length)
{
  g_autofree char *part = length < 0 ? g_strdup (text) : g_strndup (text, length);
  g_autofree char *visible = steward_text_make_visible (part);
  g_autofree char *escaped = g_markup_escape_text (visible, -1);

  g_string_append (markup, escaped);
}

static void
build_url (StewardElicitationDialog *self)
{
  const char *url = self->url;
  g_autoptr(GString) markup = g_string_new (NULL);
  g_autofree char *host = NULL;
  g_autoptr(GError) error = NULL;
  gsize host_start = 0;
  gsize host_end = 0;

  if (url == NULL || *url == '\0')
    {
      gtk_label_set_text (self->url_label, _("The server gave no address."));
      return;
    }

  if (strlen (url) > MAX_URL_BYTES)
    {
      g_autofree char *size = g_format_size (strlen (url));
      /* Translators: %s is a size, such as "12.3 kB". */
      g_autofree char *text = g_strdup_printf (_("The address is too long to show in full (%s), "
                                                 "so Steward does not open it."), size);

      gtk_label_set_text (self->url_label, text);
      return;
    }

  /* Parsed once, by the same rule as every other address; the host in
   * bold is the one a browser opens, at the place it is written. */
  self->can_open = steward_url_check (url, &host_start, &host_end, &error);

  /* Every part is escaped, so nothing in the address is read as markup;
   * only the bold around the host is ours. */
  if (self->can_open)
    {
      append_escaped (markup, url, host_start);
      g_string_append (markup, "<b>");
      append_escaped (markup, url + host_start, host_end - host_start);
      g_string_append (markup, "</b>");
      append_escaped (markup, url + host_end, -1);
      host = g_strndup (url + host_start, host_end - host_start);
    }
  else
    {
      append_escaped (markup, url, -1);
    }
  gtk_label_set_markup (self->url_label, markup->str);

  if (self->can_open && host_is_deceptive (host))
    add_warning (self, _("This address uses characters that can imitate another site’s name. "
                         "Check the name in bold before you open it."));

  if (g_error_matches (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_INSECURE))
    add_warning (self, _("This address is not encrypted (http), so others on the network "
                         "could read or change the page. Steward opens only https addresses, "
                         "and http addresses on this computer."));
  else if (error != NULL)
    add_warning (self, error->message);
}

/* E12 of the checklist: servers must not ask for secrets through a form,
 * so a field that looks like one gets a warning. */
static gboolean
schema_asks_for_secret (JsonObject *schema)
{
  static const char *const words[] = {
    "password", "passwd", "passphrase", "secret", "token", "api key", "apikey", "api_key",
    "api-key", "credential", "private key",
  };
  JsonNode *node = schema != NULL ? json_object_get_member (schema, "properties") : NULL;
  JsonObject *fields;
  JsonObjectIter iter;
  const char *name;
  JsonNode *field;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  fields = json_node_get_object (node);
  json_object_iter_init (&iter, fields);
  while (json_object_iter_next (&iter, &name, &field))
    {
      const char *title = JSON_NODE_HOLDS_OBJECT (field)
                          ? mcp_json_get_string (json_node_get_object (field), "title") : NULL;
      g_autofree char *lower_name = g_utf8_strdown (name, -1);
      g_autofree char *lower_title = g_utf8_strdown (title != NULL ? title : "", -1);

      for (guint i = 0; i < G_N_ELEMENTS (words); i++)
        {
          if (strstr (lower_name, words[i]) != NULL || strstr (lower_title, words[i]) != NULL)
            return TRUE;
        }
    }

  return FALSE;
}

static void
build (StewardElicitationDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  const char *mode = mcp_json_get_string (request, "mode");
  const char *message = mcp_json_get_string (request, "message");
  g_autofree char *server = steward_approval_dialog_dup_server_name (STEWARD_APPROVAL_DIALOG (self));
  g_autofree char *visible_message = steward_text_for_display (message != NULL ? message : "");
  g_autofree char *task_line = steward_approval_dialog_dup_task_line (STEWARD_APPROVAL_DIALOG (self));
  g_autofree char *title = NULL;
  g_autofree char *intro = NULL;

  self->url_mode = g_strcmp0 (mode, "url") == 0;
  self->known_mode = mode == NULL || self->url_mode || g_str_equal (mode, "form");

  /* Translators: the window title; %s is the server's name. */
  title = g_strdup_printf (_("Request from “%s”"), server);
  gtk_window_set_title (GTK_WINDOW (self), title);

  if (self->url_mode)
    intro = g_strdup_printf (_("“%s” asks you to open a web page in your browser."), server);
  else
    intro = g_strdup_printf (_("“%s” asks you for information."), server);
  gtk_label_set_text (self->intro_label, intro);

  if (task_line != NULL)
    gtk_label_set_text (self->cause_label, task_line);
  gtk_widget_set_visible (GTK_WIDGET (self->cause_label), task_line != NULL);

  gtk_label_set_text (self->message_label, visible_message);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), *visible_message != '\0');

  gtk_widget_set_visible (self->accept_button, !self->url_mode);
  gtk_widget_set_visible (self->open_button, self->url_mode);

  if (self->url_mode)
    {
      gtk_stack_set_visible_child_name (self->stack, "url");
      self->url = g_strdup (mcp_json_get_string (request, "url"));
      build_url (self);
      /* Enter never opens a page. After a warning, opening is not the
       * suggested answer either: the button stays, plain. */
      if (gtk_widget_get_visible (GTK_WIDGET (self->warnings_box)) || !self->can_open)
        gtk_widget_remove_css_class (self->open_button, "suggested-action");
    }
  else if (self->known_mode)
    {
      JsonNode *node = request != NULL ? json_object_get_member (request, "requestedSchema") : NULL;
      JsonObject *schema = NULL;

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        schema = json_node_get_object (node);

      gtk_stack_set_visible_child_name (self->stack, "form");
      self->form = STEWARD_SCHEMA_FORM (steward_schema_form_new (schema));
      adw_bin_set_child (self->form_bin, GTK_WIDGET (self->form));
      /* With nothing to fill in, the message and the buttons say it all. */
      gtk_widget_set_visible (GTK_WIDGET (self->form_bin),
                              steward_schema_form_get_n_fields (self->form) > 0);
      g_signal_connect_object (self->form, "notify::valid",
                               G_CALLBACK (valid_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->form, "notify::problem",
                               G_CALLBACK (problem_changed_cb), self, G_CONNECT_SWAPPED);
      problem_changed_cb (self);

      if (schema_asks_for_secret (schema))
        {
          /* Translators: %s is the server's name. */
          g_autofree char *text = NULL;

          text = g_strdup_printf (_("“%s” asks for something that looks like a password or a "
                                    "key. Servers must not ask for secrets this way; enter it "
                                    "only if you trust this server."), server);

          add_warning (self, text);
        }

      gtk_window_set_default_widget (GTK_WINDOW (self), self->accept_button);
    }
  else
    {
      g_autofree char *visible_mode = steward_text_make_visible_capped (mode, 256, NULL);
      /* Translators: %s is the kind of request the server named. */
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("Steward does not know requests of the kind “%s”; you can only "
                                "decline it."), visible_mode);

      gtk_stack_set_visible_child_name (self->stack, "form");
      add_warning (self, text);
    }
}

static void
accept_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (widget);
  g_autoptr(JsonObject) values = NULL;

  if (self->form == NULL || !steward_schema_form_validate (self->form))
    return;

  values = steward_schema_form_dup_values (self->form);
  respond (self, STEWARD_APPROVAL_ACTION_ACCEPT, values);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (widget);

  if (!self->can_open)
    return;

  /* Accepting a URL request means the person agreed to open it; it is
   * opened first, then the server hears of it. */
  self->show_uri (GTK_WINDOW (self), self->url, self->show_uri_data);
  respond (self, STEWARD_APPROVAL_ACTION_ACCEPT, NULL);
}

static void
steward_elicitation_dialog_constructed (GObject *object)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (object);

  G_OBJECT_CLASS (steward_elicitation_dialog_parent_class)->constructed (object);

  self->approval = steward_approval_dialog_get_approval (STEWARD_APPROVAL_DIALOG (self));
  g_return_if_fail (self->approval != NULL);

  build (self);

  steward_approval_dialog_update_actions (STEWARD_APPROVAL_DIALOG (self));
}

/* The person begins in the first field of the form. A page to open starts
 * on Cancel, which is what closing does: neither Enter nor Space opens a
 * page the person has not looked at. */
static GtkWidget *
steward_elicitation_dialog_initial_focus (StewardApprovalDialog *dialog)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (dialog);

  if (self->url_mode)
    return self->cancel_button;

  if (self->form != NULL && gtk_widget_child_focus (GTK_WIDGET (self->form), GTK_DIR_TAB_FORWARD))
    return gtk_window_get_focus (GTK_WINDOW (self));

  return NULL;
}

static void
steward_elicitation_dialog_dispose (GObject *object)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (object);

  self->form = NULL;
  self->approval = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_ELICITATION_DIALOG);

  G_OBJECT_CLASS (steward_elicitation_dialog_parent_class)->dispose (object);
}

static void
steward_elicitation_dialog_finalize (GObject *object)
{
  StewardElicitationDialog *self = STEWARD_ELICITATION_DIALOG (object);

  g_free (self->url);

  G_OBJECT_CLASS (steward_elicitation_dialog_parent_class)->finalize (object);
}

static void
steward_elicitation_dialog_class_init (StewardElicitationDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StewardApprovalDialogClass *dialog_class = STEWARD_APPROVAL_DIALOG_CLASS (klass);

  object_class->constructed = steward_elicitation_dialog_constructed;
  object_class->dispose = steward_elicitation_dialog_dispose;
  object_class->finalize = steward_elicitation_dialog_finalize;

  dialog_class->update_actions = steward_elicitation_dialog_update_actions;
  dialog_class->initial_focus = steward_elicitation_dialog_initial_focus;

  /* Dismissed is "cancel" in the protocol's words. */
  steward_approval_dialog_class_set_dismiss_action (dialog_class,
                                                    STEWARD_APPROVAL_ACTION_CANCEL);

  steward_approval_dialog_class_install_answer (dialog_class, "elicitation.decline",
                                                STEWARD_APPROVAL_ACTION_DECLINE);
  steward_approval_dialog_class_install_answer (dialog_class, "elicitation.cancel",
                                                STEWARD_APPROVAL_ACTION_CANCEL);
  gtk_widget_class_install_action (widget_class, "elicitation.accept", NULL, accept_action);
  gtk_widget_class_install_action (widget_class, "elicitation.open", NULL, open_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-elicitation-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, scrolled);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, cause_label);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, message_label);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, form_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, url_label);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, decline_button);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, accept_button);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, open_button);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, problem_button);
  gtk_widget_class_bind_template_child (widget_class, StewardElicitationDialog, problem_label);
  gtk_widget_class_bind_template_callback (widget_class, problem_clicked_cb);
}

static void
steward_elicitation_dialog_init (StewardElicitationDialog *self)
{
  self->show_uri = steward_show_uri_default;

  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * steward_elicitation_dialog_new:
 * @approval: an approval of kind %STEWARD_APPROVAL_KIND_ELICITATION
 *
 * Returns: (transfer none): a new dialog; set it transient for the window
 *   it belongs to and present it
 */
GtkWidget *
steward_elicitation_dialog_new (StewardApproval *approval)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (approval), NULL);
  g_return_val_if_fail (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_ELICITATION,
                        NULL);

  return g_object_new (STEWARD_TYPE_ELICITATION_DIALOG,
                       "approval", approval,
                       NULL);
}

void
steward_elicitation_dialog_set_show_uri_func (StewardElicitationDialog *self,
                                              StewardShowUriFunc        func,
                                              gpointer                  user_data)
{
  g_return_if_fail (STEWARD_IS_ELICITATION_DIALOG (self));

  self->show_uri = func != NULL ? func : steward_show_uri_default;
  self->show_uri_data = func != NULL ? user_data : NULL;
}

const char *
steward_elicitation_dialog_get_mode (StewardElicitationDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  return self->url_mode ? "url" : "form";
}

StewardSchemaForm *
steward_elicitation_dialog_get_form (StewardElicitationDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  return self->form;
}

GtkLabel *
steward_elicitation_dialog_get_cause_label (StewardElicitationDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  return self->cause_label;
}

GtkLabel *
steward_elicitation_dialog_get_message_label (StewardElicitationDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  return self->message_label;
}

GtkLabel *
steward_elicitation_dialog_get_url_label (StewardElicitationDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  return self->url_label;
}

char *
steward_elicitation_dialog_dup_warnings (StewardElicitationDialog *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->warnings_box)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *label = gtk_widget_get_last_child (row);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, gtk_label_get_text (GTK_LABEL (label)));
    }

  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

GtkWidget *
steward_elicitation_dialog_get_button (StewardElicitationDialog *self,
                                       const char               *name)
{
  g_return_val_if_fail (STEWARD_IS_ELICITATION_DIALOG (self), NULL);

  if (g_strcmp0 (name, "decline") == 0)
    return self->decline_button;
  if (g_strcmp0 (name, "cancel") == 0)
    return self->cancel_button;
  if (g_strcmp0 (name, "accept") == 0)
    return self->accept_button;
  if (g_strcmp0 (name, "open") == 0)
    return self->open_button;
  if (g_strcmp0 (name, "problem") == 0)
    return self->problem_button;

  return NULL;
}
