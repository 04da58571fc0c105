/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-import-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-command-text.h"
#include "steward-config-import.h"
#include "steward-file-chooser.h"
#include "steward-hyphenation.h"
#include "steward-import-dialog.h"

struct _StewardImportDialog
{
  AdwWindow             parent_instance;

  StewardHost          *host;
  GCancellable         *cancellable;
  GListModel           *candidates;
  GCancellable         *file_chooser;
  gboolean              importing;

  GtkWidget            *window_title;
  GtkWidget            *import_button;
  GtkStack             *stack;
  AdwActionRow         *claude_row;
  AdwActionRow         *vscode_row;
  GtkLabel             *choose_error;
  GtkLabel             *source_label;
  GtkWidget            *secrets_group;
  GtkSwitch            *move_switch;
  GtkListBox           *candidate_list;
  GtkLabel             *list_error;
};

enum {
  PROP_0,
  PROP_HOST,
  N_PROPS
};

enum {
  IMPORTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardImportDialog, steward_import_dialog, ADW_TYPE_WINDOW)

static void
set_error (GtkLabel   *label,
           const char *message)
{
  gtk_label_set_text (label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
}

static guint
count_selected (StewardImportDialog *self)
{
  guint n_selected = 0;
  guint n_items;

  if (self->candidates == NULL)
    return 0;

  n_items = g_list_model_get_n_items (self->candidates);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(StewardImportCandidate) candidate = g_list_model_get_item (self->candidates, i);

      if (steward_import_candidate_get_selected (candidate) &&
          steward_import_candidate_get_problem (candidate) == NULL)
        n_selected++;
    }

  return n_selected;
}

static void
update_import_action (StewardImportDialog *self)
{
  gboolean listing = g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "list") == 0;
  guint n_selected = count_selected (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.apply",
                                 listing && !self->importing && n_selected > 0);
  /* The list names its source below; the header's room goes to the
   * button, which must fit beside Cancel at 360 pixels. */
  gtk_widget_set_visible (self->window_title, !listing);

  /* Confirming is the consent for every server ticked, so the button says
   * so and how many; no second question follows for each. */
  if (listing && n_selected > 0)
    {
      g_autofree char *label = NULL;

      /* Translators: the button that imports the ticked servers and allows
       * them to start with the commands listed; %u is how many. */
      label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Add and Allow %u Server",
                                            "_Add and Allow %u Servers", n_selected),
                               n_selected);
      gtk_button_set_label (GTK_BUTTON (self->import_button), label);
    }
  else
    gtk_button_set_label (GTK_BUTTON (self->import_button), _("_Import"));
}

static void
check_toggled_cb (GtkCheckButton *check,
                  GParamSpec     *pspec,
                  gpointer        user_data)
{
  StewardImportCandidate *candidate = user_data;
  StewardImportDialog *self;

  steward_import_candidate_set_selected (candidate, gtk_check_button_get_active (check));

  self = STEWARD_IMPORT_DIALOG (gtk_widget_get_root (GTK_WIDGET (check)));
  if (self != NULL)
    update_import_action (self);
}

static GtkWidget *
detail_label_new (const char *text,
                  const char *style)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  /* Commands, paths and names wrapped with hyphens read as different ones. */
  steward_label_keep_words (GTK_LABEL (label));
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);

  return label;
}

static void
candidate_row_activated_cb (GtkListBox    *list,
                            GtkListBoxRow *row,
                            gpointer       user_data)
{
  GtkCheckButton *check = g_object_get_data (G_OBJECT (row), "steward-check");

  if (check != NULL && gtk_widget_is_sensitive (GTK_WIDGET (check)))
    gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
}

/* Each row shows everything the choice rests on without expanding: the
 * name, the exact command or URL, what would be replaced and why a row
 * cannot be imported. */
static GtkWidget *
candidate_row_new (StewardImportCandidate *candidate)
{
  StewardServerConfig *config = steward_import_candidate_get_config (candidate);
  const char *name = steward_server_config_get_name (config);
  const char *problem = steward_import_candidate_get_problem (candidate);
  const char * const *secret_keys = steward_import_candidate_get_secret_keys (candidate);
  gboolean exists = steward_import_candidate_get_exists (candidate);
  g_autofree char *command = steward_command_format_config (config);
  g_autofree char *check_label = NULL;
  GtkWidget *row = adw_preferences_row_new ();
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title;
  GtkWidget *kind;

  /* The name and the problem come from the file being imported. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  /* A row of our own making has no name unless given one. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, command,
                                  -1);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), problem == NULL);
  g_object_set_data (G_OBJECT (row), "steward-check", check);

  gtk_widget_set_valign (check, GTK_ALIGN_START);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                               problem == NULL &&
                               steward_import_candidate_get_selected (candidate));
  /* Translators: the name of the check box that picks a server; %s is its name. */
  check_label = g_strdup_printf (_("Import “%s”"), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, check_label,
                                  -1);
  g_signal_connect_object (check, "notify::active", G_CALLBACK (check_toggled_cb),
                           candidate, 0);

  gtk_widget_set_margin_top (outer, 12);
  gtk_widget_set_margin_bottom (outer, 12);
  gtk_widget_set_margin_start (outer, 12);
  gtk_widget_set_margin_end (outer, 12);
  gtk_box_append (GTK_BOX (outer), check);
  gtk_widget_set_hexpand (box, TRUE);
  gtk_box_append (GTK_BOX (outer), box);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), outer);

  title = detail_label_new (name, "heading");
  gtk_label_set_selectable (GTK_LABEL (title), FALSE);
  gtk_box_append (GTK_BOX (box), title);

  if (steward_server_config_is_remote (config))
    kind = detail_label_new (_("Remote server"), "dim-label");
  else
    kind = detail_label_new (_("Local program"), "dim-label");
  gtk_label_set_selectable (GTK_LABEL (kind), FALSE);
  gtk_widget_add_css_class (kind, "caption");
  gtk_box_append (GTK_BOX (box), kind);

  gtk_box_append (GTK_BOX (box), detail_label_new (command, "monospace"));

  if (secret_keys != NULL && secret_keys[0] != NULL)
    {
      g_autofree char *keys = g_strjoinv (", ", (char **) secret_keys);
      g_autofree char *text = NULL;

      /* Translators: %s lists names of variables or headers, comma-separated. */
      text = g_strdup_printf (_("Values that look secret: %s"), keys);
      gtk_box_append (GTK_BOX (box), detail_label_new (text, NULL));
    }

  if (exists && problem == NULL)
    gtk_box_append (GTK_BOX (box),
                    detail_label_new (_("You have a server with this name. It stays as it is "
                                        "unless you tick this one, which replaces it."),
                                      "warning"));

  if (problem != NULL)
    gtk_box_append (GTK_BOX (box), detail_label_new (problem, "error"));

  /* What cannot be imported stays in the list, greyed out, with why. */
  if (problem != NULL)
    gtk_widget_set_sensitive (row, FALSE);

  return row;
}

static gboolean
any_secrets (GListModel *candidates)
{
  guint n_items = g_list_model_get_n_items (candidates);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(StewardImportCandidate) candidate = g_list_model_get_item (candidates, i);
      const char * const *keys = steward_import_candidate_get_secret_keys (candidate);

      if (keys != NULL && keys[0] != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
show_candidates (StewardImportDialog *self,
                 GFile               *file,
                 GListModel          *candidates)
{
  g_autofree char *path = g_file_get_parse_name (file);
  g_autofree char *source = NULL;
  GtkWidget *child;
  guint n_items = g_list_model_get_n_items (candidates);

  g_set_object (&self->candidates, candidates);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->candidate_list))) != NULL)
    gtk_list_box_remove (self->candidate_list, child);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(StewardImportCandidate) candidate = g_list_model_get_item (candidates, i);

      if (steward_import_candidate_get_problem (candidate) != NULL)
        steward_import_candidate_set_selected (candidate, FALSE);
      gtk_list_box_append (self->candidate_list, candidate_row_new (candidate));
    }

  /* Translators: %s is the path of the file the servers are read from. */
  source = g_strdup_printf (_("From %s"), path);
  gtk_label_set_text (self->source_label, source);
  gtk_widget_set_visible (self->secrets_group, any_secrets (candidates));
  set_error (self->list_error, n_items == 0 ? _("This file names no servers.") : NULL);

  gtk_stack_set_visible_child_name (self->stack, "list");
  update_import_action (self);
}

static void
file_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StewardImportDialog) self = user_data;
  GFile *file = G_FILE (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) candidates = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (file, result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self->choose_error, error->message);
      return;
    }

  if (length > STEWARD_CONFIG_MAX_FILE_SIZE)
    {
      set_error (self->choose_error, _("This file is far too large to be a list of servers."));
      return;
    }

  candidates = steward_import_parse (steward_host_get_config (self->host),
                                     contents, length, &error);
  if (candidates == NULL)
    {
      set_error (self->choose_error, error->message);
      return;
    }

  set_error (self->choose_error, NULL);
  show_candidates (self, file, candidates);
}

static void
load_file (StewardImportDialog *self,
           GFile               *file)
{
  g_file_load_contents_async (file, self->cancellable, file_loaded_cb, g_object_ref (self));
}

static void
from_claude_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = steward_import_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP);

  load_file (STEWARD_IMPORT_DIALOG (widget), file);
}

static void
from_vscode_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = steward_import_default_file (STEWARD_IMPORT_SOURCE_VSCODE);

  load_file (STEWARD_IMPORT_DIALOG (widget), file);
}

static void
choose_file_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardImportDialog *self = STEWARD_IMPORT_DIALOG (widget);
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) json = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  StewardFileQuestion question = {
    .action = GTK_FILE_CHOOSER_ACTION_OPEN,
    .title = _("Choose a Settings File"),
    .accept_label = _("_Open"),
    .filters = G_LIST_MODEL (filters),
  };

  gtk_file_filter_set_name (json, _("JSON Files"));
  gtk_file_filter_add_mime_type (json, "application/json");
  gtk_file_filter_add_suffix (json, "json");
  g_list_store_append (filters, json);
  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");
  g_list_store_append (filters, all);

  steward_file_chooser_choose_for (self, &self->file_chooser, GTK_WINDOW (self), &question,
                                   (StewardFileChosenFunc) load_file);
}

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(StewardImportDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  guint n_imported;

  n_imported = steward_import_apply_finish (STEWARD_CONFIG (object), result, &error);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->importing = FALSE;
          set_error (self->list_error, error->message);
          update_import_action (self);
        }
      return;
    }

  steward_server_registry_sync (steward_host_get_registry (self->host), TRUE);
  g_signal_emit (self, signals[IMPORTED], 0, n_imported);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
apply_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  StewardImportDialog *self = STEWARD_IMPORT_DIALOG (widget);
  StewardImportFlags flags;

  if (self->importing || self->candidates == NULL)
    return;

  self->importing = TRUE;
  set_error (self->list_error, NULL);
  update_import_action (self);
  /* Each row showed the exact command, and the button said it allows
   * them: that confirmation is the consent the servers start with. */
  flags = STEWARD_IMPORT_ALLOW;
  if (gtk_switch_get_active (self->move_switch))
    flags |= STEWARD_IMPORT_MOVE_SECRETS;
  steward_import_apply_async (steward_host_get_config (self->host),
                              steward_host_get_secrets (self->host),
                              self->candidates,
                              flags,
                              self->cancellable,
                              imported_cb,
                              g_object_ref (self));
}

typedef struct
{
  StewardImportDialog *self;
  AdwActionRow        *row;
} ProbeData;

static void
default_file_probed_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  ProbeData *data = user_data;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_parse_name (G_FILE (object));
  g_autofree char *subtitle = NULL;

  info = g_file_query_info_finish (G_FILE (object), result, &error);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      gboolean found = info != NULL &&
                       g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR;

      /* Translators: %s is the path where another app keeps its settings. */
      subtitle = found ? g_strdup (path) : g_strdup_printf (_("Nothing at %s"), path);
      adw_action_row_set_subtitle (data->row, subtitle);
      gtk_widget_set_sensitive (GTK_WIDGET (data->row), found);
    }

  g_object_unref (data->self);
  g_free (data);
}

static void
probe_default_file (StewardImportDialog *self,
                    StewardImportSource  source,
                    AdwActionRow        *row)
{
  g_autoptr(GFile) file = steward_import_default_file (source);
  ProbeData *data = g_new0 (ProbeData, 1);

  data->self = g_object_ref (self);
  data->row = row;
  g_file_query_info_async (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE,
                           G_PRIORITY_DEFAULT, self->cancellable,
                           default_file_probed_cb, data);
}

static void
steward_import_dialog_constructed (GObject *object)
{
  StewardImportDialog *self = STEWARD_IMPORT_DIALOG (object);

  G_OBJECT_CLASS (steward_import_dialog_parent_class)->constructed (object);

  g_signal_connect_object (self->candidate_list, "row-activated",
                           G_CALLBACK (candidate_row_activated_cb), self, 0);

  probe_default_file (self, STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP, self->claude_row);
  probe_default_file (self, STEWARD_IMPORT_SOURCE_VSCODE, self->vscode_row);
  update_import_action (self);
}

static void
steward_import_dialog_dispose (GObject *object)
{
  StewardImportDialog *self = STEWARD_IMPORT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->file_chooser);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_IMPORT_DIALOG);

  g_clear_object (&self->candidates);
  g_clear_object (&self->host);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_import_dialog_parent_class)->dispose (object);
}

static void
steward_import_dialog_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardImportDialog *self = STEWARD_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_import_dialog_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  StewardImportDialog *self = STEWARD_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_import_dialog_class_init (StewardImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_import_dialog_constructed;
  object_class->dispose = steward_import_dialog_dispose;
  object_class->get_property = steward_import_dialog_get_property;
  object_class->set_property = steward_import_dialog_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardImportDialog::imported:
   * @n_imported: how many servers were written to the servers file
   *
   * Emitted after a successful import, just before the dialog closes.
   */
  signals[IMPORTED] =
    g_signal_new ("imported",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, claude_row);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, vscode_row);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, choose_error);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, source_label);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, secrets_group);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, move_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, candidate_list);
  gtk_widget_class_bind_template_child (widget_class, StewardImportDialog, list_error);

  gtk_widget_class_install_action (widget_class, "import.from-claude", NULL, from_claude_action);
  gtk_widget_class_install_action (widget_class, "import.from-vscode", NULL, from_vscode_action);
  gtk_widget_class_install_action (widget_class, "import.choose-file", NULL, choose_file_action);
  gtk_widget_class_install_action (widget_class, "import.apply", NULL, apply_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_import_dialog_init (StewardImportDialog *self)
{
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_import_dialog_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_IMPORT_DIALOG,
                       "host", host,
                       NULL);
}
