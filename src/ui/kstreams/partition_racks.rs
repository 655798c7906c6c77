//! The racks of every partition's replicas of a source or changelog topic (what
//! the rack-aware assignment reads), one list per partition.

use crate::engine::kstreams::{Action, View};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{chosen, send, SelectField, TextField};
use crate::ui::store::StoreCtx;
use std::rc::Rc;
use yew::prelude::*;

const FIELD: Field = Field::KsRacks;

/// `rack-a rack-b; rack-b rack-c; …`: one group per partition (an empty group: no rack information).
fn read_racks(s: &str) -> Vec<Vec<String>> {
    s.split(';')
        .map(|p| {
            p.split([',', ' '])
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

fn racks_text(view: &View, topic: &str) -> String {
    view.topics
        .iter()
        .find(|t| t.name == topic)
        .map(|t| {
            (0..t.partitions)
                .map(|p| t.replica_racks(p).into_iter().collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default()
}

/// Props: the engine's picture.
#[derive(Properties, PartialEq)]
pub struct PartitionRacksProps {
    /// The view.
    pub view: Rc<View>,
}

/// The partition-racks editor.
#[component]
pub fn PartitionRacksEditor(p: &PartitionRacksProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let topic = use_state(String::new);
    let racks = use_state(String::new);
    let mut options: Vec<(String, String)> = p
        .view
        .topics
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                format!("{} ({} partitions)", t.name, t.partitions),
            )
        })
        .collect();
    if let Some(t) = &p.view.topology {
        for s in &t.subtopologies {
            for c in &s.changelogs {
                if !options.iter().any(|(n, _)| n == c) {
                    options.push((c.clone(), format!("{c} (changelog)")));
                }
            }
        }
    }
    let on_load = {
        let (view, topic, racks, options) = (p.view.clone(), topic.clone(), racks.clone(), options.clone());
        Callback::from(move |_: MouseEvent| racks.set(racks_text(&view, &chosen(&topic, &options))))
    };
    let on_set = {
        let (store, topic, racks, options) = (store.clone(), topic.clone(), racks.clone(), options.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            send(
                &store,
                FIELD,
                Action::SetPartitionRacks {
                    topic: chosen(&topic, &options),
                    racks: read_racks(&racks),
                },
            );
        })
    };
    html! {
        <form class="ks-form ks-partition-racks" data-controls="partition-racks" onsubmit={on_set} novalidate=true>
            <h3>{"Partition racks"}</h3>
            if options.is_empty() {
                <p class="hint">{"Define a topic first."}</p>
            } else {
                <SelectField id="ksr-topic" label="Topic" value={topic} options={options} />
                <TextField id="ksr-racks" label="Replica racks per partition (p0; p1; …)" value={racks} placeholder="rack-a rack-b; rack-b rack-c" />
                <div class="ks-buttons">
                    <button type="button" id="ksr-load" onclick={on_load}>{"Load current"}</button>
                    <button type="submit" id="ksr-set">{"Set racks"}</button>
                </div>
            }
            <FieldError field={FIELD} />
        </form>
    }
}
