// Workload patterns replay the same in both runtimes: a scenario whose traffic
// changes every round (jitter + wave + burst on a Pulsar cluster; a Kafka
// Streams produce pattern with key skew and a wave) is opened from its link,
// stepped in the browser, and the browser's event log must equal the native
// CLI's for the same scenario with as many rounds appended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApp, suite } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = (...args) => execFileSync('cargo', ['run', '-q', '--bin', 'lbscope', '--', ...args], { cwd: root, encoding: 'utf8' });

const env = suite();

// Rounds pressed in the browser after the link's own actions.
const STEPS = 3;

for (const [name, tab, shaped] of [
  ['pulsar-workload-patterns', 'Pulsar', /workload at round \d+: 40 topics shaped/],
  ['kstreams-workload-produce', 'Kafka Streams', /records produced from \d+ ms to \d+ ms: #1 \d+ records to clicks/],
]) {
  test(`${tab}: the browser's event log with workload patterns equals the CLI's, replayed and stepped`, async () => {
    const file = join(root, 'tests', 'scenarios', `${name}.json`);
    const link = cli('url', file, '--base', env.server.url).trim();
    const { page, errors } = await openApp(env.context, link);
    const opened = await page.evaluate(() => window.lbscope.events);
    // The link alone: the scenario's actions, patterns applied every round.
    const native0 = JSON.parse(cli('run', file, '--format', 'json')).events.map((e) => e.text);
    assert.deepEqual(opened, native0);
    assert.ok(native0.some((t) => shaped.test(t)), native0.join('\n'));
    for (let i = 1; i <= STEPS; i++) {
      const before = await page.evaluate(() => window.lbscope.events.length);
      await page.click('#step');
      await page.waitForFunction((n) => window.lbscope.events.length > n, before);
    }
    const wasm = await page.evaluate(() => window.lbscope.events);
    const native = JSON.parse(cli('run', file, '--format', 'json', '--rounds', String(STEPS))).events.map((e) => e.text);
    assert.ok(native.length > native0.length);
    assert.deepEqual(wasm, native);
    assert.deepEqual(errors, []);
  });
}
