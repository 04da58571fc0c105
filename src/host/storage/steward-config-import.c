/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-config-import"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-config-private.h"
#include "steward-config-import.h"

/**
 * StewardImportCandidate:
 *
 * One server found in another host's configuration, as the person previews
 * it before importing: the entry as Steward would write it, which values
 * look secret, whether the name is taken, and why it may not work here.
 */
struct _StewardImportCandidate
{
  GObject              parent_instance;

  char                *name;
  StewardServerConfig *config;
  GStrv                secret_keys;
  char                *problem;
  gboolean             exists;
  gboolean             selected;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_CONFIG,
  PROP_EXISTS,
  PROP_PROBLEM,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardImportCandidate, steward_import_candidate, G_TYPE_OBJECT)

static void
steward_import_candidate_dispose (GObject *object)
{
  StewardImportCandidate *self = STEWARD_IMPORT_CANDIDATE (object);

  g_clear_object (&self->config);

  G_OBJECT_CLASS (steward_import_candidate_parent_class)->dispose (object);
}

static void
steward_import_candidate_finalize (GObject *object)
{
  StewardImportCandidate *self = STEWARD_IMPORT_CANDIDATE (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->secret_keys, g_strfreev);
  g_clear_pointer (&self->problem, g_free);

  G_OBJECT_CLASS (steward_import_candidate_parent_class)->finalize (object);
}

static void
steward_import_candidate_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  StewardImportCandidate *self = STEWARD_IMPORT_CANDIDATE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_CONFIG:
      g_value_set_object (value, self->config);
      break;

    case PROP_EXISTS:
      g_value_set_boolean (value, self->exists);
      break;

    case PROP_PROBLEM:
      g_value_set_string (value, self->problem);
      break;

    case PROP_SELECTED:
      g_value_set_boolean (value, self->selected);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_import_candidate_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  StewardImportCandidate *self = STEWARD_IMPORT_CANDIDATE (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      steward_import_candidate_set_selected (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_import_candidate_class_init (StewardImportCandidateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_import_candidate_dispose;
  object_class->finalize = steward_import_candidate_finalize;
  object_class->get_property = steward_import_candidate_get_property;
  object_class->set_property = steward_import_candidate_set_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_CONFIG] =
    g_param_spec_object ("config", NULL, NULL,
                         STEWARD_TYPE_SERVER_CONFIG,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_EXISTS] =
    g_param_spec_boolean ("exists", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_PROBLEM] =
    g_param_spec_string ("problem", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  properties[PROP_SELECTED] =
    g_param_spec_boolean ("selected", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_import_candidate_init (StewardImportCandidate *self)
{
}

/**
 * steward_import_candidate_get_name:
 *
 * Returns: the server's name in the other host's file
 */
const char *
steward_import_candidate_get_name (StewardImportCandidate *self)
{
  g_return_val_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self), NULL);

  return self->name;
}

/**
 * steward_import_candidate_get_config:
 *
 * Returns: (transfer none): the entry as it would be written
 */
StewardServerConfig *
steward_import_candidate_get_config (StewardImportCandidate *self)
{
  g_return_val_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self), NULL);

  return self->config;
}

/**
 * steward_import_candidate_get_secret_keys:
 *
 * Returns: (transfer none): the names of the environment variables (local
 *   servers) or headers (remote ones) whose values look secret, sorted
 */
const char * const *
steward_import_candidate_get_secret_keys (StewardImportCandidate *self)
{
  g_return_val_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self), NULL);

  return (const char * const *) self->secret_keys;
}

gboolean
steward_import_candidate_get_exists (StewardImportCandidate *self)
{
  g_return_val_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self), FALSE);

  return self->exists;
}

/**
 * steward_import_candidate_get_problem:
 *
 * Returns: (nullable): sentences that say why the server may not work as
 *   imported, or %NULL
 */
const char *
steward_import_candidate_get_problem (StewardImportCandidate *self)
{
  g_return_val_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self), NULL);

  return self->problem;
}

gboolean
steward_import_candidate_get_selected (StewardImportCandidate *self)
{
  g_return_val_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self), FALSE);

  return self->selected;
}

void
steward_import_candidate_set_selected (StewardImportCandidate *self,
                                       gboolean                selected)
{
  g_return_if_fail (STEWARD_IS_IMPORT_CANDIDATE (self));

  selected = !!selected;
  if (self->selected == selected)
    return;

  self->selected = selected;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

/* Reading other hosts' files */

/**
 * steward_import_default_file:
 *
 * Returns: (transfer full): where the other host keeps its file:
 *   `~/.config/Claude/claude_desktop_config.json` or
 *   `~/.config/Code/User/mcp.json` (in `$XDG_CONFIG_HOME`)
 */
GFile *
steward_import_default_file (StewardImportSource source)
{
  g_autofree char *path = NULL;

  switch (source)
    {
    case STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP:
      path = g_build_filename (g_get_user_config_dir (), "Claude",
                               "claude_desktop_config.json", NULL);
      break;

    case STEWARD_IMPORT_SOURCE_VSCODE:
      path = g_build_filename (g_get_user_config_dir (), "Code", "User", "mcp.json", NULL);
      break;

    default:
      g_return_val_if_reached (NULL);
    }

  return g_file_new_for_path (path);
}

/* Steps over a string: TRUE when text[*i] belongs to one (its quotes
 * included), so that what looks like a comment or a comma inside a string
 * is left as it is. */
static gboolean
step_string (const char *text,
             gsize       length,
             gsize      *i,
             gboolean   *in_string)
{
  if (*in_string)
    {
      if (text[*i] == '\\' && *i + 1 < length)
        (*i)++;
      else if (text[*i] == '"')
        *in_string = FALSE;
      return TRUE;
    }

  if (text[*i] == '"')
    {
      *in_string = TRUE;
      return TRUE;
    }

  return FALSE;
}

/* Blanks the block comment that opens at @start, keeping its line breaks
 * so that lines and columns still match; returns the last byte it took.
 * An unclosed comment stays, for the reader to report. */
static gsize
blank_block_comment (char  *text,
                     gsize  length,
                     gsize  start)
{
  gsize end;

  for (end = start + 2; end + 1 < length && !(text[end] == '*' && text[end + 1] == '/'); end++)
    ;
  if (end + 1 >= length)
    return start + 1;

  for (gsize j = start; j <= end + 1; j++)
    if (text[j] != '\n')
      text[j] = ' ';
  return end + 1;
}

static void
blank_comments (char  *text,
                gsize  length)
{
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      if (step_string (text, length, &i, &in_string) || text[i] != '/' || i + 1 >= length)
        continue;

      if (text[i + 1] == '/')
        {
          for (; i < length && text[i] != '\n'; i++)
            text[i] = ' ';
        }
      else if (text[i + 1] == '*')
        i = blank_block_comment (text, length, i);
    }
}

static void
blank_trailing_commas (char  *text,
                       gsize  length)
{
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      gsize next;

      if (step_string (text, length, &i, &in_string) || text[i] != ',')
        continue;

      for (next = i + 1; next < length && g_ascii_isspace (text[next]); next++)
        ;
      if (next < length && (text[next] == '}' || text[next] == ']'))
        text[i] = ' ';
    }
}

/* VS Code's files are JSON with comments and trailing commas. Both are
 * blanked out with spaces, so that the strict reader accepts the rest and
 * its line and column still point into the file as it is. */
static char *
blank_jsonc (const char *data,
             gsize       length)
{
  char *text = g_malloc (length + 1);

  memcpy (text, data, length);
  text[length] = '\0';
  blank_comments (text, length);
  blank_trailing_commas (text, length);
  return text;
}

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

/* Finds VS Code's variables ("${input:ID}", "${env:NAME}",
 * "${workspaceFolder}"…) in @value and adds a sentence for each new one. */
static void
note_variables (const char *value,
                GPtrArray  *seen,
                GPtrArray  *sentences)
{
  const char *p = value;

  while ((p = strstr (p, "${")) != NULL)
    {
      const char *end = strchr (p, '}');
      g_autofree char *variable = NULL;

      if (end == NULL)
        break;

      variable = g_strndup (p, end + 1 - p);
      p = end + 1;

      if (g_str_has_prefix (variable, "${keyring:") ||
          g_ptr_array_find_with_equal_func (seen, variable, g_str_equal, NULL))
        continue;

      if (g_str_has_prefix (variable, "${input:"))
        g_ptr_array_add (sentences,
                         g_strdup_printf (_("It uses %s, a value VS Code asks for when it starts "
                                            "the server; put the value in its place after "
                                            "importing."),
                                          variable));
      else if (g_str_has_prefix (variable, "${env:"))
        g_ptr_array_add (sentences,
                         g_strdup_printf (_("It uses %s from VS Code’s environment; put the "
                                            "value in its place after importing."),
                                          variable));
      else
        g_ptr_array_add (sentences,
                         g_strdup_printf (_("It uses the VS Code variable %s, which means "
                                            "nothing outside VS Code."),
                                          variable));

      g_ptr_array_add (seen, g_steal_pointer (&variable));
    }
}

static void
scan_node (JsonNode  *node,
           GPtrArray *seen,
           GPtrArray *sentences)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (node == NULL)
    return;

  if (node_is_string (node))
    note_variables (json_node_get_string (node), seen, sentences);
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        scan_node (json_array_get_element (array, i), seen, sentences);
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        scan_node (member, seen, sentences);
    }
}

static void
copy_member (JsonObject *to,
             JsonObject *from,
             const char *name)
{
  JsonNode *node = json_object_get_member (from, name);

  if (node != NULL)
    json_object_set_member (to, name, json_node_copy (node));
}

/* A VS Code entry in the servers file's shape: "type" becomes our
 * "transport" (written only for the legacy transport), and what only VS
 * Code understands is left out with a sentence saying so. */
static JsonObject *
convert_vscode (JsonObject *entry,
                GPtrArray  *sentences)
{
  g_autoptr(JsonObject) json = json_object_new ();
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  const char *type = json_object_get_string_member_with_default (entry, "type", NULL);
  JsonNode *cwd = json_object_get_member (entry, "cwd");
  JsonNode *env_file = json_object_get_member (entry, "envFile");
  gboolean remote;

  if (type == NULL)
    remote = json_object_has_member (entry, "url");
  else if (g_str_equal (type, "stdio"))
    remote = FALSE;
  else if (g_str_equal (type, "http") || g_str_equal (type, "sse"))
    remote = TRUE;
  else
    {
      g_ptr_array_add (sentences,
                       g_strdup_printf (_("Its type “%s” is not one Steward knows (stdio, http "
                                          "or sse)."),
                                        type));
      remote = json_object_has_member (entry, "url");
    }

  if (remote)
    {
      copy_member (json, entry, "url");
      copy_member (json, entry, "headers");
      if (g_strcmp0 (type, "sse") == 0)
        json_object_set_string_member (json, "transport", "sse");
      scan_node (json_object_get_member (json, "url"), seen, sentences);
      scan_node (json_object_get_member (json, "headers"), seen, sentences);
      return g_steal_pointer (&json);
    }

  copy_member (json, entry, "command");
  copy_member (json, entry, "args");
  copy_member (json, entry, "env");
  scan_node (json_object_get_member (json, "command"), seen, sentences);
  scan_node (json_object_get_member (json, "args"), seen, sentences);
  scan_node (json_object_get_member (json, "env"), seen, sentences);

  /* A folder made of VS Code variables ("${workspaceFolder}") is no folder
   * here; the server starts without one. */
  if (node_is_string (cwd))
    {
      guint before = sentences->len;

      note_variables (json_node_get_string (cwd), seen, sentences);
      if (sentences->len == before && strstr (json_node_get_string (cwd), "${") == NULL)
        json_object_set_member (json, "cwd", json_node_copy (cwd));
    }
  else if (cwd != NULL)
    copy_member (json, entry, "cwd");

  if (env_file != NULL)
    g_ptr_array_add (sentences,
                     g_strdup_printf (_("It reads more variables from “%s” (envFile), which "
                                        "Steward does not read; copy them into its "
                                        "environment after importing."),
                                      node_is_string (env_file)
                                      ? json_node_get_string (env_file) : "envFile"));

  return g_steal_pointer (&json);
}

static GStrv
find_secret_keys (StewardServerConfig *config)
{
  GHashTable *table = steward_server_config_is_remote (config)
                      ? steward_server_config_get_headers (config)
                      : steward_server_config_get_env (config);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree const char **keys = NULL;
  guint n_keys;

  keys = (const char **) g_hash_table_get_keys_as_array (table, &n_keys);
  for (guint i = 0; i < n_keys; i++)
    {
      const char *value = g_hash_table_lookup (table, keys[i]);

      /* Variables and references are not values one could store. */
      if (strstr (value, "${") == NULL && steward_secret_looks_secret (keys[i], value))
        g_strv_builder_add (builder, keys[i]);
    }

  return g_strv_builder_end (builder);
}

static int
compare_strings (const void *a,
                 const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* A candidate for an entry, or %NULL with the reason when the entry
 * cannot be read at all (no command or URL, a URL that is not http). */
static StewardImportCandidate *
candidate_new (StewardConfig        *config,
               const char           *name,
               JsonNode             *entry,
               StewardImportSource   source,
               GError              **error)
{
  g_autoptr(StewardImportCandidate) self = NULL;
  g_autoptr(GPtrArray) sentences = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StewardServerConfig) server = NULL;
  g_autoptr(JsonObject) json = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (entry))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: its entry is not a JSON object"), name);
      return NULL;
    }

  if (source == STEWARD_IMPORT_SOURCE_VSCODE)
    json = convert_vscode (json_node_get_object (entry), sentences);
  else
    json = json_object_ref (json_node_get_object (entry));

  server = steward_server_config_new_from_json (name, json, error);
  if (server == NULL)
    return NULL;

  self = g_object_new (STEWARD_TYPE_IMPORT_CANDIDATE, NULL);
  self->name = g_strdup (name);
  self->exists = steward_config_lookup (config, name, NULL) != NULL;
  self->config = g_steal_pointer (&server);
  self->secret_keys = find_secret_keys (self->config);
  qsort (self->secret_keys, g_strv_length (self->secret_keys), sizeof (char *),
         compare_strings);

  if (sentences->len > 0)
    {
      g_ptr_array_add (sentences, NULL);
      self->problem = g_strjoinv (" ", (char **) sentences->pdata);
    }

  /* A server of the same name is one the person already uses, maybe
   * working; only they may decide to replace it. */
  self->selected = self->problem == NULL && !self->exists;

  return g_steal_pointer (&self);
}

/**
 * steward_import_parse:
 * @config: the servers file the candidates would go to (to see which names
 *   are taken)
 * @data: the other host's file
 * @length: its length in bytes
 *
 * Reads Claude Desktop's file (`"mcpServers"`), VS Code's mcp.json
 * (`"servers"`, comments allowed) or VS Code's settings.json (`"mcp":
 * {"servers"}`), whichever @data is. Every entry becomes a candidate, in
 * the file's order; those with a problem, and those that would replace a
 * server of the same name, are not selected. Entries that
 * cannot be read at all (not an object, neither a command nor an http URL)
 * are left out; when that leaves none, the error says why.
 *
 * Returns: (transfer full): a #GListModel of #StewardImportCandidate, or
 *   %NULL with an error in %STEWARD_CONFIG_ERROR
 */
GListModel *
steward_import_parse (StewardConfig  *config,
                      const char     *data,
                      gsize           length,
                      GError        **error)
{
  g_autoptr(GListStore) candidates = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) first_error = NULL;
  g_autofree char *text = NULL;
  StewardImportSource source;
  JsonObject *object;
  JsonNode *servers = NULL;
  JsonNode *mcp;
  JsonObjectIter iter;
  const char *name;
  JsonNode *entry;

  g_return_val_if_fail (STEWARD_IS_CONFIG (config), NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  text = blank_jsonc (data ? data : "", length);
  root = steward_config_parse_json (text, length, error);
  if (root == NULL)
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                           _("the file does not hold a JSON object, so it is neither Claude "
                             "Desktop’s configuration nor VS Code’s mcp.json"));
      return NULL;
    }

  object = json_node_get_object (root);
  mcp = json_object_get_member (object, "mcp");
  if (json_object_has_member (object, "mcpServers"))
    {
      source = STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP;
      servers = json_object_get_member (object, "mcpServers");
    }
  else if (json_object_has_member (object, "servers"))
    {
      source = STEWARD_IMPORT_SOURCE_VSCODE;
      servers = json_object_get_member (object, "servers");
    }
  else if (mcp != NULL && JSON_NODE_HOLDS_OBJECT (mcp) &&
           json_object_has_member (json_node_get_object (mcp), "servers"))
    {
      source = STEWARD_IMPORT_SOURCE_VSCODE;
      servers = json_object_get_member (json_node_get_object (mcp), "servers");
    }
  else
    {
      g_set_error_literal (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                           _("the file has neither \"mcpServers\" (Claude Desktop) nor "
                             "\"servers\" (VS Code’s mcp.json), so there is nothing to "
                             "import"));
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (servers))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("\"%s\" must be an object with one member per server"),
                   source == STEWARD_IMPORT_SOURCE_VSCODE ? "servers" : "mcpServers");
      return NULL;
    }

  candidates = g_list_store_new (STEWARD_TYPE_IMPORT_CANDIDATE);
  json_object_iter_init_ordered (&iter, json_node_get_object (servers));
  while (json_object_iter_next_ordered (&iter, &name, &entry))
    {
      g_autoptr(StewardImportCandidate) candidate = NULL;
      g_autoptr(GError) local_error = NULL;

      candidate = candidate_new (config, name, entry, source, &local_error);
      if (candidate != NULL)
        {
          g_list_store_append (candidates, candidate);
          continue;
        }

      /* The reason may quote a value; only the name goes to the log. */
      g_debug ("Leaving out server `%s`, which cannot be read", name);
      if (first_error == NULL)
        first_error = g_steal_pointer (&local_error);
    }

  /* Nothing at all to offer: say why rather than show an empty list. */
  if (g_list_model_get_n_items (G_LIST_MODEL (candidates)) == 0 && first_error != NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&first_error),
                                  _("no server in the file can be imported: "));
      return NULL;
    }

  return G_LIST_MODEL (g_steal_pointer (&candidates));
}

/* Importing */

typedef struct {
  StewardImportCandidate *candidate;
  /* The env or headers, values moved to the keyring replaced by
   * references as they are stored; wiped when freed. */
  GHashTable             *values;
  GStrv                   keys;
  guint                   next_key;
} Pending;

static void
pending_free (Pending *pending)
{
  g_clear_object (&pending->candidate);
  g_clear_pointer (&pending->values, g_hash_table_unref);
  g_clear_pointer (&pending->keys, g_strfreev);
  g_free (pending);
}

typedef struct {
  StewardSecrets *secrets;
  gboolean        allow;
  GPtrArray      *pending;
  guint           next;
  /* Ids stored so far, removed again if a later one fails. */
  GPtrArray      *stored;
} ApplyData;

static void
apply_data_free (ApplyData *data)
{
  g_clear_object (&data->secrets);
  g_clear_pointer (&data->pending, g_ptr_array_unref);
  g_clear_pointer (&data->stored, g_ptr_array_unref);
  g_free (data);
}

static GHashTable *
copy_values (GHashTable *table)
{
  GHashTable *copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) steward_secret_value_free);
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_strdup (value));

  return copy;
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ApplyData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!steward_config_save_finish (STEWARD_CONFIG (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_int (task, data->pending->len);
}

static void
put_all (GTask *task)
{
  StewardConfig *config = g_task_get_source_object (task);
  ApplyData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  for (guint i = 0; i < data->pending->len; i++)
    {
      Pending *pending = g_ptr_array_index (data->pending, i);
      StewardServerConfig *server = pending->candidate->config;
      g_autoptr(StewardServerConfig) moved = NULL;

      if (pending->keys[0] != NULL)
        {
          moved = steward_server_config_is_remote (server)
                  ? steward_server_config_with_headers (server, pending->values)
                  : steward_server_config_with_env (server, pending->values);
          server = moved;
        }

      /* Recorded for the very entry written, before it is put: the
       * registry follows the config and would otherwise ask at once. The
       * failure to remember it only means the usual question later. */
      if (data->allow)
        {
          g_autoptr(GError) error = NULL;

          if (!steward_config_record_consent (config, server, &error))
            g_message ("Could not record the consent given on import to “%s”: %s",
                       steward_server_config_get_name (server), error->message);
        }

      steward_config_put_server (config, server);
    }

  /* One save for all of them. */
  steward_config_save_async (config, cancellable, save_cb, task);
}

static void
forget_stored (ApplyData *data)
{
  /* Best effort: the keyring failed a moment ago and may fail again, and
   * the person has the error of the store to act on. */
  for (guint i = 0; i < data->stored->len; i++)
    steward_secrets_clear_async (data->secrets, g_ptr_array_index (data->stored, i), NULL,
                                 NULL, NULL);
  g_ptr_array_set_size (data->stored, 0);
}

static void store_next (GTask *task);

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *task = user_data;
  ApplyData *data = g_task_get_task_data (task);
  Pending *pending = g_ptr_array_index (data->pending, data->next);
  const char *key = pending->keys[pending->next_key];
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  id = steward_secrets_store_finish (STEWARD_SECRETS (object), result, &error);
  if (id == NULL)
    {
      forget_stored (data);
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  g_ptr_array_add (data->stored, g_strdup (id));
  g_hash_table_replace (pending->values, g_strdup (key), steward_secret_reference_new (id));
  pending->next_key++;
  store_next (task);
}

static void
store_next (GTask *task)
{
  ApplyData *data = g_task_get_task_data (task);

  while (data->next < data->pending->len)
    {
      Pending *pending = g_ptr_array_index (data->pending, data->next);
      StewardServerConfig *server = pending->candidate->config;
      const char *name = steward_server_config_get_name (server);
      const char *key = pending->keys[pending->next_key];
      g_autofree char *label = NULL;

      if (key == NULL)
        {
          data->next++;
          continue;
        }

      /* Translators: what the keyring (Seahorse) shows for a value moved
       * there; the first placeholder is a server's name, the second an
       * environment variable or header. */
      label = g_strdup_printf (_("Steward: %s — %s"), name, key);
      steward_secrets_store_async (data->secrets, NULL,
                                   steward_server_config_is_remote (server)
                                   ? STEWARD_SECRET_KIND_SERVER_HEADER
                                   : STEWARD_SECRET_KIND_SERVER_ENV,
                                   label, g_hash_table_lookup (pending->values, key),
                                   g_task_get_cancellable (task), store_cb, task);
      return;
    }

  put_all (task);
}

/**
 * steward_import_apply_async:
 * @config: the servers file to import into
 * @secrets: (nullable): the keyring, needed with %STEWARD_IMPORT_MOVE_SECRETS
 * @candidates: a #GListModel of #StewardImportCandidate
 * @flags: whether to move secret values and to record consent
 *
 * Imports the selected candidates that could be read: stores their secret
 * values first (each as "Steward: NAME — VARIABLE"), then puts every
 * server, replacing one with the same name, and saves the servers file
 * once. When the keyring fails, nothing is imported and the secrets stored
 * by this import are removed again. With %STEWARD_IMPORT_ALLOW each server
 * written has the person's consent, bound like any other to its exact
 * command: a later change to it asks again.
 */
void
steward_import_apply_async (StewardConfig       *config,
                            StewardSecrets      *secrets,
                            GListModel          *candidates,
                            StewardImportFlags   flags,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  ApplyData *data;

  g_return_if_fail (STEWARD_IS_CONFIG (config));
  g_return_if_fail (secrets == NULL || STEWARD_IS_SECRETS (secrets));
  g_return_if_fail (!(flags & STEWARD_IMPORT_MOVE_SECRETS) || secrets != NULL);
  g_return_if_fail (G_IS_LIST_MODEL (candidates));
  g_return_if_fail (g_type_is_a (g_list_model_get_item_type (candidates),
                                 STEWARD_TYPE_IMPORT_CANDIDATE));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (config, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_import_apply_async);

  data = g_new0 (ApplyData, 1);
  data->secrets = secrets ? g_object_ref (secrets) : NULL;
  data->allow = (flags & STEWARD_IMPORT_ALLOW) != 0;
  data->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) pending_free);
  data->stored = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) apply_data_free);

  for (guint i = 0; i < g_list_model_get_n_items (candidates); i++)
    {
      g_autoptr(StewardImportCandidate) candidate = g_list_model_get_item (candidates, i);
      StewardServerConfig *server;
      Pending *pending;

      server = candidate->config;
      if (!candidate->selected)
        continue;

      pending = g_new0 (Pending, 1);
      pending->candidate = g_object_ref (candidate);
      pending->values = copy_values (steward_server_config_is_remote (server)
                                     ? steward_server_config_get_headers (server)
                                     : steward_server_config_get_env (server));
      pending->keys = (flags & STEWARD_IMPORT_MOVE_SECRETS) ? g_strdupv (candidate->secret_keys) : g_new0 (char *, 1);
      g_ptr_array_add (data->pending, pending);
    }

  if (data->pending->len == 0)
    {
      g_task_return_int (task, 0);
      g_object_unref (task);
      return;
    }

  store_next (task);
}

/**
 * steward_import_apply_finish:
 *
 * Returns: how many servers were imported, 0 with @error set on failure
 */
guint
steward_import_apply_finish (StewardConfig  *config,
                             GAsyncResult   *result,
                             GError        **error)
{
  gssize count;

  g_return_val_if_fail (STEWARD_IS_CONFIG (config), 0);
  g_return_val_if_fail (g_task_is_valid (result, config), 0);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_import_apply_async,
                        0);

  count = g_task_propagate_int (G_TASK (result), error);
  return count < 0 ? 0 : (guint) count;
}
