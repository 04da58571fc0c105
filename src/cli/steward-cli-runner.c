/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp-client.h"
#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-item.h"
#include "mcp-sse-transport.h"
#include "mcp-stdio-transport.h"
#include "steward-sandbox-launch.h"

#include "steward-config.h"
#include "steward-secrets.h"
#include "steward-server-failure.h"

#include "steward-cli-auth.h"
#include "steward-cli-delegate.h"
#include "steward-cli-format.h"
#include "steward-cli-output.h"
#include "steward-cli-runner.h"
#include "steward-cli-tasks.h"

/**
 * StewardCliRunner:
 *
 * One run of steward-cli: start or find the server, connect, do the one
 * command, print its result, close the connection (which stops a local
 * server, or ends a remote one's session) and give the exit status.
 * Everything happens on a main loop that ends only once the client is
 * closed.
 */
struct _StewardCliRunner
{
  GObject              parent_instance;

  StewardCliOptions   *options;
  /* The client connecting or connected. Over HTTP with --transport auto it
   * is replaced when the legacy transport is tried after the first. */
  McpClient           *client;
  StewardCliDelegate  *delegate;
  /* The server file's environment and headers with the keyring's secrets
   * in place of their references; wiped when freed. */
  GHashTable          *server_env;
  GHashTable          *server_headers;
  /* A remote server: where, with which headers, over which transport. */
  char                *url;
  GHashTable          *headers;
  McpHttpKind          kind;
  /* Signing in where the remote server asks; NULL for a local server or
   * one given its Authorization header by hand. */
  StewardCliAuth      *auth;
  GMainLoop           *loop;
  GCancellable        *cancellable;
  McpToolResult       *tool_result;
  const char          *list_method;
  gint64               ping_started;
  /* The server's last lines on stderr, for saying why it did not start. */
  GPtrArray           *stderr_lines;

  int                  exit_code;
  gboolean             connected;
  gboolean             finishing;
  /* The command has done its request and now prints notifications. */
  gboolean             waiting;
  guint                n_seen;
  guint                signal_sources[3];
};

G_DEFINE_FINAL_TYPE (StewardCliRunner, steward_cli_runner, G_TYPE_OBJECT)

/* As many of a server's last stderr lines as the app keeps. */
#define STDERR_LINES_KEPT 20

static void
print_json (JsonObject *object,
            gboolean    pretty)
{
  g_autofree char *text = steward_cli_format_json_object (object, pretty);

  steward_cli_print_out (text);
  steward_cli_print_out ("\n");
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

  /* A URL no transport accepts fails before any client is made. */
  if (self->client == NULL)
    {
      g_main_loop_quit (self->loop);
      return;
    }

  mcp_client_close_async (self->client, NULL, close_cb, g_object_ref (self));
}

static gboolean try_sign_in (StewardCliRunner *self,
                             const GError     *error);

static void
fail_request (StewardCliRunner *self,
              const GError     *error)
{
  if (self->finishing || try_sign_in (self, error))
    return;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      finish (self, STEWARD_CLI_EXIT_INTERRUPTED);
      return;
    }

  if (mcp_error_is_rpc (error))
    {
      steward_cli_complain (_("the server answered with error %d: %s"), error->code,
                            error->message);
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
        case MCP_ERROR_SESSION_EXPIRED:
        case MCP_ERROR_FORBIDDEN_ORIGIN:
          steward_cli_complain (_("lost the connection to the server: %s"), error->message);
          finish (self, STEWARD_CLI_EXIT_CONNECTION);
          return;

        default:
          break;
        }
    }

  steward_cli_complain ("%s", error->message);
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
      steward_cli_complain (_("interrupted"));
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

  if (kind == MCP_TRANSPORT_LOG_STDERR && !self->connected)
    {
      if (self->stderr_lines->len >= STDERR_LINES_KEPT)
        g_ptr_array_remove_index (self->stderr_lines, 0);
      g_ptr_array_add (self->stderr_lines, g_strdup (text));
    }

  if (!self->options->verbose)
    return;

  clean = steward_cli_sanitize (text, FALSE);
  if (kind == MCP_TRANSPORT_LOG_STDERR)
    line = g_strdup_printf ("[stderr] %s\n", clean);
  else
    line = g_strdup_printf ("[transport] %s\n", clean);
  steward_cli_print_err (line);
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
  steward_cli_print_err (line);
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
          steward_cli_print_err ("[log] ");
          steward_cli_print_err (text);
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
      steward_cli_print_out (text);
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

      steward_cli_print_out (line);
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
    steward_cli_complain (_("the server closed the connection: %s"), error->message);
  else
    steward_cli_complain (_("the server closed the connection"));
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
  steward_cli_print_err (line);
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

typedef JsonObject *(*JsonOf) (gpointer object);

/* `--json` output of a list: the objects as the server sent them, under
 * the member the result had them in. */
static void
print_json_objects (const char *member,
                    GPtrArray  *objects,
                    JsonOf      json_of)
{
  g_autoptr(JsonObject) reply = json_object_new ();
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < objects->len; i++)
    {
      JsonObject *json = json_of (g_ptr_array_index (objects, i));

      json_array_add_object_element (array, json_object_ref (json));
    }
  json_object_set_array_member (reply, member, array);
  print_json (reply, TRUE);
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
      print_json_objects (list_member (method), items, (JsonOf) mcp_item_get_json);
    }
  else
    {
      g_autofree char *text = steward_cli_format_list (method, items);

      steward_cli_print_out (text);
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

      steward_cli_print_out (text);
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

      steward_cli_complain (_("the server has no tool `%s` (it said: %s)"), name, clean);
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
      print_json_objects ("contents", contents, (JsonOf) mcp_content_get_json);
    }
  else
    {
      g_autofree char *text = steward_cli_format_resource_contents (contents);

      steward_cli_print_out (text);
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

      steward_cli_print_err (line);
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

      steward_cli_print_out (text);
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

          steward_cli_print_out (clean);
          steward_cli_print_out ("\n");
        }

      if (values[0] == NULL)
        steward_cli_print_err (_("The server has no completions for this value.\n"));
      if (has_more)
        {
          g_autofree char *more = NULL;

          if (total >= 0)
            more = g_strdup_printf (_("(more values exist: %lld in all)\n"),
                                    (long long) total);
          else
            more = g_strdup (_("(more values exist)\n"));
          steward_cli_print_out (more);
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

      steward_cli_print_out (line);
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

      steward_cli_print_err (line);
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

      steward_cli_print_out (text);
    }

  finish (self, STEWARD_CLI_EXIT_OK);
}

static void
tasks_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  int code = steward_cli_tasks_run_finish (result, &error);

  if (code < 0)
    fail_request (self, error);
  else
    finish (self, code);
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
      if (options->task)
        {
          steward_cli_tasks_run_async (self->client, options, self->cancellable, tasks_cb,
                                       g_object_ref (self));
          break;
        }
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

    case STEWARD_CLI_COMMAND_TASKS_LIST:
    case STEWARD_CLI_COMMAND_TASKS_GET:
    case STEWARD_CLI_COMMAND_TASKS_CANCEL:
    case STEWARD_CLI_COMMAND_TASKS_RESULT:
      steward_cli_tasks_run_async (self->client, options, self->cancellable, tasks_cb,
                                   g_object_ref (self));
      break;

    default:
      g_assert_not_reached ();
    }
}

/* Says why in the words the app uses: the cause and the fix, with the
 * server's most useful stderr line rather than its last. */
static void
report_connect_failure (StewardCliRunner *self,
                        const GError     *error)
{
  g_autoptr(StewardServerFailure) failure = NULL;

  g_ptr_array_add (self->stderr_lines, NULL);
  failure = steward_server_failure_new (error, self->url,
                                        (const char * const *) self->stderr_lines->pdata);
  g_ptr_array_remove_index (self->stderr_lines, self->stderr_lines->len - 1);

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED))
    steward_cli_complain (_("cannot start server: %s"),
                          steward_server_failure_get_summary (failure));
  else
    steward_cli_complain (_("cannot connect to the server: %s"),
                          steward_server_failure_get_summary (failure));
  finish (self, STEWARD_CLI_EXIT_CONNECTION);
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
      if (!self->finishing)
        report_connect_failure (self, error);
      return;
    }

  if (self->finishing)
    return;

  self->connected = TRUE;
  run_command (self);
}

static void
connect_http_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  client = mcp_connect_http_finish (result, &error);
  if (client == NULL)
    {
      if (!self->finishing && !try_sign_in (self, error))
        report_connect_failure (self, error);
      return;
    }

  if (self->finishing)
    return;

  g_set_object (&self->client, client);

  if (self->options->verbose)
    {
      if (MCP_IS_SSE_TRANSPORT (mcp_client_get_transport (client)))
        steward_cli_print_err (_("[connect] connected with the legacy HTTP+SSE transport\n"));
      else
        steward_cli_print_err (_("[connect] connected with the Streamable HTTP transport\n"));
    }

  self->connected = TRUE;
  run_command (self);
}

/* Called for each client made while connecting: over HTTP with
 * --transport auto, a second one follows when the server turns out to
 * speak the legacy transport. */
static void
setup_client (McpClient *client,
              gpointer   user_data)
{
  StewardCliRunner *self = user_data;
  StewardCliOptions *options = self->options;

  g_set_object (&self->client, client);

  mcp_client_set_client_info (client, "steward-cli", "Steward CLI", PACKAGE_VERSION);
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (self->delegate));
  if (options->revision != MCP_REVISION_UNKNOWN)
    mcp_client_set_requested_revision (client, options->revision);
  if (options->timeout_ms > 0)
    {
      mcp_client_set_request_timeout (client, options->timeout_ms);
      mcp_client_set_initialize_timeout (client, options->timeout_ms);
    }

  g_signal_connect_object (mcp_client_get_transport (client), "log",
                           G_CALLBACK (transport_log_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "diagnostic", G_CALLBACK (client_diagnostic_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "log-message", G_CALLBACK (client_log_message_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "resource-updated", G_CALLBACK (client_resource_updated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "closed", G_CALLBACK (client_closed_cb), self,
                           G_CONNECT_SWAPPED);
}

/* Signing in */

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *authorization = NULL;
  McpTransport *transport;

  authorization = steward_cli_auth_authorize_finish (STEWARD_CLI_AUTH (object), result, &error);
  if (self->finishing)
    return;

  if (authorization == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        finish (self, STEWARD_CLI_EXIT_INTERRUPTED);
      else
        {
          steward_cli_complain (_("cannot sign in: %s"), error->message);
          finish (self, STEWARD_CLI_EXIT_CONNECTION);
        }
      return;
    }

  if (self->options->verbose)
    steward_cli_print_err (_("[auth] signed in\n"));

  g_hash_table_replace (self->headers, g_strdup ("Authorization"), g_strdup (authorization));

  if (!self->connected)
    {
      mcp_connect_http_async (self->url, self->headers, self->kind, setup_client, self,
                              self->cancellable, connect_http_cb, g_object_ref (self));
      return;
    }

  /* Connected already: the request the server refused is made again with
   * the new token. */
  transport = mcp_client_get_transport (self->client);
  if (MCP_IS_HTTP_TRANSPORT (transport))
    mcp_http_transport_set_header (MCP_HTTP_TRANSPORT (transport), "Authorization",
                                   authorization);
  else if (MCP_IS_SSE_TRANSPORT (transport))
    mcp_sse_transport_set_header (MCP_SSE_TRANSPORT (transport), "Authorization", authorization);
  run_command (self);
}

/* Starts signing in when @error is the server asking for it; then the
 * connection or the command is tried again. */
static gboolean
try_sign_in (StewardCliRunner *self,
             const GError     *error)
{
  g_autofree char *challenge = NULL;

  if (self->auth == NULL)
    return FALSE;

  challenge = steward_cli_auth_get_challenge (self->auth, error);
  if (challenge == NULL)
    return FALSE;

  if (self->options->verbose)
    steward_cli_print_err (_("[auth] the server asks to sign in\n"));

  steward_cli_auth_authorize_async (self->auth, challenge, self->cancellable, signed_in_cb,
                                    g_object_ref (self));
  return TRUE;
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

static gboolean
has_references (GHashTable *table)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (strstr (value, "${keyring:") != NULL)
      return TRUE;

  return FALSE;
}

static void
resolved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Replaces "${keyring:ID}" in @table's values with the secrets. The
 * keyring answers over D-Bus; steward-cli has nothing else to do until it
 * has, so it waits here, before its main loop runs. */
static GHashTable *
resolve_references (StewardCliRunner  *self,
                    StewardSecrets    *secrets,
                    const char        *name,
                    const char        *what,
                    GHashTable        *table,
                    GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  GHashTable *resolved;

  if (!has_references (table))
    return g_hash_table_ref (table);

  steward_secrets_resolve_async (secrets, table, self->cancellable, resolved_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  resolved = steward_secrets_resolve_finish (secrets, result, &local_error);
  if (resolved == NULL)
    /* Translators: the second placeholder is "environment" or "headers";
     * the third says which secret is missing, or why the keyring cannot
     * be reached. */
    g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                 _("server `%s`, %s: %s"), name, what, local_error->message);

  return resolved;
}

static gboolean
resolve_secrets (StewardCliRunner     *self,
                 StewardServerConfig  *server,
                 GError              **error)
{
  const char *name = steward_server_config_get_name (server);
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();

  /* Translators: fills the second placeholder of "server `%s`, %s: %s". */
  self->server_env = resolve_references (self, secrets, name, _("environment"),
                                         steward_server_config_get_env (server), error);
  if (self->server_env == NULL)
    return FALSE;

  /* Translators: fills the second placeholder of "server `%s`, %s: %s". */
  self->server_headers = resolve_references (self, secrets, name, _("headers"),
                                             steward_server_config_get_headers (server), error);
  return self->server_headers != NULL;
}

/* What a remote entry of the servers file says, with the command line's
 * --header and --transport on top. */
static gboolean
resolve_remote (StewardCliRunner     *self,
                StewardServerConfig  *server,
                GError              **error)
{
  StewardCliOptions *options = self->options;
  const char *name = steward_server_config_get_name (server);
  g_autofree char *where = g_strdup_printf (_("server `%s`"), name);
  JsonObject *json = steward_server_config_get_json (server);
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  if (!steward_server_config_is_remote (server))
    {
      if (g_hash_table_size (options->headers) == 0 && !options->transport_given)
        return TRUE;

      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--header and --transport go with a remote server; server `%s` is started "
                     "with a command"),
                   name);
      return FALSE;
    }

  if (options->env != NULL || options->cwd != NULL)
    {
      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--env and --cwd go with a server that steward-cli starts; server `%s` is "
                     "remote"),
                   name);
      return FALSE;
    }

  self->url = g_strdup (steward_server_config_get_url (server));
  self->headers = steward_cli_headers_new ();

  g_hash_table_iter_init (&iter, self->server_headers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!steward_cli_check_header (where, key, value, error))
        return FALSE;
      g_hash_table_replace (self->headers, g_strdup (key), g_strdup (value));
    }

  g_hash_table_iter_init (&iter, options->headers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_replace (self->headers, g_strdup (key), g_strdup (value));

  /* An entry that names no transport gets the specification's
   * backwards-compatible probe, which tries Streamable HTTP first. */
  if (options->transport_given)
    self->kind = options->transport;
  else if (!json_object_has_member (json, "transport") && !json_object_has_member (json, "type"))
    self->kind = MCP_HTTP_KIND_AUTO;
  else if (steward_server_config_get_transport (server) == STEWARD_SERVER_TRANSPORT_SSE)
    self->kind = MCP_HTTP_KIND_SSE;
  else
    self->kind = MCP_HTTP_KIND_STREAMABLE;

  return TRUE;
}

/* The server's sandbox: its entry's permissions with the roots given on
 * the command line, the folder --cwd names, or none with --no-sandbox. */
static StewardSandboxProfile *
new_profile (StewardCliRunner     *self,
             StewardServerConfig  *server,
             const char           *cwd)
{
  StewardCliOptions *options = self->options;
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StewardServerConfig) moved = NULL;

  if (options->no_sandbox)
    return steward_sandbox_profile_new_unconfined ();

  for (guint i = 0; options->roots != NULL && options->roots[i] != NULL; i++)
    g_ptr_array_add (roots, g_canonicalize_filename (options->roots[i], NULL));
  g_ptr_array_add (roots, NULL);

  if (cwd != NULL)
    {
      g_autoptr(JsonObject) json = json_object_new ();
      JsonObject *entry = steward_server_config_get_json (server);
      GList *members = json_object_get_members (entry);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (json, l->data,
                                json_node_copy (json_object_get_member (entry, l->data)));
      g_list_free (members);
      json_object_set_string_member (json, "cwd", cwd);
      moved = steward_server_config_new_from_json (steward_server_config_get_name (server), json,
                                                   NULL);
    }

  return steward_sandbox_profile_new (moved != NULL ? moved : server,
                                      (const char * const *) roots->pdata);
}

static McpTransport *
create_stdio_transport (StewardCliRunner     *self,
                        StewardServerConfig  *server,
                        GError              **error)
{
  StewardCliOptions *options = self->options;
  g_auto(GStrv) argv = steward_server_config_dup_argv (server);
  g_autoptr(GHashTable) env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(StewardSandboxProfile) profile = NULL;
  g_autofree char *cwd = NULL;
  GHashTableIter iter;
  const char *name;
  const char *value;

  g_hash_table_iter_init (&iter, self->server_env);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, (gpointer *) &value))
    g_hash_table_replace (env, g_strdup (name), g_strdup (value));

  for (guint i = 0; options->env != NULL && options->env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (options->env[i], "=", 2);

      g_hash_table_replace (env, g_strdup (pair[0]), g_strdup (pair[1]));
    }

  if (options->cwd != NULL)
    {
      g_autoptr(GFile) folder = g_file_new_for_commandline_arg (options->cwd);

      cwd = g_file_get_path (folder);
      if (cwd == NULL)
        cwd = g_strdup (options->cwd);
    }
  else
    cwd = g_strdup (steward_server_config_get_cwd (server));

  profile = new_profile (self, server, options->cwd != NULL ? cwd : NULL);

  return MCP_TRANSPORT (steward_sandbox_launch_new_transport (profile,
                                                              (const char * const *) argv,
                                                              cwd, env, error));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_ascii_strcasecmp (*(const char * const *) a, *(const char * const *) b);
}

/* Where --verbose says it connects to: without the user information, query
 * and fragment of the URL, which can hold keys, and with header names but
 * never their values. */
static void
describe_remote (StewardCliRunner *self)
{
  g_autoptr(GUri) uri = g_uri_parse (self->url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *shown = NULL;
  g_autofree char *clean = NULL;
  g_autofree char *names = NULL;
  g_autofree char *line = NULL;
  g_autofree const char **keys = NULL;
  const char *how;
  guint n_keys;

  if (!self->options->verbose)
    return;

  shown = uri ? g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_QUERY |
                                              G_URI_HIDE_FRAGMENT)
              : g_strdup (self->url);
  clean = steward_cli_sanitize (shown, FALSE);

  switch (self->kind)
    {
    case MCP_HTTP_KIND_STREAMABLE:
      how = _("with the Streamable HTTP transport");
      break;

    case MCP_HTTP_KIND_SSE:
      how = _("with the legacy HTTP+SSE transport");
      break;

    case MCP_HTTP_KIND_AUTO:
    default:
      how = _("with Streamable HTTP, or the legacy HTTP+SSE transport if it is refused");
      break;
    }

  keys = (const char **) g_hash_table_get_keys_as_array (self->headers, &n_keys);
  qsort (keys, n_keys, sizeof (char *), compare_names);
  names = g_strjoinv (", ", (char **) keys);

  if (n_keys > 0)
    line = g_strdup_printf (_("[connect] %s %s; headers (values not shown): %s\n"), clean, how,
                            names);
  else
    line = g_strdup_printf (_("[connect] %s %s\n"), clean, how);
  steward_cli_print_err (line);
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
  g_clear_pointer (&self->headers, g_hash_table_unref);
  g_clear_object (&self->auth);
  g_clear_pointer (&self->server_env, g_hash_table_unref);
  g_clear_pointer (&self->server_headers, g_hash_table_unref);
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
  g_clear_pointer (&self->stderr_lines, g_ptr_array_unref);
  g_free (self->url);

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
  self->stderr_lines = g_ptr_array_new_with_free_func (g_free);
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
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  g_return_val_if_fail (STEWARD_IS_CLI_RUNNER (self), STEWARD_CLI_EXIT_USAGE);
  g_return_val_if_fail (self->client == NULL, STEWARD_CLI_EXIT_USAGE);

  options = self->options;

  if (options->url != NULL)
    {
      self->url = g_strdup (options->url);
      self->headers = g_hash_table_ref (options->headers);
      self->kind = options->transport;
    }
  else
    {
      server = resolve_server (self, &error);
      if (server == NULL || !resolve_secrets (self, server, &error) ||
          !resolve_remote (self, server, &error))
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_USAGE;
        }
    }

  if (!create_delegate (self, &error))
    {
      steward_cli_complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  if (self->url == NULL)
    {
      transport = create_stdio_transport (self, server, &error);
      if (transport == NULL && g_error_matches (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED))
        {
          steward_cli_complain (_("cannot start server: %s"), error->message);
          return STEWARD_CLI_EXIT_CONNECTION;
        }
      if (transport == NULL)
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_CONNECTION;
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    self->signal_sources[i] = g_unix_signal_add (signals[i], interrupted_cb, self);

  if (self->url != NULL && !g_hash_table_contains (self->headers, "Authorization"))
    {
      self->auth = steward_cli_auth_new (options, self->url, &error);
      if (self->auth == NULL)
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_USAGE;
        }

      /* A server of the servers file stays signed in between runs. */
      if (options->server_name != NULL)
        {
          g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
          g_autoptr(StewardAuthStore) store = steward_auth_store_new (secrets);

          steward_cli_auth_set_store (self->auth, store);
        }
    }

  if (self->url != NULL)
    {
      describe_remote (self);
      mcp_connect_http_async (self->url, self->headers, self->kind, setup_client, self,
                              self->cancellable, connect_http_cb, g_object_ref (self));
    }
  else
    {
      g_autoptr(McpClient) client = mcp_client_new (transport);

      setup_client (client, self);
      mcp_client_connect_async (client, self->cancellable, connect_cb, g_object_ref (self));
    }

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

  g_log_set_writer_func (steward_cli_log_writer, NULL, NULL);

  options = steward_cli_options_parse (argc, argv, &error);
  if (options == NULL)
    {
      steward_cli_complain ("%s", error->message);
      steward_cli_print_err (_("Run “steward-cli --help” to see how to use it.\n"));
      return STEWARD_CLI_EXIT_USAGE;
    }

  if (options->show_version)
    {
      steward_cli_print_out ("steward-cli " PACKAGE_VERSION "\n");
      return STEWARD_CLI_EXIT_OK;
    }

  runner = steward_cli_runner_new (g_steal_pointer (&options));
  return steward_cli_runner_run (runner);
}
