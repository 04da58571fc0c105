/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-consent-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-json.h"

#include "steward-command-text.h"
#include "steward-consent-dialog.h"

/* Beyond this many line pairs the comparison is not worth the wait. */
#define MAX_DIFF_CELLS (4 * 1024 * 1024)

struct _StewardConsentDialog
{
  StewardApprovalDialog parent_instance;

  /* Borrowed from the base, which holds the reference. */
  StewardApproval *approval;

  GtkLabel        *heading_label;
  GtkLabel        *intro_label;
  GtkWidget       *changed_box;
  GtkLabel        *changed_label;
  GtkListBox      *changed_list;
  GtkLabel        *command_heading;
  GtkListBox      *command_list;
  GtkWidget       *permissions_heading;
  GtkListBox      *permissions_list;
  GtkWidget       *permissions_hint;
  GtkWidget       *network_list;
  AdwActionRow    *network_row;
  GtkSwitch       *network_switch;
  GtkWidget       *deny_button;
  GtkWidget       *allow_button;
};

G_DEFINE_FINAL_TYPE (StewardConsentDialog, steward_consent_dialog, STEWARD_TYPE_APPROVAL_DIALOG)

static GtkWidget *
value_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (NULL);

  /* Set as text, never as markup: the command comes from a file. */
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");

  return label;
}

static void
add_command_row (StewardConsentDialog *self,
                 const char           *caption,
                 const char           *value)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *caption_label = gtk_label_new (caption);
  GtkWidget *value_label = value_label_new (value);

  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_label_set_xalign (GTK_LABEL (caption_label), 0);
  gtk_widget_add_css_class (caption_label, "caption");
  gtk_widget_add_css_class (caption_label, "dim-label");
  gtk_box_append (GTK_BOX (box), caption_label);
  gtk_box_append (GTK_BOX (box), value_label);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (value_label),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, caption_label, NULL,
                                  -1);
  /* The keyboard stops on the row too: it says what the value is. */
  gtk_accessible_update_relation (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                  caption_label, value_label, NULL,
                                  -1);
  gtk_list_box_append (self->command_list, row);
}

/* An argument as written, or the JSON of a value that is not a string. */
static char *
dup_element_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));

  return json_to_string (node, FALSE);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* "env" and "headers" carry names only: a list of them, or an object whose
 * member names they are. */
static GPtrArray *
get_names (JsonObject *object,
           const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        g_ptr_array_add (names, dup_element_text (json_array_get_element (array, i)));
    }
  else if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      GList *members = json_object_get_members (json_node_get_object (node));

      for (GList *l = members; l != NULL; l = l->next)
        g_ptr_array_add (names, g_strdup (l->data));
      g_list_free (members);
    }

  g_ptr_array_sort (names, compare_names);

  return names;
}

static gboolean
has_authorization (GPtrArray *headers)
{
  for (guint i = 0; i < headers->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (headers, i), "Authorization") == 0)
      return TRUE;

  return FALSE;
}

static gboolean
is_remote (JsonObject *request)
{
  return mcp_json_get_string (request, "url") != NULL;
}

static char *
join_quoted (GPtrArray *names)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *quoted = steward_command_quote (g_ptr_array_index (names, i));

      if (i > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, quoted);
    }

  return g_string_free (out, FALSE);
}

static void
build_command (StewardConsentDialog *self,
               JsonObject           *request)
{
  if (is_remote (request))
    {
      g_autofree char *url = steward_command_quote (mcp_json_get_string (request, "url"));
      g_autoptr(GPtrArray) headers = get_names (request, "headers");

      add_command_row (self, _("URL"), url);
      if (headers->len > 0)
        {
          g_autofree char *text = join_quoted (headers);

          add_command_row (self, _("Headers (values hidden)"), text);
        }
    }
  else
    {
      g_autofree char *program = steward_command_quote (mcp_json_get_string (request, "command"));
      const char *found = mcp_json_get_string (request, "program");
      JsonNode *args = json_object_get_member (request, "args");
      const char *cwd = mcp_json_get_string (request, "cwd");
      g_autoptr(GPtrArray) env = get_names (request, "env");

      add_command_row (self, _("Program"), program);

      /* The file the command was found as on PATH, when that says more
       * than the command itself. */
      if (found != NULL && g_strcmp0 (found, mcp_json_get_string (request, "command")) != 0)
        {
          g_autofree char *quoted = steward_command_quote (found);

          /* Translators: the caption above the full path of the program that
           * a server's command starts, such as /usr/bin/npx for npx. */
          add_command_row (self, _("Runs"), quoted);
        }

      if (args != NULL && JSON_NODE_HOLDS_ARRAY (args))
        {
          JsonArray *array = json_node_get_array (args);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *arg = dup_element_text (json_array_get_element (array, i));
              g_autofree char *quoted = steward_command_quote (arg);
              /* Translators: the caption of one argument of a command; %u counts from 1. */
              g_autofree char *caption = g_strdup_printf (_("Argument %u"), i + 1);

              add_command_row (self, caption, quoted);
            }
        }

      if (cwd != NULL && cwd[0] != '\0')
        {
          g_autofree char *folder = steward_command_quote (cwd);

          add_command_row (self, _("Working folder"), folder);
        }

      if (env->len > 0)
        {
          g_autofree char *text = join_quoted (env);

          add_command_row (self, _("Environment variables (values hidden)"), text);
        }
    }
}

static void
add_permission_row (StewardConsentDialog *self,
                    const char           *text,
                    gboolean              warning)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_top (label, 9);
  gtk_widget_set_margin_bottom (label, 9);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  if (warning)
    gtk_widget_add_css_class (label, "warning");

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  -1);
  gtk_list_box_append (self->permissions_list, row);
}

/* The network of a sandboxed server, for the person to decide: a switch
 * set as the entry or the command's default has it, with the host's words
 * for why. */
static void
build_network (StewardConsentDialog *self,
               JsonObject           *sandbox)
{
  JsonNode *node = json_object_get_member (sandbox, "network");
  JsonObject *network;
  const char *reason;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  network = json_node_get_object (node);
  gtk_switch_set_active (self->network_switch,
                         json_object_get_boolean_member_with_default (network, "allowed", FALSE));
  reason = mcp_json_get_string (network, "reason");
  adw_action_row_set_subtitle (self->network_row, reason != NULL ? reason : "");
  if (reason != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->network_switch),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, reason,
                                    -1);
  gtk_widget_set_visible (self->network_list, TRUE);
}

/* The permissions' sentences the request lists, borrowed from it, and its
 * sandbox in @sandbox; %NULL where it lists none (a remote server, or
 * one that runs unsandboxed). What is not a string is passed over. */
static GPtrArray *
list_permissions (JsonObject  *request,
                  JsonObject **sandbox)
{
  JsonNode *node = json_object_get_member (request, "sandbox");
  JsonObject *object;
  JsonArray *permissions;
  GPtrArray *sentences;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  node = json_object_get_member (object, "permissions");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  permissions = json_node_get_array (node);
  sentences = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (permissions); i++)
    {
      JsonNode *element = json_array_get_element (permissions, i);

      if (JSON_NODE_HOLDS_VALUE (element) &&
          json_node_get_value_type (element) == G_TYPE_STRING)
        g_ptr_array_add (sentences, (gpointer) json_node_get_string (element));
    }

  if (sandbox != NULL)
    *sandbox = object;
  return sentences;
}

/* The sandbox's permissions, in the host's words (the server's page shows
 * the same sentences), and a warning where the sandbox cannot run. */
static void
build_permissions (StewardConsentDialog *self,
                   JsonObject           *request)
{
  JsonObject *sandbox = NULL;
  g_autoptr(GPtrArray) permissions = list_permissions (request, &sandbox);
  const char *unavailable;

  if (permissions == NULL)
    return;

  build_network (self, sandbox);
  unavailable = mcp_json_get_string (sandbox, "unavailable");
  if (unavailable != NULL)
    {
      g_autofree char *text = g_strdup_printf (
        /* Translators: %s says why the sandbox cannot run. */
        _("%s Until then Steward does not start it: it would run with full access to "
          "your computer."), unavailable);

      add_permission_row (self, text, TRUE);
    }

  for (guint i = 0; i < permissions->len; i++)
    add_permission_row (self, g_ptr_array_index (permissions, i), FALSE);

  gtk_widget_set_visible (self->permissions_heading, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->permissions_list), TRUE);
  gtk_widget_set_visible (self->permissions_hint, TRUE);
}

/* The permissions' sentences as lines for the comparison. */
static void
add_permission_lines (GPtrArray  *lines,
                      JsonObject *request)
{
  g_autoptr(GPtrArray) permissions = list_permissions (request, NULL);

  for (guint i = 0; permissions != NULL && i < permissions->len; i++)
    g_ptr_array_add (lines, g_strdup (g_ptr_array_index (permissions, i)));
}

/* What consent covers, one line per item, for the comparison. */
static GPtrArray *
describe_lines (JsonObject *request)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = NULL;

  if (is_remote (request))
    {
      g_autofree char *url = steward_command_quote (mcp_json_get_string (request, "url"));

      g_ptr_array_add (lines, g_strdup_printf ("%s %s", _("URL:"), url));
      names = get_names (request, "headers");
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *name = steward_command_quote (g_ptr_array_index (names, i));

          g_ptr_array_add (lines, g_strdup_printf ("%s %s", _("Header:"), name));
        }
    }
  else
    {
      g_autofree char *program = steward_command_quote (mcp_json_get_string (request, "command"));
      JsonNode *args = json_object_get_member (request, "args");
      const char *cwd = mcp_json_get_string (request, "cwd");

      g_ptr_array_add (lines, g_strdup_printf ("%s %s", _("Program:"), program));
      if (args != NULL && JSON_NODE_HOLDS_ARRAY (args))
        {
          JsonArray *array = json_node_get_array (args);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *arg = dup_element_text (json_array_get_element (array, i));
              g_autofree char *quoted = steward_command_quote (arg);

              g_ptr_array_add (lines, g_strdup_printf ("%s %s", _("Argument:"), quoted));
            }
        }
      if (cwd != NULL && cwd[0] != '\0')
        {
          g_autofree char *folder = steward_command_quote (cwd);

          g_ptr_array_add (lines, g_strdup_printf ("%s %s", _("Working folder:"), folder));
        }
      names = get_names (request, "env");
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *name = steward_command_quote (g_ptr_array_index (names, i));

          g_ptr_array_add (lines, g_strdup_printf ("%s %s", _("Variable:"), name));
        }
      add_permission_lines (lines, request);
    }

  return lines;
}

static void
add_change_row (StewardConsentDialog *self,
                gboolean              added,
                const char           *line)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  /* The word, not only the colour, says which side a line is on. */
  GtkWidget *kind = gtk_label_new (added ? _("Added") : _("Removed"));
  GtkWidget *value = value_label_new (line);

  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_valign (kind, GTK_ALIGN_START);
  gtk_widget_add_css_class (kind, "heading");
  gtk_widget_add_css_class (kind, added ? "success" : "error");
  gtk_widget_set_hexpand (value, TRUE);
  gtk_box_append (GTK_BOX (box), kind);
  gtk_box_append (GTK_BOX (box), value);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, kind, value, NULL,
                                  -1);
  gtk_list_box_append (self->changed_list, row);
}

/* Lines removed from @before and added in @after, in order, by the longest
 * common subsequence. Returns FALSE when the lists are too long to
 * compare. */
static gboolean
build_diff (StewardConsentDialog *self,
            GPtrArray            *before,
            GPtrArray            *after,
            guint                *n_changes)
{
  guint n = before->len, m = after->len;
  g_autofree guint *lcs = NULL;
  guint i = 0, j = 0;

#define LCS(a, b) lcs[(gsize) (a) * (m + 1) + (b)]
#define SAME(a, b) g_str_equal (g_ptr_array_index (before, a), g_ptr_array_index (after, b))

  *n_changes = 0;
  if ((gsize) (n + 1) * (m + 1) > MAX_DIFF_CELLS)
    return FALSE;

  lcs = g_new0 (guint, (gsize) (n + 1) * (m + 1));
  for (guint a = n; a-- > 0;)
    for (guint b = m; b-- > 0;)
      LCS (a, b) = SAME (a, b) ? LCS (a + 1, b + 1) + 1 : MAX (LCS (a + 1, b), LCS (a, b + 1));

  while (i < n || j < m)
    {
      if (i < n && j < m && SAME (i, j))
        {
          i++;
          j++;
        }
      else if (j >= m || (i < n && LCS (i + 1, j) >= LCS (i, j + 1)))
        {
          add_change_row (self, FALSE, g_ptr_array_index (before, i++));
          (*n_changes)++;
        }
      else
        {
          add_change_row (self, TRUE, g_ptr_array_index (after, j++));
          (*n_changes)++;
        }
    }

#undef SAME
#undef LCS

  return TRUE;
}

static void
build_changes (StewardConsentDialog *self,
               JsonObject           *request)
{
  JsonNode *previous = json_object_get_member (request, "previous");
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  guint n_changes = 0;

  if (!json_object_get_boolean_member_with_default (request, "changed", FALSE))
    return;

  gtk_widget_set_visible (self->changed_box, TRUE);

  if (previous == NULL || !JSON_NODE_HOLDS_OBJECT (previous))
    {
      gtk_label_set_text (self->changed_label,
                          _("The command changed since you allowed it."));
      gtk_widget_set_visible (GTK_WIDGET (self->changed_list), FALSE);
      return;
    }

  before = describe_lines (json_node_get_object (previous));
  after = describe_lines (request);

  if (!build_diff (self, before, after, &n_changes))
    gtk_label_set_text (self->changed_label,
                        _("The command changed since you allowed it, in too many places to "
                          "list. Read it whole below."));
  else if (n_changes == 0)
    gtk_label_set_text (self->changed_label,
                        _("Only values that are not shown changed, such as the value of an "
                          "environment variable or a header."));
  else
    gtk_label_set_text (self->changed_label,
                        _("The command changed since you allowed it:"));

  gtk_widget_set_visible (GTK_WIDGET (self->changed_list), n_changes > 0);
}

static void
allow_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  StewardConsentDialog *self = STEWARD_CONSENT_DIALOG (widget);
  g_autoptr(JsonObject) data = NULL;

  /* The network as the switch stands: the host writes it into the entry
   * when it differs from what the entry gives. */
  if (gtk_widget_get_visible (self->network_list))
    {
      data = json_object_new ();
      json_object_set_boolean_member (data, "network",
                                      gtk_switch_get_active (self->network_switch));
    }

  /* The answer finishes the approval, which closes the dialog. */
  steward_approval_dialog_respond (STEWARD_APPROVAL_DIALOG (self),
                                   STEWARD_APPROVAL_ACTION_ALLOW, data);
}

/* Without a keyring the answer cannot be sealed (steward-consent-store.h):
 * say so before the person answers, not after. */
static void
add_memory_note (StewardConsentDialog *self,
                 JsonObject           *request)
{
  GtkWidget *intro = GTK_WIDGET (self->intro_label);
  GtkWidget *note;

  if (json_object_get_boolean_member_with_default (request, "remembered", TRUE))
    return;

  note = gtk_label_new (_("The keyring is not available, so Steward cannot remember your "
                          "answer: it will ask again the next time it starts."));
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_widget_add_css_class (note, "warning");
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (intro)), note, intro);
}

static void
steward_consent_dialog_constructed (GObject *object)
{
  StewardConsentDialog *self = STEWARD_CONSENT_DIALOG (object);
  JsonObject *request;
  const char *server;
  g_autofree char *heading = NULL;

  G_OBJECT_CLASS (steward_consent_dialog_parent_class)->constructed (object);

  self->approval = steward_approval_dialog_get_approval (STEWARD_APPROVAL_DIALOG (self));
  request = steward_approval_get_request (self->approval);
  server = steward_approval_get_server (self->approval);

  /* Translators: %s is a server's name. */
  heading = g_strdup_printf (_("Start “%s”?"), server);
  gtk_label_set_text (self->heading_label, heading);

  if (is_remote (request))
    {
      g_autoptr(GPtrArray) headers = get_names (request, "headers");
      const char *intro = headers->len > 0
                          ? _("Steward will connect to this server and send it the headers "
                              "named below. Allow it only if you trust the server.")
                          : _("Steward will connect to this server. Allow it only if you "
                              "trust the server.");
      g_autofree char *text = NULL;

      /* Said from the request alone: nothing reaches the server before
       * consent. An Authorization header of the person's own means
       * Steward never signs in there. */
      if (has_authorization (headers))
        text = g_strdup (intro);
      else
        /* Translators: the first %s is the sentence before it, about
         * connecting; the sentence added says what a sign-in would look
         * like. */
        text = g_strdup_printf (_("%s It may ask you to sign in: Steward then shows you at "
                                  "which site before your browser opens."), intro);
      gtk_label_set_text (self->intro_label, text);
      gtk_label_set_text (self->command_heading, _("Server"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->command_list),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Server"),
                                      -1);
    }
  else
    {
      gtk_label_set_text (self->intro_label,
                          _("Steward will run this program on your computer exactly as "
                            "shown, with the permissions listed below. Start it only if "
                            "you trust it."));
    }

  build_command (self, request);
  build_permissions (self, request);
  build_changes (self, request);
  add_memory_note (self, request);
}

/* Enter on the first focus must not start a program by accident. */
static GtkWidget *
steward_consent_dialog_initial_focus (StewardApprovalDialog *dialog)
{
  return STEWARD_CONSENT_DIALOG (dialog)->deny_button;
}

static void
steward_consent_dialog_dispose (GObject *object)
{
  StewardConsentDialog *self = STEWARD_CONSENT_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_CONSENT_DIALOG);
  self->approval = NULL;

  G_OBJECT_CLASS (steward_consent_dialog_parent_class)->dispose (object);
}

static void
steward_consent_dialog_class_init (StewardConsentDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StewardApprovalDialogClass *dialog_class = STEWARD_APPROVAL_DIALOG_CLASS (klass);

  object_class->constructed = steward_consent_dialog_constructed;
  object_class->dispose = steward_consent_dialog_dispose;

  dialog_class->initial_focus = steward_consent_dialog_initial_focus;

  /* Closing answers nothing (no dismiss action): the server keeps
   * waiting, and its row offers to review the command again. */

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-consent-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, changed_box);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, changed_label);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, changed_list);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, command_heading);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, command_list);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, permissions_heading);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, permissions_list);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, permissions_hint);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, network_list);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, network_row);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, network_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, deny_button);
  gtk_widget_class_bind_template_child (widget_class, StewardConsentDialog, allow_button);

  gtk_widget_class_install_action (widget_class, "consent.allow", NULL, allow_action);
  steward_approval_dialog_class_install_answer (dialog_class, "consent.deny",
                                                STEWARD_APPROVAL_ACTION_DENY);
}

static void
steward_consent_dialog_init (StewardConsentDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_consent_dialog_new (StewardApproval *approval)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (approval), NULL);
  g_return_val_if_fail (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT,
                        NULL);

  return g_object_new (STEWARD_TYPE_CONSENT_DIALOG,
                       "approval", approval,
                       NULL);
}
