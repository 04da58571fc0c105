/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-preferences-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-accessible.h"
#include "steward-anthropic-provider.h"
#include "steward-manual-provider.h"
#include "steward-openai-provider.h"

#include "steward-error-row.h"
#include "steward-preferences-window-private.h"
#include "steward-provider-row.h"
#include "steward-provider-migration.h"
#include "steward-models-page.h"
#include "steward-preferences-rows.h"
#include "steward-calls-page.h"
#include "steward-sampling-page.h"


/* The nicks of the "color-scheme" key, in the order of the style row. */
static const char * const color_scheme_keys[] = { "follow", "light", "dark" };

struct _StewardPreferencesWindow
{
  AdwPreferencesWindow   parent_instance;

  StewardHost           *host;
  StewardSecrets        *secrets;
  StewardProviders      *providers;
  StewardModelCatalog   *catalog;
  GSettings             *settings;
  GCancellable          *cancellable;

  AdwMessageDialog      *key_dialog;
  /* Key id → the row that shows it, and a count bumped on every lookup,
   * so that a late answer never overwrites a newer one. */
  GHashTable            *key_rows;
  /* Provider id → the error a person must act on, and the row under its
   * refresh row that shows it. */
  GHashTable            *provider_errors;
  GHashTable            *refresh_error_rows;
  GHashTable            *key_generations;
  GPtrArray             *provider_rows;
  GPtrArray             *refresh_rows;
  gboolean               ollama_found;

  AdwPreferencesGroup   *ollama_group;
  AdwActionRow          *ollama_row;
  AdwPreferencesGroup   *providers_group;
  AdwComboRow           *add_kind_row;
  AdwEntryRow           *add_name_row;
  AdwEntryRow           *add_url_row;
  StewardErrorRow       *add_error_row;
  AdwPreferencesGroup   *refresh_group;
  StewardModelsPage     *models_page;
  StewardSamplingPage   *sampling_page;
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

#define PROVIDER_KEY "steward-provider"
#define MODEL_KEY    "steward-model"
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
  if (STEWARD_IS_HTTP_PROVIDER (provider))
    return steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider));

  return NULL;
}

static const char *
provider_key_id (StewardProvider *provider)
{
  if (STEWARD_IS_HTTP_PROVIDER (provider))
    return steward_http_provider_get_key_id (STEWARD_HTTP_PROVIDER (provider));

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

static void set_provider_error (StewardPreferencesWindow *self,
                                const char               *id,
                                const char               *message);

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
    set_provider_error (self, id, error->message);
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
  StewardProviderRow *row = g_hash_table_lookup (self->key_rows, key_id);

  if (row != NULL)
    steward_provider_row_set_key_state (row, subtitle, is_set);
}

/* The key row's subtitle while the keyring works. */
static void
set_key_busy (StewardPreferencesWindow *self,
              const char               *key_id,
              const char               *subtitle)
{
  StewardProviderRow *row = g_hash_table_lookup (self->key_rows, key_id);

  if (row != NULL)
    adw_action_row_set_subtitle (steward_provider_row_get_key_row (row), subtitle);
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

  set_key_busy (self, key_id, _("Looking up…"));
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

      set_provider_error (op->self, op->provider_id, title);
    }
  else
    {
      /* The provider reads its key from now on; an error it gave before
       * may well have been about the key. */
      set_provider_error (op->self, op->provider_id, NULL);
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

  /* Translators: how the key is named in the keyring; %s is a provider. */
  label = g_strdup_printf (_("Steward: %s API key"),
                           provider ? steward_provider_get_display_name (provider) : provider_id);
  set_key_busy (self, key_id, _("Saving…"));
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
          set_provider_error (op->self, op->provider_id, title);
          refresh_key (op->self, op->provider_id, op->key_id);
          return;
        }
    }

  /* Without a key the provider asks for none, as Ollama wants. */
  set_provider_error (op->self, op->provider_id, NULL);
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

static void provider_edited_cb          (StewardProviderRow       *row,
                                        const char               *name,
                                        const char               *base_url,
                                        StewardPreferencesWindow *self);
static void provider_error_dismissed_cb (StewardPreferencesWindow *self,
                                        GObject                  *row);

/* What a provider's error says, above the message itself. */
static char *
error_title (StewardProvider *provider)
{
  const char *name = steward_provider_get_display_name (provider);

  /* Translators: %s is a provider's name. */
  return g_strdup_printf (_("“%s” needs attention"), name);
}

static GtkWidget *
create_provider_row (StewardPreferencesWindow *self,
                     StewardProvider          *provider)
{
  const char *id = steward_provider_get_id (provider);
  const char *message = g_hash_table_lookup (self->provider_errors, id);
  g_autofree char *key_id = dup_row_key_id (provider);
  GtkWidget *row;

  row = steward_provider_row_new (provider,
                                  kind_label (steward_providers_get_kind (self->providers, id)),
                                  provider_base_url (provider));
  g_signal_connect_object (row, "edited", G_CALLBACK (provider_edited_cb), self, 0);
  g_signal_connect_object (row, "error-dismissed", G_CALLBACK (provider_error_dismissed_cb),
                           self, G_CONNECT_SWAPPED);
  if (message != NULL)
    {
      g_autofree char *title = error_title (provider);

      steward_provider_row_set_error (STEWARD_PROVIDER_ROW (row), title, message);
    }
  g_hash_table_replace (self->key_rows, g_strdup (key_id), row);
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
  button = steward_prefs_new_button (_("Refresh _Models"), accessible, "prefs.refresh-models", id);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  gtk_widget_set_name (row, id);
  g_object_set_data_full (G_OBJECT (row), PROVIDER_KEY, g_strdup (id), g_free);

  return row;
}

/* Under the refresh row, the error the last refresh ended with, until a
 * refresh works, the provider is edited or the person dismisses it. */
static GtkWidget *
create_refresh_error_row (StewardPreferencesWindow *self,
                          StewardProvider          *provider)
{
  const char *id = steward_provider_get_id (provider);
  const char *message = g_hash_table_lookup (self->provider_errors, id);
  GtkWidget *row = steward_error_row_new ();

  gtk_widget_set_name (row, id);
  steward_error_row_set_retry (STEWARD_ERROR_ROW (row), "prefs.refresh-models", id);
  g_signal_connect_object (row, "dismissed", G_CALLBACK (provider_error_dismissed_cb), self,
                           G_CONNECT_SWAPPED);
  if (message != NULL)
    {
      g_autofree char *title = error_title (provider);

      steward_error_row_set_error (STEWARD_ERROR_ROW (row), title, message);
    }

  return row;
}

/* Shows @message (NULL: none) on the provider's rows of both pages, and
 * keeps it for when they are built again. */
static void
set_provider_error (StewardPreferencesWindow *self,
                    const char               *id,
                    const char               *message)
{
  StewardProvider *provider = steward_providers_lookup (self->providers, id);
  GtkWidget *provider_row = steward_prefs_find_row (self->provider_rows, id);
  GtkWidget *error_row = g_hash_table_lookup (self->refresh_error_rows, id);
  g_autofree char *title = NULL;

  if (message == NULL || provider == NULL)
    {
      g_hash_table_remove (self->provider_errors, id);
      if (STEWARD_IS_PROVIDER_ROW (provider_row))
        steward_provider_row_clear_error (STEWARD_PROVIDER_ROW (provider_row));
      if (error_row != NULL)
        steward_error_row_clear (STEWARD_ERROR_ROW (error_row));
      return;
    }

  g_hash_table_replace (self->provider_errors, g_strdup (id), g_strdup (message));
  title = error_title (provider);
  if (STEWARD_IS_PROVIDER_ROW (provider_row))
    steward_provider_row_set_error (STEWARD_PROVIDER_ROW (provider_row), title, message);
  if (error_row != NULL)
    steward_error_row_set_error (STEWARD_ERROR_ROW (error_row), title, message);
}

static void
provider_error_dismissed_cb (StewardPreferencesWindow *self,
                             GObject                  *row)
{
  set_provider_error (self, gtk_widget_get_name (GTK_WIDGET (row)), NULL);
}

/* An edit puts the provider again under the same id, with the same kind
 * and key, so that its models and their settings stay its own. */
static void
provider_edited_cb (StewardProviderRow       *row,
                    const char               *name,
                    const char               *base_url,
                    StewardPreferencesWindow *self)
{
  StewardProvider *provider = steward_provider_row_get_provider (row);
  g_autofree char *id = g_strdup (steward_provider_get_id (provider));
  StewardProviderKind kind = steward_providers_get_kind (self->providers, id);
  g_autoptr(GError) error = NULL;

  if (*name == '\0')
    name = kind_label (kind);
  if (*base_url == '\0' && kind == STEWARD_PROVIDER_KIND_ANTHROPIC)
    base_url = STEWARD_ANTHROPIC_DEFAULT_BASE_URL;
  if (*base_url == '\0')
    {
      set_provider_error (self, id, _("Give the provider’s base URL, such as "
                                      "https://api.openai.com/v1"));
      return;
    }

  if (steward_providers_put (self->providers, id, kind, name, base_url,
                             provider_key_id (provider), &error) == NULL)
    {
      set_provider_error (self, id, error->message);
      return;
    }

  /* What went wrong before may have been the old address. */
  set_provider_error (self, id, NULL);
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

  steward_prefs_clear_rows (self->providers_group, self->provider_rows);
  steward_prefs_clear_rows (self->refresh_group, self->refresh_rows);
  g_hash_table_remove_all (self->key_rows);
  g_hash_table_remove_all (self->refresh_error_rows);

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

      row = create_refresh_error_row (self, provider);
      adw_preferences_group_add (self->refresh_group, row);
      g_ptr_array_add (self->refresh_rows, row);
      g_hash_table_replace (self->refresh_error_rows,
                            g_strdup (steward_provider_get_id (provider)), row);
    }

  if (self->provider_rows->len == 0)
    {
      steward_prefs_add_placeholder (self->providers_group, self->provider_rows,
                       _("No provider is set up: you write the answers"));
      steward_prefs_add_placeholder (self->refresh_group, self->refresh_rows,
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
add_form_changed_cb (StewardPreferencesWindow *self)
{
  steward_error_row_clear (self->add_error_row);
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
      steward_error_row_set_error (self->add_error_row, _("The provider could not be added"),
                                   _("Give the provider’s base URL, such as "
                                     "https://api.openai.com/v1"));
      return;
    }

  id = make_provider_id (self, stripped_name);
  if (steward_providers_put (self->providers, id, kind, stripped_name, stripped_url, NULL,
                             &error) == NULL)
    {
      steward_error_row_set_error (self->add_error_row, _("The provider could not be added"),
                                   error->message);
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
    steward_error_row_set_error (self->add_error_row, _("The provider could not be added"),
                                 error->message);
}

static void
remove_provider_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  const char *id = g_variant_get_string (parameter, NULL);

  if (!steward_providers_remove (self->providers, id, &error))
    set_provider_error (self, id, error->message);
  else
    g_hash_table_remove (self->provider_errors, id);
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
static void
migrated_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  steward_providers_migrate_legacy_finish (STEWARD_PROVIDERS (object), result, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("A provider set up before could not be kept: %s", error->message);
}

/* Models */

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
      set_provider_error (self, refresh->provider_id, error->message);
      return;
    }

  set_provider_error (self, refresh->provider_id, NULL);

  before = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  for (guint i = 0; i < names->len; i++)
    steward_model_catalog_add (self->catalog, refresh->provider_id,
                               g_ptr_array_index (names, i), refresh->local);
  added = g_list_model_get_n_items (G_LIST_MODEL (self->catalog)) - before;
  steward_prefs_save_catalog (self->catalog);

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

static void
steward_preferences_window_constructed (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  self->secrets = g_object_ref (steward_host_get_secrets (self->host));
  self->providers = g_object_ref (steward_host_get_providers (self->host));
  self->catalog = g_object_ref (steward_host_get_model_catalog (self->host));
  steward_models_page_set_catalog (self->models_page, self->catalog);
  self->refresh_group = steward_models_page_get_refresh_group (self->models_page);
  steward_sampling_page_set_host (self->sampling_page, self->host);

  steward_providers_migrate_legacy_async (self->providers, self->settings, self->secrets,
                                          self->cancellable, migrated_cb, NULL);

  g_signal_connect_object (self->providers, "items-changed",
                           G_CALLBACK (rebuild_provider_rows), self, G_CONNECT_SWAPPED);

  rebuild_provider_rows (self);

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

  if (self->providers != NULL)
    g_signal_handlers_disconnect_by_data (self->providers, self);
  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_PREFERENCES_WINDOW);

  g_clear_pointer (&self->provider_rows, g_ptr_array_unref);
  g_clear_pointer (&self->refresh_rows, g_ptr_array_unref);
  g_clear_pointer (&self->key_rows, g_hash_table_unref);
  g_clear_pointer (&self->provider_errors, g_hash_table_unref);
  g_clear_pointer (&self->refresh_error_rows, g_hash_table_unref);
  g_clear_pointer (&self->key_generations, g_hash_table_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->catalog);
  g_clear_object (&self->providers);
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

  g_type_ensure (STEWARD_TYPE_ERROR_ROW);
  g_type_ensure (STEWARD_TYPE_MODELS_PAGE);
  g_type_ensure (STEWARD_TYPE_SAMPLING_PAGE);
  g_type_ensure (STEWARD_TYPE_CALLS_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, Prefs, ollama_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, ollama_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, providers_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_kind_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_name_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_url_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, add_error_row);
  gtk_widget_class_bind_template_callback (widget_class, add_form_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, Prefs, models_page);
  gtk_widget_class_bind_template_child (widget_class, Prefs, sampling_page);
  gtk_widget_class_bind_template_child (widget_class, Prefs, color_scheme_row);

  gtk_widget_class_install_action (widget_class, "prefs.set-key", "s", set_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.clear-key", "s", clear_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-provider", NULL, add_provider_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-ollama", NULL, add_ollama_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-provider", "s",
                                   remove_provider_action);
  gtk_widget_class_install_action (widget_class, "prefs.refresh-models", "s",
                                   refresh_models_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_preferences_window_init (StewardPreferencesWindow *self)
{
  GtkWidget *search;

  self->cancellable = g_cancellable_new ();
  self->provider_rows = g_ptr_array_new ();
  self->refresh_rows = g_ptr_array_new ();
  self->key_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->provider_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->refresh_error_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->key_generations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* libadwaita 1.2 gives its search button an icon and a tooltip only. */
  search = steward_accessible_find_button (GTK_WIDGET (self), "edit-find-symbolic", NULL);
  if (search != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (search),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"),
                                    -1);

  self->settings = g_settings_new (APPLICATION_ID);

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

void
steward_preferences_window_apply_sampling_defaults (StewardHost *host,
                                                    GSettings   *settings)
{
  steward_sampling_page_apply_defaults (host, settings);
}

/**
 * steward_preferences_window_get_key_row:
 * @key_id: the keyring id of a provider's key ("provider.anthropic")
 */
AdwActionRow *
steward_preferences_window_get_key_row (StewardPreferencesWindow *self,
                                        const char               *key_id)
{
  StewardProviderRow *row;

  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  row = g_hash_table_lookup (self->key_rows, key_id);
  return row != NULL ? steward_provider_row_get_key_row (row) : NULL;
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

AdwExpanderRow *
steward_preferences_window_get_provider_row (StewardPreferencesWindow *self,
                                             const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwExpanderRow *) steward_prefs_find_row (self->provider_rows, id);
}

AdwActionRow *
steward_preferences_window_get_refresh_row (StewardPreferencesWindow *self,
                                            const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwActionRow *) steward_prefs_find_row (self->refresh_rows, id);
}

AdwExpanderRow *
steward_preferences_window_get_model_row (StewardPreferencesWindow *self,
                                          const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_models_page_get_model_row (self->models_page, id);
}

AdwActionRow *
steward_preferences_window_get_hint_row (StewardPreferencesWindow *self,
                                         const char               *hint)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_models_page_get_hint_row (self->models_page, hint);
}

AdwExpanderRow *
steward_preferences_window_get_server_row (StewardPreferencesWindow *self,
                                           const char               *server)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_sampling_page_get_server_row (self->sampling_page, server);
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

  steward_models_page_get_hint_form (self->models_page, hint, model);
}

GtkWidget *
steward_preferences_window_get_refresh_error_row (StewardPreferencesWindow *self,
                                                  const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return g_hash_table_lookup (self->refresh_error_rows, id);
}

GtkWidget *
steward_preferences_window_get_add_error_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return GTK_WIDGET (self->add_error_row);
}

GtkWidget *
steward_preferences_window_get_hint_error_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_models_page_get_hint_error_row (self->models_page);
}

StewardModelsPage *
steward_preferences_window_get_models_page (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->models_page;
}
