//! `solum roll EXPR` and `solum odds EXPR…`: dice notation, through `solum_app::expression` (one roll)
//! and the campaign's `roll_notation` (a journaled one).

use std::io::Write;
use std::path::Path;

use crate::storage::Replace;
use serde_json::Value;
use solum_app::expression::{ExpressionError, ExpressionOdds, TYPED_ORDER};
use solum_app::notation::NotationView;

use crate::bad;
use crate::cli::{NotationOddsArgs, NotationRollArgs};
use crate::render::{self, HEAD, paint, percent};

/// An error of a one-shot roll or odds: typed faces named as the flag that gave them.
fn expression_error(e: ExpressionError) -> anyhow::Error {
    if e.is_bad_input() {
        bad(e.describe("--rolled"))
    } else {
        anyhow::Error::new(e)
    }
}

/// `solum roll EXPR`: one roll, or with `--journal` (or `--campaign FILE`) the campaign's
/// use case, which journals it. Both give the same view (`seq` is `null` when nothing was
/// journaled), rendered alike.
pub fn roll(args: &NotationRollArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let text = args.expr.join(" ");
    let dice = super::campaign::dice(args.seed, args.rolled.as_deref())?;
    let view = if args.journal || args.campaign.campaign.is_some() {
        let typed = matches!(dice, solum_app::Dice::Typed(_));
        super::campaign::on_campaign(&args.campaign, |here| here.roll_notation(&text, dice))?
            .map_err(|e| match e {
                // Typed faces that do not fit name the flag, as the one-shot roll does.
                e @ solum_app::AppError::Dice(_) if typed => {
                    crate::dice::typed_dice_error(e, TYPED_ORDER)
                }
                e => e.into(),
            })?
    } else {
        solum_app::expression::roll_expression(&text, dice).map_err(expression_error)?
    };
    if args.json {
        return super::campaign::write_json(out, &view);
    }
    write_roll(&view, out)
}

/// A roll in text: the expression and total, each term with its dice, the seed, and the
/// journal entry if there is one.
fn write_roll(view: &NotationView, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} = {}",
        view.outcome.canonical,
        paint(HEAD, view.outcome.total)
    )?;
    if let Some(list) = view.outcome.terms.as_array() {
        for t in list {
            let term = t["term"].as_str().unwrap_or_default();
            let label = t["label"]
                .as_str()
                .map_or(String::new(), |l| format!(" [{l}]"));
            let dice: Vec<String> = t["dice"]
                .as_array()
                .map(|ds| ds.iter().map(die_json_text).collect())
                .unwrap_or_default();
            if dice.is_empty() {
                writeln!(out, "  {term}{label} → {}", t["value"])?;
            } else {
                writeln!(out, "  {term}{label}: {} → {}", dice.join(", "), t["value"])?;
            }
        }
    }
    match view.seed {
        Some(seed) => writeln!(out, "seed {seed} (replay with --seed {seed})")?,
        None => writeln!(out, "dice typed")?,
    }
    if let Some(seq) = view.seq {
        writeln!(out, "journal entry {seq}")?;
    }
    Ok(())
}

/// One die of a roll: its faces, rerolled ones marked, explosions joined with `+`, dropped
/// dice in brackets.
fn die_json_text(d: &Value) -> String {
    let mut text = String::new();
    let faces = d["faces"].as_array().cloned().unwrap_or_default();
    for (i, f) in faces.iter().enumerate() {
        let note = f["note"].as_str();
        if i > 0 {
            text.push_str(if note == Some("explosion") {
                " + "
            } else {
                " "
            });
        }
        let face = f["value"].to_string();
        text.push_str(&match note {
            None | Some("explosion") => face,
            Some(note) => format!("{face} ({note})"),
        });
    }
    if d["kept"].as_bool().unwrap_or(true) {
        text
    } else {
        format!("[{text} dropped]")
    }
}

/// Values shown in the text table: those with at least this chance (all, if fewer than
/// 60 values).
const SHOWN: f64 = 5e-5;

/// `solum odds EXPR…`: the exact odds of each expression (one budget for them all), as
/// `POST /api/odds` gives them, every value listed.
pub fn odds(args: &NotationOddsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let replace = if args.force {
        Replace::Allowed
    } else {
        Replace::Never
    };
    if let Some(path) = &args.plot {
        plot_format(path)?;
        // A target that will be refused is refused before the work.
        crate::storage::check_target(path, replace).map_err(|e| bad(e.to_string()))?;
    }
    let texts: Vec<&str> = args.exprs.iter().map(String::as_str).collect();
    let all =
        solum_app::expression::expression_odds(&texts, usize::MAX).map_err(expression_error)?;
    if let Some(path) = &args.plot {
        let bytes = plot(path, &all)?;
        super::campaign::write_file(path, &bytes, replace)?;
    }
    if args.json {
        return match all.as_slice() {
            [one] => super::campaign::write_json(out, one),
            list => super::campaign::write_json(out, &list),
        };
    }
    for (i, odds) in all.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write_odds(odds, out)?;
    }
    if let Some(path) = &args.plot {
        writeln!(out, "\nplot written to {}", path.display())?;
    }
    Ok(())
}

fn write_odds(d: &ExpressionOdds, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{}  mean {}  sd {:.4}",
        paint(HEAD, &d.expression),
        d.mean_text(4),
        d.sd
    )?;
    let rows = d.rows();
    let max = rows.iter().map(|r| r.p).fold(0.0, f64::max);
    let mut table = render::table(&["value", "=", "≥", "≤", ""], &[0, 1, 2, 3]);
    let mut hidden = 0usize;
    let few = rows.len() <= 60;
    for row in &rows {
        if few || row.p >= SHOWN {
            let bar = "█".repeat(((row.p / max) * 30.0).round() as usize);
            table.add_row(vec![
                row.value.to_string(),
                percent(row.eq),
                percent(row.at_least),
                percent(row.at_most),
                bar,
            ]);
        } else {
            hidden += 1;
        }
    }
    writeln!(out, "{table}")?;
    if hidden > 0 {
        writeln!(
            out,
            "({hidden} values with a chance below {:.3}% not shown; --json lists all)",
            SHOWN * 100.0
        )?;
    }
    let ps: Vec<String> = d
        .percentiles()
        .iter()
        .map(|(name, value)| format!("{name}%: {value}"))
        .collect();
    writeln!(out, "percentiles  {}", ps.join("  "))?;
    if d.has_tail() {
        writeln!(
            out,
            "(a tail of {:.1e} is left out: the chains of the Rule of 6 or die types never end)",
            d.neglected
        )?;
    }
    Ok(())
}

enum PlotFormat {
    Svg,
    Png,
}

fn plot_format(path: &Path) -> anyhow::Result<PlotFormat> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(PlotFormat::Svg),
        Some("png") => Ok(PlotFormat::Png),
        _ => Err(bad(format!(
            "--plot {}: the file must end in .svg or .png",
            path.display()
        ))),
    }
}

/// Distinct, dark enough to read on white.
const COLOURS: [plotters::style::RGBColor; 6] = [
    plotters::style::RGBColor(31, 119, 180),
    plotters::style::RGBColor(214, 39, 40),
    plotters::style::RGBColor(44, 160, 44),
    plotters::style::RGBColor(255, 127, 14),
    plotters::style::RGBColor(148, 103, 189),
    plotters::style::RGBColor(140, 86, 75),
];

/// The font of the plots, shipped with solum (DejaVu Sans, its licence beside it), so no
/// system font library is needed.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The plot's bytes, drawn in memory: plotters would write to the path itself, so the file
/// is written by the one safe writer instead.
fn plot(path: &Path, all: &[ExpressionOdds]) -> anyhow::Result<Vec<u8>> {
    use plotters::prelude::*;
    use plotters::style::{FontStyle, register_font};
    // Registering twice is harmless: the same font replaces itself.
    register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| anyhow::anyhow!("the shipped font cannot be read"))?;
    let (w, h) = (960u32, 600u32);
    let failed = |e: String| anyhow::anyhow!("--plot {}: {e}", path.display());
    match plot_format(path)? {
        PlotFormat::Svg => {
            let mut svg = String::new();
            draw(
                SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area(),
                all,
            )
            .map_err(failed)?;
            Ok(svg.into_bytes())
        }
        PlotFormat::Png => {
            // RGB, three bytes a pixel: 960 x 600 x 3, about 1.7 MB.
            let mut rgb = vec![0u8; (w as usize) * (h as usize) * 3];
            draw(
                BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area(),
                all,
            )
            .map_err(failed)?;
            let mut png = Vec::new();
            let mut encoder = png::Encoder::new(&mut png, w, h);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder
                .write_header()
                .and_then(|mut writer| writer.write_image_data(&rgb))
                .map_err(|e| failed(e.to_string()))?;
            Ok(png)
        }
    }
}

/// The x axis from the lowest value to the highest, with a margin of one value, or a
/// twentieth of the range where one value is lost in the size of the numbers (past 2^53).
fn axis(lo: f64, hi: f64) -> (f64, f64) {
    if lo > hi {
        return (0.0, 1.0);
    }
    let margin = ((hi - lo) / 20.0)
        .max(1.0)
        .max(lo.abs().max(hi.abs()) * 1e-12);
    (lo - margin, hi + margin)
}

/// A tick of the x axis: a whole number as one (`4`, not `4.0`), as `as` reads it (saturating
/// at the ends of i64).
fn value_label(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else if x.abs() >= 1e15 {
        format!("{x:.3e}")
    } else {
        format!("{x:.2}")
    }
}

fn draw<DB: plotters::prelude::DrawingBackend>(
    root: plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    all: &[ExpressionOdds],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    use plotters::prelude::*;
    let series: Vec<(String, Vec<(i64, f64)>)> = all
        .iter()
        .map(|d| {
            (
                d.expression.clone(),
                d.points()
                    .into_iter()
                    .map(|(v, p)| (v, p * 100.0))
                    .filter(|&(_, p)| p >= SHOWN * 100.0)
                    .collect(),
            )
        })
        .collect();
    // The axis runs in f64: values reach the ends of i64, where a margin of one, or the
    // plotting library's own `hi - lo`, would overflow.
    let series: Vec<(String, Vec<(f64, f64)>)> = series
        .into_iter()
        .map(|(name, s)| (name, s.into_iter().map(|(v, p)| (v as f64, p)).collect()))
        .collect();
    let xs = series.iter().flat_map(|(_, s)| s.iter().map(|(v, _)| *v));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let (lo, hi) = axis(lo, hi);
    let top = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|(_, p)| *p))
        .fold(0.0f64, f64::max)
        * 1.1;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Exact odds", ("sans-serif", 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(lo..hi, 0.0..top.max(1e-9))
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("value")
        .x_label_formatter(&|x| value_label(*x))
        .y_desc("probability (%)")
        .axis_desc_style(("sans-serif", 20))
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(e)?;
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()].to_rgba();
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(e)?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
            });
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, colour.filled())),
            )
            .map_err(e)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 18))
        .draw()
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}
