#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// One tool, "where", that answers with the server's home and working
// folder: enough to show that npx installed and started it in its sandbox.
'use strict';

const readline = require('node:readline');

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function handle(request) {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'steward-npx-server', version: '1.0.0' },
      };
    case 'tools/list':
      return { tools: [{ name: 'where', description: 'Says where it runs.',
                         inputSchema: { type: 'object' } }] };
    case 'tools/call':
      return { content: [{ type: 'text',
                           text: JSON.stringify({ home: process.env.HOME, script: __filename }) }] };
    case 'ping':
      return {};
    default:
      return null;
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  if (request.id === undefined)
    return;
  const result = handle(request);
  if (result === null)
    send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'no such method' } });
  else
    send({ jsonrpc: '2.0', id: request.id, result });
});
