/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-app-csp.h"
#include "steward-app-host-context.h"
#include "steward-app-sandbox.h"
#include "steward-app-window.h"

#include "steward-app-view.h"

/* The name the page's messages come in under. */
#define BRIDGE_HANDLER "stewardApp"
/* The script world and handler the page's text comes in through; the
 * page's own scripts see neither. */
#define TEXT_WORLD "steward-app-text"
#define TEXT_HANDLER "stewardText"
/* How much of the page's text its description carries. */
#define MAX_TEXT_CHARS 4000
/* How tall a page may grow inline before it scrolls inside itself. */
#define MAX_INLINE_HEIGHT 720
/* The height a page has until it says what it needs. */
#define INITIAL_HEIGHT 160
/* How long an unmapped view keeps its page, so that scrolling past and
 * back does not reload it. */
#define UNMAPPED_GRACE_SECONDS 5
/* How long a page must have run since it loaded before a crash of its
 * process counts as a new mishap rather than the same one again (see
 * web_process_terminated_cb). */
#define CRASH_SETTLED_SECONDS 30

/*
 * The view sees itself as a document in an iframe that talks to its
 * parent with postMessage (ext-apps 2026-01-26, "Transport Layer"). It is
 * the top document here, so window.parent is window itself: posting to
 * it goes to the bridge's message handler as JSON text, and what the host
 * sends arrives as "message" events whose source is window.parent, as an
 * iframe's would. Nothing else of the page changes.
 */
static const char bridge_script[] =
  "(function () {\n"
  "  'use strict';\n"
  "  var handler = window.webkit.messageHandlers." BRIDGE_HANDLER ";\n"
  "  var post = function (message) {\n"
  "    handler.postMessage(JSON.stringify(message));\n"
  "  };\n"
  "  Object.defineProperty(window, 'postMessage', {\n"
  "    value: post, writable: false, configurable: false\n"
  "  });\n"
  "})();\n";

/*
 * GTK 4.8 does not expose a web view's content to assistive technologies:
 * a view is an empty element there. So the text the page shows is read in
 * a script world of its own, whenever the page changes (at most a few
 * times a second), and becomes the view's accessible description. The
 * page cannot post to that world's handler: what it can put there is what
 * it shows anyway.
 */
static const char text_script[] =
  "(function () {\n"
  "  'use strict';\n"
  "  var handler = window.webkit.messageHandlers." TEXT_HANDLER ";\n"
  "  var last = null, timer = 0;\n"
  "  var send = function () {\n"
  "    timer = 0;\n"
  "    var body = document.body;\n"
  "    var text = body ? body.innerText.replace(/\\s+/g, ' ').trim() : '';\n"
  "    text = text.slice(0, %d);\n"
  "    if (text !== last) {\n"
  "      last = text;\n"
  "      handler.postMessage(text);\n"
  "    }\n"
  "  };\n"
  "  var later = function () {\n"
  "    if (timer === 0)\n"
  "      timer = setTimeout(send, 200);\n"
  "  };\n"
  "  new MutationObserver(later).observe(document.documentElement, {\n"
  "    childList: true, subtree: true, characterData: true\n"
  "  });\n"
  "  send();\n"
  "})();\n";

/* Runs in the page for each message from the host; `text` is JSON. */
static const char deliver_script[] =
  "window.dispatchEvent(new MessageEvent('message', {\n"
  "  data: JSON.parse(text), origin: window.location.origin, source: window\n"
  "}));\n";

struct _StewardAppView
{
  AdwBin              parent_instance;

  StewardHost        *host;
  StewardServer      *server;
  McpTool            *tool;
  JsonObject         *arguments;
  McpToolResult      *result;
  char               *cancel_reason;

  GtkStack           *stack;
  GtkLabel           *status_label;
  GtkLabel           *error_label;
  GtkWidget          *reload_button;
  GtkWidget          *slot;
  GtkWidget          *away_page;

  /* The resource, once read. */
  GCancellable       *read_cancellable;
  char               *html;
  McpAppResourceMeta *meta;
  char               *csp;

  /* The running page. */
  StewardAppSandbox  *sandbox;
  char               *document_uri;
  WebKitWebView      *web_view;
  StewardAppBridge   *bridge;
  gboolean            document_loaded;
  int                 page_height;
  int                 context_width;
  guint               unmapped_source;
  /* When the running page loaded (0 while it loads), and whether it is
   * a page started again by itself after a crash; the restart waits for
   * an idle. */
  gint64              page_loaded_at;
  gboolean            restarted_after_crash;
  guint               restart_source;

  StewardAppWindow   *mode_window;
  char               *display_mode;
};

G_DEFINE_FINAL_TYPE (StewardAppView, steward_app_view, ADW_TYPE_BIN)

enum {
  SIGNAL_NAVIGATION_BLOCKED,
  SIGNAL_BRIDGE_CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void start_page    (StewardAppView *self);
static void stop_page     (StewardAppView *self);
static void set_mode      (StewardAppView *self,
                           const char     *mode);

static const char *
tool_label (StewardAppView *self)
{
  const char *title = mcp_item_get_title (MCP_ITEM (self->tool));

  return title != NULL ? title : mcp_item_get_name (MCP_ITEM (self->tool));
}

static void
show_error (StewardAppView *self,
            const char     *text)
{
  gtk_label_set_text (self->error_label, text);
  gtk_widget_set_visible (self->reload_button, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "error");
}

/* An error the same page may well not meet again: the person can start
 * it afresh. */
static void
show_error_with_reload (StewardAppView *self,
                        const char     *text)
{
  show_error (self, text);
  gtk_widget_set_visible (self->reload_button, TRUE);
}

/* The host context as the widget stands now; sent again when the style,
 * the width or the display mode changes. */
static void
update_host_context (StewardAppView *self)
{
  g_autoptr(JsonObject) context = NULL;
  int width;

  if (self->bridge == NULL)
    return;

  width = self->mode_window != NULL ? gtk_widget_get_width (GTK_WIDGET (self->mode_window))
                                    : gtk_widget_get_width (GTK_WIDGET (self));
  self->context_width = width;
  context = steward_app_host_context_new (self->display_mode, width,
                                          self->mode_window != NULL ? -1 : MAX_INLINE_HEIGHT);
  steward_app_bridge_set_host_context (self->bridge, context);
}

static void
style_changed_cb (AdwStyleManager *style,
                  GParamSpec      *pspec,
                  gpointer         user_data)
{
  update_host_context (STEWARD_APP_VIEW (user_data));
}

/* Opening a link ---------------------------------------------------------- */

static void
launch_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    g_warning ("Could not open the link a view asked for: %s", error->message);
}

static void
open_link_response_cb (AdwMessageDialog *dialog,
                       const char       *response,
                       gpointer          user_data)
{
  const char *uri = g_object_get_data (G_OBJECT (dialog), "uri");
  g_autoptr(GdkAppLaunchContext) launch = NULL;

  if (g_strcmp0 (response, "open") != 0)
    return;

  launch = gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (dialog)));
  g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (launch), NULL,
                                           launch_done_cb, NULL);
}

/* A view never opens anything itself: the person sees the whole address
 * and decides. Only web and mail links are offered. */
static void
ask_open_link (StewardAppView *self,
               const char     *uri)
{
  const char *scheme = g_uri_peek_scheme (uri);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  if (scheme == NULL
      || (g_strcmp0 (scheme, "https") != 0 && g_strcmp0 (scheme, "http") != 0
          && g_strcmp0 (scheme, "mailto") != 0))
    {
      g_debug ("A view asked to open %s, which is not a web or mail link", uri);
      return;
    }

  body = g_strdup_printf (/* Translators: %s is a tool's name, then an address */
                          _("The view of “%s” wants to open this address in your browser:\n\n%s"),
                          tool_label (self), uri);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                             : NULL,
                                                       _("Open Link?"), body));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "open", _("_Open Link"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "open", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "uri", g_strdup (uri), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (open_link_response_cb), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Web view policy --------------------------------------------------------- */

static void
block_navigation (StewardAppView         *self,
                  WebKitNavigationAction *action)
{
  WebKitURIRequest *request = webkit_navigation_action_get_request (action);
  const char *uri = webkit_uri_request_get_uri (request);

  /* A link the person clicked is offered to the browser; anything the
   * page does by itself just stays where it is. A script's click of a
   * link may still count as a gesture (the host's own messages to the
   * page do), but it presses no mouse button. */
  if (webkit_navigation_action_is_user_gesture (action)
      && webkit_navigation_action_get_mouse_button (action) != 0
      && webkit_navigation_action_get_navigation_type (action) == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED)
    ask_open_link (self, uri);

  g_debug ("Kept a view on its page instead of going to %s", uri);
  g_signal_emit (self, signals[SIGNAL_NAVIGATION_BLOCKED], 0, uri);
}

static gboolean
decide_policy_cb (WebKitWebView            *web_view,
                  WebKitPolicyDecision     *decision,
                  WebKitPolicyDecisionType  type,
                  gpointer                  user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);
  WebKitNavigationAction *action;

  switch (type)
    {
    case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION:
      action = webkit_navigation_policy_decision_get_navigation_action (
                 WEBKIT_NAVIGATION_POLICY_DECISION (decision));
      /* The one navigation a view makes is to its own document, once. */
      if (!self->document_loaded
          && g_strcmp0 (webkit_uri_request_get_uri (webkit_navigation_action_get_request (action)),
                        self->document_uri) == 0)
        {
          self->document_loaded = TRUE;
          webkit_policy_decision_use (decision);
          return TRUE;
        }
      block_navigation (self, action);
      webkit_policy_decision_ignore (decision);
      return TRUE;

    case WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
      action = webkit_navigation_policy_decision_get_navigation_action (
                 WEBKIT_NAVIGATION_POLICY_DECISION (decision));
      block_navigation (self, action);
      webkit_policy_decision_ignore (decision);
      return TRUE;

    case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
      /* What the page cannot show would become a download. */
      if (!webkit_response_policy_decision_is_mime_type_supported (
             WEBKIT_RESPONSE_POLICY_DECISION (decision)))
        {
          webkit_policy_decision_ignore (decision);
          return TRUE;
        }
      return FALSE;

    default:
      webkit_policy_decision_ignore (decision);
      return TRUE;
    }
}

static GtkWidget *
create_cb (WebKitWebView          *web_view,
           WebKitNavigationAction *action,
           gpointer                user_data)
{
  /* No new windows; the decision above already offered a clicked link. */
  return NULL;
}

static gboolean
context_menu_cb (WebKitWebView       *web_view,
                 WebKitContextMenu   *menu,
                 WebKitHitTestResult *hit,
                 gpointer             user_data)
{
  /* Its items open links and images in new windows and save files. */
  return TRUE;
}

static void
permission_response_cb (AdwMessageDialog *dialog,
                        const char       *response,
                        gpointer          user_data)
{
  WebKitPermissionRequest *request = user_data;

  if (g_strcmp0 (response, "allow") == 0)
    webkit_permission_request_allow (request);
  else
    webkit_permission_request_deny (request);
}

/* The features a request is for, or NONE for one a view may never have. */
static McpAppPermissions
permissions_requested (WebKitPermissionRequest *request,
                       const char             **what)
{
  McpAppPermissions wanted = MCP_APP_PERMISSION_NONE;

  if (WEBKIT_IS_USER_MEDIA_PERMISSION_REQUEST (request))
    {
      WebKitUserMediaPermissionRequest *media = WEBKIT_USER_MEDIA_PERMISSION_REQUEST (request);
      gboolean audio = webkit_user_media_permission_is_for_audio_device (media);
      gboolean video = webkit_user_media_permission_is_for_video_device (media);

      if (webkit_user_media_permission_is_for_display_device (media))
        return MCP_APP_PERMISSION_NONE;
      if (audio)
        wanted |= MCP_APP_PERMISSION_MICROPHONE;
      if (video)
        wanted |= MCP_APP_PERMISSION_CAMERA;
      *what = audio && video ? _("your camera and microphone")
              : video ? _("your camera") : _("your microphone");
    }
  else if (WEBKIT_IS_GEOLOCATION_PERMISSION_REQUEST (request))
    {
      wanted = MCP_APP_PERMISSION_GEOLOCATION;
      *what = _("your location");
    }

  /* Reading the clipboard, notifications, pointer lock, storage access
   * and the rest are not in the specification's list: always refused. */
  return wanted;
}

static gboolean
permission_request_cb (WebKitWebView           *web_view,
                       WebKitPermissionRequest *request,
                       gpointer                 user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);
  const char *what = NULL;
  McpAppPermissions wanted = permissions_requested (request, &what);
  McpAppPermissions declared = mcp_app_resource_meta_get_permissions (self->meta);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  AdwMessageDialog *dialog;
  g_autofree char *body = NULL;

  if (wanted == MCP_APP_PERMISSION_NONE || (wanted & ~declared) != 0)
    {
      g_debug ("Refused a view a permission its resource did not declare");
      webkit_permission_request_deny (request);
      return TRUE;
    }

  body = g_strdup_printf (/* Translators: the first %s is a tool's name, the second
                           * "your camera", "your location" and the like */
                          _("The view of “%s” asks to use %s."), tool_label (self), what);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                             : NULL,
                                                       _("Allow Access?"), body));
  adw_message_dialog_add_responses (dialog,
                                    "deny", _("_Deny"),
                                    "allow", _("_Allow"),
                                    NULL);
  adw_message_dialog_set_default_response (dialog, "deny");
  adw_message_dialog_set_close_response (dialog, "deny");
  g_signal_connect_data (dialog, "response", G_CALLBACK (permission_response_cb),
                         g_object_ref (request), (GClosureNotify) (void (*) (void)) g_object_unref,
                         G_CONNECT_DEFAULT);
  gtk_window_present (GTK_WINDOW (dialog));

  return TRUE;
}

static gboolean
restart_page_cb (gpointer user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);

  self->restart_source = 0;
  /* A view out of sight starts its page when it is mapped again. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_page (self);

  return G_SOURCE_REMOVE;
}

/*
 * A web process can crash for reasons that are not the page's (the
 * graphics stack under load, for one), and a view that polls would just
 * stop. So a crashed page starts again by itself, from the document
 * already read, with a new bridge and host context as on its first start.
 * It does so once: a page started again that crashes while it loads, or
 * before it ran for CRASH_SETTLED_SECONDS, is likely to crash again, and
 * is left for the person to reload. A page that ran that long has earned another
 * restart, so that a view kept open for hours survives more than one
 * mishap without ever looping.
 */
static void
web_process_terminated_cb (WebKitWebView                     *web_view,
                           WebKitWebProcessTerminationReason  reason,
                           gpointer                           user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);
  gboolean settled;

  settled = self->page_loaded_at != 0
            && g_get_monotonic_time () - self->page_loaded_at
               >= CRASH_SETTLED_SECONDS * G_USEC_PER_SEC;
  /* The page and its bridge go now: the bridge's open questions to the
   * person are withdrawn, and the dead page is let go. */
  stop_page (self);

  switch (reason)
    {
    case WEBKIT_WEB_PROCESS_CRASHED:
      if (settled)
        self->restarted_after_crash = FALSE;
      if (!self->restarted_after_crash)
        {
          self->restarted_after_crash = TRUE;
          g_debug ("The web process of the view of %s crashed; starting it again",
                   tool_label (self));
          gtk_label_set_text (self->status_label, _("Loading the view…"));
          gtk_stack_set_visible_child_name (self->stack, "status");
          /* Not from inside WebKit's own signal. */
          self->restart_source = g_idle_add (restart_page_cb, self);
          return;
        }
      show_error_with_reload (self, _("The view stopped unexpectedly."));
      break;

    case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT:
      show_error_with_reload (self, _("The view used too much memory and was closed."));
      break;

    case WEBKIT_WEB_PROCESS_TERMINATED_BY_API:
    default:
      /* Our own teardown lets go of the page before it ends the process,
       * so this is only ever another part of the program's doing. */
      show_error (self, _("The view stopped unexpectedly."));
      break;
    }
}

static void
load_changed_cb (WebKitWebView   *web_view,
                 WebKitLoadEvent  event,
                 gpointer         user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);

  if (event == WEBKIT_LOAD_FINISHED && self->page_loaded_at == 0)
    self->page_loaded_at = g_get_monotonic_time ();
}

static gboolean
load_failed_cb (WebKitWebView   *web_view,
                WebKitLoadEvent  event,
                const char      *uri,
                GError          *error,
                gpointer         user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);
  g_autofree char *text = NULL;

  /* Only the document itself failing matters; the page's own requests
   * that the policy refuses are the page's business. */
  if (g_strcmp0 (uri, self->document_uri) != 0
      || g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED))
    return FALSE;

  text = g_strdup_printf (/* Translators: %s says why */
                          _("The view could not be shown: %s"), error->message);
  show_error (self, text);
  return TRUE;
}

/* The page's text --------------------------------------------------------- */

static void
page_text_cb (WebKitUserContentManager *manager,
              JSCValue                 *value,
              gpointer                  user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;

  if (!jsc_value_is_string (value))
    return;

  text = jsc_value_to_string (value);
  shown = g_utf8_substring (text, 0, MIN (g_utf8_strlen (text, -1), MAX_TEXT_CHARS));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  shown, -1);
}

/* The bridge -------------------------------------------------------------- */

/* Connected with the bridge and the page rather than the widget, so that
 * a page being torn down still reaches its bridge and back after the
 * widget let both go. */
static void
forward_to_bridge_cb (WebKitUserContentManager *manager,
                      JSCValue                 *value,
                      gpointer                  user_data)
{
  StewardAppBridge *bridge = STEWARD_APP_BRIDGE (user_data);
  g_autofree char *text = NULL;

  /* The shim sends strings; anything else was posted to the handler by
   * hand, and the bridge answers what it cannot read. */
  text = jsc_value_is_string (value) ? jsc_value_to_string (value) : jsc_value_to_json (value, 0);
  steward_app_bridge_receive (bridge, text != NULL ? text : "");
}

static void
delivered_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object),
                                                                 result, &error);
  if (value == NULL)
    g_debug ("A message did not reach its view: %s", error->message);
}

static void
deliver_cb (StewardAppBridge *bridge,
            const char       *json_text,
            gpointer          user_data)
{
  GVariantDict arguments;

  g_variant_dict_init (&arguments, NULL);
  g_variant_dict_insert (&arguments, "text", "s", json_text);
  webkit_web_view_call_async_javascript_function (WEBKIT_WEB_VIEW (user_data), deliver_script, -1,
                                                  g_variant_dict_end (&arguments),
                                                  NULL, NULL, NULL, delivered_cb, NULL);
}

static void
bridge_open_link_cb (StewardAppBridge *bridge,
                     const char       *url,
                     gpointer          user_data)
{
  ask_open_link (STEWARD_APP_VIEW (user_data), url);
}

static void
apply_page_height (StewardAppView *self)
{
  if (self->web_view == NULL)
    return;

  gtk_widget_set_size_request (GTK_WIDGET (self->web_view), -1,
                               self->mode_window != NULL ? -1 : self->page_height);
}

static void
bridge_size_changed_cb (StewardAppBridge *bridge,
                        int               width,
                        int               height,
                        gpointer          user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);

  /* The width is the container's; only the height follows the page. */
  if (height <= 0)
    return;

  self->page_height = CLAMP (height, 1, MAX_INLINE_HEIGHT);
  apply_page_height (self);
}

static char *
bridge_display_mode_cb (StewardAppBridge *bridge,
                        const char       *mode,
                        gpointer          user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);

  if (g_strcmp0 (mode, "inline") == 0 || g_strcmp0 (mode, "fullscreen") == 0
      || g_strcmp0 (mode, "pip") == 0)
    set_mode (self, mode);

  return g_strdup (self->display_mode);
}

static void
bridge_teardown_requested_cb (StewardAppBridge *bridge,
                              gpointer          user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);

  stop_page (self);
  gtk_label_set_text (self->status_label, _("The view closed itself."));
  gtk_stack_set_visible_child_name (self->stack, "status");
}

/* Display modes ----------------------------------------------------------- */

static void
move_web_view (StewardAppView *self,
               GtkWidget      *parent)
{
  GtkWidget *web_view = GTK_WIDGET (self->web_view);
  GtkWidget *current = gtk_widget_get_parent (web_view);

  g_object_ref (web_view);
  if (ADW_IS_BIN (current))
    adw_bin_set_child (ADW_BIN (current), NULL);
  else if (STEWARD_IS_APP_WINDOW (current))
    steward_app_window_set_content (STEWARD_APP_WINDOW (current), NULL);
  if (ADW_IS_BIN (parent))
    adw_bin_set_child (ADW_BIN (parent), web_view);
  else
    steward_app_window_set_content (STEWARD_APP_WINDOW (parent), web_view);
  g_object_unref (web_view);
}

static void
mode_window_closed_cb (StewardAppWindow *window,
                       gpointer          user_data)
{
  set_mode (STEWARD_APP_VIEW (user_data), "inline");
}

static void
set_mode (StewardAppView *self,
          const char     *mode)
{
  if (self->web_view == NULL || g_strcmp0 (mode, self->display_mode) == 0)
    return;

  if (self->mode_window != NULL)
    {
      StewardAppWindow *window = g_steal_pointer (&self->mode_window);

      g_signal_handlers_disconnect_by_data (window, self);
      move_web_view (self, self->slot);
      gtk_window_destroy (GTK_WINDOW (window));
    }

  g_free (self->display_mode);
  self->display_mode = g_strdup (mode);

  if (g_strcmp0 (mode, "inline") != 0)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

      self->mode_window = steward_app_window_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                  tool_label (self),
                                                  g_strcmp0 (mode, "fullscreen") == 0);
      g_signal_connect_object (self->mode_window, "closed",
                               G_CALLBACK (mode_window_closed_cb), self, G_CONNECT_DEFAULT);
      move_web_view (self, GTK_WIDGET (self->mode_window));
      gtk_stack_set_visible_child (self->stack, self->away_page);
      gtk_window_present (GTK_WINDOW (self->mode_window));
    }
  else
    {
      gtk_stack_set_visible_child_name (self->stack, "view");
    }

  apply_page_height (self);
  update_host_context (self);
}

static void
bring_back_cb (GtkButton *button,
               gpointer   user_data)
{
  set_mode (STEWARD_APP_VIEW (user_data), "inline");
}

static void
reload_cb (GtkButton *button,
           gpointer   user_data)
{
  start_page (STEWARD_APP_VIEW (user_data));
}

/* The page's life --------------------------------------------------------- */

static WebKitSettings *
view_settings (McpAppPermissions permissions)
{
  WebKitSettings *settings = webkit_settings_new ();

  /* A view is a script; it gets no more than it needs to run. */
  g_object_set (settings,
                "enable-javascript", TRUE,
                "enable-developer-extras", FALSE,
                "allow-file-access-from-file-urls", FALSE,
                "allow-universal-access-from-file-urls", FALSE,
                "allow-top-navigation-to-data-urls", FALSE,
                "javascript-can-open-windows-automatically", FALSE,
                "javascript-can-access-clipboard", FALSE,
                "enable-back-forward-navigation-gestures", FALSE,
                "enable-webrtc", FALSE,
                "enable-media-stream",
                (permissions & (MCP_APP_PERMISSION_CAMERA | MCP_APP_PERMISSION_MICROPHONE)) != 0,
                /* A view is a small page: drawn on the CPU it needs no GL
                 * context in its web process, whose drivers (software GL
                 * above all) have crashed that process under canvas pages. */
                "hardware-acceleration-policy", WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER,
                "user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 "
                              "(KHTML, like Gecko) Steward/" PACKAGE_VERSION,
                NULL);

  return settings;
}

static void
start_page (StewardAppView *self)
{
  g_autoptr(WebKitUserContentManager) content = NULL;
  g_autoptr(WebKitUserScript) script = NULL;
  g_autoptr(WebKitUserScript) reader = NULL;
  g_autofree char *reader_source = NULL;
  g_autoptr(WebKitSettings) settings = NULL;
  WebKitWebView *related;
  GdkRGBA transparent = { 0, 0, 0, 0 };

  if (self->web_view != NULL || self->html == NULL)
    return;

  self->sandbox = steward_app_sandbox_get_for_server (steward_server_get_name (self->server));

  /* One content manager a page: its messages reach its own bridge only. */
  content = webkit_user_content_manager_new ();
  script = webkit_user_script_new (bridge_script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                   WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
  webkit_user_content_manager_add_script (content, script);
  webkit_user_content_manager_register_script_message_handler (content, BRIDGE_HANDLER, NULL);
  reader_source = g_strdup_printf (text_script, MAX_TEXT_CHARS);
  reader = webkit_user_script_new_for_world (reader_source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                             WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END,
                                             TEXT_WORLD, NULL, NULL);
  webkit_user_content_manager_add_script (content, reader);
  webkit_user_content_manager_register_script_message_handler (content, TEXT_HANDLER, TEXT_WORLD);
  g_signal_connect_object (content, "script-message-received::" TEXT_HANDLER,
                           G_CALLBACK (page_text_cb), self, G_CONNECT_DEFAULT);

  settings = view_settings (mcp_app_resource_meta_get_permissions (self->meta));
  related = steward_app_sandbox_get_page (self->sandbox);
  if (related != NULL)
    /* The server's pages share a web process: a view of a server that
     * already shows one costs a page, not a process. */
    self->web_view = g_object_ref_sink (g_object_new (WEBKIT_TYPE_WEB_VIEW,
                                                      "related-view", related,
                                                      "user-content-manager", content,
                                                      "settings", settings,
                                                      NULL));
  else
    self->web_view = g_object_ref_sink (g_object_new (WEBKIT_TYPE_WEB_VIEW,
                                                      "web-context",
                                                      steward_app_sandbox_get_context (self->sandbox),
                                                      "network-session",
                                                      steward_app_sandbox_get_session (self->sandbox),
                                                      "user-content-manager", content,
                                                      "settings", settings,
                                                      NULL));
  steward_app_sandbox_add_page (self->sandbox, self->web_view);
  webkit_web_view_set_background_color (self->web_view, &transparent);
  gtk_widget_set_hexpand (GTK_WIDGET (self->web_view), TRUE);
  g_signal_connect_object (self->web_view, "decide-policy",
                           G_CALLBACK (decide_policy_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->web_view, "create",
                           G_CALLBACK (create_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->web_view, "context-menu",
                           G_CALLBACK (context_menu_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->web_view, "permission-request",
                           G_CALLBACK (permission_request_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->web_view, "web-process-terminated",
                           G_CALLBACK (web_process_terminated_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->web_view, "load-changed",
                           G_CALLBACK (load_changed_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->web_view, "load-failed",
                           G_CALLBACK (load_failed_cb), self, G_CONNECT_DEFAULT);

  self->bridge = steward_app_bridge_new (self->host, self->server, self->tool, self->arguments,
                                         self->result, self->meta, NULL);
  if (self->cancel_reason != NULL)
    steward_app_bridge_send_tool_cancelled (self->bridge, self->cancel_reason);
  g_signal_connect_object (content, "script-message-received::" BRIDGE_HANDLER,
                           G_CALLBACK (forward_to_bridge_cb), self->bridge, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->bridge, "send",
                           G_CALLBACK (deliver_cb), self->web_view, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->bridge, "open-link",
                           G_CALLBACK (bridge_open_link_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->bridge, "size-changed",
                           G_CALLBACK (bridge_size_changed_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->bridge, "display-mode-requested",
                           G_CALLBACK (bridge_display_mode_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->bridge, "teardown-requested",
                           G_CALLBACK (bridge_teardown_requested_cb), self, G_CONNECT_DEFAULT);
  g_signal_emit (self, signals[SIGNAL_BRIDGE_CREATED], 0, self->bridge);

  g_free (self->display_mode);
  self->display_mode = g_strdup ("inline");
  self->page_height = INITIAL_HEIGHT;
  apply_page_height (self);
  adw_bin_set_child (ADW_BIN (self->slot), GTK_WIDGET (self->web_view));
  update_host_context (self);

  self->document_loaded = FALSE;
  self->page_loaded_at = 0;
  steward_app_sandbox_allow (self->sandbox, self->meta);
  self->document_uri = steward_app_sandbox_add_document (self->sandbox, self->html, self->csp);
  webkit_web_view_load_uri (self->web_view, self->document_uri);
  gtk_stack_set_visible_child_name (self->stack, "view");
}

typedef struct
{
  StewardAppBridge  *bridge;
  WebKitWebView     *web_view;
  StewardAppSandbox *sandbox;
  char              *document_uri;
  gboolean           last_page;
} Teardown;

static void
teardown_free (Teardown *teardown)
{
  steward_app_sandbox_remove_document (teardown->sandbox, teardown->document_uri);
  /* The process is shared by the server's pages: it ends with the last. */
  if (teardown->last_page)
    webkit_web_view_terminate_web_process (teardown->web_view);
  g_object_unref (teardown->web_view);
  g_object_unref (teardown->sandbox);
  g_object_unref (teardown->bridge);
  g_free (teardown->document_uri);
  g_free (teardown);
}

static void
teardown_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The page goes either way; a view that did not answer in time is
   * noted, not waited for. */
  if (!steward_app_bridge_teardown_finish (STEWARD_APP_BRIDGE (object), result, &error))
    g_debug ("A view did not answer its teardown: %s", error->message);

  teardown_free (user_data);
}

/* Asks the page to close and lets it go: the widget is free at once, the
 * page and its bridge live on, off screen, until the page answered. */
static void
stop_page (StewardAppView *self)
{
  Teardown *teardown;

  g_clear_handle_id (&self->unmapped_source, g_source_remove);
  g_clear_handle_id (&self->restart_source, g_source_remove);

  if (self->web_view == NULL)
    return;

  if (self->mode_window != NULL)
    {
      StewardAppWindow *window = g_steal_pointer (&self->mode_window);

      g_signal_handlers_disconnect_by_data (window, self);
      steward_app_window_set_content (window, NULL);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  else
    {
      adw_bin_set_child (ADW_BIN (self->slot), NULL);
    }

  g_signal_handlers_disconnect_by_data (self->web_view, self);
  g_signal_handlers_disconnect_by_data (webkit_web_view_get_user_content_manager (self->web_view),
                                        self);
  g_signal_handlers_disconnect_by_data (self->bridge, self);
  gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  teardown = g_new0 (Teardown, 1);
  teardown->bridge = g_steal_pointer (&self->bridge);
  teardown->web_view = g_steal_pointer (&self->web_view);
  teardown->sandbox = g_steal_pointer (&self->sandbox);
  teardown->document_uri = g_steal_pointer (&self->document_uri);
  /* Out of the list at once, so that no new page shares a process about
   * to end. */
  teardown->last_page = steward_app_sandbox_remove_page (teardown->sandbox, teardown->web_view);
  steward_app_bridge_teardown_async (teardown->bridge, NULL, teardown_done_cb, teardown);
}

/* Reading the resource ---------------------------------------------------- */

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardAppView) self = user_data;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;
  McpContent *content = NULL;
  g_autofree char *text = NULL;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->read_cancellable);

  if (contents != NULL)
    {
      for (guint i = 0; i < contents->len && content == NULL; i++)
        {
          McpContent *item = g_ptr_array_index (contents, i);

          if (g_str_has_prefix (mcp_content_get_mime_type (item) != NULL
                                ? mcp_content_get_mime_type (item) : "", "text/html"))
            content = item;
        }
      if (content == NULL)
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     /* Translators: %s is the type MCP Apps views must have */
                     _("The server's view is not a web page of type %s."), MCP_APP_MIME_TYPE);
    }

  if (content != NULL)
    {
      self->meta = mcp_app_resource_meta_new_from_content (mcp_content_get_json (content),
                                                           &error);
      if (self->meta != NULL && mcp_content_is_blob (content))
        {
          g_autoptr(GBytes) data = mcp_content_dup_data (content, &error);
          gsize size = 0;
          const char *bytes = data != NULL ? g_bytes_get_data (data, &size) : NULL;

          if (bytes != NULL && g_utf8_validate_len (bytes, size, NULL))
            text = g_strndup (bytes, size);
          else if (data != NULL)
            g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("The server's view is not UTF-8 text."));
        }
      else if (self->meta != NULL)
        {
          text = g_strdup (mcp_content_get_text (content) != NULL
                           ? mcp_content_get_text (content) : "");
        }
    }

  if (text == NULL)
    {
      g_autofree char *message = g_strdup_printf (/* Translators: %s says why */
                                                  _("The view could not be read: %s"),
                                                  error->message);

      g_clear_object (&self->meta);
      show_error (self, message);
      return;
    }

  self->html = g_steal_pointer (&text);
  self->csp = steward_app_csp_build (self->meta);
  if (mcp_app_resource_meta_get_border (self->meta) == MCP_APP_BORDER_NONE)
    gtk_widget_remove_css_class (self->slot, "card");

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_page (self);
}

static void
read_resource (StewardAppView *self)
{
  McpClient *client = steward_server_get_client (self->server);

  if (self->read_cancellable != NULL || self->html != NULL)
    return;

  if (client == NULL)
    {
      show_error (self, _("The view cannot be read while its server is not running."));
      return;
    }

  gtk_label_set_text (self->status_label, _("Loading the view…"));
  gtk_stack_set_visible_child_name (self->stack, "status");
  self->read_cancellable = g_cancellable_new ();
  mcp_client_read_resource_async (client, mcp_tool_get_ui_resource_uri (self->tool),
                                  self->read_cancellable, read_done_cb, g_object_ref (self));
}

/* Widget ------------------------------------------------------------------ */

static gboolean
unmapped_long_enough_cb (gpointer user_data)
{
  StewardAppView *self = STEWARD_APP_VIEW (user_data);

  self->unmapped_source = 0;
  stop_page (self);
  if (self->html != NULL)
    gtk_stack_set_visible_child_name (self->stack, "status");

  return G_SOURCE_REMOVE;
}

static void
steward_app_view_map (GtkWidget *widget)
{
  StewardAppView *self = STEWARD_APP_VIEW (widget);

  GTK_WIDGET_CLASS (steward_app_view_parent_class)->map (widget);

  g_clear_handle_id (&self->unmapped_source, g_source_remove);
  if (self->html == NULL)
    read_resource (self);
  else
    start_page (self);
}

static void
steward_app_view_unmap (GtkWidget *widget)
{
  StewardAppView *self = STEWARD_APP_VIEW (widget);

  /* A page shown in its own window stays while that window is open. */
  if (self->web_view != NULL && self->mode_window == NULL && self->unmapped_source == 0)
    self->unmapped_source = g_timeout_add_seconds (UNMAPPED_GRACE_SECONDS,
                                                   unmapped_long_enough_cb, self);

  GTK_WIDGET_CLASS (steward_app_view_parent_class)->unmap (widget);
}

static void
steward_app_view_unroot (GtkWidget *widget)
{
  /* Out of its window for good: closed, not just scrolled away. */
  stop_page (STEWARD_APP_VIEW (widget));

  GTK_WIDGET_CLASS (steward_app_view_parent_class)->unroot (widget);
}

static void
steward_app_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  StewardAppView *self = STEWARD_APP_VIEW (widget);

  GTK_WIDGET_CLASS (steward_app_view_parent_class)->size_allocate (widget, width, height,
                                                                   baseline);

  if (self->bridge != NULL && self->mode_window == NULL && width != self->context_width)
    update_host_context (self);
}

static void
steward_app_view_dispose (GObject *object)
{
  StewardAppView *self = STEWARD_APP_VIEW (object);

  g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);
  stop_page (self);

  G_OBJECT_CLASS (steward_app_view_parent_class)->dispose (object);
}

static void
steward_app_view_finalize (GObject *object)
{
  StewardAppView *self = STEWARD_APP_VIEW (object);

  g_clear_object (&self->host);
  g_clear_object (&self->server);
  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_object_unref);
  g_clear_object (&self->result);
  g_clear_object (&self->meta);
  g_free (self->cancel_reason);
  g_free (self->html);
  g_free (self->csp);
  g_free (self->display_mode);

  G_OBJECT_CLASS (steward_app_view_parent_class)->finalize (object);
}

static void
steward_app_view_class_init (StewardAppViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_app_view_dispose;
  object_class->finalize = steward_app_view_finalize;
  widget_class->map = steward_app_view_map;
  widget_class->unmap = steward_app_view_unmap;
  widget_class->unroot = steward_app_view_unroot;
  widget_class->size_allocate = steward_app_view_size_allocate;

  signals[SIGNAL_BRIDGE_CREATED] =
    g_signal_new ("bridge-created", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, STEWARD_TYPE_APP_BRIDGE);
  signals[SIGNAL_NAVIGATION_BLOCKED] =
    g_signal_new ("navigation-blocked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-app-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardAppView, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardAppView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardAppView, error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardAppView, reload_button);
  gtk_widget_class_bind_template_child (widget_class, StewardAppView, slot);
  gtk_widget_class_bind_template_child (widget_class, StewardAppView, away_page);
  gtk_widget_class_bind_template_callback (widget_class, bring_back_cb);
  gtk_widget_class_bind_template_callback (widget_class, reload_cb);
}

static void
steward_app_view_init (StewardAppView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->display_mode = g_strdup ("inline");
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (style_changed_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::high-contrast",
                           G_CALLBACK (style_changed_cb), self, G_CONNECT_DEFAULT);
}

GtkWidget *
steward_app_view_new (StewardHost   *host,
                      StewardServer *server,
                      McpTool       *tool,
                      JsonObject    *arguments)
{
  StewardAppView *self;
  g_autofree char *label = NULL;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);
  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);
  g_return_val_if_fail (steward_app_view_tool_has_view (tool), NULL);

  self = g_object_new (STEWARD_TYPE_APP_VIEW, NULL);
  self->host = g_object_ref (host);
  self->server = g_object_ref (server);
  self->tool = g_object_ref (tool);
  self->arguments = arguments != NULL ? json_object_ref (arguments) : NULL;

  /* Translators: %s is a tool's name */
  label = g_strdup_printf (_("View of %s"), tool_label (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);

  return GTK_WIDGET (self);
}

void
steward_app_view_set_result (StewardAppView *self,
                             McpToolResult  *result)
{
  g_return_if_fail (STEWARD_IS_APP_VIEW (self));
  g_return_if_fail (MCP_IS_TOOL_RESULT (result));

  g_set_object (&self->result, result);
  if (self->bridge != NULL)
    steward_app_bridge_send_tool_result (self->bridge, result);
}

void
steward_app_view_set_cancelled (StewardAppView *self,
                                const char     *reason)
{
  g_return_if_fail (STEWARD_IS_APP_VIEW (self));

  g_free (self->cancel_reason);
  self->cancel_reason = g_strdup (reason != NULL ? reason : "");
  if (self->bridge != NULL)
    steward_app_bridge_send_tool_cancelled (self->bridge, self->cancel_reason);
}

WebKitWebView *
steward_app_view_get_web_view (StewardAppView *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_VIEW (self), NULL);

  return self->web_view;
}

StewardAppBridge *
steward_app_view_get_bridge (StewardAppView *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_VIEW (self), NULL);

  return self->bridge;
}

const char *
steward_app_view_get_display_mode (StewardAppView *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_VIEW (self), NULL);

  return self->display_mode;
}
