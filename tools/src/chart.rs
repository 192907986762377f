//! Charts drawn as SVG, so that the tools make pictures without gnuplot: points (with
//! error bars), lines, filled areas and functions, on linear or logarithmic axes.

use std::fmt::Write as _;

/// How a series is drawn.
pub enum Style {
    /// Marks at each point, with error bars when the series has them.
    Points,
    /// A line through the points, in order, with marks.
    LinesPoints,
    /// The area between the points and the bottom of the chart.
    Area,
    /// A function of x, sampled across the x range.
    Function(Box<dyn Fn(f64) -> f64>),
}

pub struct Series {
    pub label: String,
    /// `#rrggbb`.
    pub color: String,
    pub points: Vec<(f64, f64)>,
    /// Half-heights of error bars, one per point (empty: none).
    pub yerr: Vec<f64>,
    pub style: Style,
}

impl Series {
    pub fn new(label: impl Into<String>, color: impl Into<String>, style: Style) -> Series {
        Series {
            label: label.into(),
            color: color.into(),
            points: Vec::new(),
            yerr: Vec::new(),
            style,
        }
    }
}

#[derive(Default)]
pub struct Chart {
    pub title: String,
    pub xlabel: String,
    pub ylabel: String,
    pub logx: bool,
    pub logy: bool,
    /// Fixed ranges; computed from the data when `None`.
    pub xrange: Option<(f64, f64)>,
    pub yrange: Option<(f64, f64)>,
    pub series: Vec<Series>,
}

/// Colours for successive series (readable on white).
pub const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number for an axis label: short, exact for round values.
pub fn short(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        let s = format!("{v:.0e}");
        return s.replace("e", "e+").replace("e+-", "e-");
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

struct Axis {
    log: bool,
    lo: f64,
    hi: f64,
}

impl Axis {
    fn new(log: bool, mut lo: f64, mut hi: f64) -> Axis {
        if log {
            lo = lo.max(1e-300).log10().floor();
            hi = hi.max(1e-300).log10().ceil();
        }
        if hi <= lo {
            hi = lo + 1.0;
        }
        Axis { log, lo, hi }
    }

    /// 0..1 position of `v`.
    fn frac(&self, v: f64) -> f64 {
        let v = if self.log { v.max(1e-300).log10() } else { v };
        (v - self.lo) / (self.hi - self.lo)
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let step = ((self.hi - self.lo) / 8.0).ceil().max(1.0);
            let mut t = Vec::new();
            let mut e = self.lo;
            while e <= self.hi + 1e-9 {
                t.push(10f64.powf(e));
                e += step;
            }
            return t;
        }
        let span = self.hi - self.lo;
        let raw = span / 6.0;
        let mag = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .find(|s| span / s <= 7.0)
            .unwrap_or(10.0 * mag);
        let mut t = Vec::new();
        let mut v = (self.lo / step).ceil() * step;
        while v <= self.hi + step * 1e-9 {
            t.push(v);
            v += step;
        }
        t
    }

    fn sample(&self, n: usize) -> Vec<f64> {
        (0..=n)
            .map(|i| {
                let f = self.lo + (self.hi - self.lo) * i as f64 / n as f64;
                if self.log {
                    10f64.powf(f)
                } else {
                    f
                }
            })
            .collect()
    }
}

fn range(vals: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        (1.0, 10.0)
    } else if lo == hi {
        if log {
            (lo / 10.0, hi * 10.0)
        } else {
            (lo - 1.0, hi + 1.0)
        }
    } else {
        (lo, hi)
    }
}

impl Chart {
    /// The chart as a complete SVG document of `w` by `h` pixels.
    pub fn to_svg(&self, w: f64, h: f64) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
             <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n{}</svg>\n",
            self.group(0.0, 0.0, w, h)
        )
    }

    /// The chart drawn in the box at (`x`, `y`) of `w` by `h`, as an SVG group.
    pub fn group(&self, x: f64, y: f64, w: f64, h: f64) -> String {
        let (l, r, t, b) = (x + 70.0, x + w - 20.0, y + 30.0, y + h - 45.0);
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let (x0, x1) = self.xrange.unwrap_or_else(|| range(xs, self.logx));
        let ax = Axis::new(self.logx, x0, x1);
        let mut ys: Vec<f64> = Vec::new();
        for s in &self.series {
            match &s.style {
                Style::Function(f) => ys.extend(ax.sample(64).into_iter().map(f)),
                _ => {
                    for (i, p) in s.points.iter().enumerate() {
                        let e = s.yerr.get(i).copied().unwrap_or(0.0);
                        ys.push(p.1 + e);
                        ys.push(if self.logy && p.1 - e <= 0.0 {
                            p.1
                        } else {
                            p.1 - e
                        });
                    }
                }
            }
        }
        let (y0, y1) = self
            .yrange
            .unwrap_or_else(|| range(ys.into_iter(), self.logy));
        let ay = Axis::new(self.logy, y0, y1);
        let px = |v: f64| l + ax.frac(v) * (r - l);
        let py = |v: f64| b - ay.frac(v) * (b - t);
        let mut o = String::from("<g>\n");
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">{}</text>",
            (l + r) / 2.0,
            y + 18.0,
            esc(&self.title)
        );
        for tv in ax.ticks() {
            let p = px(tv);
            let _ = writeln!(
                o,
                "<line x1=\"{p:.1}\" y1=\"{t}\" x2=\"{p:.1}\" y2=\"{b}\" stroke=\"#e4e4e4\"/>\
                 <text x=\"{p:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                b + 15.0,
                short(tv)
            );
        }
        for tv in ay.ticks() {
            let p = py(tv);
            let _ = writeln!(
                o,
                "<line x1=\"{l}\" y1=\"{p:.1}\" x2=\"{r}\" y2=\"{p:.1}\" stroke=\"#e4e4e4\"/>\
                 <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                l - 4.0,
                p + 4.0,
                short(tv)
            );
        }
        let _ = writeln!(
            o,
            "<rect x=\"{l}\" y=\"{t}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>",
            r - l,
            b - t
        );
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            (l + r) / 2.0,
            b + 32.0,
            esc(&self.xlabel)
        );
        let _ = writeln!(
            o,
            "<text transform=\"translate({},{}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            x + 16.0,
            (t + b) / 2.0,
            esc(&self.ylabel)
        );
        let _ = writeln!(
            o,
            "<clipPath id=\"clip{x:.0}_{y:.0}\"><rect x=\"{l}\" y=\"{t}\" width=\"{}\" height=\"{}\"/></clipPath>\
             <g clip-path=\"url(#clip{x:.0}_{y:.0})\">",
            r - l,
            b - t
        );
        for s in &self.series {
            let c = &s.color;
            match &s.style {
                Style::Function(f) => {
                    let pts: Vec<String> = ax
                        .sample(128)
                        .into_iter()
                        .map(|xv| (xv, f(xv)))
                        .filter(|(_, yv)| yv.is_finite() && (!self.logy || *yv > 0.0))
                        .map(|(xv, yv)| format!("{:.1},{:.1}", px(xv), py(yv)))
                        .collect();
                    let _ = writeln!(
                        o,
                        "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>",
                        pts.join(" ")
                    );
                }
                Style::Area => {
                    let mut pts: Vec<String> = vec![format!(
                        "{:.1},{b}",
                        px(s.points.first().map_or(0.0, |p| p.0))
                    )];
                    pts.extend(
                        s.points
                            .iter()
                            .map(|(xv, yv)| format!("{:.1},{:.1}", px(*xv), py(*yv))),
                    );
                    pts.push(format!(
                        "{:.1},{b}",
                        px(s.points.last().map_or(0.0, |p| p.0))
                    ));
                    let _ = writeln!(
                        o,
                        "<polygon points=\"{}\" fill=\"{c}\" stroke=\"none\"/>",
                        pts.join(" ")
                    );
                }
                Style::Points | Style::LinesPoints => {
                    if matches!(s.style, Style::LinesPoints) && s.points.len() > 1 {
                        let pts: Vec<String> = s
                            .points
                            .iter()
                            .map(|(xv, yv)| format!("{:.1},{:.1}", px(*xv), py(*yv)))
                            .collect();
                        let _ = writeln!(
                            o,
                            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\"/>",
                            pts.join(" ")
                        );
                    }
                    for (i, (xv, yv)) in s.points.iter().enumerate() {
                        if self.logy && *yv <= 0.0 {
                            continue;
                        }
                        let (cx, cy) = (px(*xv), py(*yv));
                        if let Some(e) = s.yerr.get(i).filter(|e| **e > 0.0) {
                            let lo = if self.logy {
                                (yv - e).max(yv / 1e3)
                            } else {
                                yv - e
                            };
                            let _ = writeln!(
                                o,
                                "<line x1=\"{cx:.1}\" y1=\"{:.1}\" x2=\"{cx:.1}\" y2=\"{:.1}\" stroke=\"{c}\"/>",
                                py(lo),
                                py(yv + e)
                            );
                        }
                        let _ = writeln!(
                            o,
                            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"3\" fill=\"{c}\"/>"
                        );
                    }
                }
            }
        }
        o.push_str("</g>\n");
        for (i, s) in self.series.iter().enumerate() {
            let ly = t + 14.0 + 16.0 * i as f64;
            let _ = writeln!(
                o,
                "<rect x=\"{}\" y=\"{:.1}\" width=\"12\" height=\"10\" fill=\"{}\"/>\
                 <text x=\"{}\" y=\"{:.1}\">{}</text>",
                l + 8.0,
                ly - 9.0,
                s.color,
                l + 24.0,
                ly,
                esc(&s.label)
            );
        }
        o.push_str("</g>\n");
        o
    }
}

/// Several charts stacked vertically in one SVG document, each `w` by `h`.
pub fn stack_svg(charts: &[Chart], w: f64, h: f64) -> String {
    let total = h * charts.len() as f64;
    let mut body = String::new();
    for (i, c) in charts.iter().enumerate() {
        body.push_str(&c.group(0.0, h * i as f64, w, h));
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{total}\" \
         viewBox=\"0 0 {w} {total}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{total}\" fill=\"white\"/>\n{body}</svg>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_powers_of_ten_and_points_land_inside() {
        let a = Axis::new(true, 3.0, 5000.0);
        assert_eq!(a.ticks(), vec![1.0, 10.0, 100.0, 1000.0, 10000.0]);
        assert!((a.frac(100.0) - 0.5).abs() < 1e-9);
        let mut c = Chart {
            logx: true,
            logy: true,
            ..Default::default()
        };
        let mut s = Series::new("m", "#000000", Style::Points);
        s.points = vec![(10.0, 1.0), (1000.0, 100.0)];
        c.series.push(s);
        let svg = c.to_svg(400.0, 300.0);
        assert_eq!(svg.matches("<circle").count(), 2);
    }

    #[test]
    fn linear_ticks_are_round() {
        let a = Axis::new(false, 0.0, 100.0);
        assert_eq!(a.ticks(), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
    }
}
