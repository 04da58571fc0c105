/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-task-list"

#include "config.h"

#include <string.h>

#include "mcp-client-tasks.h"
#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-json-private.h"
#include "mcp-related-task.h"
#include "steward-approvals.h"
#include "steward-server-registry.h"
#include "steward-redactor.h"
#include "steward-task-list.h"

/* Finished tasks kept in the list and the journal; running ones always. */
#define MAX_FINISHED      50
/* Changes within this long go to disk in one write. */
#define SAVE_DELAY_MS     300

struct _StewardTaskEntry
{
  GObject    parent_instance;

  char      *server_name;
  McpTask   *task;
  GDateTime *started;
  GDateTime *finished;
  gboolean   following;
  GPtrArray *questions;   /* StewardApproval raised for the task, unanswered */
};

G_DEFINE_FINAL_TYPE (StewardTaskEntry, steward_task_entry, G_TYPE_OBJECT)

enum {
  ENTRY_CHANGED,
  N_ENTRY_SIGNALS
};

static guint entry_signals[N_ENTRY_SIGNALS];

static void
steward_task_entry_finalize (GObject *object)
{
  StewardTaskEntry *self = STEWARD_TASK_ENTRY (object);

  g_free (self->server_name);
  g_clear_object (&self->task);
  g_clear_pointer (&self->started, g_date_time_unref);
  g_clear_pointer (&self->finished, g_date_time_unref);
  g_clear_pointer (&self->questions, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_task_entry_parent_class)->finalize (object);
}

static void
steward_task_entry_class_init (StewardTaskEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = steward_task_entry_finalize;

  /**
   * StewardTaskEntry::changed:
   *
   * The task's status, message, progress or outcome changed.
   */
  entry_signals[ENTRY_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                               G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                               G_TYPE_NONE, 0);
}

static void
steward_task_entry_init (StewardTaskEntry *self)
{
  self->questions = g_ptr_array_new_with_free_func (g_object_unref);
}

const char *
steward_task_entry_get_server_name (StewardTaskEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (self), NULL);
  return self->server_name;
}

McpTask *
steward_task_entry_get_task (StewardTaskEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (self), NULL);
  return self->task;
}

GDateTime *
steward_task_entry_get_started (StewardTaskEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (self), NULL);
  return self->started;
}

/* Returns: (nullable): when the task was seen to end */
GDateTime *
steward_task_entry_get_finished (StewardTaskEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (self), NULL);
  return self->finished;
}

/**
 * steward_task_entry_get_question:
 *
 * Returns: (transfer none) (nullable): the oldest sampling or elicitation
 *   request raised for the task that waits for the person, or NULL
 */
StewardApproval *
steward_task_entry_get_question (StewardTaskEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (self), NULL);
  return self->questions->len > 0 ? g_ptr_array_index (self->questions, 0) : NULL;
}

/* Returns: whether a client follows the task now */
gboolean
steward_task_entry_get_following (StewardTaskEntry *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (self), FALSE);
  return self->following;
}

struct _StewardTaskList
{
  GObject                parent_instance;

  StewardServerRegistry *registry;
  GFile                 *journal;
  GPtrArray             *entries;     /* StewardTaskEntry, newest first */
  GCancellable          *cancellable;
  guint                  save_id;
  gboolean               saving;
  gboolean               save_again;
  gboolean               loaded;
};

static void steward_task_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardTaskList, steward_task_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_task_list_model_init))

static GType
list_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_TASK_ENTRY;
}

static guint
list_get_n_items (GListModel *model)
{
  return STEWARD_TASK_LIST (model)->entries->len;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  StewardTaskList *self = STEWARD_TASK_LIST (model);

  if (position >= self->entries->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->entries, position));
}

static void
steward_task_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

/* The journal */

static JsonObject *
entry_to_json (StewardTaskEntry *entry)
{
  McpTask *task = entry->task;
  JsonObject *object = json_object_new ();
  const GError *error = mcp_task_get_error (task);

  json_object_set_string_member (object, "server", entry->server_name);
  json_object_set_string_member (object, "taskId", mcp_task_get_id (task));
  if (mcp_task_get_tool_name (task) != NULL)
    json_object_set_string_member (object, "tool", mcp_task_get_tool_name (task));
  json_object_set_string_member (object, "status",
                                 mcp_task_status_to_string (mcp_task_get_status (task)));
  if (mcp_task_get_status_message (task) != NULL)
    json_object_set_string_member (object, "statusMessage", mcp_task_get_status_message (task));
  json_object_set_int_member (object, "started", g_date_time_to_unix (entry->started));
  if (entry->finished != NULL)
    json_object_set_int_member (object, "finished", g_date_time_to_unix (entry->finished));
  if (mcp_task_get_result (task) != NULL)
    json_object_set_object_member (object, "result",
                                   json_object_ref (mcp_task_get_result (task)));
  if (error != NULL)
    json_object_set_string_member (object, "error", error->message);

  return object;
}

static StewardTaskEntry *
entry_from_json (JsonObject *object)
{
  const char *server = mcp_json_get_string (object, "server");
  const char *id = mcp_json_get_string (object, "taskId");
  const char *status_name = mcp_json_get_string (object, "status");
  const char *message = mcp_json_get_string (object, "statusMessage");
  const char *error_message = mcp_json_get_string (object, "error");
  g_autoptr(StewardTaskEntry) entry = NULL;
  McpTaskStatus status;

  if (server == NULL || id == NULL || !mcp_task_status_from_string (status_name, &status))
    return NULL;

  entry = g_object_new (STEWARD_TYPE_TASK_ENTRY, NULL);
  entry->server_name = g_strdup (server);
  entry->task = mcp_task_new (id, mcp_json_get_string (object, "tool"));
  entry->started = g_date_time_new_from_unix_local ((gint64) mcp_json_get_number (object,
                                                                                  "started", 0));
  if (mcp_json_has_number (object, "finished"))
    entry->finished = g_date_time_new_from_unix_local ((gint64) mcp_json_get_number (object,
                                                                                     "finished",
                                                                                     0));
  if (entry->started == NULL)
    entry->started = g_date_time_new_now_local ();

  if (status == MCP_TASK_FORGOTTEN)
    mcp_task_mark_forgotten (entry->task, message);
  else
    {
      g_autoptr(JsonObject) state = json_object_new ();

      json_object_set_string_member (state, "taskId", id);
      json_object_set_string_member (state, "status", status_name);
      if (message != NULL)
        json_object_set_string_member (state, "statusMessage", message);
      if (!mcp_task_update (entry->task, state, NULL))
        return NULL;
    }

  if (mcp_json_get_object (object, "result") != NULL || error_message != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (error_message != NULL)
        error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR, error_message);
      mcp_task_set_outcome (entry->task, mcp_json_get_object (object, "result"), error);
    }

  return g_steal_pointer (&entry);
}

static void save_now (StewardTaskList *self);

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StewardTaskList) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    g_warning ("Could not keep the list of tasks in %s: %s",
               g_file_peek_path (G_FILE (object)), error->message);

  self->saving = FALSE;
  if (self->save_again)
    {
      self->save_again = FALSE;
      save_now (self);
    }
}

static void
save_now (StewardTaskList *self)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GFile) folder = g_file_get_parent (self->journal);
  JsonArray *tasks = json_array_new ();
  g_autofree char *text = NULL;
  g_autofree char *redacted = NULL;

  /* One write at a time: the next one waits, with everything new in it. */
  if (self->saving)
    {
      self->save_again = TRUE;
      return;
    }

  for (guint i = 0; i < self->entries->len; i++)
    json_array_add_object_element (tasks, entry_to_json (g_ptr_array_index (self->entries, i)));
  json_object_set_int_member (root, "version", 1);
  json_object_set_array_member (root, "tasks", tasks);
  node = json_node_init_object (json_node_alloc (), root);
  text = json_to_string (node, TRUE);

  /* A task's result, status or error may echo a secret, the server's own
   * or one the host gave it; the journal keeps none, as the log keeps
   * none. */
  redacted = steward_redact_if_needed (text, strlen (text));
  if (redacted != NULL)
    {
      g_free (text);
      text = g_steal_pointer (&redacted);
    }

  /* The folder exists once; making it is a single quick call. */
  g_file_make_directory_with_parents (folder, NULL, NULL);

  self->saving = TRUE;
  g_file_replace_contents_async (self->journal, text, strlen (text), NULL, FALSE,
                                 G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION,
                                 NULL, saved_cb, g_object_ref (self));
  /* The contents must outlive the write. */
  g_object_set_data_full (G_OBJECT (self), "steward-task-list-text", g_steal_pointer (&text),
                          g_free);
}

static gboolean
save_timeout_cb (gpointer user_data)
{
  StewardTaskList *self = user_data;

  self->save_id = 0;
  save_now (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_save (StewardTaskList *self)
{
  if (self->save_id == 0 && self->loaded)
    self->save_id = g_timeout_add (SAVE_DELAY_MS, save_timeout_cb, self);
}

/* Entries */

static void
prune (StewardTaskList *self)
{
  guint finished = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardTaskEntry *entry = g_ptr_array_index (self->entries, i);

      if (!mcp_task_is_terminal (entry->task) || ++finished <= MAX_FINISHED)
        continue;

      g_ptr_array_remove_index (self->entries, i);
      g_list_model_items_changed (G_LIST_MODEL (self), i, 1, 0);
      i--;
    }
}

static void
task_changed_cb (McpTask          *task,
                 StewardTaskEntry *entry)
{
  StewardTaskList *self = g_object_get_data (G_OBJECT (entry), "steward-task-list");

  if (mcp_task_is_terminal (task) && entry->finished == NULL)
    entry->finished = g_date_time_new_now_local ();

  g_signal_emit (entry, entry_signals[ENTRY_CHANGED], 0);
  if (self != NULL)
    schedule_save (self);
}

static void
add_entry (StewardTaskList  *self,
           StewardTaskEntry *entry,
           gboolean          at_end)
{
  g_object_set_data (G_OBJECT (entry), "steward-task-list", self);
  g_signal_connect_object (entry->task, "changed", G_CALLBACK (task_changed_cb), entry, 0);

  if (at_end)
    {
      g_ptr_array_add (self->entries, g_object_ref (entry));
      g_list_model_items_changed (G_LIST_MODEL (self), self->entries->len - 1, 0, 1);
    }
  else
    {
      g_ptr_array_insert (self->entries, 0, g_object_ref (entry));
      g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, 1);
    }

  prune (self);
  schedule_save (self);
}

static StewardTaskEntry *
find_entry (StewardTaskList *self,
            const char      *server_name,
            const char      *task_id)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardTaskEntry *entry = g_ptr_array_index (self->entries, i);

      if (g_str_equal (entry->server_name, server_name) &&
          g_str_equal (mcp_task_get_id (entry->task), task_id))
        return entry;
    }

  return NULL;
}

/* Questions: a server's request that names one of its tasks joins the
 * task's entry until it is answered, and the approval learns the task. */

static void
question_finished_cb (StewardApproval  *approval,
                      GParamSpec       *pspec,
                      StewardTaskEntry *entry)
{
  if (!steward_approval_get_finished (approval))
    return;

  g_signal_handlers_disconnect_by_data (approval, entry);
  if (g_ptr_array_remove (entry->questions, approval))
    g_signal_emit (entry, entry_signals[ENTRY_CHANGED], 0);
}

static void
approval_added_cb (StewardApprovals *approvals,
                   StewardApproval  *approval,
                   StewardTaskList  *self)
{
  StewardApprovalKind kind = steward_approval_get_kind (approval);
  const char *task_id;
  StewardTaskEntry *entry;

  if (kind != STEWARD_APPROVAL_KIND_SAMPLING && kind != STEWARD_APPROVAL_KIND_ELICITATION)
    return;

  /* Only a task of the same server: a server cannot hang its question
   * on another server's task. */
  task_id = mcp_related_task_get_id (steward_approval_get_request (approval));
  if (task_id == NULL ||
      (entry = find_entry (self, steward_approval_get_server (approval), task_id)) == NULL)
    return;

  steward_approval_set_task (approval, task_id, mcp_task_get_tool_name (entry->task),
                             entry->started);
  if (steward_approval_get_finished (approval))
    return;

  g_ptr_array_add (entry->questions, g_object_ref (approval));
  g_signal_connect_object (approval, "notify::finished", G_CALLBACK (question_finished_cb),
                           entry, 0);
  g_signal_emit (entry, entry_signals[ENTRY_CHANGED], 0);
}

/* Following */

static void
resumed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(StewardTaskEntry) entry = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = mcp_client_follow_task_finish (MCP_CLIENT (object), result, &error);
  entry->following = FALSE;
  if (error != NULL)
    g_debug ("following task %s of %s ended: %s", mcp_task_get_id (entry->task),
             entry->server_name, error->message);
  g_signal_emit (entry, entry_signals[ENTRY_CHANGED], 0);
}

typedef struct {
  GWeakRef  list;
  char     *server_name;
} Watch;

static void
watch_free (gpointer data,
            GClosure *closure)
{
  Watch *watch = data;

  g_weak_ref_clear (&watch->list);
  g_free (watch->server_name);
  g_free (watch);
}

static void
followed_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     Watch      *watch)
{
  g_autoptr(StewardTaskList) self = g_weak_ref_get (&watch->list);

  if (self == NULL)
    return;

  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(McpTask) task = g_list_model_get_item (model, i);
      StewardTaskEntry *known = find_entry (self, watch->server_name, mcp_task_get_id (task));
      g_autoptr(StewardTaskEntry) entry = NULL;

      /* A journalled task the client resumes is the entry's own. */
      if (known != NULL)
        continue;

      entry = g_object_new (STEWARD_TYPE_TASK_ENTRY, NULL);
      entry->server_name = g_strdup (watch->server_name);
      entry->task = g_object_ref (task);
      entry->started = g_date_time_new_now_local ();
      entry->following = !mcp_task_is_terminal (task);
      add_entry (self, entry, FALSE);
    }
}

/* A client that is ready follows again the tasks of its server that have
 * not ended and that no client follows now. */
static void
resume_for_server (StewardTaskList *self,
                   StewardServer   *server)
{
  McpClient *client = steward_server_get_client (server);
  const char *name = steward_server_get_name (server);
  GListModel *followed;

  if (client == NULL || steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY)
    return;

  followed = mcp_client_get_followed_tasks (client);
  if (g_object_get_data (G_OBJECT (client), "steward-task-list-watched") == NULL)
    {
      Watch *watch = g_new0 (Watch, 1);

      g_weak_ref_init (&watch->list, self);
      watch->server_name = g_strdup (name);
      g_object_set_data (G_OBJECT (client), "steward-task-list-watched", GINT_TO_POINTER (1));
      g_signal_connect_data (followed, "items-changed", G_CALLBACK (followed_changed_cb), watch,
                             watch_free, 0);
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      StewardTaskEntry *entry = g_ptr_array_index (self->entries, i);
      guint position;

      if (!g_str_equal (entry->server_name, name) || mcp_task_is_terminal (entry->task) ||
          g_list_store_find (G_LIST_STORE (followed), entry->task, &position))
        continue;

      entry->following = TRUE;
      mcp_client_follow_task_async (client, entry->task, self->cancellable, resumed_cb,
                                    g_object_ref (entry));
    }
}

static void
server_status_cb (StewardServer   *server,
                  GParamSpec      *pspec,
                  StewardTaskList *self)
{
  if (self->loaded)
    resume_for_server (self, server);
}

static void
watch_servers (StewardTaskList *self,
               guint            position,
               guint            added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (G_LIST_MODEL (self->registry), i);

      if (g_object_get_data (G_OBJECT (server), "steward-task-list") != NULL)
        continue;
      g_object_set_data (G_OBJECT (server), "steward-task-list", self);
      g_signal_connect_object (server, "notify::status", G_CALLBACK (server_status_cb), self, 0);
      if (self->loaded)
        resume_for_server (self, server);
    }
}

static void
registry_changed_cb (GListModel      *model,
                     guint            position,
                     guint            removed,
                     guint            added,
                     StewardTaskList *self)
{
  watch_servers (self, position, added);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StewardTaskList) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  JsonArray *tasks = NULL;

  if (g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      node = mcp_json_parse (contents, length, &error);
      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        tasks = mcp_json_get_array (json_node_get_object (node), "tasks");
      if (tasks == NULL)
        g_warning ("Ignored the list of tasks in %s: %s", g_file_peek_path (self->journal),
                   error ? error->message : "it holds no list of tasks");
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_warning ("Could not read the list of tasks in %s: %s", g_file_peek_path (self->journal),
               error->message);

  for (guint i = 0; tasks != NULL && i < json_array_get_length (tasks); i++)
    {
      JsonNode *element = json_array_get_element (tasks, i);
      g_autoptr(StewardTaskEntry) entry = NULL;

      if (JSON_NODE_HOLDS_OBJECT (element))
        entry = entry_from_json (json_node_get_object (element));
      if (entry != NULL && find_entry (self, entry->server_name,
                                       mcp_task_get_id (entry->task)) == NULL)
        add_entry (self, entry, TRUE);
    }

  self->loaded = TRUE;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->registry)); i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (G_LIST_MODEL (self->registry), i);

      resume_for_server (self, server);
    }
}

static void
steward_task_list_dispose (GObject *object)
{
  StewardTaskList *self = STEWARD_TASK_LIST (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->save_id, g_source_remove);

  G_OBJECT_CLASS (steward_task_list_parent_class)->dispose (object);
}

static void
steward_task_list_finalize (GObject *object)
{
  StewardTaskList *self = STEWARD_TASK_LIST (object);

  g_clear_object (&self->registry);
  g_clear_object (&self->journal);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_task_list_parent_class)->finalize (object);
}

static void
steward_task_list_class_init (StewardTaskListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_task_list_dispose;
  object_class->finalize = steward_task_list_finalize;
}

static void
steward_task_list_init (StewardTaskList *self)
{
  self->entries = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();
}

/**
 * steward_task_list_new:
 * @journal: the file the tasks are kept in
 */
StewardTaskList *
steward_task_list_new (StewardHost *host,
                       GFile       *journal)
{
  StewardTaskList *self;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);
  g_return_val_if_fail (G_IS_FILE (journal), NULL);

  self = g_object_new (STEWARD_TYPE_TASK_LIST, NULL);
  self->registry = g_object_ref (steward_host_get_registry (host));
  self->journal = g_object_ref (journal);

  g_signal_connect_object (steward_host_get_approvals (host), "added",
                           G_CALLBACK (approval_added_cb), self, 0);

  g_signal_connect_object (self->registry, "items-changed", G_CALLBACK (registry_changed_cb),
                           self, 0);
  watch_servers (self, 0, g_list_model_get_n_items (G_LIST_MODEL (self->registry)));

  g_file_load_contents_async (journal, self->cancellable, loaded_cb, g_object_ref (self));

  return self;
}

/**
 * steward_task_list_get_for_host:
 *
 * Returns: (transfer none): the host's task list, journalled in its state
 *   folder; made on first use
 */
StewardTaskList *
steward_task_list_get_for_host (StewardHost *host)
{
  StewardTaskList *self;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  self = g_object_get_data (G_OBJECT (host), "steward-task-list");
  if (self == NULL)
    {
      g_autoptr(GFile) journal = g_file_get_child (steward_host_get_state_dir (host),
                                                   "tasks.json");

      self = steward_task_list_new (host, journal);
      g_object_set_data_full (G_OBJECT (host), "steward-task-list", self, g_object_unref);
    }

  return self;
}

static void
cancelled_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardTaskEntry) entry = user_data;
  g_autoptr(GError) error = NULL;

  /* The follow sees the task end; a refusal (the task ended first) needs
   * nothing more. */
  if (!mcp_client_cancel_task_finish (MCP_CLIENT (object), result, &error))
    g_debug ("cancelling task %s: %s", mcp_task_get_id (entry->task), error->message);
}

/**
 * steward_task_list_cancel:
 *
 * Asks the task's server to cancel it. Cancelling is cooperative: the
 * entry shows what the server does about it.
 */
void
steward_task_list_cancel (StewardTaskList  *self,
                          StewardTaskEntry *entry)
{
  StewardServer *server;
  McpClient *client;

  g_return_if_fail (STEWARD_IS_TASK_LIST (self));
  g_return_if_fail (STEWARD_IS_TASK_ENTRY (entry));

  server = steward_server_registry_lookup (self->registry, entry->server_name);
  client = server ? steward_server_get_client (server) : NULL;
  if (client == NULL || mcp_task_is_terminal (entry->task))
    return;

  mcp_client_cancel_task_async (client, mcp_task_get_id (entry->task), self->cancellable,
                                cancelled_cb, g_object_ref (entry));
}

/**
 * steward_task_list_flush_async:
 *
 * Writes the journal now, for a host about to quit.
 */
void
steward_task_list_flush_async (StewardTaskList     *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_clear_handle_id (&self->save_id, g_source_remove);
  if (self->loaded)
    save_now (self);
  g_task_return_boolean (task, TRUE);
}

gboolean
steward_task_list_flush_finish (StewardTaskList  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
