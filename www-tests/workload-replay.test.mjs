// Workload patterns replay the same in both runtimes: a scenario whose traffic
// changes every round (jitter + wave + burst on a Pulsar cluster; a Kafka
// Streams produce pattern with key skew and a wave) is opened from its link,
// stepped in the browser, and the browser's event log must equal the native
// CLI's for the same scenario with as many rounds appended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { OUTPUT, openApp, suite } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'lbscope', '--', ...args], { cwd: root, encoding: 'utf8' });

const env = suite();

// Rounds pressed in the browser after the link's own actions.
const STEPS = 3;

for (const [name, tab, shaped] of [
  ['pulsar-workload-patterns', 'Pulsar', /workload at round \d+: 40 topics shaped/],
  ['kstreams-workload-produce', 'Kafka Streams', /records produced from \d+ ms to \d+ ms: #1 \d+ records to clicks/],
]) {
  test(`${tab}: the browser's event log with workload patterns equals the CLI's, replayed and stepped`, async () => {
    const file = join(root, 'tests', 'scenarios', `${name}.json`);
    const link = cli('url', file, '--base', env.server.url).trim();
    const { page, errors } = await openApp(env.context, link);
    const opened = await page.evaluate(() => window.lbscope.events);
    // The link alone: the scenario's actions, patterns applied every round.
    const native0 = JSON.parse(cli('run', file, '--format', 'json')).events.map((e) => e.text);
    assert.deepEqual(opened, native0);
    assert.ok(native0.some((t) => shaped.test(t)), native0.join('\n'));
    for (let i = 1; i <= STEPS; i++) {
      const before = await page.evaluate(() => window.lbscope.events.length);
      await page.click('#step');
      await page.waitForFunction((n) => window.lbscope.events.length > n, before);
    }
    const wasm = await page.evaluate(() => window.lbscope.events);
    const native = JSON.parse(cli('run', file, '--format', 'json', '--rounds', String(STEPS))).events.map((e) => e.text);
    assert.ok(native.length > native0.length);
    assert.deepEqual(wasm, native);
    assert.deepEqual(errors, []);
  });
}

// The workloads panel as styled: each pattern a card (id badge, label, curve,
// buttons), each broker's traffic line a grid row (name | sparkline | now),
// nothing wider than the panel, at a desktop and a phone width, light and dark.
test('the workloads panel lays out its patterns and traffic lines at 1280 and 390 px, light and dark', async () => {
  const file = join(root, 'tests', 'scenarios', 'pulsar-workload-patterns.json');
  const link = cli('url', file, '--base', env.server.url).trim();
  const { page, errors } = await openApp(env.context, link);
  await page.waitForSelector('.workloads li.workload-row');
  for (let i = 0; i < 2; i++) {
    const before = await page.evaluate(() => window.lbscope.events.length);
    await page.click('#step');
    await page.waitForFunction((n) => window.lbscope.events.length > n, before);
  }
  await page.waitForSelector('.workloads .traffic-line svg.sparkline polyline');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const panel = page.locator('.workloads').first();
      await panel.scrollIntoViewIfNeeded();
      const box = await panel.boundingBox();
      const layout = await panel.evaluate((p) => {
        const r = p.getBoundingClientRect();
        const rows = [...p.querySelectorAll('li.workload-row')];
        const lines = [...p.querySelectorAll('li.traffic-line')];
        return {
          rows: rows.length,
          rowDisplay: rows.map((e) => getComputedStyle(e).display),
          bullets: [...p.querySelectorAll('ul')].map((u) => getComputedStyle(u).listStyleType),
          lineDisplay: lines.map((e) => getComputedStyle(e).display),
          // The sparkline sits between the name and the figure, on one line.
          inline: lines.every((l) => {
            const [n, s, v] = [l.querySelector('.traffic-name'), l.querySelector('svg.sparkline'), l.querySelector('.traffic-now')].map((e) => e.getBoundingClientRect());
            return n.right <= s.left + 0.5 && s.right <= v.left + 0.5 && Math.abs(n.top - s.top) < 20;
          }),
          overflow: [...p.querySelectorAll('li')].filter((e) => e.getBoundingClientRect().right > r.right + 0.5).length,
        };
      });
      assert.equal(layout.rows, 3);
      assert.ok(layout.rowDisplay.every((d) => d === 'grid'), JSON.stringify(layout));
      assert.ok(layout.lineDisplay.length >= 3 && layout.lineDisplay.every((d) => d === 'grid'), JSON.stringify(layout));
      assert.ok(layout.bullets.every((b) => b === 'none'), JSON.stringify(layout));
      assert.ok(layout.inline, JSON.stringify(layout));
      assert.equal(layout.overflow, 0, JSON.stringify(layout));
      assert.ok(box.width > 100);
      await mkdir(OUTPUT, { recursive: true });
      // The panel's picture; at phone width the main view sticks to the top
      // of the screen over what scrolls under it, so it is unstuck meanwhile.
      const stuck = await page.evaluate(() => {
        const els = [...document.querySelectorAll('body *')].filter((e) => getComputedStyle(e).position === 'sticky');
        els.forEach((e) => e.setAttribute('data-unstuck', e.style.position || ''));
        els.forEach((e) => { e.style.position = 'static'; });
        return els.length;
      });
      await panel.screenshot({ path: join(OUTPUT, `workload-panel-${width}-${scheme}.png`) });
      if (stuck) {
        await page.evaluate(() => document.querySelectorAll('[data-unstuck]').forEach((e) => {
          e.style.position = e.getAttribute('data-unstuck');
          e.removeAttribute('data-unstuck');
        }));
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
});
