// The Flink tab in a real browser: the doc's figures side by side (default vs
// balanced), the job editor's presets and errors, failover and its cure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, screenshot, unfold } from './harness.mjs';

let server;

before(async () => {
  server = await serveDist();
});

after(async () => {
  await server?.close();
});

/** A fresh browser profile (no autosave), the app open on the Flink tab. */
async function openFlink(t) {
  const context = await launch();
  t.after(() => context.close());
  const { page, errors } = await openApp(context, server.url);
  await page.click('button[role=tab]:has-text("Flink")');
  await page.waitForSelector('.slot-grid[data-role=session] .tm-row');
  return { page, errors };
}

const grid = (mode) => `.slot-grid[data-mode=${mode}]`;

/** Tasks per TaskManager row of a grid, read from the DOM. */
async function rowTasks(page, mode) {
  return page.locator(`${grid(mode)} .tm-row`).evaluateAll((rows) => rows.map((r) => Number(r.dataset.tasks)));
}

/** Largest first: the default mode's placement depends on the hash order Flink sends
 * the slot requests in, which the engine draws from the seed. */
const desc = (xs) => [...xs].sort((a, b) => b - a);

async function attr(page, sel, name) {
  return page.locator(sel).getAttribute(name);
}

test('figure (a): default [4,3,2] range 2 beside tasks [3,3,3] range 0', async (t) => {
  const { page, errors } = await openFlink(t);
  // The session runs the default mode; the comparison replays it with tasks.
  assert.equal(await attr(page, '.slot-grid[data-role=session]', 'data-mode'), 'none');
  assert.equal(await attr(page, '.slot-grid[data-role=twin]', 'data-mode'), 'tasks');
  assert.deepEqual(await rowTasks(page, 'none'), [4, 3, 2]);
  assert.deepEqual(await rowTasks(page, 'tasks'), [3, 3, 3]);
  assert.equal(await attr(page, grid('none'), 'data-tm-counts'), '4,3,2');
  assert.equal(await attr(page, grid('none'), 'data-tm-range'), '2');
  assert.equal(await attr(page, grid('tasks'), 'data-tm-range'), '0');
  // Phase 1 is the same: tasks per slot range 1 on both sides.
  assert.equal(await attr(page, grid('none'), 'data-slot-range'), '1');
  assert.equal(await attr(page, grid('tasks'), 'data-slot-range'), '1');
  // The headline quotes the engine's numbers.
  const headline = await page.textContent('.headline');
  assert.match(headline, /none \(default\): \[4, 3, 2\] \(range 2\) vs tasks \(balanced\): \[3, 3, 3\] \(range 0\)/);
  assert.match(headline, /TaskBalancedPreferredSlotSharingStrategy/);
  // Cells list their subtasks with vertex labels (not only colours).
  const cell = page.locator(`${grid('none')} [data-slot="tm-0/0"]`);
  assert.equal(await cell.getAttribute('data-tasks'), '2');
  // One JV-A subtask and the JV-B subtask of the same index (the slot of request i).
  const [a, b] = await cell.locator('.subtask').allTextContents();
  assert.match(`${a} ${b}`, /^A(\d) B\1$/);
  // Under the headline: this run's seed and the spread over ten seeds, from the engine.
  const spread = await page.textContent('.headline .spread[data-mode=none]');
  assert.match(spread, /this run is seed 20; over seeds 0–9: .*\[4, 3, 2\] in \d+/);
  assert.match(spread, /\[3, 3, 3\] in \d+/);
  assert.match(await page.textContent('.headline .spread[data-mode=tasks]'), /\[3, 3, 3\] in all 10 seeds/);
  assert.equal(await page.locator(`${grid('tasks')} .subtask[data-vertex="JV-B"]`).count(), 3);
  // Hovering a slot highlights it (in both grids: same slot id).
  await cell.hover();
  await page.waitForSelector(`${grid('none')} [data-slot="tm-0/0"].highlight`);
  assert.equal(await page.locator(`${grid('tasks')} [data-slot="tm-0/0"].highlight`).count(), 1);
  // Keyboard: focusing a slot highlights it too; so does a legend entry for its vertex.
  // (The pointer leaves the grids first, so no hover competes with the focus.)
  await page.mouse.move(0, 0);
  await page.locator(`${grid('none')} [data-slot="tm-2/1"]`).focus();
  await page.waitForSelector(`${grid('tasks')} [data-slot="tm-2/1"].highlight`);
  await page.locator('.legend-item[data-vertex="JV-B"]').focus();
  await page.waitForFunction(() => document.querySelectorAll('.subtask.highlight[data-vertex="JV-B"]').length === 6);
  await screenshot(page, 'flink-figure-a-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'flink-figure-a-390');
  assert.deepEqual(errors, []);
});

test('figure (c) preset: tasks per slot range 3 (default) vs 1 (tasks)', async (t) => {
  const { page, errors } = await openFlink(t);
  await page.click('button.preset[data-preset=c]');
  await page.waitForFunction(() => document.querySelector('.slot-grid[data-mode=none]')?.dataset.slotRange === '3');
  // The doc's cluster for figure (c): 2 TaskManagers x 2 slots.
  // The default's result follows the drawn request order: [9, 5], [8, 6] or [7, 7].
  const none = desc(await rowTasks(page, 'none'));
  assert.ok([[9, 5], [8, 6], [7, 7]].some((o) => o.join() === none.join()), `${none}`);
  assert.deepEqual(await rowTasks(page, 'tasks'), [7, 7]);
  assert.equal(await attr(page, grid('tasks'), 'data-slot-range'), '1');
  const perSlot = (mode) =>
    page.locator(`${grid(mode)} .slot:not(.free)`).evaluateAll((cs) => cs.map((c) => Number(c.dataset.tasks)).sort());
  assert.deepEqual(await perSlot('none'), [2, 3, 4, 5]);
  assert.deepEqual(await perSlot('tasks'), [3, 3, 4, 4]);
  assert.equal(await page.locator('.job-editor tbody tr[data-vertex]').count(), 5);
  assert.equal(await page.locator('.flink-tab .legend .legend-item').count(), 5);
  await screenshot(page, 'flink-figure-c-1280');
  // Back to figure (a): a third TaskManager joins; one of figure (a)'s two outcomes.
  await page.click('button.preset[data-preset=a]');
  await page.waitForFunction(() => document.querySelector('.slot-grid[data-mode=none]')?.dataset.slotRange === '1'
    && document.querySelectorAll('.slot-grid[data-mode=none] .tm-row').length === 3);
  assert.ok(['4,3,2', '3,3,3'].includes(desc(await rowTasks(page, 'none')).join()));
  assert.deepEqual(await rowTasks(page, 'tasks'), [3, 3, 3]);
  // Undo walks back through the preset's actions.
  await page.click('button:has-text("Undo")');
  await page.waitForFunction(() => document.querySelector('.slot-grid[data-role=session]')?.dataset.status === 'created');
  assert.deepEqual(errors, []);
});

test('invalid jobs show the engine error; the editor never breaks', async (t) => {
  const { page, errors } = await openFlink(t);
  // The job's tables are folded under the presets.
  await page.click('.job-editor details.job-tables > summary');
  await page.fill('.job-editor tr[data-vertex="JV-A"] input.v-par', '0');
  await page.click('button.define-job');
  await page.waitForSelector('.notice.error');
  assert.match(await page.textContent('.notice.error'), /parallelism 0/);
  assert.deepEqual(await rowTasks(page, 'none'), [4, 3, 2]);
  // A cycle: JV-B -> JV-A.
  await page.fill('.job-editor tr[data-vertex="JV-A"] input.v-par', '6');
  await page.click('button:has-text("+ edge")');
  const last = page.locator('.job-editor table.edges tbody tr').last();
  await last.locator('select.e-from').selectOption('JV-B');
  await last.locator('select.e-to').selectOption('JV-A');
  await page.click('button.define-job');
  await page.waitForFunction(() => /cycle/.test(document.querySelector('.notice.error')?.textContent ?? ''));
  // Removing JV-B leaves the edges naming it: unknown vertex.
  await page.click('.job-editor button[aria-label="Remove JV-B"]');
  await page.click('button.define-job');
  await page.waitForFunction(() => /unknown vertex "JV-B"/.test(document.querySelector('.notice.error')?.textContent ?? ''));
  await page.click('.job-editor button:has-text("Revert")');
  assert.equal(await page.locator('.job-editor tbody tr[data-vertex]').count(), 2);
  assert.equal(await page.locator('.job-editor table.edges tbody tr').count(), 1);
  // Too few slots: parallelism 7 needs 7 slots, the cluster has 6.
  await page.fill('.job-editor tr[data-vertex="JV-A"] input.v-par', '7');
  await page.click('button.define-job');
  await page.waitForFunction(() => /needs 7 slots/.test(document.querySelector('.notice.error')?.textContent ?? ''));
  // The job itself was valid, so it is defined but not running; Undo brings the last one back.
  assert.equal(await attr(page, '.slot-grid[data-role=session]', 'data-status'), 'created');
  await page.click('button:has-text("Undo")');
  await page.waitForFunction(() => document.querySelector('.slot-grid[data-mode=none]')?.dataset.tmCounts === '4,3,2');
  // Not a number.
  await page.fill('.job-editor tr[data-vertex="JV-A"] input.v-par', '');
  await page.click('button.define-job');
  await page.waitForFunction(() => /whole number/.test(document.querySelector('.notice.error')?.textContent ?? ''));
  assert.deepEqual(errors, []);
});

test('failover: a stale view unbalances tasks mode; a longer max-interval cures it', async (t) => {
  const { page, errors } = await openFlink(t);
  await page.selectOption('#flink-mode', 'tasks');
  await page.waitForFunction(() => document.querySelector('.slot-grid[data-role=session]')?.dataset.mode === 'tasks');
  assert.equal(await attr(page, '.slot-grid[data-role=twin]', 'data-mode'), 'none');
  assert.deepEqual(await rowTasks(page, 'tasks'), [3, 3, 3]);
  // tm-2 crashes and restarts 50 ms later (the default restart delay).
  await page.click(`${grid('tasks')} .tm-row[data-tm=tm-2] button:has-text("Lose")`);
  await page.waitForSelector('.failover[data-stale=true]');
  assert.equal(await attr(page, '.failover', 'data-range-before'), '0');
  assert.equal(await attr(page, '.failover', 'data-range-after'), '2');
  // Which requests wait for tm-2 follows the drawn order; this seed's leaves [4, 3, 2].
  assert.deepEqual(desc(await rowTasks(page, 'tasks')), [4, 3, 2]);
  assert.match(await page.textContent('.failover'), /only 4 free slots for 6 pending requests/);
  await screenshot(page, 'flink-failover-stale-1280');
  // The cure: max-interval 20 -> 70 ms, and the same loss again.
  await page.click('button.cure');
  await page.waitForSelector('.failover[data-stale=false]');
  assert.equal(await attr(page, '.failover', 'data-range-after'), '0');
  assert.deepEqual(await rowTasks(page, 'tasks'), [3, 3, 3]);
  assert.equal(await page.inputValue('#flink-max-interval'), '70');
  assert.match(await page.textContent('.failover'), /scheduling took 120 ms/);
  await screenshot(page, 'flink-failover-cured-1280');
  // A TaskManager lost for good: the restart times out; restore it and schedule again.
  await unfold(page, 'details.tms');
  await page.fill('#flink-restart', '');
  await page.click(`${grid('tasks')} .tm-row[data-tm=tm-1] button:has-text("Lose")`);
  await page.waitForSelector('.failover .timed-out');
  assert.equal(await attr(page, '.slot-grid[data-role=session]', 'data-status'), 'failed');
  assert.equal(await attr(page, `${grid('tasks')} .tm-row[data-tm=tm-1]`, 'data-state'), 'lost');
  await page.click(`${grid('tasks')} .tm-row[data-tm=tm-1] button:has-text("Restore")`);
  await page.click('button.schedule');
  await page.waitForFunction(() => document.querySelector('.slot-grid[data-role=session]')?.dataset.status === 'running');
  assert.deepEqual(await rowTasks(page, 'tasks'), [3, 3, 3]);
  // Add a TaskManager, then remove it (idle).
  await page.click('form.add-tm button[type=submit]');
  await page.locator(`${grid('tasks')} .tm-row[data-tm=tm-3]`).waitFor();
  await page.click(`${grid('tasks')} .tm-row[data-tm=tm-3] button:has-text("Remove")`);
  await page.locator(`${grid('tasks')} .tm-row[data-tm=tm-3]`).waitFor({ state: 'detached' });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'flink-failover-390');
  assert.deepEqual(errors, []);
});
