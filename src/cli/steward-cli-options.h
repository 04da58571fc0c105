/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-connect.h"
#include "mcp-revision.h"

G_BEGIN_DECLS

/**
 * StewardCliExit:
 *
 * What steward-cli exits with; `--help` lists them for scripts.
 */
typedef enum {
  STEWARD_CLI_EXIT_OK          = 0,
  STEWARD_CLI_EXIT_USAGE       = 2,
  STEWARD_CLI_EXIT_CONNECTION  = 3,
  STEWARD_CLI_EXIT_PROTOCOL    = 4,
  STEWARD_CLI_EXIT_TOOL_ERROR  = 5,
  STEWARD_CLI_EXIT_INTERRUPTED = 130,
} StewardCliExit;

typedef enum {
  STEWARD_CLI_COMMAND_INFO,
  STEWARD_CLI_COMMAND_TOOLS_LIST,
  STEWARD_CLI_COMMAND_TOOLS_CALL,
  STEWARD_CLI_COMMAND_RESOURCES_LIST,
  STEWARD_CLI_COMMAND_RESOURCES_TEMPLATES,
  STEWARD_CLI_COMMAND_RESOURCES_READ,
  STEWARD_CLI_COMMAND_RESOURCES_SUBSCRIBE,
  STEWARD_CLI_COMMAND_PROMPTS_LIST,
  STEWARD_CLI_COMMAND_PROMPTS_GET,
  STEWARD_CLI_COMMAND_COMPLETE,
  STEWARD_CLI_COMMAND_PING,
  STEWARD_CLI_COMMAND_LOG_LEVEL,
  STEWARD_CLI_COMMAND_TASKS_LIST,
  STEWARD_CLI_COMMAND_TASKS_GET,
  STEWARD_CLI_COMMAND_TASKS_CANCEL,
  STEWARD_CLI_COMMAND_TASKS_RESULT,
  STEWARD_CLI_COMMAND_AUTH_STATUS,
  STEWARD_CLI_COMMAND_AUTH_SIGN_OUT,
  STEWARD_CLI_COMMAND_AUTH_SET_CLIENT,
} StewardCliCommand;

typedef enum {
  STEWARD_CLI_SAMPLING_NONE,
  STEWARD_CLI_SAMPLING_REJECT,
  STEWARD_CLI_SAMPLING_MANUAL,
} StewardCliSampling;

typedef enum {
  STEWARD_CLI_ELICITATION_NONE,
  STEWARD_CLI_ELICITATION_DECLINE,
  STEWARD_CLI_ELICITATION_ACCEPT_DEFAULTS,
  STEWARD_CLI_ELICITATION_MANUAL,
} StewardCliElicitation;

typedef enum {
  STEWARD_CLI_AUTHORIZE_BROWSER,
  STEWARD_CLI_AUTHORIZE_PRINT,
} StewardCliAuthorize;

#define STEWARD_CLI_ERROR (steward_cli_error_quark ())

typedef enum {
  STEWARD_CLI_ERROR_USAGE,
  STEWARD_CLI_ERROR_INVALID_VALUE,
} StewardCliError;

/**
 * StewardCliOptions:
 *
 * The command line, checked: which server, what to do with it, and how.
 */
typedef struct {
  StewardCliCommand       command;
  /* The tool or prompt name, the URI, or the log level the command takes. */
  char                   *operand;

  /* Exactly one of these names the server. */
  char                  **server_argv;
  char                   *server_name;
  char                   *url;
  char                   *config_path;
  char                  **env;
  char                   *cwd;
  /* Start a local server with full access instead of in its sandbox. */
  gboolean                no_sandbox;

  /* A remote server's headers (names compared without case, the last
   * given wins) and transport; with --server they override the file's. */
  GHashTable             *headers;
  McpHttpKind             transport;
  gboolean                transport_given;

  /* Signing in to a remote server that asks for it. */
  StewardCliAuthorize     authorize;
  char                   *client_id;
  char                   *client_secret_file;
  char                   *client_key_file;
  char                   *client_metadata_url;
  gboolean                client_credentials;

  gboolean                json;
  gboolean                verbose;
  guint                   timeout_ms;
  McpRevision             revision;
  char                  **roots;
  StewardCliSampling      sampling;
  StewardCliElicitation   elicitation;

  JsonObject             *arguments;
  /* tools call: as a task, followed to its end. */
  gboolean                task;
  guint                   count;

  /* complete: "ref/prompt" or "ref/resource", and what it names. */
  const char             *ref_type;
  char                   *ref_name;
  char                   *argument_name;
  char                   *argument_value;
  JsonObject             *context;

  gboolean                show_version;
} StewardCliOptions;

GQuark              steward_cli_error_quark    (void);

StewardCliOptions  *steward_cli_options_parse  (int                  argc,
                                                char               **argv,
                                                GError             **error);
void                steward_cli_options_free   (StewardCliOptions   *options);
JsonObject         *steward_cli_parse_json_object (const char         *text,
                                                   const char         *option,
                                                   GError            **error);
GHashTable         *steward_cli_headers_new    (void);
gboolean            steward_cli_check_header   (const char          *where,
                                                const char          *name,
                                                const char          *value,
                                                GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StewardCliOptions, steward_cli_options_free)

G_END_DECLS
