//! A small SVG writer for the report's two plots: values with error bars
//! per piece, and values over the rounds of a run.

use std::fmt::Write as _;

use super::bootstrap::Interval;

/// Plot size and margins, pixels.
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 175.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// Colours of successive series (colour-blind safe, Okabe-Ito).
pub const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

/// How a series' points are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Dot,
    /// An open square.
    Square,
    /// A filled triangle.
    Triangle,
}

/// One series of a plot: a name, a look, and per x position an optional
/// value with an optional interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Colour (CSS).
    pub color: String,
    /// Marker.
    pub marker: Marker,
    /// Whether consecutive points are joined by lines.
    pub joined: bool,
    /// Per x position: the value and its interval.
    pub points: Vec<Option<(f64, Option<Interval>)>>,
}

/// Escapes text for XML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Axis ticks covering `low..high`: steps of 1, 2 or 5 times a power of ten,
/// about five of them.
pub fn ticks(low: f64, high: f64) -> Vec<f64> {
    let span = (high - low).max(1e-9);
    let raw = span / 5.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power);
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// A plot of `series` over categorical x positions labelled `labels`,
/// with the y axis titled `y_title`.
pub fn plot(title: &str, labels: &[String], y_title: &str, series: &[Series]) -> String {
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for (value, interval) in series.iter().flat_map(|s| s.points.iter().flatten()) {
        for v in [
            Some(*value),
            interval.map(|i| i.low),
            interval.map(|i| i.high),
        ]
        .into_iter()
        .flatten()
        {
            if v.is_finite() {
                low = low.min(v);
                high = high.max(v);
            }
        }
    }
    if !low.is_finite() {
        (low, high) = (0.0, 1.0);
    }
    let pad = ((high - low) * 0.05).max(0.1);
    low = (low - pad).min(0.0);
    high += pad;
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let columns = labels.len().max(1) as f64;
    let x_of =
        |index: usize, offset: f64| LEFT + plot_width * (index as f64 + 0.5 + offset) / columns;
    let y_of = |value: f64| TOP + plot_height * (high - value.clamp(low, high)) / (high - low);
    let mut svg = String::new();
    // Writing to a String cannot fail.
    let mut put = |text: String| svg.push_str(&text);
    put(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    ));
    put(format!(
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n"
    ));
    put(format!(
        "<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
        LEFT + plot_width / 2.0,
        escape(title)
    ));
    for tick in ticks(low, high) {
        let y = y_of(tick);
        put(format!(
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>\n\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            LEFT + plot_width,
            LEFT - 6.0,
            y + 4.0,
            format_tick(tick)
        ));
    }
    put(format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_width}\" height=\"{plot_height}\" fill=\"none\" stroke=\"#444444\"/>\n"
    ));
    put(format!(
        "<text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
        TOP + plot_height / 2.0,
        escape(y_title)
    ));
    for (index, label) in labels.iter().enumerate() {
        put(format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            x_of(index, 0.0),
            HEIGHT - BOTTOM + 18.0,
            escape(label)
        ));
    }
    let count = series.len().max(1) as f64;
    for (number, s) in series.iter().enumerate() {
        // Spread the series of one column a little so that bars do not
        // overlap: by a fixed step for a few series, within a third of the
        // column for many joined ones.
        let step = if s.joined { 0.3 / count } else { 0.18 };
        let offset = (number as f64 - (count - 1.0) / 2.0) * step;
        if s.joined {
            let points: Vec<String> = s
                .points
                .iter()
                .enumerate()
                .filter_map(|(i, p)| {
                    p.map(|(v, _)| format!("{:.1},{:.1}", x_of(i, offset), y_of(v)))
                })
                .collect();
            put(format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n",
                points.join(" "),
                s.color
            ));
        }
        for (i, point) in s.points.iter().enumerate() {
            let Some((value, interval)) = point else {
                continue;
            };
            let x = x_of(i, offset);
            if let Some(interval) = interval {
                let (top, bottom) = (y_of(interval.high), y_of(interval.low));
                put(format!(
                    "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top:.1}\" y2=\"{bottom:.1}\" stroke=\"{0}\"/>\n\
                     <line x1=\"{1:.1}\" x2=\"{2:.1}\" y1=\"{top:.1}\" y2=\"{top:.1}\" stroke=\"{0}\"/>\n\
                     <line x1=\"{1:.1}\" x2=\"{2:.1}\" y1=\"{bottom:.1}\" y2=\"{bottom:.1}\" stroke=\"{0}\"/>\n",
                    s.color,
                    x - 4.0,
                    x + 4.0
                ));
            }
            put(marker(s.marker, x, y_of(*value), &s.color));
        }
        let legend_y = TOP + 14.0 + 20.0 * number as f64;
        let legend_x = WIDTH - RIGHT + 16.0;
        put(marker(s.marker, legend_x, legend_y - 4.0, &s.color));
        put(format!(
            "<text x=\"{:.1}\" y=\"{legend_y:.1}\">{}</text>\n",
            legend_x + 12.0,
            escape(&s.name)
        ));
    }
    put("</svg>\n".to_string());
    svg
}

fn format_tick(value: f64) -> String {
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = write!(text, "{}", (value * 1000.0).round() / 1000.0);
    text
}

fn marker(kind: Marker, x: f64, y: f64, color: &str) -> String {
    match kind {
        Marker::Dot => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{color}\"/>\n"),
        Marker::Square => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\" fill=\"white\" stroke=\"{color}\" stroke-width=\"1.5\"/>\n",
            x - 4.0,
            y - 4.0
        ),
        Marker::Triangle => format!(
            "<polygon points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{color}\"/>\n",
            x,
            y - 5.0,
            x - 5.0,
            y + 4.0,
            x + 5.0,
            y + 4.0
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers_inside_the_range() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(-0.3, 1.2), vec![0.0, 0.5, 1.0]);
    }

    #[test]
    fn plots_are_well_formed_and_escape_text() {
        let series = Series {
            name: "fitted <95%>".to_string(),
            color: PALETTE[0].to_string(),
            marker: Marker::Dot,
            joined: false,
            points: vec![
                Some((
                    1.0,
                    Some(Interval {
                        low: 0.5,
                        high: 1.5,
                    }),
                )),
                None,
            ],
        };
        let svg = plot(
            "A & B",
            &["P".to_string(), "Q".to_string()],
            "pawns",
            &[series],
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("A &amp; B") && svg.contains("fitted &lt;95%&gt;"));
        // One point with an error bar: one circle in the plot, one in the legend.
        assert_eq!(svg.matches("<circle").count(), 2);
        // The y range is 0 (values start at 0) to 1.5 + 0.1 padding: grid
        // lines at 0, 0.5, 1 and 1.5, and the error bar's three lines.
        assert_eq!(svg.matches("<line").count(), 4 + 3);
    }
}
