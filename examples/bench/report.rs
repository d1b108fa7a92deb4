//! The Markdown report of a sequential run: queries grouped by how many
//! agents were already planned, per planner totals and medians, and the
//! JPST/SIPP speed-up.

use std::fmt::Write;

use super::record::{JPST, QueryRecord, SIPP, Study};

/// Upper ends (exclusive) of the first buckets of already-planned agents;
/// after the last one, buckets are [`WIDE_BUCKET`] agents wide.
const BUCKET_ENDS: [usize; 4] = [100, 300, 600, 1000];
/// Width of the buckets past the last of [`BUCKET_ENDS`].
const WIDE_BUCKET: usize = 1000;

/// A range of already-planned agent counts, `from..to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    /// Smallest count in the bucket.
    pub from: usize,
    /// One past the largest count in the bucket.
    pub to: usize,
}

impl Bucket {
    /// `from-last`, e.g. `100-299`.
    pub fn label(self) -> String {
        format!("{}-{}", self.from, self.to - 1)
    }

    /// True if the record's already-planned count lies in the bucket.
    pub fn holds(self, record: &QueryRecord) -> bool {
        (self.from..self.to).contains(&record.planned_before)
    }
}

/// The buckets 0-99, 100-299, 300-599, 600-999, then 1000 wide, up to the
/// one holding `max_planned`.
pub fn buckets(max_planned: usize) -> Vec<Bucket> {
    let mut out = Vec::new();
    let mut from = 0;
    while from <= max_planned {
        let to = BUCKET_ENDS
            .iter()
            .copied()
            .find(|&end| end > from)
            .unwrap_or(from + WIDE_BUCKET);
        out.push(Bucket { from, to });
        from = to;
    }
    out
}

/// One planner over a set of queries.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    queries: usize,
    skipped: usize,
    total_ns: u64,
    median_ns: f64,
    expanded: u64,
    generated: u64,
    heuristic_us: u64,
}

/// SIPP's summed time over a planner's (`own`): above 1 the planner is
/// faster.
fn speedup(sipp: &Totals, own: &Totals) -> f64 {
    sipp.total_ns.max(1) as f64 / own.total_ns.max(1) as f64
}

fn totals(records: &[&QueryRecord], planner: usize) -> Totals {
    let mut t = Totals::default();
    let mut nanos = Vec::with_capacity(records.len());
    for run in records.iter().map(|r| r.runs[planner]) {
        let Some(run) = run else {
            t.skipped += 1;
            continue;
        };
        t.queries += 1;
        t.total_ns += run.nanos;
        t.expanded += run.expanded;
        t.generated += run.generated;
        t.heuristic_us += run.heuristic_micros;
        nanos.push(run.nanos as f64);
    }
    t.median_ns = median(&mut nanos);
    t
}

/// The median (mean of the two middle values for an even count); NaN if
/// there is none.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The whole report: the setting, the speed-up summary per bucket and the
/// per-planner details.
pub fn markdown(study: &Study) -> String {
    let max_planned = study
        .records
        .iter()
        .map(|r| r.planned_before)
        .max()
        .unwrap_or(0);
    let mut groups: Vec<(String, Vec<&QueryRecord>)> = buckets(max_planned)
        .into_iter()
        .map(|b| {
            (
                b.label(),
                study
                    .records
                    .iter()
                    .filter(|r| b.holds(r))
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, records)| !records.is_empty())
        .collect();
    groups.push(("all".into(), study.records.iter().collect()));

    let mut out = String::new();
    let _ = writeln!(out, "{}\n", study.setting);
    let _ = writeln!(
        out,
        "Speed-up = SIPP time / JPST time (above 1: JPST is faster). Times exclude \
         heuristic table builds.\n"
    );
    summary(&mut out, &groups);
    out.push('\n');
    details(&mut out, study, &groups);
    beside_sipp(&mut out, study, &groups);
    let verdict = match study.mismatches {
        0 => "all costs equal, all paths valid".to_string(),
        n => format!("{n} COST MISMATCHES"),
    };
    let _ = writeln!(out, "\n{verdict}");
    out
}

fn summary(out: &mut String, groups: &[(String, Vec<&QueryRecord>)]) {
    let _ = writeln!(
        out,
        "| already planned | queries | no path | JPST total ms | SIPP total ms | speed-up (totals) | \
         median per-query speed-up | JPST median us | SIPP median us |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (label, records) in groups {
        let (jpst, sipp) = (totals(records, JPST), totals(records, SIPP));
        let mut ratios: Vec<f64> = records.iter().map(|r| r.speedup()).collect();
        let _ = writeln!(
            out,
            "| {label} | {} | {} | {:.2} | {:.2} | {:.2}x | {:.2}x | {:.1} | {:.1} |",
            records.len(),
            records.iter().filter(|r| r.cost.is_none()).count(),
            jpst.total_ns as f64 / 1e6,
            sipp.total_ns as f64 / 1e6,
            speedup(&sipp, &jpst),
            median(&mut ratios),
            jpst.median_ns / 1e3,
            sipp.median_ns / 1e3,
        );
    }
}

/// For each planner run beside JPST and SIPP, except time-expanded A*
/// (whose budget skips queries), its own speed-up over SIPP, group by group.
fn beside_sipp(out: &mut String, study: &Study, groups: &[(String, Vec<&QueryRecord>)]) {
    for (k, name) in study.planners.iter().enumerate().skip(SIPP + 1) {
        if *name == "astar" {
            continue;
        }
        let ratios: Vec<String> = groups
            .iter()
            .map(|(label, records)| {
                let ratio = speedup(&totals(records, SIPP), &totals(records, k));
                format!("{label} {ratio:.2}x")
            })
            .collect();
        let _ = writeln!(
            out,
            "\nSIPP time / {name} time (totals): {}",
            ratios.join(", ")
        );
    }
}

fn details(out: &mut String, study: &Study, groups: &[(String, Vec<&QueryRecord>)]) {
    let _ = writeln!(
        out,
        "| already planned | planner | queries | total ms | median us | expanded | generated | \
         heuristic ms |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|");
    for (label, records) in groups {
        for (k, name) in study.planners.iter().enumerate() {
            let t = totals(records, k);
            let mut name = name.to_string();
            if t.skipped > 0 {
                let _ = write!(
                    name,
                    " ({} skipped: > {} expansions)",
                    t.skipped, study.astar_budget
                );
            }
            let _ = writeln!(
                out,
                "| {label} | {name} | {} | {:.2} | {:.1} | {} | {} | {:.1} |",
                t.queries,
                t.total_ns as f64 / 1e6,
                t.median_ns / 1e3,
                t.expanded,
                t.generated,
                t.heuristic_us as f64 / 1e3,
            );
        }
    }
}
