//! The metrics chart: one line per series over rounds (SVG, no dependencies).

use crate::ui::store::Series;
use yew::prelude::*;

/// Line colours (Okabe–Ito, skipping yellow for contrast on white).
const COLORS: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999",
];
/// Dash patterns so lines differ without colour.
const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

/// Chart properties.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The lines.
    pub series: Vec<Series>,
    /// Shown when there is no data yet.
    #[prop_or_default]
    pub empty: AttrValue,
}

const W: f64 = 420.0;
const H: f64 = 180.0;
const PAD_L: f64 = 38.0;
const PAD_R: f64 = 8.0;
const PAD_T: f64 = 10.0;
const PAD_B: f64 = 22.0;

fn nice_max(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(v.log10().floor());
    let m = v / mag;
    let step = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    step * mag
}

/// The chart panel. Percent-like series share one axis; series in other units are
/// scaled to their own maximum (stated in the legend).
#[component]
pub fn MetricsChart(p: &ChartProps) -> Html {
    let hidden = use_state(Vec::<&'static str>::new);
    let shown: Vec<&Series> = p.series.iter().filter(|s| !hidden.contains(&s.name)).collect();
    let has_data = p.series.iter().any(|s| !s.points.is_empty());
    let x_max = p
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|pt| pt.0))
        .fold(1.0, f64::max);
    let x_min = p
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|pt| pt.0))
        .fold(x_max, f64::min);
    let pct_max = nice_max(
        shown
            .iter()
            .filter(|s| s.unit == "%")
            .flat_map(|s| s.points.iter().map(|pt| pt.1))
            .fold(0.0, f64::max),
    );
    let sx = |x: f64| PAD_L + (x - x_min) / (x_max - x_min).max(1.0) * (W - PAD_L - PAD_R);
    let sy = |y: f64, max: f64| H - PAD_B - (y / max).clamp(0.0, 1.0) * (H - PAD_T - PAD_B);
    let lines = p
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| !hidden.contains(&s.name))
        .map(|(i, s)| {
            let max = if s.unit == "%" {
                pct_max
            } else {
                nice_max(s.points.iter().map(|pt| pt.1).fold(0.0, f64::max))
            };
            let pts: String = s
                .points
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1} ", sx(x), sy(y, max)))
                .collect();
            let last = s.points.last().map(|pt| pt.1).unwrap_or(0.0);
            html! {
                <polyline points={pts} fill="none" stroke={COLORS[i % COLORS.len()]} stroke-width="2"
                          stroke-dasharray={DASHES[i % DASHES.len()]} class="series" data-series={s.name}>
                    <title>{ format!("{}: last {:.2}{}", s.name, last, s.unit) }</title>
                </polyline>
            }
        });
    let legend = p.series.iter().enumerate().map(|(i, s)| {
        let off = hidden.contains(&s.name);
        let onclick = {
            let hidden = hidden.clone();
            let name = s.name;
            Callback::from(move |_| {
                let mut h = (*hidden).clone();
                if let Some(pos) = h.iter().position(|n| *n == name) {
                    h.remove(pos);
                } else {
                    h.push(name);
                }
                hidden.set(h);
            })
        };
        let scale = if s.unit == "%" {
            String::new()
        } else {
            format!(
                " (max {:.0}{})",
                s.points.iter().map(|pt| pt.1).fold(0.0, f64::max),
                if s.unit.is_empty() { "" } else { s.unit }
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
    html! {
        <section class="panel chart" aria-label="Metrics over rounds">
            <h2>{"Metrics"}</h2>
            if has_data {
                <svg viewBox={format!("0 0 {W} {H}")} class="metrics" role="img"
                     aria-label={format!("{} series over rounds {} to {}", p.series.len(), x_min, x_max)}>
                    <line x1={PAD_L.to_string()} y1={(H - PAD_B).to_string()} x2={(W - PAD_R).to_string()} y2={(H - PAD_B).to_string()} class="axis" />
                    <line x1={PAD_L.to_string()} y1={PAD_T.to_string()} x2={PAD_L.to_string()} y2={(H - PAD_B).to_string()} class="axis" />
                    <text x={(PAD_L - 4.0).to_string()} y={(PAD_T + 8.0).to_string()} text-anchor="end" class="axis-label">{ format!("{pct_max:.0}%") }</text>
                    <text x={(PAD_L - 4.0).to_string()} y={(H - PAD_B).to_string()} text-anchor="end" class="axis-label">{"0"}</text>
                    <text x={PAD_L.to_string()} y={(H - 6.0).to_string()} class="axis-label">{ format!("{x_min}") }</text>
                    <text x={(W - PAD_R).to_string()} y={(H - 6.0).to_string()} text-anchor="end" class="axis-label">{ format!("round {x_max}") }</text>
                    { for lines }
                </svg>
            } else {
                <p class="hint">{ p.empty.clone() }</p>
            }
            <ul class="legend">{ for legend }</ul>
        </section>
    }
}
