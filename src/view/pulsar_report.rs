//! A Pulsar broker's load report as the leader holds it, in words: what the
//! shedder reads against the live load, and why a broker has not reported.

use crate::engine::pulsar::report::{ReportCheck, ReportDue};

/// Minutes in words ("just now", "1 min", "12 min").
fn minutes(ms: u64) -> String {
    match ms / 60_000 {
        0 => "just now".to_string(),
        m => format!("{m} min ago"),
    }
}

/// What the leader holds of a broker's load, in one sentence: its last
/// published report against the live value, and why the next one waits (the
/// report threshold and the forced interval, with their numbers). The second
/// value says whether the leader's copy is behind the live load.
pub fn report_line(r: &ReportCheck) -> (String, bool) {
    let Some(reported) = r.reported_usage.filter(|_| r.last_report_ms.is_some()) else {
        return (
            "No load report yet: the leader has no data for it until it reports (at the next Step)."
                .to_string(),
            true,
        );
    };
    let head = format!(
        "Leader's copy: {reported:.1} % (reported {}); live {:.1} %.",
        minutes(r.since_ms),
        r.live_usage
    );
    match r.due {
        Some(ReportDue::First) => (format!("{head} It reports at the next Step (first report)."), true),
        Some(ReportDue::Interval(m)) => (
            format!("{head} It reports at the next Step: {m} min since its last, more than loadBalancerReportUpdateMaxIntervalMinutes = {} min.", r.max_interval_ms / 60_000),
            true,
        ),
        Some(ReportDue::Change) => (
            format!(
                "{head} It reports at the next Step: a change of {:.1} is above loadBalancerReportUpdateThresholdPercentage = {}.",
                r.max_change(),
                r.threshold
            ),
            true,
        ),
        None if (reported - r.live_usage).abs() >= 0.05 => {
            let left = r.max_interval_ms.saturating_sub(r.since_ms).div_ceil(60_000);
            (
                format!(
                    "{head} It stays silent: a change of {:.1} is not above loadBalancerReportUpdateThresholdPercentage = {}, so the shedder keeps seeing {reported:.1} % until the forced report after loadBalancerReportUpdateMaxIntervalMinutes = {} min (in {left} min).",
                    r.max_change(),
                    r.threshold,
                    r.max_interval_ms / 60_000
                ),
                true,
            )
        }
        None => (head, false),
    }
}

/// The line a broker card shows, only when the shedder will keep seeing
/// something other than the live load after the next report phase: the broker
/// has never reported, or it stays silent (its change is not above the report
/// threshold). Short, for the card; [`report_line`] is the whole sentence.
pub fn report_short(r: &ReportCheck) -> Option<String> {
    let Some(reported) = r.reported_usage.filter(|_| r.last_report_ms.is_some()) else {
        return Some("No load report yet: the leader has no data for it.".to_string());
    };
    if r.due.is_some() || (reported - r.live_usage).abs() < 0.05 {
        return None;
    }
    let left = r.max_interval_ms.saturating_sub(r.since_ms).div_ceil(60_000);
    Some(format!(
        "Shedder sees {reported:.1} % (live {:.1} %): a change of {:.1} is not above the report threshold {}; forced report in {left} min.",
        r.live_usage,
        r.max_change(),
        r.threshold
    ))
}

/// The badge a broker card shows when the shedder still reads an old report
/// that the next report phase replaces: the broker's load changed since its
/// last report (bundles arrived after this round's report phase, say) by more
/// than the threshold, so the bars and the shedder's value differ until the
/// next Step. Short, for the card's head line; [`report_line`] says why.
pub fn report_due_badge(r: &ReportCheck) -> Option<&'static str> {
    let reported = r.reported_usage.filter(|_| r.last_report_ms.is_some())?;
    (r.due.is_some() && (reported - r.live_usage).abs() >= 0.05).then_some("reports next Step")
}
