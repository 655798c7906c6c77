//! A small SVG writer: escaped text and attributes, numbers with a fixed number
//! of decimals (so the same state always gives the same bytes), and the light
//! theme every exported picture uses (readable on slides and paper).

use std::fmt::Write as _;

/// The light theme's colours.
pub mod theme {
    /// Page background.
    pub const BG: &str = "#ffffff";
    /// Text.
    pub const FG: &str = "#1d1d1f";
    /// Secondary text, lines.
    pub const MUTED: &str = "#5f6368";
    /// Borders and grid lines.
    pub const BORDER: &str = "#d9d9d4";
    /// Panels (cards, free slots).
    pub const PANEL: &str = "#f4f4f0";
    /// The accent (a bar under the overload line).
    pub const ACCENT: &str = "#0072B2";
    /// Over the line.
    pub const HOT: &str = "#D55E00";
    /// Font stack.
    pub const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
}

/// Okabe–Ito colour-blind-safe palette (the playground's); the grey (last) is
/// kept for "no owner" / "unknown".
pub const PALETTE: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
];

/// The `i`-th colour of the palette, skipping the grey; and a text colour readable on it.
pub fn color(i: usize) -> (&'static str, &'static str) {
    let c = PALETTE[i % (PALETTE.len() - 1)];
    (c, if c == "#0072B2" { "#ffffff" } else { "#000000" })
}

/// The grey of "no owner".
pub const GREY: &str = "#999999";

/// Escape `s` for text content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Characters XML 1.0 does not allow (C0 control characters) become a
            // space, and so does a carriage return (XML reads it as a space anyway;
            // a terminal the picture is printed to would go back to the line's start).
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n') => out.push(' '),
            // U+FFFE / U+FFFF (not XML characters either), DEL and the C1
            // controls (XML allows them, terminals act on them), bidirectional
            // overrides: U+FFFD, so every picture is well-formed and inert.
            c if crate::safe_text::is_unsafe(c) && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A number with two decimals, trailing zeros dropped (`12`, `12.5`, `12.25`).
pub fn n(x: f64) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// An SVG document being written.
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
    title: String,
    attrs: String,
}

impl Svg {
    /// A picture of `width` × `height` user units with an accessible `title`.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        Svg {
            body: String::new(),
            width,
            height,
            title: title.to_string(),
            attrs: String::new(),
        }
    }

    /// Add `name="value"` to the root element (`data-*` facts for scripts and tests).
    pub fn root_attr(&mut self, name: &str, value: &str) {
        let _ = write!(self.attrs, " {name}=\"{}\"", esc(value));
    }

    /// Grow the picture to at least `height`.
    pub fn fit_height(&mut self, height: f64) {
        self.height = self.height.max(height);
    }

    /// Width.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// Append raw markup (already escaped).
    pub fn raw(&mut self, s: &str) {
        self.body.push_str(s);
    }

    /// Text `t` at (x, y): `size` in user units, `anchor` start / middle / end,
    /// `weight` a CSS font weight, `fill` a colour.
    #[allow(clippy::too_many_arguments)]
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, weight: &str, fill: &str, t: &str) {
        let _ = write!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" font-weight=\"{weight}\" fill=\"{fill}\">{}</text>",
            n(x),
            n(y),
            n(size),
            esc(t)
        );
    }

    /// A rectangle.
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        rx: f64,
        fill: &str,
        stroke: Option<&str>,
        extra: &str,
    ) {
        let stroke = stroke.map_or(String::new(), |s| format!(" stroke=\"{s}\""));
        let _ = write!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{fill}\"{stroke}{extra}/>",
            n(x),
            n(y),
            n(w.max(0.0)),
            n(h.max(0.0)),
            n(rx)
        );
    }

    /// A line.
    #[allow(clippy::too_many_arguments)]
    pub fn line(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, stroke: &str, width: f64, extra: &str) {
        let _ = write!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\"{extra}/>",
            n(x0),
            n(y0),
            n(x1),
            n(y1),
            n(width)
        );
    }

    /// The caption block at the top: the system in bold, the scenario summary,
    /// the position (round, time). Returns the y where the drawing starts.
    pub fn caption(&mut self, c: &super::Caption) -> f64 {
        self.text(16.0, 26.0, 16.0, "start", "700", theme::FG, &c.title);
        self.text(16.0, 46.0, 12.0, "start", "400", theme::MUTED, &c.summary);
        self.text(16.0, 63.0, 12.0, "start", "400", theme::MUTED, &c.position);
        76.0
    }

    /// The legend: one swatch and label per entry, from (x, y) down, wrapping
    /// to a new column every `per_column` entries. Returns the bottom y.
    pub fn legend(&mut self, x: f64, y: f64, entries: &[(String, String)], per_column: usize) -> f64 {
        let per_column = per_column.max(1);
        self.raw("<g class=\"legend\">");
        let mut bottom = y;
        for (i, (color, label)) in entries.iter().enumerate() {
            let col = (i / per_column) as f64;
            let row = (i % per_column) as f64;
            let (lx, ly) = (x + col * 150.0, y + row * 18.0);
            if color == "hatch" {
                self.rect(
                    lx,
                    ly,
                    12.0,
                    12.0,
                    2.0,
                    "url(#unowned-hatch)",
                    Some(theme::MUTED),
                    "",
                );
            } else {
                self.rect(lx, ly, 12.0, 12.0, 2.0, color, Some(theme::BORDER), "");
            }
            self.text(lx + 18.0, ly + 10.5, 12.0, "start", "400", theme::FG, label);
            bottom = bottom.max(ly + 18.0);
        }
        self.raw("</g>");
        bottom
    }

    /// The document.
    pub fn finish(self) -> String {
        format!(
            concat!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" ",
                "role=\"img\" aria-label=\"{t}\" font-family=\"{font}\"{attrs}>",
                "<title>{t}</title>",
                "<defs><pattern id=\"unowned-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">",
                "<rect width=\"6\" height=\"6\" fill=\"#eeeeea\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9a9a94\" stroke-width=\"2\"/></pattern></defs>",
                "<rect width=\"100%\" height=\"100%\" fill=\"{bg}\"/>{body}</svg>\n"
            ),
            w = n(self.width),
            h = n(self.height.ceil()),
            t = esc(&self.title),
            font = theme::FONT,
            attrs = self.attrs,
            bg = theme::BG,
            body = self.body
        )
    }
}

/// `write!` appends raw markup (already escaped by the caller).
impl std::fmt::Write for Svg {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.raw(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_escapes() {
        assert_eq!(n(12.0), "12");
        assert_eq!(n(12.5), "12.5");
        assert_eq!(n(-0.001), "0");
        assert_eq!(n(f64::NAN), "0");
        assert_eq!(esc("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;&quot;&#39; ");
        assert_eq!(
            esc("x\u{FFFE}\u{FFFF}\u{9b}\u{7f}\u{202e}y"),
            "x\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}y"
        );
    }
}
