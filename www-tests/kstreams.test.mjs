// The Kafka Streams tab in a real browser: partitions -> tasks, instances x
// threads, failover to a caught-up standby, idle instances, added threads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, screenshot, releaseCli, cargoTargetDir, unfold } from './harness.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let server;

before(async () => {
  server = await serveDist();
});

after(async () => {
  await server?.close();
});

// Each test gets a fresh profile: the autosave would otherwise reopen this tab
// (openApp waits for the Pulsar ring of the start page).
async function withTab(fn) {
  const context = await launch();
  try {
    const { page, errors } = await openApp(context, server.url);
    await page.click('button[role=tab]:has-text("Kafka Streams")');
    await page.waitForSelector('.ks article.ks-instance');
    await fn(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
}

/** { active: {task: instance}, standby: {task: [instances]}, status: {instance: status} } */
async function snapshot(page) {
  return page.evaluate(() => {
    const active = {};
    const standby = {};
    const status = {};
    for (const c of document.querySelectorAll('.ks-instances .ks-chip[data-task]')) {
      const { task, role, instance } = c.dataset;
      if (role === 'active') active[task] = instance;
      if (role === 'standby') (standby[task] ??= []).push(instance);
    }
    for (const a of document.querySelectorAll('article.ks-instance')) status[a.dataset.instance] = a.dataset.status;
    return { active, standby, status };
  });
}

test('default scenario: 5 partitions -> 5 stateful tasks on 3 instances across racks', async () => {
  await withTab(async (page) => {
    const tasks = await page.locator('.ks-topology .ks-task').evaluateAll((els) => els.map((e) => e.dataset.task));
    assert.deepEqual(tasks, ['0_0', '0_1', '0_2', '0_3', '0_4']);
    assert.equal(await page.locator('.ks-topology .ks-task.stateful').count(), 5);
    assert.match(await page.textContent('.ks-topology'), /app-counts-changelog-3/);
    const racks = await page.locator('.ks-rack').evaluateAll((els) => els.map((e) => e.dataset.rack));
    assert.deepEqual(racks, ['rack-a', 'rack-b', 'rack-c']);
    const s = await snapshot(page);
    assert.equal(Object.keys(s.active).length, 5, 'every task has exactly one active');
    for (const [t, owners] of Object.entries(s.standby)) {
      assert.ok(!owners.includes(s.active[t]), `standby of ${t} is not on its active's instance`);
    }
    assert.equal(Object.keys(s.standby).length, 5, 'num.standby.replicas = 1: each task has a standby');
    // Hovering a task lights up every copy of it.
    await page.hover('.ks-topology .ks-task[data-task="0_2"]');
    await page.waitForSelector('.ks-instances .ks-chip[data-task="0_2"].highlight');
    const lit = await page.locator('.ks-instances .ks-chip.highlight').evaluateAll((els) => els.map((e) => e.dataset.task));
    assert.ok(lit.length >= 2 && lit.every((t) => t === '0_2'), `lit: ${lit}`);
    await screenshot(page, 'kstreams-default-1280');
    await page.locator('.ks-instances').screenshot({ path: new URL('./output/kstreams-instances-1280.png', import.meta.url).pathname });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'kstreams-default-390');
  });
});

test('crashing a busy instance moves its tasks and a caught-up standby takes over', async () => {
  await withTab(async (page) => {
    const before = await snapshot(page);
    const counts = {};
    for (const inst of Object.values(before.active)) counts[inst] = (counts[inst] ?? 0) + 1;
    const victim = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
    const lost = Object.keys(before.active).filter((t) => before.active[t] === victim);
    assert.ok(lost.length >= 2, `${victim} runs ${lost}`);

    await unfold(page, `article.ks-instance[data-instance="${victim}"] details.ks-menu`);
    await page.click(`article.ks-instance[data-instance="${victim}"] button[aria-label="Crash ${victim}"]`);
    await page.waitForSelector(`article.ks-instance[data-instance="${victim}"][data-status="crashed"]`);
    const after = await snapshot(page);
    assert.equal(await page.locator(`article[data-instance="${victim}"] .ks-chip`).count(), 0, 'a crashed instance runs nothing');
    assert.equal(Object.keys(after.active).length, 5, 'every task is active somewhere');
    let tookOver = 0;
    for (const t of lost) {
      const owner = after.active[t];
      assert.ok(owner && owner !== victim, `${t} moved off ${victim}`);
      const chip = page.locator(`article[data-instance="${owner}"] .ks-chip[data-task="${t}"][data-role="active"]`);
      const reason = await chip.getAttribute('data-reason');
      if ((before.standby[t] ?? []).includes(owner)) {
        tookOver += 1;
        assert.ok(['caught_up', 'standby_promoted'].includes(reason), `${t} on its standby ${owner}: ${reason}`);
        assert.equal(await chip.getAttribute('data-lag'), '0', 'a caught-up standby has nothing to restore');
        assert.equal(await chip.getAttribute('data-was-standby'), 'true', `${t}: the view says its standby took over`);
        assert.match(await page.textContent(`.ks-side li[data-task="${t}"]`), /standby takes over/);
      }
    }
    assert.ok(tookOver >= 1, 'at least one lost task went to the instance holding its standby');
    // The crashed instance keeps its state directory.
    assert.ok((await page.locator(`article[data-instance="${victim}"] .ks-ghost`).count()) >= lost.length);
    // The last-step panel says why each task moved.
    const side = await page.textContent('.ks-side');
    assert.match(side, new RegExp(`Crashed ${victim}`));
    assert.match(side, /caught-up|standby promoted/);
    const events = await page.evaluate(() => window.lbscope.events.join('\n'));
    assert.match(events, new RegExp(`instance ${victim} crashed`));
    await screenshot(page, 'kstreams-crash-1280');

    // New standby copies restore: lag bars with their time, gone after time passes.
    const lagging = await page.locator('.ks-instances .ks-chip .ks-lag').count();
    if (lagging > 0) {
      assert.match(await page.textContent('.ks-instances .ks-lagtxt'), /lag [\d,]+ · ~\d+/);
      await unfold(page, 'details.ks-time');
      await page.click('button:has-text("+10 s")');
      await page.waitForFunction(() => document.querySelectorAll('.ks-instances .ks-lag').length === 0);
    }
    // Restart: it rejoins with its state on disk.
    await page.click(`button[aria-label="Restart ${victim}"]`);
    await page.waitForSelector(`article.ks-instance[data-instance="${victim}"]:not([data-status="crashed"])`);
  });
});

test('6 instances for 5 partitions: exactly one idles', async () => {
  await withTab(async (page) => {
    await page.click('button:has-text("Scale out to 6 instances")');
    await page.waitForFunction(() => document.querySelectorAll('article.ks-instance').length === 6);
    await page.waitForFunction(() => document.querySelector('[data-count="idle-instances"]')?.textContent === '1');
    const idle = await page.locator('article.ks-instance[data-status="idle"]').count();
    assert.equal(idle, 1);
    const s = await snapshot(page);
    assert.equal(new Set(Object.values(s.active)).size, 5, 'five instances run one task each');
    assert.match(await page.textContent('.ks-lesson'), /6 threads for 5 tasks/);
    const idleCard = page.locator('article.ks-instance[data-status="idle"]');
    assert.equal(await idleCard.locator('.ks-chip[data-role="active"]').count(), 0);
    assert.match(await idleCard.textContent(), /IDLE/);
    await screenshot(page, 'kstreams-six-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'kstreams-six-390');
  });
});

test('big state: new instances get warm-ups first; the probing rebalance moves tasks once they catch up', async () => {
  await withTab(async (page) => {
    await page.click('button:has-text("Produce 100,000 records")');
    await unfold(page, 'details.ks-time');
    await page.click('button[title="Advance time by 10 seconds"]');
    await page.click('button:has-text("Scale out to 6 instances")');
    await page.waitForFunction(() => document.querySelectorAll('article.ks-instance').length === 6);
    assert.ok((await page.locator('.ks-instances .ks-chip[data-role="warm_up"]').count()) >= 1, 'warm-ups restore on the new instances');
    assert.ok(Number(await page.textContent('[data-count="idle-instances"]')) > 1);
    assert.match(await page.textContent('.ks-lesson'), /warm-up replica\(s\) restore; the probing rebalance at t = 10 min 11 s/);
    assert.match(await page.textContent('.ks-instances .ks-chip[data-role="warm_up"] .ks-lagtxt'), /lag 21,000 · ~2.1 s/);
    await screenshot(page, 'kstreams-warmups-1280');
    // Each probing rebalance (every 10 min while warm-ups exist) moves some tasks; it converges.
    let rounds = 0;
    while ((await page.textContent('[data-count="idle-instances"]')) !== '1') {
      assert.ok(++rounds <= 6, 'converges to one idle instance within six probing rebalances');
      const now = await page.textContent('.ks-now');
      await unfold(page, 'details.ks-time');
      await page.click('button[title="Advance time by 10 minutes"]');
      await page.waitForFunction((t) => document.querySelector('.ks-now').textContent !== t, now);
    }
    assert.ok(rounds >= 1);
    assert.match(await page.evaluate(() => window.lbscope.events.join('\n')), /probing rebalance/);
  });
});

test('adding a thread spreads the instance\'s tasks over its threads', async () => {
  await withTab(async (page) => {
    const before = await snapshot(page);
    const counts = {};
    for (const inst of Object.values(before.active)) counts[inst] = (counts[inst] ?? 0) + 1;
    const inst = Object.entries(counts).find(([, n]) => n >= 2)[0];
    assert.equal(await page.locator(`[data-thread="${inst}/T1"] .ks-chip`).count() > 0, true);
    await unfold(page, `article.ks-instance[data-instance="${inst}"] details.ks-menu`);
    await page.getByRole('button', { name: `+ thread to ${inst}`, exact: true }).click();
    await page.waitForSelector(`[data-thread="${inst}/T2"]`);
    const t1 = await page.locator(`[data-thread="${inst}/T1"] .ks-chip[data-role="active"]`).count();
    const t2 = await page.locator(`[data-thread="${inst}/T2"] .ks-chip[data-role="active"]`).count();
    assert.ok(t1 >= 1 && t2 >= 1, `${inst}: T1 runs ${t1}, T2 runs ${t2} actives`);
    assert.equal(await page.textContent('[data-count="threads"]'), '4');
    // Removing it again puts everything back on one thread.
    await unfold(page, `article.ks-instance[data-instance="${inst}"] details.ks-menu`);
    await page.click(`button[aria-label="Remove StreamThread-2 of ${inst}"]`);
    await page.waitForFunction((i) => !document.querySelector(`[data-thread="${i}/T2"]`), inst);
    assert.equal(await page.textContent('[data-count="threads"]'), '3');
  });
});

test('a keyed record lands on its murmur2 partition; config knobs go through set_config', async () => {
  await withTab(async (page) => {
    await unfold(page, 'details.ks-produce-fold');
    await page.fill('#ks-key', 'alice');
    await page.fill('#ks-records', '10');
    await page.click('form.ks-form button:has-text("Produce")');
    await page.waitForSelector('.ks-murmur');
    assert.equal(await page.getAttribute('.ks-murmur', 'data-partition'), '4');
    assert.match(await page.textContent('.ks-murmur'), /murmur2 1951417749/);
    // Standbys off: a crash must restore from the changelog instead.
    await page.click('button:has-text("Turn standbys off")');
    await page.waitForSelector('button:has-text("Turn standbys on")');
    await unfold(page, 'details.ks-time');
    await page.click('.ks-controls button.ks-primary:has-text("Rebalance")');
    await page.waitForFunction(() => document.querySelectorAll('.ks-instances .ks-chip[data-role="standby"]').length === 0);
    const cfg = await page.evaluate(() => window.lbscope.scenario);
    assert.ok(JSON.stringify(cfg).includes('num.standby.replicas'));
    await unfold(page, 'details.ks-config');
    await page.fill('#ks-lag', '0');
    await page.press('#ks-lag', 'Enter');
    await page.waitForFunction(() => window.lbscope.events.some((e) => e.startsWith('acceptable.recovery.lag = 0')));
  });
});

/** The native CLI: the newer of the release and the debug build. */
function cli(args) {
  const built = [releaseCli(), join(cargoTargetDir(), 'debug', 'lbscope')].filter((p) => existsSync(p));
  built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return execFileSync(built[0], args, { encoding: 'utf8' });
}

test('a task the assignor calls caught up but that still restores says so with both numbers', async () => {
  // The five-partition example with three instances at first and three joining
  // after records were produced, then app-1 crashing: the tasks that move go
  // to instances whose lag (1,000) is within acceptable.recovery.lag.
  const sc = JSON.parse(cli(['preset', 'kstreams-five-partitions']));
  delete sc.cursor;
  const adds = sc.setup.filter((a) => a.op === 'add_instance');
  sc.setup = sc.setup.filter((a) => a.op !== 'add_instance').concat(adds.slice(0, 3));
  sc.actions = [
    { op: 'produce', topic: 'orders', key: null, partition: null, records: 5000 },
    { op: 'advance_time', ms: 60000 },
    ...adds.slice(3),
    { op: 'crash_instance', name: 'app-1' },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'lbscope-'));
  const file = join(dir, 'caught-up.json');
  writeFileSync(file, JSON.stringify(sc));
  const link = cli(['url', file, '--base', server.url + '?fresh']).trim();
  const context = await launch();
  try {
    const { page, errors } = await openApp(context, link);
    await page.click('button[role=tab]:has-text("Kafka Streams")');
    await page.waitForSelector('article.ks-instance[data-instance="app-1"][data-status="crashed"]');
    const row = page.locator('.ks-side li.move', { hasText: 'restores 1,000 records' }).filter({ has: page.locator('.ks-reason.caught_up') }).first();
    assert.equal(await row.locator('.ks-reason.caught_up').textContent(), 'within recovery lag (1,000 ≤ 10,000)');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
