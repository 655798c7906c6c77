// The benchmark cluster opened in headless Chromium, for the scripts in this folder
// that look inside a round (profile.mjs, trace.mjs; not a test).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, releaseCli } from '../harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = releaseCli();
/** Where the scripts write what they record. */
export const out = join(root, 'www-tests', 'output');

/**
 * Have the release CLI write the Pulsar benchmark cluster with `topics` topics as a
 * scenario, open it as a share link, wait for its ring, run `body({ page, context })`
 * and close the browser and the server whatever happens.
 */
export async function withBenchmarkPage(topics, body) {
  mkdirSync(out, { recursive: true });
  const file = join(out, `bench-pulsar-${topics}.json`);
  execFileSync(cli, ['bench', '--browser-scenario', file, '--topics', String(topics), '--rounds', '1'], { encoding: 'utf8' });
  const server = await serveDist();
  const context = await launch();
  try {
    const link = execFileSync(cli, ['url', file, '--base', server.url], { encoding: 'utf8' }).trim();
    const page = await context.newPage();
    await page.goto(link, { timeout: 600000 });
    await opened(page);
    return await body({ page, context });
  } finally {
    await context.close();
    await server.close();
  }
}

/**
 * Wait until the scenario a link opens is open: a heavy one is announced, replayed a
 * part at a time (the default tab's ring is on the page meanwhile), then drawn, so
 * the announcement must have come and gone before the ring counts.
 */
export async function opened(page) {
  await page.waitForSelector('.notice.opening', { timeout: 10000 }).catch(() => {});
  await page.waitForSelector('.notice.opening', { state: 'detached', timeout: 600000 });
  await page.waitForSelector('svg.ring, canvas.ring', { timeout: 600000 });
}

/**
 * Press `key` (Step, `n`, by default; `null` presses nothing) and wait for the frame
 * after the painted one: the milliseconds it took.
 */
export function step(page, key = 'n') {
  return page.evaluate(async (key) => {
    const start = performance.now();
    if (key) document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - start;
  }, key);
}

/**
 * Press `key` as `step` does and time the same wait to the frame after the painted one
 * (`total`), and also the page thread's own work for the press, without the time it
 * spends waiting for the display's next frame:
 * - `script`: from the press until the microtasks it queued have run (the round, then
 *   Yew's render, which runs in a microtask the press queued);
 * - `frame`: the first frame after the press, from its animation-frame callbacks to
 *   the end of its style, layout and paint (a message posted from the callback
 *   arrives once they are done).
 * `script + frame` is what must fit in one 16 ms frame; with nothing pressed it is
 * close to zero, where `total` waits about two frames whatever is drawn. (A render
 * longer than Yew's 16 ms slice goes on in a later task, which `script` leaves out;
 * `trace.mjs` counts every task.)
 */
export function measure(page, key = 'n') {
  return page.evaluate(async (key) => {
    const start = performance.now();
    if (key) document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    let drawn;
    const frame = new Promise((ok) => { drawn = ok; });
    const painted = new Promise((done) => {
      requestAnimationFrame(() => {
        const frameStart = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => drawn(performance.now() - frameStart);
        channel.port2.postMessage(0);
        requestAnimationFrame(() => done(performance.now() - start));
      });
    });
    await Promise.resolve();
    const script = performance.now() - start;
    const [total, drawing] = await Promise.all([painted, frame]);
    return { total, script, frame: drawing };
  }, key);
}

/**
 * Press `key` and count what the page changes in the DOM until the frame after the
 * painted one (a MutationObserver over the whole body): attribute writes, text
 * writes and nodes added or removed. Not timed: the observer itself costs time, so
 * the timed rounds run without it.
 */
export function domChanges(page, key = 'n') {
  return page.evaluate(async (key) => {
    const counts = { attributes: 0, text: 0, nodes: 0 };
    const count = (ms) => {
      for (const m of ms) {
        if (m.type === 'attributes') counts.attributes++;
        else if (m.type === 'characterData') counts.text++;
        else counts.nodes += m.addedNodes.length + m.removedNodes.length;
      }
    };
    const observer = new MutationObserver(count);
    observer.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    count(observer.takeRecords());
    observer.disconnect();
    return { ...counts, elements: document.getElementsByTagName('*').length };
  }, key);
}
