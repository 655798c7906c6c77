//! "What would the next round do?": the ring and broker loads before and after
//! a Step run on a clone of the simulation, with Apply / Discard (presentational).

use super::ring::Ring;
use super::Colors;
use crate::engine::pulsar::view::{BrokerView, RingView};
use std::rc::Rc;
use yew::prelude::*;

/// A computed proposal.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// Rings before, per namespace.
    pub before: Vec<Rc<RingView>>,
    /// Rings after, per namespace.
    pub after: Vec<Rc<RingView>>,
    /// Brokers before.
    pub brokers_before: Rc<Vec<BrokerView>>,
    /// Brokers after.
    pub brokers_after: Rc<Vec<BrokerView>>,
    /// What the round would narrate.
    pub narration: Vec<String>,
}

/// Proposal view properties.
#[derive(Properties, Clone, PartialEq)]
pub struct ProposalProps {
    /// The proposal.
    pub proposal: Rc<Proposal>,
    /// The namespace shown in the rings.
    pub namespace: AttrValue,
    /// Broker → colour.
    pub colors: Colors,
    /// Apply the round.
    pub on_apply: Callback<()>,
    /// Forget it.
    pub on_discard: Callback<()>,
}

fn owner(o: &Option<crate::engine::pulsar::load::BrokerId>) -> String {
    o.as_ref().map_or("no owner".into(), |b| b.0.to_string())
}

/// The proposal view.
#[component]
pub fn ProposalView(p: &ProposalProps) -> Html {
    let pr = &p.proposal;
    let moves: Vec<Html> = pr
        .before
        .iter()
        .zip(pr.after.iter())
        .flat_map(|(b, a)| {
            let ns = a.namespace.clone();
            b.changes_to(a).into_iter().map(move |c| {
                let id = format!("{ns}/{}", c.name);
                let what = match &c.split_from {
                    Some(parent) => format!(
                        "split from {parent} (was {}) → {}",
                        owner(&c.from),
                        owner(&c.to)
                    ),
                    None => format!("{} → {}", owner(&c.from), owner(&c.to)),
                };
                html! {
                    <li class="move" data-bundle={id.clone()} data-from={c.from.as_ref().map(|b| b.0.to_string()).unwrap_or_default()}
                        data-to={c.to.as_ref().map(|b| b.0.to_string()).unwrap_or_default()}>
                        <code>{ id }</code>{": "}{ what }
                    </li>
                }
            })
        })
        .collect();
    let loads = pr.brokers_before.iter().map(|b| {
        let after = pr.brokers_after.iter().find(|x| x.id == b.id);
        let a = after.map_or(0.0, |x| x.load);
        let bundles = after.map_or(0, |x| x.bundles);
        html! {
            <tr data-broker={b.id.0.to_string()}>
                <th scope="row"><span class="swatch" style={format!("background:{}", p.colors.color(&b.id.0))}></span>{ b.id.0.clone() }</th>
                <td>{ format!("{:.1} %", b.load) }</td><td>{ format!("{a:.1} %") }</td>
                <td>{ format!("{} → {}", b.bundles, bundles) }</td>
            </tr>
        }
    });
    let ring = |v: &[Rc<RingView>]| {
        v.iter()
            .find(|r| r.namespace.as_str() == p.namespace.as_str())
            .cloned()
    };
    let apply = p.on_apply.reform(|_: MouseEvent| ());
    let discard = p.on_discard.reform(|_: MouseEvent| ());
    let count = moves.len();
    html! {
        <section class="proposal" aria-label="Proposal for the next round">
            <h3>{"Next round, proposed"}</h3>
            <div class="proposal-rings">
                if let Some(r) = ring(&pr.before) {
                    <figure><Ring ring={r} colors={p.colors.clone()} compact=true title="before" /><figcaption>{"before"}</figcaption></figure>
                }
                if let Some(r) = ring(&pr.after) {
                    <figure><Ring ring={r} colors={p.colors.clone()} compact=true title="after" /><figcaption>{"after"}</figcaption></figure>
                }
            </div>
            if count == 0 {
                <p class="no-moves">{"Nothing would move: no bundle changes owner and none is split."}</p>
            } else {
                <ul class="moves" aria-label="Bundles that would move">{ for moves }</ul>
            }
            <table class="proposal-loads">
                <thead><tr><th>{"broker"}</th><th>{"load now"}</th><th>{"after"}</th><th>{"bundles"}</th></tr></thead>
                <tbody>{ for loads }</tbody>
            </table>
            <details>
                <summary>{ format!("What the round would log ({} lines)", pr.narration.len()) }</summary>
                <ol class="events">{ for pr.narration.iter().map(|t| html!{ <li>{ t.clone() }</li> }) }</ol>
            </details>
            <div class="proposal-actions">
                <button class="primary apply" onclick={apply}>{"Apply"}</button>
                <button class="discard" onclick={discard}>{"Discard"}</button>
            </div>
        </section>
    }
}
