/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-providers-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-anthropic-provider.h"
#include "steward-manual-provider.h"
#include "steward-openai-provider.h"

#include "steward-error-row.h"
#include "steward-provider-row.h"

#include "steward-providers-page.h"

struct _StewardProvidersPage
{
  AdwPreferencesPage   parent_instance;

  StewardSecrets      *secrets;
  StewardProviders    *providers;
  GCancellable        *cancellable;

  /* The key dialog open, what it is for, and its entry (none to clear). */
  AdwMessageDialog    *key_dialog;
  char                *key_provider_id;
  char                *key_id;
  GtkEditable         *key_entry;
  /* Key id → a count bumped on every lookup, so that a late answer never
   * overwrites a newer one. */
  GHashTable          *key_generations;
  /* Provider id → the error a person must act on. */
  GHashTable          *provider_errors;
  gboolean             ollama_found;

  AdwPreferencesGroup *ollama_group;
  AdwActionRow        *ollama_row;
  GtkListBox          *provider_list;
  AdwComboRow         *add_kind_row;
  AdwEntryRow         *add_name_row;
  AdwEntryRow         *add_url_row;
  StewardErrorRow     *add_error_row;
};

enum {
  ERROR_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardProvidersPage, steward_providers_page, ADW_TYPE_PREFERENCES_PAGE)

/* The row of the provider @id, or of the key @key_id, among those the list
 * box made from the host's list. */
static StewardProviderRow *
find_row (StewardProvidersPage *self,
          const char           *id,
          const char           *key_id)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->provider_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      StewardProviderRow *row;

      if (!STEWARD_IS_PROVIDER_ROW (child))
        continue;
      row = STEWARD_PROVIDER_ROW (child);
      if ((id != NULL &&
           g_strcmp0 (steward_provider_get_id (steward_provider_row_get_provider (row)), id) == 0) ||
          (key_id != NULL && g_strcmp0 (steward_provider_row_get_key_id (row), key_id) == 0))
        return row;
    }

  return NULL;
}

static GtkWindow *
parent_window (StewardProvidersPage *self)
{
  return GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self)));
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

static void set_error (StewardProvidersPage *self,
                       const char           *id,
                       const char           *message);

/* Puts @provider again with another key id, everything else the same. */
static void
put_with_key_id (StewardProvidersPage *self,
                 const char           *id,
                 const char           *key_id)
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
    set_error (self, id, error->message);
}

/* API keys */

typedef struct
{
  StewardProvidersPage *self;
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
key_operation_new (StewardProvidersPage *self,
                   const char           *provider_id,
                   const char           *key_id)
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
set_key_state (StewardProvidersPage *self,
               const char           *key_id,
               const char           *subtitle,
               gboolean              is_set)
{
  StewardProviderRow *row = find_row (self, NULL, key_id);

  if (row != NULL)
    steward_provider_row_set_key_state (row, subtitle, is_set);
}

/* The key row's subtitle while the keyring works. */
static void
set_key_busy (StewardProvidersPage *self,
              const char           *key_id,
              const char           *subtitle)
{
  StewardProviderRow *row = find_row (self, NULL, key_id);

  if (row != NULL)
    adw_action_row_set_subtitle (steward_provider_row_get_key_row (row), subtitle);
}

static void refresh_key (StewardProvidersPage *self,
                         const char           *provider_id,
                         const char           *key_id);

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KeyOperation) op = user_data;
  g_autoptr(GError) error = NULL;
  StewardProvidersPage *self;
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
refresh_key (StewardProvidersPage *self,
             const char           *provider_id,
             const char           *key_id)
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

      set_error (op->self, op->provider_id, title);
    }
  else
    {
      /* The provider reads its key from now on; an error it gave before
       * may well have been about the key. */
      set_error (op->self, op->provider_id, NULL);
      put_with_key_id (op->self, op->provider_id, op->key_id);
    }

  refresh_key (op->self, op->provider_id, op->key_id);
}

static void
store_key (StewardProvidersPage *self,
           const char           *provider_id,
           const char           *key_id,
           const char           *value)
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
          set_error (op->self, op->provider_id, title);
          refresh_key (op->self, op->provider_id, op->key_id);
          return;
        }
    }

  /* Without a key the provider asks for none, as Ollama wants. */
  set_error (op->self, op->provider_id, NULL);
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
forget_key_dialog (StewardProvidersPage *self)
{
  self->key_dialog = NULL;
  self->key_entry = NULL;
  g_clear_pointer (&self->key_provider_id, g_free);
  g_clear_pointer (&self->key_id, g_free);
}

static void
key_dialog_response_cb (AdwMessageDialog     *dialog,
                        const char           *response,
                        StewardProvidersPage *self)
{
  g_autofree char *provider_id = g_steal_pointer (&self->key_provider_id);
  g_autofree char *key_id = g_steal_pointer (&self->key_id);
  GtkEditable *entry = self->key_entry;

  if (self->key_dialog != dialog)
    return;
  forget_key_dialog (self);

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

/* One key dialog at a time: the page keeps what it is for. */
static void
present_key_dialog (StewardProvidersPage *self,
                    AdwMessageDialog     *dialog,
                    GtkEditable          *entry,
                    StewardProvider      *provider)
{
  if (self->key_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->key_dialog));
  forget_key_dialog (self);

  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  self->key_provider_id = g_strdup (steward_provider_get_id (provider));
  self->key_id = dup_row_key_id (provider);
  self->key_entry = entry;
  g_signal_connect_object (dialog, "response", G_CALLBACK (key_dialog_response_cb), self, 0);
  self->key_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The provider an action's parameter names, when it has a key to set:
 * the person, who writes the answers, has none. */
static StewardProvider *
lookup_keyed_provider (StewardProvidersPage *self,
                       GVariant             *parameter)
{
  StewardProvider *provider = steward_providers_lookup (self->providers,
                                                        g_variant_get_string (parameter, NULL));

  return provider != NULL && !is_manual (provider) ? provider : NULL;
}

static void
set_key_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (widget);
  StewardProvider *provider = lookup_keyed_provider (self, parameter);
  GtkWidget *dialog;
  GtkWidget *entry;
  g_autofree char *heading = NULL;
  g_autofree char *accessible = NULL;
  const char *name;

  if (provider == NULL)
    return;

  name = steward_provider_get_display_name (provider);
  /* Translators: %s is a provider's name ("Anthropic"). */
  heading = g_strdup_printf (_("Set the %s API Key"), name);
  dialog = adw_message_dialog_new (parent_window (self), heading,
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

  present_key_dialog (self, ADW_MESSAGE_DIALOG (dialog), GTK_EDITABLE (entry), provider);
  gtk_widget_grab_focus (entry);
}

static void
clear_key_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (widget);
  StewardProvider *provider = lookup_keyed_provider (self, parameter);
  GtkWidget *dialog;
  g_autofree char *heading = NULL;

  if (provider == NULL)
    return;

  /* Translators: %s is a provider's name ("Anthropic"). */
  heading = g_strdup_printf (_("Clear the %s API Key?"),
                             steward_provider_get_display_name (provider));
  dialog = adw_message_dialog_new (parent_window (self), heading,
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

  present_key_dialog (self, ADW_MESSAGE_DIALOG (dialog), NULL, provider);
}

/* The list of providers */

static void provider_edited_cb          (StewardProviderRow   *row,
                                         const char           *name,
                                         const char           *base_url,
                                         StewardProvidersPage *self);
static void provider_error_dismissed_cb (StewardProvidersPage *self,
                                         StewardProviderRow   *row);

/* What a provider's error says, above the message itself. */
static char *
error_title (StewardProvider *provider)
{
  const char *name = steward_provider_get_display_name (provider);

  /* Translators: %s is a provider's name. */
  return g_strdup_printf (_("“%s” needs attention"), name);
}

/* Made by the list box for each provider of the host, as it comes. */
static GtkWidget *
create_provider_row (gpointer item,
                     gpointer user_data)
{
  StewardProvidersPage *self = user_data;
  StewardProvider *provider = item;
  const char *id = steward_provider_get_id (provider);
  const char *message = g_hash_table_lookup (self->provider_errors, id);
  g_autofree char *key_id = dup_row_key_id (provider);
  GtkWidget *row;

  row = steward_provider_row_new (provider, key_id,
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
  refresh_key (self, id, key_id);

  return row;
}

static void
set_error (StewardProvidersPage *self,
           const char           *id,
           const char           *message)
{
  StewardProvider *provider = steward_providers_lookup (self->providers, id);
  StewardProviderRow *row = find_row (self, id, NULL);

  if (message == NULL || provider == NULL)
    {
      g_hash_table_remove (self->provider_errors, id);
      if (row != NULL)
        steward_provider_row_clear_error (row);
    }
  else
    {
      g_autofree char *title = error_title (provider);

      g_hash_table_replace (self->provider_errors, g_strdup (id), g_strdup (message));
      if (row != NULL)
        steward_provider_row_set_error (row, title, message);
    }

  g_signal_emit (self, signals[ERROR_CHANGED], 0, id);
}

static void
provider_error_dismissed_cb (StewardProvidersPage *self,
                             StewardProviderRow   *row)
{
  set_error (self, steward_provider_get_id (steward_provider_row_get_provider (row)), NULL);
}

/* An edit puts the provider again under the same id, with the same kind
 * and key, so that its models and their settings stay its own. */
static void
provider_edited_cb (StewardProviderRow       *row,
                    const char               *name,
                    const char               *base_url,
                    StewardProvidersPage *self)
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
      set_error (self, id, _("Give the provider’s base URL, such as "
                                      "https://api.openai.com/v1"));
      return;
    }

  if (steward_providers_put (self->providers, id, kind, name, base_url,
                             provider_key_id (provider), &error) == NULL)
    {
      set_error (self, id, error->message);
      return;
    }

  /* What went wrong before may have been the old address. */
  set_error (self, id, NULL);
}

static gboolean
has_ollama (StewardProvidersPage *self)
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
update_ollama_row (StewardProvidersPage *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->ollama_group),
                          self->ollama_found && !has_ollama (self));
}

static char *
make_provider_id (StewardProvidersPage *self,
                  const char           *name)
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
add_form_changed_cb (StewardProvidersPage *self)
{
  steward_error_row_clear (self->add_error_row);
}

static void
add_provider_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (widget);
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
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (widget);
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
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (widget);
  g_autoptr(GError) error = NULL;

  const char *id = g_variant_get_string (parameter, NULL);

  if (!steward_providers_remove (self->providers, id, &error))
    set_error (self, id, error->message);
  else
    g_hash_table_remove (self->provider_errors, id);
}

static void
detect_ollama_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  StewardProvidersPage *self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean found;

  found = steward_providers_detect_ollama_finish (STEWARD_PROVIDERS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->ollama_found = found;
  update_ollama_row (self);
}


/* The person is always there to write an answer: nothing to set. */
static gboolean
is_not_manual (gpointer item,
               gpointer user_data)
{
  return !is_manual (item);
}

static void
steward_providers_page_dispose (GObject *object)
{
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (object);

  g_cancellable_cancel (self->cancellable);

  if (self->key_dialog != NULL)
    {
      AdwMessageDialog *dialog = self->key_dialog;

      g_signal_handlers_disconnect_by_data (dialog, self);
      forget_key_dialog (self);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }

  if (self->providers != NULL)
    g_signal_handlers_disconnect_by_data (self->providers, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_PROVIDERS_PAGE);

  g_clear_pointer (&self->provider_errors, g_hash_table_unref);
  g_clear_pointer (&self->key_generations, g_hash_table_unref);
  g_clear_object (&self->providers);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (steward_providers_page_parent_class)->dispose (object);
}

static void
steward_providers_page_finalize (GObject *object)
{
  StewardProvidersPage *self = STEWARD_PROVIDERS_PAGE (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_providers_page_parent_class)->finalize (object);
}

static void
steward_providers_page_class_init (StewardProvidersPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_providers_page_dispose;
  object_class->finalize = steward_providers_page_finalize;

  /**
   * StewardProvidersPage::error-changed:
   * @id: the provider's id
   *
   * The error a provider shows was set or cleared.
   */
  signals[ERROR_CHANGED] = g_signal_new ("error-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (STEWARD_TYPE_ERROR_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-providers-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, ollama_group);
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, ollama_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, provider_list);
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, add_kind_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, add_name_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, add_url_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProvidersPage, add_error_row);
  gtk_widget_class_bind_template_callback (widget_class, add_form_changed_cb);

  gtk_widget_class_install_action (widget_class, "prefs.set-key", "s", set_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.clear-key", "s", clear_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-provider", NULL, add_provider_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-ollama", NULL, add_ollama_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-provider", "s",
                                   remove_provider_action);
}

static void
steward_providers_page_init (StewardProvidersPage *self)
{
  GtkWidget *placeholder = adw_action_row_new ();

  self->cancellable = g_cancellable_new ();
  self->provider_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->key_generations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (placeholder),
                                 _("No provider is set up: you write the answers"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_list_box_set_placeholder (self->provider_list, placeholder);
}

void
steward_providers_page_set_host (StewardProvidersPage *self,
                                 StewardHost          *host)
{
  GtkCustomFilter *filter;
  g_autoptr(GtkFilterListModel) shown = NULL;

  g_return_if_fail (STEWARD_IS_PROVIDERS_PAGE (self));
  g_return_if_fail (STEWARD_IS_HOST (host));
  g_return_if_fail (self->providers == NULL);

  self->secrets = g_object_ref (steward_host_get_secrets (host));
  self->providers = g_object_ref (steward_host_get_providers (host));

  filter = gtk_custom_filter_new (is_not_manual, NULL, NULL);
  shown = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->providers)),
                                     GTK_FILTER (filter));
  gtk_list_box_bind_model (self->provider_list, G_LIST_MODEL (shown), create_provider_row,
                           self, NULL);
  g_signal_connect_object (self->providers, "items-changed",
                           G_CALLBACK (update_ollama_row), self, G_CONNECT_SWAPPED);

  steward_providers_detect_ollama_async (self->providers, self->cancellable, detect_ollama_cb,
                                         self);
}

/**
 * steward_providers_page_set_error:
 * @id: the provider's id
 * @message: (nullable): what went wrong, or %NULL when nothing is wrong
 */
void
steward_providers_page_set_error (StewardProvidersPage *self,
                                  const char           *id,
                                  const char           *message)
{
  g_return_if_fail (STEWARD_IS_PROVIDERS_PAGE (self));
  g_return_if_fail (id != NULL);

  set_error (self, id, message);
}

const char *
steward_providers_page_get_error (StewardProvidersPage *self,
                                  const char           *id)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  return g_hash_table_lookup (self->provider_errors, id);
}

/**
 * steward_providers_page_dup_error_title:
 *
 * Returns: (transfer full) (nullable): the title of the provider's error,
 *   or %NULL when it is not there
 */
char *
steward_providers_page_dup_error_title (StewardProvidersPage *self,
                                        const char           *id)
{
  StewardProvider *provider;

  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  provider = self->providers != NULL ? steward_providers_lookup (self->providers, id) : NULL;
  return provider != NULL ? error_title (provider) : NULL;
}

AdwExpanderRow *
steward_providers_page_get_provider_row (StewardProvidersPage *self,
                                         const char           *id)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  return (AdwExpanderRow *) find_row (self, id, NULL);
}

AdwActionRow *
steward_providers_page_get_key_row (StewardProvidersPage *self,
                                    const char           *key_id)
{
  StewardProviderRow *row;

  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  row = find_row (self, NULL, key_id);
  return row != NULL ? steward_provider_row_get_key_row (row) : NULL;
}

AdwMessageDialog *
steward_providers_page_get_key_dialog (StewardProvidersPage *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  return self->key_dialog;
}

AdwActionRow *
steward_providers_page_get_ollama_row (StewardProvidersPage *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  return self->ollama_row;
}

GtkWidget *
steward_providers_page_get_add_error_row (StewardProvidersPage *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS_PAGE (self), NULL);

  return GTK_WIDGET (self->add_error_row);
}

void
steward_providers_page_get_add_rows (StewardProvidersPage  *self,
                                     AdwComboRow          **kind,
                                     AdwEntryRow          **name,
                                     AdwEntryRow          **url)
{
  g_return_if_fail (STEWARD_IS_PROVIDERS_PAGE (self));

  *kind = self->add_kind_row;
  *name = self->add_name_row;
  *url = self->add_url_row;
}
