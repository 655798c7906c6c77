// The first minute and the lessons' promises, in a real browser: the first view
// moves bundles within seconds of one press, "start here" offers the lessons
// once, a lesson round trip keeps the learner's three tabs (also across a
// reload), Back / Forward walk lesson steps and the playground, every ask of
// every lesson has its control on screen, the layout at 1280×800 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite, unfold } from './harness.mjs';

const env = suite();

/** A first visit: nothing saved, no link. */
async function firstVisit() {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?first#');
  await page.waitForSelector('svg.ring path.arc');
  return { page, errors };
}

const owners = (page) => page.locator('.ring-pane svg.ring path.arc').evaluateAll((els) =>
  els.map((e) => `${e.dataset.bundle}=${e.dataset.owner ?? ''}`).sort());
const hash = (page) => page.evaluate(() => location.hash);
/** The autosaved workspace (stored as a JSON string holding the JSON). */
const saved = (page) => page.evaluate(() => {
  const v = JSON.parse(localStorage.getItem('lbscope.autosave'));
  return typeof v === 'string' ? JSON.parse(v) : v;
});
const lessonAt = (page, id, n) => page.waitForSelector(`.lesson-panel[data-lesson="${id}"][data-step="${n}"]`);

test('first visit: start here offers the lessons, one press of Step moves bundles within seconds', async () => {
  const { page, errors } = await firstVisit();
  await page.waitForSelector('.start-here');
  assert.match(await page.textContent('.start-here'), /33 short guided lessons/);
  // What to press, in one line, next to the picture.
  assert.match(await page.textContent('.try-this .press-step'), /Press Step/);
  // Exactly one Step button.
  assert.equal(await page.locator('button:text-is("Step")').count(), 1);
  await screenshot(page, 'teaching-first-view-1280');
  const before = await owners(page);
  const t0 = Date.now();
  await page.click('#step');
  await page.waitForFunction((b) => {
    const now = [...document.querySelectorAll('.ring-pane svg.ring path.arc')].map((e) => `${e.dataset.bundle}=${e.dataset.owner ?? ''}`).sort();
    return JSON.stringify(now) !== JSON.stringify(b);
  }, before, { timeout: 10000 });
  assert.ok(Date.now() - t0 < 10000);
  // The round card says what moved and why, and counts only this round's moves.
  await page.waitForSelector('.this-round[data-moves]:not([data-moves="0"])');
  assert.match(await page.textContent('.this-round'), /AvgShedder/);
  assert.match(await page.textContent('.this-round'), /Placed/);
  // The log labels the press with the engine's round number; setup folded.
  assert.match(await page.textContent('.log ol.events[data-order]'), /round 2/);
  assert.match(await page.textContent('.log .setup-fold summary'), /setup events/);
  // Folded, the setup's rows are not in the page; opened, they are.
  assert.equal(await page.locator('.log .setup-fold li.event').count(), 0);
  await page.click('.log .setup-fold summary');
  await page.waitForSelector('.log .setup-fold li.event');
  assert.match(await page.textContent('.log .setup-fold .setup-events'), /broker/);
  await page.click('.log .setup-fold summary');
  await page.waitForFunction(() => !document.querySelector('.log .setup-fold li.event'));
  assert.equal(await page.locator('.log ol.events[data-order]').evaluate((e) => /MiB/.test(e.textContent)), false);
  await screenshot(page, 'teaching-first-step-1280');
  // Oldest-first reading order, remembered.
  await page.selectOption('.log-order select', 'oldest');
  await page.waitForSelector('.log ol.events[data-order="oldest"]');
  // Dismissed once, the card stays away after a reload.
  await page.click('.start-here .start-dismiss');
  await page.waitForSelector('.start-here', { state: 'detached' });
  await page.reload();
  await page.waitForSelector('svg.ring path.arc');
  assert.equal(await page.locator('.start-here').count(), 0);
  assert.equal(await page.getAttribute('.log ol.events[data-order]', 'data-order'), 'oldest');
  assert.deepEqual(errors, []);
});

test('a lesson round trip keeps the three tabs, also across a reload; Back and Forward walk the steps', async () => {
  const { page, errors } = await firstVisit();
  // The learner's own work on every tab.
  await unfold(page, 'details.cluster');
  await page.click('#add-broker');
  await page.waitForSelector('.broker-bars li.broker[data-broker="broker-4"]');
  await page.click('button[role="tab"]:has-text("Flink")');
  await page.waitForSelector('.flink-controls');
  await unfold(page, 'details.tms');
  await page.fill('#flink-slots', '3');
  await page.click('.add-tm button[type="submit"]');
  await page.click('button[role="tab"]:has-text("Kafka Streams")');
  await page.waitForSelector('article.ks-instance');
  await unfold(page, 'details.ks-add');
  await page.fill('#ks-name', 'mine');
  await page.click('.ks-form button[type="submit"]:has-text("Add instance")');
  await page.waitForSelector('[data-instance="mine"]');
  const mine = await saved(page);
  // A Pulsar lesson: its own session.
  await page.evaluate(() => { location.hash = '#lesson=pulsar-threshold-shedder&step=1'; });
  await lessonAt(page, 'pulsar-threshold-shedder', 1);
  assert.equal(await page.locator('.broker-bars li.broker[data-broker="broker-4"]').count(), 0);
  await page.click('.lesson-panel .do-it');
  await lessonAt(page, 'pulsar-threshold-shedder', 2);
  assert.equal(await hash(page), '#lesson=pulsar-threshold-shedder&step=2');
  await screenshot(page, 'teaching-lesson-1280');
  // The ring stays in view with the lesson panel at 1280×800.
  const ring = await page.locator('.ring-pane svg.ring').boundingBox();
  assert.ok(ring.y + ring.height / 2 < 800, `ring centre at ${ring.y + ring.height / 2}`);
  // Back: the previous step; Forward: the next; Back twice more: the playground.
  await page.goBack();
  await lessonAt(page, 'pulsar-threshold-shedder', 1);
  await page.goForward();
  await lessonAt(page, 'pulsar-threshold-shedder', 2);
  await page.goBack();
  await lessonAt(page, 'pulsar-threshold-shedder', 1);
  await page.goBack();
  await page.waitForFunction(() => !location.hash.includes('lesson='));
  // The address before the lesson was the Kafka Streams tab's (the tab last shown).
  await page.waitForSelector('[data-instance="mine"]');
  await page.click('button[role="tab"]:has-text("Pulsar")');
  await page.waitForSelector('.broker-bars li.broker[data-broker="broker-4"]');
  // Leave from a resumed lesson: every tab is the learner's.
  await page.goForward();
  await lessonAt(page, 'pulsar-threshold-shedder', 1);
  await page.click('.lesson-panel .leave');
  await page.waitForSelector('.broker-bars li.broker[data-broker="broker-4"]');
  await page.click('button[role="tab"]:has-text("Flink")');
  await page.waitForSelector('.flink-controls');
  await page.click('button[role="tab"]:has-text("Kafka Streams")');
  await page.waitForSelector('[data-instance="mine"]');
  assert.equal((await saved(page)).scenarios.length, 3);
  // A reload brings all three back (the autosave holds every tab).
  await page.goto(env.server.url + '?reload#');
  await page.waitForSelector('main section.tab-body');
  await page.click('button[role="tab"]:has-text("Kafka Streams")');
  await page.waitForSelector('[data-instance="mine"]');
  await page.click('button[role="tab"]:has-text("Pulsar")');
  await page.waitForSelector('.broker-bars li.broker[data-broker="broker-4"]');
  assert.deepEqual((await saved(page)).scenarios, mine.scenarios);
  assert.deepEqual(errors, []);
});

test('every ask of every lesson has the control it needs on screen', async () => {
  const { page, errors } = await firstVisit();
  await page.click('header .lessons-button');
  await page.waitForSelector('.lessons-page');
  const lessons = await page.locator('.lesson-entry').evaluateAll((els) =>
    els.map((e) => ({ id: e.dataset.lesson, steps: Number(/(\d+) steps/.exec(e.textContent)?.[1] ?? 0) })));
  // The course's 33 lessons (20 Pulsar, 6 Flink, 7 Kafka Streams), as docs/playground.md says.
  assert.equal(lessons.length, 33);
  let asks = 0;
  const missing = [];
  for (const { id, steps } of lessons) {
    assert.ok(steps > 0, id);
    for (let k = 1; k <= steps; k++) {
      await page.evaluate((h) => { location.hash = h; }, `#lesson=${id}&step=${k}`);
      await lessonAt(page, id, k);
      if (await page.locator('.lesson-panel .ask').count() === 0) continue;
      asks++;
      const words = ((await page.getAttribute('main', 'data-lesson-controls')) ?? '').split(' ').filter(Boolean);
      assert.ok(words.length > 0, `${id} step ${k}: an ask with no controls`);
      // Every group the step names is on screen with an enabled control in it.
      const found = await page.evaluate((ws) => ws.map((w) => {
        const els = [...document.querySelectorAll(`[data-controls~="${w}"]`)].filter((e) => e.checkVisibility());
        const usable = els.some((e) => e.matches('button:not([disabled]), select:not([disabled]), input:not([disabled])')
          || e.querySelector('button:not([disabled]), select:not([disabled]), input:not([disabled])'));
        return [w, usable];
      }), words);
      for (const [w, ok] of found) if (!ok && w !== 'admin') missing.push(`${id} step ${k}: ${w}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(asks > 20, `${asks} asks`);
  assert.deepEqual(errors, []);
});

test('lesson 18: choosing tasks mode does not schedule; the next step asks for Schedule', async () => {
  const { page, errors } = await firstVisit();
  const id = 'flink-phase-2-slots-to-taskmanagers';
  await page.evaluate((h) => { location.hash = h; }, `#lesson=${id}&step=2`);
  await lessonAt(page, id, 2);
  await page.selectOption('#flink-mode', 'tasks');
  await lessonAt(page, id, 3);
  await page.waitForTimeout(300);
  assert.equal(await page.getAttribute('.lesson-panel', 'data-step'), '3');
  await page.click('.flink-controls button.schedule');
  await lessonAt(page, id, 4);
  assert.deepEqual(errors, []);
});

test('phone: sticky header with Step, the ring and the controls in view together', async () => {
  const { page, errors } = await firstVisit();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await screenshot(page, 'teaching-phone-390');
  // Scroll to the traffic controls: the ring and Step stay on screen.
  await page.locator('#hot-topic').scrollIntoViewIfNeeded();
  const step = await page.locator('#step').boundingBox();
  const ring = await page.locator('.ring-pane svg.ring').boundingBox();
  const hot = await page.locator('#hot-topic').boundingBox();
  assert.ok(step.y >= 0 && step.y < 844, `Step at ${step.y}`);
  assert.ok(ring.y + ring.height > 0 && ring.y < 844, `ring at ${ring.y}`);
  assert.ok(hot.y > 0 && hot.y < 844, `control at ${hot.y}`);
  // Not covered by the sticky header or the picture.
  assert.equal(await page.evaluate(() => {
    const e = document.querySelector('#hot-topic');
    const r = e.getBoundingClientRect();
    return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === e;
  }), true);
  await page.screenshot({ path: new URL('./output/teaching-phone-390-controls.png', import.meta.url).pathname });
  // Tap targets: no visible button, select or input under 24 px high.
  const small = await page.evaluate(() => [...document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]), summary')]
    .filter((e) => e.checkVisibility())
    .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect().height])
    .filter(([, h]) => h > 0 && h < 24));
  assert.deepEqual(small, []);
  assert.deepEqual(errors, []);
});

test('keyboard: the first Tab reaches the skip links; Skip to Step lands on Step', async () => {
  const { page, errors } = await firstVisit();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to Step');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'step');
  assert.notEqual(await hash(page), '#step');
  assert.deepEqual(errors, []);
});
