// Where a Pulsar round's redraw goes in Chromium's own pipeline (not a test: it prints figures).
// Usage: node www-tests/bench/trace.mjs [TOPICS] [ROUNDS]
//
// Opens the benchmark scenario (as browser-bench.mjs does), records a Chrome trace
// over ROUNDS Step key presses (each waited to its painted frame), and prints per
// round the time of the main thread's script (the wasm and its bindings), style
// recalculation, layout, pre-paint / paint / layerize and the raster / commit,
// plus the largest style and layout passes (with how many elements they touched).
// The trace is written to www-tests/output/round.trace.json (opens in chrome://tracing
// or DevTools' Performance panel). TRACE_STYLE='selector{prop:value}' sets a style on
// the page's elements first (`display:none` on a panel: what its layout costs);
// TRACE_INVALIDATIONS=1 also records which nodes were invalidated and why.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { out, step as stepOn, withBenchmarkPage } from './open.mjs';

const topics = Number(process.argv[2] ?? 200000);
const rounds = Number(process.argv[3] ?? 10);

await withBenchmarkPage(topics, async ({ page, context }) => {
  // TRACE_STYLE='selector{prop:value;...}' (several, ';;'-separated): style set on the
  // matching elements for an experiment (what a panel's layout costs: `display:none`).
  if (process.env.TRACE_STYLE) {
    await page.evaluate((rules) => {
      for (const r of rules.split(';;')) {
        const [sel, body] = r.split('{');
        for (const decl of body.replace('}', '').split(';').filter(Boolean)) {
          const [k, v] = decl.split(':');
          document.querySelectorAll(sel).forEach((e) => e.style.setProperty(k.trim(), v.trim()));
        }
      }
    }, process.env.TRACE_STYLE);
  }
  const step = () => stepOn(page);
  for (let i = 0; i < 3; i++) await step();
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'v8.execute']
        // TRACE_INVALIDATIONS=1: also which nodes were invalidated and why (slows the page down).
        .concat(process.env.TRACE_INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []),
      recordMode: 'recordAsMuchAsPossible',
    },
  });
  const totals = [];
  for (let i = 0; i < rounds; i++) totals.push(await step());
  await cdp.send('Tracing.end');
  await done;
  writeFileSync(join(out, 'round.trace.json'), JSON.stringify({ traceEvents: events }));

  // The renderer's main thread: the thread that ran the most "UpdateLayoutTree" events.
  const count = new Map();
  for (const e of events) if (e.name === 'UpdateLayoutTree' || e.name === 'Layout') count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined);
  const groups = {
    'script (FunctionCall, EventDispatch, timers, rAF)': ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'v8.callFunction', 'RunMicrotasks'],
    'style (UpdateLayoutTree)': ['UpdateLayoutTree'],
    'layout (Layout)': ['Layout'],
    'pre-paint': ['PrePaint'],
    'paint': ['Paint', 'PaintImage'],
    'layerize / commit': ['Layerize', 'Commit', 'UpdateLayer', 'UpdateLayerTree'],
    'hit test / scroll': ['HitTest', 'ScrollLayer'],
  };
  // Self time: an event's duration minus its children's on the same thread.
  const sorted = [...onMain].sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  const self = new Map();
  for (const e of sorted) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    if (stack.length) {
      const p = stack[stack.length - 1];
      self.set(p, (self.get(p) ?? p.dur) - e.dur);
    }
    self.set(e, self.get(e) ?? e.dur);
    stack.push(e);
  }
  const byName = new Map();
  for (const [e, us] of self) byName.set(e.name, (byName.get(e.name) ?? 0) + us / 1000);
  const all = totals.reduce((a, b) => a + b, 0);
  console.log(`${rounds} rounds, ${topics} topics: ${(all / rounds).toFixed(1)} ms per round (key press to painted frame)`);
  console.log('\nmain thread, self time per round:');
  for (const [g, names] of Object.entries(groups)) {
    const ms = names.reduce((s, n) => s + (byName.get(n) ?? 0), 0);
    console.log(`${(ms / rounds).toFixed(2).padStart(9)} ms  ${g}`);
  }
  console.log('\nevery main-thread event name, self time per round (top 25):');
  for (const [n, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(ms / rounds).toFixed(2).padStart(9)} ms  ${n}`);
  const big = (name) => onMain.filter((e) => e.name === name).sort((a, b) => b.dur - a.dur).slice(0, 5);
  console.log('\nlargest style passes (ms, elements):');
  for (const e of big('UpdateLayoutTree')) console.log(`${(e.dur / 1000).toFixed(2).padStart(9)}  ${e.args?.elementCount ?? '?'}`);
  console.log('\nlargest layouts (ms, dirty objects / total objects):');
  for (const e of big('Layout')) console.log(`${(e.dur / 1000).toFixed(2).padStart(9)}  ${e.args?.beginData?.dirtyObjects ?? '?'} / ${e.args?.beginData?.totalObjects ?? '?'}  partial=${e.args?.beginData?.partialLayout ?? '?'}`);
  // Other threads (the compositor, raster workers): total time per round.
  const other = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || `${e.pid}:${e.tid}` === main) continue;
    if (!['RasterTask', 'ImageDecodeTask', 'DrawFrame', 'ProxyMain::BeginMainFrame::commit'].includes(e.name)) continue;
    other.set(e.name, (other.get(e.name) ?? 0) + e.dur / 1000);
  }
  console.log('\noff the main thread, per round:');
  for (const [n, ms] of other) console.log(`${(ms / rounds).toFixed(2).padStart(9)} ms  ${n}`);
});
