// The guided lessons in the browser: one full lesson per system walked from the
// menu (narration with the engine's numbers, asks satisfied by the learner's own
// action and by "Do it for me", only the needed controls shown), deep links, bad
// links, progress, the fidelity page, and screenshots at 1280×800 and 390 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, screenshot } from './harness.mjs';

let server;
let context;

before(async () => {
  server = await serveDist();
  context = await launch();
});

after(async () => {
  await context?.close();
  await server?.close();
});

async function fresh() {
  const { page, errors } = await openApp(context, server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(server.url + '?lessons');
  await page.waitForSelector('main section.tab-body');
  return { page, errors };
}

/** Open `id` from the header's Lessons menu. */
async function fromMenu(page, id) {
  await page.click('header .lessons-button');
  await page.waitForSelector('.lessons-page');
  await page.click(`.lesson-entry[data-lesson="${id}"] a`);
  await atStep(page, id, 1);
}

/** Wait for step n (1-based) of lesson id. */
async function atStep(page, id, n) {
  await page.waitForSelector(`.lesson-panel[data-lesson="${id}"][data-step="${n}"]`);
}

const narration = (page) => page.textContent('.lesson-panel .narration');
const hash = (page) => page.evaluate(() => location.hash);
const visible = (page, sel) => page.locator(sel).first().isVisible();

test('ThresholdShedder (Pulsar) walked from the menu: 40 / 10 / 10, average 20 %, offload 15 %', async () => {
  const { page, errors } = await fresh();
  const id = 'pulsar-threshold-shedder';
  await fromMenu(page, id);
  assert.equal(await hash(page), `#lesson=${id}&step=1`);
  assert.match(await narration(page), /broker-1 40\.0 %, broker-2 10\.0 % and broker-3 10\.0 %/);
  assert.match(await narration(page), /loadBalancerBrokerThresholdShedderPercentage = 10 %/);
  assert.match(await page.textContent('.lesson-count'), /Step 1 of 4/);
  // The real system box names the shedder's config and class.
  assert.match(await page.textContent('.real-system'), /loadBalancerBrokerThresholdShedderPercentage/);
  assert.match(await page.textContent('.real-system'), /ThresholdShedder/);
  // Only the controls the step needs: Step, not the topic or traffic panels.
  assert.equal(await page.getAttribute('main', 'data-lesson-controls'), 'step');
  assert.ok(await visible(page, '#step'));
  assert.equal(await visible(page, 'details.topics'), false);
  assert.equal(await visible(page, 'details.traffic'), false);
  // The step waits for the learner: Next (aria-disabled, still clickable) only says so.
  assert.match(await page.textContent('.ask-prompt'), /Press Step/);
  assert.equal(await page.getAttribute('.lesson-nav .next', 'aria-disabled'), 'true');
  await page.click('.lesson-nav .next', { force: true });
  await page.waitForSelector('.notice.info');
  assert.match(await page.textContent('.notice.info'), /waits for you/);
  await screenshot(page, 'lesson-pulsar-step1');
  // The learner's own action satisfies the ask and the lesson moves on.
  await page.click('#step');
  await atStep(page, id, 2);
  const avg = await narration(page);
  assert.match(avg, /The cluster average is 20\.0 %/);
  assert.match(avg, /broker-1 at 40\.0 % is above 20\.0 % \+ 10\.0 % = 30\.0 %/);
  assert.match(avg, /= 15\.0 % of its traffic/);
  assert.equal(await hash(page), `#lesson=${id}&step=2`);
  // The focus is highlighted: broker-1.
  await page.waitForSelector('[data-broker="broker-1"][data-lesson-focus]', { state: 'attached' });
  assert.ok((await page.locator('[data-lesson-focus]:visible').count()) >= 1);
  await screenshot(page, 'lesson-pulsar-step2');
  // Back, then "Do it for me" does the same.
  await page.click('.lesson-nav .prev');
  await atStep(page, id, 1);
  await page.click('.ask .do-it');
  await atStep(page, id, 2);
  assert.equal(await narration(page), avg);
  // Keyboard: ] is next, [ is previous.
  await page.keyboard.press(']');
  await atStep(page, id, 3);
  assert.match(await narration(page), /25 percentage points; the code's target is only 15\.0 %/);
  await page.keyboard.press('[');
  await atStep(page, id, 2);
  await page.keyboard.press('ArrowRight');
  await atStep(page, id, 3);
  await page.click('.lesson-nav .next');
  await atStep(page, id, 4);
  // Free play shows every control.
  assert.match(await narration(page), /broker-1 owns 3, broker-2 owns 1 and broker-3 owns 2/);
  assert.equal(await page.getAttribute('main', 'data-lesson-controls'), null);
  assert.ok(await visible(page, 'details.topics'));
  assert.match(await page.textContent('.lesson-nav .next-lesson'), /Next lesson: ThresholdShedder: a two-round burst/);
  // Play freely: the lesson ends, the state stays.
  await page.click('.lesson-nav .free-play');
  await page.waitForSelector('.lesson-panel', { state: 'detached' });
  assert.equal(await page.textContent('.scrubber .cursor'), '1/1');
  assert.match(await hash(page), /^#s=/);
  // Progress: the lesson is done, kept in localStorage.
  await page.click('header .lessons-button');
  await page.waitForSelector(`.lesson-entry.done[data-lesson="${id}"]`);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('lbscope.lessons')));
  assert.ok(saved.completed.includes(id));
  assert.deepEqual(saved.visited[id], [0, 1, 2, 3]);
  await page.keyboard.press('Escape');
  await page.waitForSelector('main section.tab-body');
  assert.deepEqual(errors, []);
});

test('Unequal parallelism (Flink) walked from the menu: [4, 3, 2] and the slot counts', async () => {
  const { page, errors } = await fresh();
  const id = 'flink-unequal-parallelism';
  await fromMenu(page, id);
  assert.equal(await page.getAttribute('button[role="tab"][aria-selected="true"]', 'aria-selected'), 'true');
  assert.match(await page.textContent('button[role="tab"][aria-selected="true"]'), /Flink/);
  const a = await narration(page);
  assert.match(a, /JV-A \(6\) and JV-B \(3\), 9 tasks in one slot sharing group, on 3 TaskManagers with 6 slots/);
  assert.match(await page.textContent('.ask-prompt'), /Schedule the job/);
  // Only scheduling is shown: the job editor is hidden.
  assert.equal(await visible(page, 'form.job-editor'), false);
  assert.ok(await visible(page, 'button.schedule'));
  await screenshot(page, 'lesson-flink-step1');
  // "Do it for me" schedules.
  await page.click('.ask .do-it');
  await atStep(page, id, 2);
  const b = await narration(page);
  assert.match(b, /tm-0 4, tm-1 3 and tm-2 2: the busiest TaskManager runs 4 tasks and the idlest 2, a range of 2/);
  // Back, and the learner's own Schedule (the toolbar's) does the same.
  await page.click('.lesson-nav .prev');
  await atStep(page, id, 1);
  await page.click('.toolbar button.primary:has-text("Schedule")');
  await atStep(page, id, 2);
  assert.equal(await narration(page), b);
  await page.waitForSelector('[data-lesson-focus]');
  await screenshot(page, 'lesson-flink-step2');
  await page.click('.lesson-nav .next');
  await atStep(page, id, 3);
  assert.match(await narration(page), /Tasks per slot are \[2, 2, 2, 1, 1, 1\]/);
  await page.click('.lesson-nav .next');
  await atStep(page, id, 4);
  assert.match(await narration(page), /runs \[4, 3, 2\] tasks per TaskManager/);
  assert.ok(await visible(page, 'form.job-editor'));
  // Acting off the lesson's path is noticed, and Back to the step restores it.
  await page.click('.lesson-nav .prev');
  await atStep(page, id, 3);
  await page.keyboard.press('u');
  await page.waitForSelector('.lesson-panel .off-track');
  assert.match(await hash(page), /^#s=/);
  await page.click('.off-track button');
  await page.waitForSelector('.lesson-panel .off-track', { state: 'detached' });
  assert.equal(await hash(page), `#lesson=${id}&step=3`);
  assert.deepEqual(errors, []);
});

test('Standby failover (Kafka Streams) walked from the menu: 0 records to restore', async () => {
  const { page, errors } = await fresh();
  const id = 'kstreams-standby-failover';
  await fromMenu(page, id);
  assert.match(await narration(page), /task 0_0 runs on c and has a standby on a, which keeps up from the changelog \(lag 0 of 100000 records\)/);
  assert.match(await page.textContent('.ask-prompt'), /Crash c/);
  await page.waitForSelector('[data-lesson-focus]');
  await screenshot(page, 'lesson-kstreams-step1');
  // The learner crashes c.
  await page.click('button[aria-label="Crash c"]');
  await atStep(page, id, 2);
  const after = await narration(page);
  assert.match(after, /Task 0_0 went to a \(caught-up/);
  assert.match(after, /with 0 records to restore and 0 ms of downtime/);
  assert.match(after, /acceptable\.recovery\.lag = 10000 records/);
  // Back, and "Do it for me".
  await page.keyboard.press('ArrowLeft');
  await atStep(page, id, 1);
  await page.click('.ask .do-it');
  await atStep(page, id, 2);
  assert.equal(await narration(page), after);
  await page.click('.lesson-nav .next');
  await atStep(page, id, 3);
  assert.match(await narration(page), /a runs 0_0 and b runs 0_1 and 0_2/);
  assert.match(await page.textContent('.lesson-nav .next-lesson'), /Next lesson: Warm-ups catching up while records keep arriving/);
  await screenshot(page, 'lesson-kstreams-free');
  assert.deepEqual(errors, []);
});

test('a deep link opens its lesson step in a fresh browser', async () => {
  const other = await launch();
  try {
    const { page, errors } = await openApp(other, server.url + '#lesson=flink-unequal-parallelism&step=2');
    await atStep(page, 'flink-unequal-parallelism', 2);
    assert.match(await page.textContent('button[role="tab"][aria-selected="true"]'), /Flink/);
    assert.match(await narration(page), /tm-0 4, tm-1 3 and tm-2 2/);
    assert.equal(await hash(page), '#lesson=flink-unequal-parallelism&step=2');
    const inspect = await page.evaluate(() => window.lbscope.lesson);
    assert.deepEqual(inspect, ['flink-unequal-parallelism', 1, false]);
    // A link followed inside the page opens too.
    await page.evaluate(() => { location.hash = '#lesson=pulsar-threshold-shedder&step=3'; });
    await atStep(page, 'pulsar-threshold-shedder', 3);
    assert.match(await narration(page), /25 percentage points/);
    await screenshot(page, 'lesson-deep-link');
    // At 390 px wide the panel, the ring and the deck stack.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
    await screenshot(page, 'lesson-pulsar-390');
    await page.click('header .lessons-button');
    await page.waitForSelector('.lessons-page');
    await screenshot(page, 'lesson-menu-390');
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
  }
});

test('bad lesson links show a notice and keep the app working', async () => {
  const { page, errors } = await fresh();
  for (const [i, [frag, message]] of [
    ['#lesson=no-such-lesson&step=1', /no lesson called “no-such-lesson”/],
    ['#lesson=pulsar-threshold-shedder&step=99', /has 4 steps; there is no step 99/],
    ['#lesson=pulsar-threshold-shedder&step=zero', /could not be read/],
  ].entries()) {
    // A new query each time: a full load, not a same-document hash change.
    await page.goto(server.url + `?bad${i}` + frag);
    await page.waitForSelector('main section.tab-body');
    await page.waitForSelector('.notice.error');
    assert.match(await page.textContent('.notice.error'), message);
    assert.equal(await page.locator('.lesson-panel').count(), 0);
    // Still usable: a lesson opens from the menu.
    await fromMenu(page, 'pulsar-threshold-shedder');
  }
  assert.deepEqual(errors, []);
});

test('the fidelity page lists every note by system, with lesson links', async () => {
  const { page, errors } = await fresh();
  // From the help overlay.
  await page.keyboard.press('?');
  await page.click('.overlay button:has-text("Fidelity notes")');
  await page.waitForSelector('.fidelity-page');
  const count = Number((await page.textContent('.fidelity-page .page-head .hint')).match(/^(\d+) places/)[1]);
  assert.ok(count >= 10, `${count} notes`);
  assert.equal(await page.locator('table.fidelity:not(.strategies) tbody tr').count(), count);
  // Each system's strategy registry is listed beside its notes.
  assert.ok(await page.locator('table.fidelity.strategies tbody tr').count() >= 8);
  assert.deepEqual(await page.locator('.fidelity-group h3').allTextContents(), ['Pulsar', 'Flink', 'Kafka Streams']);
  assert.match(await page.textContent('.fidelity-page'), /ThresholdShedder target/);
  // The strategy tables give their settings room: the setting column is a
  // quarter of the table (it was 14 %, a key=value took a line per few
  // letters), and a setting of up to 70 characters takes at most 3 lines.
  const settings = await page.$$eval('table.fidelity.strategies tbody th code', cs => cs.map(c => {
    const range = document.createRange();
    range.setStart(c.firstChild, 0);
    range.setEnd(c.firstChild, 1);
    const line = range.getBoundingClientRect().height;
    const th = c.closest('th').getBoundingClientRect().width;
    const table = c.closest('table').getBoundingClientRect().width;
    return { text: c.textContent, lines: Math.round(c.getBoundingClientRect().height / line), share: th / table };
  }));
  assert.ok(settings.length >= 8);
  for (const s of settings) {
    assert.ok(s.share >= 0.25, `${s.text}: its column is ${(100 * s.share).toFixed(0)} % of the table`);
    if (s.text.length <= 70) assert.ok(s.lines <= 3, `${s.text} takes ${s.lines} lines`);
  }
  await screenshot(page, 'fidelity');
  // A note's lesson opens.
  await page.click('table.fidelity a[data-lesson="pulsar-threshold-shedder"] >> nth=0');
  await atStep(page, 'pulsar-threshold-shedder', 1);
  // And from the lesson menu.
  await page.keyboard.press('l');
  await page.click('.lessons-page button:has-text("Fidelity notes")');
  await page.waitForSelector('.fidelity-page');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'fidelity-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
});

test('a split step unfolds pulsar-admin and shows only its split form', async () => {
  const { page, errors } = await fresh();
  await page.goto(server.url + '?split#lesson=pulsar-range-equally-divide&step=1');
  await atStep(page, 'pulsar-range-equally-divide', 1);
  await page.waitForSelector('details.admin[open]');
  assert.ok(await visible(page, 'form.split-bundle'));
  assert.equal(await visible(page, 'form.unload'), false);
  assert.equal(await visible(page, 'details.traffic'), false);
  // The ask is satisfied by "Do it for me" (a split), and the ring shows the halves.
  await page.click('.ask .do-it');
  await atStep(page, 'pulsar-range-equally-divide', 2);
  await screenshot(page, 'lesson-split');
  assert.deepEqual(errors, []);
});
