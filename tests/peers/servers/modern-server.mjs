// SPDX-License-Identifier: GPL-3.0-or-later
//
// A server of the 2026-07-28 revision, built on the official TypeScript SDK
// (v2), for Steward's tests. Its tools ask the client for input the way
// that revision does, with input_required results, and one of them changes
// the tool list so that the change reaches subscribers.
//
// Usage: node modern-server.mjs stdio
//        node modern-server.mjs http PORT   (prints "listening on PORT" on stderr)

import { createServer } from 'node:http';
import { Readable } from 'node:stream';

import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const nameSchema = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Your name' } },
  required: ['name'],
};

const askName = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'What is your name?', requestedSchema: nameSchema },
};

const askModel = {
  method: 'sampling/createMessage',
  params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Say something kind.' } }],
    systemPrompt: 'You are a test.',
    maxTokens: 50,
  },
};

const askRoots = { method: 'roots/list', params: {} };

function text (value) {
  return { content: [{ type: 'text', text: value }] };
}

function inputRequired (inputRequests, requestState) {
  const result = { resultType: 'input_required', inputRequests };
  if (requestState !== undefined)
    result.requestState = requestState;
  return result;
}

function sampledText (response) {
  const content = Array.isArray(response.content) ? response.content[0] : response.content;
  return content.text;
}

// Tools added at run time; over HTTP every request gets a fresh instance,
// so they are kept here and registered on each.
const addedTools = [];
let announceChange = () => {};

function build () {
  const server = new McpServer(
    { name: 'steward-modern-test', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } }, instructions: 'A modern test server.' });

  server.registerTool('echo', { description: 'Echoes the message',
    inputSchema: { message: z.string () } },
  async (args) => text(`Echo: ${args.message}`));

  server.registerTool('ask-name', { description: 'Asks the person for a name', inputSchema: {} },
    async (args, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.who;
      if (!answer)
        return inputRequired({ who: askName });
      if (answer.action !== 'accept')
        return text(`No name given (${answer.action})`);
      return text(`Hello, ${answer.content.name}`);
    });

  server.registerTool('think', { description: 'Asks the client\'s model', inputSchema: {} },
    async (args, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.model;
      if (!answer)
        return inputRequired({ model: askModel });
      return text(`The model said: ${sampledText(answer)}`);
    });

  server.registerTool('where', { description: 'Lists the client\'s roots', inputSchema: {} },
    async (args, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.roots;
      if (!answer)
        return inputRequired({ roots: askRoots });
      return text(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`);
    });

  server.registerTool('all-at-once', { description: 'Asks three things in one round', inputSchema: {} },
    async (args, ctx) => {
      const r = ctx.mcpReq.inputResponses;
      if (!r?.who || !r?.model || !r?.roots)
        return inputRequired({ who: askName, model: askModel, roots: askRoots }, 'round-1');
      if (ctx.mcpReq.requestState?.() !== 'round-1')
        return text('the request state did not come back');
      return text(`${r.who.content.name} / ${sampledText(r.model)} / ${r.roots.roots.length} roots`);
    });

  server.registerTool('two-rounds', { description: 'Asks for a name, then for the roots', inputSchema: {} },
    async (args, ctx) => {
      const r = ctx.mcpReq.inputResponses ?? {};
      if (r.roots)
        return text(`second round: ${r.roots.roots.length} roots`);
      if (r.who)
        return inputRequired({ roots: askRoots }, `name=${r.who.content.name}`);
      return inputRequired({ who: askName });
    });

  server.registerTool('add-tool', { description: 'Adds a tool, changing the list', inputSchema: {} },
    async () => {
      const name = `added-${addedTools.length + 1}`;

      addedTools.push(name);
      server.registerTool(name, { description: 'Added at run time', inputSchema: {} },
        async () => text('added'));
      announceChange();
      return text('added a tool');
    });

  for (const name of addedTools)
    server.registerTool(name, { description: 'Added at run time', inputSchema: {} },
      async () => text('added'));

  return server;
}

function report (error) {
  process.stderr.write(`modern-server: ${error.stack || error}\n`);
}

// Serves the web-standard handler on node's HTTP server, streaming the
// response body so that event streams reach the client as they are written.
function serveHttp (port) {
  const handler = createMcpHandler(build, { onerror: report });

  announceChange = () => handler.notify.toolsChanged();

  const server = createServer(async (req, res) => {
    try {
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method, headers: req.headers, body, duplex: 'half',
      });
      const response = await handler.fetch(request);

      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) {
        res.end();
        return;
      }
      for await (const chunk of response.body)
        res.write(chunk);
      res.end();
    } catch (error) {
      report(error);
      res.destroy();
    }
  });

  server.listen(port, '127.0.0.1', () => process.stderr.write(`listening on ${port}\n`));
}

if (process.argv[2] === 'http')
  serveHttp(Number(process.argv[3]));
else
  serveStdio(build, { onerror: report });
