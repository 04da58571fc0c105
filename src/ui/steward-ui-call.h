/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * The widgets of a server page start requests that can outlive them. Each
 * request carries one of these instead of a reference: the widget cancels
 * the cancellable in dispose, so a callback that finds it cancelled must
 * not touch the widget, and one that does not may.
 */
typedef struct {
  gpointer      widget;        /* not a reference */
  GCancellable *cancellable;
} StewardUiCall;

static inline StewardUiCall *
steward_ui_call_new (gpointer      widget,
                     GCancellable *cancellable)
{
  StewardUiCall *call = g_new0 (StewardUiCall, 1);

  call->widget = widget;
  call->cancellable = g_object_ref (cancellable);
  return call;
}

/* The widget, or NULL once it went away or the request was cancelled. */
static inline gpointer
steward_ui_call_get_widget (StewardUiCall *call)
{
  return g_cancellable_is_cancelled (call->cancellable) ? NULL : call->widget;
}

static inline void
steward_ui_call_free (gpointer data)
{
  StewardUiCall *call = data;

  g_object_unref (call->cancellable);
  g_free (call);
}

/* Frees @call; returns its widget, or NULL when the widget went away or
 * the request was cancelled. */
static inline gpointer
steward_ui_call_finish (StewardUiCall *call)
{
  gpointer widget = steward_ui_call_get_widget (call);

  steward_ui_call_free (call);
  return widget;
}

G_END_DECLS
