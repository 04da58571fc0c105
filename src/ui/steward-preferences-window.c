/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-preferences-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-accessible.h"
#include "steward-anthropic-provider.h"
#include "steward-audit-dialog.h"
#include "steward-manual-provider.h"
#include "steward-openai-provider.h"

#include "steward-preferences-window-private.h"

typedef enum {
  LIMIT_MAX_TOKENS,
  LIMIT_PER_MINUTE,
  LIMIT_DAILY_TOKENS,
} Limit;

typedef enum {
  SCORE_COST,
  SCORE_SPEED,
  SCORE_INTELLIGENCE,
  N_SCORES
} Score;

typedef struct
{
  StewardSamplingPolicy policy;
  guint                 max_tokens;
  guint                 per_minute;
  guint                 daily_tokens;
} SamplingDefaults;

/* Providers set up before providers.json: their base URL was kept in
 * GSettings and their key in the keyring under "provider.ID", which is
 * where StewardProviders keeps a provider's key too. */
static const struct {
  const char          *id;
  const char          *name;
  StewardProviderKind  kind;
  const char          *url_key;
} legacy_providers[] = {
  { "openai-compatible", N_("OpenAI-Compatible"), STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
    "provider-openai-base-url" },
  { "anthropic", N_("Anthropic"), STEWARD_PROVIDER_KIND_ANTHROPIC,
    "provider-anthropic-base-url" },
};

static const char * const policy_labels[] = {
  [STEWARD_SAMPLING_POLICY_DENY] = N_("Deny"),
  [STEWARD_SAMPLING_POLICY_ASK] = N_("Ask Every Time"),
  [STEWARD_SAMPLING_POLICY_ALLOW_SESSION] = N_("Allow for This Session"),
  [STEWARD_SAMPLING_POLICY_ALWAYS] = N_("Always Allow"),
};

/* The nicks of the "color-scheme" key, in the order of the style row. */
static const char * const color_scheme_keys[] = { "follow", "light", "dark" };

struct _StewardPreferencesWindow
{
  AdwPreferencesWindow   parent_instance;

  StewardHost           *host;
  StewardSecrets        *secrets;
  StewardSamplingBroker *broker;
  StewardProviders      *providers;
  StewardModelCatalog   *catalog;
  GListModel            *registry;
  GSettings             *settings;
  GCancellable          *cancellable;

  AdwMessageDialog      *key_dialog;
  /* Key id → the row that shows it, and a count bumped on every lookup,
   * so that a late answer never overwrites a newer one. */
  GHashTable            *key_rows;
  GHashTable            *key_generations;
  GPtrArray             *provider_rows;
  GPtrArray             *refresh_rows;
  GPtrArray             *model_rows;
  GPtrArray             *hint_rows;
  GPtrArray             *server_rows;
  GtkStringList         *hint_models;
  gboolean               syncing;
  gboolean               ollama_found;

  AdwPreferencesGroup   *ollama_group;
  AdwActionRow          *ollama_row;
  AdwPreferencesGroup   *providers_group;
  AdwComboRow           *add_kind_row;
  AdwEntryRow           *add_name_row;
  AdwEntryRow           *add_url_row;
  AdwPreferencesGroup   *refresh_group;
  AdwPreferencesGroup   *models_group;
  AdwPreferencesGroup   *hints_group;
  AdwEntryRow           *hint_entry_row;
  AdwComboRow           *hint_model_row;
  AdwComboRow           *default_policy_row;
  GtkSpinButton         *default_max_tokens_spin;
  GtkSpinButton         *default_per_minute_spin;
  GtkSpinButton         *default_daily_tokens_spin;
  AdwPreferencesGroup   *servers_group;
  AdwComboRow           *color_scheme_row;
};

enum {
  PROP_0,
  PROP_HOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardPreferencesWindow, steward_preferences_window,
                     ADW_TYPE_PREFERENCES_WINDOW)

/* Shorter, for the template bindings. */
typedef StewardPreferencesWindow Prefs;

#define SERVER_KEY   "steward-server"
#define LIMIT_KEY    "steward-limit"
#define PROVIDER_KEY "steward-provider"
#define MODEL_KEY    "steward-model"
#define SCORE_KEY    "steward-score"
#define ENTRY_KEY    "steward-entry"

/* libadwaita 1.2 reads a toast's title as markup: escape what we show. */
static void
show_toast (StewardPreferencesWindow *self,
            const char               *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (escaped));
}

/* Providers */

static gboolean
is_manual (StewardProvider *provider)
{
  return g_strcmp0 (steward_provider_get_id (provider), STEWARD_MANUAL_PROVIDER_ID) == 0;
}

static const char *
provider_base_url (StewardProvider *provider)
{
  if (STEWARD_IS_OPENAI_PROVIDER (provider))
    return steward_openai_provider_get_base_url (STEWARD_OPENAI_PROVIDER (provider));
  if (STEWARD_IS_ANTHROPIC_PROVIDER (provider))
    return steward_anthropic_provider_get_base_url (STEWARD_ANTHROPIC_PROVIDER (provider));

  return NULL;
}

static const char *
provider_key_id (StewardProvider *provider)
{
  if (STEWARD_IS_OPENAI_PROVIDER (provider))
    return steward_openai_provider_get_key_id (STEWARD_OPENAI_PROVIDER (provider));
  if (STEWARD_IS_ANTHROPIC_PROVIDER (provider))
    return steward_anthropic_provider_get_key_id (STEWARD_ANTHROPIC_PROVIDER (provider));

  return NULL;
}

/* The key id a provider's key row shows: its own, or the one a key set
 * now would get. */
static char *
dup_row_key_id (StewardProvider *provider)
{
  const char *key_id = provider_key_id (provider);

  if (key_id != NULL)
    return g_strdup (key_id);

  return steward_providers_make_key_id (steward_provider_get_id (provider));
}

static const char *
kind_label (StewardProviderKind kind)
{
  switch (kind)
    {
    case STEWARD_PROVIDER_KIND_ANTHROPIC:
      return _("Anthropic");
    case STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE:
      return _("OpenAI-Compatible");
    case STEWARD_PROVIDER_KIND_MANUAL:
    default:
      return _("You write the answers");
    }
}

/* Puts @provider again with another key id, everything else the same. */
static void
put_with_key_id (StewardPreferencesWindow *self,
                 const char               *id,
                 const char               *key_id)
{
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  provider = steward_providers_lookup (self->providers, id);
  if (provider != NULL)
    g_object_ref (provider);
  if (provider == NULL || g_strcmp0 (provider_key_id (provider), key_id) == 0)
    return;

  if (steward_providers_put (self->providers, id, steward_providers_get_kind (self->providers, id),
                             steward_provider_get_display_name (provider),
                             provider_base_url (provider), key_id, &error) == NULL)
    show_toast (self, error->message);
}

/* API keys */

typedef struct
{
  StewardPreferencesWindow *self;
  char                     *provider_id;
  char                     *key_id;
  guint                     generation;
} KeyOperation;

static void
key_operation_free (KeyOperation *op)
{
  g_free (op->provider_id);
  g_free (op->key_id);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KeyOperation, key_operation_free)

static KeyOperation *
key_operation_new (StewardPreferencesWindow *self,
                   const char               *provider_id,
                   const char               *key_id)
{
  KeyOperation *op = g_new0 (KeyOperation, 1);
  guint generation = GPOINTER_TO_UINT (g_hash_table_lookup (self->key_generations, key_id)) + 1;

  op->self = self;
  op->provider_id = g_strdup (provider_id);
  op->key_id = g_strdup (key_id);
  op->generation = generation;
  g_hash_table_replace (self->key_generations, g_strdup (key_id), GUINT_TO_POINTER (generation));

  return op;
}

static gboolean
key_operation_is_current (KeyOperation *op)
{
  return op->generation ==
         GPOINTER_TO_UINT (g_hash_table_lookup (op->self->key_generations, op->key_id));
}

static void
set_key_state (StewardPreferencesWindow *self,
               const char               *key_id,
               const char               *subtitle,
               gboolean                  is_set)
{
  AdwActionRow *row = g_hash_table_lookup (self->key_rows, key_id);
  GtkButton *set_button;
  GtkWidget *clear_button;

  if (row == NULL)
    return;

  set_button = g_object_get_data (G_OBJECT (row), "steward-set-button");
  clear_button = g_object_get_data (G_OBJECT (row), "steward-clear-button");
  adw_action_row_set_subtitle (row, subtitle);
  gtk_button_set_label (set_button, is_set ? _("_Replace…") : _("_Set…"));
  gtk_widget_set_visible (clear_button, is_set);
}

static void refresh_key (StewardPreferencesWindow *self,
                         const char               *provider_id,
                         const char               *key_id);

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KeyOperation) op = user_data;
  g_autoptr(GError) error = NULL;
  StewardPreferencesWindow *self;
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = op->self;
  if (!key_operation_is_current (op))
    {
      steward_secret_value_free (value);
      return;
    }

  if (value != NULL)
    {
      /* Only the masked form leaves this function; the value is wiped. */
      g_autofree char *masked = steward_secret_mask (value);

      steward_secret_value_free (value);
      set_key_state (self, op->key_id, masked, TRUE);
    }
  else if (g_error_matches (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND))
    {
      set_key_state (self, op->key_id, _("Not set"), FALSE);
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("The keyring could not be read: %s"),
                                               error != NULL ? error->message : "");

      set_key_state (self, op->key_id, text, FALSE);
    }
}

static void
refresh_key (StewardPreferencesWindow *self,
             const char               *provider_id,
             const char               *key_id)
{
  KeyOperation *op = key_operation_new (self, provider_id, key_id);
  AdwActionRow *row = g_hash_table_lookup (self->key_rows, key_id);

  if (row != NULL)
    adw_action_row_set_subtitle (row, _("Looking up…"));
  steward_secrets_lookup_async (self->secrets, key_id, self->cancellable, lookup_cb, op);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(KeyOperation) op = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  id = steward_secrets_store_finish (STEWARD_SECRETS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (id == NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Could not store the key: %s"),
                                                error != NULL ? error->message : "");

      show_toast (op->self, title);
    }
  else
    {
      /* The provider reads its key from now on. */
      put_with_key_id (op->self, op->provider_id, op->key_id);
    }

  refresh_key (op->self, op->provider_id, op->key_id);
}

static void
store_key (StewardPreferencesWindow *self,
           const char               *provider_id,
           const char               *key_id,
           const char               *value)
{
  KeyOperation *op = key_operation_new (self, provider_id, key_id);
  StewardProvider *provider = steward_providers_lookup (self->providers, provider_id);
  g_autofree char *label = NULL;
  AdwActionRow *row = g_hash_table_lookup (self->key_rows, key_id);

  /* Translators: how the key is named in the keyring; %s is a provider. */
  label = g_strdup_printf (_("Steward: %s API key"),
                           provider ? steward_provider_get_display_name (provider) : provider_id);
  if (row != NULL)
    adw_action_row_set_subtitle (row, _("Saving…"));
  steward_secrets_store_async (self->secrets, key_id, STEWARD_SECRET_KIND_PROVIDER_KEY, label,
                               value, self->cancellable, store_cb, op);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(KeyOperation) op = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_secrets_clear_finish (STEWARD_SECRETS (object), result, &error))
    {
      g_autofree char *title = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      if (!g_error_matches (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND))
        {
          title = g_strdup_printf (_("Could not clear the key: %s"), error->message);
          show_toast (op->self, title);
          refresh_key (op->self, op->provider_id, op->key_id);
          return;
        }
    }

  /* Without a key the provider asks for none, as Ollama wants. */
  put_with_key_id (op->self, op->provider_id, NULL);
  refresh_key (op->self, op->provider_id, op->key_id);
}

static void
key_entry_changed_cb (AdwMessageDialog *dialog,
                      GtkEditable      *entry)
{
  const char *text = gtk_editable_get_text (entry);

  adw_message_dialog_set_response_enabled (dialog, "save", text != NULL && *text != '\0');
}

static void
key_dialog_response_cb (AdwMessageDialog         *dialog,
                        const char               *response,
                        StewardPreferencesWindow *self)
{
  const char *provider_id = g_object_get_data (G_OBJECT (dialog), PROVIDER_KEY);
  const char *key_id = g_object_get_data (G_OBJECT (dialog), "steward-key-id");
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), ENTRY_KEY);

  if (self->key_dialog == dialog)
    self->key_dialog = NULL;

  if (g_strcmp0 (response, "save") == 0 && entry != NULL)
    {
      const char *value = gtk_editable_get_text (entry);

      if (value != NULL && *value != '\0')
        store_key (self, provider_id, key_id, value);
    }
  else if (g_strcmp0 (response, "clear") == 0)
    {
      steward_secrets_clear_async (self->secrets, key_id, self->cancellable, clear_cb,
                                   key_operation_new (self, provider_id, key_id));
    }

  /* The password entry keeps its text in secure memory; emptying it now
   * wipes the key from the widget as well. */
  if (entry != NULL)
    gtk_editable_set_text (entry, "");

  /* GTK 4.8's password entry would hear its inner text lose the focus only
   * after it is gone, as the dialog closes; let it lose the focus now. */
  gtk_window_set_focus (GTK_WINDOW (dialog), NULL);
}

static void
present_key_dialog (StewardPreferencesWindow *self,
                    AdwMessageDialog         *dialog,
                    StewardProvider          *provider)
{
  if (self->key_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->key_dialog));

  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  g_object_set_data_full (G_OBJECT (dialog), PROVIDER_KEY,
                          g_strdup (steward_provider_get_id (provider)), g_free);
  g_object_set_data_full (G_OBJECT (dialog), "steward-key-id", dup_row_key_id (provider),
                          g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (key_dialog_response_cb), self, 0);
  self->key_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
set_key_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  StewardProvider *provider = steward_providers_lookup (self->providers,
                                                        g_variant_get_string (parameter, NULL));
  GtkWidget *dialog;
  GtkWidget *entry;
  g_autofree char *heading = NULL;
  g_autofree char *accessible = NULL;
  const char *name;

  if (provider == NULL || is_manual (provider))
    return;

  name = steward_provider_get_display_name (provider);
  /* Translators: %s is a provider's name ("Anthropic"). */
  heading = g_strdup_printf (_("Set the %s API Key"), name);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The key is kept in your keyring. Steward shows it masked "
                                     "from now on and never writes it to a file."));

  entry = gtk_password_entry_new ();
  gtk_password_entry_set_show_peek_icon (GTK_PASSWORD_ENTRY (entry), TRUE);
  g_object_set (entry, "activates-default", TRUE, NULL);
  /* Translators: %s is a provider's name ("Anthropic"). */
  accessible = g_strdup_printf (_("%s API key"), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  g_object_set_data (G_OBJECT (dialog), ENTRY_KEY, entry);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "save", FALSE);
  g_signal_connect_object (entry, "changed",
                           G_CALLBACK (key_entry_changed_cb), dialog, G_CONNECT_SWAPPED);

  present_key_dialog (self, ADW_MESSAGE_DIALOG (dialog), provider);
  gtk_widget_grab_focus (entry);
}

static void
clear_key_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  StewardProvider *provider = steward_providers_lookup (self->providers,
                                                        g_variant_get_string (parameter, NULL));
  GtkWidget *dialog;
  g_autofree char *heading = NULL;

  if (provider == NULL || is_manual (provider))
    return;

  /* Translators: %s is a provider's name ("Anthropic"). */
  heading = g_strdup_printf (_("Clear the %s API Key?"),
                             steward_provider_get_display_name (provider));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The key is removed from your keyring. Steward cannot use "
                                     "this provider until you set a key again, unless it needs "
                                     "none."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "clear", _("C_lear"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "clear",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  present_key_dialog (self, ADW_MESSAGE_DIALOG (dialog), provider);
}

/* The list of providers */

static GtkWidget *
new_button (const char *label,
            const char *accessible,
            const char *action,
            const char *target)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  if (action != NULL)
    gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", target);
  if (action != NULL)
    gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);

  return button;
}

static GtkWidget *
create_provider_row (StewardPreferencesWindow *self,
                     StewardProvider          *provider)
{
  const char *id = steward_provider_get_id (provider);
  const char *name = steward_provider_get_display_name (provider);
  const char *url = provider_base_url (provider);
  g_autofree char *key_id = dup_row_key_id (provider);
  g_autofree char *subtitle = NULL;
  g_autofree char *accessible = NULL;
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *key_row = adw_action_row_new ();
  GtkWidget *remove_row = adw_action_row_new ();
  GtkWidget *set_button;
  GtkWidget *clear_button;
  GtkWidget *remove_button;

  /* Names and addresses are shown as they are, never as markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (row));
  subtitle = url != NULL ? g_strdup_printf ("%s · %s",
                                            kind_label (steward_providers_get_kind (self->providers,
                                                                                    id)),
                                            url)
                         : g_strdup (kind_label (steward_providers_get_kind (self->providers, id)));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  gtk_widget_set_name (row, id);
  g_object_set_data_full (G_OBJECT (row), PROVIDER_KEY, g_strdup (id), g_free);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (key_row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (key_row), _("API Key"));
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Set the %s API key"), name);
  set_button = new_button (_("_Set…"), accessible, "prefs.set-key", id);
  g_free (accessible);
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Clear the %s API key"), name);
  clear_button = new_button (_("_Clear"), accessible, "prefs.clear-key", id);
  gtk_widget_set_visible (clear_button, FALSE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (key_row), set_button);
  adw_action_row_add_suffix (ADW_ACTION_ROW (key_row), clear_button);
  g_object_set_data (G_OBJECT (key_row), "steward-set-button", set_button);
  g_object_set_data (G_OBJECT (key_row), "steward-clear-button", clear_button);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), key_row);
  g_hash_table_replace (self->key_rows, g_strdup (key_id), key_row);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (remove_row), _("Remove This Provider"));
  g_free (accessible);
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Remove the provider %s"), name);
  remove_button = new_button (_("_Remove"), accessible, "prefs.remove-provider", id);
  gtk_widget_add_css_class (remove_button, "destructive-action");
  adw_action_row_add_suffix (ADW_ACTION_ROW (remove_row), remove_button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (remove_row), remove_button);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), remove_row);

  refresh_key (self, id, key_id);

  return row;
}

static GtkWidget *
create_refresh_row (StewardPreferencesWindow *self,
                    StewardProvider          *provider)
{
  const char *id = steward_provider_get_id (provider);
  const char *name = steward_provider_get_display_name (provider);
  g_autofree char *accessible = NULL;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), steward_provider_is_local (provider)
                                                     ? _("On this computer")
                                                     : _("Over the network"));
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Refresh the models of %s"), name);
  button = new_button (_("Refresh _Models"), accessible, "prefs.refresh-models", id);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  gtk_widget_set_name (row, id);
  g_object_set_data_full (G_OBJECT (row), PROVIDER_KEY, g_strdup (id), g_free);

  return row;
}

static void
clear_rows (AdwPreferencesGroup *group,
            GPtrArray           *rows)
{
  for (guint i = 0; i < rows->len; i++)
    adw_preferences_group_remove (group, g_ptr_array_index (rows, i));
  g_ptr_array_set_size (rows, 0);
}

static void
add_placeholder (AdwPreferencesGroup *group,
                 GPtrArray           *rows,
                 const char          *title)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_widget_add_css_class (row, "dim-label");
  adw_preferences_group_add (group, row);
  g_ptr_array_add (rows, row);
}

static gboolean
has_ollama (StewardPreferencesWindow *self)
{
  g_autofree char *url = steward_providers_dup_ollama_base_url ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->providers));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardProvider) provider = g_list_model_get_item (G_LIST_MODEL (self->providers),
                                                                   i);

      if (g_strcmp0 (steward_provider_get_id (provider), "ollama") == 0 ||
          g_strcmp0 (provider_base_url (provider), url) == 0)
        return TRUE;
    }

  return FALSE;
}

static void
update_ollama_row (StewardPreferencesWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->ollama_group),
                          self->ollama_found && !has_ollama (self));
}

static void
rebuild_provider_rows (StewardPreferencesWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->providers));

  clear_rows (self->providers_group, self->provider_rows);
  clear_rows (self->refresh_group, self->refresh_rows);
  g_hash_table_remove_all (self->key_rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardProvider) provider = g_list_model_get_item (G_LIST_MODEL (self->providers),
                                                                   i);
      GtkWidget *row;

      /* The person is always there to write an answer; nothing to set. */
      if (is_manual (provider))
        continue;

      row = create_provider_row (self, provider);
      adw_preferences_group_add (self->providers_group, row);
      g_ptr_array_add (self->provider_rows, row);

      row = create_refresh_row (self, provider);
      adw_preferences_group_add (self->refresh_group, row);
      g_ptr_array_add (self->refresh_rows, row);
    }

  if (self->provider_rows->len == 0)
    {
      add_placeholder (self->providers_group, self->provider_rows,
                       _("No provider is set up: you write the answers"));
      add_placeholder (self->refresh_group, self->refresh_rows,
                       _("Add a provider to find its models"));
    }

  update_ollama_row (self);
}

static char *
make_provider_id (StewardPreferencesWindow *self,
                  const char               *name)
{
  g_autoptr(GString) id = g_string_new (NULL);
  g_autofree char *base = NULL;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (id, g_ascii_tolower (*p));
      else if (id->len > 0 && id->str[id->len - 1] != '-')
        g_string_append_c (id, '-');
    }
  while (id->len > 0 && id->str[id->len - 1] == '-')
    g_string_truncate (id, id->len - 1);
  if (id->len == 0)
    g_string_append (id, "provider");

  /* A second provider of the same name gets a number. */
  base = g_strdup (id->str);
  for (guint n = 2;
       steward_providers_lookup (self->providers, id->str) != NULL ||
       g_str_equal (id->str, STEWARD_MANUAL_PROVIDER_ID);
       n++)
    g_string_printf (id, "%s-%u", base, n);

  return g_string_free (g_steal_pointer (&id), FALSE);
}

static void
add_provider_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->add_name_row));
  const char *url = gtk_editable_get_text (GTK_EDITABLE (self->add_url_row));
  StewardProviderKind kind = adw_combo_row_get_selected (self->add_kind_row) == 1
                             ? STEWARD_PROVIDER_KIND_ANTHROPIC
                             : STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE;
  g_autofree char *stripped_name = g_strstrip (g_strdup (name ? name : ""));
  g_autofree char *stripped_url = g_strstrip (g_strdup (url ? url : ""));
  g_autofree char *id = NULL;
  g_autoptr(GError) error = NULL;

  if (*stripped_name == '\0')
    {
      g_free (stripped_name);
      stripped_name = g_strdup (kind_label (kind));
    }
  if (*stripped_url == '\0' && kind == STEWARD_PROVIDER_KIND_ANTHROPIC)
    {
      g_free (stripped_url);
      stripped_url = g_strdup (STEWARD_ANTHROPIC_DEFAULT_BASE_URL);
    }
  if (*stripped_url == '\0')
    {
      show_toast (self, _("Give the provider’s base URL, such as https://api.openai.com/v1"));
      return;
    }

  id = make_provider_id (self, stripped_name);
  if (steward_providers_put (self->providers, id, kind, stripped_name, stripped_url, NULL,
                             &error) == NULL)
    {
      show_toast (self, error->message);
      return;
    }

  gtk_editable_set_text (GTK_EDITABLE (self->add_name_row), "");
  gtk_editable_set_text (GTK_EDITABLE (self->add_url_row), "");
}

static void
add_ollama_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  g_autofree char *url = steward_providers_dup_ollama_base_url ();
  g_autoptr(GError) error = NULL;

  if (has_ollama (self))
    return;

  if (steward_providers_put (self->providers, "ollama", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                             "Ollama", url, NULL, &error) == NULL)
    show_toast (self, error->message);
}

static void
remove_provider_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!steward_providers_remove (self->providers, g_variant_get_string (parameter, NULL), &error))
    show_toast (self, error->message);
}

static void
detect_ollama_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  StewardPreferencesWindow *self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean found;

  found = steward_providers_detect_ollama_finish (STEWARD_PROVIDERS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->ollama_found = found;
  update_ollama_row (self);
}

/* Settings from before providers.json become providers, once. */

static gboolean
put_legacy_provider (StewardPreferencesWindow *self,
                     guint                     index,
                     const char               *base_url)
{
  g_autofree char *key_id = steward_providers_make_key_id (legacy_providers[index].id);
  g_autoptr(GError) error = NULL;

  if (steward_providers_lookup (self->providers, legacy_providers[index].id) != NULL)
    return TRUE;

  if (steward_providers_put (self->providers, legacy_providers[index].id,
                             legacy_providers[index].kind, _(legacy_providers[index].name),
                             base_url, key_id, &error) == NULL)
    {
      g_warning ("The %s provider set up before could not be kept: %s",
                 legacy_providers[index].id, error->message);
      return FALSE;
    }

  return TRUE;
}

typedef struct
{
  StewardPreferencesWindow *self;
  guint                     index;
} LegacyKey;

static void
legacy_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autofree LegacyKey *legacy = user_data;
  g_autofree char *base_url = NULL;
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, NULL);
  if (value == NULL)
    return;

  /* Only whether there is a key matters; it stays in the keyring. */
  steward_secret_value_free (value);
  base_url = g_settings_get_string (legacy->self->settings,
                                    legacy_providers[legacy->index].url_key);
  put_legacy_provider (legacy->self, legacy->index, base_url);
}

/* A provider counts as set up before when its base URL was changed, or
 * when a key was stored for it with the default URL. A key found only
 * after the window closed is left for the next time it opens. */
static void
migrate_legacy_providers (StewardPreferencesWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (legacy_providers); i++)
    {
      g_autoptr(GVariant) value = g_settings_get_user_value (self->settings,
                                                             legacy_providers[i].url_key);
      g_autofree char *key_id = NULL;
      LegacyKey *legacy;

      if (value != NULL)
        {
          if (put_legacy_provider (self, i, g_variant_get_string (value, NULL)))
            g_settings_reset (self->settings, legacy_providers[i].url_key);
          continue;
        }

      if (steward_providers_lookup (self->providers, legacy_providers[i].id) != NULL)
        continue;

      legacy = g_new0 (LegacyKey, 1);
      legacy->self = self;
      legacy->index = i;
      key_id = steward_providers_make_key_id (legacy_providers[i].id);
      steward_secrets_lookup_async (self->secrets, key_id, self->cancellable, legacy_key_cb,
                                    legacy);
    }
}

/* Models */

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!steward_model_catalog_save_finish (STEWARD_MODEL_CATALOG (object), result, &error))
    g_warning ("%s", error->message);
}

static void
save_catalog (StewardPreferencesWindow *self)
{
  steward_model_catalog_save_async (self->catalog, NULL, save_done_cb, NULL);
}

typedef struct
{
  StewardPreferencesWindow *self;
  char                     *provider_id;
  gboolean                  local;
} Refresh;

static void
refresh_free (Refresh *refresh)
{
  g_free (refresh->provider_id);
  g_free (refresh);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Refresh, refresh_free)

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Refresh) refresh = user_data;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  StewardPreferencesWindow *self;
  guint before;
  guint added;

  names = steward_provider_list_models_finish (STEWARD_PROVIDER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = refresh->self;
  if (names == NULL)
    {
      show_toast (self, error->message);
      return;
    }

  before = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  for (guint i = 0; i < names->len; i++)
    steward_model_catalog_add (self->catalog, refresh->provider_id,
                               g_ptr_array_index (names, i), refresh->local);
  added = g_list_model_get_n_items (G_LIST_MODEL (self->catalog)) - before;
  save_catalog (self);

  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u model found, %u new",
                                        "%u models found, %u new",
                                        names->len),
                           names->len, added);
  show_toast (self, title);
}

static void
refresh_models_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  StewardProvider *provider = steward_providers_lookup (self->providers,
                                                        g_variant_get_string (parameter, NULL));
  Refresh *refresh;

  if (provider == NULL)
    return;

  refresh = g_new0 (Refresh, 1);
  refresh->self = self;
  refresh->provider_id = g_strdup (steward_provider_get_id (provider));
  refresh->local = steward_provider_is_local (provider);
  steward_provider_list_models_async (provider, self->cancellable, list_models_cb, refresh);
}

static const char *
score_name (Score score)
{
  switch (score)
    {
    case SCORE_COST:
      return "cost";
    case SCORE_SPEED:
      return "speed";
    case SCORE_INTELLIGENCE:
    default:
      return "intelligence";
    }
}

static char *
describe_scores (StewardModel *model)
{
  /* Translators: three scores from 0 to 1 of a model. */
  return g_strdup_printf (_("Cost %.2f · Speed %.2f · Intelligence %.2f"),
                          steward_model_get_cost (model), steward_model_get_speed (model),
                          steward_model_get_intelligence (model));
}

static void
score_changed_cb (StewardPreferencesWindow *self,
                  GtkSpinButton            *spin)
{
  const char *id = g_object_get_data (G_OBJECT (spin), MODEL_KEY);
  Score score = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (spin), SCORE_KEY));
  StewardModel *model = steward_model_catalog_lookup (self->catalog, id);
  double scores[N_SCORES];

  if (model == NULL)
    return;

  scores[SCORE_COST] = steward_model_get_cost (model);
  scores[SCORE_SPEED] = steward_model_get_speed (model);
  scores[SCORE_INTELLIGENCE] = steward_model_get_intelligence (model);

  /* The row following the model is no change of the person's. */
  if (scores[score] == gtk_spin_button_get_value (spin))
    return;
  scores[score] = gtk_spin_button_get_value (spin);

  steward_model_catalog_set_scores (self->catalog, id, scores[SCORE_COST], scores[SCORE_SPEED],
                                    scores[SCORE_INTELLIGENCE]);
  save_catalog (self);
}

static void
sync_model_row (GtkWidget *row)
{
  StewardModel *model = g_object_get_data (G_OBJECT (row), MODEL_KEY);
  g_autofree char *subtitle = describe_scores (model);
  GtkSpinButton **spins = g_object_get_data (G_OBJECT (row), "steward-spins");

  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
  gtk_spin_button_set_value (spins[SCORE_COST], steward_model_get_cost (model));
  gtk_spin_button_set_value (spins[SCORE_SPEED], steward_model_get_speed (model));
  gtk_spin_button_set_value (spins[SCORE_INTELLIGENCE], steward_model_get_intelligence (model));
}

static GtkSpinButton *
add_score_row (StewardPreferencesWindow *self,
               AdwExpanderRow           *row,
               StewardModel             *model,
               Score                     score)
{
  static const char * const titles[] = {
    [SCORE_COST] = N_("Cost"),
    [SCORE_SPEED] = N_("Speed"),
    [SCORE_INTELLIGENCE] = N_("Intelligence"),
  };
  static const char * const subtitles[] = {
    [SCORE_COST] = N_("0 is free, 1 the most expensive"),
    [SCORE_SPEED] = N_("0 is slow, 1 the quickest"),
    [SCORE_INTELLIGENCE] = N_("0 is simple, 1 the most able"),
  };
  const char *id = steward_model_get_id (model);
  GtkWidget *score_row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (0.0, 1.0, 0.05);
  g_autofree char *accessible = NULL;
  g_autofree char *name = g_strdup_printf ("%s:%s", score_name (score), id);

  switch (score)
    {
    case SCORE_COST:
      /* Translators: %s is a model ("ollama/qwen2.5:7b"); read by screen readers. */
      accessible = g_strdup_printf (_("Cost of “%s”"), id);
      break;
    case SCORE_SPEED:
      /* Translators: %s is a model ("ollama/qwen2.5:7b"); read by screen readers. */
      accessible = g_strdup_printf (_("Speed of “%s”"), id);
      break;
    case SCORE_INTELLIGENCE:
    default:
      /* Translators: %s is a model ("ollama/qwen2.5:7b"); read by screen readers. */
      accessible = g_strdup_printf (_("Intelligence of “%s”"), id);
      break;
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (score_row), _(titles[score]));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (score_row), _(subtitles[score]));
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 2);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_widget_set_name (spin, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_object_set_data_full (G_OBJECT (spin), MODEL_KEY, g_strdup (id), g_free);
  g_object_set_data (G_OBJECT (spin), SCORE_KEY, GINT_TO_POINTER (score));
  g_signal_connect_object (spin, "value-changed",
                           G_CALLBACK (score_changed_cb), self, G_CONNECT_SWAPPED);

  adw_action_row_add_suffix (ADW_ACTION_ROW (score_row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (score_row), spin);
  adw_expander_row_add_row (row, score_row);

  return GTK_SPIN_BUTTON (spin);
}

static void
remove_model_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);

  steward_model_catalog_remove (self->catalog, g_variant_get_string (parameter, NULL));
  save_catalog (self);
}

static GtkWidget *
create_model_row (StewardPreferencesWindow *self,
                  StewardModel             *model)
{
  const char *id = steward_model_get_id (model);
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *remove_row = adw_action_row_new ();
  GtkWidget *remove_button;
  GtkSpinButton **spins = g_new0 (GtkSpinButton *, N_SCORES);
  g_autofree char *accessible = NULL;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), id);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (row));
  gtk_widget_set_name (row, id);
  g_object_set_data_full (G_OBJECT (row), MODEL_KEY, g_object_ref (model), g_object_unref);
  g_object_set_data_full (G_OBJECT (row), "steward-spins", spins, g_free);

  if (steward_model_get_local (model))
    {
      GtkWidget *local = gtk_label_new (_("On this computer"));

      gtk_widget_add_css_class (local, "dim-label");
      adw_expander_row_add_action (ADW_EXPANDER_ROW (row), local);
    }

  for (Score score = SCORE_COST; score < N_SCORES; score++)
    spins[score] = add_score_row (self, ADW_EXPANDER_ROW (row), model, score);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (remove_row), _("Remove This Model"));
  /* Translators: %s is a model; read by screen readers. */
  accessible = g_strdup_printf (_("Remove the model “%s”"), id);
  remove_button = new_button (_("_Remove"), accessible, "prefs.remove-model", id);
  gtk_widget_add_css_class (remove_button, "destructive-action");
  adw_action_row_add_suffix (ADW_ACTION_ROW (remove_row), remove_button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (remove_row), remove_button);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), remove_row);

  g_signal_connect_object (model, "notify", G_CALLBACK (sync_model_row), row,
                           G_CONNECT_SWAPPED);
  sync_model_row (row);

  return row;
}

static void
rebuild_model_rows (StewardPreferencesWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  g_autofree char *selected = NULL;
  GObject *item = adw_combo_row_get_selected_item (self->hint_model_row);

  if (item != NULL)
    selected = g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));

  clear_rows (self->models_group, self->model_rows);
  gtk_string_list_splice (self->hint_models, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->hint_models)), NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      GtkWidget *row = create_model_row (self, model);

      adw_preferences_group_add (self->models_group, row);
      g_ptr_array_add (self->model_rows, row);
      gtk_string_list_append (self->hint_models, steward_model_get_id (model));
      if (g_strcmp0 (selected, steward_model_get_id (model)) == 0)
        adw_combo_row_set_selected (self->hint_model_row, i);
    }

  if (n == 0)
    add_placeholder (self->models_group, self->model_rows,
                     _("No models yet: refresh a provider’s models above"));
}

/* The hint map */

static void
remove_hint_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);

  steward_model_catalog_set_hint (self->catalog, g_variant_get_string (parameter, NULL), NULL);
  save_catalog (self);
}

static void
add_hint_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->hint_entry_row));
  g_autofree char *hint = g_strstrip (g_strdup (text ? text : ""));
  GObject *item = adw_combo_row_get_selected_item (self->hint_model_row);

  if (*hint == '\0')
    {
      show_toast (self, _("Write the hint first, such as “sonnet”"));
      return;
    }

  if (item == NULL)
    {
      show_toast (self, _("There is no model to send the hint to yet"));
      return;
    }

  steward_model_catalog_set_hint (self->catalog, hint,
                                  gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
  save_catalog (self);
  gtk_editable_set_text (GTK_EDITABLE (self->hint_entry_row), "");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
rebuild_hint_rows (StewardPreferencesWindow *self)
{
  GHashTable *hints = steward_model_catalog_get_hints (self->catalog);
  g_autofree const char **keys = NULL;
  guint n = 0;

  clear_rows (self->hints_group, self->hint_rows);

  keys = (const char **) g_hash_table_get_keys_as_array (hints, &n);
  qsort (keys, n, sizeof (char *), compare_strings);

  for (guint i = 0; i < n; i++)
    {
      const char *model = g_hash_table_lookup (hints, keys[i]);
      g_autofree char *title = NULL;
      g_autofree char *accessible = NULL;
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button;

      /* Translators: a hint family, then the model it sends to. */
      title = g_strdup_printf (_("%s → %s"), keys[i], model);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      if (steward_model_catalog_lookup (self->catalog, model) == NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("This model is not in your list"));
      gtk_widget_set_name (row, keys[i]);

      /* Translators: %s is a hint ("sonnet"); read by screen readers. */
      accessible = g_strdup_printf (_("Remove the hint “%s”"), keys[i]);
      button = new_button (_("_Remove"), accessible, "prefs.remove-hint", keys[i]);
      gtk_widget_add_css_class (button, "flat");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

      adw_preferences_group_add (self->hints_group, row);
      g_ptr_array_add (self->hint_rows, row);
    }

  if (n == 0)
    add_placeholder (self->hints_group, self->hint_rows,
                     _("No hints: a server’s names are matched against your models’ names"));
}

static void
show_audit_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  GtkWidget *dialog = steward_audit_dialog_new (self->host);

  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
}

static SamplingDefaults
read_sampling_defaults (GSettings *settings)
{
  g_autofree char *policy = g_settings_get_string (settings, "sampling-default-policy");
  SamplingDefaults defaults;

  defaults.policy = g_strcmp0 (policy, "deny") == 0 ? STEWARD_SAMPLING_POLICY_DENY
                                                    : STEWARD_SAMPLING_POLICY_ASK;
  defaults.max_tokens = g_settings_get_uint (settings, "sampling-default-max-tokens");
  defaults.per_minute = g_settings_get_uint (settings, "sampling-default-per-minute");
  defaults.daily_tokens = g_settings_get_uint (settings, "sampling-default-daily-tokens");

  return defaults;
}

static guint
get_limit (StewardSamplingSettings *sampling,
           Limit                    limit)
{
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      return steward_sampling_settings_get_max_tokens (sampling);
    case LIMIT_PER_MINUTE:
      return steward_sampling_settings_get_per_minute (sampling);
    case LIMIT_DAILY_TOKENS:
    default:
      return steward_sampling_settings_get_daily_tokens (sampling);
    }
}

static void
set_limit (StewardSamplingSettings *sampling,
           Limit                    limit,
           guint                    value)
{
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      steward_sampling_settings_set_max_tokens (sampling, value);
      break;
    case LIMIT_PER_MINUTE:
      steward_sampling_settings_set_per_minute (sampling, value);
      break;
    case LIMIT_DAILY_TOKENS:
    default:
      steward_sampling_settings_set_daily_tokens (sampling, value);
      break;
    }
}

static StewardSamplingSettings *
get_sampling (StewardPreferencesWindow *self,
              const char               *server)
{
  return steward_sampling_broker_get_settings (self->broker, server);
}

static char *
describe_server (StewardPreferencesWindow *self,
                 const char               *server)
{
  StewardSamplingPolicy policy = steward_sampling_settings_get_policy (get_sampling (self, server));
  guint used = steward_sampling_broker_get_tokens_used (self->broker, server);
  const char *policy_label = (guint) policy < G_N_ELEMENTS (policy_labels) ?
                             _(policy_labels[policy]) : "";

  /* Translators: a sampling policy ("Ask Every Time"), then a count of tokens. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s · %u token used today",
                                       "%s · %u tokens used today",
                                       used),
                          policy_label, used);
}

static void
sync_server_row (StewardPreferencesWindow *self,
                 GtkWidget                *row)
{
  const char *server = g_object_get_data (G_OBJECT (row), SERVER_KEY);
  AdwComboRow *policy_row = g_object_get_data (G_OBJECT (row), "steward-policy-row");
  GtkLabel *used_label = g_object_get_data (G_OBJECT (row), "steward-used-label");
  GtkSwitch *local_switch = g_object_get_data (G_OBJECT (row), "steward-local-switch");
  GtkSwitch *any_switch = g_object_get_data (G_OBJECT (row), "steward-any-switch");
  GPtrArray *checks = g_object_get_data (G_OBJECT (row), "steward-checks");
  StewardSamplingSettings *sampling;
  const char * const *allowed;
  g_autofree char *subtitle = NULL;
  g_autofree char *used = NULL;
  Limit limit;

  if (server == NULL)
    return;

  sampling = get_sampling (self, server);
  self->syncing = TRUE;

  adw_combo_row_set_selected (policy_row, steward_sampling_settings_get_policy (sampling));
  for (limit = LIMIT_MAX_TOKENS; limit <= LIMIT_DAILY_TOKENS; limit++)
    {
      static const char * const keys[] = {
        "steward-max-spin", "steward-minute-spin", "steward-daily-spin",
      };
      GtkSpinButton *spin = g_object_get_data (G_OBJECT (row), keys[limit]);

      gtk_spin_button_set_value (spin, get_limit (sampling, limit));
    }

  used = g_strdup_printf ("%u", steward_sampling_broker_get_tokens_used (self->broker, server));
  gtk_label_set_text (used_label, used);
  subtitle = describe_server (self, server);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);

  allowed = steward_sampling_settings_get_models (sampling);
  gtk_switch_set_active (local_switch, steward_sampling_settings_get_local_only (sampling));
  gtk_switch_set_active (any_switch, allowed == NULL);
  for (guint i = 0; i < checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (checks, i);
      const char *id = g_object_get_data (G_OBJECT (check), MODEL_KEY);

      gtk_check_button_set_active (check, allowed == NULL || g_strv_contains (allowed, id));
      gtk_widget_set_sensitive (GTK_WIDGET (check), allowed != NULL);
    }

  self->syncing = FALSE;
}

static void
local_only_cb (StewardPreferencesWindow *self,
               GParamSpec               *pspec,
               GtkSwitch                *widget)
{
  const char *server = g_object_get_data (G_OBJECT (widget), SERVER_KEY);

  if (!self->syncing)
    steward_sampling_settings_set_local_only (get_sampling (self, server),
                                              gtk_switch_get_active (widget));
}

/* The models the server's checks allow, as they are now. */
static void
apply_model_checks (StewardPreferencesWindow *self,
                    const char               *server,
                    GPtrArray                *checks)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) models = NULL;

  for (guint i = 0; i < checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (checks, i);

      if (gtk_check_button_get_active (check))
        g_strv_builder_add (builder, g_object_get_data (G_OBJECT (check), MODEL_KEY));
    }

  models = g_strv_builder_end (builder);
  steward_sampling_settings_set_models (get_sampling (self, server),
                                        (const char * const *) models);
}

static void
any_model_cb (StewardPreferencesWindow *self,
              GParamSpec               *pspec,
              GtkSwitch                *widget)
{
  const char *server = g_object_get_data (G_OBJECT (widget), SERVER_KEY);
  GPtrArray *checks = g_object_get_data (G_OBJECT (widget), "steward-checks");

  if (self->syncing)
    return;

  /* Turned off, the list starts as every model there is now, and the
   * person takes away from it; models found later are not let in. */
  if (gtk_switch_get_active (widget))
    steward_sampling_settings_set_models (get_sampling (self, server), NULL);
  else
    apply_model_checks (self, server, checks);
}

static void
model_check_cb (StewardPreferencesWindow *self,
                GtkCheckButton           *check)
{
  const char *server = g_object_get_data (G_OBJECT (check), SERVER_KEY);
  GPtrArray *checks = g_object_get_data (G_OBJECT (check), "steward-checks");

  if (!self->syncing)
    apply_model_checks (self, server, checks);
}

static GtkSwitch *
add_switch_row (AdwExpanderRow *row,
                const char     *server,
                const char     *title,
                const char     *subtitle,
                const char     *accessible,
                const char     *name)
{
  GtkWidget *switch_row = adw_action_row_new ();
  GtkWidget *widget = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (switch_row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (switch_row), subtitle);
  gtk_widget_set_valign (widget, GTK_ALIGN_CENTER);
  gtk_widget_set_name (widget, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_object_set_data_full (G_OBJECT (widget), SERVER_KEY, g_strdup (server), g_free);
  adw_action_row_add_suffix (ADW_ACTION_ROW (switch_row), widget);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (switch_row), widget);
  adw_expander_row_add_row (row, switch_row);

  return GTK_SWITCH (widget);
}

/* Which of the person's models may answer the server's requests. */
static void
add_model_rows (StewardPreferencesWindow *self,
                AdwExpanderRow           *row,
                const char               *server)
{
  g_autofree char *accessible = NULL;
  g_autofree char *name = NULL;
  GPtrArray *checks = g_ptr_array_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  GtkSwitch *local_switch;
  GtkSwitch *any_switch;

  g_object_set_data_full (G_OBJECT (row), "steward-checks", checks,
                          (GDestroyNotify) g_ptr_array_unref);

  /* Translators: %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Only models on this computer answer “%s”"), server);
  name = g_strdup_printf ("local-only:%s", server);
  local_switch = add_switch_row (row, server, _("Only Models on This Computer"),
                                 _("Nothing of its requests leaves this computer"),
                                 accessible, name);
  g_signal_connect_object (local_switch, "notify::active",
                           G_CALLBACK (local_only_cb), self, G_CONNECT_SWAPPED);
  g_object_set_data (G_OBJECT (row), "steward-local-switch", local_switch);

  g_free (accessible);
  g_free (name);
  /* Translators: %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Any of your models may answer “%s”"), server);
  name = g_strdup_printf ("any-model:%s", server);
  any_switch = add_switch_row (row, server, _("Any of Your Models"),
                               _("Turn off to choose the models below"), accessible, name);
  g_object_set_data (G_OBJECT (any_switch), "steward-checks", checks);
  g_signal_connect_object (any_switch, "notify::active",
                           G_CALLBACK (any_model_cb), self, G_CONNECT_SWAPPED);
  g_object_set_data (G_OBJECT (row), "steward-any-switch", any_switch);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      const char *id = steward_model_get_id (model);
      GtkWidget *model_row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *check_accessible = NULL;
      g_autofree char *check_name = g_strdup_printf ("allow:%s:%s", server, id);

      /* Translators: the first %s is a model, the second a server; read by screen readers. */
      check_accessible = g_strdup_printf (_("“%s” may answer “%s”"), id, server);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (model_row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (model_row), id);
      gtk_widget_set_name (check, check_name);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, check_accessible,
                                      -1);
      g_object_set_data_full (G_OBJECT (check), SERVER_KEY, g_strdup (server), g_free);
      g_object_set_data_full (G_OBJECT (check), MODEL_KEY, g_strdup (id), g_free);
      g_object_set_data (G_OBJECT (check), "steward-checks", checks);
      g_signal_connect_object (check, "toggled",
                               G_CALLBACK (model_check_cb), self, G_CONNECT_SWAPPED);
      adw_action_row_add_prefix (ADW_ACTION_ROW (model_row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (model_row), check);
      adw_expander_row_add_row (row, model_row);
      g_ptr_array_add (checks, check);
    }
}

static void
policy_selected_cb (StewardPreferencesWindow *self,
                    GParamSpec               *pspec,
                    AdwComboRow              *policy_row)
{
  const char *server = g_object_get_data (G_OBJECT (policy_row), SERVER_KEY);
  guint selected = adw_combo_row_get_selected (policy_row);

  if (self->syncing || selected > STEWARD_SAMPLING_POLICY_ALWAYS)
    return;

  if (steward_sampling_settings_get_policy (get_sampling (self, server)) != selected)
    steward_sampling_settings_set_policy (get_sampling (self, server), selected);
}

static void
limit_changed_cb (StewardPreferencesWindow *self,
                  GtkSpinButton            *spin)
{
  const char *server = g_object_get_data (G_OBJECT (spin), SERVER_KEY);
  Limit limit = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (spin), LIMIT_KEY));
  guint value = (guint) gtk_spin_button_get_value_as_int (spin);

  if (self->syncing)
    return;

  if (get_limit (get_sampling (self, server), limit) != value)
    set_limit (get_sampling (self, server), limit, value);
}

static char *
describe_limit (Limit       limit,
                const char *server)
{
  /* Translators: each %s is a server's name; read by screen readers. */
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      return g_strdup_printf (_("Most tokens per answer for “%s”"), server);
    case LIMIT_PER_MINUTE:
      return g_strdup_printf (_("Requests per minute for “%s”"), server);
    case LIMIT_DAILY_TOKENS:
    default:
      return g_strdup_printf (_("Tokens per day for “%s”"), server);
    }
}

static GtkSpinButton *
add_limit_row (StewardPreferencesWindow *self,
               AdwExpanderRow           *row,
               const char               *server,
               Limit                     limit)
{
  static const struct {
    const char *title;
    double      lower;
    double      upper;
    double      step;
  } limits[] = {
    [LIMIT_MAX_TOKENS] = { N_("Most Tokens per Answer"), 1, 1000000, 256 },
    [LIMIT_PER_MINUTE] = { N_("Requests per Minute"), 0, 600, 1 },
    [LIMIT_DAILY_TOKENS] = { N_("Tokens per Day"), 0, 100000000, 1000 },
  };
  GtkWidget *limit_row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (limits[limit].lower, limits[limit].upper,
                                                    limits[limit].step);
  g_autofree char *accessible = describe_limit (limit, server);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (limit_row), _(limits[limit].title));
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_object_set_data_full (G_OBJECT (spin), SERVER_KEY, g_strdup (server), g_free);
  g_object_set_data (G_OBJECT (spin), LIMIT_KEY, GINT_TO_POINTER (limit));
  g_signal_connect_object (spin, "value-changed",
                           G_CALLBACK (limit_changed_cb), self, G_CONNECT_SWAPPED);

  adw_action_row_add_suffix (ADW_ACTION_ROW (limit_row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (limit_row), spin);
  adw_expander_row_add_row (row, limit_row);

  return GTK_SPIN_BUTTON (spin);
}

static void
sampling_notify_cb (StewardSamplingSettings *sampling,
                    GParamSpec              *pspec,
                    GtkWidget               *row)
{
  StewardPreferencesWindow *self = g_object_get_data (G_OBJECT (row), "steward-window");

  if (self != NULL)
    sync_server_row (self, row);
}

static GtkWidget *
create_server_row (StewardPreferencesWindow *self,
                   const char               *server)
{
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *policy_row = adw_combo_row_new ();
  GtkWidget *used_row = adw_action_row_new ();
  GtkWidget *used_label = gtk_label_new (NULL);
  g_autoptr(GtkStringList) policies = gtk_string_list_new (NULL);
  guint i;

  /* Server names are shown as they are, never as markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), server);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (row));
  g_object_set_data_full (G_OBJECT (row), SERVER_KEY, g_strdup (server), g_free);

  for (i = 0; i < G_N_ELEMENTS (policy_labels); i++)
    gtk_string_list_append (policies, _(policy_labels[i]));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (policy_row), _("Sampling Requests"));
  adw_combo_row_set_model (ADW_COMBO_ROW (policy_row), G_LIST_MODEL (policies));
  g_object_set_data_full (G_OBJECT (policy_row), SERVER_KEY, g_strdup (server), g_free);
  g_signal_connect_object (policy_row, "notify::selected",
                           G_CALLBACK (policy_selected_cb), self, G_CONNECT_SWAPPED);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), policy_row);
  g_object_set_data (G_OBJECT (row), "steward-policy-row", policy_row);

  g_object_set_data (G_OBJECT (row), "steward-max-spin",
                     add_limit_row (self, ADW_EXPANDER_ROW (row), server, LIMIT_MAX_TOKENS));
  g_object_set_data (G_OBJECT (row), "steward-minute-spin",
                     add_limit_row (self, ADW_EXPANDER_ROW (row), server, LIMIT_PER_MINUTE));
  g_object_set_data (G_OBJECT (row), "steward-daily-spin",
                     add_limit_row (self, ADW_EXPANDER_ROW (row), server, LIMIT_DAILY_TOKENS));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (used_row), _("Tokens Used Today"));
  gtk_widget_add_css_class (used_label, "numeric");
  gtk_label_set_use_markup (GTK_LABEL (used_label), FALSE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (used_row), used_label);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), used_row);
  g_object_set_data (G_OBJECT (row), "steward-used-label", used_label);

  add_model_rows (self, ADW_EXPANDER_ROW (row), server);

  /* A change made elsewhere (another window, a load) shows here. */
  g_object_set_data (G_OBJECT (row), "steward-window", self);
  g_signal_connect_object (get_sampling (self, server), "notify",
                           G_CALLBACK (sampling_notify_cb), row, 0);
  sync_server_row (self, row);

  return row;
}

static void
rebuild_server_rows (StewardPreferencesWindow *self)
{
  guint n_servers = g_list_model_get_n_items (self->registry);
  guint i;

  for (i = 0; i < self->server_rows->len; i++)
    adw_preferences_group_remove (self->servers_group, g_ptr_array_index (self->server_rows, i));
  g_ptr_array_set_size (self->server_rows, 0);

  for (i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (self->registry, i);
      GtkWidget *row = create_server_row (self, steward_server_get_name (server));

      adw_preferences_group_add (self->servers_group, row);
      g_ptr_array_add (self->server_rows, row);
    }

  if (n_servers == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No servers are set up yet"));
      gtk_widget_add_css_class (row, "dim-label");
      adw_preferences_group_add (self->servers_group, row);
      g_ptr_array_add (self->server_rows, row);
    }
}

static void
registry_items_changed_cb (StewardPreferencesWindow *self)
{
  steward_preferences_window_apply_sampling_defaults (self->host, self->settings);
  rebuild_server_rows (self);
}

static void
default_policy_selected_cb (StewardPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->default_policy_row);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;

  g_settings_set_string (self->settings, "sampling-default-policy",
                         selected == 0 ? "deny" : "ask");
}

static void
sync_default_policy (StewardPreferencesWindow *self)
{
  SamplingDefaults defaults = read_sampling_defaults (self->settings);

  self->syncing = TRUE;
  adw_combo_row_set_selected (self->default_policy_row,
                              defaults.policy == STEWARD_SAMPLING_POLICY_DENY ? 0 : 1);
  self->syncing = FALSE;
}

static AdwColorScheme
color_scheme_from_index (guint index)
{
  switch (index)
    {
    case 1:
      return ADW_COLOR_SCHEME_FORCE_LIGHT;
    case 2:
      return ADW_COLOR_SCHEME_FORCE_DARK;
    default:
      return ADW_COLOR_SCHEME_DEFAULT;
    }
}

static guint
color_scheme_index (GSettings *settings)
{
  g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (color_scheme_keys); i++)
    {
      if (g_strcmp0 (scheme, color_scheme_keys[i]) == 0)
        return i;
    }

  return 0;
}

static void
color_scheme_setting_cb (StewardPreferencesWindow *self)
{
  guint index = color_scheme_index (self->settings);

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      color_scheme_from_index (index));
  if (adw_combo_row_get_selected (self->color_scheme_row) != index)
    adw_combo_row_set_selected (self->color_scheme_row, index);
}

static void
color_scheme_selected_cb (StewardPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->color_scheme_row);

  if (selected >= G_N_ELEMENTS (color_scheme_keys))
    return;

  if (selected != color_scheme_index (self->settings))
    g_settings_set_string (self->settings, "color-scheme", color_scheme_keys[selected]);
}

/* The servers' lists of models follow the catalogue. */
static void
catalog_items_changed_cb (StewardPreferencesWindow *self)
{
  rebuild_model_rows (self);
  rebuild_hint_rows (self);
  rebuild_server_rows (self);
}

static void
steward_preferences_window_constructed (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  self->secrets = g_object_ref (steward_host_get_secrets (self->host));
  self->broker = g_object_ref (steward_host_get_sampling_broker (self->host));
  self->providers = g_object_ref (steward_host_get_providers (self->host));
  self->catalog = g_object_ref (steward_host_get_model_catalog (self->host));
  self->registry = g_object_ref (G_LIST_MODEL (steward_host_get_registry (self->host)));

  migrate_legacy_providers (self);

  g_signal_connect_object (self->registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->providers, "items-changed",
                           G_CALLBACK (rebuild_provider_rows), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->catalog, "items-changed",
                           G_CALLBACK (catalog_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->catalog, "hints-changed",
                           G_CALLBACK (rebuild_hint_rows), self, G_CONNECT_SWAPPED);

  rebuild_provider_rows (self);
  rebuild_model_rows (self);
  rebuild_hint_rows (self);
  steward_preferences_window_apply_sampling_defaults (self->host, self->settings);
  rebuild_server_rows (self);

  steward_providers_detect_ollama_async (self->providers, self->cancellable, detect_ollama_cb,
                                         self);
}

static void
steward_preferences_window_dispose (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  g_cancellable_cancel (self->cancellable);

  if (self->key_dialog != NULL)
    {
      AdwMessageDialog *dialog = g_steal_pointer (&self->key_dialog);

      g_signal_handlers_disconnect_by_data (dialog, self);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }

  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  if (self->broker != NULL)
    g_signal_handlers_disconnect_by_data (self->broker, self);
  if (self->providers != NULL)
    g_signal_handlers_disconnect_by_data (self->providers, self);
  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_PREFERENCES_WINDOW);

  g_clear_pointer (&self->server_rows, g_ptr_array_unref);
  g_clear_pointer (&self->provider_rows, g_ptr_array_unref);
  g_clear_pointer (&self->refresh_rows, g_ptr_array_unref);
  g_clear_pointer (&self->model_rows, g_ptr_array_unref);
  g_clear_pointer (&self->hint_rows, g_ptr_array_unref);
  g_clear_pointer (&self->key_rows, g_hash_table_unref);
  g_clear_pointer (&self->key_generations, g_hash_table_unref);
  g_clear_object (&self->hint_models);
  g_clear_object (&self->settings);
  g_clear_object (&self->registry);
  g_clear_object (&self->catalog);
  g_clear_object (&self->providers);
  g_clear_object (&self->broker);
  g_clear_object (&self->secrets);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->dispose (object);
}

static void
steward_preferences_window_finalize (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->finalize (object);
}

static void
steward_preferences_window_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

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
steward_preferences_window_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

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
steward_preferences_window_class_init (StewardPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_preferences_window_constructed;
  object_class->dispose = steward_preferences_window_dispose;
  object_class->finalize = steward_preferences_window_finalize;
  object_class->get_property = steward_preferences_window_get_property;
  object_class->set_property = steward_preferences_window_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, Prefs, ollama_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, ollama_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, providers_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_kind_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_name_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_url_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, refresh_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, models_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, hints_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, hint_entry_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, hint_model_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_policy_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_max_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_per_minute_spin);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_daily_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, Prefs, servers_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, color_scheme_row);

  gtk_widget_class_install_action (widget_class, "prefs.set-key", "s", set_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.clear-key", "s", clear_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-provider", NULL, add_provider_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-ollama", NULL, add_ollama_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-provider", "s",
                                   remove_provider_action);
  gtk_widget_class_install_action (widget_class, "prefs.refresh-models", "s",
                                   refresh_models_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-model", "s", remove_model_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-hint", NULL, add_hint_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-hint", "s", remove_hint_action);
  gtk_widget_class_install_action (widget_class, "prefs.show-audit", NULL, show_audit_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_preferences_window_init (StewardPreferencesWindow *self)
{
  GtkWidget *search;

  self->cancellable = g_cancellable_new ();
  self->server_rows = g_ptr_array_new ();
  self->provider_rows = g_ptr_array_new ();
  self->refresh_rows = g_ptr_array_new ();
  self->model_rows = g_ptr_array_new ();
  self->hint_rows = g_ptr_array_new ();
  self->key_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->key_generations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->hint_models = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* libadwaita 1.2 gives its search button an icon and a tooltip only. */
  search = steward_accessible_find_button (GTK_WIDGET (self), "edit-find-symbolic", NULL);
  if (search != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (search),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"),
                                    -1);

  adw_combo_row_set_model (self->hint_model_row, G_LIST_MODEL (self->hint_models));
  self->settings = g_settings_new (APPLICATION_ID);

  g_settings_bind (self->settings, "sampling-default-max-tokens",
                   gtk_spin_button_get_adjustment (self->default_max_tokens_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "sampling-default-per-minute",
                   gtk_spin_button_get_adjustment (self->default_per_minute_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "sampling-default-daily-tokens",
                   gtk_spin_button_get_adjustment (self->default_daily_tokens_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);

  sync_default_policy (self);
  g_signal_connect_object (self->default_policy_row, "notify::selected",
                           G_CALLBACK (default_policy_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::sampling-default-policy",
                           G_CALLBACK (sync_default_policy), self, G_CONNECT_SWAPPED);

  adw_combo_row_set_selected (self->color_scheme_row, color_scheme_index (self->settings));
  g_signal_connect_object (self->color_scheme_row, "notify::selected",
                           G_CALLBACK (color_scheme_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (color_scheme_setting_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
steward_preferences_window_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_PREFERENCES_WINDOW, "host", host, NULL);
}

static gboolean
has_builtin_values (StewardSamplingSettings *sampling)
{
  return steward_sampling_settings_get_policy (sampling) == STEWARD_SAMPLING_POLICY_ASK &&
         steward_sampling_settings_get_max_tokens (sampling) ==
           STEWARD_SAMPLING_DEFAULT_MAX_TOKENS &&
         steward_sampling_settings_get_per_minute (sampling) ==
           STEWARD_SAMPLING_DEFAULT_PER_MINUTE &&
         steward_sampling_settings_get_daily_tokens (sampling) ==
           STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS;
}

void
steward_preferences_window_apply_sampling_defaults (StewardHost *host,
                                                    GSettings   *settings)
{
  StewardSamplingBroker *broker;
  GListModel *registry;
  SamplingDefaults defaults;
  g_auto(GStrv) seen = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  gboolean changed = FALSE;
  guint n_servers;
  guint i;

  g_return_if_fail (STEWARD_IS_HOST (host));
  g_return_if_fail (G_IS_SETTINGS (settings));

  broker = steward_host_get_sampling_broker (host);
  registry = G_LIST_MODEL (steward_host_get_registry (host));
  defaults = read_sampling_defaults (settings);
  seen = g_settings_get_strv (settings, "sampling-defaults-applied");
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) seen);

  n_servers = g_list_model_get_n_items (registry);
  for (i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (registry, i);
      const char *name = steward_server_get_name (server);
      StewardSamplingSettings *sampling;

      if (g_strv_contains ((const char * const *) seen, name))
        continue;

      /* The broker has no defaults of its own to set, so a server still on
       * the broker's built-in values gets these once; a server that already
       * has settings (from policies.json) keeps them. */
      sampling = steward_sampling_broker_get_settings (broker, name);
      if (has_builtin_values (sampling))
        {
          if (defaults.policy != STEWARD_SAMPLING_POLICY_ASK)
            steward_sampling_settings_set_policy (sampling, defaults.policy);
          if (defaults.max_tokens != STEWARD_SAMPLING_DEFAULT_MAX_TOKENS)
            steward_sampling_settings_set_max_tokens (sampling, defaults.max_tokens);
          if (defaults.per_minute != STEWARD_SAMPLING_DEFAULT_PER_MINUTE)
            steward_sampling_settings_set_per_minute (sampling, defaults.per_minute);
          if (defaults.daily_tokens != STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS)
            steward_sampling_settings_set_daily_tokens (sampling, defaults.daily_tokens);
        }

      g_strv_builder_add (builder, name);
      changed = TRUE;
    }

  if (changed)
    {
      g_auto(GStrv) now_seen = g_strv_builder_end (builder);

      g_settings_set_strv (settings, "sampling-defaults-applied", (const char * const *) now_seen);
    }
}

/**
 * steward_preferences_window_get_key_row:
 * @key_id: the keyring id of a provider's key ("provider.anthropic")
 */
AdwActionRow *
steward_preferences_window_get_key_row (StewardPreferencesWindow *self,
                                        const char               *key_id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return g_hash_table_lookup (self->key_rows, key_id);
}

AdwMessageDialog *
steward_preferences_window_get_key_dialog (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->key_dialog;
}

AdwComboRow *
steward_preferences_window_get_color_scheme_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->color_scheme_row;
}

AdwActionRow *
steward_preferences_window_get_ollama_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->ollama_row;
}

static GtkWidget *
find_row (GPtrArray  *rows,
          const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (gtk_widget_get_name (row), name) == 0)
        return row;
    }

  return NULL;
}

AdwExpanderRow *
steward_preferences_window_get_provider_row (StewardPreferencesWindow *self,
                                             const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwExpanderRow *) find_row (self->provider_rows, id);
}

AdwActionRow *
steward_preferences_window_get_refresh_row (StewardPreferencesWindow *self,
                                            const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwActionRow *) find_row (self->refresh_rows, id);
}

AdwExpanderRow *
steward_preferences_window_get_model_row (StewardPreferencesWindow *self,
                                          const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwExpanderRow *) find_row (self->model_rows, id);
}

AdwActionRow *
steward_preferences_window_get_hint_row (StewardPreferencesWindow *self,
                                         const char               *hint)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwActionRow *) find_row (self->hint_rows, hint);
}

AdwExpanderRow *
steward_preferences_window_get_server_row (StewardPreferencesWindow *self,
                                           const char               *server)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  for (guint i = 0; i < self->server_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->server_rows, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (row), SERVER_KEY), server) == 0)
        return ADW_EXPANDER_ROW (row);
    }

  return NULL;
}

void
steward_preferences_window_get_add_rows (StewardPreferencesWindow  *self,
                                         AdwComboRow              **kind,
                                         AdwEntryRow              **name,
                                         AdwEntryRow              **url)
{
  g_return_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self));

  *kind = self->add_kind_row;
  *name = self->add_name_row;
  *url = self->add_url_row;
}

void
steward_preferences_window_get_hint_rows (StewardPreferencesWindow  *self,
                                          AdwEntryRow              **hint,
                                          AdwComboRow              **model)
{
  g_return_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self));

  *hint = self->hint_entry_row;
  *model = self->hint_model_row;
}
