/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-server.h"

G_BEGIN_DECLS

/*
 * A remote server's sign-in on its page: "Sign in to NAME" with the
 * authorization server's host and Sign In; while the browser is open a
 * spinner and Cancel; once signed in who is signed in, when the token
 * expires, and Sign Out. Hidden for a server that asked for no sign-in.
 */

#define STEWARD_TYPE_SIGN_IN_VIEW (steward_sign_in_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardSignInView, steward_sign_in_view, STEWARD, SIGN_IN_VIEW, AdwBin)

GtkWidget *steward_sign_in_view_new (StewardServer *server);

G_END_DECLS
