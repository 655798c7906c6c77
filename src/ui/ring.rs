//! The 32-bit hash ring: one arc per bundle, one tick per topic (presentational).

use crate::engine::pulsar::bundle::{BundleRange, FULL_SPACE};
use std::f64::consts::PI;
use yew::prelude::*;

/// Okabe–Ito colour-blind-safe palette (black last).
pub const PALETTE: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
];

/// A tick on the ring.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Label (topic name).
    pub label: String,
    /// Position on the ring.
    pub hash: u32,
    /// The bundle holding it.
    pub bundle: String,
}

/// Ring properties.
#[derive(Properties, Clone, PartialEq)]
pub struct RingProps {
    /// Bundles in ring order.
    pub bundles: Vec<BundleRange>,
    /// Colour index per bundle.
    pub colors: Vec<usize>,
    /// Topic ticks.
    pub ticks: Vec<Tick>,
    /// Accessible title.
    pub title: AttrValue,
}

const C: f64 = 160.0;
const R_OUT: f64 = 140.0;
const R_IN: f64 = 100.0;

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

/// The hash ring.
#[component]
pub fn Ring(p: &RingProps) -> Html {
    let arcs = p.bundles.iter().enumerate().map(|(i, b)| {
        let hi = u64::from(b.upper) + u64::from(b.is_closed());
        let color = PALETTE[p.colors.get(i).copied().unwrap_or(i) % PALETTE.len()];
        let name = b.name();
        let label = format!("bundle {name}");
        html! {
            <path class="arc" d={arc_path(u64::from(b.lower), hi)} fill={color}
                  data-bundle={name.clone()} tabindex="0" role="img" aria-label={label.clone()}>
                <title>{label}</title>
            </path>
        }
    });
    let ticks = p.ticks.iter().map(|t| {
        let a = angle(u64::from(t.hash));
        let (x0, y0) = point(R_IN - 4.0, a);
        let (x1, y1) = point(R_OUT + 8.0, a);
        let label = format!("{} · 0x{:08x} · bundle {}", t.label, t.hash, t.bundle);
        html! {
            <line class="tick" x1={format!("{x0:.2}")} y1={format!("{y0:.2}")} x2={format!("{x1:.2}")} y2={format!("{y1:.2}")}
                  data-topic={t.label.clone()} data-bundle={t.bundle.clone()} data-hash={format!("0x{:08x}", t.hash)}
                  tabindex="0" role="img" aria-label={label.clone()}>
                <title>{label}</title>
            </line>
        }
    });
    html! {
        <svg class="ring" viewBox="0 0 320 320" role="group" aria-label={p.title.clone()}>
            <g class="arcs">{ for arcs }</g>
            <g class="ticks">{ for ticks }</g>
            <text x="160" y="156" class="ring-label" text-anchor="middle">{ format!("{} bundles", p.bundles.len()) }</text>
            <text x="160" y="176" class="ring-sub" text-anchor="middle">{ format!("{} topics", p.ticks.len()) }</text>
            <text x="160" y="12" class="ring-sub" text-anchor="middle">{"0x00000000"}</text>
        </svg>
    }
}
