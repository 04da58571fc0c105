/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-item.h"
#include "mcp-stdio-transport.h"

#include "steward-config.h"

#include "steward-cli-delegate.h"
#include "steward-cli-format.h"
#include "steward-cli-runner.h"

/**
 * StewardCliRunner:
 *
 * One run of steward-cli: start or find the server, connect, do the one
 * command, print its result, close the connection (which stops the
 * server) and give the exit status. Everything happens on a main loop that
 * ends only once the client is closed.
 */
struct _StewardCliRunner
{
  GObject              parent_instance;

  StewardCliOptions   *options;
  McpTransport        *transport;
  McpClient           *client;
  StewardCliDelegate  *delegate;
  GMainLoop           *loop;
  GCancellable        *cancellable;
  McpToolResult       *tool_result;
  const char          *list_method;
  gint64               ping_started;

  int                  exit_code;
  gboolean             connected;
  gboolean             finishing;
  /* The command has done its request and now prints notifications. */
  gboolean             waiting;
  guint                n_seen;
  guint                signal_sources[3];
};

G_DEFINE_FINAL_TYPE (StewardCliRunner, steward_cli_runner, G_TYPE_OBJECT)

static void
print_out (const char *text)
{
  fputs (text, stdout);
  fflush (stdout);
}

static void
print_err (const char *text)
{
  fputs (text, stderr);
  fflush (stderr);
}

static void
complain (const char *format,
          ...) G_GNUC_PRINTF (1, 2);

static void
complain (const char *format,
          ...)
{
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  line = g_strdup_printf ("steward-cli: %s\n", message);
  print_err (line);
}

static void
print_json (JsonObject *object,
            gboolean    pretty)
{
  g_autofree char *text = steward_cli_format_json_object (object, pretty);

  print_out (text);
  print_out ("\n");
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_close_finish (MCP_CLIENT (object), result, &error))
    g_debug ("closing: %s", error->message);

  g_main_loop_quit (self->loop);
}

/* The one way out: close the client, which stops the server, then leave
 * the loop. The first caller sets the exit status. */
static void
finish (StewardCliRunner *self,
        int               exit_code)
{
  if (self->finishing)
    return;

  self->finishing = TRUE;
  self->exit_code = exit_code;
  g_cancellable_cancel (self->cancellable);
  mcp_client_close_async (self->client, NULL, close_cb, g_object_ref (self));
}

static void
fail_request (StewardCliRunner *self,
              const GError     *error)
{
  if (self->finishing)
    return;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      finish (self, STEWARD_CLI_EXIT_INTERRUPTED);
      return;
    }

  if (mcp_error_is_rpc (error))
    {
      complain (_("the server answered with error %d: %s"), error->code, error->message);
      finish (self, STEWARD_CLI_EXIT_PROTOCOL);
      return;
    }

  if (error->domain == MCP_ERROR)
    {
      switch ((McpError) error->code)
        {
        case MCP_ERROR_CLOSED:
        case MCP_ERROR_EXITED:
        case MCP_ERROR_SPAWN_FAILED:
        case MCP_ERROR_MISBEHAVING:
        case MCP_ERROR_NOT_READY:
          complain (_("lost the connection to the server: %s"), error->message);
          finish (self, STEWARD_CLI_EXIT_CONNECTION);
          return;

        default:
          break;
        }
    }

  complain ("%s", error->message);
  finish (self, STEWARD_CLI_EXIT_PROTOCOL);
}

/* Streaming commands end by themselves once --count is reached. */
static void
maybe_done (StewardCliRunner *self)
{
  if (self->waiting && self->options->count > 0 && self->n_seen >= self->options->count)
    finish (self, STEWARD_CLI_EXIT_OK);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  StewardCliRunner *self = user_data;

  /* A second interruption does not wait for the server to stop. */
  if (self->finishing)
    {
      self->exit_code = STEWARD_CLI_EXIT_INTERRUPTED;
      g_main_loop_quit (self->loop);
      return G_SOURCE_CONTINUE;
    }

  if (self->waiting)
    finish (self, STEWARD_CLI_EXIT_OK);
  else
    {
      complain (_("interrupted"));
      finish (self, STEWARD_CLI_EXIT_INTERRUPTED);
    }

  return G_SOURCE_CONTINUE;
}

static void
transport_log_cb (StewardCliRunner *self,
                  int               kind,
                  const char       *text,
                  McpTransport     *transport)
{
  g_autofree char *clean = NULL;
  g_autofree char *line = NULL;

  if (!self->options->verbose)
    return;

  clean = steward_cli_sanitize (text, FALSE);
  if (kind == MCP_TRANSPORT_LOG_STDERR)
    line = g_strdup_printf ("[stderr] %s\n", clean);
  else
    line = g_strdup_printf ("[transport] %s\n", clean);
  print_err (line);
}

static void
client_diagnostic_cb (StewardCliRunner *self,
                      const char       *text,
                      McpClient        *client)
{
  g_autofree char *clean = NULL;
  g_autofree char *line = NULL;

  if (!self->options->verbose)
    return;

  clean = steward_cli_sanitize (text, FALSE);
  line = g_strdup_printf ("[client] %s\n", clean);
  print_err (line);
}

static void
client_log_message_cb (StewardCliRunner *self,
                       const char       *level,
                       const char       *logger,
                       JsonNode         *data,
                       McpClient        *client)
{
  g_autofree char *text = NULL;

  if (self->finishing)
    return;

  if (self->options->command != STEWARD_CLI_COMMAND_LOG_LEVEL)
    {
      if (self->options->verbose)
        {
          text = steward_cli_format_log_message (level, logger, data);
          print_err ("[log] ");
          print_err (text);
        }
      return;
    }

  if (self->options->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "level", level);
      if (logger != NULL)
        json_object_set_string_member (object, "logger", logger);
      json_object_set_member (object, "data",
                              data ? json_node_copy (data) : json_node_new (JSON_NODE_NULL));
      print_json (object, FALSE);
    }
  else
    {
      text = steward_cli_format_log_message (level, logger, data);
      print_out (text);
    }

  self->n_seen++;
  maybe_done (self);
}

static void
client_resource_updated_cb (StewardCliRunner *self,
                            const char       *uri,
                            McpClient        *client)
{
  if (self->finishing || self->options->command != STEWARD_CLI_COMMAND_RESOURCES_SUBSCRIBE)
    return;

  if (self->options->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "uri", uri);
      print_json (object, FALSE);
    }
  else
    {
      g_autofree char *clean = steward_cli_sanitize (uri, FALSE);
      g_autofree char *line = g_strdup_printf (_("updated: %s\n"), clean);

      print_out (line);
    }

  self->n_seen++;
  maybe_done (self);
}

static void
client_closed_cb (StewardCliRunner *self,
                  const GError     *error,
                  McpClient        *client)
{
  /* Before the connection is up, the failed connect says why. */
  if (self->finishing || !self->connected)
    return;

  if (error != NULL)
    complain (_("the server closed the connection: %s"), error->message);
  else
    complain (_("the server closed the connection"));
  finish (self, STEWARD_CLI_EXIT_CONNECTION);
}

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  StewardCliRunner *self = user_data;
  g_autofree char *clean = NULL;
  g_autofree char *line = NULL;

  if (!self->options->verbose)
    return;

  clean = steward_cli_sanitize (message, FALSE);
  if (total >= 0)
    line = g_strdup_printf ("[progress] %g/%g %s\n", progress, total, clean);
  else
    line = g_strdup_printf ("[progress] %g %s\n", progress, clean);
  print_err (line);
}

/* Commands */

static const char *
list_member (const char *method)
{
  if (g_str_equal (method, "tools/list"))
    return "tools";
  if (g_str_equal (method, "resources/list"))
    return "resources";
  if (g_str_equal (method, "resources/templates/list"))
    return "resourceTemplates";
  return "prompts";
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  const char *method = self->list_method;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  items = mcp_client_list_finish (MCP_CLIENT (object), result, &error);
  if (items == NULL)
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (self->options->json)
    {
      g_autoptr(JsonObject) reply = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < items->len; i++)
        {
          McpItem *item = g_ptr_array_index (items, i);

          json_array_add_object_element (array, json_object_ref (mcp_item_get_json (item)));
        }
      json_object_set_array_member (reply, list_member (method), array);
      print_json (reply, TRUE);
    }
  else
    {
      g_autofree char *text = steward_cli_format_list (method, items);

      print_out (text);
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
run_list (StewardCliRunner *self,
          const char       *method)
{
  self->list_method = method;
  mcp_client_list_async (self->client, method, self->cancellable, list_cb, g_object_ref (self));
}

static void
print_tool_result (StewardCliRunner *self,
                   McpToolResult    *result)
{
  if (self->options->json)
    print_json (mcp_tool_result_get_json (result), TRUE);
  else
    {
      g_autofree char *text = steward_cli_format_tool_result (result);

      print_out (text);
    }
}

static void
check_tool_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  const char *name = self->options->operand;
  gboolean known = FALSE;

  tools = mcp_client_list_finish (MCP_CLIENT (object), result, &error);
  if (self->finishing)
    return;

  for (guint i = 0; tools != NULL && i < tools->len; i++)
    if (g_strcmp0 (mcp_item_get_name (g_ptr_array_index (tools, i)), name) == 0)
      known = TRUE;

  /* Some servers report an unknown tool as a tool error rather than the
   * JSON-RPC error the specification asks for; either way it is not the
   * tool failing. */
  if (tools != NULL && !known)
    {
      g_autofree char *said = mcp_tool_result_dup_text (self->tool_result);
      g_autofree char *clean = steward_cli_sanitize (said, FALSE);

      complain (_("the server has no tool `%s` (it said: %s)"), name, clean);
      finish (self, STEWARD_CLI_EXIT_PROTOCOL);
      return;
    }

  print_tool_result (self, self->tool_result);
  finish (self, STEWARD_CLI_EXIT_TOOL_ERROR);
}

static void
call_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  if (tool_result == NULL)
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (!mcp_tool_result_get_is_error (tool_result))
    {
      print_tool_result (self, tool_result);
      finish (self, STEWARD_CLI_EXIT_OK);
      return;
    }

  g_set_object (&self->tool_result, tool_result);
  mcp_client_list_async (self->client, "tools/list", self->cancellable, check_tool_cb,
                         g_object_ref (self));
}

static void
read_resource_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (contents == NULL)
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (self->options->json)
    {
      g_autoptr(JsonObject) reply = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < contents->len; i++)
        {
          McpContent *content = g_ptr_array_index (contents, i);

          json_array_add_object_element (array, json_object_ref (mcp_content_get_json (content)));
        }
      json_object_set_array_member (reply, "contents", array);
      print_json (reply, TRUE);
    }
  else
    {
      g_autofree char *text = steward_cli_format_resource_contents (contents);

      print_out (text);
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
subscribe_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_subscribe_finish (MCP_CLIENT (object), result, &error))
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (!self->options->json)
    {
      g_autofree char *clean = steward_cli_sanitize (self->options->operand, FALSE);
      g_autofree char *line = g_strdup_printf (_("Subscribed to %s; waiting for updates "
                                                 "(Ctrl+C stops).\n"), clean);

      print_err (line);
    }

  self->waiting = TRUE;
  maybe_done (self);
}

static void
get_prompt_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(McpPromptResult) prompt = NULL;
  g_autoptr(GError) error = NULL;

  prompt = mcp_client_get_prompt_finish (MCP_CLIENT (object), result, &error);
  if (prompt == NULL)
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (self->options->json)
    print_json (mcp_prompt_result_get_json (prompt), TRUE);
  else
    {
      g_autofree char *text = steward_cli_format_prompt_result (prompt);

      print_out (text);
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
complete_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  gboolean has_more = FALSE;
  gint64 total = -1;

  values = mcp_client_complete_finish (MCP_CLIENT (object), result, &total, &has_more, &error);
  if (values == NULL)
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (self->options->json)
    {
      g_autoptr(JsonObject) reply = json_object_new ();
      JsonObject *completion = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; values[i] != NULL; i++)
        json_array_add_string_element (array, values[i]);
      json_object_set_array_member (completion, "values", array);
      if (total >= 0)
        json_object_set_int_member (completion, "total", total);
      json_object_set_boolean_member (completion, "hasMore", has_more);
      json_object_set_object_member (reply, "completion", completion);
      print_json (reply, TRUE);
    }
  else
    {
      for (guint i = 0; values[i] != NULL; i++)
        {
          g_autofree char *clean = steward_cli_sanitize (values[i], FALSE);

          print_out (clean);
          print_out ("\n");
        }

      if (values[0] == NULL)
        print_err (_("The server has no completions for this value.\n"));
      if (has_more)
        {
          g_autofree char *more = NULL;

          if (total >= 0)
            more = g_strdup_printf (_("(more values exist: %" G_GINT64_FORMAT " in all)\n"), total);
          else
            more = g_strdup (_("(more values exist)\n"));
          print_out (more);
        }
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
ping_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_ping_finish (MCP_CLIENT (object), result, &error))
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (self->options->json)
    {
      g_autoptr(JsonObject) reply = json_object_new ();

      print_json (reply, FALSE);
    }
  else
    {
      double elapsed_ms = (g_get_monotonic_time () - self->ping_started) / 1000.0;
      g_autofree char *line = g_strdup_printf (_("The server answered the ping in %.1f ms.\n"),
                                               elapsed_ms);

      print_out (line);
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
set_log_level_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error))
    {
      fail_request (self, error);
      return;
    }

  if (self->finishing)
    return;

  if (!self->options->json)
    {
      g_autofree char *line = g_strdup_printf (_("Log level set to %s; waiting for log messages "
                                                 "(Ctrl+C stops).\n"),
                                               self->options->operand);

      print_err (line);
    }

  self->waiting = TRUE;
  maybe_done (self);
}

static void
print_info (StewardCliRunner *self)
{
  if (self->options->json)
    {
      g_autoptr(JsonObject) reply = json_object_new ();
      JsonObject *server_info = mcp_client_get_server_info (self->client);
      JsonObject *capabilities = mcp_client_get_server_capabilities (self->client);
      const char *instructions = mcp_client_get_instructions (self->client);

      json_object_set_string_member (reply, "protocolVersion",
                                     mcp_client_get_protocol_version (self->client));
      json_object_set_object_member (reply, "serverInfo",
                                     server_info ? json_object_ref (server_info)
                                                 : json_object_new ());
      json_object_set_object_member (reply, "capabilities",
                                     capabilities ? json_object_ref (capabilities)
                                                  : json_object_new ());
      if (instructions != NULL)
        json_object_set_string_member (reply, "instructions", instructions);
      print_json (reply, TRUE);
    }
  else
    {
      g_autofree char *text = steward_cli_format_info (self->client);

      print_out (text);
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
run_command (StewardCliRunner *self)
{
  StewardCliOptions *options = self->options;

  switch (options->command)
    {
    case STEWARD_CLI_COMMAND_INFO:
      print_info (self);
      break;

    case STEWARD_CLI_COMMAND_TOOLS_LIST:
      run_list (self, "tools/list");
      break;

    case STEWARD_CLI_COMMAND_RESOURCES_LIST:
      run_list (self, "resources/list");
      break;

    case STEWARD_CLI_COMMAND_RESOURCES_TEMPLATES:
      run_list (self, "resources/templates/list");
      break;

    case STEWARD_CLI_COMMAND_PROMPTS_LIST:
      run_list (self, "prompts/list");
      break;

    case STEWARD_CLI_COMMAND_TOOLS_CALL:
      mcp_client_call_tool_async (self->client, options->operand, options->arguments,
                                  progress_cb, self, NULL, self->cancellable, call_tool_cb,
                                  g_object_ref (self));
      break;

    case STEWARD_CLI_COMMAND_RESOURCES_READ:
      mcp_client_read_resource_async (self->client, options->operand, self->cancellable,
                                      read_resource_cb, g_object_ref (self));
      break;

    case STEWARD_CLI_COMMAND_RESOURCES_SUBSCRIBE:
      mcp_client_subscribe_async (self->client, options->operand, TRUE, self->cancellable,
                                  subscribe_cb, g_object_ref (self));
      break;

    case STEWARD_CLI_COMMAND_PROMPTS_GET:
      mcp_client_get_prompt_async (self->client, options->operand, options->arguments,
                                   self->cancellable, get_prompt_cb, g_object_ref (self));
      break;

    case STEWARD_CLI_COMMAND_COMPLETE:
      mcp_client_complete_async (self->client, options->ref_type, options->ref_name,
                                 options->argument_name, options->argument_value,
                                 options->context, self->cancellable, complete_cb,
                                 g_object_ref (self));
      break;

    case STEWARD_CLI_COMMAND_PING:
      self->ping_started = g_get_monotonic_time ();
      mcp_client_ping_async (self->client, self->cancellable, ping_cb, g_object_ref (self));
      break;

    case STEWARD_CLI_COMMAND_LOG_LEVEL:
      mcp_client_set_log_level_async (self->client, options->operand, self->cancellable,
                                      set_log_level_cb, g_object_ref (self));
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_connect_finish (MCP_CLIENT (object), result, &error))
    {
      if (self->finishing)
        return;

      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED))
        complain (_("cannot start server: %s"), error->message);
      else
        complain (_("cannot connect to the server: %s"), error->message);
      finish (self, STEWARD_CLI_EXIT_CONNECTION);
      return;
    }

  if (self->finishing)
    return;

  self->connected = TRUE;
  run_command (self);
}

/* Setting up */

static StewardServerConfig *
resolve_server (StewardCliRunner  *self,
                GError           **error)
{
  StewardCliOptions *options = self->options;
  g_autoptr(StewardConfig) config = NULL;
  g_autoptr(GFile) file = NULL;
  StewardServerConfig *server;

  if (options->server_argv != NULL)
    {
      g_autoptr(JsonObject) json = json_object_new ();
      JsonArray *args = json_array_new ();

      for (guint i = 1; options->server_argv[i] != NULL; i++)
        json_array_add_string_element (args, options->server_argv[i]);
      json_object_set_string_member (json, "command", options->server_argv[0]);
      json_object_set_array_member (json, "args", args);

      return steward_server_config_new_from_json ("--stdio", json, error);
    }

  if (options->config_path != NULL)
    file = g_file_new_for_commandline_arg (options->config_path);

  config = steward_config_new (file);
  if (!steward_config_load (config, NULL, error))
    return NULL;

  server = steward_config_lookup (config, options->server_name, error);
  return server ? g_object_ref (server) : NULL;
}

static McpTransport *
create_stdio_transport (StewardCliRunner     *self,
                        StewardServerConfig  *server)
{
  StewardCliOptions *options = self->options;
  g_auto(GStrv) argv = steward_server_config_dup_argv (server);
  g_autoptr(McpStdioTransport) transport = mcp_stdio_transport_new ((const char * const *) argv);
  GHashTableIter iter;
  const char *name;
  const char *value;

  g_hash_table_iter_init (&iter, steward_server_config_get_env (server));
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, (gpointer *) &value))
    mcp_stdio_transport_setenv (transport, name, value);

  for (guint i = 0; options->env != NULL && options->env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (options->env[i], "=", 2);

      mcp_stdio_transport_setenv (transport, pair[0], pair[1]);
    }

  if (options->cwd != NULL)
    {
      g_autoptr(GFile) cwd = g_file_new_for_commandline_arg (options->cwd);
      g_autofree char *path = g_file_get_path (cwd);

      mcp_stdio_transport_set_cwd (transport, path ? path : options->cwd);
    }
  else if (steward_server_config_get_cwd (server) != NULL)
    mcp_stdio_transport_set_cwd (transport, steward_server_config_get_cwd (server));

  return MCP_TRANSPORT (g_steal_pointer (&transport));
}

static McpTransport *
create_transport (StewardCliRunner     *self,
                  StewardServerConfig  *server,
                  GError              **error)
{
  switch (steward_server_config_get_transport (server))
    {
    case STEWARD_SERVER_TRANSPORT_STDIO:
      return create_stdio_transport (self, server);

    case STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP:
    case STEWARD_SERVER_TRANSPORT_SSE:
    default:
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   _("server `%s` is a remote server (%s); steward-cli does not support "
                     "HTTP servers yet"),
                   steward_server_config_get_name (server),
                   steward_server_config_get_url (server));
      return NULL;
    }
}

static gboolean
create_delegate (StewardCliRunner  *self,
                 GError           **error)
{
  StewardCliOptions *options = self->options;
  g_autoptr(GInputStream) input = NULL;

  if (options->sampling == STEWARD_CLI_SAMPLING_MANUAL ||
      options->elicitation == STEWARD_CLI_ELICITATION_MANUAL)
    input = g_unix_input_stream_new (STDIN_FILENO, FALSE);

  self->delegate = steward_cli_delegate_new (options->sampling, options->elicitation, input);

  for (guint i = 0; options->roots != NULL && options->roots[i] != NULL; i++)
    if (!steward_cli_delegate_add_root (self->delegate, options->roots[i], error))
      return FALSE;

  return TRUE;
}

static void
steward_cli_runner_dispose (GObject *object)
{
  StewardCliRunner *self = STEWARD_CLI_RUNNER (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->signal_sources); i++)
    g_clear_handle_id (&self->signal_sources[i], g_source_remove);

  g_clear_object (&self->tool_result);
  g_clear_object (&self->client);
  g_clear_object (&self->transport);
  g_clear_object (&self->delegate);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->loop, g_main_loop_unref);

  G_OBJECT_CLASS (steward_cli_runner_parent_class)->dispose (object);
}

static void
steward_cli_runner_finalize (GObject *object)
{
  StewardCliRunner *self = STEWARD_CLI_RUNNER (object);

  g_clear_pointer (&self->options, steward_cli_options_free);

  G_OBJECT_CLASS (steward_cli_runner_parent_class)->finalize (object);
}

static void
steward_cli_runner_class_init (StewardCliRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_cli_runner_dispose;
  object_class->finalize = steward_cli_runner_finalize;
}

static void
steward_cli_runner_init (StewardCliRunner *self)
{
  self->cancellable = g_cancellable_new ();
  self->loop = g_main_loop_new (NULL, FALSE);
}

/**
 * steward_cli_runner_new:
 * @options: (transfer full): the parsed command line
 */
StewardCliRunner *
steward_cli_runner_new (StewardCliOptions *options)
{
  StewardCliRunner *self;

  g_return_val_if_fail (options != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_CLI_RUNNER, NULL);
  self->options = options;

  return self;
}

/**
 * steward_cli_runner_run:
 *
 * Returns: the exit status (#StewardCliExit)
 */
int
steward_cli_runner_run (StewardCliRunner *self)
{
  StewardCliOptions *options;
  g_autoptr(StewardServerConfig) server = NULL;
  g_autoptr(GError) error = NULL;
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  g_return_val_if_fail (STEWARD_IS_CLI_RUNNER (self), STEWARD_CLI_EXIT_USAGE);
  g_return_val_if_fail (self->client == NULL, STEWARD_CLI_EXIT_USAGE);

  options = self->options;

  server = resolve_server (self, &error);
  if (server == NULL)
    {
      complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  if (!create_delegate (self, &error))
    {
      complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  self->transport = create_transport (self, server, &error);
  if (self->transport == NULL)
    {
      complain ("%s", error->message);
      return STEWARD_CLI_EXIT_CONNECTION;
    }

  self->client = mcp_client_new (self->transport);
  mcp_client_set_client_info (self->client, "steward-cli", "Steward CLI", PACKAGE_VERSION);
  mcp_client_set_delegate (self->client, MCP_CLIENT_DELEGATE (self->delegate));
  if (options->revision != MCP_REVISION_UNKNOWN)
    mcp_client_set_requested_revision (self->client, options->revision);
  if (options->timeout_ms > 0)
    {
      mcp_client_set_request_timeout (self->client, options->timeout_ms);
      mcp_client_set_initialize_timeout (self->client, options->timeout_ms);
    }

  g_signal_connect_object (self->transport, "log", G_CALLBACK (transport_log_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->client, "diagnostic", G_CALLBACK (client_diagnostic_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->client, "log-message", G_CALLBACK (client_log_message_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->client, "resource-updated",
                           G_CALLBACK (client_resource_updated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->client, "closed", G_CALLBACK (client_closed_cb), self,
                           G_CONNECT_SWAPPED);

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    self->signal_sources[i] = g_unix_signal_add (signals[i], interrupted_cb, self);

  mcp_client_connect_async (self->client, self->cancellable, connect_cb, g_object_ref (self));
  g_main_loop_run (self->loop);

  for (guint i = 0; i < G_N_ELEMENTS (self->signal_sources); i++)
    g_clear_handle_id (&self->signal_sources[i], g_source_remove);

  return self->exit_code;
}

/**
 * steward_cli_main:
 *
 * Everything steward-cli does, for a main() that only sets up the locale.
 */
int
steward_cli_main (int    argc,
                  char **argv)
{
  g_autoptr(StewardCliOptions) options = NULL;
  g_autoptr(StewardCliRunner) runner = NULL;
  g_autoptr(GError) error = NULL;

  options = steward_cli_options_parse (argc, argv, &error);
  if (options == NULL)
    {
      complain ("%s", error->message);
      print_err (_("Run “steward-cli --help” to see how to use it.\n"));
      return STEWARD_CLI_EXIT_USAGE;
    }

  if (options->show_version)
    {
      print_out ("steward-cli " PACKAGE_VERSION "\n");
      return STEWARD_CLI_EXIT_OK;
    }

  runner = steward_cli_runner_new (g_steal_pointer (&options));
  return steward_cli_runner_run (runner);
}
