//! The Pulsar tab: reads the store, draws the engine's views, and dispatches
//! `Msg::act(..)` for whatever the controls ask.

use super::broker_bars::BrokerBars;
use super::controls::{Controls, RoundBar};
use super::proposal::{Proposal, ProposalView};
use super::ring::{mib, rate, topic_bins, Legend, Ring, TickBin, TICK_LIMIT};
use super::Colors;
use crate::engine::pulsar::{
    self,
    view::{BrokerView, RingView},
    Action,
};
use crate::engine::Engine;
use crate::scenario::presets::PULSAR_NAMESPACE as NAMESPACE;
use crate::ui::components::field_error::FieldError;
use crate::ui::store::{Msg, Notice, StoreCtx, Subject};
use std::rc::Rc;
use yew::prelude::*;

/// The before/after views of the store's proposal (a Step run on a copy).
fn proposal_views(now: &pulsar::Sim, p: &crate::playground::Proposal) -> Option<Proposal> {
    let next = p.next::<pulsar::Sim>()?;
    let rings = |s: &pulsar::Sim| -> Vec<Rc<RingView>> {
        s.namespaces()
            .keys()
            .filter_map(|ns| s.ring_view(ns, true).map(Rc::new))
            .collect()
    };
    Some(Proposal {
        before: rings(now),
        after: rings(next),
        brokers_before: Rc::new(now.broker_views()),
        brokers_after: Rc::new(next.broker_views()),
        narration: p.events.clone(),
    })
}

/// What the tab draws, derived from the session once per scenario change.
#[derive(Clone)]
struct Views {
    namespaces: Rc<Vec<String>>,
    ns: String,
    ring: Rc<RingView>,
    bins: Option<Rc<Vec<TickBin>>>,
    brokers: Rc<Vec<BrokerView>>,
    colors: Colors,
    config: Rc<pulsar::Config>,
    members: Rc<Vec<(String, bool)>>,
    bundle_names: Rc<Vec<String>>,
    topics: Rc<Vec<(String, f64)>>,
    round: u64,
    now_ms: u64,
    bundles: u32,
}

impl Views {
    fn of(sim: &pulsar::Sim, chosen: &str, bundles: u32) -> Views {
        let namespaces: Rc<Vec<String>> = Rc::new(sim.namespaces().keys().cloned().collect());
        let ns = if namespaces.iter().any(|n| n == chosen) {
            chosen.to_string()
        } else {
            namespaces
                .first()
                .cloned()
                .unwrap_or_else(|| NAMESPACE.to_string())
        };
        // A namespace with very many topics is drawn with one tick per angular bin.
        let many_topics = sim
            .namespaces()
            .get(&ns)
            .is_some_and(|n| n.topics.len() > TICK_LIMIT);
        let ring = Rc::new(sim.ring_view(&ns, !many_topics).unwrap_or(RingView {
            namespace: ns.clone(),
            bundles: Vec::new(),
        }));
        let bins = many_topics.then(|| {
            let topics = sim.namespaces()[&ns].topics.values();
            Rc::new(topic_bins(topics.map(|t| (t.hash, t.traffic.msg_rate()))))
        });
        let brokers = Rc::new(sim.broker_views());
        let members: Rc<Vec<(String, bool)>> =
            Rc::new(brokers.iter().map(|b| (b.id.0.clone(), b.alive)).collect());
        let colors = Colors::new(members.iter().cloned());
        let bundle_names = Rc::new(ring.bundles.iter().map(|b| b.name.clone()).collect());
        let topics = Rc::new(
            ring.bundles
                .iter()
                .flat_map(|b| b.topic_list.iter())
                .map(|t| (t.name.0.clone(), t.traffic.msg_rate_in))
                .collect(),
        );
        Views {
            namespaces,
            ns,
            ring,
            bins,
            brokers,
            colors,
            config: Rc::new(sim.config().clone()),
            members,
            bundle_names,
            topics,
            round: sim.round(),
            now_ms: sim.now_ms(),
            bundles,
        }
    }
}

/// Pulsar tab.
#[component]
pub fn PulsarTab() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let chosen = use_state(|| NAMESPACE.to_string());
    // Everything drawn is derived once per scenario change (not on a hover).
    let views = {
        let store = store.clone();
        use_memo((store.data_revision, (*chosen).clone()), move |(_, chosen)| {
            let session = store.session::<crate::engine::pulsar::Sim>();
            let sim = session.state();
            let bundles = sim
                .namespaces()
                .get(NAMESPACE)
                .map_or(0, |ns| ns.bundles.len() as u32);
            Views::of(sim, chosen, bundles)
        })
    };
    let Views {
        namespaces,
        ns,
        ring,
        bins,
        brokers,
        colors,
        config,
        members,
        bundle_names,
        topics,
        round,
        now_ms,
        bundles,
    } = (*views).clone();

    // The store's proposal (dropped by the store as soon as the state moves on).
    let shown = {
        let store = store.clone();
        use_memo(store.proposal.clone(), move |p| {
            p.as_ref().and_then(|p| {
                proposal_views(store.session::<crate::engine::pulsar::Sim>().state(), p).map(Rc::new)
            })
        })
    };
    let shown = (*shown).clone();

    // Every control action goes through here; a section's own actions carry the
    // section's id so that a refusal is shown inside it. The callbacks are made
    // once (they only dispatch), so the controls skip renders their data allows.
    let dispatch = store.dispatcher();
    let on_field = use_callback(
        (dispatch.clone(), chosen.clone()),
        |(field, a): (&'static str, Action), (dispatch, chosen)| {
            if let Action::CreateNamespace { namespace, .. } = &a {
                chosen.set(namespace.clone());
            }
            dispatch.dispatch(Msg::AtField(field, Box::new(Msg::act(a))))
        },
    );
    let on_action = use_memo(on_field.clone(), |f| f.reform(|a: Action| ("pulsar-rounds", a)));
    let on_action = (*on_action).clone();
    let on_actions = use_callback(dispatch.clone(), |v: Vec<Action>, dispatch| {
        for a in v {
            dispatch.dispatch(Msg::act(a));
        }
    });
    let on_bundles = {
        let store = store.clone();
        Callback::from(move |n: u32| {
            // Re-shard the first namespace: the same log on a namespace of n bundles.
            let mut sc = store.scenario();
            if let crate::scenario::Body::Pulsar(log) = sc.body {
                sc.body =
                    crate::scenario::Body::Pulsar(crate::scenario::presets::with_pulsar_bundles(log, n));
            }
            store.dispatch(Msg::AtField("bundle-count", Box::new(Msg::Rewrite(Box::new(sc)))))
        })
    };
    let on_error = use_callback(dispatch.clone(), |t: String, dispatch| {
        dispatch.dispatch(Msg::Notify(Notice::Error(t)))
    });
    // Pointing: only a change of subject is dispatched (the views compare it too).
    let on_point = use_callback(dispatch.clone(), |s: Option<Subject>, dispatch| {
        dispatch.dispatch(Msg::Highlight(s))
    });
    let fresh_seed = use_callback((), |_: (), _| crate::ui::browser::fresh_seed());
    let on_propose = {
        let store = store.clone();
        let open = shown.is_some();
        Callback::from(move |_: ()| store.dispatch(Msg::Propose(!open)))
    };
    let on_apply = use_callback(dispatch.clone(), |_: (), d| d.dispatch(Msg::ApplyProposal));
    let on_discard = use_callback(dispatch.clone(), |_: (), d| d.dispatch(Msg::Propose(false)));
    let on_ns = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            chosen.set(s.value());
        })
    };

    // What the pointed-at bundle is, in words (also in each arc's title).
    let detail = store
        .highlight
        .as_ref()
        .filter(|s| s.kind == "bundle")
        .and_then(|s| ring.bundles.iter().find(|b| format!("{ns}/{}", b.name) == s.id))
        .map(|b| {
            format!(
                "bundle [0x{:08x}, 0x{:08x}{} · {} · {} topics · {} · {}",
                b.range.lower,
                b.range.upper,
                if b.range.is_closed() { "]" } else { ")" },
                b.owner
                    .as_ref()
                    .map_or("no owner".to_string(), |o| format!("owned by {o}")),
                b.topics,
                rate(b.load.msg_rate()),
                mib(b.load.throughput())
            )
        });

    html! {
        <section class="tab-body pulsar-tab" aria-label="Pulsar">
            <aside class="pulsar-controls">
                <Controls {members} namespaces={namespaces.clone()} namespace={ns.clone()}
                          {bundle_names} {topics} {config} {bundles}
                          on_action={on_action.clone()} {on_field} {on_actions} {on_bundles} {on_error} {fresh_seed} />
                <crate::ui::components::workload::PulsarWorkloads />
            </aside>
            <div class="panel main-view">
                <RoundBar {round} {now_ms} on_action={on_action} {on_propose} proposing={shown.is_some()} />
                <FieldError field="pulsar-rounds" />
                if let Some(p) = shown {
                    <ProposalView proposal={p} namespace={ns.clone()} colors={colors.clone()} {on_apply} {on_discard} />
                }
                <div class="pulsar-views">
                    <div class="ring-pane">
                        if namespaces.len() > 1 {
                            <label class="ns-select">{"Namespace "}
                                <select id="namespace" onchange={on_ns}>
                                    { for namespaces.iter().map(|n| html!{ <option value={n.clone()} selected={*n == ns}>{ n.clone() }</option> }) }
                                </select>
                            </label>
                        } else {
                            <h2 class="ns-title">{"Namespace "}<code>{ ns.clone() }</code></h2>
                        }
                        <Ring ring={ring.clone()} {bins} colors={colors.clone()} highlight={store.highlight.clone()}
                              on_point={on_point.clone()} title={format!("Hash ring of {ns}")} />
                        <p class="ring-detail" aria-live="polite">
                            { detail.unwrap_or_else(|| "Hover or focus a bundle to see its hash range; tick length follows a topic's traffic.".into()) }
                        </p>
                        <Legend colors={colors.clone()} highlight={store.highlight.clone()} />
                    </div>
                    <BrokerBars {brokers} {colors} highlight={store.highlight.clone()} {on_point} />
                </div>
            </div>
        </section>
    }
}
