// The Import panel: paste (or upload) what a real cluster prints and see the cluster appear in
// its tab, the user's other tabs untouched; a wrong paste is explained and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp, screenshot, suite } from './harness.mjs';

const samples = join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'imports');
const sample = (rel) => readFile(join(samples, rel), 'utf8');
const env = suite();

/** Open the app with some work of the user's on the Pulsar tab (one Step). */
async function withWork() {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.click('button[role="tab"]:has-text("Pulsar")');
  // Reset is one of the toolbar's "More" commands.
  await page.click('.more-menu > summary');
  await page.click('button[title="Start this tab over from its default scenario"]');
  await page.keyboard.press('n');
  await page.waitForFunction(() => document.querySelector('.scrubber .cursor').textContent === '1/1');
  await page.click('.import-panel > summary');
  return { page, errors };
}

async function pulsarTabKeptItsWork(page) {
  await page.click('button[role="tab"]:has-text("Pulsar")');
  assert.equal(await page.textContent('.scrubber .cursor'), '1/1');
}

test('Kafka Streams: a pasted Topology#describe() opens as instances and tasks', async () => {
  const { page, errors } = await withWork();
  await page.selectOption('select[aria-label="System to import"]', 'kstreams');
  await page.fill('textarea[data-import-input="0"]', await sample('kstreams/wordcount.describe.txt'));
  // Without partition counts the import asks for them and changes nothing.
  await page.click('button[data-import="go"]');
  const asked = await page.locator('[data-import-result="error"]').textContent();
  assert.match(asked, /lines/);
  assert.match(asked, /--partitions/);
  await page.fill('[data-import-field="--partitions"]', 'lines=4');
  await page.fill('[data-import-field="--instances"]', '2');
  await page.fill('[data-import-field="--application-id"]', 'wordcount');
  await page.click('button[data-import="go"]');
  await page.locator('[data-import-result="ok"]').waitFor();
  assert.match(await page.textContent('button[role="tab"][aria-selected="true"]'), /Kafka Streams/);
  await page.keyboard.press('n');
  await page.waitForSelector('[data-instance]');
  assert.equal(await page.locator('article[data-instance]').count(), 2);
  await screenshot(page, 'import-kstreams');
  await pulsarTabKeptItsWork(page);
  assert.deepEqual(errors, []);
});

test('Flink: a pasted execution plan opens as a scheduled slot grid', async () => {
  const { page, errors } = await withWork();
  await page.selectOption('select[aria-label="System to import"]', 'flink');
  await page.fill('textarea[data-import-input="0"]', await sample('flink/wordcount.plan.json'));
  await page.fill('[data-import-field="--task-managers"]', '2');
  await page.fill('[data-import-field="--slots"]', '2');
  await page.click('button[data-import="go"]');
  await page.locator('[data-import-result="ok"]').waitFor();
  assert.match(await page.textContent('[data-import-result="ok"]'), /Flink execution plan/);
  await page.waitForSelector('.slot-grid[data-role="session"] [data-tm]');
  assert.equal(await page.locator('.slot-grid[data-role="session"] li.tm-row').count(), 2);
  await screenshot(page, 'import-flink');
  await pulsarTabKeptItsWork(page);
  assert.deepEqual(errors, []);
});

test('Pulsar: uploaded pulsar-admin outputs open as brokers and a ring', async () => {
  const { page, errors } = await withWork();
  await page.selectOption('select[aria-label="System to import"]', 'pulsar');
  await page.setInputFiles('input[aria-label="Upload input files"]', [
    join(samples, 'pulsar/small/bundles.json'),
    join(samples, 'pulsar/small/broker-1.load-report.json'),
    join(samples, 'pulsar/small/topics.txt'),
  ]);
  await page.waitForSelector('textarea[data-import-input="2"]');
  await page.click('button[data-import="go"]');
  await page.locator('[data-import-result="ok"]').waitFor();
  assert.match(await page.textContent('[data-import-result="ok"]'), /bundles\.json \(a Pulsar bundle list/);
  await page.waitForFunction(() => document.querySelectorAll('svg.ring path[data-bundle]').length === 4);
  assert.match(await page.textContent('.legend'), /broker-1/);
  await screenshot(page, 'import-pulsar');
  assert.deepEqual(errors, []);
});

test('a paste of the wrong kind is named and the tab is untouched', async () => {
  const { page, errors } = await withWork();
  await page.selectOption('select[aria-label="System to import"]', 'kstreams');
  await page.fill('textarea[data-import-input="0"]', await sample('flink/wordcount.plan.json'));
  await page.click('button[data-import="go"]');
  const e = await page.locator('[data-import-result="error"]').textContent();
  assert.match(e, /your scenario is unchanged/);
  assert.match(e, /looks like/);
  assert.match(await page.textContent('button[role="tab"][aria-selected="true"]'), /Pulsar/);
  assert.equal(await page.textContent('.scrubber .cursor'), '1/1');
  await page.fill('textarea[data-import-input="0"]', '{"nodes": [ {"id": 1, "type": ');
  await page.selectOption('select[aria-label="System to import"]', 'flink');
  await page.click('button[data-import="go"]');
  assert.match(await page.locator('[data-import-result="error"]').textContent(), /line|column|end/i);
  await screenshot(page, 'import-error');
  assert.deepEqual(errors, []);
});
