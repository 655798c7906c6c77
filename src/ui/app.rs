//! The app shell: header with tabs and toolbar, the notice line, the active tab,
//! and the deck shared by every tab (event log, metrics, settings).

use super::browser;
use super::components::settings::Settings;
use super::components::{
    chart::MetricsChart,
    event_log::EventLog,
    help::HelpOverlay,
    toolbar::{ProposalPanel, Toolbar},
};
use super::lesson::{FidelityPage, LessonPanel, LessonsPage, StartHere};
use super::store::{AppStore, LessonMsg, Msg, Notice, Page, Store, StoreCtx};
use super::tabs::{aside_empty, control_words};
use crate::engine::System;
use yew::prelude::*;

/// The config of the active tab's session as JSON text (what its settings rows
/// and compare options are built from).
fn config_key(store: &Store) -> String {
    struct Key<'a>(&'a Store);
    impl crate::engine::Visit for Key<'_> {
        type Out = String;
        fn visit<E: crate::engine::Engine>(self) -> String {
            let tab = self.0.active().get();
            tab.as_any()
                .downcast_ref::<crate::scenario::session::Session<E>>()
                .and_then(|s| serde_json::to_string(s.state().config()).ok())
                .unwrap_or_default()
        }
    }
    store.tab.visit(Key(store))
}

/// What a key press does (None: not a shortcut). Keys typed into fields are ignored by the caller.
fn shortcut(key: &str, store: &Store) -> Option<Msg> {
    let lesson = store.lesson_on_screen().is_some();
    Some(match key {
        "[" | "ArrowLeft" if lesson => Msg::Lesson(LessonMsg::Prev),
        "]" | "ArrowRight" if lesson => Msg::Lesson(LessonMsg::Next),
        "l" if store.page == Page::Lessons => Msg::Page(Page::Playground),
        "l" => Msg::Page(Page::Lessons),
        "Escape" if store.page != Page::Playground && !store.help => Msg::Page(Page::Playground),
        " " => Msg::Play(!store.playing),
        "n" => Msg::StepActive,
        "u" => Msg::Undo,
        "r" => Msg::Redo,
        "?" => Msg::Help(true),
        // "1", "2", "3": the tabs in order.
        k if k.len() == 1 && matches!(k.as_bytes()[0], b'1'..=b'9') => {
            Msg::Tab(*System::ALL.get(usize::from(k.as_bytes()[0] - b'1'))?)
        }
        "Escape" if store.help => Msg::Help(false),
        "Escape" => Msg::Highlight(None),
        _ => return None,
    })
}

/// A scenario whose JSON is longer than this is published by the throttle.
const PUBLISH_INLINE_BYTES: usize = 64 * 1024;
/// Least time between two deferred publications (ms).
const PUBLISH_EVERY_MS: u32 = 500;

/// Publishes the store (the share link, the autosave): inline while the
/// scenario is small, else throttled to one publication per
/// [`PUBLISH_EVERY_MS`], always of the newest store.
#[derive(Default)]
struct Publisher {
    /// The store of the newest render.
    latest: Option<super::store::StoreCtx>,
    /// Length of the last published scenario JSON.
    json_len: usize,
    /// A deferred publication is scheduled.
    pending: bool,
    /// A change happened since the last publication.
    dirty: bool,
}

impl Publisher {
    fn changed(this: &std::rc::Rc<std::cell::RefCell<Publisher>>) {
        let (pending, cheap) = {
            let mut p = this.borrow_mut();
            p.dirty = true;
            (p.pending, p.json_len <= PUBLISH_INLINE_BYTES)
        };
        if pending {
            return;
        }
        if cheap {
            Self::flush(this);
            return;
        }
        this.borrow_mut().pending = true;
        let this = this.clone();
        gloo::timers::callback::Timeout::new(PUBLISH_EVERY_MS, move || {
            this.borrow_mut().pending = false;
            Self::flush(&this);
        })
        .forget();
    }

    fn flush(this: &std::rc::Rc<std::cell::RefCell<Publisher>>) {
        let Some(store) = this.borrow().latest.clone().filter(|_| this.borrow().dirty) else {
            return;
        };
        // While a heavy scenario waits to be opened, the link and the autosave
        // keep what they hold (the link being opened, the user's last work).
        if store.pending.is_some() {
            return;
        }
        browser::show_fragment(&store.fragment());
        let json = store.workspace_json();
        browser::autosave(&json);
        let mut p = this.borrow_mut();
        p.json_len = json.len();
        p.dirty = false;
    }
}

/// Root component.
#[component]
pub fn App() -> Html {
    let store = use_reducer(|| AppStore(Store::boot(browser::boot())));

    // After every change: update the share link and the autosave. Done at once
    // for a small scenario; a large one (its JSON over PUBLISH_INLINE_BYTES) is
    // published at most every PUBLISH_EVERY_MS, off the round's frame, with the
    // newest store (and once more when the page is hidden or closed).
    let publisher = use_mut_ref(Publisher::default);
    publisher.borrow_mut().latest = Some(store.clone());
    // window.lbscope: built from the newest store whenever a page script reads it.
    {
        let publisher = publisher.clone();
        use_effect_with((), move |_| {
            browser::install_inspector(move || {
                let store = publisher.borrow().latest.clone();
                store.map_or(wasm_bindgen::JsValue::NULL, |s| browser::frozen(&s.inspect()))
            })
        });
    }
    {
        let publisher = publisher.clone();
        use_effect_with(store.data_revision, move |_| Publisher::changed(&publisher));
    }
    {
        let publisher = publisher.clone();
        use_effect_with((), move |_| {
            let listener = gloo::events::EventListener::new(&gloo::utils::window(), "pagehide", move |_| {
                Publisher::flush(&publisher)
            });
            move || drop(listener)
        });
    }

    // The engine time of the last round, always current (the in-browser
    // benchmark reads it; window.lbscope may be published later).
    use_effect_with(store.last_round_ms, |ms| browser::expose_round_ms(*ms));

    // The last action moves on the page, from cause to effect: played after the
    // render that shows its result, only when the shown session went one action
    // forward (not on a seek, an undo or a newly opened scenario).
    {
        let seen = use_mut_ref(|| None::<(crate::playground::Live, usize)>);
        let live = store.active().clone();
        let lesson = store.lesson_on_screen().is_some();
        use_effect_with(store.data_revision, move |_| {
            let cursor = live.get().history().cursor;
            let forward = seen
                .borrow()
                .as_ref()
                .is_some_and(|(l, c)| l.same(&live) && cursor == c + 1);
            if forward {
                super::motion::play(
                    &crate::playground::motion::of_last_action(&live),
                    &crate::playground::motion::captions_of_last_action(&live),
                    lesson,
                );
            }
            *seen.borrow_mut() = Some((live, cursor));
        });
    }

    // Lesson progress follows the store into localStorage.
    use_effect_with(store.progress.clone(), browser::save_progress);

    // A lesson step's focus subjects (several): marked after every render.
    {
        let store = store.clone();
        use_effect_with(store.revision, move |_| {
            let subjects: Vec<(&str, &str)> = store
                .lesson_on_screen()
                .filter(|r| !r.off_track)
                .map(|r| {
                    r.view
                        .focus
                        .iter()
                        .map(|f| (f.kind.attribute(), f.id.as_str()))
                        .collect()
                })
                .unwrap_or_default();
            browser::mark_focus(&subjects);
        });
    }

    // A new lesson step unfolds the control groups it needs (once: the learner may fold them again).
    {
        let key = store.lesson_on_screen().map(|r| {
            // A step asking for one of Pulsar's single phases unfolds them too.
            let phase = r
                .view
                .ask
                .as_ref()
                .is_some_and(|a| crate::lessons::asks::is_pulsar_phase(&a.action));
            let words = control_words(r.lesson.system, &r.view.controls).map(|w| {
                if phase {
                    format!("{w} phases")
                } else {
                    w
                }
            });
            (r.lesson.id, r.step, words)
        });
        use_effect_with(key, |key| {
            if let Some((_, _, Some(words))) = key {
                browser::open_groups(words);
            }
        });
    }

    // The control the step asks for, when it asks for one (after the groups it
    // needs were unfolded above).
    {
        let store = store.clone();
        use_effect_with(store.revision, move |_| {
            let run = store
                .lesson_on_screen()
                .filter(|r| r.view.ask.is_some() && !r.off_track);
            let asked = run
                .map(|r| control_words(r.lesson.system, &r.view.controls).unwrap_or_else(|| "step".into()));
            let prompt = run.and_then(|r| r.view.ask.as_ref()).map(|a| a.prompt.clone());
            browser::mark_ask(asked.as_deref(), prompt.as_deref());
        });
    }
    // A new step shows its subjects and its control without the learner scrolling.
    {
        let key = store
            .lesson_on_screen()
            .filter(|r| !r.off_track)
            .map(|r| (r.lesson.id, r.step));
        use_effect_with(key, |key| {
            // Once now, and once more when late parts of the picture (a compare
            // run computed off the page's thread) have moved things.
            let again = key.is_some().then(|| {
                super::motion::reveal_marks();
                gloo::timers::callback::Timeout::new(400, super::motion::reveal_marks)
            });
            move || drop(again)
        });
    }

    // Back / Forward, or a link followed inside the page (`#lesson=…`, `#s=…`):
    // the store moves to where the address bar points.
    {
        let store = store.clone();
        use_effect_with((), move |_| {
            let on = |store: StoreCtx| {
                move |_: &web_sys::Event| {
                    if let Some(f) = browser::fragment() {
                        store.dispatch(Msg::Location(f));
                    }
                }
            };
            let win = gloo::utils::window();
            let a = gloo::events::EventListener::new(&win, "hashchange", on(store.clone()));
            let b = gloo::events::EventListener::new(&win, "popstate", on(store));
            move || drop((a, b))
        });
    }

    // Test hook: `?lbscope-test-panic` panics after the first render, so the
    // www-tests can check the crash panel. Nothing else reaches it.
    use_effect_with((), |_| {
        if browser::query_has("lbscope-test-panic") {
            panic!("deliberate test panic (?lbscope-test-panic)");
        }
    });

    // Keyboard shortcuts (not while typing in a field).
    {
        let store = store.clone();
        use_effect_with(store.revision, move |_| {
            let doc = gloo::utils::document();
            let opts = gloo::events::EventListenerOptions::enable_prevent_default();
            let listener = gloo::events::EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                use wasm_bindgen::JsCast;
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                if typing {
                    return;
                }
                if let Some(msg) = shortcut(&e.key(), &store) {
                    e.prevent_default();
                    store.dispatch(msg);
                }
            });
            move || drop(listener)
        });
    }

    // Play: the next round `speed_ms` after the previous one was drawn, so rounds
    // never pile up when one takes longer than the interval (a large cluster):
    // the page draws and answers input between any two rounds.
    {
        let store = store.clone();
        use_effect_with(
            (store.playing, store.speed_ms, store.tab, store.data_revision),
            move |&(playing, ms, _, _)| {
                let timer = playing.then(|| {
                    let store = store.clone();
                    gloo::timers::callback::Timeout::new(ms, move || store.dispatch(Msg::StepActive))
                });
                move || drop(timer)
            },
        );
    }

    // A heavy scenario (a link, a file, the autosave): announced, then replayed
    // a part at a time (`Msg::OpenMore`). Each part is a task of its own (a zero
    // timeout), so between two parts the browser handles pending input (a click,
    // a key, Cancel) and paints the progress when a frame is due. (Waiting for a
    // frame before each part as well made the opening of the 200,000-topic
    // cluster about 4 % slower, with fewer frames painted.)
    {
        let store = store.clone();
        let done = store.open_progress().map(|p| p.done);
        use_effect_with(done, move |done| {
            let timer = done.map(|done| {
                gloo::timers::callback::Timeout::new(0, move || {
                    // The reducer replays the part before `dispatch` returns.
                    let t0 = browser::now_ms();
                    store.dispatch(Msg::OpenMore);
                    browser::timing_part("opening-replay", t0, done == 0);
                })
            });
            move || drop(timer)
        });
    }

    // A page that opens takes the keyboard focus (its heading), and so does a
    // lesson that starts (its step title): the reader continues there.
    use_effect_with(store.page, |page| match page {
        Page::Lessons => browser::focus_id("lessons-title"),
        Page::Fidelity => browser::focus_id("page-main"),
        Page::Gallery => browser::focus_id("gallery-title"),
        Page::Playground => {}
    });
    {
        let started = store.lesson.as_ref().filter(|r| r.shown).map(|r| r.lesson.id);
        use_effect_with(started, |id| {
            if id.is_some() {
                // The lesson's words sit beside (or under) the picture: the page
                // opens at its top, with the step title focused in place.
                browser::focus_in_place("lesson-step-title");
            }
        });
    }
    let skip = |id: &'static str| {
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            browser::focus_id(id);
        })
    };

    let tabs = System::ALL.iter().map(|&t| {
        let onclick = {
            let store = store.clone();
            Callback::from(move |_| store.dispatch(Msg::Tab(t)))
        };
        let selected = store.tab == t;
        html! {
            <button role="tab" aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("active"))} {onclick}>
                { t.title() }
            </button>
        }
    });
    let notice = store.notice.clone().map(|n| {
        let (class, text) = match n {
            Notice::Error(t) => ("notice error", t),
            Notice::Info(t) => ("notice info", t),
        };
        let dismiss = {
            let store = store.clone();
            Callback::from(move |_| store.dispatch(Msg::Dismiss))
        };
        html! { <div class={class} role="alert"><span>{text}</span><button onclick={dismiss} aria-label="Dismiss">{"×"}</button></div> }
    });

    // What the deck shows is derived from the sessions: recomputed only when a
    // scenario changed (not on a hover or a notice).
    let data_key = (store.data_revision, store.tab);
    // The log narrates only the rows it asks for (see EventLogProps::on_want).
    let log_wanted = use_state_eq(|| super::components::event_log::FIRST_ROWS);
    let log = {
        let store = store.clone();
        use_memo((data_key, *log_wanted), move |(_, wanted)| {
            store.event_log(*wanted)
        })
    };
    let log = super::components::canvas::Same(log.clone());
    let on_want = use_callback(log_wanted.clone(), |w: usize, wanted| wanted.set(w));
    // A picked event highlights its subject and brings it into view (after the
    // render that marks it).
    let on_pick = use_callback(store.dispatcher(), |s: Option<crate::engine::Subject>, d| {
        if let Some(s) = &s {
            let (kind, id) = (s.kind.as_str(), s.id.clone());
            gloo::timers::callback::Timeout::new(0, move || super::motion::reveal(kind, &id)).forget();
        }
        d.dispatch(Msg::Highlight(s))
    });
    // The settings and the compare options are built from the config alone: a
    // round that leaves the config as it was keeps them (building the rows reads
    // every knob's default in every profile).
    let config = {
        let store = store.clone();
        use_memo(data_key, move |_| config_key(&store))
    };
    let config_key = (store.tab, (*config).clone());
    let settings = {
        let store = store.clone();
        use_memo(config_key.clone(), move |_| std::rc::Rc::new(store.settings()))
    };
    let series = {
        let store = store.clone();
        use_memo(data_key, move |_| store.series())
    };
    let on_config = use_callback(store.dispatcher(), |(k, v), d| d.dispatch(Msg::SetConfig(k, v)));
    // Computed on the page, or in the engine worker for a heavy scenario.
    let compare = super::compare::use_compare(&store);
    let compare_options = {
        let store = store.clone();
        use_memo(config_key, move |_| store.compare_options())
    };
    let on_compare = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let pick = v
                .split_once('=')
                .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())));
            store.dispatch(Msg::Compare(pick));
        })
    };
    let selected = store
        .compare
        .as_ref()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()));
    let empty = format!(
        "Press {} (or n) to run a round; its metrics appear here.",
        crate::playground::words(store.tab).round
    );

    // The controls the lesson step needs (CSS hides the other groups).
    let lesson_controls = store
        .lesson_on_screen()
        .and_then(|r| control_words(r.lesson.system, &r.view.controls));
    let no_aside = lesson_controls
        .as_deref()
        .is_some_and(|w| aside_empty(store.tab, w))
        .then_some("empty");
    let on_lessons = {
        let store = store.clone();
        let open = store.page == Page::Lessons;
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Msg::Page(if open { Page::Playground } else { Page::Lessons }))
        })
    };
    let page = match store.page {
        Page::Playground => None,
        Page::Lessons => Some(html! { <LessonsPage /> }),
        Page::Fidelity => Some(html! { <FidelityPage /> }),
        Page::Gallery => Some(html! { <super::gallery::GalleryPage /> }),
    };

    html! {
        <ContextProvider<StoreCtx> context={store.clone()}>
            <nav class="skip-links" aria-label="Skip links">
                <a class="skip-link" href="#step" onclick={skip("step")}>{"Skip to Step"}</a>
                <a class="skip-link" href="#main" onclick={skip("main")}>{"Skip to the simulation"}</a>
                <a class="skip-link" href="#event-log" onclick={skip("event-log")}>{"Skip to the event log"}</a>
            </nav>
            <header class="top" data-lesson-controls={lesson_controls.clone()}>
                <h1>{"lbscope"}</h1>
                <nav role="tablist" aria-label="Systems">{ for tabs }</nav>
                <button class={classes!("lessons-button", (store.page == Page::Lessons).then_some("active"))}
                        aria-expanded={(store.page == Page::Lessons).to_string()} onclick={on_lessons}
                        title="Guided lessons (l)">{"Lessons"}</button>
                <super::gallery::GalleryButton />
                <Toolbar />
                <super::components::share::ShareMenu />
            </header>
            { for notice }
            if let Some((_, what)) = &store.pending {
                <OpeningNotice what={what.clone()} progress={store.open_progress()} />
            }
            <ProposalPanel />
            if let Some(page) = page {
                <main class="page-main" id="page-main" tabindex="-1">{ page }</main>
            } else {
            <main id="main" tabindex="-1" data-highlight-kind={store.highlight.as_ref().map(|h| h.kind.as_str())}
                  data-highlight-id={store.highlight.as_ref().map(|h| h.id.clone())}
                  data-lesson-controls={lesson_controls} data-lesson-aside={no_aside}>
                <StartHere />
                <super::gallery::ExampleCard />
                <LessonPanel />
                {
                    super::tabs::tab(store.tab)
                }
                // Importing a real cluster is for later: below the picture.
                <super::components::import::ImportPanel />
                <section class="deck">
                    <EventLog {log} highlight={store.highlight.clone()} {on_pick} {on_want} units={log_units(store.tab)} />
                    <MetricsChart series={(*series).clone()} compare={compare.series.clone()} compare_label={compare.label.clone()} empty={empty}
                                  below={html! { <super::compare::SeedSpread /> }}>
                        <super::components::outcome::RunOutcome />
                        <label class="compare">
                            {"Compare with "}
                            <select aria-label="Compare with the same actions under" onchange={on_compare}>
                                <option value="" selected={selected.is_none()}>{"— nothing —"}</option>
                                { for compare_options.iter().map(|(k, v)| {
                                    let id = format!("{k}={v}");
                                    html!{ <option value={id.clone()} selected={selected.as_ref() == Some(&id)}>{ format!("{k} = {v}") }</option> }
                                }) }
                            </select>
                        </label>
                        if let Some(busy) = compare.busy.clone() {
                            <p class="hint compare-busy" role="status">{busy}</p>
                        }
                        if let Some(e) = compare.error.clone() {
                            <p class="field-error">{e}</p>
                        }
                    </MetricsChart>
                    <Settings rows={(*settings).clone()} error={store.field_error.clone()} on_change={on_config} />
                </section>
            </main>
            }
            if store.help {
                <HelpOverlay />
            }
        </ContextProvider<StoreCtx>>
    }
}

#[derive(Properties, PartialEq)]
struct OpeningProps {
    what: String,
    progress: Option<crate::playground::OpenProgress>,
}

/// The busy line of a heavy scenario being opened: what is replayed, how far
/// (a progress bar and "done of total"), and a button that stops it.
#[component]
fn OpeningNotice(p: &OpeningProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let cancel = Callback::from(move |_| store.dispatch(Msg::CancelOpen));
    let (done, total, unit) = p
        .progress
        .map_or((0, 1, ""), |p| (p.done, p.total.max(1), p.unit));
    let pct = (done as f64 * 100.0 / total as f64).min(100.0);
    html! {
        <div class="notice busy opening" role="status" aria-live="polite">
            <span class="spinner" aria-hidden="true"></span>
            <span>{ p.what.clone() }</span>
            <progress class="open-progress" max={total.to_string()} value={done.to_string()}
                      aria-label="Replayed so far"></progress>
            <span class="open-count" data-done={done.to_string()} data-total={total.to_string()}>
                { format!("{} of {} {unit} ({pct:.0} %)", thousands(done), thousands(total)) }
            </span>
            <button class="open-cancel" onclick={cancel}>{"Cancel"}</button>
        </div>
    }
}

/// The units the tab's event log speaks in.
fn log_units(tab: crate::engine::System) -> AttrValue {
    use crate::engine::System;
    AttrValue::from(match tab {
        System::Pulsar => "Rates in msg/s; sizes in MB/s, 1 MB = 1,048,576 bytes as Pulsar counts.",
        System::Flink => "Times in ms of the scheduler's clock; slots and tasks counted per TaskManager.",
        System::Kstreams => "Rates in records/s; lags and restores in records, times in ms.",
    })
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
