/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "steward-file-backed.h"

G_BEGIN_DECLS

/*
 * The models the person can use, as a GListModel of StewardModel, kept in
 * models.json in the config folder: {"models": [{"provider": "ollama",
 * "name": "qwen2.5:7b", "cost": 0.0–1.0, "speed": 0.0–1.0,
 * "intelligence": 0.0–1.0, "local": bool}], "hints": {"sonnet":
 * "anthropic/claude-…", "gpt-4": "ollama/qwen2.5:32b"}}. Scores are
 * editable; sensible defaults come from the name (known families) and from
 * whether the provider is local (cost 0 for local). The hint map sends a
 * hint family to a configured model ("provider/name").
 *
 * Models come and go through the GListModel's "items-changed"; a model's
 * scores notify on the StewardModel ("cost", "speed", "intelligence"); the
 * hint map emits "hints-changed". Nothing is written until save_async.
 */

#define STEWARD_TYPE_MODEL (steward_model_get_type ())
G_DECLARE_FINAL_TYPE (StewardModel, steward_model, STEWARD, MODEL, GObject)

#define STEWARD_TYPE_MODEL_CATALOG (steward_model_catalog_get_type ())
G_DECLARE_FINAL_TYPE (StewardModelCatalog, steward_model_catalog, STEWARD, MODEL_CATALOG,
                      StewardFileBacked)

StewardModel        *steward_model_new                  (const char          *provider,
                                                         const char          *name,
                                                         double               cost,
                                                         double               speed,
                                                         double               intelligence,
                                                         gboolean             local);
const char          *steward_model_get_provider         (StewardModel        *self);
const char          *steward_model_get_name             (StewardModel        *self);
/* "provider/name" */
const char          *steward_model_get_id               (StewardModel        *self);
double               steward_model_get_cost             (StewardModel        *self);
double               steward_model_get_speed            (StewardModel        *self);
double               steward_model_get_intelligence     (StewardModel        *self);
gboolean             steward_model_get_local            (StewardModel        *self);
/* The scores a model starts with: from its family when the name is known,
 * else middling; cost 0 when it runs on this computer. */
void                 steward_model_default_scores       (const char          *name,
                                                         gboolean             local,
                                                         double              *cost,
                                                         double              *speed,
                                                         double              *intelligence);

/* @file NULL keeps it in memory (tests). */
StewardModelCatalog *steward_model_catalog_new          (GFile               *file);
/* A missing file is an empty catalogue; a damaged one is a
 * G_IO_ERROR_INVALID_DATA error that names the file, and the catalogue
 * stays as it was. */
gboolean             steward_model_catalog_load         (StewardModelCatalog *self,
                                                         GError             **error);
void                 steward_model_catalog_save_async   (StewardModelCatalog *self,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean             steward_model_catalog_save_finish  (StewardModelCatalog *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
StewardModel        *steward_model_catalog_lookup       (StewardModelCatalog *self,
                                                         const char          *id);
/* Adds a model with default scores unless known; returns it (transfer none). */
StewardModel        *steward_model_catalog_add          (StewardModelCatalog *self,
                                                         const char          *provider,
                                                         const char          *name,
                                                         gboolean             local);
void                 steward_model_catalog_remove       (StewardModelCatalog *self,
                                                         const char          *id);
void                 steward_model_catalog_set_scores   (StewardModelCatalog *self,
                                                         const char          *id,
                                                         double               cost,
                                                         double               speed,
                                                         double               intelligence);
/* The hint map: lowercase hint → model id; NULL @model removes it. */
GHashTable          *steward_model_catalog_get_hints    (StewardModelCatalog *self);
void                 steward_model_catalog_set_hint     (StewardModelCatalog *self,
                                                         const char          *hint,
                                                         const char          *model);

G_END_DECLS
