// The page stays responsive while a heavy scenario opens: the 200,000-topic
// benchmark cluster (1,000 brokers, 16,384 bundles) is replayed a part at a
// time on the page's thread (a bulk creation's bundle lookups a few thousand
// at a time too), with a progress bar and a Cancel button; a click made during
// the replay is answered before the replay ends. The compare run of that
// scenario (a whole replay) is computed in the engine worker while the page
// answers input, or on the page when the worker cannot start.
// (No timing is asserted: the tests check the order of things.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { suite, screenshot, OUTPUT, releaseCli } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The release CLI when it is built (make bench builds it), else cargo's.
const release = releaseCli();
const cli = (...args) => existsSync(release)
  ? execFileSync(release, args, { encoding: 'utf8' })
  : execFileSync('cargo', ['run', '-q', '--bin', 'lbscope', '--', ...args], { cwd: root, encoding: 'utf8' });
const env = suite();

async function heavyLink() {
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'perf-200000.json');
  if (!existsSync(file)) cli('bench', '--browser-scenario', file, '--topics', '200000', '--rounds', '1');
  return cli('url', file, '--base', env.server.url).trim();
}

test('a heavy replay shows its progress and a click during it is answered before it ends', async () => {
  const link = await heavyLink();
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(link);
  // All in the page (a round trip from the test would wait for a part of the
  // replay each): once the progress has moved, click the Flink tab and wait for
  // it to be selected, then read the progress again.
  const r = await page.evaluate(async () => {
    const tick = () => new Promise((res) => setTimeout(res, 5));
    const read = () => {
      const c = document.querySelector('.notice.busy .open-count');
      return c ? { done: Number(c.dataset.done), total: Number(c.dataset.total) } : null;
    };
    while (!(read()?.done > 0)) await tick();
    const first = read();
    const text = document.querySelector('.notice.busy').textContent;
    const max = document.querySelector('.notice.busy progress').getAttribute('max');
    [...document.querySelectorAll('button[role=tab]')].find((b) => b.textContent.trim() === 'Flink').click();
    const selected = () => document.querySelector('button[role=tab][aria-selected=true]')?.textContent.trim();
    while (selected() !== 'Flink') await tick();
    return { first, text, max, during: read() };
  });
  assert.ok(r.first.done > 0 && r.first.done < r.first.total, JSON.stringify(r));
  assert.match(r.text, /Opening a large Pulsar scenario: the engine replays \d+ actions creating \d+ topics/);
  assert.equal(r.max, String(r.first.total));
  // The click was answered while the replay was still running.
  assert.ok(r.during, 'the click was answered before the replay ended');
  assert.ok(r.during.done >= r.first.done && r.during.done < r.during.total, JSON.stringify(r));
  await screenshot(page, 'perf-opening');
  // The replay finishes and opens the scenario in its tab.
  await page.waitForSelector('canvas.ring[data-bundles="16384"]', { timeout: 300000 });
  assert.equal(await page.getAttribute('canvas.ring', 'data-topics'), '200000');
  assert.equal(await page.locator('.notice.busy').count(), 0);
  // A round at 1,000 brokers narrates every broker in one line: the row shows
  // its start, and the whole line is folded under it.
  const before = await page.locator('.this-round').getAttribute('data-round');
  await page.keyboard.press('n');
  await page.waitForFunction((b) => (document.querySelector('.this-round')?.dataset.round ?? null) !== b, before);
  const fold = page.locator('.log .event .line-rest').first();
  await fold.waitFor();
  const shown = await fold.evaluate((d) => d.closest('.event').querySelector('.event-row .text').textContent);
  assert.ok(shown.length <= 362 && shown.endsWith('…'), shown);
  const button = fold.locator('button.line-more');
  const label = await button.textContent();
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.equal(await fold.locator('p').count(), 0);
  await button.click();
  const whole = await fold.locator('p').textContent();
  assert.ok(whole.startsWith(shown.slice(0, -2)) && whole.length > shown.length, whole.slice(0, 400));
  assert.equal(label, `the whole line (${[...whole].length} characters)`);
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  assert.equal(await button.textContent(), 'fold the line');
  // No serious or critical axe finding with a line unfolded.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  assert.deepEqual(found, []);
  await button.click();
  assert.equal(await fold.locator('p').count(), 0);
  // The log's filter reads the whole of each line: words past the shown start
  // of the shedder's moving averages (every one of the 1,000 brokers, then the
  // cluster average) still find it.
  await page.fill('.log input.filter', 'cluster average');
  const filtered = page.locator('.log .event .event-row .text');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('.log .event .event-row .text')];
    return rows.length > 0 && rows.every((t) => t.textContent.includes('moving averages'));
  });
  const avgShown = await filtered.first().textContent();
  assert.ok(!avgShown.includes('cluster average'), 'the words are past the shown start');
  assert.ok(avgShown.length <= 362 && avgShown.endsWith('…'), avgShown);
  // That line is written only up to its start until it is unfolded, then whole.
  const averages = page.locator('.log .event').first();
  await page.locator('.log').screenshot({ path: join(OUTPUT, 'perf-long-line.png') });
  const avgButton = averages.locator('.line-rest button.line-more');
  assert.equal(await avgButton.textContent(), 'the whole line (more than 1000 characters)');
  await avgButton.click();
  const avgWhole = await averages.locator('.line-rest p').textContent();
  assert.ok(avgWhole.startsWith(avgShown.slice(0, -2)), avgWhole.slice(0, 400));
  assert.match(avgWhole, /broker-0999 [^,]*; cluster average \d/);
  assert.ok(avgWhole.length > 20000, String(avgWhole.length));
  assert.equal(await avgButton.textContent(), 'fold the line');
  await avgButton.click();
  assert.equal(await averages.locator('.line-rest p').count(), 0);
  await page.fill('.log input.filter', '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the bulk creation that places every bundle is itself replayed over several parts', async () => {
  const link = await heavyLink();
  // Where the scenario's first bulk creation starts and ends, in the progress
  // bar's units (an action is one, a bulk creation one more per topic).
  const sc = JSON.parse(readFileSync(join(OUTPUT, 'perf-200000.json'), 'utf8'));
  let at = 0;
  let first = null;
  for (const a of sc.setup) {
    const w = 1 + (a.op === 'create_topics' ? a.count : 0);
    if (a.op === 'create_topics' && !first) first = [at, at + w];
    at += w;
  }
  const page = await env.context.newPage();
  // Every count the progress line shows, from the page's start.
  await page.addInitScript(() => {
    window.seenCounts = [];
    new MutationObserver(() => {
      const d = document.querySelector('.notice.busy .open-count')?.dataset.done;
      if (d !== undefined && window.seenCounts.at(-1) !== Number(d)) window.seenCounts.push(Number(d));
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-done'] });
  });
  await page.goto(link);
  await page.waitForSelector('canvas.ring[data-bundles="16384"]', { timeout: 300000 });
  const seen = await page.evaluate(() => window.seenCounts);
  const inside = seen.filter((d) => d > first[0] && d < first[1]);
  // The count was painted at least three times part-way through that creation
  // (its 16,384 bundle lookups); replayed whole, no count falls inside it.
  assert.ok(inside.length >= 3, JSON.stringify({ first, seen }));
  assert.ok(seen.every((d, i) => i === 0 || d > seen[i - 1]), JSON.stringify(seen));
  await page.close();
});

test('Cancel stops a heavy replay and keeps the work on screen', async () => {
  const link = await heavyLink();
  const page = await env.context.newPage();
  await page.goto(link);
  await page.evaluate(async () => {
    const tick = () => new Promise((res) => setTimeout(res, 5));
    const done = () => Number(document.querySelector('.notice.busy .open-count')?.dataset.done);
    while (!(done() > 0)) await tick();
    document.querySelector('.notice.busy .open-cancel').click();
  });
  await page.waitForSelector('.notice.busy', { state: 'detached', timeout: 60000 });
  assert.match(await page.locator('.notice').first().textContent(), /stopped/);
  // The default cluster is still shown (not the 16,384-bundle one).
  await page.waitForSelector('.ring');
  assert.notEqual(await page.locator('canvas.ring[data-bundles="16384"]').count(), 1);
  await page.close();
});

/** Press Step and wait for the round's card. */
async function round(page) {
  const before = await page.locator('.this-round').getAttribute('data-round');
  await page.keyboard.press('n');
  await page.waitForFunction((b) => (document.querySelector('.this-round')?.dataset.round ?? null) !== b, before);
}

// The compare run replays the whole log under another setting: for a heavy
// scenario the engine worker (worker.js, the same wasm) computes it, and the
// page answers input meanwhile.
test('a heavy compare run is computed in the engine worker while the page answers', async () => {
  const link = await heavyLink();
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector('canvas.ring[data-bundles="16384"]', { timeout: 300000 });
  // One round first: the chart has a point to compare.
  await round(page);
  const option = 'loadBalancerLoadSheddingStrategy=OverloadShedder';
  // All in the page: choose the compare, open the help overlay with its key,
  // and see both the overlay and the busy note before the run's lines come.
  const r = await page.evaluate(async (option) => {
    const tick = () => new Promise((res) => setTimeout(res, 5));
    const select = document.querySelector('.chart .compare select');
    select.value = option;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    while (!document.querySelector('.compare-busy')) await tick();
    const busy = document.querySelector('.compare-busy').textContent;
    document.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));
    while (!document.querySelector('.overlay[role=dialog]')) await tick();
    const stillBusy = document.querySelector('.compare-busy') !== null;
    return { busy, stillBusy };
  }, option);
  assert.match(r.busy, /^Computing loadBalancerLoadSheddingStrategy = OverloadShedder in the background/);
  assert.ok(r.stillBusy, 'the key press was answered while the compare run was computed');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.compare-busy', { state: 'detached', timeout: 120000 });
  assert.equal(await page.textContent('.compare-note'), 'Thin dotted lines: the same actions with loadBalancerLoadSheddingStrategy = OverloadShedder.');
  assert.match(await page.textContent('.chart'), /max load \(loadBalancerLoadSheddingStrategy = OverloadShedder\): last \d/);
  // It ran in the worker.
  assert.ok(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/worker.js'))));
  // A round with the compare on: the lines of the earlier state stay, noted,
  // until the new run's come.
  await page.keyboard.press('n');
  await page.waitForSelector('.compare-busy', { state: 'detached', timeout: 120000 });
  assert.match(await page.textContent('.chart'), /max load \(loadBalancerLoadSheddingStrategy = OverloadShedder\): last \d/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('when the engine worker cannot start, the compare run is computed on the page', async () => {
  const link = await heavyLink();
  const page = await env.context.newPage();
  await page.route('**/worker.js', (r) => r.abort());
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(link);
  await page.waitForSelector('canvas.ring[data-bundles="16384"]', { timeout: 300000 });
  await round(page);
  await page.selectOption('.chart .compare select', 'loadBalancerLoadSheddingStrategy=UniformLoadShedder');
  await page.waitForSelector('.compare-note', { timeout: 120000 });
  assert.equal(await page.locator('.compare-busy').count(), 0);
  assert.match(await page.textContent('.chart'), /max load \(loadBalancerLoadSheddingStrategy = UniformLoadShedder\): last \d/);
  assert.ok(warnings.some((w) => /engine worker/.test(w) && /computed on the page/.test(w)), JSON.stringify(warnings));
  await page.close();
});

test('with the compare on, rounds grow the worker\'s kept run, and changes made during a full replay leave one job waiting', async () => {
  const link = await heavyLink();
  const page = await env.context.newPage();
  // Count the jobs handed to the engine worker.
  await page.addInitScript(() => {
    window.workerJobs = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (...args) {
      window.workerJobs += 1;
      return post.apply(this, args);
    };
  });
  await page.goto(link);
  await page.waitForSelector('canvas.ring[data-bundles="16384"]', { timeout: 300000 });
  await round(page);
  await page.selectOption('.chart .compare select', 'loadBalancerLoadSheddingStrategy=UniformLoadShedder');
  await page.waitForSelector('.compare-busy', { state: 'detached', timeout: 120000 });
  assert.equal(await page.evaluate(() => window.workerJobs), 1);
  const legend = /max load \(loadBalancerLoadSheddingStrategy = UniformLoadShedder\): last \d/;
  // Three rounds, each waited to its card: the lines end on the last one.
  const last = await page.evaluate(async () => {
    const tick = () => new Promise((res) => setTimeout(res, 5));
    const card = () => document.querySelector('.this-round')?.dataset.round;
    for (let i = 0; i < 3; i++) {
      const before = card();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'n', bubbles: true }));
      while (card() === before) await tick();
    }
    while (document.querySelector('.compare-busy')) await tick();
    return Number(card());
  });
  const axis = await page.locator('.chart .axis-label').allTextContents();
  assert.ok(axis.includes(`round ${last}`), JSON.stringify({ axis, last }));
  assert.match(await page.textContent('.chart'), legend);
  // Undo, redo, undo at once: each needs a whole replay (the log has a redo
  // tail), so the first is computed, the second waits and is replaced by the third.
  const r = await page.evaluate(async () => {
    const tick = () => new Promise((res) => setTimeout(res, 5));
    const before = window.workerJobs;
    for (const key of ['u', 'r', 'u']) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      await tick();
    }
    const busy = document.querySelector('.compare-busy')?.textContent ?? null;
    while (document.querySelector('.compare-busy')) await tick();
    return { busy, jobs: window.workerJobs - before };
  });
  assert.match(r.busy ?? '', /for the current state in the background \(the lines drawn are of an earlier state\)/);
  assert.equal(r.jobs, 2, JSON.stringify(r));
  assert.match(await page.textContent('.chart'), legend);
  await page.close();
});
