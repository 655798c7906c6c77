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
        let (lo, hi) = range(figs.iter().flatten().flat_map(|f| f.values.iter().copied()));
        let x = scale(lo, hi, left, right);
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
            let _ = write!(
                svg,
                "<g data-figure=\"{}\" data-variant=\"{vi}\">",
                super::svg::esc(name)
            );
            let row = Row {
                left,
                right,
                cy,
                color,
                bins: BINS,
                radius: (2.0, 5.0),
                tick: 9.0,
            };
            row.draw(&mut svg, f, &x);
            svg.raw("</g>");
        }
    }
    Ok(svg.finish())
}

/// The lowest and highest finite value (0 to 1 when there is none), widened
/// by 1 either side when they are the same.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    if hi - lo < 1e-9 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    }
}

/// Where a value goes between `left` and `right` (infinity: at the right end).
fn scale(lo: f64, hi: f64, left: f64, right: f64) -> impl Fn(f64) -> f64 {
    move |v: f64| {
        let v = if v.is_finite() { v } else { hi };
        left + (v - lo) / (hi - lo) * (right - left)
    }
}

/// One row of dots: where it is and how it is drawn.
struct Row {
    left: f64,
    right: f64,
    cy: f64,
    color: &'static str,
    /// Columns the values are gathered into.
    bins: usize,
    /// A dot's radius: the first plus the second times the square root of its
    /// share of the fullest column.
    radius: (f64, f64),
    /// Half the height of the median and 90th-percentile ticks.
    tick: f64,
}

impl Row {
    /// The dots of `f`'s values, its median and its 90th percentile.
    fn draw(&self, svg: &mut Svg, f: &crate::scenario::sweep::Figure, x: &dyn Fn(f64) -> f64) {
        let (left, right, cy) = (self.left, self.right, self.cy);
        let mut bins = vec![0usize; self.bins];
        for v in &f.values {
            let b = ((x(*v) - left) / (right - left) * (self.bins - 1) as f64).round();
            bins[(b.max(0.0) as usize).min(self.bins - 1)] += 1;
        }
        let most = bins.iter().copied().max().unwrap_or(1).max(1) as f64;
        for (b, c) in bins.iter().enumerate() {
            if *c == 0 {
                continue;
            }
            let cx = left + b as f64 / (self.bins - 1) as f64 * (right - left);
            let r = self.radius.0 + self.radius.1 * (*c as f64 / most).sqrt();
            let _ = write!(
                svg,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" fill-opacity=\"0.55\"><title>{c} runs</title></circle>",
                n(cx),
                n(cy),
                n(r),
                self.color
            );
        }
        let (d, t) = (&f.dist, self.tick);
        svg.line(x(d.median), cy - t, x(d.median), cy + t, theme::FG, 2.0, "");
        svg.line(
            x(d.p90),
            cy - t,
            x(d.p90),
            cy + t,
            theme::FG,
            1.5,
            " stroke-dasharray=\"3 2\"",
        );
    }
}

/// The playground's spread over seeds ([`small`]).
pub struct Small {
    /// The picture.
    pub svg: String,
    /// One sentence per figure drawn.
    pub lines: Vec<String>,
    /// The figures the same in every run, as "name value, name value".
    pub same: String,
}

impl Small {
    /// The spread as the page shows it (one element): the picture, the figures
    /// that never differ, the words (folded) and the runs refused, each line of
    /// `refused` escaped.
    pub fn to_html(&self, refused: &[String]) -> String {
        use super::svg::esc;
        let mut s = "<div class=\"spread-body\">".to_string();
        // No figure differs: no picture, the line below says it all.
        if !self.lines.is_empty() {
            let _ = write!(s, "<figure class=\"spread-view\">{}</figure>", self.svg);
        }
        if !self.same.is_empty() {
            let _ = write!(
                s,
                "<p class=\"hint spread-same\">The same in every seed: {}.</p>",
                esc(&self.same)
            );
        }
        if !self.lines.is_empty() {
            let _ = write!(
                s,
                "<details class=\"spread-words\"><summary>In words</summary><p>{}</p></details>",
                esc(&self.lines.join("\n"))
            );
        }
        if !refused.is_empty() {
            let _ = write!(
                s,
                "<p class=\"field-error spread-refused\">Refused:\n{}</p>",
                esc(&refused.join("\n"))
            );
        }
        s + "</div>"
    }
}

/// A figure's values over `seeds` runs in words: "100 in 18 of 30 seeds, 75
/// in 12" when they take at most three values, else "0.5 to 3, median 1.2"
/// (a run without the figure, one that did not settle, is not counted).
fn in_words(values: &[f64], median: f64, seeds: usize) -> String {
    let mut counts: Vec<(f64, usize)> = Vec::new();
    for v in values {
        match counts.iter_mut().find(|(x, _)| x == v) {
            Some(c) => c.1 += 1,
            None => counts.push((*v, 1)),
        }
    }
    crate::sort::StableSort::stable_sort_by(&mut counts[..], |a, b| b.1.cmp(&a.1).then(a.0.total_cmp(&b.0)));
    match counts.as_slice() {
        [(v, k)] if *k == seeds => format!("{} in all {seeds} seeds", fmt(*v)),
        c if c.len() <= 3 => c
            .iter()
            .enumerate()
            .map(|(i, (v, k))| match i {
                0 => format!("{} in {k} of {seeds} seeds", fmt(*v)),
                _ => format!("{} in {k}", fmt(*v)),
            })
            .collect::<Vec<_>>()
            .join(", "),
        _ => {
            let (lo, hi) = values
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                    (a.min(*v), b.max(*v))
                });
            format!("{} to {}, median {}", fmt(lo), fmt(hi), fmt(median))
        }
    }
}

/// The spread of a sweep over seeds as the playground's metrics panel shows
/// it, 420 wide: one small panel per figure that differs between runs or
/// settings, one row per setting (`labels`), every seed a dot (larger: more
/// seeds), the median a solid tick, the 90th percentile a dashed one, and a
/// ring where the run of `seed` falls (`this`: its figures, per setting). The
/// figures that never differ are said in one line instead.
pub fn small(sweep: &Sweep, labels: &[String], this: &[Vec<(&'static str, f64)>], seed: u64) -> Small {
    let w = 420.0;
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let left = (16.0 + longest * 6.0).clamp(70.0, 170.0);
    let right = w - 14.0;
    let (drawn, same) = differing(sweep, this);
    let (row, head, gap) = (16.0, 18.0, 10.0);
    let rows = sweep.variants.len() as f64;
    let block = head + rows * row + gap;
    let top = 36.0;
    let height = top + block * drawn.len() as f64 + 4.0;
    let mut svg = Svg::new(
        w,
        height,
        &format!("The outcome over seeds 1 to {}", sweep.seed_range.1),
    );
    svg.root_attr("data-view", "spread");
    svg.root_attr("data-seeds", &sweep.seeds.to_string());
    svg.root_attr("data-seed", &seed.to_string());
    svg.text(
        8.0,
        14.0,
        11.0,
        "start",
        "400",
        theme::MUTED,
        &format!(
            "one dot per seed, {} to {} (larger: more seeds) · ring: seed {seed}, on screen",
            sweep.seed_range.0, sweep.seed_range.1
        ),
    );
    svg.text(
        8.0,
        28.0,
        11.0,
        "start",
        "400",
        theme::MUTED,
        "solid tick: median · dashed tick: 90th percentile",
    );
    let at = Panel {
        left,
        right,
        head,
        row,
        seed,
    };
    let lines = drawn
        .iter()
        .enumerate()
        .map(|(pi, name)| at.draw(&mut svg, sweep, labels, this, name, top + pi as f64 * block))
        .collect();
    Small {
        svg: svg.finish(),
        lines,
        same: same.join(", "),
    }
}

/// The figure `name` of the run of the on-screen seed under setting `vi`.
fn this_of(this: &[Vec<(&'static str, f64)>], vi: usize, name: &str) -> Option<f64> {
    this.get(vi)
        .and_then(|t| t.iter().find(|(k, _)| *k == name))
        .map(|(_, v)| *v)
}

/// The figures of `sweep` in their first order: those that differ between runs
/// or settings (to draw), and the others as "name value".
fn differing(sweep: &Sweep, this: &[Vec<(&'static str, f64)>]) -> (Vec<&'static str>, Vec<String>) {
    let mut names: Vec<&'static str> = Vec::new();
    for f in sweep.variants.iter().flat_map(|v| &v.figures) {
        if !names.contains(&f.figure) {
            names.push(f.figure);
        }
    }
    let (mut drawn, mut same) = (Vec::new(), Vec::new());
    for name in names {
        let mut all = sweep.variants.iter().enumerate().flat_map(|(vi, v)| {
            let f = v.figures.iter().find(|f| f.figure == name);
            f.into_iter()
                .flat_map(|f| f.values.iter().copied())
                .chain(this_of(this, vi, name))
        });
        let first = all.next();
        let runs_lack_it = sweep
            .variants
            .iter()
            .any(|v| v.runs > 0 && v.figures.iter().all(|f| f.figure != name));
        match first {
            Some(a) if !runs_lack_it && all.all(|b| b == a) => same.push(format!("{name} {}", fmt(a))),
            _ => drawn.push(name),
        }
    }
    (drawn, same)
}

/// The layout of one figure's panel: the dot rows' span, the heading's and a
/// row's height, and the on-screen seed.
struct Panel {
    left: f64,
    right: f64,
    head: f64,
    row: f64,
    seed: u64,
}

impl Panel {
    /// Figure `name`'s panel from `y0`: its heading and range, a row of dots per
    /// setting; the sentence that says it.
    fn draw(
        &self,
        svg: &mut Svg,
        sweep: &Sweep,
        labels: &[String],
        this: &[Vec<(&'static str, f64)>],
        name: &str,
        y0: f64,
    ) -> String {
        let (left, right, seed) = (self.left, self.right, self.seed);
        let figs: Vec<Option<&crate::scenario::sweep::Figure>> = sweep
            .variants
            .iter()
            .map(|r| r.figures.iter().find(|f| f.figure == name))
            .collect();
        let marks: Vec<Option<f64>> = (0..figs.len()).map(|vi| this_of(this, vi, name)).collect();
        let (lo, hi) = range(
            figs.iter()
                .flatten()
                .flat_map(|f| f.values.iter().copied())
                .chain(marks.iter().flatten().copied()),
        );
        let x = scale(lo, hi, left, right);
        svg.text(8.0, y0 + 12.0, 11.0, "start", "700", theme::FG, name);
        svg.text(
            right,
            y0 + 12.0,
            10.0,
            "end",
            "400",
            theme::MUTED,
            &format!("{} to {}", fmt(lo), fmt(hi)),
        );
        let mut words = Vec::new();
        for (vi, f) in figs.iter().enumerate() {
            let cy = y0 + self.head + vi as f64 * self.row + self.row / 2.0;
            svg.text(left - 8.0, cy + 4.0, 10.0, "end", "400", theme::FG, &labels[vi]);
            svg.line(left, cy, right, cy, theme::PANEL, 1.0, "");
            let mark = marks[vi];
            let Some(f) = f else {
                // Only "rounds to settle" is left out of a run: it did not settle.
                let none = if name == "rounds to settle" {
                    "no run settled"
                } else {
                    "no run has it"
                };
                svg.text(left + 4.0, cy + 4.0, 10.0, "start", "400", theme::MUTED, none);
                words.push(format!("{}: {none}", labels[vi]));
                continue;
            };
            let d = &f.dist;
            let _ = write!(
                svg,
                "<g data-figure=\"{}\" data-variant=\"{vi}\" data-n=\"{}\" data-min=\"{}\" data-median=\"{}\" data-p90=\"{}\" data-max=\"{}\"{}>",
                super::svg::esc(name),
                d.n,
                fmt(d.min),
                fmt(d.median),
                fmt(d.p90),
                fmt(d.max),
                mark.map_or(String::new(), |m| format!(" data-this=\"{}\"", fmt(m)))
            );
            let r = Row {
                left,
                right,
                cy,
                color: COLORS[vi % COLORS.len()],
                bins: 60,
                radius: (1.5, 3.5),
                tick: 6.0,
            };
            r.draw(svg, f, &x);
            if let Some(m) = mark {
                let _ = write!(
                    svg,
                    "<circle class=\"this-seed\" cx=\"{}\" cy=\"{}\" r=\"5.5\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"><title>seed {seed}: {}</title></circle>",
                    n(x(m)),
                    n(cy),
                    theme::FG,
                    fmt(m)
                );
            }
            svg.raw("</g>");
            words.push(format!(
                "{}: {}{}",
                labels[vi],
                in_words(&f.values, d.median, sweep.seeds),
                mark.map_or(String::new(), |m| format!(" (seed {seed}: {})", fmt(m)))
            ));
        }
        format!("{name}: {}", words.join("; "))
    }
}
