/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-approval-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-json.h"

#include "mcp-tool.h"
#include "steward-json-copy.h"
#include "steward-json-text.h"
#include "steward-text.h"

#include "steward-schema-form-private.h"
#include "steward-tool-diff.h"
#include "steward-tool-approval-dialog-private.h"
#include "steward-tool-approval-dialog.h"

struct _StewardToolApprovalDialog
{
  StewardApprovalDialog parent_instance;

  GtkLabel          *intro_label;
  GtkLabel          *title_label;
  GtkLabel          *name_label;
  GtkLabel          *description_label;
  GtkBox            *badges_box;
  GtkWidget         *annotations_label;
  GtkWidget         *diff_box;
  GtkLabel          *diff_label;
  GtkTextView       *diff_view;
  GtkStack          *arguments_stack;
  AdwBin            *form_bin;
  GtkTextView       *json_view;
  GtkLabel          *json_error_label;
  GtkCheckButton    *always_check;
  GtkCheckButton    *server_check;
  GtkWidget         *always_warning;
  GtkWidget         *deny_button;
  GtkWidget         *allow_button;

  /* Borrowed from the base, which holds the reference. */
  StewardApproval   *approval;
  StewardToolPins   *pins;
  McpTool           *tool;
  StewardSchemaForm *form;
  gboolean           risky;
  gboolean           show_diff;
};

enum {
  PROP_0,
  PROP_PINS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardToolApprovalDialog, steward_tool_approval_dialog,
                     STEWARD_TYPE_APPROVAL_DIALOG)

static JsonObject *
get_request (StewardToolApprovalDialog *self)
{
  return steward_approval_get_request (self->approval);
}

static JsonObject *
get_arguments (StewardToolApprovalDialog *self)
{
  return mcp_json_get_object (get_request (self), "arguments");
}

static void
steward_tool_approval_dialog_update_actions (StewardApprovalDialog *dialog)
{
  StewardToolApprovalDialog *self = STEWARD_TOOL_APPROVAL_DIALOG (dialog);
  gboolean open = steward_approval_dialog_is_open (dialog);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool-approval.deny", open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool-approval.allow",
                                 open && (self->form == NULL ||
                                          steward_schema_form_get_valid (self->form)));
}

static void
respond (StewardToolApprovalDialog *self,
         StewardApprovalAction      action,
         JsonObject                *data)
{
  steward_approval_dialog_respond (STEWARD_APPROVAL_DIALOG (self), action, data);
}

static void
add_badge (StewardToolApprovalDialog *self,
           const char                *text,
           const char                *style,
           const char                *explanation)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, style);
  gtk_widget_set_tooltip_text (label, explanation);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, explanation,
                                  -1);
  gtk_box_append (self->badges_box, label);
}

static void
build_badges (StewardToolApprovalDialog *self)
{
  JsonObject *annotations = mcp_json_get_object (get_request (self), "annotations");
  gboolean read_only, destructive, open_world, idempotent;

  if (annotations == NULL)
    annotations = mcp_json_get_object (mcp_json_get_object (get_request (self), "definition"),
                                 "annotations");

  /* The spec's defaults assume the worst of a tool that says nothing. */
  read_only = mcp_json_get_boolean (annotations, "readOnlyHint", FALSE);
  destructive = !read_only && mcp_json_get_boolean (annotations, "destructiveHint", TRUE);
  idempotent = !read_only && mcp_json_get_boolean (annotations, "idempotentHint", FALSE);
  open_world = mcp_json_get_boolean (annotations, "openWorldHint", TRUE);

  if (read_only)
    add_badge (self, _("Read-only"), "success",
               _("The server says this tool does not change anything."));
  if (destructive)
    add_badge (self, _("Destructive"), "error",
               _("This tool can change or delete things."));
  else if (!read_only)
    add_badge (self, _("Changes things"), "warning",
               _("This tool can change things, but the server says it does not delete "
                 "anything."));
  if (idempotent)
    add_badge (self, _("Repeatable"), "dim-label",
               _("Running it again with the same arguments changes nothing more."));
  if (open_world)
    add_badge (self, _("Open world"), "warning",
               _("This tool can reach things outside this computer, such as the web."));

  gtk_widget_set_visible (self->annotations_label, annotations == NULL);
  self->risky = destructive || open_world;
}

static void
build_diff (StewardToolApprovalDialog *self,
            const char                *pin_state,
            const char                *server,
            const char                *tool_name)
{
  JsonObject *definition = mcp_json_get_object (get_request (self), "definition");
  g_autofree char *pinned = NULL;
  g_autofree char *current = NULL;

  if (g_strcmp0 (pin_state, "changed") != 0 && g_strcmp0 (pin_state, "new") != 0)
    return;

  self->show_diff = TRUE;

  if (self->pins != NULL && g_str_equal (pin_state, "changed"))
    pinned = steward_tool_pins_dup_pinned (self->pins, server, tool_name);

  if (self->tool != NULL)
    {
      current = steward_tool_pretty_json (self->tool);
    }
  else if (definition != NULL)
    {
      current = steward_json_object_to_text (definition);
    }

  steward_tool_diff_fill (gtk_text_view_get_buffer (self->diff_view), pinned,
                          current != NULL ? current : "", NULL, NULL);

  gtk_label_set_text (self->diff_label,
                      g_str_equal (pin_state, "new")
                      ? _("This tool is new on a server whose tools you approved before. Read "
                          "its definition before you approve it.")
                      : _("The server changed this tool since you approved it. Read what "
                          "changed before you approve it."));
  gtk_widget_set_visible (self->diff_box, TRUE);
  gtk_button_set_label (GTK_BUTTON (self->allow_button), _("_Approve New Definition"));
}

/* json_node_copy() shares objects and arrays; the schema is changed
 * below, and the request's own must stay as the server sent it. */
/* The tool's input schema with the model's arguments as defaults, and no
 * other defaults, so that the form starts as exactly what the model
 * asked for. */
static JsonObject *
schema_with_arguments (JsonObject *schema,
                       JsonObject *arguments)
{
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), schema);
  g_autoptr(JsonNode) copy = steward_json_copy (root);
  JsonObject *result = json_node_get_object (copy);
  JsonObject *fields = mcp_json_get_object (result, "properties");
  JsonObjectIter iter;
  const char *name;
  JsonNode *field;

  if (fields == NULL)
    return json_object_ref (result);

  json_object_iter_init (&iter, fields);
  while (json_object_iter_next (&iter, &name, &field))
    {
      JsonObject *field_schema;

      if (!JSON_NODE_HOLDS_OBJECT (field))
        continue;

      field_schema = json_node_get_object (field);
      if (arguments != NULL && json_object_has_member (arguments, name))
        {
          JsonNode *argument = json_object_get_member (arguments, name);

          json_object_set_member (field_schema, "default",
                                  steward_json_copy (argument));
        }
      else if (json_object_has_member (field_schema, "default"))
        json_object_remove_member (field_schema, "default");
    }

  return json_object_ref (result);
}

static gboolean
objects_equal (JsonObject *a,
               JsonObject *b)
{
  g_autoptr(JsonNode) node_a = json_node_init_object (json_node_alloc (), a);
  g_autoptr(JsonNode) node_b = json_node_init_object (json_node_alloc (), b);

  return json_node_equal (node_a, node_b);
}

/* A form when the schema describes the arguments well enough that the
 * form gives back exactly what the model sent; JSON otherwise, so that
 * nothing is lost or added on the way. */
static gboolean
try_form (StewardToolApprovalDialog *self,
          JsonObject                *arguments)
{
  JsonObject *schema = mcp_json_get_object (mcp_json_get_object (get_request (self), "definition"),
                                      "inputSchema");
  JsonObject *fields = mcp_json_get_object (schema, "properties");
  g_autoptr(JsonObject) prefilled = NULL;
  g_autoptr(JsonObject) values = NULL;
  GtkWidget *form;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (schema == NULL || (fields == NULL && json_object_get_size (arguments) > 0))
    return FALSE;

  json_object_iter_init (&iter, arguments);
  while (json_object_iter_next (&iter, &name, &value))
    {
      if (fields == NULL || mcp_json_get_object (fields, name) == NULL)
        return FALSE;
    }

  prefilled = schema_with_arguments (schema, arguments);
  form = g_object_ref_sink (steward_schema_form_new (prefilled));
  values = steward_schema_form_dup_values (STEWARD_SCHEMA_FORM (form));
  if (!objects_equal (values, arguments))
    {
      g_object_unref (form);
      return FALSE;
    }

  /* Owned here, as it answers for the values even when it is not shown. */
  self->form = STEWARD_SCHEMA_FORM (form);
  g_signal_connect_object (self->form, "notify::valid",
                           G_CALLBACK (steward_approval_dialog_update_actions), self,
                           G_CONNECT_SWAPPED);
  gtk_stack_set_visible_child_name (self->arguments_stack, "form");

  if (steward_schema_form_get_n_fields (self->form) > 0)
    {
      adw_bin_set_child (self->form_bin, form);
    }
  else
    {
      GtkWidget *label = gtk_label_new (_("This call has no arguments."));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      adw_bin_set_child (self->form_bin, label);
    }

  return TRUE;
}

static void
build_arguments (StewardToolApprovalDialog *self)
{
  JsonObject *arguments = get_arguments (self);
  g_autoptr(JsonObject) empty = NULL;
  g_autofree char *json = NULL;

  if (arguments == NULL)
    arguments = empty = json_object_new ();

  if (try_form (self, arguments))
    return;

  json = steward_json_object_to_text (arguments);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->json_view), json, -1);
  gtk_stack_set_visible_child_name (self->arguments_stack, "json");
}

static void
always_toggled_cb (StewardToolApprovalDialog *self)
{
  gtk_widget_set_visible (self->always_warning,
                          self->risky && gtk_check_button_get_active (self->always_check));
}

static void
build (StewardToolApprovalDialog *self)
{
  JsonObject *request = get_request (self);
  JsonObject *definition = mcp_json_get_object (request, "definition");
  const char *server = steward_approval_get_server (self->approval);
  const char *tool_name = mcp_json_get_string (request, "tool");
  const char *title = mcp_json_get_string (definition, "title");
  const char *description = mcp_json_get_string (definition, "description");
  const char *view_label = mcp_json_get_string (request, "view");
  g_autofree char *visible_server = NULL;
  g_autofree char *visible_tool = NULL;
  g_autofree char *intro = NULL;
  g_autofree char *name = NULL;
  g_autofree char *server_label = NULL;

  if (server == NULL)
    server = mcp_json_get_string (request, "server");
  if (tool_name == NULL)
    tool_name = mcp_json_get_string (definition, "name");
  if (title == NULL)
    title = mcp_json_get_string (mcp_json_get_object (definition, "annotations"), "title");

  if (definition != NULL)
    self->tool = mcp_tool_new (definition, NULL);

  visible_server = steward_text_make_visible_capped (server != NULL ? server : "", 256, NULL);
  visible_tool = steward_text_make_visible_capped (tool_name != NULL ? tool_name : "", 256, NULL);

  if (view_label != NULL)
    {
      /* A view of an MCP App asks, not the model: say which, since the
       * page is the server's code and the person should know its voice. */
      g_autofree char *visible_view = steward_text_make_visible_capped (view_label, 256, NULL);

      /* Translators: the first %s is a view's label (such as "view of get-time"),
       * the second a server's name. */
      intro = g_strdup_printf (_("The view “%s” of %s asks to run a tool."),
                               visible_view, visible_server);
    }
  else
    {
      /* Translators: %s is a server's name. */
      intro = g_strdup_printf (_("A model in your chat asks to run a tool of “%s”."),
                               visible_server);
    }
  gtk_label_set_text (self->intro_label, intro);

  if (title != NULL && *title != '\0')
    {
      g_autofree char *visible_title = steward_text_make_visible_capped (title, 1024, NULL);

      gtk_label_set_text (self->title_label, visible_title);
    }
  else
    {
      gtk_label_set_text (self->title_label, visible_tool);
    }

  /* Translators: a server's name and one of its tools' names. */
  name = g_strdup_printf (_("%s / %s"), visible_server, visible_tool);
  gtk_label_set_text (self->name_label, name);

  if (description != NULL && *description != '\0')
    {
      g_autofree char *visible = steward_text_for_display (description);

      gtk_label_set_text (self->description_label, visible);
    }
  else
    {
      gtk_label_set_text (self->description_label, _("The server gives no description."));
      gtk_widget_add_css_class (GTK_WIDGET (self->description_label), "dim-label");
    }

  build_badges (self);
  build_diff (self, mcp_json_get_string (request, "pinState"), server, tool_name);
  build_arguments (self);

  /* Translators: %s is a server's name. A server's standing "allow"
   * never covers its destructive or open-world tools: those still ask. */
  server_label = g_strdup_printf (_("Allow all tools of “%s” _without asking, except "
                                    "destructive or open-world ones"), visible_server);
  gtk_check_button_set_label (self->server_check, server_label);
  gtk_widget_set_visible (GTK_WIDGET (self->always_check), self->pins != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->server_check), self->pins != NULL);
  gtk_window_set_default_widget (GTK_WINDOW (self), self->allow_button);
}

static JsonObject *
read_json_arguments (StewardToolApprovalDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->json_view);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  node = json_from_string (text, &error);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *message = NULL;

      if (error != NULL)
        /* Translators: %s says what is wrong with the JSON text. */
        message = g_strdup_printf (_("The arguments are not valid JSON: %s"), error->message);
      else
        message = g_strdup (_("The arguments must be a JSON object, in braces."));

      gtk_label_set_text (self->json_error_label, message);
      gtk_widget_set_visible (GTK_WIDGET (self->json_error_label), TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (self->json_view));
      return NULL;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->json_error_label), FALSE);
  return json_object_ref (json_node_get_object (node));
}

static void
allow_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  StewardToolApprovalDialog *self = STEWARD_TOOL_APPROVAL_DIALOG (widget);
  const char *server = steward_approval_get_server (self->approval);
  g_autoptr(JsonObject) arguments = NULL;

  if (self->form != NULL)
    {
      if (!steward_schema_form_validate (self->form))
        return;
      arguments = steward_schema_form_dup_values (self->form);
    }
  else
    {
      arguments = read_json_arguments (self);
      if (arguments == NULL)
        return;
    }

  /* What the person read is what gets pinned: the definition shown here.
   * The policy goes first, so that the next call already finds it. */
  if (self->pins != NULL && self->tool != NULL)
    {
      const char *tool_name = mcp_item_get_name (MCP_ITEM (self->tool));

      steward_tool_pins_approve (self->pins, server, self->tool);
      if (gtk_check_button_get_active (self->always_check))
        steward_tool_pins_set_tool_policy (self->pins, server, tool_name,
                                           STEWARD_TOOL_POLICY_ALLOW);
    }

  if (self->pins != NULL && gtk_check_button_get_active (self->server_check))
    steward_tool_pins_set_server_policy (self->pins, server, STEWARD_TOOL_POLICY_ALLOW);

  respond (self, STEWARD_APPROVAL_ACTION_ALLOW, arguments);
}

static void
steward_tool_approval_dialog_constructed (GObject *object)
{
  StewardToolApprovalDialog *self = STEWARD_TOOL_APPROVAL_DIALOG (object);

  G_OBJECT_CLASS (steward_tool_approval_dialog_parent_class)->constructed (object);

  self->approval = steward_approval_dialog_get_approval (STEWARD_APPROVAL_DIALOG (self));
  g_return_if_fail (self->approval != NULL);

  build (self);

  g_signal_connect_object (self->always_check, "toggled",
                           G_CALLBACK (always_toggled_cb), self, G_CONNECT_SWAPPED);

  steward_approval_dialog_update_actions (STEWARD_APPROVAL_DIALOG (self));
}

static void
steward_tool_approval_dialog_dispose (GObject *object)
{
  StewardToolApprovalDialog *self = STEWARD_TOOL_APPROVAL_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_TOOL_APPROVAL_DIALOG);

  g_clear_object (&self->form);
  g_clear_object (&self->tool);
  g_clear_object (&self->pins);
  self->approval = NULL;

  G_OBJECT_CLASS (steward_tool_approval_dialog_parent_class)->dispose (object);
}

static void
steward_tool_approval_dialog_get_property (GObject    *object,
                                           guint       prop_id,
                                           GValue     *value,
                                           GParamSpec *pspec)
{
  StewardToolApprovalDialog *self = STEWARD_TOOL_APPROVAL_DIALOG (object);

  switch (prop_id)
    {
    case PROP_PINS:
      g_value_set_object (value, self->pins);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_approval_dialog_set_property (GObject      *object,
                                           guint         prop_id,
                                           const GValue *value,
                                           GParamSpec   *pspec)
{
  StewardToolApprovalDialog *self = STEWARD_TOOL_APPROVAL_DIALOG (object);

  switch (prop_id)
    {
    case PROP_PINS:
      g_set_object (&self->pins, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_approval_dialog_class_init (StewardToolApprovalDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StewardApprovalDialogClass *dialog_class = STEWARD_APPROVAL_DIALOG_CLASS (klass);

  object_class->constructed = steward_tool_approval_dialog_constructed;
  object_class->dispose = steward_tool_approval_dialog_dispose;
  object_class->get_property = steward_tool_approval_dialog_get_property;
  object_class->set_property = steward_tool_approval_dialog_set_property;

  dialog_class->update_actions = steward_tool_approval_dialog_update_actions;

  /* Closing without an answer is a no: the tool does not run. */
  steward_approval_dialog_class_set_dismiss_action (dialog_class, STEWARD_APPROVAL_ACTION_DENY);

  properties[PROP_PINS] =
    g_param_spec_object ("pins", NULL, NULL,
                         STEWARD_TYPE_TOOL_PINS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  steward_approval_dialog_class_install_answer (dialog_class, "tool-approval.deny",
                                                STEWARD_APPROVAL_ACTION_DENY);
  gtk_widget_class_install_action (widget_class, "tool-approval.allow", NULL, allow_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-tool-approval-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, title_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, name_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog,
                                        description_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, badges_box);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog,
                                        annotations_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, diff_box);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, diff_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, diff_view);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog,
                                        arguments_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, form_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, json_view);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog,
                                        json_error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, always_check);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, server_check);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, always_warning);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, deny_button);
  gtk_widget_class_bind_template_child (widget_class, StewardToolApprovalDialog, allow_button);
}

static void
steward_tool_approval_dialog_init (StewardToolApprovalDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * steward_tool_approval_dialog_new:
 * @approval: an approval of kind %STEWARD_APPROVAL_KIND_TOOL_CALL
 * @pins: (nullable): where approved definitions and policies are kept
 *
 * Returns: (transfer none): a new dialog; set it transient for the window
 *   it belongs to and present it
 */
GtkWidget *
steward_tool_approval_dialog_new (StewardApproval *approval,
                                  StewardToolPins *pins)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (approval), NULL);
  g_return_val_if_fail (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_TOOL_CALL,
                        NULL);
  g_return_val_if_fail (pins == NULL || STEWARD_IS_TOOL_PINS (pins), NULL);

  return g_object_new (STEWARD_TYPE_TOOL_APPROVAL_DIALOG,
                       "approval", approval,
                       "pins", pins,
                       NULL);
}

StewardSchemaForm *
steward_tool_approval_dialog_get_form (StewardToolApprovalDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_APPROVAL_DIALOG (self), NULL);

  return self->form;
}

GtkTextView *
steward_tool_approval_dialog_get_json_view (StewardToolApprovalDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_APPROVAL_DIALOG (self), NULL);

  return self->form == NULL ? self->json_view : NULL;
}

GtkTextBuffer *
steward_tool_approval_dialog_get_diff_buffer (StewardToolApprovalDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_APPROVAL_DIALOG (self), NULL);

  return self->show_diff ? gtk_text_view_get_buffer (self->diff_view) : NULL;
}

char *
steward_tool_approval_dialog_dup_badges (StewardToolApprovalDialog *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (STEWARD_IS_TOOL_APPROVAL_DIALOG (self), NULL);

  for (GtkWidget *badge = gtk_widget_get_first_child (GTK_WIDGET (self->badges_box));
       badge != NULL;
       badge = gtk_widget_get_next_sibling (badge))
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, gtk_label_get_text (GTK_LABEL (badge)));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

GtkWidget *
steward_tool_approval_dialog_get_button (StewardToolApprovalDialog *self,
                                         const char                *name)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_APPROVAL_DIALOG (self), NULL);

  if (g_strcmp0 (name, "deny") == 0)
    return self->deny_button;
  if (g_strcmp0 (name, "allow") == 0)
    return self->allow_button;
  if (g_strcmp0 (name, "always") == 0)
    return GTK_WIDGET (self->always_check);
  if (g_strcmp0 (name, "server") == 0)
    return GTK_WIDGET (self->server_check);

  return NULL;
}
