//! A sweep as a picture: one panel per figure, one row per setting, every
//! run a dot (runs with the same value, or values closer than a dot, share
//! one, drawn larger for more runs), the median as a solid tick and the 90th
//! percentile as a dashed one. The playground's colours and the exported
//! pictures' light theme.

use super::chart::COLORS;
use super::svg::{n, theme, Svg};
use crate::engine::outcome::fmt;
use crate::scenario::sweep::Sweep;
use std::fmt::Write as _;

/// Columns a panel's values are gathered into (dots per row at most).
const BINS: usize = 90;

/// A setting's row label: "as the scenario is", its one value, or its values.
fn label(v: &crate::scenario::sweep::Variant) -> String {
    let shown = |val: &serde_json::Value| val.as_str().map_or_else(|| val.to_string(), str::to_string);
    match v.config.as_slice() {
        [] => "as the scenario is".to_string(),
        // The keys are in the caption (the first) and in the sweep's table.
        c => c
            .iter()
            .map(|(_, val)| shown(val))
            .collect::<Vec<_>>()
            .join(" · "),
    }
}

/// Draw `sweep`, the figures named in `only` (all when empty), in the sweep's order.
pub fn draw(sweep: &Sweep, only: &[String], title: &str) -> Result<String, String> {
    let names: Vec<&'static str> = {
        let mut v: Vec<&'static str> = Vec::new();
        for r in &sweep.variants {
            for f in &r.figures {
                if !v.contains(&f.figure) {
                    v.push(f.figure);
                }
            }
        }
        if only.is_empty() {
            v
        } else {
            for o in only {
                if !v.iter().any(|x| x == o) {
                    return Err(format!(
                        "--figure {o:?}: this sweep has no such figure (it has: {})",
                        v.join(", ")
                    ));
                }
            }
            only.iter()
                .filter_map(|o| v.iter().copied().find(|x| x == o))
                .collect()
        }
    };
    let labels: Vec<String> = sweep.variants.iter().map(|r| label(&r.variant)).collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let (w, right) = (880.0, 850.0);
    // Room for the longest row label (about 6.6 user units a character at 12).
    let left = (30.0 + longest * 6.6).clamp(150.0, 420.0);
    let row = 24.0;
    let rows = sweep.variants.len() as f64;
    let panel = 30.0 + rows * row + 22.0;
    let top = 84.0;
    let height = top + panel * names.len() as f64 + 30.0;
    let mut svg = Svg::new(w, height, title);
    svg.root_attr("data-view", "sweep");
    svg.root_attr("data-seeds", &sweep.seeds.to_string());
    let rows_are = match sweep.variants.first().map(|v| v.variant.config.as_slice()) {
        Some([(k, _), ..])
            if sweep
                .variants
                .iter()
                .all(|v| v.variant.config.first().is_some_and(|c| c.0 == *k)) =>
        {
            format!(" · rows: {k}")
        }
        _ => String::new(),
    };
    svg.caption(&super::Caption {
        title: title.to_string(),
        summary: format!(
            "{} seeds ({} to {}) per setting{rows_are}",
            sweep.seeds, sweep.seed_range.0, sweep.seed_range.1,
        ),
        position: "one dot per run (larger: more runs with that value) · solid tick: median · dashed tick: 90th percentile"
            .to_string(),
    });
    svg.text(
        16.0,
        height - 12.0,
        11.0,
        "start",
        "400",
        theme::MUTED,
        &format!(
            "settled: no move for {} rounds and a spread within {} {} (docs/outcomes.md)",
            sweep.settle.quiet_rounds,
            fmt(sweep.settle.band),
            sweep.load_unit
        ),
    );
    for (pi, name) in names.iter().enumerate() {
        let y0 = top + pi as f64 * panel;
        svg.text(16.0, y0 + 16.0, 13.0, "start", "700", theme::FG, name);
        let figs: Vec<Option<&crate::scenario::sweep::Figure>> = sweep
            .variants
            .iter()
            .map(|r| r.figures.iter().find(|f| f.figure == *name))
            .collect();
        let finite = |x: f64| x.is_finite();
        let lo = figs
            .iter()
            .flatten()
            .flat_map(|f| f.values.iter().copied().filter(|x| finite(*x)))
            .fold(f64::INFINITY, f64::min);
        let hi = figs
            .iter()
            .flatten()
            .flat_map(|f| f.values.iter().copied().filter(|x| finite(*x)))
            .fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        let (lo, hi) = if hi - lo < 1e-9 {
            (lo - 1.0, hi + 1.0)
        } else {
            (lo, hi)
        };
        let x = |v: f64| {
            let v = if v.is_finite() { v } else { hi };
            left + (v - lo) / (hi - lo) * (right - left)
        };
        let axis_y = y0 + 26.0 + rows * row;
        svg.line(left, axis_y, right, axis_y, theme::BORDER, 1.0, "");
        svg.text(left, axis_y + 14.0, 11.0, "start", "400", theme::MUTED, &fmt(lo));
        svg.text(right, axis_y + 14.0, 11.0, "end", "400", theme::MUTED, &fmt(hi));
        for (vi, f) in figs.iter().enumerate() {
            let cy = y0 + 26.0 + vi as f64 * row + row / 2.0;
            let color = COLORS[vi % COLORS.len()];
            let label = &labels[vi];
            svg.text(left - 10.0, cy + 4.0, 12.0, "end", "400", theme::FG, label);
            svg.line(left, cy, right, cy, theme::PANEL, 1.0, "");
            let Some(f) = f else {
                svg.text(
                    left + 4.0,
                    cy + 4.0,
                    11.0,
                    "start",
                    "400",
                    theme::MUTED,
                    "no runs",
                );
                continue;
            };
            let mut bins = [0usize; BINS];
            for v in &f.values {
                let b = ((x(*v) - left) / (right - left) * (BINS - 1) as f64).round();
                bins[(b.max(0.0) as usize).min(BINS - 1)] += 1;
            }
            let most = bins.iter().copied().max().unwrap_or(1).max(1) as f64;
            let _ = write!(
                svg,
                "<g data-figure=\"{}\" data-variant=\"{vi}\">",
                super::svg::esc(name)
            );
            for (b, c) in bins.iter().enumerate() {
                if *c == 0 {
                    continue;
                }
                let cx = left + b as f64 / (BINS - 1) as f64 * (right - left);
                let r = 2.0 + 5.0 * (*c as f64 / most).sqrt();
                let _ = write!(
                    svg,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{color}\" fill-opacity=\"0.55\"><title>{c} runs</title></circle>",
                    n(cx),
                    n(cy),
                    n(r)
                );
            }
            let d = &f.dist;
            svg.line(x(d.median), cy - 9.0, x(d.median), cy + 9.0, theme::FG, 2.0, "");
            svg.line(
                x(d.p90),
                cy - 9.0,
                x(d.p90),
                cy + 9.0,
                theme::FG,
                1.5,
                " stroke-dasharray=\"3 2\"",
            );
            svg.raw("</g>");
        }
    }
    Ok(svg.finish())
}
