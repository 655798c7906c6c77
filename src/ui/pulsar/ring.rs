//! The 32-bit hash ring of one namespace: one arc per bundle coloured by its
//! owning broker, one tick per topic sized by its traffic, the bundle boundaries
//! (new ones animate in), and the legend broker → colour (presentational).

use super::Colors;
use crate::engine::pulsar::bundle::FULL_SPACE;
use crate::engine::pulsar::view::RingView;
use crate::ui::store::{Subject, SubjectKind};
use std::f64::consts::PI;
use std::rc::Rc;
use yew::prelude::*;

/// Okabe–Ito colour-blind-safe palette; the grey (last) is kept for "no owner".
pub const PALETTE: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
];

/// Colour of the `i`-th broker (the grey is never a broker's).
pub fn broker_color(i: usize) -> &'static str {
    PALETTE[i % (PALETTE.len() - 1)]
}

/// Ring properties.
#[derive(Properties, Clone)]
pub struct RingProps {
    /// The namespace's ring, with topics.
    pub ring: Rc<RingView>,
    /// Broker → colour.
    pub colors: Colors,
    /// The entity pointed at.
    #[prop_or_default]
    pub highlight: Option<Subject>,
    /// Pointing at an arc or a tick (None when leaving).
    #[prop_or_default]
    pub on_point: Callback<Option<Subject>>,
    /// A small, non-interactive ring (proposal before/after).
    #[prop_or_default]
    pub compact: bool,
    /// Topics aggregated per angular bin (for namespaces too large to draw one
    /// tick per topic; then `ring` carries no topic list). See [`topic_bins`].
    #[prop_or_default]
    pub bins: Option<Rc<Vec<TickBin>>>,
    /// Accessible title.
    pub title: AttrValue,
}

/// The ring and its bins are compared by pointer: the tab builds them once per
/// scenario change, so an equal pointer means the same drawing (and comparing
/// 16,384 bundles by value on every render would cost more than it saves).
impl PartialEq for RingProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.ring, &o.ring)
            && match (&self.bins, &o.bins) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
            && self.colors == o.colors
            && self.highlight == o.highlight
            && self.on_point == o.on_point
            && self.compact == o.compact
            && self.title == o.title
    }
}

/// Above this many bundles the ring is drawn on a canvas, per angular bin
/// (coloured by the owner at the bin's middle), instead of one SVG path per bundle.
pub const ARC_LIMIT: usize = 720;
/// Above this many topics, ticks are drawn per angular bin.
pub const TICK_LIMIT: usize = 1500;
/// Angular bins of the aggregated ring (half a degree each).
pub const BINS: usize = 720;

/// Topics falling into one angular bin of the ring.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickBin {
    /// How many topics.
    pub topics: u32,
    /// Their summed message rate (in + out), msg/s.
    pub rate: f64,
}

/// Bin `(hash, msg rate)` pairs into [`BINS`] angular bins (a drawing aid: one
/// tick per bin instead of one per topic).
pub fn topic_bins(topics: impl Iterator<Item = (u32, f64)>) -> Vec<TickBin> {
    let mut bins = vec![TickBin::default(); BINS];
    for (hash, rate) in topics {
        let i = (u64::from(hash) * BINS as u64 / FULL_SPACE) as usize;
        let b = &mut bins[i.min(BINS - 1)];
        b.topics += 1;
        b.rate += rate;
    }
    bins
}

const C: f64 = 160.0;
const R_OUT: f64 = 132.0;
const R_IN: f64 = 96.0;

/// Angle (radians, clockwise from 12 o'clock) of a ring position.
fn angle(pos: u64) -> f64 {
    pos as f64 / FULL_SPACE as f64 * 2.0 * PI - PI / 2.0
}

fn point(r: f64, a: f64) -> (f64, f64) {
    (C + r * a.cos(), C + r * a.sin())
}

/// SVG path of the donut segment between two ring positions.
fn arc_path(lo: u64, hi: u64) -> String {
    let (a0, a1) = (angle(lo), angle(hi));
    if hi - lo >= FULL_SPACE - 1 {
        // A full circle cannot be one arc: draw two halves.
        let mid = lo + (hi - lo) / 2;
        return format!("{} {}", arc_path(lo, mid), arc_path(mid, hi));
    }
    let large = u8::from(a1 - a0 > PI);
    let (x0, y0) = point(R_OUT, a0);
    let (x1, y1) = point(R_OUT, a1);
    let (x2, y2) = point(R_IN, a1);
    let (x3, y3) = point(R_IN, a0);
    format!(
        "M{x0:.2},{y0:.2} A{R_OUT},{R_OUT} 0 {large} 1 {x1:.2},{y1:.2} L{x2:.2},{y2:.2} A{R_IN},{R_IN} 0 {large} 0 {x3:.2},{y3:.2} Z"
    )
}

fn is(h: &Option<Subject>, kind: SubjectKind, id: &str) -> bool {
    h.as_ref().is_some_and(|s| s.kind == kind && s.id == id)
}

fn subject(kind: SubjectKind, id: &str) -> Option<Subject> {
    Some(Subject::new(kind, id))
}

/// Human rate: `1.2k msg/s`.
pub fn rate(x: f64) -> String {
    if x >= 10_000.0 {
        format!("{:.0}k msg/s", x / 1000.0)
    } else if x >= 1000.0 {
        format!("{:.1}k msg/s", x / 1000.0)
    } else {
        format!("{x:.0} msg/s")
    }
}

/// Human throughput in MiB/s.
pub fn mib(bytes: f64) -> String {
    format!("{:.1} MB/s", bytes / crate::engine::pulsar::traffic::MIB)
}

/// Hover and focus handlers that point at one subject (none on a compact ring).
struct Pointer {
    enter: Option<Callback<MouseEvent>>,
    leave: Option<Callback<MouseEvent>>,
    focus: Option<Callback<FocusEvent>>,
    blur: Option<Callback<FocusEvent>>,
}

impl Pointer {
    fn new(interactive: bool, on_point: &Callback<Option<Subject>>, kind: SubjectKind, id: &str) -> Pointer {
        if !interactive {
            return Pointer {
                enter: None,
                leave: None,
                focus: None,
                blur: None,
            };
        }
        let s = subject(kind, id);
        let (on, s2) = (on_point.clone(), s.clone());
        let enter = Callback::from(move |_: MouseEvent| on.emit(s2.clone()));
        let on = on_point.clone();
        let focus = Callback::from(move |_: FocusEvent| on.emit(s.clone()));
        Pointer {
            enter: Some(enter),
            leave: Some(on_point.reform(|_: MouseEvent| None)),
            focus: Some(focus),
            blur: Some(on_point.reform(|_: FocusEvent| None)),
        }
    }
}

/// Up to this many bundles the ring writes every boundary's hex on the picture.
const LABEL_LIMIT: usize = 8;
/// Up to this many topics (on a ring of at most [`LABEL_LIMIT`] bundles) it
/// writes each topic's name and hash inside the ring.
const TOPIC_LABEL_LIMIT: usize = 8;

/// The hash ring.
#[component]
pub fn Ring(p: &RingProps) -> Html {
    if p.ring.bundles.len() > ARC_LIMIT {
        return html! { <RingCanvas ..p.clone() /> };
    }
    let ns = &p.ring.namespace;
    let max_rate = p
        .ring
        .bundles
        .iter()
        .flat_map(|b| b.topic_list.iter())
        .map(|t| t.traffic.msg_rate())
        .fold(0.0_f64, f64::max);
    let interactive = !p.compact;
    let hl_owner = p
        .highlight
        .as_ref()
        .filter(|s| s.kind == SubjectKind::Broker)
        .map(|s| s.id.clone());

    let arcs = p.ring.bundles.iter().map(|b| {
        let id = format!("{ns}/{}", b.name);
        let hi = u64::from(b.range.upper) + u64::from(b.range.is_closed());
        let owner = b.owner.as_ref().map(|o| o.0.to_string());
        let fill = match &owner {
            Some(o) => format!("fill:{}", p.colors.color(o)),
            None => "fill:url(#unowned-hatch)".to_string(),
        };
        let label = format!(
            "bundle {id}: [0x{:08x}, 0x{:08x}{} · {} · {} topics · {} · {}{}",
            b.range.lower,
            b.range.upper,
            if b.range.is_closed() { "]" } else { ")" },
            owner.as_deref().map_or_else(|| format!("no owner ({:?})", b.state), |o| format!("owner {o}")),
            b.topics,
            rate(b.load.msg_rate()),
            mib(b.load.throughput()),
            if b.direct { " (load set directly)" } else { "" },
        );
        let class = classes!(
            "arc",
            owner.is_none().then_some("unowned"),
            is(&p.highlight, SubjectKind::Bundle, &id).then_some("highlight"),
            (owner.is_some() && owner == hl_owner).then_some("owner-highlight"),
        );
        let Pointer { enter: menter, leave: mleave, focus: enter, blur: leave } =
            Pointer::new(interactive, &p.on_point, SubjectKind::Bundle, &id);
        html! {
            <path key={id.clone()} {class} d={arc_path(u64::from(b.range.lower), hi)} style={fill}
                  data-bundle={id.clone()} data-range={b.name.clone()} data-owner={owner.clone().unwrap_or_default()}
                  data-topics={b.topics.to_string()}
                  tabindex={interactive.then_some("0")} role="img" aria-label={label.clone()}
                  onfocus={enter} onblur={leave} onmouseenter={menter} onmouseleave={mleave}>
                <title>{label}</title>
            </path>
        }
    });

    // Past the palette's seven colours two owners share one: each arc wide
    // enough to hold it then carries its owner's tag (the legend says so).
    let tags = (!p.compact && p.colors.0.len() > PALETTE.len() - 1).then(|| {
        p.ring
            .bundles
            .iter()
            .filter_map(|b| {
                let o = b.owner.as_ref()?;
                let hi = u64::from(b.range.upper) + u64::from(b.range.is_closed());
                let lo = u64::from(b.range.lower);
                // Written along the radius (the ring is 36 units thick), so an
                // arc of 4° (a 90th of the ring) has room for it.
                (hi - lo >= FULL_SPACE / 90).then(|| {
                    let a = angle(lo + (hi - lo) / 2);
                    let (x, y) = point((R_IN + R_OUT) / 2.0, a);
                    // Never upside down: the left half reads inwards.
                    let deg = a.to_degrees() + if a.cos() < 0.0 { 180.0 } else { 0.0 };
                    let tag = owner_tag(o.as_str());
                    html! { <text class="owner-tag" x={format!("{x:.1}")} y={format!("{y:.1}")} text-anchor="middle"
                                  dominant-baseline="central" transform={format!("rotate({deg:.1} {x:.1} {y:.1})")}
                                  data-owner={o.0.to_string()} aria-hidden="true">{ tag }</text> }
                })
            })
            .collect::<Html>()
    });

    // Boundaries: keyed by position, so only a split's new boundary mounts (and animates).
    let boundaries = p.ring.bundles.iter().map(|b| {
        let a = angle(u64::from(b.range.lower));
        let (x0, y0) = point(R_IN - 2.0, a);
        let (x1, y1) = point(R_OUT + 2.0, a);
        html! {
            <line key={b.range.lower} class="boundary" x1={format!("{x0:.2}")} y1={format!("{y0:.2}")}
                  x2={format!("{x1:.2}")} y2={format!("{y1:.2}")} data-boundary={format!("0x{:08x}", b.range.lower)}
                  aria-hidden="true" />
        }
    });

    let ticks = p.ring.bundles.iter().flat_map(|b| {
        let bundle = format!("{ns}/{}", b.name);
        b.topic_list.iter().map(move |t| (bundle.clone(), t))
    });
    let ticks = ticks.map(|(bundle, t)| {
        let name = t.name.0.to_string();
        let frac = if max_rate > 0.0 {
            (t.traffic.msg_rate() / max_rate).sqrt()
        } else {
            0.0
        };
        let a = angle(u64::from(t.hash));
        let (x0, y0) = point(R_IN - 6.0, a);
        let (x1, y1) = point(R_OUT + 4.0 + 18.0 * frac, a);
        let width = 1.0 + 2.2 * frac;
        let label = format!(
            "topic {name} · hash 0x{:08x} · bundle {bundle} · {} in, {}",
            t.hash,
            rate(t.traffic.msg_rate_in),
            mib(t.traffic.throughput())
        );
        let class = classes!("tick", is(&p.highlight, SubjectKind::Topic, &name).then_some("highlight"));
        let Pointer { enter, leave, focus, blur } = Pointer::new(interactive, &p.on_point, SubjectKind::Topic, &name);
        html! {
            <line key={name.clone()} {class} x1={format!("{x0:.2}")} y1={format!("{y0:.2}")} x2={format!("{x1:.2}")} y2={format!("{y1:.2}")}
                  style={format!("stroke-width:{width:.2}")}
                  data-topic={name.clone()} data-bundle={bundle.clone()} data-hash={format!("0x{:08x}", t.hash)}
                  data-rate={format!("{:.0}", t.traffic.msg_rate_in)}
                  tabindex={interactive.then_some("0")} role="img" aria-label={label.clone()}
                  onmouseenter={enter} onmouseleave={leave} onfocus={focus} onblur={blur}>
                <title>{label}</title>
            </line>
        }
    });

    // A small ring (a worked example's) writes every boundary and every topic's
    // hash on the picture; a larger one the highlighted bundle's boundaries.
    let all_labels = !p.compact && p.ring.bundles.len() <= LABEL_LIMIT;
    let marks: Vec<(u64, u32)> = if all_labels {
        p.ring
            .bundles
            .iter()
            .map(|b| (u64::from(b.range.lower), b.range.lower))
            .chain(p.ring.bundles.last().map(|b| (FULL_SPACE, b.range.upper)))
            .collect()
    } else {
        p.highlight
            .as_ref()
            .filter(|s| s.kind == SubjectKind::Bundle)
            .and_then(|s| p.ring.bundles.iter().find(|b| format!("{ns}/{}", b.name) == s.id))
            .map(|b| {
                let hi = u64::from(b.range.upper) + u64::from(b.range.is_closed());
                vec![(u64::from(b.range.lower), b.range.lower), (hi, b.range.upper)]
            })
            .unwrap_or_default()
    };
    let topic_count: usize = p.ring.bundles.iter().map(|b| b.topic_list.len()).sum();
    let hash_labels = (all_labels && topic_count <= TOPIC_LABEL_LIMIT).then(|| {
        p.ring
            .bundles
            .iter()
            .flat_map(|b| b.topic_list.iter())
            .enumerate()
            .map(|(i, t)| {
                // Alternate depths, so that neighbouring hashes stay readable.
                let (x, y) = point(R_IN - 16.0 - 22.0 * (i % 2) as f64, angle(u64::from(t.hash)));
                let short = t.name.as_str().rsplit('/').next().unwrap_or_default().to_string();
                html! { <text class="hash-label" x={format!("{x:.1}")} y={format!("{y:.1}")} text-anchor="middle">
                    { short }<tspan x={format!("{x:.1}")} dy="1.1em">{ format!("0x{:08x}", t.hash) }</tspan>
                </text> }
            })
            .collect::<Html>()
    });
    let labels = (!marks.is_empty()).then(|| {
        marks
                .into_iter()
                // The ring's start is labelled once, at the top, always.
                .filter(|(pos, _)| pos % FULL_SPACE != 0)
                .map(|(pos, v)| {
                    let (x, y) = point(R_OUT + 14.0, angle(pos));
                    let anchor = if x < C - 4.0 {
                        "end"
                    } else if x > C + 4.0 {
                        "start"
                    } else {
                        "middle"
                    };
                    html! { <text class="boundary-label" x={format!("{x:.1}")} y={format!("{:.1}", y + 3.0)} text-anchor={anchor}
                                  data-boundary-label={format!("0x{v:08x}")}>{ format!("0x{v:08x}") }</text> }
                })
                .collect::<Html>()
    });

    let binned_ticks = p.bins.as_ref().map(|bins| {
        let max = bins.iter().map(|b| b.rate).fold(0.0_f64, f64::max);
        let step = FULL_SPACE / BINS as u64;
        bins.iter()
            .enumerate()
            .filter(|(_, b)| b.topics > 0)
            .map(|(k, b)| {
                let frac = if max > 0.0 { (b.rate / max).sqrt() } else { 0.0 };
                let a = angle(k as u64 * step + step / 2);
                let (x0, y0) = point(R_IN - 6.0, a);
                let (x1, y1) = point(R_OUT + 4.0 + 18.0 * frac, a);
                let label = format!("{} topics · {}", b.topics, rate(b.rate));
                html! {
                    <line key={k} class="tick binned" x1={format!("{x0:.2}")} y1={format!("{y0:.2}")} x2={format!("{x1:.2}")} y2={format!("{y1:.2}")}
                          data-topics={b.topics.to_string()} role="img" aria-label={label.clone()}>
                        <title>{label}</title>
                    </line>
                }
            })
            .collect::<Html>()
    });

    let topics: usize = p.ring.bundles.iter().map(|b| b.topics as usize).sum();
    html! {
        <svg class={classes!("ring", p.compact.then_some("compact"))} viewBox="-52 -12 424 344" role="group" aria-label={p.title.clone()}>
            <defs>
                <pattern id="unowned-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width="6" height="6" class="hatch-bg" />
                    <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
                </pattern>
            </defs>
            <g class="arcs">{ for arcs }</g>
            <g class="boundaries">{ for boundaries }</g>
            <g class="ticks">{ for ticks }{ for binned_ticks }</g>
            <g class="labels">{ for labels }{ for hash_labels }{ for tags }</g>
            <text x="160" y="156" class="ring-label" text-anchor="middle">{ format!("{} bundles", p.ring.bundles.len()) }</text>
            <text x="160" y="176" class="ring-sub" text-anchor="middle">{ format!("{topics} topics") }</text>
            if !p.compact {
                <text x="160" y="2" class="ring-sub" text-anchor="middle">{"0x00000000"}</text>
            }
        </svg>
    }
}

/// The short tag drawn on an arc for its owner: the number a name ends with
/// (`broker-12` → `12`), else its first three characters.
pub fn owner_tag(name: &str) -> String {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        name[name.len() - digits..].to_string()
    } else {
        name.chars().take(3).collect()
    }
}

/// What the tags on the arcs mean, when colours repeat and the ring is drawn
/// arc by arc (a canvas ring of thousands of bundles carries no tags).
fn tag_note(n: usize, tagged: bool) -> Html {
    let period = PALETTE.len() - 1;
    if n <= period || !tagged {
        return Html::default();
    }
    html! {
        <li class="tag-note">{ format!("{n} brokers share {period} colours: an arc wide enough carries its owner's number (12 = broker-12)") }</li>
    }
}

/// Above this many brokers the legend lists the palette, not every broker.
pub const LEGEND_LIMIT: usize = 24;

/// Legend properties.
#[derive(Properties, Clone, PartialEq)]
pub struct LegendProps {
    /// Broker → colour, with whether each is alive.
    pub colors: Colors,
    /// The entity pointed at.
    #[prop_or_default]
    pub highlight: Option<Subject>,
    /// Whether the ring writes owners' numbers on its arcs (an SVG ring).
    #[prop_or(true)]
    pub tagged: bool,
}

/// The legend broker → colour (and the hatch of unowned bundles).
#[component]
pub fn Legend(p: &LegendProps) -> Html {
    // A large cluster: one line per palette colour (brokers take them in name
    // order), the pointed-at broker, and how many are crashed.
    if p.colors.0.len() > LEGEND_LIMIT {
        let period = PALETTE.len() - 1;
        let lit = p
            .highlight
            .as_ref()
            .filter(|s| s.kind == SubjectKind::Broker)
            .and_then(|s| p.colors.0.iter().find(|(b, _, _)| *b == s.id));
        let down = p.colors.0.iter().filter(|(_, _, alive)| !alive).count();
        return html! {
            <ul class="legend compact" aria-label="Broker colours">
                { for p.colors.0.iter().take(period).map(|(b, c, _)| html! {
                    <li><span class="swatch" style={format!("background:{c}")}></span>{ format!("{b} and every {period}th broker after it") }</li>
                }) }
                if let Some((b, c, alive)) = lit {
                    <li class="highlight" data-broker={b.clone()}><span class="swatch" style={format!("background:{c}")}></span>{ b.clone() }
                        if !alive { <span class="badge">{"crashed"}</span> }</li>
                }
                if down > 0 { <li>{ format!("{down} crashed") }</li> }
                <li><span class="swatch unowned"></span>{"no owner"}</li>
                { tag_note(p.colors.0.len(), p.tagged) }
            </ul>
        };
    }
    html! {
        <ul class="legend" aria-label="Broker colours">
            { for p.colors.0.iter().map(|(b, c, alive)| html! {
                <li data-broker={b.clone()} class={classes!((!alive).then_some("crashed"), is(&p.highlight, SubjectKind::Broker, b).then_some("highlight"))}>
                    <span class="swatch" style={format!("background:{c}")}></span>{ b.clone() }
                    if !alive { <span class="badge">{"crashed"}</span> }
                </li>
            }) }
            <li><span class="swatch unowned"></span>{"no owner"}</li>
            { tag_note(p.colors.0.len(), p.tagged) }
        </ul>
    }
}

/// One run of the aggregated ring: consecutive angular bins whose middles fall
/// in bundles of one owner.
struct Run<'a> {
    lo: u64,
    hi: u64,
    owner: Option<&'a crate::engine::pulsar::ids::BrokerId>,
}

/// Each of the [`BINS`] bins takes the owner of the bundle at its middle;
/// consecutive bins with one owner become one run.
fn owner_runs(bundles: &[crate::engine::pulsar::view::BundleView]) -> Vec<Run<'_>> {
    let step = FULL_SPACE / BINS as u64;
    let mut runs: Vec<Run> = Vec::with_capacity(BINS);
    if bundles.is_empty() {
        return runs;
    }
    for k in 0..BINS as u64 {
        let pos = k * step + step / 2;
        let i = bundles
            .partition_point(|b| u64::from(b.range.upper) <= pos)
            .min(bundles.len() - 1);
        // Broker ids compare by pointer first (a bundle's owner shares its broker's name).
        let owner = bundles[i].owner.as_ref();
        match runs.last_mut() {
            Some(r) if r.owner == owner => r.hi = (k + 1) * step,
            _ => runs.push(Run {
                lo: k * step,
                hi: (k + 1) * step,
                owner,
            }),
        }
    }
    if let Some(r) = runs.last_mut() {
        r.hi = FULL_SPACE;
    }
    runs
}

/// The drawing's size in view units (as the SVG ring's viewBox) and its origin.
const VIEW: (f64, f64) = (424.0, 344.0);
const ORIGIN: (f64, f64) = (52.0, 12.0);

/// The bundle under a view point, if the point is on the donut.
fn bundle_at(ring: &RingView, (x, y): (f64, f64)) -> Option<usize> {
    let (dx, dy) = (x - ORIGIN.0 - C, y - ORIGIN.1 - C);
    let r = dx.hypot(dy);
    if !(R_IN - 6.0..=R_OUT + 6.0).contains(&r) || ring.bundles.is_empty() {
        return None;
    }
    let turn = (dy.atan2(dx) + PI / 2.0).rem_euclid(2.0 * PI) / (2.0 * PI);
    let pos = (turn * FULL_SPACE as f64) as u64;
    Some(
        ring.bundles
            .partition_point(|b| u64::from(b.range.upper) <= pos)
            .min(ring.bundles.len() - 1),
    )
}

/// One ring segment as a closed path of its own (to stroke).
fn donut(ctx: &web_sys::CanvasRenderingContext2d, lo: u64, hi: u64) {
    ctx.begin_path();
    segment(ctx, lo, hi);
    ctx.close_path();
}

/// One ring segment added to the current path as a subpath of its own (moved
/// to first, so that no line joins it to the previous one). A fill closes it
/// by itself; a stroke needs [`donut`]'s `close_path`.
fn segment(ctx: &web_sys::CanvasRenderingContext2d, lo: u64, hi: u64) {
    let (a0, a1) = (angle(lo), angle(hi));
    let (cx, cy) = (ORIGIN.0 + C, ORIGIN.1 + C);
    let (x0, y0) = point(R_OUT, a0);
    ctx.move_to(ORIGIN.0 + x0, ORIGIN.1 + y0);
    let _ = ctx.arc(cx, cy, R_OUT, a0, a1);
    let _ = ctx.arc_with_anticlockwise(cx, cy, R_IN, a1, a0, true);
}

fn line(ctx: &web_sys::CanvasRenderingContext2d, a: f64, r0: f64, r1: f64) {
    let (x0, y0) = point(r0, a);
    let (x1, y1) = point(r1, a);
    ctx.move_to(ORIGIN.0 + x0, ORIGIN.1 + y0);
    ctx.line_to(ORIGIN.0 + x1, ORIGIN.1 + y1);
}

/// Draw a large ring: owner runs, the highlighted broker's runs and bundle, the
/// ticks (per bin, or per topic when the ring carries its topics), the labels.
fn draw(node: &NodeRef, width: Option<f64>, p: &RingProps) {
    let Some(s) = super::super::components::canvas::Surface::new(node, VIEW, width) else {
        return;
    };
    let ctx = &s.ctx;
    let hatch = s.css("--pl-hatch", "#9a9a94");
    let lit = s.css("--pl-highlight", "#1d1d1f");
    let tick = s.css("--tick", "#1d1d1f");
    let fg = s.css("--fg", "#1d1d1f");
    let muted = s.css("--muted", "#5f6368");
    let bundles = &p.ring.bundles;
    let hl = |kind: SubjectKind| {
        p.highlight
            .as_ref()
            .filter(|h| h.kind == kind)
            .map(|h| h.id.as_str())
    };
    let runs = owner_runs(bundles);
    // One path and one fill per colour (the segments never overlap), in the
    // order the colours first appear: a few calls out of the wasm, not one per run.
    // Neighbouring runs of one colour (two owners sharing a palette colour)
    // are one segment.
    // Colours are told apart by address: each is a palette entry or the hatch.
    let mut by_color: Vec<(&str, Vec<(u64, u64)>)> = Vec::new();
    for r in &runs {
        let color = r.owner.map_or(hatch.as_str(), |o| p.colors.color(o.as_str()));
        match by_color.iter_mut().find(|(c, _)| std::ptr::eq(*c, color)) {
            Some((_, rs)) => match rs.last_mut() {
                Some(last) if last.1 == r.lo => last.1 = r.hi,
                _ => rs.push((r.lo, r.hi)),
            },
            None => by_color.push((color, vec![(r.lo, r.hi)])),
        }
    }
    for (color, rs) in &by_color {
        ctx.begin_path();
        for &(lo, hi) in rs {
            segment(ctx, lo, hi);
        }
        ctx.set_fill_style_str(color);
        ctx.fill();
    }
    if let Some(b) = hl(SubjectKind::Broker) {
        ctx.set_stroke_style_str(&lit);
        ctx.set_line_width(2.0);
        for r in runs.iter().filter(|r| r.owner.is_some_and(|o| o.as_str() == b)) {
            donut(ctx, r.lo, r.hi);
            ctx.stroke();
        }
    }
    // Ticks: per bin when the tab binned the topics, else one per topic.
    ctx.set_stroke_style_str(&tick);
    ctx.set_global_alpha(0.55);
    ctx.set_line_width(0.8);
    ctx.begin_path();
    if let Some(bins) = &p.bins {
        let max = bins.iter().map(|b| b.rate).fold(0.0_f64, f64::max);
        let step = FULL_SPACE / BINS as u64;
        for (k, b) in bins.iter().enumerate().filter(|(_, b)| b.topics > 0) {
            let frac = if max > 0.0 { (b.rate / max).sqrt() } else { 0.0 };
            line(
                ctx,
                angle(k as u64 * step + step / 2),
                R_IN - 6.0,
                R_OUT + 4.0 + 18.0 * frac,
            );
        }
    } else {
        let topics = bundles.iter().flat_map(|b| b.topic_list.iter());
        let max = topics
            .clone()
            .map(|t| t.traffic.msg_rate())
            .fold(0.0_f64, f64::max);
        for t in topics {
            let frac = if max > 0.0 {
                (t.traffic.msg_rate() / max).sqrt()
            } else {
                0.0
            };
            line(
                ctx,
                angle(u64::from(t.hash)),
                R_IN - 6.0,
                R_OUT + 4.0 + 18.0 * frac,
            );
        }
    }
    ctx.stroke();
    ctx.set_global_alpha(1.0);
    // The pointed-at bundle: outlined, with its boundaries in hex.
    let ns = &p.ring.namespace;
    let pointed =
        hl(SubjectKind::Bundle).and_then(|id| bundles.iter().find(|b| format!("{ns}/{}", b.name) == id));
    ctx.set_font("9px ui-monospace, monospace");
    if let Some(b) = pointed {
        let hi = u64::from(b.range.upper) + u64::from(b.range.is_closed());
        donut(ctx, u64::from(b.range.lower), hi);
        ctx.set_stroke_style_str(&lit);
        ctx.set_line_width(2.5);
        ctx.stroke();
        ctx.set_fill_style_str(&fg);
        for (pos, v) in [(u64::from(b.range.lower), b.range.lower), (hi, b.range.upper)] {
            let (x, y) = point(R_OUT + 14.0, angle(pos));
            ctx.set_text_align(if x < C - 4.0 {
                "right"
            } else if x > C + 4.0 {
                "left"
            } else {
                "center"
            });
            let _ = ctx.fill_text(&format!("0x{v:08x}"), ORIGIN.0 + x, ORIGIN.1 + y + 3.0);
        }
    }
    let topics: u64 = bundles.iter().map(|b| u64::from(b.topics)).sum();
    ctx.set_text_align("center");
    ctx.set_fill_style_str(&fg);
    ctx.set_font("600 15px system-ui, sans-serif");
    let _ = ctx.fill_text(
        &format!("{} bundles", bundles.len()),
        ORIGIN.0 + 160.0,
        ORIGIN.1 + 156.0,
    );
    ctx.set_fill_style_str(&muted);
    ctx.set_font("12px system-ui, sans-serif");
    let _ = ctx.fill_text(&format!("{topics} topics"), ORIGIN.0 + 160.0, ORIGIN.1 + 176.0);
    if !p.compact {
        let _ = ctx.fill_text("0x00000000", ORIGIN.0 + 160.0, ORIGIN.1 + 2.0);
    }
}

/// A ring too large for one SVG element per bundle, drawn on a canvas. Pointing
/// at it highlights the bundle under the pointer (as hovering an SVG arc does).
#[component]
fn RingCanvas(p: &RingProps) -> Html {
    let node = use_node_ref();
    let width = super::super::components::canvas::use_css_width(&node);
    {
        let node = node.clone();
        use_effect_with((p.clone(), width), move |(p, width)| draw(&node, *width, p));
    }
    let interactive = !p.compact;
    let onmousemove = interactive.then(|| {
        let (ring, on, current) = (p.ring.clone(), p.on_point.clone(), p.highlight.clone());
        Callback::from(move |e: MouseEvent| {
            let pointed = super::super::components::canvas::view_point(&e, VIEW.0)
                .and_then(|pt| bundle_at(&ring, pt))
                .and_then(|i| {
                    subject(
                        SubjectKind::Bundle,
                        &format!("{}/{}", ring.namespace, ring.bundles[i].name),
                    )
                });
            if pointed != current {
                on.emit(pointed);
            }
        })
    });
    let onmouseleave = interactive.then(|| p.on_point.reform(|_: MouseEvent| None));
    let topics: u64 = p.ring.bundles.iter().map(|b| u64::from(b.topics)).sum();
    let label = format!(
        "{}: {} bundles and {topics} topics, drawn per half degree (each arc takes the owner of the bundle at its middle); point at the ring to see a bundle",
        p.title,
        p.ring.bundles.len()
    );
    html! {
        <canvas ref={node} class={classes!("ring", "ring-canvas", p.compact.then_some("compact"))} role="img"
                aria-label={label} data-bundles={p.ring.bundles.len().to_string()} data-topics={topics.to_string()}
                {onmousemove} {onmouseleave}></canvas>
    }
}
