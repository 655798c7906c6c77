//! The examples gallery: one entry per worked example of the three source
//! documents, each a scenario that opens in free play with the document's
//! situation set up and its decisive action next in the log (Redo, or the
//! round button, applies it).
//!
//! An entry carries the document's printed numbers as typed in from the
//! document, and a function that reads the same numbers off the replayed
//! engine. Where the two disagree the entry says why (the real code decides);
//! `tests/it/gallery.rs` checks that every number the entry claims to agree
//! does agree, and every one it says differs does differ.
//!
//! Pure: no web crates. The UI lists [`all`], opens [`Example::scenario`] and
//! shows [`Example::numbers`]; the CLI prints them (`lbscope preset NAME`).

mod build;
pub mod questions;

use crate::engine::{flink, kstreams, pulsar, Engine, System};
use crate::scenario::{replay, InBody, Log, Replay, Scenario};
use std::sync::OnceLock;

/// `#example=<slug>`.
pub fn deep_link(slug: &str) -> String {
    format!("#example={slug}")
}

/// The slug of `example=<slug>` in a fragment (with or without `#`, other
/// parameters ignored), if there is one.
pub fn parse_deep_link(fragment: &str) -> Option<String> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .find_map(|p| p.strip_prefix("example="))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// How a document's number compares with the engine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The engine computes the document's value.
    Same,
    /// The real code computes something else, for this reason.
    Differs(&'static str),
}

/// One number of a worked example: what the document prints, and whether the
/// engine agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocNumber {
    /// What it is.
    pub label: &'static str,
    /// The document's printed value.
    pub doc: &'static str,
    /// How the engine's value compares.
    pub agreement: Agreement,
}

const fn same(label: &'static str, doc: &'static str) -> DocNumber {
    DocNumber {
        label,
        doc,
        agreement: Agreement::Same,
    }
}

const fn differs(label: &'static str, doc: &'static str, why: &'static str) -> DocNumber {
    DocNumber {
        label,
        doc,
        agreement: Agreement::Differs(why),
    }
}

/// One number as shown: the document's, the engine's, and why they differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// What it is.
    pub label: &'static str,
    /// The document's printed value.
    pub doc: &'static str,
    /// The value the engine computes for the entry's scenario.
    pub engine: String,
    /// Why the real code differs from the document, when it does.
    pub why: Option<&'static str>,
}

/// A replayed entry: the state at the scenario's cursor (the document's
/// situation) and after the rest of its log (what pressing does).
pub struct Outcome<E: Engine> {
    /// Replayed up to the cursor.
    pub before: Replay<E>,
    /// Replayed to the end of the log.
    pub after: Replay<E>,
    /// The scenario's cursor.
    pub cursor: usize,
}

impl<E: Engine> Outcome<E> {
    /// Events of the actions the user presses (log actions from the cursor on).
    pub fn pressed(&self) -> impl Iterator<Item = &E::Event> {
        self.after.steps[self.cursor..]
            .iter()
            .flat_map(|s| s.events.iter())
    }

    /// Events of the setup and of the log up to the cursor.
    pub fn before_events(&self) -> impl Iterator<Item = &E::Event> {
        self.before
            .setup
            .iter()
            .chain(self.before.steps.iter())
            .flat_map(|s| s.events.iter())
    }
}

type Reader<E> = fn(&Outcome<E>) -> Vec<String>;

/// How an entry reads its numbers off the engine, per system.
#[derive(Clone, Copy)]
enum Numbers {
    Pulsar(Reader<pulsar::Sim>),
    Flink(Reader<flink::Sim>),
    Kstreams(Reader<kstreams::Sim>),
}

/// One worked example.
pub struct Example {
    /// Deep-link slug (`#example=<slug>`, `lbscope preset <slug>`).
    pub slug: &'static str,
    /// Title.
    pub title: &'static str,
    /// The system.
    pub system: System,
    /// Where in its document it is.
    pub section: &'static str,
    /// One sentence: what to press to see the document's result.
    pub press: &'static str,
    /// The document's numbers.
    pub doc: Vec<DocNumber>,
    build: fn() -> Scenario,
    numbers: Numbers,
}

impl std::fmt::Debug for Example {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Example").field("slug", &self.slug).finish()
    }
}

impl Example {
    /// The scenario that sets up the document's situation (cursor before the
    /// action the entry asks to press).
    pub fn scenario(&self) -> Scenario {
        (self.build)()
    }

    /// The deep link.
    pub fn link(&self) -> String {
        deep_link(self.slug)
    }

    /// Whether the example's result depends on the seed: its outcome
    /// ([`crate::scenario::run::outcome`]) differs between seeds 1 to
    /// [`CHANCE_SEEDS`] (Flink draws a region's request order from it).
    pub fn depends_on_chance(&self) -> bool {
        depends_on_chance(&self.scenario())
    }

    /// The document's numbers next to the engine's.
    pub fn numbers(&self) -> Result<Vec<Row>, String> {
        let sc = self.scenario();
        let values = match self.numbers {
            Numbers::Pulsar(f) => f(&outcome::<pulsar::Sim>(&sc)?),
            Numbers::Flink(f) => f(&outcome::<flink::Sim>(&sc)?),
            Numbers::Kstreams(f) => f(&outcome::<kstreams::Sim>(&sc)?),
        };
        if values.len() != self.doc.len() {
            return Err(format!(
                "{}: {} numbers from the engine for {} in the document",
                self.slug,
                values.len(),
                self.doc.len()
            ));
        }
        Ok(self
            .doc
            .iter()
            .zip(values)
            .map(|(d, engine)| Row {
                label: d.label,
                doc: d.doc,
                engine,
                why: match d.agreement {
                    Agreement::Same => None,
                    Agreement::Differs(w) => Some(w),
                },
            })
            .collect())
    }
}

/// Seeds [`Example::depends_on_chance`] tries.
pub const CHANCE_SEEDS: u64 = 10;

/// Whether `sc`, replayed to the end of its log, ends differently (any figure
/// of its outcome) under some seed from 1 to [`CHANCE_SEEDS`].
pub fn depends_on_chance(sc: &Scenario) -> bool {
    use crate::scenario::run;
    let figures = |seed| {
        let sc = Scenario {
            seed,
            cursor: None,
            ..sc.clone()
        };
        run::outcome(&sc, run::Settle::default()).map(|o| o.figures())
    };
    let Ok(first) = figures(1) else {
        return false;
    };
    (2..=CHANCE_SEEDS).any(|s| figures(s).ok().as_ref() != Some(&first))
}

/// Replay `sc` to its cursor and to its end.
pub fn outcome<E: InBody>(sc: &Scenario) -> Result<Outcome<E>, String> {
    let log: &Log<E> = E::log(&sc.body).ok_or("the entry's scenario is of another system")?;
    let cursor = sc.cursor.unwrap_or(log.actions.len());
    let before = replay(sc.seed, log, Some(cursor)).map_err(|e| e.to_string())?;
    let after = replay(sc.seed, log, None).map_err(|e| e.to_string())?;
    Ok(Outcome {
        before,
        after,
        cursor,
    })
}

/// Every entry, in document order (Pulsar, Flink, Kafka Streams).
pub fn all() -> &'static [Example] {
    static ALL: OnceLock<Vec<Example>> = OnceLock::new();
    ALL.get_or_init(build::examples)
}

/// The entry with this slug.
pub fn example(slug: &str) -> Option<&'static Example> {
    all().iter().find(|e| e.slug == slug)
}

/// The entries of one system.
pub fn of_system(system: System) -> impl Iterator<Item = &'static Example> {
    all().iter().filter(move |e| e.system == system)
}

/// `log` as a scenario with its cursor at `cursor`.
fn at<E: InBody>(seed: u64, log: Log<E>, cursor: usize) -> Scenario {
    let mut sc = Scenario::of::<E>(seed, log);
    sc.cursor = Some(cursor);
    sc
}

/// A body's log with its cursor at `cursor`.
fn with_cursor(mut sc: Scenario, cursor: usize) -> Scenario {
    sc.cursor = Some(cursor);
    sc
}

/// Plain text of an entry (the CLI's `preset NAME`): title, where, what to
/// press, the numbers, the link.
pub fn describe(e: &Example) -> String {
    let mut out = format!(
        "{} ({}, {})\n{}\n{}\n",
        e.title,
        e.system.title(),
        e.section,
        e.link(),
        e.press
    );
    match e.numbers() {
        Ok(rows) => {
            for r in rows {
                out.push_str(&format!("  {}: document {}, engine {}", r.label, r.doc, r.engine));
                if let Some(w) = r.why {
                    out.push_str(&format!(" ({w})"));
                }
                out.push('\n');
            }
        }
        Err(e) => out.push_str(&format!("  (numbers unavailable: {e})\n")),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_links_round_trip() {
        assert_eq!(deep_link("x"), "#example=x");
        assert_eq!(parse_deep_link("#example=x"), Some("x".into()));
        assert_eq!(parse_deep_link("foo=1&example=y"), Some("y".into()));
        assert_eq!(parse_deep_link("#example="), None);
        assert_eq!(parse_deep_link("#s=1.abc"), None);
    }

    #[test]
    fn slugs_are_unique_and_systems_match() {
        let mut seen = std::collections::BTreeSet::new();
        for e in all() {
            assert!(seen.insert(e.slug), "duplicate {}", e.slug);
            assert_eq!(e.scenario().system(), e.system, "{}", e.slug);
        }
        assert!(example(all()[0].slug).is_some());
        assert!(example("nope").is_none());
    }
}
