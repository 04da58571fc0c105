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
#include "steward-cli-overdue.h"
#include "steward-cli-runner-private.h"
#include "steward-cli-tasks.h"


G_DEFINE_FINAL_TYPE (StewardCliRunner, steward_cli_runner, G_TYPE_OBJECT)

/* As many of a server's last stderr lines as the app keeps. */
#define STDERR_LINES_KEPT 20

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

/* Whether a request's callback has an answer to print: a failure is
 * reported (or starts signing in) here, and once the run is finishing
 * nothing more is printed. */
static gboolean
request_answered (StewardCliRunner *self,
                  gboolean          answered,
                  const GError     *error)
{
  if (!answered)
    {
      fail_request (self, error);
      return FALSE;
    }

  return !self->finishing;
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
      steward_cli_print_json (object, FALSE);
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
      steward_cli_print_json (object, FALSE);
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
  steward_cli_print_json (reply, TRUE);
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
  if (!request_answered (self, items != NULL, error))
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

  steward_cli_print_tool_result (self->tool_result, self->options->json);
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
  if (!request_answered (self, tool_result != NULL, error))
    return;

  if (!mcp_tool_result_get_is_error (tool_result))
    {
      steward_cli_print_tool_result (tool_result, self->options->json);
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
  if (!request_answered (self, contents != NULL, error))
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

  if (!request_answered (self, mcp_client_subscribe_finish (MCP_CLIENT (object), result, &error), error))
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
  if (!request_answered (self, prompt != NULL, error))
    return;

  if (self->options->json)
    steward_cli_print_json (mcp_prompt_result_get_json (prompt), TRUE);
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
  if (!request_answered (self, values != NULL, error))
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
      steward_cli_print_json (reply, TRUE);
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

  if (!request_answered (self, mcp_client_ping_finish (MCP_CLIENT (object), result, &error), error))
    return;

  if (self->options->json)
    {
      g_autoptr(JsonObject) reply = json_object_new ();

      steward_cli_print_json (reply, FALSE);
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

  if (!request_answered (self, mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error), error))
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
      steward_cli_print_json (reply, TRUE);
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
  steward_cli_overdue_watch (client, options->timeout_ms > 0 ? options->timeout_ms
                                                            : MCP_DEFAULT_REQUEST_TIMEOUT_MS);

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
  g_clear_pointer (&self->server_oauth, g_hash_table_unref);
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

  if (options->command == STEWARD_CLI_COMMAND_AUTH_SET_CLIENT)
    return steward_cli_runner_set_client (self);

  if (options->command == STEWARD_CLI_COMMAND_AUTH_STATUS && options->url == NULL &&
      options->server_name == NULL && options->server_argv == NULL)
    return steward_cli_runner_run_auth_all (self);

  if (options->url != NULL)
    {
      self->url = g_strdup (options->url);
      self->headers = g_hash_table_ref (options->headers);
      self->kind = options->transport;
    }
  else
    {
      server = steward_cli_runner_resolve_server (self, &error);
      if (server == NULL || !steward_cli_runner_resolve_secrets (self, server, &error) ||
          !steward_cli_runner_resolve_remote (self, server, &error))
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_USAGE;
        }
    }

  if (options->command == STEWARD_CLI_COMMAND_AUTH_STATUS ||
      options->command == STEWARD_CLI_COMMAND_AUTH_SIGN_OUT)
    return steward_cli_runner_run_auth (self, server);

  if (!steward_cli_runner_create_delegate (self, &error))
    {
      steward_cli_complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  if (self->url == NULL)
    {
      transport = steward_cli_runner_create_stdio_transport (self, server, &error);
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
      const char *secret = self->server_oauth != NULL
                           ? g_hash_table_lookup (self->server_oauth, "clientSecret") : NULL;

      self->auth = steward_cli_auth_new (options, self->url, server, secret, &error);
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
      steward_cli_runner_describe_remote (self);
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
