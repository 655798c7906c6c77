//! Scalable topics (Pulsar 5.0) in the Pulsar tab: the segment bar of each
//! topic (drawn by `view::segments`, coloured by consumer and by owner broker)
//! and the controls: `scalable-topics create`, the topic's traffic with a wave,
//! a consumer joining or leaving, and the admin split and merge. The engine
//! judges every value; a refusal shows inside the form.

use crate::engine::pulsar::scalable_topic::Wave;
use crate::engine::pulsar::traffic::Traffic;
use crate::engine::pulsar::{self, Action};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::form::{number, refuse, send, whole, TextField};
use crate::ui::store::StoreCtx;
use yew::prelude::*;

const FIELD: Field = Field::PulsarScalable;

/// The segment bars of every scalable topic (nothing when there is none).
#[component]
pub fn SegmentViews() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let session = store.session::<pulsar::Sim>();
    let sim = session.state();
    let names: Vec<String> = sim.scalable_topics().topics.keys().cloned().collect();
    if names.is_empty() {
        return html! {};
    }
    html! {
        <section class="segment-views" aria-label="Scalable topics" data-view="segments">
            <h2>{"Scalable topics"}</h2>
            { for names.iter().map(|t| {
                let svg = crate::view::segments::segments_svg(sim, t, 640.0).unwrap_or_default();
                html! {
                    <figure class="segment-view" data-topic={t.clone()}>
                        { Html::from_html_unchecked(AttrValue::from(svg)) }
                    </figure>
                }
            }) }
        </section>
    }
}

/// The scalable-topic controls.
#[component]
pub fn ScalableForm() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let topic = use_state(|| "topic://public/default/orders".to_string());
    let segments = use_state(|| "2".to_string());
    let rate = use_state(|| "10000".to_string());
    let amplitude = use_state(|| "150".to_string());
    let period = use_state(|| "120".to_string());
    let subscription = use_state(|| "billing".to_string());
    let consumer = use_state(|| "c1".to_string());
    let seg_a = use_state(|| "0".to_string());
    let seg_b = use_state(|| "1".to_string());

    let on_create = {
        let (store, topic, segments) = (store.clone(), topic.clone(), segments.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match whole::<u32>("--segments", &segments) {
                Ok(n) => send(
                    &store,
                    FIELD,
                    Action::CreateScalableTopic {
                        topic: topic.trim().to_string(),
                        segments: Some(n),
                    },
                ),
                Err(m) => refuse(&store, FIELD, m),
            }
        })
    };
    let on_traffic = {
        let (store, topic, rate, amplitude, period) = (
            store.clone(),
            topic.clone(),
            rate.clone(),
            amplitude.clone(),
            period.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let read = || -> Result<(f64, f64, f64), String> {
                Ok((
                    number("msg/s", &rate)?,
                    number("wave amplitude", &amplitude)?,
                    number("wave period", &period)?,
                ))
            };
            match read() {
                Ok((r, a, p)) => send(
                    &store,
                    FIELD,
                    Action::SetScalableTopicTraffic {
                        topic: topic.trim().to_string(),
                        // 1 kB messages, every message read once.
                        traffic: Traffic {
                            msg_rate_in: r,
                            msg_rate_out: r,
                            throughput_in: r * 1000.0,
                            throughput_out: r * 1000.0,
                            producers: 4,
                            consumers: 0,
                        },
                        wave: (a > 0.0).then_some(Wave {
                            period_minutes: p,
                            amplitude_percent: a,
                            phase_minutes: 0.0,
                        }),
                        hot_keys: None,
                    },
                ),
                Err(m) => refuse(&store, FIELD, m),
            }
        })
    };
    let consumer_action = |joined: bool| {
        let (store, topic, subscription, consumer) = (
            store.clone(),
            topic.clone(),
            subscription.clone(),
            consumer.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let (topic, subscription, consumer) = (
                topic.trim().to_string(),
                subscription.trim().to_string(),
                consumer.trim().to_string(),
            );
            send(
                &store,
                FIELD,
                if joined {
                    Action::AddScalableConsumer {
                        topic,
                        subscription,
                        consumer,
                    }
                } else {
                    Action::RemoveScalableConsumer {
                        topic,
                        subscription,
                        consumer,
                    }
                },
            )
        })
    };
    let on_split = {
        let (store, topic, seg_a) = (store.clone(), topic.clone(), seg_a.clone());
        Callback::from(move |_: MouseEvent| match whole::<u64>("--segment-id", &seg_a) {
            Ok(id) => send(
                &store,
                FIELD,
                Action::SplitSegment {
                    topic: topic.trim().to_string(),
                    segment_id: id,
                },
            ),
            Err(m) => refuse(&store, FIELD, m),
        })
    };
    let on_merge = {
        let (store, topic, seg_a, seg_b) = (store.clone(), topic.clone(), seg_a.clone(), seg_b.clone());
        Callback::from(move |_: MouseEvent| {
            let read = || -> Result<(u64, u64), String> {
                Ok((whole("--segment-id-1", &seg_a)?, whole("--segment-id-2", &seg_b)?))
            };
            match read() {
                Ok((a, b)) => send(
                    &store,
                    FIELD,
                    Action::MergeSegments {
                        topic: topic.trim().to_string(),
                        segment_id_1: a,
                        segment_id_2: b,
                    },
                ),
                Err(m) => refuse(&store, FIELD, m),
            }
        })
    };
    let (on_add, on_remove) = (consumer_action(true), consumer_action(false));
    html! {
        <details class="panel controls scalable-forms" data-controls="scalable pulsar-scalable topics load split">
            <summary><h2>{"Scalable topics"}</h2></summary>
            <form class="admin-form scalable" onsubmit={on_create} novalidate=true>
                <p class="cmd"><code>{"scalable-topics create TOPIC --segments N"}</code></p>
                <TextField id="st-topic" label="topic" value={topic} />
                <TextField id="st-segments" label="--segments" kind="number" value={segments} />
                <div class="row"><button type="submit" id="st-create">{"Create"}</button></div>
                <h3>{"Traffic wave"}</h3>
                <TextField id="st-rate" label="msg/s in (1 kB each)" kind="number" value={rate} />
                <TextField id="st-amplitude" label="wave amplitude %" kind="number" value={amplitude} />
                <TextField id="st-period" label="wave period (min)" kind="number" value={period} />
                <div class="row"><button type="button" id="st-traffic" onclick={on_traffic}>{"Set traffic"}</button></div>
                <h3>{"Consumers"}</h3>
                <TextField id="st-sub" label="subscription" value={subscription} />
                <TextField id="st-consumer" label="consumer" value={consumer} />
                <div class="row">
                    <button type="button" id="st-add-consumer" onclick={on_add}>{"Add"}</button>
                    <button type="button" id="st-remove-consumer" onclick={on_remove}>{"Remove"}</button>
                </div>
                <h3>{"Split / merge"}</h3>
                <TextField id="st-seg-a" label="--segment-id (-1)" kind="number" value={seg_a} />
                <TextField id="st-seg-b" label="--segment-id-2" kind="number" value={seg_b} />
                <div class="row">
                    <button type="button" id="st-split" onclick={on_split}>{"Split segment"}</button>
                    <button type="button" id="st-merge" onclick={on_merge}>{"Merge segments"}</button>
                </div>
                <FieldError field={FIELD} />
            </form>
        </details>
    }
}
