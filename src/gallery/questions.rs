//! The questions gallery: symptoms operators keep reporting upstream, each
//! rebuilt as a scenario, with a diagnosis sentence computed from the replayed
//! engine, the setting that fixes it, and the same scenario under that setting
//! (opened as the playground's Compare run).

use super::outcome;
use crate::engine::pulsar::config::{Profile, SheddingStrategy};
use crate::engine::pulsar::ids::{BrokerId, BundleId};
use crate::engine::pulsar::place::{PlaceEvent, PlacementFilter};
use crate::engine::schema::Patch;
use crate::engine::{flink, kstreams, pulsar, Engine, System};
use crate::scenario::{presets, Body, InBody, Scenario};
use serde_json::Value;
use std::sync::OnceLock;

/// `#question=<slug>`.
pub fn deep_link(slug: &str) -> String {
    format!("#question={slug}")
}

/// The slug of `question=<slug>` in a fragment, if there is one.
pub fn parse_deep_link(fragment: &str) -> Option<String> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .find_map(|p| p.strip_prefix("question="))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

type Diagnose = fn(&Scenario) -> Result<String, String>;

/// One question.
pub struct Question {
    /// Deep-link slug.
    pub slug: &'static str,
    /// The symptom, as people ask it.
    pub symptom: &'static str,
    /// The system.
    pub system: System,
    /// Where people asked it (an upstream issue, proposal or guide).
    pub sources: &'static [(&'static str, &'static str)],
    /// The config key that fixes it, by its real name.
    pub fix_key: &'static str,
    /// Its value in the fix (JSON, as the settings take it).
    pub fix_value: &'static str,
    build: fn() -> Scenario,
    diagnose: Diagnose,
}

impl std::fmt::Debug for Question {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Question").field("slug", &self.slug).finish()
    }
}

impl Question {
    /// The scenario showing the symptom (its whole log applied).
    pub fn scenario(&self) -> Scenario {
        (self.build)()
    }

    /// The fix's value.
    pub fn fix(&self) -> (String, Value) {
        (
            self.fix_key.to_string(),
            serde_json::from_str(self.fix_value).unwrap_or(Value::Null),
        )
    }

    /// The scenario with the fix applied to its config.
    pub fn fixed(&self) -> Result<Scenario, String> {
        let mut sc = self.scenario();
        let (key, value) = self.fix();
        fn patch<E: InBody>(body: &mut Body, key: &str, value: &Value) -> Result<(), String> {
            let log = E::log_mut(body).ok_or("another system")?;
            log.config = Patch::one(key, value.clone())
                .and_then(|p| p.apply_to(&log.config))
                .map_err(|e| e.to_string())?;
            Ok(())
        }
        match sc.body {
            Body::Pulsar(_) => patch::<pulsar::Sim>(&mut sc.body, &key, &value)?,
            Body::Flink(_) => patch::<flink::Sim>(&mut sc.body, &key, &value)?,
            Body::Kstreams(_) => patch::<kstreams::Sim>(&mut sc.body, &key, &value)?,
        }
        Ok(sc)
    }

    /// The diagnosis of the symptom, from the engine.
    pub fn diagnosis(&self) -> Result<String, String> {
        (self.diagnose)(&self.scenario())
    }

    /// What the same scenario does with the fix, from the engine.
    pub fn with_fix(&self) -> Result<String, String> {
        (self.diagnose)(&self.fixed()?)
    }

    /// The deep link.
    pub fn link(&self) -> String {
        deep_link(self.slug)
    }
}

/// Every question.
pub fn all() -> &'static [Question] {
    static ALL: OnceLock<Vec<Question>> = OnceLock::new();
    ALL.get_or_init(questions)
}

/// The question with this slug.
pub fn question(slug: &str) -> Option<&'static Question> {
    all().iter().find(|q| q.slug == slug)
}

/// Rounds the idle-broker question runs.
const IDLE_ROUNDS: usize = 5;

fn idle_broker() -> Scenario {
    // The playground's grown cluster (broker-1 owned everything, broker-2 and
    // broker-3 joined), with Pulsar 4.x's modular defaults but OverloadShedder.
    let mut log = presets::pulsar_playground(4);
    log.config = pulsar::Config {
        load_balancer_load_shedding_strategy: SheddingStrategy::OverloadShedder,
        ..pulsar::Config::profile(Profile::Pulsar4)
    };
    log.actions = vec![pulsar::Action::Step; IDLE_ROUNDS];
    Scenario::of::<pulsar::Sim>(1, log)
}

fn diagnose_idle_broker(sc: &Scenario) -> Result<String, String> {
    let o = outcome::<pulsar::Sim>(sc)?;
    let s = &o.after.state;
    let views = s.broker_views();
    let total: usize = views.iter().map(|b| b.bundles).sum();
    let joined: Vec<_> = views.iter().filter(|b| b.id.as_str() != "broker-1").collect();
    let moved: usize = joined.iter().map(|b| b.bundles).sum();
    let busiest = views
        .iter()
        .max_by(|a, b| a.load.total_cmp(&b.load))
        .ok_or("no brokers")?;
    let strategy = s.config().load_balancer_load_shedding_strategy;
    let unloads = o
        .after
        .steps
        .iter()
        .flat_map(|st| st.events.iter())
        .filter(|e| matches!(e, pulsar::Event::Unloaded { .. }))
        .count();
    let names = joined
        .iter()
        .map(|b| b.id.to_string())
        .collect::<Vec<_>>()
        .join(" and ");
    Ok(if moved == 0 {
        format!(
            "After {} rounds {names} own none of the {total} bundles: {} unloads only from a broker above loadBalancerBrokerOverloadedThresholdPercentage = {:.0}%, and the busiest, {}, is at {:.0}%.",
            o.after.steps.len(),
            strategy.name(),
            s.config().load_balancer_broker_overloaded_threshold_percentage,
            busiest.id,
            busiest.load
        )
    } else {
        format!(
            "After {} rounds {names} own {moved} of the {total} bundles: {} unloaded {unloads} bundle(s) from the busier broker; the busiest is now {} at {:.0}%.",
            o.after.steps.len(),
            strategy.name(),
            busiest.id,
            busiest.load
        )
    })
}

/// Rounds the hot-topic question runs.
const HOT_ROUNDS: usize = 6;
/// The hot topic's published rate, msg/s (over the bundle split threshold, 30000).
const HOT_RATE: f64 = 40_000.0;
const HOT_TOPIC: &str = "persistent://public/default/hot";
const HOT_SCALABLE: &str = "topic://public/default/hot-scalable";

fn hot_topic() -> Scenario {
    let traffic = pulsar::traffic::Traffic {
        msg_rate_in: HOT_RATE,
        msg_rate_out: HOT_RATE,
        throughput_in: HOT_RATE * 100.0,
        throughput_out: HOT_RATE * 100.0,
        producers: 4,
        consumers: 0,
    };
    let mut setup: Vec<pulsar::Action> = ["broker-1", "broker-2", "broker-3"]
        .iter()
        .map(|b| pulsar::Action::AddBroker {
            broker: b.to_string(),
            capacity: Default::default(),
        })
        .collect();
    setup.extend([
        pulsar::Action::CreateNamespace {
            namespace: "public/default".into(),
            bundles: Some(4),
        },
        pulsar::Action::CreateTopic {
            topic: HOT_TOPIC.into(),
        },
        pulsar::Action::SetTopicTraffic {
            topic: HOT_TOPIC.into(),
            traffic,
        },
        pulsar::Action::CreateScalableTopic {
            topic: HOT_SCALABLE.into(),
            segments: Some(1),
        },
        pulsar::Action::SetScalableTopicTraffic {
            topic: HOT_SCALABLE.into(),
            traffic,
            wave: None,
            hot_keys: None,
        },
    ]);
    let log = crate::scenario::Log::<pulsar::Sim> {
        // The symptom: automatic segment split/merge switched off.
        config: pulsar::Config {
            scalable_topic_auto_scale_enabled: false,
            ..pulsar::Config::profile(Profile::Pulsar5)
        },
        setup,
        actions: vec![pulsar::Action::Step; HOT_ROUNDS],
    };
    Scenario::of::<pulsar::Sim>(1, log)
}

fn diagnose_hot_topic(sc: &Scenario) -> Result<String, String> {
    let o = outcome::<pulsar::Sim>(sc)?;
    let s = &o.after.state;
    let splits = o
        .after
        .steps
        .iter()
        .flat_map(|st| st.events.iter())
        .filter(|e| matches!(e, pulsar::Event::BundleSplit { .. }))
        .count();
    let owner = s
        .owner_of_topic(HOT_TOPIC)
        .map_or("no broker".to_string(), |b| b.to_string());
    let segs = s.segment_views(HOT_SCALABLE);
    let mut brokers: Vec<&str> = segs.iter().filter_map(|v| v.owner.as_deref()).collect();
    brokers.sort_unstable();
    brokers.dedup();
    let busiest = segs.iter().map(|v| v.traffic.msg_rate_in).fold(0.0, f64::max);
    let cfg = s.config();
    Ok(format!(
        "After {} rounds the namespace's bundles were split {splits} time(s) (loadBalancerNamespaceBundleMaxMsgRate = {:.0}), yet {HOT_TOPIC} still publishes {:.0} msg/s on {owner} alone: a topic lives whole in one bundle, so splitting bundles cannot divide it. The scalable topic {HOT_SCALABLE} with the same traffic has {} segment(s) on {} broker(s), the busiest at {:.0} msg/s against scalableTopicSplitMsgRateInThreshold = {:.0}; {}",
        o.after.steps.len(),
        cfg.load_balancer_namespace_bundle_max_msg_rate,
        HOT_RATE,
        segs.len(),
        brokers.len(),
        busiest,
        cfg.scalable_topic_split_msg_rate_in_threshold,
        if cfg.scalable_topic_auto_scale_enabled {
            "its segments split at their midpoints and land in bundles of their own, so the load spreads."
        } else {
            "with scalableTopicAutoScaleEnabled = false its segments never split (only split-segment would)."
        }
    ))
}

fn uneven_tasks() -> Scenario {
    let sc = Scenario::from_json(include_str!("../../tests/scenarios/flink-figure-a-none.json"))
        .expect("golden scenario files parse");
    Scenario::with_body(sc.seed, sc.body)
}

fn diagnose_uneven_tasks(sc: &Scenario) -> Result<String, String> {
    let o = outcome::<flink::Sim>(sc)?;
    let s = &o.after.state;
    let per_tm = s.tasks_per_tm();
    let m = s.metrics().ok_or("not scheduled")?;
    let list = per_tm.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let per_slot = s
        .tasks_per_slot()
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    // Slots in use per TaskManager: what slot balancing evens out.
    let mut slots = vec![0u32; per_tm.len()];
    for a in s.placement().iter().flatten() {
        if let Some(n) = slots.get_mut(a.tm as usize) {
            *n += 1;
        }
    }
    let slots = slots.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let mode = s.config().effective_mode();
    // Flink draws the order of a region's slot requests: the same job lands
    // differently from run to run, so the diagnosis gives the spread over seeds.
    let spread = <flink::Sim as crate::scenario::InBody>::log(&sc.body)
        .and_then(|l| {
            flink::seed_spread::outcomes_over_seeds(&l.config, l.setup.iter().chain(l.actions.iter()), 0..10)
                .ok()
        })
        .map(|o| flink::seed_spread::describe(&o))
        .filter(|d| !d.is_empty())
        .map_or_else(String::new, |d| {
            format!(" Over seeds 0–9 (Flink draws the request order): {d}.")
        });
    Ok(format!(
        "With taskmanager.load-balance.mode = {}, the TaskManagers fill {slots} slots and run {list} tasks (a difference of {}) from slots holding {per_slot} tasks: {}{spread}",
        mode.name(),
        m.tm.range,
        if mode == flink::LoadBalanceMode::Tasks {
            "tasks mode weighs each slot by its count of tasks and evens out that count per TaskManager, not how much work each task does (a busy task weighs as much as an idle one)."
        } else {
            "each TaskManager's slots take the oldest pending requests in turn, whatever their task counts: slots are counted, not the tasks in them."
        }
    ))
}

fn standbys_same_rack() -> Scenario {
    let l = crate::lessons::lesson("kstreams-rack-aware-standbys").expect("the lesson exists");
    let mut sc = l.scenario.clone();
    sc.cursor = None;
    if let Body::Kstreams(log) = &mut sc.body {
        log.config.rack_aware_assignment_tags.clear();
    }
    sc
}

fn diagnose_standbys(sc: &Scenario) -> Result<String, String> {
    let o = outcome::<kstreams::Sim>(sc)?;
    let s = &o.after.state;
    let rack = |n: &str| {
        s.instance(n)
            .and_then(|i| i.tags.get("rack").cloned().or(i.rack.clone()))
    };
    let (mut same, mut total) = (0, 0);
    for t in s.tasks() {
        let Some(a) = s.active_owner(t.id) else {
            continue;
        };
        for sb in s.standby_owners(t.id) {
            total += 1;
            if rack(sb) == rack(a) {
                same += 1;
            }
        }
    }
    let tags = &s.config().rack_aware_assignment_tags;
    Ok(format!(
        "{same} of {total} standbys are on the same rack as their active task, with rack.aware.assignment.tags = [{}]: {}",
        tags.join(", "),
        if tags.is_empty() {
            "without a tag the assignor spreads standbys over instances, not racks, so losing a rack can take a task and its standby together."
        } else {
            "the assignor puts each standby on a rack its active is not on."
        }
    ))
}

/// The partitioned topic of the two-brokers question.
const PARTITIONED: &str = "persistent://public/default/my-topic";
/// Its partitions (apache/pulsar#10143 asked with 8).
const PARTITIONS: u32 = 8;

/// The partitioned topic's published rate, msg/s (each of the two bundles
/// carries more than loadBalancerNamespaceBundleMaxMsgRate).
const PARTITIONED_RATE: f64 = 80_000.0;
/// Rounds the two-brokers question runs.
const PARTITION_ROUNDS: usize = 6;

fn partitions_two_brokers() -> Scenario {
    // #386: the namespace has two bundles and automatic bundle splitting is
    // off (its default then); a topic of 8 partitions (#10143 asked with 8),
    // every partition looked up by a client, traffic on all of them.
    let mut setup: Vec<pulsar::Action> = ["broker-1", "broker-2", "broker-3"]
        .iter()
        .map(|b| pulsar::Action::AddBroker {
            broker: b.to_string(),
            capacity: Default::default(),
        })
        .collect();
    setup.push(pulsar::Action::CreateNamespace {
        namespace: presets::PULSAR_NAMESPACE.into(),
        bundles: Some(2),
    });
    setup.push(pulsar::Action::CreatePartitionedTopic {
        topic: PARTITIONED.into(),
        partitions: PARTITIONS,
    });
    setup.extend((0..PARTITIONS).map(|i| pulsar::Action::Lookup {
        topic: format!("{PARTITIONED}-partition-{i}"),
    }));
    setup.push(pulsar::Action::SetTopicTraffic {
        topic: PARTITIONED.into(),
        traffic: pulsar::traffic::Traffic {
            msg_rate_in: PARTITIONED_RATE,
            msg_rate_out: PARTITIONED_RATE,
            throughput_in: PARTITIONED_RATE * 100.0,
            throughput_out: PARTITIONED_RATE * 100.0,
            producers: 8,
            consumers: 8,
        },
    });
    let log = crate::scenario::Log::<pulsar::Sim> {
        config: pulsar::Config {
            load_balancer_auto_bundle_split_enabled: false,
            ..pulsar::Config::profile(Profile::Pulsar4)
        },
        setup,
        actions: vec![pulsar::Action::Step; PARTITION_ROUNDS],
    };
    Scenario::of::<pulsar::Sim>(1, log)
}

fn diagnose_partitions(sc: &Scenario) -> Result<String, String> {
    let o = outcome::<pulsar::Sim>(sc)?;
    let s = &o.after.state;
    let ring = s
        .ring_view(presets::PULSAR_NAMESPACE, true)
        .ok_or("no namespace")?;
    let mut bundles = 0;
    let mut per_broker: Vec<(String, u32)> = Vec::new();
    for b in &ring.bundles {
        let n = b
            .topic_list
            .iter()
            .filter(|t| t.name.as_str().starts_with(PARTITIONED))
            .count() as u32;
        if n == 0 {
            continue;
        }
        bundles += 1;
        let owner = b
            .owner
            .as_ref()
            .map_or("no broker".to_string(), |o| o.to_string());
        match per_broker.iter_mut().find(|(o, _)| *o == owner) {
            Some((_, k)) => *k += n,
            None => per_broker.push((owner, n)),
        }
    }
    crate::sort::sort_natural_by(&mut per_broker, |(o, _)| o.as_str());
    let alive = s.broker_views().iter().filter(|b| b.alive).count();
    let spread = per_broker
        .iter()
        .map(|(o, n)| format!("{o} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let splits = o
        .after
        .steps
        .iter()
        .flat_map(|st| st.events.iter())
        .filter(|e| matches!(e, pulsar::Event::BundleSplit { .. }))
        .count();
    let cfg = s.config();
    Ok(format!(
        "After {} rounds the {PARTITIONS} partitions of {PARTITIONED} lie in {bundles} of {}'s {} bundles and are served by {} of the {alive} brokers ({spread}): a bundle is assigned to one broker whole. With loadBalancerAutoBundleSplitEnabled = {} the leader split bundles {splits} time(s): a bundle splits once it carries more than loadBalancerNamespaceBundleMaxMsgRate = {:.0} msg/s, and the partitions carry {PARTITIONED_RATE:.0} in all.",
        o.after.steps.len(),
        presets::PULSAR_NAMESPACE,
        ring.bundles.len(),
        per_broker.len(),
        cfg.load_balancer_auto_bundle_split_enabled,
        cfg.load_balancer_namespace_bundle_max_msg_rate,
    ))
}

/// Rounds the bouncing question runs.
const BOUNCE_ROUNDS: usize = 40;
/// CPU held on broker-2 by something other than its topics, percent.
const BOUNCE_CPU: f64 = 70.0;

fn bundles_bounce() -> Scenario {
    // #16059 (sheddings again and again) and #8492 (the placement keeps only
    // the brokers owning the fewest bundles of the namespace): broker-2's CPU
    // is busy for another reason (set directly), so ThresholdShedder unloads
    // it, and the placement hands the bundle back to it.
    let broker = |b: &str| pulsar::Action::AddBroker {
        broker: b.to_string(),
        capacity: Default::default(),
    };
    // broker-1 and broker-3 take the namespace; broker-2 joins and is given
    // two bundles (pulsar-admin unload -d broker-2).
    let mut setup = vec![broker("broker-1"), broker("broker-3")];
    setup.extend([
        pulsar::Action::CreateNamespace {
            namespace: presets::PULSAR_NAMESPACE.into(),
            bundles: Some(8),
        },
        pulsar::Action::CreateTopics {
            namespace: presets::PULSAR_NAMESPACE.into(),
            prefix: "topic".into(),
            count: 32,
            traffic: presets::pulsar_traffic(3000.0),
        },
        pulsar::Action::Assign,
        broker("broker-2"),
    ]);
    for b in ["0x20000000_0x40000000", "0xc0000000_0xe0000000"] {
        setup.push(pulsar::Action::Unload {
            namespace: presets::PULSAR_NAMESPACE.into(),
            bundle: Some(b.into()),
            destination: Some("broker-2".into()),
        });
    }
    setup.extend([
        pulsar::Action::Assign,
        pulsar::Action::SetBrokerLoad {
            broker: "broker-2".into(),
            usage: pulsar::broker::DirectUsage {
                cpu: Some(BOUNCE_CPU),
                ..Default::default()
            },
        },
    ]);
    let log = crate::scenario::Log::<pulsar::Sim> {
        config: pulsar::Config {
            load_balancer_load_shedding_strategy: SheddingStrategy::ThresholdShedder,
            load_balancer_auto_bundle_split_enabled: false,
            ..pulsar::Config::profile(Profile::Pulsar4)
        },
        setup,
        actions: vec![pulsar::Action::Step; BOUNCE_ROUNDS],
    };
    Scenario::of::<pulsar::Sim>(1, log)
}

fn diagnose_bounce(sc: &Scenario) -> Result<String, String> {
    let o = outcome::<pulsar::Sim>(sc)?;
    let s = &o.after.state;
    let events = || o.after.steps.iter().flat_map(|st| st.events.iter());
    // Unloads (bundle, source); one whose bundle is owned by its source now
    // came back to a broker it had left.
    let unloads: Vec<(&BundleId, &BrokerId)> = events()
        .filter_map(|e| match e {
            pulsar::Event::Unloaded { bundle, from, .. } => Some((bundle, from)),
            _ => None,
        })
        .collect();
    let mut back: Vec<&BundleId> = Vec::new();
    for &(b, f) in &unloads {
        if s.bundles().get(b).and_then(|x| x.owner()) == Some(f) && !back.contains(&b) {
            back.push(b);
        }
    }
    let cfg = s.config();
    // Why: the placement filter that left only the broker the bundle left.
    let filtered = back.first().and_then(|b| {
        events().find_map(|e| match e {
            pulsar::Event::Place(PlaceEvent::Filtered {
                bundle,
                filter: PlacementFilter::RemoveMostServicingBrokersForNamespace,
                removed,
                left,
                ..
            }) if bundle == *b => Some((b, removed, *left)),
            _ => None,
        })
    });
    let why = match filtered {
        Some((b, removed, left)) => format!(
            "Placing {b}, loadBalancerDistributeBundlesEvenlyEnabled = true removed {} from the candidates for owning more bundles of the namespace ({left} left): the broker just unloaded owns the fewest, so it takes the bundle back.",
            removed.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(" and "),
        ),
        None => format!(
            "With loadBalancerDistributeBundlesEvenlyEnabled = {} an unloaded bundle may go to any broker, and stays there.",
            cfg.load_balancer_distribute_bundles_evenly_enabled
        ),
    };
    Ok(format!(
        "In {} rounds {} unloaded bundles {} time(s) from broker-2 (its CPU held at {BOUNCE_CPU:.0}%), and {} of them came back to a broker they had left. {why}",
        o.after.steps.len(),
        cfg.load_balancer_load_shedding_strategy.name(),
        unloads.len(),
        back.len(),
    ))
}

/// Records behind each task's changelog in the idle-instance question.
const IDLE_RECORDS: u64 = 200_000;
/// Minutes the idle-instance question runs after the new instance joins.
const IDLE_MINUTES: usize = 12;

fn new_instance_idle() -> Scenario {
    // KIP-441: a stateful app on three instances, caught up; app-4 joins.
    let mut log = presets::kstreams_counts();
    log.config = kstreams::Config {
        num_standby_replicas: 0,
        ..kstreams::Config::default()
    };
    if let Some(kstreams::Action::DefineTopic { partitions, .. }) = log.setup.first_mut() {
        *partitions = 6;
    }
    let offsets = (0..6)
        .map(|p| (kstreams::TaskId::new(0, p), IDLE_RECORDS))
        .collect();
    log.setup.insert(2, kstreams::Action::SetEndOffsets { offsets });
    log.setup.push(kstreams::Action::AdvanceTime { ms: 600_000 });
    log.actions = vec![kstreams::Action::AddInstance {
        name: "app-4".into(),
        threads: Some(1),
        rack: Some("rack-a".into()),
        tags: Default::default(),
        process_id: None,
    }];
    log.actions
        .extend((0..IDLE_MINUTES).map(|_| kstreams::Action::AdvanceTime { ms: 60_000 }));
    Scenario::of::<kstreams::Sim>(1, log)
}

fn diagnose_idle_instance(sc: &Scenario) -> Result<String, String> {
    let log = <kstreams::Sim as InBody>::log(&sc.body).ok_or("another system")?;
    // Replay one action at a time: when does app-4 run its first active task?
    let runs = |st: &kstreams::Sim| {
        st.tasks()
            .iter()
            .filter(|t| st.active_owner(t.id) == Some("app-4"))
            .count()
    };
    let start = crate::scenario::replay(sc.seed, log, Some(1)).map_err(|e| e.to_string())?;
    let joined = start.state.now_ms();
    let warmups: u32 = start
        .steps
        .iter()
        .flat_map(|s| s.events.iter())
        .filter_map(|e| match e {
            kstreams::Event::RebalanceCompleted { warmups, .. } => Some(*warmups),
            _ => None,
        })
        .next_back()
        .unwrap_or(0);
    let mut first = None;
    for k in 1..=log.actions.len() {
        let r = crate::scenario::replay(sc.seed, log, Some(k)).map_err(|e| e.to_string())?;
        if runs(&r.state) > 0 {
            first = Some((r.state.now_ms(), runs(&r.state)));
            break;
        }
    }
    let end = crate::scenario::replay(sc.seed, log, None).map_err(|e| e.to_string())?;
    let probes = end
        .steps
        .iter()
        .flat_map(|s| s.events.iter())
        .filter(|e| matches!(e, kstreams::Event::RebalanceCompleted { .. }))
        .count();
    let cfg = end.state.config();
    let wait = match first {
        Some((t, n)) => format!(
            "ran its first {n} active task(s) {} s after it joined",
            (t - joined) / 1000
        ),
        None => format!(
            "ran no active task in the {} s that followed",
            (end.state.now_ms() - joined) / 1000
        ),
    };
    Ok(format!(
        "app-4 joined with no state and {wait}: each task has {IDLE_RECORDS} records of state, more than acceptable.recovery.lag = {}, so the HighAvailability assignor first gave app-4 {warmups} warm-up replica(s) (max.warmup.replicas = {}) to restore, and moves an active task to it only at a probing rebalance once it has caught up, every probing.rebalance.interval.ms = {} ms ({probes} rebalance(s) in all).",
        cfg.acceptable_recovery_lag, cfg.max_warmup_replicas, cfg.probing_rebalance_interval_ms
    ))
}

fn questions() -> Vec<Question> {
    vec![
        Question {
            slug: "pulsar-new-broker-idle",
            symptom: "A new or restarted broker stays idle",
            system: System::Pulsar,
            sources: &[(
                "apache/pulsar#18215 (PIP-220)",
                "https://github.com/apache/pulsar/issues/18215",
            )],
            fix_key: "loadBalancerLoadSheddingStrategy",
            fix_value: "\"ThresholdShedder\"",
            build: idle_broker,
            diagnose: diagnose_idle_broker,
        },
        Question {
            slug: "pulsar-partitions-two-brokers",
            symptom: "A partitioned topic's partitions land on only two brokers",
            system: System::Pulsar,
            sources: &[
                ("apache/pulsar#10143", "https://github.com/apache/pulsar/issues/10143"),
                ("apache/pulsar#386", "https://github.com/apache/pulsar/issues/386"),
            ],
            fix_key: "loadBalancerAutoBundleSplitEnabled",
            fix_value: "true",
            build: partitions_two_brokers,
            diagnose: diagnose_partitions,
        },
        Question {
            slug: "pulsar-bundles-bounce",
            symptom: "Bundles keep bouncing between brokers",
            system: System::Pulsar,
            sources: &[
                ("apache/pulsar#16059", "https://github.com/apache/pulsar/issues/16059"),
                ("apache/pulsar#8492", "https://github.com/apache/pulsar/issues/8492"),
            ],
            fix_key: "loadBalancerDistributeBundlesEvenlyEnabled",
            fix_value: "false",
            build: bundles_bounce,
            diagnose: diagnose_bounce,
        },
        Question {
            slug: "pulsar-hot-topic",
            symptom: "A hot topic cannot be split further",
            system: System::Pulsar,
            sources: &[(
                "PIP-460 (scalable topics)",
                "https://github.com/apache/pulsar/blob/master/pip/pip-460.md",
            )],
            fix_key: "scalableTopicAutoScaleEnabled",
            fix_value: "true",
            build: hot_topic,
            diagnose: diagnose_hot_topic,
        },
        Question {
            slug: "flink-uneven-tasks",
            symptom: "Tasks are uneven across TaskManagers",
            system: System::Flink,
            sources: &[(
                "FLIP-370",
                "https://cwiki.apache.org/confluence/display/FLINK/FLIP-370%3A+Support+Balanced+Tasks+Scheduling",
            )],
            fix_key: "taskmanager.load-balance.mode",
            fix_value: "\"tasks\"",
            build: uneven_tasks,
            diagnose: diagnose_uneven_tasks,
        },
        Question {
            slug: "kstreams-new-instance-idle",
            symptom: "A new instance stays idle for a while",
            system: System::Kstreams,
            sources: &[(
                "KIP-441",
                "https://cwiki.apache.org/confluence/display/KAFKA/KIP-441%3A+Smooth+Scaling+Out+for+Kafka+Streams",
            )],
            fix_key: "probing.rebalance.interval.ms",
            fix_value: "60000",
            build: new_instance_idle,
            diagnose: diagnose_idle_instance,
        },
        Question {
            slug: "kstreams-standbys-same-rack",
            symptom: "Standbys land in the same zone as their active",
            system: System::Kstreams,
            sources: &[(
                "KIP-708",
                "https://cwiki.apache.org/confluence/display/KAFKA/KIP-708%3A+Rack+aware+StandbyTask+assignment+for+Kafka+Streams",
            )],
            fix_key: "rack.aware.assignment.tags",
            fix_value: "[\"rack\"]",
            build: standbys_same_rack,
            diagnose: diagnose_standbys,
        },
    ]
}

/// Plain text of a question (the CLI's `preset NAME --describe`).
pub fn describe(q: &Question) -> String {
    let text = |r: Result<String, String>| r.unwrap_or_else(|e| format!("(not computed: {e})"));
    let sources = q
        .sources
        .iter()
        .map(|(l, u)| format!("{l} <{u}>"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{} ({})\n{}\nAsked in: {sources}\nDiagnosis: {}\nFix: {} = {}\nWith the fix: {}\n",
        q.symptom,
        q.system.title(),
        q.link(),
        text(q.diagnosis()),
        q.fix_key,
        q.fix_value,
        text(q.with_fix())
    )
}
