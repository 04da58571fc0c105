/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-dialog"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-file-chooser.h"
#include "steward-sandbox-profile.h"
#include "steward-sandbox.h"
#include "steward-server-secrets.h"

#include "steward-server-dialog.h"

typedef enum {
  TRANSPORT_AUTOMATIC,
  TRANSPORT_STREAMABLE_HTTP,
  TRANSPORT_SSE,
} TransportChoice;

/* One row of the environment or header list. */
typedef struct
{
  StewardServerDialog *self;            /* unowned: the row is in its list */
  gboolean             header;
  GtkEditable         *name;
  GtkEntry            *value;
  GtkSwitch           *keyring;
  char                *secret_id;       /* the keyring entry the value is in already */
  gboolean             keyring_chosen;  /* the person set the switch themselves */
  gboolean             updating;
} Variable;

struct _StewardServerDialog
{
  AdwWindow            parent_instance;

  StewardHost         *host;
  StewardServerConfig *original;
  GCancellable        *cancellable;
  GCancellable         *folder_chooser;
  char                *cwd;
  gboolean             validate_live;
  gboolean             saving;

  AdwWindowTitle      *title_widget;
  GtkWidget           *save_button;
  GtkLabel            *error_label;
  AdwEntryRow         *name_row;
  GtkLabel            *name_error;
  GtkToggleButton     *local_button;
  GtkToggleButton     *remote_button;
  GtkStack            *type_stack;
  AdwEntryRow         *command_row;
  GtkLabel            *command_error;
  GtkTextView         *args_view;
  AdwActionRow        *cwd_row;
  GtkWidget           *cwd_clear_button;
  GtkListBox          *env_list;
  GtkLabel            *env_error;
  GtkWidget           *sandbox_group;
  GtkSwitch           *network_switch;
  GtkWidget           *host_row;
  GtkSwitch           *display_switch;
  GtkSwitch           *host_switch;
  AdwEntryRow         *url_row;
  AdwComboRow         *transport_row;
  GtkLabel            *url_error;
  GtkWidget           *insecure_group;
  GtkSwitch           *insecure_switch;
  GtkListBox          *header_list;
  GtkLabel            *header_error;
};

enum {
  PROP_0,
  PROP_HOST,
  PROP_SERVER,
  N_PROPS
};

enum {
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardServerDialog, steward_server_dialog, ADW_TYPE_WINDOW)

static gboolean validate (StewardServerDialog *self);

static void
wipe_string (char *value)
{
  if (value != NULL)
    {
      explicit_bzero (value, strlen (value));
      g_free (value);
    }
}

static void
variable_free (Variable *variable)
{
  g_free (variable->secret_id);
  g_free (variable);
}

static Variable *
get_variable (GtkWidget *row)
{
  return g_object_get_data (G_OBJECT (row), "steward-variable");
}

static GPtrArray *
list_variables (GtkListBox *list)
{
  GPtrArray *variables = g_ptr_array_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (list));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      Variable *variable = get_variable (row);

      if (variable != NULL)
        g_ptr_array_add (variables, variable);
    }

  return variables;
}

static void
set_error (GtkLabel   *label,
           const char *message)
{
  gtk_label_set_text (label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
}

static gboolean
is_remote (StewardServerDialog *self)
{
  return gtk_toggle_button_get_active (self->remote_button);
}

static void
update_value_entry (Variable *variable)
{
  gboolean keyring = gtk_switch_get_active (variable->keyring);

  gtk_entry_set_visibility (variable->value, !keyring);
  gtk_entry_set_input_purpose (variable->value,
                               keyring ? GTK_INPUT_PURPOSE_PASSWORD : GTK_INPUT_PURPOSE_FREE_FORM);
  if (variable->secret_id != NULL && keyring)
    gtk_entry_set_placeholder_text (variable->value, _("Stored in keyring"));
  else
    gtk_entry_set_placeholder_text (variable->value, _("Value"));
}

/* Until the person chooses, secret-looking names and values go to the
 * keyring. */
static void
update_keyring_default (Variable *variable)
{
  const char *name = gtk_editable_get_text (variable->name);
  const char *value = gtk_editable_get_text (GTK_EDITABLE (variable->value));

  if (variable->keyring_chosen || variable->secret_id != NULL)
    return;

  variable->updating = TRUE;
  gtk_switch_set_active (variable->keyring,
                         steward_secret_looks_secret (name, value[0] != '\0' ? value : NULL));
  variable->updating = FALSE;
  update_value_entry (variable);
}

static void
variable_name_changed_cb (Variable *variable)
{
  g_autofree char *accessible = NULL;
  const char *name = gtk_editable_get_text (variable->name);

  update_keyring_default (variable);

  /* Translators: the name of a value field; %s is a variable or header name. */
  accessible = g_strdup_printf (_("Value of %s"), name[0] != '\0' ? name : _("the new entry"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (variable->value),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);

  if (variable->self->validate_live)
    validate (variable->self);
}

static void
variable_keyring_changed_cb (Variable *variable)
{
  if (!variable->updating)
    variable->keyring_chosen = TRUE;
  update_value_entry (variable);

  if (variable->self->validate_live)
    validate (variable->self);
}

static void
variable_value_changed_cb (Variable *variable)
{
  update_keyring_default (variable);

  if (variable->self->validate_live)
    validate (variable->self);
}

static void
update_list_visibility (GtkListBox *list)
{
  gtk_widget_set_visible (GTK_WIDGET (list),
                          gtk_widget_get_first_child (GTK_WIDGET (list)) != NULL);
}

static void
remove_variable_cb (GtkWidget *button,
                    GtkWidget *row)
{
  GtkListBox *list = GTK_LIST_BOX (gtk_widget_get_parent (row));
  Variable *variable = get_variable (row);
  StewardServerDialog *self = variable->self;

  gtk_list_box_remove (list, row);
  update_list_visibility (list);

  if (self->validate_live)
    validate (self);
}

static Variable *
add_variable (StewardServerDialog *self,
              gboolean             header,
              const char          *name,
              const char          *value)
{
  GtkListBox *list = header ? self->header_list : self->env_list;
  g_autofree char *secret_id = value != NULL ? steward_secret_reference_get_id (value) : NULL;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name_entry = gtk_entry_new ();
  GtkWidget *value_entry = gtk_entry_new ();
  GtkWidget *keyring = gtk_switch_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
  Variable *variable = g_new0 (Variable, 1);

  variable->self = self;
  variable->header = header;
  variable->name = GTK_EDITABLE (name_entry);
  variable->value = GTK_ENTRY (value_entry);
  variable->keyring = GTK_SWITCH (keyring);
  variable->secret_id = g_steal_pointer (&secret_id);
  g_object_set_data_full (G_OBJECT (row), "steward-variable", variable,
                          (GDestroyNotify) variable_free);

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);

  gtk_widget_set_name (name_entry, "variable-name");
  gtk_widget_set_hexpand (name_entry, TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (name_entry), 10);
  gtk_entry_set_placeholder_text (GTK_ENTRY (name_entry), header ? _("Name") : _("NAME"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (name_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  header ? _("Header Name") : _("Variable Name"),
                                  -1);

  gtk_widget_set_name (value_entry, "variable-value");
  gtk_widget_set_hexpand (value_entry, TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (value_entry), 10);

  gtk_widget_set_name (keyring, "variable-keyring");
  gtk_widget_set_valign (keyring, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (keyring, _("Store in Keyring"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (keyring),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Store in Keyring"),
                                  -1);

  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove, header ? _("Remove Header") : _("Remove Variable"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  header ? _("Remove Header") : _("Remove Variable"),
                                  -1);

  gtk_box_append (GTK_BOX (box), name_entry);
  gtk_box_append (GTK_BOX (box), value_entry);
  gtk_box_append (GTK_BOX (box), keyring);
  gtk_box_append (GTK_BOX (box), remove);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  header ? _("Header") : _("Environment Variable"),
                                  -1);

  gtk_editable_set_text (GTK_EDITABLE (name_entry), name != NULL ? name : "");
  if (variable->secret_id != NULL)
    {
      /* The value stays where it is; typing a new one replaces it. */
      gtk_switch_set_active (variable->keyring, TRUE);
      variable->keyring_chosen = TRUE;
    }
  else if (value != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (value_entry), value);
      variable->keyring_chosen = TRUE;
    }
  update_value_entry (variable);

  g_signal_connect_swapped (name_entry, "changed",
                            G_CALLBACK (variable_name_changed_cb), variable);
  g_signal_connect_swapped (value_entry, "changed",
                            G_CALLBACK (variable_value_changed_cb), variable);
  g_signal_connect_swapped (keyring, "notify::active",
                            G_CALLBACK (variable_keyring_changed_cb), variable);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_variable_cb), row);
  variable_name_changed_cb (variable);

  gtk_list_box_append (list, row);
  update_list_visibility (list);

  return variable;
}

static void
add_variable_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (widget);
  Variable *variable = add_variable (self, g_str_equal (action_name, "dialog.add-header"),
                                     NULL, NULL);

  gtk_widget_grab_focus (GTK_WIDGET (variable->name));
}

static void
set_cwd (StewardServerDialog *self,
         const char          *cwd)
{
  if (cwd != NULL && cwd[0] == '\0')
    cwd = NULL;

  g_free (self->cwd);
  self->cwd = g_strdup (cwd);

  adw_action_row_set_subtitle (self->cwd_row,
                               cwd != NULL ? cwd : _("Where Steward starts it from"));
  gtk_widget_set_visible (self->cwd_clear_button, cwd != NULL);
}

static void
folder_chosen (gpointer  owner,
               GFile    *folder)
{
  g_autofree char *path = g_file_get_path (folder);

  if (path != NULL)
    set_cwd (STEWARD_SERVER_DIALOG (owner), path);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (widget);
  g_autoptr(GFile) current = NULL;
  StewardFileQuestion question = {
    .action = GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
    .title = _("Choose the Working Folder"),
    .accept_label = _("_Select"),
  };

  if (self->cwd != NULL)
    current = g_file_new_for_path (self->cwd);

  question.initial_file = current;
  steward_file_chooser_choose_for (self, &self->folder_chooser, GTK_WINDOW (self), &question,
                                   folder_chosen);
}

static void
clear_folder_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  set_cwd (STEWARD_SERVER_DIALOG (widget), NULL);
}

static gboolean
is_loopback_host (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;
  g_autofree char *bare = NULL;
  gsize length;

  if (host == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (host, "localhost") == 0 ||
      g_str_has_suffix (host, ".localhost"))
    return TRUE;

  length = strlen (host);
  if (length > 2 && host[0] == '[' && host[length - 1] == ']')
    bare = g_strndup (host + 1, length - 2);
  address = g_inet_address_new_from_string (bare != NULL ? bare : host);

  return address != NULL && g_inet_address_get_is_loopback (address);
}

static gboolean
valid_server_name (const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
        return FALSE;
    }

  return name[0] != '\0';
}

/* RFC 9110 token characters. */
static gboolean
valid_header_name (const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
        return FALSE;
    }

  return name[0] != '\0';
}

static gboolean
valid_env_name (const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '=' || g_ascii_iscntrl (*p))
        return FALSE;
    }

  return name[0] != '\0';
}

static const char *
validate_name (StewardServerDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  StewardConfig *config = steward_host_get_config (self->host);

  if (name[0] == '\0')
    return _("Enter a name for the server.");

  if (!valid_server_name (name))
    return _("Use only letters, digits, “-” and “_” in the name.");

  if ((self->original == NULL ||
       !g_str_equal (steward_server_config_get_name (self->original), name)) &&
      steward_config_lookup (config, name, NULL) != NULL)
    return _("A server with this name exists already.");

  return NULL;
}

static char *
validate_url (StewardServerDialog *self,
              gboolean            *show_insecure)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  *show_insecure = FALSE;

  if (text[0] == '\0')
    return g_strdup (_("Enter the server’s URL."));

  uri = g_uri_parse (text, G_URI_FLAGS_NONE, NULL);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  host = uri != NULL ? g_uri_get_host (uri) : NULL;

  if (scheme == NULL || host == NULL || host[0] == '\0' ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    return g_strdup (_("Enter a URL that starts with https:// or http://."));

  if (g_ascii_strcasecmp (scheme, "http") == 0 && !is_loopback_host (host))
    {
      *show_insecure = TRUE;
      if (!gtk_switch_get_active (self->insecure_switch))
        return g_strdup (_("Use https://, or turn on “Send Without Encryption” below."));
    }

  return NULL;
}

static char *
validate_variables (StewardServerDialog *self,
                    gboolean             header)
{
  g_autoptr(GPtrArray) variables = list_variables (header ? self->header_list : self->env_list);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < variables->len; i++)
    {
      Variable *variable = g_ptr_array_index (variables, i);
      const char *name = gtk_editable_get_text (variable->name);
      const char *value = gtk_editable_get_text (GTK_EDITABLE (variable->value));
      gboolean keyring = gtk_switch_get_active (variable->keyring);

      if (name[0] == '\0' && value[0] == '\0' && variable->secret_id == NULL)
        continue;

      if (name[0] == '\0')
        return g_strdup (header ? _("Every header needs a name.")
                                : _("Every variable needs a name."));

      if (header ? !valid_header_name (name) : !valid_env_name (name))
        /* Translators: %s is what the person typed as a variable or header name. */
        return g_strdup_printf (header ? _("“%s” cannot be a header name.")
                                       : _("“%s” cannot be a variable name."), name);

      /* Header names are case-insensitive; variable names are not. */
      if (!g_hash_table_add (seen, header ? g_ascii_strdown (name, -1) : g_strdup (name)))
        /* Translators: %s is a variable or header name. */
        return g_strdup_printf (_("“%s” is there twice."), name);

      if (value[0] == '\0' && variable->secret_id == NULL && keyring)
        /* Translators: %s is a variable or header name. */
        return g_strdup_printf (_("Enter the value of “%s” to store it in the keyring."), name);

      if (value[0] == '\0' && variable->secret_id != NULL && !keyring)
        /* Translators: %s is a variable or header name. */
        return g_strdup_printf (_("Enter the value of “%s” to keep it out of the keyring."),
                                name);
    }

  return NULL;
}

/* Shows every message at once and returns whether the form can be saved. */
static gboolean
validate (StewardServerDialog *self)
{
  const char *name_error = validate_name (self);
  gboolean remote = is_remote (self);
  gboolean show_insecure = FALSE;
  g_autofree char *url_error = NULL;
  g_autofree char *env_error = NULL;
  g_autofree char *header_error = NULL;
  const char *command_error = NULL;

  if (remote)
    {
      url_error = validate_url (self, &show_insecure);
      header_error = validate_variables (self, TRUE);
    }
  else
    {
      g_autofree char *command = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command_row))));

      if (command[0] == '\0')
        command_error = _("Enter the program to run.");
      env_error = validate_variables (self, FALSE);
    }

  set_error (self->name_error, name_error);
  set_error (self->command_error, command_error);
  set_error (self->env_error, env_error);
  set_error (self->url_error, url_error);
  set_error (self->header_error, header_error);
  gtk_widget_set_visible (self->insecure_group,
                          show_insecure || gtk_switch_get_active (self->insecure_switch));

  if (name_error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->name_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");

  return name_error == NULL && command_error == NULL && env_error == NULL &&
         url_error == NULL && header_error == NULL;
}

static void
changed_cb (StewardServerDialog *self)
{
  gboolean show_insecure = FALSE;
  g_autofree char *url_error = NULL;

  if (self->validate_live)
    {
      validate (self);
      return;
    }

  /* The choice about http:// appears as soon as it is needed. */
  if (is_remote (self))
    {
      url_error = validate_url (self, &show_insecure);
      gtk_widget_set_visible (self->insecure_group,
                              show_insecure || gtk_switch_get_active (self->insecure_switch));
    }
}

static void
type_toggled_cb (StewardServerDialog *self)
{
  gtk_stack_set_visible_child_name (self->type_stack, is_remote (self) ? "remote" : "local");
  changed_cb (self);
}

static char **
dup_arguments (StewardServerDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->args_view);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GtkTextIter start, end;
  guint n_lines;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  lines = g_strsplit (text, "\n", -1);
  n_lines = g_strv_length (lines);

  /* Lines are arguments as written; only the empty lines at the very end
   * are left out, as a person does not see them. */
  while (n_lines > 0 && lines[n_lines - 1][0] == '\0')
    n_lines--;
  for (guint i = 0; i < n_lines; i++)
    g_strv_builder_add (builder, lines[i]);

  return g_strv_builder_end (builder);
}

/* A keyring write waiting for its turn while saving. */
typedef struct
{
  GHashTable        *target;   /* env or headers of the new config */
  char              *name;
  char              *value;    /* wiped when freed */
  char              *id;       /* the entry to replace, or NULL for a new one */
  StewardSecretKind  kind;
} SecretWrite;

static void
secret_write_free (SecretWrite *write)
{
  g_free (write->name);
  wipe_string (write->value);
  g_free (write->id);
  g_free (write);
}

typedef struct
{
  StewardServerDialog *self;
  char                *name;
  gboolean             remote;
  char                *command;
  char               **args;
  char                *cwd;
  int                  network;
  gboolean             display;
  gboolean             run_on_host;
  GStrv                readable;
  TransportChoice      transport;
  char                *url;
  GHashTable          *env;
  GHashTable          *headers;
  GPtrArray           *writes;
  guint                next_write;
  StewardServerConfig *config;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->self);
  g_free (data->name);
  g_free (data->command);
  g_strfreev (data->args);
  g_free (data->cwd);
  g_strfreev (data->readable);
  g_free (data->url);
  g_clear_pointer (&data->env, g_hash_table_unref);
  g_clear_pointer (&data->headers, g_hash_table_unref);
  g_clear_pointer (&data->writes, g_ptr_array_unref);
  g_clear_object (&data->config);
  g_free (data);
}

static void
collect_values (StewardServerDialog *self,
                SaveData            *data,
                gboolean             header)
{
  g_autoptr(GPtrArray) variables = list_variables (header ? self->header_list : self->env_list);
  GHashTable *target = header ? data->headers : data->env;

  for (guint i = 0; i < variables->len; i++)
    {
      Variable *variable = g_ptr_array_index (variables, i);
      const char *name = gtk_editable_get_text (variable->name);
      const char *value = gtk_editable_get_text (GTK_EDITABLE (variable->value));

      if (name[0] == '\0')
        continue;

      if (gtk_switch_get_active (variable->keyring))
        {
          if (value[0] == '\0' && variable->secret_id != NULL)
            {
              g_hash_table_replace (target, g_strdup (name),
                                    steward_secret_reference_new (variable->secret_id));
            }
          else
            {
              SecretWrite *write = g_new0 (SecretWrite, 1);

              write->target = target;
              write->name = g_strdup (name);
              write->value = g_strdup (value);
              write->id = g_strdup (variable->secret_id);
              write->kind = header ? STEWARD_SECRET_KIND_SERVER_HEADER
                                   : STEWARD_SECRET_KIND_SERVER_ENV;
              g_ptr_array_add (data->writes, write);
            }
        }
      else
        {
          g_hash_table_replace (target, g_strdup (name), g_strdup (value));
        }
    }
}

static void
show_failure (StewardServerDialog *self,
              const char          *message)
{
  self->saving = FALSE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "dialog.save", TRUE);
  set_error (self->error_label, message);
}

static void
config_saved_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SaveData *data = user_data;
  StewardServerDialog *self = data->self;
  g_autoptr(GError) error = NULL;

  if (!steward_config_save_finish (STEWARD_CONFIG (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_failure (self, error->message);
      save_data_free (data);
      return;
    }

  steward_server_registry_sync (steward_host_get_registry (self->host), TRUE);
  /* Secrets the old entry referred to and the new one does not. */
  if (self->original != NULL)
    steward_secrets_forget_unused_async (steward_host_get_secrets (self->host), self->original,
                                         data->config, NULL, NULL, NULL);

  g_signal_emit (self, signals[SAVED], 0, data->config);
  gtk_window_destroy (GTK_WINDOW (self));
  save_data_free (data);
}

static StewardServerConfig *
build_config (SaveData  *data,
              GError   **error)
{
  g_autoptr(JsonObject) json = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (!data->remote)
    {
      g_autoptr(StewardServerConfig) stdio = NULL;

      stdio = steward_server_config_new_stdio (data->name, data->command,
                                               (const char * const *) data->args,
                                               data->env, data->cwd);
      if (data->network < 0 && !data->display && !data->run_on_host &&
          (data->readable == NULL || data->readable[0] == NULL))
        return g_steal_pointer (&stdio);

      return steward_server_config_with_permissions (stdio, data->network, data->display,
                                                     data->run_on_host,
                                                     (const char * const *) data->readable);
    }

  if (data->transport == TRANSPORT_STREAMABLE_HTTP)
    return steward_server_config_new_remote (data->name, data->url,
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP,
                                             data->headers);
  if (data->transport == TRANSPORT_SSE)
    return steward_server_config_new_remote (data->name, data->url,
                                             STEWARD_SERVER_TRANSPORT_SSE, data->headers);

  /* Automatic: no "transport" member, so the host tries Streamable HTTP
   * first and falls back to the legacy transport. */
  json = json_object_new ();
  json_object_set_string_member (json, "url", data->url);
  if (g_hash_table_size (data->headers) > 0)
    {
      JsonObject *headers = json_object_new ();

      g_hash_table_iter_init (&iter, data->headers);
      while (g_hash_table_iter_next (&iter, &key, &value))
        json_object_set_string_member (headers, key, value);
      json_object_set_object_member (json, "headers", headers);
    }

  return steward_server_config_new_from_json (data->name, json, error);
}

static void
write_config (SaveData *data)
{
  StewardServerDialog *self = data->self;
  StewardConfig *config = steward_host_get_config (self->host);
  g_autoptr(StewardServerConfig) built = NULL;
  g_autoptr(GError) error = NULL;

  built = build_config (data, &error);
  if (built == NULL)
    {
      show_failure (self, error->message);
      save_data_free (data);
      return;
    }

  if (self->original != NULL && steward_server_config_get_disabled (self->original))
    {
      StewardServerConfig *disabled = steward_server_config_with_disabled (built, TRUE);

      g_set_object (&built, disabled);
      g_object_unref (disabled);
    }

  if (self->original != NULL &&
      !g_str_equal (steward_server_config_get_name (self->original), data->name))
    steward_config_remove_server (config, steward_server_config_get_name (self->original));

  steward_config_put_server (config, built);
  data->config = g_steal_pointer (&built);
  steward_config_save_async (config, self->cancellable, config_saved_cb, data);
}

static void store_next_secret (SaveData *data);

static void
secret_stored_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SaveData *data = user_data;
  SecretWrite *write = g_ptr_array_index (data->writes, data->next_write);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  id = steward_secrets_store_finish (STEWARD_SECRETS (object), result, &error);
  if (id == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = NULL;

          /* Translators: the first %s names a variable or header, the
           * second says why the keyring refused it. */
          message = g_strdup_printf (_("Could not store “%s” in the keyring: %s"),
                                     write->name, error->message);
          show_failure (data->self, message);
        }
      save_data_free (data);
      return;
    }

  g_hash_table_replace (write->target, g_strdup (write->name), steward_secret_reference_new (id));
  data->next_write++;
  store_next_secret (data);
}

static void
store_next_secret (SaveData *data)
{
  StewardSecrets *secrets = steward_host_get_secrets (data->self->host);
  SecretWrite *write;
  g_autofree char *label = NULL;

  if (data->next_write >= data->writes->len)
    {
      write_config (data);
      return;
    }

  write = g_ptr_array_index (data->writes, data->next_write);
  /* Translators: how a secret is named in the keyring (Passwords and Keys);
   * the first %s is a variable or header name, the second a server's name. */
  label = g_strdup_printf (_("Steward: %s for server “%s”"), write->name, data->name);
  steward_secrets_store_async (secrets, write->id, write->kind, label, write->value,
                               data->self->cancellable, secret_stored_cb, data);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (widget);
  SaveData *data;

  if (self->saving)
    return;

  self->validate_live = TRUE;
  set_error (self->error_label, NULL);
  if (!validate (self))
    return;

  self->saving = TRUE;
  gtk_widget_action_set_enabled (widget, "dialog.save", FALSE);

  data = g_new0 (SaveData, 1);
  data->self = g_object_ref (self);
  data->name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row)));
  data->remote = is_remote (self);
  data->command = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command_row))));
  data->args = dup_arguments (self);
  data->cwd = g_strdup (self->cwd);
  /* The network stays with the profile's default until the person sets
   * it otherwise, so that the default keeps following the command. */
  data->network = gtk_switch_get_active (self->network_switch);
  if ((self->original == NULL || !steward_server_config_has_network (self->original)) &&
      data->network == steward_sandbox_default_network (data->command))
    data->network = -1;
  data->display = gtk_switch_get_active (self->display_switch);
  data->run_on_host = gtk_switch_get_active (self->host_switch);
  /* Folders granted in the file; this dialog does not edit them. */
  if (self->original != NULL)
    data->readable = g_strdupv ((char **) steward_server_config_get_readable (self->original));
  data->url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  data->transport = adw_combo_row_get_selected (self->transport_row);
  data->env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) wipe_string);
  data->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) wipe_string);
  data->writes = g_ptr_array_new_with_free_func ((GDestroyNotify) secret_write_free);

  collect_values (self, data, data->remote);
  store_next_secret (data);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
add_variables_from (StewardServerDialog *self,
                    gboolean             header,
                    GHashTable          *table)
{
  g_autofree const char **names = NULL;
  guint n = 0;

  if (table == NULL)
    return;

  names = (const char **) g_hash_table_get_keys_as_array (table, &n);
  qsort (names, n, sizeof (char *), compare_keys);
  for (guint i = 0; i < n; i++)
    add_variable (self, header, names[i], g_hash_table_lookup (table, names[i]));
}

static void
fill_from (StewardServerDialog *self,
           StewardServerConfig *server)
{
  JsonObject *json = steward_server_config_get_json (server);

  gtk_editable_set_text (GTK_EDITABLE (self->name_row), steward_server_config_get_name (server));

  if (steward_server_config_is_remote (server))
    {
      const char *url = steward_server_config_get_url (server);
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
      TransportChoice choice = TRANSPORT_AUTOMATIC;

      if (json_object_has_member (json, "transport") || json_object_has_member (json, "type"))
        choice = steward_server_config_get_transport (server) == STEWARD_SERVER_TRANSPORT_SSE
                 ? TRANSPORT_SSE : TRANSPORT_STREAMABLE_HTTP;

      gtk_toggle_button_set_active (self->remote_button, TRUE);
      gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
      adw_combo_row_set_selected (self->transport_row, choice);
      /* An http:// URL saved before was confirmed then. */
      if (uri != NULL && g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") == 0 &&
          !is_loopback_host (g_uri_get_host (uri)))
        gtk_switch_set_active (self->insecure_switch, TRUE);
      add_variables_from (self, TRUE, steward_server_config_get_headers (server));
    }
  else
    {
      const char * const *args = steward_server_config_get_args (server);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->args_view);
      g_autofree char *text = NULL;

      gtk_editable_set_text (GTK_EDITABLE (self->command_row),
                             steward_server_config_get_command (server));
      text = args != NULL ? g_strjoinv ("\n", (char **) args) : g_strdup ("");
      gtk_text_buffer_set_text (buffer, text, -1);
      set_cwd (self, steward_server_config_get_cwd (server));
      add_variables_from (self, FALSE, steward_server_config_get_env (server));
      gtk_switch_set_active (self->network_switch,
                             steward_server_config_has_network (server)
                             ? steward_server_config_get_network (server)
                             : steward_sandbox_default_network (
                                 steward_server_config_get_command (server)));
      gtk_switch_set_active (self->display_switch, steward_server_config_get_display (server));
      gtk_switch_set_active (self->host_switch, steward_server_config_get_run_on_host (server));
    }
}

static void
steward_server_dialog_constructed (GObject *object)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (object);
  const char *title;

  G_OBJECT_CLASS (steward_server_dialog_parent_class)->constructed (object);

  set_cwd (self, NULL);

  /* Every local server runs in a sandbox. In Flatpak, running on the
   * host needs a permission the person granted with `flatpak override`,
   * unless the entry asks for it already and the switch is there to turn
   * it off; outside, full access is bubblewrap left out. */
  gtk_widget_set_visible (self->host_row,
                          !steward_sandbox_is_flatpak () ||
                          steward_sandbox_can_spawn_on_host () ||
                          (self->original != NULL &&
                           steward_server_config_get_run_on_host (self->original)));
  if (!steward_sandbox_is_flatpak ())
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->host_row),
                                     _("Full access (no sandbox)"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->host_switch),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Full access (no sandbox)"), -1);
    }

  if (self->original != NULL)
    {
      fill_from (self, self->original);
      title = _("Edit Server");
      gtk_button_set_label (GTK_BUTTON (self->save_button), _("_Save"));
    }
  else
    {
      title = _("Add Server");
      gtk_button_set_label (GTK_BUTTON (self->save_button), _("_Add"));
    }

  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (self->title_widget, title);
}

static void
steward_server_dialog_dispose (GObject *object)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->folder_chooser);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SERVER_DIALOG);

  g_clear_object (&self->host);
  g_clear_object (&self->original);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_server_dialog_parent_class)->dispose (object);
}

static void
steward_server_dialog_finalize (GObject *object)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (object);

  g_free (self->cwd);

  G_OBJECT_CLASS (steward_server_dialog_parent_class)->finalize (object);
}

static void
steward_server_dialog_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    case PROP_SERVER:
      g_value_set_object (value, self->original);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_dialog_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  StewardServerDialog *self = STEWARD_SERVER_DIALOG (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    case PROP_SERVER:
      self->original = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_dialog_class_init (StewardServerDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_server_dialog_constructed;
  object_class->dispose = steward_server_dialog_dispose;
  object_class->finalize = steward_server_dialog_finalize;
  object_class->get_property = steward_server_dialog_get_property;
  object_class->set_property = steward_server_dialog_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_SERVER] =
    g_param_spec_object ("server", NULL, NULL,
                         STEWARD_TYPE_SERVER_CONFIG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardServerDialog::saved:
   * @config: the entry as written to the servers file
   *
   * Emitted once the servers file holds the new or changed entry, just
   * before the dialog closes.
   */
  signals[SAVED] =
    g_signal_new ("saved",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, STEWARD_TYPE_SERVER_CONFIG);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-server-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, title_widget);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, save_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, name_error);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, local_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, remote_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, type_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, command_error);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, args_view);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, cwd_row);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, cwd_clear_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, env_list);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, env_error);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, sandbox_group);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, network_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, host_row);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, display_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, host_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, transport_row);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, url_error);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, insecure_group);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, insecure_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, header_list);
  gtk_widget_class_bind_template_child (widget_class, StewardServerDialog, header_error);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, type_toggled_cb);

  gtk_widget_class_install_action (widget_class, "dialog.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "dialog.add-variable", NULL,
                                   add_variable_action);
  gtk_widget_class_install_action (widget_class, "dialog.add-header", NULL,
                                   add_variable_action);
  gtk_widget_class_install_action (widget_class, "dialog.choose-folder", NULL,
                                   choose_folder_action);
  gtk_widget_class_install_action (widget_class, "dialog.clear-folder", NULL,
                                   clear_folder_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK,
                                       "dialog.save", NULL);
}

static void
steward_server_dialog_init (StewardServerDialog *self)
{
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_server_dialog_new (StewardHost         *host,
                           StewardServerConfig *server)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);
  g_return_val_if_fail (server == NULL || STEWARD_IS_SERVER_CONFIG (server), NULL);

  return g_object_new (STEWARD_TYPE_SERVER_DIALOG,
                       "host", host,
                       "server", server,
                       NULL);
}
