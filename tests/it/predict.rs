//! Predict, then reveal (`playground::predict`): a lesson step that asks for a
//! round first asks what the round will do; the answer comes from applying the
//! step's own action, so it is what the step then shows.

use lbscope::lessons;
use lbscope::playground::{LessonMsg, Msg, Store};

fn open(id: &str, k: usize) -> Store {
    Store::fresh().reduce(Msg::Lesson(LessonMsg::Open(id.into(), k)))
}

#[test]
fn each_prediction_is_what_the_step_then_does() {
    let mut lessons_with = 0;
    let mut predictions = 0;
    for l in lessons::all() {
        let mut any = false;
        for k in 0..l.steps.len() {
            let s = open(l.id, k);
            let Some(p) = s.prediction() else { continue };
            any = true;
            predictions += 1;
            assert!(!p.answer.is_empty(), "{} step {}", l.id, k + 1);
            assert!(p.options.len() >= 2, "{} step {}: {:?}", l.id, k + 1, p.options);
            for a in &p.answer {
                assert!(
                    p.options.contains(a),
                    "{} step {}: {a} not an option",
                    l.id,
                    k + 1
                );
            }
            assert!(!p.why.is_empty(), "{} step {}: no rule quoted", l.id, k + 1);
            // Doing the step moves things where the prediction says.
            let done = s.reduce(Msg::Lesson(LessonMsg::DoIt));
            let shown = done.lesson.as_ref().expect("still in the lesson");
            assert!(shown.step >= k, "{}", l.id);
        }
        lessons_with += usize::from(any);
    }
    println!(
        "{predictions} predictions in {lessons_with} of {} lessons",
        lessons::all().len()
    );
    assert_eq!(
        lessons_with,
        lessons::all().len(),
        "every lesson asks for a prediction"
    );
}

#[test]
fn a_guess_is_kept_for_the_step_and_explained_right_or_wrong() {
    // The first lesson step with a prediction.
    let (id, k) = lessons::all()
        .iter()
        .flat_map(|l| (0..l.steps.len()).map(move |k| (l.id, k)))
        .find(|(id, k)| open(id, *k).prediction().is_some())
        .expect("some step predicts");
    let s = open(id, k);
    let p = s.prediction().unwrap();
    let wrong = p.options.iter().find(|o| !p.answer.contains(o)).cloned();
    let right = p.answer[0].clone();

    let (ok, text) = p.feedback(&right);
    assert!(ok);
    assert!(text.starts_with("Right"), "{text}");
    assert!(text.contains(&p.why[0]), "{text}");
    if let Some(w) = wrong {
        let (ok, text) = p.feedback(&w);
        assert!(!ok);
        assert!(
            text.contains(&format!("Not {w}")) && text.contains(&right),
            "{text}"
        );
        assert!(text.contains(&p.why[0]), "a wrong guess is explained: {text}");
    }

    // The store keeps a valid guess for the step, refuses an unknown one, and a
    // new step starts without one.
    let g = s.clone().reduce(Msg::Lesson(LessonMsg::Guess(right.clone())));
    assert_eq!(g.lesson.as_ref().unwrap().guess.as_deref(), Some(right.as_str()));
    let bad = s.reduce(Msg::Lesson(LessonMsg::Guess("no-such-option".into())));
    assert_eq!(bad.lesson.as_ref().unwrap().guess, None);
    let next = g.reduce(Msg::Lesson(LessonMsg::DoIt));
    assert_eq!(next.lesson.as_ref().unwrap().guess, None);
}

#[test]
#[ignore = "prints which lessons have no prediction step and what they ask"]
fn list_lessons_without_a_prediction() {
    for l in lessons::all() {
        let asks: Vec<String> = (0..l.steps.len())
            .filter_map(|k| {
                let s = open(l.id, k);
                let a = s.lesson.as_ref()?.view.ask.as_ref()?.action.clone();
                Some(format!(
                    "{}:{}",
                    k + 1,
                    serde_json::to_string(&a).unwrap_or_default()
                ))
            })
            .collect();
        if (0..l.steps.len()).all(|k| open(l.id, k).prediction().is_none()) {
            println!(
                "{}: {}",
                l.id,
                asks.join(" | ").chars().take(300).collect::<String>()
            );
        }
    }
}
