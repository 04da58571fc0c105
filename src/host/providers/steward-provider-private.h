/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-soup.h"

#include "mcp-json.h"
#include "mcp-sse-parser.h"
#include "steward-http-provider.h"
#include "steward-provider.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * What the HTTP back ends share (steward-provider-http.c): reading the key
 * from the keyring, sending a request with caps and a deadline, reading an
 * event stream, turning statuses and I/O failures into errors a person can
 * act on, and the chat turn itself, driven by a table of the wire format's
 * own parts. Nothing outside the providers includes this.
 */

/* The whole of one answer, and one event of it, as the provider sent them. */
#define STEWARD_PROVIDER_ANSWER_MAX     (8 * 1024 * 1024)
#define STEWARD_PROVIDER_EVENT_MAX      (1024 * 1024)
/* How much of an error body is read, and how much of its message shown. */
#define STEWARD_PROVIDER_ERROR_BODY_MAX (16 * 1024)
#define STEWARD_PROVIDER_ERROR_TEXT_MAX 300
/* Silence allowed between two reads of an answer: a local model may take
 * minutes to load before its first word. */
#define STEWARD_PROVIDER_IO_TIMEOUT_S   300
/* Listing models is quick when it works. */
#define STEWARD_PROVIDER_LIST_TIMEOUT_S 30

/* A fresh SoupSession for one provider. */
SoupSession *steward_provider_session_new     (void);

/* The key behind @key_id, or NULL without an error when @key_id is NULL.
 * A missing key is STEWARD_PROVIDER_ERROR_NO_KEY naming @name. Free the
 * value with steward_secret_value_free(). */
void         steward_provider_lookup_key_async  (StewardSecrets       *secrets,
                                                 const char           *key_id,
                                                 const char           *name,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
char        *steward_provider_lookup_key_finish (GAsyncResult         *result,
                                                 GError              **error);

/* Called for each event of a streamed answer; sets @done when the stream
 * said it is complete, FALSE with @error stops it. */
typedef gboolean (*StewardProviderEventHook) (const McpSseEvent  *event,
                                              gboolean           *done,
                                              gpointer            user_data,
                                              GError            **error);

typedef struct {
  const char               *name;       /* the provider's display name */
  const char               *model;      /* (nullable) a 404 then names it */
  const char               *secret;     /* (nullable) the key sent: never echoed back */
  guint                     timeout_s;  /* a deadline for the whole exchange, or 0 */
  StewardProviderEventHook  event_hook; /* (nullable) for event-stream answers */
  gpointer                  hook_data;
} StewardProviderHttpOptions;

/* Sends @message (no redirects followed). A 2xx JSON body is the result;
 * an event stream goes to the hook and the result is NULL without an
 * error. Other statuses and failures become StewardProviderErrors;
 * @status (nullable) receives the HTTP status, 0 when none came. */
void         steward_provider_http_send_async  (SoupSession                      *session,
                                                SoupMessage                      *message,
                                                const StewardProviderHttpOptions *options,
                                                GCancellable                     *cancellable,
                                                GAsyncReadyCallback               callback,
                                                gpointer                          user_data);
JsonNode    *steward_provider_http_send_finish (GAsyncResult                     *result,
                                                guint                            *status,
                                                GError                          **error);

/* Errors */
GError      *steward_provider_error_for_status  (const char         *name,
                                                 const char         *model,
                                                 gboolean            had_key,
                                                 guint               status,
                                                 SoupMessageHeaders *headers,
                                                 const char         *body,
                                                 gsize               length,
                                                 const char         *secret);
/* The message a provider put in an error body or event: redacted, hidden
 * characters shown, capped; NULL when there is none. */
char        *steward_provider_describe_error_body (const char       *body,
                                                   gsize             length,
                                                   const char       *secret);
char        *steward_provider_clean_text        (const char         *text,
                                                 const char         *secret);
char        *steward_provider_url_for_display   (const char         *url);
/* Whether @url's host is this computer. */
gboolean     steward_provider_url_is_loopback   (const char         *url);
/* @url without trailing slashes, if it is an absolute http or https URL. */
char        *steward_provider_normalize_url     (const char         *url,
                                                 GError            **error);

/* JSON is read with mcp_json_get_*() (mcp-json.h): a missing member or
 * one of another type is absent, never a critical. A whole number ≥ 0, or -1. */
gint64       steward_provider_json_count   (JsonObject  *object,
                                            const char  *member);
JsonObject  *steward_provider_json_parse_object (const char  *data,
                                                 gsize        length,
                                                 GError     **error);
/* The request's content as an array of blocks, whether it came as one
 * block or as an array; NULL when it is neither. */
JsonArray   *steward_provider_dup_content  (JsonObject  *message);
/* {"type": "text", "text": @text}: a text block is written alike in the
 * neutral content and in both wire formats. */
JsonObject  *steward_provider_text_block   (const char  *text);
/* Builds an answer: {"role": "assistant", "content", "model",
 * "stopReason", "usage"?}. Token counts of -1 leave "usage" out. */
JsonObject  *steward_provider_answer_new   (JsonArray   *content,
                                            const char  *model,
                                            const char  *stop_reason,
                                            gint64       input_tokens,
                                            gint64       output_tokens);
/* Parses a tool call's assembled arguments into its "input". */
JsonNode    *steward_provider_parse_tool_input (const char  *arguments,
                                                gsize        length,
                                                const char  *tool,
                                                gboolean     truncated,
                                                GError     **error);

/* The chat turn */

typedef struct _StewardProviderChat StewardProviderChat;

struct _StewardProviderWire
{
  /* Turns the neutral request into the wire format's body. Runs on a
   * worker, over a copy of the request that nothing else sees. */
  JsonNode    *(*build_body)  (JsonObject           *request,
                               const char           *name,
                               GError              **error);
  gpointer     (*state_new)   (void);
  void         (*state_free)  (gpointer              state);
  gboolean     (*event)       (StewardProviderChat  *chat,
                               gpointer              state,
                               const McpSseEvent    *event,
                               gboolean             *done,
                               GError              **error);
  /* An answer that came as one JSON body rather than a stream. */
  gboolean     (*reply)       (StewardProviderChat  *chat,
                               gpointer              state,
                               JsonObject           *reply,
                               GError              **error);
  /* The answer once the stream ended; @complete says whether it ended
   * as the wire format ends a stream. */
  JsonObject  *(*answer)      (StewardProviderChat  *chat,
                               gpointer              state,
                               gboolean              complete,
                               GError              **error);
};

void         steward_provider_chat_run_async   (StewardProvider            *provider,
                                                const StewardProviderWire  *wire,
                                                SoupSession                *session,
                                                StewardSecrets             *secrets,
                                                const char                 *key_id,
                                                JsonObject                 *request,
                                                StewardProviderEventFunc    event_func,
                                                gpointer                    event_data,
                                                GDestroyNotify              event_destroy,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
JsonObject  *steward_provider_chat_run_finish  (StewardProvider            *provider,
                                                GAsyncResult               *result,
                                                GError                    **error);

/* For the wire format's hooks, during the turn. */
void         steward_provider_chat_emit        (StewardProviderChat        *chat,
                                                StewardProviderEvent        event,
                                                JsonObject                 *data);
void         steward_provider_chat_emit_text   (StewardProviderChat        *chat,
                                                const char                 *text);
void         steward_provider_chat_emit_usage  (StewardProviderChat        *chat,
                                                gint64                      input_tokens,
                                                gint64                      output_tokens);
const char  *steward_provider_chat_get_name    (StewardProviderChat        *chat);
/* The model asked for, or NULL. */
const char  *steward_provider_chat_get_model   (StewardProviderChat        *chat);
/* An error the provider reported inside the stream. */
GError      *steward_provider_chat_stream_error (StewardProviderChat       *chat,
                                                 StewardProviderError       code,
                                                 const char                *message);

/* The HTTP provider base (steward-http-provider.c) */

StewardHttpProvider *steward_http_provider_new      (GType                type,
                                                     const char          *id,
                                                     const char          *name,
                                                     const char          *base_url,
                                                     const char          *key_id,
                                                     StewardSecrets      *secrets);
/* A request with "Accept" and the subclass's headers, or NULL when @url
 * is not one. */
SoupMessage *steward_http_provider_new_message      (StewardHttpProvider *self,
                                                     const char          *method,
                                                     const char          *url,
                                                     const char          *accept,
                                                     const char          *key);
SoupMessage *steward_http_provider_new_chat_message (StewardHttpProvider *self,
                                                     GBytes              *body,
                                                     const char          *key);
/* Adds @name unless it is empty, too long, not UTF-8 or one too many. */
void         steward_provider_add_model_name        (GPtrArray           *names,
                                                     const char          *name);
/* When @reply is an object whose @list_member is an array, adds the
 * string @name_member of each object in it and returns @reply's object;
 * NULL when @reply is not such a list of models. */
JsonObject  *steward_provider_read_model_list       (JsonNode            *reply,
                                                     const char          *list_member,
                                                     const char          *name_member,
                                                     GPtrArray           *names);

/* For the wire formats (steward-http-provider.c) */

GError      *steward_provider_unsupported      (const char           *name,
                                                const char           *what);
/* A message's content as an array, and its role, which is "user" or
 * "assistant"; NULL with an error for anything else. */
JsonArray   *steward_provider_message_content  (JsonObject           *message,
                                                const char           *name,
                                                const char          **role,
                                                GError              **error);
/* Adds each of the request's messages to @messages in the wire format. */
typedef gboolean (*StewardProviderMessageFunc) (JsonArray   *messages,
                                                const char  *role,
                                                JsonArray   *content,
                                                const char  *name,
                                                GError     **error);
gboolean     steward_provider_add_messages     (JsonObject                  *request,
                                                const char                  *name,
                                                StewardProviderMessageFunc   add_message,
                                                JsonArray                   *messages,
                                                GError                     **error);
/* The wire format's tool from a named tool of the request; @description
 * may be NULL, @schema is the tool's to keep. */
typedef JsonObject *(*StewardProviderToolFunc) (const char  *name,
                                                const char  *description,
                                                JsonObject  *schema);
/* Sets the request's "tools" on @body as "tools", each made by
 * @make_tool, when it offers any. Returns its "toolChoice" mode when there
 * are tools and the mode is one of "auto", "required" and "none", which
 * every wire format spells its own way; NULL leaves the provider's
 * default. */
const char  *steward_provider_add_tools        (JsonObject                  *request,
                                                JsonObject                  *body,
                                                StewardProviderToolFunc      make_tool);
/* The tool's "inputSchema", or an object schema without properties. */
JsonObject  *steward_provider_dup_tool_schema  (JsonObject           *tool);
/* "temperature" as it is, and "stopSequences" as @stop_member. */
void         steward_provider_copy_sampling    (JsonObject           *request,
                                                JsonObject           *body,
                                                const char           *stop_member);
JsonObject  *steward_provider_chat_parse_event (StewardProviderChat  *chat,
                                                const McpSseEvent    *event,
                                                GError              **error);
/* For a stream that ended without saying it was complete. */
void         steward_provider_chat_set_broken_off (StewardProviderChat  *chat,
                                                   GError              **error);

G_END_DECLS
