//! Helpers the Kafka Streams views share: highlight matching, hover callbacks,
//! task colours and number formatting.

use crate::engine::kstreams::{Reason, Role, TaskId};
use crate::ui::store::{Msg, StoreCtx, Subject, SubjectKind};
use yew::prelude::*;

/// Whether the store's highlight names `(kind, id)`.
pub fn lit(store: &StoreCtx, kind: SubjectKind, id: &str) -> bool {
    store
        .highlight
        .as_ref()
        .is_some_and(|h| h.kind == kind && h.id == id)
}

/// `Some("highlight")` when the store's highlight names `(kind, id)`.
pub fn hl(store: &StoreCtx, kind: SubjectKind, id: &str) -> Option<&'static str> {
    lit(store, kind, id).then_some("highlight")
}

/// Pointer and focus callbacks that point the store at `(kind, id)` and stop
/// pointing when the pointer (or focus) leaves.
#[derive(Clone)]
pub struct Hover {
    /// `onmouseenter`.
    pub enter: Callback<MouseEvent>,
    /// `onmouseleave`.
    pub leave: Callback<MouseEvent>,
    /// `onfocus`.
    pub focus: Callback<FocusEvent>,
    /// `onblur`.
    pub blur: Callback<FocusEvent>,
}

/// Hover callbacks for one entity.
pub fn hover(store: &StoreCtx, kind: SubjectKind, id: String) -> Hover {
    let on = {
        let store = store.clone();
        let id = id.clone();
        move || {
            if !lit(&store, kind, &id) {
                store.dispatch(Msg::Highlight(Some(Subject::new(kind, id.clone()))));
            }
        }
    };
    let off = {
        let store = store.clone();
        move || {
            if lit(&store, kind, &id) {
                store.dispatch(Msg::Highlight(None));
            }
        }
    };
    let (on2, off2) = (on.clone(), off.clone());
    Hover {
        enter: Callback::from(move |_| on()),
        leave: Callback::from(move |_| off()),
        focus: Callback::from(move |_| on2()),
        blur: Callback::from(move |_| off2()),
    }
}

/// Okabe–Ito colour class of a task (by partition, so a task keeps its colour everywhere).
pub fn task_color(t: TaskId) -> String {
    format!("tc{}", (t.partition + t.subtopology * 3) % 7)
}

/// `12,345`.
pub fn num(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `350 ms`, `4.2 s`, `10 min`, `10 min 11 s`.
pub fn duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        if ms % 1000 == 0 {
            format!("{} s", ms / 1000)
        } else {
            format!("{:.1} s", ms as f64 / 1000.0)
        }
    } else {
        let (m, s) = (ms / 60_000, (ms % 60_000) / 1000);
        if s == 0 {
            format!("{m} min")
        } else {
            format!("{m} min {s} s")
        }
    }
}

/// The serde name of a role (`active`, `standby`, `warm_up`).
pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::Active => "active",
        Role::Standby => "standby",
        Role::WarmUp => "warm_up",
    }
}

/// The serde name of a reason (`sticky`, `caught_up`, `standby_promoted`, ...).
pub fn reason_name(r: Reason) -> String {
    r.name().to_string()
}

/// A short label for a reason badge.
pub fn reason_short(r: Reason) -> &'static str {
    match r {
        Reason::Sticky => "sticky",
        Reason::CaughtUp => "caught-up",
        Reason::StandbyPromoted => "standby promoted",
        Reason::MostCaughtUp => "most caught-up",
        Reason::Balance => "balance",
        Reason::Rack => "rack",
        Reason::WarmUp => "warm-up",
        Reason::LeastLoaded => "least loaded",
        Reason::TagDiverse => "rack tags differ",
        Reason::PreviousStandby => "previous standby",
        Reason::PreviousActive => "previous active",
    }
}
