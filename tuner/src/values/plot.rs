//! The report's plots, drawn with the `plotters` crate as SVG: figures
//! of one or more panels, each a set of series over categories (pieces,
//! or search budgets) with their 95% intervals, behind them a shaded
//! band per category (the suggested value give or take the tolerance).
//!
//! A panel's scale is its own, so that one estimator's wide intervals do
//! not squeeze another's flat; a panel may clip its intervals to the
//! range of its points, marking each cut end with an arrowhead.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::stats::bootstrap::Interval;

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

/// The bands' fill and their centre line.
const BAND: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
const BAND_LINE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// A value with its interval, if it has one.
pub type Point = (f64, Option<Interval>);

/// One series: a name and per category an optional point.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Per category.
    pub points: Vec<Option<Point>>,
}

/// Bands shaded behind a panel's series: the suggested values give or
/// take the tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Bands {
    /// Legend text.
    pub name: String,
    /// Per category, `(centre, half-width)`.
    pub bands: Vec<Option<(f64, f64)>>,
}

/// One panel of a figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// Its caption.
    pub title: String,
    /// The categories (x).
    pub labels: Vec<String>,
    /// The x axis' title.
    pub x_title: String,
    /// The y axis' title.
    pub y_title: String,
    /// The series, each in its colour.
    pub series: Vec<Series>,
    /// The bands behind the series.
    pub bands: Option<Bands>,
    /// Whether a series' points are joined by lines.
    pub joined: bool,
    /// Whether the scale is set by the points and bands alone, the
    /// intervals clipped to it.
    pub clip: bool,
    /// Whether the panel carries the legend.
    pub legend: bool,
}

/// The y range of `panel`: its points, bands and (unless clipped)
/// intervals, padded.
fn range_of(panel: &Panel) -> (f64, f64) {
    let mut values: Vec<f64> = Vec::new();
    for (value, interval) in panel.series.iter().flat_map(|s| s.points.iter().flatten()) {
        values.push(*value);
        if let (false, Some(i)) = (panel.clip, interval) {
            values.extend([i.low, i.high]);
        }
    }
    if let Some(bands) = &panel.bands {
        for &(centre, half) in bands.bands.iter().flatten() {
            values.extend([centre - half, centre + half]);
        }
    }
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let low = finite.clone().fold(f64::INFINITY, f64::min);
    let high = finite.fold(f64::NEG_INFINITY, f64::max);
    if !high.is_finite() || !low.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((high - low) * if panel.clip { 0.15 } else { 0.06 }).max(0.1);
    (low - pad, high + pad)
}

/// A figure of `panels`, `columns` to a row, each `panel_size` pixels,
/// under `title` (SVG). When no panel carries the legend and the grid
/// has a cell to spare, the first panel's legend fills it.
pub fn figure(
    title: &str,
    panels: &[Panel],
    columns: usize,
    panel_size: (u32, u32),
) -> Result<String, String> {
    let columns = columns.clamp(1, panels.len().max(1));
    let rows = panels.len().div_ceil(columns).max(1);
    let title_height = 34;
    let size = (
        panel_size.0 * columns as u32,
        panel_size.1 * rows as u32 + title_height,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let body = root
            .titled(title, ("sans-serif", 20))
            .map_err(|e| e.to_string())?;
        let cells = body.split_evenly((rows, columns));
        for (area, panel) in cells.iter().zip(panels) {
            draw_panel(area, panel)?;
        }
        if let (Some(spare), Some(first)) = (cells.get(panels.len()), panels.first()) {
            if !panels.iter().any(|p| p.legend) {
                draw_legend(spare, first)?;
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A plot of one panel, `size` pixels (SVG).
pub fn single_plot(panel: &Panel, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw_panel(&root, panel)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The legend of `panel` alone in `area`: its band, then its series.
fn draw_legend(area: &DrawingArea<SVGBackend<'_>, Shift>, panel: &Panel) -> Result<(), String> {
    let font = ("sans-serif", 14).into_font();
    let mut y = 40;
    if let Some(Bands { name, .. }) = &panel.bands {
        area.draw(&Rectangle::new([(20, y - 7), (44, y + 7)], BAND.filled()))
            .and_then(|_| {
                area.draw(&PathElement::new(
                    vec![(20, y), (44, y)],
                    BAND_LINE.stroke_width(2),
                ))
            })
            .and_then(|_| area.draw(&Text::new(name.clone(), (54, y - 8), font.clone())))
            .map_err(|e| e.to_string())?;
        y += 28;
    }
    for (number, series) in panel.series.iter().enumerate() {
        let color = PALETTE[number % PALETTE.len()];
        area.draw(&Circle::new((32, y), 5, color.filled()))
            .and_then(|_| {
                area.draw(&PathElement::new(
                    vec![(32, y - 12), (32, y + 12)],
                    color.stroke_width(2),
                ))
            })
            .and_then(|_| area.draw(&Text::new(series.name.clone(), (54, y - 8), font.clone())))
            .map_err(|e| e.to_string())?;
        y += 28;
    }
    Ok(())
}

fn draw_panel(area: &DrawingArea<SVGBackend<'_>, Shift>, panel: &Panel) -> Result<(), String> {
    let (low, high) = range_of(panel);
    let columns = panel.labels.len().max(1) as f64;
    let small = area.dim_in_pixel().0 < 400;
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", if small { 15 } else { 17 }))
        .margin(if small { 6 } else { 10 })
        .x_label_area_size(if small { 30 } else { 40 })
        .y_label_area_size(if small { 38 } else { 55 })
        .build_cartesian_2d(-0.5..columns - 0.5, low..high)
        .map_err(|e| e.to_string())?;
    let labels = &panel.labels;
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
        .y_labels(if small { 5 } else { 10 })
        .max_light_lines(1)
        .x_desc(panel.x_title.as_str())
        .y_desc(panel.y_title.as_str())
        .disable_x_mesh()
        .draw()
        .map_err(|e| e.to_string())?;
    if let Some(Bands { name, bands }) = &panel.bands {
        // Joined points share one band across the panel.
        let width = if panel.joined { 0.5 } else { 0.42 };
        let boxes: Vec<(f64, f64, f64)> = bands
            .iter()
            .enumerate()
            .filter_map(|(i, band)| band.map(|(centre, half)| (i as f64, centre, half)))
            .collect();
        chart
            .draw_series(boxes.iter().map(|&(x, centre, half)| {
                Rectangle::new(
                    [(x - width, centre - half), (x + width, centre + half)],
                    BAND.filled(),
                )
            }))
            .map_err(|e| e.to_string())?
            .label(name.as_str())
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], BAND.filled()));
        chart
            .draw_series(boxes.iter().map(|&(x, centre, _)| {
                PathElement::new(
                    vec![(x - width, centre), (x + width, centre)],
                    BAND_LINE.stroke_width(2),
                )
            }))
            .map_err(|e| e.to_string())?;
    }
    let count = panel.series.len().max(1) as f64;
    let step = if panel.joined {
        0.25 / count
    } else {
        0.6 / count
    };
    let arrow = (high - low) * 0.025;
    for (number, s) in panel.series.iter().enumerate() {
        let color = PALETTE[number % PALETTE.len()];
        let offset = (number as f64 - (count - 1.0) / 2.0) * step;
        let points: Vec<(f64, f64, Option<Interval>)> = s
            .points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|(v, interval)| (i as f64 + offset, v, interval)))
            .filter(|&(_, v, _)| v.is_finite())
            .collect();
        // The bar's own mark sits on the estimate, which a skewed
        // interval does not centre; a bar cut at the panel's edge ends
        // in an arrowhead.
        for &(x, value, interval) in &points {
            let Some(i) = interval else { continue };
            let (bottom, top) = (i.low.max(low), i.high.min(high));
            chart
                .draw_series(std::iter::once(ErrorBar::new_vertical(
                    x,
                    bottom,
                    value.clamp(bottom, top),
                    top,
                    color.filled(),
                    6,
                )))
                .map_err(|e| e.to_string())?;
            for (cut, end, sign) in [(i.low < low, bottom, -1.0), (i.high > high, top, 1.0)] {
                if cut {
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![
                                (x - 0.08, end - sign * arrow),
                                (x, end),
                                (x + 0.08, end - sign * arrow),
                            ],
                            color.stroke_width(2),
                        )))
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        if panel.joined {
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
    if panel.legend {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", if small { 11 } else { 13 }))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(series: Vec<Series>, clip: bool) -> Panel {
        Panel {
            title: "chess & co".to_string(),
            labels: ["N", "R", "Q"].iter().map(|s| s.to_string()).collect(),
            x_title: "piece".to_string(),
            y_title: "pawns".to_string(),
            series,
            bands: Some(Bands {
                name: "suggested +/- 0.5".to_string(),
                bands: vec![Some((3.0, 0.5)), Some((5.0, 0.5)), None],
            }),
            joined: false,
            clip,
            legend: true,
        }
    }

    #[test]
    fn plots_are_svg_with_one_marker_per_point_and_a_band_per_suggestion() {
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
        let svg = single_plot(&panel(series, false), (820, 460)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("chess &amp; co"), "the title is escaped");
        // Five points, two legend markers, and the centre dot that
        // plotters draws on the one error bar.
        assert_eq!(svg.matches("<circle").count(), 5 + 2 + 1);
        // Two bands and the band's legend box (and the legend's frame
        // and the plot's background: rectangles of their own).
        assert!(svg.matches("fill=\"#DDDDDD\"").count() >= 3, "{svg}");
        // The legend and the category labels are text lines of their own.
        assert!(svg.lines().any(|l| l.trim() == "designed"));
        assert!(svg.lines().any(|l| l.trim() == "Q"));
    }

    #[test]
    fn a_clipped_panel_is_scaled_by_its_points_and_marks_cut_intervals() {
        let wide = |value: f64| {
            Some((
                value,
                Some(Interval {
                    low: value - 60.0,
                    high: value + 70.0,
                }),
            ))
        };
        let series = vec![Series {
            name: "observational".to_string(),
            points: vec![wide(3.0), wide(5.0), wide(9.0)],
        }];
        let clipped = panel(series, true);
        let (low, high) = range_of(&clipped);
        // Points 3 to 9 and bands 2.5 to 5.5: 2.5 to 9, padded by 15%.
        assert!((low - (2.5 - 0.975)).abs() < 1e-9 && (high - (9.0 + 0.975)).abs() < 1e-9);
        let unclipped = Panel {
            clip: false,
            ..clipped.clone()
        };
        assert!(range_of(&unclipped).1 > 70.0);
        // Each bar cut at both ends: six arrowheads, three-point lines
        // that the same panel with narrow intervals does not have.
        let narrow = |value: f64| {
            Some((
                value,
                Some(Interval {
                    low: value - 0.5,
                    high: value + 0.5,
                }),
            ))
        };
        let uncut = Panel {
            series: vec![Series {
                name: "observational".to_string(),
                points: vec![narrow(3.0), narrow(5.0), narrow(9.0)],
            }],
            ..clipped.clone()
        };
        let lines = |panel: &Panel| {
            single_plot(panel, (820, 460))
                .unwrap()
                .matches("<polyline")
                .count()
        };
        assert_eq!(lines(&clipped), lines(&uncut) + 6);
    }

    #[test]
    fn a_figure_puts_its_panels_in_a_grid() {
        let series = vec![Series {
            name: "designed".to_string(),
            points: vec![Some((3.0, None)), Some((5.0, None)), Some((9.0, None))],
        }];
        let panels = vec![panel(series.clone(), false); 5];
        let svg = figure("five panels", &panels, 3, (220, 190)).unwrap();
        // Three columns, two rows, and the title's strip.
        assert!(
            svg.contains("width=\"660\" height=\"414\""),
            "{}",
            &svg[..200]
        );
        assert_eq!(svg.matches("chess &amp; co").count(), 5);
    }
}
