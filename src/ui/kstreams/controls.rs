//! The Kafka Streams controls: instances, traffic, time, rebalance, the few
//! config knobs the lessons need, and one-click experiments. Everything becomes
//! an engine `Action`; the engine refuses what Kafka would refuse.

use super::common::{duration, num};
use crate::engine::kstreams::{Action, Event as KsEvent, InstanceStatus, RackStrategy, View};
use crate::playground::Field;
use crate::ui::components::field_error::FieldError;
use crate::ui::store::{Msg, StoreCtx};
use std::collections::BTreeMap;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props: the current view.
#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    /// The engine's picture.
    pub view: Rc<View>,
}

fn next_name(view: &View) -> String {
    (1..)
        .map(|i| format!("app-{i}"))
        .find(|n| !view.instances.iter().any(|i| &i.name == n))
        .unwrap_or_else(|| "app".into())
}

fn next_rack(view: &View) -> String {
    let mut count: BTreeMap<String, usize> = ["rack-a", "rack-b", "rack-c"]
        .iter()
        .map(|r| (r.to_string(), 0))
        .collect();
    for i in &view.instances {
        if let Some(r) = &i.rack {
            *count.entry(r.clone()).or_default() += 1;
        }
    }
    count
        .into_iter()
        .min_by_key(|(r, c)| (*c, r.clone()))
        .map(|(r, _)| r)
        .unwrap_or_else(|| "rack-a".into())
}

fn parse_tags(s: &str) -> BTreeMap<String, String> {
    s.split([',', ' '])
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            let (k, v) = (k.trim(), v.trim());
            (!k.is_empty()).then(|| (k.to_string(), v.to_string()))
        })
        .collect()
}

fn input_value(r: &NodeRef) -> String {
    r.cast::<HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_default()
}

fn select_value(r: &NodeRef) -> String {
    r.cast::<HtmlSelectElement>()
        .map(|i| i.value())
        .unwrap_or_default()
}

fn send(store: &StoreCtx, a: Action) {
    store.dispatch(Msg::act(a));
}

fn set_config(store: &StoreCtx, key: &str, value: serde_json::Value) {
    store.dispatch(Msg::SetConfig(key.to_string(), value));
}

/// Props of [`NumberKnob`].
#[derive(Properties, PartialEq)]
struct KnobProps {
    id: AttrValue,
    key_name: &'static str,
    label: AttrValue,
    value: u64,
    min: u64,
    #[prop_or_default]
    hint: AttrValue,
}

/// A number field bound to one config key. Uncontrolled: the engine's value is
/// written into the field only when it changes, so a re-render (a hover, a
/// playing timer) never wipes what the user is typing.
#[component]
fn NumberKnob(props: &KnobProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.value, move |v| {
            if let Some(i) = node.cast::<HtmlInputElement>() {
                i.set_value(&v.to_string());
            }
        });
    }
    let key = props.key_name;
    let value = props.value;
    let onchange = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        match input.value().trim().parse::<u64>() {
            Ok(v) => set_config(&store, key, serde_json::json!(v)),
            Err(_) => input.set_value(&value.to_string()),
        }
    });
    html! {
        <div class="ks-knob">
            <label for={props.id.clone()}>{props.label.clone()}<code class="ks-key">{key}</code></label>
            <input id={props.id.clone()} ref={node} type="number" min={props.min.to_string()} {onchange} />
            if !props.hint.is_empty() { <p class="hint">{props.hint.clone()}</p> }
        </div>
    }
}

/// The controls panel.
#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let view = &props.view;
    let cfg = &view.config;
    let mode = use_state(|| "key".to_string());

    let name_ref = use_node_ref();
    let threads_ref = use_node_ref();
    let rack_ref = use_node_ref();
    let tags_ref = use_node_ref();
    let count_ref = use_node_ref();
    let topic_ref = use_node_ref();
    let key_ref = use_node_ref();
    let records_ref = use_node_ref();

    let default_name = next_name(view);
    let default_rack = next_rack(view);

    let on_add = {
        let store = store.clone();
        let (name_ref, threads_ref, rack_ref, tags_ref) = (
            name_ref.clone(),
            threads_ref.clone(),
            rack_ref.clone(),
            tags_ref.clone(),
        );
        let (default_name, default_rack) = (default_name.clone(), default_rack.clone());
        let count_ref = count_ref.clone();
        let taken: Vec<String> = view.instances.iter().map(|i| i.name.clone()).collect();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let name = input_value(&name_ref).trim().to_string();
            let name = if name.is_empty() {
                default_name.clone()
            } else {
                name
            };
            let threads = input_value(&threads_ref).trim().parse::<u32>().ok();
            // Empty: the suggested rack; "none": no client.rack.
            let rack = input_value(&rack_ref).trim().to_string();
            let rack = match rack.as_str() {
                "" => Some(default_rack.clone()),
                "none" => None,
                _ => Some(rack),
            };
            let tags = parse_tags(&input_value(&tags_ref));
            // How many: the first under the name given, the others app-N, the
            // suggested racks in turn (when no rack is given).
            let typed = !input_value(&rack_ref).trim().is_empty();
            let count = input_value(&count_ref)
                .trim()
                .parse::<usize>()
                .unwrap_or(1)
                .clamp(1, 1000);
            let mut names = taken.clone();
            let racks = ["rack-a", "rack-b", "rack-c"];
            let first = racks.iter().position(|r| *r == default_rack).unwrap_or(0);
            for k in 0..count {
                let name = if k == 0 {
                    name.clone()
                } else {
                    (1..)
                        .map(|i| format!("app-{i}"))
                        .find(|n| !names.contains(n))
                        .unwrap_or_default()
                };
                names.push(name.clone());
                // A rack typed (or "none") holds for all; else the suggested racks in turn.
                let rack = if typed {
                    rack.clone()
                } else {
                    Some(racks[(first + k) % 3].to_string())
                };
                store.dispatch(Msg::AtField(
                    Field::KsAdd,
                    Box::new(Msg::act(Action::AddInstance {
                        name,
                        threads,
                        rack,
                        tags: tags.clone(),
                        process_id: None,
                    })),
                ));
            }
            if let Some(i) = name_ref.cast::<HtmlInputElement>() {
                i.set_value("");
            }
            if let Some(i) = rack_ref.cast::<HtmlInputElement>() {
                i.set_value("");
            }
        })
    };

    let on_mode = {
        let mode = mode.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            mode.set(s.value());
        })
    };
    let on_produce = {
        let store = store.clone();
        let mode = mode.clone();
        let (topic_ref, key_ref, records_ref) = (topic_ref.clone(), key_ref.clone(), records_ref.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let topic = select_value(&topic_ref);
            let records = match input_value(&records_ref).trim() {
                "" => 1000,
                r => r.parse::<u64>().unwrap_or(0),
            };
            let k = input_value(&key_ref);
            let (key, partition) = match mode.as_str() {
                "key" => (Some(k), None),
                "partition" => match k.trim().parse::<u32>() {
                    Ok(p) => (None, Some(p)),
                    Err(_) => {
                        store.dispatch(Msg::Notify(crate::ui::store::Notice::Error(format!(
                            "{k:?} is not a partition number"
                        ))));
                        return;
                    }
                },
                _ => (None, None),
            };
            send(
                &store,
                Action::Produce {
                    topic,
                    key,
                    partition,
                    records,
                },
            );
        })
    };

    // The newest keyed record: where murmur2 sent it.
    let last_keyed = store
        .session::<crate::engine::kstreams::Sim>()
        .steps()
        .iter()
        .rev()
        .flatten()
        .find_map(|e| match e {
            KsEvent::Produced {
                key: Some(k),
                murmur2: Some(h),
                partition: Some(p),
                topic,
                tasks,
                ..
            } => Some((k.clone(), *h, *p, topic.clone(), tasks.clone())),
            _ => None,
        });

    let time = |ms: u64| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| send(&store, Action::AdvanceTime { ms }))
    };
    let rebalance = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| send(&store, Action::Rebalance))
    };

    let on_strategy = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            set_config(
                &store,
                "rack.aware.assignment.strategy",
                serde_json::json!(s.value()),
            );
        })
    };

    // One-click experiments.
    let running: Vec<_> = view
        .instances
        .iter()
        .filter(|i| i.status == InstanceStatus::Running)
        .collect();
    let partitions = view.tasks.len();
    let scale_to = partitions + 1;
    let scale_out = {
        let store = store.clone();
        let view = view.clone();
        let missing = scale_to.saturating_sub(running.len());
        Callback::from(move |_: MouseEvent| {
            let mut names: Vec<String> = view.instances.iter().map(|i| i.name.clone()).collect();
            let racks = ["rack-a", "rack-b", "rack-c"];
            for k in 0..missing {
                let name = (1..)
                    .map(|i| format!("app-{i}"))
                    .find(|n| !names.contains(n))
                    .unwrap_or_default();
                names.push(name.clone());
                send(
                    &store,
                    Action::AddInstance {
                        name,
                        threads: Some(1),
                        rack: Some(racks[(view.instances.len() + k) % 3].to_string()),
                        tags: BTreeMap::new(),
                        process_id: None,
                    },
                );
            }
        })
    };
    let busiest = running
        .iter()
        .filter(|i| i.busy)
        .max_by_key(|i| {
            (
                i.threads.iter().map(|t| t.active.len()).sum::<usize>(),
                std::cmp::Reverse(i.name.clone()),
            )
        })
        .map(|i| i.name.clone());
    let crash_busiest = {
        let store = store.clone();
        let busiest = busiest.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(name) = busiest.clone() {
                send(&store, Action::CrashInstance { name });
            }
        })
    };
    let toggle_standby = {
        let store = store.clone();
        let to = if cfg.num_standby_replicas == 0 { 1 } else { 0 };
        Callback::from(move |_: MouseEvent| set_config(&store, "num.standby.replicas", serde_json::json!(to)))
    };
    let big_produce = {
        let store = store.clone();
        let topic = view.topics.first().map(|t| t.name.clone()).unwrap_or_default();
        Callback::from(move |_: MouseEvent| {
            send(
                &store,
                Action::Produce {
                    topic: topic.clone(),
                    key: None,
                    partition: None,
                    records: 100_000,
                },
            )
        })
    };

    // One stateful sub-topology reading the first topic into the store `counts`.
    let start_topology = {
        let store = store.clone();
        let topic = view.topics.first().map(|t| t.name.clone()).unwrap_or_default();
        Callback::from(move |_: MouseEvent| {
            send(
                &store,
                Action::DefineTopology {
                    subtopologies: vec![crate::engine::kstreams::topology::SubtopologySpec {
                        sources: vec![topic.clone()],
                        stores: vec!["counts".into()],
                        changelog: true,
                    }],
                    copartition_groups: Vec::new(),
                },
            )
        })
    };

    let strategy = cfg.rack_aware_assignment_strategy.name();

    html! {
        <>
            <section class="ks-ctl" aria-labelledby="ks-try" data-controls="presets">
                <h2 id="ks-try">{"Try this"}</h2>
                <div class="ks-buttons">
                    <button class="ks-try" onclick={crash_busiest} disabled={busiest.is_none()}
                            title="Its tasks move; a caught-up standby takes over where one exists, else the state is restored from the changelog">
                        { busiest.as_ref().map(|b| format!("Crash the busiest ({b})")).unwrap_or_else(|| "Crash the busiest".into()) }
                    </button>
                    <button class="ks-try" onclick={scale_out} disabled={running.len() >= scale_to || partitions == 0}
                            title="More instances than tasks: the extra one idles">
                        {format!("Scale out to {scale_to} instances")}
                    </button>
                    <button class="ks-try" onclick={toggle_standby}>
                        { if cfg.num_standby_replicas == 0 { "Turn standbys on (1)" } else { "Turn standbys off" } }
                    </button>
                    <button class="ks-try" onclick={big_produce} disabled={view.topics.is_empty()}
                            title="Bigger state: longer restores after a failover">{"Produce 100,000 records"}</button>
                </div>
            </section>

            // Folded at first (a calm first screen); a lesson step that needs them
            // unfolds them.
            <details class="ks-ctl ks-fold ks-time" data-controls="time">
                <summary><h2 id="ks-round">{"Time and rebalance"}<span class="ks-sub">{format!(" · t = {}", duration(view.now_ms))}</span></h2></summary>
                <p class="ks-now">
                    {format!("t = {}", duration(view.now_ms))}
                    { view.probing_rebalance_at_ms.map(|p| format!(" · probing rebalance at {}", duration(p))).unwrap_or_default() }
                </p>
                <div class="ks-buttons">
                    <button onclick={time(100)} title="Advance time by 100 milliseconds">{"+100 ms"}</button>
                    <button onclick={time(1000)} title="Advance time by 1 second">{"+1 s"}</button>
                    <button onclick={time(10_000)} title="Advance time by 10 seconds">{"+10 s"}</button>
                    <button onclick={time(600_000)} title="Advance time by 10 minutes">{"+10 min"}</button>
                </div>
                <button class="ks-primary" onclick={rebalance}>{"Rebalance"}</button>
            </details>

            <section class="ks-ctl" aria-labelledby="ks-topo" data-controls="topology">
                <h2 id="ks-topo">{"Topology"}</h2>
                if view.topology.is_none() {
                    <p class="hint">{ view.topics.first().map(|t| format!(
                        "No processor topology runs yet. Start a stateful one: a sub-topology reading {} into the store counts (with its changelog).", t.name
                    )).unwrap_or_else(|| "Define a topic first.".into()) }</p>
                    <button class="ks-primary" id="ks-start-topology" onclick={start_topology} disabled={view.topics.is_empty()}>
                        {"Start the topology"}
                    </button>
                } else {
                    <p class="hint">{"The topology runs; the picture shows its sub-topologies and tasks."}</p>
                }
            </section>

            <details class="ks-ctl ks-fold ks-add" data-controls="members">
                <summary><h2 id="ks-add">{"Add an instance"}</h2></summary>
                <form class="ks-form" onsubmit={on_add}>
                    <label for="ks-name">{"Name"}</label>
                    <input id="ks-name" ref={name_ref} placeholder={default_name} autocomplete="off" />
                    <div class="ks-row">
                        <div>
                            <label for="ks-threads">{"Threads"}</label>
                            <input id="ks-threads" ref={threads_ref} type="number" min="0" placeholder={cfg.num_stream_threads.to_string()} />
                        </div>
                        <div>
                            <label for="ks-rack">{"client.rack"}</label>
                            <input id="ks-rack" ref={rack_ref} list="ks-racks" placeholder={default_rack} autocomplete="off" />
                            <datalist id="ks-racks"><option value="rack-a" /><option value="rack-b" /><option value="rack-c" /></datalist>
                        </div>
                    </div>
                    <label for="ks-tags">{"client.tag.* (zone=z1, cluster=k1)"}</label>
                    <input id="ks-tags" ref={tags_ref} placeholder="zone=z1" autocomplete="off" />
                    <input id="ks-count" ref={count_ref} type="number" min="1" max="1000" value="1" aria-label="How many instances" title="How many" />
                    <button type="submit" class="ks-primary">{"Add instance"}</button>
                    <FieldError field={Field::KsAdd} />
                </form>
            </details>

            <details class="ks-ctl ks-fold ks-produce-fold" data-controls="produce">
                <summary><h2 id="ks-produce">{"Produce records"}</h2></summary>
                <form class="ks-form" onsubmit={on_produce}>
                    <div class="ks-row">
                        <div>
                            <label for="ks-topic">{"Topic"}</label>
                            <select id="ks-topic" ref={topic_ref}>
                                { for view.topics.iter().map(|t| html!{ <option value={t.name.clone()}>{format!("{} ({} p)", t.name, t.partitions)}</option> }) }
                            </select>
                        </div>
                        <div>
                            <label for="ks-mode">{"Route"}</label>
                            <select id="ks-mode" onchange={on_mode}>
                                <option value="key" selected={*mode == "key"}>{"by key"}</option>
                                <option value="partition" selected={*mode == "partition"}>{"to partition"}</option>
                                <option value="spread" selected={*mode == "spread"}>{"spread evenly"}</option>
                            </select>
                        </div>
                    </div>
                    <div class="ks-row">
                        if *mode != "spread" {
                            <div>
                                <label for="ks-key">{ if *mode == "key" { "Key" } else { "Partition" } }</label>
                                <input id="ks-key" ref={key_ref} autocomplete="off"
                                       placeholder={ if *mode == "key" { "alice" } else { "0" } } />
                            </div>
                        }
                        <div>
                            <label for="ks-records">{"Records"}</label>
                            <input id="ks-records" ref={records_ref} type="number" min="1" placeholder="1000" />
                        </div>
                    </div>
                    <button type="submit" class="ks-primary">{"Produce"}</button>
                </form>
                if let Some((k, h, p, topic, tasks)) = last_keyed {
                    <p class="hint ks-murmur" data-partition={p.to_string()}>
                        {"key "}<code>{format!("{k:?}")}</code>{" → murmur2 "}<code>{h.to_string()}</code>
                        {" → "}<strong>{format!("{topic}-{p}")}</strong>{format!(" → task {}", tasks.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", "))}
                    </p>
                }
            </details>

            <details class="ks-ctl ks-fold ks-config" data-controls="config">
                <summary><h2 id="ks-cfg">{"Config"}<span class="ks-sub">{ format!(" · {} standby · lag {}", cfg.num_standby_replicas, num(cfg.acceptable_recovery_lag)) }</span></h2></summary>
                <NumberKnob id="ks-standbys" key_name="num.standby.replicas" label="Standby replicas"
                    value={u64::from(cfg.num_standby_replicas)} min={0} hint="hot copies of each store on other instances" />
                <NumberKnob id="ks-lag" key_name="acceptable.recovery.lag" label="Acceptable recovery lag"
                    value={cfg.acceptable_recovery_lag} min={0} hint="within this many records a copy counts as caught up" />
                <NumberKnob id="ks-warmups" key_name="max.warmup.replicas" label="Max warm-up replicas"
                    value={u64::from(cfg.max_warmup_replicas)} min={1} />
                <NumberKnob id="ks-rate" key_name="lbscope.restore.records.per.second" label="Restore speed (records/s)"
                    value={cfg.restore_records_per_second} min={1}
                    hint={format!("{} records restore in 1 s", num(cfg.restore_records_per_second))} />
                <div class="ks-knob">
                    <label for="ks-strategy">{"Rack-aware strategy"}<code class="ks-key">{"rack.aware.assignment.strategy"}</code></label>
                    <select id="ks-strategy" onchange={on_strategy}>
                        { for RackStrategy::ALL.iter().map(|s| html!{ <option value={s.name()} selected={strategy == s.name()}>{s.name()}</option> }) }
                    </select>
                    <p class="hint">{"needs client.rack on every instance and broker racks on the topics"}</p>
                </div>
            </details>
        </>
    }
}
