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
import { readFileSync, writeFileSync } from 'node:fs';
import { OUTPUT, openApp, screenshot, suite } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'lbscope', '--', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });

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

// A long play keeps the page small: with 900 rounds in the log, each line of
// the metrics chart is drawn from at most four points per two units of its
// width (its first, lowest, highest and last), with one dot, at its last
// point; its ends and its extremes are the native run's. The offered-traffic
// curve of the workloads panel is the range of each of its 120 columns.
test('after 900 rounds the chart draws each line from a bounded set of points with its extremes kept', async () => {
  const LONG = 900;
  const sc = JSON.parse(readFileSync(join(root, 'tests', 'scenarios', 'pulsar-workload-patterns.json'), 'utf8'));
  sc.actions.push(...Array.from({ length: LONG }, () => ({ op: 'step' })));
  await mkdir(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'pulsar-workload-long.json');
  writeFileSync(file, JSON.stringify(sc));
  const { page, errors } = await openApp(env.context, cli('url', file, '--base', env.server.url).trim());
  await page.waitForSelector('.chart .series[data-series="max load"] polyline', { state: 'attached' });
  const chart = await page.evaluate(() => [...document.querySelectorAll('.chart .series')].map((g) => ({
    name: g.dataset.series,
    circles: g.querySelectorAll('circle').length,
    points: g.querySelector('polyline').getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number)),
  })));
  const native = JSON.parse(cli('run', file, '--format', 'json')).events
    .filter((e) => e.event.kind === 'round_done').map((e) => e.event.metrics);
  assert.ok(native.length >= LONG, String(native.length));
  assert.ok(chart.length >= 6, JSON.stringify(chart.map((c) => c.name)));
  for (const line of chart) {
    assert.equal(line.circles, 1, line.name);
    assert.ok(line.points.length > 2 && line.points.length <= 4 * 187, `${line.name}: ${line.points.length} points`);
    // The line spans the plot: the first round at its left edge, the last at its right.
    assert.equal(line.points[0][0], 38);
    assert.equal(line.points.at(-1)[0], 412);
    assert.ok(line.points.every((p, i) => i === 0 || p[0] >= line.points[i - 1][0]), line.name);
  }
  // The highest and lowest max load of the native run are where the line reaches
  // (the percent axis tops at 1, 2 or 5 times a power of ten above the percent lines' peak).
  const loads = native.map((m) => m.max_load);
  const peakPct = Math.max(...native.flatMap((m) => [m.max_load, m.avg_load, m.min_load]));
  const top = [1, 2, 5, 10].map((k) => k * 10 ** Math.floor(Math.log10(peakPct))).find((v) => v >= peakPct);
  const y = (v) => 180 - 22 - Math.min(Math.max(v / top, 0), 1) * (180 - 10 - 22);
  const ys = chart.find((c) => c.name === 'max load').points.map((p) => p[1]);
  assert.ok(Math.abs(Math.min(...ys) - y(Math.max(...loads))) <= 0.051, `${Math.min(...ys)} vs ${y(Math.max(...loads))}`);
  assert.ok(Math.abs(Math.max(...ys) - y(Math.min(...loads))) <= 0.051, `${Math.max(...ys)} vs ${y(Math.min(...loads))}`);
  // The offered curve: 120 columns, labelled with its count of readings (a
  // reshaping each round, and one when each of the three patterns was added).
  const offered = page.locator('.workload-offered svg.workload-curve');
  assert.match(await offered.getAttribute('aria-label'), new RegExp(`offered msg/s in, ${LONG + 6 + 3} readings`));
  const mid = await offered.locator('polyline').getAttribute('points');
  assert.equal(mid.trim().split(/\s+/).length, 120);
  await screenshot(page, 'chart-after-900-rounds');
  assert.deepEqual(errors, []);
});
