/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * An LLM back end (docs/ARCHITECTURE.md §3). Requests and answers use one neutral
 * shape, the one MCP's sampling uses (2025-11-25), so that sampling passes
 * through and chat needs no second model of messages:
 *
 * request: {"model": "NAME", "systemPrompt": "…", "messages": [{"role":
 *   "user"|"assistant", "content": BLOCK or [BLOCK…]}…], "maxTokens": N,
 *   "temperature": x, "stopSequences": […], "metadata": {…},
 *   "tools": [{"name", "description", "inputSchema"}…],
 *   "toolChoice": {"mode": "auto"|"required"|"none"}}
 * BLOCK: {"type": "text", "text"} | {"type": "image", "data", "mimeType"} |
 *   {"type": "audio", "data", "mimeType"} | {"type": "tool_use", "id",
 *   "name", "input"} | {"type": "tool_result", "toolUseId", "content":
 *   [BLOCK…], "isError"}
 * answer (finish): {"role": "assistant", "content": [BLOCK…], "model":
 *   "NAME", "stopReason": "endTurn"|"maxTokens"|"stopSequence"|"toolUse"|
 *   other, "usage": {"inputTokens": N, "outputTokens": N}}
 *
 * While the answer streams, the event function is called on the main
 * context with text deltas and with each tool call once its arguments are
 * complete. Cancelling the cancellable stops the stream at once (the HTTP
 * request is cancelled) and the finish function returns
 * G_IO_ERROR_CANCELLED.
 */

#define STEWARD_PROVIDER_ERROR (steward_provider_error_quark ())

typedef enum {
  STEWARD_PROVIDER_ERROR_NO_KEY,          /* the key is not in the keyring */
  STEWARD_PROVIDER_ERROR_UNAUTHORIZED,    /* 401/403: which key, where to fix it */
  STEWARD_PROVIDER_ERROR_RATE_LIMITED,    /* 429: retry-after in the message */
  STEWARD_PROVIDER_ERROR_SERVER,          /* 5xx */
  STEWARD_PROVIDER_ERROR_NETWORK,         /* cannot connect, DNS, TLS, reset */
  STEWARD_PROVIDER_ERROR_MODEL_NOT_FOUND,
  STEWARD_PROVIDER_ERROR_BAD_RESPONSE,    /* not the wire format, or too big */
  STEWARD_PROVIDER_ERROR_UNSUPPORTED,     /* e.g. images for a text-only back end */
  STEWARD_PROVIDER_ERROR_REFUSED,         /* other 4xx: too long, a bad image, a bad parameter */
} StewardProviderError;

typedef enum {
  STEWARD_PROVIDER_EVENT_TEXT,            /* @data: {"text": DELTA} */
  STEWARD_PROVIDER_EVENT_TOOL_CALL,       /* @data: a complete tool_use block */
  STEWARD_PROVIDER_EVENT_USAGE,           /* @data: {"inputTokens", "outputTokens"} */
} StewardProviderEvent;

typedef void (*StewardProviderEventFunc) (StewardProviderEvent  event,
                                          JsonObject           *data,
                                          gpointer              user_data);

#define STEWARD_TYPE_PROVIDER (steward_provider_get_type ())

G_DECLARE_INTERFACE (StewardProvider, steward_provider, STEWARD, PROVIDER, GObject)

struct _StewardProviderInterface
{
  GTypeInterface parent_iface;

  const char *(*get_id)             (StewardProvider          *self);
  const char *(*get_display_name)   (StewardProvider          *self);
  /* Whether requests stay on this computer (loopback base URL, manual). */
  gboolean    (*is_local)           (StewardProvider          *self);
  void        (*list_models_async)  (StewardProvider          *self,
                                     GCancellable             *cancellable,
                                     GAsyncReadyCallback       callback,
                                     gpointer                  user_data);
  /* An array of model names (char *). */
  GPtrArray  *(*list_models_finish) (StewardProvider          *self,
                                     GAsyncResult             *result,
                                     GError                  **error);
  void        (*chat_async)         (StewardProvider          *self,
                                     JsonObject               *request,
                                     StewardProviderEventFunc  event_func,
                                     gpointer                  event_data,
                                     GDestroyNotify            event_destroy,
                                     GCancellable             *cancellable,
                                     GAsyncReadyCallback       callback,
                                     gpointer                  user_data);
  JsonObject *(*chat_finish)        (StewardProvider          *self,
                                     GAsyncResult             *result,
                                     GError                  **error);
};

GQuark      steward_provider_error_quark      (void);

const char *steward_provider_get_id           (StewardProvider          *self);
const char *steward_provider_get_display_name (StewardProvider          *self);
gboolean    steward_provider_is_local         (StewardProvider          *self);
void        steward_provider_list_models_async (StewardProvider         *self,
                                                GCancellable            *cancellable,
                                                GAsyncReadyCallback      callback,
                                                gpointer                 user_data);
GPtrArray  *steward_provider_list_models_finish (StewardProvider        *self,
                                                 GAsyncResult           *result,
                                                 GError                **error);
void        steward_provider_chat_async       (StewardProvider          *self,
                                               JsonObject               *request,
                                               StewardProviderEventFunc  event_func,
                                               gpointer                  event_data,
                                               GDestroyNotify            event_destroy,
                                               GCancellable             *cancellable,
                                               GAsyncReadyCallback       callback,
                                               gpointer                  user_data);
JsonObject *steward_provider_chat_finish      (StewardProvider          *self,
                                               GAsyncResult             *result,
                                               GError                  **error);

G_END_DECLS
