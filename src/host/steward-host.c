/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-host"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-host.h"

#define LOG_CAPACITY 100000
/* How many numbered copies of a damaged file are kept before the oldest
 * name is reused. */
#define MAX_DAMAGED_COPIES 10

/**
 * StewardHost:
 *
 * One of each host object, wired together: the servers file and its
 * watch, the keyring, the roots, the log store, the approvals queue, the
 * sampling broker and the registry of servers.
 */
struct _StewardHost
{
  GObject                parent_instance;

  GFile                 *config_dir;
  GFile                 *state_dir;
  GFile                 *data_dir;
  StewardConfig         *config;
  StewardSecrets        *secrets;
  StewardConsentStore   *consent_store;
  StewardRoots          *roots;
  StewardLogStore       *log_store;
  StewardApprovals      *approvals;
  StewardSamplingBroker *broker;
  StewardServerContext  *server_context;
  StewardServerRegistry *registry;
  StewardToolPins       *pins;
  StewardProviders      *providers;
  StewardModelCatalog   *catalog;
  StewardConversationStore *conversations;
  StewardChatEngine     *chat_engine;
  GCancellable          *cancellable;

  gboolean               starting;
  gboolean               started;
};

enum {
  PROP_0,
  PROP_CONFIG_DIR,
  PROP_STATE_DIR,
  PROP_DATA_DIR,
  PROP_STARTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardHost, steward_host, G_TYPE_OBJECT)

/* Damaged files: copied aside, never overwritten. */

typedef struct {
  GFile *file;
  GFile *copy;
  guint  attempt;
} KeepAside;

static void
keep_aside_free (KeepAside *keep)
{
  g_clear_object (&keep->file);
  g_clear_object (&keep->copy);
  g_free (keep);
}

static void keep_aside_next (GTask *task);

static void
copy_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardHost *self = g_task_get_source_object (task);
  KeepAside *keep = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *copy_name = NULL;

  if (g_file_copy_finish (G_FILE (object), result, &error))
    {
      file_name = g_file_get_parse_name (keep->file);
      copy_name = g_file_get_parse_name (keep->copy);
      steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_WARNING,
                                        _("The damaged file %s was copied to %s; Steward "
                                          "does not write over it until you fix it"),
                                        file_name, copy_name);
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS) &&
      keep->attempt + 1 < MAX_DAMAGED_COPIES)
    {
      keep->attempt++;
      keep_aside_next (g_steal_pointer (&task));
      return;
    }

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      file_name = g_file_get_parse_name (keep->file);
      steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                        _("The damaged file %s could not be copied aside: %s"),
                                        file_name, error->message);
    }
  g_task_return_error (task, g_steal_pointer (&error));
}

static void
keep_aside_next (GTask *task)
{
  KeepAside *keep = g_task_get_task_data (task);
  g_autofree char *basename = g_file_get_basename (keep->file);
  g_autofree char *name = NULL;
  g_autoptr(GFile) parent = g_file_get_parent (keep->file);

  if (keep->attempt == 0)
    name = g_strconcat (basename, ".damaged", NULL);
  else
    name = g_strdup_printf ("%s.damaged-%u", basename, keep->attempt);

  g_clear_object (&keep->copy);
  keep->copy = g_file_get_child (parent, name);
  g_file_copy_async (keep->file, keep->copy, G_FILE_COPY_NONE, G_PRIORITY_DEFAULT,
                     g_task_get_cancellable (task), NULL, NULL, copy_cb, task);
}

/* Copies @file to FILE.damaged (or FILE.damaged-N when that exists), and
 * says so in the log. */
static void
keep_aside (StewardHost *self,
            GFile       *file)
{
  GTask *task = g_task_new (self, self->cancellable, NULL, NULL);
  KeepAside *keep = g_new0 (KeepAside, 1);

  g_task_set_source_tag (task, keep_aside);
  keep->file = g_object_ref (file);
  g_task_set_task_data (task, keep, (GDestroyNotify) keep_aside_free);
  keep_aside_next (task);
}

static gboolean
is_missing (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
         g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ||
         g_error_matches (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NOT_FOUND);
}

static void
report_damaged (StewardHost  *self,
                GFile        *file,
                const GError *error)
{
  g_autofree char *name = g_file_get_parse_name (file);

  steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                    _("%s could not be loaded: %s"), name, error->message);

  /* A file that cannot be read cannot be copied either. */
  if (!g_error_matches (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_READ))
    keep_aside (self, file);
}

static void
config_load_failed_cb (StewardHost   *self,
                       const GError  *error,
                       StewardConfig *config)
{
  g_autofree char *name = g_file_get_parse_name (steward_config_get_file (config));

  /* A damaged consents.json was already kept aside by the config, and the
   * servers file is fine: say so, and leave servers.json alone. */
  if (error != NULL && g_error_matches (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS))
    {
      steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                        "%s", error->message);
      return;
    }

  steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                    _("The edited %s could not be loaded, so the servers stay "
                                      "as they were: %s"),
                                    name, error ? error->message : _("unknown error"));
  if (error == NULL || !g_error_matches (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_READ))
    keep_aside (self, steward_config_get_file (config));
}

/* The start's files load one after the other. Once the host is shut down
 * the start goes no further, so that no server starts; a file that is not
 * there yet is no damage, any other failure is reported. */
static gboolean
load_done (StewardHost  *self,
           gboolean      loaded,
           const GError *error,
           GFile        *file)
{
  if (g_cancellable_is_cancelled (self->cancellable))
    return FALSE;

  if (!loaded && !is_missing (error))
    report_damaged (self, file, error);
  return TRUE;
}

static void
policies_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(StewardHost) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  loaded = steward_sampling_broker_load_finish (STEWARD_SAMPLING_BROKER (object), result, &error);
  if (!load_done (self, loaded, error, steward_sampling_broker_get_policies (self->broker)))
    return;

  g_signal_connect_object (self->config, "load-failed", G_CALLBACK (config_load_failed_cb), self,
                           G_CONNECT_SWAPPED);
  steward_config_watch (self->config);
  steward_server_registry_sync (self->registry, TRUE);

  self->starting = FALSE;
  self->started = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STARTED]);
}

static void
roots_loaded_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(StewardHost) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  loaded = steward_roots_load_finish (STEWARD_ROOTS (object), result, &error);
  if (!load_done (self, loaded, error,
                  steward_file_backed_get_file (STEWARD_FILE_BACKED (self->roots))))
    return;

  steward_sampling_broker_load_async (self->broker, self->cancellable, policies_loaded_cb,
                                      g_object_ref (self));
}

/* The loads beside the servers' hold the host weakly: one still on its
 * worker must not keep a host that was let go alive. */
static GWeakRef *
weak_host_new (StewardHost *self)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, self);
  return ref;
}

static StewardHost *
weak_host_steal (gpointer user_data)
{
  GWeakRef *ref = user_data;
  StewardHost *self = g_weak_ref_get (ref);

  g_weak_ref_clear (ref);
  g_free (ref);
  return self;
}

static void
pins_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StewardHost) self = weak_host_steal (user_data);
  g_autoptr(GError) error = NULL;

  /* The pins moved a damaged file aside themselves; say so. */
  if (!steward_tool_pins_load_finish (STEWARD_TOOL_PINS (object), result, &error) &&
      self != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                      "%s", error->message);
}

static void
providers_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(StewardHost) self = weak_host_steal (user_data);
  g_autoptr(GError) error = NULL;

  if (steward_providers_load_finish (STEWARD_PROVIDERS (object), result, &error) ||
      self == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  if (!is_missing (error))
    {
      g_autoptr(GFile) file = g_file_get_child (self->config_dir, "providers.json");

      report_damaged (self, file, error);
    }
}

static void
conversation_load_failed_cb (StewardHost              *self,
                             GFile                    *file,
                             const char               *message,
                             StewardConversationStore *store)
{
  g_autofree char *name = g_file_get_parse_name (file);

  steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                    _("%s could not be loaded: %s"), name, message);
}

static void
conversation_save_failed_cb (StewardHost              *self,
                             StewardConversation      *conversation,
                             const char               *message,
                             StewardConversationStore *store)
{
  /* Translators: the first %s is a chat's title, the second why. */
  steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                    _("The chat “%s” could not be saved: %s"),
                                    steward_conversation_get_title (conversation), message);
}

static void
conversations_loaded_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(StewardHost) self = weak_host_steal (user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (steward_conversation_store_load_finish (STEWARD_CONVERSATION_STORE (object), result,
                                              &error) ||
      self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  name = g_file_get_parse_name (steward_conversation_store_get_folder (self->conversations));
  steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                    _("The chats in %s could not be loaded: %s"),
                                    name, error->message);
}

static void
consent_key_loaded_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(StewardHost) self = weak_host_steal (user_data);
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  loaded = steward_consent_store_load_finish (STEWARD_CONSENT_STORE (object), result, &error);
  if (self == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  if (!loaded)
    {
      steward_log_store_add_host_event (self->log_store, NULL, STEWARD_LOG_LEVEL_WARNING,
                                        _("Which servers you allowed cannot be remembered, so "
                                          "each asks again every time Steward starts: %s"),
                                        error->message);
    }

  steward_roots_load_async (self->roots, self->cancellable, roots_loaded_cb,
                            g_object_ref (self));
}

static void
config_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(StewardHost) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  loaded = steward_config_load_finish (STEWARD_CONFIG (object), result, &error);
  if (!load_done (self, loaded, error, steward_config_get_file (self->config)))
    return;

  /* The key first: a server that checked its consent before it came
   * would ask again for nothing. */
  /* Held weakly: the keyring may take its time, or wait for a prompt to
   * unlock it, and must not keep a host that was let go alive. */
  steward_consent_store_load_async (self->consent_store, NULL, consent_key_loaded_cb,
                                    weak_host_new (self));
}

/* GObject */

static void
steward_host_dispose (GObject *object)
{
  StewardHost *self = STEWARD_HOST (object);

  g_cancellable_cancel (self->cancellable);

  if (self->chat_engine != NULL)
    steward_chat_engine_close (self->chat_engine);
  g_clear_object (&self->chat_engine);
  g_clear_object (&self->conversations);
  g_clear_object (&self->pins);
  g_clear_object (&self->catalog);
  g_clear_object (&self->providers);
  g_clear_object (&self->registry);
  g_clear_object (&self->server_context);
  g_clear_object (&self->broker);
  g_clear_object (&self->approvals);
  g_clear_object (&self->roots);
  g_clear_object (&self->consent_store);
  g_clear_object (&self->secrets);
  g_clear_object (&self->config);
  g_clear_object (&self->log_store);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_host_parent_class)->dispose (object);
}

static void
steward_host_finalize (GObject *object)
{
  StewardHost *self = STEWARD_HOST (object);

  g_clear_object (&self->config_dir);
  g_clear_object (&self->state_dir);
  g_clear_object (&self->data_dir);

  G_OBJECT_CLASS (steward_host_parent_class)->finalize (object);
}

static void
steward_host_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  StewardHost *self = STEWARD_HOST (object);

  switch (prop_id)
    {
    case PROP_CONFIG_DIR:
      g_value_set_object (value, self->config_dir);
      break;

    case PROP_STATE_DIR:
      g_value_set_object (value, self->state_dir);
      break;

    case PROP_DATA_DIR:
      g_value_set_object (value, self->data_dir);
      break;

    case PROP_STARTED:
      g_value_set_boolean (value, self->started);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_host_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  StewardHost *self = STEWARD_HOST (object);

  switch (prop_id)
    {
    case PROP_CONFIG_DIR:
      self->config_dir = g_value_dup_object (value);
      break;

    case PROP_STATE_DIR:
      self->state_dir = g_value_dup_object (value);
      break;

    case PROP_DATA_DIR:
      self->data_dir = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_host_constructed (GObject *object)
{
  StewardHost *self = STEWARD_HOST (object);
  g_autoptr(GFile) servers_file = NULL;
  g_autoptr(GFile) roots_file = NULL;
  g_autoptr(GFile) policies_file = NULL;
  g_autoptr(GFile) journal_file = NULL;
  g_autoptr(GFile) pins_file = NULL;
  g_autoptr(GFile) conversations_dir = NULL;
  g_autoptr(GFile) providers_file = NULL;
  g_autoptr(GFile) models_file = NULL;

  G_OBJECT_CLASS (steward_host_parent_class)->constructed (object);

  if (self->config_dir == NULL)
    self->config_dir = g_file_new_build_filename (g_get_user_config_dir (), "steward", NULL);
  if (self->state_dir == NULL)
    self->state_dir = g_file_new_build_filename (g_get_user_state_dir (), "steward", NULL);
  if (self->data_dir == NULL)
    self->data_dir = g_file_new_build_filename (g_get_user_data_dir (), "steward", NULL);

  servers_file = g_file_get_child (self->config_dir, "servers.json");
  roots_file = g_file_get_child (self->config_dir, "roots.json");
  policies_file = g_file_get_child (self->config_dir, "policies.json");
  journal_file = g_file_get_child (self->state_dir, "audit.jsonl");
  pins_file = g_file_get_child (self->config_dir, "pins.json");
  providers_file = g_file_get_child (self->config_dir, "providers.json");
  models_file = g_file_get_child (self->config_dir, "models.json");
  conversations_dir = g_file_get_child (self->data_dir, "conversations");

  self->config = steward_config_new (servers_file);
  self->secrets = steward_secrets_new ();
  self->consent_store = steward_consent_store_new (self->secrets);
  steward_config_set_consent_store (self->config, self->consent_store);
  self->roots = steward_roots_new (roots_file);
  self->log_store = steward_log_store_new (LOG_CAPACITY);
  self->approvals = steward_approvals_new ();
  self->broker = steward_sampling_broker_new (self->approvals, policies_file, journal_file);
  self->server_context = steward_server_context_new (self->config, self->secrets, self->roots,
                                                     self->log_store, self->approvals,
                                                     self->broker);
  self->registry = steward_server_registry_new (self->server_context);
  self->providers = steward_providers_new (providers_file, self->secrets);
  self->catalog = steward_model_catalog_new (models_file);
  steward_sampling_broker_set_models (self->broker, self->providers, self->catalog);
  self->pins = steward_tool_pins_new (pins_file);
  self->conversations = steward_conversation_store_new (conversations_dir);
  g_signal_connect_object (self->conversations, "load-failed",
                           G_CALLBACK (conversation_load_failed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->conversations, "save-failed",
                           G_CALLBACK (conversation_save_failed_cb), self, G_CONNECT_SWAPPED);
  self->chat_engine = steward_chat_engine_new (self->registry, self->approvals, self->providers,
                                               self->catalog, self->log_store, self->pins);
}

static void
steward_host_class_init (StewardHostClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = steward_host_constructed;
  object_class->dispose = steward_host_dispose;
  object_class->finalize = steward_host_finalize;
  object_class->get_property = steward_host_get_property;
  object_class->set_property = steward_host_set_property;

  properties[PROP_CONFIG_DIR] =
    g_param_spec_object ("config-dir", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE_DIR] =
    g_param_spec_object ("state-dir", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DATA_DIR] =
    g_param_spec_object ("data-dir", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STARTED] =
    g_param_spec_boolean ("started", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_host_init (StewardHost *self)
{
  self->cancellable = g_cancellable_new ();
}

/* Public API */

/**
 * steward_host_new:
 * @config_dir: (nullable): where servers.json and the other settings
 *   live; $XDG_CONFIG_HOME/steward when %NULL
 * @state_dir: (nullable): where the audit journal lives;
 *   $XDG_STATE_HOME/steward when %NULL
 */
StewardHost *
steward_host_new (GFile *config_dir,
                  GFile *state_dir)
{
  g_return_val_if_fail (!config_dir || G_IS_FILE (config_dir), NULL);
  g_return_val_if_fail (!state_dir || G_IS_FILE (state_dir), NULL);

  return g_object_new (STEWARD_TYPE_HOST,
                       "config-dir", config_dir,
                       "state-dir", state_dir,
                       NULL);
}

GFile *
steward_host_get_config_dir (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->config_dir;
}

GFile *
steward_host_get_state_dir (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->state_dir;
}

StewardConfig *
steward_host_get_config (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->config;
}

/* Seals the consents of steward_host_get_config(); its key is looked up
 * by steward_host_start(). */
StewardConsentStore *
steward_host_get_consent_store (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->consent_store;
}

StewardSecrets *
steward_host_get_secrets (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->secrets;
}

StewardServerRegistry *
steward_host_get_registry (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->registry;
}

/**
 * steward_host_get_server_context:
 *
 * Returns: (transfer none): what the host hands each server it makes
 */
StewardServerContext *
steward_host_get_server_context (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->server_context;
}

StewardRoots *
steward_host_get_roots (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->roots;
}

StewardLogStore *
steward_host_get_log_store (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->log_store;
}

StewardApprovals *
steward_host_get_approvals (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->approvals;
}

StewardSamplingBroker *
steward_host_get_sampling_broker (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->broker;
}

/**
 * steward_host_get_data_dir:
 *
 * Returns: (transfer none): where the conversations live
 */
GFile *
steward_host_get_data_dir (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->data_dir;
}

StewardProviders *
steward_host_get_providers (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->providers;
}

StewardModelCatalog *
steward_host_get_model_catalog (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->catalog;
}

StewardToolPins *
steward_host_get_tool_pins (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->pins;
}

StewardConversationStore *
steward_host_get_conversations (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->conversations;
}

StewardChatEngine *
steward_host_get_chat_engine (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), NULL);

  return self->chat_engine;
}

/**
 * steward_host_get_started:
 *
 * Whether steward_host_start() has loaded the files and started the
 * servers ("started" notifies when it has).
 */
gboolean
steward_host_get_started (StewardHost *self)
{
  g_return_val_if_fail (STEWARD_IS_HOST (self), FALSE);

  return self->started;
}

/**
 * steward_host_start:
 *
 * Loads the servers file (a missing one is an empty list), the roots and
 * the sampling policies, watches the servers file, and starts the enabled
 * servers. A damaged file is reported in the log and copied aside.
 */
void
steward_host_start (StewardHost *self)
{
  g_return_if_fail (STEWARD_IS_HOST (self));

  if (self->starting || self->started)
    return;

  self->starting = TRUE;
  steward_config_load_async (self->config, self->cancellable, config_loaded_cb,
                             g_object_ref (self));
  steward_tool_pins_load_async (self->pins, self->cancellable, pins_loaded_cb,
                                weak_host_new (self));
  steward_providers_load_async (self->providers, self->cancellable, providers_loaded_cb,
                                weak_host_new (self));

  /* The catalogue loads only at once; models.json is a few lines. */
  {
    g_autoptr(GError) error = NULL;

    if (!steward_model_catalog_load (self->catalog, &error) && !is_missing (error))
      report_damaged (self, steward_file_backed_get_file (STEWARD_FILE_BACKED (self->catalog)),
                      error);
  }
  steward_conversation_store_load_async (self->conversations, self->cancellable,
                                         conversations_loaded_cb, weak_host_new (self));
}

/* Shutting down: the servers stop, then what waits to be written is. */

static void
providers_flushed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *stop_error = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!steward_providers_flush_finish (STEWARD_PROVIDERS (object), result, &error))
    g_message ("The providers could not be saved: %s", error->message);

  if (stop_error != NULL)
    g_task_return_error (task, g_error_copy (stop_error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
pins_saved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardHost *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!steward_tool_pins_save_finish (STEWARD_TOOL_PINS (object), result, &error))
    g_message ("The tool pins could not be saved: %s", error->message);

  steward_providers_flush_async (self->providers, NULL, providers_flushed_cb,
                                 g_steal_pointer (&task));
}

static void
conversations_flushed_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardHost *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!steward_conversation_store_flush_finish (STEWARD_CONVERSATION_STORE (object), result,
                                                &error))
    g_message ("The chats could not all be saved: %s", error->message);

  steward_tool_pins_save_async (self->pins, NULL, pins_saved_cb, g_steal_pointer (&task));
}

static void
stop_all_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardHost *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!steward_server_registry_stop_all_finish (STEWARD_SERVER_REGISTRY (object), result, &error))
    g_task_set_task_data (task, g_steal_pointer (&error), (GDestroyNotify) g_error_free);

  steward_conversation_store_flush_async (self->conversations, NULL, conversations_flushed_cb,
                                          g_steal_pointer (&task));
}

/**
 * steward_host_shutdown_async:
 *
 * Stops the chats' turns and every server (in 5 s at most), then writes
 * the conversations and pins still waiting to be saved.
 */
void
steward_host_shutdown_async (StewardHost         *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_HOST (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_host_shutdown_async);

  /* A load still under way would start servers after they were stopped. */
  g_cancellable_cancel (self->cancellable);
  self->starting = FALSE;
  steward_chat_engine_stop_all (self->chat_engine);

  steward_server_registry_stop_all_async (self->registry, NULL, stop_all_cb,
                                          g_steal_pointer (&task));
}

gboolean
steward_host_shutdown_finish (StewardHost   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
