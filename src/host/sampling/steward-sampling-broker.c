/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-sampling-request.h"

#include "steward-model-selector.h"
#include "steward-redactor.h"

#include "steward-sampling-broker-private.h"
#include "steward-sampling-notes.h"

#define WINDOW_USEC               ((gint64) 60 * G_USEC_PER_SEC)
#define SUMMARY_CHARS             200
#define CHARS_PER_TOKEN           4
/* policies.json holds a few lines per server. */
#define POLICIES_MAX_FILE_SIZE    (1024 * 1024)

/* The words and code the specification shows for a refusal. */
#define USER_REJECTED_MESSAGE     "User rejected sampling request"

enum {
  PROP_0,
  PROP_APPROVALS,
  PROP_POLICIES,
  PROP_JOURNAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardSamplingBroker, steward_sampling_broker, G_TYPE_OBJECT)

/* The manual provider: no model, the person writes the answer. */

static char *
manual_choose_model (gpointer     provider,
                     JsonObject  *params,
                     char       **reason)
{
  *reason = g_strdup (_("No model is configured, so you write the answer."));
  return g_strdup ("manual");
}

static const StewardSamplingProviderFuncs manual_provider = {
  manual_choose_model,
  NULL,
  NULL,
};

StewardSamplingAnswer *
steward_sampling_answer_new (const char *text,
                             const char *model)
{
  StewardSamplingAnswer *answer = g_new0 (StewardSamplingAnswer, 1);

  answer->text = g_strdup (text ? text : "");
  answer->model = g_strdup (model);
  answer->stop_reason = g_strdup ("endTurn");
  answer->input_tokens = -1;
  answer->output_tokens = -1;

  return answer;
}

void
steward_sampling_answer_free (StewardSamplingAnswer *answer)
{
  if (answer == NULL)
    return;

  g_free (answer->text);
  g_free (answer->model);
  g_free (answer->stop_reason);
  g_free (answer);
}

/* Time */

/* One clock for the windows here and the journal's budget and stamps. */
gint64
steward_sampling_broker_now (StewardSamplingBroker *self)
{
  return steward_sampling_journal_now (self->journal);
}

/* Drops the times that left the window and says how many are in it; the
 * oldest one left tells when the window opens again. A time in the future
 * means the wall clock went back, and it is forgotten rather than letting
 * it hold the window shut. */
guint
steward_sampling_window_count (GArray *times,
                               gint64  now,
                               gint64 *oldest)
{
  guint kept = 0;

  for (guint i = 0; i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);

      if (t > now - WINDOW_USEC && t <= now)
        g_array_index (times, gint64, kept++) = t;
    }
  g_array_set_size (times, kept);

  if (oldest != NULL)
    *oldest = kept > 0 ? g_array_index (times, gint64, 0) : now;

  return kept;
}

guint
steward_sampling_seconds_until_free (gint64 oldest,
                                     gint64 now)
{
  gint64 wait = oldest + WINDOW_USEC - now;

  return (guint) MAX (1, (wait + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
}

/* Per-server state */

static void
server_state_free (StewardSamplingServerState *state)
{
  g_free (state->name);
  g_array_unref (state->sampling_times);
  g_array_unref (state->elicitation_times);
  g_clear_object (&state->settings);
  g_clear_object (&state->open);
  g_queue_clear_full (&state->waiting, g_object_unref);
  g_clear_object (&state->open_elicitation);
  g_free (state);
}

StewardSamplingServerState *
steward_sampling_broker_get_server_state (StewardSamplingBroker *self,
                                          const char            *server)
{
  StewardSamplingServerState *state = g_hash_table_lookup (self->servers, server);

  if (state != NULL)
    return state;

  state = g_new0 (StewardSamplingServerState, 1);
  state->name = g_strdup (server);
  state->settings = steward_sampling_settings_new (server);
  g_signal_connect_object (state->settings, "notify",
                           G_CALLBACK (steward_sampling_broker_settings_changed), self,
                           G_CONNECT_SWAPPED);
  state->sampling_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  state->elicitation_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_queue_init (&state->waiting);
  g_hash_table_insert (self->servers, state->name, state);

  return state;
}

static gint64
count_chars (const char *text)
{
  return text ? g_utf8_strlen (text, -1) : 0;
}

static gint64
estimate_tokens (gint64 chars)
{
  return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
}

static gint64
count_prompt_chars (JsonObject *params)
{
  JsonArray *messages = steward_sampling_json_get_array (params, "messages");
  gint64 chars = count_chars (steward_sampling_json_get_string (params, "systemPrompt"));

  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *message = json_array_get_element (messages, i);
      g_autofree char *text = NULL;
      JsonNode *content;

      if (!JSON_NODE_HOLDS_OBJECT (message))
        continue;

      content = json_object_get_member (json_node_get_object (message), "content");
      text = mcp_sampling_content_dup_text (content);
      chars += count_chars (text);
    }

  return chars;
}

/* The first characters of the last user message: enough for a person to
 * recognise the request in the journal, short enough to keep secrets out
 * of it for the most part. */
static char *
dup_summary (JsonObject *params)
{
  JsonArray *messages = steward_sampling_json_get_array (params, "messages");

  for (guint i = messages ? json_array_get_length (messages) : 0; i > 0; i--)
    {
      JsonNode *node = json_array_get_element (messages, i - 1);
      JsonObject *message;
      g_autofree char *text = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      message = json_node_get_object (node);
      if (g_strcmp0 (steward_sampling_json_get_string (message, "role"), "user") != 0)
        continue;

      text = mcp_sampling_content_dup_text (json_object_get_member (message, "content"));
      return g_utf8_substring (text, 0, MIN (count_chars (text), SUMMARY_CHARS));
    }

  return NULL;
}

/* Returns a copy of @params with maxTokens at most @cap, and what the
 * request asked for when it was more (else 0). "_steward" is the host's
 * word to the person: a server's own, or the one an edit brought back,
 * is dropped. */
static JsonObject *
clamp_params (JsonObject *params,
              guint       cap,
              guint      *requested)
{
  JsonObject *copy = steward_sampling_json_copy_object (params);
  gint64 max_tokens = 0;

  if (json_object_has_member (copy, "_steward"))
    json_object_remove_member (copy, "_steward");

  steward_sampling_json_get_integer (copy, "maxTokens", &max_tokens);
  *requested = 0;
  if (max_tokens > (gint64) cap)
    {
      *requested = (guint) MIN (max_tokens, (gint64) G_MAXUINT);
      json_object_set_int_member (copy, "maxTokens", cap);
    }

  return copy;
}

static GError *
new_rejection (void)
{
  return mcp_error_new_rpc (MCP_ERROR_USER_REJECTED, USER_REJECTED_MESSAGE, NULL);
}

GError *
steward_sampling_new_withdrawn (void)
{
  return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                              _("The server withdrew the request"));
}

/* policies.json */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static GBytes *
serialize_policies (StewardSamplingBroker *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  StewardSamplingServerState *state;
  gsize length;
  char *text;

  g_hash_table_iter_init (&iter, self->servers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &state))
    if (steward_sampling_settings_get_configured (state->settings))
      g_ptr_array_add (names, state->name);
  /* Sorted, so that a file under version control changes little. */
  g_ptr_array_sort (names, compare_names);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "servers");
  json_builder_begin_object (builder);
  for (guint i = 0; i < names->len; i++)
    {
      StewardSamplingSettings *settings;
      StewardSamplingPolicy policy;
      const char * const *models;

      state = g_hash_table_lookup (self->servers, g_ptr_array_index (names, i));
      settings = state->settings;
      models = steward_sampling_settings_get_models (settings);
      /* "Allow for this session" ends with the session: it is kept as
       * "ask", what the server gets when Steward starts again. */
      policy = steward_sampling_settings_get_policy (settings);
      if (policy == STEWARD_SAMPLING_POLICY_ALLOW_SESSION)
        policy = STEWARD_SAMPLING_POLICY_ASK;

      json_builder_set_member_name (builder, state->name);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "sampling");
      json_builder_add_string_value (builder, steward_sampling_policy_to_string (policy));
      json_builder_set_member_name (builder, "maxTokens");
      json_builder_add_int_value (builder, steward_sampling_settings_get_max_tokens (settings));
      json_builder_set_member_name (builder, "perMinute");
      json_builder_add_int_value (builder, steward_sampling_settings_get_per_minute (settings));
      json_builder_set_member_name (builder, "dailyTokens");
      json_builder_add_int_value (builder, steward_sampling_settings_get_daily_tokens (settings));
      if (models != NULL)
        {
          json_builder_set_member_name (builder, "models");
          json_builder_begin_array (builder);
          for (guint j = 0; models[j] != NULL; j++)
            json_builder_add_string_value (builder, models[j]);
          json_builder_end_array (builder);
        }
      if (steward_sampling_settings_get_local_only (settings))
        {
          json_builder_set_member_name (builder, "localOnly");
          json_builder_add_boolean_value (builder, TRUE);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &length);
  text = g_realloc (text, length + 2);
  text[length++] = '\n';
  text[length] = '\0';

  return g_bytes_new_take (text, length);
}

typedef struct {
  char                  *name;
  StewardSamplingPolicy  policy;
  guint                  max_tokens;
  guint                  per_minute;
  guint                  daily_tokens;
  char                 **models;
  gboolean               local_only;
} Entry;

static void
entry_free (Entry *entry)
{
  g_free (entry->name);
  g_strfreev (entry->models);
  g_free (entry);
}

/* "models": model ids, or null for all. */
static gboolean
read_models (JsonObject   *object,
             const char   *server,
             char       ***models,
             GError      **error)
{
  JsonNode *node = json_object_get_member (object, "models");
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("server `%s`: “models” must be a list of model ids"), server);
      return FALSE;
    }

  builder = g_strv_builder_new ();
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("server `%s`: “models” must be a list of model ids"), server);
          return FALSE;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  *models = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
read_flag (JsonObject  *object,
           const char  *server,
           const char  *member,
           gboolean    *value,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("server `%s`: “%s” must be true or false"), server, member);
      return FALSE;
    }

  *value = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
read_setting (JsonObject  *object,
              const char  *server,
              const char  *member,
              guint        minimum,
              guint       *value,
              GError     **error)
{
  gint64 number;

  if (!json_object_has_member (object, member))
    return TRUE;

  if (!steward_sampling_json_get_integer (object, member, &number) || number < minimum || number > G_MAXUINT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("server `%s`: “%s” must be a whole number from %u to %u"),
                   server, member, minimum, G_MAXUINT);
      return FALSE;
    }

  *value = (guint) number;
  return TRUE;
}

static GPtrArray *
parse_policies (const char  *data,
                gsize        length,
                GError     **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *servers;
  JsonNode *servers_node;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (length > POLICIES_MAX_FILE_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("the file is larger than %u KiB, far more than policies need"),
                   POLICIES_MAX_FILE_SIZE / 1024);
      return NULL;
    }

  root = mcp_json_parse (data, (gssize) length, &local_error);
  if (root == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("the file is not valid JSON: %s"), local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("the file must hold a JSON object with “servers”"));
      return NULL;
    }

  servers_node = json_object_get_member (json_node_get_object (root), "servers");
  if (servers_node == NULL)
    return g_steal_pointer (&entries);

  if (!JSON_NODE_HOLDS_OBJECT (servers_node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("“servers” must be an object"));
      return NULL;
    }

  servers = json_node_get_object (servers_node);
  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &node))
    {
      Entry *entry;
      JsonObject *object;
      const char *policy;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("server `%s`: must be an object"), name);
          return NULL;
        }

      object = json_node_get_object (node);
      entry = g_new0 (Entry, 1);
      entry->name = g_strdup (name);
      entry->policy = STEWARD_SAMPLING_POLICY_ASK;
      entry->max_tokens = STEWARD_SAMPLING_DEFAULT_MAX_TOKENS;
      entry->per_minute = STEWARD_SAMPLING_DEFAULT_PER_MINUTE;
      entry->daily_tokens = STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS;
      g_ptr_array_add (entries, entry);

      if (json_object_has_member (object, "sampling"))
        {
          policy = steward_sampling_json_get_string (object, "sampling");
          if (policy == NULL || !steward_sampling_policy_from_string (policy, &entry->policy))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("server `%s`: “sampling” must be “deny”, “ask” or “always”"),
                           name);
              return NULL;
            }
          /* A session's allowance never comes back from a file. */
          if (entry->policy == STEWARD_SAMPLING_POLICY_ALLOW_SESSION)
            entry->policy = STEWARD_SAMPLING_POLICY_ASK;
        }

      if (!read_setting (object, name, "maxTokens", 1, &entry->max_tokens, error) ||
          !read_setting (object, name, "perMinute", 0, &entry->per_minute, error) ||
          !read_setting (object, name, "dailyTokens", 0, &entry->daily_tokens, error) ||
          !read_models (object, name, &entry->models, error) ||
          !read_flag (object, name, "localOnly", &entry->local_only, error))
        return NULL;
    }

  return g_steal_pointer (&entries);
}

static gboolean
apply_policies (StewardSamplingBroker  *self,
                const char             *data,
                gsize                   length,
                GError                **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) local_error = NULL;
  GHashTableIter iter;
  StewardSamplingServerState *state;

  entries = parse_policies (data, length, &local_error);
  if (entries == NULL)
    {
      g_autofree char *label = g_file_get_parse_name (self->policies);

      g_set_error (error, local_error->domain, local_error->code,
                   "%s: %s", label, local_error->message);
      return FALSE;
    }

  /* The file says everything: a server it leaves out has the defaults. */
  self->loading = TRUE;
  g_hash_table_iter_init (&iter, self->servers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &state))
    steward_sampling_settings_reset (state->settings);

  for (guint i = 0; i < entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (entries, i);
      StewardSamplingSettings *settings;

      settings = steward_sampling_broker_get_settings (self, entry->name);
      steward_sampling_settings_set_policy (settings, entry->policy);
      steward_sampling_settings_set_max_tokens (settings, entry->max_tokens);
      steward_sampling_settings_set_per_minute (settings, entry->per_minute);
      steward_sampling_settings_set_daily_tokens (settings, entry->daily_tokens);
      steward_sampling_settings_set_models (settings, (const char * const *) entry->models);
      steward_sampling_settings_set_local_only (settings, entry->local_only);
    }
  self->loading = FALSE;

  return TRUE;
}

static void
autosave_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_warning ("%s", error->message);
}

static void
write_policies (StewardSamplingBroker *self,
                GTask                 *task)
{
  g_autoptr(GBytes) bytes = serialize_policies (self);

  g_clear_handle_id (&self->save_source_id, g_source_remove);
  steward_sampling_file_queue_write (self->queue, self->policies, bytes, task);
}

static gboolean
autosave_cb (gpointer user_data)
{
  StewardSamplingBroker *self = user_data;
  g_autoptr(GTask) task = g_task_new (self, NULL, autosave_done_cb, NULL);

  g_task_set_source_tag (task, autosave_cb);
  self->save_source_id = 0;
  write_policies (self, task);

  return G_SOURCE_REMOVE;
}

/* Changes made together are written together, once the main loop is idle.
 * The source holds the broker so that no change is lost when it goes. What
 * a load sets came from the file, and is not written back. */
void
steward_sampling_broker_settings_changed (StewardSamplingBroker *self)
{
  if (self->loading)
    return;

  if (self->policies != NULL && self->save_source_id == 0)
    self->save_source_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, autosave_cb,
                                            g_object_ref (self), g_object_unref);
}

/* The audit journal */

typedef struct {
  StewardSamplingServerState *state;
  char                       *server;
  char                       *cause;
  JsonObject                 *params;        /* clamped, and as edited by the person */
  guint                       max_tokens_requested;
  char                       *model;
  char                       *model_reason;
  StewardModel               *chosen;        /* NULL: the person writes the answer */
  char                       *provider_id;   /* the chosen model's, "manual", or NULL */
  char                       *include_context; /* what the approval says of it, or NULL */

  StewardApproval            *approval;
  gulong                      responded_id;
  GSource                    *cancel_source;

  GCancellable               *generation;    /* the provider's answer under way */
  char                       *produced;      /* what the provider produced, NULL if nothing */
  char                       *produced_by;   /* the model that says it produced it */
  char                       *produced_stop; /* its stopReason */
  JsonArray                  *tool_uses;     /* the model's tool calls, NULL if none */
  gint64                      input_tokens;  /* as the provider reported them, or -1 */
  gint64                      output_tokens;
  /* What every answer of this request spent, as reported. */
  gint64                      spent_input;
  gint64                      spent_output;
  gboolean                    edited;
  gboolean                    done;
} Request;

static void
request_free (Request *request)
{
  g_free (request->server);
  g_free (request->cause);
  g_clear_pointer (&request->params, json_object_unref);
  g_free (request->model);
  g_free (request->model_reason);
  g_clear_object (&request->chosen);
  g_free (request->provider_id);
  g_free (request->include_context);
  if (request->approval != NULL)
    g_clear_signal_handler (&request->responded_id, request->approval);
  g_clear_object (&request->approval);
  if (request->cancel_source != NULL)
    g_source_destroy (request->cancel_source);
  g_clear_pointer (&request->cancel_source, g_source_unref);
  if (request->generation != NULL)
    g_cancellable_cancel (request->generation);
  g_clear_object (&request->generation);
  g_free (request->produced);
  g_free (request->produced_by);
  g_free (request->produced_stop);
  g_clear_pointer (&request->tool_uses, json_array_unref);
  g_free (request);
}

static void
journal_append (StewardSamplingBroker *self,
                Request               *request,
                const char            *decision,
                const GError          *error,
                JsonObject            *result,
                gint64                 input_tokens,
                gint64                 output_tokens)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) datetime = NULL;
  g_autofree char *stamp = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *answer = NULL;
  JsonArray *messages;
  gint64 max_tokens = 0;
  const char *model;

  if (steward_sampling_journal_get_file (self->journal) == NULL)
    return;

  builder = json_builder_new ();
  datetime = g_date_time_new_from_unix_utc (steward_sampling_broker_now (self) / G_USEC_PER_SEC);
  stamp = g_date_time_format_iso8601 (datetime);
  messages = steward_sampling_json_get_array (request->params, "messages");
  steward_sampling_json_get_integer (request->params, "maxTokens", &max_tokens);
  summary = dup_summary (request->params);
  model = result ? steward_sampling_json_get_string (result, "model") : NULL;
  if (model == NULL)
    model = request->model;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, stamp);
  json_builder_set_member_name (builder, "server");
  json_builder_add_string_value (builder, request->server);
  json_builder_set_member_name (builder, "decision");
  json_builder_add_string_value (builder, decision);
  if (error != NULL)
    {
      json_builder_set_member_name (builder, "reason");
      json_builder_add_string_value (builder, error->message);
    }
  if (request->cause != NULL)
    {
      json_builder_set_member_name (builder, "cause");
      json_builder_add_string_value (builder, request->cause);
    }
  if (model != NULL)
    {
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
    }
  if (request->provider_id != NULL)
    {
      json_builder_set_member_name (builder, "provider");
      json_builder_add_string_value (builder, request->provider_id);
    }
  json_builder_set_member_name (builder, "maxTokens");
  json_builder_add_int_value (builder, max_tokens);
  if (request->max_tokens_requested > 0)
    {
      json_builder_set_member_name (builder, "maxTokensRequested");
      json_builder_add_int_value (builder, request->max_tokens_requested);
    }
  json_builder_set_member_name (builder, "messages");
  json_builder_add_int_value (builder, messages ? json_array_get_length (messages) : 0);
  json_builder_set_member_name (builder, "promptChars");
  json_builder_add_int_value (builder, count_prompt_chars (request->params));
  if (result != NULL)
    {
      answer = mcp_sampling_content_dup_text (json_object_get_member (result, "content"));
      json_builder_set_member_name (builder, "answerChars");
      json_builder_add_int_value (builder, count_chars (answer));
    }
  json_builder_set_member_name (builder, "inputTokens");
  json_builder_add_int_value (builder, input_tokens);
  json_builder_set_member_name (builder, "outputTokens");
  json_builder_add_int_value (builder, output_tokens);
  json_builder_set_member_name (builder, "edited");
  json_builder_add_boolean_value (builder, request->edited);
  if (summary != NULL)
    {
      json_builder_set_member_name (builder, "summary");
      json_builder_add_string_value (builder, summary);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  steward_sampling_journal_append (self->journal, json_node_get_object (root));
}

/* Sampling requests */

static void pump (StewardSamplingBroker      *self,
                  StewardSamplingServerState *state);

static StewardProvider *
find_provider (StewardSamplingBroker *self,
               const char            *id)
{
  guint n = self->model_providers ? g_list_model_get_n_items (self->model_providers) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardProvider) provider = g_list_model_get_item (self->model_providers, i);

      if (g_strcmp0 (steward_provider_get_id (provider), id) == 0)
        return g_steal_pointer (&provider);
    }

  return NULL;
}

/* The models @state's server may use whose provider is set up: a model
 * whose provider was removed cannot answer. */
static char **
dup_usable_models (StewardSamplingBroker      *self,
                   StewardSamplingServerState *state)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  const char * const *models = steward_sampling_settings_get_models (state->settings);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      g_autoptr(StewardProvider) provider = NULL;
      const char *id = steward_model_get_id (model);

      if (models != NULL && !g_strv_contains (models, id))
        continue;

      provider = find_provider (self, steward_model_get_provider (model));
      if (provider != NULL)
        g_strv_builder_add (builder, id);
    }

  return g_strv_builder_end (builder);
}

/* The model for a request, and the sentence that says why: from the test
 * seam when one is set, else from the person's models, else the person. */
static void
choose_model (StewardSamplingBroker      *self,
              StewardSamplingServerState *state,
              Request                    *request)
{
  g_auto(GStrv) usable = NULL;
  StewardModel *chosen;

  if (self->provider_funcs != &manual_provider || self->catalog == NULL)
    {
      request->model = self->provider_funcs->choose_model (self->provider, request->params,
                                                           &request->model_reason);
      if (self->provider_funcs == &manual_provider)
        request->provider_id = g_strdup ("manual");
      return;
    }

  usable = dup_usable_models (self, state);
  chosen = steward_model_selector_select (self->catalog,
                                          steward_sampling_json_get_object (request->params, "modelPreferences"),
                                          (const char * const *) usable,
                                          steward_sampling_settings_get_local_only (state->settings),
                                          &request->model_reason);
  if (chosen == NULL)
    {
      request->model = g_strdup ("manual");
      request->provider_id = g_strdup ("manual");
      return;
    }

  request->chosen = chosen;
  request->model = g_strdup (steward_model_get_id (chosen));
  request->provider_id = g_strdup (steward_model_get_provider (chosen));
}

/* Every request ends here, exactly once: the audit record, the queue, the
 * answer to the server, then the next request of the same server. */
static void
request_complete (StewardSamplingBroker *self,
                  GTask                 *task,
                  const char            *decision,
                  JsonObject            *result,
                  GError                *error,
                  gint64                 input_tokens,
                  gint64                 output_tokens)
{
  g_autoptr(GTask) owned = NULL;
  Request *request = g_task_get_task_data (task);
  StewardSamplingServerState *state = request->state;
  gboolean was_open = FALSE;

  if (request->done)
    {
      g_clear_error (&error);
      return;
    }
  request->done = TRUE;

  if (request->cancel_source != NULL)
    g_source_destroy (request->cancel_source);
  if (request->generation != NULL)
    g_cancellable_cancel (request->generation);
  if (request->approval != NULL)
    g_clear_signal_handler (&request->responded_id, request->approval);

  journal_append (self, request, decision, error, result, input_tokens, output_tokens);

  if (state->open == task)
    {
      owned = g_steal_pointer (&state->open);
      was_open = TRUE;
    }
  else if (g_queue_remove (&state->waiting, task))
    owned = task;
  else
    owned = g_object_ref (task);

  if (error != NULL)
    g_task_return_error (owned, error);
  else
    g_task_return_pointer (owned, json_object_ref (result), (GDestroyNotify) json_object_unref);

  if (was_open)
    pump (self, state);
}

static void
request_fail (StewardSamplingBroker *self,
              GTask                 *task,
              const char            *decision,
              GError                *error)
{
  Request *request = g_task_get_task_data (task);

  /* Tokens a provider reported were spent even when nothing is sent. */
  request_complete (self, task, decision, NULL, error,
                    request->spent_input, request->spent_output);
}

typedef struct {
  GTask        *task;
  GCancellable *cancellable;
} Generation;

static Generation *
generation_new (GTask        *task,
                GCancellable *cancellable)
{
  Generation *generation = g_new0 (Generation, 1);

  generation->task = g_object_ref (task);
  generation->cancellable = g_object_ref (cancellable);

  return generation;
}

static void
generation_free (Generation *generation)
{
  g_object_unref (generation->task);
  g_object_unref (generation->cancellable);
  g_free (generation);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Generation, generation_free)

/* Whether @generation is still the answer the request waits for: not
 * replaced by a newer one, and the request not ended meanwhile. */
static gboolean
generation_is_current (Generation *generation)
{
  Request *request = g_task_get_task_data (generation->task);

  return !request->done && generation->cancellable == request->generation;
}

/* The params as the person sees them: the request, and what Steward has
 * to say about it under "_steward". */
static JsonObject *
annotate (Request *request)
{
  JsonObject *shown;
  JsonObject *notes;

  if (request->include_context == NULL && request->tool_uses == NULL)
    return json_object_ref (request->params);

  shown = steward_sampling_json_copy_object (request->params);
  notes = json_object_new ();
  if (request->include_context != NULL)
    json_object_set_string_member (notes, "includeContext", request->include_context);
  if (request->tool_uses != NULL)
    {
      g_autoptr(JsonNode) uses = json_node_init_array (json_node_alloc (), request->tool_uses);

      json_object_set_member (notes, "toolUse", steward_sampling_json_copy_node (uses));
    }
  json_object_set_object_member (shown, "_steward", notes);

  return shown;
}

static void
show_request (Request *request)
{
  g_autoptr(JsonObject) shown = annotate (request);

  steward_approval_set_request (request->approval, shown);
}

/* Tokens the provider reported for the answer just produced: spent,
 * whatever the person does next. */
static void
count_reported_tokens (StewardSamplingBroker *self,
                       Request               *request)
{
  if (request->input_tokens < 0 || request->output_tokens < 0)
    return;

  request->spent_input += request->input_tokens;
  request->spent_output += request->output_tokens;
  steward_sampling_journal_add_tokens (self->journal, request->server,
                                       request->input_tokens + request->output_tokens);
}

static void
generate_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Generation) generation = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (generation->task);
  Request *request = g_task_get_task_data (generation->task);
  g_autoptr(StewardSamplingAnswer) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = self->provider_funcs->generate_finish (self->provider, result, &error);

  if (!generation_is_current (generation))
    return;

  g_clear_object (&request->generation);
  steward_approval_set_generating (request->approval, FALSE);

  if (answer == NULL)
    {
      steward_approval_set_error_text (request->approval, error->message);
      return;
    }

  g_free (request->produced);
  request->produced = g_strdup (answer->text);
  request->input_tokens = answer->input_tokens;
  request->output_tokens = answer->output_tokens;
  g_free (request->produced_by);
  request->produced_by = g_strdup (answer->model);
  g_free (request->produced_stop);
  request->produced_stop = g_strdup (answer->stop_reason);

  count_reported_tokens (self, request);

  steward_approval_set_answer_text (request->approval, answer->text);
}

/* The model's answer, streamed */

static void
copy_member (JsonObject *to,
             JsonObject *from,
             const char *member)
{
  JsonNode *node = json_object_get_member (from, member);

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    json_object_set_member (to, member, steward_sampling_json_copy_node (node));
}

/* The request in the providers' neutral shape, which is sampling's own:
 * the server's params as the person let them through, for @model. */
static JsonObject *
build_chat_request (JsonObject *params,
                    const char *model)
{
  static const char * const members[] = {
    "systemPrompt", "messages", "maxTokens", "temperature", "stopSequences", "metadata",
    "tools", "toolChoice",
  };
  JsonObject *chat = json_object_new ();

  json_object_set_string_member (chat, "model", model);
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    copy_member (chat, params, members[i]);

  return chat;
}

static void
stream_event_cb (StewardProviderEvent  event,
                 JsonObject           *data,
                 gpointer              user_data)
{
  Generation *generation = user_data;
  Request *request = g_task_get_task_data (generation->task);
  gint64 input_tokens;
  gint64 output_tokens;

  if (!generation_is_current (generation) || data == NULL)
    return;

  switch (event)
    {
    case STEWARD_PROVIDER_EVENT_TEXT:
      steward_approval_append_answer (request->approval, steward_sampling_json_get_string (data, "text"));
      break;

    case STEWARD_PROVIDER_EVENT_USAGE:
      if (steward_sampling_json_get_integer (data, "inputTokens", &input_tokens) &&
          steward_sampling_json_get_integer (data, "outputTokens", &output_tokens))
        {
          request->input_tokens = MAX (input_tokens, 0);
          request->output_tokens = MAX (output_tokens, 0);
        }
      break;

    case STEWARD_PROVIDER_EVENT_TOOL_CALL:
    default:
      /* Tool calls come whole with the answer, and are shown then. */
      break;
    }
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Generation) generation = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (generation->task);
  Request *request = g_task_get_task_data (generation->task);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonArray) tool_uses = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *usage;
  JsonNode *content;
  gint64 tokens;

  answer = steward_provider_chat_finish (STEWARD_PROVIDER (object), result, &error);

  if (!generation_is_current (generation))
    return;

  g_clear_object (&request->generation);
  steward_approval_set_generating (request->approval, FALSE);

  /* The answer's own count is the last word on what it spent. */
  usage = steward_sampling_json_get_object (answer, "usage");
  if (steward_sampling_json_get_integer (usage, "inputTokens", &tokens))
    request->input_tokens = MAX (tokens, 0);
  if (steward_sampling_json_get_integer (usage, "outputTokens", &tokens))
    request->output_tokens = MAX (tokens, 0);
  count_reported_tokens (self, request);

  if (answer == NULL)
    {
      steward_approval_set_error_text (request->approval, error->message);
      return;
    }

  content = json_object_get_member (answer, "content");
  text = mcp_sampling_content_dup_text (content);
  tool_uses = json_array_new ();
  for (guint i = 0; i < mcp_sampling_content_get_n_blocks (content); i++)
    {
      JsonObject *block = mcp_sampling_content_get_block (content, i);

      if (g_strcmp0 (steward_sampling_json_get_string (block, "type"), "tool_use") == 0)
        {
          g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), block);

          json_array_add_element (tool_uses, steward_sampling_json_copy_node (node));
        }
    }

  g_free (request->produced);
  request->produced = g_strdup (text);
  g_free (request->produced_by);
  request->produced_by = g_strdup (steward_sampling_json_get_string (answer, "model"));
  if (request->produced_by == NULL)
    request->produced_by = g_strdup (steward_model_get_name (request->chosen));
  g_free (request->produced_stop);
  request->produced_stop = g_strdup (steward_sampling_json_get_string (answer, "stopReason"));
  if (json_array_get_length (tool_uses) > 0)
    {
      request->tool_uses = g_steal_pointer (&tool_uses);
      show_request (request);
    }

  steward_approval_set_answer_text (request->approval, text);
}

static void
stream_from_model (StewardSamplingBroker *self,
                   GTask                 *task)
{
  Request *request = g_task_get_task_data (task);
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(JsonObject) chat = NULL;

  provider = find_provider (self, steward_model_get_provider (request->chosen));
  if (provider == NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: the first %s is a provider's id, the second a model. */
      text = g_strdup_printf (_("The provider “%s” of “%s” is no longer set up. Write the "
                                "answer yourself, or reject the request."),
                              steward_model_get_provider (request->chosen), request->model);
      steward_approval_set_generating (request->approval, FALSE);
      steward_approval_set_error_text (request->approval, text);
      return;
    }

  chat = build_chat_request (request->params, steward_model_get_name (request->chosen));
  request->generation = g_cancellable_new ();

  steward_approval_set_generating (request->approval, TRUE);
  steward_provider_chat_async (provider, chat,
                               stream_event_cb,
                               generation_new (task, request->generation),
                               (GDestroyNotify) generation_free,
                               request->generation, stream_cb,
                               generation_new (task, request->generation));
}

static void
generate (StewardSamplingBroker *self,
          GTask                 *task)
{
  Request *request = g_task_get_task_data (task);

  if (request->generation != NULL)
    g_cancellable_cancel (request->generation);
  g_clear_object (&request->generation);
  g_clear_pointer (&request->produced, g_free);
  g_clear_pointer (&request->produced_by, g_free);
  g_clear_pointer (&request->produced_stop, g_free);
  request->input_tokens = -1;
  request->output_tokens = -1;
  if (request->tool_uses != NULL)
    {
      g_clear_pointer (&request->tool_uses, json_array_unref);
      show_request (request);
    }

  steward_approval_set_error_text (request->approval, NULL);
  steward_approval_set_answer_text (request->approval, "");

  if (self->provider_funcs->generate_async != NULL)
    {
      request->generation = g_cancellable_new ();
      steward_approval_set_generating (request->approval, TRUE);
      self->provider_funcs->generate_async (self->provider, request->model, request->params,
                                            request->approval, request->generation,
                                            generate_cb,
                                            generation_new (task, request->generation));
      return;
    }

  if (request->chosen != NULL && g_strcmp0 (request->provider_id, "manual") != 0)
    {
      stream_from_model (self, task);
      return;
    }

  /* The manual provider: the person writes the answer. */
  steward_approval_set_generating (request->approval, FALSE);
}

/* The model asked for tools: its calls go back in the result for the
 * server to run, after whatever it said, and the turn ends for them. */
static void
add_tool_uses (JsonObject *result,
               JsonArray  *tool_uses)
{
  JsonNode *content = json_object_get_member (result, "content");
  g_autoptr(JsonArray) blocks = json_array_new ();

  for (guint i = 0; i < mcp_sampling_content_get_n_blocks (content); i++)
    {
      JsonObject *block = mcp_sampling_content_get_block (content, i);
      const char *type = steward_sampling_json_get_string (block, "type");

      /* Already there: the answer was built with them. */
      if (g_strcmp0 (type, "tool_use") == 0)
        return;

      if (block == NULL ||
          (g_strcmp0 (type, "text") == 0 && g_strcmp0 (steward_sampling_json_get_string (block, "text"), "") == 0))
        continue;

      json_array_add_object_element (blocks, json_object_ref (block));
    }

  for (guint i = 0; i < json_array_get_length (tool_uses); i++)
    json_array_add_element (blocks, steward_sampling_json_copy_node (json_array_get_element (tool_uses, i)));

  json_object_set_array_member (result, "content", g_steal_pointer (&blocks));
  json_object_set_string_member (result, "stopReason", "toolUse");
}

static void
send_answer (StewardSamplingBroker *self,
             GTask                 *task,
             JsonObject            *data)
{
  Request *request = g_task_get_task_data (task);
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  const char *model;
  const char *stop_reason;
  gboolean changed;

  if (data != NULL)
    result = steward_sampling_json_copy_object (data);
  else
    {
      JsonObject *content = json_object_new ();

      json_object_set_string_member (content, "type", "text");
      json_object_set_string_member (content, "text",
                                     steward_approval_get_answer_text (request->approval));
      result = json_object_new ();
      json_object_set_string_member (result, "role", "assistant");
      json_object_set_object_member (result, "content", content);
      json_object_set_string_member (result, "stopReason", "endTurn");
    }

  answer = mcp_sampling_content_dup_text (json_object_get_member (result, "content"));

  /* With the manual provider nothing was produced to edit: the answer is
   * the person's own, and only the request's edits count. */
  changed = request->produced != NULL && g_strcmp0 (answer, request->produced) != 0;
  if (changed)
    request->edited = TRUE;

  stop_reason = steward_sampling_json_get_string (result, "stopReason");
  if (request->tool_uses != NULL)
    add_tool_uses (result, request->tool_uses);
  else if (request->produced_stop != NULL && !changed &&
           (stop_reason == NULL || g_str_equal (stop_reason, "endTurn")))
    /* Sent as the model wrote it, the answer ends as the model said. */
    json_object_set_string_member (result, "stopReason", request->produced_stop);

  if (!mcp_sampling_result_validate (result, &error))
    {
      request_fail (self, task, "failed", g_steal_pointer (&error));
      return;
    }

  /* The result names the model that wrote the answer, as it named itself,
   * unless the person named another. */
  model = steward_sampling_json_get_string (result, "model");
  if (request->produced_by != NULL &&
      (model == NULL || g_str_equal (model, request->model) || g_str_equal (model, "manual")))
    json_object_set_string_member (result, "model", request->produced_by);
  else if (model == NULL)
    json_object_set_string_member (result, "model", request->model);

  /* An answer no provider counted is estimated, so that the budget holds. */
  if (request->input_tokens < 0 || request->output_tokens < 0)
    {
      gint64 input_tokens = estimate_tokens (count_prompt_chars (request->params));
      gint64 output_tokens = estimate_tokens (count_chars (answer));

      request->spent_input += input_tokens;
      request->spent_output += output_tokens;
      steward_sampling_journal_add_tokens (self->journal, request->server,
                                           input_tokens + output_tokens);
    }

  request_complete (self, task, "sent", result, NULL, request->spent_input,
                    request->spent_output);
}

static void
continue_request (StewardSamplingBroker *self,
                  GTask                 *task,
                  JsonObject            *data)
{
  Request *request = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GError) error = NULL;
  guint requested = 0;

  if (steward_approval_get_stage (request->approval) != STEWARD_APPROVAL_STAGE_REQUEST)
    {
      g_debug ("Ignoring “continue” for a sampling request past its first stage");
      return;
    }

  if (data != NULL && !mcp_sampling_request_validate (data, &error))
    {
      /* The person can fix the edit; the request stays at stage 1. */
      steward_approval_set_error_text (request->approval, error->message);
      return;
    }

  if (data != NULL)
    {
      guint cap = steward_sampling_settings_get_max_tokens (request->state->settings);

      params = clamp_params (data, cap, &requested);
      if (!steward_sampling_json_equal (params, request->params))
        request->edited = TRUE;
      g_clear_pointer (&request->params, json_object_unref);
      request->params = json_object_ref (params);
      g_free (request->include_context);
      request->include_context = steward_sampling_describe_include_context (params);
      show_request (request);
    }

  /* The person may have picked another of the models offered. */
  if (steward_sampling_picked_model (request->approval, request->model) != NULL)
    {
      g_set_object (&request->chosen,
                    steward_model_catalog_lookup (self->catalog,
                                                  steward_approval_get_model (request->approval)));
      g_free (request->model);
      request->model = g_strdup (steward_model_get_id (request->chosen));
      g_free (request->provider_id);
      request->provider_id = g_strdup (steward_model_get_provider (request->chosen));
    }

  steward_approval_set_stage (request->approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  generate (self, task);
}

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              gpointer               user_data)
{
  GTask *task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);

  switch (action)
    {
    case STEWARD_APPROVAL_ACTION_CONTINUE:
      continue_request (self, task, data);
      break;

    case STEWARD_APPROVAL_ACTION_REGENERATE:
      if (steward_approval_get_stage (approval) == STEWARD_APPROVAL_STAGE_RESPONSE)
        generate (self, task);
      break;

    case STEWARD_APPROVAL_ACTION_SEND:
      send_answer (self, task, data);
      break;

    case STEWARD_APPROVAL_ACTION_REJECT:
    case STEWARD_APPROVAL_ACTION_CANCEL:
    case STEWARD_APPROVAL_ACTION_DENY:
    case STEWARD_APPROVAL_ACTION_DECLINE:
    case STEWARD_APPROVAL_ACTION_ALLOW:
    case STEWARD_APPROVAL_ACTION_ACCEPT:
    default:
      /* Any other way of closing the dialog is a refusal too: nothing
       * reaches the server without the person's "send". */
      request_fail (self, task, "rejected", new_rejection ());
      break;
    }
}

static gboolean
request_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  GTask *task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);

  /* The dialog closes before the next request of the server opens. */
  if (request->approval != NULL)
    {
      g_clear_signal_handler (&request->responded_id, request->approval);
      steward_approval_withdraw (request->approval);
    }

  request_fail (self, task, "cancelled", steward_sampling_new_withdrawn ());

  return G_SOURCE_REMOVE;
}

/* Opens the approval for a request whose turn came. */
static void
request_begin (StewardSamplingBroker *self,
               GTask                 *task)
{
  Request *request = g_task_get_task_data (task);
  StewardSamplingSettings *settings = request->state->settings;
  StewardSamplingPolicy policy = steward_sampling_settings_get_policy (settings);
  g_autoptr(JsonObject) shown = NULL;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      request_fail (self, task, "cancelled", steward_sampling_new_withdrawn ());
      return;
    }

  /* The person may have turned sampling off while it waited. */
  if (policy == STEWARD_SAMPLING_POLICY_DENY)
    {
      request_fail (self, task, "denied", new_rejection ());
      return;
    }

  shown = annotate (request);
  request->approval = steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, request->server,
                                            shown);
  steward_approval_set_cause (request->approval, request->cause);
  steward_approval_set_model (request->approval, request->model, request->model_reason);
  steward_approval_set_max_tokens_requested (request->approval, request->max_tokens_requested);
  steward_approval_set_policy_text (request->approval, steward_sampling_describe_policy (policy));
  steward_approval_set_budget (request->approval,
                               steward_sampling_settings_get_daily_tokens (settings),
                               steward_sampling_journal_get_tokens_used (self->journal,
                                                                         request->server));
  if (request->chosen != NULL && self->catalog != NULL)
    {
      g_auto(GStrv) usable = dup_usable_models (self, request->state);
      g_autoptr(JsonArray) choices = NULL;

      choices = steward_sampling_model_choices_new (self->catalog, (const char * const *) usable,
                                                    steward_sampling_settings_get_local_only (settings));
      steward_approval_set_model_choices (request->approval, choices);
    }
  if (policy != STEWARD_SAMPLING_POLICY_ASK)
    steward_approval_set_stage (request->approval, STEWARD_APPROVAL_STAGE_RESPONSE);

  request->responded_id = g_signal_connect (request->approval, "responded",
                                            G_CALLBACK (responded_cb), task);

  steward_approvals_add (self->approvals, request->approval);

  if (policy != STEWARD_SAMPLING_POLICY_ASK)
    generate (self, task);
}

/* Gives the turn to the oldest waiting request while none is open. */
static void
pump (StewardSamplingBroker      *self,
      StewardSamplingServerState *state)
{
  if (state->pumping)
    return;

  state->pumping = TRUE;
  while (state->open == NULL && !g_queue_is_empty (&state->waiting))
    {
      state->open = g_queue_pop_head (&state->waiting);
      request_begin (self, state->open);
    }
  state->pumping = FALSE;
}

/* GObject */

static void
steward_sampling_broker_dispose (GObject *object)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  g_clear_handle_id (&self->save_source_id, g_source_remove);
  g_clear_object (&self->approvals);
  g_clear_object (&self->model_providers);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (steward_sampling_broker_parent_class)->dispose (object);
}

static void
steward_sampling_broker_finalize (GObject *object)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  /* Appends still queued go on without us: they hold all they need. */
  g_clear_pointer (&self->queue, steward_sampling_file_queue_free);
  g_clear_pointer (&self->servers, g_hash_table_unref);
  g_clear_object (&self->policies);
  g_clear_object (&self->journal);

  G_OBJECT_CLASS (steward_sampling_broker_parent_class)->finalize (object);
}

static void
steward_sampling_broker_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  switch (prop_id)
    {
    case PROP_APPROVALS:
      g_value_set_object (value, self->approvals);
      break;
    case PROP_POLICIES:
      g_value_set_object (value, self->policies);
      break;
    case PROP_JOURNAL:
      g_value_set_object (value, steward_sampling_journal_get_file (self->journal));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_broker_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  switch (prop_id)
    {
    case PROP_APPROVALS:
      self->approvals = g_value_dup_object (value);
      break;
    case PROP_POLICIES:
      self->policies = g_value_dup_object (value);
      break;
    case PROP_JOURNAL:
      self->journal = steward_sampling_journal_new (g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_broker_class_init (StewardSamplingBrokerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_sampling_broker_dispose;
  object_class->finalize = steward_sampling_broker_finalize;
  object_class->get_property = steward_sampling_broker_get_property;
  object_class->set_property = steward_sampling_broker_set_property;

  properties[PROP_APPROVALS] =
    g_param_spec_object ("approvals", NULL, NULL, STEWARD_TYPE_APPROVALS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLICIES] =
    g_param_spec_object ("policies", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_JOURNAL] =
    g_param_spec_object ("journal", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_sampling_broker_init (StewardSamplingBroker *self)
{
  self->servers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) server_state_free);
  self->provider_funcs = &manual_provider;
  self->queue = steward_sampling_file_queue_new ();
}

/* Public API */

/**
 * steward_sampling_broker_new:
 * @approvals: where approvals go
 * @policies: (nullable): policies.json
 * @journal: (nullable): the audit journal
 */
StewardSamplingBroker *
steward_sampling_broker_new (StewardApprovals *approvals,
                             GFile            *policies,
                             GFile            *journal)
{
  g_return_val_if_fail (STEWARD_IS_APPROVALS (approvals), NULL);
  g_return_val_if_fail (policies == NULL || G_IS_FILE (policies), NULL);
  g_return_val_if_fail (journal == NULL || G_IS_FILE (journal), NULL);

  return g_object_new (STEWARD_TYPE_SAMPLING_BROKER,
                       "approvals", approvals,
                       "policies", policies,
                       "journal", journal,
                       NULL);
}

static gboolean
load_policies_sync (StewardSamplingBroker  *self,
                    GError                **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (self->policies == NULL)
    return TRUE;

  if (!g_file_load_contents (self->policies, NULL, &contents, &length, NULL, &local_error))
    {
      g_autofree char *label = NULL;

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return apply_policies (self, "{}", 2, error);

      label = g_file_get_parse_name (self->policies);
      g_set_error (error, G_IO_ERROR, local_error->code,
                   _("Cannot read the sampling policies %s: %s"), label, local_error->message);
      return FALSE;
    }

  return apply_policies (self, contents, length, error);
}

gboolean
steward_sampling_broker_load (StewardSamplingBroker  *self,
                              GError                **error)
{
  gboolean loaded;

  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), FALSE);

  loaded = load_policies_sync (self, error);

  /* Damaged policies leave the defaults, and today's spending counts
   * against those too. */
  steward_sampling_journal_recount (self->journal);

  return loaded;
}

/* The load's answer is the policies'; the task data holds their error. */
static void
load_return (GTask *task)
{
  const GError *error = g_task_get_task_data (task);

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
load_budget_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_sampling_journal_recount_finish (STEWARD_SAMPLING_JOURNAL (object), result,
                                               &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    load_return (task);
}

static void
load_budget (GTask *task)
{
  StewardSamplingBroker *self = g_task_get_source_object (task);

  steward_sampling_journal_recount_async (self->journal, g_task_get_cancellable (task),
                                          load_budget_cb, task);
}

static void
load_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  GError *policies_error = NULL;
  gsize length;
  const char *data;

  bytes = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (error != NULL)
    {
      g_autofree char *label = g_file_get_parse_name (self->policies);

      policies_error = g_error_new (G_IO_ERROR, error->code,
                                    _("Cannot read the sampling policies %s: %s"),
                                    label, error->message);
    }
  else
    {
      /* No file yet: the defaults apply. */
      if (bytes == NULL)
        bytes = g_bytes_new_static ("{}", 2);
      data = g_bytes_get_data (bytes, &length);
      apply_policies (self, data, length, &policies_error);
    }

  if (policies_error != NULL)
    g_task_set_task_data (task, policies_error, (GDestroyNotify) g_error_free);

  load_budget (g_steal_pointer (&task));
}

/* Reads policies.json, then counts the tokens each server spent today
 * from the journal, both on the worker. */
void
steward_sampling_broker_load_async (StewardSamplingBroker *self,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) read = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_load_async);

  if (self->policies == NULL)
    {
      load_budget (g_steal_pointer (&task));
      return;
    }

  read = g_task_new (self, cancellable, load_read_cb, g_steal_pointer (&task));
  g_task_set_source_tag (read, load_read_cb);
  steward_sampling_file_queue_read (self->queue, self->policies, read);
}

gboolean
steward_sampling_broker_load_finish (StewardSamplingBroker  *self,
                                     GAsyncResult           *result,
                                     GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_load_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
steward_sampling_broker_save_async (StewardSamplingBroker *self,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback    callback,
                                    gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_save_async);

  if (self->policies == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  write_policies (self, task);
}

gboolean
steward_sampling_broker_save_finish (StewardSamplingBroker  *self,
                                     GAsyncResult           *result,
                                     GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_save_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * steward_sampling_broker_get_policies:
 *
 * Returns: (transfer none) (nullable): policies.json
 */
GFile *
steward_sampling_broker_get_policies (StewardSamplingBroker *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), NULL);

  return self->policies;
}

/**
 * steward_sampling_broker_get_journal:
 *
 * Returns: (transfer none) (nullable): the audit journal
 */
GFile *
steward_sampling_broker_get_journal (StewardSamplingBroker *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), NULL);

  return steward_sampling_journal_get_file (self->journal);
}

/**
 * steward_sampling_broker_get_settings:
 *
 * Returns: (transfer none): @server's settings
 */
StewardSamplingSettings *
steward_sampling_broker_get_settings (StewardSamplingBroker *self,
                                      const char            *server)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), NULL);
  g_return_val_if_fail (server != NULL, NULL);

  return steward_sampling_broker_get_server_state (self, server)->settings;
}

guint
steward_sampling_broker_get_tokens_used (StewardSamplingBroker *self,
                                         const char            *server)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), 0);
  g_return_val_if_fail (server != NULL, 0);

  return steward_sampling_journal_get_tokens_used (self->journal, server);
}

void
steward_sampling_broker_create_message_async (StewardSamplingBroker *self,
                                              const char            *server,
                                              JsonObject            *params,
                                              const char            *cause,
                                              GCancellable          *cancellable,
                                              GAsyncReadyCallback    callback,
                                              gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) empty = NULL;
  StewardSamplingServerState *state;
  StewardSamplingSettings *settings;
  Request *request;
  gint64 now;
  gint64 oldest;
  guint per_minute;
  guint daily_tokens;
  guint n_open;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_create_message_async);

  state = steward_sampling_broker_get_server_state (self, server);
  now = steward_sampling_broker_now (self);

  request = g_new0 (Request, 1);
  request->state = state;
  request->server = g_strdup (server);
  request->cause = g_strdup (cause);
  request->input_tokens = -1;
  request->output_tokens = -1;
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);

  if (params == NULL)
    params = empty = json_object_new ();

  if (!mcp_sampling_request_validate (params, &error))
    {
      request->params = steward_sampling_json_copy_object (params);
      request_fail (self, task, "failed", g_steal_pointer (&error));
      return;
    }

  settings = state->settings;
  request->params = clamp_params (params, steward_sampling_settings_get_max_tokens (settings),
                                  &request->max_tokens_requested);
  request->include_context = steward_sampling_describe_include_context (request->params);
  choose_model (self, state, request);

  if (steward_sampling_settings_get_policy (settings) == STEWARD_SAMPLING_POLICY_DENY)
    {
      request_fail (self, task, "denied", new_rejection ());
      return;
    }

  /* A server that runs tools through sampling asks again with their
   * results; a loop of those ends after so many rounds. */
  if (mcp_sampling_request_is_tool_round (request->params))
    state->tool_rounds++;
  else
    state->tool_rounds = 0;
  if (state->tool_rounds > STEWARD_SAMPLING_MAX_TOOL_ROUNDS)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           _("Server `%s` sent %u sampling requests in a row with tool results; "
                             "a tool loop may take at most %u rounds. It can start again with a "
                             "request that brings no tool results."),
                           server, state->tool_rounds, STEWARD_SAMPLING_MAX_TOOL_ROUNDS);
      request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  per_minute = steward_sampling_settings_get_per_minute (settings);
  if (steward_sampling_window_count (state->sampling_times, now, &oldest) >= per_minute)
    {
      guint seconds = steward_sampling_seconds_until_free (oldest, now);

      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "Server `%s` asked for sampling more than %u times a "
                                        "minute. It can ask again in %u second.",
                                        "Server `%s` asked for sampling more than %u times a "
                                        "minute. It can ask again in %u seconds.",
                                        seconds),
                           server, per_minute, seconds);
      request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  daily_tokens = steward_sampling_settings_get_daily_tokens (settings);
  if (steward_sampling_journal_get_tokens_used (self->journal, server) >= daily_tokens)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           _("Server `%s` has used its sampling budget of %u tokens for today. "
                             "It can ask again tomorrow."),
                           server, daily_tokens);
      request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  n_open = state->open != NULL ? 1 : 0;
  if (n_open + g_queue_get_length (&state->waiting) >= 1 + STEWARD_SAMPLING_QUEUE_SIZE)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           _("Server `%s` already has a sampling request open and %u waiting. "
                             "It can ask again once the person has answered."),
                           server, g_queue_get_length (&state->waiting));
      request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  g_array_append_val (state->sampling_times, now);

  /* The server may withdraw its request at any time, also while it waits. */
  if (cancellable != NULL)
    {
      request->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (request->cancel_source, G_SOURCE_FUNC (request_cancelled_cb),
                             task, NULL);
      g_source_attach (request->cancel_source, g_task_get_context (task));
    }

  g_queue_push_tail (&state->waiting, g_steal_pointer (&task));
  pump (self, state);
}

/**
 * steward_sampling_broker_create_message_finish:
 *
 * Returns: (transfer full): the CreateMessageResult to send back
 */
JsonObject *
steward_sampling_broker_create_message_finish (StewardSamplingBroker  *self,
                                               GAsyncResult           *result,
                                               GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_create_message_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
read_journal_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GPtrArray *records;

  records = steward_sampling_journal_read_finish (STEWARD_SAMPLING_JOURNAL (object), result,
                                                  &error);
  if (records == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, records, (GDestroyNotify) g_ptr_array_unref);
}

void
steward_sampling_broker_read_journal_async (StewardSamplingBroker *self,
                                            GCancellable          *cancellable,
                                            GAsyncReadyCallback    callback,
                                            gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_read_journal_async);

  steward_sampling_journal_read_async (self->journal, cancellable, read_journal_cb,
                                       g_steal_pointer (&task));
}

/**
 * steward_sampling_broker_read_journal_finish:
 *
 * Returns: (transfer full) (element-type JsonObject): the records, oldest
 *   first
 */
GPtrArray *
steward_sampling_broker_read_journal_finish (StewardSamplingBroker  *self,
                                             GAsyncResult           *result,
                                             GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_read_journal_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
steward_sampling_broker_set_clock (StewardSamplingBroker *self,
                                   StewardSamplingClock   clock,
                                   gpointer               user_data)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));

  steward_sampling_journal_set_clock (self->journal, clock, user_data);
}

void
steward_sampling_broker_set_provider (StewardSamplingBroker              *self,
                                      const StewardSamplingProviderFuncs *funcs,
                                      gpointer                            provider)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (funcs == NULL || funcs->choose_model != NULL);
  g_return_if_fail (funcs == NULL || funcs->generate_async == NULL ||
                    funcs->generate_finish != NULL);

  self->provider_funcs = funcs ? funcs : &manual_provider;
  self->provider = funcs ? provider : NULL;
}

void
steward_sampling_broker_set_model_sources (StewardSamplingBroker *self,
                                           GListModel            *providers,
                                           StewardModelCatalog   *catalog)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (providers == NULL || G_IS_LIST_MODEL (providers));
  g_return_if_fail (catalog == NULL || STEWARD_IS_MODEL_CATALOG (catalog));

  g_set_object (&self->model_providers, providers);
  g_set_object (&self->catalog, catalog);
}

/**
 * steward_sampling_broker_set_models:
 * @providers: (nullable): the providers the person set up
 * @catalog: (nullable): the person's models
 *
 * From now on, requests go to the model the selector chooses among
 * @catalog's models whose provider is in @providers; %NULL for either
 * leaves the answers to the person.
 */
void
steward_sampling_broker_set_models (StewardSamplingBroker *self,
                                    StewardProviders      *providers,
                                    StewardModelCatalog   *catalog)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (providers == NULL || G_IS_LIST_MODEL (providers));

  steward_sampling_broker_set_model_sources (self, providers ? G_LIST_MODEL (providers) : NULL,
                                             catalog);
}
