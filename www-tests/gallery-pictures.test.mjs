// The pictures of the Flink and Kafka Streams examples, counted: every such entry is
// opened by its link, what its card says to press is pressed, and the numbers drawn on
// the slot grid (tasks per TaskManager, slots in use, subtasks in each slot) and on the
// instance cards (active tasks per instance and per thread, standbys, racks) are compared
// with the document's worked example. The expected values are worked out here from the
// document's text (the figure is named at each), not read from the page or the card.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite, openApp, cargoTargetDir, releaseCli } from './harness.mjs';

const env = suite();

/** The native CLI: the newer of the release and the debug build. */
function cli(args) {
  const built = [releaseCli(), join(cargoTargetDir(), 'debug', 'lbscope')].filter((p) => existsSync(p));
  built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return execFileSync(built[0], args, { encoding: 'utf8' });
}

/** The examples of `system` in `preset --list` (questions and large clusters left out). */
function examplesOf(system) {
  return cli(['preset', '--list']).trim().split('\n')
    .map((l) => l.split('\t'))
    .filter(([slug, sys, title]) => sys === system && title !== 'A large cluster'
      && !cli(['preset', slug, '--describe']).includes('\nDiagnosis: '))
    .map(([slug]) => slug);
}

const sorted = (v) => [...v].sort((a, b) => b - a);

/** Open an example and press Redo as often as its card says ("Press Schedule" is one Redo). */
async function openAndPress(page, slug) {
  await page.evaluate((h) => { location.hash = h; }, `#example=${slug}`);
  const press = page.locator(`.example-card[data-example="${slug}"] .example-press`);
  await press.waitFor({ timeout: 20000 });
  const text = await press.textContent();
  const times = /four times/.test(text) ? 4 : /three times/.test(text) ? 3 : /twice/.test(text) ? 2 : 1;
  return async () => {
    for (let i = 0; i < times; i++) {
      await page.waitForFunction(() => !document.querySelector('button[title="Redo (r)"]').disabled);
      await page.click('button[title="Redo (r)"]');
    }
    await page.waitForFunction(() => document.querySelector('button[title="Redo (r)"]').disabled);
  };
}

// ------------------------------------------------------------------ Flink

/** What the slot grid draws: per TaskManager its name, the "N tasks · U/S slots" line
 *  and, per slot, the count in its head and the subtask chips (vertex, index). */
async function slotGrid(page) {
  return page.locator('.slot-grid[data-role="session"] li.tm-row').evaluateAll((rows) => rows.map((r) => ({
    tm: r.querySelector('.tm-name').textContent,
    head: r.querySelector('.tm-count').textContent,
    slots: [...r.querySelectorAll('li.slot')].map((s) => ({
      request: s.dataset.request,
      count: s.querySelector('.count').textContent,
      chips: [...s.querySelectorAll('li.subtask')].map((c) => {
        const [vertex, i] = c.dataset.task.split('#');
        return { vertex, i: Number(i) };
      }),
    })),
  })));
}

/** The drawn picture agrees with itself: each slot's number is its chips, each
 *  TaskManager's "N tasks · U/S slots" is its slots' chips and used slots. */
function perTm(grid) {
  return grid.filter((r) => r.head !== 'lost').map((r) => {
    const used = r.slots.filter((s) => s.chips.length > 0);
    for (const s of r.slots) assert.equal(s.count, s.chips.length ? String(s.chips.length) : 'free', `${r.tm}: ${JSON.stringify(s)}`);
    const tasks = used.reduce((n, s) => n + s.chips.length, 0);
    assert.equal(r.head, `${tasks} tasks · ${used.length}/${r.slots.length} slots`, r.tm);
    // A slot holds at most one subtask of each vertex (slot sharing).
    for (const s of used) assert.equal(new Set(s.chips.map((c) => c.vertex)).size, s.chips.length, JSON.stringify(s));
    return { tm: r.tm, tasks, used: used.length, slots: used.map((s) => s.chips) };
  });
}

// Figures (a), (b), (f)-(i): JV-A (6) and JV-B (3) share one slot-sharing group. A slot
// holds one subtask per vertex, so the job needs max(6, 3) = 6 slots; 9 tasks. Figure (i)
// ends with "exactly 3 tasks" on each TaskManager: 9 / 3 = 3 TaskManagers, 6 / 3 = 2 slots
// each. Every slot has one JV-A subtask and three of them a JV-B one as well: slots of
// 2, 2, 2, 1, 1, 1 tasks (figure (g), said of the first phase).
const A_TASKS = 6 + 3;
const A_TMS = A_TASKS / 3;
const A_SLOTS_PER_TM = 6 / A_TMS;
const A_SLOT_TASKS = [2, 2, 2, 1, 1, 1];
function figureA(tms) {
  assert.equal(tms.length, A_TMS);
  for (const t of tms) assert.equal(t.used, A_SLOTS_PER_TM, t.tm);
  const slots = tms.flatMap((t) => t.slots);
  assert.deepEqual(sorted(slots.map((s) => s.length)), A_SLOT_TASKS);
  for (const s of slots) assert.equal(s.filter((c) => c.vertex === 'JV-A').length, 1, JSON.stringify(s));
  assert.equal(tms.reduce((n, t) => n + t.tasks, 0), A_TASKS);
}

// Figures (c)-(e): vertices of parallelism 1, 4, 4, 2, 3 (14 tasks) in one group: 4 slots.
const C_PAR = { A: 1, B: 4, C: 4, D: 2, E: 3 };
const C_SLOTS = Math.max(...Object.values(C_PAR));
/** Figure (d), the default: subtask i of every vertex joins slot i, so slot i holds one
 *  task of each vertex whose parallelism exceeds i: 5, 4, 3, 2 (range 3, as the text says). */
const C_DEFAULT = [...Array(C_SLOTS).keys()].map((i) => Object.values(C_PAR).filter((p) => p > i).length);
/** Figure (e), tasks mode: B_i and C_i (the highest parallelism) go to slot i, the other
 *  1 + 2 + 3 = 6 tasks round-robin over the 4 slots: 2 + 2, 2 + 2, 2 + 1, 2 + 1 (range 1). */
const C_ROUND_ROBIN = C_PAR.A + C_PAR.D + C_PAR.E;
const C_TASKS_MODE = [...Array(C_SLOTS).keys()].map((i) => 2 + Math.floor(C_ROUND_ROBIN / C_SLOTS) + (i < C_ROUND_ROBIN % C_SLOTS ? 1 : 0));

const FLINK = {
  // (a)/(b): the default; the busiest TaskManager has 4 tasks, the least busy 2 (9 in all: 4, 3, 2).
  'flink-figure-a-b': (tms) => {
    figureA(tms);
    assert.deepEqual(sorted(tms.map((t) => t.tasks)), [4, A_TASKS - 4 - 2, 2]);
  },
  'flink-figure-c-d': (tms) => {
    const slots = tms.flatMap((t) => t.slots);
    assert.deepEqual(sorted(slots.map((s) => s.length)), C_DEFAULT);
    assert.equal(Math.max(...C_DEFAULT) - Math.min(...C_DEFAULT), 3);
    // Subtask i of each vertex shares its slot with subtask i of the others.
    for (const s of slots) assert.equal(new Set(s.map((c) => c.i)).size, 1, JSON.stringify(s));
  },
  'flink-figure-e': (tms) => {
    const slots = tms.flatMap((t) => t.slots);
    assert.deepEqual(sorted(slots.map((s) => s.length)), sorted(C_TASKS_MODE));
    assert.equal(Math.max(...C_TASKS_MODE) - Math.min(...C_TASKS_MODE), 1);
    // "JV-B_i goes to slot_i, and JV-C_i to slot_i": B and C of the same index together.
    for (const s of slots) {
      const b = s.find((c) => c.vertex === 'B');
      const c = s.find((x) => x.vertex === 'C');
      assert.ok(b && c && b.i === c.i, JSON.stringify(s));
    }
  },
  // (g): "Slot0, Slot1 and Slot2 have 2 tasks each, the other slots 1" (the slot requests).
  'flink-figure-f-g': (tms, grid) => {
    figureA(tms);
    const byRequest = new Map(grid.flatMap((r) => r.slots).filter((s) => s.request !== undefined).map((s) => [Number(s.request), s.chips.length]));
    assert.deepEqual([...byRequest.keys()].sort().map((r) => byRequest.get(r)), A_SLOT_TASKS);
  },
  // (h): the default leaves a difference of 2 between TaskManagers.
  'flink-figure-h': (tms) => {
    figureA(tms);
    const t = tms.map((x) => x.tasks);
    assert.equal(Math.max(...t) - Math.min(...t), 2);
  },
  // (i): "each TaskManager ends with exactly 3 tasks".
  'flink-figure-i': (tms) => {
    figureA(tms);
    assert.deepEqual(tms.map((t) => t.tasks), Array(A_TMS).fill(3));
  },
  // Usage: after raising slot.request.max-interval the second failover ends balanced as (i).
  'flink-failover-max-interval': (tms) => {
    figureA(tms);
    assert.deepEqual(tms.map((t) => t.tasks), Array(A_TMS).fill(3));
  },
};

test('every Flink example draws the document\'s slots and tasks', async () => {
  const slugs = examplesOf('flink');
  assert.deepEqual(slugs.filter((s) => !FLINK[s]), [], 'every Flink example has its figure here');
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  for (const slug of slugs) {
    const press = await openAndPress(page, slug);
    await press();
    await page.waitForSelector('.slot-grid[data-role="session"][data-status="running"]', { timeout: 20000 });
    const grid = await slotGrid(page);
    try {
      FLINK[slug](perTm(grid), grid);
    } catch (e) {
      e.message = `${slug}: ${e.message}\n${JSON.stringify(grid)}`;
      throw e;
    }
  }
  assert.deepEqual(errors, []);
});

// ------------------------------------------------------------------ Kafka Streams

/** What the instance cards draw: per instance its status, rack tag and, per thread,
 *  the chips (task id as written, role). */
async function cards(page) {
  return page.locator('article.ks-instance[data-instance]').evaluateAll((arts) => arts.map((a) => ({
    name: a.querySelector('.ks-iname').textContent,
    status: a.dataset.status,
    rack: ([...a.querySelectorAll('header .ks-sub')].map((s) => s.textContent).join(' ').match(/rack=(\S+)/) ?? [])[1],
    threads: [...a.querySelectorAll('li.ks-thread')].map((t) => [...t.querySelectorAll('.ks-chip')].map((c) => ({
      task: c.querySelector('.ks-tid').textContent,
      role: c.dataset.role,
      mark: c.querySelector('.ks-mark').textContent,
    }))),
  })));
}

const actives = (c) => c.threads.flat().filter((x) => x.mark === 'A').map((x) => x.task);
const standbys = (c) => c.threads.flat().filter((x) => x.mark === 'S').map((x) => x.task);
const running = (cs) => cs.filter((c) => c.status !== 'crashed');

/** One active per task, and `replicas` standbys of it, none on the active's instance. */
function replicas(cs, tasks, n) {
  const all = cs.flatMap(actives);
  assert.equal(new Set(all).size, all.length, `one active per task: ${all}`);
  assert.equal(all.length, tasks);
  for (const t of all) {
    const a = cs.find((c) => actives(c).includes(t));
    const s = cs.filter((c) => standbys(c).includes(t));
    assert.equal(s.length, n, `${t}: ${n} standby(s)`);
    assert.ok(!s.includes(a), `${t}: standby apart from its active`);
  }
}

const standbyReplicas = (slug) => JSON.parse(cli(['preset', slug])).config['num.standby.replicas'] ?? 0;

test('every Kafka Streams example draws the document\'s tasks, threads and standbys', async () => {
  const slugs = examplesOf('kstreams');
  const KS = ['kstreams-five-partitions', 'kstreams-threads', 'kstreams-standby-failover', 'kstreams-rack-aware-standbys'];
  assert.deepEqual(slugs.filter((s) => !KS.includes(s)), [], 'every Kafka Streams example is counted here');
  const { page, errors } = await openApp(env.context, env.server.url + '?fresh');
  const waitCards = () => page.waitForSelector('article.ks-instance[data-instance]', { timeout: 20000 });

  // "Stream partitions and tasks": an input topic of 5 partitions makes 5 tasks, so at
  // most 5 instances work; a sixth runs idle, and takes over when a busy one goes down.
  const PARTITIONS = 5;
  let press = await openAndPress(page, 'kstreams-five-partitions');
  await waitCards();
  let cs = await cards(page);
  assert.equal(cs.length, PARTITIONS + 1);
  assert.deepEqual(sorted(cs.map((c) => actives(c).length)), [...Array(PARTITIONS).fill(1), 0]);
  replicas(cs, PARTITIONS, standbyReplicas('kstreams-five-partitions'));
  await press();
  cs = await cards(page);
  const crashed = cs.filter((c) => c.status === 'crashed');
  assert.equal(crashed.length, 1);
  assert.deepEqual(actives(crashed[0]), []);
  assert.deepEqual(running(cs).map((c) => actives(c).length), Array(PARTITIONS).fill(1), 'five busy, none idle');

  // "Threading model": as many threads as input partitions; each thread then has a
  // partition (a task) of its own.
  press = await openAndPress(page, 'kstreams-threads');
  await waitCards();
  await press();
  cs = await cards(page);
  assert.equal(cs.length, 1);
  assert.equal(cs[0].threads.length, PARTITIONS);
  assert.deepEqual(cs[0].threads.map((t) => t.filter((x) => x.mark === 'A').length), Array(PARTITIONS).fill(1));
  assert.equal(new Set(actives(cs[0])).size, PARTITIONS);

  // "Fault tolerance": a task that migrates goes to the instance with its standby.
  press = await openAndPress(page, 'kstreams-standby-failover');
  await waitCards();
  cs = await cards(page);
  replicas(cs, cs.flatMap(actives).length, standbyReplicas('kstreams-standby-failover'));
  const owner = cs.find((c) => actives(c).includes('0_0'));
  const standbyOf = cs.filter((c) => standbys(c).includes('0_0')).map((c) => c.name);
  assert.ok(owner && standbyOf.length > 0);
  await press();
  cs = await cards(page);
  assert.deepEqual(actives(cs.find((c) => c.name === owner.name)), [], `${owner.name} crashed`);
  assert.ok(standbyOf.includes(cs.find((c) => actives(c).includes('0_0'))?.name), `0_0 on ${standbyOf}`);

  // rack.aware.assignment.tags: each standby on another rack than its active.
  press = await openAndPress(page, 'kstreams-rack-aware-standbys');
  await waitCards();
  await press();
  cs = await cards(page);
  assert.ok(cs.every((c) => c.rack), 'every card shows its rack');
  const tasks = cs.flatMap(actives);
  assert.ok(tasks.length > 0);
  replicas(cs, tasks.length, standbyReplicas('kstreams-rack-aware-standbys'));
  for (const t of tasks) {
    const a = cs.find((c) => actives(c).includes(t));
    for (const s of cs.filter((c) => standbys(c).includes(t))) assert.notEqual(s.rack, a.rack, `${t}: ${a.name} and ${s.name}`);
  }
  assert.deepEqual(errors, []);
});
