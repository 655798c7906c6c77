//! Every lesson replayed step by step, with the numbers its narration quotes.

use lbscope::engine::Narrate;
use lbscope::lessons::{self, text, Lesson};
use lbscope::scenario::Body;

fn last_events(l: &Lesson, cursor: usize) -> Vec<String> {
    let seed = l.scenario.seed;
    match &l.scenario.body {
        Body::Pulsar(log) => lessons::Ctx::<lbscope::engine::pulsar::Sim>::replay(seed, log, cursor)
            .unwrap()
            .last()
            .iter()
            .map(|e| e.narrate())
            .collect(),
        Body::Flink(log) => lessons::Ctx::<lbscope::engine::flink::Sim>::replay(seed, log, cursor)
            .unwrap()
            .last()
            .iter()
            .map(|e| e.narrate())
            .collect(),
        Body::Kstreams(log) => lessons::Ctx::<lbscope::engine::kstreams::Sim>::replay(seed, log, cursor)
            .unwrap()
            .last()
            .iter()
            .map(|e| e.narrate())
            .collect(),
    }
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
            if std::env::var("EVENTS").is_ok() {
                for e in last_events(l, v.cursor) {
                    println!("      > {e}");
                }
            }
        }
    }
}
