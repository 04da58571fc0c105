// SPDX-License-Identifier: GPL-3.0-or-later
//
// A server of the 2026-07-28 revision with the tasks extension
// (io.modelcontextprotocol/tasks), built on the official TypeScript SDK
// (v2) that tests/peers pins, for Steward's tests of long-running calls.
// The tasks live in this process, apart from any one connection, so that a
// client that goes away and comes back finds them.
//
// Tools:
//   count       a task of `steps` steps, `delayMs` apart, status "Step i of n"
//   ask-name    a task that needs the person's name (input_required)
//   quick       answered at once: the server decides what becomes a task
//   break       a task that fails with a JSON-RPC error
//
// Usage: node tasks-server.mjs stdio
//        node tasks-server.mjs http PORT   (prints "listening on PORT" on stderr)

import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

// The SDK is installed with the other peers, not beside this file.
const require = createRequire(new URL('../peers/package.json', import.meta.url));
const { McpServer, ProtocolError, createMcpHandler } = require('@modelcontextprotocol/server');
const { serveStdio } = require('@modelcontextprotocol/server/stdio');
const { z } = require('zod');

const EXTENSION = 'io.modelcontextprotocol/tasks';
const POLL_MS = 200;
const TTL_MS = 10 * 60 * 1000;

const tasks = new Map();
let nextId = 1;

function now () {
  return new Date().toISOString();
}

function text (value) {
  return { content: [{ type: 'text', text: value }] };
}

function newTask (message) {
  const task = {
    taskId: `task-${process.pid}-${nextId++}`,
    status: 'working',
    statusMessage: message,
    createdAt: now(),
    lastUpdatedAt: now(),
    ttlMs: TTL_MS,
    pollIntervalMs: POLL_MS,
    timers: [],
  };
  tasks.set(task.taskId, task);
  return task;
}

function update (task, fields) {
  if (['completed', 'failed', 'cancelled'].includes(task.status))
    return;
  Object.assign(task, fields, { lastUpdatedAt: now() });
}

function later (task, ms, fn) {
  task.timers.push(setTimeout(fn, ms));
}

// What goes on the wire: the Task, with what its status carries.
function wire (task) {
  const out = {
    taskId: task.taskId, status: task.status, createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt, ttlMs: task.ttlMs, pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined)
    out.statusMessage = task.statusMessage;
  if (task.status === 'input_required')
    out.inputRequests = task.inputRequests;
  if (task.status === 'completed')
    out.result = task.result;
  if (task.status === 'failed')
    out.error = task.error;
  return out;
}

function created (task) {
  return { resultType: 'task', ...wire(task) };
}

function lookup (taskId) {
  const task = tasks.get(taskId);
  if (!task)
    throw new ProtocolError(-32602, `Task not found: ${taskId}`);
  return task;
}

function declaresTasks (ctx) {
  const caps = ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'];
  return caps?.extensions?.[EXTENSION] !== undefined;
}

function requireTasks (ctx) {
  if (declaresTasks(ctx))
    return;
  throw new ProtocolError(-32003, 'Missing required client capability',
    { requiredCapabilities: { extensions: { [EXTENSION]: {} } } });
}

function build () {
  const server = new McpServer(
    { name: 'steward-tasks-test', version: '1.0.0' },
    { capabilities: { tools: {}, extensions: { [EXTENSION]: {} } } });

  server.registerTool('count', {
    description: 'Counts in steps, as a task',
    inputSchema: { steps: z.number().int().min(1).max(100).default(3),
                   delayMs: z.number().int().min(10).max(60000).default(300) },
  }, async (args, ctx) => {
    requireTasks(ctx);
    const task = newTask(`Step 0 of ${args.steps}`);
    for (let i = 1; i <= args.steps; i++)
      later(task, i * args.delayMs, () => {
        if (i < args.steps)
          update(task, { statusMessage: `Step ${i} of ${args.steps}` });
        else
          update(task, { status: 'completed', statusMessage: 'Done',
                         result: text(`counted to ${args.steps}`) });
      });
    return created(task);
  });

  server.registerTool('ask-name', { description: 'Asks the person for a name, as a task',
    inputSchema: {} }, async (args, ctx) => {
    requireTasks(ctx);
    const task = newTask('Starting');
    later(task, POLL_MS, () => update(task, {
      status: 'input_required', statusMessage: 'Waiting for a name',
      inputRequests: { who: { method: 'elicitation/create', params: {
        mode: 'form', message: 'Who is asking?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } },
                           required: ['name'] } } } },
    }));
    task.onInput = (responses) => {
      const answer = responses.who;
      if (!answer)
        return;
      const name = answer.action === 'accept' ? answer.content?.name : `(${answer.action})`;
      update(task, { status: 'working', statusMessage: 'Got a name', inputRequests: undefined });
      later(task, POLL_MS, () => update(task, { status: 'completed',
        result: text(`Hello, ${name}`) }));
    };
    return created(task);
  });

  server.registerTool('quick', { description: 'Answers at once', inputSchema: {} },
    async () => text('quick answer'));

  server.registerTool('break', { description: 'Fails, as a task', inputSchema: {} },
    async (args, ctx) => {
      requireTasks(ctx);
      const task = newTask('About to break');
      later(task, POLL_MS, () => update(task, { status: 'failed', statusMessage: 'Broke',
        error: { code: -32000, message: 'the job broke' } }));
      return created(task);
    });

  const params = z.object({ taskId: z.string() }).passthrough();

  server.server.setRequestHandler('tasks/get', { params }, async (p) => wire(lookup(p.taskId)));

  // The SDK takes inputResponses out of the params, as for any request of
  // this revision, and hands them over beside them.
  server.server.setRequestHandler('tasks/update', { params }, async (p, ctx) => {
    const task = lookup(p.taskId);
    const responses = ctx.mcpReq.inputResponses ?? p.inputResponses ?? {};
    if (task.status === 'input_required' && task.onInput)
      task.onInput(responses);
    return {};
  });

  server.server.setRequestHandler('tasks/cancel', { params }, async (p) => {
    const task = lookup(p.taskId);
    for (const timer of task.timers)
      clearTimeout(timer);
    update(task, { status: 'cancelled', statusMessage: 'Cancelled on request' });
    return {};
  });

  return server;
}

function report (error) {
  process.stderr.write(`tasks-server: ${error.stack || error}\n`);
}

function serveHttp (port) {
  const handler = createMcpHandler(build, { onerror: report });

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
