// Predict, then reveal: a lesson step that asks for an action first asks what
// it will do. Pick an option: a right guess is confirmed, a wrong one is
// explained; both quote the rule that decided, with the engine's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite } from './harness.mjs';

const env = suite();

/** Open `id` and walk its steps to the first one that asks for a prediction. */
async function firstPrediction(page, id) {
  for (let k = 1; k <= 8; k++) {
    await page.evaluate((h) => { location.hash = h; }, `#lesson=${id}&step=${k}`);
    if (!(await page.waitForSelector(`.lesson-panel[data-lesson="${id}"][data-step="${k}"]`, { timeout: 5000 }).catch(() => null))) break;
    if (await page.locator('.predict').count()) return k;
  }
  return null;
}

for (const id of ['pulsar-avg-shedder', 'pulsar-bundles-on-the-ring', 'flink-unequal-parallelism', 'kstreams-standby-failover']) {
  test(`${id}: predict, then the round tells right from wrong`, async () => {
    const { page, errors } = await openApp(env.context, env.server.url);
    const k = await firstPrediction(page, id);
    assert.ok(k, `${id} has a step that asks for a prediction`);
    const options = await page.locator('[data-predict-option]').evaluateAll((els) => els.map((e) => e.dataset.predictOption));
    assert.ok(options.length >= 2, JSON.stringify(options));
    assert.equal(await page.locator('[data-predict-feedback]').count(), 0, 'no answer before a guess');
    // Try each option until one is right: every wrong one is explained.
    let right = null;
    for (const o of options) {
      await page.click(`[data-predict-option="${o}"]`);
      const fb = page.locator('[data-predict-feedback]');
      await fb.waitFor();
      const kind = await fb.getAttribute('data-predict-feedback');
      const text = await fb.textContent();
      if (kind === 'right') { right = o; assert.match(text, /^Right/); break; }
      assert.match(text, new RegExp(`^Not ${o.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(text, /The rule that decided/);
      assert.ok(text.length > 60, text);
    }
    assert.ok(right, `one of ${options} is right`);
    await screenshot(page, `predict-${id}`);
    // Doing the step goes on; the next step starts without a guess.
    await page.click('.ask .do-it');
    await page.waitForSelector(`.lesson-panel[data-lesson="${id}"][data-step="${k + 1}"]`);
    assert.equal(await page.locator('[data-predict-feedback]').count(), 0);
    assert.deepEqual(errors, []);
  });
}
