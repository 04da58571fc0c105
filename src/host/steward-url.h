/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The one check for an address that comes from a server or a model and
 * that Steward shows or opens (docs/SECURITY.md, "Terminal and URLs"). It is
 * parsed once, here, and refused when different programs could read it
 * differently: a browser reads "\" as "/" and drops tabs and line breaks,
 * so "https://evil.example\@accounts.google.com/" is evil.example to a
 * browser and accounts.google.com to GUri. What passes is opened as the
 * exact string shown, never as something rebuilt from its parts.
 */

#define STEWARD_URL_ERROR (steward_url_error_quark ())

typedef enum {
  STEWARD_URL_ERROR_INVALID,    /* not an absolute address, or too long */
  STEWARD_URL_ERROR_AMBIGUOUS,  /* "\", tab, CR/LF, spaces or hidden characters */
  STEWARD_URL_ERROR_USERINFO,   /* "user@" or "user:password@" before the host */
  STEWARD_URL_ERROR_FILE,       /* file: from a server or a model is never opened */
  STEWARD_URL_ERROR_INSECURE,   /* http to another computer */
  STEWARD_URL_ERROR_SCHEME,     /* any other scheme */
} StewardUrlError;

/* The longest address shown in full, and so the longest one opened. */
#define STEWARD_URL_MAX_LENGTH 2048

GQuark    steward_url_error_quark (void);

/* Whether @url may be opened: https with a host, or http to this
 * computer, and nothing ambiguous. @host_start and @host_end, when not
 * NULL, get the byte offsets of the host in @url as written, which is the
 * host a browser opens; they are set only when it returns TRUE. */
gboolean  steward_url_check       (const char  *url,
                                   gsize       *host_start,
                                   gsize       *host_end,
                                   GError     **error);
/* Whether @host (without brackets, or "[::1]") is this computer:
 * localhost, 127.0.0.0/8 in dotted decimal, or ::1. */
gboolean  steward_url_host_is_loopback (const char *host);

G_END_DECLS
