// One scenario, two runtimes: the native CLI and the wasm app must tell the same story.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openApp, suite } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'lbscope', '--', ...args], { cwd: root, encoding: 'utf8' });

// A server for dist/ and one browser profile shared by this file's tests.
const env = suite();

for (const name of ['pulsar-doc6-threshold-shedder', 'flink-figure-a-tasks', 'kstreams-doc-five-partitions-six-instances']) {
  test(`the browser's event log equals the CLI's for ${name}`, async () => {
    const file = join(root, 'tests', 'scenarios', `${name}.json`);
    const native = JSON.parse(cli('run', file, '--format', 'json')).events.map((e) => e.text);
    const link = cli('url', file, '--base', env.server.url).trim();
    const { page, errors } = await openApp(env.context, link);
    const wasm = await page.evaluate(() => window.lbscope.events);
    assert.ok(native.length > 5);
    assert.deepEqual(wasm, native);
    assert.deepEqual(errors, []);
  });
}

test('a link restores the exact cursor (undone actions stay redoable)', async () => {
  const file = join(root, 'tests', 'scenarios', 'flink-figure-a-tasks.json');
  const { page } = await openApp(env.context, cli('url', file, '--base', env.server.url).trim());
  await page.keyboard.press('n');
  await page.keyboard.press('n');
  await page.keyboard.press('u');
  await page.waitForFunction(() => document.querySelector('.scrubber .cursor').textContent === '2/3');
  const link = await page.evaluate(() => location.href);
  const other = await launch();
  try {
    const { page: p2, errors } = await openApp(other, link);
    assert.equal(await p2.textContent('.scrubber .cursor'), '2/3');
    assert.equal(await p2.isEnabled('button[title="Redo (r)"]'), true);
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
  }
});
