// The picture explains each decision, in a real browser: the broker bars show
// what the configured shedder compares (its numbers are the engine's, as its
// events print them), each placement names its filters and score, moves
// animate (and do not under prefers-reduced-motion), the Flink tab shows its
// essentials first, nothing is clipped at 1280×800 or 390 px, and a lesson
// keeps the ring in view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite, unfold } from './harness.mjs';

const env = suite();

async function firstVisit(url = env.server.url + '?first#') {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(url);
  await page.waitForSelector('svg.ring path.arc');
  return { page, errors };
}

const owners = (page) => page.locator('.ring-pane svg.ring path.arc').evaluateAll((els) =>
  els.map((e) => `${e.dataset.bundle}=${e.dataset.owner ?? ''}`).sort().join());

/** Step and wait until some bundle changed owner. */
async function stepUntilMoved(page) {
  const before = await owners(page);
  await page.click('#step');
  await page.waitForFunction((b) => [...document.querySelectorAll('.ring-pane svg.ring path.arc')]
    .map((e) => `${e.dataset.bundle}=${e.dataset.owner ?? ''}`).sort().join() !== b, before, { timeout: 10000 });
}

test('ThresholdShedder: the bars show the moving averages it decided on and average + threshold, as its event prints them', async () => {
  const { page, errors } = await firstVisit();
  await unfold(page, 'details.cluster');
  await unfold(page, 'details.sub[data-controls="config"]');
  await page.selectOption('#profile', 'pulsar-4.2');
  await page.waitForSelector('.bars-key[data-strategy="ThresholdShedder"]');
  await page.click('#step');
  await page.waitForFunction(() => window.lbscope.events.some((e) => e.startsWith('ThresholdShedder: moving averages')));
  const line = await page.evaluate(() => window.lbscope.events.filter((e) => e.startsWith('ThresholdShedder: moving averages')).at(-1));
  const averages = [...line.matchAll(/(broker-\d+) (\d+\.\d) %/g)].map((m) => [m[1], m[2]]);
  assert.ok(averages.length >= 3, line);
  for (const [broker, avg] of averages) {
    const shown = await page.textContent(`li.broker[data-broker="${broker}"] .bar.shed .bar-value`);
    assert.equal(shown, `${avg} %`, `${broker}: ${line}`);
  }
  const avg = /cluster average (\d+\.\d) %/.exec(line)[1];
  const key = await page.textContent('.bars-key');
  assert.match(key, new RegExp(`cluster average ${avg.replace('.', '\\.')} %`));
  assert.match(key, /average \+ threshold/);
  assert.match(key, /moving-average usage/);
  assert.match(key, /overload line 85 %/);
  // One trigger line per live broker card, placed at average + threshold.
  assert.ok(await page.locator('li.broker .bars .line.trigger').count() >= 3);
  await screenshot(page, 'decisions-threshold-1280');
  assert.deepEqual(errors, []);
});

test('AvgShedder: hit counters per broker; each placement names its filters and the score that picked it', async () => {
  const { page, errors } = await firstVisit();
  await stepUntilMoved(page);
  await page.waitForSelector('.bars-key[data-strategy="AvgShedder"]');
  const alive = await page.locator('li.broker[data-alive="true"]').count();
  assert.equal(await page.locator('li.broker[data-alive="true"] .hits').count(), alive);
  assert.match(await page.textContent('li.broker .hits'), /hit counters: high \d+ of \d+, low \d+ of \d+/);
  const placed = await page.locator('.this-round .placed li').allTextContents();
  assert.ok(placed.length > 0);
  for (const p of placed) {
    assert.match(p, /→ broker-\d+: /);
    assert.match(p, /removed|no filter removed a candidate/);
    assert.match(p, /picked by /);
  }
  await screenshot(page, 'decisions-avg-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'decisions-avg-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
});

test('each shedder lesson draws what its shedder compares: the std band, the overload line, the max/min spread', async () => {
  const { page, errors } = await firstVisit();
  for (const [id, strategy, key, extra] of [
    ['pulsar-transfer-shedder', 'TransferShedder', /average ± std/, '.bars .band'],
    ['pulsar-overload-shedder', 'OverloadShedder', /overload threshold 85\.0 %/, '.bars .line.trigger'],
    ['pulsar-uniform-load-shedder', 'UniformLoadShedder', /message rate/, '.bar.shed'],
  ]) {
    await page.evaluate((h) => { location.hash = h; }, `#lesson=${id}&step=2`);
    await page.waitForSelector(`.lesson-panel[data-lesson="${id}"][data-step="2"]`);
    await page.waitForSelector(`.bars-key[data-strategy="${strategy}"]`);
    assert.match(await page.textContent('.bars-key'), key, id);
    assert.ok(await page.locator(extra).count() > 0, `${id}: ${extra}`);
    assert.ok((await page.textContent('.shed-summary')).length > 20, id);
    await page.screenshot({ path: new URL(`./output/decisions-${strategy}.png`, import.meta.url).pathname });
  }
  assert.deepEqual(errors, []);
});

test('a move animates the arc to its new owner; under prefers-reduced-motion it is instant', async () => {
  const { page, errors } = await firstVisit();
  await stepUntilMoved(page);
  // A colour transition runs on an arc that changed owner.
  await page.waitForFunction(() => [...document.querySelectorAll('.ring-pane svg.ring path.arc')]
    .some((e) => e.getAnimations().length > 0), null, { timeout: 2000, polling: 'raf' });
  assert.notEqual(await page.locator('.ring-pane svg.ring path.arc').first().evaluate((e) => getComputedStyle(e).transitionDuration), '0s');

  assert.deepEqual(errors, []);

  // A fresh first visit under prefers-reduced-motion: the same move is instant.
  const calm = await firstVisit();
  await calm.page.emulateMedia({ reducedMotion: 'reduce' });
  const durations = await calm.page.locator('.ring-pane svg.ring path.arc').evaluateAll((els) => [...new Set(els.map((e) => getComputedStyle(e).transitionDuration))]);
  assert.deepEqual(durations, ['0s']);
  assert.deepEqual(await calm.page.locator('.ring-pane svg.ring line.boundary').evaluateAll((els) => [...new Set(els.map((e) => getComputedStyle(e).animationName))]), ['none']);
  await stepUntilMoved(calm.page);
  const running = await calm.page.evaluate(() => [...document.querySelectorAll('.ring-pane svg.ring path.arc, .ring-pane svg.ring line.boundary')]
    .filter((e) => e.getAnimations().length > 0).length);
  assert.equal(running, 0);
  assert.deepEqual(calm.errors, []);
});

for (const [w, h, name] of [[1280, 800, 'desktop'], [390, 844, 'phone']]) {
  test(`${name} (${w}×${h}): the burst button is not clipped; Flink shows its essentials first`, async () => {
    const { page, errors } = await firstVisit();
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(200);
    await unfold(page, 'details.traffic');
    const burst = page.locator('#hot-burst');
    await burst.scrollIntoViewIfNeeded();
    const fits = await burst.evaluate((b) => {
      const r = b.getBoundingClientRect();
      const panel = b.closest('.panel').getBoundingClientRect();
      return { r: [r.left, r.right], panel: [panel.left, panel.right], overflow: b.scrollWidth > b.clientWidth, vw: innerWidth };
    });
    assert.ok(fits.r[0] >= fits.panel[0] - 0.5 && fits.r[1] <= fits.panel[1] + 0.5, JSON.stringify(fits));
    assert.ok(fits.r[1] <= fits.vw && !fits.overflow, JSON.stringify(fits));
    await page.screenshot({ path: new URL(`./output/decisions-burst-${name}.png`, import.meta.url).pathname });

    await page.click('button[role="tab"]:has-text("Flink")');
    await page.waitForSelector('.flink-controls');
    assert.equal(await page.locator('.job-editor details.job-tables').evaluate((d) => d.open), false);
    assert.equal(await page.locator('.flink-controls details.intervals').evaluate((d) => d.open), false);
    for (const sel of ['.job-editor .presets button', '#flink-mode', '.flink-controls button.schedule', '.flink-controls details.tms > summary']) {
      assert.ok(await page.locator(sel).first().isVisible(), sel);
    }
    await screenshot(page, `decisions-flink-${name}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, `decisions-flink-${name}-dark`);
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(errors, []);
  });
}

test('a lesson at 1280×800 keeps the ring in view; on a 390-px phone the ring and the asked control are visible together', async () => {
  const { page, errors } = await firstVisit();
  const id = 'pulsar-threshold-shedder';
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate((h) => { location.hash = h; }, `#lesson=${id}&step=1`);
  await page.waitForSelector(`.lesson-panel[data-lesson="${id}"]`);
  await page.waitForTimeout(300);
  const ring = await page.locator('.ring-pane svg.ring').boundingBox();
  assert.ok(ring.y >= 0 && ring.y + ring.height <= 800, `ring ${JSON.stringify(ring)}`);
  await page.screenshot({ path: new URL('./output/decisions-lesson-1280.png', import.meta.url).pathname });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const words = ((await page.getAttribute('main', 'data-lesson-controls')) ?? '').split(' ').filter(Boolean);
  const control = await page.evaluate((ws) => {
    for (const w of ws) {
      const el = [...document.querySelectorAll(`[data-controls~="${w}"]`)].filter((e) => e.checkVisibility())
        .flatMap((e) => (e.matches('button, select, input') ? [e] : [...e.querySelectorAll('button:not([disabled]), select, input')]))
        .find((e) => e.checkVisibility());
      if (el) { el.setAttribute('data-asked', ''); return true; }
    }
    return false;
  }, words);
  assert.ok(control, `no control for ${words}`);
  await page.locator('[data-asked]').first().scrollIntoViewIfNeeded();
  const c = await page.locator('[data-asked]').first().boundingBox();
  const r = await page.locator('.ring-pane svg.ring').boundingBox();
  assert.ok(c.y >= 0 && c.y + c.height <= 844, `control ${JSON.stringify(c)}`);
  assert.ok(r.y + r.height * 0.5 > 0 && r.y < 844, `ring ${JSON.stringify(r)}`);
  await page.screenshot({ path: new URL('./output/decisions-lesson-phone.png', import.meta.url).pathname });
  assert.deepEqual(errors, []);
});
