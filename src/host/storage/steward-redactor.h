/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * What keeps secrets out of everything Steward shows or writes: the log
 * store, a server's details and last stderr lines, steward-cli's output.
 * Two kinds of secret are found: text shaped like one (below), and the
 * exact values Steward itself took from the keyring for a server's
 * environment or headers, which no pattern could know.
 */

#define STEWARD_REDACTED "[redacted]"

/* Replaces Authorization / cookie / session-id header values, bearer
 * tokens and key-shaped strings (sk-…, ghp_…, long base64/hex runs after
 * "key", "token", "secret", "password") with "[redacted]".
 *
 * In detail: the values of "Authorization:", "Proxy-Authorization:",
 * "Cookie:", "Set-Cookie:", "Mcp-Session-Id:", "X-Api-Key:" anywhere, and
 * of other "Name: value" lines whose name ends like a secret (below) at a
 * line's start; JSON (or Python) string values, escaped JSON inside JSON
 * too, and NAME=value pairs, whose name ends in token, secret, password,
 * passwd, passphrase, api key, secret key, private key, access key,
 * authorization, cookie, session id or credential(s), in any case and
 * with or without "-", "_" or "." (not progressToken); "key" and "auth"
 * only when the value looks like a key; "Bearer <token>"; the password
 * of user:password@ in URLs; sk-…, ghp_/gho_/ghu_/ghs_/ghr_…,
 * github_pat_…, glpat-…, xox[abprs]-…, AKIA…/ASIA…, AIza… and JSON Web
 * Tokens wherever they stand; and every value given to
 * steward_redact_add_secret(), exactly. Ordinary words ("token", "password
 * reset", "invalid token: expired", max_tokens) are left alone. */
char     *steward_redact                (const char *text);
/* The same over @length bytes of @text, but NULL when nothing needed
 * redacting, so that callers copy nothing in the common case. */
char     *steward_redact_if_needed      (const char *text,
                                         gsize       length);

/* Remembers @value, a secret the host resolved (from the keyring, for a
 * server's environment or headers, or a provider's key), so that it is
 * redacted wherever it appears, whoever echoes it, until the process
 * ends. Values shorter than 6 bytes are not remembered: they would
 * redact ordinary words and numbers. Safe from any thread. */
void      steward_redact_add_secret     (const char *value);
/* Only the remembered values, for text whose shapes are the person's
 * business (a tool's result); NULL when none is there. */
char     *steward_redact_secrets_if_needed (const char *text,
                                            gsize       length);
/* Forgets every remembered value (tests). */
void      steward_redact_forget_secrets (void);

G_END_DECLS
