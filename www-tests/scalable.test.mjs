// Pulsar's scalable topics in a real browser: the Examples gallery's traffic wave
// splits the topic's segments at the peak and merges them back once it is cold,
// and the segment bar under the ring follows round by round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite } from './harness.mjs';

const env = suite();

const segments = (page) => page.locator('g.segment').evaluateAll((els) =>
  els.map((e) => ({ id: e.dataset.segment, start: Number(e.dataset.start), end: Number(e.dataset.end), owner: e.dataset.owner })));

test('a scalable topic under a wave splits, then merges, and the segment bar shows it', async () => {
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh#example=pulsar-scalable-topic-wave');
  await page.waitForSelector('g.segment');
  const first = await segments(page);
  assert.equal(first.length, 2, JSON.stringify(first));
  // The two segments tile the 16-bit key space.
  assert.deepEqual([first[0].start, first[first.length - 1].end], [0, 0xffff]);
  let most = first.length;
  let counts = [];
  for (let i = 0; i < 120; i += 1) {
    await page.click('button:has-text("Redo")');
    const n = await page.locator('g.segment').count();
    counts.push(n);
    most = Math.max(most, n);
    if (most === 4 && n === 2) break;
    if (await page.locator('button:has-text("Redo")').isDisabled()) break;
  }
  assert.equal(most, 4, `segments over the wave: ${counts.join(',')}`);
  assert.equal(counts[counts.length - 1], 2, `merged back at the end: ${counts.join(',')}`);
  const last = await segments(page);
  assert.ok(last.every((s) => /^broker-\d+$/.test(s.owner)), JSON.stringify(last));
  await screenshot(page, 'scalable-wave-1280');
  assert.deepEqual(errors, []);
});
