//! Where the course document's sentence about `client.rack` spreading standbys
//! differs from what Kafka does: shown while instances set `client.rack` and no
//! `rack.aware.assignment.tags` are set, in the fidelity notes' own words.

use crate::engine::kstreams;
use crate::engine::Engine;
use crate::lessons::fidelity::notes;
use crate::ui::store::StoreCtx;
use yew::prelude::*;

/// The topic of the fidelity note this shows.
const TOPIC: &str = "client.rack for standbys";

/// The note, when it applies to the cluster on screen.
#[component]
pub fn ClientRackNote() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let (racks, tags, standbys, strategy) = {
        let s = store.session::<kstreams::Sim>();
        let view = s.state().view();
        let cfg = s.state().config();
        (
            view.instances.iter().filter(|i| i.rack.is_some()).count(),
            cfg.rack_aware_assignment_tags.clone(),
            cfg.standby_replicas(),
            cfg.rack_aware_assignment_strategy.name(),
        )
    };
    let Some(note) = notes()
        .into_iter()
        .find(|n| n.system == <kstreams::Sim as Engine>::SYSTEM && n.topic == TOPIC)
    else {
        return html! {};
    };
    if racks == 0 || !tags.is_empty() {
        return html! {};
    }
    html! {
        <aside class="ks-note client-rack-note" role="note" data-strategy={strategy}>
            <p><strong>{"The course document says: "}</strong>{ note.doc }</p>
            <p><strong>{"Kafka does otherwise: "}</strong>{ format!(
                "{racks} instance(s) set client.rack and rack.aware.assignment.tags is empty, so under rack.aware.assignment.strategy = {strategy} {} go to the least-loaded instance without a copy, not to another rack.",
                if standbys == 0 {
                    "standbys (none now: the standby replica count is 0) would".to_string()
                } else {
                    format!("the {standbys} standby replica(s) per task")
                }
            ) }</p>
            <details><summary>{"Why"}</summary><p>{ note.code }</p></details>
        </aside>
    }
}
