/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-conversation-store"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-chat-private.h"
#include "steward-file-store.h"
#include "steward-conversation-store.h"

/* A change is written this long after the last one… */
#define SAVE_DELAY_MS      200
/* …but no later than this after the first one still unwritten. */
#define SAVE_MAX_DELAY_MS  2000
/* Images make conversations large; a file past this is not one of ours. */
#define MAX_FILE_SIZE      (512 * 1024 * 1024)
/* Our own nesting (file → messages → tool calls → arguments) comes on
 * top of what a tool or a model sent, which McpClient already bounds. */
#define MAX_DEPTH          (MCP_JSON_MAX_DEPTH + 16)

/**
 * StewardConversationStore:
 *
 * The conversations on disk and in memory, newest first.
 */

typedef struct {
  StewardConversation *conversation;
  StewardFileStore    *store;         /* made at the first write */
  /* Change numbers (the store counts every change): the last change, and
   * what the last finished and the running write hold. */
  guint64              changed;
  guint64              written;
  guint64              writing_count;
  guint                writing : 1;
  guint                deleted : 1;
} Save;

struct _StewardConversationStore
{
  GObject     parent_instance;

  GFile      *folder;
  GPtrArray  *items;        /* StewardConversation, newest first */
  GHashTable *saves;        /* id → Save */
  guint64     changes;
  guint       deleting;     /* files being deleted */
  guint       save_source;
  gint64      first_pending;
  GList      *flushes;      /* GTask waiting for the change number in its data */
  GError     *flush_error;

  guint       loading : 1;
  guint       loaded : 1;
};

enum {
  PROP_0,
  PROP_LOADED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_LOAD_FAILED,
  SIGNAL_SAVE_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void steward_conversation_store_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardConversationStore, steward_conversation_store,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_conversation_store_list_model_init))

static GType
steward_conversation_store_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_CONVERSATION;
}

static guint
steward_conversation_store_get_n_items (GListModel *model)
{
  return STEWARD_CONVERSATION_STORE (model)->items->len;
}

static gpointer
steward_conversation_store_get_item (GListModel *model,
                                     guint       position)
{
  StewardConversationStore *self = STEWARD_CONVERSATION_STORE (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
steward_conversation_store_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_conversation_store_get_item_type;
  iface->get_n_items = steward_conversation_store_get_n_items;
  iface->get_item = steward_conversation_store_get_item;
}

static void
save_free (Save *save)
{
  g_clear_object (&save->conversation);
  g_clear_object (&save->store);
  g_free (save);
}

static gboolean
is_valid_id (const char *id)
{
  if (id == NULL || *id == '\0' || strlen (id) > 128)
    return FALSE;

  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
      return FALSE;

  return TRUE;
}

static GFile *
file_for (StewardConversationStore *self,
          const char               *id)
{
  g_autofree char *name = g_strconcat (id, ".json", NULL);

  return g_file_get_child (self->folder, name);
}

/* Where a conversation updated at @updated goes: after every newer one. */
static guint
position_for (StewardConversationStore *self,
              gint64                    updated,
              StewardConversation      *skip)
{
  guint position = 0;

  for (guint i = 0; i < self->items->len; i++)
    {
      StewardConversation *other = g_ptr_array_index (self->items, i);

      if (other == skip)
        continue;
      if (steward_conversation_get_updated (other) < updated)
        break;
      position++;
    }

  return position;
}

/* Saving */

static void schedule_save (StewardConversationStore *self);
static void write_save (StewardConversationStore *self,
                        Save                     *save);

static gboolean
flush_done (StewardConversationStore *self,
            guint64                   target)
{
  GHashTableIter iter;
  gpointer value;

  if (self->deleting > 0)
    return FALSE;

  g_hash_table_iter_init (&iter, self->saves);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Save *save = value;

      if (save->writing || save->written < MIN (save->changed, target))
        return FALSE;
    }

  return TRUE;
}

static void
wake_flushes (StewardConversationStore *self)
{
  GList *flushes = self->flushes;

  self->flushes = NULL;
  for (GList *l = flushes; l != NULL; l = l->next)
    {
      GTask *task = l->data;
      guint64 target = *(guint64 *) g_task_get_task_data (task);

      if (!flush_done (self, target))
        {
          self->flushes = g_list_append (self->flushes, task);
          continue;
        }

      if (self->flush_error != NULL)
        g_task_return_error (task, g_error_copy (self->flush_error));
      else
        g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
  g_list_free (flushes);

  if (self->flushes == NULL)
    g_clear_error (&self->flush_error);
}

/* Worker tasks have no source object: the worker's reference to its task
 * may be dropped after the callback ran, and must not keep the store
 * alive then. The callback's data holds it instead, so that a write under
 * way ends even if the store is dropped meanwhile. */
typedef struct {
  StewardConversationStore *self;
  char                     *id;
} Job;

static Job *
job_new (StewardConversationStore *self,
         const char               *id)
{
  Job *job = g_new0 (Job, 1);

  job->self = g_object_ref (self);
  job->id = g_strdup (id);
  return job;
}

static void
job_free (Job *job)
{
  g_clear_object (&job->self);
  g_free (job->id);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, job_free)

static void
delete_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GFile *file = task_data;
  GError *error = NULL;

  if (!g_file_delete (file, NULL, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_task_return_error (task, error);
  else
    {
      g_clear_error (&error);
      g_task_return_boolean (task, TRUE);
    }
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_debug ("A deleted conversation's file stays: %s", error->message);

  job->self->deleting--;
  wake_flushes (job->self);
}

static void
delete_file (StewardConversationStore *self,
             const char               *id)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, delete_cb, job_new (self, id));

  g_task_set_source_tag (task, delete_file);
  self->deleting++;
  g_task_set_task_data (task, file_for (self, id), g_object_unref);
  g_task_run_in_thread (task, delete_thread);
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  StewardConversationStore *self = job->self;
  g_autoptr(GError) error = NULL;
  Save *save = g_hash_table_lookup (self->saves, job->id);
  gboolean ok = steward_file_store_flush_finish (STEWARD_FILE_STORE (object), result, &error);

  if (save == NULL)
    return;

  save->writing = FALSE;

  if (!ok)
    {
      if (self->flush_error == NULL)
        self->flush_error = g_error_copy (error);
      /* It counts as written, or a flush would wait for ever; the next
       * change tries again. */
      save->written = save->writing_count;
      if (!save->deleted)
        g_signal_emit (self, signals[SIGNAL_SAVE_FAILED], 0, save->conversation, error->message);
    }
  else
    {
      save->written = save->writing_count;
    }

  if (save->deleted)
    {
      delete_file (self, job->id);
      g_hash_table_remove (self->saves, job->id);
    }
  else if (save->written < save->changed)
    {
      /* A flush waiting for it should not wait for the timer too. */
      if (self->flushes != NULL)
        write_save (self, save);
      else
        schedule_save (self);
    }

  wake_flushes (self);
}

static void
write_save (StewardConversationStore *self,
            Save                     *save)
{
  const char *id = steward_conversation_get_id (save->conversation);
  g_autoptr(JsonNode) root = NULL;

  if (save->writing || save->deleted || save->written >= save->changed)
    return;

  save->writing = TRUE;
  save->writing_count = save->changed;

  if (save->store == NULL)
    {
      g_autoptr(GFile) file = file_for (self, id);

      save->store = steward_file_store_new (file, MAX_FILE_SIZE, STEWARD_FILE_STORE_PRIVATE);
    }

  /* The snapshot shares nothing with the conversation, which goes on
   * changing while the store's worker turns it into text. */
  root = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (root, steward_conversation_to_json (save->conversation));
  steward_file_store_save_json (save->store, root);
  steward_file_store_flush_async (save->store, NULL, write_cb, job_new (self, id));
}

static void
write_pending (StewardConversationStore *self)
{
  GHashTableIter iter;
  gpointer value;

  g_clear_handle_id (&self->save_source, g_source_remove);
  self->first_pending = 0;

  g_hash_table_iter_init (&iter, self->saves);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    write_save (self, value);
}

static gboolean
save_timeout_cb (gpointer user_data)
{
  StewardConversationStore *self = user_data;

  self->save_source = 0;
  write_pending (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_save (StewardConversationStore *self)
{
  gint64 now = g_get_monotonic_time ();

  if (self->save_source != 0)
    {
      /* Changes that keep coming postpone the write, up to a point. */
      if (now - self->first_pending >= SAVE_MAX_DELAY_MS * 1000)
        return;
      g_clear_handle_id (&self->save_source, g_source_remove);
    }
  else
    {
      self->first_pending = now;
    }

  self->save_source = g_timeout_add (SAVE_DELAY_MS, save_timeout_cb, self);
}

static void
conversation_changed_cb (StewardConversationStore *self,
                         StewardConversation      *conversation)
{
  Save *save = g_hash_table_lookup (self->saves, steward_conversation_get_id (conversation));

  if (save == NULL || save->deleted)
    return;

  save->changed = ++self->changes;
  schedule_save (self);
}

static void
conversation_updated_cb (StewardConversationStore *self,
                         GParamSpec               *pspec,
                         StewardConversation      *conversation)
{
  guint old_position;
  guint new_position;

  if (!g_ptr_array_find (self->items, conversation, &old_position))
    return;

  new_position = position_for (self, steward_conversation_get_updated (conversation),
                               conversation);
  if (new_position == old_position)
    return;

  g_object_ref (conversation);
  g_ptr_array_remove_index (self->items, old_position);
  g_list_model_items_changed (G_LIST_MODEL (self), old_position, 1, 0);
  g_ptr_array_insert (self->items, new_position, conversation);
  g_list_model_items_changed (G_LIST_MODEL (self), new_position, 0, 1);
}

/* Adds @conversation to the saves and watches it; not to the list. */
static Save *
adopt (StewardConversationStore *self,
       StewardConversation      *conversation)
{
  Save *save = g_new0 (Save, 1);

  save->conversation = g_object_ref (conversation);
  g_hash_table_replace (self->saves, g_strdup (steward_conversation_get_id (conversation)), save);
  g_signal_connect_object (conversation, "changed", G_CALLBACK (conversation_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (conversation, "notify::updated",
                           G_CALLBACK (conversation_updated_cb), self, G_CONNECT_SWAPPED);

  return save;
}

/* Loading */

typedef struct {
  GFile *folder;
  GPtrArray *conversations;   /* StewardConversation */
  GPtrArray *failed_files;    /* GFile */
  GPtrArray *failed_reasons;  /* char * */
} Load;

static void
load_free (Load *load)
{
  g_clear_object (&load->folder);
  g_ptr_array_unref (load->conversations);
  g_ptr_array_unref (load->failed_files);
  g_ptr_array_unref (load->failed_reasons);
  g_free (load);
}

static StewardConversation *
load_one (GFile       *file,
          const char  *id,
          GError     **error)
{
  g_autoptr(JsonObject) top = NULL;

  top = steward_file_store_read_object_with_depth (file, MAX_FILE_SIZE, MAX_DEPTH, NULL, error);
  if (top == NULL)
    return NULL;

  /* The name is where it is saved again, so the name is the id. */
  json_object_set_string_member (top, "id", id);

  return steward_conversation_new_from_json (top, error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  g_autoptr(GFileEnumerator) children = NULL;
  g_autoptr(GError) error = NULL;

  children = g_file_enumerate_children (load->folder,
                                        G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                        cancellable, &error);
  if (children == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  for (;;)
    {
      GFileInfo *info;
      GFile *child;
      const char *name;
      g_autofree char *id = NULL;
      g_autoptr(GError) local_error = NULL;
      StewardConversation *conversation;

      if (!g_file_enumerator_iterate (children, &info, &child, cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      if (info == NULL)
        break;

      name = g_file_info_get_name (info);
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR ||
          !g_str_has_suffix (name, ".json"))
        continue;

      id = g_strndup (name, strlen (name) - strlen (".json"));
      if (!is_valid_id (id))
        continue;

      conversation = load_one (child, id, &local_error);
      if (conversation != NULL)
        {
          g_ptr_array_add (load->conversations, conversation);
          continue;
        }

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        continue;

      /* A file that could not even be read may be fine: it stays where
       * it is. Nothing writes over it, as new conversations take new,
       * random ids. */
      if (local_error->domain == G_IO_ERROR &&
          !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
        {
          g_ptr_array_add (load->failed_files, g_object_ref (child));
          g_ptr_array_add (load->failed_reasons, g_strdup (local_error->message));
          continue;
        }

      {
        g_autoptr(GError) move_error = NULL;
        g_autoptr(GFile) aside = steward_file_store_move_aside (child, NULL, &move_error);
        g_autofree char *aside_name = aside != NULL ? g_file_get_parse_name (aside) : NULL;

        g_ptr_array_add (load->failed_files, g_object_ref (child));
        if (aside_name != NULL)
          /* Translators: the first %s is what is wrong with a conversation
           * file, the second where it was moved. */
          g_ptr_array_add (load->failed_reasons,
                           g_strdup_printf (_("%s. It was moved to %s."), local_error->message,
                                            aside_name));
        else
          g_ptr_array_add (load->failed_reasons,
                           g_strdup_printf (_("%s. It could not be moved aside (%s) and stays "
                                              "where it is; Steward does not write over it."),
                                            local_error->message, move_error->message));
      }
    }

  g_task_return_boolean (task, TRUE);
}

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  gint64 ua = steward_conversation_get_updated (*(StewardConversation **) a);
  gint64 ub = steward_conversation_get_updated (*(StewardConversation **) b);

  return ua < ub ? 1 : ua > ub ? -1 : 0;
}

/* GObject */

static void
steward_conversation_store_dispose (GObject *object)
{
  StewardConversationStore *self = STEWARD_CONVERSATION_STORE (object);

  g_clear_handle_id (&self->save_source, g_source_remove);
  if (self->saves != NULL)
    g_hash_table_remove_all (self->saves);
  if (self->items != NULL)
    g_ptr_array_set_size (self->items, 0);

  G_OBJECT_CLASS (steward_conversation_store_parent_class)->dispose (object);
}

static void
steward_conversation_store_finalize (GObject *object)
{
  StewardConversationStore *self = STEWARD_CONVERSATION_STORE (object);

  g_clear_object (&self->folder);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->saves, g_hash_table_unref);
  g_clear_error (&self->flush_error);

  G_OBJECT_CLASS (steward_conversation_store_parent_class)->finalize (object);
}

static void
steward_conversation_store_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  StewardConversationStore *self = STEWARD_CONVERSATION_STORE (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_conversation_store_class_init (StewardConversationStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_conversation_store_dispose;
  object_class->finalize = steward_conversation_store_finalize;
  object_class->get_property = steward_conversation_store_get_property;

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardConversationStore::load-failed:
   * @file: the conversation file that could not be loaded (where it was)
   * @message: why, and where the file is now
   */
  signals[SIGNAL_LOAD_FAILED] =
    g_signal_new ("load-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_STRING);

  /**
   * StewardConversationStore::save-failed:
   * @conversation: the conversation that could not be written
   * @message: why
   */
  signals[SIGNAL_SAVE_FAILED] =
    g_signal_new ("save-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, STEWARD_TYPE_CONVERSATION, G_TYPE_STRING);
}

static void
steward_conversation_store_init (StewardConversationStore *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->saves = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) save_free);
}

/* Public API */

/**
 * steward_conversation_store_new:
 * @folder: where the conversation files live
 */
StewardConversationStore *
steward_conversation_store_new (GFile *folder)
{
  StewardConversationStore *self;

  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  self = g_object_new (STEWARD_TYPE_CONVERSATION_STORE, NULL);
  self->folder = g_object_ref (folder);

  return self;
}

GFile *
steward_conversation_store_get_folder (StewardConversationStore *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION_STORE (self), NULL);

  return self->folder;
}

gboolean
steward_conversation_store_get_loaded (StewardConversationStore *self)
{
  g_return_val_if_fail (STEWARD_IS_CONVERSATION_STORE (self), FALSE);

  return self->loaded;
}

static void
load_done (StewardConversationStore *self,
           Load                     *load)
{
  guint before = self->items->len;

  /* Conversations made while loading stay; the files add the rest. */
  for (guint i = 0; i < load->conversations->len; i++)
    {
      StewardConversation *conversation = g_ptr_array_index (load->conversations, i);

      if (g_hash_table_contains (self->saves, steward_conversation_get_id (conversation)))
        continue;
      adopt (self, conversation);
      g_ptr_array_add (self->items, g_object_ref (conversation));
    }

  g_ptr_array_sort (self->items, compare_newest_first);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, before, self->items->len);
  /* The worker may drop its task last; what it holds goes now, here. */
  g_ptr_array_set_size (load->conversations, 0);

  for (guint i = 0; i < load->failed_files->len; i++)
    g_signal_emit (self, signals[SIGNAL_LOAD_FAILED], 0,
                   g_ptr_array_index (load->failed_files, i),
                   g_ptr_array_index (load->failed_reasons, i));

  self->loading = FALSE;
  self->loaded = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardConversationStore *self = g_task_get_source_object (task);
  GTask *inner = G_TASK (result);
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (inner, &error))
    {
      self->loading = FALSE;
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  load_done (self, g_task_get_task_data (inner));
  g_task_return_boolean (task, TRUE);
}

/**
 * steward_conversation_store_load_async:
 *
 * Reads every conversation file on a worker and adds them to the list,
 * newest first. A damaged file is moved aside and reported with
 * "load-failed"; the load itself fails only when the folder cannot be
 * read (a missing folder is an empty one).
 */
void
steward_conversation_store_load_async (StewardConversationStore *self,
                                       GCancellable             *cancellable,
                                       GAsyncReadyCallback       callback,
                                       gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) inner = NULL;
  Load *load;

  g_return_if_fail (STEWARD_IS_CONVERSATION_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_conversation_store_load_async);

  if (self->loading || self->loaded)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The conversations are loaded once"));
      return;
    }
  self->loading = TRUE;

  load = g_new0 (Load, 1);
  load->folder = g_object_ref (self->folder);
  load->conversations = g_ptr_array_new_with_free_func (g_object_unref);
  load->failed_files = g_ptr_array_new_with_free_func (g_object_unref);
  load->failed_reasons = g_ptr_array_new_with_free_func (g_free);

  /* The worker's own task, with no source object (see Job): its data is
   * only read back on the main thread, once the worker is done with it. */
  inner = g_task_new (NULL, cancellable, load_cb, g_steal_pointer (&task));
  g_task_set_source_tag (inner, load_thread);
  g_task_set_task_data (inner, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (inner, load_thread);
}

gboolean
steward_conversation_store_load_finish (StewardConversationStore  *self,
                                        GAsyncResult              *result,
                                        GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * steward_conversation_store_create:
 *
 * Returns: (transfer none): a new, empty conversation, first in the list
 */
StewardConversation *
steward_conversation_store_create (StewardConversationStore *self)
{
  g_autoptr(StewardConversation) conversation = NULL;
  Save *save;

  g_return_val_if_fail (STEWARD_IS_CONVERSATION_STORE (self), NULL);

  conversation = steward_conversation_new (NULL);
  save = adopt (self, conversation);
  g_ptr_array_insert (self->items, 0, g_object_ref (conversation));
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, 1);

  save->changed = ++self->changes;
  schedule_save (self);

  return conversation;
}

/**
 * steward_conversation_store_delete:
 *
 * Takes @conversation out of the list and deletes its file.
 */
void
steward_conversation_store_delete (StewardConversationStore *self,
                                   StewardConversation      *conversation)
{
  const char *id;
  guint position;
  Save *save;

  g_return_if_fail (STEWARD_IS_CONVERSATION_STORE (self));
  g_return_if_fail (STEWARD_IS_CONVERSATION (conversation));

  id = steward_conversation_get_id (conversation);
  save = g_hash_table_lookup (self->saves, id);
  if (save == NULL || save->conversation != conversation || save->deleted)
    return;

  g_signal_handlers_disconnect_by_data (conversation, self);

  if (g_ptr_array_find (self->items, conversation, &position))
    {
      /* Keep it alive until the views have heard that it left. */
      g_object_ref (conversation);
      g_ptr_array_remove_index (self->items, position);
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
      g_object_unref (conversation);
    }

  /* A write under way would make the file again; the delete waits. */
  if (save->writing)
    {
      save->deleted = TRUE;
      return;
    }

  delete_file (self, id);
  g_hash_table_remove (self->saves, id);
  wake_flushes (self);
}

/**
 * steward_conversation_store_lookup:
 *
 * Returns: (transfer none) (nullable): the conversation with @id
 */
StewardConversation *
steward_conversation_store_lookup (StewardConversationStore *self,
                                   const char               *id)
{
  Save *save;

  g_return_val_if_fail (STEWARD_IS_CONVERSATION_STORE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  save = g_hash_table_lookup (self->saves, id);
  return save != NULL && !save->deleted ? save->conversation : NULL;
}

/**
 * steward_conversation_store_flush_async:
 *
 * Writes every change now, and finishes once all of them made before the
 * call are on disk, or with the first error a write met meanwhile.
 */
void
steward_conversation_store_flush_async (StewardConversationStore *self,
                                        GCancellable             *cancellable,
                                        GAsyncReadyCallback       callback,
                                        gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;
  guint64 *target;

  g_return_if_fail (STEWARD_IS_CONVERSATION_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_conversation_store_flush_async);

  write_pending (self);

  if (flush_done (self, self->changes))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  target = g_new (guint64, 1);
  *target = self->changes;
  g_task_set_task_data (task, target, g_free);
  self->flushes = g_list_append (self->flushes, g_steal_pointer (&task));
}

gboolean
steward_conversation_store_flush_finish (StewardConversationStore  *self,
                                         GAsyncResult              *result,
                                         GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
