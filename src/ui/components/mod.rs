//! Presentational pieces shared by every tab: the event log, the metrics chart,
//! the settings panel, the toolbar and the shortcut overlay; the share menu
//! (export, Markdown, embed snippet), the embed view and the import panel.

pub mod canvas;
pub mod chart;
pub mod embed;
pub mod event_log;
pub mod export;
pub mod field_error;
pub mod form;
pub mod help;
pub mod import;
pub mod outcome;
pub mod settings;
pub mod share;
pub mod sparkline;
pub mod toolbar;
pub mod workload;
