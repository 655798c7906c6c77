// Sharing beyond the link: the embed view inside another site's page, the SVG / PNG export of
// each view, and "Copy as Markdown".
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openApp, screenshot, suite, OUTPUT } from './harness.mjs';

const env = suite();

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
  const { page: app, errors: appErrors } = await openApp(env.context, env.server.url);
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
  assert.match(await frame.locator('.embed-decision').textContent(), /^#\d+: /);
  // Keys work while the frame has the focus: n steps once more, u undoes it.
  const stepped = await frame.locator('.embed').getAttribute('data-cursor');
  await frame.locator('.embed-view').click();
  await page.keyboard.press('n');
  await frame.locator(`.embed:not([data-cursor="${stepped}"])`).waitFor();
  await page.keyboard.press('u');
  await frame.locator(`.embed[data-cursor="${stepped}"]`).waitFor();
  const open = await frame.locator('a.embed-open').getAttribute('href');
  assert.ok(open.startsWith(env.server.url + '#s='), open);
  await mkdir(OUTPUT, { recursive: true });
  await screenshot(page, 'share-embed-host');
  const origins = new Set(requests.filter((u) => u.startsWith('http')).map((u) => new URL(u).origin));
  assert.deepEqual([...origins].sort(), [new URL(host.url).origin, new URL(env.server.url).origin].sort());
  assert.deepEqual(errors, []);
  assert.deepEqual(appErrors, []);
  // The embed (same origin as the app, so the same localStorage) wrote no autosave.
  assert.equal(await app.evaluate(() => localStorage.getItem('lbscope.autosave')), savedBefore);
});

test('without "allow stepping" the embed is read-only; the full playground refuses to run framed', async () => {
  const { page: app } = await openApp(env.context, env.server.url);
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

for (const [tab, views] of [['Pulsar', ['ring', 'brokers']], ['Flink', ['slots']], ['Kafka Streams', ['instances']]]) {
  test(`${tab}: each view exports as SVG and PNG`, async () => {
    const { page, errors } = await openApp(env.context, env.server.url);
    await page.click(`button[role="tab"]:has-text("${tab}")`);
    await page.keyboard.press('n');
    await page.click('.share-menu > summary');
    for (const view of views) {
      await page.selectOption('.share-body select', view);
      const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-share="svg"]')]);
      const svg = await readFile(await svgDl.path(), 'utf8');
      assert.match(svgDl.suggestedFilename(), new RegExp(`^lbscope-\\w+-${view}-\\d+\\.svg$`));
      assert.match(svg, new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg"[^>]* data-view="${view}"`));
      await writeFile(join(OUTPUT, `share-export-${view}.svg`), svg);
      const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-share="png"]')]);
      const png = await readFile(await pngDl.path());
      assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG file');
      // Twice the SVG's width (IHDR width at bytes 16..20).
      const width = png.readUInt32BE(16);
      const svgWidth = Number(/width="([\d.]+)"/.exec(svg)[1]);
      assert.equal(width, Math.round(svgWidth * 2));
      await writeFile(join(OUTPUT, `share-export-${view}.png`), png);
    }
    await screenshot(page, `share-menu-${views[0]}`);
    assert.deepEqual(errors, []);
  });
}

test('Copy as Markdown quotes the brokers, the latest decision and the link', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
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
