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
import { suite, openApp, screenshot, cargoTargetDir, releaseCli, unfold } from './harness.mjs';

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
const questions = () => listed()
  .filter((e) => e.title !== 'A large cluster')
  .filter((e) => cli(['preset', e.slug, '--describe']).includes('\nDiagnosis: '));
/** The large-cluster presets (listed last, titled "A large cluster"). */
const large = () => listed().filter((e) => e.title === 'A large cluster');
/** The gallery's examples. */
const entries = () => {
  const q = new Set([...questions(), ...large()].map((e) => e.slug));
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

test('the start card points to the gallery; screenshots', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh');
  await page.waitForSelector('.start-here');
  assert.match(await page.textContent('.start-here'), new RegExp(`Gallery at the top list every lesson and the documents' ${entries().length} worked examples`));
  await openGallery(page);
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

/** Press Redo `n` times (each waits for the button). */
async function redo(page, n) {
  for (let i = 0; i < n; i++) {
    const b = page.locator('button[title="Redo (r)"]');
    await page.waitForFunction(() => !document.querySelector('button[title="Redo (r)"]').disabled);
    await b.click();
  }
}

test('the ring writes each Pulsar example\'s hex numbers on the picture', async () => {
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  let checked = 0;
  for (const e of entries().filter((x) => x.system === 'pulsar')) {
    await page.evaluate((h) => { location.hash = h; }, `#example=${e.slug}`);
    const rows = await cardRows(page, e.slug);
    const hexes = [...new Set(rows.flatMap((r) => r.engine.match(/0x[0-9a-f]{8}/g) ?? []))]
      .filter((h) => h !== '0x00000000' && h !== '0xffffffff');
    if (hexes.length === 0) continue;
    const press = await page.textContent(`.example-card[data-example="${e.slug}"] .example-press`);
    assert.match(press, /^Press Redo/, e.slug);
    await redo(page, /Redo three times/.test(press) ? 3 : /Redo twice/.test(press) ? 2 : 1);
    // Written on the ring as text (a boundary outside it, a topic's hash inside), not a tooltip.
    await page.waitForFunction((hs) => {
      const t = [...document.querySelectorAll('.ring-pane svg.ring text.boundary-label, .ring-pane svg.ring text.hash-label')]
        .map((x) => x.textContent).join(' ');
      return hs.every((h) => t.includes(h));
    }, hexes, { timeout: 10000 }).catch(async () => {
      const t = await page.locator('.ring-pane svg.ring text').allTextContents();
      assert.fail(`${e.slug}: ${hexes} not all on the ring: ${t}`);
    });
    checked += 1;
  }
  assert.ok(checked >= 6, `${checked} examples checked`);
  await page.evaluate(() => { location.hash = '#example=pulsar-split-partitions'; });
  await cardRows(page, 'pulsar-split-partitions');
  await redo(page, 1);
  await page.waitForSelector('.ring-pane svg.ring text[data-boundary-label="0x40000000"]');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('.ring-pane svg.ring').scrollIntoViewIfNeeded();
      await screenshot(page, `gallery-ring-labels-${w}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
});

test('the new questions show their symptom on the picture', async () => {
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  // Two of three brokers own the bundles that hold the partitions.
  await page.evaluate(() => { location.hash = '#question=pulsar-partitions-two-brokers'; });
  await page.waitForSelector('.question-card[data-question="pulsar-partitions-two-brokers"]');
  const owners = await page.locator('.ring-pane svg.ring path.arc').evaluateAll((els) => [...new Set(els.map((e) => e.dataset.owner))]);
  assert.equal(owners.length, 2, `${owners}`);
  assert.match(await page.textContent('.question-card .diagnosis'), /served by 2 of the 3 brokers/);
  // The bundle that bounced is back on broker-2, as the diagnosis says.
  await page.evaluate(() => { location.hash = '#question=pulsar-bundles-bounce'; });
  await page.waitForSelector('.question-card[data-question="pulsar-bundles-bounce"]');
  const d = await page.textContent('.question-card .diagnosis');
  const [, bundle] = d.match(/Placing (public\/default\/0x[0-9a-f_x]+),/);
  assert.equal(await page.getAttribute(`.ring-pane svg.ring path.arc[data-bundle="${bundle}"]`, 'data-owner'), 'broker-2');
  assert.match(d, /removed broker-1 and broker-3 from the candidates/);
  // Two sources, each its own link, apart.
  assert.match(await page.textContent('.question-card .example-kicker'), /apache\/pulsar#16059, apache\/pulsar#8492/);
  // app-4 runs no active task at first: a fresh link at the join shows it idle.
  await page.evaluate(() => { location.hash = '#question=kstreams-new-instance-idle'; });
  await page.waitForSelector('.question-card[data-question="kstreams-new-instance-idle"]');
  await page.waitForSelector('[data-instance="app-4"]');
  assert.match(await page.textContent('.question-card .diagnosis'), /app-4 joined with no state and ran its first 1 active task\(s\) 600 s after it joined/);
  assert.match(await page.textContent('.compare-note'), /probing\.rebalance\.interval\.ms/);
  assert.deepEqual(errors, []);
});

test('large clusters open in one click, counted and in natural order', async () => {
  const names = large().map((e) => e.slug);
  assert.deepEqual(names, ['pulsar-large', 'flink-large', 'kstreams-large']);
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  await openGallery(page);
  await page.click('.example-entry[data-preset="pulsar-large"] button');
  await page.waitForSelector('.ring-pane svg.ring');
  assert.equal(await page.textContent('button[role=tab][aria-selected=true]'), 'Pulsar');
  // 50 brokers, seven colours: the legend says what the numbers on the arcs are.
  await page.waitForSelector('.legend .tag-note');
  assert.match(await page.textContent('.legend .tag-note'), /^50 brokers share 7 colours/);
  const tags = await page.locator('.ring-pane svg.ring text.owner-tag').evaluateAll((els) => els.map((e) => [e.textContent, e.dataset.owner]));
  assert.ok(tags.length >= 10, `${tags.length} tags`);
  for (const [tag, owner] of tags) assert.equal(`broker-${tag}`, owner);
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('.ring-pane svg.ring').scrollIntoViewIfNeeded();
      await screenshot(page, `gallery-large-pulsar-${w}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openGallery(page);
  await page.click('.example-entry[data-preset="flink-large"] button');
  await page.waitForFunction(() => document.querySelector('button[role=tab][aria-selected=true]')?.textContent === 'Flink');
  await page.waitForFunction(() => document.querySelector('.slot-grid')?.querySelectorAll('[data-tm]').length === 97);
  await openGallery(page);
  await page.click('.example-entry[data-preset="kstreams-large"] button');
  await page.waitForFunction(() => document.querySelectorAll('.ks-instance[data-instance]').length === 100);
  const rackA = await page.locator('.ks-rack[data-rack="rack-a"] .ks-instance').evaluateAll((els) => els.map((e) => e.dataset.instance));
  assert.deepEqual(rackA.slice(0, 5), ['app-1', 'app-4', 'app-7', 'app-10', 'app-13']);
  assert.deepEqual(errors, []);
});

test('free play builds the examples: a topic at a hash, counts, a bundle count the traffic changes', async () => {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh#');
  await page.waitForSelector('svg.ring');
  // Three more brokers in one click.
  await unfold(page, 'details.cluster');
  await page.fill('#add-broker-count', '3');
  await page.click('#add-broker');
  await page.waitForFunction(() => document.querySelectorAll('.legend li[data-broker]').length === 6);
  const legend = await page.locator('.legend li[data-broker]').evaluateAll((els) => els.map((e) => e.dataset.broker));
  assert.deepEqual(legend, ['broker-1', 'broker-2', 'broker-3', 'broker-4', 'broker-5', 'broker-6']);
  // A topic at a hash.
  await page.click('details.topics > summary');
  await page.fill('#topic-name', 'pinned');
  await page.selectOption('#topic-kind', 'hash');
  await page.fill('#topic-hash', '0x50000000');
  await page.click('form.add-topic button[type=submit]');
  const tick = page.locator('svg.ring line.tick[data-topic="persistent://public/default/pinned"]');
  await tick.waitFor();
  assert.equal(await tick.getAttribute('data-hash'), '0x50000000');
  assert.equal(await tick.getAttribute('data-bundle'), 'public/default/0x40000000_0x80000000');
  // A bad hash is refused next to the form.
  await page.fill('#topic-name', 'bad');
  await page.fill('#topic-hash', 'zz');
  await page.click('form.add-topic button[type=submit]');
  await page.waitForSelector('[role=alert]');
  assert.match(await page.textContent('[role=alert]'), /32-bit hexadecimal/);
  // Two bundles: the first scenario's traffic splits them again, and the page says so.
  await page.fill('#bundle-count', '2');
  await page.press('#bundle-count', 'Enter');
  await page.waitForSelector('.notice.info');
  const note = await page.textContent('.notice.info');
  assert.match(note, /public\/default was created with 2 bundles and now has \d+/);
  assert.match(note, /loadBalancerAutoBundleSplitEnabled = false/);
  await screenshot(page, 'gallery-bundle-note-1280');
  assert.deepEqual(errors, []);
});
