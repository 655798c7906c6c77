// Accessibility: axe-core (the npm package, run inside the page) finds no
// serious or critical violation on any tab, in a lesson of each system, on the
// lesson menu, in light and dark mode and at phone width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { openApp, screenshot, suite } from './harness.mjs';

const env = suite();
const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe findings on the page as it is, one line each. */
async function audit(page) {
  // Evaluated through the debugger protocol: the page's CSP does not apply.
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.slice(0, 6).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join(' ').trim()}`));
  });
  return found;
}

async function open(hash, scheme, width = 1280) {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => { localStorage.clear(); localStorage.setItem('lbscope.start-here-dismissed', 'false'); });
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
  await page.goto(env.server.url + '?a11y' + hash);
  await page.waitForSelector('main section.tab-body, .lessons-page');
  await page.waitForTimeout(150);
  return { page, errors };
}

const TABS = [['Pulsar', 'svg.ring path.arc'], ['Flink', '.flink-controls'], ['Kafka Streams', 'article.ks-instance']];
const LESSONS = ['#lesson=pulsar-avg-shedder&step=1', '#lesson=flink-phase-2-slots-to-taskmanagers&step=2', '#lesson=kstreams-partitions-to-tasks&step=1'];

for (const scheme of ['light', 'dark']) {
  for (const width of [1280, 390]) {
    test(`axe: every tab, ${scheme}, ${width} px`, async () => {
      const { page, errors } = await open('#', scheme, width);
      const all = [];
      for (const [tab, ready] of TABS) {
        await page.click(`button[role="tab"]:has-text("${tab}")`);
        await page.waitForSelector(ready);
        // Press the round button once, so the round's panels are drawn too.
        await page.click('#step');
        await page.waitForTimeout(200);
        for (const f of await audit(page)) all.push(`${tab}: ${f}`);
      }
      await screenshot(page, `a11y-${scheme}-${width}`);
      assert.deepEqual(all, []);
      assert.deepEqual(errors, []);
    });
  }
  test(`axe: a lesson of each system and the lesson menu, ${scheme}`, async () => {
    const all = [];
    for (const hash of LESSONS) {
      const { page } = await open(hash, scheme);
      await page.waitForSelector('.lesson-panel .narration');
      for (const f of await audit(page)) all.push(`${hash}: ${f}`);
      await page.close();
    }
    const { page, errors } = await open('#', scheme);
    await page.click('header .lessons-button');
    await page.waitForSelector('.lessons-page');
    for (const f of await audit(page)) all.push(`menu: ${f}`);
    assert.deepEqual(all, []);
    assert.deepEqual(errors, []);
  });
}
