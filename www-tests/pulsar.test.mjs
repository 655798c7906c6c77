// The Pulsar tab in a real browser: a 3-broker cluster with topics, a hot topic,
// rounds until a split and an unload, the proposal view, and the layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, screenshot, suite, unfold } from './harness.mjs';

// A server for dist/ and one browser profile shared by this file's tests.
const env = suite();

/** A fresh app at the default scenario (no autosave, no link). */
async function fresh() {
  const { page, errors } = await openApp(env.context, env.server.url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(env.server.url + '?fresh#');
  await page.waitForSelector('svg.ring path.arc');
  return { page, errors };
}

const arcs = (page) => page.locator('.ring-pane svg.ring path.arc').evaluateAll((els) =>
  els.map((e) => ({ bundle: e.dataset.bundle, owner: e.dataset.owner, topics: Number(e.dataset.topics), fill: getComputedStyle(e).fill })));
const brokers = (page) => page.locator('.broker-bars li.broker').evaluateAll((els) =>
  els.map((e) => ({ id: e.dataset.broker, load: Number(e.dataset.load), bundles: Number(e.dataset.bundles), alive: e.dataset.alive })));

test('default cluster: 3 brokers own 4 bundles; legend and bars match the engine', async () => {
  const { page, errors } = await fresh();
  const a = await arcs(page);
  assert.equal(a.length, 4);
  assert.ok(a.every((x) => /^public\/default\/0x[0-9a-f]{8}_0x[0-9a-f]{8}$/.test(x.bundle)));
  assert.ok(a.every((x) => /^broker-[123]$/.test(x.owner)), JSON.stringify(a));
  // Arcs of the same owner share a colour; different owners differ.
  for (const x of a) for (const y of a) assert.equal(x.owner === y.owner, x.fill === y.fill);
  assert.equal(await page.locator('svg.ring line.tick[data-topic]').count(), 12);
  const b = await brokers(page);
  assert.deepEqual(b.map((x) => x.id), ['broker-1', 'broker-2', 'broker-3']);
  assert.equal(b.reduce((s, x) => s + x.bundles, 0), 4);
  assert.equal(await page.locator('.legend li[data-broker]').count(), 3);
  // Selects start at their first option (the safe defaults: whole namespace, no destination).
  assert.equal(await page.inputValue('#hot-topic'), 'persistent://public/default/topic-0');
  assert.equal(await page.inputValue('#unload-bundle'), '');
  assert.equal(await page.inputValue('#unload-dst'), '');
  assert.equal(await page.inputValue('#split-bundle'), 'LARGEST');
  // Overload line at the 85 % default.
  assert.match(await page.textContent('.bars-key'), /overload line 85 %/);
  // Focus an arc (keyboard): it is highlighted and its hex range is shown.
  await page.focus('.ring-pane svg.ring path.arc >> nth=1');
  await page.waitForSelector('.ring-pane svg.ring path.arc.highlight');
  assert.match(await page.textContent('.ring-detail'), /bundle \[0x40000000, 0x80000000\)/);
  // A small ring writes every boundary (the start once, at the top).
  assert.deepEqual(await page.locator('.ring-pane svg.ring text.boundary-label').allTextContents(),
    ['0x40000000', '0x80000000', '0xc0000000']);
  await screenshot(page, 'pulsar-default-1280');
  assert.deepEqual(errors, []);
});

test('a hot topic: split and unload happen; ring and broker bars follow; proposal applies', async () => {
  const { page, errors } = await fresh();
  const before = await arcs(page);
  const barsBefore = await brokers(page);
  await unfold(page, 'details.traffic');
  await page.selectOption('#hot-topic', 'persistent://public/default/topic-0');
  await page.click('#hot-burst');
  await page.waitForFunction(() => document.querySelector('.topic-sliders li[data-topic$="/topic-0"] .rate-value')?.textContent.includes('60k'));

  // The proposal view: what the next Step would do, before doing it.
  await page.click('#propose');
  await page.waitForSelector('section.proposal');
  const moves = await page.locator('section.proposal li.move').evaluateAll((els) =>
    els.map((e) => ({ bundle: e.dataset.bundle, to: e.dataset.to })));
  assert.ok(moves.length >= 2, `a split shows its children: ${JSON.stringify(moves)}`);
  assert.equal(await page.locator('section.proposal svg.ring').count(), 2);
  // One proposal on the page: the Pulsar tab's before/after rings, not also the generic panel.
  assert.equal(await page.locator('section.proposal').count(), 1);
  assert.equal(await page.locator('section.round-proposal').count(), 0);
  await screenshot(page, 'pulsar-proposal-1280');
  // Nothing changed yet.
  assert.equal((await arcs(page)).length, before.length);
  await page.click('section.proposal button.apply');
  await page.waitForSelector('section.proposal', { state: 'detached' });
  const after = await arcs(page);
  assert.ok(after.length > before.length, 'the hot bundle was split');
  for (const m of moves) {
    const arc = after.find((x) => x.bundle === m.bundle);
    assert.ok(arc, `${m.bundle} is on the ring`);
    assert.equal(arc.owner, m.to, `${m.bundle} went where the proposal said`);
  }
  // The round log narrates a split and an unload.
  const log = await page.evaluate(() => window.lbscope.events.join('\n'));
  assert.match(log, /split/i);
  assert.match(log, /unload/i);
  // Hot broker's bar rose above the cluster average line; ownership moved.
  const barsAfter = await brokers(page);
  const hot = barsAfter.reduce((m, x) => (x.load > m.load ? x : m));
  assert.ok(hot.load > barsBefore.find((x) => x.id === hot.id).load + 10, JSON.stringify({ barsBefore, barsAfter }));
  const avg = barsAfter.reduce((s, x) => s + x.load, 0) / barsAfter.length;
  assert.ok(hot.load > avg);
  // Every bundle with topics has an owner (an empty split child may wait for its first lookup, hatched grey).
  assert.equal(barsAfter.reduce((s, x) => s + x.bundles, 0), after.filter((x) => x.owner).length);
  assert.ok(after.every((x) => x.owner || x.topics === 0), JSON.stringify(after));
  const owners = new Map(before.map((x) => [x.bundle, x.owner]));
  assert.ok(after.some((x) => !owners.has(x.bundle) || owners.get(x.bundle) !== x.owner));

  // A few more Steps keep the ring tiled and every bundle owned.
  for (let i = 0; i < 3; i++) await page.click('#step');
  // (The default scenario's setup ran round 1: the proposal applied round 2.)
  await page.waitForFunction(() => /round 5/.test(document.querySelector('.round-bar .clock').textContent));
  const later = await arcs(page);
  assert.ok(later.every((x) => x.owner || x.topics === 0), JSON.stringify(later));
  await screenshot(page, 'pulsar-hot-1280');
  assert.deepEqual(errors, []);
});

test('crash, restore, admin split and unload to a chosen broker', async () => {
  const { page, errors } = await fresh();
  // broker-1 owns every bundle of the default scenario.
  await unfold(page, 'details.cluster');
  await page.click('.broker-list li[data-broker="broker-1"] button.crash');
  await page.waitForSelector('.broker-bars li.broker.crashed[data-broker="broker-1"]');
  // Its bundles are orphaned: grey (hatched) with no owner until clients look them up.
  const orphans = (await arcs(page)).filter((x) => !x.owner);
  assert.ok(orphans.length >= 1);
  // The single phases are folded under the round bar.
  await page.click('details.phases > summary');
  await page.click('#phase-assign');
  await page.waitForFunction(() => [...document.querySelectorAll('.ring-pane path.arc')].every((e) => e.dataset.owner));
  await page.click('.broker-list li[data-broker="broker-1"] button.restore');
  await page.waitForSelector('.broker-bars li.broker[data-broker="broker-1"][data-alive="true"]');
  await page.click('#add-broker');
  await page.waitForSelector('.broker-bars li.broker[data-broker="broker-4"]');
  // pulsar-admin namespaces split-bundle -b 0x00000000_0x40000000 -san range_equally_divide
  await page.click('details.admin > summary');
  await page.selectOption('#split-bundle', '0x00000000_0x40000000');
  await page.selectOption('#split-algo', 'range_equally_divide');
  await page.click('form.split-bundle button[type="submit"]');
  await page.waitForSelector('.ring-pane path.arc[data-bundle="public/default/0x20000000_0x40000000"]');
  // pulsar-admin namespaces unload public/default -b 0x20000000_0x40000000 -d broker-4
  await page.selectOption('#unload-bundle', '0x20000000_0x40000000');
  await page.selectOption('#unload-dst', 'broker-4');
  await page.click('form.unload button[type="submit"]');
  await page.click('#phase-assign');
  await page.waitForSelector('.ring-pane path.arc[data-bundle="public/default/0x20000000_0x40000000"][data-owner="broker-4"]');
  // The doc's 40 % / 10 % / 10 % example sets broker loads directly, and says at
  // once why the doc's outcome cannot follow under the 5.0 profile's AvgShedder.
  await unfold(page, 'details.traffic');
  await page.click('details.traffic details.sub > summary');
  assert.match(await page.textContent('.doc-why'), /ThresholdShedder's; this cluster sheds with AvgShedder/);
  await page.click('#doc-loads');
  await page.waitForFunction(() => Number(document.querySelector('li.broker[data-broker="broker-1"]').dataset.load) >= 40);
  // Highlight: pointing at a broker lights its row.
  await page.hover('.broker-bars li.broker[data-broker="broker-1"]');
  await page.waitForSelector('.broker-bars li.broker.highlight[data-broker="broker-1"]');
  assert.deepEqual(errors, []);
});

test('the doc\'s 40 / 10 / 10 shortcut says which brokers stay silent, and the cards say why', async () => {
  const { page, errors } = await fresh();
  await unfold(page, 'details.traffic');
  await page.click('details.traffic details.sub > summary');
  // Before the press: the hint names the two brokers whose reports will not change.
  assert.match(await page.textContent('.doc-why'),
    /After the press broker-2 \(reported 0\.0 %, set to 10 %\) and broker-3 \(reported 0\.0 %, set to 10 %\) will not report: the change is not above loadBalancerReportUpdateThresholdPercentage = 10/);
  await page.click('#doc-loads');
  await page.waitForFunction(() => Number(document.querySelector('li.broker[data-broker="broker-1"]').dataset.load) >= 40);
  // On the picture: broker-1 reports at the next Step (nothing to say);
  // broker-2 and broker-3's leader copies stay at 0 % with the threshold's numbers.
  assert.equal(await page.locator('li.broker[data-broker="broker-1"] p.report').count(), 0);
  for (const b of ['broker-2', 'broker-3']) {
    const line = page.locator(`li.broker[data-broker="${b}"] p.report`);
    assert.equal(await line.textContent(), 'Shedder sees 0.0 % (live 10.0 %): a change of 10.0 is not above the report threshold 10; forced report in 14 min.');
    assert.match(await line.getAttribute('title'), /It stays silent: a change of 10\.0 is not above loadBalancerReportUpdateThresholdPercentage = 10, so the shedder keeps seeing 0\.0 %/);
  }
  assert.deepEqual(errors, []);
});

test('topics: partitioned, N at once, Zipf skew; a second namespace gets a selector', async () => {
  const { page, errors } = await fresh();
  await page.click('details.topics > summary');
  await page.fill('#topic-name', 'big');
  await page.selectOption('#topic-kind', 'partitioned');
  await page.fill('#topic-count', '4');
  await page.click('form.add-topic button');
  await page.waitForSelector('line.tick[data-topic="persistent://public/default/big-partition-3"]');
  await page.fill('#topic-name', 'bulk');
  await page.selectOption('#topic-kind', 'many');
  await page.fill('#topic-count', '20');
  await page.click('form.add-topic button');
  await page.waitForFunction(() => document.querySelectorAll('.ring-pane line.tick').length === 12 + 4 + 20);
  await unfold(page, 'details.traffic');
  await page.click('details.traffic details.sub > summary');
  await page.fill('#zipf-seed', '7');
  await page.click('#zipf-apply');
  await page.waitForFunction(() => {
    const r = [...document.querySelectorAll('.ring-pane line.tick')].map((e) => Number(e.dataset.rate));
    return Math.max(...r) > 5 * Math.min(...r.filter((x) => x > 0));
  });
  await page.fill('#ns-name', 'shop/orders');
  await page.fill('#ns-bundles', '8');
  await page.click('form.add-namespace button');
  await page.waitForSelector('#namespace');
  assert.equal(await page.inputValue('#namespace'), 'shop/orders');
  await page.waitForFunction(() => document.querySelectorAll('.ring-pane path.arc').length === 8);
  await page.selectOption('#namespace', 'public/default');
  await page.waitForFunction(() => document.querySelectorAll('.ring-pane path.arc').length === 4);
  assert.deepEqual(errors, []);
});

test('phone width: panels stack and nothing overflows', async () => {
  const { page, errors } = await fresh();
  await page.setViewportSize({ width: 390, height: 844 });
  await unfold(page, 'details.traffic');
  await page.click('#hot-burst');
  await page.click('#step');
  await page.waitForFunction(() => /round 2/.test(document.querySelector('.round-bar .clock').textContent));
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  const ring = await page.locator('.ring-pane svg.ring').boundingBox();
  const bars = await page.locator('.broker-bars').boundingBox();
  assert.ok(bars.y >= ring.y + ring.height - 1, 'bars below the ring');
  await screenshot(page, 'pulsar-phone-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'pulsar-dark-1280');
  assert.deepEqual(errors, []);
});
