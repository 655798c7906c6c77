//! The Pulsar controls: cluster, namespaces and topics, traffic, rounds and the
//! pulsar-admin operations. They only build engine actions (with the pure
//! helpers of `scenario::presets`) and hand them up; the engine decides.

use crate::engine::pulsar::broker::DirectUsage;
use crate::engine::pulsar::config::{LoadManager, Profile, SplitAlgorithm};
use crate::engine::pulsar::{Action, Config};
use crate::playground::Field;
use crate::scenario::presets;
use crate::sort::StableSort;
use crate::ui::components::canvas::Same;
use crate::ui::components::field_error::FieldError;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The value of an `<input>` or `<select>`.
fn val(r: &NodeRef) -> String {
    if let Some(i) = r.cast::<HtmlInputElement>() {
        return i.value();
    }
    r.cast::<HtmlSelectElement>()
        .map(|s| s.value())
        .unwrap_or_default()
}

fn checked(r: &NodeRef) -> bool {
    r.cast::<HtmlInputElement>().is_some_and(|i| i.checked())
}

fn num(r: &NodeRef) -> Option<f64> {
    val(r).trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Slider position (0..=100) of a published rate: 0, then 1 .. 100 000 msg/s logarithmically.
pub fn slider_pos(rate: f64) -> u32 {
    if rate < 1.0 {
        0
    } else {
        (20.0 * rate.log10()).round().clamp(1.0, 100.0) as u32
    }
}

/// Published rate of a slider position (two significant digits).
pub fn slider_rate(pos: u32) -> f64 {
    if pos == 0 {
        return 0.0;
    }
    let x = 10f64.powf(f64::from(pos.min(100)) / 20.0);
    let mag = 10f64.powf(x.log10().floor() - 1.0).max(1.0);
    (x / mag).round() * mag
}

/// A short topic name placed in `ns` (full names are kept as they are).
fn in_ns(ns: &str, name: &str) -> String {
    let name = name.trim();
    if name.contains('/') || ns == presets::PULSAR_NAMESPACE {
        name.to_string()
    } else {
        format!("persistent://{ns}/{name}")
    }
}

/// The profile a config equals (ignoring `roundSeconds`), if any.
fn profile_of(c: &Config) -> Option<Profile> {
    Profile::ALL.into_iter().find(|p| {
        let mut d = Config::profile(*p);
        d.round_seconds = c.round_seconds;
        d == *c
    })
}

/// The alive brokers' names, derived once per broker list (the same `Rc` from
/// round to round while no broker comes or goes): at 1,000 brokers each panel
/// that lists them would otherwise copy every name on every render.
#[hook]
fn use_alive(members: &Rc<Vec<(String, bool)>>) -> Rc<Vec<String>> {
    let alive = use_memo(members.clone(), |m| {
        Rc::new(
            m.iter()
                .filter(|(_, a)| *a)
                .map(|(b, _)| b.clone())
                .collect::<Vec<_>>(),
        )
    });
    (*alive).clone()
}

/// Controls properties.
#[derive(Properties, Clone, PartialEq)]
pub struct ControlsProps {
    /// Every broker (name, alive), in name order.
    pub members: Rc<Vec<(String, bool)>>,
    /// Every namespace.
    pub namespaces: Rc<Vec<String>>,
    /// The namespace the ring shows (topics and bundle ops go there).
    pub namespace: AttrValue,
    /// Its bundles' names (`0x.._0x..`), in ring order.
    pub bundle_names: Rc<Vec<String>>,
    /// Its topics and their published msg/s (none when the namespace is too
    /// large to list them).
    pub topics: Rc<Vec<(String, f64)>>,
    /// The config in force.
    pub config: Rc<Config>,
    /// Bundle count of the initial namespace.
    pub bundles: u32,
    /// One engine action.
    pub on_action: Callback<Action>,
    /// One engine action on behalf of a control section (a refusal is shown in it).
    pub on_field: Callback<(Field, Action)>,
    /// Several engine actions, in order.
    pub on_actions: Callback<Vec<Action>>,
    /// Re-shard the initial namespace.
    pub on_bundles: Callback<u32>,
    /// A form could not be read.
    pub on_error: Callback<String>,
    /// A fresh random seed (from the browser).
    pub fresh_seed: Callback<(), u64>,
    /// Every live broker's (name, bundles owned, load %, bytes/s served), busiest
    /// first. Compared by pointer: the tab derives a new list only when the broker
    /// views change, and comparing 1,000 rows by value for each section that reads
    /// them cost more than the sections' render.
    #[prop_or_default]
    pub loads: Same<Vec<(String, usize, f64, f64)>>,
    /// Every broker's view (for what the doc example's loads would report).
    /// Compared by pointer, like `loads`.
    #[prop_or_default]
    pub brokers: Same<Vec<crate::engine::pulsar::view::BrokerView>>,
    /// Open a lesson at its first step (the doc example's full setup).
    #[prop_or_default]
    pub on_lesson: Callback<&'static str>,
}

/// The side panel of controls: "Try this" and the essentials open, the rest folded.
#[component]
pub fn Controls(p: &ControlsProps) -> Html {
    // The brokers' loads change every round; only the sections that read them
    // get them (the others then skip the round). The doc example's line reads
    // them only when exactly three brokers are alive.
    let without_loads = ControlsProps {
        loads: Same::default(),
        brokers: Same::default(),
        ..p.clone()
    };
    let three_alive = p.members.iter().filter(|(_, alive)| *alive).count() == 3;
    let traffic = if three_alive {
        p.clone()
    } else {
        without_loads.clone()
    };
    html! {
        <>
            <TryThis ..p.clone() />
            <ClusterControls ..without_loads.clone() />
            <TopicControls ..without_loads.clone() />
            <TrafficControls ..traffic />
            <AdminControls ..without_loads />
        </>
    }
}

/// One-click experiments, and one line saying what to press first.
#[component]
fn TryThis(p: &ControlsProps) -> Html {
    let busiest = p.loads.first().cloned();
    let total: usize = p.loads.iter().map(|(_, n, _, _)| n).sum();
    let idle: Vec<String> = p
        .loads
        .iter()
        .filter(|(_, n, _, _)| *n == 0)
        .map(|(b, _, _, _)| b.clone())
        .collect();
    let line = match &busiest {
        Some((b, n, load, _)) if !idle.is_empty() && *n > 1 => format!(
            "{b} carries {n} of {total} bundles at {load:.0} % load while {} {} none. Press Step: {:?} decides each round, and the log says why.",
            idle.join(" and "),
            if idle.len() == 1 { "owns" } else { "own" },
            p.config.load_balancer_load_shedding_strategy
        ),
        Some((b, n, load, _)) => format!(
            "{b} is the busiest broker ({n} bundles, {load:.0} % load). Press Step (or Play) to run rounds of {:?}.",
            p.config.load_balancer_load_shedding_strategy
        ),
        None => "Add a broker, then press Step.".into(),
    };
    let first_topic = p
        .topics
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t.clone());
    let hot = {
        let on = p.on_field.reform(|a| (Field::PulsarTry, a));
        let t = first_topic.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(t) = &t {
                on.emit(presets::pulsar_hot_topic(t));
            }
        })
    };
    let crash = {
        let on = p.on_field.reform(|a| (Field::PulsarTry, a));
        let b = busiest.as_ref().map(|(b, _, _, _)| b.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(b) = &b {
                on.emit(Action::CrashBroker { broker: b.clone() });
            }
        })
    };
    let names: Vec<String> = p.members.iter().map(|(b, _)| b.clone()).collect();
    let new_name = presets::next_broker_name(&names);
    let add = {
        let on = p.on_field.reform(|a| (Field::PulsarTry, a));
        let name = new_name.clone();
        Callback::from(move |_: MouseEvent| {
            on.emit(Action::AddBroker {
                broker: name.clone(),
                capacity: Default::default(),
            })
        })
    };
    let alive = p.members.iter().filter(|(_, a)| *a).count();
    html! {
        <section class="panel controls try-this" aria-labelledby="pulsar-try" data-controls="presets">
            <h2 id="pulsar-try">{"Try this"}</h2>
            <p class="press-step">{ line }</p>
            <div class="try-buttons">
                <button class="try" onclick={hot} disabled={first_topic.is_none()}
                        title="One topic jumps to 60k msg/s: its bundle splits and the shedder moves load">
                    { first_topic.as_ref().map(|t| format!("Burst {}", t.rsplit('/').next().unwrap_or(t))).unwrap_or_else(|| "Burst a topic".into()) }
                </button>
                <button class="try" onclick={crash} disabled={busiest.is_none() || alive < 2}
                        title="Its bundles lose their owner; the next lookups place them on the others">
                    { busiest.as_ref().map(|(b, _, _, _)| format!("Crash {b}")).unwrap_or_else(|| "Crash the busiest".into()) }
                </button>
                <button class="try" onclick={add} title="A new broker owns nothing until the shedder moves bundles to it">
                    { format!("Add {new_name}") }
                </button>
            </div>
            <FieldError field={Field::PulsarTry} />
        </section>
    }
}

#[component]
fn ClusterControls(p: &ControlsProps) -> Html {
    let names: Vec<String> = p.members.iter().map(|(b, _)| b.clone()).collect();
    let count_ref = use_node_ref();
    let add = {
        let on = p.on_field.reform(|a| (Field::PulsarCluster, a));
        let count_ref = count_ref.clone();
        Callback::from(move |_: MouseEvent| {
            // How many: the next free broker-N names.
            let count = val(&count_ref)
                .trim()
                .parse::<usize>()
                .unwrap_or(1)
                .clamp(1, 1000);
            let mut names = names.clone();
            for _ in 0..count {
                let name = presets::next_broker_name(&names);
                names.push(name.clone());
                on.emit(Action::AddBroker {
                    broker: name,
                    capacity: Default::default(),
                })
            }
        })
    };
    let many = p.members.len() > CHOICE_LIMIT;
    let rows = p.members.iter().filter(|_| !many).map(|(id, alive)| {
        let (id, alive) = (id.clone(), *alive);
        let on = p.on_field.reform(|a| (Field::PulsarCluster, a));
        let (label, action) = if alive {
            ("Crash", Action::CrashBroker { broker: id.clone() })
        } else {
            ("Restore", Action::RestoreBroker { broker: id.clone() })
        };
        let click = Callback::from(move |_: MouseEvent| on.emit(action.clone()));
        html! {
            <li data-broker={id.clone()}>
                <span>{ id.clone() }</span>
                <button class={classes!("small", if alive { "crash" } else { "restore" })} onclick={click}
                        aria-label={format!("{label} {id}")}>{ label }</button>
            </li>
        }
    });
    let profile = profile_of(&p.config);
    let on_profile = {
        let on = p.on_field.reform(|a| (Field::PulsarCluster, a));
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            if let Some(profile) = Profile::ALL.into_iter().find(|p| p.name() == s.value()) {
                on.emit(Action::SetProfile { profile });
            }
        })
    };
    let on_lm = {
        let on = p.on_field.reform(|a| (Field::PulsarCluster, a));
        let config = p.config.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            let lm = if s.value() == "extensible" {
                LoadManager::Extensible
            } else {
                LoadManager::Modular
            };
            on.emit(Action::whole_config(&(*config).clone().with_load_manager(lm)));
        })
    };
    let lm = p.config.load_manager_class_name;
    html! {
        <details class="panel controls cluster" data-controls="members">
            <summary><h2>{"Cluster"}</h2></summary>
            if many {
                <BrokerPick members={p.members.clone()} on_field={p.on_field.clone()} />
            } else {
                <ul class="broker-list">{ for rows }</ul>
            }
            <input id="add-broker-count" ref={count_ref} type="number" min="1" max="1000" value="1"
                   aria-label="How many brokers" title="How many" />
            <button id="add-broker" onclick={add}>{"Add broker"}</button>
            <details class="sub" data-controls="config">
            <summary>{ format!("Version and load manager ({})", match profile { Some(Profile::Pulsar40) => "4.0", Some(Profile::Pulsar4) => "4.2", Some(Profile::Pulsar5) => "5.0", None => "custom" }) }</summary>
            <label for="profile">{"Version profile"}</label>
            <select id="profile" onchange={on_profile}>
                if profile.is_none() { <option selected=true value="">{"custom"}</option> }
                <option value="pulsar-4.0" selected={profile == Some(Profile::Pulsar40)}>{"Pulsar 4.0.0–4.0.7"}</option>
                <option value="pulsar-4.2" selected={profile == Some(Profile::Pulsar4)}>{"Pulsar 4.2 (and 4.0.8+)"}</option>
                <option value="pulsar-5.0" selected={profile == Some(Profile::Pulsar5)}>{"Pulsar 5.0 (AvgShedder)"}</option>
            </select>
            <label for="load-manager">{"Load manager"}</label>
            <select id="load-manager" onchange={on_lm}>
                <option value="modular" selected={lm == LoadManager::Modular}>{"modular (post-assign at lookup)"}</option>
                <option value="extensible" selected={lm == LoadManager::Extensible}>{"extensible (pre-assign, transfer)"}</option>
            </select>
            </details>
            <p class="hint">{ format!("Shedding: {:?}; placement: {:?}.", p.config.load_balancer_load_shedding_strategy, p.config.load_balancer_load_placement_strategy) }</p>
            <FieldError field={Field::PulsarCluster} />
        </details>
    }
}

#[component]
fn TopicControls(p: &ControlsProps) -> Html {
    let topic_ref = use_node_ref();
    let kind_ref = use_node_ref();
    let count_ref = use_node_ref();
    let ns_name_ref = use_node_ref();
    let ns_bundles_ref = use_node_ref();
    let kind = use_state(|| "single".to_string());

    let on_bundles = {
        let on = p.on_bundles.clone();
        let current = p.bundles;
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match input.value().trim().parse::<u32>() {
                Ok(n) => on.emit(n),
                Err(_) => input.set_value(&current.to_string()),
            }
        })
    };
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            kind.set(s.value());
        })
    };
    let on_add = {
        let on = p.on_field.reform(|a| (Field::PulsarTopics, a));
        let err = p.on_error.clone();
        let ns = p.namespace.to_string();
        let (topic_ref, kind_ref, count_ref) = (topic_ref.clone(), kind_ref.clone(), count_ref.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let name = val(&topic_ref);
            if name.trim().is_empty() {
                err.emit("Type a topic name first.".into());
                return;
            }
            let count = val(&count_ref).trim().parse::<u32>().unwrap_or(0);
            let action = match val(&kind_ref).as_str() {
                "hash" => {
                    let h = val(&count_ref);
                    let h = h.trim();
                    match u32::from_str_radix(h.trim_start_matches("0x").trim_start_matches("0X"), 16) {
                        Ok(hash) => Action::CreateTopicWithHash {
                            topic: in_ns(&ns, &name),
                            hash,
                        },
                        Err(_) => {
                            err.emit(format!(
                                "The hash is 32-bit hexadecimal, 0x00000000 to 0xffffffff (got {h:?})."
                            ));
                            return;
                        }
                    }
                }
                "partitioned" => Action::CreatePartitionedTopic {
                    topic: in_ns(&ns, &name),
                    partitions: count,
                },
                "many" => Action::CreateTopics {
                    namespace: ns.clone(),
                    prefix: name.trim().rsplit('/').next().unwrap_or("topic").to_string(),
                    count,
                    traffic: presets::pulsar_traffic(presets::PULSAR_DEFAULT_RATE),
                },
                _ => Action::CreateTopic {
                    topic: in_ns(&ns, &name),
                },
            };
            on.emit(action);
            if let Some(i) = topic_ref.cast::<HtmlInputElement>() {
                i.set_value("");
            }
        })
    };
    let on_lookup = {
        let on = p.on_field.reform(|a| (Field::PulsarTopics, a));
        let err = p.on_error.clone();
        let ns = p.namespace.to_string();
        let topic_ref = topic_ref.clone();
        Callback::from(move |_: MouseEvent| {
            let name = val(&topic_ref);
            if name.trim().is_empty() {
                err.emit("Type the topic to look up first.".into());
                return;
            }
            on.emit(Action::Lookup {
                topic: in_ns(&ns, &name),
            });
        })
    };
    let on_ns = {
        let on = p.on_field.reform(|a| (Field::PulsarTopics, a));
        let (name_ref, bundles_ref) = (ns_name_ref.clone(), ns_bundles_ref.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let bundles = val(&bundles_ref).trim().parse::<u32>().ok();
            on.emit(Action::CreateNamespace {
                namespace: val(&name_ref).trim().to_string(),
                bundles,
            });
        })
    };
    let count_label = match kind.as_str() {
        "partitioned" => Some("Partitions"),
        "many" => Some("How many (named PREFIX-0, PREFIX-1, …)"),
        _ => None,
    };
    html! {
        <details class="panel controls topics" data-controls="topics">
            <summary><h2>{"Namespaces & topics"}</h2></summary>
            <label for="bundle-count">{ format!("Bundles of {}", presets::PULSAR_NAMESPACE) }</label>
            <input id="bundle-count" type="number" min="1" max={crate::engine::pulsar::MAX_BUNDLES.to_string()}
                   value={p.bundles.to_string()} onchange={on_bundles} />
            <FieldError field={Field::BundleCount} />
            <p class="hint">{"Pulsar cuts the ring into equal segments: 2^32 / N, the last boundary forced to 0xffffffff."}</p>
            <form onsubmit={on_add} class="add-topic">
                <label for="topic-name">{ format!("Add topic to {}", p.namespace) }</label>
                <input id="topic-name" ref={topic_ref} placeholder="my-topic" autocomplete="off" />
                <div class="row">
                    <select id="topic-kind" ref={kind_ref} onchange={on_kind} aria-label="Topic kind">
                        <option value="single" selected={*kind == "single"}>{"single topic"}</option>
                        <option value="partitioned" selected={*kind == "partitioned"}>{"partitioned"}</option>
                        <option value="many" selected={*kind == "many"}>{"N topics (prefix)"}</option>
                        <option value="hash" selected={*kind == "hash"}>{"at a hash"}</option>
                    </select>
                    if *kind == "hash" {
                        <input id="topic-hash" ref={count_ref.clone()} value="0x40000000" autocomplete="off" spellcheck="false"
                               aria-label="Hash (hexadecimal)" title="Where on the ring the topic lands, instead of its name's CRC-32" />
                    }
                    if let Some(l) = count_label {
                        <input id="topic-count" ref={count_ref.clone()} type="number" min="1" max="100000" value="8" aria-label={l} title={l} />
                    }
                    <button type="submit">{"Add"}</button>
                    <button type="button" id="topic-lookup" onclick={on_lookup}
                            title="A client looks the topic up: its bundle's owner answers (an unowned bundle is assigned first)">{"Look up"}</button>
                </div>
            </form>
            <form onsubmit={on_ns} class="add-namespace">
                <label for="ns-name">{"Create namespace (tenant/namespace, bundles)"}</label>
                <div class="row">
                    <input id="ns-name" ref={ns_name_ref} value="my-tenant/my-namespace" autocomplete="off" />
                    <input id="ns-bundles" ref={ns_bundles_ref} type="number" min="1" value="4" aria-label="Bundles" />
                    <button type="submit">{"Create"}</button>
                </div>
            </form>
            <FieldError field={Field::PulsarTopics} />
        </details>
    }
}

#[component]
fn TrafficControls(p: &ControlsProps) -> Html {
    let hot_ref = use_node_ref();
    let total_ref = use_node_ref();
    let skew_ref = use_node_ref();
    let seed_ref = use_node_ref();
    let broker_ref = use_node_ref();
    let cpu_ref = use_node_ref();
    let bundle_ref = use_node_ref();
    let bundle_rate_ref = use_node_ref();
    let seed = use_state(|| 42_u64);

    let mut topics: Vec<(String, f64)> = (*p.topics).clone();
    let mut names: Vec<String> = topics.iter().map(|(n, _)| n.clone()).collect();
    names.stable_sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    topics.stable_sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)))
    });
    const SHOWN: usize = 24;
    let hidden = topics.len().saturating_sub(SHOWN);
    let sliders = topics.iter().take(SHOWN).map(|(name, r)| {
        let on = p.on_field.reform(|a| (Field::PulsarTraffic, a));
        let topic = name.clone();
        let change = Callback::from(move |e: Event| {
            let i: HtmlInputElement = e.target_unchecked_into();
            let pos = i.value().parse::<u32>().unwrap_or(0);
            on.emit(Action::SetTopicTraffic {
                topic: topic.clone(),
                traffic: presets::pulsar_traffic(slider_rate(pos)),
            });
        });
        let short = name.rsplit('/').next().unwrap_or(name).to_string();
        html! {
            <li key={name.clone()} data-topic={name.clone()}>
                <label title={name.clone()}>
                    <span class="topic-name">{ short.clone() }</span>
                    <input type="range" class="rate" min="0" max="100" value={slider_pos(*r).to_string()}
                           onchange={change} aria-label={format!("msg/s published to {short}")}
                           aria-valuetext={super::ring::rate(*r)} />
                    <span class="rate-value">{ super::ring::rate(*r) }</span>
                </label>
            </li>
        }
    });

    let on_hot = {
        let on = p.on_field.reform(|a| (Field::PulsarTraffic, a));
        let r = hot_ref.clone();
        Callback::from(move |_: MouseEvent| {
            let t = val(&r);
            if !t.is_empty() {
                on.emit(presets::pulsar_hot_topic(&t));
            }
        })
    };
    // The ramp and skew buttons are one workload pattern each (see
    // `pulsar::workload::Workload::scale_all` / `skew_all`), whatever the topic count.
    // Read when pressed: the last pattern decides whether the press adds or changes one.
    let store = use_context::<crate::ui::store::StoreCtx>().expect("store context");
    let ramp = |factor: f64| {
        let on = p.on_actions.clone();
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            let a = store
                .session::<crate::engine::pulsar::Sim>()
                .state()
                .workload()
                .scale_all(factor);
            on.emit(vec![a]);
        })
    };
    let on_zipf = {
        let on = p.on_actions.clone();
        let err = p.on_error.clone();
        let store = store.clone();
        let (total_ref, skew_ref, seed_ref) = (total_ref.clone(), skew_ref.clone(), seed_ref.clone());
        Callback::from(move |_: MouseEvent| {
            let (Some(total), Some(s), Ok(seed)) = (
                num(&total_ref),
                num(&skew_ref),
                val(&seed_ref).trim().parse::<u64>(),
            ) else {
                err.emit(
                    "The Zipf generator needs a total msg/s, an exponent and a whole-number seed.".into(),
                );
                return;
            };
            let a = store
                .session::<crate::engine::pulsar::Sim>()
                .state()
                .workload()
                .skew_all(total.max(0.0), s.clamp(0.0, 5.0), seed);
            on.emit(vec![a]);
        })
    };
    let on_dice = {
        let seed = seed.clone();
        let fresh = p.fresh_seed.clone();
        Callback::from(move |_: MouseEvent| seed.set(fresh.emit(())))
    };
    let alive = use_alive(&p.members);
    let on_doc = {
        let on = p.on_actions.clone();
        let alive = alive.clone();
        Callback::from(move |_: MouseEvent| on.emit(presets::pulsar_doc_loads(&alive)))
    };
    // Whether the doc's outcome (the 40 % broker sheds 15 % of its traffic) can
    // follow here, said before the press: it needs ThresholdShedder and an
    // offload above loadBalancerBundleUnloadMinThroughputThreshold.
    let doc_why = {
        use crate::engine::pulsar::config::SheddingStrategy;
        let c = &p.config;
        let min_mb = c.load_balancer_bundle_unload_min_throughput_threshold;
        let first = alive.first().and_then(|b| p.loads.iter().find(|l| &l.0 == b));
        let mb = crate::engine::pulsar::traffic::MIB;
        // 40 − (average 20 + threshold) + 5: the doc's offload share of the busy broker.
        let share = (40.0 - (20.0 + c.load_balancer_broker_threshold_shedder_percentage) + 5.0) / 100.0;
        match first {
            _ if c.load_balancer_load_shedding_strategy != SheddingStrategy::ThresholdShedder => format!(
                "The doc's result (the 40 % broker sheds 15 % of its traffic) is ThresholdShedder's; this cluster sheds with {:?} (the 4.x profiles use ThresholdShedder).",
                c.load_balancer_load_shedding_strategy
            ),
            _ if alive.len() != 3 => "The doc's example has exactly three brokers; with another count the average, and so the outcome, differ.".into(),
            Some((b, _, _, bytes)) if bytes * share / mb < min_mb => format!(
                "With this traffic nothing would unload: {b} serves {:.2} MB/s, so the planned {:.0} % offload is {:.2} MB/s, under loadBalancerBundleUnloadMinThroughputThreshold = {min_mb} MB/s.",
                bytes / mb,
                share * 100.0,
                bytes * share / mb
            ),
            _ => format!(
                "ThresholdShedder sheds from the 40 % broker once its averaged usage (loadBalancerHistoryResourcePercentage = {}) passes the average + {} %.",
                c.load_balancer_history_resource_percentage,
                c.load_balancer_broker_threshold_shedder_percentage
            ),
        }
    };
    // Which brokers would keep their old report after the press: the shedder
    // then compares their old values, not 40 / 10 / 10.
    let silent: Vec<String> = alive
        .iter()
        .zip([40.0, 10.0, 10.0])
        .filter_map(|(b, cpu)| {
            let r = p.brokers.iter().find(|v| *v.id.0 == **b)?.report.as_ref()?;
            let old = r.reported_usage?;
            (!r.would_publish_at(cpu)).then(|| format!("{b} (reported {old:.1} %, set to {cpu:.0} %)"))
        })
        .collect();
    let doc_why = if silent.is_empty() {
        doc_why
    } else {
        format!(
            "{doc_why} After the press {} will not report: the change is not above loadBalancerReportUpdateThresholdPercentage = {}, so the shedder keeps their old reports and the average is not the doc's 20 %; each broker card says what the leader holds. The lesson sets the loads before the first report, as the doc assumes.",
            crate::lessons::text::and_list(&silent),
            p.config.load_balancer_report_update_threshold_percentage
        )
    };
    let open_doc_lesson = p.on_lesson.reform(|_: MouseEvent| "pulsar-threshold-shedder");
    let set_broker = |clear: bool| {
        let on = p.on_field.reform(|a| (Field::PulsarTraffic, a));
        let err = p.on_error.clone();
        let (b, c) = (broker_ref.clone(), cpu_ref.clone());
        Callback::from(move |_: MouseEvent| {
            let cpu = if clear { None } else { num(&c) };
            if !clear && cpu.is_none() {
                err.emit("Type a CPU percentage.".into());
                return;
            }
            on.emit(Action::SetBrokerLoad {
                broker: val(&b),
                usage: DirectUsage {
                    cpu,
                    ..Default::default()
                },
            });
        })
    };
    let ns = p.namespace.to_string();
    let set_bundle = |clear: bool| {
        let on = p.on_field.reform(|a| (Field::PulsarTraffic, a));
        let err = p.on_error.clone();
        let (b, r) = (bundle_ref.clone(), bundle_rate_ref.clone());
        let ns = ns.clone();
        Callback::from(move |_: MouseEvent| {
            let load = if clear {
                None
            } else {
                num(&r).map(presets::pulsar_traffic)
            };
            if !clear && load.is_none() {
                err.emit("Type the bundle's msg/s.".into());
                return;
            }
            on.emit(Action::SetBundleLoad {
                bundle: format!("{ns}/{}", val(&b)),
                load,
            });
        })
    };
    html! {
        <details class="panel controls traffic" data-controls="load">
            <summary><h2>{"Traffic"}</h2></summary>
            <label for="hot-topic">{"Hot topic burst"}</label>
            <div class="row">
                <Choice id="hot-topic" node={hot_ref} label="Topic" options={Rc::new(names.clone())} short=true />
                <button id="hot-burst" onclick={on_hot} disabled={names.is_empty()}>
                    { format!("Burst to {}", super::ring::rate(presets::PULSAR_HOT_RATE)) }
                </button>
            </div>
            <label>{"Ramp every topic"}</label>
            <div class="row">
                <button id="ramp-up" onclick={ramp(2.0)} disabled={names.is_empty()}>{"× 2"}</button>
                <button id="ramp-down" onclick={ramp(0.5)} disabled={names.is_empty()}>{"× ½"}</button>
            </div>
            <details class="sub" data-controls="load">
            <summary>{"Per-topic rates, skew, load set directly"}</summary>
            <p class="hint">{ format!("Published msg/s per topic ({} KiB messages, {} subscriptions).", presets::PULSAR_MSG_BYTES / 1024.0, presets::PULSAR_FANOUT) }</p>
            <ul class="topic-sliders">{ for sliders }</ul>
            if hidden > 0 { <p class="hint">{ format!("… and {hidden} quieter topics.") }</p> }
            <label for="zipf-total">{"Skewed (Zipf): total msg/s, exponent, seed"}</label>
            <div class="row">
                <input id="zipf-total" ref={total_ref} type="number" min="0" value="60000" aria-label="Total msg/s" />
                <input id="zipf-s" ref={skew_ref} type="number" min="0" max="5" step="0.1" value="1.2" aria-label="Zipf exponent" />
            </div>
            <div class="row">
                <input id="zipf-seed" ref={seed_ref} type="number" min="0" value={seed.to_string()} aria-label="Seed" />
                <button onclick={on_dice} title="A fresh random seed">{"new seed"}</button>
                <button id="zipf-apply" onclick={on_zipf} disabled={names.is_empty()}>{"Skew"}</button>
            </div>
            <label>{"Set load directly (as the doc's examples do)"}</label>
            <button id="doc-loads" onclick={on_doc} disabled={alive.is_empty()}>{"Doc example: 40 % / 10 % / 10 % CPU"}</button>
            <p class="hint doc-why">{ doc_why }</p>
            <button class="link" onclick={open_doc_lesson}>{"Open the lesson that sets up the whole example"}</button>
            <div class="row">
                <Choice node={broker_ref.clone()} label="Broker" options={alive.clone()} />
                <input ref={cpu_ref.clone()} type="number" min="0" max="1000" value="50" aria-label="CPU %" title="CPU %" />
            </div>
            <div class="row">
                <button onclick={set_broker(false)}>{"Set broker CPU %"}</button>
                <button onclick={set_broker(true)} title="Back to the traffic model">{"Clear"}</button>
            </div>
            <div class="row">
                <Choice node={bundle_ref.clone()} label="Bundle" options={p.bundle_names.clone()} />
                <input ref={bundle_rate_ref.clone()} type="number" min="0" value="20000" aria-label="Bundle msg/s in" title="msg/s in" />
            </div>
            <div class="row">
                <button onclick={set_bundle(false)}>{"Set bundle msg/s"}</button>
                <button onclick={set_bundle(true)} title="Back to its topics' sum">{"Clear"}</button>
            </div>
            </details>
            <FieldError field={Field::PulsarTraffic} />
        </details>
    }
}

#[component]
fn AdminControls(p: &ControlsProps) -> Html {
    let split_bundle = use_node_ref();
    let split_algo = use_node_ref();
    let split_bounds = use_node_ref();
    let split_u = use_node_ref();
    let unload_bundle = use_node_ref();
    let unload_dst = use_node_ref();
    let ns = p.namespace.to_string();

    let on_split = {
        let on = p.on_field.reform(|a| (Field::PulsarAdmin, a));
        let err = p.on_error.clone();
        let ns = ns.clone();
        let (b, a, bo, u) = (
            split_bundle.clone(),
            split_algo.clone(),
            split_bounds.clone(),
            split_u.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let algorithm = match val(&a).as_str() {
                "range_equally_divide" => Some(SplitAlgorithm::RangeEquallyDivide),
                "topic_count_equally_divide" => Some(SplitAlgorithm::TopicCountEquallyDivide),
                "specified_positions_divide" => Some(SplitAlgorithm::SpecifiedPositionsDivide),
                "flow_or_qps_equally_divide" => Some(SplitAlgorithm::FlowOrQpsEquallyDivide),
                _ => None,
            };
            let mut boundaries = Vec::new();
            for s in val(&bo)
                .split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                let hex = s.trim_start_matches("0x").trim_start_matches("0X");
                match u32::from_str_radix(hex, 16) {
                    Ok(v) => boundaries.push(v),
                    Err(_) => {
                        err.emit(format!("{s} is not a hex boundary like 0x33000000."));
                        return;
                    }
                }
            }
            on.emit(Action::SplitBundle {
                namespace: ns.clone(),
                bundle: val(&b),
                algorithm,
                boundaries,
                unload: checked(&u),
            });
        })
    };
    let on_unload = {
        let on = p.on_field.reform(|a| (Field::PulsarAdmin, a));
        let ns = ns.clone();
        let (b, d) = (unload_bundle.clone(), unload_dst.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let bundle = Some(val(&b)).filter(|s| !s.is_empty());
            let destination = Some(val(&d)).filter(|s| !s.is_empty() && bundle.is_some());
            on.emit(Action::Unload {
                namespace: ns.clone(),
                bundle,
                destination,
            });
        })
    };
    // The two bundle limits a split compares (flow_or_qps_equally_divide and
    // the automatic split), set together: one config change.
    let limit_rate = use_node_ref();
    let limit_mb = use_node_ref();
    let on_limits = {
        let on = p.on_field.reform(|a| (Field::PulsarAdmin, a));
        let err = p.on_error.clone();
        let config = p.config.clone();
        let (r, m) = (limit_rate.clone(), limit_mb.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (Ok(rate), Ok(mb)) = (val(&r).trim().parse::<f64>(), val(&m).trim().parse::<f64>()) else {
                err.emit("Both bundle limits must be numbers (msg/s and MB/s).".into());
                return;
            };
            let mut c = (*config).clone();
            c.load_balancer_namespace_bundle_max_msg_rate = rate;
            c.load_balancer_namespace_bundle_max_bandwidth_mbytes = mb;
            on.emit(Action::whole_config(&c));
        })
    };
    let alive = use_alive(&p.members);
    html! {
        <details class="panel controls admin" data-controls="admin">
            <summary><h2>{"pulsar-admin"}</h2></summary>
            <form class="split-bundle" onsubmit={on_split} data-controls="split">
                <p class="cmd"><code>{ format!("namespaces split-bundle {ns}") }</code></p>
                <label for="split-bundle">{"--bundle"}</label>
                <Choice id="split-bundle" node={split_bundle} label="--bundle" options={p.bundle_names.clone()}
                        first={vec![("LARGEST".into(), "LARGEST".into()), ("HOT".into(), "HOT".into())]} />
                <label for="split-algo">{"-san (algorithm)"}</label>
                <select id="split-algo" ref={split_algo}>
                    <option value="" selected=true>{ format!("config default ({:?})", p.config.default_namespace_bundle_split_algorithm) }</option>
                    <option value="range_equally_divide">{"range_equally_divide"}</option>
                    <option value="topic_count_equally_divide">{"topic_count_equally_divide"}</option>
                    <option value="specified_positions_divide">{"specified_positions_divide"}</option>
                    <option value="flow_or_qps_equally_divide">{"flow_or_qps_equally_divide"}</option>
                </select>
                <label for="split-bounds">{"--split-boundaries (hex, for specified_positions_divide)"}</label>
                <input id="split-bounds" ref={split_bounds} placeholder="0x33000000" autocomplete="off" />
                <label class="check"><input id="split-u" ref={split_u} type="checkbox" />{" -u (unload the children)"}</label>
                <button type="submit">{"Split bundle"}</button>
            </form>
            <form class="bundle-limits" onsubmit={on_limits} data-controls="split">
                <p class="hint">{"The limits a bundle is split at (flow_or_qps_equally_divide cuts where the running total would pass one)."}</p>
                <div class="two">
                    <div>
                        <label for="limit-rate">{"loadBalancerNamespaceBundleMaxMsgRate (msg/s)"}</label>
                        <input id="limit-rate" ref={limit_rate} type="number" min="0" step="any" inputmode="decimal"
                               value={p.config.load_balancer_namespace_bundle_max_msg_rate.to_string()} />
                    </div>
                    <div>
                        <label for="limit-mb">{"loadBalancerNamespaceBundleMaxBandwidthMbytes (MB/s)"}</label>
                        <input id="limit-mb" ref={limit_mb} type="number" min="0" step="any" inputmode="decimal"
                               value={p.config.load_balancer_namespace_bundle_max_bandwidth_mbytes.to_string()} />
                    </div>
                </div>
                <button type="submit" id="set-limits">{"Set bundle limits"}</button>
            </form>
            <form class="unload" onsubmit={on_unload} data-controls="unload">
                <p class="cmd"><code>{ format!("namespaces unload {ns}") }</code></p>
                <label for="unload-bundle">{"-b (bundle)"}</label>
                <Choice id="unload-bundle" node={unload_bundle} label="-b (bundle)" options={p.bundle_names.clone()}
                        first={vec![("".into(), "the whole namespace".into())]} />
                <label for="unload-dst">{"-d (destination broker)"}</label>
                <Choice id="unload-dst" node={unload_dst} label="-d (destination broker)" options={alive}
                        first={vec![("".into(), "none: the next lookup decides".into())]} />
                <button type="submit">{"Unload"}</button>
            </form>
            <FieldError field={Field::PulsarAdmin} />
        </details>
    }
}

/// Rounds toolbar properties.
#[derive(Properties, Clone, PartialEq)]
pub struct RoundBarProps {
    /// Rounds so far.
    pub round: u64,
    /// Simulated time, ms.
    pub now_ms: u64,
    /// One engine action.
    pub on_action: Callback<Action>,
    /// Compute the proposal of the next round.
    pub on_propose: Callback<()>,
    /// Whether a proposal is open.
    pub proposing: bool,
}

/// The round bar under the toolbar's one Step button: the clock, the proposal
/// button, and the round's phases one at a time (folded: most learners never
/// need them).
#[component]
pub fn RoundBar(p: &RoundBarProps) -> Html {
    let act = |a: Action| {
        let on = p.on_action.clone();
        Callback::from(move |_: MouseEvent| on.emit(a.clone()))
    };
    let propose = p.on_propose.reform(|_: MouseEvent| ());
    html! {
        <div class="round-bar" role="group" aria-label="Rounds" data-controls="step">
            <span class="clock">{ format!("round {} · t = {} s", p.round, p.now_ms / 1000) }</span>
            <button id="propose" onclick={propose} aria-pressed={p.proposing.to_string()} title="Show what the next Step would move, then apply or discard it">{"Propose next round"}</button>
            <details class="phases" data-controls="phases">
                <summary>{"One phase at a time"}</summary>
                <div class="phase-buttons">
                    <button id="phase-report" onclick={act(Action::Report)} title="Brokers report their load now">{"Report"}</button>
                    <button id="phase-split" onclick={act(Action::Split)} title="Automatic split check now">{"Split"}</button>
                    <button id="phase-shed" onclick={act(Action::Shed)} title="Automatic shedding now (unload)">{"Unload"}</button>
                    <button id="phase-assign" onclick={act(Action::Assign)} title="Clients look up every unowned bundle">{"Assign"}</button>
                </div>
            </details>
        </div>
    }
}

/// Above this many options a choice is a text field with suggestions instead of
/// a `<select>` (16,384 bundles or 1,000 brokers would be tens of thousands of
/// `<option>` elements to build and restyle).
pub const CHOICE_LIMIT: usize = 200;
/// Suggestions offered while typing in a large choice.
const SUGGESTIONS: usize = 40;

/// Choice properties.
#[derive(Properties, PartialEq)]
pub struct ChoiceProps {
    /// Element id (for its `<label for>`).
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// Where the chosen value is read from (`val`).
    pub node: NodeRef,
    /// Accessible name.
    pub label: AttrValue,
    /// Fixed choices first, as (value, text); the first one is preselected.
    #[prop_or_default]
    pub first: Vec<(AttrValue, AttrValue)>,
    /// The choices (values, also shown).
    pub options: Rc<Vec<String>>,
    /// Show only the part after the last `/` (topic names).
    #[prop_or_default]
    pub short: bool,
}

/// A `<select>` for a short list; for a long one a text field whose value is
/// checked by the engine like any typed name, with a few matching suggestions.
#[component]
pub fn Choice(p: &ChoiceProps) -> Html {
    let initial = p
        .first
        .first()
        .map(|(v, _)| v.to_string())
        .or_else(|| p.options.first().cloned())
        .unwrap_or_default();
    // The field is controlled: what was typed stays across renders, until the
    // list itself changes (another scenario): then it starts over at `initial`.
    let typed = use_state(|| initial.clone());
    {
        let typed = typed.clone();
        let list = (
            p.options.len(),
            p.options.first().cloned(),
            p.options.last().cloned(),
        );
        use_effect_with(list, move |_| typed.set(initial));
    }
    let text = |v: &str| {
        if p.short {
            v.rsplit('/').next().unwrap_or(v).to_string()
        } else {
            v.to_string()
        }
    };
    if p.options.len() <= CHOICE_LIMIT {
        let fixed = p.first.iter().enumerate().map(|(i, (v, t))| {
            html! { <option value={v.clone()} selected={i == 0}>{ t.clone() }</option> }
        });
        let none_fixed = p.first.is_empty();
        let opts = p.options.iter().enumerate().map(|(i, v)| {
            html! { <option value={v.clone()} selected={none_fixed && i == 0}>{ text(v) }</option> }
        });
        return html! {
            <select id={p.id.clone()} ref={p.node.clone()} aria-label={p.label.clone()}>
                { for fixed }{ for opts }
            </select>
        };
    }
    let list_id = format!(
        "{}-choices",
        p.id.as_deref()
            .unwrap_or(&p.label)
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let needle = typed.to_lowercase();
    let suggestions = p
        .first
        .iter()
        .map(|(v, t)| (v.to_string(), t.to_string()))
        .chain(p.options.iter().map(|v| (v.clone(), text(v))))
        .filter(|(v, _)| needle.is_empty() || v.to_lowercase().contains(&needle))
        .take(SUGGESTIONS)
        .map(|(v, t)| html! { <option value={v}>{ t }</option> });
    let oninput = {
        let typed = typed.clone();
        Callback::from(move |e: InputEvent| {
            let i: HtmlInputElement = e.target_unchecked_into();
            typed.set(i.value());
        })
    };
    let hint = p.first.iter().find(|(v, _)| v.is_empty()).map_or_else(
        || format!("type one of {} names", p.options.len()),
        |(_, t)| format!("{t}, or type one of {} names", p.options.len()),
    );
    html! {
        <>
            <input id={p.id.clone()} ref={p.node.clone()} class="choice" list={list_id.clone()} value={(*typed).clone()}
                   placeholder={hint.clone()} title={hint} aria-label={p.label.clone()} autocomplete="off" {oninput} />
            <datalist id={list_id}>{ for suggestions }</datalist>
        </>
    }
}

/// Broker pick properties.
#[derive(Properties, PartialEq)]
pub struct BrokerPickProps {
    /// Every broker (name, alive).
    pub members: Rc<Vec<(String, bool)>>,
    /// One engine action for the cluster section.
    pub on_field: Callback<(Field, Action)>,
}

/// A large cluster's crash / restore form: pick a broker by name.
#[component]
fn BrokerPick(p: &BrokerPickProps) -> Html {
    let node = use_node_ref();
    let names: Rc<Vec<String>> = Rc::new(p.members.iter().map(|(b, _)| b.clone()).collect());
    let act = |crash: bool| {
        let (node, on) = (node.clone(), p.on_field.clone());
        Callback::from(move |_: MouseEvent| {
            let broker = val(&node).trim().to_string();
            let action = if crash {
                Action::CrashBroker { broker }
            } else {
                Action::RestoreBroker { broker }
            };
            on.emit((Field::PulsarCluster, action));
        })
    };
    let down = p.members.iter().filter(|(_, alive)| !alive).count();
    html! {
        <div class="broker-pick">
            <p class="hint">{ format!("{} brokers ({} alive, {down} crashed).", p.members.len(), p.members.len() - down) }</p>
            <div class="row">
                <Choice id="broker-pick" node={node.clone()} label="Broker" options={names} />
                <button class="small crash" onclick={act(true)}>{"Crash"}</button>
                <button class="small restore" onclick={act(false)}>{"Restore"}</button>
            </div>
        </div>
    }
}
