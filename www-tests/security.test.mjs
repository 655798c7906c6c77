// Hostile input, the page's own security, and the crash panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite, unfold } from './harness.mjs';

// A server for dist/ and one browser profile shared by this file's tests.
const env = suite();

test('the page ships a strict CSP and no inline script', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
  const inline = await page.evaluate(() => [...document.scripts].filter((s) => !s.src).length);
  assert.equal(inline, 0);
  assert.deepEqual(errors, []);
});

test('no request ever leaves the page origin', async () => {
  const page = await env.context.newPage();
  const foreign = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['http:', 'https:'].includes(u.protocol)) return; // data:, blob:
    if (u.origin !== new URL(env.server.url).origin) foreign.push(r.url());
  });
  await page.goto(env.server.url);
  await page.waitForSelector('main section.tab-body');
  for (const tab of ['Flink', 'Kafka Streams', 'Pulsar']) {
    await page.click(`button[role="tab"]:has-text("${tab}")`);
    await page.keyboard.press('n');
  }
  await page.waitForTimeout(300);
  assert.deepEqual(foreign, []);
});

const HOSTILE = [
  '<script>window.__pwned=1<script>',
  '"><img src=x onerror=window.__pwned=2>',
  'evil\u202Egnp.exe',
  'x'.repeat(10000),
  'topic-🔥🚀-émoji',
];

test('hostile names are shown inertly and the layout holds', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh');
  await page.waitForSelector('svg.ring');
  for (const name of HOSTILE) {
    await unfold(page, 'details.topics');
    await page.fill('#topic-name', name);
    await page.click('form.add-topic button');
  }
  // Broker names too.
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  // The topic names reached the engine and come back as text.
  const topics = await page.evaluate(() => window.lbscope.namespaces.flatMap((n) => Object.keys(n.topics)));
  assert.ok(topics.some((t) => t.includes('<script>')), JSON.stringify(topics.map((t) => t.slice(0, 40))));
  assert.ok(topics.some((t) => t.includes('🔥')));
  // Nothing is wider than the viewport.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 1280, `page is ${width}px wide`);
  await screenshot(page, 'hostile-names');
  assert.deepEqual(errors, []);
});

test('a panic shows the crash panel with a way back', async () => {
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(env.server.url + '?lbscope-test-panic');
  await page.waitForSelector('#crash[role="alert"]');
  assert.match(await page.textContent('#crash'), /deliberate test panic/);
  const restore = page.locator('#crash a', { hasText: 'Restore last good state' });
  assert.equal(await restore.getAttribute('href'), './');
  await screenshot(page, 'crash-panel');
  await restore.click();
  await page.waitForSelector('main section.tab-body');
  assert.equal(await page.locator('#crash').count(), 0);
});

test('refused form input is explained next to its field', async () => {
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  // Pulsar: a topic name the engine refuses.
  await unfold(page, 'details.topics');
  await page.fill('#topic-name', 'a/b');
  await page.click('form.add-topic button');
  const topic = page.locator('.field-error[data-field="pulsar-topics"]');
  await topic.waitFor();
  assert.match(await topic.textContent(), /tenant\/namespace\/topic/);
  await page.click('button[role="tab"]:has-text("Flink")');
  await unfold(page, 'details.tms');
  await page.fill('#flink-slots', '0');
  await page.click('form.add-tm button[type="submit"]');
  const slots = page.locator('.field-error[data-field="flink-slots"]');
  await slots.waitFor();
  assert.match(await slots.textContent(), /between 1 and 1024 slots/);
  assert.equal(await page.locator('.notice.error').count(), 0);
  await page.click('button[role="tab"]:has-text("Kafka Streams")');
  await unfold(page, 'details.ks-add');
  await page.fill('#ks-name', 'app-x');
  await page.fill('#ks-tags', 'averyveryverylongtagkey=1');
  await page.click('button:has-text("Add instance")');
  const tags = page.locator('.field-error[data-field="ks-add"]');
  await tags.waitFor();
  assert.match(await tags.textContent(), /20/);
  assert.deepEqual(errors, []);
});
