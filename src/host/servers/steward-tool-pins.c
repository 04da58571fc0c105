/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-pins"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-chat-private.h"
#include "steward-file-store.h"
#include "steward-tool-pins.h"

/* pins.json holds definitions, so it may be large, but not without end. */
#define MAX_FILE_SIZE (16 * 1024 * 1024)
/* Changes are written together once they stop coming for this long. */
#define SAVE_DELAY_MS 100

/**
 * StewardToolPins:
 *
 * The tool definitions the person approved, by hash, and the policies for
 * calling tools from a chat, kept in pins.json.
 */

typedef struct {
  char       *hash;        /* NULL when only a policy is kept */
  JsonObject *definition;
  int         policy;      /* a StewardToolPolicy, or -1 for none */
  gboolean    disabled;    /* switched off in the review: never offered */
} Pin;

typedef struct {
  int         policy;      /* a StewardToolPolicy, or -1 for none */
  GHashTable *tools;       /* name → Pin */
} ServerPins;

struct _StewardToolPins
{
  GObject       parent_instance;

  GFile        *file;
  GHashTable   *servers;   /* name → ServerPins */

  /* Saving: every change counts, and the count handed to the store last
   * tells whether there is something left to write. */
  StewardFileStore *store;
  guint64       changes;
  guint64       handed;
  guint         save_source;
};

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardToolPins, steward_tool_pins, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StewardToolPinState, steward_tool_pin_state,
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_PIN_UNPINNED, "unpinned"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_PIN_OK, "ok"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_PIN_CHANGED, "changed"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_PIN_NEW, "new"))

G_DEFINE_ENUM_TYPE (StewardToolPolicy, steward_tool_policy,
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_POLICY_ASK, "ask"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_POLICY_ALLOW, "allow"))

static GQuark
hash_quark (void)
{
  return g_quark_from_static_string ("steward-tool-hash");
}

static void
pin_free (Pin *pin)
{
  g_free (pin->hash);
  g_clear_pointer (&pin->definition, json_object_unref);
  g_free (pin);
}

static void
server_pins_free (ServerPins *server)
{
  g_hash_table_unref (server->tools);
  g_free (server);
}

static GHashTable *
new_servers_table (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                (GDestroyNotify) server_pins_free);
}

static ServerPins *
ensure_server (GHashTable *servers,
               const char *name)
{
  ServerPins *server = g_hash_table_lookup (servers, name);

  if (server == NULL)
    {
      server = g_new0 (ServerPins, 1);
      server->policy = -1;
      server->tools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) pin_free);
      g_hash_table_insert (servers, g_strdup (name), server);
    }

  return server;
}

static Pin *
ensure_pin (ServerPins *server,
            const char *tool)
{
  Pin *pin = g_hash_table_lookup (server->tools, tool);

  if (pin == NULL)
    {
      pin = g_new0 (Pin, 1);
      pin->policy = -1;
      g_hash_table_insert (server->tools, g_strdup (tool), pin);
    }

  return pin;
}

static Pin *
lookup_pin (StewardToolPins *self,
            const char      *server,
            const char      *tool)
{
  ServerPins *pins = g_hash_table_lookup (self->servers, server);

  return pins != NULL ? g_hash_table_lookup (pins->tools, tool) : NULL;
}

static gboolean
policy_from_string (const char        *string,
                    StewardToolPolicy *policy)
{
  if (g_strcmp0 (string, "ask") == 0)
    *policy = STEWARD_TOOL_POLICY_ASK;
  else if (g_strcmp0 (string, "allow") == 0)
    *policy = STEWARD_TOOL_POLICY_ALLOW;
  else
    return FALSE;

  return TRUE;
}

static const char *
policy_to_string (StewardToolPolicy policy)
{
  return policy == STEWARD_TOOL_POLICY_ALLOW ? "allow" : "ask";
}

/* Canonical JSON */

static void
append_string (GString    *out,
               const char *string)
{
  g_string_append_c (out, '"');
  /* DEL stays as it is: the checksums of pins already stored were taken
   * over this form. */
  mcp_json_append_escaped (out, string, FALSE);
  g_string_append_c (out, '"');
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (a, b);
}

static void
append_indent (GString *out,
               int      indent,
               guint    depth)
{
  if (indent < 0)
    return;

  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth * indent; i++)
    g_string_append_c (out, ' ');
}

/* Writes @node with object members sorted by their UTF-8 bytes; with
 * @indent < 0 there is no whitespace at all. */
static void
append_sorted (GString  *out,
               JsonNode *node,
               int       indent,
               guint     depth)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) names = json_object_get_members (object);
        gboolean first = TRUE;

        names = g_list_sort (names, compare_names);
        g_string_append_c (out, '{');
        for (GList *l = names; l != NULL; l = l->next)
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            append_indent (out, indent, depth + 1);
            append_string (out, l->data);
            g_string_append (out, indent < 0 ? ":" : ": ");
            append_sorted (out, json_object_get_member (object, l->data), indent, depth + 1);
          }
        if (!first)
          append_indent (out, indent, depth);
        g_string_append_c (out, '}');
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < length; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            append_indent (out, indent, depth + 1);
            append_sorted (out, json_array_get_element (array, i), indent, depth + 1);
          }
        if (length > 0)
          append_indent (out, indent, depth);
        g_string_append_c (out, ']');
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          append_string (out, json_node_get_string (node));
          break;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;
        case G_TYPE_DOUBLE:
          {
            char buffer[G_ASCII_DTOSTR_BUF_SIZE];

            g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer,
                                                  json_node_get_double (node)));
          }
          break;
        default:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
        }
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
    }
}

static char *
object_to_sorted (JsonObject *object,
                  int         indent)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  GString *out = g_string_new (NULL);

  append_sorted (out, node, indent, 0);
  return g_string_free (out, FALSE);
}

static char *
hash_object (JsonObject *object)
{
  g_autofree char *canonical = object_to_sorted (object, -1);

  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, canonical, -1);
}

/* The tool's hash, computed once: a tool's definition never changes, a
 * changed one comes as a new McpTool. */
static const char *
tool_hash (McpTool *tool)
{
  const char *hash = g_object_get_qdata (G_OBJECT (tool), hash_quark ());

  if (hash == NULL)
    {
      g_object_set_qdata_full (G_OBJECT (tool), hash_quark (),
                               hash_object (mcp_item_get_json (MCP_ITEM (tool))), g_free);
      hash = g_object_get_qdata (G_OBJECT (tool), hash_quark ());
    }

  return hash;
}

/* The file */

static GHashTable *
parse_pins (JsonObject  *top,
            GError     **error)
{
  g_autoptr(GHashTable) servers = new_servers_table ();
  JsonObject *members;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  members = mcp_json_get_object (top, "servers");
  if (members == NULL)
    {
      if (json_object_has_member (top, "servers"))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“servers” is not an object"));
          return NULL;
        }
      return g_steal_pointer (&servers);
    }

  json_object_iter_init (&iter, members);
  while (json_object_iter_next (&iter, &name, &node))
    {
      ServerPins *server;
      JsonObject *tools;
      JsonObjectIter tool_iter;
      const char *tool_name;
      JsonNode *tool_node;
      StewardToolPolicy policy;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The entry for server “%s” is not an object"), name);
          return NULL;
        }

      server = ensure_server (servers, name);
      if (policy_from_string (mcp_json_get_string (json_node_get_object (node), "policy"),
                              &policy))
        server->policy = policy;

      tools = mcp_json_get_object (json_node_get_object (node), "tools");
      if (tools == NULL)
        continue;

      json_object_iter_init (&tool_iter, tools);
      while (json_object_iter_next (&tool_iter, &tool_name, &tool_node))
        {
          JsonObject *entry;
          JsonObject *definition;
          const char *hash;
          Pin *pin;

          if (!JSON_NODE_HOLDS_OBJECT (tool_node))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The entry for tool “%s” of server “%s” is not an object"),
                           tool_name, name);
              return NULL;
            }

          entry = json_node_get_object (tool_node);
          hash = mcp_json_get_string (entry, "hash");
          definition = mcp_json_get_object (entry, "definition");
          pin = ensure_pin (server, tool_name);

          if (hash != NULL)
            {
              /* A pin whose definition does not hash to it was edited by
               * hand; trusting it would approve a definition no one saw. */
              if (definition == NULL)
                {
                  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("The pin of tool “%s” of server “%s” has no definition"),
                               tool_name, name);
                  return NULL;
                }
              pin->hash = g_strdup (hash);
              pin->definition = json_object_ref (definition);
            }

          if (policy_from_string (mcp_json_get_string (entry, "policy"), &policy))
            pin->policy = policy;
          pin->disabled = !json_object_get_boolean_member_with_default (entry, "enabled", TRUE);
        }
    }

  return g_steal_pointer (&servers);
}

static char *
serialize (StewardToolPins *self)
{
  g_autoptr(JsonObject) top = json_object_new ();
  JsonObject *servers = json_object_new ();
  g_autoptr(JsonNode) root = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->servers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      ServerPins *server = value;
      JsonObject *entry = json_object_new ();
      JsonObject *tools = json_object_new ();
      GHashTableIter tool_iter;
      gpointer tool_key, tool_value;

      if (server->policy >= 0)
        json_object_set_string_member (entry, "policy", policy_to_string (server->policy));

      g_hash_table_iter_init (&tool_iter, server->tools);
      while (g_hash_table_iter_next (&tool_iter, &tool_key, &tool_value))
        {
          Pin *pin = tool_value;
          JsonObject *tool = json_object_new ();

          if (pin->hash != NULL)
            {
              json_object_set_string_member (tool, "hash", pin->hash);
              json_object_set_object_member (tool, "definition",
                                             json_object_ref (pin->definition));
            }
          if (pin->policy >= 0)
            json_object_set_string_member (tool, "policy", policy_to_string (pin->policy));
          if (pin->disabled)
            json_object_set_boolean_member (tool, "enabled", FALSE);
          json_object_set_object_member (tools, tool_key, tool);
        }

      json_object_set_object_member (entry, "tools", tools);
      json_object_set_object_member (servers, key, entry);
    }

  json_object_set_object_member (top, "servers", servers);
  return object_to_sorted (top, 2);
}

/* Loading */

static GHashTable *
load_file (GFile         *file,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GFile) aside = NULL;
  g_autofree char *aside_name = NULL;
  g_autoptr(JsonObject) top = NULL;
  GHashTable *servers = NULL;

  /* A file too large, not JSON or not an object is damage, like pins
   * that do not read; anything else is a failure to read. */
  top = steward_file_store_read_object (file, MAX_FILE_SIZE, cancellable, &local_error);
  if (top == NULL && local_error->domain != STEWARD_FILE_STORE_ERROR)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return new_servers_table ();

      g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                  _("%s could not be read: "), name);
      return NULL;
    }

  if (top != NULL)
    servers = parse_pins (top, &local_error);
  if (servers != NULL)
    return servers;

  aside = steward_file_store_move_aside (file, NULL, NULL);
  if (aside != NULL)
    aside_name = g_file_get_parse_name (aside);

  /* Translators: the first %s is pins.json, the second where it went, the
   * third what is wrong with it. */
  if (aside_name != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s is damaged and was moved to %s; every tool asks to be approved again: %s"),
                 name, aside_name, local_error->message);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s is damaged and could not be moved aside: %s"),
                 name, local_error->message);
  return NULL;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  GError *error = NULL;
  GHashTable *servers;

  servers = load_file (file, cancellable, &error);
  if (servers == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, servers, (GDestroyNotify) g_hash_table_unref);
}

/* Saving */

static void
write_failed_cb (StewardToolPins *self,
                 const GError    *error)
{
  g_message ("Tool pins could not be saved: %s", error->message);

  /* The next save writes again, even with no change since. */
  self->handed = 0;
}

/* Hands the pins as they are now to the store, which writes them on its
 * worker after any write under way. */
static void
save_now (StewardToolPins *self)
{
  char *data;

  g_clear_handle_id (&self->save_source, g_source_remove);

  if (self->store == NULL || self->handed >= self->changes)
    return;

  self->handed = self->changes;
  data = serialize (self);
  steward_file_store_save (self->store, g_bytes_new_take (data, strlen (data)));
}

static gboolean
save_timeout_cb (gpointer user_data)
{
  StewardToolPins *self = user_data;

  self->save_source = 0;
  save_now (self);
  return G_SOURCE_REMOVE;
}

static void
changed (StewardToolPins *self,
         const char      *server)
{
  self->changes++;
  if (self->file != NULL && self->save_source == 0)
    self->save_source = g_timeout_add (SAVE_DELAY_MS, save_timeout_cb, self);

  g_signal_emit (self, signals[SIGNAL_CHANGED], 0, server);
}

/* Preparing */

typedef struct {
  GPtrArray *tools;        /* McpTool */
  GPtrArray *hashes;       /* char *, filled by the worker */
} Prepare;

static void
prepare_free (Prepare *prepare)
{
  g_ptr_array_unref (prepare->tools);
  g_clear_pointer (&prepare->hashes, g_ptr_array_unref);
  g_free (prepare);
}

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Prepare *prepare = task_data;

  /* The definitions are only read here; nothing changes an McpTool's
   * JSON after it was made. */
  for (guint i = 0; i < prepare->tools->len; i++)
    {
      McpTool *tool = g_ptr_array_index (prepare->tools, i);

      if (g_task_return_error_if_cancelled (task))
        return;
      g_ptr_array_add (prepare->hashes, hash_object (mcp_item_get_json (MCP_ITEM (tool))));
    }

  g_task_return_boolean (task, TRUE);
}

/* GObject */

static void
steward_tool_pins_finalize (GObject *object)
{
  StewardToolPins *self = STEWARD_TOOL_PINS (object);

  g_clear_handle_id (&self->save_source, g_source_remove);
  g_clear_object (&self->store);
  g_clear_object (&self->file);
  g_clear_pointer (&self->servers, g_hash_table_unref);

  G_OBJECT_CLASS (steward_tool_pins_parent_class)->finalize (object);
}

static void
steward_tool_pins_class_init (StewardToolPinsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_tool_pins_finalize;

  /**
   * StewardToolPins::changed:
   * @server: (nullable): the server whose pins or policies changed, or
   *   %NULL for all of them (after a load)
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
steward_tool_pins_init (StewardToolPins *self)
{
  self->servers = new_servers_table ();
}

/* Public API */

/**
 * steward_tool_pins_new:
 * @file: (nullable): pins.json, or %NULL to keep the pins in memory
 */
StewardToolPins *
steward_tool_pins_new (GFile *file)
{
  StewardToolPins *self;

  g_return_val_if_fail (!file || G_IS_FILE (file), NULL);

  self = g_object_new (STEWARD_TYPE_TOOL_PINS, NULL);
  g_set_object (&self->file, file);
  if (file != NULL)
    {
      self->store = steward_file_store_new (file, MAX_FILE_SIZE, STEWARD_FILE_STORE_PRIVATE);
      g_signal_connect_object (self->store, "write-failed", G_CALLBACK (write_failed_cb), self,
                               G_CONNECT_SWAPPED);
    }

  return self;
}

GFile *
steward_tool_pins_get_file (StewardToolPins *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), NULL);

  return self->file;
}

/* Makes @servers, as loaded, the pins; after a failure (%NULL) no tool
 * is pinned, so that each asks to be approved again. */
static gboolean
take_loaded (StewardToolPins *self,
             GHashTable      *servers)
{
  if (servers == NULL)
    {
      g_hash_table_remove_all (self->servers);
    }
  else
    {
      g_clear_pointer (&self->servers, g_hash_table_unref);
      self->servers = servers;
    }

  g_signal_emit (self, signals[SIGNAL_CHANGED], 0, NULL);
  return servers != NULL;
}

/**
 * steward_tool_pins_load:
 *
 * Reads pins.json at once, for tests and the command line; the app uses
 * steward_tool_pins_load_async(). A missing file is no error.
 */
gboolean
steward_tool_pins_load (StewardToolPins  *self,
                        GError          **error)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), FALSE);

  if (self->file == NULL)
    return TRUE;

  return take_loaded (self, load_file (self->file, NULL, error));
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  GHashTable *servers;

  servers = g_task_propagate_pointer (G_TASK (result), &error);
  if (servers == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, servers, (GDestroyNotify) g_hash_table_unref);
}

void
steward_tool_pins_load_async (StewardToolPins     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) inner = NULL;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_tool_pins_load_async);

  if (self->file == NULL)
    {
      g_task_return_pointer (task, new_servers_table (), (GDestroyNotify) g_hash_table_unref);
      return;
    }

  inner = g_task_new (NULL, cancellable, load_cb, g_steal_pointer (&task));
  g_task_set_source_tag (inner, load_thread);
  g_task_set_task_data (inner, g_object_ref (self->file), g_object_unref);
  g_task_run_in_thread (inner, load_thread);
}

gboolean
steward_tool_pins_load_finish (StewardToolPins  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return take_loaded (self, g_task_propagate_pointer (G_TASK (result), error));
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!steward_file_store_flush_finish (STEWARD_FILE_STORE (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
steward_tool_pins_save_async (StewardToolPins     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_tool_pins_save_async);

  if (self->store == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  save_now (self);
  steward_file_store_flush_async (self->store, NULL, flushed_cb, g_steal_pointer (&task));
}

gboolean
steward_tool_pins_save_finish (StewardToolPins  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
prepare_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Prepare *prepare = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The cache is filled here, on the main thread, where it is read. */
  for (guint i = 0; i < prepare->hashes->len; i++)
    {
      McpTool *tool = g_ptr_array_index (prepare->tools, i);

      if (g_object_get_qdata (G_OBJECT (tool), hash_quark ()) == NULL)
        g_object_set_qdata_full (G_OBJECT (tool), hash_quark (),
                                 g_strdup (g_ptr_array_index (prepare->hashes, i)), g_free);
    }

  /* The tools are let go here too, not on the worker. */
  g_ptr_array_set_size (prepare->tools, 0);
  g_task_return_boolean (task, TRUE);
}

void
steward_tool_pins_prepare_async (StewardToolPins     *self,
                                 GPtrArray           *tools,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) inner = NULL;
  Prepare *prepare;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (tools != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_tool_pins_prepare_async);

  prepare = g_new0 (Prepare, 1);
  prepare->tools = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < tools->len; i++)
    {
      McpTool *tool = g_ptr_array_index (tools, i);

      if (MCP_IS_TOOL (tool) && g_object_get_qdata (G_OBJECT (tool), hash_quark ()) == NULL)
        g_ptr_array_add (prepare->tools, g_object_ref (tool));
    }
  prepare->hashes = g_ptr_array_new_full (prepare->tools->len, g_free);

  if (prepare->tools->len == 0)
    {
      prepare_free (prepare);
      g_task_return_boolean (task, TRUE);
      return;
    }

  inner = g_task_new (NULL, cancellable, prepare_cb, g_steal_pointer (&task));
  g_task_set_source_tag (inner, prepare_thread);
  g_task_set_task_data (inner, prepare, (GDestroyNotify) prepare_free);
  g_task_run_in_thread (inner, prepare_thread);
}

gboolean
steward_tool_pins_prepare_finish (StewardToolPins  *self,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
steward_tool_pins_has_pins (StewardToolPins *self,
                            const char      *server)
{
  ServerPins *pins;
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), FALSE);
  g_return_val_if_fail (server != NULL, FALSE);

  pins = g_hash_table_lookup (self->servers, server);
  if (pins == NULL)
    return FALSE;

  g_hash_table_iter_init (&iter, pins->tools);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Pin *) value)->hash != NULL)
      return TRUE;

  return FALSE;
}

StewardToolPinState
steward_tool_pins_check (StewardToolPins *self,
                         const char      *server,
                         McpTool         *tool)
{
  Pin *pin;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), STEWARD_TOOL_PIN_CHANGED);
  g_return_val_if_fail (server != NULL, STEWARD_TOOL_PIN_CHANGED);
  g_return_val_if_fail (MCP_IS_TOOL (tool), STEWARD_TOOL_PIN_CHANGED);

  pin = lookup_pin (self, server, mcp_item_get_name (MCP_ITEM (tool)));
  if (pin != NULL && pin->hash != NULL)
    return g_str_equal (pin->hash, tool_hash (tool)) ? STEWARD_TOOL_PIN_OK
                                                     : STEWARD_TOOL_PIN_CHANGED;

  return steward_tool_pins_has_pins (self, server) ? STEWARD_TOOL_PIN_NEW
                                                   : STEWARD_TOOL_PIN_UNPINNED;
}

/**
 * steward_tool_pins_approve:
 *
 * Pins @tool's definition as it is now, for @server.
 */
void
steward_tool_pins_approve (StewardToolPins *self,
                           const char      *server,
                           McpTool         *tool)
{
  Pin *pin;
  const char *hash;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (MCP_IS_TOOL (tool));

  hash = tool_hash (tool);
  pin = ensure_pin (ensure_server (self->servers, server), mcp_item_get_name (MCP_ITEM (tool)));
  if (g_strcmp0 (pin->hash, hash) == 0)
    return;

  g_free (pin->hash);
  pin->hash = g_strdup (hash);
  g_clear_pointer (&pin->definition, json_object_unref);
  pin->definition = steward_chat_json_copy_object (mcp_item_get_json (MCP_ITEM (tool)));
  changed (self, server);
}

/**
 * steward_tool_pins_set_enabled:
 *
 * Switches @tool of @server on or off for models, as the person chose in
 * the review of the server's tools; a tool switched off is never offered,
 * whatever its pin.
 */
void
steward_tool_pins_set_enabled (StewardToolPins *self,
                               const char      *server,
                               const char      *tool,
                               gboolean         enabled)
{
  Pin *pin;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (tool != NULL);

  pin = ensure_pin (ensure_server (self->servers, server), tool);
  if (pin->disabled == !enabled)
    return;

  pin->disabled = !enabled;
  changed (self, server);
}

gboolean
steward_tool_pins_get_enabled (StewardToolPins *self,
                               const char      *server,
                               const char      *tool)
{
  Pin *pin;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), FALSE);
  g_return_val_if_fail (server != NULL, FALSE);
  g_return_val_if_fail (tool != NULL, FALSE);

  pin = lookup_pin (self, server, tool);
  return pin == NULL || !pin->disabled;
}

/**
 * steward_tool_pins_is_offered:
 *
 * Whether models may see @tool: the person reviewed this very definition
 * and left it switched on. A tool never reviewed, changed since, or new on
 * the server is not offered until the person has seen it.
 */
gboolean
steward_tool_pins_is_offered (StewardToolPins *self,
                              const char      *server,
                              McpTool         *tool)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), FALSE);
  g_return_val_if_fail (MCP_IS_TOOL (tool), FALSE);

  return steward_tool_pins_check (self, server, tool) == STEWARD_TOOL_PIN_OK &&
         steward_tool_pins_get_enabled (self, server, mcp_item_get_name (MCP_ITEM (tool)));
}

/**
 * steward_tool_pins_dup_pinned:
 *
 * Returns: (transfer full) (nullable): the pinned definition with sorted
 *   keys, indented
 */
char *
steward_tool_pins_dup_pinned (StewardToolPins *self,
                              const char      *server,
                              const char      *tool)
{
  Pin *pin;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), NULL);
  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  pin = lookup_pin (self, server, tool);
  if (pin == NULL || pin->definition == NULL)
    return NULL;

  return object_to_sorted (pin->definition, 2);
}

gboolean
steward_tool_pins_get_tool_policy (StewardToolPins   *self,
                                   const char        *server,
                                   const char        *tool,
                                   StewardToolPolicy *policy)
{
  Pin *pin;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), FALSE);
  g_return_val_if_fail (server != NULL, FALSE);
  g_return_val_if_fail (tool != NULL, FALSE);

  pin = lookup_pin (self, server, tool);
  if (pin == NULL || pin->policy < 0)
    return FALSE;

  if (policy != NULL)
    *policy = pin->policy;
  return TRUE;
}

void
steward_tool_pins_set_tool_policy (StewardToolPins   *self,
                                   const char        *server,
                                   const char        *tool,
                                   StewardToolPolicy  policy)
{
  Pin *pin;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (tool != NULL);

  pin = ensure_pin (ensure_server (self->servers, server), tool);
  if (pin->policy == (int) policy)
    return;

  pin->policy = policy;
  changed (self, server);
}

void
steward_tool_pins_unset_tool_policy (StewardToolPins *self,
                                     const char      *server,
                                     const char      *tool)
{
  Pin *pin;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (tool != NULL);

  pin = lookup_pin (self, server, tool);
  if (pin == NULL || pin->policy < 0)
    return;

  pin->policy = -1;
  if (pin->hash == NULL)
    g_hash_table_remove (((ServerPins *) g_hash_table_lookup (self->servers, server))->tools,
                         tool);
  changed (self, server);
}

StewardToolPolicy
steward_tool_pins_get_server_policy (StewardToolPins *self,
                                     const char      *server)
{
  ServerPins *pins;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), STEWARD_TOOL_POLICY_ASK);
  g_return_val_if_fail (server != NULL, STEWARD_TOOL_POLICY_ASK);

  pins = g_hash_table_lookup (self->servers, server);
  if (pins == NULL || pins->policy < 0)
    return STEWARD_TOOL_POLICY_ASK;

  return pins->policy;
}

void
steward_tool_pins_set_server_policy (StewardToolPins   *self,
                                     const char        *server,
                                     StewardToolPolicy  policy)
{
  ServerPins *pins;

  g_return_if_fail (STEWARD_IS_TOOL_PINS (self));
  g_return_if_fail (server != NULL);

  pins = ensure_server (self->servers, server);
  if (pins->policy == (int) policy)
    return;

  pins->policy = policy;
  changed (self, server);
}

StewardToolPolicy
steward_tool_pins_decide (StewardToolPins *self,
                          const char      *server,
                          McpTool         *tool)
{
  StewardToolPolicy policy;
  gboolean destructive;

  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (self), STEWARD_TOOL_POLICY_ASK);
  g_return_val_if_fail (server != NULL, STEWARD_TOOL_POLICY_ASK);
  g_return_val_if_fail (MCP_IS_TOOL (tool), STEWARD_TOOL_POLICY_ASK);

  if (steward_tool_pins_get_tool_policy (self, server, mcp_item_get_name (MCP_ITEM (tool)),
                                         &policy))
    return policy;

  /* The annotations' defaults are the careful ones: a tool that says
   * nothing may destroy and may reach the world. */
  destructive = !mcp_tool_get_read_only_hint (tool) && mcp_tool_get_destructive_hint (tool);
  if (destructive || mcp_tool_get_open_world_hint (tool))
    return STEWARD_TOOL_POLICY_ASK;

  return steward_tool_pins_get_server_policy (self, server);
}

/**
 * steward_tool_canonical_json:
 *
 * Returns: (transfer full): the tool's definition as the server sent it,
 *   with object members sorted by their UTF-8 bytes at every depth and no
 *   whitespace
 */
char *
steward_tool_canonical_json (McpTool *tool)
{
  g_return_val_if_fail (MCP_IS_TOOL (tool), NULL);

  return object_to_sorted (mcp_item_get_json (MCP_ITEM (tool)), -1);
}

/**
 * steward_tool_hash:
 *
 * Returns: (transfer full): the SHA-256 of the canonical JSON, in hex
 */
char *
steward_tool_hash (McpTool *tool)
{
  g_return_val_if_fail (MCP_IS_TOOL (tool), NULL);

  return g_strdup (tool_hash (tool));
}

char *
steward_tool_pretty_json (McpTool *tool)
{
  g_return_val_if_fail (MCP_IS_TOOL (tool), NULL);

  return object_to_sorted (mcp_item_get_json (MCP_ITEM (tool)), 2);
}

const char *
steward_tool_pin_state_to_string (StewardToolPinState state)
{
  switch (state)
    {
    case STEWARD_TOOL_PIN_UNPINNED:
      return "unpinned";
    case STEWARD_TOOL_PIN_OK:
      return "ok";
    case STEWARD_TOOL_PIN_CHANGED:
      return "changed";
    case STEWARD_TOOL_PIN_NEW:
      return "new";
    default:
      g_return_val_if_reached ("changed");
    }
}
