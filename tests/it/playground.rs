//! The playground store, natively: what the page does with each message, with
//! the browser's inputs (fragment, saved workspace) given as data.

use lbscope::engine::{flink, kstreams, pulsar, System};
use lbscope::lessons;
use lbscope::playground::{Boot, Field, LessonMsg, Msg, Notice, Page, Store, Workspace};
use lbscope::scenario::{presets, url, Scenario};
use serde_json::json;

fn boot(fragment: Option<&str>, saved: Option<String>) -> Store {
    Store::boot(Boot {
        fragment: fragment.map(str::to_string),
        saved,
        ..Boot::default()
    })
}

fn run(mut s: Store, msgs: impl IntoIterator<Item = Msg>) -> Store {
    for m in msgs {
        s = s.reduce(m);
    }
    s
}

fn topic(name: &str) -> Msg {
    Msg::act(pulsar::Action::CreateTopic { topic: name.into() })
}

fn cursor(s: &Store) -> usize {
    s.history().cursor
}

#[test]
fn a_fresh_store_shows_every_default_scenario() {
    let s = boot(None, None);
    assert_eq!(s.tab, System::Pulsar);
    for sys in System::ALL {
        assert_eq!(s.own(sys).get().scenario(), presets::default_scenario(sys));
    }
    assert!(s.notice.is_none());
}

#[test]
fn actions_go_to_the_tab_of_their_system_and_undo_redo_seek() {
    let s = run(boot(None, None), [topic("t1"), topic("t2")]);
    assert_eq!(cursor(&s), 2);
    // A Flink action changes the Flink tab even while Pulsar is shown.
    let s = run(s, [Msg::act(flink::Action::Schedule)]);
    assert_eq!(s.own(System::Flink).get().history().len, 2);
    let s = run(s, [Msg::Undo]);
    assert_eq!((cursor(&s), s.history().can_redo), (1, true));
    let s = run(s, [Msg::Redo, Msg::Seek(0)]);
    assert_eq!(cursor(&s), 0);
    // A refused action keeps the state and says why.
    let s = run(s, [topic("t1"), topic("t1")]);
    assert!(
        matches!(&s.notice, Some(Notice::Error(e)) if e.contains("already exists")),
        "{:?}",
        s.notice
    );
    assert_eq!(cursor(&s), 1);
}

#[test]
fn a_refused_field_input_is_shown_next_to_that_field() {
    let s = run(
        boot(None, None),
        [Msg::AtField(Field::PulsarTopics, Box::new(topic("a/b/c")))],
    );
    let (field, msg) = s.field_error.clone().unwrap();
    assert_eq!(field, "pulsar-topics");
    assert!(msg.contains("does not exist"), "{msg}");
    assert!(s.notice.is_none());
}

#[test]
fn settings_come_from_the_engine_schema_and_refusals_name_the_key() {
    let s = boot(None, None);
    let rows = s.settings();
    let row = rows
        .iter()
        .find(|r| r.knob.key == "loadBalancerBrokerOverloadedThresholdPercentage")
        .unwrap();
    assert_eq!(row.value, json!(85.0));
    assert_eq!(row.knob.unit, "%");
    let s = run(
        s,
        [Msg::SetConfig(
            "loadBalancerBrokerOverloadedThresholdPercentage".into(),
            json!(-5),
        )],
    );
    let (k, e) = s.field_error.clone().unwrap();
    assert_eq!(k, "loadBalancerBrokerOverloadedThresholdPercentage");
    assert!(e.contains("between 0 and 100"), "{e}");
    let s = run(
        s,
        [Msg::SetConfig(
            "loadBalancerBrokerOverloadedThresholdPercentage".into(),
            json!(70),
        )],
    );
    assert!(s.field_error.is_none());
    let v = s
        .settings()
        .into_iter()
        .find(|r| r.knob.key == "loadBalancerBrokerOverloadedThresholdPercentage")
        .unwrap()
        .value;
    assert_eq!(v, json!(70.0));
    // The compare menu offers the other strategies.
    assert!(s
        .compare_options()
        .contains(&("loadBalancerLoadSheddingStrategy", "ThresholdShedder")));
    let s = run(s, [Msg::Tab(System::Kstreams)]);
    assert!(s.compare_options().contains(&("group.protocol", "streams")));
}

#[test]
fn a_proposal_is_exactly_what_the_round_then_does() {
    // A store's copies share its sessions (as the page's do), so the two runs start from two boots.
    let start = || {
        run(
            boot(None, None),
            [
                Msg::Tab(System::Kstreams),
                Msg::act(kstreams::Action::CrashInstance { name: "app-1".into() }),
            ],
        )
    };
    let proposed = run(start(), [Msg::Propose(true)]);
    let p = proposed.proposal.clone().unwrap();
    assert_eq!(p.system, System::Kstreams);
    assert!(p.next::<kstreams::Sim>().is_some());
    let applied = run(proposed, [Msg::ApplyProposal]);
    let stepped = run(start(), [Msg::StepActive]);
    assert_eq!(
        applied.active().get().scenario(),
        stepped.active().get().scenario()
    );
    let (evs, _) = stepped.active().get().narrated_newest(usize::MAX);
    let newest = evs.iter().filter_map(|(i, _)| *i).max();
    let last: Vec<String> = evs
        .iter()
        .filter(|(i, _)| *i == newest)
        .map(|(_, t)| t.clone())
        .collect();
    assert_eq!(last, p.events);
    assert!(applied.proposal.is_none());
}

#[test]
fn a_lesson_never_costs_the_learner_their_work() {
    let mine = run(boot(None, None), [topic("mine-1"), topic("mine-2")]);
    let before = mine.own(System::Pulsar).get().scenario();
    let l = lessons::all()
        .iter()
        .find(|l| l.system == System::Pulsar)
        .unwrap();
    let s = run(mine, [Msg::Lesson(LessonMsg::Open(l.id.into(), 0))]);
    let run_ = s.lesson_on_screen().expect("the lesson is on screen");
    assert_eq!(run_.step, 0);
    // The lesson shows its own scenario; the learner's is untouched.
    assert_eq!(s.scenario(), l.scenario_at(0).unwrap());
    assert_eq!(s.own(System::Pulsar).get().scenario(), before);
    assert_eq!(s.fragment(), l.link(0));
    // Acting in the lesson changes the lesson's session only.
    let s = run(s, [Msg::StepActive]);
    assert_eq!(s.own(System::Pulsar).get().scenario(), before);
    // Another tab: the lesson steps aside, and the learner's Pulsar comes back on return.
    let s = run(s, [Msg::Tab(System::Flink), Msg::Tab(System::Pulsar)]);
    assert!(s.lesson_on_screen().is_none());
    assert_eq!(s.scenario(), before);
    // Resume brings the lesson back where it was.
    let s = run(s, [Msg::Lesson(LessonMsg::Resume)]);
    assert!(s.lesson_on_screen().is_some());
    // Leaving gives the learner's scenario back.
    let s = run(s, [Msg::Lesson(LessonMsg::Leave)]);
    assert!(s.lesson.is_none());
    assert_eq!(s.scenario(), before);
    assert!(url::decode(&s.fragment()).is_ok());
    // The saved workspace holds all three tabs, the learner's.
    let w = s.workspace();
    assert_eq!(w.scenarios.len(), 3);
    assert!(w.scenarios.contains(&before));
}

#[test]
fn free_play_keeps_the_lesson_state_and_the_learners_tab() {
    let l = lessons::lesson("pulsar-threshold-shedder").unwrap();
    let mine = run(boot(None, None), [topic("mine")]);
    let before = mine.own(System::Pulsar).get().scenario();
    let s = run(
        mine,
        [
            Msg::Lesson(LessonMsg::Open(l.id.into(), l.steps.len() - 1)),
            Msg::Lesson(LessonMsg::Free),
        ],
    );
    assert!(s.lesson_on_screen().is_none(), "no longer guiding");
    assert_eq!(s.scenario().body, l.scenario.body);
    assert!(s.fragment().starts_with("#s="));
    let s = run(s, [Msg::StepActive, Msg::Lesson(LessonMsg::Leave)]);
    assert_eq!(s.scenario(), before);
}

#[test]
fn an_ask_is_satisfied_by_the_learners_own_action() {
    let l = lessons::all()
        .iter()
        .find(|l| l.steps.iter().any(|s| s.ask.is_some()))
        .unwrap();
    let k = l.steps.iter().position(|s| s.ask.is_some()).unwrap();
    let s = run(boot(None, None), [Msg::Lesson(LessonMsg::Open(l.id.into(), k))]);
    let s = run(s.clone(), [Msg::Lesson(LessonMsg::Next)]);
    assert!(matches!(&s.notice, Some(Notice::Info(t)) if t.contains("waits for you")));
    let action = l.ask_action(k).unwrap();
    let s = run(s, [Msg::Act(action)]);
    assert_eq!(s.lesson_on_screen().map(|r| r.step), Some(k + 1));
}

#[test]
fn back_and_forward_move_between_lesson_steps_and_the_playground() {
    let l = lessons::lesson("pulsar-threshold-shedder").unwrap();
    let s = run(boot(None, None), [topic("mine")]);
    let mine = s.fragment();
    let s = run(
        s,
        [
            Msg::Lesson(LessonMsg::Open(l.id.into(), 0)),
            Msg::Lesson(LessonMsg::DoIt),
        ],
    );
    assert_eq!(s.lesson_on_screen().unwrap().step, 1);
    // Back: step 1 again.
    let s = run(s, [Msg::Location(l.link(0))]);
    assert_eq!(s.lesson_on_screen().unwrap().step, 0);
    // Back again: the playground with the learner's scenario.
    let s = run(s, [Msg::Location(mine.clone())]);
    assert!(s.lesson_on_screen().is_none());
    assert_eq!(s.fragment(), mine);
    // Forward: into the lesson.
    let s = run(s, [Msg::Location(l.link(1))]);
    assert_eq!(s.lesson_on_screen().unwrap().step, 1);
}

#[test]
fn boot_restores_every_tab_and_a_lesson_link_on_top() {
    let mut w = boot(None, None);
    w = run(w, [topic("kept"), Msg::Tab(System::Flink)]);
    let saved = w.workspace_json();
    let s = boot(None, Some(saved.clone()));
    assert_eq!(s.tab, System::Flink);
    assert_eq!(
        s.own(System::Pulsar).get().scenario(),
        w.own(System::Pulsar).get().scenario()
    );
    assert!(matches!(&s.notice, Some(Notice::Info(t)) if t.contains("restored")));
    // A reload on a lesson step opens the lesson, with the saved tabs underneath.
    let l = lessons::lesson("flink-unequal-parallelism").unwrap();
    let s = boot(Some(&l.link(1)), Some(saved));
    assert_eq!(s.lesson_on_screen().unwrap().step, 1);
    let s = run(s, [Msg::Lesson(LessonMsg::Leave), Msg::Tab(System::Pulsar)]);
    assert_eq!(s.scenario(), w.own(System::Pulsar).get().scenario());
}

#[test]
fn an_older_single_scenario_autosave_and_bad_input_keep_the_work() {
    let old = run(boot(None, None), [topic("old")]).scenario();
    let s = boot(None, Some(old.to_json()));
    assert_eq!(s.own(System::Pulsar).get().scenario(), old);
    // A broken saved workspace: the defaults, and a message.
    let s = boot(
        None,
        Some("{\"workspace\": 1, \"tab\": \"pulsar\", \"scenarios\": [{\"format\": 1}]}".into()),
    );
    assert!(matches!(&s.notice, Some(Notice::Error(t)) if t.contains("could not be read")));
    // A bad link: the saved work is shown and the link is named.
    let s = boot(Some("#s=1.%%%"), Some(old.to_json()));
    assert!(matches!(&s.notice, Some(Notice::Error(t)) if t.contains("This link could not be opened")));
    assert_eq!(s.own(System::Pulsar).get().scenario(), old);
    // A bad lesson link changes nothing.
    let s = boot(Some("#lesson=nope&step=1"), None);
    assert!(s.lesson.is_none());
    assert!(matches!(&s.notice, Some(Notice::Error(t)) if t.contains("no lesson called")));
}

#[test]
fn a_heavy_scenario_is_announced_before_it_opens() {
    let mut sc = Scenario::empty(System::Pulsar, 1);
    if let lbscope::scenario::Body::Pulsar(log) = &mut sc.body {
        log.setup.push(pulsar::Action::CreateNamespace {
            namespace: "a/b".into(),
            bundles: Some(4),
        });
        log.setup.push(pulsar::Action::CreateTopics {
            namespace: "a/b".into(),
            prefix: "t".into(),
            count: 30_000,
            traffic: Default::default(),
        });
    }
    let s = run(boot(None, None), [Msg::Open(Box::new(sc.clone()))]);
    let (_, what) = s.pending.clone().unwrap();
    assert!(what.contains("creating 30004 topics and bundles"), "{what}");
    assert_eq!(
        s.own(System::Pulsar).get().scenario(),
        presets::default_scenario(System::Pulsar)
    );
    let s = run(s, [Msg::OpenPending]);
    assert_eq!(s.scenario(), sc);
}

#[test]
fn a_heavy_scenario_opens_in_parts_while_the_page_answers() {
    let mut sc = lbscope::bench::pulsar_scenario(20, 24_000, 16);
    if let lbscope::scenario::Body::Pulsar(log) = &mut sc.body {
        log.actions.push(pulsar::Action::Step);
    }
    let mut s = run(boot(None, None), [Msg::Open(Box::new(sc.clone()))]);
    let p = s.open_progress().unwrap();
    assert_eq!((p.done, p.total, p.unit), (0, 24_080, "topics"));
    let mut parts = 0;
    while s.pending.is_some() {
        s = s.reduce(Msg::OpenMore);
        parts += 1;
        if parts == 2 {
            // Between two parts the store answers other messages.
            s = run(s, [Msg::Tab(System::Flink), Msg::Help(true)]);
            assert_eq!((s.tab, s.help), (System::Flink, true));
            let p = s.open_progress().unwrap();
            assert!(p.done > 0 && p.done < p.total, "{p:?}");
        }
        assert!(parts < 100);
    }
    assert!(parts > 3, "{parts} parts");
    assert_eq!((s.tab, s.scenario()), (System::Pulsar, sc.clone()));
    assert!(s.open_progress().is_none());
    // Cancelled half way: the work on screen stays.
    let mut s = run(
        boot(None, None),
        [Msg::Open(Box::new(sc)), Msg::OpenMore, Msg::OpenMore],
    );
    assert!(s.open_progress().unwrap().done > 0);
    s = s.reduce(Msg::CancelOpen);
    assert!(s.pending.is_none() && s.opening.is_none());
    assert_eq!(s.scenario(), presets::default_scenario(System::Pulsar));
    assert!(matches!(&s.notice, Some(Notice::Info(t)) if t.contains("stopped")));
    assert_eq!(
        s.reduce(Msg::OpenMore).scenario(),
        presets::default_scenario(System::Pulsar)
    );
}

#[test]
fn reset_starts_the_tab_over_and_pages_switch() {
    let s = run(boot(None, None), [topic("x"), Msg::Reset]);
    assert_eq!(s.scenario(), presets::default_scenario(System::Pulsar));
    let s = run(s, [Msg::Page(Page::Lessons)]);
    assert_eq!(s.page, Page::Lessons);
    let w: Workspace = serde_json::from_str(&s.workspace_json()).unwrap();
    assert_eq!(w.tab, System::Pulsar);
}

#[test]
fn window_lbscope_summarises_the_shown_sessions() {
    let s = run(boot(None, None), [topic("seen")]);
    let i = s.inspect();
    assert!(i
        .namespaces
        .iter()
        .any(|n| n.topics.keys().any(|t| t.0.ends_with("/seen"))));
    assert!(!i.events.is_empty());
    assert_eq!(i.lesson, None);
}

/// The event log labels a round's events with the engine's round number (the
/// default Pulsar scenario's setup ran round 1), other actions by their place
/// in the log, and the setup's events as setup.
#[test]
fn event_rows_carry_the_engine_round_number() {
    let s = run(boot(None, None), [topic("extra"), Msg::StepActive]);
    let (rows, _) = s.event_rows();
    assert!(rows.iter().any(|r| r.step == Some(1) && r.round == Some(2)));
    assert!(rows.iter().any(|r| r.step == Some(0) && r.round.is_none()));
    assert!(rows.iter().any(|r| r.step.is_none() && r.round.is_none()));
    assert!(rows
        .iter()
        .filter(|r| r.round == Some(2))
        .any(|r| r.text.text.starts_with("round 2 ")));
}

/// The log as the page draws it narrates only the newest rows it asks for, and
/// counts the kept rows as the whole log does: the same first rows, the same
/// split between the actions' and the setup's, the same older ones left out.
#[test]
fn the_event_log_writes_only_the_rows_it_shows() {
    let mut msgs = vec![topic("extra")];
    msgs.extend((0..120).map(|_| Msg::StepActive));
    let s = run(boot(None, None), msgs);
    let (all, hidden) = s.event_rows();
    assert_eq!(
        all.len(),
        lbscope::playground::MAX_LOG_ROWS,
        "the default scenario's 120 rounds fill the log"
    );
    let acted = all.iter().filter(|r| r.step.is_some()).count();
    for wanted in [0, 1, 100, 399, 400, 10_000] {
        let log = s.event_log(wanted);
        assert_eq!(log.rows[..], all[..wanted.min(all.len())], "the newest {wanted}");
        assert_eq!(
            (log.acted, log.setup, log.hidden),
            (acted, all.len() - acted, hidden)
        );
    }
    // A short log: every event kept, the setup's after the actions'.
    let s = run(boot(None, None), [topic("extra")]);
    let (all, hidden) = s.event_rows();
    assert_eq!(hidden, 0);
    let log = s.event_log(1);
    assert_eq!(log.rows[..], all[..1]);
    assert_eq!(log.acted, all.iter().filter(|r| r.step.is_some()).count());
    assert_eq!(log.acted + log.setup, all.len());
    assert!(log.setup > 0 && log.acted > 0);
}

/// The Pulsar tab's kept ring (`playground::ring_model`) against a fresh build,
/// round after round, with the views dropped between renders (the ring two
/// renders old is then patched in place) or still held (a copy is made).
#[test]
fn the_kept_pulsar_ring_is_a_fresh_ring_round_after_round() {
    use lbscope::playground::ring_model::RingModel;
    use std::rc::Rc;
    fn bin64(t: &mut dyn Iterator<Item = (u32, f64)>) -> Vec<(u32, f64)> {
        let mut v = vec![(0, 0.0); 64];
        for (h, r) in t {
            let b = &mut v[(h >> 26) as usize];
            b.0 += 1;
            b.1 += r;
        }
        v
    }
    let ns = lbscope::bench::PULSAR_NS;
    let mut s = boot(None, None);
    s.open(lbscope::bench::pulsar_scenario(12, 6_000, 256));
    let mut m: RingModel<(u32, f64)> = RingModel::default();
    let mut seen: Vec<*const pulsar::view::RingView> = Vec::new();
    let (mut patched, mut held) = (0, None);
    for round in 0..12 {
        s = s.reduce(Msg::act(pulsar::Action::Step));
        let live = s.shown(System::Pulsar).clone();
        let session = s.session::<pulsar::Sim>();
        let (ring, bins, names) = m.ring(&live, &session, ns, Some(bin64));
        let sim = session.state();
        let want = sim.ring_view(ns, false).unwrap();
        assert_eq!(*ring, want, "round {round}");
        let nsd = &sim.namespaces()[ns];
        let mut t = nsd.topics.values().map(|t| (t.hash, nsd.traffic(t).msg_rate()));
        assert_eq!(*bins.unwrap(), bin64(&mut t));
        assert_eq!(
            *names,
            want.bundles.iter().map(|b| b.name.clone()).collect::<Vec<_>>()
        );
        assert_eq!(*m.brokers(&live, sim), sim.broker_views());
        let at = Rc::as_ptr(&ring);
        let n = seen.len();
        if n >= 2 && seen[n - 1] != at && seen[n - 2] == at {
            patched += 1;
        }
        seen.push(at);
        // Rounds 6 to 8: a view still holds each ring (no ring is free to patch).
        if (6..9).contains(&round) {
            held = Some(ring);
        } else {
            held = None;
        }
    }
    drop(held);
    assert!(patched > 0, "no ring was patched in place");
}

/// The compare run computed from a job (what the page's engine worker does with
/// the JSON it is handed) is the compare run the page computes itself, for each
/// system, also when an undo leaves the cursor short of the log's end.
#[test]
fn a_compare_job_gives_the_compare_run_the_page_computes() {
    use lbscope::playground::compare::{read_reply, run_json};
    for sys in System::ALL {
        let s = run(
            boot(None, None),
            [Msg::Tab(sys), Msg::StepActive, Msg::StepActive, Msg::Undo],
        );
        let (key, value) = s.compare_options()[0];
        let value = json!(value);
        let s = s.reduce(Msg::Compare(Some((key.to_string(), value.clone()))));
        let job = s.compare_job(7).expect("a compare is asked for");
        assert_eq!(job.scenario.cursor, Some(cursor(&s)), "{sys:?}");
        let reply = read_reply(&run_json(&serde_json::to_string(&job).unwrap())).unwrap();
        assert_eq!(reply.id, 7);
        let here = s.compare_series(key, &value);
        assert!(here.as_ref().is_ok_and(|v| !v.is_empty()), "{sys:?}: {here:?}");
        assert_eq!(reply.result, here, "{sys:?}");
        // Nothing compared: no job.
        assert_eq!(s.reduce(Msg::Compare(None)).compare_job(8), None);
    }
}

/// A job the worker cannot read, or a compare the engine refuses, comes back
/// with the reason, as the page shows it under the chart.
#[test]
fn a_compare_job_that_fails_says_why() {
    use lbscope::playground::compare::{read_reply, run_json};
    let reply = read_reply(&run_json("{\"id\": 3")).unwrap();
    assert_eq!(reply.id, 0);
    assert!(reply.result.unwrap_err().contains("could not read the job"));
    let s = run(
        boot(None, None),
        [Msg::Compare(Some(("noSuchKey".into(), json!(1))))],
    );
    let job = s.compare_job(4).unwrap();
    let reply = read_reply(&run_json(&serde_json::to_string(&job).unwrap())).unwrap();
    assert_eq!(reply.id, 4);
    assert_eq!(reply.result, s.compare_series("noSuchKey", &json!(1)));
    assert!(reply.result.is_err());
    assert!(read_reply("not json").unwrap_err().contains("could not be read"));
}

/// JSON has no NaN: a point that is not a number travels as `null` and comes
/// back as NaN; the other points come back exactly.
#[test]
fn series_travel_as_json_with_their_gaps() {
    let s = lbscope::engine::Series {
        name: "x".into(),
        unit: "%".into(),
        points: vec![(1.0, 0.1 + 0.2), (2.0, f64::NAN), (3.0, 1e-300)],
    };
    let back: lbscope::engine::Series = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!((back.name.as_str(), &*back.unit), ("x", "%"));
    assert_eq!(back.points[0], (1.0, 0.1 + 0.2));
    assert!(back.points[1].1.is_nan());
    assert_eq!(back.points[2], (3.0, 1e-300));
}

/// Only a scenario that is heavy to replay has its compare run computed in the
/// worker (a light one is quicker on the page than a message there and back).
#[test]
fn only_a_heavy_scenario_is_compared_in_the_worker() {
    assert!(!boot(None, None).heavy_to_replay());
    let mut s = boot(None, None);
    s.open(lbscope::bench::pulsar_scenario(20, 24_000, 16));
    assert!(s.heavy_to_replay());
}

/// The worker keeps its last compare run: a job of the same compare on a
/// scenario that only grew by more actions applies those to the kept run, and
/// its lines are the lines of a fresh replay; after an undo, another key or
/// another tab the run is replayed afresh.
#[test]
fn the_kept_compare_run_grows_as_a_fresh_one_would() {
    use lbscope::playground::compare::CompareCache;
    for sys in System::ALL {
        let mut cache = CompareCache::default();
        let mut s = run(boot(None, None), [Msg::Tab(sys), Msg::StepActive]);
        let opts = s.compare_options();
        let (key, value) = opts[0];
        s = s.reduce(Msg::Compare(Some((key.to_string(), json!(value)))));
        let mut id = 0;
        let mut check = |s: &Store, reuse: bool, cache: &mut CompareCache| {
            id += 1;
            let job = s.compare_job(id).unwrap();
            let (reply, reused) = cache.run(&job);
            let (k, v) = s.compare.clone().unwrap();
            assert_eq!(reply.result, s.compare_series(&k, &v), "{sys:?}, job {id}");
            assert_eq!(reused, reuse, "{sys:?}, job {id}");
        };
        check(&s, false, &mut cache);
        s = run(s, [Msg::StepActive, Msg::StepActive]);
        check(&s, true, &mut cache);
        s = s.reduce(Msg::StepActive);
        check(&s, true, &mut cache);
        // Undone: the log has a redo tail, replayed afresh.
        s = s.reduce(Msg::Undo);
        check(&s, false, &mut cache);
        s = s.reduce(Msg::Redo);
        check(&s, false, &mut cache);
        s = s.reduce(Msg::StepActive);
        check(&s, true, &mut cache);
        // The same log under another compare.
        if let Some((k2, v2)) = opts.get(1) {
            s = s.reduce(Msg::Compare(Some((k2.to_string(), json!(v2)))));
            check(&s, false, &mut cache);
        }
    }
}

/// A short link can build a large cluster: the announcement counts what the
/// actions build (slots and subtasks, partitions and threads, bundles), not
/// only how many actions there are.
#[test]
fn a_scenario_heavy_in_work_not_actions_is_announced() {
    let cases = [
        (
            r#"{"format":2,"seed":1,"system":"flink","setup":[{"op":"add_task_managers","count":256,"slots":1024}]}"#,
            "creating 262144 slots and subtasks",
        ),
        (
            r#"{"format":2,"seed":1,"system":"kstreams","setup":[{"op":"define_topic","topic":"t","partitions":50000}]}"#,
            "creating 50000 partitions and threads",
        ),
        (
            r#"{"format":2,"seed":1,"system":"pulsar","setup":[{"op":"create_namespace","namespace":"a/b","bundles":65536}]}"#,
            "creating 65536 topics and bundles",
        ),
    ];
    for (json, want) in cases {
        let sc = Scenario::from_json(json).unwrap();
        // The link is short: 2 actions at most.
        assert!(lbscope::scenario::url::to_fragment(&sc).len() < 200);
        let s = run(boot(None, None), [Msg::Open(Box::new(sc))]);
        let (_, what) = s
            .pending
            .clone()
            .unwrap_or_else(|| panic!("{json}: not announced"));
        assert!(what.contains(want), "{what}");
    }
    // A small one opens at once.
    let sc = Scenario::from_json(
        r#"{"format":2,"seed":1,"system":"flink","setup":[{"op":"add_task_managers","count":4,"slots":4}]}"#,
    )
    .unwrap();
    let s = run(boot(None, None), [Msg::Open(Box::new(sc))]);
    assert!(s.pending.is_none());
}
