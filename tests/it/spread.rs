//! The run's outcome in the playground and its spread over seeds: the outcome
//! the metrics panel shows is the one `lbscope run` prints, and the spread the
//! engine worker computes (from the JSON it is handed) is the sweep
//! `lbscope sweep` makes of the same scenario and seeds, with the run on
//! screen's own seed marked.

use lbscope::engine::outcome::fmt;
use lbscope::engine::System;
use lbscope::gallery;
use lbscope::playground::compare::{
    read_spread_reply, run_json, spread, spread_message, Jobs, SpreadJob, SpreadReply, SPREAD_SEEDS,
};
use lbscope::playground::{Boot, Msg, Store};
use lbscope::scenario::run::{self, Settle};
use lbscope::scenario::sweep::{self, Plan, Variant};
use serde_json::json;

fn fresh() -> Store {
    Store::boot(Boot::default())
}

fn run_msgs(mut s: Store, msgs: impl IntoIterator<Item = Msg>) -> Store {
    for m in msgs {
        s = s.reduce(m);
    }
    s
}

/// The outcome on screen is the outcome of the scenario the page holds, as
/// `lbscope run` reads it (same meter, same default settling rule), for every
/// system, also with the cursor short of the log's end.
#[test]
fn the_outcome_on_screen_is_the_cli_outcome() {
    for sys in System::ALL {
        let s = run_msgs(
            fresh(),
            [
                Msg::Tab(sys),
                Msg::StepActive,
                Msg::StepActive,
                Msg::StepActive,
                Msg::Undo,
            ],
        );
        let sc = s.scenario();
        assert_eq!(
            sc.cursor,
            Some(s.history().cursor),
            "{sys:?}: the undone round is a redo tail"
        );
        let cli = run::outcome(&sc, Settle::default()).unwrap();
        let shown = s.outcome();
        assert_eq!(shown, cli, "{sys:?}");
        assert_eq!(shown.system, sys.slug());
        let line = shown.summary();
        assert!(
            line.ends_with(&format!("balancedness {}", fmt(shown.score))),
            "{sys:?}: {line}"
        );
        assert!(line.contains(&format!(" · {} move", shown.moves)), "{line}");
    }
}

/// The one-line summary: settled or not, the moves, the score.
#[test]
fn the_outcome_line_says_settled_moves_and_score() {
    // The Kafka Streams tab's first rebalance, then quiet rounds: it settles.
    let s = run_msgs(
        fresh(),
        [Msg::Tab(System::Kstreams)]
            .into_iter()
            .chain(std::iter::repeat_n(Msg::StepActive, 6)),
    );
    let o = s.outcome();
    assert!(o.rounds >= 6, "{o:?}");
    let line = o.summary();
    match o.settled_after {
        Some(r) => assert!(line.starts_with(&format!("settled after round {r} · ")), "{line}"),
        None => assert!(
            line.starts_with(&format!("not settled after {} rounds · ", o.rounds)),
            "{line}"
        ),
    }
    // Nothing run yet on a fresh Pulsar tab: no round.
    let o = fresh().outcome();
    if o.rounds == 0 {
        assert!(o.summary().starts_with("0 rounds · "), "{}", o.summary());
    }
}

/// The text of `html` between `start` and the next `end`.
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html
        .find(start)
        .map(|i| i + start.len())
        .unwrap_or_else(|| panic!("no {start} in {html}"));
    let to = html[from..].find(end).map_or(html.len(), |i| from + i);
    &html[from..to]
}

/// The sweep `lbscope sweep` makes of `sc` over seeds 1 to `seeds`, as the
/// scenario is and with `compare` set.
fn cli_sweep(job: &SpreadJob) -> sweep::Sweep {
    let mut variants = vec![Variant {
        label: String::new(),
        config: vec![],
    }];
    if let Some((k, v)) = &job.compare {
        variants.push(Variant {
            label: format!("{k}={v}"),
            config: vec![(k.clone(), v.clone())],
        });
    }
    let plan = Plan {
        scenario: job.scenario.clone(),
        seeds: (1..=job.seeds).collect(),
        variants,
        settle: Settle::default(),
    };
    sweep::sweep(&plan, 2).unwrap()
}

/// The spread job of the Flink tab's first scenario (figure (a): the request
/// order is drawn from the seed) with the other load-balance mode compared:
/// the worker's reply draws every figure that differs, with the sweep's
/// numbers, says the others once, and rings the run on screen's own figures.
#[test]
fn a_spread_job_gives_the_sweep_over_seeds_and_marks_the_run_on_screen() {
    let s = run_msgs(
        fresh(),
        [
            Msg::Tab(System::Flink),
            Msg::StepActive,
            Msg::Compare(Some(("taskmanager.load-balance.mode".into(), json!("TASKS")))),
        ],
    );
    assert_eq!(s.spread_job(1), None, "the spread is off until asked for");
    let s = s.reduce(Msg::Spread(true));
    let job = s.spread_job(9).expect("a spread is asked for");
    assert_eq!(job.seeds, SPREAD_SEEDS);
    assert_eq!(job.compare, s.compare);
    let reply: SpreadReply = read_spread_reply(&run_json(&spread_message(&job).unwrap())).unwrap();
    assert_eq!(reply.id, 9);
    let view = reply.result.expect("the spread is computed");
    assert_eq!(
        Ok(view.clone()),
        spread(&job),
        "the worker computes what the page would"
    );
    let cli = cli_sweep(&job);
    let this = [
        s.outcome().figures(),
        run::outcome(
            &Variant {
                label: String::new(),
                config: job.compare.clone().into_iter().collect(),
            }
            .apply(&job.scenario)
            .unwrap(),
            Settle::default(),
        )
        .unwrap()
        .figures(),
    ];
    let same = between(
        &view.html,
        "<p class=\"hint spread-same\">The same in every seed: ",
        "</p>",
    );
    let mut drawn = 0;
    for (vi, v) in cli.variants.iter().enumerate() {
        assert_eq!(v.runs, SPREAD_SEEDS as usize);
        for f in &v.figures {
            let d = &f.dist;
            let row = format!(
                "data-figure=\"{}\" data-variant=\"{vi}\" data-n=\"{}\" data-min=\"{}\" data-median=\"{}\" data-p90=\"{}\" data-max=\"{}\"",
                f.figure,
                d.n,
                fmt(d.min),
                fmt(d.median),
                fmt(d.p90),
                fmt(d.max)
            );
            let mark = this[vi].iter().find(|(k, _)| *k == f.figure).map(|(_, v)| *v);
            if view.html.contains(&row) {
                drawn += 1;
                let mark = mark.expect("the run on screen has the figure");
                assert!(
                    view.html.contains(&format!("{row} data-this=\"{}\">", fmt(mark))),
                    "{} of setting {vi}: ringed at {}",
                    f.figure,
                    fmt(mark)
                );
            } else {
                // Not drawn: the same in every seed and setting, said in words.
                assert_eq!(d.min, d.max, "{} differs but is not drawn", f.figure);
                assert!(
                    same.contains(&format!("{} {}", f.figure, fmt(d.min))),
                    "{}: {same}",
                    f.figure,
                );
            }
        }
    }
    assert!(
        drawn > 0,
        "figure (a) lands differently from seed to seed: {same}"
    );
    // Tasks per TaskManager over seeds: the standard deviation at the end
    // differs, and the words say how often each value came.
    let line = between(&view.html, "<summary>In words</summary><p>", "</p>")
        .lines()
        .find(|l| l.starts_with("final std dev: on screen: "))
        .expect("the final spread differs between seeds");
    assert!(line.contains(&format!("of {SPREAD_SEEDS} seeds")), "{line}");
    assert!(line.contains(&format!("(seed {}: ", job.scenario.seed)), "{line}");
    assert!(view.html.contains("data-view=\"spread\""));
    assert!(view
        .html
        .contains(&format!("data-seed=\"{}\"", job.scenario.seed)));
    assert!(!view.html.contains("spread-refused"), "{}", view.html);
    // The reply survives its trip as text.
    let back = read_spread_reply(
        &SpreadReply {
            id: 2,
            result: Ok(view.clone()),
        }
        .to_text(),
    )
    .unwrap();
    assert_eq!(
        back,
        SpreadReply {
            id: 2,
            result: Ok(view)
        }
    );
    assert!(read_spread_reply("x").is_err());
}

/// A spread job the worker cannot read, or a setting the engine refuses, comes
/// back with the reason.
#[test]
fn a_spread_job_that_fails_says_why() {
    let reply: SpreadReply = read_spread_reply(&run_json("{\"spread\":{\"id\":3")).unwrap();
    assert_eq!(reply.id, 0);
    assert!(reply.result.unwrap_err().contains("could not read the job"));
    let s = run_msgs(
        fresh(),
        [
            Msg::Compare(Some(("noSuchKey".into(), json!(1)))),
            Msg::Spread(true),
        ],
    );
    let job = s.spread_job(4).unwrap();
    let reply: SpreadReply = read_spread_reply(&run_json(&spread_message(&job).unwrap())).unwrap();
    assert_eq!(reply.id, 4);
    let err = reply.result.unwrap_err();
    assert!(err.contains("noSuchKey"), "{err}");
}

/// The spread is a view choice: it does not change the scenario, a tab switch
/// or a lesson puts it away, a question opens with it on (beside its fix), and
/// an example opens with it on exactly when its result depends on the seed.
#[test]
fn the_spread_follows_the_page() {
    let s = fresh().reduce(Msg::Spread(true));
    assert!(s.spread);
    assert_eq!(s.data_revision, fresh().data_revision, "a view choice only");
    assert!(!s.reduce(Msg::Tab(System::Flink)).spread);
    assert!(!s.reduce(Msg::Spread(false)).spread);
    for q in gallery::questions::all() {
        let o = fresh().reduce(Msg::Question(q.slug.to_string()));
        assert!(o.spread, "{}", q.slug);
        assert_eq!(o.compare, Some(q.fix()));
        assert_eq!(o.spread_job(1).unwrap().compare, Some(q.fix()));
    }
    for e in gallery::all() {
        let o = s.reduce(Msg::Example(e.slug.to_string()));
        assert_eq!(o.spread, e.depends_on_chance(), "{}", e.slug);
    }
}

/// Which examples depend on chance: Flink's figure (a) in the default mode
/// (the request order is drawn from the seed) does; the bundle arithmetic of
/// Pulsar's documents (hashes and ranges, no draw) does not.
#[test]
fn examples_that_depend_on_chance() {
    let chance: Vec<&str> = gallery::all()
        .iter()
        .filter(|e| e.depends_on_chance())
        .map(|e| e.slug)
        .collect();
    assert!(chance.contains(&"flink-figure-a-b"), "{chance:?}");
    for fixed in [
        "pulsar-default-bundles",
        "pulsar-topic-to-bundle",
        "pulsar-range-equally-divide",
        "pulsar-specified-positions-divide",
    ] {
        assert!(!chance.contains(&fixed), "{fixed} has no draw: {chance:?}");
    }
}

/// The page's side of a worker: only the newest job is drawn, and while one
/// is computed only the newest waits.
#[test]
fn jobs_keep_only_the_newest() {
    let mut j: Jobs<&str, u64> = Jobs::default();
    assert_eq!(j.ask("a", Some), Some(1), "nothing in flight: posted now");
    assert!(j.in_flight());
    assert_eq!(j.ask("b", Some), None, "waits");
    assert_eq!(j.ask("c", Some), None, "replaces the one waiting");
    // Job 1's reply is not the newest: dropped; job 3 goes next.
    assert_eq!(j.receive(1), (None, Some(3)));
    assert!(j.in_flight());
    assert_eq!(j.receive(3), (Some("c"), None));
    assert!(!j.in_flight());
    // No job made: nothing posted.
    assert_eq!(j.ask("d", |_| None), None);
    assert!(!j.in_flight());
    // Put away: a late reply is dropped.
    assert_eq!(j.ask("e", Some), Some(5));
    j.forget();
    assert_eq!(j.receive(5), (None, None));
    j.fail();
    assert!(j.failed && !j.in_flight());
}

/// Where no figure differs between seeds or settings (the rack question: the
/// fix changes where standbys go, not the counts the figures read), there is no
/// picture, only the line that says so; a compare value that is not a name
/// (`true`) labels its row "compare run".
#[test]
fn a_spread_where_nothing_differs_is_one_line() {
    let s = fresh().reduce(Msg::Question("kstreams-standbys-same-rack".into()));
    let view = spread(&s.spread_job(1).unwrap()).unwrap();
    assert!(!view.html.contains("<figure"), "{}", view.html);
    assert!(
        view.html.contains("The same in every seed: score "),
        "{}",
        view.html
    );
    let s = fresh().reduce(Msg::Question("pulsar-hot-topic".into()));
    assert!(s.compare.as_ref().is_some_and(|(_, v)| !v.is_string()));
    let view = spread(&s.spread_job(1).unwrap()).unwrap();
    assert!(view.html.contains("; compare run: "), "{}", view.html);
}
