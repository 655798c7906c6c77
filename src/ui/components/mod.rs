//! Presentational pieces shared by every tab: the event log, the metrics chart,
//! the settings panel, the toolbar and the shortcut overlay.

pub mod canvas;
pub mod chart;
pub mod event_log;
pub mod field_error;
pub mod help;
pub mod settings;
pub mod toolbar;
pub mod workload;
