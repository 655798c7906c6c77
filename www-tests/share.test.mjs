// Sharing beyond the link: the embed view inside another site's page, the SVG / PNG export of
// each view (and the metrics chart), and "Copy as Markdown" of the latest decision or of a range
// of rounds. The app is served by the project's own server (lbscope-webbuild serve), whose
// framing headers let only embed links be framed by other sites.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { readFile, writeFile, mkdir, access } from 'node:fs/promises';
import { join } from 'node:path';
import { openApp, screenshot, suite, OUTPUT, DIST, cargoTargetDir } from './harness.mjs';

const env = suite();
const WEBBUILD = process.env.LBSCOPE_WEBBUILD
  ?? join(cargoTargetDir(), 'webbuild', 'lbscope-webbuild');

/** `lbscope-webbuild serve` on a port the system picks; resolves to its URL. */
async function projectServer() {
  await access(WEBBUILD).catch(() => {
    throw new Error(`${WEBBUILD} is missing: build it with \`make webbuild\``);
  });
  const child = spawn(WEBBUILD, ['serve', '--dir', DIST, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) ok(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`lbscope-webbuild serve exited (${code}): ${out}`)));
  });
  return { url, close: () => child.kill() };
}

/** The app's address: the project's server (set before the tests run). */
const lb = { url: undefined, server: undefined };
before(async () => {
  lb.server = await projectServer();
  lb.url = lb.server.url;
});
after(() => lb.server?.close());

/** A "course page" on another port of 127.0.0.1: whatever HTML the test gives it. */
async function hostPage(html) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

const hosts = [];
after(async () => { for (const h of hosts) await h.close(); });

/** The Embed snippet the playground copies for its current scenario. */
async function snippet(page, { controls = true } = {}) {
  await page.click('.share-menu > summary');
  const box = page.locator('.share-body input[type="checkbox"]');
  if ((await box.isChecked()) !== controls) await box.click();
  await page.click('button[data-share="embed"]');
  const out = page.locator('textarea[data-share-out="embed"]');
  await out.waitFor();
  const text = await out.inputValue();
  await page.click('.share-menu > summary');
  return text;
}

/** Open `html` on another origin, collecting console errors and every request. */
async function openHost(html) {
  const host = await hostPage(`<!doctype html><html><head><title>A course page</title></head><body>
    <h1>How Pulsar places bundles</h1><p>Step the cluster below.</p>${html}</body></html>`);
  hosts.push(host);
  const page = await env.context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(host.url);
  return { page, errors, requests, host };
}

test('an embed snippet renders inside a page on another port and steps there', async () => {
  const { page: app, errors: appErrors } = await openApp(env.context, lb.url);
  await app.click('button[role="tab"]:has-text("Pulsar")');
  const html = await snippet(app);
  assert.match(html, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=ring&amp;controls#s=/);
  const savedBefore = await app.evaluate(() => localStorage.getItem('lbscope.autosave'));
  const { page, errors, requests, host } = await openHost(html.replace('<iframe ', '<iframe id="lb" '));
  const frame = page.frameLocator('#lb');
  await frame.locator('.embed svg path[data-bundle]').first().waitFor({ timeout: 20000 });
  // Only the view and its bar: no tabs, toolbar, deck or settings.
  assert.equal(await frame.locator('button[role="tab"], .toolbar, .deck').count(), 0);
  const before = await frame.locator('.embed').getAttribute('data-cursor');
  const caption = async () => frame.locator('.embed svg > text').nth(2).textContent();
  const first = await caption();
  await frame.locator('.embed-bar button:has-text("Step")').click();
  await frame.locator(`.embed:not([data-cursor="${before}"])`).waitFor();
  assert.notEqual(await caption(), first, 'the caption moved to the next round');
  await frame.locator('.embed-decision').waitFor();
  // The latest decision in one line: after a Step, the round's summary.
  assert.match(await frame.locator('.embed-decision').textContent(), /^round \d+ \(t = \d+ s\): \d+ brokers/);
  // Keys work while the frame has the focus: n steps once more, u undoes it.
  const stepped = await frame.locator('.embed').getAttribute('data-cursor');
  await frame.locator('.embed-view').click();
  await page.keyboard.press('n');
  await frame.locator(`.embed:not([data-cursor="${stepped}"])`).waitFor();
  await page.keyboard.press('u');
  await frame.locator(`.embed[data-cursor="${stepped}"]`).waitFor();
  const open = await frame.locator('a.embed-open').getAttribute('href');
  assert.ok(open.startsWith(lb.url + '#s='), open);
  await mkdir(OUTPUT, { recursive: true });
  await screenshot(page, 'share-embed-host');
  const origins = new Set(requests.filter((u) => u.startsWith('http')).map((u) => new URL(u).origin));
  assert.deepEqual([...origins].sort(), [new URL(host.url).origin, new URL(lb.url).origin].sort());
  assert.deepEqual(errors, []);
  assert.deepEqual(appErrors, []);
  // The embed (same origin as the app, so the same localStorage) wrote no autosave.
  assert.equal(await app.evaluate(() => localStorage.getItem('lbscope.autosave')), savedBefore);
});

test('the server sends framing headers: an embed link may be framed by any page, the playground by none', async () => {
  const headers = async (path) => {
    const r = await fetch(new URL(path, lb.url));
    assert.equal(r.status, 200, path);
    return { csp: r.headers.get('content-security-policy'), xfo: r.headers.get('x-frame-options') };
  };
  assert.deepEqual(await headers('/'), { csp: "frame-ancestors 'none'", xfo: 'DENY' });
  assert.deepEqual(await headers('/index.html'), { csp: "frame-ancestors 'none'", xfo: 'DENY' });
  assert.deepEqual(await headers('/?embed=ring&controls'), { csp: 'frame-ancestors *', xfo: null });
  assert.deepEqual(await headers('/?embed'), { csp: 'frame-ancestors *', xfo: null });
  // Scripts, styles and the wasm are not documents: no framing header.
  const html = await (await fetch(lb.url)).text();
  const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1] ?? /import[^'"]*['"]([^'"]+\.js)['"]/.exec(html)?.[1];
  assert.ok(script, 'the page loads a script');
  const js = await fetch(new URL(script, lb.url));
  assert.equal(js.status, 200, script);
  assert.equal(js.headers.get('content-security-policy'), null);
});

test('the browser refuses to frame the playground from another site; an embed on the same page runs', async () => {
  const { page: app } = await openApp(env.context, lb.url);
  await app.click('button[role="tab"]:has-text("Pulsar")');
  const html = await snippet(app);
  const { page, errors } = await openHost(`${html.replace('<iframe ', '<iframe id="lb" ')}
    <iframe id="full" src="${lb.url}" width="600" height="200"></iframe>`);
  await page.frameLocator('#lb').locator('.embed svg path[data-bundle]').first().waitFor({ timeout: 20000 });
  const full = await (await page.locator('#full').elementHandle()).contentFrame();
  // A refused frame is left on the browser's error page: the app never loads in it.
  for (let i = 0; i < 100 && !full.url().startsWith('chrome-error:'); i++) await page.waitForTimeout(100);
  assert.match(full.url(), /^chrome-error:/, `the playground was framed: ${full.url()}`);
  assert.equal(await full.locator('#app, .embed, main').count(), 0);
  await screenshot(page, 'share-frame-refused');
  // The only console errors are the browser's report of that refusal.
  assert.deepEqual(errors.filter((e) => !/frame-ancestors/.test(e)), []);
});

test('without "allow stepping" the embed is read-only; served without framing headers, the full playground still refuses to run framed', async () => {
  const { page: app } = await openApp(env.context, lb.url);
  await app.click('button[role="tab"]:has-text("Flink")');
  const html = await snippet(app, { controls: false });
  assert.match(html, /\?embed=slots#s=/);
  const { page, errors } = await openHost(`${html.replace('<iframe ', '<iframe id="lb" ')}
    <iframe id="full" src="${env.server.url}" width="600" height="200"></iframe>`);
  const frame = page.frameLocator('#lb');
  await frame.locator('.embed svg [data-slot]').first().waitFor({ timeout: 20000 });
  assert.equal(await frame.locator('.embed-bar button').count(), 0);
  const cursor = await frame.locator('.embed').getAttribute('data-cursor');
  await frame.locator('.embed-view').click();
  await page.keyboard.press('n');
  await page.waitForTimeout(300);
  assert.equal(await frame.locator('.embed').getAttribute('data-cursor'), cursor);
  await page.frameLocator('#full').locator('.embed-refused a.embed-open').waitFor({ timeout: 20000 });
  await screenshot(page, 'share-embed-readonly');
  assert.deepEqual(errors, []);
});

for (const [tab, views] of [['Pulsar', ['ring', 'brokers', 'chart']], ['Flink', ['slots', 'chart']], ['Kafka Streams', ['instances', 'chart']]]) {
  test(`${tab}: each view exports as SVG and PNG`, async () => {
    const { page, errors } = await openApp(env.context, lb.url);
    await page.click(`button[role="tab"]:has-text("${tab}")`);
    await page.keyboard.press('n');
    await page.click('.share-menu > summary');
    for (const view of views) {
      await page.selectOption('.share-body select', view);
      const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-share="svg"]')]);
      const svg = await readFile(await svgDl.path(), 'utf8');
      assert.match(svgDl.suggestedFilename(), new RegExp(`^lbscope-\\w+-${view}-\\d+\\.svg$`));
      assert.match(svg, new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg"[^>]* data-view="${view}"`));
      await writeFile(join(OUTPUT, `share-export-${tab.replace(' ', '')}-${view}.svg`), svg);
      const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-share="png"]')]);
      const png = await readFile(await pngDl.path());
      assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG file');
      // Twice the SVG's width (IHDR width at bytes 16..20).
      const width = png.readUInt32BE(16);
      const svgWidth = Number(/width="([\d.]+)"/.exec(svg)[1]);
      assert.equal(width, Math.round(svgWidth * 2));
      await writeFile(join(OUTPUT, `share-export-${tab.replace(' ', '')}-${view}.png`), png);
    }
    await screenshot(page, `share-menu-${views[0]}`);
    assert.deepEqual(errors, []);
  });
}

test('Copy as Markdown quotes the brokers, the latest decision and the link', async () => {
  const { page, errors } = await openApp(env.context, lb.url);
  await page.click('button[role="tab"]:has-text("Pulsar")');
  await page.keyboard.press('n');
  await page.click('.share-menu > summary');
  await page.click('button[data-share="markdown"]');
  const md = await page.locator('textarea[data-share-out="markdown"]').inputValue();
  assert.match(md, /^\*\*lbscope · Pulsar\*\* — \d+ brokers/);
  assert.match(md, /\| broker \| load % \|/);
  assert.match(md, /\*\*Decision of action #\d+\*\*/);
  const link = await page.evaluate(() => location.href);
  assert.ok(md.trim().endsWith(`[Open this scenario in lbscope](${link})`), md);
  assert.deepEqual(errors, []);
});

test('Copy rounds as Markdown quotes a range of rounds with the state after it and its link', async () => {
  const { page, errors } = await openApp(env.context, lb.url);
  await page.click('button[role="tab"]:has-text("Pulsar")');
  for (let i = 0; i < 3; i++) await page.keyboard.press('n');
  await page.click('.share-menu > summary');
  // Empty fields: the latest round.
  await page.click('button[data-share="markdown-range"]');
  const out = page.locator('textarea[data-share-out="markdown-range"]');
  await out.waitFor();
  const latest = Number(/^Round (\d+) \(log actions #/m.exec(await out.inputValue())?.[1]);
  assert.ok(latest >= 3, `latest round: ${latest}`);
  await page.fill('input[data-share-range="from"]', String(latest - 2));
  await page.fill('input[data-share-range="to"]', String(latest - 1));
  await page.click('button[data-share="markdown-range"]');
  await page.waitForFunction(() => /^Rounds /m.test(document.querySelector('textarea[data-share-out="markdown-range"]').value));
  const md = await out.inputValue();
  assert.match(md, /^\*\*lbscope · Pulsar\*\* — \d+ brokers/);
  assert.match(md, new RegExp(`^Rounds ${latest - 2}–${latest - 1} \\(log actions #\\d+–#\\d+\\); the state after them: round ${latest - 1} `, 'm'));
  assert.match(md, new RegExp(`\\*\\*Round ${latest - 2}\\*\\* \\(log action #\\d+, \\d+ events?\\)`));
  assert.match(md, new RegExp(`\\*\\*Round ${latest - 1}\\*\\*`));
  assert.doesNotMatch(md, new RegExp(`\\*\\*Round ${latest}\\*\\*`));
  assert.match(md, /\| broker \| load % \|/);
  // The link opens the scenario after the range, not at the page's cursor.
  const link = /\[Open this scenario in lbscope\]\((.+)\)\s*$/.exec(md)[1];
  assert.notEqual(link, await page.evaluate(() => location.href));
  const opened = await env.context.newPage();
  await opened.goto(link);
  await opened.waitForSelector('main section.tab-body');
  const roundOf = (md) => /round (\d+)/.exec(md)[1];
  await opened.click('.share-menu > summary');
  await opened.click('button[data-share="markdown"]');
  const there = await opened.locator('textarea[data-share-out="markdown"]').inputValue();
  assert.equal(roundOf(there.split('\n')[1]), String(latest - 1), there);
  await opened.close();
  // A range that was not played is said in the menu.
  await page.fill('input[data-share-range="from"]', String(latest - 1));
  await page.fill('input[data-share-range="to"]', String(latest + 5));
  await page.click('button[data-share="markdown-range"]');
  const why = await page.locator('[data-share-error="range"]').textContent();
  assert.match(why, new RegExp(`no round ${latest + 5}: rounds \\d+ to ${latest} were played`));
  // The earlier quote's "Copied" line is gone, so it cannot read as this attempt's.
  assert.equal(await page.locator('textarea[data-share-out]').count(), 0);
  await screenshot(page, 'share-markdown-range');
  assert.deepEqual(errors, []);
});
