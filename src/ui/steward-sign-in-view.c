/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sign-in-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-text.h"

#include "steward-sign-in-view.h"

struct _StewardSignInView
{
  AdwBin             parent_instance;

  StewardServer     *server;
  StewardServerAuth *auth;
  /* The sign-in waiting for the browser, which Cancel ends. */
  GCancellable      *cancellable;

  GtkStack          *stack;
  GtkLabel          *needed_title;
  GtkLabel          *needed_label;
  GtkButton         *sign_in_button;
  GtkSpinner        *spinner;
  GtkLabel          *waiting_label;
  GtkButton         *cancel_button;
  GtkLabel          *account_label;
  GtkLabel          *expiry_label;
  GtkButton         *sign_out_button;
  GtkLabel          *error_label;
};

G_DEFINE_FINAL_TYPE (StewardSignInView, steward_sign_in_view, ADW_TYPE_BIN)

static char *
format_expiry (gint64 expires_at)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (expires_at);
  g_autofree char *time = NULL;

  if (when == NULL)
    return NULL;

  /* Translators: a strftime format for the day and time a sign-in ends,
   * as in "The sign-in ends on 28 November, 14:05". */
  time = g_date_time_format (when, _("%-d %B, %H:%M"));

  /* Translators: %s is a day and time, such as "28 November, 14:05". */
  return g_strdup_printf (_("The sign-in ends on %s"), time);
}

static void
show_error (StewardSignInView *self,
            const char        *message)
{
  g_autofree char *visible = message != NULL ? steward_text_for_display (message) : NULL;

  gtk_label_set_text (self->error_label, visible != NULL ? visible : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), visible != NULL);
}

static void
update (StewardSignInView *self)
{
  StewardServerAuthState state = steward_server_auth_get_state (self->auth);
  g_autofree char *name = steward_text_make_visible_capped (
    steward_server_get_name (self->server), 256, NULL);
  const char *raw_host = steward_server_auth_get_authorization_host (self->auth);
  g_autofree char *host = steward_text_make_visible_capped (raw_host != NULL ? raw_host : "?",
                                                           256, NULL);
  const char *account = steward_server_auth_get_account (self->auth);
  gint64 expires_at = steward_server_auth_get_expires_at (self->auth);
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;
  g_autofree char *accessible = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), state != STEWARD_SERVER_AUTH_STATE_NONE);
  gtk_spinner_set_spinning (self->spinner, state == STEWARD_SERVER_AUTH_STATE_WAITING);

  switch (state)
    {
    case STEWARD_SERVER_AUTH_STATE_NONE:
      break;

    case STEWARD_SERVER_AUTH_STATE_NEEDED:
      /* Translators: a heading on a server's page; %s is the server. */
      title = g_strdup_printf (_("Sign in to %s"), name);
      gtk_label_set_text (self->needed_title, title);
      /* Translators: the first %s is the server, the second the host of
       * the authorization server it sends you to, such as
       * auth.example.com. */
      text = g_strdup_printf (_("%s wants you to sign in at %s. Steward opens it in your web "
                                "browser and keeps the sign-in in your keyring."),
                              name, host);
      gtk_label_set_text (self->needed_label, text);
      /* Translators: how a screen reader names the Sign In button; %s is
       * the server. */
      accessible = g_strdup_printf (_("Sign in to %s"), name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->sign_in_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
      gtk_stack_set_visible_child_name (self->stack, "needed");
      break;

    case STEWARD_SERVER_AUTH_STATE_WAITING:
      /* Translators: %s is the host of the authorization server. */
      text = g_strdup_printf (_("Waiting for you to sign in at %s in your web browser…"), host);
      gtk_label_set_text (self->waiting_label, text);
      gtk_stack_set_visible_child_name (self->stack, "waiting");
      break;

    case STEWARD_SERVER_AUTH_STATE_SIGNED_IN:
    default:
      if (account != NULL)
        {
          g_autofree char *who = steward_text_make_visible_capped (account, 256, NULL);

          /* Translators: the first %s is who is signed in, such as
           * ada@example.com, the second the authorization server's host. */
          text = g_strdup_printf (_("Signed in as %s at %s"), who, host);
        }
      else
        /* Translators: %s is the host of the authorization server. */
        text = g_strdup_printf (_("Signed in at %s"), host);
      gtk_label_set_text (self->account_label, text);

      g_clear_pointer (&text, g_free);
      text = expires_at > 0 ? format_expiry (expires_at) : NULL;
      gtk_label_set_text (self->expiry_label, text != NULL ? text : "");
      gtk_widget_set_visible (GTK_WIDGET (self->expiry_label), text != NULL);

      /* Translators: how a screen reader names the Sign Out button; %s is
       * the server. */
      accessible = g_strdup_printf (_("Sign out of %s"), name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->sign_out_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
      gtk_stack_set_visible_child_name (self->stack, "signed-in");
      break;
    }
}

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardSignInView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_server_sign_in_finish (STEWARD_SERVER (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, error->message);

  g_clear_object (&self->cancellable);
}

static void
sign_in_clicked_cb (StewardSignInView *self)
{
  show_error (self, NULL);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  steward_server_sign_in_async (self->server, self->cancellable, signed_in_cb,
                                g_object_ref (self));
}

static void
cancel_clicked_cb (StewardSignInView *self)
{
  g_cancellable_cancel (self->cancellable);
}

static void
signed_out_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(StewardSignInView) self = user_data;
  g_autoptr(GError) error = NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->sign_out_button), TRUE);
  if (!steward_server_sign_out_finish (STEWARD_SERVER (object), result, &error))
    show_error (self, error->message);
}

static void
sign_out_clicked_cb (StewardSignInView *self)
{
  show_error (self, NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sign_out_button), FALSE);
  steward_server_sign_out_async (self->server, NULL, signed_out_cb, g_object_ref (self));
}

static void
steward_sign_in_view_dispose (GObject *object)
{
  StewardSignInView *self = STEWARD_SIGN_IN_VIEW (object);

  /* A page that goes stops waiting for the browser. */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->auth);
  g_clear_object (&self->server);

  G_OBJECT_CLASS (steward_sign_in_view_parent_class)->dispose (object);
}

static void
steward_sign_in_view_class_init (StewardSignInViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_sign_in_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "steward-sign-in-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, needed_title);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, needed_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, spinner);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, account_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, expiry_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, sign_out_button);
  gtk_widget_class_bind_template_child (widget_class, StewardSignInView, error_label);
  gtk_widget_class_bind_template_callback (widget_class, sign_in_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, sign_out_clicked_cb);
}

static void
steward_sign_in_view_init (StewardSignInView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_sign_in_view_new (StewardServer *server)
{
  StewardSignInView *self;

  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);

  self = g_object_new (STEWARD_TYPE_SIGN_IN_VIEW, NULL);
  self->server = g_object_ref (server);
  self->auth = g_object_ref (steward_server_get_auth (server));

  g_signal_connect_object (self->auth, "notify::state", G_CALLBACK (update), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->auth, "notify::authorization-host", G_CALLBACK (update), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->auth, "notify::account", G_CALLBACK (update), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->auth, "notify::expires-at", G_CALLBACK (update), self,
                           G_CONNECT_SWAPPED);
  update (self);

  return GTK_WIDGET (self);
}
