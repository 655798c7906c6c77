// A large Pulsar cluster in the browser: 1,000 brokers, 16,384 bundles
// and 30,000 topics opened from a link. The heavy replay is announced first; the
// ring and the broker strip are drawn on canvas; long lists become text fields
// with suggestions; rounds step and play; pointing at the ring names a bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp, screenshot, suite, OUTPUT } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'lbscope', '--', ...args], { cwd: root, encoding: 'utf8' });
const env = suite();

test('1,000 brokers, 16,384 bundles, 30,000 topics: announced, drawn on canvas, steps and plays', async () => {
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'scale-30000.json');
  cli('bench', '--browser-scenario', file, '--topics', '30000', '--rounds', '1');
  const link = cli('url', file, '--base', env.server.url).trim();
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(link);
  // The replay is announced before it runs (the page shows the default tab meanwhile).
  const busy = await page.waitForFunction(() => document.querySelector('.notice.busy')?.textContent, null, { timeout: 20000 });
  // The announcement counts what the actions build: 30,000 topics and 16,384 bundles.
  assert.match(await busy.jsonValue(), /Opening a large Pulsar scenario: the engine replays \d+ actions creating 46384 topics and bundles/);
  await page.waitForSelector('canvas.ring[data-bundles="16384"]', { timeout: 120000 });
  assert.equal(await page.locator('.notice.busy').count(), 0);
  // The link being opened was kept in the address bar all along.
  assert.equal(await page.evaluate(() => location.href), link);
  assert.equal(await page.getAttribute('canvas.ring', 'data-topics'), '30000');
  // No per-bundle SVG, no per-broker list: canvas, a compact legend, six cards.
  assert.equal(await page.locator('svg.ring').count(), 0);
  assert.equal(await page.locator('canvas.broker-strip').count(), 1);
  // Both canvases follow their element's width by themselves (each is watched,
  // the strip too although it appeared only with the large cluster): a narrower
  // window redraws them at the new width with no round stepped.
  const backing = () => page.evaluate(() => [...document.querySelectorAll('canvas.ring, canvas.broker-strip')]
    .map((c) => [c.className, c.width, Math.round(c.clientWidth * devicePixelRatio)]));
  const wide = await backing();
  assert.equal(wide.length, 2);
  for (const [name, w, css] of wide) assert.equal(w, css, `${name} drawn at its width`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => [...document.querySelectorAll('canvas.ring, canvas.broker-strip')]
    .every((c) => c.width === Math.round(c.clientWidth * devicePixelRatio)), null, { timeout: 10000 });
  const narrow = await backing();
  for (const [i, [name, w]] of narrow.entries()) assert.ok(w < wide[i][1], `${name} redrawn narrower: ${w} < ${wide[i][1]}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await page.locator('.legend.compact li').count(), 8);
  assert.equal(await page.locator('.broker-bars li.broker').count(), 6);
  assert.ok(await page.locator('*').count() < 3000, 'the page stays small');
  // Long lists are text fields with a few suggestions.
  assert.equal(await page.evaluate(() => document.querySelector('#unload-bundle').tagName), 'INPUT');
  assert.equal(await page.inputValue('#unload-bundle'), '');
  assert.equal(await page.inputValue('#split-bundle'), 'LARGEST');
  assert.ok(await page.locator('#unload-bundle-choices option').count() <= 40);
  // Pointing at the ring names the bundle under the pointer.
  const box = await page.locator('canvas.ring').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5 + 2, box.y + box.height * 0.16);
  const detail = await page.waitForFunction(() => {
    const t = document.querySelector('.ring-detail').textContent;
    return t.startsWith('bundle [0x') && t;
  });
  assert.match(await detail.jsonValue(), /^bundle \[0x0[0-9a-f]{7}, 0x0[0-9a-f]{7}\) · (owned by broker-\d{4}|no owner)/);
  // Unload one bundle typed by name: the engine does it.
  await page.click('details.admin summary');
  await page.fill('#unload-bundle', '0x00040000_0x00080000');
  await page.click('form.unload button[type=submit]');
  await page.waitForFunction(() => (window.lbscope.events ?? []).some((e) => e.includes('0x00040000_0x00080000') && /unload/i.test(e)), null, { timeout: 10000 });
  // A round by key; its engine time is published for the benchmark.
  await page.keyboard.press('n');
  await page.waitForFunction(() => /round 1 /.test(document.querySelector('.round-bar, .pulsar-tab')?.textContent ?? ''));
  assert.ok((await page.evaluate(() => window.lbscopeRoundMs)) > 0);
  // Play: rounds keep coming without piling up; pause stops them.
  await page.keyboard.press(' ');
  await page.waitForFunction(() => /round [3-9] /.test(document.querySelector('.pulsar-tab').textContent), null, { timeout: 60000 });
  await page.keyboard.press(' ');
  await screenshot(page, 'pulsar-scale-30000');
  assert.deepEqual(errors, []);
  await page.close();
});
