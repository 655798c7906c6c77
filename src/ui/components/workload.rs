//! The workloads panel: the traffic patterns of the scenario (Pulsar) or the
//! produce patterns (Kafka Streams), each with a small curve of what it will do
//! over the next rounds, and a form to add, edit or remove one. Every change is
//! one engine action (`add_workload`, `change_workload`, `remove_workload`);
//! the engine refuses what it must, and the refusal shows under the form.

use crate::engine::kstreams;
use crate::engine::pulsar;
use crate::engine::pulsar::workload::{Pattern, Shape, Target, WorkloadEvent};
use crate::engine::Engine;
use crate::playground::Field;
use crate::scenario::presets;
use crate::ui::components::field_error::FieldError;
use crate::ui::components::sparkline::Sparkline;
use crate::ui::store::{Msg, StoreCtx};
use std::collections::VecDeque;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

const FIELD: Field = Field::Workloads;
/// Rounds a pattern's curve looks ahead.
const AHEAD: usize = 24;

fn val(r: &NodeRef) -> String {
    if let Some(i) = r.cast::<HtmlInputElement>() {
        return i.value();
    }
    r.cast::<HtmlSelectElement>()
        .map(|s| s.value())
        .unwrap_or_default()
}

fn set_val(r: &NodeRef, v: &str) {
    if let Some(i) = r.cast::<HtmlInputElement>() {
        i.set_value(v);
    } else if let Some(s) = r.cast::<HtmlSelectElement>() {
        s.set_value(v);
    }
}

fn num(r: &NodeRef) -> Result<f64, String> {
    let s = val(r);
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{s:?} is not a number"))
}

/// A polyline through `ys` (0..=1 of the height), `w` × `h` pixels.
fn polyline(ys: &[f64], w: f64, h: f64) -> String {
    let n = ys.len().max(2) - 1;
    ys.iter()
        .enumerate()
        .map(|(i, y)| format!("{:.1},{:.1}", i as f64 * w / n as f64, h - y.clamp(0.0, 1.0) * h))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A small curve: the band between `lo` and `hi` and its middle line, scaled
/// to the largest value (and 0 at the bottom).
fn curve(lo: &[f64], hi: &[f64], label: String) -> Html {
    let (w, h) = (120.0, 28.0);
    let top = hi.iter().chain(lo).copied().fold(1e-9, f64::max) * 1.05;
    let norm = |v: &[f64]| v.iter().map(|x| x / top).collect::<Vec<_>>();
    let (l, u) = (norm(lo), norm(hi));
    let mid: Vec<f64> = l.iter().zip(&u).map(|(a, b)| (a + b) / 2.0).collect();
    let mut band: Vec<String> = polyline(&u, w, h).split(' ').map(str::to_string).collect();
    let mut back: Vec<String> = polyline(&l, w, h).split(' ').map(str::to_string).collect();
    back.reverse();
    band.extend(back);
    let one = h - (1.0 / top).clamp(0.0, 1.0) * h;
    html! {
        <svg class="workload-curve" width="120" height="28" viewBox="0 0 120 28" role="img" aria-label={label.clone()}>
            <title>{ label }</title>
            <line x1="0" x2="120" y1={format!("{one:.1}")} y2={format!("{one:.1}")} stroke="currentColor" stroke-opacity="0.25" stroke-dasharray="2 2" />
            <polygon points={band.join(" ")} fill="var(--accent, #3b82f6)" fill-opacity="0.25" />
            <polyline points={polyline(&mid, w, h)} fill="none" stroke="var(--accent, #3b82f6)" stroke-width="1.5" />
        </svg>
    }
}

/// A Pulsar pattern's curve over the next rounds: its factor band, or for the
/// shapes that set values, a flat line.
fn pulsar_curve(shape: &Shape, round: u64, now_ms: u64, round_ms: u64) -> Html {
    match shape.preview(round, now_ms, round_ms, AHEAD) {
        Some(f) => {
            let lo: Vec<f64> = f.iter().map(|x| x.0).collect();
            let hi: Vec<f64> = f.iter().map(|x| x.1).collect();
            let label = format!(
                "factor over the next {AHEAD} rounds: {:.2}..{:.2}",
                lo.iter().copied().fold(f64::INFINITY, f64::min),
                hi.iter().copied().fold(0.0, f64::max)
            );
            curve(&lo, &hi, label)
        }
        None => curve(&[1.0; AHEAD], &[1.0; AHEAD], "sets values each round".into()),
    }
}

/// A shape kind of the form: its name, its label, and its three number fields
/// (label, default; an empty label is an unused field).
type ShapeForm = (&'static str, &'static str, [(&'static str, f64); 3]);

/// The form's shape kinds, their three number fields and defaults.
const SHAPES: &[ShapeForm] = &[
    ("jitter", "Jitter ±p %", [("p %", 10.0), ("", 0.0), ("", 0.0)]),
    (
        "wave",
        "Wave",
        [("period min", 1440.0), ("amplitude %", 30.0), ("phase min", 0.0)],
    ),
    (
        "burst",
        "Burst",
        [("×", 4.0), ("from round", 0.0), ("rounds", 3.0)],
    ),
    (
        "ramp",
        "Ramp",
        [("to ×", 2.0), ("from round", 0.0), ("rounds", 10.0)],
    ),
    (
        "zipf",
        "Zipf skew",
        [("total msg/s", 60000.0), ("s", 1.2), ("redraw every", 10.0)],
    ),
    (
        "churn",
        "Churn",
        [("± producers", 1.0), ("± consumers", 1.0), ("", 0.0)],
    ),
    (
        "constant",
        "Constant",
        [("msg/s in", 1000.0), ("", 0.0), ("", 0.0)],
    ),
];

const TARGETS: &[(&str, &str)] = &[
    ("all", "every topic"),
    ("namespace", "namespace"),
    ("topic", "topic"),
    ("matching", "name pattern (*)"),
    ("hash_range", "hash range"),
];

fn shape_of(kind: &str, a: f64, b: f64, c: f64, round: u64) -> Shape {
    let start = |b: f64| if b <= 0.0 { round + 1 } else { b as u64 };
    match kind {
        "wave" => Shape::Wave {
            period_minutes: a,
            amplitude_percent: b,
            phase_minutes: c,
        },
        "burst" => Shape::Burst {
            start_round: start(b),
            rounds: c.max(0.0) as u64,
            multiplier: a,
        },
        "ramp" => Shape::Ramp {
            from: 1.0,
            to: a,
            start_round: start(b),
            rounds: c.max(0.0) as u64,
        },
        "zipf" => Shape::Zipf {
            total_msg_rate_in: a,
            exponent: b,
            redraw_every: c.max(0.0) as u64,
            seed: None,
        },
        "churn" => Shape::Churn {
            producers: a.max(0.0) as u32,
            consumers: b.max(0.0) as u32,
        },
        "constant" => Shape::Constant {
            traffic: presets::pulsar_traffic(a),
        },
        _ => Shape::Jitter { percent: a },
    }
}

fn fields_of(shape: &Shape) -> (&'static str, [f64; 3]) {
    match shape {
        Shape::Jitter { percent } => ("jitter", [*percent, 0.0, 0.0]),
        Shape::Wave {
            period_minutes,
            amplitude_percent,
            phase_minutes,
        } => ("wave", [*period_minutes, *amplitude_percent, *phase_minutes]),
        Shape::Burst {
            start_round,
            rounds,
            multiplier,
        } => ("burst", [*multiplier, *start_round as f64, *rounds as f64]),
        Shape::Ramp {
            to,
            start_round,
            rounds,
            ..
        } => ("ramp", [*to, *start_round as f64, *rounds as f64]),
        Shape::Zipf {
            total_msg_rate_in,
            exponent,
            redraw_every,
            ..
        } => ("zipf", [*total_msg_rate_in, *exponent, *redraw_every as f64]),
        Shape::Churn { producers, consumers } => {
            ("churn", [f64::from(*producers), f64::from(*consumers), 0.0])
        }
        Shape::Constant { traffic } => ("constant", [traffic.msg_rate_in, 0.0, 0.0]),
    }
}

fn target_of(kind: &str, text: &str) -> Result<Target, String> {
    let text = text.trim().to_string();
    let need = |what: &str| {
        if text.is_empty() {
            Err(format!("give the {what} to target"))
        } else {
            Ok(())
        }
    };
    Ok(match kind {
        "namespace" => {
            need("namespace")?;
            Target::Namespace { namespace: text }
        }
        "topic" => {
            need("topic")?;
            Target::Topic { topic: text }
        }
        "matching" => {
            need("name pattern")?;
            Target::Matching { pattern: text }
        }
        "hash_range" => {
            // NAMESPACE 0xLOWER 0xUPPER
            let parts: Vec<&str> = text.split_whitespace().collect();
            let hex = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok();
            match parts.as_slice() {
                [ns, lo, hi] => match (hex(lo), hex(hi)) {
                    (Some(lower), Some(upper)) => Target::HashRange {
                        namespace: ns.to_string(),
                        lower,
                        upper,
                    },
                    _ => return Err("a hash range is: namespace 0xLOWER 0xUPPER".into()),
                },
                _ => return Err("a hash range is: namespace 0xLOWER 0xUPPER".into()),
            }
        }
        _ => Target::All,
    })
}

fn target_fields(t: &Target) -> (&'static str, String) {
    match t {
        Target::All => ("all", String::new()),
        Target::Namespace { namespace } => ("namespace", namespace.clone()),
        Target::Topic { topic } => ("topic", topic.clone()),
        Target::Matching { pattern } => ("matching", pattern.clone()),
        Target::HashRange {
            namespace,
            lower,
            upper,
        } => ("hash_range", format!("{namespace} 0x{lower:08x} 0x{upper:08x}")),
    }
}

/// Offered msg/s in (the shaped topics, after the patterns) per round, from the
/// charted events so far (a workload's events are charted: a few per round,
/// where a round at 200,000 topics has thousands of events).
fn offered<'a>(charted: impl Iterator<Item = &'a pulsar::Event>) -> Vec<f64> {
    charted
        .filter_map(|e| match e {
            pulsar::Event::Workload(WorkloadEvent::Applied { msg_rate_in, .. }) => Some(*msg_rate_in),
            _ => None,
        })
        .collect()
}

/// Most lines of the per-broker / per-instance traffic list (the busiest).
const SPARKLINES: usize = 12;

/// The traffic-over-time list: one sparkline per name, on one scale, the
/// busiest (by last value) first, at most [`SPARKLINES`].
fn traffic_lines<'a>(
    what: &str,
    unit: &str,
    history: impl Iterator<Item = (&'a str, &'a VecDeque<(u64, f64)>)>,
) -> Html {
    // The busiest are picked by their last value before any line's values are
    // copied (at 1,000 brokers, only the shown twelve are).
    let mut busiest: Vec<(&str, &VecDeque<(u64, f64)>)> = history.filter(|(_, h)| !h.is_empty()).collect();
    if busiest.is_empty() {
        return Html::default();
    }
    let last_of = |h: &VecDeque<(u64, f64)>| h.back().map_or(0.0, |x| x.1);
    // Busiest first, then by name (names are unique: a total order, so picking
    // the first twelve before sorting them gives the same twelve in the same order).
    let order = |a: &(&str, &VecDeque<(u64, f64)>), b: &(&str, &VecDeque<(u64, f64)>)| {
        last_of(b.1).total_cmp(&last_of(a.1)).then_with(|| a.0.cmp(b.0))
    };
    let hidden = busiest.len().saturating_sub(SPARKLINES);
    if hidden > 0 {
        busiest.select_nth_unstable_by(SPARKLINES - 1, order);
        busiest.truncate(SPARKLINES);
    }
    busiest.sort_by(order);
    let lines: Vec<(&str, Vec<f64>)> = busiest
        .into_iter()
        .map(|(name, h)| (name, h.iter().map(|x| x.1).collect()))
        .collect();
    let last = |v: &Vec<f64>| v.last().copied().unwrap_or(0.0);
    let max = lines.iter().flat_map(|l| l.1.iter().copied()).fold(0.0, f64::max);
    let items = lines.iter().map(|(name, v)| {
        let now = last(v);
        html! {
            <li key={name.to_string()} data-name={name.to_string()} class="traffic-line">
                <span class="traffic-name">{ name.to_string() }</span>
                <Sparkline values={v.clone()} max={max}
                    label={format!("{name}: {unit} over the last {} points, now {now:.0}", v.len())} />
                <span class="traffic-now">{ format!("{now:.0}") }</span>
            </li>
        }
    });
    html! {
        <details class="sub traffic-history" open=true>
            <summary>{ format!("{unit} per {what} over time") }</summary>
            <ul class="traffic-lines" aria-label={format!("{unit} per {what}")}>{ for items }</ul>
            if hidden > 0 { <p class="hint">{ format!("… and {hidden} quieter {what}s.") }</p> }
        </details>
    }
}

/// The Pulsar workloads panel.
#[component]
pub fn PulsarWorkloads() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let session = store.session::<pulsar::Sim>();
    let sim = session.state();
    let round = sim.round();
    let now_ms = sim.now_ms();
    let round_ms = u64::from(sim.config().round_seconds) * 1000;
    let patterns: Vec<(u32, Pattern)> = sim
        .workload()
        .patterns()
        .iter()
        .map(|e| (e.id, e.pattern.clone()))
        .collect();
    let history = offered(session.charted_steps());
    let per_broker = traffic_lines(
        "broker",
        "msg/s in",
        sim.workload()
            .broker_history()
            .iter()
            .map(|(b, h)| (b.as_str(), h)),
    );
    let editing = use_state(|| None::<u32>);
    let kind = use_state(|| "wave".to_string());
    let target_kind = use_state(|| "all".to_string());
    let (shape_ref, target_ref, text_ref) = (use_node_ref(), use_node_ref(), use_node_ref());
    let refs = [use_node_ref(), use_node_ref(), use_node_ref()];
    let spec = SHAPES.iter().find(|s| s.0 == *kind).unwrap_or(&SHAPES[0]);

    let on_kind = {
        let kind = kind.clone();
        let refs = refs.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            let k = s.value();
            if let Some(spec) = SHAPES.iter().find(|x| x.0 == k) {
                for (r, (_, d)) in refs.iter().zip(spec.2) {
                    set_val(r, &d.to_string());
                }
            }
            kind.set(k);
        })
    };
    let on_target_kind = {
        let target_kind = target_kind.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            target_kind.set(s.value());
        })
    };
    let submit = {
        let store = store.clone();
        let editing = editing.clone();
        let (shape_ref, target_ref, text_ref, refs) = (
            shape_ref.clone(),
            target_ref.clone(),
            text_ref.clone(),
            refs.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let k = val(&shape_ref);
            let spec = SHAPES.iter().find(|s| s.0 == k).unwrap_or(&SHAPES[0]);
            let mut xs = [0.0; 3];
            for (i, r) in refs.iter().enumerate() {
                if spec.2[i].0.is_empty() {
                    continue;
                }
                match num(r) {
                    Ok(x) => xs[i] = x,
                    Err(m) => {
                        store.dispatch(Msg::Notify(crate::ui::store::Notice::Error(format!(
                            "{}: {m}",
                            spec.2[i].0
                        ))));
                        return;
                    }
                }
            }
            let target = match target_of(&val(&target_ref), &val(&text_ref)) {
                Ok(t) => t,
                Err(m) => {
                    store.dispatch(Msg::Notify(crate::ui::store::Notice::Error(m)));
                    return;
                }
            };
            let pattern = Pattern {
                target,
                shape: shape_of(&k, xs[0], xs[1], xs[2], round),
            };
            let a = match *editing {
                Some(id) => pulsar::Action::ChangeWorkload { id, pattern },
                None => pulsar::Action::AddWorkload { pattern },
            };
            editing.set(None);
            store.dispatch(Msg::AtField(FIELD, Box::new(Msg::act(a))));
        })
    };
    let cancel = {
        let editing = editing.clone();
        Callback::from(move |_: MouseEvent| editing.set(None))
    };
    let rows = patterns.iter().map(|(id, p)| {
        let id = *id;
        let remove = {
            let store = store.clone();
            Callback::from(move |_: MouseEvent| {
                store.dispatch(Msg::AtField(FIELD, Box::new(Msg::act(pulsar::Action::RemoveWorkload { id }))))
            })
        };
        let edit = {
            let editing = editing.clone();
            let (kind, target_kind) = (kind.clone(), target_kind.clone());
            let (shape_ref, target_ref, text_ref, refs) =
                (shape_ref.clone(), target_ref.clone(), text_ref.clone(), refs.clone());
            let p = p.clone();
            Callback::from(move |_: MouseEvent| {
                let (k, xs) = fields_of(&p.shape);
                let (tk, text) = target_fields(&p.target);
                set_val(&shape_ref, k);
                set_val(&target_ref, tk);
                set_val(&text_ref, &text);
                for (r, x) in refs.iter().zip(xs) {
                    set_val(r, &x.to_string());
                }
                kind.set(k.to_string());
                target_kind.set(tk.to_string());
                editing.set(Some(id));
            })
        };
        html! {
            <li key={id} data-pattern={id.to_string()} class="workload-row">
                <span class="workload-id">{ format!("#{id}") }</span>
                <span class="workload-label">{ p.label() }</span>
                { pulsar_curve(&p.shape, round, now_ms, round_ms) }
                <span class="row">
                    <button class="workload-edit" onclick={edit} aria-label={format!("Edit pattern {id}")}>{"Edit"}</button>
                    <button class="workload-remove" onclick={remove} aria-label={format!("Remove pattern {id}")}>{"Remove"}</button>
                </span>
            </li>
        }
    });
    let history_curve = (history.len() >= 2).then(|| {
        let last = history.last().copied().unwrap_or(0.0);
        // A long history is drawn as each pixel column's range (the curve is 120 wide).
        let (lo, hi) = crate::view::chart::spread(&history, 120);
        curve(
            &lo,
            &hi,
            format!(
                "offered msg/s in, {} readings (each round's, and each pattern change's), now {last:.0}",
                history.len()
            ),
        )
    });
    let needs_text = *target_kind != "all";
    let placeholder = match target_kind.as_str() {
        "namespace" => "tenant/namespace",
        "topic" => "tenant/namespace/topic",
        "matching" => "public/default/topic-*",
        "hash_range" => "public/default 0x00000000 0x40000000",
        _ => "",
    };
    html! {
        <details class="panel controls workloads" open=true data-controls="workloads">
            <summary><h2>{"Workloads"}</h2></summary>
            <p class="hint">{"Traffic patterns the engine applies every round (from the scenario's seed); they stack in order."}</p>
            if patterns.is_empty() {
                <p class="workload-empty">{"No pattern: traffic stays as set."}</p>
            } else {
                <ul class="workload-list" aria-label="Workload patterns">{ for rows }</ul>
            }
            if let Some(c) = history_curve {
                <div class="row workload-offered"><span>{"offered msg/s in"}</span>{ c }</div>
            }
            { per_broker }
            <div class="row">
                <select id="workload-shape" ref={shape_ref.clone()} onchange={on_kind} aria-label="Pattern">
                    { for SHAPES.iter().map(|s| html!{ <option value={s.0} selected={*kind == s.0}>{ s.1 }</option> }) }
                </select>
                <select id="workload-target" ref={target_ref.clone()} onchange={on_target_kind} aria-label="Target">
                    { for TARGETS.iter().map(|t| html!{ <option value={t.0} selected={*target_kind == t.0}>{ t.1 }</option> }) }
                </select>
            </div>
            <div class="row" hidden={!needs_text}>
                <input id="workload-target-text" ref={text_ref.clone()} type="text" placeholder={placeholder} aria-label="Target name" />
            </div>
            <div class="row">
                // Each number with its name beside it (a placeholder vanishes once typed over).
                { for spec.2.iter().zip(refs.iter()).enumerate().map(|(i, ((label, d), r))| html! {
                    <label class="workload-param" hidden={label.is_empty()}>
                        <span class="workload-param-name">{ label.to_string() }</span>
                        <input id={format!("workload-p{i}")} ref={r.clone()} type="number" step="any" value={d.to_string()}
                               aria-label={label.to_string()} title={label.to_string()} placeholder={label.to_string()} />
                    </label>
                }) }
            </div>
            <div class="row">
                <button id="workload-add" onclick={submit}>{ match *editing { Some(id) => format!("Save #{id}"), None => "Add pattern".to_string() } }</button>
                if editing.is_some() {
                    <button id="workload-cancel" onclick={cancel}>{"Cancel"}</button>
                }
            </div>
            <FieldError field={FIELD} />
        </details>
    }
}

/// The Kafka Streams produce-patterns panel.
#[component]
pub fn KstreamsWorkloads() -> Html {
    let store = use_context::<StoreCtx>().expect("store context");
    let session = store.session::<kstreams::Sim>();
    let sim = session.state();
    let now_ms = sim.now_ms();
    let topics: Vec<String> = sim.topics().keys().cloned().collect();
    let patterns: Vec<(u32, kstreams::workload::ProducePattern)> = sim
        .workload()
        .patterns()
        .iter()
        .map(|e| (e.id, e.pattern.clone()))
        .collect();
    let per_instance = traffic_lines(
        "instance",
        "records/s",
        sim.workload()
            .instance_history()
            .iter()
            .map(|(i, h)| (i.as_str(), h)),
    );
    let refs = [
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
        use_node_ref(),
    ];
    let [topic_ref, rate_ref, skew_ref, amp_ref, period_ref] = refs.clone();
    let editing = use_state(|| None::<u32>);
    let submit = {
        let store = store.clone();
        let editing = editing.clone();
        Callback::from(move |_: MouseEvent| {
            let parsed = (|| -> Result<kstreams::workload::ProducePattern, String> {
                let amp = num(&amp_ref)?;
                Ok(kstreams::workload::ProducePattern {
                    topic: val(&topic_ref),
                    records_per_second: num(&rate_ref)?,
                    skew: num(&skew_ref)?,
                    wave: (amp > 0.0)
                        .then(|| -> Result<_, String> {
                            Ok(kstreams::workload::Wave {
                                period_minutes: num(&period_ref)?,
                                amplitude_percent: amp,
                                phase_minutes: 0.0,
                            })
                        })
                        .transpose()?,
                })
            })();
            match parsed {
                Ok(pattern) => {
                    let a = match *editing {
                        Some(id) => kstreams::Action::ChangeWorkload { id, pattern },
                        None => kstreams::Action::AddWorkload { pattern },
                    };
                    editing.set(None);
                    store.dispatch(Msg::AtField(FIELD, Box::new(Msg::act(a))))
                }
                Err(m) => store.dispatch(Msg::Notify(crate::ui::store::Notice::Error(m))),
            }
        })
    };
    let cancel = {
        let editing = editing.clone();
        Callback::from(move |_: MouseEvent| editing.set(None))
    };
    let rows = patterns.iter().map(|(id, p)| {
        let id = *id;
        let remove = {
            let store = store.clone();
            Callback::from(move |_: MouseEvent| {
                store.dispatch(Msg::AtField(
                    FIELD,
                    Box::new(Msg::act(kstreams::Action::RemoveWorkload { id })),
                ))
            })
        };
        let edit = {
            let editing = editing.clone();
            let refs = refs.clone();
            let p = p.clone();
            Callback::from(move |_: MouseEvent| {
                set_val(&refs[0], &p.topic);
                set_val(&refs[1], &p.records_per_second.to_string());
                set_val(&refs[2], &p.skew.to_string());
                let (amp, period) = p
                    .wave
                    .as_ref()
                    .map_or((0.0, 60.0), |w| (w.amplitude_percent, w.period_minutes));
                set_val(&refs[3], &amp.to_string());
                set_val(&refs[4], &period.to_string());
                editing.set(Some(id));
            })
        };
        // The rate over the next hour, every 2.5 minutes (the engine's own curve).
        let rates = p.preview(now_ms, 150_000, AHEAD);
        html! {
            <li key={id} data-pattern={id.to_string()} class="workload-row">
                <span class="workload-id">{ format!("#{id}") }</span>
                <span class="workload-label">{ p.label() }</span>
                { curve(&rates, &rates, format!("records/s over the next hour: {:.0}..{:.0}",
                    rates.iter().copied().fold(f64::INFINITY, f64::min), rates.iter().copied().fold(0.0, f64::max))) }
                <span class="row">
                    <button class="workload-edit" onclick={edit} aria-label={format!("Edit pattern {id}")}>{"Edit"}</button>
                    <button class="workload-remove" onclick={remove} aria-label={format!("Remove pattern {id}")}>{"Remove"}</button>
                </span>
            </li>
        }
    });
    html! {
        <details class="panel controls workloads" open={!patterns.is_empty()} data-controls="workloads">
            <summary><h2>{"Produce patterns"}</h2></summary>
            <p class="hint">{"Records that keep arriving as time passes: lag, warm-ups and restores move on their own."}</p>
            if !patterns.is_empty() {
                <ul class="workload-list" aria-label="Produce patterns">{ for rows }</ul>
            }
            { per_instance }
            <div class="row">
                <select id="ks-workload-topic" ref={refs[0].clone()} aria-label="Topic" disabled={topics.is_empty()}>
                    { for topics.iter().map(|t| html!{ <option value={t.clone()}>{ t.clone() }</option> }) }
                </select>
                <input id="ks-workload-rate" ref={refs[1].clone()} type="number" min="0" value="500" aria-label="records/s" title="records/s" />
                <input id="ks-workload-skew" ref={refs[2].clone()} type="number" min="0" max="10" step="0.1" value="0" aria-label="key skew" title="key skew (Zipf s over partitions)" />
            </div>
            <div class="row">
                <input id="ks-workload-amp" ref={refs[3].clone()} type="number" min="0" max="100" value="0" aria-label="wave amplitude %" title="wave amplitude %" />
                <input id="ks-workload-period" ref={refs[4].clone()} type="number" min="1" value="60" aria-label="wave period min" title="wave period (minutes)" />
            </div>
            <div class="row">
                <button id="ks-workload-add" onclick={submit} disabled={topics.is_empty()}>{ match *editing { Some(id) => format!("Save #{id}"), None => "Add pattern".to_string() } }</button>
                if editing.is_some() {
                    <button id="ks-workload-cancel" onclick={cancel}>{"Cancel"}</button>
                }
            </div>
            <FieldError field={FIELD} />
        </details>
    }
}
