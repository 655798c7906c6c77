// The shell shared by every tab: toolbar, keyboard shortcuts, settings, event log, import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite, unfold } from './harness.mjs';

// A server for dist/ and one browser profile shared by this file's tests.
const env = suite();

async function fresh() {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?shell');
  await page.waitForSelector('svg.ring');
  return { page, errors };
}

const cursor = (page) => page.textContent('.scrubber .cursor');

test('keyboard shortcuts step, undo, redo and open the help', async () => {
  const { page, errors } = await fresh();
  const start = await cursor(page);
  const [n0] = start.split('/').map(Number);
  await page.keyboard.press('n');
  await page.keyboard.press('n');
  await page.waitForFunction((n) => document.querySelector('.scrubber .cursor').textContent.startsWith(`${n + 2}/`), n0);
  await page.keyboard.press('u');
  await page.waitForFunction((n) => document.querySelector('.scrubber .cursor').textContent === `${n + 1}/${n + 2}`, n0);
  await page.keyboard.press('r');
  await page.waitForFunction((n) => document.querySelector('.scrubber .cursor').textContent === `${n + 2}/${n + 2}`, n0);
  // Rounds reach the metrics chart.
  await page.waitForSelector('.chart svg.metrics .series polyline', { state: 'attached' });
  assert.ok((await page.locator('.chart .series polyline').count()) >= 4);
  await page.keyboard.press('?');
  await page.waitForSelector('.overlay[role="dialog"]');
  assert.match(await page.textContent('.overlay'), /play \/ pause/);
  await screenshot(page, 'shell-help');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.overlay', { state: 'detached' });
  // Tabs by number.
  await page.keyboard.press('2');
  await page.waitForSelector('button[role="tab"][aria-selected="true"]:has-text("Flink")');
  await page.keyboard.press('1');
  assert.deepEqual(errors, []);
});

test('a refused setting shows its message next to the field and keeps the value', async () => {
  const { page, errors } = await fresh();
  await page.click('.settings summary');
  const field = '#cfg-loadBalancerBrokerOverloadedThresholdPercentage';
  await page.fill(field, '-5');
  await page.press(field, 'Enter');
  const err = page.locator('.setting.invalid .field-error');
  await err.waitFor();
  assert.ok((await err.textContent()).length > 5);
  assert.equal(await page.inputValue(field), '85.0');
  // A valid edit is applied and marked as changed.
  await page.fill(field, '70');
  await page.press(field, 'Enter');
  await page.waitForSelector('.setting.changed ' + field);
  assert.match(await page.textContent('.settings summary'), /1 changed/);
  assert.deepEqual(errors, []);
});

test('clicking an event highlights its subject', async () => {
  const { page, errors } = await fresh();
  await unfold(page, 'details.topics');
  await page.fill('#topic-name', 'persistent://public/default/my-topic');
  await page.click('form.add-topic button');
  const row = page.locator('.event.has-subject .event-row').first();
  await row.waitFor();
  await row.click();
  const kind = await page.getAttribute('main', 'data-highlight-kind');
  assert.ok(kind, 'main carries the highlighted kind');
  await page.waitForSelector('.event.active');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('main').hasAttribute('data-highlight-kind'));
  assert.deepEqual(errors, []);
});

test('the event log shows a hundred rows, more when asked, the setup under a fold, and its filter reads every kept row', async () => {
  const { page, errors } = await fresh();
  const rows = page.locator('.log ol.events > li.event');
  // The setup's events are folded under one line that counts them; unfolded, they are all there.
  const fold = page.locator('.log li.setup-fold');
  const setup = Number(/^(\d+) setup events/.exec(await fold.locator('summary').textContent())[1]);
  assert.ok(setup > 0, String(setup));
  await fold.locator('summary').click();
  await page.waitForFunction((n) => document.querySelectorAll('.log li.setup-fold .setup-events > li.event').length === n, setup);
  await fold.locator('summary').click();
  // 120 rounds log more than the 400 rows the page keeps.
  const before = Number(await page.evaluate(() => window.lbscope.events.length));
  for (let i = 0; i < 120; i++) await page.keyboard.press('n');
  await page.waitForFunction((n) => window.lbscope.events.length > n + 400, before);
  await page.waitForFunction(() => document.querySelectorAll('.log ol.events > li.event').length === 100);
  assert.equal(await fold.count(), 0, 'the setup is past the kept rows');
  const more = page.locator('.log button.show-more');
  assert.equal(await more.textContent(), 'Show 100 more of 300');
  await more.click();
  await page.waitForFunction(() => document.querySelectorAll('.log ol.events > li.event').length === 200);
  assert.equal(await more.textContent(), 'Show 100 more of 200');
  assert.match(await page.textContent('.log'), /\d+ older events not shown/);
  // The oldest kept round is far past the shown rows: the filter still finds it.
  const labels = await page.evaluate(() => [...document.querySelectorAll('.log ol.events > li.event .step')].map((e) => e.textContent));
  const oldest = Math.min(...labels.map((l) => Number(/round (\d+)/.exec(l)?.[1] ?? Infinity)));
  const wanted = `round ${oldest - 20} `;
  await page.fill('.log input.filter', wanted.trim());
  await page.waitForFunction((w) => {
    const t = [...document.querySelectorAll('.log ol.events > li.event .step')].map((e) => e.textContent);
    return t.length > 0 && t.every((x) => x === w.trim());
  }, wanted);
  await page.fill('.log input.filter', '');
  await page.waitForFunction(() => document.querySelectorAll('.log ol.events > li.event').length === 200);
  assert.equal(await rows.first().locator('.step').textContent(), labels[0]);
  assert.deepEqual(errors, []);
});

test('importing a bad file changes nothing and says why', async () => {
  const { page, errors } = await fresh();
  const before = await page.evaluate(() => JSON.stringify(window.lbscope.scenario));
  await page.setInputFiles('.toolbar input[type="file"]', {
    name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": 99}'),
  });
  await page.waitForSelector('.notice.error');
  assert.match(await page.textContent('.notice.error'), /not imported.*format version 99/s);
  assert.equal(await page.evaluate(() => JSON.stringify(window.lbscope.scenario)), before);
  // A good file opens.
  const good = JSON.parse(before);
  good.actions = [{ op: 'create_topic', topic: 'imported-topic' }];
  await page.setInputFiles('.toolbar input[type="file"]', {
    name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)),
  });
  await page.locator('line.tick[data-topic="persistent://public/default/imported-topic"]').waitFor();
  assert.deepEqual(errors, []);
});

test('compare mode draws the same actions under another strategy', async () => {
  const { page, errors } = await fresh();
  await page.click('button[role="tab"]:has-text("Flink")');
  await page.selectOption('.chart .compare select', 'taskmanager.load-balance.mode=tasks');
  await page.waitForSelector('.chart .series.twin', { state: 'attached' });
  assert.equal(await page.locator('.chart .series.twin').count(), await page.locator('.chart .series:not(.twin)').count());
  assert.match(await page.textContent('.compare-note'), /taskmanager\.load-balance\.mode = tasks/);
  // Lock-step: one more Schedule adds a point to both runs.
  const dots = () => page.locator('.chart .series.twin').first().locator('circle').count();
  const before = await dots();
  await page.keyboard.press('n');
  await page.waitForFunction((b) => document.querySelector('.chart .series.twin').querySelectorAll('circle').length === b + 1, before);
  await screenshot(page, 'compare-flink');
  assert.deepEqual(errors, []);
});

test('an autosaved scenario is offered back after a reload', async () => {
  const { page, errors } = await fresh();
  await unfold(page, 'details.topics');
  await page.fill('#topic-name', 'kept-topic');
  await page.click('form.add-topic button');
  await page.locator('line.tick[data-topic="persistent://public/default/kept-topic"]').waitFor();
  await page.goto(env.server.url + '?again');
  await page.waitForSelector('.notice.info');
  await page.waitForSelector('svg.ring');
  assert.match(await page.textContent('.notice.info'), /restored/);
  await page.locator('line.tick[data-topic="persistent://public/default/kept-topic"]').waitFor();
  assert.deepEqual(errors, []);
});

test('the scrubber moves through time and acting in the past forks it', async () => {
  const { page, errors } = await fresh();
  for (let i = 0; i < 4; i++) await page.keyboard.press('n');
  await page.waitForFunction(() => /^(\d+)\/\1$/.test(document.querySelector('.scrubber .cursor').textContent));
  const [, total] = (await page.textContent('.scrubber .cursor')).split('/').map(Number);
  // Scrub back to the middle.
  const mid = Math.floor(total / 2);
  await page.locator('.scrubber input[type="range"]').fill(String(mid));
  await page.waitForFunction((m) => document.querySelector('.scrubber .cursor').textContent.startsWith(`${m}/`), mid);
  assert.equal(await page.isEnabled('button[title="Redo (r)"]'), true);
  // Acting here drops the future: the timeline now ends one past the middle.
  // (Keys typed while the scrubber has focus are not shortcuts, so click Step.)
  await page.click('.toolbar button.primary');
  await page.waitForFunction((m) => document.querySelector('.scrubber .cursor').textContent === `${m + 1}/${m + 1}`, mid);
  assert.equal(await page.isEnabled('button[title="Redo (r)"]'), false);
  assert.deepEqual(errors, []);
});

test('Propose shows what the next round would do; Apply does exactly that', async () => {
  const { page, errors } = await fresh();
  await page.click('button[role="tab"]:has-text("Kafka Streams")');
  await page.click('.toolbar button:has-text("Propose")');
  await page.waitForSelector('.round-proposal');
  const proposed = await page.locator('.round-proposal .events li').allTextContents();
  assert.ok(proposed.length > 0);
  assert.ok((await page.locator('.round-proposal .changes li').count()) > 0);
  const before = await page.textContent('.scrubber .cursor');
  await page.click('.round-proposal button:has-text("Apply")');
  await page.waitForFunction((b) => document.querySelector('.scrubber .cursor').textContent !== b, before);
  assert.equal(await page.locator('.round-proposal').count(), 0);
  // The applied round logged the same events the proposal showed.
  const logged = await page.evaluate(() => window.lbscope.events);
  assert.deepEqual(logged.slice(-proposed.length), proposed);
  // Flink: the proposal names the per-TaskManager counts; Discard leaves the state alone.
  await page.click('button[role="tab"]:has-text("Flink")');
  await page.click('.toolbar button:has-text("Propose")');
  await page.waitForSelector('.round-proposal');
  assert.match(await page.textContent('.round-proposal .changes'), /tasks per TaskManager/);
  const c = await page.textContent('.scrubber .cursor');
  await page.click('.round-proposal button:has-text("Discard")');
  await page.waitForSelector('.round-proposal', { state: 'detached' });
  assert.equal(await page.textContent('.scrubber .cursor'), c);
  assert.deepEqual(errors, []);
});
