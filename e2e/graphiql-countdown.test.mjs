// GraphiQL in headless Chromium runs a subscription (countdown) against
// the chat example: the page sends subscriptions over graphql-sse and
// shows each event as it arrives.
//
// Environment:
//   GRAFT_GRAPHIQL_URL  the GraphiQL page of a router serving the chat example
//   GRAFT_CHROMIUM      the Chromium binary (default /usr/bin/chromium)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const pageURL = process.env.GRAFT_GRAPHIQL_URL;
const executablePath = process.env.GRAFT_CHROMIUM || '/usr/bin/chromium';

let context;
let userDataDir;

before(async () => {
  assert.ok(pageURL, 'GRAFT_GRAPHIQL_URL must name the GraphiQL page');
  userDataDir = await mkdtemp(join(tmpdir(), 'graft-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    viewport: { width: 1280, height: 800 },
  });
});

after(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
});

test('GraphiQL runs countdown and shows its events', async () => {
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  const stream = page.waitForResponse(
    (r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes('countdown'),
    { timeout: 30000 },
  );
  await page.goto(pageURL, { waitUntil: 'load' });
  await page.waitForSelector('.graphiql-container', { timeout: 30000 });
  await page.evaluate(() => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('subscription { countdown(from: 5) }'));
  await page.locator('.graphiql-execute-button').click();
  const res = await stream;
  assert.match(res.headers()['content-type'] ?? '', /^text\/event-stream/);
  // The last event is shown once the stream completes.
  const response = page.locator('.graphiql-response');
  await response.getByText('"countdown": 0').waitFor({ timeout: 30000 });
  assert.deepEqual(pageErrors, [], 'the page threw');
});
