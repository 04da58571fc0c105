/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-preferences-window"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-audit-dialog.h"

#include "steward-preferences-window-private.h"

typedef enum {
  PROVIDER_OPENAI,
  PROVIDER_ANTHROPIC,
  N_PROVIDERS
} ProviderId;

typedef enum {
  LIMIT_MAX_TOKENS,
  LIMIT_PER_MINUTE,
  LIMIT_DAILY_TOKENS,
} Limit;

typedef struct
{
  AdwEntryRow  *url_row;
  AdwActionRow *key_row;
  GtkButton    *set_button;
  GtkButton    *clear_button;
  /* Bumped on every lookup, so that a late answer never overwrites a newer one. */
  guint         generation;
} Provider;

typedef struct
{
  StewardSamplingPolicy policy;
  guint                 max_tokens;
  guint                 per_minute;
  guint                 daily_tokens;
} SamplingDefaults;

/* The keyring ids are fixed: providers read their key by these. */
static const char * const provider_secret_ids[N_PROVIDERS] = {
  [PROVIDER_OPENAI] = "provider.openai-compatible",
  [PROVIDER_ANTHROPIC] = "provider.anthropic",
};

static const char * const provider_url_keys[N_PROVIDERS] = {
  [PROVIDER_OPENAI] = "provider-openai-base-url",
  [PROVIDER_ANTHROPIC] = "provider-anthropic-base-url",
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
  GListModel            *registry;
  GSettings             *settings;
  GCancellable          *cancellable;

  Provider               providers[N_PROVIDERS];
  AdwMessageDialog      *key_dialog;
  GPtrArray             *server_rows;
  gboolean               syncing;

  AdwEntryRow           *openai_url_row;
  AdwActionRow          *openai_key_row;
  GtkButton             *openai_set_button;
  GtkButton             *openai_clear_button;
  AdwEntryRow           *anthropic_url_row;
  AdwActionRow          *anthropic_key_row;
  GtkButton             *anthropic_set_button;
  GtkButton             *anthropic_clear_button;
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
#define ENTRY_KEY    "steward-entry"

typedef struct
{
  StewardPreferencesWindow *self;
  ProviderId                provider;
  guint                     generation;
} KeyOperation;

static KeyOperation *
key_operation_new (StewardPreferencesWindow *self,
                   ProviderId                provider)
{
  KeyOperation *op = g_new0 (KeyOperation, 1);

  op->self = self;
  op->provider = provider;
  op->generation = ++self->providers[provider].generation;

  return op;
}

static void refresh_key (StewardPreferencesWindow *self,
                         ProviderId                provider);

/* libadwaita 1.2 reads a toast's title as markup: escape what we show. */
static void
show_toast (StewardPreferencesWindow *self,
            const char               *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (escaped));
}

static int
find_provider (const char *secret_id)
{
  guint i;

  for (i = 0; i < N_PROVIDERS; i++)
    {
      if (g_strcmp0 (secret_id, provider_secret_ids[i]) == 0)
        return (int) i;
    }

  return -1;
}

static const char *
provider_name (ProviderId provider)
{
  return provider == PROVIDER_OPENAI ? _("OpenAI-compatible") : _("Anthropic");
}

static void
set_key_state (StewardPreferencesWindow *self,
               ProviderId                provider,
               const char               *subtitle,
               gboolean                  is_set)
{
  Provider *p = &self->providers[provider];

  adw_action_row_set_subtitle (p->key_row, subtitle);
  gtk_button_set_label (p->set_button, is_set ? _("_Replace…") : _("_Set…"));
  gtk_widget_set_visible (GTK_WIDGET (p->clear_button), is_set);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autofree KeyOperation *op = user_data;
  g_autoptr(GError) error = NULL;
  StewardPreferencesWindow *self;
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = op->self;
  if (op->generation != self->providers[op->provider].generation)
    {
      steward_secret_value_free (value);
      return;
    }

  if (value != NULL)
    {
      /* Only the masked form leaves this function; the value is wiped. */
      g_autofree char *masked = steward_secret_mask (value);

      steward_secret_value_free (value);
      set_key_state (self, op->provider, masked, TRUE);
    }
  else if (g_error_matches (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND))
    {
      set_key_state (self, op->provider, _("Not set"), FALSE);
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("The keyring could not be read: %s"),
                                               error != NULL ? error->message : "");

      set_key_state (self, op->provider, text, FALSE);
    }
}

static void
refresh_key (StewardPreferencesWindow *self,
             ProviderId                provider)
{
  KeyOperation *op = key_operation_new (self, provider);

  adw_action_row_set_subtitle (self->providers[provider].key_row, _("Looking up…"));
  steward_secrets_lookup_async (self->secrets, provider_secret_ids[provider],
                                self->cancellable, lookup_cb, op);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree KeyOperation *op = user_data;
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

  refresh_key (op->self, op->provider);
}

static void
store_key (StewardPreferencesWindow *self,
           ProviderId                provider,
           const char               *value)
{
  KeyOperation *op = key_operation_new (self, provider);
  const char *label = provider == PROVIDER_OPENAI ?
                      _("Steward: OpenAI-compatible API key") :
                      _("Steward: Anthropic API key");

  adw_action_row_set_subtitle (self->providers[provider].key_row, _("Saving…"));
  steward_secrets_store_async (self->secrets, provider_secret_ids[provider],
                               STEWARD_SECRET_KIND_PROVIDER_KEY, label, value,
                               self->cancellable, store_cb, op);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree KeyOperation *op = user_data;
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
        }
    }

  refresh_key (op->self, op->provider);
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
  ProviderId provider = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), PROVIDER_KEY));
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), ENTRY_KEY);

  if (self->key_dialog == dialog)
    self->key_dialog = NULL;

  if (g_strcmp0 (response, "save") == 0 && entry != NULL)
    {
      const char *value = gtk_editable_get_text (entry);

      if (value != NULL && *value != '\0')
        store_key (self, provider, value);
    }
  else if (g_strcmp0 (response, "clear") == 0)
    {
      steward_secrets_clear_async (self->secrets, provider_secret_ids[provider],
                                   self->cancellable, clear_cb,
                                   key_operation_new (self, provider));
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
                    ProviderId                provider)
{
  if (self->key_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->key_dialog));

  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  g_object_set_data (G_OBJECT (dialog), PROVIDER_KEY, GUINT_TO_POINTER (provider));
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
  int provider = find_provider (g_variant_get_string (parameter, NULL));
  GtkWidget *dialog;
  GtkWidget *entry;
  g_autofree char *heading = NULL;
  g_autofree char *accessible = NULL;

  if (provider < 0)
    return;

  /* Translators: %s is a provider's name ("Anthropic"). */
  heading = g_strdup_printf (_("Set the %s API Key"), provider_name (provider));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The key is kept in your keyring. Steward shows it masked "
                                     "from now on and never writes it to a file."));

  entry = gtk_password_entry_new ();
  gtk_password_entry_set_show_peek_icon (GTK_PASSWORD_ENTRY (entry), TRUE);
  g_object_set (entry, "activates-default", TRUE, NULL);
  /* Translators: %s is a provider's name ("Anthropic"). */
  accessible = g_strdup_printf (_("%s API key"), provider_name (provider));
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
  int provider = find_provider (g_variant_get_string (parameter, NULL));
  GtkWidget *dialog;
  g_autofree char *heading = NULL;

  if (provider < 0)
    return;

  /* Translators: %s is a provider's name ("Anthropic"). */
  heading = g_strdup_printf (_("Clear the %s API Key?"), provider_name (provider));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The key is removed from your keyring. Steward cannot use "
                                     "this provider until you set a key again."));
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
get_limit (StewardSamplingBroker *broker,
           const char            *server,
           Limit                  limit)
{
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      return steward_sampling_broker_get_max_tokens (broker, server);
    case LIMIT_PER_MINUTE:
      return steward_sampling_broker_get_per_minute (broker, server);
    case LIMIT_DAILY_TOKENS:
    default:
      return steward_sampling_broker_get_daily_tokens (broker, server);
    }
}

static void
set_limit (StewardSamplingBroker *broker,
           const char            *server,
           Limit                  limit,
           guint                  value)
{
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      steward_sampling_broker_set_max_tokens (broker, server, value);
      break;
    case LIMIT_PER_MINUTE:
      steward_sampling_broker_set_per_minute (broker, server, value);
      break;
    case LIMIT_DAILY_TOKENS:
    default:
      steward_sampling_broker_set_daily_tokens (broker, server, value);
      break;
    }
}

static char *
describe_server (StewardPreferencesWindow *self,
                 const char               *server)
{
  StewardSamplingPolicy policy = steward_sampling_broker_get_policy (self->broker, server);
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
  g_autofree char *subtitle = NULL;
  g_autofree char *used = NULL;
  Limit limit;

  if (server == NULL)
    return;

  self->syncing = TRUE;

  adw_combo_row_set_selected (policy_row,
                              steward_sampling_broker_get_policy (self->broker, server));
  for (limit = LIMIT_MAX_TOKENS; limit <= LIMIT_DAILY_TOKENS; limit++)
    {
      static const char * const keys[] = {
        "steward-max-spin", "steward-minute-spin", "steward-daily-spin",
      };
      GtkSpinButton *spin = g_object_get_data (G_OBJECT (row), keys[limit]);

      gtk_spin_button_set_value (spin, get_limit (self->broker, server, limit));
    }

  used = g_strdup_printf ("%u", steward_sampling_broker_get_tokens_used (self->broker, server));
  gtk_label_set_text (used_label, used);
  subtitle = describe_server (self, server);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);

  self->syncing = FALSE;
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

  if (steward_sampling_broker_get_policy (self->broker, server) != (StewardSamplingPolicy) selected)
    steward_sampling_broker_set_policy (self->broker, server, selected);
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

  if (get_limit (self->broker, server, limit) != value)
    set_limit (self->broker, server, limit, value);
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
policies_changed_cb (StewardPreferencesWindow *self,
                     const char               *server)
{
  guint i;

  for (i = 0; i < self->server_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->server_rows, i);
      const char *name = g_object_get_data (G_OBJECT (row), SERVER_KEY);

      if (name != NULL && (server == NULL || g_str_equal (server, name)))
        sync_server_row (self, row);
    }
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

static void
steward_preferences_window_constructed (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);
  guint i;

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  self->secrets = g_object_ref (steward_host_get_secrets (self->host));
  self->broker = g_object_ref (steward_host_get_sampling_broker (self->host));
  self->registry = g_object_ref (G_LIST_MODEL (steward_host_get_registry (self->host)));

  for (i = 0; i < N_PROVIDERS; i++)
    refresh_key (self, i);

  g_signal_connect_object (self->registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->broker, "policies-changed",
                           G_CALLBACK (policies_changed_cb), self, G_CONNECT_SWAPPED);

  steward_preferences_window_apply_sampling_defaults (self->host, self->settings);
  rebuild_server_rows (self);
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
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_PREFERENCES_WINDOW);

  g_clear_pointer (&self->server_rows, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->registry);
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
  gtk_widget_class_bind_template_child (widget_class, Prefs, openai_url_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, openai_key_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, openai_set_button);
  gtk_widget_class_bind_template_child (widget_class, Prefs, openai_clear_button);
  gtk_widget_class_bind_template_child (widget_class, Prefs, anthropic_url_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, anthropic_key_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, anthropic_set_button);
  gtk_widget_class_bind_template_child (widget_class, Prefs, anthropic_clear_button);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_policy_row);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_max_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_per_minute_spin);
  gtk_widget_class_bind_template_child (widget_class, Prefs, default_daily_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, Prefs, servers_group);
  gtk_widget_class_bind_template_child (widget_class, Prefs, color_scheme_row);

  gtk_widget_class_install_action (widget_class, "prefs.set-key", "s", set_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.clear-key", "s", clear_key_action);
  gtk_widget_class_install_action (widget_class, "prefs.show-audit", NULL, show_audit_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_preferences_window_init (StewardPreferencesWindow *self)
{
  guint i;

  self->cancellable = g_cancellable_new ();
  self->server_rows = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->providers[PROVIDER_OPENAI].url_row = self->openai_url_row;
  self->providers[PROVIDER_OPENAI].key_row = self->openai_key_row;
  self->providers[PROVIDER_OPENAI].set_button = self->openai_set_button;
  self->providers[PROVIDER_OPENAI].clear_button = self->openai_clear_button;
  self->providers[PROVIDER_ANTHROPIC].url_row = self->anthropic_url_row;
  self->providers[PROVIDER_ANTHROPIC].key_row = self->anthropic_key_row;
  self->providers[PROVIDER_ANTHROPIC].set_button = self->anthropic_set_button;
  self->providers[PROVIDER_ANTHROPIC].clear_button = self->anthropic_clear_button;

  self->settings = g_settings_new (APPLICATION_ID);

  /* Base URLs live in GSettings; keys never do. */
  for (i = 0; i < N_PROVIDERS; i++)
    {
      g_settings_bind (self->settings, provider_url_keys[i],
                       self->providers[i].url_row, "text", G_SETTINGS_BIND_DEFAULT);
      set_key_state (self, i, _("Looking up…"), FALSE);
    }

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
broker_has_builtin_values (StewardSamplingBroker *broker,
                           const char            *server)
{
  return steward_sampling_broker_get_policy (broker, server) == STEWARD_SAMPLING_POLICY_ASK &&
         steward_sampling_broker_get_max_tokens (broker, server) ==
           STEWARD_SAMPLING_DEFAULT_MAX_TOKENS &&
         steward_sampling_broker_get_per_minute (broker, server) ==
           STEWARD_SAMPLING_DEFAULT_PER_MINUTE &&
         steward_sampling_broker_get_daily_tokens (broker, server) ==
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

      if (g_strv_contains ((const char * const *) seen, name))
        continue;

      /* The broker has no defaults of its own to set, so a server still on
       * the broker's built-in values gets these once; a server that already
       * has settings (from policies.json) keeps them. */
      if (broker_has_builtin_values (broker, name))
        {
          if (defaults.policy != STEWARD_SAMPLING_POLICY_ASK)
            steward_sampling_broker_set_policy (broker, name, defaults.policy);
          if (defaults.max_tokens != STEWARD_SAMPLING_DEFAULT_MAX_TOKENS)
            steward_sampling_broker_set_max_tokens (broker, name, defaults.max_tokens);
          if (defaults.per_minute != STEWARD_SAMPLING_DEFAULT_PER_MINUTE)
            steward_sampling_broker_set_per_minute (broker, name, defaults.per_minute);
          if (defaults.daily_tokens != STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS)
            steward_sampling_broker_set_daily_tokens (broker, name, defaults.daily_tokens);
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

AdwActionRow *
steward_preferences_window_get_key_row (StewardPreferencesWindow *self,
                                        const char               *secret_id)
{
  int provider;

  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  provider = find_provider (secret_id);
  return provider >= 0 ? self->providers[provider].key_row : NULL;
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
