// The workloads panel in a real browser: a wave added in the panel shapes the
// traffic every round, so the broker loads move at each Step; the pattern can
// be edited and removed, each change one engine action.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite } from './harness.mjs';

const env = suite();

async function fresh() {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh#');
  await page.waitForSelector('svg.ring path.arc');
  return { page, errors };
}

const loads = (page) => page.locator('.broker-bars li.broker').evaluateAll((els) => els.map((e) => Number(e.dataset.load)));
const rows = (page) => page.locator('.workloads li.workload-row').evaluateAll((els) =>
  els.map((e) => ({ id: e.dataset.pattern, label: e.querySelector('.workload-label').textContent })));

test('a wave added in the panel moves the broker loads at every step', async () => {
  const { page, errors } = await fresh();
  assert.match(await page.textContent('.workloads'), /No pattern/);
  await page.selectOption('#workload-shape', 'wave');
  await page.selectOption('#workload-target', 'all');
  await page.fill('#workload-p0', '4');
  await page.fill('#workload-p1', '50');
  await page.fill('#workload-p2', '0');
  await page.click('#workload-add');
  await page.waitForSelector('.workloads li.workload-row');
  assert.deepEqual(await rows(page), [{ id: '1', label: 'wave ±50 % every 4 min (phase 0 min) on every topic' }]);
  assert.equal(await page.locator('.workloads li.workload-row svg.workload-curve').count(), 1);
  const seen = [await loads(page)];
  // The default cluster's setup may already have run rounds: count from there.
  const r0 = Number(/round (\d+)/.exec((await page.textContent('.clock')) ?? '')?.[1] ?? 0);
  for (let i = 0; i < 3; i++) {
    await page.click('#step');
    await page.waitForFunction((n) => document.querySelector('.clock')?.textContent.startsWith(`round ${n} `), r0 + i + 1);
    seen.push(await loads(page));
  }
  // Rounds of 60 s over a 4-minute wave: the loads move at every step, and the
  // cluster's total rises and falls with the wave (whatever phase the rounds start at).
  for (let i = 1; i < seen.length; i++) assert.notDeepEqual(seen[i], seen[i - 1], JSON.stringify(seen));
  const total = (l) => l.reduce((a, b) => a + b, 0);
  assert.ok(new Set(seen.slice(1).map((l) => total(l).toFixed(1))).size > 1, JSON.stringify(seen));
  // The engine's state says the same: one pattern, and the log holds its action.
  const state = await page.evaluate(() => JSON.stringify(window.lbscope?.scenario ?? {}));
  assert.match(state, /add_workload/);
  await screenshot(page, 'workload-panel');

  // Edit it into jitter, then remove it: the loads settle back.
  await page.click('.workloads li.workload-row .workload-edit');
  await page.selectOption('#workload-shape', 'jitter');
  await page.fill('#workload-p0', '20');
  await page.click('#workload-add');
  await page.waitForFunction(() => document.querySelector('.workloads .workload-label')?.textContent.startsWith('jitter ±20 %'));
  await page.click('.workloads li.workload-row .workload-remove');
  await page.waitForSelector('.workloads .workload-empty');
  assert.deepEqual(errors, []);
});

test('a bad pattern is refused with the engine\'s message', async () => {
  const { page, errors } = await fresh();
  await page.selectOption('#workload-shape', 'jitter');
  await page.fill('#workload-p0', '150');
  await page.click('#workload-add');
  await page.waitForSelector('.field-error[data-field="workloads"]');
  assert.match(await page.textContent('.field-error[data-field="workloads"]'), /jitter percent must be in 0..=100 \(got 150\)/);
  assert.equal(await page.locator('.workloads li.workload-row').count(), 0);
  assert.deepEqual(errors, []);
});
