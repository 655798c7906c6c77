//! The metrics chart: one line per series over rounds (SVG, no dependencies),
//! optionally with a second run's lines (the compare mode) drawn thin and dashed.

use crate::engine::Series;
use yew::prelude::*;

// The palette and the axis scaling are the exported picture's, so both read alike.
use crate::view::chart::{decimate, nice_max, peak, COLORS, DASHES};

/// Chart properties.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The lines of the run being shown.
    pub series: Vec<Series>,
    /// The compare run's lines (same names), if any.
    #[prop_or_default]
    pub compare: Vec<Series>,
    /// What the compare run is (legend text).
    #[prop_or_default]
    pub compare_label: AttrValue,
    /// Shown when there is no data yet.
    #[prop_or_default]
    pub empty: AttrValue,
    /// Controls shown under the title (e.g. the compare picker).
    #[prop_or_default]
    pub children: Html,
    /// Shown under the chart and its legend (the spread over seeds).
    #[prop_or_default]
    pub below: Html,
}

const W: f64 = 420.0;
const H: f64 = 180.0;
const PAD_L: f64 = 38.0;
const PAD_R: f64 = 8.0;
const PAD_T: f64 = 10.0;
const PAD_B: f64 = 22.0;
/// Columns a line is decimated to ([`decimate`]): one per two units of the
/// plot's width, the main lines' stroke width, finer than which nothing shows.
const COLUMNS: usize = ((W - PAD_L - PAD_R) / 2.0) as usize;
/// Up to this many points a line has a dot at each (as in the exported
/// picture); a longer one has a dot at its last point only.
const DOTS: usize = 60;

/// The chart panel. Percent series share one axis; series in other units are
/// scaled to their own maximum (stated in the legend). A series and its compare
/// twin share a scale.
#[component]
pub fn MetricsChart(p: &ChartProps) -> Html {
    let hidden = use_state(Vec::<String>::new);
    let visible = |s: &&Series| !hidden.contains(&s.name);
    let all = || p.series.iter().chain(p.compare.iter());
    let has_data = all().any(|s| !s.points.is_empty());
    let xs = || all().flat_map(|s| s.points.iter().map(|pt| pt.0));
    let x_max = xs().fold(1.0, f64::max);
    let x_min = xs().fold(x_max, f64::min);
    let pct_shown = all().filter(visible).any(|s| s.unit == "%");
    let pct_max = nice_max(
        all()
            .filter(visible)
            .filter(|s| s.unit == "%")
            .map(peak)
            .fold(0.0, f64::max),
    );
    // Lines in the same unit (other than a bare count) share a scale, so the
    // offered msg/s and the busiest broker's can be read against each other.
    let scale_of = |name: &str, unit: &str| {
        if unit == "%" {
            pct_max
        } else if unit == "msg/s" {
            nice_max(
                all()
                    .filter(visible)
                    .filter(|s| s.unit == unit)
                    .map(peak)
                    .fold(0.0, f64::max),
            )
        } else {
            nice_max(all().filter(|s| s.name == name).map(peak).fold(0.0, f64::max))
        }
    };
    let sx = |x: f64| PAD_L + (x - x_min) / (x_max - x_min).max(1.0) * (W - PAD_L - PAD_R);
    let sy = |y: f64, max: f64| H - PAD_B - (y / max).clamp(0.0, 1.0) * (H - PAD_T - PAD_B);
    let draw = |i: usize, s: &Series, twin: bool| {
        let max = scale_of(&s.name, &s.unit);
        let color = COLORS[i % COLORS.len()];
        let pts: String = decimate(&s.points, COLUMNS)
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1} ", sx(x), sy(y, max)))
            .collect();
        let last = s.points.last().map(|pt| pt.1).unwrap_or(0.0);
        let title = format!(
            "{}{}: last {:.2}{}",
            s.name,
            if twin {
                format!(" ({})", p.compare_label)
            } else {
                String::new()
            },
            last,
            s.unit
        );
        let dotted = if s.points.len() <= DOTS {
            &s.points[..]
        } else {
            &s.points[s.points.len() - 1..]
        };
        let dots = dotted.iter().map(|&(x, y)| {
            html! { <circle cx={format!("{:.1}", sx(x))} cy={format!("{:.1}", sy(y, max))} r={if twin { "1.8" } else { "2.6" }} fill={color} /> }
        });
        html! {
            <g class={classes!("series", twin.then_some("twin"))} data-series={s.name.clone()}>
                <title>{title}</title>
                <polyline points={pts} fill="none" stroke={color} stroke-width={if twin { "1.5" } else { "2" }}
                          stroke-dasharray={if twin { "3 3" } else { DASHES[i % DASHES.len()] }} />
                { for dots }
            </g>
        }
    };
    let lines = p
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| visible(s))
        .map(|(i, s)| draw(i, s, false));
    let twins = p.compare.iter().filter(|s| visible(s)).map(|s| {
        let i = p.series.iter().position(|m| m.name == s.name).unwrap_or(0);
        draw(i, s, true)
    });
    let legend = p.series.iter().enumerate().map(|(i, s)| {
        let off = hidden.contains(&s.name);
        let onclick = {
            let hidden = hidden.clone();
            let name = s.name.clone();
            Callback::from(move |_| {
                let mut h = (*hidden).clone();
                if let Some(pos) = h.iter().position(|n| *n == name) {
                    h.remove(pos);
                } else {
                    h.push(name.clone());
                }
                hidden.set(h);
            })
        };
        let scale = if s.unit == "%" {
            String::new()
        } else {
            format!(
                " (max {:.0}{}{})",
                peak(s),
                if s.unit.is_empty() { "" } else { " " },
                s.unit
            )
        };
        html! {
            <li>
                <button class={classes!("legend-item", off.then_some("off"))} {onclick} aria-pressed={(!off).to_string()}>
                    <svg width="22" height="8" aria-hidden="true">
                        <line x1="0" y1="4" x2="22" y2="4" stroke={COLORS[i % COLORS.len()]} stroke-width="2" stroke-dasharray={DASHES[i % DASHES.len()]} />
                    </svg>
                    { format!("{}{}", s.name, scale) }
                </button>
            </li>
        }
    });
    let top = if pct_shown {
        format!("{pct_max:.0}%")
    } else {
        "max".to_string()
    };
    html! {
        <section class="panel chart" aria-label="Metrics over rounds">
            <h2>{"Metrics"}</h2>
            { p.children.clone() }
            if has_data {
                <svg viewBox={format!("0 0 {W} {H}")} class="metrics" role="img"
                     aria-label={format!("{} series over rounds {} to {}", p.series.len(), x_min, x_max)}>
                    <line x1={PAD_L.to_string()} y1={(H - PAD_B).to_string()} x2={(W - PAD_R).to_string()} y2={(H - PAD_B).to_string()} class="axis" />
                    <line x1={PAD_L.to_string()} y1={PAD_T.to_string()} x2={PAD_L.to_string()} y2={(H - PAD_B).to_string()} class="axis" />
                    <text x={(PAD_L - 4.0).to_string()} y={(PAD_T + 8.0).to_string()} text-anchor="end" class="axis-label">{ top }</text>
                    <text x={(PAD_L - 4.0).to_string()} y={(H - PAD_B).to_string()} text-anchor="end" class="axis-label">{"0"}</text>
                    <text x={PAD_L.to_string()} y={(H - 6.0).to_string()} class="axis-label">{ format!("{x_min}") }</text>
                    <text x={(W - PAD_R).to_string()} y={(H - 6.0).to_string()} text-anchor="end" class="axis-label">{ format!("round {x_max}") }</text>
                    { for twins }
                    { for lines }
                </svg>
            } else {
                <p class="hint">{ p.empty.clone() }</p>
            }
            <ul class="legend">{ for legend }</ul>
            if !p.compare.is_empty() {
                <p class="hint compare-note">{ format!("Thin dotted lines: the same actions with {}.", p.compare_label) }</p>
            }
            { p.below.clone() }
        </section>
    }
}
