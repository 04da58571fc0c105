/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <libsecret/secret.h>

G_BEGIN_DECLS

/* The part of libsecret StewardSecrets calls, loaded the first time a
 * secret is used rather than linked: libsecret and the libgcrypt it links
 * cost the app's start several milliseconds in the dynamic loader, and a
 * start without secrets needs neither. */
typedef struct
{
  __typeof__ (secret_password_store)        *password_store;
  __typeof__ (secret_password_store_finish) *password_store_finish;
  __typeof__ (secret_password_lookup)       *password_lookup;
  __typeof__ (secret_password_lookup_finish) *password_lookup_finish;
  __typeof__ (secret_password_clear)        *password_clear;
  __typeof__ (secret_password_clear_finish) *password_clear_finish;
  __typeof__ (secret_password_free)         *password_free;
  __typeof__ (secret_error_get_quark)       *error_get_quark;
} StewardLibsecret;

const StewardLibsecret *steward_libsecret_get (GError **error);

G_END_DECLS
