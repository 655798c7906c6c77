//! The lesson panel above the active tab: the step's title and narration (the
//! engine's text), step k of n, previous / next, the ask with "Do it for me",
//! "Play freely from here", and the "In the real system" box.

use super::course_number;
use crate::lessons::{self, RealSystem};
use crate::ui::store::{LessonMsg, Msg, Page, StoreCtx};
use yew::prelude::*;

fn send(store: &StoreCtx, m: impl Fn() -> Msg + 'static) -> Callback<MouseEvent> {
    let store = store.clone();
    Callback::from(move |_: MouseEvent| store.dispatch(m()))
}

/// The panel (nothing when no lesson runs).
#[component]
pub fn LessonPanel() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let Some(run) = store.lesson.clone() else {
        return html! {};
    };
    let l = run.lesson;
    let v = run.view.clone();
    let leave = send(&store, || Msg::Lesson(LessonMsg::Leave));
    let menu = send(&store, || Msg::Page(Page::Lessons));
    let resume = send(&store, || Msg::Lesson(LessonMsg::Resume));
    if run.free && run.shown && l.system == store.tab {
        return html! {
            <section class="free-play-bar" aria-label="Free play">
                <p>{ format!("You are playing freely with the scenario of the lesson “{}”. Your own {} scenario is kept as you left it.", l.title, l.system.title()) }</p>
                <div class="lesson-nav">
                    <button onclick={leave}>{ format!("Back to my {} scenario", l.system.title()) }</button>
                </div>
            </section>
        };
    }
    if !run.shown || l.system != store.tab {
        if run.free {
            return html! {};
        }
        return html! {
            <section class="lesson-panel paused" aria-label="Lesson">
                <p>{ format!("Lesson paused: “{}”, step {} of {} ({}). You are looking at your own scenario.", l.title, v.index + 1, v.of, l.system.title()) }</p>
                <div class="lesson-nav">
                    <button class="primary resume" onclick={resume}>{"Back to the lesson"}</button>
                    <button class="leave" onclick={leave}>{"Leave the lesson"}</button>
                </div>
            </section>
        };
    }
    let last = v.index + 1 == v.of;
    let next_lesson = lessons::all()
        .iter()
        .skip_while(|x| x.id != l.id)
        .nth(1)
        .map(|x| (x.id, x.title));
    let prev = send(&store, || Msg::Lesson(LessonMsg::Prev));
    let next = send(&store, || Msg::Lesson(LessonMsg::Next));
    let do_it = send(&store, || Msg::Lesson(LessonMsg::DoIt));
    let back = send(&store, || Msg::Lesson(LessonMsg::Back));
    let free = send(&store, || Msg::Lesson(LessonMsg::Free));
    let dots = (0..v.of).map(|j| {
        let go = send(&store, move || Msg::Lesson(LessonMsg::Open(l.id.to_string(), j)));
        let seen = store.progress.visited.get(l.id).is_some_and(|s| s.contains(&j));
        let title = l.steps.get(j).map_or("", |s| s.title);
        html! {
            <li>
                <button class={classes!("dot", (j == v.index).then_some("current"), seen.then_some("seen"))}
                        aria-current={(j == v.index).then_some("step")}
                        aria-label={format!("Step {}: {title}", j + 1)} title={format!("{}. {title}", j + 1)}
                        onclick={go}>{ j + 1 }</button>
            </li>
        }
    });
    html! {
        <section class="lesson-panel" aria-labelledby="lesson-step-title" data-lesson={l.id} data-step={(v.index + 1).to_string()}>
            <div class="lesson-main">
                <p class="lesson-crumb">
                    <button class="link" onclick={menu}>{"Lessons"}</button>
                    { format!(" › {} › {}. {}", l.system.title(), course_number(l.id), l.title) }
                </p>
                <div class="lesson-head">
                    <h2 id="lesson-step-title" tabindex="-1">{ v.title.clone() }</h2>
                    <span class="lesson-count">{ format!("Step {} of {}", v.index + 1, v.of) }</span>
                </div>
                <ol class="lesson-dots" aria-label="Steps">{ for dots }</ol>
                <p class="narration" aria-live="polite" data-lesson-narration="">{ v.narration.clone() }</p>
                if v.ask.is_some() && !run.off_track {
                    <PredictBox />
                }
                if let Some(ask) = v.ask.as_ref() {
                    <div class="ask" role="note">
                        <p><strong>{"Your turn: "}</strong><span class="ask-prompt">{ ask.prompt.clone() }</span>
                           <span class="hint">{" — with the control shown below; the lesson moves on when you do."}</span></p>
                        <button class="do-it" onclick={do_it}>{"Do it for me"}</button>
                    </div>
                }
                if run.off_track {
                    <div class="off-track" role="status">
                        <p>{"You have moved away from this step: the text above describes the lesson's state, not what you see now."}</p>
                        <button onclick={back}>{"Back to the step"}</button>
                    </div>
                }
                <div class="lesson-nav">
                    <button class="prev" onclick={prev} disabled={v.index == 0} title="Previous step ([ or ←)">{"← Previous"}</button>
                    if !last {
                        <button class="next primary" onclick={next} aria-disabled={run.waiting().then_some("true")}
                                title={if run.waiting() { "Do what the step asks (or press Do it for me) to go on" } else { "Next step (] or →)" }}>
                            {"Next →"}
                        </button>
                    } else if let Some((id, title)) = next_lesson {
                        <button class="next-lesson primary" onclick={send(&store, move || Msg::Lesson(LessonMsg::Open(id.to_string(), 0)))}>
                            { format!("Next lesson: {title} →") }
                        </button>
                    }
                    <button class="free-play" onclick={free} title="Stop following the steps and experiment with this state (your own scenario is kept)">{"Play freely from here"}</button>
                    <button class="leave" onclick={leave} title="Back to your own scenario, as you left it">{"Leave the lesson"}</button>
                </div>
            </div>
            { real_box(&l.real) }
        </section>
    }
}

/// "Before you press": the step's question about its own round, its options
/// as buttons, then, once one is picked, whether it was right and the rule
/// that decided with the engine's numbers.
#[component]
fn PredictBox() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let key = store
        .lesson_on_screen()
        .map(|r| (r.lesson.id, r.step, r.off_track, store.history().cursor));
    let prediction = {
        let store = store.clone();
        use_memo(key, move |_| store.prediction())
    };
    let Some(p) = (*prediction).clone() else {
        return html! {};
    };
    let guess = store.lesson.as_ref().and_then(|r| r.guess.clone());
    let label = |id: &str| match p.mark {
        // A bundle's range is what the ring shows.
        "bundle" => id.rsplit('/').next().unwrap_or(id).to_string(),
        _ => id.to_string(),
    };
    let options = p.options.iter().map(|o| {
        let pick = {
            let (store, o) = (store.clone(), o.clone());
            Callback::from(move |_: MouseEvent| store.dispatch(Msg::Lesson(LessonMsg::Guess(o.clone()))))
        };
        let picked = guess.as_deref() == Some(o.as_str());
        let class = classes!(
            "predict-option",
            picked.then_some("picked"),
            (guess.is_some() && p.answer.contains(o)).then_some("answer")
        );
        html! {
            <button {class} data-predict-option={o.clone()} data-predict-mark={p.mark}
                    aria-pressed={picked.to_string()} onclick={pick}>{ label(o) }</button>
        }
    });
    let feedback = guess.as_deref().map(|g| p.feedback(g));
    html! {
        <div class="predict" role="group" aria-labelledby="predict-question">
            <p id="predict-question" class="predict-question">{ p.question.clone() }</p>
            <div class="predict-options">{ for options }</div>
            if let Some((right, text)) = feedback {
                <p class={classes!("predict-feedback", if right { "right" } else { "wrong" })}
                   data-predict-feedback={if right { "right" } else { "wrong" }} role="status">{ text }</p>
            }
        </div>
    }
}

fn real_box(r: &RealSystem) -> Html {
    if r.settings.is_empty() && r.commands.is_empty() && r.classes.is_empty() {
        return html! {};
    }
    // Open beside the narration only on very wide screens; folded elsewhere, where
    // it would push the picture the step talks about below the fold.
    let wide = gloo::utils::window()
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_none_or(|w| w >= 1600.0);
    html! {
        <details class="real-system" open={wide}>
            <summary><h3>{"In the real system"}</h3>{ format!(" ({} settings, {} classes)", r.settings.len(), r.classes.len()) }</summary>
            if !r.settings.is_empty() {
                <h4>{"Configuration (default)"}</h4>
                <dl class="real-settings">
                    { for r.settings.iter().map(|s| html!{
                        <>
                            <dt><code>{ s.key.clone() }</code></dt>
                            <dd><code>{ s.default.clone() }</code></dd>
                        </>
                    }) }
                </dl>
            }
            if !r.commands.is_empty() {
                <h4>{"Commands"}</h4>
                <ul class="real-commands">{ for r.commands.iter().map(|c| html!{ <li><code>{ c.clone() }</code></li> }) }</ul>
            }
            if !r.classes.is_empty() {
                <h4>{"Source"}</h4>
                <ul class="real-classes">{ for r.classes.iter().map(|c| html!{ <li><code>{ c.clone() }</code></li> }) }</ul>
            }
        </details>
    }
}
