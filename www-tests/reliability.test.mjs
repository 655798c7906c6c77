// Bad share links in the page: each names what is wrong, and the user's work stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite } from './harness.mjs';

const env = suite();

test('a bad link names its problem and keeps the saved work', async () => {
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh#');
  await page.waitForSelector('svg.ring');
  // The user's work: a topic of their own (autosaved).
  await page.click('details.topics > summary');
  await page.fill('#topic-name', 'persistent://public/default/kept-topic');
  await page.click('form.add-topic button');
  const kept = 'line.tick[data-topic="persistent://public/default/kept-topic"]';
  await page.locator(kept).waitFor();
  const good = new URL(await page.evaluate(() => location.href)).hash.replace(/^#s=\d+\./, '');
  await page.waitForTimeout(1200); // the autosave
  for (const [link, want] of [
    [`#s=0.${good}`, /version 0 does not exist/],
    [`#s=-1.${good}`, /version -1 does not exist/],
    [`#s=4294967296.${good}`, /4294967296 is larger than any lbscope link version/],
    ['#s=2.AB*D', /'\*' at character 2/],
  ]) {
    // Each link opened as a new page load (a hash-only change is handled in
    // place, and rewrites the address back to the saved work at once).
    await page.goto('about:blank');
    await page.goto(env.server.url + link);
    await page.waitForSelector('.notice.error');
    const text = await page.textContent('.notice.error');
    assert.match(text, /could not be opened/, link);
    assert.match(text, want, link);
    assert.doesNotMatch(text, /not a number/, link);
    // The saved work is what the tab shows.
    await page.locator(kept).waitFor();
  }
  await screenshot(page, 'reliability-bad-link');
  assert.deepEqual(errors, []);
});

test('a trap in the engine shows the crash panel, and the saved work stays', async () => {
  const { page } = await openApp(env.context, env.server.url + '?fresh');
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh#');
  await page.waitForSelector('svg.ring');
  await page.click('#step');
  await page.waitForFunction(() => document.querySelector('.scrubber .cursor').textContent === '1/1');
  const saved = await page.evaluate(() => JSON.stringify(localStorage));
  // A trap reaches the page as an uncaught WebAssembly.RuntimeError (no panic
  // hook runs): raised here as the browser would report it.
  await page.evaluate(() => setTimeout(() => { throw new WebAssembly.RuntimeError('unreachable'); }));
  await page.waitForSelector('#crash[role="alert"]');
  assert.match(await page.textContent('#crash'), /The engine stopped \(unreachable\)/);
  assert.equal(await page.locator('#crash a', { hasText: 'Restore last good state' }).count(), 1);
  assert.equal(await page.evaluate(() => JSON.stringify(localStorage)), saved, 'the autosave is untouched');
  await screenshot(page, 'reliability-trap-panel');
});
