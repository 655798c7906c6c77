//! The metrics chart as a picture: one line per series over rounds, drawn the
//! way the playground's chart panel draws it (the same colours and dash
//! patterns, percent series on one shared axis, a series in another unit
//! scaled to its own maximum, which its legend entry states), with a caption,
//! a grid, labelled axes and a legend that gives each line's last value.

use super::svg::{esc, n, theme, Svg};
use super::Caption;
use crate::engine::{Series, System};
use std::borrow::Cow;
use std::fmt::Write as _;

/// Line colours (Okabe–Ito, skipping yellow for contrast on white): the playground's.
pub const COLORS: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999",
];
/// Dash patterns so lines differ without colour: the playground's.
pub const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

/// 1, 2 or 5 times a power of ten, at least `v` (1 for nothing to show).
pub fn nice_max(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(v.log10().floor());
    let m = v / mag;
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .find(|s| m <= *s)
        .unwrap_or(10.0);
    step * mag
}

/// The largest value of `s` (0 for none).
pub fn peak(s: &Series) -> f64 {
    s.points.iter().map(|p| p.1).fold(0.0, f64::max)
}

/// The points of a line as `columns` pixel columns can show them: when there
/// are more than four per column, each column keeps its first, lowest, highest
/// and last point (in their order along x), so the drawn line has the same
/// extremes and ends as the whole series. Fewer points are kept as they are.
/// `points` are in x order (rounds).
pub fn decimate(points: &[(f64, f64)], columns: usize) -> Cow<'_, [(f64, f64)]> {
    let columns = columns.max(1);
    if points.len() <= 4 * columns {
        return Cow::Borrowed(points);
    }
    let (x_min, x_max) = (points[0].0, points[points.len() - 1].0);
    let span = (x_max - x_min).max(f64::MIN_POSITIVE);
    let column = |x: f64| (((x - x_min) / span * columns as f64) as usize).min(columns - 1);
    let mut out = Vec::with_capacity(4 * columns);
    let mut start = 0;
    while start < points.len() {
        let c = column(points[start].0);
        let mut end = start + 1;
        while end < points.len() && column(points[end].0) == c {
            end += 1;
        }
        let run = &points[start..end];
        let by_y = |a: &usize, b: &usize| run[*a].1.total_cmp(&run[*b].1);
        let lo = (0..run.len()).min_by(by_y).unwrap_or(0);
        let hi = (0..run.len()).max_by(by_y).unwrap_or(0);
        let mut keep = [0, lo, hi, run.len() - 1];
        keep.sort_unstable();
        let mut kept = None;
        for k in keep {
            if kept != Some(k) {
                out.push(run[k]);
                kept = Some(k);
            }
        }
        start = end;
    }
    Cow::Owned(out)
}

/// A history of values on at most `columns` columns: each column's lowest and
/// highest value (the band a small curve draws), in order. Up to `columns`
/// values, each is its own column (both bounds the value).
pub fn spread(values: &[f64], columns: usize) -> (Vec<f64>, Vec<f64>) {
    let columns = columns.max(1);
    if values.len() <= columns {
        return (values.to_vec(), values.to_vec());
    }
    let (mut lo, mut hi) = (Vec::with_capacity(columns), Vec::with_capacity(columns));
    for c in 0..columns {
        let part = &values[c * values.len() / columns..(c + 1) * values.len() / columns];
        lo.push(part.iter().copied().fold(f64::INFINITY, f64::min));
        hi.push(part.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    }
    (lo, hi)
}

/// How a value reads in the legend (`12.5 %`, `3 moves`).
fn value(v: f64, unit: &str) -> String {
    match unit {
        "" => n(v),
        "%" => format!("{} %", n(v)),
        u => format!("{} {u}", n(v)),
    }
}

/// The picture's title for `system`.
fn title(system: System) -> String {
    let name = match system {
        System::Pulsar => "Apache Pulsar",
        System::Flink => "Apache Flink",
        System::Kstreams => "Kafka Streams",
    };
    format!("{name} · metrics over rounds")
}

const W: f64 = 720.0;
const PLOT_H: f64 = 260.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 24.0;

/// Where a chart's values land: the plot's box and the range of rounds.
struct Plot {
    x0: f64,
    x1: f64,
    top: f64,
    bottom: f64,
    x_min: f64,
    x_max: f64,
    has_data: bool,
    /// The shared top of the percent series (when there is one).
    pct: bool,
    pct_max: f64,
}

impl Plot {
    fn new(series: &[Series], top: f64) -> Plot {
        let xs = || series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        let has_data = series.iter().any(|s| !s.points.is_empty());
        let x_max = xs().fold(f64::NEG_INFINITY, f64::max);
        let x_min = xs().fold(f64::INFINITY, f64::min);
        let (x_min, x_max) = if has_data { (x_min, x_max) } else { (0.0, 1.0) };
        let pct_max = nice_max(
            series
                .iter()
                .filter(|s| s.unit == "%")
                .map(peak)
                .fold(0.0, f64::max),
        );
        Plot {
            x0: LEFT,
            x1: W - RIGHT,
            top,
            bottom: top + PLOT_H,
            x_min,
            x_max,
            has_data,
            pct: series.iter().any(|s| s.unit == "%"),
            pct_max,
        }
    }
    /// The top of `s`'s scale: the shared percent top, else its own.
    fn scale(&self, s: &Series) -> f64 {
        if s.unit == "%" {
            self.pct_max
        } else {
            nice_max(peak(s))
        }
    }
    fn sx(&self, x: f64) -> f64 {
        self.x0 + (x - self.x_min) / (self.x_max - self.x_min).max(1.0) * (self.x1 - self.x0)
    }
    fn sy(&self, y: f64, max: f64) -> f64 {
        self.bottom - (y / max).clamp(0.0, 1.0) * PLOT_H
    }
}

/// The chart of `series` (a system's [`crate::engine::Engine::series`]) as an SVG document.
pub fn chart(system: System, series: &[Series], mut caption: Caption) -> String {
    caption.title = title(system);
    let mut svg = Svg::new(W, 200.0, &caption.title);
    svg.root_attr("data-view", "chart");
    svg.root_attr("data-system", system.slug());
    svg.root_attr("data-series", &series.len().to_string());
    let top = svg.caption(&caption) + 18.0;
    let plot = Plot::new(series, top);
    axes(&mut svg, &plot);
    for (i, s) in series.iter().enumerate() {
        line(&mut svg, &plot, i, s);
    }
    let y = legend(&mut svg, &plot, series);
    svg.fit_height(y + 4.0);
    svg.finish()
}

/// Grid, axes and round ticks (or the note that there is no round yet).
fn axes(svg: &mut Svg, p: &Plot) {
    let (x0, x1, top, bottom) = (p.x0, p.x1, p.top, p.bottom);
    // Grid and axes: the left axis is the percent axis (or a fraction of each
    // line's own maximum when no series is in percent).
    for k in 0..=4 {
        let f = f64::from(k) / 4.0;
        let y = bottom - f * PLOT_H;
        svg.line(x0, y, x1, y, theme::BORDER, if k == 0 { 1.2 } else { 0.6 }, "");
        // Without a percent series each line has its own scale: the axis reads
        // as fractions of each line's top (which its legend entry gives).
        let label = if p.pct {
            format!("{} %", n(p.pct_max * f))
        } else {
            ["0", "¼ top", "½ top", "¾ top", "top"][k as usize].to_string()
        };
        svg.text(x0 - 6.0, y + 4.0, 11.0, "end", "400", theme::MUTED, &label);
    }
    svg.line(x0, top, x0, bottom, theme::MUTED, 1.0, "");
    // Round ticks: every round when there are few, else about eight.
    let span = (p.x_max - p.x_min).max(0.0);
    let step = if span <= 8.0 { 1.0 } else { (span / 8.0).ceil() };
    let mut t = p.x_min;
    while t <= p.x_max + 1e-9 && p.has_data {
        svg.line(p.sx(t), bottom, p.sx(t), bottom + 4.0, theme::MUTED, 1.0, "");
        svg.text(p.sx(t), bottom + 16.0, 11.0, "middle", "400", theme::MUTED, &n(t));
        t += step;
    }
    svg.text(
        (x0 + x1) / 2.0,
        bottom + 32.0,
        11.0,
        "middle",
        "400",
        theme::MUTED,
        "round",
    );
    if !p.has_data {
        svg.text(
            (x0 + x1) / 2.0,
            top + PLOT_H / 2.0,
            14.0,
            "middle",
            "400",
            theme::MUTED,
            "No round yet: step the scenario to draw its metrics.",
        );
    }
}

/// The `i`-th series' line (and its dots, when few enough to tell apart).
fn line(svg: &mut Svg, p: &Plot, i: usize, s: &Series) {
    let color = COLORS[i % COLORS.len()];
    let dash = DASHES[i % DASHES.len()];
    let max = p.scale(s);
    let last = s.points.last().map_or(0.0, |p| p.1);
    let _ = write!(
        svg,
        "<g class=\"series\" data-series=\"{}\" data-unit=\"{}\" data-points=\"{}\" data-last=\"{}\"><title>{}: last {}</title>",
        esc(&s.name),
        esc(&s.unit),
        s.points.len(),
        n(last),
        esc(&s.name),
        esc(&value(last, &s.unit))
    );
    if s.points.len() > 1 {
        let pts: Vec<String> = decimate(&s.points, (p.x1 - p.x0) as usize)
            .iter()
            .map(|&(x, y)| format!("{},{}", n(p.sx(x)), n(p.sy(y, max))))
            .collect();
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = write!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2.5\" stroke-linejoin=\"round\"{dash}/>",
            pts.join(" ")
        );
    }
    // Dots only where they can be told apart.
    if s.points.len() <= 60 {
        for &(x, y) in &s.points {
            let _ = write!(
                svg,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{color}\"/>",
                n(p.sx(x)),
                n(p.sy(y, max))
            );
        }
    }
    svg.raw("</g>");
}

/// Legend: a swatch of each line (its colour and dash), its name, its last
/// value, and its own scale when it is not in percent; the `y` under it.
fn legend(svg: &mut Svg, p: &Plot, series: &[Series]) -> f64 {
    let y = p.bottom + 52.0;
    svg.raw("<g class=\"legend\">");
    for (i, s) in series.iter().enumerate() {
        let col = (i % 2) as f64;
        let ly = y + (i / 2) as f64 * 20.0;
        let lx = 16.0 + col * 352.0;
        let dash = DASHES[i % DASHES.len()];
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        svg.line(
            lx,
            ly - 4.0,
            lx + 28.0,
            ly - 4.0,
            COLORS[i % COLORS.len()],
            2.5,
            &dash,
        );
        let last = s
            .points
            .last()
            .map_or(String::new(), |p| format!(": last {}", value(p.1, &s.unit)));
        let own = if s.unit == "%" {
            String::new()
        } else {
            format!(" (own scale, top {})", value(p.scale(s), &s.unit))
        };
        svg.text(
            lx + 36.0,
            ly,
            12.0,
            "start",
            "400",
            theme::FG,
            &format!("{}{last}{own}", s.name),
        );
    }
    svg.raw("</g>");
    y + series.len().div_ceil(2) as f64 * 20.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_maxima() {
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(87.0), 100.0);
        assert_eq!(nice_max(101.0), 200.0);
        assert_eq!(nice_max(3.0), 5.0);
    }

    #[test]
    fn a_long_history_spreads_over_its_columns() {
        let v: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(spread(&v, 10), (v.clone(), v.clone()));
        assert_eq!(
            spread(&v, 4),
            (vec![0.0, 2.0, 5.0, 7.0], vec![1.0, 4.0, 6.0, 9.0])
        );
        let (lo, hi) = spread(&v, 3);
        assert_eq!((lo, hi), (vec![0.0, 3.0, 6.0], vec![2.0, 5.0, 9.0]));
    }

    #[test]
    fn a_short_line_is_drawn_whole() {
        let pts: Vec<(f64, f64)> = (0..40).map(|i| (f64::from(i), f64::from(i % 7))).collect();
        assert!(matches!(decimate(&pts, 10), Cow::Borrowed(p) if p == pts.as_slice()));
    }

    #[test]
    fn a_long_line_keeps_each_columns_ends_and_extremes() {
        // 1,000 rounds on 10 columns: 100 rounds per column, a spike in one.
        let mut pts: Vec<(f64, f64)> = (0..1000).map(|i| (f64::from(i), f64::from(i % 10))).collect();
        pts[555].1 = 99.0;
        pts[556].1 = -3.0;
        let d = decimate(&pts, 10);
        assert!(d.len() <= 40, "{}", d.len());
        assert_eq!(d.first(), pts.first());
        assert_eq!(d.last(), pts.last());
        assert!(
            d.windows(2).all(|w| w[0].0 < w[1].0),
            "in x order, no point twice"
        );
        assert!(d.contains(&(555.0, 99.0)) && d.contains(&(556.0, -3.0)));
        // Every kept point is one of the series'.
        assert!(d.iter().all(|p| pts.contains(p)));
        // Each column's highest and lowest survive.
        for c in 0..10 {
            let col = &pts[c * 100..(c + 1) * 100];
            let hi = col.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            let lo = col.iter().map(|p| p.1).fold(f64::MAX, f64::min);
            let kept: Vec<f64> = d
                .iter()
                .filter(|p| (p.0 as usize) / 100 == c)
                .map(|p| p.1)
                .collect();
            assert!(kept.contains(&hi) && kept.contains(&lo), "column {c}: {kept:?}");
        }
    }
}
