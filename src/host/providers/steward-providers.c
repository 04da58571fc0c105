/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-providers"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-anthropic-provider.h"
#include "steward-file-store.h"
#include "steward-manual-provider.h"
#include "steward-openai-provider.h"
#include "steward-provider-private.h"
#include "steward-providers.h"

/**
 * StewardProviders:
 *
 * The configured providers, the manual one first. The file is read on a
 * worker and written on one, whole and atomically (a temporary file
 * renamed over the old one), one write at a time: a change made while a
 * write runs is written right after it, so the file always ends up as the
 * list is.
 */

typedef struct {
  char                *id;
  StewardProviderKind  kind;
  char                *name;
  char                *base_url;
  char                *key_id;
  StewardProvider     *provider;
} Entry;

struct _StewardProviders
{
  StewardFileBacked  parent_instance;

  GFile             *file;            /* the base's, borrowed */
  StewardSecrets    *secrets;
  GPtrArray         *entries;         /* Entry, the manual provider first */
  GPtrArray         *kept;            /* JsonNode: entries not understood, written back */
  GCancellable      *cancellable;
  SoupSession       *detect_session;

  /* Writes run on the base's store's worker, one at a time, the newest
   * list last; the error of a failed one waits here for the next flush. */
  StewardFileStore  *store;
  GError            *save_error;
};

static void steward_providers_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardProviders, steward_providers, STEWARD_TYPE_FILE_BACKED,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_providers_list_model_init))

#define FILE_MAX (1024 * 1024)
#define MAX_ID_LENGTH 64
#define MAX_NAME_LENGTH 128
#define MAX_KEY_ID_LENGTH 128
#define OLLAMA_DEFAULT_URL "http://127.0.0.1:11434"
/* Ollama on this computer answers at once or not at all. */
#define DETECT_TIMEOUT_S 1

static void
entry_free (Entry *entry)
{
  g_free (entry->id);
  g_free (entry->name);
  g_free (entry->base_url);
  g_free (entry->key_id);
  g_clear_object (&entry->provider);
  g_free (entry);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Entry, entry_free)

static const char *
kind_to_string (StewardProviderKind kind)
{
  switch (kind)
    {
    case STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE:
      return "openai-compatible";
    case STEWARD_PROVIDER_KIND_ANTHROPIC:
      return "anthropic";
    case STEWARD_PROVIDER_KIND_MANUAL:
    default:
      return "manual";
    }
}

static gboolean
kind_from_string (const char          *text,
                  StewardProviderKind *kind)
{
  if (g_strcmp0 (text, "openai-compatible") == 0)
    *kind = STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE;
  else if (g_strcmp0 (text, "anthropic") == 0)
    *kind = STEWARD_PROVIDER_KIND_ANTHROPIC;
  else
    return FALSE;

  return TRUE;
}

/* Ids become keyring ids and file names: the keyring's alphabet. */
static gboolean
is_valid_id (const char *id,
             gsize       max_length)
{
  gsize length = id != NULL ? strlen (id) : 0;

  if (length == 0 || length > max_length)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (id[i]) && id[i] != '-' && id[i] != '_' && id[i] != '.')
      return FALSE;

  return TRUE;
}

/* Checks and normalises what an entry holds; the same rules for put() and
 * for the file. */
static Entry *
entry_new (const char           *id,
           StewardProviderKind   kind,
           const char           *name,
           const char           *base_url,
           const char           *key_id,
           GError              **error)
{
  g_autoptr(Entry) entry = g_new0 (Entry, 1);
  g_autofree char *clean_name = NULL;

  if (!is_valid_id (id, MAX_ID_LENGTH) || g_str_equal (id, STEWARD_MANUAL_PROVIDER_ID))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A provider’s id must be 1 to %u letters, digits, “-”, “_” or “.”, and "
                     "not “manual”."), MAX_ID_LENGTH);
      return NULL;
    }

  if (kind != STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE && kind != STEWARD_PROVIDER_KIND_ANTHROPIC)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Only OpenAI-compatible and Anthropic providers can be added; the "
                             "manual one is always there."));
      return NULL;
    }

  clean_name = name != NULL ? g_strstrip (g_strdup (name)) : NULL;
  if (clean_name == NULL || clean_name[0] == '\0' || !g_utf8_validate (clean_name, -1, NULL) ||
      g_utf8_strlen (clean_name, -1) > MAX_NAME_LENGTH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A provider needs a name of 1 to %u characters."), MAX_NAME_LENGTH);
      return NULL;
    }

  if (key_id != NULL && !is_valid_id (key_id, MAX_KEY_ID_LENGTH))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The key id of “%s” is not a keyring id: use letters, digits, “-”, “_” "
                     "and “.”."), clean_name);
      return NULL;
    }

  if (kind == STEWARD_PROVIDER_KIND_ANTHROPIC && (base_url == NULL || base_url[0] == '\0'))
    base_url = STEWARD_ANTHROPIC_DEFAULT_BASE_URL;

  entry->base_url = steward_provider_normalize_url (base_url, error);
  if (entry->base_url == NULL)
    return NULL;

  entry->id = g_strdup (id);
  entry->kind = kind;
  entry->name = g_steal_pointer (&clean_name);
  entry->key_id = g_strdup (key_id);

  return g_steal_pointer (&entry);
}

static void
entry_make_provider (Entry          *entry,
                     StewardSecrets *secrets)
{
  if (entry->kind == STEWARD_PROVIDER_KIND_ANTHROPIC)
    entry->provider = STEWARD_PROVIDER (steward_anthropic_provider_new (entry->id, entry->name,
                                                                        entry->base_url,
                                                                        entry->key_id, secrets));
  else
    entry->provider = STEWARD_PROVIDER (steward_openai_provider_new (entry->id, entry->name,
                                                                     entry->base_url,
                                                                     entry->key_id, secrets));
}

static guint
find_entry (StewardProviders *self,
            const char       *id)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (g_strcmp0 (entry->id, id) == 0)
        return i;
    }

  return G_MAXUINT;
}

/* GListModel */

static GType
steward_providers_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_PROVIDER;
}

static guint
steward_providers_get_n_items (GListModel *model)
{
  return STEWARD_PROVIDERS (model)->entries->len;
}

static gpointer
steward_providers_get_item (GListModel *model,
                            guint       position)
{
  StewardProviders *self = STEWARD_PROVIDERS (model);
  Entry *entry;

  if (position >= self->entries->len)
    return NULL;

  entry = g_ptr_array_index (self->entries, position);
  return g_object_ref (entry->provider);
}

static void
steward_providers_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_providers_get_item_type;
  iface->get_n_items = steward_providers_get_n_items;
  iface->get_item = steward_providers_get_item;
}

/* Writing */

/* A tree of its own, which the store turns into text on its worker. */
static JsonNode *
serialize (StewardProviders *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "providers");
  json_builder_begin_array (builder);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (entry->kind == STEWARD_PROVIDER_KIND_MANUAL)
        continue;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, entry->id);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, kind_to_string (entry->kind));
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, entry->name);
      json_builder_set_member_name (builder, "baseUrl");
      json_builder_add_string_value (builder, entry->base_url);
      json_builder_set_member_name (builder, "keyId");
      if (entry->key_id != NULL)
        json_builder_add_string_value (builder, entry->key_id);
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }

  for (guint i = 0; i < self->kept->len; i++)
    json_builder_add_value (builder, json_node_copy (g_ptr_array_index (self->kept, i)));

  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static void
write_failed_cb (StewardProviders *self,
                 const GError     *error)
{
  g_autofree char *path = g_file_peek_path (self->file) != NULL
                          ? g_strdup (g_file_peek_path (self->file))
                          : g_file_get_uri (self->file);

  g_warning ("Could not save the providers to %s: %s", path, error->message);

  /* Kept for the next flush, which tells the caller. */
  g_clear_error (&self->save_error);
  self->save_error = g_error_new (error->domain, error->code,
                                  _("The providers could not be saved to %s: %s"),
                                  path, error->message);
}

static void
save_now (StewardProviders *self)
{
  g_autoptr(JsonNode) root = NULL;

  if (self->store == NULL)
    return;

  root = serialize (self);
  steward_file_store_save_json (self->store, root);
}

/* Reading */

typedef struct {
  GPtrArray *entries;   /* Entry without a provider */
  GPtrArray *kept;      /* JsonNode */
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->entries, g_ptr_array_unref);
  g_clear_pointer (&loaded->kept, g_ptr_array_unref);
  g_free (loaded);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Loaded, loaded_free)

static Loaded *
loaded_new (void)
{
  Loaded *loaded = g_new0 (Loaded, 1);

  loaded->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  loaded->kept = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  return loaded;
}

static GError *
damaged (GFile      *file,
         const char *why)
{
  g_autoptr(GError) move_error = NULL;
  g_autoptr(GFile) aside = steward_file_store_move_aside (file, NULL, &move_error);
  g_autofree char *path = g_file_get_parse_name (file);

  if (aside == NULL)
    return g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        _("%s is damaged (%s), and could not be kept aside: %s"),
                        path, why, move_error->message);

  {
    g_autofree char *aside_path = g_file_get_parse_name (aside);

    return g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                        _("%s was damaged (%s); it was kept as %s, and Steward starts with no "
                          "providers but the manual one."), path, why, aside_path);
  }
}

static Entry *
entry_from_json (JsonObject *object)
{
  const char *id = mcp_json_get_string (object, "id");
  const char *name = mcp_json_get_string (object, "name");
  const char *base_url = mcp_json_get_string (object, "baseUrl");
  const char *key_id = mcp_json_get_string (object, "keyId");
  StewardProviderKind kind;

  if (!kind_from_string (mcp_json_get_string (object, "kind"), &kind))
    return NULL;

  return entry_new (id, kind, name, base_url, key_id, NULL);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) top = NULL;
  g_autoptr(Loaded) loaded = loaded_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  JsonNode *providers;
  JsonArray *list;

  /* A file too large, not JSON or not an object is damage; the store's
   * error says which. */
  top = steward_file_store_read_object (file, FILE_MAX, cancellable, &error);
  if (top == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) loaded_free);
      else if (error->domain == STEWARD_FILE_STORE_ERROR)
        g_task_return_error (task, damaged (file, error->message));
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  providers = json_object_get_member (top, "providers");
  if (providers == NULL || JSON_NODE_HOLDS_NULL (providers))
    {
      g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) loaded_free);
      return;
    }
  if (!JSON_NODE_HOLDS_ARRAY (providers))
    {
      g_task_return_error (task, damaged (file, _("“providers” is not a list")));
      return;
    }

  list = json_node_get_array (providers);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      Entry *entry = JSON_NODE_HOLDS_OBJECT (node) ? entry_from_json (json_node_get_object (node))
                                                   : NULL;

      /* What this version cannot use stays in the file for one that can. */
      if (entry == NULL || g_hash_table_contains (seen, entry->id))
        {
          g_clear_pointer (&entry, entry_free);
          g_ptr_array_add (loaded->kept, json_node_copy (node));
          continue;
        }

      g_hash_table_add (seen, entry->id);
      g_ptr_array_add (loaded->entries, entry);
    }

  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) loaded_free);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardProviders *self = g_task_get_source_object (task);
  g_autoptr(Loaded) loaded = NULL;
  GError *error = NULL;
  guint removed;

  loaded = g_task_propagate_pointer (G_TASK (result), &error);
  if (loaded == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* Everything but the manual provider is replaced by what the file says. */
  removed = self->entries->len - 1;
  g_ptr_array_remove_range (self->entries, 1, removed);
  for (guint i = 0; i < loaded->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (loaded->entries, i);

      entry_make_provider (entry, self->secrets);
    }
  g_ptr_array_extend_and_steal (self->entries, g_steal_pointer (&loaded->entries));
  g_ptr_array_unref (self->kept);
  self->kept = g_steal_pointer (&loaded->kept);

  g_list_model_items_changed (G_LIST_MODEL (self), 1, removed, self->entries->len - 1);
  g_task_return_boolean (task, TRUE);
}

/* GObject */

static void
steward_providers_dispose (GObject *object)
{
  StewardProviders *self = STEWARD_PROVIDERS (object);

  g_cancellable_cancel (self->cancellable);
  if (self->detect_session != NULL)
    soup_session_abort (self->detect_session);
  g_clear_object (&self->detect_session);

  G_OBJECT_CLASS (steward_providers_parent_class)->dispose (object);
}

static void
steward_providers_finalize (GObject *object)
{
  StewardProviders *self = STEWARD_PROVIDERS (object);

  /* A flush holds a reference until the write ends, so none is left. */

  g_clear_object (&self->secrets);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->kept, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->save_error);

  G_OBJECT_CLASS (steward_providers_parent_class)->finalize (object);
}

static void
steward_providers_constructed (GObject *object)
{
  StewardProviders *self = STEWARD_PROVIDERS (object);

  G_OBJECT_CLASS (steward_providers_parent_class)->constructed (object);

  self->file = steward_file_backed_get_file (STEWARD_FILE_BACKED (self));
  self->store = steward_file_backed_get_store (STEWARD_FILE_BACKED (self));
  if (self->store != NULL)
    g_signal_connect_object (self->store, "write-failed", G_CALLBACK (write_failed_cb), self,
                             G_CONNECT_SWAPPED);
}

static void
steward_providers_class_init (StewardProvidersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  StewardFileBackedClass *backed_class = STEWARD_FILE_BACKED_CLASS (klass);

  object_class->constructed = steward_providers_constructed;
  object_class->dispose = steward_providers_dispose;
  object_class->finalize = steward_providers_finalize;

  backed_class->max_size = FILE_MAX;
  backed_class->store_flags = STEWARD_FILE_STORE_PRIVATE | STEWARD_FILE_STORE_PRETTY;
}

static void
steward_providers_init (StewardProviders *self)
{
  Entry *manual = g_new0 (Entry, 1);

  manual->id = g_strdup (STEWARD_MANUAL_PROVIDER_ID);
  manual->kind = STEWARD_PROVIDER_KIND_MANUAL;
  manual->provider = STEWARD_PROVIDER (steward_manual_provider_new ());

  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  g_ptr_array_add (self->entries, manual);
  self->kept = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->cancellable = g_cancellable_new ();
}

/* Public API */

/**
 * steward_providers_new:
 * @file: (nullable): providers.json; %NULL keeps the list in memory
 * @secrets: (nullable): the keyring the providers read their keys from
 */
StewardProviders *
steward_providers_new (GFile          *file,
                       StewardSecrets *secrets)
{
  StewardProviders *self;

  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);
  g_return_val_if_fail (secrets == NULL || STEWARD_IS_SECRETS (secrets), NULL);

  self = g_object_new (STEWARD_TYPE_PROVIDERS, "file", file, NULL);
  self->secrets = secrets != NULL ? g_object_ref (secrets) : NULL;

  return self;
}

/**
 * steward_providers_load_async:
 *
 * Reads the file and replaces the list with what it holds (the manual
 * provider stays). A missing file is an empty list; a damaged one is kept
 * aside as FILE.damaged and the finish function says so.
 */
void
steward_providers_load_async (StewardProviders    *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) read = NULL;

  g_return_if_fail (STEWARD_IS_PROVIDERS (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_providers_load_async);

  if (self->file == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  read = g_task_new (NULL, cancellable, loaded_cb, g_steal_pointer (&task));
  g_task_set_source_tag (read, load_thread);
  g_task_set_task_data (read, g_object_ref (self->file), g_object_unref);
  g_task_run_in_thread (read, load_thread);
}

gboolean
steward_providers_load_finish (StewardProviders  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_providers_load_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * steward_providers_lookup:
 *
 * Returns: (transfer none) (nullable): the provider with that id
 */
StewardProvider *
steward_providers_lookup (StewardProviders *self,
                          const char       *id)
{
  guint position;

  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), NULL);

  if (id == NULL)
    return NULL;

  position = find_entry (self, id);
  if (position == G_MAXUINT)
    return NULL;

  return ((Entry *) g_ptr_array_index (self->entries, position))->provider;
}

/**
 * steward_providers_get_manual:
 *
 * Returns: (transfer none): the manual provider
 */
StewardProvider *
steward_providers_get_manual (StewardProviders *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), NULL);

  return ((Entry *) g_ptr_array_index (self->entries, 0))->provider;
}

StewardProviderKind
steward_providers_get_kind (StewardProviders *self,
                            const char       *id)
{
  guint position;

  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), STEWARD_PROVIDER_KIND_MANUAL);

  position = id != NULL ? find_entry (self, id) : G_MAXUINT;
  if (position == G_MAXUINT)
    return STEWARD_PROVIDER_KIND_MANUAL;

  return ((Entry *) g_ptr_array_index (self->entries, position))->kind;
}

/**
 * steward_providers_put:
 * @id: letters, digits, "-", "_" and "."; not "manual"
 * @base_url: (nullable): an http or https URL; %NULL for Anthropic's own
 * @key_id: (nullable): the keyring id of the key, or %NULL for none
 *
 * Adds a provider, or replaces the one with the same id in its place, and
 * saves the list.
 *
 * Returns: (transfer none) (nullable): the new provider, or %NULL with
 *   @error when what was given cannot make one
 */
StewardProvider *
steward_providers_put (StewardProviders     *self,
                       const char           *id,
                       StewardProviderKind   kind,
                       const char           *name,
                       const char           *base_url,
                       const char           *key_id,
                       GError              **error)
{
  Entry *entry;
  guint position;

  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  entry = entry_new (id, kind, name, base_url, key_id, error);
  if (entry == NULL)
    return NULL;
  entry_make_provider (entry, self->secrets);

  position = find_entry (self, id);
  if (position == G_MAXUINT)
    {
      g_ptr_array_add (self->entries, entry);
      g_list_model_items_changed (G_LIST_MODEL (self), self->entries->len - 1, 0, 1);
    }
  else
    {
      entry_free (g_ptr_array_index (self->entries, position));
      g_ptr_array_index (self->entries, position) = entry;
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 1);
    }

  save_now (self);
  return entry->provider;
}

static void
key_cleared_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!steward_secrets_clear_finish (STEWARD_SECRETS (object), result, &error))
    g_debug ("The key of a removed provider stays in the keyring: %s", error->message);
}

/**
 * steward_providers_remove:
 *
 * Removes a provider and saves the list. Its key goes from the keyring
 * too when it was kept under the provider's own key id
 * (steward_providers_make_key_id()), which nothing else uses.
 */
gboolean
steward_providers_remove (StewardProviders  *self,
                          const char        *id,
                          GError           **error)
{
  g_autofree char *own_key_id = NULL;
  Entry *entry;
  guint position;

  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  if (g_str_equal (id, STEWARD_MANUAL_PROVIDER_ID))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                           _("The manual provider is always there and cannot be removed."));
      return FALSE;
    }

  position = find_entry (self, id);
  if (position == G_MAXUINT)
    {
      g_autofree char *shown = steward_provider_clean_text (id, NULL);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no provider “%s”."), shown);
      return FALSE;
    }

  entry = g_ptr_array_steal_index (self->entries, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);

  own_key_id = steward_providers_make_key_id (id);
  if (self->secrets != NULL && g_strcmp0 (entry->key_id, own_key_id) == 0)
    steward_secrets_clear_async (self->secrets, own_key_id, NULL, key_cleared_cb, NULL);

  entry_free (entry);
  save_now (self);
  return TRUE;
}

char *
steward_providers_make_key_id (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  return g_strconcat ("provider.", id, NULL);
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardProviders *self = g_task_get_source_object (task);

  /* A failed write is reported by its own handler, which keeps the error
   * worded for the person; this write's result is that one. */
  steward_file_store_flush_finish (STEWARD_FILE_STORE (object), result, NULL);

  if (self->save_error != NULL)
    g_task_return_error (task, g_steal_pointer (&self->save_error));
  else
    g_task_return_boolean (task, TRUE);
}

void
steward_providers_flush_async (StewardProviders    *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_PROVIDERS (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_providers_flush_async);

  if (self->store != NULL && steward_file_store_is_busy (self->store))
    {
      steward_file_store_flush_async (self->store, NULL, flushed_cb, g_steal_pointer (&task));
      return;
    }

  if (self->save_error != NULL)
    g_task_return_error (task, g_steal_pointer (&self->save_error));
  else
    g_task_return_boolean (task, TRUE);
}

gboolean
steward_providers_flush_finish (StewardProviders  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_providers_flush_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Finding Ollama */

static char *
dup_ollama_origin (void)
{
  const char *url = g_getenv ("STEWARD_OLLAMA_URL");
  gsize length;

  if (url == NULL || url[0] == '\0')
    url = OLLAMA_DEFAULT_URL;

  length = strlen (url);
  while (length > 0 && url[length - 1] == '/')
    length--;

  return g_strndup (url, length);
}

char *
steward_providers_dup_ollama_base_url (void)
{
  g_autofree char *origin = dup_ollama_origin ();

  return g_strconcat (origin, "/v1", NULL);
}

static void
detected_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = steward_provider_http_send_finish (result, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Whatever else answered there, it is not Ollama. */
  g_task_return_boolean (task,
                         reply != NULL && JSON_NODE_HOLDS_OBJECT (reply) &&
                         mcp_json_get_array (json_node_get_object (reply),
                                                      "models") != NULL);
}

void
steward_providers_detect_ollama_async (StewardProviders    *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *origin = dup_ollama_origin ();
  g_autofree char *url = g_strconcat (origin, "/api/tags", NULL);
  g_autoptr(SoupMessage) message = NULL;
  StewardProviderHttpOptions options = { 0 };

  g_return_if_fail (STEWARD_IS_PROVIDERS (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_providers_detect_ollama_async);

  message = soup_message_new ("GET", url);
  if (message == NULL)
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  if (self->detect_session == NULL)
    self->detect_session = steward_provider_session_new ();

  options.name = "Ollama";
  options.timeout_s = DETECT_TIMEOUT_S;
  steward_provider_http_send_async (self->detect_session, message, &options, cancellable,
                                    detected_cb, g_steal_pointer (&task));
}

gboolean
steward_providers_detect_ollama_finish (StewardProviders  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDERS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_providers_detect_ollama_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
