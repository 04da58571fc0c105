/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-json.h"

#include "steward-client-metadata.h"
#include "steward-error.h"

#include "steward-cli-options.h"

G_DEFINE_QUARK (steward-cli-error-quark, steward_cli_error)

static const struct {
  const char        *words[2];
  const char        *operand;    /* what the one operand is, or NULL for none */
  StewardCliCommand  command;
} commands[] = {
  { { "info", NULL },                 NULL,       STEWARD_CLI_COMMAND_INFO },
  { { "tools", "list" },              NULL,       STEWARD_CLI_COMMAND_TOOLS_LIST },
  { { "tools", "call" },              "NAME",     STEWARD_CLI_COMMAND_TOOLS_CALL },
  { { "resources", "list" },          NULL,       STEWARD_CLI_COMMAND_RESOURCES_LIST },
  { { "resources", "templates" },     NULL,       STEWARD_CLI_COMMAND_RESOURCES_TEMPLATES },
  { { "resources", "read" },          "URI",      STEWARD_CLI_COMMAND_RESOURCES_READ },
  { { "resources", "subscribe" },     "URI",      STEWARD_CLI_COMMAND_RESOURCES_SUBSCRIBE },
  { { "prompts", "list" },            NULL,       STEWARD_CLI_COMMAND_PROMPTS_LIST },
  { { "prompts", "get" },             "NAME",     STEWARD_CLI_COMMAND_PROMPTS_GET },
  { { "complete", NULL },             NULL,       STEWARD_CLI_COMMAND_COMPLETE },
  { { "ping", NULL },                 NULL,       STEWARD_CLI_COMMAND_PING },
  { { "log-level", NULL },            "LEVEL",    STEWARD_CLI_COMMAND_LOG_LEVEL },
  { { "tasks", "list" },              NULL,       STEWARD_CLI_COMMAND_TASKS_LIST },
  { { "tasks", "get" },               "ID",       STEWARD_CLI_COMMAND_TASKS_GET },
  { { "tasks", "cancel" },            "ID",       STEWARD_CLI_COMMAND_TASKS_CANCEL },
  { { "tasks", "result" },            "ID",       STEWARD_CLI_COMMAND_TASKS_RESULT },
  { { "auth", "status" },             NULL,       STEWARD_CLI_COMMAND_AUTH_STATUS },
  { { "auth", "sign-out" },           NULL,       STEWARD_CLI_COMMAND_AUTH_SIGN_OUT },
  { { "auth", "set-client" },         NULL,       STEWARD_CLI_COMMAND_AUTH_SET_CLIENT },
};

/* What GOption fills in, before it is checked. */
typedef struct {
  char     *server_name;
  char     *url;
  char    **headers;
  char     *transport;
  char     *config_path;
  char    **env;
  char     *cwd;
  gboolean  no_sandbox;
  gboolean  json;
  gboolean  verbose;
  int       timeout_ms;
  char     *protocol;
  char    **roots;
  char     *sampling;
  char     *elicitation;
  char     *args;
  gboolean  task;
  int       count;
  char     *prompt;
  char     *resource;
  char     *argument;
  char     *value;
  char     *context;
  gboolean  version;
  char     *authorize;
  char     *client_id;
  char     *client_secret_file;
  char     *client_key_file;
  char     *client_metadata_url;
  gboolean  client_credentials;
} RawOptions;

static void
raw_options_clear (RawOptions *raw)
{
  g_free (raw->server_name);
  g_free (raw->url);
  g_strfreev (raw->headers);
  g_free (raw->transport);
  g_free (raw->config_path);
  g_strfreev (raw->env);
  g_free (raw->cwd);
  g_free (raw->protocol);
  g_strfreev (raw->roots);
  g_free (raw->sampling);
  g_free (raw->elicitation);
  g_free (raw->args);
  g_free (raw->prompt);
  g_free (raw->resource);
  g_free (raw->argument);
  g_free (raw->value);
  g_free (raw->context);
  g_free (raw->authorize);
  g_free (raw->client_id);
  g_free (raw->client_secret_file);
  g_free (raw->client_key_file);
  g_free (raw->client_metadata_url);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RawOptions, raw_options_clear)

#define usage_error(error, ...) \
  steward_fail (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE, __VA_ARGS__)

void
steward_cli_options_free (StewardCliOptions *options)
{
  if (options == NULL)
    return;

  g_free (options->operand);
  g_strfreev (options->server_argv);
  g_free (options->server_name);
  g_free (options->url);
  g_free (options->config_path);
  g_clear_pointer (&options->headers, g_hash_table_unref);
  g_strfreev (options->env);
  g_free (options->cwd);
  g_strfreev (options->roots);
  g_clear_pointer (&options->arguments, json_object_unref);
  g_free (options->ref_name);
  g_free (options->argument_name);
  g_free (options->argument_value);
  g_clear_pointer (&options->context, json_object_unref);
  g_free (options->client_id);
  g_free (options->client_secret_file);
  g_free (options->client_key_file);
  g_free (options->client_metadata_url);
  g_free (options);
}

/**
 * steward_cli_parse_json_object:
 * @option: the option the text came with, for the message
 *
 * Parses JSON a person typed, with the depth guard used for peers' JSON.
 *
 * Returns: (transfer full) (nullable): the object, or %NULL with a usage
 *   error
 */
JsonObject *
steward_cli_parse_json_object (const char  *text,
                               const char  *option,
                               GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;

  root = mcp_json_parse (text, -1, &local_error);
  if (root == NULL)
    {
      usage_error (error, _("%s: not valid JSON: %s"), option, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      usage_error (error, _("%s: expected a JSON object such as '{\"name\": \"value\"}'"), option);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/* Prompt arguments and completion context are maps of strings. */
static gboolean
check_string_values (JsonObject  *object,
                     const char  *option,
                     GError     **error)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
      return usage_error (error, _("%s: the value of `%s` must be a string (prompt arguments "
                                   "are always strings)"),
                          option, name);

  return TRUE;
}

/* HTTP header names are compared without regard to case. */
static guint
header_name_hash (gconstpointer key)
{
  guint hash = 5381;

  for (const char *p = key; *p != '\0'; p++)
    hash = hash * 33 + (guint) g_ascii_tolower (*p);

  return hash;
}

static gboolean
header_name_equal (gconstpointer a,
                   gconstpointer b)
{
  return g_ascii_strcasecmp (a, b) == 0;
}

/**
 * steward_cli_headers_new:
 *
 * Returns: (transfer full): an empty table of header names to values, the
 *   names compared without regard to case
 */
GHashTable *
steward_cli_headers_new (void)
{
  return g_hash_table_new_full (header_name_hash, header_name_equal, g_free, g_free);
}

/**
 * steward_cli_check_header:
 * @where: what the header came from, for the message (`--header`, or the
 *   server's name)
 *
 * Checks that a header can be sent as it is: a valid name, a value without
 * control characters (which could end the header and start another), and
 * not one of the headers the transports set themselves, which they would
 * otherwise drop without a word.
 */
gboolean
steward_cli_check_header (const char  *where,
                          const char  *name,
                          const char  *value,
                          GError     **error)
{
  static const char * const reserved[] = {
    "Accept", "Content-Type", "Content-Length", "Host", "Last-Event-ID", "Mcp-Session-Id",
    "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Transfer-Encoding", "Connection",
  };

  if (name[0] == '\0')
    return usage_error (error, _("%s: a header needs a name before the colon"), where);

  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return usage_error (error, _("%s: `%s` is not an HTTP header name (letters, digits and "
                                   "!#$%%&'*+-.^_`|~ only, no spaces)"),
                          where, name);

  for (const guchar *p = (const guchar *) value; *p != '\0'; p++)
    if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
      return usage_error (error, _("%s: the value of header `%s` holds a control character "
                                   "such as a line break"),
                          where, name);

  for (guint i = 0; i < G_N_ELEMENTS (reserved); i++)
    if (g_ascii_strcasecmp (name, reserved[i]) == 0)
      return usage_error (error, _("%s: the transport sets `%s` itself; it cannot be given"),
                          where, reserved[i]);

  return TRUE;
}

/* `NAME:VALUE`, as curl takes it; the spaces around the value are not
 * part of it. */
static gboolean
parse_headers (StewardCliOptions  *options,
               char              **headers,
               GError            **error)
{
  options->headers = steward_cli_headers_new ();

  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    {
      const char *colon = strchr (headers[i], ':');
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (colon == NULL)
        return usage_error (error, _("--header: expected NAME:VALUE, not `%s`"), headers[i]);

      name = g_strndup (headers[i], colon - headers[i]);
      value = g_strstrip (g_strdup (colon + 1));
      if (!steward_cli_check_header ("--header", name, value, error))
        return FALSE;

      g_hash_table_replace (options->headers, g_steal_pointer (&name), g_steal_pointer (&value));
    }

  return TRUE;
}

static gboolean
check_url (const char  *url,
           GError     **error)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  const char *scheme = uri ? g_uri_get_scheme (uri) : NULL;
  const char *host = uri ? g_uri_get_host (uri) : NULL;

  if (scheme == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      host == NULL || host[0] == '\0')
    return usage_error (error, _("--url: expected an http:// or https:// URL with a host, "
                                 "such as http://localhost:3001/mcp, not `%s`"),
                        url);

  return TRUE;
}

static gboolean
parse_command (StewardCliOptions  *options,
               char              **words,
               GError            **error)
{
  guint n_words = words ? g_strv_length (words) : 0;

  if (n_words == 0)
    return usage_error (error, _("say what to do: info, tools, resources, prompts, complete, "
                                 "ping, log-level, tasks or auth"));

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      guint n_command_words = commands[i].words[1] ? 2 : 1;
      guint n_operands = commands[i].operand ? 1 : 0;
      g_autofree char *name = NULL;

      if (!g_str_equal (words[0], commands[i].words[0]))
        continue;

      if (n_command_words == 2 && (n_words < 2 || !g_str_equal (words[1], commands[i].words[1])))
        continue;

      name = g_strjoin (" ", commands[i].words[0], commands[i].words[1], NULL);
      if (n_words < n_command_words + n_operands)
        return usage_error (error, _("`%s` needs %s"), name, commands[i].operand);
      if (n_words > n_command_words + n_operands)
        return usage_error (error, _("`%s` takes no argument `%s`"), name,
                            words[n_command_words + n_operands]);

      options->command = commands[i].command;
      options->operand = g_strdup (words[n_command_words]);
      return TRUE;
    }

  if (g_str_equal (words[0], "tools"))
    return usage_error (error, _("`tools` is followed by list or call"));
  if (g_str_equal (words[0], "resources"))
    return usage_error (error, _("`resources` is followed by list, templates, read or subscribe"));
  if (g_str_equal (words[0], "prompts"))
    return usage_error (error, _("`prompts` is followed by list or get"));
  if (g_str_equal (words[0], "tasks"))
    return usage_error (error, _("`tasks` is followed by list, get, cancel or result"));
  if (g_str_equal (words[0], "auth"))
    return usage_error (error, _("`auth` is followed by status, sign-out or set-client"));

  return usage_error (error, _("unknown command `%s`"), words[0]);
}

static gboolean
command_is_one_of (StewardCliCommand command,
                   StewardCliCommand first,
                   StewardCliCommand second)
{
  return command == first || command == second;
}

static gboolean
check_revision (const char  *protocol,
                McpRevision *out,
                GError     **error)
{
  g_autofree char *supported = mcp_revision_list_supported ();
  g_auto(GStrv) list = g_strsplit (supported, ", ", -1);

  if (!g_strv_contains ((const char * const *) list, protocol))
    return usage_error (error, _("--protocol: `%s` is not a revision steward-cli speaks (%s)"),
                        protocol, supported);

  *out = mcp_revision_from_string (protocol);
  return TRUE;
}

static gboolean
check_env (char   **env,
           GError **error)
{
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *equals = strchr (env[i], '=');

      if (equals == NULL || equals == env[i])
        return usage_error (error, _("--env: expected NAME=VALUE, not `%s`"), env[i]);
    }

  return TRUE;
}

/* How to sign in where a remote server asks. Without a display there is
 * no browser to open, so the address is printed. */
static gboolean
apply_authorization (StewardCliOptions  *options,
                     RawOptions         *raw,
                     GError            **error)
{
  gboolean display = g_getenv ("WAYLAND_DISPLAY") != NULL || g_getenv ("DISPLAY") != NULL;

  if (raw->authorize == NULL)
    options->authorize = display ? STEWARD_CLI_AUTHORIZE_BROWSER : STEWARD_CLI_AUTHORIZE_PRINT;
  else if (g_str_equal (raw->authorize, "browser"))
    options->authorize = STEWARD_CLI_AUTHORIZE_BROWSER;
  else if (g_str_equal (raw->authorize, "print"))
    options->authorize = STEWARD_CLI_AUTHORIZE_PRINT;
  else
    return usage_error (error, _("--authorize: expected browser or print, not `%s`"),
                        raw->authorize);

  /* A --server entry may name the client in its "oauth" block; the
   * sign-in says so when it does not. */
  if (raw->client_credentials && raw->client_id == NULL && raw->server_name == NULL)
    return usage_error (error, _("--client-credentials needs --client-id, or --server with an "
                                 "\"oauth\" client id"));
  if ((raw->client_secret_file != NULL || raw->client_key_file != NULL) && raw->client_id == NULL)
    return usage_error (error, _("--client-secret-file and --client-key-file go with "
                                 "--client-id"));
  if (raw->client_metadata_url != NULL &&
      !steward_client_metadata_url_is_valid (raw->client_metadata_url))
    return usage_error (error, _("--client-metadata-url: expected an https:// URL, not `%s`"),
                        raw->client_metadata_url);

  options->client_id = g_steal_pointer (&raw->client_id);
  options->client_secret_file = g_steal_pointer (&raw->client_secret_file);
  options->client_key_file = g_steal_pointer (&raw->client_key_file);
  options->client_metadata_url = g_steal_pointer (&raw->client_metadata_url);
  options->client_credentials = raw->client_credentials;

  return TRUE;
}

static gboolean
apply_raw (StewardCliOptions  *options,
           RawOptions         *raw,
           GError            **error)
{
  StewardCliCommand command = options->command;
  guint n_servers = (options->server_argv != NULL) + (raw->server_name != NULL) +
                    (raw->url != NULL);

  if (n_servers > 1)
    return usage_error (error, _("--stdio, --server and --url each name a server; give only "
                                 "one of them"));
  /* `auth status` alone goes through the whole servers file. */
  if (n_servers == 0 && command != STEWARD_CLI_COMMAND_AUTH_STATUS)
    return usage_error (error, _("say which server: --url URL, --server NAME, or --stdio "
                                 "COMMAND [ARGUMENT…] at the end"));
  if (command == STEWARD_CLI_COMMAND_AUTH_SET_CLIENT &&
      (raw->server_name == NULL || (raw->client_id == NULL && raw->client_metadata_url == NULL)))
    return usage_error (error, _("`auth set-client` needs --server NAME, and --client-id ID "
                                 "or --client-metadata-url URL"));
  if (raw->config_path != NULL && raw->server_name == NULL &&
      !(n_servers == 0 && command == STEWARD_CLI_COMMAND_AUTH_STATUS))
    return usage_error (error, _("--config only makes sense with --server"));
  if (options->server_argv != NULL && (raw->headers != NULL || raw->transport != NULL))
    return usage_error (error, _("--header and --transport go with a remote server: --url, or "
                                 "--server with a \"url\" entry"));
  if (raw->url != NULL && (raw->env != NULL || raw->cwd != NULL))
    return usage_error (error, _("--env and --cwd go with a server that steward-cli starts: "
                                 "--stdio, or --server with a \"command\" entry"));
  if (raw->url != NULL && raw->no_sandbox)
    return usage_error (error, _("--no-sandbox goes with a server that steward-cli starts: "
                                 "--stdio, or --server with a \"command\" entry"));

  if (raw->url != NULL && !check_url (raw->url, error))
    return FALSE;
  if (!parse_headers (options, raw->headers, error))
    return FALSE;

  options->transport = MCP_HTTP_KIND_AUTO;
  options->transport_given = raw->transport != NULL;
  if (raw->transport != NULL && !mcp_http_kind_from_string (raw->transport, &options->transport))
    return usage_error (error, _("--transport: expected auto, streamable-http or sse, not `%s`"),
                        raw->transport);

  if (!apply_authorization (options, raw, error))
    return FALSE;

  options->server_name = g_steal_pointer (&raw->server_name);
  options->url = g_steal_pointer (&raw->url);
  options->config_path = g_steal_pointer (&raw->config_path);
  options->cwd = g_steal_pointer (&raw->cwd);
  options->no_sandbox = raw->no_sandbox;
  options->json = raw->json;
  options->verbose = raw->verbose;
  options->roots = g_steal_pointer (&raw->roots);

  if (!check_env (raw->env, error))
    return FALSE;
  options->env = g_steal_pointer (&raw->env);

  if (raw->timeout_ms != -1 && raw->timeout_ms <= 0)
    return usage_error (error, _("--timeout: expected a number of milliseconds above 0"));
  options->timeout_ms = raw->timeout_ms > 0 ? (guint) raw->timeout_ms : 0;

  if (raw->protocol != NULL && !check_revision (raw->protocol, &options->revision, error))
    return FALSE;

  if (raw->sampling == NULL)
    options->sampling = STEWARD_CLI_SAMPLING_NONE;
  else if (g_str_equal (raw->sampling, "reject"))
    options->sampling = STEWARD_CLI_SAMPLING_REJECT;
  else if (g_str_equal (raw->sampling, "manual"))
    options->sampling = STEWARD_CLI_SAMPLING_MANUAL;
  else
    return usage_error (error, _("--sampling: expected reject or manual, not `%s`"),
                        raw->sampling);

  if (raw->elicitation == NULL)
    options->elicitation = STEWARD_CLI_ELICITATION_NONE;
  else if (g_str_equal (raw->elicitation, "decline"))
    options->elicitation = STEWARD_CLI_ELICITATION_DECLINE;
  else if (g_str_equal (raw->elicitation, "accept-defaults"))
    options->elicitation = STEWARD_CLI_ELICITATION_ACCEPT_DEFAULTS;
  else if (g_str_equal (raw->elicitation, "manual"))
    options->elicitation = STEWARD_CLI_ELICITATION_MANUAL;
  else
    return usage_error (error, _("--elicitation: expected decline, accept-defaults or manual, "
                                 "not `%s`"),
                        raw->elicitation);

  if (raw->args != NULL)
    {
      if (!command_is_one_of (command, STEWARD_CLI_COMMAND_TOOLS_CALL,
                              STEWARD_CLI_COMMAND_PROMPTS_GET))
        return usage_error (error, _("--args goes with `tools call` or `prompts get`"));

      options->arguments = steward_cli_parse_json_object (raw->args, "--args", error);
      if (options->arguments == NULL)
        return FALSE;

      if (command == STEWARD_CLI_COMMAND_PROMPTS_GET &&
          !check_string_values (options->arguments, "--args", error))
        return FALSE;
    }

  if (raw->task)
    {
      if (command != STEWARD_CLI_COMMAND_TOOLS_CALL)
        return usage_error (error, _("--task goes with `tools call`"));
      options->task = TRUE;
    }

  if (raw->count != -1)
    {
      if (!command_is_one_of (command, STEWARD_CLI_COMMAND_RESOURCES_SUBSCRIBE,
                              STEWARD_CLI_COMMAND_LOG_LEVEL))
        return usage_error (error, _("--count goes with `resources subscribe` or `log-level`"));
      if (raw->count <= 0)
        return usage_error (error, _("--count: expected a number above 0"));
      options->count = (guint) raw->count;
    }

  if (command == STEWARD_CLI_COMMAND_LOG_LEVEL && !mcp_log_level_is_valid (options->operand))
    return usage_error (error, _("`%s` is not a log level; use debug, info, notice, warning, "
                                 "error, critical, alert or emergency"),
                        options->operand);

  if (command != STEWARD_CLI_COMMAND_COMPLETE)
    {
      if (raw->prompt || raw->resource || raw->argument || raw->value || raw->context)
        return usage_error (error, _("--prompt, --resource, --argument, --value and --context "
                                     "go with `complete`"));
      return TRUE;
    }

  if ((raw->prompt != NULL) == (raw->resource != NULL))
    return usage_error (error, _("`complete` needs either --prompt NAME or --resource TEMPLATE"));
  if (raw->argument == NULL)
    return usage_error (error, _("`complete` needs --argument NAME"));

  options->ref_type = raw->prompt ? "ref/prompt" : "ref/resource";
  options->ref_name = raw->prompt ? g_steal_pointer (&raw->prompt)
                                  : g_steal_pointer (&raw->resource);
  options->argument_name = g_steal_pointer (&raw->argument);
  options->argument_value = raw->value ? g_steal_pointer (&raw->value) : g_strdup ("");

  if (raw->context != NULL)
    {
      options->context = steward_cli_parse_json_object (raw->context, "--context", error);
      if (options->context == NULL || !check_string_values (options->context, "--context", error))
        return FALSE;
    }

  return TRUE;
}

static GOptionContext *
create_context (RawOptions *raw)
{
  const GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, &raw->server_name,
      N_("Connect to the server of this name in the servers file"), N_("NAME") },
    { "url", 0, 0, G_OPTION_ARG_STRING, &raw->url,
      N_("Connect to the remote server at this http:// or https:// URL"), N_("URL") },
    { "header", 'H', 0, G_OPTION_ARG_STRING_ARRAY, &raw->headers,
      N_("Send this header to the remote server (repeatable)"), N_("NAME:VALUE") },
    { "transport", 0, 0, G_OPTION_ARG_STRING, &raw->transport,
      N_("How to reach the remote server: auto (default), streamable-http or sse"),
      N_("KIND") },
    { "authorize", 0, 0, G_OPTION_ARG_STRING, &raw->authorize,
      N_("Sign in where a server asks: browser (default with a display), or print the "
         "address to open"), N_("MODE") },
    { "client-id", 0, 0, G_OPTION_ARG_STRING, &raw->client_id,
      N_("Sign in as this client, registered with the authorization server beforehand"),
      N_("ID") },
    { "client-secret-file", 0, 0, G_OPTION_ARG_FILENAME, &raw->client_secret_file,
      N_("Read the client's secret from FILE"), N_("FILE") },
    { "client-key-file", 0, 0, G_OPTION_ARG_FILENAME, &raw->client_key_file,
      N_("Sign the client's assertions with the PEM private key in FILE"), N_("FILE") },
    { "client-metadata-url", 0, 0, G_OPTION_ARG_STRING, &raw->client_metadata_url,
      N_("The https URL of the client's metadata document, its id where servers accept one"),
      N_("URL") },
    { "client-credentials", 0, 0, G_OPTION_ARG_NONE, &raw->client_credentials,
      N_("Sign in as the client itself (client credentials), without a person"), NULL },
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &raw->config_path,
      N_("Read servers from FILE, not $XDG_CONFIG_HOME/steward/servers.json"), N_("FILE") },
    { "env", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &raw->env,
      N_("Set a variable in the server's environment (repeatable)"), N_("NAME=VALUE") },
    { "cwd", 0, 0, G_OPTION_ARG_FILENAME, &raw->cwd,
      N_("Start the server in this folder"), N_("DIR") },
    { "no-sandbox", 0, 0, G_OPTION_ARG_NONE, &raw->no_sandbox,
      N_("Start the server with full access to your computer, outside the sandbox"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &raw->json,
      N_("Print the server's result as JSON"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &raw->verbose,
      N_("Print the server's stderr and log messages on stderr"), NULL },
    { "timeout", 't', 0, G_OPTION_ARG_INT, &raw->timeout_ms,
      N_("Give up on a request after MS milliseconds (default 60000)"), N_("MS") },
    { "protocol", 0, 0, G_OPTION_ARG_STRING, &raw->protocol,
      N_("Ask for this protocol revision (default: the newest)"), N_("REVISION") },
    { "roots", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &raw->roots,
      N_("Offer this folder to the server as a root (repeatable)"), N_("DIR") },
    { "sampling", 0, 0, G_OPTION_ARG_STRING, &raw->sampling,
      N_("Answer sampling requests: reject, or manual (type the answer)"), N_("MODE") },
    { "elicitation", 0, 0, G_OPTION_ARG_STRING, &raw->elicitation,
      N_("Answer elicitation requests: decline, accept-defaults, or manual"), N_("MODE") },
    { "args", 'a', 0, G_OPTION_ARG_STRING, &raw->args,
      N_("Arguments of `tools call` or `prompts get`, as a JSON object"), N_("JSON") },
    { "task", 0, 0, G_OPTION_ARG_NONE, &raw->task,
      N_("tools call: run the call as a task and follow it to its end"), NULL },
    { "count", 'n', 0, G_OPTION_ARG_INT, &raw->count,
      N_("Stop after N updates or log messages"), N_("N") },
    { "prompt", 0, 0, G_OPTION_ARG_STRING, &raw->prompt,
      N_("complete: an argument of this prompt"), N_("NAME") },
    { "resource", 0, 0, G_OPTION_ARG_STRING, &raw->resource,
      N_("complete: a variable of this resource template"), N_("TEMPLATE") },
    { "argument", 0, 0, G_OPTION_ARG_STRING, &raw->argument,
      N_("complete: the argument or variable to complete"), N_("NAME") },
    { "value", 0, 0, G_OPTION_ARG_STRING, &raw->value,
      N_("complete: what has been typed so far"), N_("PREFIX") },
    { "context", 0, 0, G_OPTION_ARG_STRING, &raw->context,
      N_("complete: arguments already chosen, as a JSON object"), N_("JSON") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &raw->version,
      N_("Print the version and exit"), NULL },
    { NULL }
  };
  GOptionContext *context;
  g_autofree char *summary = NULL;
  g_autofree char *description = NULL;
  g_autofree char *revisions = mcp_revision_list_supported ();

  /* Translators: the usage line after "Usage: steward-cli". */
  context = g_option_context_new (_("COMMAND [ARGUMENT…] --url URL | --server NAME | "
                                    "--stdio PROGRAM [ARGUMENT…]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  summary = g_strdup_printf (
    _("Talk to one Model Context Protocol server from the command line.\n"
      "\n"
      "Name the server in one of three ways:\n"
      "  --url URL                  a remote server, reached over HTTP\n"
      "  --server NAME              an entry of the servers file, local or remote\n"
      "  --stdio PROGRAM [ARG…]     a local server started from this command line;\n"
      "                             it comes last, as everything after it belongs\n"
      "                             to the server\n"
      "\n"
      "Commands:\n"
      "  info                       name, version, protocol revision, capabilities,\n"
      "                             instructions\n"
      "  tools list\n"
      "  tools call NAME [--args JSON] [--task]\n"
      "                             --task runs it as a task (tools that only run\n"
      "                             as tasks always do); Ctrl+C cancels the task\n"
      "  resources list\n"
      "  resources templates\n"
      "  resources read URI\n"
      "  resources subscribe URI [--count N]\n"
      "                             print each update until Ctrl+C or N updates\n"
      "  prompts list\n"
      "  prompts get NAME [--args JSON]\n"
      "  complete --prompt NAME|--resource TEMPLATE --argument NAME [--value PREFIX]\n"
      "           [--context JSON]\n"
      "  ping\n"
      "  log-level LEVEL [--count N]\n"
      "                             set the server's log level, then print its log\n"
      "                             messages until Ctrl+C or N messages\n"
      "  tasks list\n"
      "  tasks get ID | tasks cancel ID | tasks result ID\n"
      "                             a task the server still keeps: its status,\n"
      "                             cancel it, or wait for its result\n"
      "  auth status                whether the keyring holds a sign-in to this\n"
      "                             remote server, and until when; without a\n"
      "                             server, for each remote server of the file\n"
      "  auth sign-out              revoke the sign-in at the server, where it\n"
      "                             offers that, and remove it from the keyring\n"
      "  auth set-client --server NAME [--client-id ID [--client-secret-file FILE]]\n"
      "           [--client-metadata-url URL]\n"
      "                             keep the client to sign in as in the entry's\n"
      "                             \"oauth\" block, its secret in the keyring\n"
      "\n"
      "Protocol revisions: %s."),
    revisions);
  g_option_context_set_summary (context, summary);

  description = g_strdup (
    _("Requests from the server are answered only when an option says how:\n"
      "  --roots DIR           answer roots/list with these folders\n"
      "  --sampling reject     refuse every sampling request\n"
      "  --sampling manual     show the request on stderr and read the answer from\n"
      "                        stdin, up to a line holding only “.” or the end\n"
      "                        of input; an empty answer rejects the request\n"
      "  --elicitation decline|accept-defaults|manual\n"
      "                        decline, accept with the defaults of the requested\n"
      "                        schema, or ask for each field on the terminal\n"
      "\n"
      "Remote servers (--url, or a servers file entry with \"url\"):\n"
      "  --transport auto      try Streamable HTTP, and fall back to the legacy\n"
      "                        HTTP+SSE transport when the server refuses the first\n"
      "                        POST with 400, 404 or 405 (the default)\n"
      "  --transport streamable-http|sse\n"
      "                        use only this transport\n"
      "  --header NAME:VALUE   sent with every request, and only to the server's\n"
      "                        own origin (scheme, host and port); --verbose shows\n"
      "                        header names, never their values. With --server they\n"
      "                        add to the entry's headers and win over them\n"
      "\n"
      "Exit status:\n"
      "  0    success\n"
      "  2    usage error (also a bad servers file, an unknown --server, or a\n"
      "       keyring secret the server's entry names that cannot be found)\n"
      "  3    connection failure: the server could not start, exited, could not\n"
      "       be reached, ended the session, or negotiation failed\n"
      "  4    protocol error: the server answered with an error, a request timed\n"
      "       out, or the server lacks what was asked for\n"
      "  5    the tool reported an error (isError)\n"
      "  130  interrupted\n"
      "\n"
      "Examples:\n"
      "  steward-cli tools list --stdio npx -y @modelcontextprotocol/server-everything\n"
      "  steward-cli tools call echo --args '{\"message\": \"hi\"}' --server everything\n"
      "  steward-cli info --url http://localhost:3001/mcp\n"
      "  steward-cli tools list --url https://mcp.example.com/mcp \\\n"
      "      --header \"Authorization: Bearer $TOKEN\"\n"));
  g_option_context_set_description (context, description);

  return context;
}

/**
 * steward_cli_options_parse:
 *
 * Splits the command line at `--stdio`: what comes before is ours, what
 * comes after is the server's command line, never looked into.
 *
 * Returns: (transfer full) (nullable): the options, or %NULL with a
 *   %STEWARD_CLI_ERROR_USAGE error
 */
StewardCliOptions *
steward_cli_options_parse (int      argc,
                           char   **argv,
                           GError **error)
{
  g_autoptr(StewardCliOptions) options = g_new0 (StewardCliOptions, 1);
  g_auto(RawOptions) raw = { .timeout_ms = -1, .count = -1 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) ours = NULL;
  int split = argc;

  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--stdio"))
      {
        split = i;
        break;
      }

  ours = g_new0 (char *, split + 1);
  for (int i = 0; i < split; i++)
    ours[i] = g_strdup (argv[i]);

  if (split < argc)
    {
      if (split + 1 == argc)
        {
          usage_error (error, _("--stdio needs the command that starts the server"));
          return NULL;
        }

      options->server_argv = g_new0 (char *, argc - split);
      for (int i = split + 1; i < argc; i++)
        options->server_argv[i - split - 1] = g_strdup (argv[i]);
    }

  context = create_context (&raw);
  if (!g_option_context_parse_strv (context, &ours, &local_error))
    {
      usage_error (error, "%s", local_error->message);
      return NULL;
    }

  if (raw.version)
    {
      options->show_version = TRUE;
      return g_steal_pointer (&options);
    }

  if (!parse_command (options, ours + 1, error) || !apply_raw (options, &raw, error))
    return NULL;

  return g_steal_pointer (&options);
}
