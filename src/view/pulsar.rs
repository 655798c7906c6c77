//! Pulsar's pictures: a namespace's hash ring and the broker bars.

use super::svg::{color, esc, n, theme, Svg, GREY};
use super::{count, Caption, Drawable, Options, ViewError, ViewKind};
use crate::engine::pulsar::bundle::FULL_SPACE;
use crate::engine::pulsar::view::{BrokerView, RingView};
use crate::engine::pulsar::Sim;
use crate::engine::schema;
use crate::engine::Engine;
use std::f64::consts::PI;
use std::fmt::Write as _;

/// Above this many bundles, consecutive bundles of one owner are drawn as one arc.
pub const ARC_LIMIT: usize = 2048;
/// Above this many topics, ticks are drawn per angular bin.
pub const TICK_LIMIT: usize = 1500;
/// Angular bins of the aggregated ticks (half a degree each).
const BINS: usize = 720;
/// Bundles listed beside the ring (a larger ring lists none).
const LIST_LIMIT: usize = 16;
/// Brokers drawn as labelled rows (a larger cluster gets thin unlabelled bars).
const ROW_LIMIT: usize = 48;

/// `1.2k msg/s`.
pub fn rate(x: f64) -> String {
    if x >= 10_000.0 {
        format!("{:.0}k msg/s", x / 1000.0)
    } else if x >= 1000.0 {
        format!("{:.1}k msg/s", x / 1000.0)
    } else {
        format!("{x:.0} msg/s")
    }
}

/// Broker → colour: by position in natural name order (broker-2 before
/// broker-10), as the playground colours them.
struct Colors(Vec<String>);

impl Colors {
    fn of(sim: &Sim) -> Colors {
        let mut v: Vec<String> = sim.brokers().keys().map(|b| b.0.to_string()).collect();
        crate::sort::sort_natural_by(&mut v, String::as_str);
        Colors(v)
    }
    fn color(&self, broker: &str) -> &'static str {
        self.0
            .binary_search_by(|b| crate::sort::natural_cmp(b, broker))
            .map_or(GREY, |i| color(i).0)
    }
}

const R_OUT: f64 = 150.0;
const R_IN: f64 = 110.0;

fn angle(pos: u64) -> f64 {
    pos as f64 / FULL_SPACE as f64 * 2.0 * PI - PI / 2.0
}

fn arc_path(cx: f64, cy: f64, lo: u64, hi: u64) -> String {
    if hi - lo >= FULL_SPACE - 1 {
        let mid = lo + (hi - lo) / 2;
        return format!("{} {}", arc_path(cx, cy, lo, mid), arc_path(cx, cy, mid, hi));
    }
    let (a0, a1) = (angle(lo), angle(hi));
    let large = u8::from(a1 - a0 > PI);
    let p = |r: f64, a: f64| format!("{},{}", n(cx + r * a.cos()), n(cy + r * a.sin()));
    format!(
        "M{} A{R_OUT},{R_OUT} 0 {large} 1 {} L{} A{R_IN},{R_IN} 0 {large} 0 {} Z",
        p(R_OUT, a0),
        p(R_OUT, a1),
        p(R_IN, a1),
        p(R_IN, a0)
    )
}

fn upper(b: &crate::engine::pulsar::view::BundleView) -> u64 {
    u64::from(b.range.upper) + u64::from(b.range.is_closed())
}

fn ring(sim: &Sim, o: &Options, mut caption: Caption) -> Result<String, ViewError> {
    let ns = ring_namespace(sim, o)?;
    let topic_count = sim.namespaces().get(&ns).map_or(0, |n| n.topics.len());
    let with_topics = topic_count <= TICK_LIMIT;
    let view = sim.ring_view(&ns, with_topics).unwrap_or(RingView {
        namespace: ns.clone(),
        bundles: Vec::new(),
    });
    caption.title = if ns.is_empty() {
        "Apache Pulsar · hash ring (no namespace yet)".into()
    } else {
        format!("Apache Pulsar · hash ring of {ns}")
    };
    let colors = Colors::of(sim);
    let mut svg = Svg::new(780.0, 480.0, &caption.title);
    svg.root_attr("data-view", "ring");
    svg.root_attr("data-system", "pulsar");
    svg.root_attr("data-namespace", &ns);
    svg.root_attr("data-bundles", &view.bundles.len().to_string());
    svg.root_attr("data-topics", &topic_count.to_string());
    let top = svg.caption(&caption);
    let c = (200.0, top + 30.0 + R_OUT);
    arcs(&mut svg, &view, &colors, c);
    boundaries(&mut svg, &view, c);
    ticks(&mut svg, sim, &view, &ns, c);
    let (cx, cy) = c;
    svg.text(
        cx,
        cy - 4.0,
        18.0,
        "middle",
        "700",
        theme::FG,
        &count(view.bundles.len(), "bundle", "bundles"),
    );
    svg.text(
        cx,
        cy + 16.0,
        12.0,
        "middle",
        "400",
        theme::MUTED,
        &count(topic_count, "topic", "topics"),
    );
    // Beside the ring's top, clear of a topic tick at hash 0.
    svg.text(
        cx + 6.0,
        top + 14.0,
        10.0,
        "start",
        "400",
        theme::MUTED,
        "0x00000000",
    );
    let y = ring_legend(&mut svg, sim, &view, &colors, top);
    svg.fit_height((cy + R_OUT + 40.0).max(y + 20.0));
    Ok(svg.finish())
}

/// The namespace the ring shows: the one asked for, else the first.
fn ring_namespace(sim: &Sim, o: &Options) -> Result<String, ViewError> {
    let names: Vec<&String> = sim.namespaces().keys().collect();
    Ok(match &o.namespace {
        Some(w) if sim.namespaces().contains_key(w) => w.clone(),
        Some(w) => {
            return Err(ViewError::UnknownNamespace {
                wanted: w.clone(),
                known: if names.is_empty() {
                    "none".into()
                } else {
                    names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                },
            })
        }
        None => names.first().map(|s| s.to_string()).unwrap_or_default(),
    })
}

/// Arcs round the centre `(cx, cy)`: one per bundle, or per run of one owner
/// on a very large ring.
fn arcs(svg: &mut Svg, view: &RingView, colors: &Colors, (cx, cy): (f64, f64)) {
    svg.raw("<g class=\"arcs\">");
    let fill = |owner: &Option<String>| match owner {
        Some(o) => colors.color(o).to_string(),
        None => "url(#unowned-hatch)".to_string(),
    };
    if view.bundles.len() <= ARC_LIMIT {
        for b in &view.bundles {
            let owner = b.owner.as_ref().map(|o| o.0.to_string());
            let label = format!(
                "bundle {}: {} · {} topics · {}",
                b.name,
                owner
                    .as_deref()
                    .map_or("no owner".to_string(), |o| format!("owner {o}")),
                b.topics,
                rate(b.load.msg_rate())
            );
            let _ = write!(
                svg_body(svg),
                "<path class=\"arc\" d=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.6\" data-bundle=\"{}\" data-owner=\"{}\" data-topics=\"{}\" data-msg-rate=\"{}\"><title>{}</title></path>",
                arc_path(cx, cy, u64::from(b.range.lower), upper(b)),
                fill(&owner),
                theme::BG,
                esc(&b.name),
                esc(owner.as_deref().unwrap_or("")),
                b.topics,
                n(b.load.msg_rate()),
                esc(&label)
            );
        }
    } else {
        let mut i = 0;
        while i < view.bundles.len() {
            let owner = view.bundles[i].owner.clone();
            let mut j = i;
            while j + 1 < view.bundles.len() && view.bundles[j + 1].owner == owner {
                j += 1;
            }
            let owner = owner.map(|o| o.0.to_string());
            let _ =
                write!(
                svg_body(svg),
                "<path class=\"arc run\" d=\"{}\" fill=\"{}\" data-owner=\"{}\" data-run-bundles=\"{}\"/>",
                arc_path(cx, cy, u64::from(view.bundles[i].range.lower), upper(&view.bundles[j])),
                fill(&owner),
                esc(owner.as_deref().unwrap_or("")),
                j - i + 1
            );
            i = j + 1;
        }
    }
    svg.raw("</g>");
}

/// A line at each bundle's lower boundary (on a ring small enough to draw them).
fn boundaries(svg: &mut Svg, view: &RingView, (cx, cy): (f64, f64)) {
    if view.bundles.len() <= ARC_LIMIT {
        svg.raw("<g class=\"boundaries\">");
        for b in &view.bundles {
            let a = angle(u64::from(b.range.lower));
            svg.line(
                cx + (R_IN - 3.0) * a.cos(),
                cy + (R_IN - 3.0) * a.sin(),
                cx + (R_OUT + 3.0) * a.cos(),
                cy + (R_OUT + 3.0) * a.sin(),
                theme::FG,
                0.8,
                "",
            );
        }
        svg.raw("</g>");
    }
}

/// Topic ticks, sized by traffic: one per topic, or per bin of the ring when
/// the namespace has too many topics.
fn ticks(svg: &mut Svg, sim: &Sim, view: &RingView, ns: &str, (cx, cy): (f64, f64)) {
    let with_topics = sim.namespaces().get(ns).map_or(0, |n| n.topics.len()) <= TICK_LIMIT;
    svg.raw("<g class=\"ticks\">");
    let tick = |svg: &mut Svg, pos: u64, frac: f64, extra: &str| {
        let a = angle(pos);
        svg.line(
            cx + (R_IN - 8.0) * a.cos(),
            cy + (R_IN - 8.0) * a.sin(),
            cx + (R_OUT + 5.0 + 22.0 * frac) * a.cos(),
            cy + (R_OUT + 5.0 + 22.0 * frac) * a.sin(),
            theme::FG,
            1.0 + 2.2 * frac,
            extra,
        );
    };
    if with_topics {
        let topics: Vec<_> = view.bundles.iter().flat_map(|b| b.topic_list.iter()).collect();
        let max = topics
            .iter()
            .map(|t| t.traffic.msg_rate())
            .fold(0.0_f64, f64::max);
        for t in topics {
            let frac = if max > 0.0 {
                (t.traffic.msg_rate() / max).sqrt()
            } else {
                0.0
            };
            let extra = format!(
                " class=\"tick\" data-topic=\"{}\" data-hash=\"0x{:08x}\" data-msg-rate=\"{}\"",
                esc(&t.name.0),
                t.hash,
                n(t.traffic.msg_rate())
            );
            tick(svg, u64::from(t.hash), frac, &extra);
        }
    } else if let Some(nsd) = sim.namespaces().get(ns) {
        let mut bins = vec![(0u32, 0.0f64); BINS];
        for t in nsd.topics.values() {
            let i = ((u64::from(t.hash) * BINS as u64 / FULL_SPACE) as usize).min(BINS - 1);
            bins[i].0 += 1;
            bins[i].1 += nsd.traffic(t).msg_rate();
        }
        let max = bins.iter().map(|b| b.1).fold(0.0_f64, f64::max);
        let step = FULL_SPACE / BINS as u64;
        for (k, (c, r)) in bins.iter().enumerate().filter(|(_, b)| b.0 > 0) {
            let frac = if max > 0.0 { (r / max).sqrt() } else { 0.0 };
            let extra = format!(
                " class=\"tick binned\" data-topics=\"{c}\" data-msg-rate=\"{}\"",
                n(*r)
            );
            tick(svg, k as u64 * step + step / 2, frac, &extra);
        }
    }
    svg.raw("</g>");
}

/// Legend from `top` at the ring's right: brokers (every one up to 24, else the
/// palette's first brokers), no owner, and each bundle on a small ring; the
/// `y` of its last line.
fn ring_legend(svg: &mut Svg, sim: &Sim, view: &RingView, colors: &Colors, top: f64) -> f64 {
    let mut brokers: Vec<(&str, bool)> = sim
        .brokers()
        .iter()
        .map(|(id, b)| (id.as_str(), b.alive))
        .collect();
    crate::sort::sort_natural_by(&mut brokers, |b| b.0);
    let mut entries: Vec<(String, String)> = brokers
        .iter()
        .take(24)
        .map(|(b, alive)| {
            let owned = view
                .bundles
                .iter()
                .filter(|x| x.owner.as_ref().is_some_and(|o| o.as_str() == *b))
                .count();
            let state = if *alive { "" } else { " (crashed)" };
            (
                colors.color(b).to_string(),
                format!("{b}{state} · {}", count(owned, "bundle", "bundles")),
            )
        })
        .collect();
    if brokers.len() > 24 {
        entries.push((GREY.into(), format!("… {} more brokers", brokers.len() - 24)));
    }
    entries.push(("hatch".into(), "no owner".into()));
    let lx = 420.0;
    svg.text(lx, top + 20.0, 12.0, "start", "700", theme::FG, "Owner");
    let mut y = svg.legend(lx, top + 30.0, &entries, 14);
    if view.bundles.len() <= LIST_LIMIT && !view.bundles.is_empty() {
        y += 14.0;
        svg.text(lx, y, 12.0, "start", "700", theme::FG, "Bundles");
        for b in &view.bundles {
            y += 16.0;
            let owner = b.owner.as_ref().map_or("no owner", |o| o.as_str());
            let line = format!(
                "{} · {owner} · {} topics · {}",
                b.name,
                b.topics,
                rate(b.load.msg_rate())
            );
            svg.text(lx, y, 10.0, "start", "400", theme::FG, &line);
        }
    }
    y
}

/// The body of `svg`, to write to (a formatter target).
fn svg_body(svg: &mut Svg) -> SvgWriter<'_> {
    SvgWriter(svg)
}

struct SvgWriter<'a>(&'a mut Svg);

impl std::fmt::Write for SvgWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.raw(s);
        Ok(())
    }
}

fn brokers(sim: &Sim, mut caption: Caption) -> String {
    let views: Vec<BrokerView> = sim.broker_views();
    caption.title = "Apache Pulsar · broker load".into();
    let colors = Colors::of(sim);
    let rows = views.len() <= ROW_LIMIT;
    let row_h = if rows {
        40.0
    } else {
        (600.0 / views.len().max(1) as f64).max(1.0)
    };
    let mut svg = Svg::new(720.0, 200.0, &caption.title);
    svg.root_attr("data-view", "brokers");
    svg.root_attr("data-system", "pulsar");
    svg.root_attr("data-brokers", &views.len().to_string());
    let top = svg.caption(&caption) + 28.0;
    let (x0, x1) = (140.0, 560.0);
    let x = |v: f64| x0 + v.clamp(0.0, 100.0) / 100.0 * (x1 - x0);
    let first = views.iter().find(|b| b.alive);
    let (overload, avg) = first.map_or((85.0, 0.0), |b| (b.overload_line, b.cluster_avg));
    svg.root_attr("data-overload", &n(overload));
    svg.root_attr("data-average", &n(avg));
    // Scale.
    for pct in [0.0, 25.0, 50.0, 75.0, 100.0] {
        svg.line(
            x(pct),
            top - 6.0,
            x(pct),
            top + row_h * views.len() as f64,
            theme::BORDER,
            0.6,
            "",
        );
        svg.text(
            x(pct),
            top - 10.0,
            10.0,
            "middle",
            "400",
            theme::MUTED,
            &format!("{pct:.0} %"),
        );
    }
    for (i, b) in views.iter().enumerate() {
        let y = top + i as f64 * row_h;
        let fill = if !b.alive {
            GREY
        } else if b.load > b.overload_line {
            theme::HOT
        } else {
            theme::ACCENT
        };
        let extra = format!(
            " class=\"bar\" data-broker=\"{}\" data-load=\"{}\" data-bundles=\"{}\" data-alive=\"{}\"",
            esc(&b.id.0),
            n(b.load),
            b.bundles,
            b.alive
        );
        let h = if rows { 14.0 } else { (row_h * 0.8).max(0.6) };
        svg.rect(x0, y, x1 - x0, h, 2.0, theme::PANEL, None, "");
        svg.rect(x0, y, x(b.load) - x0, h, 2.0, fill, None, &extra);
        if rows {
            svg.rect(
                16.0,
                y + 1.0,
                12.0,
                12.0,
                2.0,
                colors.color(&b.id.0),
                Some(theme::BORDER),
                "",
            );
            let name = if b.leader {
                format!("{} ★", b.id.0)
            } else {
                b.id.0.to_string()
            };
            svg.text(34.0, y + 11.5, 12.0, "start", "600", theme::FG, &name);
            let load = if b.alive {
                format!("{:.1} %", b.load)
            } else {
                "crashed".into()
            };
            svg.text(x1 + 8.0, y + 11.5, 12.0, "start", "700", theme::FG, &load);
            let detail = format!(
                "cpu {:.0} % · heap {:.0} % · direct {:.0} % · nic in {:.0} % · out {:.0} % · {} · {} · {}",
                b.cpu,
                b.memory,
                b.direct_memory,
                b.bandwidth_in,
                b.bandwidth_out,
                count(b.bundles, "bundle", "bundles"),
                count(b.topics as usize, "topic", "topics"),
                rate(b.msg_rate)
            );
            svg.text(x0, y + 27.0, 10.0, "start", "400", theme::MUTED, &detail);
        }
    }
    let bottom = top + row_h * views.len() as f64;
    let dash = " stroke-dasharray=\"5 3\"";
    svg.line(
        x(overload),
        top - 6.0,
        x(overload),
        bottom,
        theme::HOT,
        1.4,
        &format!("{dash} class=\"overload-line\""),
    );
    svg.line(
        x(avg),
        top - 6.0,
        x(avg),
        bottom,
        theme::FG,
        1.2,
        &format!("{dash} class=\"average-line\""),
    );
    let legend = [
        (
            theme::ACCENT.to_string(),
            "weighted load (the max of cpu, heap, direct memory, nic; the strategies compare it)".to_string(),
        ),
        (
            theme::HOT.to_string(),
            format!(
                "over the overload line, {overload:.0} % (loadBalancerBrokerOverloadedThresholdPercentage)"
            ),
        ),
        (
            theme::FG.to_string(),
            format!("dashed black: the average of alive brokers, {avg:.1} %"),
        ),
    ];
    let end = svg.legend(16.0, bottom + 16.0, &legend, 3);
    svg.fit_height(end + 12.0);
    svg.finish()
}

impl Drawable for Sim {
    fn summary(&self) -> String {
        let alive = self.brokers().values().filter(|b| b.alive).count();
        let total = self.brokers().len();
        let bundles: usize = self.namespaces().values().map(|n| n.bundles.len()).sum();
        let topics: usize = self.namespaces().values().map(|n| n.topics.len()).sum();
        let cfg = schema::to_object(self.config());
        let shedder = cfg
            .get("loadBalancerLoadSheddingStrategy")
            .and_then(|v| v.as_str())
            .map(|s| format!(" · {}", s.rsplit('.').next().unwrap_or(s)))
            .unwrap_or_default();
        let brokers = if alive == total {
            count(total, "broker", "brokers")
        } else {
            format!("{} ({alive} alive)", count(total, "broker", "brokers"))
        };
        format!(
            "{brokers} · {} · {} · {}{shedder}",
            count(self.namespaces().len(), "namespace", "namespaces"),
            count(bundles, "bundle", "bundles"),
            count(topics, "topic", "topics")
        )
    }

    fn clock(&self) -> String {
        format!("round {} · t = {} s", self.round(), self.now_ms() / 1000)
    }

    fn draw_view(&self, kind: ViewKind, o: &Options, caption: Caption) -> Result<String, ViewError> {
        match kind {
            ViewKind::Brokers => Ok(brokers(self, caption)),
            _ => ring(self, o, caption),
        }
    }

    fn table(&self) -> String {
        let mut out = String::from(
            "| broker | load % | cpu % | heap % | nic in % | nic out % | bundles | topics | msg/s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        );
        for b in self.broker_views() {
            let name = if b.alive {
                b.id.0.to_string()
            } else {
                format!("{} (crashed)", b.id.0)
            };
            let _ = writeln!(
                out,
                "| {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {:.0} |",
                super::markdown::cell(&name),
                b.load,
                b.cpu,
                b.memory,
                b.bandwidth_in,
                b.bandwidth_out,
                b.bundles,
                b.topics,
                b.msg_rate
            );
        }
        out
    }
}
