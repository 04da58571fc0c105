// SPDX-License-Identifier: GPL-3.0-or-later
//
// A server built with fastmcp, the TypeScript framework, as a person who
// follows its README would write one, for Steward's interop tests. Two
// tools that need nothing from outside: "add" sums two numbers, "shout"
// refuses an empty text with the framework's UserError, so that a tool
// error travels back as one.
//
// Usage: node fastmcp-server.mjs   (stdio)

import { FastMCP, UserError } from 'fastmcp';
import { z } from 'zod';

const server = new FastMCP({
  name: 'Steward interop (fastmcp)',
  version: '1.0.0',
});

server.addTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({
    a: z.number(),
    b: z.number(),
  }),
  execute: async (args) => String(args.a + args.b),
});

server.addTool({
  name: 'shout',
  description: 'Repeat a text in capitals',
  parameters: z.object({ text: z.string() }),
  execute: async (args) => {
    if (args.text.length === 0)
      throw new UserError('There is nothing to shout.');
    return args.text.toUpperCase();
  },
});

server.start({ transportType: 'stdio' });
