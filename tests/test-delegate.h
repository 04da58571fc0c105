/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client-delegate.h"

G_BEGIN_DECLS

/**
 * TestDelegateReplyFunc:
 * @method: "sampling/createMessage", "elicitation/create" or "roots/list"
 *
 * Returns: (transfer full): the result to send back, or %NULL with @error
 */
typedef JsonObject *(*TestDelegateReplyFunc) (const char  *method,
                                              JsonObject  *params,
                                              gpointer     user_data,
                                              GError     **error);

#define TEST_TYPE_DELEGATE (test_delegate_get_type ())
G_DECLARE_FINAL_TYPE (TestDelegate, test_delegate, TEST, DELEGATE, GObject)

/**
 * TestDelegate:
 *
 * A delegate that answers from fixed replies or a function the test gives,
 * or holds each request until the test releases it.
 */
struct _TestDelegate
{
  GObject                parent_instance;
  McpClientFeatures      features;
  gboolean               hold;
  TestDelegateReplyFunc  reply_func;
  gpointer               reply_data;
  GPtrArray             *held;      /* GTask */
  GPtrArray             *params;    /* JsonObject, of every request seen */
  GPtrArray             *methods;   /* char *, likewise */
};

TestDelegate *test_delegate_new      (McpClientFeatures  features);
void          test_delegate_release  (TestDelegate      *self);
JsonObject   *test_parse_object      (const char        *json);

G_END_DECLS
