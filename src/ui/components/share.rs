//! Share beyond the link: export the current view as SVG or PNG (drawn by the
//! native view code, [`crate::view`], the same as `lbscope render`), copy the
//! state and the latest decision as Markdown, and copy an `<iframe>` snippet
//! that embeds this scenario in another page (see [`super::embed`]).

use super::export;
use crate::engine::Narrate;
use crate::playground::Store;
use crate::scenario::session::Session;
use crate::ui::browser;
use crate::ui::store::{Msg, Notice, StoreCtx};
use crate::view::{self, At, Options, Shown, ViewKind, VisitShown};
use yew::prelude::*;

/// Where the shown session's cursor is.
fn at(store: &Store) -> At {
    let h = store.history();
    At {
        cursor: h.cursor,
        len: h.len,
    }
}

/// Run `f` on the active tab's session, whatever its engine.
fn on_tab<F: OnSession>(store: &Store, f: F) -> F::Out {
    struct Go<'a, F>(&'a Store, F);
    impl<F: OnSession> VisitShown for Go<'_, F> {
        type Out = F::Out;
        fn visit<E: Shown>(self) -> F::Out {
            self.1.run(self.0, &self.0.session::<E>())
        }
    }
    view::visit(store.tab, Go(store, f))
}

/// Code over the active tab's session, written once for every engine.
trait OnSession {
    type Out;
    fn run<E: Shown>(self, store: &Store, s: &Session<E>) -> Self::Out;
}

/// View `kind` of the active tab as an SVG document (`namespace`: Pulsar's ring).
pub fn picture(store: &Store, kind: ViewKind, namespace: Option<String>) -> Result<String, String> {
    struct Picture(ViewKind, Options);
    impl OnSession for Picture {
        type Out = Result<String, String>;
        fn run<E: Shown>(self, store: &Store, s: &Session<E>) -> Self::Out {
            // The chart's lines are the ones the metrics panel draws.
            view::draw(s.state(), self.0, &self.1, || store.series()).map_err(|e| e.to_string())
        }
    }
    let o = Options {
        namespace,
        at: at(store),
    };
    on_tab(store, Picture(kind, o))
}

/// The narrated events of the latest applied action: (its index, the lines).
pub fn last_decision(store: &Store) -> Option<(usize, Vec<String>)> {
    struct Last;
    impl OnSession for Last {
        type Out = Option<(usize, Vec<String>)>;
        fn run<E: Shown>(self, _: &Store, s: &Session<E>) -> Self::Out {
            let i = s.cursor().checked_sub(1)?;
            Some((i, s.steps().get(i)?.iter().map(Narrate::narrate).collect()))
        }
    }
    on_tab(store, Last)
}

/// The Markdown quote of the active tab: state table, latest decision, share `link`.
pub fn quote(store: &Store, link: &str) -> String {
    struct Quote<'a>(Option<(usize, Vec<String>)>, &'a str);
    impl OnSession for Quote<'_> {
        type Out = String;
        fn run<E: Shown>(self, store: &Store, s: &Session<E>) -> String {
            let last = self.0.as_ref().map(|(i, e)| (*i, e.as_slice()));
            view::markdown::quote(s.state(), at(store), last, self.1)
        }
    }
    on_tab(store, Quote(last_decision(store), link))
}

/// The Markdown quote of rounds `from` to `to` of the active tab (`to`: the
/// latest round when `None`; `from`: `to` when `None`), with the state after
/// them and a link that opens the scenario there.
pub fn quote_rounds(store: &Store, from: Option<usize>, to: Option<usize>) -> Result<String, String> {
    struct Rounds(Option<usize>, Option<usize>);
    impl OnSession for Rounds {
        type Out = Result<String, String>;
        fn run<E: Shown>(self, _: &Store, s: &Session<E>) -> Self::Out {
            let Rounds(from, to) = self;
            let latest = view::markdown::round_numbers(s.log(), s.cursor())
                .into_iter()
                .flatten()
                .last();
            let to = to.or(latest).ok_or("no round has been played yet")?;
            let span = view::markdown::round_span(s.log(), s.cursor(), from.unwrap_or(to), to)?;
            let end = span.actions.end;
            let at = At {
                cursor: end,
                len: s.log().actions.len(),
            };
            let mut sc = crate::scenario::Scenario::of::<E>(s.seed(), s.log().clone());
            sc.cursor = Some(end);
            let link = browser::page_url(&crate::scenario::url::to_fragment(&sc));
            if end == s.cursor() {
                return Ok(view::markdown::quote_rounds(
                    s.state(),
                    at,
                    &span,
                    s.steps(),
                    &link,
                ));
            }
            let there = Session::<E>::new(s.seed(), s.log().clone(), Some(end)).map_err(|e| e.to_string())?;
            Ok(view::markdown::quote_rounds(
                there.state(),
                at,
                &span,
                s.steps(),
                &link,
            ))
        }
    }
    on_tab(store, Rounds(from, to))
}

/// A round number typed by the learner (`None`: left empty).
fn round_field(v: &str, which: &str) -> Result<Option<usize>, String> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    v.parse::<usize>()
        .ok()
        .filter(|n| *n >= 1)
        .map(Some)
        .ok_or_else(|| format!("{which}: {v:?} is not a round number (1, 2, …)"))
}

/// This page's address for an embed of view `kind` (stepping allowed when `controls`).
pub fn embed_url(store: &Store, kind: ViewKind, controls: bool) -> String {
    let loc = gloo::utils::window().location();
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_else(|_| "/".into());
    let flags = if controls { "&controls" } else { "" };
    format!("{origin}{path}?embed={}{flags}{}", kind.name(), store.fragment())
}

/// The `<iframe>` snippet of an embed.
pub fn embed_snippet(store: &Store, kind: ViewKind, controls: bool) -> String {
    let src = embed_url(store, kind, controls)
        .replace('&', "&amp;")
        .replace('"', "&quot;");
    format!(
        "<iframe src=\"{src}\" width=\"720\" height=\"560\" style=\"border:1px solid #d9d9d4;border-radius:8px\" title=\"lbscope: {} {} view\" loading=\"lazy\"></iframe>",
        store.tab.title(),
        kind.name()
    )
}

fn file_name(store: &Store, kind: ViewKind, ext: &str) -> String {
    format!(
        "lbscope-{}-{}-{}.{ext}",
        store.tab.slug(),
        kind.name(),
        store.history().cursor
    )
}

/// The "Share" menu of the header: view to export, SVG, PNG, Markdown, embed snippet.
#[component]
pub fn ShareMenu() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let views = ViewKind::of(store.tab);
    let chosen = use_state(|| None::<ViewKind>);
    let kind = (*chosen).filter(|k| views.contains(k)).unwrap_or(views[0]);
    let controls = use_state(|| true);
    // What was last copied, shown so it can be copied by hand too.
    let shown = use_state(|| None::<(&'static str, String)>);

    let on_view = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            chosen.set(ViewKind::parse(&v).ok());
        })
    };
    let fail = |store: &StoreCtx, what: &str, e: String| {
        store.dispatch(Msg::Notify(Notice::Error(format!("{what} failed: {e}"))))
    };
    let on_svg = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            let r = picture(&store, kind, None).and_then(|svg| {
                export::download_text(&file_name(&store, kind, "svg"), "image/svg+xml", &svg)
            });
            if let Err(e) = r {
                fail(&store, "SVG export", e);
            }
        })
    };
    let on_png = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            let name = file_name(&store, kind, "png");
            match picture(&store, kind, None) {
                Ok(svg) => {
                    let store = store.clone();
                    export::svg_to_png(&svg, 2.0, move |r| {
                        if let Err(e) = r.and_then(|url| export::download_url(&name, &url)) {
                            fail(&store, "PNG export", e);
                        }
                    })
                }
                Err(e) => fail(&store, "PNG export", e),
            }
        })
    };
    let on_markdown = {
        let store = store.clone();
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| {
            let md = quote(&store, &browser::page_url(&store.fragment()));
            browser::copy_text(&md);
            // Said next to the copied text, in the menu (a page notice would
            // take the menu's place and close it).
            shown.set(Some(("markdown", md)));
        })
    };
    let range = use_state(|| (String::new(), String::new()));
    let range_error = use_state(|| None::<String>);
    let on_range = {
        let store = store.clone();
        let shown = shown.clone();
        let range = range.clone();
        let range_error = range_error.clone();
        Callback::from(move |_: MouseEvent| {
            let r = round_field(&range.0, "from")
                .and_then(|from| Ok((from, round_field(&range.1, "to")?)))
                .and_then(|(from, to)| quote_rounds(&store, from, to));
            match r {
                Ok(md) => {
                    browser::copy_text(&md);
                    range_error.set(None);
                    shown.set(Some(("markdown-range", md)));
                }
                Err(e) => {
                    // The earlier "Copied" line would read as this attempt's.
                    shown.set(None);
                    range_error.set(Some(e));
                }
            }
        })
    };
    let on_from = {
        let range = range.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            range.set((v, range.1.clone()));
        })
    };
    let on_to = {
        let range = range.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            range.set((range.0.clone(), v));
        })
    };
    let on_embed = {
        let store = store.clone();
        let shown = shown.clone();
        let controls = *controls;
        Callback::from(move |_: MouseEvent| {
            let snippet = embed_snippet(&store, kind, controls);
            browser::copy_text(&snippet);
            shown.set(Some(("embed", snippet)));
        })
    };
    let on_controls = {
        let controls = controls.clone();
        Callback::from(move |e: Event| {
            controls.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked());
        })
    };
    html! {
        <details class="share-menu" data-controls="share">
            <summary title="Export the picture, quote the decision, embed the scenario">{"Share"}</summary>
            <div class="share-body" role="group" aria-label="Share">
                <label>{"View "}
                    <select aria-label="View to export or embed" onchange={on_view}>
                        { for views.iter().map(|v| html!{ <option value={v.name()} selected={*v == kind}>{ v.name() }</option> }) }
                    </select>
                </label>
                <div class="share-actions">
                    <button onclick={on_svg} data-share="svg" title="Download the view as SVG (light theme, with legend and caption)">{"Export SVG"}</button>
                    <button onclick={on_png} data-share="png" title="Download the view as PNG (twice the SVG's size)">{"Export PNG"}</button>
                    <button onclick={on_markdown} data-share="markdown" title="Copy the state and the latest decision as Markdown, with the link">{"Copy as Markdown"}</button>
                </div>
                <div class="share-actions share-range" role="group" aria-label="Rounds to quote">
                    <label class="inline">{"Rounds "}
                        <input type="number" min="1" inputmode="numeric" size="4" aria-label="First round to quote"
                               placeholder="latest" value={range.0.clone()} oninput={on_from} data-share-range="from" /></label>
                    <label class="inline">{"to "}
                        <input type="number" min="1" inputmode="numeric" size="4" aria-label="Last round to quote"
                               placeholder="latest" value={range.1.clone()} oninput={on_to} data-share-range="to" /></label>
                    <button onclick={on_range} data-share="markdown-range"
                            title="Copy the events of these rounds (and the actions between them) as Markdown, with the state after them and its link">{"Copy rounds as Markdown"}</button>
                </div>
                if let Some(e) = (*range_error).clone() {
                    <p class="field-error" role="alert" data-share-error="range">{ e }</p>
                }
                <div class="share-actions">
                    <button onclick={on_embed} data-share="embed" title="Copy an <iframe> snippet for another page">{"Embed"}</button>
                    <label class="inline"><input type="checkbox" checked={*controls} onchange={on_controls} />{" allow stepping"}</label>
                </div>
                if let Some((what, text)) = (*shown).clone() {
                    <p class="hint" role="status">{ match what {
                        "embed" => "Embed snippet copied: paste it into any page to show this scenario there.",
                        "markdown-range" => "Copied as Markdown: the rounds' events with their numbers, the state after them, and the link.",
                        _ => "Copied as Markdown: the state, the latest decision with its numbers, and the link.",
                    } }</p>
                    <textarea class="share-out" readonly=true rows="6" data-share-out={what}
                              aria-label={if what == "embed" { "Embed snippet" } else { "Markdown" }} value={text} />
                }
            </div>
        </details>
    }
}
