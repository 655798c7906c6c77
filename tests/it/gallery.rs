//! The examples gallery: every entry's scenario builds and replays, opens in
//! free play with something left to press, and the numbers it shows agree with
//! the document where it says so and differ (with a reason) where it says the
//! real code differs. The document's values are the ones typed into the entry
//! from the document; the engine's are read off the replayed engine.

use lbscope::engine::{Engine, System};
use lbscope::gallery::{self, Agreement};
use lbscope::playground::{Boot, Msg, Page, Store};
use lbscope::scenario::{run, url, Scenario};

#[test]
fn every_entry_replays_and_leaves_something_to_press() {
    assert!(gallery::all().len() >= 20, "{} entries", gallery::all().len());
    for e in gallery::all() {
        let sc = e.scenario();
        sc.validate().unwrap_or_else(|err| panic!("{}: {err}", e.slug));
        run::event_log(&sc).unwrap_or_else(|err| panic!("{}: {err}", e.slug));
        let cursor = sc.cursor.expect("an entry sets its cursor");
        assert!(
            cursor < sc.body.log_len(),
            "{}: nothing to press (cursor {cursor}, log {})",
            e.slug,
            sc.body.log_len()
        );
        // The share link carries exactly the entry's scenario.
        let back = url::decode(&url::to_fragment(&sc)).unwrap();
        assert_eq!(back, sc, "{}", e.slug);
        assert!(!e.press.is_empty() && e.press.ends_with('.'), "{}", e.slug);
    }
    for sys in System::ALL {
        assert!(gallery::of_system(sys).count() >= 4, "{sys:?}");
    }
}

#[test]
fn the_engine_agrees_with_the_document_where_the_entry_says_so() {
    let mut differing = 0;
    for e in gallery::all() {
        let rows = e.numbers().unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(rows.len(), e.doc.len());
        for (r, d) in rows.iter().zip(&e.doc) {
            assert!(
                !r.engine.contains("not computed"),
                "{}: {} not computed",
                e.slug,
                r.label
            );
            match d.agreement {
                Agreement::Same => assert_eq!(r.engine, r.doc, "{}: {}", e.slug, r.label),
                Agreement::Differs(why) => {
                    differing += 1;
                    assert_ne!(r.engine, r.doc, "{}: {} is said to differ", e.slug, r.label);
                    assert!(why.len() > 20, "{}: a reason", e.slug);
                }
            }
        }
    }
    assert!(differing >= 5, "{differing}");
}

fn rows(slug: &str) -> Vec<(String, String)> {
    gallery::example(slug)
        .unwrap()
        .numbers()
        .unwrap()
        .into_iter()
        .map(|r| (r.doc.to_string(), r.engine))
        .collect()
}

/// Cross-checks against the engine's narration: the differing numbers the
/// entries show are the ones the engine explains in its own events.
#[test]
fn differing_numbers_are_the_ones_the_engine_narrates() {
    for slug in [
        "pulsar-topic-to-bundle",
        "pulsar-topic-count-equally-divide",
        "pulsar-flow-or-qps-case-1",
        "pulsar-flow-or-qps-case-2",
        "pulsar-flow-or-qps-case-3",
    ] {
        let e = gallery::example(slug).unwrap();
        let mut whole = e.scenario();
        whole.cursor = None;
        let text = run::to_text(&run::event_log(&whole).unwrap());
        for r in e.numbers().unwrap() {
            if r.why.is_some() {
                for part in r.engine.split(", ") {
                    assert!(text.contains(part), "{slug}: {part} not in\n{text}");
                }
            }
        }
    }
    // flow_or_qps case 1: the document's first position and the code's differ by
    // more than its + 1: the document added hex digits as decimals.
    let r = rows("pulsar-flow-or-qps-case-1");
    assert!(r[1].1.starts_with("0x1c800001"), "{r:?}");
}

#[test]
fn opening_an_entry_puts_it_in_free_play_on_its_tab() {
    for e in gallery::all() {
        let s = Store::boot(Boot {
            fragment: Some(gallery::deep_link(e.slug)),
            ..Boot::default()
        });
        assert_eq!(s.tab, e.system, "{}", e.slug);
        assert_eq!(s.page, Page::Playground);
        assert!(s.lesson.is_none(), "{}: free play, not a lesson", e.slug);
        assert_eq!(s.example.as_deref(), Some(e.slug));
        assert_eq!(s.scenario(), e.scenario(), "{}", e.slug);
        // One click from the gallery page does the same.
        let s = Store::boot(Boot::default())
            .reduce(Msg::Page(Page::Gallery))
            .reduce(Msg::Example(e.slug.to_string()));
        assert_eq!((s.tab, s.page), (e.system, Page::Playground), "{}", e.slug);
        assert_eq!(s.scenario(), e.scenario(), "{}", e.slug);
        assert_eq!(s.fragment(), gallery::deep_link(e.slug), "{}", e.slug);
    }
    // An unknown slug keeps the work on screen and says so.
    let s = Store::boot(Boot {
        fragment: Some("#example=nope".into()),
        ..Boot::default()
    });
    assert!(s.example.is_none());
    assert!(matches!(&s.notice, Some(lbscope::playground::Notice::Error(m)) if m.contains("nope")));
}

#[test]
fn pressing_what_the_entry_says_reaches_its_numbers() {
    // The Flink figure (i) entry: one Schedule press gives 3, 3, 3.
    let e = gallery::example("flink-figure-i").unwrap();
    let s = Store::boot(Boot {
        fragment: Some(e.link()),
        ..Boot::default()
    })
    .reduce(Msg::StepActive);
    let sc: Scenario = s.scenario();
    let o = gallery::outcome::<lbscope::engine::flink::Sim>(&sc).unwrap();
    assert_eq!(o.after.state.tasks_per_tm(), vec![3, 3, 3]);
}

fn lbscope(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lbscope"))
        .args(args)
        .output()
        .expect("run lbscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_preset_lists_prints_and_describes_examples() {
    let (code, out, _) = lbscope(&["preset", "--list"]);
    assert_eq!(code, 0);
    let questions = gallery::questions::all();
    let large = lbscope::scenario::presets::LARGE;
    assert_eq!(
        out.lines().count(),
        gallery::all().len() + questions.len() + large.len()
    );
    // The large-cluster presets close the list, and print their scenarios.
    for (line, (name, sys, _)) in out
        .lines()
        .skip(gallery::all().len() + questions.len())
        .zip(large)
    {
        assert_eq!(line, format!("{name}\t{}\tA large cluster", sys.slug()));
        let (code, json, _) = lbscope(&["preset", name]);
        assert_eq!(code, 0);
        assert_eq!(
            Scenario::from_json(&json).unwrap(),
            lbscope::scenario::presets::large_scenario(sys)
        );
    }
    for (line, e) in out.lines().zip(gallery::all()) {
        assert_eq!(line, format!("{}\t{}\t{}", e.slug, e.system.slug(), e.title));
    }
    for (line, q) in out.lines().skip(gallery::all().len()).zip(questions) {
        assert_eq!(line, format!("{}\t{}\t{}", q.slug, q.system.slug(), q.symptom));
        let (code, text, _) = lbscope(&["preset", q.slug, "--describe"]);
        assert_eq!(code, 0);
        assert!(
            text.contains(&q.diagnosis().unwrap()) && text.contains(&q.with_fix().unwrap()),
            "{text}"
        );
        let (code, json, _) = lbscope(&["preset", q.slug]);
        assert_eq!(code, 0);
        assert_eq!(Scenario::from_json(&json).unwrap(), q.scenario());
    }
    // An example's scenario, readable by `run`, at the entry's cursor.
    let (code, out, _) = lbscope(&["preset", "pulsar-topic-count-equally-divide"]);
    assert_eq!(code, 0);
    let sc = Scenario::from_json(&out).unwrap();
    assert_eq!(
        sc,
        gallery::example("pulsar-topic-count-equally-divide")
            .unwrap()
            .scenario()
    );
    // Its description: what to press and both numbers where they differ.
    let (code, out, _) = lbscope(&["preset", "pulsar-topic-count-equally-divide", "--describe"]);
    assert_eq!(code, 0);
    let e = gallery::example("pulsar-topic-count-equally-divide").unwrap();
    assert!(out.contains(e.press), "{out}");
    for r in e.numbers().unwrap() {
        assert!(out.contains(r.doc) && out.contains(&r.engine), "{out}");
    }
    // The tab defaults still work as before.
    let (code, out, _) = lbscope(&["preset", "flink"]);
    assert_eq!(code, 0);
    assert_eq!(
        Scenario::from_json(&out).unwrap(),
        lbscope::scenario::presets::default_scenario(System::Flink)
    );
    let (code, _, err) = lbscope(&["preset", "nope"]);
    assert_ne!(code, 0);
    assert!(err.contains("--list"), "{err}");
    let (code, _, _) = lbscope(&["preset"]);
    assert_ne!(code, 0);
}

/// docs/gallery.md lists every entry, and says which show a differing number.
#[test]
fn the_gallery_page_of_the_docs_lists_every_entry() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/gallery.md")).unwrap();
    for e in gallery::all() {
        let differs = e.doc.iter().any(|d| matches!(d.agreement, Agreement::Differs(_)));
        let row = format!(
            "| `{}` | {} | {} |",
            e.slug,
            e.title,
            if differs { "both shown" } else { "agrees" }
        );
        assert!(text.contains(&row), "docs/gallery.md should have the row\n{row}");
    }
    let rows = text.lines().filter(|l| l.starts_with("| `")).count();
    assert_eq!(rows, gallery::all().len() + gallery::questions::all().len());
    for q in gallery::questions::all() {
        let (key, value) = q.fix();
        let value = value.as_str().map_or(value.to_string(), str::to_string);
        let row = format!("| `{}` | {} | `{key} = {value}` |", q.slug, q.symptom);
        assert!(text.contains(&row), "docs/gallery.md should have the row\n{row}");
    }
}

/// A link followed within the page fires popstate and hashchange; the second
/// arrives when the page has put its own fragment back, and must not wipe the
/// message about a bad link.
#[test]
fn a_bad_example_link_keeps_its_message_through_the_second_event() {
    let e = &gallery::all()[0];
    let s = Store::boot(Boot {
        fragment: Some(e.link()),
        ..Boot::default()
    });
    let s = s.reduce(Msg::Location("#example=nope".into()));
    assert!(matches!(&s.notice, Some(lbscope::playground::Notice::Error(m)) if m.contains("nope")));
    let here = s.fragment();
    assert_eq!(here, e.link(), "the work on screen stays");
    let s = s.reduce(Msg::Location(here));
    assert!(s.notice.is_some());
}

/// The questions gallery: each symptom shows in the engine, the diagnosis is
/// the engine's, and the fix changes the outcome the diagnosis speaks of.
#[test]
fn each_question_shows_its_symptom_and_the_fix_cures_it() {
    use gallery::questions;
    assert!(questions::all().len() >= 3);
    for q in questions::all() {
        let sc = q.scenario();
        sc.validate().unwrap();
        assert_eq!(sc.system(), q.system);
        let d = q.diagnosis().unwrap_or_else(|e| panic!("{}: {e}", q.slug));
        let f = q.with_fix().unwrap_or_else(|e| panic!("{}: {e}", q.slug));
        assert_ne!(d, f, "{}: the fix changes nothing", q.slug);
        assert!(!q.sources.is_empty() && q.sources.iter().all(|(_, u)| u.starts_with("https://")));
        eprintln!("{}\n  {d}\n  fixed: {f}", q.slug);
    }
    use lbscope::engine::{flink, kstreams, pulsar};
    // Pulsar: the joined brokers own nothing with OverloadShedder, some bundles with the fix.
    let q = questions::question("pulsar-new-broker-idle").unwrap();
    let joined = |sc: &Scenario| -> usize {
        let o = gallery::outcome::<pulsar::Sim>(sc).unwrap();
        o.after
            .state
            .broker_views()
            .iter()
            .filter(|b| b.id.as_str() != "broker-1")
            .map(|b| b.bundles)
            .sum()
    };
    assert_eq!(joined(&q.scenario()), 0);
    assert!(joined(&q.fixed().unwrap()) > 0);
    assert!(q.diagnosis().unwrap().contains("own none"));
    // Flink: 4, 3, 2 then 3, 3, 3.
    let q = questions::question("flink-uneven-tasks").unwrap();
    let per_tm = |sc: &Scenario| {
        gallery::outcome::<flink::Sim>(sc)
            .unwrap()
            .after
            .state
            .tasks_per_tm()
    };
    // Which TaskManager gets which count follows the seeded request order
    // (Flink draws it); the counts are what the question is about.
    let sorted = |mut v: Vec<u32>| {
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    };
    assert_eq!(sorted(per_tm(&q.scenario())), vec![4, 3, 2]);
    assert_eq!(sorted(per_tm(&q.fixed().unwrap())), vec![3, 3, 3]);
    let d = q.diagnosis().unwrap();
    let run = per_tm(&q.scenario())
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    assert!(d.contains(&format!("{run} tasks (a difference of 2)")), "{d}");
    assert!(d.contains("Over seeds 0–9") && d.contains("[4, 3, 2] in"), "{d}");
    // FLIP-370: the slots were even all along. JV-A's parallelism 6 makes six
    // slot requests (JV-B's three share them) over three TaskManagers of two
    // slots, so each fills 2 in either mode; only the task count differs.
    // Flink's loading weight of a slot is its task count (DefaultLoadingWeight),
    // which is what tasks mode evens out, not the work in each task.
    for sc in [q.scenario(), q.fixed().unwrap()] {
        let o = gallery::outcome::<flink::Sim>(&sc).unwrap();
        let mut used = [0; 3];
        for a in o.after.state.placement().iter().flatten() {
            used[a.tm as usize] += 1;
        }
        assert_eq!(used, [2, 2, 2]);
    }
    assert!(d.contains("fill 2, 2, 2 slots and run"), "{d}");
    assert!(d.contains("slots are counted, not the tasks"), "{d}");
    let f = q.with_fix().unwrap();
    assert!(f.contains("fill 2, 2, 2 slots and run 3, 3, 3 tasks"), "{f}");
    assert!(f.contains("not how much work each task does"), "{f}");
    // Kafka Streams: some standbys share their active's rack; none with the tag.
    let q = questions::question("kstreams-standbys-same-rack").unwrap();
    let o = gallery::outcome::<kstreams::Sim>(&q.fixed().unwrap()).unwrap();
    assert!(!o.after.state.config().rack_aware_assignment_tags.is_empty());
    assert!(
        q.with_fix().unwrap().starts_with("0 of "),
        "{}",
        q.with_fix().unwrap()
    );
    assert!(
        !q.diagnosis().unwrap().starts_with("0 of "),
        "{}",
        q.diagnosis().unwrap()
    );
}

#[test]
fn a_question_link_opens_it_with_its_fix_as_the_compare_run() {
    use gallery::questions;
    for q in questions::all() {
        let s = Store::boot(Boot {
            fragment: Some(q.link()),
            ..Boot::default()
        });
        assert_eq!((s.tab, s.page), (q.system, Page::Playground), "{}", q.slug);
        assert_eq!(s.question.as_deref(), Some(q.slug));
        assert_eq!(s.compare, Some(q.fix()));
        assert_eq!(s.scenario(), q.scenario());
        assert_eq!(s.fragment(), q.link());
        let s = Store::boot(Boot::default()).reduce(Msg::Question(q.slug.into()));
        assert_eq!(s.compare, Some(q.fix()));
        assert!(s.example.is_none());
    }
}

/// apache/pulsar#386 and #10143: a partitioned topic served by two of three
/// brokers. The diagnosis's counts are read here off the replayed engine (the
/// owner of each partition), independently of the sentence.
#[test]
fn partitions_on_two_brokers_until_bundles_split() {
    use lbscope::engine::pulsar;
    let q = gallery::questions::question("pulsar-partitions-two-brokers").unwrap();
    let owners = |sc: &Scenario| {
        let o = gallery::outcome::<pulsar::Sim>(sc).unwrap();
        let s = &o.after.state;
        let per: std::collections::BTreeSet<String> = (0..8)
            .map(|i| {
                s.owner_of_topic(&format!("persistent://public/default/my-topic-partition-{i}"))
                    .expect("every partition is served")
                    .to_string()
            })
            .collect();
        let bundles = s.namespaces()["public/default"].bundles.len();
        (per.len(), bundles)
    };
    let (brokers, bundles) = owners(&q.scenario());
    assert_eq!(
        (brokers, bundles),
        (2, 2),
        "the symptom: two bundles, two brokers"
    );
    let d = q.diagnosis().unwrap();
    assert!(
        d.contains(&format!(
            "lie in 2 of public/default's {bundles} bundles and are served by {brokers} of the 3 brokers"
        )),
        "{d}"
    );
    assert!(d.contains("split bundles 0 time(s)"), "{d}");
    // The fix (auto split on): bundles split and every broker serves partitions.
    let (brokers, bundles) = owners(&q.fixed().unwrap());
    assert_eq!(brokers, 3);
    let f = q.with_fix().unwrap();
    assert!(
        f.contains(&format!(
            "public/default's {bundles} bundles and are served by 3 of the 3 brokers"
        )),
        "{f}"
    );
    assert!(!f.contains("split bundles 0 time(s)"), "{f}");
}

/// KIP-441: a new instance with no state runs no active task until a probing
/// rebalance finds its warm-ups caught up. The wait the diagnosis states is
/// measured here by replaying one action at a time.
#[test]
fn a_new_instance_waits_for_a_probing_rebalance() {
    use lbscope::engine::kstreams;
    use lbscope::scenario::{replay, InBody};
    let q = gallery::questions::question("kstreams-new-instance-idle").unwrap();
    let wait = |sc: &Scenario| -> u64 {
        let log = <kstreams::Sim as InBody>::log(&sc.body).unwrap();
        let joined = replay(sc.seed, log, Some(1)).unwrap().state.now_ms();
        (1..=log.actions.len())
            .map(|k| replay(sc.seed, log, Some(k)).unwrap().state)
            .find(|s| s.tasks().iter().any(|t| s.active_owner(t.id) == Some("app-4")))
            .map(|s| s.now_ms() - joined)
            .expect("app-4 runs a task in the end")
    };
    let slow = wait(&q.scenario());
    let fast = wait(&q.fixed().unwrap());
    // Default probing.rebalance.interval.ms is 600000 (StreamsConfig); the fix's 60000.
    assert_eq!(slow, 600_000);
    assert!(fast < slow && fast <= 120_000, "{fast}");
    let d = q.diagnosis().unwrap();
    assert!(d.contains(&format!("{} s after it joined", slow / 1000)), "{d}");
    assert!(d.contains("probing.rebalance.interval.ms = 600000"), "{d}");
    assert!(q
        .with_fix()
        .unwrap()
        .contains(&format!("{} s after it joined", fast / 1000)));
}

/// apache/pulsar#16059 and #8492: a bundle unloaded from a busy broker is
/// placed back on it, because the placement keeps only the brokers owning the
/// fewest bundles of the namespace. Counted here from the unload events and the
/// final owners, independently of the sentence.
#[test]
fn bundles_bounce_back_until_the_even_distribution_filter_is_off() {
    use lbscope::engine::pulsar;
    let q = gallery::questions::question("pulsar-bundles-bounce").unwrap();
    let unloads = |sc: &Scenario| {
        let o = gallery::outcome::<pulsar::Sim>(sc).unwrap();
        let froms: Vec<(String, String)> = o
            .after
            .steps
            .iter()
            .flat_map(|s| s.events.iter())
            .filter_map(|e| match e {
                pulsar::Event::Unloaded { bundle, from, .. } => Some((bundle.to_string(), from.to_string())),
                _ => None,
            })
            .collect();
        let owner = |b: &str| {
            let r = o.after.state.ring_view("public/default", false).unwrap();
            r.bundles
                .iter()
                .find(|x| format!("public/default/{}", x.name) == b)
                .and_then(|x| x.owner.as_ref().map(|o| o.to_string()))
        };
        // Bundles whose owner now is a broker they were unloaded from.
        let mut back: Vec<&str> = froms
            .iter()
            .filter(|(b, f)| owner(b).as_deref() == Some(f.as_str()))
            .map(|(b, _)| b.as_str())
            .collect();
        back.sort_unstable();
        back.dedup();
        // The busy broker is the only one shed from (the sentence says so).
        assert!(froms.iter().all(|(_, f)| f == "broker-2"), "{froms:?}");
        (froms.len(), back.len())
    };
    let (n, back) = unloads(&q.scenario());
    assert!(n >= 4 && back == 2, "{n} unloads, {back} back");
    let d = q.diagnosis().unwrap();
    assert!(
        d.contains(&format!("unloaded bundles {n} time(s) from broker-2")),
        "{d}"
    );
    assert!(d.contains(&format!("{back} of them came back")), "{d}");
    assert!(
        d.contains("removed broker-1 and broker-3 from the candidates"),
        "{d}"
    );
    let (n, back) = unloads(&q.fixed().unwrap());
    assert_eq!(back, 0);
    assert!(q
        .with_fix()
        .unwrap()
        .contains(&format!("unloaded bundles {n} time(s)")));
    assert!(q.with_fix().unwrap().contains("0 of them came back"));
}
