//! Every lesson replayed step by step: each step replays, its narration has 2–4
//! sentences, and every number it quotes is the engine's (found in the replayed
//! state, the events, or the scenario's own inputs); plus targeted checks of the
//! key numbers against values read from the engine, the course's coverage, deep
//! links, asks, and the fidelity notes.

use lbscope::engine::flink::{self, LoadBalanceMode};
use lbscope::engine::kstreams::{self, TaskId};
use lbscope::engine::pulsar::{self, shed::ShedEvent};
use lbscope::engine::{Engine, Narrate, System};
use lbscope::lessons::{self, fidelity, text, AnyAction, Concept, Ctx, Lesson};
use lbscope::scenario::{url, Body, Log, MAX_ACTIONS};

// ---------- helpers ----------

fn lesson(id: &str) -> &'static Lesson {
    lessons::lesson(id).unwrap_or_else(|| panic!("no lesson {id}"))
}

/// The index of the step titled `title`.
fn at(id: &str, title: &str) -> usize {
    lesson(id)
        .steps
        .iter()
        .position(|s| s.title == title)
        .unwrap_or_else(|| panic!("{id} has no step {title:?}"))
}

fn narration(id: &str, k: usize) -> String {
    lesson(id).render(k).unwrap().narration
}

fn pulsar_ctx(id: &str, k: usize) -> Ctx<pulsar::Sim> {
    let l = lesson(id);
    let Body::Pulsar(log) = &l.scenario.body else {
        panic!("{id} is not Pulsar")
    };
    Ctx::replay(l.scenario.seed, log, l.steps[k].cursor).unwrap()
}

fn flink_ctx(id: &str, k: usize) -> Ctx<flink::Sim> {
    let l = lesson(id);
    let Body::Flink(log) = &l.scenario.body else {
        panic!("{id} is not Flink")
    };
    Ctx::replay(l.scenario.seed, log, l.steps[k].cursor).unwrap()
}

fn kstreams_ctx(id: &str, k: usize) -> Ctx<kstreams::Sim> {
    let l = lesson(id);
    let Body::Kstreams(log) = &l.scenario.body else {
        panic!("{id} is not Kafka Streams")
    };
    Ctx::replay(l.scenario.seed, log, l.steps[k].cursor).unwrap()
}

/// Everything the engine knows at a step, as text: the state, every event (data
/// and narration), the config and the scenario's actions (the learner's inputs).
fn corpus_of<S: Engine>(c: &Ctx<S>, log: &Log<S>) -> String {
    let mut s = format!("{:?}\n{:?}\n", c.state, c.state.config());
    for e in c.events() {
        s.push_str(&format!("{e:?}\n{}\n", e.narrate()));
    }
    s.push_str(&format!("{:?}\n{:?}\n", log.setup, log.actions));
    s.push_str(&format!("{:?}\n", S::Config::default()));
    s
}

fn corpus(l: &Lesson, k: usize) -> String {
    let cur = l.steps[k].cursor;
    let seed = l.scenario.seed;
    match &l.scenario.body {
        Body::Pulsar(log) => {
            let c = Ctx::<pulsar::Sim>::replay(seed, log, cur).unwrap();
            let mut s = corpus_of(&c, log);
            s.push_str(&format!("{:?}", c.state.broker_views()));
            s
        }
        Body::Flink(log) => {
            let c = Ctx::<flink::Sim>::replay(seed, log, cur).unwrap();
            let mut s = corpus_of(&c, log);
            s.push_str(&format!("{:?} {:?}", c.state.metrics(), c.state.tasks_per_tm()));
            s
        }
        Body::Kstreams(log) => {
            let c = Ctx::<kstreams::Sim>::replay(seed, log, cur).unwrap();
            let mut s = corpus_of(&c, log);
            s.push_str(&format!("{:?}", c.state.view()));
            s
        }
    }
}

/// Every number of the corpus, as numbers (decimals, and hex literals).
fn corpus_numbers(text: &str) -> Vec<f64> {
    // Split on anything that cannot be part of a number and parse each piece.
    let mut out = Vec::new();
    for tok in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')) {
        for part in tok.split('-') {
            let p = part.trim_matches('.');
            if let Some(h) = p.strip_prefix("0x") {
                if let Ok(v) = u64::from_str_radix(h, 16) {
                    out.push(v as f64);
                }
            } else {
                let digits: String = p
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                if let Ok(v) = digits.trim_end_matches('.').parse::<f64>() {
                    out.push(v);
                }
                // Trailing digits of names (`broker3`) and numbers after letters.
                let tail: String = p.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
                if let Ok(v) = tail.chars().rev().collect::<String>().parse::<f64>() {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The Flink lessons quote the spread of their run over seeds 0..10 (Flink leaves the
/// order of a region's slot requests to hash order): every prefix of the lesson's log,
/// replayed under each seed, outcomes as tasks per TaskManager largest first, with
/// their counts.
fn flink_spreads(id: &str) -> Vec<f64> {
    let l = lesson(id);
    let Body::Flink(log) = &l.scenario.body else {
        return Vec::new();
    };
    let mut out = vec![10.0];
    for cursor in 0..=log.actions.len() {
        let mut counts: std::collections::BTreeMap<Vec<u32>, u32> = Default::default();
        for seed in 0..10 {
            let c = Ctx::<flink::Sim>::replay(seed, log, cursor).unwrap();
            let mut v = c.state.tasks_per_tm();
            v.sort_unstable_by(|a, b| b.cmp(a));
            *counts.entry(v).or_default() += 1;
        }
        for (v, n) in counts {
            out.extend(v.iter().map(|&x| f64::from(x)));
            out.push(f64::from(n));
        }
    }
    out
}

/// Numbers a narration derives with the engine's own functions or from engine
/// values (computed here again, independently of the narrators).
fn derived(id: &str, k: usize) -> Vec<f64> {
    use pulsar::bundle::BundleRange;
    use pulsar::split::range_equally_divide;
    let mut out = Vec::new();
    if id.starts_with("pulsar-") {
        // Topics and sessions closed by the step's action, summed over its bundles.
        let c = pulsar_ctx(id, k);
        let (t, s) = c
            .pick_all(|e| match e {
                pulsar::Event::Reconnected { topics, sessions, .. } => Some((*topics, *sessions)),
                _ => None,
            })
            .into_iter()
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        out.extend([f64::from(t), f64::from(s)]);
    }
    if id.starts_with("flink-") {
        out.extend(flink_spreads(id));
    }
    out.extend(match (id, k) {
        // What range_equally_divide would do to the doc's bundle.
        ("pulsar-specified-positions-divide", 0) => range_equally_divide(BundleRange {
            lower: 0,
            upper: 0x4000_0000,
        })
        .boundaries
        .iter()
        .map(|b| f64::from(*b))
        .collect(),
        // The doc's reading of ThresholdShedder: usage − (average − 5 %).
        ("pulsar-threshold-shedder", 2) => {
            let c = pulsar_ctx(id, k);
            c.pick(|e| match e {
                pulsar::Event::Shed(ShedEvent::AboveThreshold { usage, average, .. }) => {
                    Some(vec![(average - 0.05) * 100.0, (usage - (average - 0.05)) * 100.0])
                }
                _ => None,
            })
            .unwrap_or_default()
        }
        _ => Vec::new(),
    });
    out
}

/// Numbers the narration may quote that come from the documents themselves
/// (versions), not from the engine.
const DOC_NUMBERS: [f64; 3] = [2.6, 2.8, 5.0];

fn engine_has(x: f64, ys: &[f64]) -> bool {
    ys.iter().any(|y| {
        (x - y).abs() <= 0.051 || (x - 100.0 * y).abs() <= 0.051 || (x - y / (1024.0 * 1024.0)).abs() <= 0.051
    })
}

// ---------- the course as a whole ----------

#[test]
fn every_step_replays_with_2_to_4_sentences_and_engine_numbers() {
    for l in lessons::all() {
        assert!(l.steps.len() >= 2, "{} has {} steps", l.id, l.steps.len());
        let mut last_cursor = 0;
        for k in 0..l.steps.len() {
            let v = l.render(k).unwrap_or_else(|e| panic!("{} step {k}: {e}", l.id));
            assert!(!v.narration.trim().is_empty(), "{} step {k}: empty", l.id);
            let n = text::sentences(&v.narration);
            assert!(
                (2..=4).contains(&n),
                "{} step {k}: {n} sentences: {}",
                l.id,
                v.narration
            );
            assert!(v.cursor >= last_cursor, "{} step {k}: cursor goes back", l.id);
            assert!(v.cursor <= l.log_len(), "{} step {k}", l.id);
            last_cursor = v.cursor;
            let mut nums = corpus_numbers(&corpus(l, k));
            nums.extend(derived(l.id, k));
            for x in text::numbers(&v.narration) {
                assert!(
                    engine_has(x, &nums) || DOC_NUMBERS.contains(&x),
                    "{} step {k}: {x} is not an engine number: {}",
                    l.id,
                    v.narration
                );
            }
        }
        let last = l.render(l.steps.len() - 1).unwrap();
        assert!(
            last.free_play && last.controls.contains(&lessons::Controls::All),
            "{}",
            l.id
        );
    }
}

#[test]
fn every_focus_names_an_element_of_the_state() {
    use lessons::SubjectKind as K;
    let mut total = 0;
    for l in lessons::all() {
        for k in 0..l.steps.len() {
            let v = l.render(k).unwrap();
            let seed = l.scenario.seed;
            for f in &v.focus {
                total += 1;
                let ok = match &l.scenario.body {
                    Body::Pulsar(log) => {
                        let c = Ctx::<pulsar::Sim>::replay(seed, log, v.cursor).unwrap();
                        match f.kind {
                            K::Bundle => c.state.bundles().keys().any(|b| b.to_string() == f.id),
                            K::Broker => c.state.brokers().keys().any(|b| b.as_str() == f.id),
                            _ => false,
                        }
                    }
                    Body::Flink(log) => {
                        let c = Ctx::<flink::Sim>::replay(seed, log, v.cursor).unwrap();
                        f.kind == K::Tm && c.state.task_managers().iter().any(|t| t.name == f.id)
                    }
                    Body::Kstreams(log) => {
                        let c = Ctx::<kstreams::Sim>::replay(seed, log, v.cursor).unwrap();
                        match f.kind {
                            K::Instance => c.state.instance(&f.id).is_some(),
                            K::Task => c.state.tasks().iter().any(|t| t.id.to_string() == f.id),
                            _ => false,
                        }
                    }
                };
                assert!(
                    ok,
                    "{} step {k}: focus {:?} {:?} is not in the state",
                    l.id, f.kind, f.id
                );
            }
        }
    }
    assert!(total >= 30, "only {total} focus subjects");
}

#[test]
fn menu_entries_and_links() {
    for (i, l) in lessons::all().iter().enumerate() {
        let info = l.info();
        assert_eq!((info.id.as_str(), info.steps), (l.id, l.steps.len()));
        assert!(serde_json::to_string(&info).unwrap().contains(l.id));
        assert_eq!(l.link(0), format!("#lesson={}&step=1", l.id));
        let v = l.render(0).unwrap();
        assert_eq!((v.index, v.of, v.lesson.as_str()), (0, l.steps.len(), l.id));
        assert!(serde_json::to_string(&v).is_ok());
        assert!(!l.idea.is_empty() && !l.title.is_empty(), "lesson {i}");
    }
}

#[test]
fn ids_are_unique_and_deep_link_safe() {
    let mut ids: Vec<&str> = lessons::all().iter().map(|l| l.id).collect();
    for id in &ids {
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id}"
        );
        let link = lessons::deep_link(id, 2);
        assert_eq!(lessons::parse_deep_link(&link), Some((id.to_string(), 2)));
    }
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate lesson ids");
}

#[test]
fn every_concept_has_a_lesson_in_course_order() {
    for c in Concept::ALL {
        assert!(
            lessons::all().iter().any(|l| l.concept == c),
            "{c:?} has no lesson"
        );
    }
    let order: Vec<Concept> = lessons::all().iter().map(|l| l.concept).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    // Systems in tab order.
    let systems: Vec<System> = lessons::all().iter().map(|l| l.system).collect();
    let mut s2 = systems.clone();
    s2.sort();
    assert_eq!(systems, s2);
}

#[test]
fn scenarios_are_valid_small_and_shareable() {
    for l in lessons::all() {
        l.scenario.validate().unwrap();
        assert!(
            l.scenario.action_count() < 200 && l.scenario.action_count() < MAX_ACTIONS,
            "{}",
            l.id
        );
        for k in 0..l.steps.len() {
            let s = l.scenario_at(k).unwrap();
            let link = url::to_fragment(&s);
            assert!(link.len() < 4000, "{} link is {} chars", l.id, link.len());
            assert_eq!(url::decode(&link).unwrap(), s, "{}", l.id);
        }
        assert!(lbscope::scenario::run::event_log(&l.scenario).is_ok(), "{}", l.id);
    }
}

/// "Next" plays one action at a time: a step that moves the lesson on by more
/// than one action would play several rounds in one press, with words for the
/// last only. Only the workload lessons, whose words narrate every round they
/// cover (a burst, a wave, jitter), and the scalable-topic lesson's wait for
/// the merge window jump further.
#[test]
fn next_plays_one_action_at_a_time_outside_the_workload_lessons() {
    let workload = [
        "pulsar-avg-shedder-jitter",
        "pulsar-avg-shedder-high-jitter",
        "pulsar-threshold-shedder-burst",
        "pulsar-transfer-shedder-wave",
        "kstreams-warmups-under-load",
        // Its merge step waits out the merge window (300 s, five rounds) and says so.
        "pulsar-scalable-topics",
    ];
    for l in lessons::all().iter().filter(|l| !workload.contains(&l.id)) {
        for (k, w) in l.steps.windows(2).enumerate() {
            assert!(
                w[1].cursor <= w[0].cursor + 1,
                "{} step {} → {}: Next would play {} actions at once",
                l.id,
                k + 1,
                k + 2,
                w[1].cursor - w[0].cursor
            );
        }
    }
}

#[test]
fn asks_are_the_next_logged_action() {
    let mut asks = 0;
    for l in lessons::all() {
        for (k, st) in l.steps.iter().enumerate() {
            let v = l.render(k).unwrap();
            match (&st.ask, &v.ask) {
                (Some(_), Some(a)) => {
                    asks += 1;
                    assert_eq!(Some(a.action.clone()), l.action(st.cursor), "{} step {k}", l.id);
                    assert!(l.satisfies(k, &a.action));
                    let next = &l.steps[k + 1];
                    assert!(
                        next.cursor > st.cursor,
                        "{} step {k}: the next step must show the action",
                        l.id
                    );
                }
                (None, None) => {}
                _ => panic!("{} step {k}: ask without an action", l.id),
            }
        }
    }
    assert!(asks >= 40, "only {asks} asks");
    let l = lesson("pulsar-crash-and-join");
    let wrong = AnyAction::Pulsar(pulsar::Action::CrashBroker {
        broker: "broker-3".into(),
    });
    assert!(!l.satisfies(0, &wrong));
    assert!(l.satisfies(
        0,
        &AnyAction::Pulsar(pulsar::Action::CrashBroker {
            broker: "broker-2".into()
        })
    ));
}

#[test]
fn real_system_boxes_name_configs_and_classes() {
    for l in lessons::all() {
        assert!(
            !l.real.classes.is_empty() || !l.real.commands.is_empty(),
            "{}",
            l.id
        );
        for c in &l.real.classes {
            assert!(c.starts_with("org.apache."), "{}: {c}", l.id);
        }
        for s in &l.real.settings {
            assert!(
                !s.default.is_empty() && s.default != "?",
                "{}: {} has no default",
                l.id,
                s.key
            );
        }
    }
    let t = lesson("pulsar-threshold-shedder");
    let s = t
        .real
        .settings
        .iter()
        .find(|s| s.key == "loadBalancerBrokerThresholdShedderPercentage")
        .unwrap();
    assert!(s.from_engine);
    assert_eq!(
        s.default.parse::<f64>().unwrap(),
        pulsar::Config::profile(pulsar::config::Profile::Pulsar4)
            .load_balancer_broker_threshold_shedder_percentage
    );
    assert!(lesson("pulsar-manual-split-and-unload")
        .real
        .commands
        .iter()
        .any(|c| c == "pulsar-admin namespaces split-bundle -b LARGEST -san topic_count_equally_divide -u my-tenant/my-namespace"));
    assert!(t
        .real
        .classes
        .iter()
        .any(|c| c == "org.apache.pulsar.broker.loadbalance.impl.ThresholdShedder"));
}

// ---------- the key numbers, read from the engine ----------

fn split_boundaries(c: &Ctx<pulsar::Sim>) -> Vec<u32> {
    c.pick(|e| match e {
        pulsar::Event::BundleSplit { plan, .. } => Some(plan.boundaries.clone()),
        _ => None,
    })
    .unwrap()
}

#[test]
fn flow_or_qps_quotes_exactly_the_engine_boundaries() {
    let id = "pulsar-flow-or-qps-equally-divide";
    let case1 = at(id, "Case 1: four cuts in one split");
    for (k, expect) in [
        (case1, 4),
        (at(id, "Case 2: throughput decides"), 2),
        (at(id, "Case 3: both limits agree"), 1),
    ] {
        let c = pulsar_ctx(id, k);
        let b = split_boundaries(&c);
        assert_eq!(b.len(), expect);
        let text = narration(id, k);
        let quoted: Vec<f64> = text::numbers(&text)
            .into_iter()
            .filter(|x| *x > 65536.0)
            .collect();
        for x in &b {
            assert!(text.contains(&text::hex(*x)), "step {k}: {text}");
        }
        // The only other ring positions quoted are the doc's printed ones (found in the
        // engine's own remark) and the step's midpoint arithmetic.
        for q in quoted {
            let q = q as u32;
            assert!(
                b.contains(&q) || [0x1950_0000, 0x3150_0000, 0x4850_0000, 0x6700_0000].contains(&q) || k == 1,
                "{q:#x}"
            );
        }
    }
    // Pulsar's values, not the doc's.
    assert_eq!(
        split_boundaries(&pulsar_ctx(id, case1)),
        vec![0x1C80_0001, 0x2E80_0001, 0x4880_0001, 0x6700_0001]
    );
    let doc_step = narration(id, at(id, "Where the doc's numbers differ"));
    assert!(
        doc_step.contains("0x19500000") && doc_step.contains("0x1c800001"),
        "{doc_step}"
    );
}

#[test]
fn topic_count_quotes_the_midpoint_and_the_doc_value() {
    let id = "pulsar-topic-count-equally-divide";
    let b = split_boundaries(&pulsar_ctx(id, 1));
    assert_eq!(b, vec![0x4D00_0000]);
    let t = narration(id, 1);
    assert!(t.contains(&text::hex(b[0])) && t.contains("0x50000000"), "{t}");
}

#[test]
fn threshold_shedder_quotes_20_percent_average_and_15_percent_offload() {
    let id = "pulsar-threshold-shedder";
    let c = pulsar_ctx(id, 1);
    let (avg, percent) = c
        .pick(|e| match e {
            pulsar::Event::Shed(ShedEvent::AboveThreshold {
                average,
                percent_to_offload,
                ..
            }) => Some((*average, *percent_to_offload)),
            _ => None,
        })
        .unwrap();
    assert!((avg - 0.20).abs() < 1e-9 && (percent - 0.15).abs() < 1e-9);
    let t = narration(id, 1);
    assert!(
        t.contains(&text::pct(avg)) && t.contains(&text::pct(percent)),
        "{t}"
    );
    // The doc's reading (5 % below the average) would be 25 points.
    assert!(narration(id, 2).contains(&text::num((0.40 - (avg - 0.05)) * 100.0)));
}

#[test]
fn overload_avg_uniform_transfer_quote_their_decisions() {
    let c = pulsar_ctx("pulsar-overload-shedder", 2);
    let chosen = c.pick_all(|e| match e {
        pulsar::Event::Shed(ShedEvent::BundleChosen { bundle, .. }) => Some(bundle.to_string()),
        _ => None,
    });
    assert_eq!(chosen.len(), 2, "the code adds bundles until the target is met");
    let t = narration("pulsar-overload-shedder", 2);
    assert!(chosen.iter().all(|b| t.contains(b.as_str())), "{t}");

    let id = "pulsar-avg-shedder";
    let first = pulsar_ctx(id, 1);
    assert!(first
        .pick(|e| match e {
            pulsar::Event::Shed(ShedEvent::AvgPair { fired, high_hits, .. }) =>
                Some(!*fired && *high_hits == 1),
            _ => None,
        })
        .unwrap());
    let second = pulsar_ctx(id, 2);
    let required = second
        .pick(|e| match e {
            pulsar::Event::Shed(ShedEvent::AvgPlan { required, .. }) => Some(*required),
            _ => None,
        })
        .unwrap();
    assert_eq!(required, 250.0);
    assert!(narration(id, 2).contains("= 250 msg/s"));
    let cfg = second.state.config();
    assert_eq!(
        (
            cfg.load_balancer_avg_shedder_hit_count_high_threshold,
            cfg.load_balancer_avg_shedder_hit_count_low_threshold
        ),
        (2, 8)
    );
    assert!(narration(id, 0).contains(&text::num(
        pulsar::Config::profile(pulsar::config::Profile::Pulsar4).min_unload_message
    )));

    let u = pulsar_ctx("pulsar-uniform-load-shedder", 1);
    let req = u
        .pick(|e| match e {
            pulsar::Event::Shed(ShedEvent::UniformImbalance { required, .. }) => Some(*required),
            _ => None,
        })
        .unwrap();
    assert!(narration("pulsar-uniform-load-shedder", 1).contains(&format!("{} msg/s", text::num(req))));

    let tr = pulsar_ctx("pulsar-transfer-shedder", 4);
    let hits = tr
        .pick(|e| match e {
            pulsar::Event::Shed(ShedEvent::TransferStats { hit_count, .. }) => Some(*hit_count),
            _ => None,
        })
        .unwrap();
    assert!(
        hits > tr
            .state
            .config()
            .load_balancer_shedding_condition_hit_count_threshold
    );
    assert!(narration("pulsar-transfer-shedder", 4).contains(&format!("held {hits} times")));
}

#[test]
fn pulsar_basics_quote_the_hash_the_lookup_and_the_blip() {
    let c = pulsar_ctx("pulsar-bundles-on-the-ring", 1);
    let hash = c
        .pick(|e| match e {
            pulsar::Event::TopicCreated { hash, .. } => Some(*hash),
            _ => None,
        })
        .unwrap();
    assert!(narration("pulsar-bundles-on-the-ring", 1).contains(&text::hex(hash)));
    let l = pulsar_ctx("pulsar-lookup", 1);
    let owner = l.state.owner_of_topic("my-topic").unwrap().0.clone();
    assert!(narration("pulsar-lookup", 1).contains(&*owner));
    let m = pulsar_ctx("pulsar-modular-vs-extensible", 1);
    let sessions: u32 = m
        .pick_all(|e| match e {
            pulsar::Event::Reconnected { sessions, .. } => Some(*sessions),
            _ => None,
        })
        .iter()
        .sum();
    assert!(sessions > 0);
    assert!(narration("pulsar-modular-vs-extensible", 1)
        .contains(&format!("{sessions} producer and consumer sessions")));
    // Post-assignment: no owner right after the modular unload; pre-assignment: an owner at once.
    assert!(m.state.ring_view("public/default", false).unwrap().bundles[0]
        .owner
        .is_none());
    let e = pulsar_ctx("pulsar-modular-vs-extensible", 4);
    assert_eq!(
        e.state.ring_view("public/default", false).unwrap().bundles[1]
            .owner
            .as_ref()
            .unwrap()
            .as_str(),
        "broker-3"
    );
    let crash = pulsar_ctx("pulsar-crash-and-join", 2);
    assert_eq!(crash.state.metrics().last().unwrap().unowned_bundles, 0);
}

#[test]
fn flink_quotes_4_3_2_against_3_3_3_and_the_slot_ranges() {
    let fx = |id: &str, title: &str| flink_ctx(id, at(id, title));
    let nx = |id: &str, title: &str| narration(id, at(id, title));
    let b = fx("flink-unequal-parallelism", "Figure (b)");
    assert_eq!(b.state.tasks_per_tm(), [4, 3, 2]);
    assert!(nx("flink-unequal-parallelism", "Figure (b)").contains("tm-0 4, tm-1 3 and tm-2 2"));
    // The run on screen is one draw of the hash order; the spread over seeds is beside it.
    let skew = nx("flink-unequal-parallelism", "Where the skew comes from");
    assert!(
        skew.contains("tm-0 took requests") && skew.contains("of 10 seeds"),
        "{skew}"
    );
    assert!(!skew.contains("the first TaskManager takes two of the heavy slots"));
    let p2 = "flink-phase-2-slots-to-taskmanagers";
    let h = fx(p2, "Figures (g) and (h)");
    let i = fx(p2, "Figure (i)");
    assert_eq!(
        (h.state.tasks_per_tm(), i.state.tasks_per_tm()),
        (vec![4, 3, 2], vec![3, 3, 3])
    );
    assert!(nx(p2, "Figure (i)").contains("tm-0 3, tm-1 3 and tm-2 3, a range of 0"));
    let p1 = "flink-phase-1-tasks-to-slots";
    let d = fx(p1, "Figure (d): the default");
    let e = fx(p1, "Figure (e): balanced");
    assert_eq!(
        (d.state.tasks_per_slot(), e.state.tasks_per_slot()),
        (vec![5, 4, 3, 2], vec![4, 4, 3, 3])
    );
    assert!(nx(p1, "Figure (d): the default").contains(&text::bracket(&d.state.tasks_per_slot())));
    assert!(nx(p1, "Figure (e): balanced").contains(&text::bracket(&e.state.tasks_per_slot())));
    let s = fx("flink-slots-mode-is-not-tasks-mode", "Still skewed");
    assert_eq!(s.state.config().effective_mode(), LoadBalanceMode::Slots);
    assert_eq!(s.state.tasks_per_tm(), [4, 3, 2]);
    let wn = "flink-when-not-to-use-tasks-mode";
    let w = fx(wn, "The default depends on the order");
    let t = fx(wn, "Steady, not the best");
    assert_eq!(t.state.tasks_per_tm(), [3, 5]);
    let mut d = w.state.tasks_per_tm();
    d.sort_unstable_by(|a, b| b.cmp(a));
    assert!([vec![4, 4], vec![5, 3], vec![6, 2]].contains(&d), "{d:?}");
    // The spread over seeds is quoted next to the run on screen.
    assert!(nx(wn, "The default depends on the order").contains("of 10 seeds"));
    assert!(nx(wn, "Steady, not the best")
        .contains("tm-0 3 and tm-1 5, a range of 2, in every run ([5, 3] in all 10 seeds)"));
    let fo = "flink-failover-max-interval";
    let f1 = fx(fo, "A stale view");
    let f3 = fx(fo, "Balanced again, later");
    assert_eq!(f1.state.tasks_per_tm(), [4, 3, 2]);
    assert_eq!(f3.state.tasks_per_tm(), [3, 3, 3]);
    let (t1, t3) = (
        f1.state.metrics().unwrap().scheduling_time_ms,
        f3.state.metrics().unwrap().scheduling_time_ms,
    );
    assert!(nx(fo, "A stale view").contains(&format!("in {t1} ms")));
    assert!(nx(fo, "Balanced again, later").contains(&format!("in {t3} ms")));
    assert!(t3 > t1);
}

#[test]
fn kstreams_quotes_the_idle_instance_restore_and_standby() {
    let id = "kstreams-partitions-to-tasks";
    let c = kstreams_ctx(id, 1);
    let idle: Vec<String> = c.pick_all(|e| match e {
        kstreams::Event::InstanceIdle { instance, .. } => Some(instance.clone()),
        _ => None,
    });
    assert_eq!(c.state.tasks().len(), 5);
    assert_eq!(idle.len(), 1);
    assert!(narration(id, 1).contains(&format!("{} idles", idle[0])));
    let after = kstreams_ctx(id, 2);
    assert!(
        !after.state.instance(&idle[0]).unwrap().active_tasks().is_empty(),
        "the idle instance took over"
    );
    assert!(narration(id, 2).contains(&format!("{} was idle", idle[0])));

    let r = kstreams_ctx("kstreams-state-restore", 2);
    let (recs, ms) = r
        .pick(|e| match e {
            kstreams::Event::TaskAssigned {
                task,
                role: kstreams::Role::Active,
                restore_records,
                restore_ms,
                ..
            } if *task == TaskId::new(0, 0) => Some((*restore_records, *restore_ms)),
            _ => None,
        })
        .unwrap();
    assert_eq!((recs, ms), (50_000, 5_000));
    let t = narration("kstreams-state-restore", 2);
    assert!(
        t.contains(&format!("replay {recs} records")) && t.contains(&format!("takes {ms} ms")),
        "{t}"
    );

    let s = kstreams_ctx("kstreams-standby-failover", 1);
    let got = s
        .pick(|e| match e {
            kstreams::Event::TaskAssigned {
                task,
                role: kstreams::Role::Active,
                restore_records,
                ..
            } if *task == TaskId::new(0, 0) => Some(*restore_records),
            _ => None,
        })
        .unwrap();
    assert_eq!(got, 0);
    assert!(narration("kstreams-standby-failover", 1).contains("with 0 records to restore"));

    let rk = kstreams_ctx("kstreams-rack-aware-standbys", 1);
    for t in rk.state.tasks() {
        let a = rk.state.active_owner(t.id).unwrap();
        let sb = rk.state.standby_owners(t.id)[0];
        assert_ne!(
            rk.state.instance(a).unwrap().rack,
            rk.state.instance(sb).unwrap().rack
        );
    }
    let n = rk.state.tasks().len();
    assert!(narration("kstreams-rack-aware-standbys", 1).contains(&format!("{n} of {n} standbys")));
    assert!(
        narration("kstreams-rack-aware-actives", 2).contains("Now 0 of 8 partitions are read across racks")
    );
}

// ---------- fidelity ----------

#[test]
fn fidelity_notes_are_complete_and_cover_the_known_differences() {
    let notes = fidelity::notes();
    for n in &notes {
        assert!(!n.topic.is_empty() && !n.doc.is_empty() && !n.code.is_empty() && !n.lbscope.is_empty());
        if let Some(l) = n.lesson {
            let l = lesson(l);
            assert_eq!(l.system, n.system, "{}", n.topic);
        }
    }
    for s in System::ALL {
        assert!(notes.iter().any(|n| n.system == s), "{s:?}");
    }
    let has = |needle: &str| notes.iter().any(|n| format!("{n:?}").contains(needle));
    for needle in [
        "ThresholdShedder",
        "0x4D000000",
        "0x1C800001, 0x2E800001, 0x48800001, 0x67000001",
        "minUnloadMessage",
        "exactly one bundle",
        "3.0",
        "[4, 3, 2]",
        "[3, 3, 3, 0]",
        "tasks mode gives [5, 3] in every run",
        "hash order",
        "connectNewDataSetAsInput",
        "client.rack",
        "no feasible flow",
        "One changelog record per input record",
        "Local state stays",
        "crash is seen at once",
        "linear model",
        "max-interval",
    ] {
        assert!(has(needle), "no fidelity note mentions {needle}");
    }
}

#[test]
fn fidelity_claims_hold_in_the_engine() {
    use flink::job_graph::{DistributionPattern as P, EdgeSpec, JobSpec, VertexSpec};
    // Tasks mode with a spare TaskManager balances only among those that got slots.
    let mut s = flink::Sim::new(flink::Config::with_mode(LoadBalanceMode::Tasks), 1).unwrap();
    s.apply(&flink::Action::DefineJob {
        job: JobSpec {
            vertices: vec![VertexSpec::new("JV-A", 6), VertexSpec::new("JV-B", 3)],
            edges: vec![EdgeSpec::new("JV-A", "JV-B", P::Hash)],
        },
    })
    .unwrap();
    s.apply(&flink::Action::AddTaskManagers {
        count: 4,
        slots: Some(2),
    })
    .unwrap();
    s.apply(&flink::Action::Schedule).unwrap();
    assert_eq!(s.tasks_per_tm(), [3, 3, 3, 0]);
    // Heap memory is not part of the load.
    let mut p = pulsar::Sim::new(pulsar::Config::profile(pulsar::config::Profile::Pulsar4), 1).unwrap();
    p.apply(&pulsar::Action::AddBroker {
        broker: "b".into(),
        capacity: Default::default(),
    })
    .unwrap();
    p.apply(&pulsar::Action::SetBrokerLoad {
        broker: "b".into(),
        usage: pulsar::broker::DirectUsage {
            memory: Some(95.0),
            ..Default::default()
        },
    })
    .unwrap();
    assert!(p.broker_loads()[0].1 < 10.0);
}

#[test]
fn rendering_errors_are_named() {
    let l = lesson("pulsar-lookup");
    assert!(matches!(l.render(99), Err(lessons::LessonError::NoStep { .. })));
    assert!(l.scenario_at(99).is_none());
    assert!(lessons::lesson("nope").is_none());
    assert_eq!(lessons::of_system(System::Flink).count(), 6);
}

#[test]
#[ignore]
fn dump() {
    let only = std::env::var("LESSON").unwrap_or_default();
    for l in lessons::all() {
        if !only.is_empty() && !l.id.contains(&only) {
            continue;
        }
        println!("==== {} ({} steps)", l.id, l.steps.len());
        for k in 0..l.steps.len() {
            let v = l.render(k).unwrap();
            println!(
                "-- step {k} [{}] cursor {} ({} sentences)",
                v.title,
                v.cursor,
                text::sentences(&v.narration)
            );
            println!("   {}", v.narration);
        }
    }
}
