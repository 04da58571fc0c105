/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mcp-error.h"

#include "steward-cli-delegate.h"
#include "steward-cli-form.h"
#include "steward-cli-format.h"
#include "steward-cli-output.h"

/**
 * StewardCliDelegate:
 *
 * How steward-cli answers what a server asks of it: roots from `--roots`,
 * sampling and elicitation as `--sampling` and `--elicitation` say. Only
 * what an option turned on is declared to the server. Manual answers are
 * read from the input stream one request at a time, with the questions on
 * stderr.
 */
struct _StewardCliDelegate
{
  GObject                 parent_instance;

  StewardCliSampling      sampling;
  StewardCliElicitation   elicitation;
  GDataInputStream       *input;
  GPtrArray              *roots;

  /* Manual requests take turns at the terminal. */
  GQueue                  waiting;
  GTask                  *active;
};

static void steward_cli_delegate_iface_init (McpClientDelegateInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardCliDelegate, steward_cli_delegate, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_CLIENT_DELEGATE,
                                                      steward_cli_delegate_iface_init))

typedef enum {
  STEP_SAMPLING_ANSWER,
  STEP_ELICIT_CONFIRM,
  STEP_ELICIT_FIELD,
} Step;

typedef struct {
  Step         step;
  JsonObject  *params;
  GString     *answer;
  JsonObject  *schema;
  GPtrArray   *names;     /* of the properties, in order */
  guint        index;
  JsonObject  *content;
} Interaction;

static void
interaction_free (Interaction *interaction)
{
  g_clear_pointer (&interaction->params, json_object_unref);
  if (interaction->answer != NULL)
    g_string_free (interaction->answer, TRUE);
  g_clear_pointer (&interaction->names, g_ptr_array_unref);
  g_clear_pointer (&interaction->content, json_object_unref);
  g_free (interaction);
}

static void run_next (StewardCliDelegate *self);
static void ask_field (StewardCliDelegate *self, GTask *task, gboolean again);

/* Every manual task ends here, so that the next one gets the terminal. */
static void
finish_active (StewardCliDelegate *self,
               JsonObject         *result,
               GError             *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->active);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, json_object_ref (result), (GDestroyNotify) json_object_unref);

  run_next (self);
}

static void
finish_elicit (StewardCliDelegate *self,
               const char         *action,
               JsonObject         *content)
{
  g_autoptr(JsonObject) result = json_object_new ();

  json_object_set_string_member (result, "action", action);
  if (content != NULL)
    json_object_set_object_member (result, "content", json_object_ref (content));

  finish_active (self, result, NULL);
}

static GError *
new_rejection (void)
{
  /* The words and code the specification shows for a refusal. */
  return mcp_error_new_rpc (MCP_ERROR_USER_REJECTED, "User rejected sampling request", NULL);
}

static void
finish_sampling (StewardCliDelegate *self,
                 Interaction        *interaction)
{
  g_autoptr(JsonObject) result = NULL;
  JsonObject *content;

  if (interaction->answer->len == 0)
    {
      steward_cli_print_err (_("No answer was typed; the request is rejected.\n"));
      finish_active (self, NULL, new_rejection ());
      return;
    }

  result = json_object_new ();
  content = json_object_new ();
  json_object_set_string_member (content, "type", "text");
  json_object_set_string_member (content, "text", interaction->answer->str);
  json_object_set_string_member (result, "role", "assistant");
  json_object_set_object_member (result, "content", content);
  json_object_set_string_member (result, "model", "manual");
  json_object_set_string_member (result, "stopReason", "endTurn");

  finish_active (self, result, NULL);
}

static void
handle_line (StewardCliDelegate *self,
             GTask              *task,
             const char         *line)
{
  Interaction *interaction = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;
  JsonNode *field_node;
  JsonObject *field;
  const char *name;

  switch (interaction->step)
    {
    case STEP_SAMPLING_ANSWER:
      if (line == NULL || g_str_equal (line, "."))
        {
          finish_sampling (self, interaction);
          return;
        }
      if (interaction->answer->len > 0)
        g_string_append_c (interaction->answer, '\n');
      g_string_append (interaction->answer, line);
      return;

    case STEP_ELICIT_CONFIRM:
      if (line == NULL || g_ascii_strcasecmp (line, "c") == 0)
        {
          finish_elicit (self, "cancel", NULL);
          return;
        }
      if (g_ascii_strcasecmp (line, "n") == 0)
        {
          finish_elicit (self, "decline", NULL);
          return;
        }
      if (line[0] != '\0' && g_ascii_strcasecmp (line, "y") != 0)
        {
          /* Translators: the person types y, n or c in every language; keep the letters. */
          steward_cli_print_err (_("Type y to answer, n to decline, or c to cancel: "));
          return;
        }
      interaction->step = STEP_ELICIT_FIELD;
      ask_field (self, task, FALSE);
      return;

    case STEP_ELICIT_FIELD:
    default:
      break;
    }

  if (line == NULL)
    {
      steward_cli_print_err (_("\nThe input ended; the request is cancelled.\n"));
      finish_elicit (self, "cancel", NULL);
      return;
    }

  name = g_ptr_array_index (interaction->names, interaction->index);
  field_node = json_object_get_member (json_object_get_object_member (interaction->schema,
                                                                      "properties"), name);
  field = json_node_get_object (field_node);

  if (line[0] == '\0')
    {
      value = steward_cli_form_get_default (field);
      if (value == NULL && steward_cli_form_is_required (interaction->schema, name))
        {
          steward_cli_print_err (_("  This field is required.\n"));
          ask_field (self, task, TRUE);
          return;
        }
    }
  else if ((value = steward_cli_form_parse_value (field, line, &error)) == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("  Not accepted: %s.\n"), error->message);

      steward_cli_print_err (message);
      ask_field (self, task, TRUE);
      return;
    }

  if (value != NULL)
    json_object_set_member (interaction->content, name, g_steal_pointer (&value));

  interaction->index++;
  ask_field (self, task, FALSE);
}

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardCliDelegate *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize length;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                    &length, &error);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Cannot read the answer: %s\n"),
                                                      error->message);

          steward_cli_print_err (message);
        }
      finish_active (self, NULL, g_steal_pointer (&error));
      return;
    }

  if (line != NULL && length > 0 && line[length - 1] == '\r')
    line[length - 1] = '\0';

  handle_line (self, task, line);

  /* Still ours: the interaction wants another line. */
  if (self->active == task)
    g_data_input_stream_read_line_async (self->input, G_PRIORITY_DEFAULT,
                                         g_task_get_cancellable (task), read_line_cb,
                                         g_object_ref (task));
}

/* @again: the answer was refused; the field was described already. */
static void
ask_field (StewardCliDelegate *self,
           GTask              *task,
           gboolean            again)
{
  Interaction *interaction = g_task_get_task_data (task);
  JsonObject *properties = json_object_get_object_member (interaction->schema, "properties");
  g_autofree char *description = NULL;
  g_autofree char *prompt = NULL;
  const char *name;

  if (interaction->index >= interaction->names->len)
    {
      finish_elicit (self, "accept", interaction->content);
      return;
    }

  name = g_ptr_array_index (interaction->names, interaction->index);
  if (!again)
    {
      description = steward_cli_form_describe_field (name,
                                                     json_object_get_object_member (properties,
                                                                                    name),
                                                     steward_cli_form_is_required (
                                                       interaction->schema, name));
      steward_cli_print_err ("\n");
      steward_cli_print_err (description);
    }
  prompt = steward_cli_sanitize (name, FALSE);
  steward_cli_print_err (prompt);
  steward_cli_print_err (": ");
}

static void
start_interaction (StewardCliDelegate *self,
                   GTask              *task)
{
  Interaction *interaction = g_task_get_task_data (task);

  self->active = task;

  if (interaction->step == STEP_SAMPLING_ANSWER)
    {
      g_autofree char *request = steward_cli_format_sampling_request (interaction->params);

      steward_cli_print_err (request);
      steward_cli_print_err (_("Type the answer, then a line holding only “.” (an empty answer "
                               "rejects the request):\n"));
    }
  else
    {
      const char *message = json_object_get_string_member_with_default (interaction->params,
                                                                        "message", "");
      g_autofree char *clean = steward_cli_sanitize (message, TRUE);

      steward_cli_print_err (_("The server asks for information (elicitation):\n"));
      steward_cli_print_err (clean);
      /* Translators: the person types y, n or c in every language; keep the letters. */
      steward_cli_print_err (_("\nAnswer? [Y]es, [n]o to decline, [c] to cancel: "));
    }

  g_data_input_stream_read_line_async (self->input, G_PRIORITY_DEFAULT,
                                       g_task_get_cancellable (task), read_line_cb,
                                       g_object_ref (task));
}

static void
run_next (StewardCliDelegate *self)
{
  GTask *task;

  while (self->active == NULL && (task = g_queue_pop_head (&self->waiting)) != NULL)
    {
      g_autoptr(GTask) owned = task;

      /* The server may have given up on it while it waited. */
      if (g_task_return_error_if_cancelled (owned))
        continue;

      start_interaction (self, g_steal_pointer (&owned));
    }
}

/* The task owns its interaction, which starts at @step. */
static Interaction *
interaction_new (GTask      *task,
                 Step        step,
                 JsonObject *params)
{
  Interaction *interaction = g_new0 (Interaction, 1);

  interaction->step = step;
  interaction->params = json_object_ref (params);
  g_task_set_task_data (task, interaction, (GDestroyNotify) interaction_free);

  return interaction;
}

static void
queue_interaction (StewardCliDelegate *self,
                   GTask              *task)
{
  g_queue_push_tail (&self->waiting, task);
  run_next (self);
}

static McpClientFeatures
steward_cli_delegate_get_features (McpClientDelegate *delegate)
{
  StewardCliDelegate *self = STEWARD_CLI_DELEGATE (delegate);
  McpClientFeatures features = MCP_CLIENT_FEATURE_NONE;

  if (self->roots->len > 0)
    features |= MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED;
  if (self->sampling != STEWARD_CLI_SAMPLING_NONE)
    features |= MCP_CLIENT_FEATURE_SAMPLING;
  if (self->elicitation != STEWARD_CLI_ELICITATION_NONE)
    features |= MCP_CLIENT_FEATURE_ELICITATION_FORM;

  return features;
}

static void
steward_cli_delegate_create_message_async (McpClientDelegate   *delegate,
                                           McpClient           *client,
                                           JsonObject          *params,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  StewardCliDelegate *self = STEWARD_CLI_DELEGATE (delegate);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  Interaction *interaction;

  g_task_set_source_tag (task, steward_cli_delegate_create_message_async);

  if (self->sampling != STEWARD_CLI_SAMPLING_MANUAL)
    {
      g_task_return_error (task, new_rejection ());
      return;
    }

  interaction = interaction_new (task, STEP_SAMPLING_ANSWER, params);
  interaction->answer = g_string_new (NULL);

  queue_interaction (self, g_steal_pointer (&task));
}

static void
steward_cli_delegate_elicit_async (McpClientDelegate   *delegate,
                                   McpClient           *client,
                                   JsonObject          *params,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  StewardCliDelegate *self = STEWARD_CLI_DELEGATE (delegate);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonObject) result = json_object_new ();
  JsonObject *schema = json_object_get_object_member (params, "requestedSchema");
  JsonObject *properties = NULL;
  Interaction *interaction;
  JsonObjectIter iter;
  const char *name;
  JsonNode *field;

  g_task_set_source_tag (task, steward_cli_delegate_elicit_async);

  if (self->elicitation == STEWARD_CLI_ELICITATION_DECLINE)
    {
      json_object_set_string_member (result, "action", "decline");
      g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) json_object_unref);
      return;
    }

  if (self->elicitation == STEWARD_CLI_ELICITATION_ACCEPT_DEFAULTS)
    {
      json_object_set_string_member (result, "action", "accept");
      json_object_set_object_member (result, "content", steward_cli_form_dup_defaults (schema));
      g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) json_object_unref);
      return;
    }

  interaction = interaction_new (task, STEP_ELICIT_CONFIRM, params);
  interaction->schema = schema;
  interaction->names = g_ptr_array_new ();
  interaction->content = json_object_new ();

  if (json_object_has_member (schema, "properties") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (schema, "properties")))
    properties = json_object_get_object_member (schema, "properties");

  if (properties == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               "the requested schema has no \"properties\" object");
      return;
    }

  /* Fields that are not objects cannot be asked for; they are skipped. */
  json_object_iter_init_ordered (&iter, properties);
  while (json_object_iter_next_ordered (&iter, &name, &field))
    if (JSON_NODE_HOLDS_OBJECT (field))
      g_ptr_array_add (interaction->names, (gpointer) name);

  queue_interaction (self, g_steal_pointer (&task));
}

static void
steward_cli_delegate_list_roots_async (McpClientDelegate   *delegate,
                                       McpClient           *client,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  StewardCliDelegate *self = STEWARD_CLI_DELEGATE (delegate);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonObject) result = json_object_new ();
  JsonArray *roots = json_array_new ();

  g_task_set_source_tag (task, steward_cli_delegate_list_roots_async);

  for (guint i = 0; i < self->roots->len; i++)
    {
      GFile *folder = g_ptr_array_index (self->roots, i);
      JsonObject *root = json_object_new ();
      g_autofree char *uri = g_file_get_uri (folder);
      g_autofree char *name = g_file_get_basename (folder);

      json_object_set_string_member (root, "uri", uri);
      json_object_set_string_member (root, "name", name);
      json_array_add_object_element (roots, root);
    }

  json_object_set_array_member (result, "roots", roots);
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) json_object_unref);
}

/* Every answer the delegate gives, whether from the terminal or at once,
 * is a JSON object returned through its task. */
static JsonObject *
steward_cli_delegate_answer_finish (McpClientDelegate  *delegate,
                                    GAsyncResult       *result,
                                    GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_cli_delegate_iface_init (McpClientDelegateInterface *iface)
{
  iface->get_features = steward_cli_delegate_get_features;
  iface->create_message_async = steward_cli_delegate_create_message_async;
  iface->create_message_finish = steward_cli_delegate_answer_finish;
  iface->elicit_async = steward_cli_delegate_elicit_async;
  iface->elicit_finish = steward_cli_delegate_answer_finish;
  iface->list_roots_async = steward_cli_delegate_list_roots_async;
  iface->list_roots_finish = steward_cli_delegate_answer_finish;
}

static void
steward_cli_delegate_dispose (GObject *object)
{
  StewardCliDelegate *self = STEWARD_CLI_DELEGATE (object);

  g_clear_object (&self->input);
  g_clear_pointer (&self->roots, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_cli_delegate_parent_class)->dispose (object);
}

static void
steward_cli_delegate_class_init (StewardCliDelegateClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = steward_cli_delegate_dispose;
}

static void
steward_cli_delegate_init (StewardCliDelegate *self)
{
  self->roots = g_ptr_array_new_with_free_func (g_object_unref);
  g_queue_init (&self->waiting);
}

/**
 * steward_cli_delegate_new:
 * @input: (nullable): where manual answers are read from, usually stdin
 */
StewardCliDelegate *
steward_cli_delegate_new (StewardCliSampling     sampling,
                          StewardCliElicitation  elicitation,
                          GInputStream          *input)
{
  StewardCliDelegate *self = g_object_new (STEWARD_TYPE_CLI_DELEGATE, NULL);

  g_return_val_if_fail (input != NULL || (sampling != STEWARD_CLI_SAMPLING_MANUAL &&
                                          elicitation != STEWARD_CLI_ELICITATION_MANUAL), NULL);

  self->sampling = sampling;
  self->elicitation = elicitation;
  if (input != NULL)
    self->input = g_data_input_stream_new (input);

  return self;
}

/* The components still to walk are a stack: the next one is last. */
static void
push_components (GPtrArray  *stack,
                 const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = g_strv_length (parts); i > 0; i--)
    if (parts[i - 1][0] != '\0' && !g_str_equal (parts[i - 1], "."))
      g_ptr_array_add (stack, g_strdup (parts[i - 1]));
}

/**
 * steward_cli_canonicalize_folder:
 * @path: a folder as typed, relative to the current folder or absolute
 *
 * Resolves @path the way realpath(3) does — `.`, `..` and every symbolic
 * link, one component at a time — so that a root names the real folder.
 *
 * Returns: (transfer full) (nullable): the folder, or %NULL with a usage
 *   error when it does not exist or is not a folder
 */
GFile *
steward_cli_canonicalize_folder (const char  *path,
                                 GError     **error)
{
  g_autoptr(GFile) given = g_file_new_for_commandline_arg (path);
  g_autoptr(GFile) current = g_file_new_for_path ("/");
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *absolute = NULL;
  g_autoptr(GPtrArray) remaining = g_ptr_array_new_with_free_func (g_free);
  guint n_links = 0;

  if (!g_file_is_native (given))
    {
      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--roots: `%s` is not a local folder"), path);
      return NULL;
    }

  /* Not g_file_get_path(): it would fold `link/..` before the link is
   * followed, which is not where realpath() ends up. */
  if (g_path_is_absolute (path))
    absolute = g_strdup (path);
  else if (g_str_has_prefix (path, "file:"))
    absolute = g_file_get_path (given);
  else
    {
      g_autofree char *cwd = g_get_current_dir ();

      absolute = g_build_filename (cwd, path, NULL);
    }
  push_components (remaining, absolute);

  while (remaining->len > 0)
    {
      g_autofree char *name = g_ptr_array_steal_index (remaining, remaining->len - 1);
      g_autoptr(GFile) child = NULL;
      g_autoptr(GFileInfo) child_info = NULL;
      const char *target;

      if (g_str_equal (name, ".."))
        {
          g_autoptr(GFile) parent = g_file_get_parent (current);

          if (parent != NULL)
            g_set_object (&current, parent);
          continue;
        }

      child = g_file_get_child (current, name);
      child_info = g_file_query_info (child,
                                      G_FILE_ATTRIBUTE_STANDARD_IS_SYMLINK ","
                                      G_FILE_ATTRIBUTE_STANDARD_SYMLINK_TARGET,
                                      G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &local_error);
      if (child_info == NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                         _("--roots: `%s` does not exist"), path);
          else
            g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                         _("--roots: cannot look at `%s`: %s"), path, local_error->message);
          return NULL;
        }

      if (!g_file_info_get_is_symlink (child_info))
        {
          g_set_object (&current, child);
          continue;
        }

      if (++n_links > STEWARD_CLI_MAX_SYMLINKS)
        {
          g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                       _("--roots: `%s` goes through too many symbolic links"), path);
          return NULL;
        }

      target = g_file_info_get_symlink_target (child_info);
      if (target != NULL && g_path_is_absolute (target))
        {
          g_autoptr(GFile) root = g_file_new_for_path ("/");

          g_set_object (&current, root);
        }
      if (target != NULL)
        push_components (remaining, target);
    }

  info = g_file_query_info (current, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE,
                            NULL, &local_error);
  if (info == NULL)
    {
      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--roots: cannot look at `%s`: %s"), path, local_error->message);
      return NULL;
    }

  if (g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY)
    {
      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--roots: `%s` is not a folder"), path);
      return NULL;
    }

  return g_steal_pointer (&current);
}

/**
 * steward_cli_delegate_add_root:
 * @path: a folder as typed
 *
 * Offers the canonical form of @path to the server as a root.
 */
gboolean
steward_cli_delegate_add_root (StewardCliDelegate  *self,
                               const char          *path,
                               GError             **error)
{
  GFile *folder;

  g_return_val_if_fail (STEWARD_IS_CLI_DELEGATE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  folder = steward_cli_canonicalize_folder (path, error);
  if (folder == NULL)
    return FALSE;

  g_ptr_array_add (self->roots, folder);
  return TRUE;
}
