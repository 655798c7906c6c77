//! Fidelity notes.
