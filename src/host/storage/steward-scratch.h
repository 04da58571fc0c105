/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * StewardScratch:
 * @STEWARD_SCRATCH_TRACE_SUMMARY: a traced message's one-line summary
 * @STEWARD_SCRATCH_TRACE_COMPACT: a received message's compact text
 * @STEWARD_SCRATCH_ENTRY_SCANNED: a log entry's text while it is redacted
 * @STEWARD_SCRATCH_ENTRY_STRINGS: a log entry's texts while laid out
 *
 * Text buffers kept between messages on each thread, for the work done
 * on every message logged: each use has its own, so that one may be
 * filled while another is still read.
 */
typedef enum {
  STEWARD_SCRATCH_TRACE_SUMMARY,
  STEWARD_SCRATCH_TRACE_COMPACT,
  STEWARD_SCRATCH_ENTRY_SCANNED,
  STEWARD_SCRATCH_ENTRY_STRINGS,
  STEWARD_SCRATCH_N_BUFFERS
} StewardScratch;

GString *steward_scratch_take    (StewardScratch which);
void     steward_scratch_release (StewardScratch which);

G_END_DECLS
