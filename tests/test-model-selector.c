/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-model-selector"

#include "config.h"

#include <string.h>

#include "steward-model-selector.h"

/* The catalogue every row starts from, in this order, with these scores:
 * two remote families, a cheap remote model and two on this computer. */
static const struct {
  const char *provider;
  const char *name;
  double      cost;
  double      speed;
  double      intelligence;
  gboolean    local;
} models[] = {
  { "anthropic", "claude-sonnet-4", 0.5, 0.6, 0.85, FALSE },
  { "anthropic", "claude-3-5-haiku", 0.2, 0.9, 0.5, FALSE },
  { "openai", "gpt-4o", 0.8, 0.5, 0.9, FALSE },
  { "openai", "gpt-4o-mini", 0.2, 0.9, 0.55, FALSE },
  { "ollama", "qwen2.5:7b", 0.0, 0.85, 0.45, TRUE },
  { "ollama", "llama3.1:70b", 0.0, 0.3, 0.8, TRUE },
};

typedef struct {
  const char *what;
  /* The request's modelPreferences, or NULL for none. */
  const char *preferences;
  /* "hint=model;…", or NULL for an empty map. */
  const char *map;
  /* Comma-separated model ids, "" for none allowed, NULL for all. */
  const char *allowed;
  gboolean    local_only;
  /* The model chosen, or NULL when the person writes the answer. */
  const char *expected;
  const char *reason;
} Row;

static const Row rows[] = {
  { "map sends a hint family to a configured model",
    "{\"hints\": [{\"name\": \"claude-3-sonnet\"}]}",
    "sonnet=anthropic/claude-sonnet-4", NULL, FALSE,
    "anthropic/claude-sonnet-4",
    "“claude-3-sonnet” was asked for first; your map sends “sonnet” to "
    "“anthropic/claude-sonnet-4”." },
  { "hint is a case-insensitive substring of a name",
    "{\"hints\": [{\"name\": \"GPT-4O\"}]}",
    NULL, NULL, FALSE,
    "openai/gpt-4o",
    "“GPT-4O” was asked for first, and “openai/gpt-4o” matches it." },
  { "a hint that matches nothing gives way to the next",
    "{\"hints\": [{\"name\": \"gemini\"}, {\"name\": \"haiku\"}]}",
    NULL, NULL, FALSE,
    "anthropic/claude-3-5-haiku",
    "“haiku” is the first of the server’s hints that matches a model: "
    "“anthropic/claude-3-5-haiku”." },
  { "hints are taken in the server's order",
    "{\"hints\": [{\"name\": \"mini\"}, {\"name\": \"haiku\"}]}",
    NULL, NULL, FALSE,
    "openai/gpt-4o-mini",
    "“mini” was asked for first, and “openai/gpt-4o-mini” matches it." },
  { "hints come before priorities",
    "{\"hints\": [{\"name\": \"qwen\"}], \"intelligencePriority\": 1}",
    NULL, NULL, FALSE,
    "ollama/qwen2.5:7b",
    "“qwen” was asked for first, and “ollama/qwen2.5:7b” matches it." },
  { "the map is tried before the names",
    "{\"hints\": [{\"name\": \"gpt-4o\"}]}",
    "gpt-4=ollama/llama3.1:70b", NULL, FALSE,
    "ollama/llama3.1:70b",
    "“gpt-4o” was asked for first; your map sends “gpt-4” to “ollama/llama3.1:70b”." },
  { "the longest family in the map wins",
    "{\"hints\": [{\"name\": \"claude-3-5-sonnet-latest\"}]}",
    "sonnet=openai/gpt-4o;3-5-sonnet=anthropic/claude-sonnet-4", NULL, FALSE,
    "anthropic/claude-sonnet-4",
    "“claude-3-5-sonnet-latest” was asked for first; your map sends “3-5-sonnet” to "
    "“anthropic/claude-sonnet-4”." },
  { "the map is case-insensitive too",
    "{\"hints\": [{\"name\": \"CLAUDE-SONNET\"}]}",
    "Sonnet=openai/gpt-4o", NULL, FALSE,
    "openai/gpt-4o",
    "“CLAUDE-SONNET” was asked for first; your map sends “sonnet” to “openai/gpt-4o”." },
  { "a mapped model the server may not use is passed over",
    "{\"hints\": [{\"name\": \"claude-3-sonnet\"}], \"speedPriority\": 1}",
    "sonnet=anthropic/claude-sonnet-4", "openai/gpt-4o,ollama/qwen2.5:7b", FALSE,
    "ollama/qwen2.5:7b",
    "No hint matched, so the best for speed among the 2 models this server may use: "
    "“ollama/qwen2.5:7b”." },
  { "hints that are not names are skipped",
    "{\"hints\": [{\"name\": 3}, {\"name\": \"  \"}, \"qwen\", {\"name\": \"llama\"}]}",
    NULL, NULL, FALSE,
    "ollama/llama3.1:70b",
    "“llama” is the first of the server’s hints that matches a model: "
    "“ollama/llama3.1:70b”." },
  { "speed first; a tie goes to the catalogue order",
    "{\"speedPriority\": 1}",
    NULL, NULL, FALSE,
    "anthropic/claude-3-5-haiku",
    "No hint matched, so the best for speed among the 6 models this server may use: "
    "“anthropic/claude-3-5-haiku”." },
  { "intelligence first",
    "{\"intelligencePriority\": 0.9, \"speedPriority\": 0.1}",
    NULL, NULL, FALSE,
    "openai/gpt-4o",
    "No hint matched, so the best for intelligence among the 6 models this server may use: "
    "“openai/gpt-4o”." },
  { "cost first: a cheap model scores high, local ones tie",
    "{\"costPriority\": 1}",
    NULL, NULL, FALSE,
    "ollama/qwen2.5:7b",
    "No hint matched, so the best for cost among the 6 models this server may use: "
    "“ollama/qwen2.5:7b”." },
  { "priorities are weighed together",
    "{\"costPriority\": 0.3, \"speedPriority\": 0.2, \"intelligencePriority\": 0.9}",
    NULL, NULL, FALSE,
    "ollama/llama3.1:70b",
    "No hint matched, so the best for intelligence among the 6 models this server may use: "
    "“ollama/llama3.1:70b”." },
  { "equal top priorities",
    "{\"costPriority\": 0.5, \"speedPriority\": 0.5}",
    NULL, NULL, FALSE,
    "ollama/qwen2.5:7b",
    "No hint matched, so the best for the server’s priorities among the 6 models this server "
    "may use: “ollama/qwen2.5:7b”." },
  { "priorities out of range are clamped",
    "{\"speedPriority\": 7, \"intelligencePriority\": -3, \"costPriority\": \"high\"}",
    NULL, NULL, FALSE,
    "anthropic/claude-3-5-haiku",
    "No hint matched, so the best for speed among the 6 models this server may use: "
    "“anthropic/claude-3-5-haiku”." },
  { "no preferences at all: the best balance",
    NULL,
    NULL, NULL, FALSE,
    "ollama/qwen2.5:7b",
    "No hint matched, so the best balance of cost, speed and intelligence among the 6 models "
    "this server may use: “ollama/qwen2.5:7b”." },
  { "the allowed list filters",
    "{\"intelligencePriority\": 1}",
    NULL, "ollama/qwen2.5:7b,anthropic/claude-3-5-haiku,gone/model", FALSE,
    "anthropic/claude-3-5-haiku",
    "No hint matched, so the best for intelligence among the 2 models this server may use: "
    "“anthropic/claude-3-5-haiku”." },
  { "hints only match allowed models",
    "{\"hints\": [{\"name\": \"gpt\"}, {\"name\": \"qwen\"}]}",
    NULL, "ollama/qwen2.5:7b,anthropic/claude-3-5-haiku", FALSE,
    "ollama/qwen2.5:7b",
    "“qwen” is the first of the server’s hints that matches a model: “ollama/qwen2.5:7b”." },
  { "local only",
    "{\"intelligencePriority\": 1}",
    NULL, NULL, TRUE,
    "ollama/llama3.1:70b",
    "No hint matched, so the best for intelligence among the 2 models this server may use: "
    "“ollama/llama3.1:70b”." },
  { "local only passes over a remote hint",
    "{\"hints\": [{\"name\": \"sonnet\"}], \"speedPriority\": 1}",
    "sonnet=anthropic/claude-sonnet-4", NULL, TRUE,
    "ollama/qwen2.5:7b",
    "No hint matched, so the best for speed among the 2 models this server may use: "
    "“ollama/qwen2.5:7b”." },
  { "the only model",
    "{\"hints\": [{\"name\": \"opus\"}]}",
    NULL, "openai/gpt-4o", FALSE,
    "openai/gpt-4o",
    "No hint matched, and “openai/gpt-4o” is the only model this server may use." },
  { "nothing allowed",
    "{\"hints\": [{\"name\": \"sonnet\"}]}",
    NULL, "", FALSE,
    NULL,
    "No model is allowed for this server, so you write the answer." },
  { "allowed models, none local",
    "{\"speedPriority\": 1}",
    NULL, "openai/gpt-4o,anthropic/claude-sonnet-4", TRUE,
    NULL,
    "This server may use only models on this computer, and none of the models it may use "
    "runs here, so you write the answer." },
};

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  if (text == NULL)
    return NULL;

  node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static StewardModelCatalog *
new_catalog (const char *map)
{
  StewardModelCatalog *catalog = steward_model_catalog_new (NULL);
  g_auto(GStrv) entries = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      StewardModel *model = steward_model_catalog_add (catalog, models[i].provider,
                                                       models[i].name, models[i].local);

      steward_model_catalog_set_scores (catalog, steward_model_get_id (model), models[i].cost,
                                        models[i].speed, models[i].intelligence);
    }

  entries = g_strsplit (map ? map : "", ";", -1);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (entries[i], "=", 2);

      if (pair[0] != NULL && pair[1] != NULL)
        steward_model_catalog_set_hint (catalog, pair[0], pair[1]);
    }

  return catalog;
}

static void
test_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const Row *row = &rows[i];
      StewardModelCatalog *catalog = new_catalog (row->map);
      g_autoptr(JsonObject) preferences = parse_object (row->preferences);
      g_auto(GStrv) allowed = NULL;
      g_autofree char *reason = NULL;
      StewardModel *model;

      g_test_message ("row %u: %s", i, row->what);

      if (row->allowed != NULL)
        allowed = *row->allowed != '\0' ? g_strsplit (row->allowed, ",", -1)
                                        : g_new0 (char *, 1);

      model = steward_model_selector_select (catalog, preferences,
                                             (const char * const *) allowed,
                                             row->local_only, &reason);

      g_assert_cmpstr (model ? steward_model_get_id (model) : NULL, ==, row->expected);
      g_assert_cmpstr (reason, ==, row->reason);

      g_clear_object (&model);
      g_assert_finalize_object (catalog);
    }
}

static void
test_empty_catalog (void)
{
  StewardModelCatalog *catalog = steward_model_catalog_new (NULL);
  g_autoptr(JsonObject) preferences = parse_object ("{\"hints\": [{\"name\": \"sonnet\"}]}");
  g_autofree char *reason = NULL;
  StewardModel *model;

  model = steward_model_selector_select (catalog, preferences, NULL, FALSE, &reason);
  g_assert_null (model);
  g_assert_cmpstr (reason, ==, "No model is configured, so you write the answer.");
  g_clear_pointer (&reason, g_free);

  model = steward_model_selector_select (catalog, NULL, NULL, TRUE, &reason);
  g_assert_null (model);
  g_assert_cmpstr (reason, ==, "No model is configured, so you write the answer.");

  g_assert_finalize_object (catalog);
}

/* The caller owns what it gets: the catalogue may drop the model at once. */
static void
test_reference (void)
{
  StewardModelCatalog *catalog = new_catalog (NULL);
  g_autoptr(JsonObject) preferences = parse_object ("{\"hints\": [{\"name\": \"qwen\"}]}");
  StewardModel *model;

  model = steward_model_selector_select (catalog, preferences, NULL, FALSE, NULL);
  g_assert_nonnull (model);
  steward_model_catalog_remove (catalog, "ollama/qwen2.5:7b");
  g_assert_cmpstr (steward_model_get_name (model), ==, "qwen2.5:7b");

  g_assert_finalize_object (model);
  g_assert_finalize_object (catalog);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/model-selector/table", test_table);
  g_test_add_func ("/steward/model-selector/empty-catalog", test_empty_catalog);
  g_test_add_func ("/steward/model-selector/reference", test_reference);

  return g_test_run ();
}
