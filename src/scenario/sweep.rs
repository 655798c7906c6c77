//! A sweep: one scenario replayed over many seeds (and, optionally, several
//! settings), each run's [`Outcome`] summarised per setting as the
//! distribution of every figure. Runs are independent; natively they are
//! shared out over threads, and the result is the same, byte for byte,
//! whatever the number of threads (each run's place in the result is fixed by
//! its setting and seed, never by when it finished).

use super::run::{self, Settle};
use super::{Scenario, ScenarioError};
use crate::engine::outcome::{Distribution, Outcome};
use serde::Serialize;

/// The most runs (seeds × settings) one sweep makes.
pub const MAX_RUNS: usize = 100_000;

/// One setting of a sweep: config keys set over the scenario's own config.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Variant {
    /// `key=value, key=value` (empty: the scenario as it is).
    pub label: String,
    /// The keys set, in the order given.
    pub config: Vec<(String, serde_json::Value)>,
}

/// What to sweep.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The scenario.
    pub scenario: Scenario,
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// The settings (at least one).
    pub variants: Vec<Variant>,
    /// The settling rule.
    pub settle: Settle,
}

/// One figure's distribution over a setting's runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure {
    /// Its name ([`Outcome::figures`]).
    pub figure: &'static str,
    /// Its distribution.
    #[serde(flatten)]
    pub dist: Distribution,
    /// Every run's value, in seed order (runs without the figure left out).
    #[serde(skip)]
    pub values: Vec<f64>,
}

/// A run that was refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refusal {
    /// Its seed.
    pub seed: u64,
    /// Why.
    pub error: String,
}

/// One setting's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantResult {
    /// The setting.
    #[serde(flatten)]
    pub variant: Variant,
    /// Runs that finished.
    pub runs: usize,
    /// Runs refused (the scenario is not valid under this setting or seed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refusal>,
    /// Each figure's distribution, in [`Outcome::figures`] order.
    pub figures: Vec<Figure>,
}

/// A sweep's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sweep {
    /// The system.
    pub system: &'static str,
    /// Seeds run per setting.
    pub seeds: usize,
    /// The first and last seed.
    pub seed_range: (u64, u64),
    /// The settling rule.
    pub settle: crate::engine::outcome::Settings,
    /// The unit of load.
    pub load_unit: &'static str,
    /// Per setting.
    pub variants: Vec<VariantResult>,
}

/// Read `--seeds`: `N` (seeds 1 to N), `A..B` (A to B, both included) or
/// `A..=B` (the same).
pub fn parse_seeds(s: &str) -> Result<Vec<u64>, String> {
    let bad = || format!("--seeds {s:?}: give a count (1000) or a range (1..1000, both ends included)");
    let s = s.trim();
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (
                a.trim().parse::<u64>().map_err(|_| bad())?,
                b.trim().parse::<u64>().map_err(|_| bad())?,
            )
        }
        None => {
            let n = s.parse::<u64>().map_err(|_| bad())?;
            if n == 0 {
                return Err(format!("--seeds {s}: at least one seed"));
            }
            (1, n)
        }
    };
    if b < a {
        return Err(format!("--seeds {s}: the range ends before it starts"));
    }
    if b - a >= MAX_RUNS as u64 {
        return Err(format!(
            "--seeds {s}: {} seeds is more than the {MAX_RUNS} runs a sweep makes",
            (b - a).saturating_add(1)
        ));
    }
    Ok((a..=b).collect())
}

/// A value on the command line: JSON when it is a JSON literal (`true`, `3`,
/// `0.5`), else text.
fn value_of(x: &str) -> serde_json::Value {
    let x = x.trim();
    serde_json::from_str(x).unwrap_or_else(|_| serde_json::Value::String(x.to_string()))
}

/// A value as a label shows it (text without quotes).
fn shown(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Read the settings of a sweep: each `--setting 'k1=v1; k2=v2'` is one
/// setting of several keys (for keys that only make sense together), and each
/// `--vary key=v1,v2` multiplies the settings by its values: every
/// combination, the first option varying slowest. A value is read as JSON when
/// it is a JSON literal (`true`, `3`, `0.5`), else as text.
pub fn parse_variants(settings: &[String], vary: &[String]) -> Result<Vec<Variant>, String> {
    let mut base: Vec<Variant> = Vec::new();
    for s in settings {
        let mut config = Vec::new();
        for part in s.split(';').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--setting {s:?}: write key=value; key=value"))?;
            if k.trim().is_empty() {
                return Err(format!("--setting {s:?}: write key=value; key=value"));
            }
            config.push((k.trim().to_string(), value_of(v)));
        }
        if config.is_empty() {
            return Err(format!("--setting {s:?}: write key=value; key=value"));
        }
        let label = config
            .iter()
            .map(|(k, v)| format!("{k}={}", shown(v)))
            .collect::<Vec<_>>()
            .join("; ");
        base.push(Variant { label, config });
    }
    parse_vary_over(base, vary)
}

/// Read the `--vary key=v1,v2` options alone ([`parse_variants`]).
pub fn parse_vary(vary: &[String]) -> Result<Vec<Variant>, String> {
    parse_vary_over(Vec::new(), vary)
}

fn parse_vary_over(base: Vec<Variant>, vary: &[String]) -> Result<Vec<Variant>, String> {
    let mut out = if base.is_empty() {
        vec![Variant {
            label: String::new(),
            config: Vec::new(),
        }]
    } else {
        base
    };
    for v in vary {
        let (key, values) = v
            .split_once('=')
            .ok_or_else(|| format!("--vary {v:?}: write key=value1,value2"))?;
        let key = key.trim();
        if key.is_empty() || values.trim().is_empty() {
            return Err(format!("--vary {v:?}: write key=value1,value2"));
        }
        let values: Vec<serde_json::Value> = values.split(',').map(value_of).collect();
        out = out
            .into_iter()
            .flat_map(|base| {
                values.iter().map(move |val| {
                    let mut config = base.config.clone();
                    config.push((key.to_string(), val.clone()));
                    let label = if base.label.is_empty() {
                        format!("{key}={}", shown(val))
                    } else {
                        format!("{}; {key}={}", base.label, shown(val))
                    };
                    Variant { label, config }
                })
            })
            .collect();
    }
    Ok(out)
}

impl Variant {
    /// The scenario with this setting's keys set (checked as a scenario file's
    /// config is: an unknown key or a bad value is refused with its reason).
    pub fn apply(&self, sc: &Scenario) -> Result<Scenario, String> {
        if self.config.is_empty() {
            return Ok(sc.clone());
        }
        let mut v = serde_json::to_value(sc).map_err(|e| e.to_string())?;
        let cfg = v
            .get_mut("config")
            .and_then(|c| c.as_object_mut())
            .ok_or("the scenario has no config to change")?;
        for (k, val) in &self.config {
            cfg.insert(k.clone(), val.clone());
        }
        let text = serde_json::to_string(&v).map_err(|e| e.to_string())?;
        let out = Scenario::from_json(&text).map_err(|e| format!("--vary {}: {e}", self.label))?;
        out.validate()
            .map_err(|e| format!("--vary {}: {e}", self.label))?;
        Ok(out)
    }
}

/// Run one seed of a setting.
fn one(sc: &Scenario, seed: u64, settle: Settle) -> Result<Outcome, ScenarioError> {
    let mut sc = sc.clone();
    sc.seed = seed;
    run::outcome(&sc, settle)
}

/// Run every job `f(i)` for `i` in `0..n` on `threads` threads; the results
/// in job order.
#[cfg(not(target_arch = "wasm32"))]
fn in_parallel<T: Send>(n: usize, threads: usize, f: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = threads.clamp(1, n.max(1));
    if threads == 1 {
        return (0..n).map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut parts: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        mine.push((i, f(i)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut all: Vec<(usize, T)> = parts.drain(..).flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

/// Without threads (the browser's worker is one thread): in order.
#[cfg(target_arch = "wasm32")]
fn in_parallel<T: Send>(n: usize, _threads: usize, f: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    (0..n).map(f).collect()
}

/// The number of threads the machine offers (1 when it cannot tell).
pub fn available_threads() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
}

/// Run the sweep on `threads` threads (1: in order on this one).
pub fn sweep(plan: &Plan, threads: usize) -> Result<Sweep, String> {
    if plan.seeds.is_empty() || plan.variants.is_empty() {
        return Err("a sweep needs at least one seed and one setting".into());
    }
    let runs = plan.seeds.len().saturating_mul(plan.variants.len());
    if runs > MAX_RUNS {
        return Err(format!(
            "{} seeds × {} settings is {runs} runs, more than the {MAX_RUNS} a sweep makes",
            plan.seeds.len(),
            plan.variants.len()
        ));
    }
    let scenarios: Vec<Scenario> = plan
        .variants
        .iter()
        .map(|v| v.apply(&plan.scenario))
        .collect::<Result<_, _>>()?;
    sweep_applied(plan, &scenarios, threads)
}

/// [`sweep`] of settings already applied: `scenarios[i]` is the plan's
/// scenario under its setting `i` (the playground changes a config key as its
/// compare run does, without [`Variant::apply`]'s round trip through JSON).
pub fn sweep_applied(plan: &Plan, scenarios: &[Scenario], threads: usize) -> Result<Sweep, String> {
    if plan.seeds.is_empty() || scenarios.len() != plan.variants.len() {
        return Err("a sweep needs at least one seed and a scenario per setting".into());
    }
    let runs = plan.seeds.len() * plan.variants.len();
    let ns = plan.seeds.len();
    let outcomes = in_parallel(runs, threads, &|i| {
        one(&scenarios[i / ns], plan.seeds[i % ns], plan.settle)
    });
    let system = plan.scenario.body.system();
    let settle = plan.settle.settings(system);
    let mut load_unit = "";
    let variants = plan
        .variants
        .iter()
        .enumerate()
        .map(|(vi, v)| {
            let mut refused = Vec::new();
            let mut done: Vec<&Outcome> = Vec::new();
            for (si, r) in outcomes[vi * ns..(vi + 1) * ns].iter().enumerate() {
                match r {
                    Ok(o) => done.push(o),
                    Err(e) => refused.push(Refusal {
                        seed: plan.seeds[si],
                        error: e.to_string(),
                    }),
                }
            }
            if let Some(o) = done.first() {
                load_unit = o.load_unit;
            }
            VariantResult {
                variant: v.clone(),
                runs: done.len(),
                refused,
                figures: figures(&done),
            }
        })
        .collect();
    Ok(Sweep {
        system: system.slug(),
        seeds: ns,
        seed_range: (plan.seeds[0], plan.seeds[ns - 1]),
        settle,
        load_unit,
        variants,
    })
}

/// Every figure's values over `runs`, in [`crate::engine::outcome::FIGURES`] order.
fn figures(runs: &[&Outcome]) -> Vec<Figure> {
    let mut names: Vec<&'static str> = Vec::new();
    let mut values: Vec<Vec<f64>> = Vec::new();
    for o in runs {
        for (k, v) in o.figures() {
            let i = match names.iter().position(|n| *n == k) {
                Some(i) => i,
                None => {
                    names.push(k);
                    values.push(Vec::new());
                    names.len() - 1
                }
            };
            values[i].push(v);
        }
    }
    let mut all: Vec<(&'static str, Vec<f64>)> = names.into_iter().zip(values).collect();
    let place = |k: &str| crate::engine::outcome::FIGURES.iter().position(|f| *f == k);
    crate::sort::StableSort::stable_sort_by_key(&mut all[..], |(k, _)| place(k));
    all.into_iter()
        .filter_map(|(figure, values)| Distribution::of(&values).map(|dist| Figure { figure, dist, values }))
        .collect()
}

impl Sweep {
    /// The table as text: one block per setting, one line per figure.
    pub fn to_text(&self) -> String {
        use crate::engine::outcome::fmt;
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} seeds ({}..{}) of a {} scenario; settled = no move for {} rounds, spread within {} {}",
            self.seeds,
            self.seed_range.0,
            self.seed_range.1,
            self.system,
            self.settle.quiet_rounds,
            fmt(self.settle.band),
            self.load_unit
        );
        for v in &self.variants {
            let name = if v.variant.label.is_empty() {
                "as the scenario is"
            } else {
                &v.variant.label
            };
            let _ = writeln!(s, "\n{name}: {} runs", v.runs);
            for r in v.refused.iter().take(3) {
                let _ = writeln!(s, "  seed {} refused: {}", r.seed, r.error);
            }
            if v.refused.len() > 3 {
                let _ = writeln!(s, "  ... {} refused in all", v.refused.len());
            }
            let _ = writeln!(
                s,
                "  {:<22} {:>6} {:>10} {:>10} {:>10} {:>10}",
                "figure", "runs", "min", "median", "p90", "max"
            );
            for f in &v.figures {
                let d = &f.dist;
                let _ = writeln!(
                    s,
                    "  {:<22} {:>6} {:>10} {:>10} {:>10} {:>10}",
                    f.figure,
                    d.n,
                    fmt(d.min),
                    fmt(d.median),
                    fmt(d.p90),
                    fmt(d.max)
                );
            }
        }
        s
    }

    /// The results as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_settings_are_read() {
        assert_eq!(parse_seeds("3").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_seeds("5..7").unwrap(), vec![5, 6, 7]);
        assert_eq!(parse_seeds("5..=7").unwrap(), vec![5, 6, 7]);
        assert!(parse_seeds("0").is_err());
        assert!(parse_seeds("7..5").is_err());
        assert!(parse_seeds("x").is_err());
        assert!(parse_seeds("1..1000000").unwrap_err().contains("100000"));
        let v = parse_vary(&["a=1,x".into(), "b=true".into()]).unwrap();
        let labels: Vec<&str> = v.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["a=1; b=true", "a=x; b=true"]);
        assert_eq!(v[0].config[0].1, serde_json::json!(1));
        assert_eq!(v[1].config[0].1, serde_json::json!("x"));
        assert!(parse_vary(&["nokey".into()]).is_err());
        let v = parse_variants(&["a=1; b=x".into(), "a=2".into()], &["c=3,4".into()]).unwrap();
        let labels: Vec<&str> = v.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["a=1; b=x; c=3", "a=1; b=x; c=4", "a=2; c=3", "a=2; c=4"]);
        assert!(parse_variants(&["=1".into()], &[]).is_err());
    }
}
