//! The report's plots, drawn with the `plotters` crate as SVG: values
//! with their 95% intervals per piece, values against the search budget,
//! and the half-width of the intervals against the games played.

use plotters::prelude::*;

use super::bootstrap::Interval;

/// Plot size, pixels.
const SIZE: (u32, u32) = (820, 460);

/// Colours of successive series (colour-blind safe, Okabe-Ito).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0x99, 0x99, 0x99),
];

/// One series: a name and per x position an optional value with an
/// optional interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Per x position.
    pub points: Vec<Option<(f64, Option<Interval>)>>,
}

fn range_of(series: &[Series], floor_zero: bool) -> (f64, f64) {
    let mut low = if floor_zero { 0.0 } else { f64::INFINITY };
    let mut high = f64::NEG_INFINITY;
    for (value, interval) in series.iter().flat_map(|s| s.points.iter().flatten()) {
        for v in [
            Some(*value),
            interval.map(|i| i.low),
            interval.map(|i| i.high),
        ]
        .into_iter()
        .flatten()
        .filter(|v| v.is_finite())
        {
            low = low.min(v);
            high = high.max(v);
        }
    }
    if !high.is_finite() || !low.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((high - low) * 0.06).max(0.1);
    (if floor_zero { low } else { low - pad }, high + pad)
}

/// A plot of `series` over the categories `labels` (x), values in
/// `y_title` units, each series a little apart from the others so that
/// the bars do not overlap; `joined` draws lines between a series' points.
pub fn category_plot(
    title: &str,
    labels: &[String],
    x_title: &str,
    y_title: &str,
    series: &[Series],
    joined: bool,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (low, high) = range_of(series, !joined);
        let columns = labels.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d(-0.5..columns - 0.5, low..high)
            .map_err(|e| e.to_string())?;
        let label_of = |x: &f64| -> String {
            let index = x.round();
            if (x - index).abs() < 1e-6 && index >= 0.0 {
                labels.get(index as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_labels(labels.len().max(1))
            .x_label_formatter(&label_of)
            .x_desc(x_title)
            .y_desc(y_title)
            .disable_x_mesh()
            .draw()
            .map_err(|e| e.to_string())?;
        let count = series.len().max(1) as f64;
        let step = if joined { 0.25 / count } else { 0.6 / count };
        for (number, s) in series.iter().enumerate() {
            let color = PALETTE[number % PALETTE.len()];
            let offset = (number as f64 - (count - 1.0) / 2.0) * step;
            let points: Vec<(f64, f64, Option<Interval>)> = s
                .points
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.map(|(v, interval)| (i as f64 + offset, v, interval)))
                .collect();
            chart
                .draw_series(points.iter().filter_map(|&(x, value, interval)| {
                    // The bar's own mark sits on the estimate, which a
                    // skewed interval does not centre.
                    interval
                        .map(|i| ErrorBar::new_vertical(x, i.low, value, i.high, color.filled(), 6))
                }))
                .map_err(|e| e.to_string())?;
            if joined {
                chart
                    .draw_series(LineSeries::new(
                        points.iter().map(|&(x, v, _)| (x, v)),
                        color.stroke_width(2),
                    ))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|&(x, v, _)| Circle::new((x, v), 4, color.filled())),
                )
                .map_err(|e| e.to_string())?
                .label(s.name.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_svg_with_one_marker_per_point() {
        let series = vec![
            Series {
                name: "designed".to_string(),
                points: vec![
                    Some((
                        3.0,
                        Some(Interval {
                            low: 2.5,
                            high: 3.5,
                        }),
                    )),
                    None,
                    Some((9.0, None)),
                ],
            },
            Series {
                name: "suggested".to_string(),
                points: vec![Some((3.25, None)), Some((5.0, None)), Some((9.75, None))],
            },
        ];
        let labels: Vec<String> = ["N", "R", "Q"].iter().map(|s| s.to_string()).collect();
        let svg = category_plot("chess & co", &labels, "piece", "pawns", &series, false).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("chess &amp; co"), "the title is escaped");
        // Five points, two legend markers, and the centre dot that
        // plotters draws on the one error bar.
        assert_eq!(svg.matches("<circle").count(), 5 + 2 + 1);
        // The legend and the category labels are text lines of their own.
        assert!(svg.lines().any(|l| l.trim() == "designed"));
        assert!(svg.lines().any(|l| l.trim() == "Q"));
    }
}
