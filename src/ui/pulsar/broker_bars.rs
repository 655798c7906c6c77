//! One block per broker: CPU, bandwidth and memory usage and the weighted load
//! the strategies compare, against the overload line and the cluster average
//! (presentational; every number is the engine's `BrokerView`).

use super::ring::{mib, rate};
use super::Colors;
use crate::engine::pulsar::shed::inputs::ShedInputs;
use crate::engine::pulsar::view::BrokerView;
use crate::sort::StableSort;
use crate::ui::store::{Subject, SubjectKind};
use std::rc::Rc;
use yew::prelude::*;

/// Broker bars properties.
#[derive(Properties, Clone)]
pub struct BrokerBarsProps {
    /// Every broker.
    pub brokers: Rc<Vec<BrokerView>>,
    /// What the configured shedder compares (the engine's numbers).
    pub inputs: Rc<ShedInputs>,
    /// Broker → colour.
    pub colors: Colors,
    /// The entity pointed at.
    #[prop_or_default]
    pub highlight: Option<Subject>,
    /// Pointing at a broker (None when leaving).
    #[prop_or_default]
    pub on_point: Callback<Option<Subject>>,
}

/// The brokers are compared by pointer (the tab builds them once per scenario change).
impl PartialEq for BrokerBarsProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.brokers, &o.brokers)
            && Rc::ptr_eq(&self.inputs, &o.inputs)
            && self.colors == o.colors
            && self.highlight == o.highlight
            && self.on_point == o.on_point
    }
}

/// Strip size in view units.
const STRIP: (f64, f64) = (300.0, 62.0);

/// Set the fill colour and alpha of `ctx`, skipping what `pen` says it has.
fn set_pen<'a>(
    ctx: &web_sys::CanvasRenderingContext2d,
    pen: &mut (&'a str, f64),
    color: &'a str,
    alpha: f64,
) {
    if pen.1 != alpha {
        ctx.set_global_alpha(alpha);
        pen.1 = alpha;
    }
    // By address: the colours are palette entries and the page's few CSS colours.
    if !std::ptr::eq(pen.0, color) {
        ctx.set_fill_style_str(color);
        pen.0 = color;
    }
}

/// Draw the load strip: one bar per broker in name order, the overload line and
/// the cluster average (dashed).
fn draw_strip(node: &NodeRef, width: Option<f64>, brokers: &[BrokerView], lit: Option<&str>) {
    let Some(s) = crate::ui::components::canvas::Surface::new(node, STRIP, width) else {
        return;
    };
    let ctx = &s.ctx;
    let (accent, muted, fg, hot) = (
        s.css("--accent", "#0072B2"),
        s.css("--muted", "#5f6368"),
        s.css("--fg", "#1d1d1f"),
        "#D55E00",
    );
    let first = brokers.iter().find(|b| b.alive);
    let (overload, avg) = first.map_or((85.0, 0.0), |b| (b.overload_line, b.cluster_avg));
    let w = STRIP.0 / brokers.len().max(1) as f64;
    let y = |v: f64| 60.0 - v.clamp(0.0, 100.0) / 100.0 * 60.0;
    // The context's colour and alpha are set only when they change (1,000 bars
    // mostly share them; each setting is a call out of the wasm with a string).
    let mut pen: (&str, f64) = ("", f64::NAN);
    for (i, b) in brokers.iter().enumerate() {
        let h = b.load.clamp(0.0, 100.0) / 100.0 * 60.0;
        let color = if !b.alive {
            muted.as_str()
        } else if b.load > b.overload_line {
            hot
        } else {
            accent.as_str()
        };
        set_pen(ctx, &mut pen, color, if b.alive { 1.0 } else { 0.4 });
        ctx.fill_rect(i as f64 * w, 60.0 - h, w.max(0.3), h);
        if lit == Some(b.id.as_str()) {
            set_pen(ctx, &mut pen, &fg, 1.0);
            ctx.fill_rect(i as f64 * w, 0.0, w.max(0.6), 60.0);
        }
    }
    ctx.set_global_alpha(1.0);
    ctx.set_line_width(0.8);
    ctx.set_stroke_style_str(hot);
    ctx.begin_path();
    ctx.move_to(0.0, y(overload));
    ctx.line_to(STRIP.0, y(overload));
    ctx.stroke();
    ctx.set_stroke_style_str(&fg);
    let dash = js_sys::Array::of2(&3.0.into(), &2.0.into());
    let _ = ctx.set_line_dash(&dash);
    ctx.begin_path();
    ctx.move_to(0.0, y(avg));
    ctx.line_to(STRIP.0, y(avg));
    ctx.stroke();
    let _ = ctx.set_line_dash(&js_sys::Array::new());
}

/// Above this many brokers the bars become a strip plus the busiest brokers' cards.
pub const CARD_LIMIT: usize = 12;
/// Cards shown for a large cluster.
pub const CARDS_WHEN_MANY: usize = 6;

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn bar(kind: &'static str, label: &'static str, value: f64) -> Html {
    bar_with(kind, label, value, format!("{value:.1} %"))
}

fn bar_with(kind: &'static str, label: &str, value: f64, text: String) -> Html {
    // The fill is scaled, not sized: a new value (and its transition) then
    // never lays the page out again.
    let shown = value.clamp(0.0, 100.0);
    html! {
        <div class={classes!("bar", kind)} role="meter" aria-label={label.to_string()} aria-valuemin="0" aria-valuemax="100"
             aria-valuenow={format!("{value:.1}")} aria-valuetext={format!("{label} {text}")}>
            <span class="bar-name">{label.to_string()}</span>
            <span class="track"><span class="fill" style={format!("transform:scaleX({:.4})", shown / 100.0)}></span></span>
            <span class="bar-value">{ text }</span>
        </div>
    }
}

/// The legend of what the shedder compares: its measure, lines and band.
fn shed_key(i: &ShedInputs) -> Html {
    html! {
        <>
            <span class="key-head">{ format!("{:?} decides on", i.strategy) }</span>
            if i.bar.is_some() {
                <span class="key shed-value"></span>{ i.measure.clone() }
            } else {
                <span class="key load-value"></span>{ format!("load ({})", i.measure) }
            }
            { for i.lines.iter().map(|l| html! {
                <><span class={classes!("key", if l.trigger { "trigger" } else { "avg" })}></span>{ l.label.clone() }</>
            }) }
            if let Some(b) = &i.band {
                <span class="key band"></span>{ b.label.clone() }
            }
        </>
    }
}

/// The broker bars.
#[component]
pub fn BrokerBars(p: &BrokerBarsProps) -> Html {
    let strip_ref = use_node_ref();
    let width = crate::ui::components::canvas::use_css_width(&strip_ref);
    {
        let node = strip_ref.clone();
        let lit = p
            .highlight
            .as_ref()
            .filter(|s| s.kind == SubjectKind::Broker)
            .map(|s| s.id.clone());
        use_effect_with(
            (crate::ui::components::canvas::Same(p.brokers.clone()), lit, width),
            move |(brokers, lit, width)| {
                if brokers.0.len() > CARD_LIMIT {
                    draw_strip(&node, *width, &brokers.0, lit.as_deref());
                }
            },
        );
    }
    let first = p.brokers.iter().find(|b| b.alive);
    let (overload, avg) = first.map_or((85.0, 0.0), |b| (b.overload_line, b.cluster_avg));
    let inputs = p.inputs.clone();
    let shed_name = inputs.bar.clone();
    // Large clusters: a strip with one bar per broker, and cards for the busiest
    // (and any highlighted or crashed) brokers only.
    let many = p.brokers.len() > CARD_LIMIT;
    let mut shown: Vec<&BrokerView> = p.brokers.iter().collect();
    if many {
        let lit = |b: &BrokerView| {
            p.highlight
                .as_ref()
                .is_some_and(|s| s.kind == SubjectKind::Broker && *s.id == *b.id.0)
        };
        shown.stable_sort_by(|a, b| {
            lit(b)
                .cmp(&lit(a))
                .then(b.load.partial_cmp(&a.load).unwrap_or(std::cmp::Ordering::Equal))
                .then_with(|| a.id.cmp(&b.id))
        });
        shown.truncate(CARDS_WHEN_MANY);
    }
    let strip = many.then(|| {
        let (brokers, on) = (p.brokers.clone(), p.on_point.clone());
        let current = p.highlight.clone();
        let onmousemove = Callback::from(move |e: MouseEvent| {
            let pointed = crate::ui::components::canvas::view_point(&e, STRIP.0)
                .map(|(x, _)| (x / STRIP.0 * brokers.len() as f64) as usize)
                .and_then(|i| brokers.get(i))
                .map(|b| Subject {
                    kind: SubjectKind::Broker,
                    id: b.id.0.to_string(),
                });
            if pointed != current {
                on.emit(pointed);
            }
        });
        let onmouseleave = p.on_point.reform(|_: MouseEvent| None);
        html! {
            <canvas ref={strip_ref.clone()} class="broker-strip" role="img" {onmousemove} {onmouseleave}
                    aria-label={format!("load of all {} brokers, in name order, against the overload line ({overload:.0} %) and the cluster average ({avg:.1} %); point at a bar to pick its broker", p.brokers.len())}></canvas>
        }
    });
    let rows = shown.into_iter().map(|b| {
        let id = b.id.0.to_string();
        let color = p.colors.color(&id);
        let lit = p
            .highlight
            .as_ref()
            .is_some_and(|s| s.kind == SubjectKind::Broker && s.id == id);
        let class = classes!(
            "broker",
            (!b.alive).then_some("crashed"),
            lit.then_some("highlight"),
            (b.alive && b.load > b.overload_line).then_some("overloaded")
        );
        let enter = {
            let on = p.on_point.clone();
            let s = Subject {
                kind: SubjectKind::Broker,
                id: id.clone(),
            };
            Callback::from(move |_: MouseEvent| on.emit(Some(s.clone())))
        };
        let leave = {
            let on = p.on_point.clone();
            Callback::from(move |_: MouseEvent| on.emit(None))
        };
        let input = inputs.broker(&id);
        let summary = if b.alive {
            format!(
                "{id}{}: load {:.1} %, {} bundles, {} topics, {}, {}",
                if b.leader { " (leader)" } else { "" },
                b.load,
                b.bundles,
                b.topics,
                rate(b.msg_rate),
                mib(b.throughput)
            )
        } else {
            format!("{id}: crashed")
        };
        html! {
            <li key={id.clone()} {class} data-broker={id.clone()} data-load={format!("{:.1}", b.load)}
                data-bundles={b.bundles.to_string()} data-alive={b.alive.to_string()}
                tabindex="0" aria-label={summary.clone()} title={summary} onmouseenter={enter} onmouseleave={leave}>
                <div class="broker-head">
                    <span class="swatch" style={format!("background:{color}")}></span>
                    <strong>{ id.clone() }</strong>
                    if b.leader { <span class="badge leader">{"leader"}</span> }
                    if !b.alive { <span class="badge down">{"crashed"}</span> }
                    if b.alive && b.load > b.overload_line { <span class="badge hot">{"overloaded"}</span> }
                    // The shedder's value is an old report the next Step replaces.
                    if let Some((badge, why)) = b.report.as_ref().filter(|_| b.alive).and_then(|r| {
                        crate::view::pulsar_report::report_due_badge(r).map(|t| (t, crate::view::pulsar_report::report_line(r).0))
                    }) {
                        <span class="badge due" data-report-due="true" title={why}>{ badge }</span>
                    }
                    <span class="broker-meta">{ format!("{} · {} · {}", plural(b.bundles, "bundle"), plural(b.topics as usize, "topic"), rate(b.msg_rate)) }</span>
                </div>
                <div class="bars">
                    if let (Some(name), Some(v), true) = (shed_name.as_deref(), input.and_then(|i| i.value), b.alive) {
                        { bar_with("shed", name, v, input.map(|i| i.shown.text()).unwrap_or_default()) }
                    }
                    { bar("load", "load", b.load) }
                    { bar("cpu", "CPU", f64::from(b.cpu)) }
                    { bar("nic", "bandwidth", f64::from(b.bandwidth_in.max(b.bandwidth_out))) }
                    { bar("mem", "memory", f64::from(b.memory.max(b.direct_memory))) }
                    if b.alive {
                        if let Some(band) = &inputs.band {
                            <span class="band" title={band.label.clone()}
                                  style={format!("--lo:{:.2};--hi:{:.2}", band.low.clamp(0.0, 100.0), band.high.clamp(0.0, 100.0))}></span>
                        }
                        { for inputs.lines.iter().map(|l| html! {
                            <span class={classes!("line", if l.trigger { "trigger" } else { "avg" })}
                                  style={format!("--at:{:.2}", l.at.clamp(0.0, 100.0))} title={l.label.clone()}></span>
                        }) }
                    }
                    <span class="line overload" style={format!("--at:{:.2}", overload.clamp(0.0, 100.0))} title={format!("overload line {overload:.0} %")}></span>
                </div>
                // Said only when the shedder will keep seeing something other
                // than the bars (no report yet, or a change under the threshold).
                if let Some((short, long)) = b.report.as_ref().and_then(|r| {
                    crate::view::pulsar_report::report_short(r).map(|s| (s, crate::view::pulsar_report::report_line(r).0))
                }) {
                    <p class="report behind" data-report-behind="true" title={long}>{ short }</p>
                }
                if let (Some(h), true) = (input.and_then(|i| i.hits), b.alive) {
                    <p class="hits" data-high-hits={h.high.to_string()} data-low-hits={h.low.to_string()}>
                        { format!("hit counters: high {} of {}, low {} of {}", h.high, h.high_needed, h.low, h.low_needed) }
                    </p>
                }
            </li>
        }
    });
    html! {
        <section class="broker-bars" aria-label="Broker usage">
            <h3>{"Brokers"}</h3>
            <p class="bars-key" data-strategy={format!("{:?}", inputs.strategy)}>
                { shed_key(&inputs) }
                <span class="key overload"></span>{ format!("overload line {overload:.0} %") }
            </p>
            <p class="shed-summary">{ inputs.summary.clone() }</p>
            { for strip }
            if many {
                <p class="bars-key">{ format!("{} brokers: the strip shows every broker's load; the cards show the {CARDS_WHEN_MANY} busiest (a highlighted broker first).", p.brokers.len()) }</p>
            }
            <ul>{ for rows }</ul>
        </section>
    }
}
