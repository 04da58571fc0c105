/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-model-selector"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-model-selector.h"

typedef enum {
  PRIORITY_COST,
  PRIORITY_SPEED,
  PRIORITY_INTELLIGENCE,
  N_PRIORITIES
} Priority;

static const char * const priority_members[N_PRIORITIES] = {
  [PRIORITY_COST] = "costPriority",
  [PRIORITY_SPEED] = "speedPriority",
  [PRIORITY_INTELLIGENCE] = "intelligencePriority",
};

/* A priority as the server wrote it, within 0–1; anything else (missing,
 * not a number, NaN) counts as 0. */
static double
read_priority (JsonObject *preferences,
               const char *member)
{
  JsonNode *node = preferences ? json_object_get_member (preferences, member) : NULL;
  double value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0.0;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_DOUBLE:
      value = json_node_get_double (node);
      break;
    case G_TYPE_INT64:
      value = (double) json_node_get_int (node);
      break;
    default:
      return 0.0;
    }

  if (!(value >= 0.0))
    return 0.0;

  return MIN (value, 1.0);
}

/* The models the server may use, in catalogue order (transfer full). */
static GPtrArray *
list_candidates (StewardModelCatalog *catalog,
                 const char * const  *allowed,
                 gboolean             local_only,
                 guint               *n_allowed)
{
  GPtrArray *candidates = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog));

  *n_allowed = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (catalog), i);

      if (allowed != NULL && !g_strv_contains (allowed, steward_model_get_id (model)))
        continue;

      (*n_allowed)++;
      if (local_only && !steward_model_get_local (model))
        continue;

      g_ptr_array_add (candidates, g_steal_pointer (&model));
    }

  return candidates;
}

static StewardModel *
find_candidate (GPtrArray  *candidates,
                const char *id)
{
  for (guint i = 0; id != NULL && i < candidates->len; i++)
    {
      StewardModel *model = g_ptr_array_index (candidates, i);

      if (g_str_equal (steward_model_get_id (model), id))
        return model;
    }

  return NULL;
}

/* The person's map: the longest family that @hint contains and that
 * sends it to a model the server may use. The longest, because "claude-3-
 * 5-sonnet" is better told by "3-5-sonnet" than by "sonnet"; equal
 * lengths go to the family first in alphabetical order, so that the
 * choice never depends on a hash table's order. */
static StewardModel *
map_hint (GHashTable  *hints,
          const char  *folded_hint,
          GPtrArray   *candidates,
          const char **family)
{
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  StewardModel *best = NULL;
  gsize best_length = 0;

  *family = NULL;
  g_hash_table_iter_init (&iter, hints);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *folded_key = g_utf8_casefold (key, -1);
      StewardModel *model;
      gsize length = strlen (folded_key);

      if (length == 0 || strstr (folded_hint, folded_key) == NULL)
        continue;

      model = find_candidate (candidates, value);
      if (model == NULL)
        continue;

      if (best == NULL || length > best_length ||
          (length == best_length && g_strcmp0 (key, *family) < 0))
        {
          best = model;
          best_length = length;
          *family = key;
        }
    }

  return best;
}

static StewardModel *
match_name (GPtrArray  *candidates,
            const char *folded_hint)
{
  for (guint i = 0; i < candidates->len; i++)
    {
      StewardModel *model = g_ptr_array_index (candidates, i);
      g_autofree char *folded_name = g_utf8_casefold (steward_model_get_name (model), -1);

      if (strstr (folded_name, folded_hint) != NULL)
        return model;
    }

  return NULL;
}

/* Hints in the server's order: the first one that leads to a model wins. */
static StewardModel *
select_by_hints (StewardModelCatalog  *catalog,
                 JsonObject           *preferences,
                 GPtrArray            *candidates,
                 char                **reason)
{
  JsonNode *hints_node = preferences ? json_object_get_member (preferences, "hints") : NULL;
  JsonArray *hints;
  guint n_hints;

  if (hints_node == NULL || !JSON_NODE_HOLDS_ARRAY (hints_node))
    return NULL;

  hints = json_node_get_array (hints_node);
  n_hints = json_array_get_length (hints);
  for (guint i = 0; i < n_hints; i++)
    {
      JsonNode *node = json_array_get_element (hints, i);
      JsonNode *name_node;
      const char *name;
      g_autofree char *folded = NULL;
      const char *family = NULL;
      StewardModel *model;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      name_node = json_object_get_member (json_node_get_object (node), "name");
      if (name_node == NULL || !JSON_NODE_HOLDS_VALUE (name_node) ||
          json_node_get_value_type (name_node) != G_TYPE_STRING)
        continue;

      name = json_node_get_string (name_node);
      folded = g_utf8_casefold (name, -1);
      g_strstrip (folded);
      if (*folded == '\0')
        continue;

      model = map_hint (steward_model_catalog_get_hints (catalog), folded, candidates, &family);
      if (model != NULL)
        {
          if (i == 0)
            /* Translators: the first %s is a hint from the server ("claude-3-sonnet"),
             * the second a family in the person's map ("sonnet"), the third a model. */
            *reason = g_strdup_printf (_("“%s” was asked for first; your map sends “%s” "
                                         "to “%s”."),
                                       name, family, steward_model_get_id (model));
          else
            /* Translators: the first %s is a hint from the server ("claude-3-sonnet"),
             * the second a family in the person's map ("sonnet"), the third a model. */
            *reason = g_strdup_printf (_("“%s” is the first of the server’s hints that "
                                         "leads to a model; your map sends “%s” to “%s”."),
                                       name, family, steward_model_get_id (model));
          return g_object_ref (model);
        }

      model = match_name (candidates, folded);
      if (model != NULL)
        {
          if (i == 0)
            /* Translators: the first %s is a hint from the server, the second a model. */
            *reason = g_strdup_printf (_("“%s” was asked for first, and “%s” matches it."),
                                       name, steward_model_get_id (model));
          else
            /* Translators: the first %s is a hint from the server, the second a model. */
            *reason = g_strdup_printf (_("“%s” is the first of the server’s hints that "
                                         "matches a model: “%s”."),
                                       name, steward_model_get_id (model));
          return g_object_ref (model);
        }
    }

  return NULL;
}

static double
score (StewardModel *model,
       const double  weights[N_PRIORITIES])
{
  /* A cheap model scores high on cost: the priority is for saving. */
  return weights[PRIORITY_COST] * (1.0 - steward_model_get_cost (model)) +
         weights[PRIORITY_SPEED] * steward_model_get_speed (model) +
         weights[PRIORITY_INTELLIGENCE] * steward_model_get_intelligence (model);
}

/* No hint led anywhere: the best weighted score, ties to catalogue order.
 * Without priorities every score weighs the same. */
static StewardModel *
select_by_priorities (JsonObject  *preferences,
                      GPtrArray   *candidates,
                      char       **reason)
{
  double weights[N_PRIORITIES];
  double top = 0.0;
  guint n_top = 0;
  Priority top_priority = PRIORITY_COST;
  StewardModel *best = NULL;
  double best_score = 0.0;
  guint n = candidates->len;

  for (Priority p = 0; p < N_PRIORITIES; p++)
    {
      weights[p] = read_priority (preferences, priority_members[p]);
      if (weights[p] > top)
        {
          top = weights[p];
          top_priority = p;
        }
    }

  for (Priority p = 0; p < N_PRIORITIES; p++)
    if (top > 0.0 && weights[p] == top)
      n_top++;

  if (top == 0.0)
    for (Priority p = 0; p < N_PRIORITIES; p++)
      weights[p] = 1.0;

  for (guint i = 0; i < n; i++)
    {
      StewardModel *model = g_ptr_array_index (candidates, i);
      double s = score (model, weights);

      if (best == NULL || s > best_score)
        {
          best = model;
          best_score = s;
        }
    }

  if (n == 1)
    /* Translators: %s is a model ("ollama/qwen2.5:7b"). */
    *reason = g_strdup_printf (_("No hint matched, and “%s” is the only model this server "
                                 "may use."),
                               steward_model_get_id (best));
  else if (top == 0.0)
    /* Translators: %u is a number of models (2 or more), %s a model. */
    *reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "No hint matched, so the best balance of cost, "
                                            "speed and intelligence among the %u model this "
                                            "server may use: “%s”.",
                                            "No hint matched, so the best balance of cost, "
                                            "speed and intelligence among the %u models this "
                                            "server may use: “%s”.",
                                            n),
                               n, steward_model_get_id (best));
  else if (n_top > 1)
    /* Translators: %u is a number of models (2 or more), %s a model. */
    *reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "No hint matched, so the best for the server’s "
                                            "priorities among the %u model this server may "
                                            "use: “%s”.",
                                            "No hint matched, so the best for the server’s "
                                            "priorities among the %u models this server may "
                                            "use: “%s”.",
                                            n),
                               n, steward_model_get_id (best));
  else if (top_priority == PRIORITY_COST)
    /* Translators: %u is a number of models (2 or more), %s a model. */
    *reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "No hint matched, so the best for cost among the "
                                            "%u model this server may use: “%s”.",
                                            "No hint matched, so the best for cost among the "
                                            "%u models this server may use: “%s”.",
                                            n),
                               n, steward_model_get_id (best));
  else if (top_priority == PRIORITY_SPEED)
    /* Translators: %u is a number of models (2 or more), %s a model. */
    *reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "No hint matched, so the best for speed among the "
                                            "%u model this server may use: “%s”.",
                                            "No hint matched, so the best for speed among the "
                                            "%u models this server may use: “%s”.",
                                            n),
                               n, steward_model_get_id (best));
  else
    /* Translators: %u is a number of models (2 or more), %s a model. */
    *reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "No hint matched, so the best for intelligence "
                                            "among the %u model this server may use: “%s”.",
                                            "No hint matched, so the best for intelligence "
                                            "among the %u models this server may use: “%s”.",
                                            n),
                               n, steward_model_get_id (best));

  return g_object_ref (best);
}

/**
 * steward_model_selector_select:
 * @catalog: the person's models
 * @model_preferences: (nullable): the request's "modelPreferences"
 * @allowed: (nullable) (array zero-terminated=1): the model ids the server
 *   may use, or %NULL for all
 * @local_only: whether only models on this computer may answer
 * @reason: (out) (transfer full): a sentence for the person that says why
 *
 * Returns: (transfer full) (nullable): the model, or %NULL when none may
 *   answer and the person writes the answer
 */
StewardModel *
steward_model_selector_select (StewardModelCatalog *catalog,
                               JsonObject          *model_preferences,
                               const char * const  *allowed,
                               gboolean             local_only,
                               char               **reason)
{
  g_autoptr(GPtrArray) candidates = NULL;
  g_autofree char *why = NULL;
  StewardModel *model;
  guint n_allowed;

  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (catalog), NULL);

  candidates = list_candidates (catalog, allowed, local_only, &n_allowed);

  if (candidates->len == 0)
    {
      if (g_list_model_get_n_items (G_LIST_MODEL (catalog)) == 0)
        why = g_strdup (_("No model is configured, so you write the answer."));
      else if (local_only && n_allowed > 0)
        why = g_strdup (_("This server may use only models on this computer, and none of "
                          "the models it may use runs here, so you write the answer."));
      else
        why = g_strdup (_("No model is allowed for this server, so you write the answer."));
      model = NULL;
    }
  else
    {
      model = select_by_hints (catalog, model_preferences, candidates, &why);
      if (model == NULL)
        model = select_by_priorities (model_preferences, candidates, &why);
    }

  if (reason != NULL)
    *reason = g_steal_pointer (&why);

  return model;
}
