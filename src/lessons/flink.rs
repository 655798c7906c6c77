//! The Flink lessons (seed `002`: balanced tasks scheduling).
use super::Lesson;

pub(super) fn lessons() -> Vec<Lesson> {
    Vec::new()
}
