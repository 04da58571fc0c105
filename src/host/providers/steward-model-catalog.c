/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-model-catalog"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-file-store.h"

#include "steward-model-catalog.h"

/* A catalogue holds a few hundred models at most (a big router lists
 * three hundred); a larger file is damage, not a catalogue. */
#define CATALOG_MAX_FILE_SIZE (4 * 1024 * 1024)

/* StewardModel */

struct _StewardModel
{
  GObject   parent_instance;

  char     *provider;
  char     *name;
  char     *id;
  double    cost;
  double    speed;
  double    intelligence;
  gboolean  local;
};

enum {
  MODEL_PROP_0,
  MODEL_PROP_PROVIDER,
  MODEL_PROP_NAME,
  MODEL_PROP_ID,
  MODEL_PROP_COST,
  MODEL_PROP_SPEED,
  MODEL_PROP_INTELLIGENCE,
  MODEL_PROP_LOCAL,
  MODEL_N_PROPS
};

static GParamSpec *model_properties[MODEL_N_PROPS];

G_DEFINE_FINAL_TYPE (StewardModel, steward_model, G_TYPE_OBJECT)

/* Known families, by a piece of the name. The first row that matches
 * wins, so the small variants of a big family ("gpt-4o-mini",
 * "deepseek-r1:7b") come before the family itself. "-mini" and ":mini"
 * rather than "mini", which "gemini" contains. */
typedef enum {
  MATCH_SUBSTRING,
  MATCH_PREFIX,
} MatchKind;

static const struct {
  const char *pattern;
  MatchKind   kind;
  double      cost;
  double      speed;
  double      intelligence;
} families[] = {
  /* Small and fast. */
  { "haiku", MATCH_SUBSTRING, 0.2, 0.9, 0.5 },
  { "-mini", MATCH_SUBSTRING, 0.2, 0.9, 0.55 },
  { ":mini", MATCH_SUBSTRING, 0.2, 0.9, 0.4 },
  { "-nano", MATCH_SUBSTRING, 0.1, 0.95, 0.35 },
  { "flash", MATCH_SUBSTRING, 0.2, 0.9, 0.55 },
  { "small", MATCH_SUBSTRING, 0.2, 0.85, 0.4 },
  { ":0.5b", MATCH_SUBSTRING, 0.1, 0.95, 0.15 },
  { ":1b", MATCH_SUBSTRING, 0.1, 0.95, 0.2 },
  { ":1.5b", MATCH_SUBSTRING, 0.1, 0.95, 0.2 },
  { ":3b", MATCH_SUBSTRING, 0.1, 0.9, 0.3 },
  { ":7b", MATCH_SUBSTRING, 0.2, 0.85, 0.4 },
  { ":8b", MATCH_SUBSTRING, 0.2, 0.85, 0.4 },
  { "gpt-3.5", MATCH_SUBSTRING, 0.2, 0.85, 0.35 },
  /* Middling. */
  { "sonnet", MATCH_SUBSTRING, 0.5, 0.6, 0.85 },
  { ":14b", MATCH_SUBSTRING, 0.3, 0.6, 0.55 },
  { ":32b", MATCH_SUBSTRING, 0.4, 0.45, 0.7 },
  /* Large and able. */
  { "opus", MATCH_SUBSTRING, 0.9, 0.3, 0.95 },
  { "gpt-4", MATCH_SUBSTRING, 0.8, 0.5, 0.85 },
  { "gpt-5", MATCH_SUBSTRING, 0.8, 0.5, 0.95 },
  { "o1", MATCH_PREFIX, 0.9, 0.2, 0.9 },
  { "o3", MATCH_PREFIX, 0.9, 0.3, 0.95 },
  { "o4", MATCH_PREFIX, 0.8, 0.4, 0.9 },
  { "deepseek-r1", MATCH_SUBSTRING, 0.7, 0.2, 0.9 },
  { ":70b", MATCH_SUBSTRING, 0.8, 0.3, 0.85 },
  { ":72b", MATCH_SUBSTRING, 0.8, 0.3, 0.85 },
  { "405b", MATCH_SUBSTRING, 0.9, 0.2, 0.9 },
  { "-pro", MATCH_SUBSTRING, 0.7, 0.5, 0.85 },
};

#define DEFAULT_SCORE 0.5

static double
clamp_score (double score)
{
  /* NaN is no score at all. */
  if (!(score >= 0.0))
    return 0.0;

  return MIN (score, 1.0);
}

void
steward_model_default_scores (const char *name,
                              gboolean    local,
                              double     *cost,
                              double     *speed,
                              double     *intelligence)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (name != NULL);
  g_return_if_fail (cost != NULL && speed != NULL && intelligence != NULL);

  *cost = DEFAULT_SCORE;
  *speed = DEFAULT_SCORE;
  *intelligence = DEFAULT_SCORE;

  folded = g_utf8_strdown (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    {
      gboolean match = families[i].kind == MATCH_PREFIX
                       ? g_str_has_prefix (folded, families[i].pattern)
                       : strstr (folded, families[i].pattern) != NULL;

      if (match)
        {
          *cost = families[i].cost;
          *speed = families[i].speed;
          *intelligence = families[i].intelligence;
          break;
        }
    }

  /* A model on this computer costs nothing per token. */
  if (local)
    *cost = 0.0;
}

static void
steward_model_finalize (GObject *object)
{
  StewardModel *self = STEWARD_MODEL (object);

  g_free (self->provider);
  g_free (self->name);
  g_free (self->id);

  G_OBJECT_CLASS (steward_model_parent_class)->finalize (object);
}

static void
steward_model_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  StewardModel *self = STEWARD_MODEL (object);

  switch (prop_id)
    {
    case MODEL_PROP_PROVIDER:
      g_value_set_string (value, self->provider);
      break;
    case MODEL_PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case MODEL_PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case MODEL_PROP_COST:
      g_value_set_double (value, self->cost);
      break;
    case MODEL_PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    case MODEL_PROP_INTELLIGENCE:
      g_value_set_double (value, self->intelligence);
      break;
    case MODEL_PROP_LOCAL:
      g_value_set_boolean (value, self->local);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_model_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  StewardModel *self = STEWARD_MODEL (object);

  switch (prop_id)
    {
    case MODEL_PROP_PROVIDER:
      self->provider = g_value_dup_string (value);
      break;
    case MODEL_PROP_NAME:
      self->name = g_value_dup_string (value);
      break;
    case MODEL_PROP_COST:
      self->cost = clamp_score (g_value_get_double (value));
      break;
    case MODEL_PROP_SPEED:
      self->speed = clamp_score (g_value_get_double (value));
      break;
    case MODEL_PROP_INTELLIGENCE:
      self->intelligence = clamp_score (g_value_get_double (value));
      break;
    case MODEL_PROP_LOCAL:
      self->local = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_model_constructed (GObject *object)
{
  StewardModel *self = STEWARD_MODEL (object);

  G_OBJECT_CLASS (steward_model_parent_class)->constructed (object);

  self->id = g_strconcat (self->provider ? self->provider : "", "/",
                          self->name ? self->name : "", NULL);
}

static void
steward_model_class_init (StewardModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_model_finalize;
  object_class->get_property = steward_model_get_property;
  object_class->set_property = steward_model_set_property;
  object_class->constructed = steward_model_constructed;

  model_properties[MODEL_PROP_PROVIDER] =
    g_param_spec_string ("provider", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  model_properties[MODEL_PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  model_properties[MODEL_PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The scores change through the catalogue, which saves them. */
  model_properties[MODEL_PROP_COST] =
    g_param_spec_double ("cost", NULL, NULL, 0.0, 1.0, DEFAULT_SCORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  model_properties[MODEL_PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.0, 1.0, DEFAULT_SCORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  model_properties[MODEL_PROP_INTELLIGENCE] =
    g_param_spec_double ("intelligence", NULL, NULL, 0.0, 1.0, DEFAULT_SCORE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  model_properties[MODEL_PROP_LOCAL] =
    g_param_spec_boolean ("local", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, MODEL_N_PROPS, model_properties);
}

static void
steward_model_init (StewardModel *self)
{
}

/**
 * steward_model_new:
 * @provider: the provider's id ("ollama")
 * @name: the model's name at that provider ("qwen2.5:7b")
 *
 * Scores are clamped to 0–1.
 *
 * Returns: (transfer full): a new model
 */
StewardModel *
steward_model_new (const char *provider,
                   const char *name,
                   double      cost,
                   double      speed,
                   double      intelligence,
                   gboolean    local)
{
  g_return_val_if_fail (provider != NULL && *provider != '\0', NULL);
  g_return_val_if_fail (name != NULL && *name != '\0', NULL);

  return g_object_new (STEWARD_TYPE_MODEL,
                       "provider", provider,
                       "name", name,
                       "cost", clamp_score (cost),
                       "speed", clamp_score (speed),
                       "intelligence", clamp_score (intelligence),
                       "local", local,
                       NULL);
}

const char *
steward_model_get_provider (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), NULL);

  return self->provider;
}

const char *
steward_model_get_name (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), NULL);

  return self->name;
}

const char *
steward_model_get_id (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), NULL);

  return self->id;
}

double
steward_model_get_cost (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), 0.0);

  return self->cost;
}

double
steward_model_get_speed (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), 0.0);

  return self->speed;
}

double
steward_model_get_intelligence (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), 0.0);

  return self->intelligence;
}

gboolean
steward_model_get_local (StewardModel *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (self), FALSE);

  return self->local;
}

static void
model_set_scores (StewardModel *self,
                  double        cost,
                  double        speed,
                  double        intelligence)
{
  cost = clamp_score (cost);
  speed = clamp_score (speed);
  intelligence = clamp_score (intelligence);

  g_object_freeze_notify (G_OBJECT (self));
  if (self->cost != cost)
    {
      self->cost = cost;
      g_object_notify_by_pspec (G_OBJECT (self), model_properties[MODEL_PROP_COST]);
    }
  if (self->speed != speed)
    {
      self->speed = speed;
      g_object_notify_by_pspec (G_OBJECT (self), model_properties[MODEL_PROP_SPEED]);
    }
  if (self->intelligence != intelligence)
    {
      self->intelligence = intelligence;
      g_object_notify_by_pspec (G_OBJECT (self), model_properties[MODEL_PROP_INTELLIGENCE]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* StewardModelCatalog */

struct _StewardModelCatalog
{
  StewardFileBacked parent_instance;

  GFile            *file;    /* models.json, or NULL; the base's */
  StewardFileStore *store;   /* its store, or NULL; the base's */
  GPtrArray        *models;  /* StewardModel, in the person's order */
  GHashTable       *hints;   /* lowercase hint → model id */
};

enum {
  SIGNAL_HINTS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardModelCatalog, steward_model_catalog, STEWARD_TYPE_FILE_BACKED,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
list_model_get_item_type (GListModel *list)
{
  return STEWARD_TYPE_MODEL;
}

static guint
list_model_get_n_items (GListModel *list)
{
  return STEWARD_MODEL_CATALOG (list)->models->len;
}

static gpointer
list_model_get_item (GListModel *list,
                     guint       position)
{
  StewardModelCatalog *self = STEWARD_MODEL_CATALOG (list);

  if (position >= self->models->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->models, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_model_get_item_type;
  iface->get_n_items = list_model_get_n_items;
  iface->get_item = list_model_get_item;
}

static char *
fold_hint (const char *hint)
{
  g_autofree char *stripped = g_strstrip (g_strdup (hint));

  return g_utf8_strdown (stripped, -1);
}

static gboolean
find_model (StewardModelCatalog *self,
            const char          *id,
            guint               *position)
{
  for (guint i = 0; i < self->models->len; i++)
    if (g_str_equal (steward_model_get_id (g_ptr_array_index (self->models, i)), id))
      {
        if (position != NULL)
          *position = i;
        return TRUE;
      }

  return FALSE;
}

/* models.json */

/* A tree of its own, which the store turns into text on its worker. */
static JsonNode *
serialize (StewardModelCatalog *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GList) hints = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "models");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->models->len; i++)
    {
      StewardModel *model = g_ptr_array_index (self->models, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "provider");
      json_builder_add_string_value (builder, model->provider);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, model->name);
      json_builder_set_member_name (builder, "cost");
      json_builder_add_double_value (builder, model->cost);
      json_builder_set_member_name (builder, "speed");
      json_builder_add_double_value (builder, model->speed);
      json_builder_set_member_name (builder, "intelligence");
      json_builder_add_double_value (builder, model->intelligence);
      json_builder_set_member_name (builder, "local");
      json_builder_add_boolean_value (builder, model->local);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  /* Sorted, so that the file changes little from one save to the next. */
  hints = g_list_sort (g_hash_table_get_keys (self->hints), (GCompareFunc) g_strcmp0);
  json_builder_set_member_name (builder, "hints");
  json_builder_begin_object (builder);
  for (GList *l = hints; l != NULL; l = l->next)
    {
      json_builder_set_member_name (builder, l->data);
      json_builder_add_string_value (builder, g_hash_table_lookup (self->hints, l->data));
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static gboolean
read_score (JsonObject  *object,
            const char  *member,
            guint        index,
            double      *score,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);
  GType type;

  if (node == NULL)
    return TRUE;

  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“models[%u].%s” must be a number from 0 to 1"), index, member);
      return FALSE;
    }

  *score = clamp_score (type == G_TYPE_DOUBLE ? json_node_get_double (node)
                                              : (double) json_node_get_int (node));
  return TRUE;
}

/* Reads the file's contents into @models and @hints, or says what is
 * wrong with them. */
static gboolean
parse (JsonObject  *object,
       GPtrArray   *models,
       GHashTable  *hints,
       GError     **error)
{
  JsonNode *models_node;
  JsonArray *entries;
  JsonNode *hints_node;

  models_node = json_object_get_member (object, "models");
  if (models_node != NULL && !JSON_NODE_HOLDS_ARRAY (models_node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("“models” must be an array"));
      return FALSE;
    }

  entries = models_node != NULL ? json_node_get_array (models_node) : NULL;
  for (guint i = 0; entries != NULL && i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      JsonObject *entry;
      const char *provider;
      const char *name;
      JsonNode *local_node;
      gboolean local = FALSE;
      double cost, speed, intelligence;
      g_autofree char *id = NULL;
      gboolean duplicate = FALSE;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“models[%u]” must be an object"), i);
          return FALSE;
        }

      entry = json_node_get_object (node);
      provider = mcp_json_get_string (entry, "provider");
      name = mcp_json_get_string (entry, "name");
      if (provider == NULL || *provider == '\0' || strchr (provider, '/') != NULL ||
          name == NULL || *name == '\0')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“models[%u]” needs a “provider” id without “/” and a “name”"), i);
          return FALSE;
        }

      local_node = json_object_get_member (entry, "local");
      if (local_node != NULL)
        {
          if (!JSON_NODE_HOLDS_VALUE (local_node) ||
              json_node_get_value_type (local_node) != G_TYPE_BOOLEAN)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("“models[%u].local” must be true or false"), i);
              return FALSE;
            }
          local = json_node_get_boolean (local_node);
        }

      steward_model_default_scores (name, local, &cost, &speed, &intelligence);
      if (!read_score (entry, "cost", i, &cost, error) ||
          !read_score (entry, "speed", i, &speed, error) ||
          !read_score (entry, "intelligence", i, &intelligence, error))
        return FALSE;

      /* A model listed twice is the same model: the first entry counts. */
      id = g_strconcat (provider, "/", name, NULL);
      for (guint j = 0; j < models->len && !duplicate; j++)
        duplicate = g_str_equal (steward_model_get_id (g_ptr_array_index (models, j)), id);
      if (!duplicate)
        g_ptr_array_add (models, steward_model_new (provider, name, cost, speed, intelligence,
                                                    local));
    }

  hints_node = json_object_get_member (object, "hints");
  if (hints_node != NULL && !JSON_NODE_HOLDS_OBJECT (hints_node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("“hints” must be an object of hint → model id"));
      return FALSE;
    }

  if (hints_node != NULL)
    {
      JsonObjectIter iter;
      const char *hint;
      JsonNode *node;

      json_object_iter_init (&iter, json_node_get_object (hints_node));
      while (json_object_iter_next (&iter, &hint, &node))
        {
          g_autofree char *folded = fold_hint (hint);

          if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("“hints.%s” must be a model id (“provider/name”)"), hint);
              return FALSE;
            }

          if (*folded != '\0')
            g_hash_table_replace (hints, g_steal_pointer (&folded),
                                  g_strdup (json_node_get_string (node)));
        }
    }

  return TRUE;
}

/* GObject */

static void
steward_model_catalog_constructed (GObject *object)
{
  StewardModelCatalog *self = STEWARD_MODEL_CATALOG (object);

  G_OBJECT_CLASS (steward_model_catalog_parent_class)->constructed (object);

  self->file = steward_file_backed_get_file (STEWARD_FILE_BACKED (self));
  self->store = steward_file_backed_get_store (STEWARD_FILE_BACKED (self));
}

static void
steward_model_catalog_finalize (GObject *object)
{
  StewardModelCatalog *self = STEWARD_MODEL_CATALOG (object);

  g_clear_pointer (&self->models, g_ptr_array_unref);
  g_clear_pointer (&self->hints, g_hash_table_unref);

  G_OBJECT_CLASS (steward_model_catalog_parent_class)->finalize (object);
}

static void
steward_model_catalog_class_init (StewardModelCatalogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  StewardFileBackedClass *backed_class = STEWARD_FILE_BACKED_CLASS (klass);

  object_class->constructed = steward_model_catalog_constructed;
  object_class->finalize = steward_model_catalog_finalize;

  backed_class->max_size = CATALOG_MAX_FILE_SIZE;
  backed_class->store_flags = STEWARD_FILE_STORE_PRIVATE | STEWARD_FILE_STORE_PRETTY;

  /**
   * StewardModelCatalog::hints-changed:
   *
   * The hint map changed: an entry was set or removed, or the file was
   * loaded.
   */
  signals[SIGNAL_HINTS_CHANGED] =
    g_signal_new ("hints-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
steward_model_catalog_init (StewardModelCatalog *self)
{
  self->models = g_ptr_array_new_with_free_func (g_object_unref);
  self->hints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* Public API */

/**
 * steward_model_catalog_new:
 * @file: (nullable): models.json, or %NULL to keep the catalogue in memory
 */
StewardModelCatalog *
steward_model_catalog_new (GFile *file)
{
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  return g_object_new (STEWARD_TYPE_MODEL_CATALOG, "file", file, NULL);
}

/**
 * steward_model_catalog_load:
 *
 * Reads models.json at once; the file is small. The models and hints it
 * holds replace the catalogue's.
 */
gboolean
steward_model_catalog_load (StewardModelCatalog  *self,
                            GError              **error)
{
  g_autoptr(GPtrArray) models = NULL;
  g_autoptr(GHashTable) hints = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonObject) object = NULL;
  guint removed;

  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (self), FALSE);

  if (self->file == NULL)
    return TRUE;

  models = g_ptr_array_new_with_free_func (g_object_unref);
  hints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  object = steward_file_store_load (self->store, NULL, &local_error);
  if (object == NULL)
    {
      g_autofree char *label = g_file_get_parse_name (self->file);

      /* Nothing saved yet: an empty catalogue. A file too large, not JSON
       * or not an object is damage, and the store's error names it. */
      if (local_error->domain == STEWARD_FILE_STORE_ERROR)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               local_error->message);
          return FALSE;
        }
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          g_set_error (error, G_IO_ERROR, local_error->code,
                       _("Cannot read the models %s: %s"), label, local_error->message);
          return FALSE;
        }
    }
  else if (!parse (object, models, hints, &local_error))
    {
      g_autofree char *label = g_file_get_parse_name (self->file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: %s", label, local_error->message);
      return FALSE;
    }

  removed = self->models->len;
  g_clear_pointer (&self->models, g_ptr_array_unref);
  self->models = g_steal_pointer (&models);
  g_clear_pointer (&self->hints, g_hash_table_unref);
  self->hints = g_steal_pointer (&hints);

  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->models->len);
  g_signal_emit (self, signals[SIGNAL_HINTS_CHANGED], 0);

  return TRUE;
}

/**
 * steward_model_catalog_save_async:
 *
 * Writes models.json atomically on a worker. Saves never overlap, and the
 * file holds every change made before the call once it finishes.
 */
void
steward_model_catalog_save_async (StewardModelCatalog *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_if_fail (STEWARD_IS_MODEL_CATALOG (self));

  root = serialize (self);
  steward_file_backed_save_async (STEWARD_FILE_BACKED (self), root, cancellable,
                                  callback, user_data);
}

gboolean
steward_model_catalog_save_finish (StewardModelCatalog  *self,
                                   GAsyncResult         *result,
                                   GError              **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *label = NULL;

  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (self), FALSE);

  if (steward_file_backed_save_finish (STEWARD_FILE_BACKED (self), result, &local_error))
    return TRUE;

  label = g_file_get_parse_name (self->file);
  g_set_error (error, G_IO_ERROR,
               local_error->domain == G_IO_ERROR ? local_error->code : G_IO_ERROR_FAILED,
               _("Cannot save the models to %s: %s"), label, local_error->message);
  return FALSE;
}

/**
 * steward_model_catalog_lookup:
 * @id: "provider/name"
 *
 * Returns: (transfer none) (nullable): the model
 */
StewardModel *
steward_model_catalog_lookup (StewardModelCatalog *self,
                              const char          *id)
{
  guint position;

  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  if (!find_model (self, id, &position))
    return NULL;

  return g_ptr_array_index (self->models, position);
}

/**
 * steward_model_catalog_add:
 * @provider: the provider's id, without "/"
 * @name: the model's name at that provider
 * @local: whether the provider runs on this computer
 *
 * Adds the model at the end with the scores of its family, unless the
 * catalogue has it already; then the person's scores stay.
 *
 * Returns: (transfer none): the model
 */
StewardModel *
steward_model_catalog_add (StewardModelCatalog *self,
                           const char          *provider,
                           const char          *name,
                           gboolean             local)
{
  g_autofree char *id = NULL;
  StewardModel *model;
  double cost, speed, intelligence;
  guint position;

  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (self), NULL);
  g_return_val_if_fail (provider != NULL && *provider != '\0', NULL);
  g_return_val_if_fail (strchr (provider, '/') == NULL, NULL);
  g_return_val_if_fail (name != NULL && *name != '\0', NULL);

  id = g_strconcat (provider, "/", name, NULL);
  if (find_model (self, id, &position))
    return g_ptr_array_index (self->models, position);

  steward_model_default_scores (name, local, &cost, &speed, &intelligence);
  model = steward_model_new (provider, name, cost, speed, intelligence, local);
  g_ptr_array_add (self->models, model);
  g_list_model_items_changed (G_LIST_MODEL (self), self->models->len - 1, 0, 1);

  return model;
}

/**
 * steward_model_catalog_remove:
 * @id: "provider/name"
 *
 * Removes the model; hints that sent a family to it are removed too, so
 * that the map never names a model the catalogue does not have.
 */
void
steward_model_catalog_remove (StewardModelCatalog *self,
                              const char          *id)
{
  GHashTableIter iter;
  gpointer value;
  gboolean hints_changed = FALSE;
  guint position;

  g_return_if_fail (STEWARD_IS_MODEL_CATALOG (self));
  g_return_if_fail (id != NULL);

  if (!find_model (self, id, &position))
    return;

  g_ptr_array_remove_index (self->models, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);

  g_hash_table_iter_init (&iter, self->hints);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (g_str_equal (value, id))
      {
        g_hash_table_iter_remove (&iter);
        hints_changed = TRUE;
      }

  if (hints_changed)
    g_signal_emit (self, signals[SIGNAL_HINTS_CHANGED], 0);
}

/**
 * steward_model_catalog_set_scores:
 *
 * Each score is clamped to 0–1; the model notifies the ones that changed.
 */
void
steward_model_catalog_set_scores (StewardModelCatalog *self,
                                  const char          *id,
                                  double               cost,
                                  double               speed,
                                  double               intelligence)
{
  StewardModel *model;

  g_return_if_fail (STEWARD_IS_MODEL_CATALOG (self));
  g_return_if_fail (id != NULL);

  model = steward_model_catalog_lookup (self, id);
  if (model == NULL)
    return;

  model_set_scores (model, cost, speed, intelligence);
}

/**
 * steward_model_catalog_get_hints:
 *
 * Returns: (transfer none) (element-type utf8 utf8): lowercase hint →
 *   model id
 */
GHashTable *
steward_model_catalog_get_hints (StewardModelCatalog *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (self), NULL);

  return self->hints;
}

/**
 * steward_model_catalog_set_hint:
 * @hint: a hint family ("sonnet"); kept in lowercase, without the spaces
 *   around it
 * @model: (nullable): the model id it sends to, or %NULL to remove it
 */
void
steward_model_catalog_set_hint (StewardModelCatalog *self,
                                const char          *hint,
                                const char          *model)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (STEWARD_IS_MODEL_CATALOG (self));
  g_return_if_fail (hint != NULL);

  folded = fold_hint (hint);
  g_return_if_fail (*folded != '\0');

  if (model == NULL)
    {
      if (!g_hash_table_remove (self->hints, folded))
        return;
    }
  else
    {
      if (g_strcmp0 (g_hash_table_lookup (self->hints, folded), model) == 0)
        return;
      g_hash_table_replace (self->hints, g_steal_pointer (&folded), g_strdup (model));
    }

  g_signal_emit (self, signals[SIGNAL_HINTS_CHANGED], 0);
}
