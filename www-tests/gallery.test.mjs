// The examples gallery in the browser: every entry opened by its deep link
// (#example=<slug>) and by one click from the Gallery page, on its own tab in free
// play, with the card's numbers checked: the engine's value equals the document's
// where the entry says they agree, differs (with a reason) where it says the real
// code differs, and every engine value equals the native engine's (the CLI's
// `preset NAME --describe`). Entry points from the header and the start card, and
// screenshots at 1280×800 and 390×844, light and dark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { suite, openApp, screenshot, cargoTargetDir, releaseCli } from './harness.mjs';

const env = suite();

/** The native CLI (the release build when there is one, else the debug build). */
function cli(args) {
  const debug = join(cargoTargetDir(), 'debug', 'lbscope');
  const bin = existsSync(releaseCli()) ? releaseCli() : debug;
  return execFileSync(bin, args, { encoding: 'utf8' });
}

/** Every entry: slug, system slug, title. */
const entries = () => cli(['preset', '--list']).trim().split('\n').map((l) => {
  const [slug, system, title] = l.split('\t');
  return { slug, system, title };
});

const TAB = { pulsar: 'Pulsar', flink: 'Flink', kstreams: 'Kafka Streams' };

/** The card's rows as { label, doc, engine, why, differs }. */
async function cardRows(page, slug) {
  const card = page.locator(`.example-card[data-example="${slug}"]`);
  await card.waitFor({ timeout: 20000 });
  return card.locator('table.example-numbers tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    label: tr.querySelector('th').textContent,
    doc: tr.querySelector('.doc-value').textContent,
    engine: tr.querySelector('.engine-value').textContent,
    why: tr.querySelector('.why').textContent,
    differs: tr.classList.contains('differs'),
  })));
}

/** Check the card of `e` against the document and the native engine. */
async function checkCard(page, e) {
  const rows = await cardRows(page, e.slug);
  assert.ok(rows.length >= 1, `${e.slug}: numbers shown`);
  const native = cli(['preset', e.slug, '--describe']);
  for (const r of rows) {
    if (r.differs) {
      assert.notEqual(r.engine, r.doc, `${e.slug}: ${r.label} is said to differ`);
      assert.ok(r.why.length > 20, `${e.slug}: ${r.label} says why`);
    } else {
      assert.equal(r.engine, r.doc, `${e.slug}: ${r.label}`);
    }
    // The browser's engine computes what the native engine does.
    assert.ok(native.includes(`${r.label}: document ${r.doc}, engine ${r.engine}`),
      `${e.slug}: ${r.label} = ${r.engine} natively too:\n${native}`);
  }
  assert.equal(await page.textContent('button[role=tab][aria-selected=true]'), TAB[e.system]);
  assert.equal(await page.locator('.lesson-panel').count(), 0, `${e.slug}: free play, not a lesson`);
  const press = await page.textContent(`.example-card[data-example="${e.slug}"] .example-press`);
  assert.match(press, /^Press /);
}

test('every entry opens by its deep link, on its tab, with its numbers', async () => {
  const list = entries();
  assert.ok(list.length >= 20, `${list.length} entries`);
  const { page, errors } = await openApp(env.context, env.server.url + `?fresh#example=${list[0].slug}`);
  await checkCard(page, list[0]);
  // Followed within the page (a link, Back / Forward): the hash changes.
  for (const e of list.slice(1)) {
    await page.evaluate((h) => { location.hash = h; }, `#example=${e.slug}`);
    await checkCard(page, e);
    assert.equal(await page.evaluate(() => location.hash), `#example=${e.slug}`);
  }
  // A fresh load of a link opens it too.
  const last = list[list.length - 1];
  await page.goto(env.server.url + `?fresh&x=1#example=${last.slug}`);
  await checkCard(page, last);
  // An unknown example keeps the work on screen and says so.
  await page.evaluate(() => { location.hash = '#example=no-such-example'; });
  await page.waitForSelector('[role=alert]');
  assert.match(await page.textContent('[role=alert]'), /no-such-example/);
  assert.deepEqual(errors, []);
});

/** Show the Gallery page (the header button toggles it). */
async function openGallery(page) {
  if (await page.locator('.gallery-page').count() === 0) await page.click('header .gallery-button');
  await page.waitForSelector('.gallery-page');
}

test('every entry opens in one click from the Gallery page', async () => {
  const list = entries();
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  for (const e of list) {
    await openGallery(page);
    const entry = page.locator(`.example-entry[data-example="${e.slug}"]`);
    assert.match(await entry.textContent(), new RegExp(e.title.replace(/[()]/g, '.')));
    await entry.locator('a').click();
    await checkCard(page, e);
    assert.equal(await page.evaluate(() => location.hash), `#example=${e.slug}`);
  }
  // Pressing what the card says reaches the document's situation's result:
  // figure (i), one Schedule, three tasks on each TaskManager.
  await openGallery(page);
  await page.click('.example-entry[data-example="flink-figure-i"] a');
  await page.click('#step');
  await page.waitForFunction(() => !location.hash.startsWith('#example='));
  assert.deepEqual(errors, []);
});

test('the start card leads to the gallery; screenshots', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh');
  await page.waitForSelector('.start-here');
  await page.click('.start-here .start-gallery');
  await page.waitForSelector('.gallery-page');
  assert.equal(await page.locator('.example-entry').count(), entries().length);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await openGallery(page);
      await screenshot(page, `gallery-page-${w}-${scheme}`);
      await page.click('.example-entry[data-example="pulsar-flow-or-qps-case-1"] a');
      await cardRows(page, 'pulsar-flow-or-qps-case-1');
      await screenshot(page, `gallery-card-${w}-${scheme}`);
    }
  }
  assert.deepEqual(errors, []);
});
