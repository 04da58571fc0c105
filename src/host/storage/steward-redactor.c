/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-redactor"

#include "config.h"

#include <string.h>

#include "mcp-json.h"
#include "steward-redactor.h"

/* Secret-shaped text ------------------------------------------------- */

typedef enum {
  KEY_PLAIN,
  KEY_SENSITIVE,       /* its value is a secret, whatever it looks like */
  KEY_IF_TOKEN_SHAPED, /* "key", "auth": a secret only when it looks like one */
} KeyKind;

typedef struct
{
  const char *text;
  gsize       length;
  GString    *out;     /* NULL until something is redacted */
  gsize       copied;  /* text[0, copied) has been dealt with */
} Redactor;

/* Names whose value is a secret, compared lowercased and without "-", "_",
 * "." or spaces, by their end: "GITHUB_TOKEN", "client_secret",
 * "X-Api-Key" and "Set-Cookie" all match. */
#define SUFFIX(s) { s, sizeof s - 1 }
static const struct {
  const char *name;
  gsize       length;
} sensitive_suffixes[] = {
  SUFFIX ("token"), SUFFIX ("secret"), SUFFIX ("password"), SUFFIX ("passwd"),
  SUFFIX ("passphrase"), SUFFIX ("apikey"), SUFFIX ("secretkey"), SUFFIX ("privatekey"),
  SUFFIX ("accesskey"), SUFFIX ("authorization"), SUFFIX ("cookie"), SUFFIX ("sessionid"),
  SUFFIX ("credential"), SUFFIX ("credentials"),
};
#undef SUFFIX

/* Names that end like a secret but are ordinary MCP fields. */
static const char * const plain_keys[] = {
  "progresstoken",
};

/* Header names redacted wherever they stand, not only at a line's start. */
static const char * const header_names[] = {
  "authorization", "proxyauthorization", "cookie", "setcookie", "mcpsessionid",
  "xapikey", "apikey",
};

static inline char
at (const Redactor *r,
    gsize           i)
{
  return i < r->length ? r->text[i] : '\0';
}

static inline gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.';
}

static inline gboolean
is_token_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

/* What a byte can start, looked up once per byte instead of testing it
 * against each rule: most of a message is words that no rule can take,
 * and those are passed over without a call. */
enum {
  CLASS_WORD    = 1 << 0, /* is_word_char() */
  CLASS_SPECIAL = 1 << 1, /* a quote, a backslash or a colon */
  CLASS_SHAPE   = 1 << 2, /* can start a key-shaped token (match_key_shape()) */
  CLASS_BEARER  = 1 << 3, /* 'b' or 'B' */
  CLASS_STOP_DQ = 1 << 4, /* ends a key in double quotes: '"', '\\', '\n' */
  CLASS_STOP_SQ = 1 << 5, /* ends a key in single quotes: '\'', '\\', '\n' */
  CLASS_DELIMITER = 1 << 6, /* ':' or '=', after a name */
};

static guint8 classes[256];

/* For each last letter of a name, a bit for each letter that can come
 * before it in a sensitive name, so that most keys are passed over after
 * two lookups. */
static guint32 endings[26];

static void
add_ending (const char *name,
            gsize       length)
{
  endings[name[length - 1] - 'a'] |= 1u << (name[length - 2] - 'a');
}

static void
init_classes (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;

  for (guint c = 0; c < 256; c++)
    {
      if (c < 128 && is_word_char ((char) c))
        classes[c] |= CLASS_WORD;
    }
  classes['"'] |= CLASS_SPECIAL;
  classes['\''] |= CLASS_SPECIAL;
  classes['\\'] |= CLASS_SPECIAL;
  classes[':'] |= CLASS_SPECIAL | CLASS_DELIMITER;
  classes['='] |= CLASS_DELIMITER;
  for (const char *p = "sgxAe"; *p != '\0'; p++)
    classes[(guchar) *p] |= CLASS_SHAPE;
  classes['"'] |= CLASS_STOP_DQ;
  classes['\''] |= CLASS_STOP_SQ;
  classes['\\'] |= CLASS_STOP_DQ | CLASS_STOP_SQ;
  classes['\n'] |= CLASS_STOP_DQ | CLASS_STOP_SQ;
  classes['b'] |= CLASS_BEARER;
  classes['B'] |= CLASS_BEARER;

  for (gsize i = 0; i < G_N_ELEMENTS (sensitive_suffixes); i++)
    add_ending (sensitive_suffixes[i].name, sensitive_suffixes[i].length);
  add_ending ("key", 3);
  add_ending ("auth", 4);

  g_once_init_leave (&done, 1);
}

#define CLASS_OF(c) (classes[(guchar) (c)])


static void
redact_span (Redactor *r,
             gsize     start,
             gsize     end)
{
  g_assert (start >= r->copied && end >= start);

  if (end == start)
    return;

  if (r->out == NULL)
    r->out = g_string_sized_new (r->length + sizeof STEWARD_REDACTED);

  g_string_append_len (r->out, r->text + r->copied, start - r->copied);
  g_string_append (r->out, STEWARD_REDACTED);
  r->copied = end;
}

/* Lowercased alphanumerics of @key into @buffer; FALSE when too long. */
static gboolean
normalize_key (const char *key,
               gsize       length,
               char       *buffer,
               gsize       size,
               gsize      *out_length)
{
  gsize n = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = key[i];

      if (!g_ascii_isalnum (c))
        continue;
      if (n + 1 >= size)
        return FALSE;
      buffer[n++] = c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
    }

  buffer[n] = '\0';
  *out_length = n;
  return n > 0;
}

static gboolean
in_list (const char         *name,
         const char * const *list,
         gsize               n_list)
{
  for (gsize i = 0; i < n_list; i++)
    {
      if (strcmp (name, list[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Whether @key, its letters and digits lowercased, ends with @name (or,
 * with @whole, is @name). Compared in place from the end, as every quoted
 * key of every logged message passes here. */
static gboolean
key_ends_with (const char *key,
               gsize       length,
               const char *name,
               gsize       name_len,
               gboolean    whole)
{
  gsize k = length;

  for (gsize n = name_len; n > 0; n--)
    {
      char c;

      while (k > 0 && !g_ascii_isalnum (key[k - 1]))
        k--;
      if (k == 0)
        return FALSE;
      c = key[--k];
      if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != name[n - 1])
        return FALSE;
    }

  while (whole && k > 0 && !g_ascii_isalnum (key[k - 1]))
    k--;

  return !whole || k == 0;
}

static KeyKind
classify_key (const char *key,
              gsize       length)
{
  gsize last = length;
  gsize prev;
  char c;
  char before;

  if (length > 64)
    return KEY_PLAIN;

  init_classes ();

  while (last > 0 && !g_ascii_isalnum (key[last - 1]))
    last--;
  if (last == 0)
    return KEY_PLAIN;

  /* Most keys end in two letters no sensitive name ends in. */
  c = g_ascii_tolower (key[last - 1]);
  prev = last - 1;
  while (prev > 0 && !g_ascii_isalnum (key[prev - 1]))
    prev--;
  if (prev == 0 || !g_ascii_islower (c))
    return KEY_PLAIN;
  before = g_ascii_tolower (key[prev - 1]);
  if (!g_ascii_islower (before) || !(endings[c - 'a'] & (1u << (before - 'a'))))
    return KEY_PLAIN;

  for (gsize i = 0; i < G_N_ELEMENTS (sensitive_suffixes); i++)
    {
      const char *suffix = sensitive_suffixes[i].name;
      gsize suffix_len = sensitive_suffixes[i].length;

      if (suffix[suffix_len - 1] != c ||
          !key_ends_with (key, last, suffix, suffix_len, FALSE))
        continue;

      for (gsize p = 0; p < G_N_ELEMENTS (plain_keys); p++)
        {
          if (key_ends_with (key, last, plain_keys[p], strlen (plain_keys[p]), TRUE))
            return KEY_PLAIN;
        }

      return KEY_SENSITIVE;
    }

  if (key_ends_with (key, last, "key", 3, TRUE) || key_ends_with (key, last, "auth", 4, TRUE))
    return KEY_IF_TOKEN_SHAPED;

  return KEY_PLAIN;
}

static gboolean
is_header_name (const char *word,
                gsize       length)
{
  char name[32];
  gsize name_len;

  return length < sizeof name &&
         normalize_key (word, length, name, sizeof name, &name_len) &&
         in_list (name, header_names, G_N_ELEMENTS (header_names));
}

/* Long enough and mixed enough to be a key rather than a word. */
static gboolean
is_token_shaped (const char *value,
                 gsize       length)
{
  gboolean digit = FALSE;
  gboolean alpha = FALSE;

  if (length < 16)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = value[i];

      if (g_ascii_isdigit (c))
        digit = TRUE;
      else if (g_ascii_isalpha (c))
        alpha = TRUE;
      else if (c != '-' && c != '_' && c != '+' && c != '/' && c != '=' && c != '.')
        return FALSE;
    }

  return digit && alpha;
}

static gboolean
at_line_start (const Redactor *r,
               gsize           i)
{
  /* Allow the markers of "curl -v" and similar dumps before a header. */
  while (i > 0)
    {
      char c = r->text[i - 1];

      if (c == '\n' || c == '\r')
        return TRUE;
      if (c != ' ' && c != '\t' && c != '>' && c != '<' && c != '*')
        return FALSE;
      i--;
    }

  return TRUE;
}

/* The end of a header value: the line's end, or an escaped one inside a
 * JSON string. */
static gsize
find_line_end (const Redactor *r,
               gsize           i)
{
  while (i < r->length)
    {
      char c = r->text[i];

      if (c == '\n' || c == '\r')
        break;
      if (c == '\\' && (at (r, i + 1) == 'n' || at (r, i + 1) == 'r'))
        break;
      i++;
    }

  return i;
}

static gsize
skip_blanks (const Redactor *r,
             gsize           i)
{
  while (at (r, i) == ' ' || at (r, i) == '\t')
    i++;
  return i;
}

/*
 * A quoted value from @i, where at (@i) is its opening quote: '"', '\'' or
 * an escaped '\"' inside a JSON string. Sets the span of its contents; an
 * unterminated value runs to the end of the line.
 */
static gboolean
quoted_value (const Redactor *r,
              gsize           i,
              gsize          *start,
              gsize          *end)
{
  char quote = at (r, i);
  gsize k;

  if (quote == '\\' && at (r, i + 1) == '"')
    {
      for (k = i + 2; k < r->length && r->text[k] != '\n'; k++)
        {
          if (r->text[k] == '\\' && at (r, k + 1) == '"')
            break;
          if (r->text[k] == '\\' && at (r, k + 1) == '\\')
            k++;
        }
      *start = i + 2;
      *end = MIN (k, r->length);
      return TRUE;
    }

  if (quote != '"' && quote != '\'')
    return FALSE;

  for (k = i + 1; k < r->length && r->text[k] != quote && r->text[k] != '\n'; k++)
    {
      if (r->text[k] == '\\')
        k++;
    }

  *start = i + 1;
  *end = MIN (k, r->length);
  return TRUE;
}

/* "key": "value", 'key': 'value' or \"key\": \"value\" from the quote at @i. */
static gboolean
try_quoted_pair (Redactor *r,
                 gsize     i,
                 gsize    *next)
{
  gboolean escaped = at (r, i) == '\\';
  char quote = escaped ? '"' : at (r, i);
  gsize key_start = i + (escaped ? 2 : 1);
  gsize key_end;
  gsize value_start;
  gsize value_end;
  gsize k;
  gsize limit;
  guint8 stop;
  KeyKind kind;

  stop = quote == '"' ? CLASS_STOP_DQ : CLASS_STOP_SQ;
  limit = MIN (r->length, key_start + 65);
  for (k = key_start; k < limit && !(CLASS_OF (r->text[k]) & stop); k++)
    ;

  if (k - key_start > 64 || k == key_start)
    return FALSE;
  if (escaped ? (at (r, k) != '\\' || at (r, k + 1) != '"') : at (r, k) != quote)
    return FALSE;

  key_end = k;

  /* Only a key is followed by a colon: a value or a closing quote is
   * ruled out here, before its text is looked at. */
  k = skip_blanks (r, key_end + (escaped ? 2 : 1));
  if (at (r, k) != ':')
    return FALSE;
  k = skip_blanks (r, k + 1);

  kind = classify_key (r->text + key_start, key_end - key_start);
  if (kind == KEY_PLAIN)
    return FALSE;

  if (!quoted_value (r, k, &value_start, &value_end))
    return FALSE;

  if (kind == KEY_IF_TOKEN_SHAPED &&
      !is_token_shaped (r->text + value_start, value_end - value_start))
    return FALSE;

  redact_span (r, value_start, value_end);
  *next = value_end;
  return TRUE;
}

/* user:password@ in a URL, from the ':' of "://" at @i. */
static gboolean
try_userinfo (Redactor *r,
              gsize     i,
              gsize    *next)
{
  gsize colon = 0;
  gsize k;

  for (k = i + 3; k < r->length && k - i < 512; k++)
    {
      char c = r->text[k];

      if (c == '@')
        break;
      if (c == ':' && colon == 0)
        colon = k;
      if (strchr ("/?# \t\r\n\"'<>\\", c) != NULL)
        return FALSE;
    }

  if (at (r, k) != '@' || colon == 0 || colon + 1 == k)
    return FALSE;

  redact_span (r, colon + 1, k);
  *next = k;
  return TRUE;
}

static gsize
count_run (const Redactor *r,
           gsize           i,
           gboolean      (*accept) (char))
{
  gsize k = i;

  while (k < r->length && accept (r->text[k]))
    k++;

  return k - i;
}

static gboolean
is_upper_alnum (char c)
{
  return g_ascii_isupper (c) || g_ascii_isdigit (c);
}

static gboolean
is_token_char_no_dash (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gboolean
is_slack_char (char c)
{
  return g_ascii_isalnum (c) || c == '-';
}

static gboolean
is_bearer_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("-._~+/=", c) != NULL;
}

static gboolean
has_prefix (const Redactor *r,
            gsize           i,
            const char     *prefix)
{
  gsize n = strlen (prefix);

  return i + n <= r->length && memcmp (r->text + i, prefix, n) == 0;
}

/* The end of a key-shaped token that starts at @i, or 0. */
static gsize
match_key_shape (const Redactor *r,
                 gsize           i)
{
  static const char * const github[] = { "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_" };
  gsize n;

  /* Every word is tried, so leave at once unless it can be one. */
  switch (at (r, i))
    {
    case 's': case 'g': case 'x': case 'A': case 'e':
      break;
    default:
      return 0;
    }

  /* OpenAI, Anthropic and many others: sk-…, sk-proj-…, sk-ant-… */
  if (has_prefix (r, i, "sk-") && (n = count_run (r, i + 3, is_token_char)) >= 20)
    return i + 3 + n;

  for (gsize g = 0; at (r, i) == 'g' && g < G_N_ELEMENTS (github); g++)
    {
      gsize p = strlen (github[g]);

      if (has_prefix (r, i, github[g]) && (n = count_run (r, i + p, is_token_char_no_dash)) >= 20)
        return i + p + n;
    }

  if (has_prefix (r, i, "glpat-") && (n = count_run (r, i + 6, is_token_char)) >= 20)
    return i + 6 + n;

  /* Slack: xoxb-, xoxp-, xoxa-, xoxr-, xoxs-. */
  if (has_prefix (r, i, "xox") && strchr ("abprs", at (r, i + 3)) != NULL && at (r, i + 3) &&
      at (r, i + 4) == '-' && (n = count_run (r, i + 5, is_slack_char)) >= 10)
    return i + 5 + n;

  /* AWS access key ids: exactly 20 upper-case letters and digits. */
  if ((has_prefix (r, i, "AKIA") || has_prefix (r, i, "ASIA")) &&
      count_run (r, i, is_upper_alnum) == 20 && !is_word_char (at (r, i + 20)))
    return i + 20;

  /* Google API keys. */
  if (has_prefix (r, i, "AIza") && (n = count_run (r, i + 4, is_token_char)) >= 30)
    return i + 4 + n;

  /* JSON Web Tokens: three base64url parts, the first one a JSON object. */
  if (has_prefix (r, i, "eyJ"))
    {
      gsize k = i;

      n = count_run (r, k, is_token_char);
      if (n >= 10 && at (r, k + n) == '.')
        {
          k += n + 1;
          n = count_run (r, k, is_token_char);
          if (n >= 10 && at (r, k + n) == '.')
            {
              k += n + 1;
              return k + count_run (r, k, is_token_char);
            }
        }
    }

  return 0;
}

/* The value of key=value from @i: quoted, or up to a separator. */
static void
unquoted_or_quoted_value (const Redactor *r,
                          gsize           i,
                          gsize          *start,
                          gsize          *end)
{
  gsize k;

  if (quoted_value (r, i, start, end))
    return;

  for (k = i; k < r->length; k++)
    {
      char c = r->text[k];

      if (g_ascii_isspace (c) || strchr ("&;,\"'()[]{}<>\\", c) != NULL)
        break;
    }

  *start = i;
  *end = k;
}

/* Rules for the word at [@start, @end). */
static gboolean
try_word (Redactor *r,
          gsize     start,
          gsize     end,
          gsize    *next)
{
  gsize token_end;
  gsize value_start;
  gsize value_end;
  gsize k;
  KeyKind kind;

  token_end = match_key_shape (r, start);
  if (token_end > 0)
    {
      redact_span (r, start, token_end);
      *next = token_end;
      return TRUE;
    }

  k = skip_blanks (r, end);

  /* KEY=value, --token=value, ?access_token=value. */
  if (at (r, k) == '=' && at (r, k + 1) != '=')
    {
      kind = classify_key (r->text + start, end - start);
      if (kind == KEY_PLAIN)
        return FALSE;

      unquoted_or_quoted_value (r, skip_blanks (r, k + 1), &value_start, &value_end);
      if (kind == KEY_IF_TOKEN_SHAPED &&
          !is_token_shaped (r->text + value_start, value_end - value_start))
        return FALSE;

      redact_span (r, value_start, value_end);
      *next = MAX (value_end, k + 1);
      return TRUE;
    }

  /* Header: value, to the end of the line. Well-known headers anywhere,
   * other secret-named ones only at the start of a line, so that
   * "invalid token: expired" stays readable. */
  if (at (r, k) == ':' && !(at (r, k + 1) == '/' && at (r, k + 2) == '/'))
    {
      if (!is_header_name (r->text + start, end - start) &&
          !(at_line_start (r, start) &&
            classify_key (r->text + start, end - start) == KEY_SENSITIVE))
        return FALSE;

      value_start = skip_blanks (r, k + 1);
      value_end = find_line_end (r, value_start);
      while (value_end > value_start &&
             (r->text[value_end - 1] == ' ' || r->text[value_end - 1] == '\t'))
        value_end--;

      redact_span (r, value_start, value_end);
      *next = MAX (value_end, k + 1);
      return TRUE;
    }

  /* Bearer <token>; not "Bearer realm=" in a challenge. */
  if (end - start == 6 && g_ascii_strncasecmp (r->text + start, "bearer", 6) == 0 && k > end)
    {
      gsize n = count_run (r, k, is_bearer_char);

      if (n >= 8 && at (r, k + n) != '"')
        {
          redact_span (r, k, k + n);
          *next = k + n;
          return TRUE;
        }
    }

  return FALSE;
}

/* Whether try_word() can take the word at [@start, @end): only a
 * key-shaped token, a word before '=' or ':', or "Bearer" can. */
static inline gboolean
word_may_match (const Redactor *r,
                gsize           start,
                gsize           end)
{
  char after;

  if (CLASS_OF (r->text[start]) & CLASS_SHAPE)
    return TRUE;
  if (end - start == 6 && (CLASS_OF (r->text[start]) & CLASS_BEARER))
    return TRUE;

  after = at (r, skip_blanks (r, end));
  return after == '=' || after == ':';
}

/* How far back from a ':' or '=' the name before it is looked for: a
 * quoted name's own trailing punctuation, its closing quote and a few
 * blanks. Farther than that, the scan runs to be sure. */
#define NAME_LOOKBACK 72
/* A name longer than this is never classified (classify_key()). */
#define NAME_MAX_BYTES      64

/*
 * Whether the name that ends before the ':' or '=' at @delimiter could be
 * one whose value is a secret, as classify_key() would see it. It errs
 * towards TRUE: the name is not delimited as the scan delimits it, only
 * its last letters and digits are compared, and no name is let off as a
 * plain one ("progressToken").
 */
static gboolean
name_may_be_sensitive (const Redactor *r,
                       gsize           delimiter)
{
  gsize last = delimiter;
  gsize start;
  gsize prev;
  char c;
  char before;

  while (last > 0 && !g_ascii_isalnum (r->text[last - 1]))
    {
      if (delimiter - last >= NAME_LOOKBACK)
        return TRUE;
      last--;
    }
  if (last == 0)
    return FALSE;

  /* The name the scan would classify lies within the NAME_MAX_BYTES bytes
   * before its last letter or digit, and has that text's letters and
   * digits as a suffix of these. */
  start = last > NAME_MAX_BYTES ? last - NAME_MAX_BYTES : 0;
  c = r->text[last - 1] | 0x20;
  prev = last - 1;
  while (prev > start && !g_ascii_isalnum (r->text[prev - 1]))
    prev--;
  if (prev == start || c < 'a' || c > 'z')
    return FALSE;
  /* Setting the bit lowercases a letter and leaves a digit a digit. */
  before = r->text[prev - 1] | 0x20;
  if (before < 'a' || before > 'z' || !(endings[c - 'a'] & (1u << (before - 'a'))))
    return FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (sensitive_suffixes); i++)
    {
      const char *suffix = sensitive_suffixes[i].name;
      gsize suffix_len = sensitive_suffixes[i].length;

      if (suffix[suffix_len - 1] == c && suffix[suffix_len - 2] == before &&
          key_ends_with (r->text + start, last - start, suffix, suffix_len, FALSE))
        return TRUE;
    }

  return (c == 'y' && key_ends_with (r->text + start, last - start, "key", 3, FALSE)) ||
         (c == 'h' && key_ends_with (r->text + start, last - start, "auth", 4, FALSE));
}

/*
 * Whether any rule of redact_shapes() could take something in the text.
 * Nearly every logged message holds no secret, and this pass costs a
 * fraction of the scan: no quoted text is read twice and no rule is tried.
 * It looks at every place where the scan's first redaction could be made
 * and answers TRUE wherever one might: a key-shaped token or "Bearer" at
 * a word's start, a ':' or '=' after a name that could be a secret's, or
 * "://" with an '@' after it. Anything else leaves the text unchanged.
 */
static gboolean
may_hold_shapes (const Redactor *r)
{
  const char *text = r->text;
  gsize length = r->length;
  gsize i = 0;

  while (i < length)
    {
      guint8 class = CLASS_OF (text[i]);

      if (class & CLASS_WORD)
        {
          /* Words are passed over whole, so @i is at a word's start. */
          gsize start = i;

          if ((class & CLASS_SHAPE) && match_key_shape (r, start) > 0)
            return TRUE;
          for (i++; i < length && (CLASS_OF (text[i]) & CLASS_WORD); i++)
            ;
          if ((class & CLASS_BEARER) && i - start == 6 &&
              g_ascii_strncasecmp (text + start, "bearer", 6) == 0)
            return TRUE;
          continue;
        }

      if (class & CLASS_DELIMITER)
        {
          if (name_may_be_sensitive (r, i))
            return TRUE;
          if (text[i] == ':' && at (r, i + 1) == '/' && at (r, i + 2) == '/' &&
              memchr (text + i, '@', length - i) != NULL)
            return TRUE;
        }
      i++;
    }

  return FALSE;
}

static char *
redact_shapes (const char *text,
               gsize       length)
{
  Redactor r = { text, length, NULL, 0 };
  gsize i = 0;

  init_classes ();

  if (!may_hold_shapes (&r))
    return NULL;

  while (i < length)
    {
      char c = text[i];
      guint8 class = CLASS_OF (c);
      gsize next = 0;

      if (!(class & (CLASS_WORD | CLASS_SPECIAL)))
        {
          i++;
          continue;
        }

      if (class & CLASS_SPECIAL)
        {
          if ((c == '"' || c == '\'' || (c == '\\' && at (&r, i + 1) == '"')) &&
              try_quoted_pair (&r, i, &next))
            {
              i = next;
              continue;
            }

          if (c == ':' && at (&r, i + 1) == '/' && at (&r, i + 2) == '/' &&
              try_userinfo (&r, i, &next))
            {
              i = next;
              continue;
            }

          i++;
          continue;
        }

      /* A word char: a word starts here unless @i was left inside one. */
      {
        gboolean starts = i == 0 || !(CLASS_OF (text[i - 1]) & CLASS_WORD);
        gsize end = i + 1;

        while (end < length && (CLASS_OF (text[end]) & CLASS_WORD))
          end++;

        if (starts && word_may_match (&r, i, end) && try_word (&r, i, end, &next))
          i = next;
        else
          i = end;
      }
    }

  if (r.out == NULL)
    return NULL;

  g_string_append_len (r.out, text + r.copied, length - r.copied);
  return g_string_free (r.out, FALSE);
}

/* Known values --------------------------------------------------------- */

#define MIN_SECRET_LENGTH 6

/* The values, longest first, so that a secret that holds another is
 * replaced whole. Guarded by the lock: the log store's export and other
 * workers redact too. */
static GMutex     secrets_lock;
static GPtrArray *secrets;
static gint       n_secrets;

static void
secret_free (gpointer data)
{
  char *value = data;

  memset (value, 0, strlen (value));
  g_free (value);
}

static int
compare_longest_first (gconstpointer a,
                       gconstpointer b)
{
  gsize la = strlen (*(const char * const *) a);
  gsize lb = strlen (*(const char * const *) b);

  return la < lb ? 1 : la > lb ? -1 : 0;
}

/* Called with the lock held. */
static void
remember (const char *value)
{
  for (guint i = 0; i < secrets->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (secrets, i), value))
        return;
    }

  g_ptr_array_add (secrets, g_strdup (value));
}

/* @value as it stands inside a JSON string, which is how it appears in a
 * protocol trace or in --json output when it holds a quote, a backslash
 * or a control character; NULL when that is @value itself. */
static char *
dup_json_escaped (const char *value)
{
  GString *out = g_string_sized_new (strlen (value));

  /* DEL stays as it is, as json-glib's generator writes it. */
  mcp_json_append_escaped (out, value, FALSE);
  if (strcmp (out->str, value) == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }

  return g_string_free (out, FALSE);
}

/**
 * steward_redact_add_secret:
 * @value: (nullable): a secret's exact value
 */
void
steward_redact_add_secret (const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL || strlen (value) < MIN_SECRET_LENGTH)
    return;

  escaped = dup_json_escaped (value);

  g_mutex_lock (&secrets_lock);

  if (secrets == NULL)
    secrets = g_ptr_array_new_with_free_func (secret_free);

  remember (value);
  if (escaped != NULL)
    remember (escaped);
  g_ptr_array_sort (secrets, compare_longest_first);
  g_atomic_int_set (&n_secrets, secrets->len);

  g_mutex_unlock (&secrets_lock);

  if (escaped != NULL)
    memset (escaped, 0, strlen (escaped));
}

void
steward_redact_forget_secrets (void)
{
  g_mutex_lock (&secrets_lock);
  g_clear_pointer (&secrets, g_ptr_array_unref);
  g_atomic_int_set (&n_secrets, 0);
  g_mutex_unlock (&secrets_lock);
}

static const char *
find_bytes (const char *haystack,
            gsize       length,
            const char *needle,
            gsize       needle_length)
{
  const char *end = haystack + length;

  for (const char *p = haystack; (gsize) (end - p) >= needle_length; p++)
    {
      p = memchr (p, needle[0], end - p - needle_length + 1);
      if (p == NULL)
        return NULL;
      if (memcmp (p, needle, needle_length) == 0)
        return p;
    }

  return NULL;
}

/**
 * steward_redact_secrets_if_needed:
 * @text: the text, not necessarily NUL-terminated
 * @length: its length in bytes
 *
 * Returns: (transfer full) (nullable): @text with every remembered value
 *   replaced, or %NULL when none is there
 */
char *
steward_redact_secrets_if_needed (const char *text,
                                  gsize       length)
{
  GString *out = NULL;

  if (g_atomic_int_get (&n_secrets) == 0)
    return NULL;

  g_mutex_lock (&secrets_lock);

  for (guint i = 0; secrets != NULL && i < secrets->len; i++)
    {
      const char *secret = g_ptr_array_index (secrets, i);
      gsize secret_length = strlen (secret);
      const char *from = out != NULL ? out->str : text;
      gsize from_length = out != NULL ? out->len : length;
      const char *found = find_bytes (from, from_length, secret, secret_length);
      GString *next;

      if (found == NULL)
        continue;

      next = g_string_sized_new (from_length);
      while (found != NULL)
        {
          g_string_append_len (next, from, found - from);
          g_string_append (next, STEWARD_REDACTED);
          from_length -= (found - from) + secret_length;
          from = found + secret_length;
          found = find_bytes (from, from_length, secret, secret_length);
        }
      g_string_append_len (next, from, from_length);

      if (out != NULL)
        g_string_free (out, TRUE);
      out = next;
    }

  g_mutex_unlock (&secrets_lock);

  return out != NULL ? g_string_free (out, FALSE) : NULL;
}

/* Both ------------------------------------------------------------------ */

/**
 * steward_redact_if_needed:
 * @text: the text, not necessarily NUL-terminated
 * @length: its length in bytes
 *
 * Returns: (transfer full) (nullable): the redacted text, or %NULL when
 *   nothing in @text needed redacting
 */
char *
steward_redact_if_needed (const char *text,
                          gsize       length)
{
  g_autofree char *known = NULL;
  char *shaped;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  /* The exact values first: a pattern might take only part of one. */
  known = steward_redact_secrets_if_needed (text, length);
  if (known != NULL)
    {
      shaped = redact_shapes (known, strlen (known));
      return shaped != NULL ? shaped : g_steal_pointer (&known);
    }

  return redact_shapes (text, length);
}

/**
 * steward_redact:
 * @text: (nullable): text that may hold secrets
 *
 * Returns: (transfer full) (nullable): a copy of @text with secrets
 *   replaced by "[redacted]"
 */
char *
steward_redact (const char *text)
{
  char *redacted;

  if (text == NULL)
    return NULL;

  redacted = steward_redact_if_needed (text, strlen (text));
  return redacted != NULL ? redacted : g_strdup (text);
}

