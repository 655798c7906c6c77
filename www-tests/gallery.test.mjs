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
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite, openApp, screenshot, cargoTargetDir, releaseCli } from './harness.mjs';

const env = suite();

/** The native CLI: the newer of the release and the debug build. */
function cli(args) {
  const built = [releaseCli(), join(cargoTargetDir(), 'debug', 'lbscope')].filter((p) => existsSync(p));
  built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return execFileSync(built[0], args, { encoding: 'utf8' });
}

/** Every line of `preset --list`: slug, system slug, title. */
const listed = () => cli(['preset', '--list']).trim().split('\n').map((l) => {
  const [slug, system, title] = l.split('\t');
  return { slug, system, title };
});
/** The gallery's questions (their `--describe` has a diagnosis). */
const questions = () => listed().filter((e) => cli(['preset', e.slug, '--describe']).includes('\nDiagnosis: '));
/** The gallery's examples. */
const entries = () => {
  const q = new Set(questions().map((e) => e.slug));
  return listed().filter((e) => !q.has(e.slug));
};

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
  assert.equal(await page.locator('.example-entry[data-example]').count(), entries().length);
  assert.equal(await page.locator('.question-entry[data-question]').count(), questions().length);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await openGallery(page);
      await screenshot(page, `gallery-page-${w}-${scheme}`);
      await page.click('.example-entry[data-example="pulsar-flow-or-qps-case-1"] a');
      await cardRows(page, 'pulsar-flow-or-qps-case-1');
      await screenshot(page, `gallery-card-${w}-${scheme}`);
      await openGallery(page);
      await page.click('.question-entry[data-question="flink-uneven-tasks"] a');
      await page.waitForSelector('.question-card .compare-note, .question-card');
      await screenshot(page, `gallery-question-${w}-${scheme}`);
    }
  }
  assert.deepEqual(errors, []);
});

/** Check the card of question `q` against the native engine's diagnosis and its compare run. */
async function checkQuestion(page, q) {
  const card = page.locator(`.question-card[data-question="${q.slug}"]`);
  await card.waitFor({ timeout: 20000 });
  const native = cli(['preset', q.slug, '--describe']);
  const diagnosis = native.match(/\nDiagnosis: (.*)\n/)[1];
  const fixed = native.match(/\nWith the fix: (.*)\n/)[1];
  const key = native.match(/\nFix: (\S+) = /)[1];
  assert.equal(await card.locator('.diagnosis').textContent(), `Diagnosis: ${diagnosis}`);
  assert.equal(await card.locator('.fixed').textContent(), fixed);
  assert.notEqual(diagnosis, fixed);
  assert.equal(await page.textContent('button[role=tab][aria-selected=true]'), TAB[q.system]);
  // The compare run with the fix is on the chart.
  await page.waitForSelector('.compare-note', { timeout: 20000 });
  assert.match(await page.textContent('.compare-note'), new RegExp(key.replace(/\./g, '\\.')));
}

test('every question opens by its deep link and by one click, with its diagnosis and compare run', async () => {
  const list = questions();
  assert.ok(list.length >= 3, `${list.length} questions`);
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  for (const q of list) {
    await page.evaluate((h) => { location.hash = h; }, `#question=${q.slug}`);
    await checkQuestion(page, q);
    assert.equal(await page.evaluate(() => location.hash), `#question=${q.slug}`);
    await openGallery(page);
    await page.click(`.question-entry[data-question="${q.slug}"] a`);
    await checkQuestion(page, q);
  }
  assert.deepEqual(errors, []);
});
