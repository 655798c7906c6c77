// The first slice: the Pulsar hash ring in a real browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, screenshot, suite, unfold } from './harness.mjs';

// A server for dist/ and one browser profile shared by this file's tests.
const env = suite();

test('ring has one arc per bundle and follows the bundle count', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
  assert.equal(await page.locator('svg.ring path.arc').count(), 4);
  await page.click('details.topics > summary');
  await page.fill('#bundle-count', '16');
  await page.press('#bundle-count', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('svg.ring path.arc').length === 16);
  const names = await page.locator('svg.ring path.arc').evaluateAll((els) => els.map((e) => e.dataset.bundle));
  assert.equal(names[0], 'public/default/0x00000000_0x10000000');
  assert.equal(names[15], 'public/default/0xf0000000_0xffffffff');
  // Bad input keeps the current value and shows no crash.
  await page.fill('#bundle-count', '0');
  await page.press('#bundle-count', 'Enter');
  // The refusal is shown next to the field.
  await page.waitForSelector('.field-error[data-field="bundle-count"]');
  assert.match(await page.textContent('.field-error[data-field="bundle-count"]'), /at least 1 bundle/);
  assert.equal(await page.locator('svg.ring path.arc').count(), 16);
  assert.deepEqual(errors, []);
});

test('my-topic lands in the first of 4 bundles', async () => {
  const { page, errors } = await openApp(env.context, env.server.url + '#fresh');
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh#');
  await page.waitForSelector('svg.ring');
  assert.equal(await page.locator('svg.ring path.arc').count(), 4);
  await page.click('details.topics > summary');
  await page.fill('#topic-name', 'persistent://public/default/my-topic');
  await page.click('form.add-topic button');
  const tick = page.locator('svg.ring line.tick[data-topic="persistent://public/default/my-topic"]');
  await tick.waitFor();
  assert.equal(await tick.getAttribute('data-bundle'), 'public/default/0x00000000_0x40000000');
  assert.equal(await tick.getAttribute('data-hash'), '0x2bad45f7');
  // The engine's state is inspectable from page scripts, read-only.
  const ns = await page.evaluate(() => window.lbscope.namespaces[0]);
  assert.equal(ns.bundles.length, 4);
  assert.ok(await page.evaluate(() => Object.isFrozen(window.lbscope)));
  // The event log narrates the hash.
  assert.match(await page.textContent('.events'), /crc32 = 0x2bad45f7 -> bundle 0x00000000_0x40000000/);
  await screenshot(page, 'pulsar-ring');
  assert.deepEqual(errors, []);
});

test('the share link restores the scenario in a fresh context', async () => {
  const { page } = await openApp(env.context, env.server.url);
  await unfold(page, 'details.topics');
  await page.fill('#topic-name', 'shared-topic');
  await page.click('form.add-topic button');
  await page.locator('line.tick[data-topic="persistent://public/default/shared-topic"]').waitFor();
  const link = await page.evaluate(() => location.href);
  assert.match(link, /#s=2\./);
  const fresh = await launch();
  try {
    const { page: p2, errors } = await openApp(fresh, link);
    await p2.locator('line.tick[data-topic="persistent://public/default/shared-topic"]').waitFor();
    assert.deepEqual(errors, []);
    // A tampered link, opened in a new page (an open page may still be
    // writing its own scenario into the address), shows a message and keeps
    // a working app.
    const p3 = await fresh.newPage();
    await p3.goto(env.server.url + '#s=1.AAAA');
    await p3.waitForSelector('.notice.error');
    assert.match(await p3.textContent('.notice.error'), /could not be opened/);
    assert.ok((await p3.locator('svg.ring path.arc').count()) > 0);
  } finally {
    await fresh.close();
  }
});
