// Where the browser spends a Pulsar round (not a test: it prints a profile).
// Usage: LBSCOPE_DIST=<dist with a names-keeping wasm> node www-tests/bench/profile.mjs [TOPICS] [ROUNDS]
// `make profile` builds that dist (profile wasm-profile) and runs this.
//
// Opens the benchmark scenario (as browser-bench.mjs does), records Chromium's
// CPU profile over ROUNDS Step key presses (each waited to its painted frame),
// and prints the functions with the most self time and most total time.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { out, step as stepOn, withBenchmarkPage } from './open.mjs';

const topics = Number(process.argv[2] ?? 200000);
const rounds = Number(process.argv[3] ?? 10);

await withBenchmarkPage(topics, async ({ page, context }) => {
  const step = () => stepOn(page);
  for (let i = 0; i < 3; i++) await step();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const totals = [];
  for (let i = 0; i < rounds; i++) totals.push(await step());
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync(join(out, 'round.cpuprofile'), JSON.stringify(profile));

  // Self time per node, then per function name; total time via the parent chain.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (dt[i + 1] ?? 0) / 1000);
  }
  const selfBy = new Map();
  const totalBy = new Map();
  const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'program'})`;
  for (const [id, ms] of self) {
    selfBy.set(name(byId.get(id)), (selfBy.get(name(byId.get(id))) ?? 0) + ms);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const nm = name(byId.get(cur));
      if (seen.has(nm)) continue;
      seen.add(nm);
      totalBy.set(nm, (totalBy.get(nm) ?? 0) + ms);
    }
  }
  const all = totals.reduce((a, b) => a + b, 0);
  const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  const short = (s) => (s.length > 110 ? s.slice(0, 107) + '...' : s);
  console.log(`${rounds} rounds, ${topics} topics: ${(all / rounds).toFixed(1)} ms per round (key press to painted frame)`);
  console.log('\nself time per round:');
  for (const [n, ms] of top(selfBy, 30)) console.log(`${(ms / rounds).toFixed(2).padStart(9)} ms  ${short(n)}`);
  console.log('\ntotal time per round:');
  for (const [n, ms] of top(totalBy, 45)) console.log(`${(ms / rounds).toFixed(2).padStart(9)} ms  ${short(n)}`);
});
