//! The SVG chart of a sequential run: per-query speed-up (SIPP time / JPST
//! time, log scale) against the number of agents already planned, with a
//! rolling median and the parity line. Drawn with `plotters`' SVG backend,
//! which writes text as SVG `<text>` and needs no font library.

use std::fmt::Display;
use std::path::Path;

use plotters::prelude::*;

use super::record::Study;
use super::report::median;

/// Queries on each side of a point in the rolling median.
const HALF_WINDOW: usize = 25;
/// Chart size in SVG pixels.
const SIZE: (u32, u32) = (1000, 600);

/// Draws the chart of `study` into `path`.
pub fn draw(path: &Path, study: &Study) -> Result<(), String> {
    let failed = |e: &dyn Display| format!("{}: {e}", path.display());
    let points: Vec<(f64, f64)> = study
        .records
        .iter()
        .map(|r| (r.planned_before as f64, r.speedup()))
        .filter(|(_, s)| s.is_finite() && *s > 0.0)
        .collect();
    let max_x = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let (lo, hi) = decades(points.iter().map(|p| p.1));

    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let title = format!("JPST vs SIPP per query: {}", study.title);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..max_x, (lo..hi).log_scale())
        .map_err(|e| failed(&e))?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .x_desc("agents already planned (moving obstacles)")
        .y_desc("speed-up = SIPP time / JPST time (log scale)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{}x", trim(*y)))
        .draw()
        .map_err(|e| failed(&e))?;

    let dots = BLUE.mix(0.35).filled();
    chart
        .draw_series(points.iter().map(|&p| Circle::new(p, 2, dots)))
        .map_err(|e| failed(&e))?
        .label("one query")
        .legend(|(x, y)| Circle::new((x + 10, y), 3, BLUE.filled()));
    chart
        .draw_series(LineSeries::new(
            rolling_median(&points),
            RED.stroke_width(2),
        ))
        .map_err(|e| failed(&e))?
        .label(format!("rolling median of {} queries", 2 * HALF_WINDOW + 1))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .draw_series(LineSeries::new([(0.0, 1.0), (max_x, 1.0)], BLACK))
        .map_err(|e| failed(&e))?
        .label("parity: 1x")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 14))
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| failed(&e))?;
    root.present().map_err(|e| failed(&e))
}

/// The smallest range of whole powers of ten that holds every value and 1.
fn decades(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (min, max) = values.fold((1.0f64, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let lo = 10f64.powf(min.log10().floor());
    let hi = 10f64.powf(max.log10().ceil());
    if hi > lo {
        (lo, hi)
    } else {
        (lo / 10.0, hi * 10.0)
    }
}

/// The median speed-up of each query and its neighbours (in scenario
/// order), at the query's position.
fn rolling_median(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut window = Vec::with_capacity(2 * HALF_WINDOW + 1);
    (0..points.len())
        .map(|i| {
            let from = i.saturating_sub(HALF_WINDOW);
            let to = (i + HALF_WINDOW + 1).min(points.len());
            window.clear();
            window.extend(points[from..to].iter().map(|p| p.1));
            (points[i].0, median(&mut window))
        })
        .collect()
}

/// A tick value without float noise: `0.30000000000000004` becomes `0.3`.
fn trim(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
