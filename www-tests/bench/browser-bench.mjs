// The in-browser half of the benchmark (not a test: it prints figures).
// Usage: node www-tests/bench/browser-bench.mjs [TOPICS] [ROUNDS]   (see `make bench`)
//
// 1. The native CLI writes the Pulsar benchmark cluster (1,000 brokers, 16,384
//    bundles, TOPICS topics) as a scenario and times ROUNDS Steps on it natively.
// 2. The release wasm app opens the same scenario from a share link; each round is
//    a real Step key press: the engine's time (measured inside the app with
//    performance.now()) and the time until the next painted frame.
// 3. It prints both, their ratio, the first-render time and the gzipped wasm size.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, DIST } from '../harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const topics = Number(process.argv[2] ?? 200000);
const rounds = Number(process.argv[3] ?? 20);
const cli = join(root, 'target', 'release', 'lbscope');
const out = join(root, 'www-tests', 'output');
mkdirSync(out, { recursive: true });
const file = join(out, `bench-pulsar-${topics}.json`);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const fmt = (x) => `${x.toFixed(2)} ms`;

console.error(`native: building and timing the ${topics}-topic cluster ...`);
const native = JSON.parse(execFileSync(cli, ['bench', '--browser-scenario', file, '--topics', String(topics), '--rounds', String(rounds)], { encoding: 'utf8' }));

const server = await serveDist();
const context = await launch();
try {
  // First render of the default page.
  const first = await context.newPage();
  await first.goto(server.url + '?fresh');
  await first.waitForSelector('main section.tab-body');
  const firstRender = await first.evaluate(() => performance.now());
  await first.close();

  const link = execFileSync(cli, ['url', file, '--base', server.url], { encoding: 'utf8' }).trim();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  console.error(`wasm: opening the scenario (replaying its setup in the browser) ...`);
  const t0 = Date.now();
  await page.goto(link, { timeout: 600000 });
  await page.waitForSelector('svg.ring, canvas.ring', { timeout: 600000 });
  const openMs = Date.now() - t0;
  const engine = [];
  const frame = [];
  for (let i = 0; i < rounds + 3; i++) {
    const total = await page.evaluate(async () => {
      const start = performance.now();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'n', bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - start;
    });
    const eng = await page.evaluate(() => window.lbscopeRoundMs);
    if (i >= 3) { engine.push(eng); frame.push(total - eng); }
  }
  const wasm = readdirSync(DIST).find((f) => f.endsWith('.wasm'));
  const gz = gzipSync(readFileSync(join(DIST, wasm)), { level: 9 }).length;
  const rows = [
    ['Pulsar Step, native (release)', fmt(native.median_ms), `min ${fmt(native.min_ms)}`],
    ['Pulsar Step, wasm in Chromium', fmt(median(engine)), `min ${fmt(Math.min(...engine))}`],
    ['wasm / native (medians)', `${(median(engine) / native.median_ms).toFixed(2)}x`, 'target <= 1.5x'],
    ['redraw after a round (ring + bars + deck)', fmt(median(frame)), 'target <= 16 ms'],
    ['opening the scenario (setup replay + first draw)', fmt(openMs), `native setup ${fmt(native.setup_ms)}`],
    ['first render of the default page', fmt(firstRender), 'target <= 1000 ms'],
    ['release wasm, gzipped', `${(gz / 1024).toFixed(0)} KiB`, 'target <= 350 KB'],
  ];
  console.log(`in-browser benchmark: 1,000 brokers, ${topics} topics, 16,384 bundles, ${rounds} rounds`);
  for (const [a, b, c] of rows) console.log(`${a.padEnd(52)} ${b.padStart(12)}   ${c}`);
  if (errors.length) console.log('page errors:', errors);
} finally {
  await context.close();
  await server.close();
}
