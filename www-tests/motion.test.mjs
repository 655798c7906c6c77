// Motion from cause to effect: each action's result moves on the page (Web
// Animations named `lb-…`), fed by the engine's events; with reduced motion every
// one is instant. Frames of each motion go to www-tests/output/ for a look.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openApp, OUTPUT, unfold } from './harness.mjs';
import { serveDist } from './harness.mjs';
import { before, after } from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

let server;
before(async () => { server = await serveDist(); });
after(async () => { await server?.close(); });

async function open(t, tab, reducedMotion = 'no-preference') {
  const context = await launch();
  t.after(() => context.close());
  const { page, errors } = await openApp(context, server.url);
  await page.emulateMedia({ reducedMotion });
  if (tab) await page.click(`button[role=tab]:has-text("${tab}")`);
  await page.waitForSelector('main section.tab-body');
  return { page, errors };
}

/** Run `act`, then read the `lb-` animations it started (before they end). */
async function motions(page, act) {
  await page.evaluate(() => document.body.removeAttribute('data-motions'));
  await act();
  await page.waitForFunction(() => document.body.dataset.motions !== undefined);
  return page.evaluate(() => document.getAnimations()
    .filter((a) => a.id.startsWith('lb-'))
    .map((a) => {
      const frames = a.effect.getKeyframes();
      const t = a.effect.target;
      return {
        id: a.id,
        duration: a.effect.getTiming().duration,
        delay: a.effect.getTiming().delay,
        opacities: frames.map((f) => f.opacity).filter((o) => o !== undefined),
        first: frames[0].transform,
        last: frames[frames.length - 1].transform,
        tag: t.tagName.toLowerCase(),
        cls: String(t.className.baseVal ?? t.className),
        data: { ...t.dataset },
        text: t.textContent,
      };
    }));
}

/** A few frames of the motion in progress, saved for a look. */
async function frames(page, name) {
  await mkdir(OUTPUT, { recursive: true });
  for (const ms of [0, 300, 600]) {
    if (ms) await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUTPUT, `motion-${name}-${ms}.png`) });
  }
}

const moves = (a) => a.first !== a.last;

test('a Pulsar unload sends the bundle from its old owner to its new one', async (t) => {
  const { page, errors } = await open(t);
  const owners = await page.locator('svg.ring path.arc').evaluateAll((els) => els.map((e) => e.dataset.owner));
  const anims = await motions(page, () => page.click('#step'));
  await frames(page, 'pulsar-unload');
  const travel = anims.filter((a) => a.id === 'lb-travel');
  assert.ok(travel.length >= 1, JSON.stringify(anims));
  assert.ok(travel.every(moves), 'a token travels');
  // It carries the bundle's range and lands on a broker card that now owns it.
  const after = await page.locator('svg.ring path.arc').evaluateAll((els) =>
    Object.fromEntries(els.map((e) => [e.dataset.range, e.dataset.owner])));
  for (const a of travel) {
    assert.ok(a.text in after, `${a.text} is a bundle`);
    assert.ok(owners.includes('broker-1'));
  }
  const landed = anims.filter((a) => a.id === 'lb-pulse' && a.cls.includes('broker')).map((a) => a.data.broker);
  for (const a of travel) assert.ok(landed.includes(after[a.text]), `${a.text} lands on ${after[a.text]}: ${landed}`);
  assert.deepEqual(errors, []);
});

test('a Pulsar split grows its new boundary on the ring and names it in hex', async (t) => {
  const { page, errors } = await open(t);
  await page.click('details.admin > summary').catch(() => {});
  const before = await page.locator('svg.ring line.boundary').evaluateAll((els) => els.map((e) => e.dataset.boundary));
  const anims = await motions(page, async () => {
    await page.selectOption('#split-bundle', '0x00000000_0x40000000');
    await page.click('form.split-bundle button[type="submit"]');
  });
  await frames(page, 'pulsar-split');
  const after = await page.locator('svg.ring line.boundary').evaluateAll((els) => els.map((e) => e.dataset.boundary));
  const fresh = after.filter((b) => !before.includes(b));
  assert.deepEqual(fresh, ['0x20000000']);
  const grow = anims.filter((a) => a.id === 'lb-arrive' && a.tag === 'line');
  assert.deepEqual(grow.map((a) => a.data.boundary), fresh);
  assert.ok(grow.every(moves));
  const label = anims.filter((a) => a.id === 'lb-label').map((a) => a.text);
  assert.deepEqual(label, fresh);
  assert.deepEqual(errors, []);
});

test('a new Pulsar topic appears at its hash with its name', async (t) => {
  const { page, errors } = await open(t);
  await page.click('details.topics > summary');
  await page.fill('#topic-name', 'persistent://public/default/my-topic');
  const anims = await motions(page, () => page.click('form.add-topic button'));
  const tick = anims.filter((a) => a.id === 'lb-arrive' && a.tag === 'line' && a.data.topic);
  assert.deepEqual(tick.map((a) => a.data.topic), ['persistent://public/default/my-topic']);
  assert.ok(tick.every(moves));
  const label = anims.filter((a) => a.id === 'lb-label').map((a) => a.text);
  assert.equal(label.length, 1);
  assert.match(label[0], /^my-topic · 0x[0-9a-f]{8}$/);
  assert.deepEqual(errors, []);
});

test('Flink slots land on their TaskManagers in request order', async (t) => {
  const { page, errors } = await open(t, 'Flink');
  const anims = await motions(page, () => page.click('#step'));
  await frames(page, 'flink-schedule');
  const land = anims.filter((a) => a.id === 'lb-arrive' && a.cls.includes('slot'));
  assert.ok(land.length >= 2, JSON.stringify(anims));
  assert.ok(land.every(moves));
  // One beat per request: the session grid's slots start one after another.
  const session = [...new Map(land.map((a) => [a.data.slot, a.delay])).values()];
  assert.deepEqual(session, [...session].sort((a, b) => a - b));
  assert.ok(new Set(session).size > 1, `delays ${session}`);
  for (const a of land) assert.notEqual(a.data.tasks, '0', 'only slots that got a request land');
  assert.deepEqual(errors, []);
});

test('a Kafka Streams rebalance sends tasks between instances', async (t) => {
  const { page, errors } = await open(t, 'Kafka Streams');
  await page.waitForSelector('.ks article.ks-instance');
  const anims = await motions(page, () =>
    unfold(page, 'article.ks-instance[data-instance="app-1"] details.ks-menu')
      .then(() => page.click('article.ks-instance[data-instance="app-1"] button[aria-label="Crash app-1"]')));
  await frames(page, 'kstreams-rebalance');
  const travel = anims.filter((a) => a.id === 'lb-travel');
  const landed = anims.filter((a) => a.id !== 'lb-travel');
  assert.ok(travel.length + landed.length >= 1, JSON.stringify(anims));
  assert.ok([...travel, ...landed.filter((a) => a.id === 'lb-arrive')].every(moves));
  for (const a of landed) assert.notEqual(a.data.instance, 'app-1', 'nothing lands on the crashed instance');
  assert.deepEqual(errors, []);
});

test('with reduced motion every motion is instant', async (t) => {
  const { page, errors } = await open(t, null, 'reduce');
  const anims = await motions(page, () => page.click('#step'));
  assert.equal(await page.evaluate(() => document.body.dataset.motionMs), '0');
  for (const a of anims) assert.equal(a.duration + a.delay, 0, JSON.stringify(a));
  assert.equal(await page.locator('.motion-token').count(), 0, 'no token left over the page');
  assert.deepEqual(errors, []);
});

test('a round is said phase by phase as it plays; slower, one phase at a time, in a lesson', async (t) => {
  const { page, errors } = await open(t, null);
  const anims = await motions(page, () => page.click('#step'));
  const caps = anims.filter((a) => a.id === 'lb-caption');
  assert.deepEqual(caps.map((a) => a.data.beat), ['0', '1', '2']);
  assert.match(caps[0].text, /^Report: /);
  assert.match(caps[1].text, /^Split: /);
  assert.match(caps[2].text, /^Unload: .*broker-1 → broker-\d/);
  // Each caption appears with its beat: the unload's with the travelling bundle.
  const travel = anims.find((a) => a.id === 'lb-travel');
  assert.equal(caps[2].delay, travel.delay);
  // Never half-transparent: a caption is readable at full contrast at every instant.
  for (const c of caps) assert.deepEqual(c.opacities, [], JSON.stringify(c));
  assert.equal(await page.getAttribute('#phase-captions', 'role'), 'status');
  await frames(page, 'captions');
  // In a lesson the same round plays one phase per 1.1 s.
  await page.goto(server.url + '?fresh#lesson=pulsar-avg-shedder&step=2');
  await page.waitForSelector('[data-lesson-narration]');
  const slow = await motions(page, () => page.click('#step'));
  const lessonCaps = slow.filter((a) => a.id === 'lb-caption');
  assert.deepEqual(lessonCaps.map((a) => a.delay), [0, 1100, 2200]);
  // The "This round" card fills in with the round: its reports at the first
  // beat, what moved with the unload's beat.
  const card = slow.filter((a) => a.id === 'lb-card');
  assert.deepEqual(card.map((a) => [a.data.cardBeat, a.delay]).sort(), [['0', 0], ['2', 2200]]);
  assert.match(card.find((a) => a.data.cardBeat === '0').text, /Reports.*publish/);
  for (const c of card) assert.deepEqual(c.opacities, [], JSON.stringify(c));
  assert.deepEqual(errors, []);
});
