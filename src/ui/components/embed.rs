//! The embed view: `index.html?embed=VIEW#s=…` shows one view of the linked
//! scenario (`ring`, `brokers`, `slots`, `instances` or `chart`), drawn by the native
//! view code, sized to its frame, with the latest decision in one line and
//! "Open in lbscope"; nothing else of the playground. It reads no saved work
//! and writes none, leaves the address as it is, and its shortcuts work only
//! while the frame has the focus (they are the frame document's). It is
//! read-only unless the link says `&controls`: then Step / Play / Undo (and
//! the keys n, space, u) step it.

use crate::playground::{Boot, Notice, Store};
use crate::ui::browser;
use crate::ui::store::{AppStore, Msg, StoreCtx};
use crate::view::ViewKind;
use yew::prelude::*;

/// What the `?embed=` query asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Embed {
    /// The view asked for (`None`: the scenario's main view).
    pub view: Option<ViewKind>,
    /// Step / Play / Undo allowed.
    pub controls: bool,
}

/// The page's `?embed=…` flags, if it is an embed.
pub fn flags() -> Option<Embed> {
    let search = gloo::utils::window().location().search().unwrap_or_default();
    let mut embed = None;
    let mut controls = false;
    for p in search.trim_start_matches('?').split('&') {
        match p.split_once('=') {
            Some(("embed", v)) => embed = Some(ViewKind::parse(v).ok()),
            None if p == "embed" => embed = Some(None),
            None if p == "controls" => controls = true,
            Some(("controls", v)) => controls = v != "0" && v != "false",
            _ => {}
        }
    }
    embed.map(|view| Embed { view, controls })
}

/// The playground's address with the same fragment (what "Open in lbscope" opens).
fn open_url(store: &Store) -> String {
    let loc = gloo::utils::window().location();
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_else(|_| "/".into());
    format!("{origin}{path}{}", store.fragment())
}

/// Root component of an embed.
#[component]
pub fn EmbedApp() -> Html {
    let flags = flags().unwrap_or(Embed {
        view: None,
        controls: false,
    });
    let store = use_reducer(|| {
        // Only the link: no saved workspace, no lesson progress.
        AppStore(Store::boot(Boot {
            fragment: browser::fragment(),
            saved: None,
            progress: Default::default(),
            fresh: true,
        }))
    });
    // The page is the embed: `html.embedded` sizes the document to the frame
    // (a class, not `:has(.embed)`, which the browser would test again after
    // every change anywhere in the page).
    use_effect_with((), |_| {
        if let Some(root) = gloo::utils::document().document_element() {
            let class = root.class_name();
            if !class.split_whitespace().any(|c| c == "embedded") {
                root.set_class_name(format!("{class} embedded").trim());
            }
        }
    });
    // A heavy scenario is opened after the busy line has been drawn.
    {
        let store = store.clone();
        use_effect_with(store.pending.is_some(), move |&pending| {
            let t = pending
                .then(|| gloo::timers::callback::Timeout::new(60, move || store.dispatch(Msg::OpenPending)));
            move || drop(t)
        });
    }
    // Play.
    {
        let store = store.clone();
        use_effect_with((store.playing, store.data_revision), move |&(playing, _)| {
            let t = (playing && flags.controls).then(|| {
                let store = store.clone();
                gloo::timers::callback::Timeout::new(store.speed_ms, move || store.dispatch(Msg::StepActive))
            });
            move || drop(t)
        });
    }
    // Keys of this frame's document only.
    {
        let store = store.clone();
        use_effect_with((store.revision, flags.controls), move |&(_, controls)| {
            let listener = controls.then(|| {
                let opts = gloo::events::EventListenerOptions::enable_prevent_default();
                gloo::events::EventListener::new_with_options(
                    &gloo::utils::document(),
                    "keydown",
                    opts,
                    move |e| {
                        use wasm_bindgen::JsCast;
                        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                            return;
                        };
                        if e.ctrl_key() || e.meta_key() || e.alt_key() {
                            return;
                        }
                        let msg = match e.key().as_str() {
                            "n" => Msg::StepActive,
                            "u" => Msg::Undo,
                            " " => Msg::Play(!store.playing),
                            _ => return,
                        };
                        e.prevent_default();
                        store.dispatch(msg);
                    },
                )
            });
            move || drop(listener)
        });
    }

    let views = ViewKind::of(store.tab);
    let kind = flags.view.filter(|k| views.contains(k)).unwrap_or(views[0]);
    let mismatch = flags.view.filter(|k| !views.contains(k)).map(|k| {
        format!(
            "The {} view draws {} scenarios; this one is {}, shown as {}.",
            k,
            k.system().map_or("every", |s| s.title()),
            store.tab.title(),
            kind
        )
    });
    let svg = {
        let store = store.clone();
        use_memo((store.data_revision, kind), move |(_, kind)| {
            super::share::picture(&store, *kind, None)
        })
    };
    let picture = match svg.as_ref() {
        Ok(svg) => Html::from_html_unchecked(AttrValue::from(svg.clone())),
        Err(e) => html! { <p class="embed-error" role="alert">{ e.clone() }</p> },
    };
    let decision = super::share::last_decision(&store)
        .and_then(|(_, evs)| evs.last().cloned())
        .unwrap_or_else(|| "No round yet.".into());
    let notice = match &store.notice {
        Some(Notice::Error(t)) => Some(t.clone()),
        _ => None,
    };
    let history = store.history();
    let send = |m: Msg| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(m.clone()))
    };
    let step_label = crate::playground::words(store.tab).round;
    html! {
        <ContextProvider<StoreCtx> context={store.clone()}>
            <div class="embed" data-embed-view={kind.name()} data-system={store.tab.slug()}
                 data-cursor={history.cursor.to_string()} data-controls={flags.controls.to_string()}>
                if let Some((_, what)) = &store.pending {
                    <p class="embed-busy" role="status">{ what.clone() }</p>
                }
                if let Some(t) = notice.or(mismatch) {
                    <p class="embed-notice" role="alert">{ t }</p>
                }
                <div class="embed-view">{ picture }</div>
                <div class="embed-bar">
                    if flags.controls {
                        <button class="primary" onclick={send(Msg::StepActive)} title="One round (n)">{ step_label }</button>
                        <button onclick={send(Msg::Play(!store.playing))} aria-pressed={store.playing.to_string()} title="Play / pause (space)">
                            { if store.playing { "Pause" } else { "Play" } }
                        </button>
                        <button onclick={send(Msg::Undo)} disabled={!history.can_undo} title="Undo (u)">{"Undo"}</button>
                    }
                    <span class="embed-decision" title={decision.clone()}>{ decision.clone() }</span>
                    <a class="embed-open" href={open_url(&store)} target="_blank" rel="noopener">{"Open in lbscope"}</a>
                </div>
            </div>
        </ContextProvider<StoreCtx>>
    }
}

/// Whether this page runs inside a frame of another page.
pub fn framed() -> bool {
    let win = gloo::utils::window();
    match win.top() {
        Ok(Some(top)) => !js_sys::Object::is(&top, &win),
        _ => false,
    }
}

/// What a framed playground shows instead of itself: only the embed view may
/// run inside another site's page (the playground keeps the user's saved work
/// and writes the clipboard), so the frame offers to open it in its own tab.
#[component]
pub fn FramedNotice() -> Html {
    let href = gloo::utils::window().location().href().unwrap_or_default();
    html! {
        <div class="embed embed-refused" role="alert">
            <p>{"lbscope's playground does not run inside another page; embed a view with ?embed=ring (or brokers, slots, instances, chart)."}</p>
            <a class="embed-open" href={href} target="_blank" rel="noopener">{"Open in lbscope"}</a>
        </div>
    }
}
