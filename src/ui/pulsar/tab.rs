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
use crate::playground::Field;
use crate::playground::Narrated;
use crate::scenario::presets::PULSAR_NAMESPACE as NAMESPACE;
use crate::sort::StableSort;
use crate::ui::components::field_error::FieldError;
use crate::ui::store::{Msg, Notice, StoreCtx, Subject, SubjectKind};
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

/// The last round in words: who was over, what moved where and why, which
/// filters removed candidates and what picked the winner.
#[derive(Clone, Debug, Default, PartialEq)]
struct RoundCard {
    round: u64,
    /// The brokers that published a report, with their usage (the first few),
    /// and how many did.
    reports: (Vec<(String, f64)>, usize),
    /// Brokers whose change stayed under the report threshold.
    silent: usize,
    /// The shedder's decisions (its numbers).
    decisions: Lines,
    /// Bundles unloaded.
    moves: Lines,
    /// Placements, each with the filters that removed candidates and its score.
    placed: Lines,
    /// The placement strategy's events.
    why_placed: Lines,
    /// Splits.
    splits: Lines,
}

/// Lines of a list of the card: at most this many are shown, then how many more.
const SHOWN: usize = 8;

/// One list of the card: its first [`SHOWN`] lines (only those are written,
/// a round at 16,384 bundles has thousands of events) and how many it has.
#[derive(Clone, Debug, Default, PartialEq)]
struct Lines {
    first: Vec<Narrated>,
    total: usize,
}

impl Lines {
    /// One more line, written only when it is among the first shown.
    fn push(&mut self, line: impl FnOnce() -> Narrated) {
        if self.first.len() < SHOWN {
            self.first.push(line());
        }
        self.total += 1;
    }

    fn is_empty(&self) -> bool {
        self.total == 0
    }
}

impl RoundCard {
    /// The card of the last applied action, when it was a full round.
    fn of(session: &crate::scenario::session::Session<pulsar::Sim>) -> Option<RoundCard> {
        let k = session.cursor();
        if k == 0 || session.log().actions.get(k - 1) != Some(&Action::Step) {
            return None;
        }
        let events = session.steps().get(k - 1)?;
        let mut c = RoundCard {
            round: session.state().round(),
            ..RoundCard::default()
        };
        for e in events {
            match e {
                pulsar::Event::Reported {
                    published, skipped, ..
                } => {
                    for (b, _, usage) in published {
                        if c.reports.0.len() < 4 {
                            c.reports.0.push((b.to_string(), *usage));
                        }
                        c.reports.1 += 1;
                    }
                    c.silent += skipped;
                }
                pulsar::Event::Shed(s) => c.decisions.push(|| Narrated::of(s)),
                pulsar::Event::Unloaded {
                    bundle,
                    from,
                    to,
                    reason,
                } => c.moves.push(|| {
                    Narrated::whole_line(format!(
                        "{bundle} left {from}{}: {reason}",
                        to.as_ref().map(|t| format!(" for {t}")).unwrap_or_default()
                    ))
                }),
                pulsar::Event::Place(p) => c.why_placed.push(|| Narrated::of(p)),
                pulsar::Event::BundleSplit { bundle, children, .. } => c
                    .splits
                    .push(|| Narrated::whole_line(format!("{bundle} split into {} bundles", children.len()))),
                _ => {}
            }
        }
        // Each placement with the filters that removed candidates and the score that picked it.
        let (first, total) = crate::engine::pulsar::place::why::placements_first(events, SHOWN);
        c.placed = Lines {
            first: first.iter().map(|p| Narrated::whole_line(p.sentence())).collect(),
            total,
        };
        Some(c)
    }
}

/// The "this round" card beside the ring.
#[derive(Properties, PartialEq)]
struct ThisRoundProps {
    card: Rc<Option<RoundCard>>,
}

#[component]
fn ThisRound(p: &ThisRoundProps) -> Html {
    let Some(c) = p.card.as_ref().as_ref() else {
        return html! {
            <section class="this-round empty" aria-label="This round">
                <h3>{"This round"}</h3>
                <p class="hint">{"Press Step: this card then says which brokers were over, which bundles moved where, and why."}</p>
            </section>
        };
    };
    let list = |v: &Lines| -> Html {
        let more = v.total - v.first.len();
        html! {
            <>
                <ul>{ for v.first.iter().map(|t| html!{ <li>{ crate::ui::components::event_log::long_line(t) }</li> }) }</ul>
                if more > 0 { <p class="hint">{ format!("… and {more} more in the event log") }</p> }
            </>
        }
    };
    let (moves, placed) = (&c.moves, &c.placed);
    let quiet = c.moves.is_empty() && c.splits.is_empty() && c.placed.is_empty();
    html! {
        <section class="this-round" aria-label="This round" data-round={c.round.to_string()}
                 data-moves={c.moves.total.to_string()}>
            <h3>{ format!("Round {}", c.round) }</h3>
            // The card fills in phase by phase as the round plays (src/ui/motion.rs
            // reveals each `data-card-beat` part at its beat): report, split, unload.
            <div class="round-part" data-card-beat="0">
                <h4>{"Reports"}</h4>
                <p class="round-reports">{ reports_line(&c.reports, c.silent) }</p>
            </div>
            if !c.splits.is_empty() {
                <div class="round-part" data-card-beat="1">
                    <h4>{"Splits"}</h4>
                    { list(&c.splits) }
                </div>
            }
            <div class="round-part" data-card-beat="2">
                if quiet {
                    <p class="round-quiet">{"Nothing moved this round."}</p>
                }
                if !c.decisions.is_empty() {
                    <h4>{"The shedder"}</h4>
                    { list(&c.decisions) }
                }
                if !moves.is_empty() {
                    <h4>{ format!("Unloaded ({})", moves.total) }</h4>
                    { list(moves) }
                }
                if !placed.is_empty() {
                    <h4>{ format!("Placed ({}): the filters that removed candidates, the score that picked the owner", placed.total) }</h4>
                    <div class="placed">{ list(placed) }</div>
                    if !c.why_placed.is_empty() {
                        <details class="why-placed">
                            <summary>{"Every placement event, in order"}</summary>
                            { list(&c.why_placed) }
                        </details>
                    }
                }
                <crate::ui::components::outcome::OutcomeSummary />
            </div>
        </section>
    }
}

/// "broker-1 (53.4 %) and broker-2 (26.7 %) publish; 1 stays under the
/// report threshold."
fn reports_line((first, total): &(Vec<(String, f64)>, usize), silent: usize) -> String {
    let mut names: Vec<String> = first.iter().map(|(b, u)| format!("{b} ({u:.1} %)")).collect();
    if *total > first.len() {
        names.push(format!("{} more", total - first.len()));
    }
    let published = match names.as_slice() {
        [] => "No broker publishes".to_string(),
        [one] => format!("{one} publishes"),
        [rest @ .., last] => format!("{} and {last} publish", rest.join(", ")),
    };
    match silent {
        0 => format!("{published}."),
        1 => format!("{published}; 1 broker stays under the report threshold."),
        n => format!("{published}; {n} brokers stay under the report threshold."),
    }
}

/// What the tab draws, derived from the session once per scenario change.
#[derive(Clone)]
struct Views {
    namespaces: Rc<Vec<String>>,
    ns: String,
    ring: Rc<RingView>,
    bins: Option<Rc<Vec<TickBin>>>,
    brokers: Rc<Vec<BrokerView>>,
    inputs: Rc<crate::engine::pulsar::shed::inputs::ShedInputs>,
    colors: Colors,
    config: Rc<pulsar::Config>,
    members: Rc<Vec<(String, bool)>>,
    bundle_names: Rc<Vec<String>>,
    topics: Rc<Vec<(String, f64)>>,
    round: u64,
    now_ms: u64,
    bundles: u32,
    card: Rc<Option<RoundCard>>,
}

/// The drawing's binning, for the kept view model.
fn bin_topics(t: &mut dyn Iterator<Item = (u32, f64)>) -> Vec<TickBin> {
    topic_bins(t)
}

/// What the previous views held, to reuse: the view model (ring, bins, names,
/// brokers) and the broker members with their colours.
#[derive(Default)]
struct Kept {
    model: crate::playground::ring_model::RingModel<TickBin>,
    members: Option<(Members, Vec<crate::engine::pulsar::ids::BrokerId>)>,
}

/// The brokers' (name, alive) in name order and their colours (kept with the
/// brokers' ids, which compare by pointer first).
type Members = (Rc<Vec<(String, bool)>>, Colors);

impl Views {
    fn of(
        kept: &mut Kept,
        live: &crate::playground::Live,
        session: &crate::scenario::session::Session<pulsar::Sim>,
        chosen: &str,
        bundles: u32,
    ) -> Views {
        let sim = session.state();
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
        // Many topics: the ring without topic lists, kept between rounds
        // (`ring_model`); few: the engine's ring with every topic.
        let t0 = crate::ui::browser::now_ms();
        let (ring, bins, bundle_names) = if many_topics {
            kept.model.ring(live, session, &ns, Some(bin_topics))
        } else {
            let ring = Rc::new(sim.ring_view(&ns, true).unwrap_or(RingView {
                namespace: ns.clone(),
                bundles: Vec::new(),
            }));
            let names = Rc::new(ring.bundles.iter().map(|b| b.name.clone()).collect());
            (ring, None, names)
        };
        crate::ui::browser::timing("pulsar-views-ring", t0);
        let t0 = crate::ui::browser::now_ms();
        let brokers = kept.model.brokers(live, sim);
        let ((members, colors), ids) = match kept.members.take() {
            Some(((m, c), ids))
                if m.len() == brokers.len()
                    && m.iter()
                        .zip(&ids)
                        .zip(brokers.iter())
                        .all(|((m, id), b)| *id == b.id && m.1 == b.alive) =>
            {
                ((m, c), ids)
            }
            _ => {
                let m: Rc<Vec<(String, bool)>> =
                    Rc::new(brokers.iter().map(|b| (b.id.0.to_string(), b.alive)).collect());
                let c = Colors::new(m.iter().cloned());
                ((m, c), brokers.iter().map(|b| b.id.clone()).collect())
            }
        };
        kept.members = Some(((members.clone(), colors.clone()), ids));
        let topics = Rc::new(
            ring.bundles
                .iter()
                .flat_map(|b| b.topic_list.iter())
                // A scalable topic's segments take their traffic from the topic
                // (the Scalable topics panel), not from the per-topic controls.
                .filter(|t| t.name.domain() != pulsar::topic::Domain::Segment)
                .map(|t| (t.name.0.to_string(), t.traffic.msg_rate_in))
                .collect(),
        );
        crate::ui::browser::timing("pulsar-views-brokers", t0);
        let t0 = crate::ui::browser::now_ms();
        let inputs = Rc::new(sim.shed_inputs());
        crate::ui::browser::timing("pulsar-views-shed-inputs", t0);
        Views {
            namespaces,
            ns,
            ring,
            bins,
            brokers,
            inputs,
            colors,
            config: Rc::new(sim.config().clone()),
            members,
            bundle_names,
            topics,
            round: sim.round(),
            now_ms: sim.now_ms(),
            bundles,
            card: Rc::new(None),
        }
    }
}

/// Pulsar tab.
#[component]
pub fn PulsarTab() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let chosen = use_state(|| NAMESPACE.to_string());
    // The admin fold's forms exist from its first opening on (a lesson's step opens it too).
    let admin_opened = use_state(|| false);
    let on_admin_toggle = {
        let admin_opened = admin_opened.clone();
        Callback::from(move |e: Event| {
            if e.target_unchecked_into::<web_sys::Element>()
                .has_attribute("open")
            {
                admin_opened.set(true);
            }
        })
    };
    // Everything drawn is derived once per scenario change (not on a hover),
    // reusing what the previous round's views hold where nothing changed.
    let kept = use_mut_ref(Kept::default);
    let views = {
        let store = store.clone();
        use_memo((store.data_revision, (*chosen).clone()), move |(_, chosen)| {
            let t0 = crate::ui::browser::now_ms();
            let live = store
                .shown(<crate::engine::pulsar::Sim as crate::engine::Engine>::SYSTEM)
                .clone();
            let session = store.session::<crate::engine::pulsar::Sim>();
            let bundles = session
                .state()
                .namespaces()
                .get(NAMESPACE)
                .map_or(0, |ns| ns.bundles.len() as u32);
            let mut v = Views::of(&mut kept.borrow_mut(), &live, &session, chosen, bundles);
            let t1 = crate::ui::browser::now_ms();
            v.card = Rc::new(RoundCard::of(&session));
            crate::ui::browser::timing("pulsar-views-card", t1);
            crate::ui::browser::timing("pulsar-views", t0);
            v
        })
    };
    let Views {
        namespaces,
        ns,
        ring,
        bins,
        brokers,
        inputs,
        colors,
        config,
        members,
        bundle_names,
        topics,
        round,
        now_ms,
        bundles,
        card,
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
        |(field, a): (Field, Action), (dispatch, chosen)| {
            if let Action::CreateNamespace { namespace, .. } = &a {
                chosen.set(namespace.clone());
            }
            dispatch.dispatch(Msg::AtField(field, Box::new(Msg::act(a))))
        },
    );
    let on_action = use_memo(on_field.clone(), |f| {
        f.reform(|a: Action| (Field::PulsarRounds, a))
    });
    let on_action = (*on_action).clone();
    let on_actions = use_callback(dispatch.clone(), |v: Vec<Action>, dispatch| {
        for a in v {
            dispatch.dispatch(Msg::act(a));
        }
    });
    // The newest store, for the callbacks that read it when they run (made
    // once, so that the controls holding them skip the rounds).
    let latest = use_mut_ref(|| store.clone());
    *latest.borrow_mut() = store.clone();
    let on_bundles = (*use_memo((), {
        let latest = latest.clone();
        move |_| {
            Callback::from(move |n: u32| {
                let store = latest.borrow().clone();
                // Re-shard the first namespace: the same log on a namespace of n bundles.
                let mut sc = store.scenario();
                if let crate::scenario::Body::Pulsar(log) = sc.body {
                    sc.body =
                        crate::scenario::Body::Pulsar(crate::scenario::presets::with_pulsar_bundles(log, n));
                }
                // Said at once when the engine changes the count (its traffic splits them).
                let note = crate::scenario::presets::pulsar_bundles_note(&sc, n);
                store.dispatch(Msg::AtField(
                    Field::BundleCount,
                    Box::new(Msg::Rewrite(Box::new(sc))),
                ));
                if let Some(note) = note {
                    store.dispatch(Msg::Notify(Notice::Info(note)));
                }
            })
        }
    }))
    .clone();
    let on_error = use_callback(dispatch.clone(), |t: String, dispatch| {
        dispatch.dispatch(Msg::Notify(Notice::Error(t)))
    });
    // Pointing: only a change of subject is dispatched (the views compare it too).
    let on_point = use_callback(dispatch.clone(), |s: Option<Subject>, dispatch| {
        dispatch.dispatch(Msg::Highlight(s))
    });
    let fresh_seed = use_callback((), |_: (), _| crate::ui::browser::fresh_seed());
    let on_lesson = use_callback(dispatch.clone(), |id: &'static str, d| {
        d.dispatch(Msg::Lesson(crate::ui::store::LessonMsg::Open(id.to_string(), 0)))
    });
    // Derived again only when the broker views change (the model keeps their `Rc`
    // while they are equal, so the pointer tells).
    let loads = {
        let brokers = crate::ui::components::canvas::Same(brokers.clone());
        use_memo(brokers, |b| {
            let b = &b.0;
            let mut v: Vec<(String, usize, f64, f64)> = b
                .iter()
                .filter(|x| x.alive)
                .map(|x| (x.id.0.to_string(), x.bundles, x.load, x.throughput))
                .collect();
            v.stable_sort_by(|a, b| {
                b.1.cmp(&a.1)
                    .then(b.2.total_cmp(&a.2))
                    .then_with(|| a.0.cmp(&b.0))
            });
            Rc::new(v)
        })
    };
    let loads = crate::ui::components::canvas::Same((*loads).clone());
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
        .filter(|s| s.kind == SubjectKind::Bundle)
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
                          on_action={on_action.clone()} {on_field} {on_actions} {on_bundles} {on_error} {fresh_seed}
                          {loads} {on_lesson} brokers={crate::ui::components::canvas::Same(brokers.clone())} />
                <details class="panel controls admin-forms" data-controls="admin pulsar-admin-forms"
                         ontoggle={on_admin_toggle}>
                    <summary><h2>{"Policies & domains"}</h2></summary>
                    // The forms follow the store (each lists brokers or bundles), so they are
                    // built only once the fold has been opened, and then kept with what was typed.
                    if *admin_opened {
                        <super::isolation_policy::IsolationPolicyForm />
                        <super::anti_affinity::AntiAffinityForm />
                        <super::failure_domain::FailureDomainForm />
                        <super::namespace_boundaries::NamespaceBoundariesForm />
                        <super::assign_bundle::AssignBundleForm />
                        <super::unreported_broker::UnreportedBrokerForm />
                    }
                </details>
                <crate::ui::components::workload::PulsarWorkloads />
                <super::scalable::ScalableForm />
            </aside>
            <div class="panel main-view" id="view">
                <super::profile_switch::ProfileSwitch />
                <RoundBar {round} {now_ms} on_action={on_action} {on_propose} proposing={shown.is_some()} />
                <FieldError field={Field::PulsarRounds} />
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
                        <Ring ring={ring.clone()} bins={bins.clone()} colors={colors.clone()} highlight={store.highlight.clone()}
                              on_point={on_point.clone()} title={format!("Hash ring of {ns}")} />
                        <p class="ring-detail" aria-live="polite">
                            { detail.unwrap_or_else(|| "Hover or focus a bundle to see its hash range; tick length follows a topic's traffic.".into()) }
                        </p>
                        <Legend colors={colors.clone()} highlight={store.highlight.clone()} tagged={bins.is_none()} />
                    </div>
                    <div class="side-pane">
                        <BrokerBars {brokers} {inputs} {colors} highlight={store.highlight.clone()} {on_point} />
                        <ThisRound {card} />
                    </div>
                </div>
                <super::scalable::SegmentViews />
            </div>
        </section>
    }
}
