//! A sparkline: a tiny line of one quantity over time (a broker's msg/s in
//! over the last rounds, an instance's records/s), scaled to a given maximum
//! so the lines of a list can be compared, with its last value beside it.

use yew::prelude::*;

/// Sparkline properties.
#[derive(Properties, PartialEq)]
pub struct SparklineProps {
    /// The values, oldest first.
    pub values: Vec<f64>,
    /// The value drawn at the top (0 at the bottom); the values' own maximum when 0.
    #[prop_or_default]
    pub max: f64,
    /// What the line is (its title and accessible name).
    pub label: AttrValue,
}

const W: f64 = 90.0;
const H: f64 = 18.0;

/// The points of the line.
pub fn points(values: &[f64], max: f64) -> String {
    let top = if max > 0.0 {
        max
    } else {
        values.iter().copied().fold(0.0, f64::max)
    }
    .max(1e-9);
    let n = values.len().max(2) - 1;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            format!(
                "{:.1},{:.1}",
                i as f64 * W / n as f64,
                H - 1.0 - (v / top).clamp(0.0, 1.0) * (H - 2.0)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A sparkline.
#[component]
pub fn Sparkline(p: &SparklineProps) -> Html {
    html! {
        <svg class="sparkline" width="90" height="18" viewBox="0 0 90 18" role="img" aria-label={p.label.clone()}>
            <title>{ p.label.clone() }</title>
            <line x1="0" x2="90" y1="17" y2="17" stroke="currentColor" stroke-opacity="0.2" />
            if p.values.len() >= 2 {
                <polyline points={points(&p.values, p.max)} fill="none" stroke="var(--accent, #0072B2)" stroke-width="1.5" />
            }
        </svg>
    }
}
