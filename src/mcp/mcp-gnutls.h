/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

G_BEGIN_DECLS

/* The few GnuTLS calls that sign private_key_jwt assertions. GnuTLS and
 * the seven libraries it links are loaded the first time one is made,
 * not with every program that links the protocol: their loading and the
 * initialisation GnuTLS runs in its constructor are a large part of a
 * start that never signs anything. */
typedef struct
{
  __typeof__ (gnutls_privkey_init)             *privkey_init;
  __typeof__ (gnutls_privkey_deinit)           *privkey_deinit;
  __typeof__ (gnutls_privkey_import_x509_raw)  *privkey_import_x509_raw;
  __typeof__ (gnutls_privkey_get_pk_algorithm) *privkey_get_pk_algorithm;
  __typeof__ (gnutls_privkey_sign_data2)       *privkey_sign_data2;
  __typeof__ (gnutls_decode_rs_value)          *decode_rs_value;
  __typeof__ (gnutls_strerror)                 *strerror;
  /* gnutls_free is a variable of the library that holds its deallocator. */
  gnutls_free_function                         *free;
} McpGnutls;

const McpGnutls *mcp_gnutls_get (GError **error);

G_END_DECLS
