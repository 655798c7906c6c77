// The fidelity forms in a real browser, one per system end to end: Pulsar's
// isolation policy and version profile, Flink's scheduler choice beside the
// other scheduler, Kafka Streams' assignor keys and the client.rack note. Each
// checks the refusal shown next to the form (with what was typed kept) and the
// resulting log and events through window.lbscope.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, screenshot, unfold } from './harness.mjs';

let server;

before(async () => {
  server = await serveDist();
});

after(async () => {
  await server?.close();
});

/** A fresh browser profile (no autosave), the app open on the tab named `tab`. */
async function open(t, tab, ready) {
  const context = await launch();
  t.after(() => context.close());
  const { page, errors } = await openApp(context, server.url);
  await page.click(`button[role=tab]:has-text("${tab}")`);
  await page.waitForSelector(ready);
  return { page, errors };
}

const actions = (page) => page.evaluate(() => {
  const s = window.lbscope.scenario;
  return [...(s.setup ?? []), ...(s.actions ?? [])];
});
const events = (page) => page.evaluate(() => window.lbscope.events.join('\n'));

test('Pulsar: isolation policy set and delete, a bad regex refused in place; the profile switch', async (t) => {
  const { page, errors } = await open(t, 'Pulsar', '.pulsar-tab');
  // The active profile is on screen without opening anything.
  assert.equal(await page.getAttribute('.profile-switch', 'data-active'), 'pulsar-5.0');
  // The admin forms are built when their fold first opens, and kept (with what was typed) once it closes.
  const admin = 'details[data-controls~="pulsar-admin-forms"] > summary';
  assert.equal(await page.locator('#iso-namespaces').count(), 0);
  await page.click(admin);
  await page.waitForSelector('#iso-namespaces', { state: 'visible' });
  await page.fill('#ab-bundle', 'public/default/0x00000000_0x40000000');
  await page.click(admin);
  await page.waitForSelector('#iso-namespaces', { state: 'hidden' });
  await page.keyboard.press('n');
  await page.click(admin);
  await page.waitForSelector('#iso-namespaces', { state: 'visible' });
  assert.equal(await page.inputValue('#ab-bundle'), 'public/default/0x00000000_0x40000000');
  await page.fill('#ab-bundle', '');

  // A regex the engine cannot compile: its message next to the form, the text kept.
  await page.fill('#iso-namespaces', 'public/(default');
  await page.fill('#iso-primary', 'broker-1');
  await page.click('#iso-set');
  const refusal = page.locator('.field-error[data-field="pulsar-isolation"]');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /does not compile/);
  assert.equal(await page.inputValue('#iso-namespaces'), 'public/(default');
  assert.ok(!(await actions(page)).some((a) => a.op === 'ns_isolation_policy_set'), 'a refused action is not logged');

  // Fixed: the engine takes the policy; it is listed and logged with its numbers.
  await page.fill('#iso-namespaces', 'public/default');
  await page.fill('#iso-secondary', 'broker-2');
  await page.fill('#iso-min-limit', '2');
  await page.click('#iso-set');
  await page.waitForSelector('.admin-list li[data-policy="policy-1"]');
  assert.equal(await refusal.count(), 0);
  const set = (await actions(page)).find((a) => a.op === 'ns_isolation_policy_set');
  assert.deepEqual(set.namespaces, ['public/default']);
  assert.deepEqual(set.primary, ['broker-1']);
  assert.deepEqual(set.secondary, ['broker-2']);
  assert.deepEqual(set.auto_failover_policy, { policy_type: 'min_available', min_limit: 2, usage_threshold: 80 });
  assert.match(await events(page), /namespace isolation policy policy-1 .*min_limit=2 usage_threshold=80/);
  await page.locator('details[data-controls~="pulsar-admin-forms"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'fidelity-ui-pulsar-admin');

  // Delete it again.
  await page.click('button[aria-label="Delete policy policy-1"]');
  await page.waitForFunction(() => !document.querySelector('.admin-list li[data-policy="policy-1"]'));
  assert.ok((await actions(page)).some((a) => a.op === 'ns_isolation_policy_delete' && a.policy === 'policy-1'));

  // The profile select applies the other profile's defaults.
  await page.selectOption('.profile-switch select', 'pulsar-4.2');
  await page.waitForSelector('.profile-switch[data-active="pulsar-4.2"]');
  assert.ok((await actions(page)).some((a) => a.op === 'set_profile' && a.profile === 'pulsar-4.2'));
  assert.match(await page.textContent('.profile-switch'), /ThresholdShedder/);
  assert.deepEqual(errors, []);
});

test('Flink: the adaptive scheduler beside the default one; a bad resource profile refused in place', async (t) => {
  const { page, errors } = await open(t, 'Flink', '.slot-grid[data-role=session] .tm-row');
  await page.click('details[data-controls~="flink-scheduler-forms"] > summary');
  await page.waitForSelector('#flink-scheduler', { state: 'visible' });
  // The choices are the knob table's.
  assert.deepEqual(await page.locator('#flink-scheduler option').evaluateAll((o) => o.map((x) => x.value)), ['default', 'adaptive']);
  // Default now: the session is the default side, the adaptive side is replayed.
  await page.waitForSelector('.scheduler-side[data-scheduler=default][data-session=true]');
  await page.waitForSelector('.scheduler-side[data-scheduler=adaptive][data-session=false]');
  assert.match(await page.textContent('.scheduler-side[data-scheduler=default] .counts'), /Tasks per TaskManager \[4, 3, 2\]/);

  await page.selectOption('#flink-scheduler', 'adaptive');
  await page.waitForSelector('.scheduler-side[data-scheduler=adaptive][data-session=true]');
  const s = await page.evaluate(() => window.lbscope.scenario);
  assert.ok(JSON.stringify(s).includes('"jobmanager.scheduler":"adaptive"'), JSON.stringify(s.actions));
  const adaptive = await page.textContent('.scheduler-side[data-scheduler=adaptive]');
  assert.match(adaptive, /Tasks per TaskManager \[/);
  assert.ok((await page.locator('.scheduler-side[data-scheduler=adaptive] .matching li').count()) > 0);
  assert.ok((await page.locator('.scheduler-side[data-scheduler=default] .matching li').count()) > 0);
  assert.match(await events(page), /adaptive/i);

  // Fine-grained resources: zero cores is the engine's to refuse.
  await page.fill('#ssg-cpu', '0');
  await page.click('#ssg-set');
  const refusal = page.locator('.field-error[data-field="flink-ssg-resources"]');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /cpu_cores/);
  assert.equal(await page.inputValue('#ssg-cpu'), '0');
  await page.fill('#ssg-cpu', '0.5');
  await page.click('#ssg-set');
  await page.waitForFunction(() => window.lbscope.events.some((e) => /0\.5 cores, 512 MB/.test(e)));
  await page.locator('details[data-controls~="flink-scheduler-forms"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'fidelity-ui-flink-scheduler');
  assert.deepEqual(errors, []);
});

test('Kafka Streams: task.assignor.class, internal.task.assignor.class and group.protocol; the client.rack note', async (t) => {
  const { page, errors } = await open(t, 'Kafka Streams', '.ks article.ks-instance');
  // The old two-value select is gone; the keys are set in the Assignor section.
  assert.equal(await page.locator('select#ks-assignor').count(), 0);
  await page.click('details[data-controls~="ks-assignor-forms"] > summary');
  await page.waitForSelector('#ks-assignor-class', { state: 'visible' });
  assert.equal(await page.getAttribute('.ks-assignor', 'data-assignor'), 'HighAvailabilityTaskAssignor');
  assert.deepEqual(await page.locator('#ks-group-protocol option').evaluateAll((o) => o.map((x) => x.value)), ['classic', 'streams']);
  assert.equal(await page.locator('#ks-internal-assignor option').count(), 2);

  // A class Kafka cannot instantiate: Kafka's message in place, the typed class kept.
  await page.fill('#ks-assignor-class', 'com.example.NoSuchAssignor');
  await page.click('#ks-assignor-set');
  const refusal = page.locator('.field-error[data-field="ks-assignor"]');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /Expected an instantiable class name for task.assignor.class/);
  assert.equal(await page.inputValue('#ks-assignor-class'), 'com.example.NoSuchAssignor');

  // KIP-924's built-in StickyTaskAssignor.
  const sticky = 'org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor';
  await page.fill('#ks-assignor-class', sticky);
  await page.click('#ks-assignor-set');
  await page.waitForSelector('.ks-assignor[data-assignor="StickyTaskAssignor"]');
  assert.ok((await actions(page)).some((a) => a.op === 'set_config' && a.config['task.assignor.class'] === sticky));
  await unfold(page, 'details.ks-time');
  await page.click('.ks-controls button.ks-primary:has-text("Rebalance")');
  await page.waitForFunction(() => window.lbscope.events.some((e) => /StickyTaskAssignor/.test(e)));

  // Unset: internal.task.assignor.class decides again; then the streams protocol.
  await page.click('#ks-assignor-unset');
  await page.waitForSelector('.ks-assignor[data-assignor="HighAvailabilityTaskAssignor"]');
  await page.selectOption('#ks-internal-assignor', { index: 1 });
  await page.waitForSelector('.ks-assignor[data-assignor="LegacyStickyTaskAssignor"]');
  await page.selectOption('#ks-group-protocol', 'streams');
  await page.waitForSelector(".ks-assignor[data-assignor=\"the group coordinator's StickyTaskAssignor\"]");
  assert.ok((await actions(page)).some((a) => a.op === 'set_config' && a.config['group.protocol'] === 'streams'));

  // Instances set client.rack and no rack.aware.assignment.tags: the plain note.
  const note = page.locator('.client-rack-note');
  await note.waitFor();
  assert.match(await note.textContent(), /course document says/);
  assert.match(await note.textContent(), /least-loaded instance without a copy/);
  await page.locator('details[data-controls~="ks-assignor-forms"]').scrollIntoViewIfNeeded();
  await screenshot(page, 'fidelity-ui-kstreams-assignor');
  assert.deepEqual(errors, []);
});
