//! A scalable topic's segments (Pulsar 5.0) as one picture: the 16-bit key-hash
//! range `[0x0000, 0xFFFF]` as a bar cut at the active segments' boundaries,
//! drawn three times: coloured by the consumer reading each segment (the first
//! subscription's), by the broker owning its bundle, and as the segment's
//! published rate against the split and merge thresholds. Pure: the playground
//! shows it in the Pulsar tab and tests read its `data-*` facts.

use super::svg::{color, esc, n, theme, Svg, GREY};
use crate::engine::pulsar::scalable_topic::SegmentView;
use crate::engine::pulsar::Sim;
use crate::engine::Engine;
use std::fmt::Write as _;

const LABEL: f64 = 112.0;
const ROW: f64 = 26.0;

fn x_of(h: u32, x0: f64, w: f64) -> f64 {
    x0 + f64::from(h) / 65_536.0 * w
}

/// Short rate text: `12.5k`.
fn short(x: f64) -> String {
    if x >= 1000.0 {
        format!("{:.1}k", x / 1000.0)
    } else {
        format!("{x:.0}")
    }
}

/// Who colours a segment: the brokers (in name order) and the consumers of the
/// topic's first subscription.
struct Palette {
    brokers: Vec<String>,
    sub: Option<String>,
    consumers: Vec<String>,
}

impl Palette {
    fn broker(&self, b: &str) -> &'static str {
        self.brokers
            .binary_search_by(|x| x.as_str().cmp(b))
            .map_or(GREY, |i| color(i).0)
    }
    /// Consumers take the palette from its fourth colour on, so that in a small
    /// cluster they do not share a colour with the first brokers.
    fn consumer(&self, c: &str) -> &'static str {
        self.consumers
            .iter()
            .position(|x| x == c)
            .map_or(GREY, |i| color(i + 3).0)
    }
    fn consumer_of(&self, s: &SegmentView) -> Option<String> {
        self.sub
            .as_ref()
            .and_then(|name| s.consumers.iter().find(|(x, _)| x == name))
            .map(|(_, c)| c.clone())
    }
}

/// The bars' geometry: the hash axis from `x0`, `w` wide; the consumer and
/// owner rows' tops; the rate panel's top, height and top rate.
struct Frame {
    x0: f64,
    w: f64,
    rows: [f64; 2],
    rate_y: f64,
    rate_h: f64,
    top: f64,
}

impl Frame {
    fn y_of(&self, r: f64) -> f64 {
        self.rate_y + self.rate_h - (r / self.top).clamp(0.0, 1.0) * self.rate_h
    }
}

/// The picture of scalable topic `topic` (its full `topic://` name), `width`
/// user units wide; `None` when there is no such topic.
pub fn segments_svg(sim: &Sim, topic: &str, width: f64) -> Option<String> {
    let st = sim.scalable_topics().topics.get(topic)?;
    let segs: Vec<SegmentView> = sim.segment_views(topic);
    let cfg = sim.config();
    let split = cfg.scalable_topic_split_msg_rate_in_threshold;
    let merge = cfg.scalable_topic_merge_msg_rate_in_threshold;
    let sub = st.subscriptions.keys().next().cloned();
    let consumers: Vec<String> = sub
        .as_ref()
        .and_then(|s| st.subscriptions.get(s))
        .map(|c| c.iter().cloned().collect())
        .unwrap_or_default();
    let pal = Palette {
        brokers: sim.brokers().keys().map(|b| b.0.to_string()).collect(),
        sub,
        consumers,
    };
    let width = width.max(320.0);
    let title = format!("Segments of {topic}");
    let mut svg = Svg::new(width, 10.0, &title);
    svg.root_attr("data-topic", topic);
    svg.root_attr("data-active", &segs.len().to_string());
    svg.root_attr("data-epoch", &st.layout.epoch.to_string());
    svg.text(
        12.0,
        18.0,
        13.0,
        "start",
        "700",
        theme::FG,
        &format!(
            "{topic} · {} active segment{} · epoch {} · t = {} s",
            segs.len(),
            if segs.len() == 1 { "" } else { "s" },
            st.layout.epoch,
            sim.now_ms() / 1000
        ),
    );
    let rate_y = 30.0 + 2.0 * (ROW + 6.0);
    let f = Frame {
        x0: LABEL + 12.0,
        w: width - LABEL - 24.0,
        rows: [30.0, 30.0 + ROW + 6.0],
        rate_y,
        rate_h: 44.0,
        top: segs
            .iter()
            .map(|s| s.traffic.msg_rate_in)
            .fold(split * 1.25, f64::max),
    };
    let labels = [
        match &pal.sub {
            Some(s) => format!("consumer ({s})"),
            None => "consumer (none)".to_string(),
        },
        "owner broker".to_string(),
    ];
    for (y, label) in f.rows.iter().zip(&labels) {
        svg.text(LABEL, y + 17.0, 11.0, "end", "400", theme::MUTED, label);
    }
    svg.text(LABEL, rate_y + 26.0, 11.0, "end", "400", theme::MUTED, "msg/s in");
    svg.rect(f.x0, rate_y, f.w, f.rate_h, 0.0, theme::PANEL, None, "");
    for s in &segs {
        segment(&mut svg, &f, &pal, s, split);
    }
    let axis = thresholds_and_axis(&mut svg, &f, split, merge);
    let mut legend: Vec<(String, String)> = pal
        .consumers
        .iter()
        .enumerate()
        .map(|(i, c)| (color(i + 3).0.to_string(), format!("consumer {c}")))
        .collect();
    let owners: std::collections::BTreeSet<&str> = segs.iter().filter_map(|s| s.owner.as_deref()).collect();
    legend.extend(
        owners
            .iter()
            .map(|o| (pal.broker(o).to_string(), format!("broker {o}"))),
    );
    let per_column = 3;
    let mut bottom = svg.legend(f.x0, axis + 10.0, &legend, per_column);
    let mut note = String::new();
    let _ = write!(
        note,
        "split above {} msg/s, merge when cold under {} msg/s for {} s",
        short(split),
        short(merge),
        cfg.scalable_topic_merge_window_seconds
    );
    svg.text(12.0, bottom + 14.0, 10.0, "start", "400", theme::MUTED, &note);
    bottom += 22.0;
    svg.fit_height(bottom);
    Some(svg.finish())
}

/// One segment: its cells in the consumer and owner rows and its rate bar
/// (hot above `split`), labelled when wide enough.
fn segment(svg: &mut Svg, f: &Frame, pal: &Palette, s: &SegmentView, split: f64) {
    let (a, b) = (
        x_of(u32::from(s.range.start), f.x0, f.w),
        x_of(u32::from(s.range.end) + 1, f.x0, f.w),
    );
    let consumer = pal.consumer_of(s);
    let owner = s.owner.clone();
    let rate = s.traffic.msg_rate_in;
    let tip = format!(
        "segment {} [0x{:04x}, 0x{:04x}] · {} · bundle {} · owner {} · consumer {} · {} msg/s in",
        s.id,
        s.range.start,
        s.range.end,
        s.topic,
        s.bundle,
        owner.as_deref().unwrap_or("none"),
        consumer.as_deref().unwrap_or("none"),
        n(rate)
    );
    let data = format!(
        " data-segment=\"{}\" data-start=\"{}\" data-end=\"{}\" data-owner=\"{}\" data-consumer=\"{}\" data-rate=\"{}\"",
        s.id,
        s.range.start,
        s.range.end,
        esc(owner.as_deref().unwrap_or("")),
        esc(consumer.as_deref().unwrap_or("")),
        n(rate)
    );
    let fills = [
        consumer.as_deref().map_or(GREY, |c| pal.consumer(c)),
        owner.as_deref().map_or(GREY, |b| pal.broker(b)),
    ];
    svg.raw(&format!(
        "<g class=\"segment\"{data}><title>{}</title>",
        esc(&tip)
    ));
    for (y, fill) in f.rows.iter().zip(fills) {
        svg.rect(a, *y, b - a, ROW, 0.0, fill, Some(theme::BG), "");
    }
    let hot = rate > split;
    svg.rect(
        a + 1.0,
        f.y_of(rate),
        (b - a - 2.0).max(1.0),
        f.rate_y + f.rate_h - f.y_of(rate),
        0.0,
        if hot { theme::HOT } else { theme::ACCENT },
        None,
        "",
    );
    if b - a >= 30.0 {
        let mid = (a + b) / 2.0;
        let ink = |c: &str| if c == "#0072B2" { "#ffffff" } else { "#000000" };
        svg.text(
            mid,
            f.rows[0] + 17.0,
            11.0,
            "middle",
            "600",
            ink(fills[0]),
            &format!("#{}", s.id),
        );
        let who = owner.as_deref().unwrap_or("none");
        let who = if (who.len() as f64) * 6.5 < b - a { who } else { "" };
        svg.text(mid, f.rows[1] + 17.0, 10.0, "middle", "400", ink(fills[1]), who);
        svg.text(
            mid,
            f.y_of(rate) - 3.0,
            10.0,
            "middle",
            "400",
            theme::FG,
            &short(rate),
        );
    }
    svg.raw("</g>");
}

/// The split and merge thresholds across the rate panel and the hash axis
/// under it; the axis labels' `y`.
fn thresholds_and_axis(svg: &mut Svg, f: &Frame, split: f64, merge: f64) -> f64 {
    let (x0, w) = (f.x0, f.w);
    for (v, label, dash) in [(split, "split", "4 3"), (merge, "merge", "1 3")] {
        let y = f.y_of(v);
        svg.line(
            x0,
            y,
            x0 + w,
            y,
            theme::HOT,
            1.0,
            &format!(" stroke-dasharray=\"{dash}\""),
        );
        svg.text(
            x0 + w,
            y - 2.0,
            9.0,
            "end",
            "400",
            theme::HOT,
            &format!("{label} {}", short(v)),
        );
    }
    let base = f.rate_y + f.rate_h;
    let axis = base + 14.0;
    for h in [0u32, 0x4000, 0x8000, 0xC000, 0x10000] {
        let x = x_of(h, x0, w);
        svg.line(x, base, x, base + 4.0, theme::MUTED, 1.0, "");
        let anchor = match h {
            0 => "start",
            0x10000 => "end",
            _ => "middle",
        };
        svg.text(
            x,
            axis,
            9.0,
            anchor,
            "400",
            theme::MUTED,
            &format!("0x{:04x}", h.min(0xFFFF)),
        );
    }
    axis
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pulsar::Action;

    #[test]
    fn each_active_segment_is_drawn_with_its_owner_and_consumer() {
        let mut sim = Sim::new(crate::engine::pulsar::Config::default(), 3).unwrap();
        for b in ["broker-1", "broker-2"] {
            sim.apply(&Action::AddBroker {
                broker: b.into(),
                capacity: Default::default(),
            })
            .unwrap();
        }
        sim.apply(&Action::CreateNamespace {
            namespace: "public/default".into(),
            bundles: Some(4),
        })
        .unwrap();
        sim.apply(&Action::CreateScalableTopic {
            topic: "orders".into(),
            segments: Some(3),
        })
        .unwrap();
        sim.apply(&Action::AddScalableConsumer {
            topic: "orders".into(),
            subscription: "s".into(),
            consumer: "c1".into(),
        })
        .unwrap();
        let svg = segments_svg(&sim, "topic://public/default/orders", 640.0).unwrap();
        assert!(svg.contains("data-active=\"3\""), "{svg}");
        assert_eq!(svg.matches("class=\"segment\"").count(), 3);
        for v in sim.segment_views("topic://public/default/orders") {
            let owner = v.owner.unwrap();
            assert!(
                svg.contains(&format!(
                    "data-segment=\"{}\" data-start=\"{}\" data-end=\"{}\" data-owner=\"{owner}\" data-consumer=\"c1\"",
                    v.id, v.range.start, v.range.end
                )),
                "{svg}"
            );
        }
        assert!(segments_svg(&sim, "topic://public/default/none", 640.0).is_none());
    }
}
