// The run's outcome and its spread over seeds in the metrics panel: the outcome
// line is the engine's (the CLI's `run` prints the same figures), the spread is
// computed in the engine worker while the page answers input, and its numbers
// are the ones `lbscope sweep` prints for the same scenario and seeds.
// Screenshots at 1280×800 and 390×844, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { suite, openApp, screenshot, cargoTargetDir, releaseCli, OUTPUT } from './harness.mjs';

const env = suite();
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The native CLI: the newer of the release and the debug build. */
function cli(...args) {
  const built = [releaseCli(), join(cargoTargetDir(), 'debug', 'lbscope')].filter((p) => existsSync(p));
  built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return execFileSync(built[0], args, { encoding: 'utf8', maxBuffer: 1 << 28 });
}

const SEEDS = 30;

/** Every drawn row of the spread: { figure, variant, n, min, median, p90, max, this }. */
const rows = (page) => page.$$eval('.spread-view svg g[data-figure]', (gs) => gs.map((g) => ({
  figure: g.dataset.figure,
  variant: Number(g.dataset.variant),
  n: Number(g.dataset.n),
  min: g.dataset.min,
  median: g.dataset.median,
  p90: g.dataset.p90,
  max: g.dataset.max,
  this: g.dataset.this,
})));

/** A figure as the page shows it (two decimals at most, ∞ for infinity; JSON has null). */
const shown = (v) => (v === null ? '∞' : String(Number(v.toFixed(2))));

test('a question opens with the spread over seeds: the sweep\'s numbers, the run on screen ringed', async () => {
  const { page, errors } = await openApp(env.context, `${env.server.url}#question=flink-uneven-tasks`);
  await page.waitForSelector('.question-card');
  // The outcome line of the run on screen.
  const line = await page.textContent('.outcome-line');
  assert.match(line, /^Outcome: (settled after round \d+|not settled after \d+ rounds?|0 rounds) · \d+ moves? · balancedness \d+(\.\d+)?$/);
  await page.waitForSelector('.spread[data-state="ready"] .spread-view svg[data-view="spread"]', { timeout: 60000 });
  assert.equal(await page.isChecked('.spread-toggle input'), true);
  const drawn = await rows(page);
  assert.ok(drawn.length > 0, 'the Flink request order makes some figure differ between seeds');
  // The same scenario through the CLI: as it is, and with the question's fix.
  const sc = await page.evaluate(() => window.lbscope.scenario);
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'spread-question.json');
  writeFileSync(file, JSON.stringify(sc));
  const asIs = JSON.parse(cli('sweep', file, '--seeds', String(SEEDS), '--format', 'json'));
  const fixed = JSON.parse(cli('sweep', file, '--seeds', String(SEEDS), '--format', 'json',
    '--setting', 'taskmanager.load-balance.mode=TASKS'));
  const sweeps = [asIs.variants[0], fixed.variants[0]];
  for (const r of drawn) {
    const f = sweeps[r.variant].figures.find((x) => x.figure === r.figure);
    assert.ok(f, `${r.figure} is in the CLI's sweep`);
    assert.deepEqual(
      [r.n, r.min, r.median, r.p90, r.max],
      [f.n, shown(f.min), shown(f.median), shown(f.p90), shown(f.max)],
      `${r.figure}, row ${r.variant}`,
    );
    assert.ok(r.this !== undefined, `${r.figure}: the run on screen is ringed`);
  }
  // The ring of the first row is the run on screen: its outcome as the panel reads it.
  const score = drawn.find((r) => r.figure === 'score' && r.variant === 0);
  if (score) assert.equal(score.this, await page.getAttribute('.outcome', 'data-score'));
  // The words say how often each value came.
  await page.click('.spread-words summary');
  assert.match(await page.textContent('.spread-words'), new RegExp(`in \\d+ of ${SEEDS} seeds`));
  // Switched off: gone; on again: back.
  await page.click('.spread-toggle input');
  assert.equal(await page.locator('.spread-view').count(), 0);
  await page.click('.spread-toggle input');
  await page.waitForSelector('.spread[data-state="ready"] .spread-view svg');
  assert.deepEqual(errors, []);

  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('.chart').scrollIntoViewIfNeeded();
      await page.locator('.chart').screenshot({ path: join(OUTPUT, `spread-panel-${w}-${scheme}.png`) });
      await screenshot(page, `spread-page-${w}-${scheme}`);
    }
  }
  await page.close();
});

test('a Flink example that depends on the seed opens with its spread; one that does not, without', async () => {
  const { page } = await openApp(env.context, `${env.server.url}#example=flink-figure-a-b`);
  await page.waitForSelector('.example-card');
  assert.equal(await page.isChecked('.spread-toggle input'), true);
  // The spread is of the run on screen: press the example's decisive action (Redo).
  await page.keyboard.press('r');
  await page.waitForSelector('.spread[data-state="ready"] .spread-words', { timeout: 60000 });
  assert.match(await page.textContent('.spread-words'), /of 30 seeds/);
  await page.goto(`${env.server.url}#example=pulsar-overload-shedder`);
  await page.waitForSelector('.example-card[data-example="pulsar-overload-shedder"]');
  assert.equal(await page.isChecked('.spread-toggle input'), false);
  await page.close();
});

test('axe finds nothing serious in the metrics panel with the outcome and the spread unfolded, light and dark', async () => {
  const { page, errors } = await openApp(env.context, `${env.server.url}#question=flink-uneven-tasks`);
  await page.waitForSelector('.spread[data-state="ready"] .spread-view svg', { timeout: 60000 });
  await page.click('.outcome-details summary');
  await page.click('.spread-words summary');
  // Evaluated through the debugger protocol: the page's CSP does not apply.
  await page.evaluate(AXE);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await page.evaluate(async () => {
      const r = await window.axe.run(document.querySelector('.chart'), { resultTypes: ['violations'] });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .flatMap((v) => v.nodes.slice(0, 4).map((n) => `${v.id}: ${n.target.join(' ')}`));
    });
    assert.deepEqual(found, [], scheme);
  }
  assert.match(await page.textContent('.outcome-details pre'), /balancedness \d+ \/ 100:/);
  assert.deepEqual(errors, []);
  await page.close();
});

// Last: it leaves a heavy scenario in the autosave of the shared browser profile.
test('the spread is computed in the engine worker while the page answers a click', async (t) => {
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'spread-5000.json');
  if (!existsSync(file)) cli('bench', '--browser-scenario', file, '--topics', '5000', '--rounds', '2');
  const link = cli('url', file, '--base', env.server.url).trim();
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector('.outcome-line', { timeout: 300000 });
  await page.waitForFunction(() => !document.querySelector('.notice.busy'), null, { timeout: 300000 });
  // All in the page: switch the spread on, and while it is computed open the
  // help overlay with its key and see it open before the spread comes.
  const t0 = Date.now();
  const r = await page.evaluate(async () => {
    const tick = () => new Promise((res) => setTimeout(res, 5));
    const box = document.querySelector('.spread-toggle input');
    box.click();
    while (!document.querySelector('.spread-busy')) await tick();
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));
    while (!document.querySelector('.overlay[role=dialog]')) await tick();
    return { answeredMs: performance.now() - t0, stillBusy: document.querySelector('.spread-busy') !== null };
  });
  assert.ok(r.stillBusy, `the key press was answered (in ${r.answeredMs.toFixed(0)} ms) while the spread was computed`);
  await page.keyboard.press('Escape');
  // (This cluster's figures are the same under every seed: one line, no picture.)
  await page.waitForSelector('.spread[data-state="ready"] .spread-body', { timeout: 300000 });
  t.diagnostic(`the spread over ${SEEDS} seeds of 5,000 topics and 2 rounds came ${Date.now() - t0} ms after the switch (the help overlay opened ${r.answeredMs.toFixed(0)} ms after its key)`);
  assert.ok(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/worker.js'))));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a round\'s card ends with the run\'s outcome, the metrics panel\'s line', async () => {
  const { page, errors } = await openApp(env.context, `${env.server.url}?fresh#`);
  await page.waitForSelector('main section.tab-body');
  for (const [tab, card] of [['Pulsar', '.this-round'], ['Kafka Streams', '.ks-last']]) {
    await page.click(`button[role=tab]:has-text("${tab}")`);
    await page.click('#step');
    await page.waitForSelector(`${card} .round-outcome`);
    const panel = (await page.textContent('.outcome-line')).replace(/^Outcome: /, '');
    const said = (await page.textContent(`${card} .round-outcome`)).replace(/^Run so far: /, '');
    assert.equal(said, panel, tab);
    assert.match(said, /balancedness \d+/);
  }
  assert.deepEqual(errors, []);
});
