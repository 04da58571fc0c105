/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-chat-engine"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-tool.h"

#include "steward-chat-engine-private.h"
#include "steward-chat-private.h"
#include "steward-text.h"
#include "steward-tool-pins.h"

#define DEFAULT_MAX_TOKENS          4096

/**
 * StewardChatEngine:
 *
 * The chat's tool loop: the person's message to the conversation's
 * model with the servers' tools, the model's tool calls through their
 * approvals to the servers, the results back to the model, until it is
 * done or the loop limit is reached.
 */

enum {
  PROP_0,
  PROP_REGISTRY,
  PROP_APPROVALS,
  PROP_PROVIDERS,
  PROP_MODEL_CATALOG,
  PROP_LOG_STORE,
  PROP_TOOL_PINS,
  PROP_MAX_ROUNDS,
  PROP_MAX_TOKENS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardChatEngine, steward_chat_engine, G_TYPE_OBJECT)

G_DEFINE_QUARK (steward-chat-engine-error-quark, steward_chat_engine_error)

static void
offered_free (Offered *offered)
{
  g_free (offered->server);
  g_clear_object (&offered->tool);
  g_free (offered);
}

static void
turn_free (Turn *turn)
{
  if (turn->outer_id != 0)
    g_signal_handler_disconnect (turn->outer, turn->outer_id);
  if (turn->cancelled_id != 0)
    g_signal_handler_disconnect (turn->cancellable, turn->cancelled_id);
  if (turn->responded_id != 0)
    g_signal_handler_disconnect (turn->approval, turn->responded_id);
  if (turn->overdue_id != 0)
    g_signal_handler_disconnect (turn->overdue_server, turn->overdue_id);
  g_clear_object (&turn->overdue_server);
  g_clear_object (&turn->conversation);
  g_clear_object (&turn->cancellable);
  g_clear_object (&turn->outer);
  g_clear_object (&turn->provider);
  g_free (turn->model_id);
  g_free (turn->model_name);
  g_clear_object (&turn->answer);
  g_clear_pointer (&turn->offered, g_hash_table_unref);
  g_clear_pointer (&turn->calls, g_ptr_array_unref);
  g_clear_object (&turn->call);
  g_free (turn->call_server);
  g_clear_object (&turn->approval);
  g_free (turn);
}

/* Helpers */

StewardLogStore *
steward_chat_engine_log_store (StewardChatEngine *self)
{
  return self->log_store;
}

StewardToolPins *
steward_chat_engine_tool_pins (StewardChatEngine *self)
{
  return self->pins;
}

StewardServer *
steward_chat_engine_lookup_server (StewardChatEngine *self,
                                   const char        *name)
{
  if (self->registry == NULL || name == NULL)
    return NULL;

  return steward_server_registry_lookup (self->registry, name);
}

/* Ending a turn */

void
steward_chat_engine_finish (GTask  *task,
                            GError *error)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);

  if (turn->finished)
    {
      g_clear_error (&error);
      return;
    }
  turn->finished = TRUE;

  if (turn->answer != NULL)
    steward_chat_message_set_streaming (turn->answer, FALSE);

  if (g_hash_table_lookup (self->turns, turn->conversation) == turn)
    g_hash_table_remove (self->turns, turn->conversation);
  steward_conversation_set_busy (turn->conversation, FALSE);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
steward_chat_engine_finish_stopped (GTask *task)
{
  Turn *turn = g_task_get_task_data (task);

  if (turn->answer != NULL)
    /* Translators: under an answer the person stopped. */
    steward_chat_message_set_note (turn->answer, _("Stopped"));

  steward_chat_engine_finish (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                         _("The chat was stopped")));
}

/* An answer with just an error, for a turn that could not start. */
static void
fail_with_message (GTask  *task,
                   GError *error)
{
  Turn *turn = g_task_get_task_data (task);

  if (turn->answer == NULL)
    {
      turn->answer = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
      steward_chat_message_set_model (turn->answer, turn->model_id);
      steward_conversation_append (turn->conversation, turn->answer);
    }
  steward_chat_message_set_error (turn->answer, error->message);
  steward_chat_engine_finish (task, error);
}

/* Starting a turn */

static StewardProvider *
lookup_provider (StewardChatEngine *self,
                 const char        *id)
{
  StewardProvider *provider = g_hash_table_lookup (self->providers, id);

  if (provider == NULL)
    provider = steward_providers_lookup (self->configured, id);

  return provider;
}

/* The first catalogue model of the first configured provider that can
 * chat, or NULL. */
static char *
default_model (StewardChatEngine *self)
{
  GListModel *providers = G_LIST_MODEL (self->configured);
  GListModel *models = G_LIST_MODEL (self->catalog);

  for (guint i = 0; i < g_list_model_get_n_items (providers); i++)
    {
      g_autoptr(StewardProvider) provider = g_list_model_get_item (providers, i);
      const char *id = steward_provider_get_id (provider);

      if (g_strcmp0 (id, "manual") == 0)
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (models); j++)
        {
          g_autoptr(StewardModel) model = g_list_model_get_item (models, j);

          if (g_strcmp0 (steward_model_get_provider (model), id) == 0)
            return g_strdup (steward_model_get_id (model));
        }
    }

  return NULL;
}

/* The conversation's model, or the default one, and its provider. */
static gboolean
resolve_model (StewardChatEngine  *self,
               Turn               *turn,
               GError            **error)
{
  const char *model = steward_conversation_get_model (turn->conversation);
  g_autofree char *fallback = NULL;
  const char *slash;
  g_autofree char *provider_id = NULL;
  StewardProvider *provider;

  if (model == NULL)
    model = fallback = default_model (self);

  if (model == NULL)
    {
      g_set_error_literal (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL,
                           _("No model is configured: add a provider in Preferences"));
      return FALSE;
    }

  slash = strchr (model, '/');
  if (slash == NULL || slash == model || slash[1] == '\0')
    {
      g_set_error (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL,
                   _("“%s” does not name a model as “provider/model”"), model);
      return FALSE;
    }

  provider_id = g_strndup (model, slash - model);
  provider = lookup_provider (self, provider_id);
  if (provider == NULL)
    {
      g_set_error (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL,
                   _("The provider “%s” of the model “%s” is not configured: add it in "
                     "Preferences, or choose another model"), provider_id, model);
      return FALSE;
    }

  if (g_strcmp0 (steward_provider_get_id (provider), "manual") == 0)
    {
      g_set_error_literal (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL,
                           _("No model is configured: add a provider in Preferences"));
      return FALSE;
    }

  turn->provider = g_object_ref (provider);
  turn->model_id = g_strdup (model);
  turn->model_name = g_strdup (slash + 1);
  return TRUE;
}

static void
turn_cancelled_cb (GCancellable *cancellable,
                   GTask        *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(JsonArray) stopped = NULL;

  /* Streams and running calls end through their callbacks; only a call
   * waiting for the person needs ending here. */
  if (turn->finished || turn->approval == NULL)
    return;

  g_object_ref (task);
  g_signal_handler_disconnect (turn->approval, turn->responded_id);
  turn->responded_id = 0;
  steward_approval_withdraw (turn->approval);
  g_clear_object (&turn->approval);

  stopped = steward_chat_engine_single_text ("The person stopped the chat before deciding.");
  steward_chat_engine_log_call (self, turn->call, STEWARD_LOG_LEVEL_INFO, _("stopped"));
  steward_chat_engine_end_call (task, STEWARD_TOOL_CALL_FAILED, stopped, TRUE,
                                _("Stopped before it was decided"));
  steward_chat_engine_finish_stopped (task);
  g_object_unref (task);
}

static void
outer_cancelled_cb (GCancellable *outer,
                    GCancellable *cancellable)
{
  g_cancellable_cancel (cancellable);
}

GTask *
steward_chat_engine_new_turn (StewardChatEngine   *self,
                              StewardConversation *conversation,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data,
                              gpointer             source_tag,
                              GError             **error)
{
  g_autoptr(GTask) task = NULL;
  Turn *turn;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  if (self->registry == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, _("Steward is closing"));
      g_task_return_error (task, g_error_copy (*error));
      return NULL;
    }

  if (g_hash_table_contains (self->turns, conversation))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("This chat is still answering; stop it first"));
      g_task_return_error (task, g_error_copy (*error));
      return NULL;
    }

  /* The turn has its own cancellable, so that a server can tell it from
   * any other call (see steward_server_get_cause_cancellable()). */
  turn = g_new0 (Turn, 1);
  turn->conversation = g_object_ref (conversation);
  turn->cancellable = g_cancellable_new ();
  turn->offered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) offered_free);
  turn->calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, turn, (GDestroyNotify) turn_free);

  if (cancellable != NULL)
    {
      turn->outer = g_object_ref (cancellable);
      turn->outer_id = g_signal_connect_object (cancellable, "cancelled",
                                                G_CALLBACK (outer_cancelled_cb),
                                                turn->cancellable, 0);
      if (g_cancellable_is_cancelled (cancellable))
        g_cancellable_cancel (turn->cancellable);
    }
  turn->cancelled_id = g_signal_connect (turn->cancellable, "cancelled",
                                         G_CALLBACK (turn_cancelled_cb), task);

  g_hash_table_insert (self->turns, conversation, turn);
  steward_conversation_set_busy (conversation, TRUE);

  return g_steal_pointer (&task);
}

void
steward_chat_engine_start_turn (GTask *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  GError *error = NULL;

  if (!resolve_model (self, turn, &error))
    {
      fail_with_message (task, error);
      return;
    }

  steward_chat_engine_next_round (task);
}

/* Nested approvals */

static void
approval_added_cb (StewardChatEngine *self,
                   StewardApproval   *approval)
{
  StewardApprovalKind kind = steward_approval_get_kind (approval);
  StewardServer *server;
  GCancellable *cause;
  GHashTableIter iter;
  gpointer value;

  if (kind != STEWARD_APPROVAL_KIND_SAMPLING && kind != STEWARD_APPROVAL_KIND_ELICITATION)
    return;

  server = steward_chat_engine_lookup_server (self, steward_approval_get_server (approval));
  cause = server != NULL ? steward_server_get_cause_cancellable (server) : NULL;
  if (cause == NULL)
    return;

  g_hash_table_iter_init (&iter, self->turns);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Turn *turn = value;
      g_autofree char *text = NULL;

      if (turn->cancellable != cause || turn->call == NULL ||
          steward_tool_call_get_state (turn->call) != STEWARD_TOOL_CALL_RUNNING)
        continue;

      steward_tool_call_add_approval (turn->call, approval);
      /* Translators: what caused a sampling or elicitation request; the
       * first %s is a tool, the second a chat's title. */
      text = g_strdup_printf (_("Tool call “%s” in the chat “%s”"),
                              steward_tool_call_get_tool (turn->call),
                              steward_conversation_get_title (turn->conversation));
      steward_approval_set_cause (approval, text);
      return;
    }
}

/* GObject */

static void
drop_handed (StewardChatEngine *self)
{
  if (self->approvals != NULL)
    g_signal_handlers_disconnect_by_data (self->approvals, self);

  g_clear_object (&self->registry);
  g_clear_object (&self->approvals);
  g_clear_object (&self->configured);
  g_clear_object (&self->catalog);
  g_clear_object (&self->log_store);
  g_clear_object (&self->pins);
}

static void
steward_chat_engine_dispose (GObject *object)
{
  StewardChatEngine *self = STEWARD_CHAT_ENGINE (object);

  drop_handed (self);

  G_OBJECT_CLASS (steward_chat_engine_parent_class)->dispose (object);
}

static void
steward_chat_engine_finalize (GObject *object)
{
  StewardChatEngine *self = STEWARD_CHAT_ENGINE (object);

  g_clear_pointer (&self->providers, g_hash_table_unref);
  g_clear_pointer (&self->turns, g_hash_table_unref);
  g_clear_pointer (&self->reported, g_hash_table_unref);

  G_OBJECT_CLASS (steward_chat_engine_parent_class)->finalize (object);
}

static void
steward_chat_engine_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardChatEngine *self = STEWARD_CHAT_ENGINE (object);

  switch (prop_id)
    {
    case PROP_MAX_ROUNDS:
      g_value_set_uint (value, self->max_rounds);
      break;

    case PROP_MAX_TOKENS:
      g_value_set_uint (value, self->max_tokens);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_chat_engine_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StewardChatEngine *self = STEWARD_CHAT_ENGINE (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      self->registry = g_value_dup_object (value);
      break;

    case PROP_APPROVALS:
      self->approvals = g_value_dup_object (value);
      break;

    case PROP_PROVIDERS:
      self->configured = g_value_dup_object (value);
      break;

    case PROP_MODEL_CATALOG:
      self->catalog = g_value_dup_object (value);
      break;

    case PROP_LOG_STORE:
      self->log_store = g_value_dup_object (value);
      break;

    case PROP_TOOL_PINS:
      self->pins = g_value_dup_object (value);
      break;

    case PROP_MAX_ROUNDS:
      steward_chat_engine_set_max_rounds (self, g_value_get_uint (value));
      break;

    case PROP_MAX_TOKENS:
      steward_chat_engine_set_max_tokens (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_chat_engine_constructed (GObject *object)
{
  StewardChatEngine *self = STEWARD_CHAT_ENGINE (object);

  G_OBJECT_CLASS (steward_chat_engine_parent_class)->constructed (object);

  g_assert (STEWARD_IS_SERVER_REGISTRY (self->registry));
  g_assert (STEWARD_IS_APPROVALS (self->approvals));
  g_assert (STEWARD_IS_PROVIDERS (self->configured));
  g_assert (STEWARD_IS_MODEL_CATALOG (self->catalog));
  g_assert (STEWARD_IS_LOG_STORE (self->log_store));
  g_assert (STEWARD_IS_TOOL_PINS (self->pins));

  g_signal_connect_object (self->approvals, "added",
                           G_CALLBACK (approval_added_cb), self, G_CONNECT_SWAPPED);
}

static void
steward_chat_engine_class_init (StewardChatEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = steward_chat_engine_constructed;
  object_class->dispose = steward_chat_engine_dispose;
  object_class->finalize = steward_chat_engine_finalize;
  object_class->get_property = steward_chat_engine_get_property;
  object_class->set_property = steward_chat_engine_set_property;

  properties[PROP_REGISTRY] =
    g_param_spec_object ("registry", NULL, NULL, STEWARD_TYPE_SERVER_REGISTRY,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_APPROVALS] =
    g_param_spec_object ("approvals", NULL, NULL, STEWARD_TYPE_APPROVALS,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROVIDERS] =
    g_param_spec_object ("providers", NULL, NULL, STEWARD_TYPE_PROVIDERS,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL_CATALOG] =
    g_param_spec_object ("model-catalog", NULL, NULL, STEWARD_TYPE_MODEL_CATALOG,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG_STORE] =
    g_param_spec_object ("log-store", NULL, NULL, STEWARD_TYPE_LOG_STORE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOL_PINS] =
    g_param_spec_object ("tool-pins", NULL, NULL, STEWARD_TYPE_TOOL_PINS,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_ROUNDS] =
    g_param_spec_uint ("max-rounds", NULL, NULL, 1, 1000, STEWARD_CHAT_DEFAULT_ROUNDS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, NULL, 1, G_MAXINT32, DEFAULT_MAX_TOKENS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_chat_engine_init (StewardChatEngine *self)
{
  self->max_rounds = STEWARD_CHAT_DEFAULT_ROUNDS;
  self->max_tokens = DEFAULT_MAX_TOKENS;
  self->providers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->turns = g_hash_table_new (NULL, NULL);
  self->reported = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* Public API */

/**
 * steward_chat_engine_new:
 * @registry: the servers whose tools the chat offers
 * @approvals: where tool calls wait for the person
 * @providers: the configured providers
 * @catalog: the models they offer
 * @log_store: where tool calls are logged
 * @pins: the tool descriptions the person approved
 *
 * The engine keeps these until steward_chat_engine_close().
 */
StewardChatEngine *
steward_chat_engine_new (StewardServerRegistry *registry,
                         StewardApprovals      *approvals,
                         StewardProviders      *providers,
                         StewardModelCatalog   *catalog,
                         StewardLogStore       *log_store,
                         StewardToolPins       *pins)
{
  return g_object_new (STEWARD_TYPE_CHAT_ENGINE,
                       "registry", registry,
                       "approvals", approvals,
                       "providers", providers,
                       "model-catalog", catalog,
                       "log-store", log_store,
                       "tool-pins", pins,
                       NULL);
}

/**
 * steward_chat_engine_close:
 *
 * A turn may outlive the host (its task holds the engine): it stops, and
 * its callbacks see the stop before they would reach for what the engine
 * was handed, which it lets go of here.
 */
void
steward_chat_engine_close (StewardChatEngine *self)
{
  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));

  drop_handed (self);
  steward_chat_engine_stop_all (self);
}

guint
steward_chat_engine_get_max_rounds (StewardChatEngine *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_ENGINE (self), 0);

  return self->max_rounds;
}

void
steward_chat_engine_set_max_rounds (StewardChatEngine *self,
                                    guint              max_rounds)
{
  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (max_rounds > 0);

  if (self->max_rounds == max_rounds)
    return;

  self->max_rounds = max_rounds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_ROUNDS]);
}

guint
steward_chat_engine_get_max_tokens (StewardChatEngine *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_ENGINE (self), 0);

  return self->max_tokens;
}

void
steward_chat_engine_set_max_tokens (StewardChatEngine *self,
                                    guint              max_tokens)
{
  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (max_tokens > 0);

  if (self->max_tokens == max_tokens)
    return;

  self->max_tokens = max_tokens;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOKENS]);
}

void
steward_chat_engine_add_provider (StewardChatEngine *self,
                                  StewardProvider   *provider)
{
  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (STEWARD_IS_PROVIDER (provider));

  g_hash_table_replace (self->providers, g_strdup (steward_provider_get_id (provider)),
                        g_object_ref (provider));
}

void
steward_chat_engine_stop (StewardChatEngine   *self,
                          StewardConversation *conversation)
{
  Turn *turn;

  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (STEWARD_IS_CONVERSATION (conversation));

  turn = g_hash_table_lookup (self->turns, conversation);
  if (turn != NULL)
    g_cancellable_cancel (turn->cancellable);
}

void
steward_chat_engine_stop_all (StewardChatEngine *self)
{
  g_autoptr(GPtrArray) cancellables = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));

  /* Stopping a turn ends it, which changes the table: collect first. */
  g_hash_table_iter_init (&iter, self->turns);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (cancellables, g_object_ref (((Turn *) value)->cancellable));

  for (guint i = 0; i < cancellables->len; i++)
    g_cancellable_cancel (g_ptr_array_index (cancellables, i));
}

/**
 * steward_chat_engine_send_async:
 * @text: what the person wrote
 * @attachments: (nullable): content blocks to send with it
 *
 * Adds the person's message to @conversation and runs the turn.
 */
void
steward_chat_engine_send_async (StewardChatEngine   *self,
                                StewardConversation *conversation,
                                const char          *text,
                                JsonArray           *attachments,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) content = NULL;
  g_autoptr(StewardChatMessage) message = NULL;

  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (STEWARD_IS_CONVERSATION (conversation));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = steward_chat_engine_new_turn (self, conversation, cancellable, callback, user_data,
                   steward_chat_engine_send_async, &error);
  if (task == NULL)
    return;

  content = json_array_new ();
  if (*text != '\0')
    json_array_add_object_element (content, steward_chat_engine_text_block (text));
  for (guint i = 0; attachments != NULL && i < json_array_get_length (attachments); i++)
    json_array_add_element (content,
                            steward_chat_json_copy (json_array_get_element (attachments, i)));
  steward_chat_engine_add_view_contexts (self, conversation, content);

  message = steward_chat_message_new (STEWARD_CHAT_ROLE_USER, content);
  steward_conversation_append (conversation, message);

  steward_chat_engine_start_turn (task);
}

gboolean
steward_chat_engine_send_finish (StewardChatEngine  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The position of the last message the person wrote, or -1. */
static int
last_user_message (StewardConversation *conversation)
{
  GListModel *messages = steward_conversation_get_messages (conversation);

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(StewardChatMessage) message = g_list_model_get_item (messages, i - 1);

      if (steward_chat_message_get_role (message) == STEWARD_CHAT_ROLE_USER)
        return i - 1;
    }

  return -1;
}

/* Where a turn that answers again starts: the last message the person
 * wrote. Without one, the turn ends at once with @missing. */
static int
turn_from_last_user_message (GTask               *task,
                             StewardConversation *conversation,
                             const char          *missing)
{
  int position = last_user_message (conversation);

  if (position < 0)
    steward_chat_engine_finish (task, g_error_new_literal (STEWARD_CHAT_ENGINE_ERROR,
                                                           STEWARD_CHAT_ENGINE_ERROR_NO_MESSAGE,
                                                           missing));
  return position;
}

void
steward_chat_engine_regenerate_async (StewardChatEngine   *self,
                                      StewardConversation *conversation,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  int position;

  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (STEWARD_IS_CONVERSATION (conversation));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = steward_chat_engine_new_turn (self, conversation, cancellable, callback, user_data,
                   steward_chat_engine_regenerate_async, &error);
  if (task == NULL)
    return;

  position = turn_from_last_user_message (task, conversation,
                                          _("There is no message to answer again"));
  if (position < 0)
    return;

  steward_conversation_truncate (conversation, position + 1);
  steward_chat_engine_start_turn (task);
}

gboolean
steward_chat_engine_regenerate_finish (StewardChatEngine  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
steward_chat_engine_edit_last_async (StewardChatEngine   *self,
                                     StewardConversation *conversation,
                                     const char          *text,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardChatMessage) message = NULL;
  g_autoptr(JsonArray) content = NULL;
  JsonArray *old;
  int position;

  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (STEWARD_IS_CONVERSATION (conversation));
  g_return_if_fail (text != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = steward_chat_engine_new_turn (self, conversation, cancellable, callback, user_data,
                   steward_chat_engine_edit_last_async, &error);
  if (task == NULL)
    return;

  position = turn_from_last_user_message (task, conversation, _("There is no message to edit"));
  if (position < 0)
    return;

  /* The new text replaces the old; the attachments stay. */
  message = g_list_model_get_item (steward_conversation_get_messages (conversation), position);
  old = steward_chat_message_get_content (message);
  content = json_array_new ();
  if (*text != '\0')
    json_array_add_object_element (content, steward_chat_engine_text_block (text));
  for (guint i = 0; i < json_array_get_length (old); i++)
    {
      JsonNode *node = json_array_get_element (old, i);

      if (JSON_NODE_HOLDS_OBJECT (node) &&
          g_strcmp0 (mcp_json_get_string (json_node_get_object (node), "type"), "text") == 0)
        continue;
      json_array_add_element (content, steward_chat_json_copy (node));
    }

  steward_conversation_truncate (conversation, position + 1);
  steward_chat_message_set_content (message, content);
  steward_chat_engine_start_turn (task);
}

gboolean
steward_chat_engine_edit_last_finish (StewardChatEngine  *self,
                                      GAsyncResult       *result,
                                      GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
