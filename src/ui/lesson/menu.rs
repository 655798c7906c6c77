//! The lesson menu: every lesson, grouped by system in course order, with its
//! concept, its one-line idea and the learner's progress.

use super::{concept_label, course_number};
use crate::engine::System;
use crate::lessons;
use crate::ui::store::{LessonMsg, Msg, Page, StoreCtx};
use yew::prelude::*;

/// The lesson menu page.
#[component]
pub fn LessonsPage() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Page(Page::Playground)))
    };
    let fidelity = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Page(Page::Fidelity)))
    };
    let total = lessons::all().len();
    let done = lessons::all()
        .iter()
        .filter(|l| store.progress.completed.contains(l.id))
        .count();
    let current = store.lesson.as_ref().map(|r| r.lesson.id);
    let groups = System::ALL.iter().map(|&sys| {
        let items = lessons::of_system(sys).map(|l| {
            let n = l.steps.len();
            let seen = store.progress.seen(l.id);
            let complete = store.progress.completed.contains(l.id);
            // Resume where the learner was in this lesson.
            let resume = store
                .lesson
                .as_ref()
                .filter(|r| r.lesson.id == l.id)
                .map_or(0, |r| r.step);
            let open = {
                let store = store.clone();
                Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    store.dispatch(Msg::Lesson(LessonMsg::Open(l.id.to_string(), resume)));
                })
            };
            let status = if complete {
                "done".to_string()
            } else if seen > 0 {
                format!("{seen} of {n} steps seen")
            } else {
                format!("{n} steps")
            };
            html! {
                <li class={classes!("lesson-entry", complete.then_some("done"), (current == Some(l.id)).then_some("current"))}
                    data-lesson={l.id}>
                    <a href={lessons::deep_link(l.id, resume)} onclick={open}>
                        <span class="lesson-num" aria-hidden="true">{ course_number(l.id) }</span>
                        <span class="lesson-what">
                            <strong class="lesson-title">{ l.title }</strong>
                            if !l.title.to_lowercase().contains(&concept_label(l.concept).to_lowercase()) {
                                <span class="lesson-concept">{ concept_label(l.concept) }</span>
                            }
                            <span class="lesson-idea">{ l.idea }</span>
                        </span>
                        <span class="lesson-status">
                            if complete { <span class="check" aria-hidden="true">{"✓ "}</span> }
                            { status }
                        </span>
                        <span class="lesson-bar" aria-hidden="true">
                            <span style={format!("width: {}%", (seen * 100).checked_div(n).unwrap_or(0))}></span>
                        </span>
                    </a>
                </li>
            }
        });
        html! {
            <section class="lesson-group" aria-labelledby={format!("lessons-{}", sys.title().replace(' ', "-").to_lowercase())}>
                <h3 id={format!("lessons-{}", sys.title().replace(' ', "-").to_lowercase())}>{ sys.title() }</h3>
                <ol class="lesson-list">{ for items }</ol>
            </section>
        }
    });
    html! {
        <section class="page lessons-page" aria-labelledby="lessons-title">
            <div class="page-head">
                <div>
                    <h2 id="lessons-title" tabindex="-1">{"Lessons"}</h2>
                    <p class="hint">{ format!("One small simulation per idea, then free play. Every number is the engine's. {done} of {total} lessons done.") }</p>
                </div>
                <div class="page-actions">
                    <button onclick={fidelity}>{"Fidelity notes"}</button>
                    <button class="primary" onclick={close} autofocus=true>{"Back to the playground"}</button>
                </div>
            </div>
            <div class="lesson-groups">{ for groups }</div>
        </section>
    }
}
