// The in-browser half of the benchmark (not a test: it prints figures).
// Usage: node www-tests/bench/browser-bench.mjs [TOPICS] [ROUNDS] [LONG]   (see `make bench`)
//
// 1. The native CLI writes the Pulsar benchmark cluster (1,000 brokers, 16,384
//    bundles, TOPICS topics) as a scenario and times ROUNDS Steps on it natively.
// 2. The release wasm app opens the same scenario from a share link; each round is
//    a real Step key press: the engine's time (measured inside the app with
//    performance.now()), the page thread's work for the press and the frame that
//    draws it (open.mjs's `measure`), and the time until the frame after the
//    painted one (each also with nothing pressed).
// 3. It chooses a compare run (computed in the engine worker for a heavy scenario).
// 4. It opens the same cluster with LONG rounds in its log and measures the redraw
//    of ten more rounds there (what a long play draws: a chart of LONG rounds).
// 5. It prints both, their ratio, the redraw, opening, compare and first-render
//    times and the gzipped wasm size, each beside its target.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, DIST, releaseCli } from '../harness.mjs';
import { opened, measure, domChanges } from './open.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const topics = Number(process.argv[2] ?? 200000);
const rounds = Number(process.argv[3] ?? 20);
// Rounds in the log of the long-play redraw's scenario.
const long = Number(process.argv[4] ?? 600);
const cli = releaseCli();
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
  await opened(page);
  const openMs = Date.now() - t0;
  // The replay's parts as the page timed them (the page answers input between two).
  const opening = await page.evaluate(() => {
    const t = window.lbscopeTimings ?? {};
    return { replay: t['opening-replay'], parts: t['opening-replay-parts'], longest: t['opening-replay-longest'] };
  });
  const engine = [];
  const wait = [];
  const views = [];
  const work = [];
  const after = [];
  const paint = [];
  const parts = {};
  for (let i = 0; i < rounds + 3; i++) {
    const { total, script, frame } = await measure(page);
    const [eng, view, timings] = await page.evaluate(() => [window.lbscopeRoundMs, window.lbscopeTimings?.['pulsar-views'] ?? NaN, { ...(window.lbscopeTimings ?? {}) }]);
    if (i >= 3) {
      engine.push(eng); wait.push(total - eng); views.push(view); work.push(script - eng + frame); after.push(script - eng); paint.push(frame);
      for (const [k, v] of Object.entries(timings)) if (k.startsWith('pulsar-views-')) (parts[k] ??= []).push(v);
    }
  }
  // The same wait with nothing pressed: what the figure holds when there is nothing to draw.
  const idle = [];
  const idleWork = [];
  for (let i = 0; i < 15; i++) {
    const m = await measure(page, null);
    idle.push(m.total); idleWork.push(m.script + m.frame);
  }
  // What a round changes in the DOM (three more rounds, observed, not timed): the redraw's
  // DOM work against the size of the page.
  const changes = [];
  for (let i = 0; i < 3; i++) changes.push(await domChanges(page));
  const dom = changes.sort((a, b) => a.attributes + a.text + a.nodes - (b.attributes + b.text + b.nodes))[1];
  // The compare run (the whole log replayed under another shedder), chosen last so
  // the worker's core does not disturb the rounds: the time until the page answered
  // the choice (the frame after the painted one) and until the run's lines came.
  const compare = await page.evaluate(async () => {
    const select = document.querySelector('.chart .compare select');
    const option = [...select.options].find((o) => o.value.startsWith('loadBalancerLoadSheddingStrategy='));
    const t0 = performance.now();
    select.value = option.value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const answered = performance.now() - t0;
    while (document.querySelector('.compare-busy')) await new Promise((r) => setTimeout(r, 5));
    const lines = performance.now() - t0;
    const worker = performance.getEntriesByType('resource').some((e) => e.name.endsWith('/worker.js'));
    return { answered, lines, worker };
  });
  await page.close();
  // The redraw after a long play: the same cluster with LONG rounds in its log (opened
  // from its link, which replays them), then ten more rounds pressed and measured as above.
  console.error(`wasm: the redraw after ${long} rounds ...`);
  const longFile = join(out, `bench-pulsar-${topics}-long.json`);
  const longScenario = JSON.parse(readFileSync(file, 'utf8'));
  longScenario.actions = [...(longScenario.actions ?? []), ...Array.from({ length: long }, () => ({ op: 'step' }))];
  writeFileSync(longFile, JSON.stringify(longScenario));
  const longPage = await context.newPage();
  longPage.on('pageerror', (e) => errors.push(String(e)));
  await longPage.goto(execFileSync(cli, ['url', longFile, '--base', server.url], { encoding: 'utf8' }).trim(), { timeout: 600000 });
  await opened(longPage);
  await longPage.waitForFunction((n) => Number(document.querySelector('.this-round')?.dataset.round) >= n, long, { timeout: 600000 });
  const longWork = [];
  for (let i = 0; i < 13; i++) {
    const { script, frame } = await measure(longPage);
    const eng = await longPage.evaluate(() => window.lbscopeRoundMs);
    if (i >= 3) longWork.push(script - eng + frame);
  }
  const longElements = await longPage.evaluate(() => [document.querySelectorAll('*').length, document.querySelectorAll('.chart svg *').length]);
  await longPage.close();
  const wasm = readdirSync(DIST).find((f) => f.endsWith('.wasm'));
  const raw = readFileSync(join(DIST, wasm));
  const gz = gzipSync(raw, { level: 9 }).length;
  // The page times its reducer's Step press (`Store::reduce`: the engine's Step plus the
  // session's record of its events); the native figure of that same call is the
  // like-for-like one. The engine's Step alone is printed beside it.
  const ratio = median(engine) / native.store_median_ms;
  const engineRatio = median(engine) / native.median_ms;
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  // The rows of the performance table: the browser figure, the native one of the same run
  // beside it, the target, and whether it is met.
  const rows = [
    ['release wasm, gzipped (gzip -9)', `${(gz / 1000).toFixed(1)} KB (${(gz / 1024).toFixed(0)} KiB; ${(raw.length / 1e6).toFixed(2)} MB raw)`, '', '<= 350 KB', verdict(gz <= 350000)],
    ['Pulsar round (the page\'s Step press), median (min)', `${fmt(median(engine))} (${fmt(Math.min(...engine))})`, `${fmt(native.store_median_ms)} (${fmt(native.store_min_ms)})`, '', ''],
    ['Pulsar round, wasm / native (medians)', `${ratio.toFixed(2)}x`, '', '<= 1.5x', verdict(ratio <= 1.5)],
    ['  native: the engine\'s Step alone, median (min)', '', `${fmt(native.median_ms)} (${fmt(native.min_ms)})`, '', ''],
    ['  wasm round / native engine Step alone', `${engineRatio.toFixed(2)}x`, '', '', ''],
    ['redraw after a round: the page thread\'s work', `${fmt(median(work))} (max ${fmt(Math.max(...work))})`, '', '<= 16 ms', verdict(median(work) <= 16)],
    ['  script after the round (views, Yew, the DOM)', fmt(median(after)), '', '', ''],
    ['    of which the Pulsar tab\'s views from the engine', fmt(median(views)), '', '', ''],
    ...Object.entries(parts).map(([k, v]) => [`      ${k.replace('pulsar-views-', '')}`, fmt(median(v)), '', '', '']),
    ['  the frame that draws it (style, layout, paint)', fmt(median(paint)), '', '', ''],
    ['  DOM changes of a round (median of 3, not timed)', `${dom.attributes} attributes, ${dom.text} texts, ${dom.nodes} nodes of ${dom.elements} elements`, '', '', ''],
    ['  the same work with nothing pressed', fmt(median(idleWork)), '', '', ''],
    [`  after ${long} rounds in the log (10 more rounds)`, `${fmt(median(longWork))} (max ${fmt(Math.max(...longWork))})`, '', '<= 16 ms', verdict(median(longWork) <= 16)],
    ['    its page\'s elements (of which the chart\'s)', `${longElements[0]} (${longElements[1]})`, '', '', ''],
    ['key press to the second frame, less the round', fmt(median(wait)), '', '', ''],
    ['  the same wait with nothing pressed', fmt(median(idle)), '', '', ''],
    ['opening the scenario (setup replay + first draw)', fmt(openMs), `setup ${fmt(native.setup_ms)}`, '<= 2000 ms', verdict(openMs <= 2000)],
    ['  of which the replay, in parts', opening.replay === undefined ? 'in one go (not a heavy scenario)' : `${fmt(opening.replay)} in ${opening.parts} parts`, '', '', ''],
    ['  the longest part (the page does not answer)', opening.longest === undefined ? '' : fmt(opening.longest), '', '', ''],
    ['compare run chosen: the page answers it', fmt(compare.answered), '', '', compare.worker ? 'run in the engine worker' : 'run on the page'],
    ['  its lines drawn', fmt(compare.lines), '', '', ''],
    ['first render of the default page', fmt(firstRender), '', '<= 1000 ms', verdict(firstRender <= 1000)],
    ['first `make serve` on a fresh machine', 'not timed here', '', '<= 5 min', 'see docs/perf-log/'],
  ];
  console.log(`\nin-browser benchmark: 1,000 brokers, ${topics} topics, 16,384 bundles, ${rounds} rounds (headless Chromium; native = the release CLI, same scenario, same run)`);
  console.log(`${'figure'.padEnd(50)} ${'browser (wasm)'.padEnd(36)} ${'native'.padEnd(22)} ${'target'.padEnd(11)}`);
  for (const [a, b, c, d, e] of rows) console.log(`${a.padEnd(50)} ${b.padEnd(36)} ${c.padEnd(22)} ${d.padEnd(11)} ${e}`);
  if (errors.length) console.log('page errors:', errors);
} finally {
  await context.close();
  await server.close();
}
