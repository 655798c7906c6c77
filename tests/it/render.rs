//! `lbscope render` and the shared view code: every picture is well-formed SVG
//! and carries the numbers of the state it draws (one arc per bundle, one cell
//! per slot, one chip per task replica).

use lbscope::engine::{flink, kstreams, pulsar, Engine, System};
use lbscope::scenario::{presets, replay, Body, Scenario};
use lbscope::view::{self, At, ViewKind};
use std::process::Command;

/// The preset of `system` with `rounds` rounds appended.
fn preset(system: System, rounds: usize) -> Scenario {
    let mut sc = presets::default_scenario(system);
    sc.push_rounds(rounds);
    sc
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed SVG: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(
        doc.root_element().tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc
}

fn with_attr<'a>(doc: &'a roxmltree::Document<'a>, attr: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute(attr).is_some())
        .collect()
}

fn texts(doc: &roxmltree::Document<'_>) -> String {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("\n")
}

fn pulsar_state(sc: &Scenario) -> pulsar::Sim {
    let Body::Pulsar(log) = &sc.body else {
        panic!("a Pulsar scenario")
    };
    replay(sc.seed, log, sc.cursor).unwrap().state
}

#[test]
fn ring_has_one_arc_per_bundle_coloured_by_owner() {
    let sc = preset(System::Pulsar, 2);
    let sim = pulsar_state(&sc);
    let ns = sim.namespaces().keys().next().unwrap().clone();
    let ring = sim.ring_view(&ns, true).unwrap();
    let svg = view::render(&sc, Some(ViewKind::Ring), None).unwrap();
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.attribute("data-view"), Some("ring"));
    assert_eq!(root.attribute("data-namespace"), Some(ns.as_str()));
    assert_eq!(
        root.attribute("data-bundles"),
        Some(ring.bundles.len().to_string().as_str())
    );
    let arcs = with_attr(&doc, "data-bundle");
    assert_eq!(arcs.len(), ring.bundles.len(), "one arc per bundle");
    for (arc, b) in arcs.iter().zip(&ring.bundles) {
        assert_eq!(arc.tag_name().name(), "path");
        assert_eq!(arc.attribute("data-bundle"), Some(b.name.as_str()));
        let owner = b.owner.as_ref().map_or("", |o| o.as_str());
        assert_eq!(arc.attribute("data-owner"), Some(owner));
        assert_eq!(arc.attribute("data-topics"), Some(b.topics.to_string().as_str()));
    }
    let topics: usize = ring.bundles.iter().map(|b| b.topic_list.len()).sum();
    assert_eq!(with_attr(&doc, "data-topic").len(), topics, "one tick per topic");
    let text = texts(&doc);
    assert!(
        text.contains(&format!("{} bundles", ring.bundles.len())),
        "{text}"
    );
    assert!(text.contains(&format!("round {}", sim.round())), "{text}");
    // The legend names every broker.
    for b in sim.brokers().keys() {
        assert!(text.contains(b.as_str()), "legend lacks {b}: {text}");
    }
}

#[test]
fn broker_bars_carry_each_brokers_load() {
    let sc = preset(System::Pulsar, 1);
    let sim = pulsar_state(&sc);
    let svg = view::render(&sc, Some(ViewKind::Brokers), None).unwrap();
    let doc = parse(&svg);
    let views = sim.broker_views();
    let bars = with_attr(&doc, "data-load");
    assert_eq!(bars.len(), views.len());
    for (bar, b) in bars.iter().zip(&views) {
        assert_eq!(bar.attribute("data-broker"), Some(b.id.as_str()));
        let load: f64 = bar.attribute("data-load").unwrap().parse().unwrap();
        assert!((load - b.load).abs() < 0.01, "{load} vs {}", b.load);
    }
    let text = texts(&doc);
    assert!(text.contains(&format!("{:.1} %", views[0].load)), "{text}");
}

#[test]
fn slot_grid_has_one_cell_per_slot_and_the_metrics() {
    let sc = preset(System::Flink, 1);
    let Body::Flink(log) = &sc.body else { panic!() };
    let sim: flink::Sim = replay(sc.seed, log, None).unwrap().state;
    let svg = view::render(&sc, None, None).unwrap();
    let doc = parse(&svg);
    let grid = sim.slot_grid();
    let slots: usize = grid.rows.iter().map(|r| r.slots.len()).sum();
    assert_eq!(with_attr(&doc, "data-slot").len(), slots);
    let subtasks: usize = grid.rows.iter().map(|r| r.tasks as usize).sum();
    assert!(subtasks > 0, "the preset schedules its job");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("subtask"))
            .count(),
        subtasks
    );
    let m = sim.metrics().expect("scheduled");
    let counts: Vec<String> = m.tm_counts().iter().map(u32::to_string).collect();
    assert_eq!(
        doc.root_element().attribute("data-tm-counts"),
        Some(counts.join(",").as_str())
    );
    assert!(texts(&doc).contains(&format!("range {}", m.tm.range)));
}

#[test]
fn instances_grid_has_one_chip_per_replica() {
    let sc = preset(System::Kstreams, 1);
    let Body::Kstreams(log) = &sc.body else { panic!() };
    let sim: kstreams::Sim = replay(sc.seed, log, None).unwrap().state;
    let svg = view::render(&sc, Some(ViewKind::Instances), None).unwrap();
    let doc = parse(&svg);
    let v = sim.view();
    assert_eq!(with_attr(&doc, "data-instance").len(), v.instances.len());
    let replicas: usize = v.instances.iter().map(|i| i.replicas.len()).sum();
    assert_eq!(with_attr(&doc, "data-role").len(), replicas);
    let actives = doc
        .descendants()
        .filter(|n| n.attribute("data-role") == Some("active"))
        .count();
    assert_eq!(actives, v.tasks.iter().filter(|t| t.active.is_some()).count());
}

#[test]
fn every_preset_renders_each_of_its_views_deterministically() {
    for system in System::ALL {
        for rounds in [0, 3] {
            let sc = preset(system, rounds);
            for &kind in ViewKind::of(system) {
                let a = view::render(&sc, Some(kind), None).unwrap();
                let b = view::render(&sc, Some(kind), None).unwrap();
                assert_eq!(a, b, "{system:?} {kind} is deterministic");
                parse(&a);
            }
        }
    }
}

#[test]
fn a_view_of_another_system_or_namespace_is_a_clear_error() {
    let sc = preset(System::Flink, 0);
    let e = view::render(&sc, Some(ViewKind::Ring), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("ring view draws Pulsar") && e.contains("its views: slots"),
        "{e}"
    );
    let e = ViewKind::parse("pie").unwrap_err().to_string();
    assert!(e.contains("unknown view \"pie\""), "{e}");
    let sc = preset(System::Pulsar, 0);
    let e = view::render(&sc, Some(ViewKind::Ring), Some("no/such".into()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no namespace \"no/such\"") && e.contains("public/default"),
        "{e}"
    );
}

#[test]
fn a_very_large_ring_is_drawn_in_runs_of_one_owner() {
    let log = presets::with_pulsar_bundles(presets::pulsar_playground(4), 4096);
    let mut sc = Scenario::of::<pulsar::Sim>(1, log);
    sc.push_rounds(1);
    let svg = view::render(&sc, Some(ViewKind::Ring), None).unwrap();
    let doc = parse(&svg);
    assert!(with_attr(&doc, "data-bundle").is_empty());
    let runs = with_attr(&doc, "data-run-bundles");
    let covered: usize = runs
        .iter()
        .map(|r| r.attribute("data-run-bundles").unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(covered, 4096, "the runs cover every bundle once");
}

#[test]
fn markdown_quotes_the_table_the_decision_and_the_link() {
    let sc = preset(System::Pulsar, 1);
    let Body::Pulsar(log) = &sc.body else { panic!() };
    let r = replay::<pulsar::Sim>(sc.seed, log, None).unwrap();
    let events: Vec<String> = r
        .steps
        .last()
        .unwrap()
        .events
        .iter()
        .map(lbscope::engine::Narrate::narrate)
        .collect();
    let at = At {
        cursor: r.steps.len(),
        len: log.actions.len(),
    };
    let md = view::markdown::quote(
        &r.state,
        at,
        Some((r.steps.len() - 1, &events)),
        "http://x/#s=abc",
    );
    assert!(md.starts_with("**lbscope · Pulsar**"), "{md}");
    assert!(md.contains("| broker | load % |"), "{md}");
    for b in r.state.broker_views() {
        assert!(md.contains(&format!("| {} | {:.1} |", b.id.0, b.load)), "{md}");
    }
    assert!(
        md.contains(&format!("**Decision of action #{}**", r.steps.len())),
        "{md}"
    );
    for e in &events {
        assert!(md.contains(e.as_str()), "{md}");
    }
    assert!(
        md.trim_end()
            .ends_with("[Open this scenario in lbscope](http://x/#s=abc)"),
        "{md}"
    );
    let _ = pulsar::Sim::SYSTEM;
}

fn lbscope(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lbscope"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_render_writes_the_same_svg_as_the_view_code() {
    let dir = std::env::temp_dir().join(format!("lbscope-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pulsar.json");
    let sc = presets::default_scenario(System::Pulsar);
    std::fs::write(&file, sc.to_json()).unwrap();
    let out = dir.join("ring.svg");
    let f = file.to_str().unwrap();
    let (ok, stdout, stderr) = lbscope(&[
        "render",
        f,
        "--view",
        "ring",
        "--rounds",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.is_empty());
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        written,
        view::render(&preset(System::Pulsar, 2), Some(ViewKind::Ring), None).unwrap()
    );
    // stdout, and the brokers view.
    let (ok, stdout, _) = lbscope(&["render", f, "--view", "brokers"]);
    assert!(ok);
    parse(&stdout);
    // A view of another system: the error names the scenario's views.
    let (ok, _, stderr) = lbscope(&["render", f, "--view", "slots"]);
    assert!(!ok);
    assert!(stderr.contains("its views: ring, brokers"), "{stderr}");
    let (ok, _, stderr) = lbscope(&["render", f, "--cursor", "99"]);
    assert!(!ok);
    assert!(stderr.contains("--cursor 99"), "{stderr}");
    // --svg FILE --round N: the state after the log's N-th round.
    let mut three = sc.clone();
    three.push_rounds(3);
    let file3 = dir.join("three.json");
    std::fs::write(&file3, three.to_json()).unwrap();
    let (ok, _, stderr) = lbscope(&[
        "render",
        file3.to_str().unwrap(),
        "--view",
        "ring",
        "--round",
        "2",
        "--svg",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let mut at_two = three.clone();
    at_two.cursor = three.body.after_round(2);
    assert_eq!(at_two.cursor, Some(sc.body.log_len() + 2));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        view::render(&at_two, Some(ViewKind::Ring), None).unwrap()
    );
    let (ok, _, stderr) = lbscope(&["render", file3.to_str().unwrap(), "--round", "4"]);
    assert!(!ok);
    assert!(
        stderr.contains("--round 4: the scenario's log has only 3 rounds"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chart_has_one_line_per_series_with_its_points_and_legend() {
    for system in System::ALL {
        let sc = preset(system, 4);
        let svg = view::render(&sc, Some(ViewKind::Chart), None).unwrap();
        let doc = parse(&svg);
        let series = lbscope::view::chart_series(&sc).unwrap();
        assert!(!series.is_empty(), "{system:?} has metric lines");
        let root = doc.root_element();
        assert_eq!(root.attribute("data-view"), Some("chart"));
        assert_eq!(root.attribute("data-system"), Some(system.slug()));
        assert_eq!(
            root.attribute("data-series"),
            Some(series.len().to_string().as_str())
        );
        let lines = with_attr(&doc, "data-series")
            .into_iter()
            .filter(|g| g.tag_name().name() == "g")
            .collect::<Vec<_>>();
        assert_eq!(lines.len(), series.len(), "one line per series");
        let text = texts(&doc);
        for (g, s) in lines.iter().zip(&series) {
            assert_eq!(g.attribute("data-series"), Some(s.name.as_str()));
            assert_eq!(
                g.attribute("data-points"),
                Some(s.points.len().to_string().as_str())
            );
            let circles = g.children().filter(|c| c.tag_name().name() == "circle").count();
            assert_eq!(circles, s.points.len(), "{}: one dot per point", s.name);
            if s.points.len() > 1 {
                assert!(g.children().any(|c| c.tag_name().name() == "polyline"));
            }
            assert!(text.contains(&s.name), "the legend names {}: {text}", s.name);
        }
        assert!(text.contains("metrics over rounds"), "{text}");
        assert!(text.contains("after all"), "the caption says where: {text}");
    }
    // Before any round: a picture that says so, not an error.
    let svg = view::render(&preset(System::Flink, 0), Some(ViewKind::Chart), None).unwrap();
    parse(&svg);
}

#[test]
fn cli_render_draws_the_chart() {
    let dir = std::env::temp_dir().join(format!("lbscope-render-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kstreams.json");
    std::fs::write(&file, preset(System::Kstreams, 3).to_json()).unwrap();
    let (ok, stdout, stderr) = lbscope(&["render", file.to_str().unwrap(), "--view", "chart"]);
    assert!(ok, "{stderr}");
    assert_eq!(
        stdout,
        view::render(&preset(System::Kstreams, 3), Some(ViewKind::Chart), None).unwrap()
    );
    let (ok, _, stderr) = lbscope(&[
        "render",
        file.to_str().unwrap(),
        "--view",
        "chart",
        "--round",
        "1",
    ]);
    assert!(ok, "{stderr}");
}

#[test]
fn markdown_of_a_range_of_rounds_quotes_each_action_and_the_state_after_it() {
    use lbscope::view::markdown::{quote_rounds, round_span};
    let mut sc = preset(System::Pulsar, 2);
    let Body::Pulsar(log) = &mut sc.body else { panic!() };
    // A change between rounds belongs to the range of the round after it.
    log.actions.push(pulsar::Action::AddBroker {
        broker: "broker-late".into(),
        capacity: Default::default(),
    });
    sc.push_rounds(2);
    let Body::Pulsar(log) = &sc.body else { panic!() };
    let applied = log.actions.len();
    let numbers = view::markdown::round_numbers(log, applied);
    let played: Vec<usize> = numbers.iter().flatten().copied().collect();
    assert_eq!(played.len(), 4);
    let (r2, r3) = (played[1], played[2]);
    let span = round_span(log, applied, r2, r3).unwrap();
    let add = log
        .actions
        .iter()
        .position(|a| matches!(a, pulsar::Action::AddBroker { .. }))
        .unwrap();
    assert!(span.actions.contains(&add), "{span:?}");
    assert_eq!(
        span.actions.end,
        numbers.iter().position(|r| *r == Some(r3)).unwrap() + 1
    );
    let full = replay::<pulsar::Sim>(sc.seed, log, None).unwrap();
    let steps: Vec<Vec<pulsar::Event>> = full.steps.iter().map(|s| s.events.clone()).collect();
    let there = replay::<pulsar::Sim>(sc.seed, log, Some(span.actions.end)).unwrap();
    let at = At {
        cursor: span.actions.end,
        len: applied,
    };
    let md = quote_rounds(&there.state, at, &span, &steps, "http://x/#s=abc(1)");
    assert!(md.starts_with("**lbscope · Pulsar**"), "{md}");
    assert!(md.contains(&format!("Rounds {r2}–{r3} (log actions #")), "{md}");
    assert!(md.contains(&format!("**Round {r2}** (log action #")), "{md}");
    assert!(md.contains(&format!("**Round {r3}** (log action #")), "{md}");
    assert!(
        md.contains(&format!("**Action** (log action #{}", add + 1)),
        "{md}"
    );
    // The table is the state after the range's last round, not after the log.
    for b in there.state.broker_views() {
        assert!(md.contains(&format!("| {} | {:.1} |", b.id.0, b.load)), "{md}");
    }
    for i in span.actions.clone() {
        for e in &steps[i] {
            assert!(md.contains(&lbscope::engine::Narrate::narrate(e)), "{md}");
        }
    }
    // Nothing of the rounds outside the range.
    assert!(!md.contains(&format!("**Round {}**", played[0])), "{md}");
    assert!(!md.contains(&format!("**Round {}**", played[3])), "{md}");
    assert!(
        md.trim_end()
            .ends_with("[Open this scenario in lbscope](http://x/#s=abc(1%29)"),
        "{md}"
    );
    // One round; and the ranges that do not exist.
    let one = round_span(log, applied, r3, r3).unwrap();
    assert_eq!(one.rounds.iter().flatten().count(), 1);
    assert!(one.rounds.contains(&Some(r3)));
    let e = round_span(log, applied, r3, r2).unwrap_err();
    assert!(e.contains("comes after"), "{e}");
    let e = round_span(log, applied, played[0], played[3] + 1).unwrap_err();
    assert!(e.contains(&format!("no round {}", played[3] + 1)), "{e}");
    assert!(
        e.contains(&format!("rounds {} to {} were played", played[0], played[3])),
        "{e}"
    );
    if played[0] > 1 {
        // The rounds the setup ran are not in the log.
        let e = round_span(log, applied, played[0] - 1, played[1]).unwrap_err();
        assert!(e.starts_with(&format!("no round {}:", played[0] - 1)), "{e}");
        let e = round_span(log, applied, played[0] - 1, played[3] + 1).unwrap_err();
        assert!(
            e.starts_with(&format!("no rounds {} and {}:", played[0] - 1, played[3] + 1)),
            "{e}"
        );
    }
    let e = round_span(log, 0, 1, 1).unwrap_err();
    assert_eq!(e, "no round has been played yet");
}
