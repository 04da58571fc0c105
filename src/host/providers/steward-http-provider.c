/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-http-provider"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-provider-private.h"
#include "steward-http-provider.h"

/**
 * StewardHttpProvider:
 *
 * The part of an HTTP back end that does not depend on its wire format.
 * A provider never changes: editing one in Preferences puts a new one
 * under the same id, and a turn under way keeps the one it began with.
 */
typedef struct
{
  char           *id;
  char           *name;
  char           *base_url;
  char           *key_id;
  StewardSecrets *secrets;
  SoupSession    *session;
} StewardHttpProviderPrivate;

static void steward_http_provider_iface_init (StewardProviderInterface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (StewardHttpProvider, steward_http_provider, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (StewardHttpProvider)
                                  G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                         steward_http_provider_iface_init))

enum {
  PROP_0,
  PROP_ID,
  PROP_DISPLAY_NAME,
  PROP_BASE_URL,
  PROP_KEY_ID,
  PROP_SECRETS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define MAX_MODELS 10000
#define MAX_MODEL_NAME 512
/* A list longer than this many pages is a server that never says it is done. */
#define MAX_MODEL_PAGES 10

/* Requests */

SoupMessage *
steward_http_provider_new_message (StewardHttpProvider *self,
                                   const char          *method,
                                   const char          *url,
                                   const char          *accept,
                                   const char          *key)
{
  StewardHttpProviderClass *klass = STEWARD_HTTP_PROVIDER_GET_CLASS (self);
  SoupMessage *message = soup_message_new (method, url);
  SoupMessageHeaders *headers;

  if (message == NULL)
    return NULL;

  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", accept);
  klass->add_headers (self, headers, key);
  return message;
}

SoupMessage *
steward_http_provider_new_chat_message (StewardHttpProvider *self,
                                        GBytes              *body,
                                        const char          *key)
{
  g_autofree char *url = STEWARD_HTTP_PROVIDER_GET_CLASS (self)->chat_url (self);
  SoupMessage *message;

  message = steward_http_provider_new_message (self, "POST", url,
                                               "text/event-stream, application/json", key);
  if (message != NULL)
    soup_message_set_request_body_from_bytes (message, "application/json", body);

  return message;
}

/* For the wire formats */

GError *
steward_provider_unsupported (const char *name,
                              const char *what)
{
  return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_UNSUPPORTED,
                      /* Translators: the first %s is a kind of content ("audio"),
                       * the second the provider's name. */
                      _("Messages with %s cannot be sent to “%s”."), what, name);
}

JsonArray *
steward_provider_message_content (JsonObject  *message,
                                  const char  *name,
                                  const char **role,
                                  GError     **error)
{
  g_autoptr(JsonArray) content = steward_provider_dup_content (message);

  *role = mcp_json_get_string (message, "role");
  if (content == NULL)
    {
      g_propagate_error (error, steward_provider_unsupported (name,
                                                              _("a message without content")));
      return NULL;
    }
  if (g_strcmp0 (*role, "user") != 0 && g_strcmp0 (*role, "assistant") != 0)
    {
      g_propagate_error (error, steward_provider_unsupported (name, _("a role other than user or "
                                                                      "assistant")));
      return NULL;
    }

  return g_steal_pointer (&content);
}

gboolean
steward_provider_add_messages (JsonObject                  *request,
                               const char                  *name,
                               StewardProviderMessageFunc   add_message,
                               JsonArray                   *messages,
                               GError                     **error)
{
  JsonArray *input = mcp_json_get_array (request, "messages");

  for (guint i = 0; input != NULL && i < json_array_get_length (input); i++)
    {
      JsonNode *node = json_array_get_element (input, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *role;
      g_autoptr(JsonArray) content = steward_provider_message_content (message, name, &role,
                                                                       error);

      if (content == NULL || !add_message (messages, role, content, name, error))
        return FALSE;
    }

  return TRUE;
}

static JsonArray *
map_tools (JsonArray               *tools,
           StewardProviderToolFunc  make_tool)
{
  JsonArray *out = json_array_new ();

  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonNode *node = json_array_get_element (tools, i);
      JsonObject *tool = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *tool_name = mcp_json_get_string (tool, "name");

      if (tool_name == NULL)
        continue;

      json_array_add_object_element (out,
                                     make_tool (tool_name,
                                                mcp_json_get_string (tool, "description"),
                                                steward_provider_dup_tool_schema (tool)));
    }

  return out;
}

const char *
steward_provider_add_tools (JsonObject              *request,
                            JsonObject              *body,
                            StewardProviderToolFunc  make_tool)
{
  JsonArray *tools = mcp_json_get_array (request, "tools");
  const char *mode = mcp_json_get_string (mcp_json_get_object (request, "toolChoice"), "mode");

  if (tools == NULL || json_array_get_length (tools) == 0)
    return NULL;

  json_object_set_array_member (body, "tools", map_tools (tools, make_tool));
  if (g_strcmp0 (mode, "auto") == 0 || g_strcmp0 (mode, "required") == 0 ||
      g_strcmp0 (mode, "none") == 0)
    return mode;

  return NULL;
}

JsonObject *
steward_provider_dup_tool_schema (JsonObject *tool)
{
  JsonObject *schema = mcp_json_get_object (tool, "inputSchema");

  if (schema != NULL)
    return json_object_ref (schema);

  schema = json_object_new ();
  json_object_set_string_member (schema, "type", "object");
  json_object_set_object_member (schema, "properties", json_object_new ());
  return schema;
}

void
steward_provider_copy_sampling (JsonObject *request,
                                JsonObject *body,
                                const char *stop_member)
{
  JsonNode *temperature = json_object_get_member (request, "temperature");
  JsonArray *stop = mcp_json_get_array (request, "stopSequences");
  JsonArray *out;

  if (temperature != NULL && JSON_NODE_HOLDS_VALUE (temperature) &&
      (json_node_get_value_type (temperature) == G_TYPE_DOUBLE ||
       json_node_get_value_type (temperature) == G_TYPE_INT64))
    json_object_set_double_member (body, "temperature", json_node_get_double (temperature));

  if (stop == NULL || json_array_get_length (stop) == 0)
    return;

  out = json_array_new ();
  for (guint i = 0; i < json_array_get_length (stop); i++)
    {
      JsonNode *node = json_array_get_element (stop, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        json_array_add_string_element (out, json_node_get_string (node));
    }
  json_object_set_array_member (body, stop_member, out);
}

JsonObject *
steward_provider_chat_parse_event (StewardProviderChat  *chat,
                                   const McpSseEvent    *event,
                                   GError              **error)
{
  g_autoptr(GError) parse_error = NULL;
  g_autofree char *why = NULL;
  JsonObject *object;

  object = steward_provider_json_parse_object (event->data, event->data_length, &parse_error);
  if (object != NULL)
    return object;

  why = steward_provider_clean_text (parse_error->message, NULL);
  g_set_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
               _("“%s” sent an event that is not a JSON object: %s"),
               steward_provider_chat_get_name (chat), why);
  return NULL;
}

void
steward_provider_chat_set_broken_off (StewardProviderChat  *chat,
                                      GError              **error)
{
  g_set_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
               _("The answer from “%s” broke off before it was complete."),
               steward_provider_chat_get_name (chat));
}

/* StewardProvider */

static const char *
steward_http_provider_get_id (StewardProvider *provider)
{
  StewardHttpProviderPrivate *priv =
    steward_http_provider_get_instance_private (STEWARD_HTTP_PROVIDER (provider));

  return priv->id;
}

static const char *
steward_http_provider_get_display_name (StewardProvider *provider)
{
  StewardHttpProviderPrivate *priv =
    steward_http_provider_get_instance_private (STEWARD_HTTP_PROVIDER (provider));

  return priv->name;
}

static gboolean
steward_http_provider_is_local (StewardProvider *provider)
{
  StewardHttpProviderPrivate *priv =
    steward_http_provider_get_instance_private (STEWARD_HTTP_PROVIDER (provider));

  return steward_provider_url_is_loopback (priv->base_url);
}

static void
steward_http_provider_chat_async (StewardProvider          *provider,
                                  JsonObject               *request,
                                  StewardProviderEventFunc  event_func,
                                  gpointer                  event_data,
                                  GDestroyNotify            event_destroy,
                                  GCancellable             *cancellable,
                                  GAsyncReadyCallback       callback,
                                  gpointer                  user_data)
{
  StewardHttpProvider *self = STEWARD_HTTP_PROVIDER (provider);
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);

  steward_provider_chat_run_async (provider, STEWARD_HTTP_PROVIDER_GET_CLASS (self)->wire,
                                   priv->session, priv->secrets, priv->key_id, request,
                                   event_func, event_data, event_destroy,
                                   cancellable, callback, user_data);
}

static JsonObject *
steward_http_provider_chat_finish (StewardProvider  *provider,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  return steward_provider_chat_run_finish (provider, result, error);
}

/* Listing models, a page at a time */

typedef struct {
  char      *name;        /* the provider's name when the listing began */
  char      *key;
  GPtrArray *names;
  guint      pages;
  gboolean   fell_back;
  GError    *first_error; /* what the first place said, before the fallback */
} ListData;

static void
list_data_free (ListData *data)
{
  g_free (data->name);
  g_clear_pointer (&data->key, steward_secret_value_free);
  g_clear_pointer (&data->names, g_ptr_array_unref);
  g_clear_error (&data->first_error);
  g_free (data);
}

void
steward_provider_add_model_name (GPtrArray  *names,
                                 const char *name)
{
  if (name == NULL || name[0] == '\0' || strlen (name) > MAX_MODEL_NAME ||
      !g_utf8_validate (name, -1, NULL) || names->len >= MAX_MODELS)
    return;

  g_ptr_array_add (names, g_strdup (name));
}

JsonObject *
steward_provider_read_model_list (JsonNode   *reply,
                                  const char *list_member,
                                  const char *name_member,
                                  GPtrArray  *names)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (reply) ? json_node_get_object (reply) : NULL;
  JsonArray *list = mcp_json_get_array (root, list_member);

  if (list == NULL)
    return NULL;

  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      steward_provider_add_model_name (names, mcp_json_get_string (entry, name_member));
    }

  return root;
}

static void request_page (GTask      *task,
                          const char *url);

/* The key goes as soon as the list is in, whenever the caller lets go of
 * the result. */
static void
list_return (GTask  *task,
             GError *error)
{
  ListData *data = g_task_get_task_data (task);

  g_clear_pointer (&data->key, steward_secret_value_free);
  if (error == NULL)
    g_task_return_pointer (task, g_steal_pointer (&data->names),
                           (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardHttpProvider *self = g_task_get_source_object (task);
  StewardHttpProviderClass *klass = STEWARD_HTTP_PROVIDER_GET_CLASS (self);
  ListData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) reply = NULL;
  g_autofree char *next = NULL;
  GError *error = NULL;
  guint status = 0;

  reply = steward_provider_http_send_finish (result, &status, &error);
  if (reply == NULL)
    {
      g_autofree char *fallback = NULL;

      if (error == NULL)
        error = g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                             _("“%s” answered the list of models with an event stream."),
                             data->name);

      /* Some servers keep their list elsewhere too; the first place's
       * error is the one to report when neither works. */
      if (!data->fell_back && data->pages == 0 && klass->fallback_models_url != NULL &&
          (fallback = klass->fallback_models_url (self, status)) != NULL)
        {
          data->fell_back = TRUE;
          data->first_error = error;
          request_page (task, fallback);
          return;
        }

      if (data->first_error != NULL)
        {
          g_error_free (error);
          error = g_steal_pointer (&data->first_error);
        }
      list_return (task, error);
      return;
    }

  if (!klass->read_models (self, reply, data->fell_back, data->names, &next, &error))
    {
      g_clear_error (&error);
      list_return (task,
                   g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                                _("“%s” answered the list of models with something that is not "
                                  "one."), data->name));
      return;
    }

  if (next != NULL && ++data->pages < MAX_MODEL_PAGES)
    {
      request_page (task, next);
      return;
    }

  list_return (task, NULL);
}

static void
request_page (GTask      *task,
              const char *url)
{
  StewardHttpProvider *self = g_task_get_source_object (task);
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);
  ListData *data = g_task_get_task_data (task);
  g_autoptr(SoupMessage) message = NULL;
  StewardProviderHttpOptions options = { 0 };

  message = steward_http_provider_new_message (self, "GET", url, "application/json",
                                               data->key);
  if (message == NULL)
    {
      g_autofree char *shown = steward_provider_clean_text (url, NULL);

      list_return (task,
                   g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                                _("“%s” has a base URL Steward cannot use (%s). Correct it in "
                                  "Preferences → Providers."), data->name, shown));
      return;
    }

  options.name = data->name;
  options.secret = data->key;
  options.timeout_s = STEWARD_PROVIDER_LIST_TIMEOUT_S;
  steward_provider_http_send_async (priv->session, message, &options,
                                    g_task_get_cancellable (task), page_cb, g_object_ref (task));
}

static void
list_key_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardHttpProvider *self = g_task_get_source_object (task);
  ListData *data = g_task_get_task_data (task);
  g_autofree char *url = NULL;
  GError *error = NULL;

  data->key = steward_provider_lookup_key_finish (result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  url = STEWARD_HTTP_PROVIDER_GET_CLASS (self)->models_url (self);
  request_page (task, url);
}

static void
steward_http_provider_list_models_async (StewardProvider     *provider,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  StewardHttpProvider *self = STEWARD_HTTP_PROVIDER (provider);
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);
  g_autoptr(GTask) task = NULL;
  ListData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_http_provider_list_models_async);
  data = g_new0 (ListData, 1);
  data->name = g_strdup (priv->name);
  data->names = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) list_data_free);

  steward_provider_lookup_key_async (priv->secrets, priv->key_id, priv->name, cancellable,
                                     list_key_cb, g_steal_pointer (&task));
}

static GPtrArray *
steward_http_provider_list_models_finish (StewardProvider  *provider,
                                          GAsyncResult     *result,
                                          GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_http_provider_list_models_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_http_provider_iface_init (StewardProviderInterface *iface)
{
  iface->get_id = steward_http_provider_get_id;
  iface->get_display_name = steward_http_provider_get_display_name;
  iface->is_local = steward_http_provider_is_local;
  iface->list_models_async = steward_http_provider_list_models_async;
  iface->list_models_finish = steward_http_provider_list_models_finish;
  iface->chat_async = steward_http_provider_chat_async;
  iface->chat_finish = steward_http_provider_chat_finish;
}

/* GObject */

/* "…/v1/" and "…/v1" are the same base; an empty one is the class's
 * default, where it has one. */
static char *
normalize_base_url (StewardHttpProvider *self,
                    const char          *url)
{
  const char *fallback = STEWARD_HTTP_PROVIDER_GET_CLASS (self)->default_base_url;
  gsize length;

  if ((url == NULL || url[0] == '\0') && fallback != NULL)
    url = fallback;
  if (url == NULL)
    url = "";

  length = strlen (url);
  while (length > 0 && url[length - 1] == '/')
    length--;

  return g_strndup (url, length);
}

static void
steward_http_provider_dispose (GObject *object)
{
  StewardHttpProviderPrivate *priv =
    steward_http_provider_get_instance_private (STEWARD_HTTP_PROVIDER (object));

  if (priv->session != NULL)
    soup_session_abort (priv->session);
  g_clear_object (&priv->session);
  g_clear_object (&priv->secrets);

  G_OBJECT_CLASS (steward_http_provider_parent_class)->dispose (object);
}

static void
steward_http_provider_finalize (GObject *object)
{
  StewardHttpProviderPrivate *priv =
    steward_http_provider_get_instance_private (STEWARD_HTTP_PROVIDER (object));

  g_free (priv->id);
  g_free (priv->name);
  g_free (priv->base_url);
  g_free (priv->key_id);

  G_OBJECT_CLASS (steward_http_provider_parent_class)->finalize (object);
}

static void
steward_http_provider_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardHttpProviderPrivate *priv =
    steward_http_provider_get_instance_private (STEWARD_HTTP_PROVIDER (object));

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, priv->id);
      break;
    case PROP_DISPLAY_NAME:
      g_value_set_string (value, priv->name);
      break;
    case PROP_BASE_URL:
      g_value_set_string (value, priv->base_url);
      break;
    case PROP_KEY_ID:
      g_value_set_string (value, priv->key_id);
      break;
    case PROP_SECRETS:
      g_value_set_object (value, priv->secrets);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_http_provider_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  StewardHttpProvider *self = STEWARD_HTTP_PROVIDER (object);
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_ID:
      priv->id = g_value_dup_string (value);
      break;
    case PROP_DISPLAY_NAME:
      priv->name = g_value_dup_string (value);
      break;
    case PROP_BASE_URL:
      priv->base_url = normalize_base_url (self, g_value_get_string (value));
      break;
    case PROP_KEY_ID:
      priv->key_id = g_value_dup_string (value);
      break;
    case PROP_SECRETS:
      priv->secrets = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_http_provider_class_init (StewardHttpProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_http_provider_dispose;
  object_class->finalize = steward_http_provider_finalize;
  object_class->get_property = steward_http_provider_get_property;
  object_class->set_property = steward_http_provider_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KEY_ID] =
    g_param_spec_string ("key-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SECRETS] =
    g_param_spec_object ("secrets", NULL, NULL, STEWARD_TYPE_SECRETS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_http_provider_init (StewardHttpProvider *self)
{
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);

  priv->session = steward_provider_session_new ();
}

/* Public API */

/*
 * steward_http_provider_new:
 * @type: the subclass
 *
 * For the subclasses' own constructors, which say what each argument is.
 */
StewardHttpProvider *
steward_http_provider_new (GType           type,
                           const char     *id,
                           const char     *name,
                           const char     *base_url,
                           const char     *key_id,
                           StewardSecrets *secrets)
{
  g_return_val_if_fail (g_type_is_a (type, STEWARD_TYPE_HTTP_PROVIDER), NULL);
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (secrets == NULL || STEWARD_IS_SECRETS (secrets), NULL);

  return g_object_new (type,
                       "id", id,
                       "display-name", name,
                       "base-url", base_url,
                       "key-id", key_id,
                       "secrets", secrets,
                       NULL);
}

const char *
steward_http_provider_get_base_url (StewardHttpProvider *self)
{
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);

  g_return_val_if_fail (STEWARD_IS_HTTP_PROVIDER (self), NULL);

  return priv->base_url;
}

const char *
steward_http_provider_get_key_id (StewardHttpProvider *self)
{
  StewardHttpProviderPrivate *priv = steward_http_provider_get_instance_private (self);

  g_return_val_if_fail (STEWARD_IS_HTTP_PROVIDER (self), NULL);

  return priv->key_id;
}
